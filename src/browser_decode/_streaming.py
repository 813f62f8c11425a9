"""``StreamDecoder``: decode a body that arrives in chunks, as a browser does.

The decision follows :func:`browser_decode.decode_html` and is made as early
as the bytes allow:

* a byte order mark: after at most 3 bytes;
* a ``charset`` in the Content-Type: as soon as the first bytes cannot be a
  BOM (a BOM beats the header);
* a ``<meta>`` found by the prescan: as soon as the prescan of the bytes
  received so far finds it complete (a prefix on which the prescan succeeds
  gives the same answer as the first 1024 bytes, see :func:`_prescan_prefix`);
  an XML declaration: once 1024 bytes have arrived;
* a ``<meta>`` found by the head scan beyond 1024 bytes: soon after it has
  arrived complete (the same argument; the scan is repeated after every
  512 bytes or 1/8 of the buffer, whichever is more);
* otherwise (nothing declared in the head): after
  ``buffer_limit`` bytes (default 1 MiB) or at :meth:`StreamDecoder.close`,
  whichever comes first; then the later stages (the bounded head scan of
  64 KiB, valid UTF-8, detection, the default) run on what was buffered.

Then every chunk is decoded at once up to a cut where decoding the parts
provably equals decoding the whole (:mod:`browser_decode._split`); the few
bytes after it are carried to the next chunk.

**Equal to** ``decode_html(whole body)`` (text and provenance) for every
chunking, except in one documented case: an *undeclared* body (no BOM, no
header charset, no ``<meta>`` in the first 64 KiB) longer than
``buffer_limit``. Its encoding is then chosen from the first
``buffer_limit`` bytes (cut after a complete UTF-8 sequence), while
``decode_html`` looks at the whole body: e.g. a 3 MiB page whose first MiB
is ASCII and whose later bytes are windows-1251 is ``utf-8`` here and
``detected`` there.

Memory: at most ``buffer_limit`` bytes while undecided, then the carry (at
most 3 bytes; ISO-2022-JP: at most 1 KiB) plus the chunk being decoded and
its text.
"""

from __future__ import annotations

from typing import Final

from ._api import _coerce_content_type, _coerce_optional_str, decide
from ._bom_sniff import bom_sniff
from ._decoders import _ENCODED_FFFD, utf16_encoded_replacements
from ._extract_mime_type import MimeType, extract_mime_type, legacy_extract_an_encoding
from ._head_scan import HEAD_SCAN_LIMIT, head_scan
from ._hint import EncodingHint
from ._prescan import PRESCAN_LIMIT, _OutOfBytes, _scan, prescan_stage
from ._result import Provenance
from ._split import split_point

#: Bytes buffered before an undeclared body's encoding is decided.
DEFAULT_BUFFER_LIMIT: Final = 1 << 20

# "If BOM starts with the bytes given in the first column ..."
# -- https://encoding.spec.whatwg.org/#bom-sniff (needs up to 3 bytes)
_BOMS: Final = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")


def _could_become_bom(data: bytes) -> bool:
    return len(data) < 3 and any(bom.startswith(data) for bom in _BOMS)


def _prescan_prefix(data: bytes) -> EncodingHint | None:
    """The prescan's answer if the bytes so far already settle it, else ``None``.

    The prescan reads bytes strictly forward and "runs out of bytes" (an
    exception here) whenever it would need one past the end; every ``find``
    it does is for the first occurrence. So if the scan of a prefix *returns*
    a ``<meta>`` declaration, the scan of any longer input reads the same bytes
    and returns the same one. The XML-declaration fallback that follows running
    out of bytes is *not* used on a prefix: a ``<meta>`` after ``<?xml ...?>``
    might still arrive and would win.
    """
    try:
        found = _scan(data)
    except _OutOfBytes:
        return None
    return None if found is None else found.hint()


