"""The HTTP message inside a WARC ``response`` record: headers, framing, codings.

Archives store the response as it came over the wire ("The 'response' record
type SHOULD contain a full HTTP response ... including headers", WARC 1.1,
section 6.3), so the payload may still carry its chunked transfer coding and
its content coding. Some crawlers remove them but keep the headers; every step
here therefore checks that the bytes really are coded before undoing it.
"""

from __future__ import annotations

import functools
import importlib
import re
import zlib
from dataclasses import dataclass
from typing import Final

from .._extract_mime_type import extract_mime_type
from .._infra import ascii_lowercase, isomorphic_decode

#: Never inflate one body beyond this (a decompression bomb stops here).
MAX_BODY: Final = 64 << 20

# "HTML MIME type: any MIME type whose essence is "text/html"."; XHTML is
# served as application/xhtml+xml. https://mimesniff.spec.whatwg.org/#html-mime-type
HTML_ESSENCES: Final = frozenset({"text/html", "application/xhtml+xml"})

# "If the supplied MIME type is undefined or if the supplied MIME type's essence is
# "unknown/unknown", "application/unknown", or "*/*", execute the rules for
# identifying an unknown MIME type" -- https://mimesniff.spec.whatwg.org/#mime-type-sniffing-algorithm
UNKNOWN_ESSENCES: Final = frozenset({"unknown/unknown", "application/unknown", "*/*"})

# The HTML rows of "the rules for identifying an unknown MIME type": each pattern
# is matched ASCII case-insensitively, after leading whitespace bytes, and must be
# followed by a tag-terminating byte: "The tag-terminating byte (abbreviated TT) is
# any one of the following bytes: 0x20 (SP), 0x3E (">")."
# -- https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type
_HTML_PATTERNS: Final = (
    b"<!DOCTYPE HTML", b"<HTML", b"<HEAD", b"<SCRIPT", b"<IFRAME", b"<H1", b"<DIV",
    b"<FONT", b"<TABLE", b"<A", b"<STYLE", b"<TITLE", b"<B", b"<BODY", b"<BR", b"<P",
    b"<!--",
)  # fmt: skip
_TAG_TERMINATING: Final = (0x20, 0x3E)
# "A whitespace byte (abbreviated 0xWS) is any one of the following bytes:
# 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP)."
_WHITESPACE_BYTES: Final = b"\t\n\x0c\r "
# "the resource header ... 1445 bytes" -- https://mimesniff.spec.whatwg.org/#reading-the-resource-header
_RESOURCE_HEADER: Final = 1445


_HEX: Final = re.compile(rb"[0-9A-Fa-f]{1,16}")


# A header line ("field-name ":" OWS field-value OWS", RFC 9112 section 5) of the
# three fields this module reads; names are case-insensitive.
_WANTED: Final = re.compile(
    rb"^(content-type|transfer-encoding|content-encoding)[ \t]*:(.*)$", re.IGNORECASE | re.MULTILINE
)


class BrokenRecord(Exception):
    """The record cannot give a page; ``str(error)`` is the reason for the summary."""


@dataclass(frozen=True, slots=True)
class HttpResponse:
    """A parsed HTTP response: status, the headers we need, and the raw payload."""

    status: int | None
    content_type: str | None
    transfer_encoding: str | None
    content_encoding: str | None
    payload: bytes


def _get(headers: dict[str, list[str]], name: str) -> str | None:
    # "To get a header name name from a header list list ... Return the values of
    # all headers in list whose name is a byte-case-insensitive match for name,
    # separated from each other by 0x2C 0x20, in order."
    # -- https://fetch.spec.whatwg.org/#concept-header-list-get
    values = headers.get(name)
    return None if values is None else ", ".join(values)


def parse_response(block: bytes) -> HttpResponse:
    """Split a ``response`` record's block into HTTP status, headers and payload."""
    if not block.startswith(b"HTTP/"):
        raise BrokenRecord("broken: no HTTP status line")
    end = block.find(b"\r\n\r\n")
    sep = 4
    bare = block.find(b"\n\n", 0, None if end == -1 else end)
    if bare != -1:
        end, sep = bare, 2
    if end == -1:
        raise BrokenRecord("broken: HTTP headers do not end")
    head = block[:end]
    status_line = head.split(b"\n", 1)[0].split(None, 2)
    code = status_line[1] if len(status_line) > 1 else b""
    # Only three fields matter here; the others are never decoded.
    headers: dict[str, list[str]] = {}
    for name, value in _WANTED.findall(head):
        key = ascii_lowercase(isomorphic_decode(name))
        headers.setdefault(key, []).append(isomorphic_decode(value.strip(b" \t\r")))
    return HttpResponse(
        status=int(code) if code.isdigit() else None,
        content_type=_get(headers, "content-type"),
        transfer_encoding=_get(headers, "transfer-encoding"),
        content_encoding=_get(headers, "content-encoding"),
        payload=block[end + sep :],
    )


