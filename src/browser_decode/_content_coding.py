"""Undoing HTTP content codings with a cap on the output (not a pipeline stage).

"The Content-Encoding header field indicates what content codings have been applied to the
representation, beyond those inherent in the media type ... If one or more encodings have been
applied to a representation, the sender that applied the encodings MUST generate a
Content-Encoding header field that lists the content codings in the order in which they were
applied." -- RFC 9110, section 8.4

Shared by the WARC wing, the HTTP adapters and the command line, so that every entry point
stops a decompression bomb at the same documented cap and reports a broken stream the same
way: :class:`ContentCodingError` and its three subclasses, never a silent cut and never the
compressed bytes passed on as if they were the page.

Archives and some clients keep the Content-Encoding header after the body was already
decoded; a body that does not start like the named coding (gzip's and zstd's magic numbers; for
deflate and br, a stream that fails on its first bytes while the body starts like markup) is
therefore returned as it is.
"""

from __future__ import annotations

import importlib
import re
import zlib
from collections.abc import Callable

from ._infra import ascii_lowercase

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Protocol

    # (for type checkers only: run time needs no Protocol class, and so no typing)
    class _Decompressor(Protocol):
        @property
        def eof(self) -> bool: ...
        @property
        def unused_data(self) -> bytes: ...
        @property
        def unconsumed_tail(self) -> bytes: ...
        def decompress(self, data: bytes, max_length: int = ..., /) -> bytes: ...


#: The default cap on one decoded body: 64 MiB (a page larger than that is not a web page).
MAX_DECODED_BYTES: Final = 64 << 20

_GZIP_MAGIC: Final = b"\x1f\x8b"
# "Magic_Number: 4 Bytes, little-endian format. Value: 0xFD2FB528" -- RFC 8878, section 3.1.1
_ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"
_STEP: Final = 1 << 20
_ZSTD_PIECE: Final = 256
_CONTROL: Final = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")


class ContentCodingError(ValueError):
    """A body whose content coding cannot be undone; ``reason`` is a short fixed phrase."""

    reason = "content coding error"

    def __init__(self, message: str) -> None:
        super().__init__(message)


class TooLarge(ContentCodingError):
    """The decoded body would exceed the cap."""

    reason = "too large"


class BadCoding(ContentCodingError):
    """The body claims a coding but is corrupt or truncated."""

    reason = "bad content coding"


class UnsupportedCoding(ContentCodingError):
    """A coding this installation cannot undo (unknown, or its package is missing)."""

    reason = "unsupported content coding"


def _looks_like_markup(data: bytes) -> bool:
    """Whether a body that failed to decompress is plain text that was never compressed.

    Its first 256 bytes after white space must start with ``<``, ``{`` or ``[`` and contain no
    control byte: a compressed stream does so by chance with a probability below 2**-60.
    """
    head = data[:256].lstrip(b"\t\n\x0c\r \xef\xbb\xbf")
    if not head:
        return True
    return head[:1] in (b"<", b"{", b"[") and not _CONTROL.search(head)


def _drain(make: Callable[[], _Decompressor], data: bytes, limit: int, name: str) -> bytes:
    """Run zlib-style decompressors over every member of ``data``, at most ``limit`` bytes out."""
    out: list[bytes] = []
    size = 0
    rest = data
    while True:
        decompressor = make()
        pending = rest
        while True:
            chunk = decompressor.decompress(pending, min(_STEP, limit + 1 - size))
            size += len(chunk)
            out.append(chunk)
            if size > limit:
                raise TooLarge(f"{name}: decoded body over {limit:,} bytes")
            pending = decompressor.unconsumed_tail
            if decompressor.eof or (not pending and not chunk):
                break
        if not decompressor.eof:
            raise BadCoding(f"{name}: truncated stream")
        rest = decompressor.unused_data
        # Further gzip members are decoded as well; anything else after the end is ignored.
        if not rest.startswith(_GZIP_MAGIC) or name != "gzip":
            return b"".join(out)


def _gunzip(data: bytes, limit: int) -> bytes:
    if not data.startswith(_GZIP_MAGIC):
        return data  # stored already decoded
    try:
        return _drain(lambda: zlib.decompressobj(16 + zlib.MAX_WBITS), data, limit, "gzip")
    except zlib.error as error:
        raise BadCoding(f"gzip: {error}") from None