def _coerce_chunk(chunk: object) -> bytes:
    if isinstance(chunk, bytes):
        return chunk
    if isinstance(chunk, (bytearray, memoryview)):
        return bytes(chunk)
    raise TypeError(f"StreamDecoder.feed() takes bytes, not {type(chunk).__name__}")


class StreamDecoder:
    """Incremental :func:`~browser_decode.decode_html` for bodies read in chunks.

    >>> decoder = StreamDecoder("text/html")
    >>> parts = [decoder.feed(b"<meta charset=shift_jis>\\x82"), decoder.feed(b"\\xa0")]
    >>> parts.append(decoder.close())
    >>> "".join(parts)[-1], str(decoder.provenance)
    ('あ', 'Shift_JIS (meta)')

    :meth:`feed` returns the text that is ready (possibly ``""`` while the
    encoding is undecided or a character is incomplete); :meth:`close`
    returns the rest. :attr:`provenance` is ``None`` until the encoding is
    decided; its ``replacements`` count is final after :meth:`close`.
    """

    def __init__(
        self,
        content_type: str | bytes | None = None,
        *,
        url: str | None = None,
        default_encoding: str | None = None,
        buffer_limit: int = DEFAULT_BUFFER_LIMIT,
    ) -> None:
        self._content_type = _coerce_content_type(content_type)
        self._url = _coerce_optional_str(url, "url")
        self._default_encoding = _coerce_optional_str(default_encoding, "default_encoding")
        if not isinstance(buffer_limit, int) or isinstance(buffer_limit, bool):
            raise TypeError("buffer_limit must be an int")
        # The head scan must see all of its 64 KiB, plus a UTF-8 sequence.
        self._limit = max(buffer_limit, HEAD_SCAN_LIMIT + 4)
        self._mime: MimeType | None = (
            None if self._content_type is None else extract_mime_type(self._content_type)
        )
        self._html = self._mime is None or self._mime.essence == "text/html"
        self._buffer = bytearray()  # bytes before the decision
        self._pending = b""  # bytes after the decision that are not decoded yet
        # ISO-2022-JP: the carry may start with a prefix that re-creates the
        # decoder state; its first ``_drop`` characters of text are not the body's.
        self._drop = 0
        self._protect = 0
        self._hint: EncodingHint | None = None
        self._prescanned = False  # the first 1024 bytes were prescanned (nothing found)
        self._head_scanned = False  # the head scan has seen all it ever reads
        self._next_head_scan = 0  # buffer size at which to run the head scan again
        self._closed = False
        self._fffd = 0
        self._encoded_fffd = 0
        self._last = b""  # the end of the previous segment (for encoded U+FFFD across cuts)

    @property
    def provenance(self) -> Provenance | None:
        """How the encoding was decided, or ``None`` before the decision."""
        hint = self._hint
        if hint is None:
            return None
        return Provenance(
            encoding=hint.encoding.name,
            source=hint.source,
            confidence=hint.confidence,
            label=hint.label,
            offset=hint.offset,
            replacements=max(self._fffd - self._encoded_fffd, 0),
            score=hint.score,
            runner_up=hint.runner_up,
            binary=hint.binary,
        )

    @property
    def encoding(self) -> str | None:
        """The WHATWG name of the encoding, or ``None`` before the decision."""
        return None if self._hint is None else self._hint.encoding.name

    def feed(self, chunk: bytes | bytearray | memoryview) -> str:
        """Add the next bytes; return the text they complete."""
        data = _coerce_chunk(chunk)
        if self._closed:
            raise ValueError("StreamDecoder.feed() after close()")
        if self._hint is None:
            self._buffer += data
            hint = self._try_decide(final=False)
            if hint is None:
                return ""
            return self._start(hint)
        return self._decode(self._pending + data, final=False)

    def close(self) -> str:
        """Signal the end of the body; return the remaining text."""
        if self._closed:
            return ""
        self._closed = True
        if self._hint is None:
            hint = self._try_decide(final=True)
            assert hint is not None
            return self._start(hint, final=True)
        return self._decode(self._pending, final=True)

    def _try_decide(self, *, final: bool) -> EncodingHint | None:
        buffered = len(self._buffer)
        head = bytes(self._buffer[:3])
        hint = bom_sniff(head)
        if hint is not None:
            return hint
        if not final and _could_become_bom(head):
            return None
        hint = legacy_extract_an_encoding(self._mime)
        if hint is not None:
            return hint
        if self._html and not final:
            if buffered < PRESCAN_LIMIT:
                return _prescan_prefix(bytes(self._buffer))
            hint = self._scan_head()
            if hint is not None:
                return hint
        if not final and buffered < self._limit:
            return None  # no copy of the buffer while waiting
        data = bytes(self._buffer)
        if not final:
            # Decide on complete UTF-8 sequences only, so that a character cut
            # by the limit does not make valid UTF-8 look invalid.
            data = data[: split_point("UTF-8", data)[0]]
        return decide(
            data, self._content_type, url=self._url, default_encoding=self._default_encoding
        )

    def _scan_head(self) -> EncodingHint | None:
        """The prescan of the first 1024 bytes, then the head scan of what has arrived.

        The prescan reads exactly the first 1024 bytes, as ``decode_html``
        does. The head scan of a prefix that *finds* a ``<meta>`` finds the
        same one in the whole body (it reads forward, a truncated tag runs out
        of bytes, every ``find`` is for the first occurrence); once 64 KiB
        have arrived its answer is final either way.
        """
        if not self._prescanned:
            self._prescanned = True
            hint = prescan_stage(bytes(self._buffer[:PRESCAN_LIMIT]))
            if hint is not None:
                return hint
        buffered = len(self._buffer)
        if self._head_scanned or buffered < self._next_head_scan:
            return None
        # Rescan only after some growth, so that tiny chunks cost no more than
        # about 40 head scans of at most 64 KiB.
        self._next_head_scan = buffered + max(512, buffered // 8)
        self._head_scanned = buffered >= HEAD_SCAN_LIMIT
        return head_scan(bytes(self._buffer[:HEAD_SCAN_LIMIT]))

    def _start(self, hint: EncodingHint, final: bool = False) -> str:
        self._hint = hint
        data = bytes(self._buffer[hint.skip :])
        self._buffer = bytearray()
        return self._decode(data, final=final)

    def _decode(self, data: bytes, *, final: bool) -> str:
        assert self._hint is not None
        name = self._hint.encoding.name
        if name == "replacement":
            # "2. If replacement error returned is false, set replacement error
            # returned to true and return error. 3. Return finished."
            # -- https://encoding.spec.whatwg.org/#replacement-decoder
            self._pending = b""
            if data and self._fffd == 0:
                self._fffd = 1
                return "\ufffd"
            return ""
        if final:
            cut, prefix, drop = len(data), b"", 0
        else:
            cut, prefix, drop = split_point(name, data, self._protect)
        if not cut:
            self._pending = data
            return ""
        text = self._hint.encoding.decode(data[:cut])[self._drop :]
        self._count(name, data[:cut], text)
        self._pending, self._drop, self._protect = prefix + data[cut:], drop, len(prefix)
        return text

    def _count(self, name: str, segment: bytes, text: str) -> None:
        """Keep the count that ``count_replacements`` gives for the whole body."""
        self._fffd += text.count("\ufffd")
        encoded = _ENCODED_FFFD.get(name)
        if encoded is not None:
            # The encoded sequences cannot overlap themselves, so occurrences
            # across the cut are those of the last bytes + this segment.
            self._encoded_fffd += (self._last + segment).count(encoded)
            self._last = segment[-(len(encoded) - 1) :]
        elif name in ("UTF-16LE", "UTF-16BE"):
            # segments are cut at even offsets (_split), so units stay aligned
            self._encoded_fffd += utf16_encoded_replacements(name, segment)