def dechunk(data: bytes) -> bytes | None:
    """Undo the chunked transfer coding; ``None`` when *data* is not chunked.

    "chunked-body = *chunk last-chunk trailer-section CRLF;
    chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF;
    chunk-size = 1*HEXDIG; last-chunk = 1*("0") [ chunk-ext ] CRLF"
    -- RFC 9112, section 7.1. A body cut short keeps the chunks received so far.
    """
    out = []
    position = 0
    while position < len(data):
        line_end = data.find(b"\n", position)
        if line_end == -1:
            if position == 0:
                return None  # one line: not chunked
            break  # cut inside a chunk-size line
        size_field = data[position:line_end].split(b";", 1)[0].strip()
        if _HEX.fullmatch(size_field) is None:
            if position == 0:
                return None  # not chunked at all
            break  # junk after the chunks: keep what came before it
        size = int(size_field, 16)
        if size == 0:
            break
        start = line_end + 1
        out.append(data[start : start + size])
        position = start + size
        if data.startswith(b"\r\n", position):
            position += 2
        elif data.startswith(b"\n", position):
            position += 1
    return b"".join(out)


def _inflate(data: bytes, wbits: int) -> bytes:
    decompressor = zlib.decompressobj(wbits)
    out = decompressor.decompress(data, MAX_BODY)
    if not out:
        raise zlib.error("no output")
    return out


def _gunzip(data: bytes) -> bytes:
    if not data.startswith(b"\x1f\x8b"):
        return data  # stored already decoded
    try:
        return _inflate(data, 16 + zlib.MAX_WBITS)
    except zlib.error:
        raise BrokenRecord("broken: bad gzip Content-Encoding") from None


def _inflate_deflate(data: bytes) -> bytes:
    # "deflate" is meant as zlib-wrapped (RFC 9110, section 8.4.1.2) but servers
    # also send raw deflate; browsers accept both.
    for wbits in (zlib.MAX_WBITS, -zlib.MAX_WBITS):
        try:
            return _inflate(data, wbits)
        except zlib.error:
            continue
    return data  # not deflate: stored already decoded


def _unbrotli(data: bytes) -> bytes:
    try:
        brotli = importlib.import_module("brotli")
    except ImportError:
        raise BrokenRecord("unsupported Content-Encoding: br (pip install brotli)") from None
    try:
        return bytes(brotli.decompress(data))
    except Exception:  # brotli.error; the module's exception type varies by binding
        return data  # not brotli: stored already decoded


_CODINGS: Final = {
    "gzip": _gunzip,
    "x-gzip": _gunzip,
    "deflate": _inflate_deflate,
    "br": _unbrotli,
}


def decode_payload(response: HttpResponse) -> bytes:
    """The response body with its transfer and content codings removed."""
    data = response.payload
    if response.transfer_encoding and "chunked" in response.transfer_encoding.lower():
        unchunked = dechunk(data)
        if unchunked is not None:
            data = unchunked
    if response.content_encoding:
        # Codings are listed in the order they were applied; undo them in reverse.
        for coding in reversed(response.content_encoding.split(",")):
            name = ascii_lowercase(coding.strip())
            if name in ("", "identity"):
                continue
            undo = _CODINGS.get(name)
            if undo is None:
                raise BrokenRecord(f"unsupported Content-Encoding: {name[:40]}")
            data = undo(data)
    return data


def html_essence(content_type: str | None, body: bytes) -> str | None:
    """The HTML MIME type essence of a response, or ``None`` when it is not HTML.

    A missing, unparsable or "unknown" Content-Type is sniffed as browsers do.
    """
    essence = content_type_essence(content_type)
    if essence is not None and essence not in UNKNOWN_ESSENCES:
        return essence if essence in HTML_ESSENCES else None
    return "text/html" if sniffs_as_html(body) else None


@functools.lru_cache(maxsize=1024)
def content_type_essence(content_type: str | None) -> str | None:
    # Crawls repeat a few hundred Content-Type values: parse each once.
    mime = None if content_type is None else extract_mime_type(content_type)
    return None if mime is None else mime.essence


def sniffs_as_html(body: bytes) -> bool:
    """The HTML rows of MIME Sniffing's rules for identifying an unknown MIME type."""
    head = body[:_RESOURCE_HEADER].lstrip(_WHITESPACE_BYTES)
    upper = head[:16].upper()
    for pattern in _HTML_PATTERNS:
        end = len(pattern)
        if upper.startswith(pattern) and len(head) > end and head[end] in _TAG_TERMINATING:
            return True
    return False


def essence_of(content_type: str | None) -> str:
    """A short description of a Content-Type for the summary of skipped records."""
    if content_type is None:
        return "no Content-Type"
    essence = content_type_essence(content_type)
    return "unparsable Content-Type" if essence is None else essence[:60]