def _inflate(data: bytes, limit: int) -> bytes:
    # "deflate" means the zlib format (RFC 9110, section 8.4.1.2), but servers also send raw
    # deflate and browsers accept both.
    wbits = zlib.MAX_WBITS if len(data) > 1 and int.from_bytes(data[:2], "big") % 31 == 0 else -15
    try:
        return _drain(lambda: zlib.decompressobj(wbits), data, limit, "deflate")
    except zlib.error as error:
        if _looks_like_markup(data):
            return data  # stored already decoded
        raise BadCoding(f"deflate: {error}") from None
    except BadCoding:
        if _looks_like_markup(data):
            return data
        raise


def _unbrotli(data: bytes, limit: int) -> bytes:
    try:
        brotli = importlib.import_module("brotli")
    except ImportError:
        raise UnsupportedCoding("br: needs the brotli package") from None
    decompressor = brotli.Decompressor()
    out: list[bytes] = []
    size = 0
    try:
        pending = data
        while True:
            chunk = bytes(decompressor.process(pending, output_buffer_limit=_STEP))
            pending = b""
            size += len(chunk)
            out.append(chunk)
            if size > limit:
                raise TooLarge(f"br: decoded body over {limit:,} bytes")
            if decompressor.is_finished() or (not chunk and decompressor.can_accept_more_data()):
                break
    except brotli.error as error:
        if size == 0 and _looks_like_markup(data):
            return data  # stored already decoded
        raise BadCoding(f"br: {error}") from None
    if not decompressor.is_finished():
        if size == 0 and _looks_like_markup(data):
            return data
        raise BadCoding("br: truncated stream")
    return b"".join(out)


def _unzstd(data: bytes, limit: int) -> bytes:
    if not data.startswith(_ZSTD_MAGIC):
        return data  # stored already decoded
    try:
        zstandard = importlib.import_module("zstandard")
    except ImportError:
        raise UnsupportedCoding(
            "zstd: needs the zstandard package (pip install zstandard)"
        ) from None
    # zstandard's decompressobj has no output bound: feed it small pieces of input, so that one
    # piece can overshoot the cap by at most a few MiB before the check stops it.
    decompressor = zstandard.ZstdDecompressor().decompressobj()
    out: list[bytes] = []
    size = 0
    try:
        for start in range(0, len(data), _ZSTD_PIECE):
            chunk = decompressor.decompress(data[start : start + _ZSTD_PIECE])
            size += len(chunk)
            out.append(chunk)
            if size > limit:
                raise TooLarge(f"zstd: decoded body over {limit:,} bytes")
            if decompressor.eof:
                break
    except zstandard.ZstdError as error:
        raise BadCoding(f"zstd: {error}") from None
    if not decompressor.eof:
        raise BadCoding("zstd: truncated stream")
    return b"".join(out)


_CODINGS: Final[dict[str, Callable[[bytes, int], bytes]]] = {
    "gzip": _gunzip,
    "x-gzip": _gunzip,
    "deflate": _inflate,
    "br": _unbrotli,
    "zstd": _unzstd,
}


def undo_content_codings(
    body: bytes, content_encoding: str | None, *, limit: int = MAX_DECODED_BYTES
) -> bytes:
    """``body`` with the codings of a Content-Encoding value undone, last applied first.

    Raises :class:`TooLarge` when the decoded body would exceed ``limit`` bytes,
    :class:`BadCoding` for a corrupt or truncated stream and :class:`UnsupportedCoding` for a
    coding it cannot undo. ``identity`` and empty entries are skipped.
    """
    if not content_encoding:
        return body
    data = body
    for coding in reversed(content_encoding.split(",")):
        name = ascii_lowercase(coding.strip(" \t"))
        if name in ("", "identity"):
            continue
        undo = _CODINGS.get(name)
        if undo is None:
            raise UnsupportedCoding(f"unsupported Content-Encoding: {name[:40]!r}")
        data = undo(data, limit)
    if len(data) > limit:
        raise TooLarge(f"body over {limit:,} bytes")
    return data


def still_compressed(body: bytes) -> str | None:
    """The name of the coding a body evidently still carries (gzip, zstd), or ``None``.

    For a body given as already decoded: a page never starts with these magic numbers, so
    decoding it as text would only produce a "detected" garble.
    """
    if body.startswith(_GZIP_MAGIC + b"\x08"):
        return "gzip"
    if body.startswith(_ZSTD_MAGIC):
        return "zstd"
    return None
