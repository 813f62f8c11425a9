"""The HTTP message inside a WARC ``response`` record: headers, framing, codings.

Archives store the response as it came over the wire ("The 'response' record
type SHOULD contain a full HTTP response ... including headers", WARC 1.1,
section 6.3), so the payload may still carry its chunked transfer coding and
its content coding. Some crawlers remove them but keep the headers; every step
here therefore checks that the bytes really are coded before undoing it.
"""

from __future__ import annotations

import functools
import re
from typing import Final, NamedTuple

from .._content_coding import (
    MAX_DECODED_BYTES,
    BadCoding,
    TooLarge,
    UnsupportedCoding,
    undo_content_codings,
)
from .._extract_mime_type import extract_mime_type
from .._infra import isomorphic_decode

#: The default cap on one record's block and on its decoded body (64 MiB):
#: a record over it is skipped as "too large", never cut.
MAX_BODY: Final = MAX_DECODED_BYTES

# "An HTML MIME type is a MIME type whose essence is "text/html"."
# -- https://mimesniff.spec.whatwg.org/#html-mime-type (XHTML, application/xhtml+xml,
# is an XML MIME type: decoded by the XML rules, see page_kind).
HTML_ESSENCES: Final = frozenset({"text/html"})

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
# three fields this module reads; names are case-insensitive. One search finds their
# lines only (after a LF: a header section's first line is its status line).
_WANTED: Final = re.compile(
    rb"\n(content-type|transfer-encoding|content-encoding)[ \t]*:([^\n]*)", re.IGNORECASE
)
# Field names as found (the usual spellings, and lowercase) to the lowercase name.
_NAMES: Final = {
    spelling.encode(): spelling.lower()
    for spelling in ("Content-Type", "Transfer-Encoding", "Content-Encoding")
} | {name.encode(): name for name in ("content-type", "transfer-encoding", "content-encoding")}


class BrokenRecord(Exception):
    """The record cannot give a page; ``str(error)`` is the reason for the summary."""


class HttpResponse(NamedTuple):
    """A parsed HTTP response: status, the headers we need, and the raw payload.

    (A named tuple: made once per record, and a third of the cost of a frozen dataclass.)
    """

    status: int | None
    content_type: str | None
    transfer_encoding: str | None
    content_encoding: str | None
    payload: bytes


def _split(block: bytes, start: int = 0, stop: int | None = None) -> tuple[bytes, int]:
    """The header section of the response in ``block[start:stop]`` and where its payload starts."""
    if not block.startswith(b"HTTP/", start, stop):
        raise BrokenRecord("broken: no HTTP status line")
    end = block.find(b"\r\n\r\n", start, stop)
    sep = 4
    bare = block.find(b"\n\n", start, stop if end == -1 else end)
    if bare != -1:
        end, sep = bare, 2
    if end == -1:
        raise BrokenRecord("broken: HTTP headers do not end")
    return block[start:end], end + sep


def _fields(head: bytes) -> dict[str, list[str]]:
    # Only three fields matter here; the others are never decoded.
    headers: dict[str, list[str]] = {}
    for name, value in _WANTED.findall(b"\n" + head):
        key = _NAMES.get(name)
        if key is None:
            key = _NAMES[name.lower()]
        headers.setdefault(key, []).append(isomorphic_decode(value.strip(b" \t\r")))
    return headers


def _head_values(head: bytes) -> tuple[str | None, str | None, str | None]:
    """Content-Type, Transfer-Encoding and Content-Encoding of a header section (or ``None``)."""
    # "To get a header name name from a header list list ... Return the values of
    # all headers in list whose name is a byte-case-insensitive match for name,
    # separated from each other by 0x2C 0x20, in order."
    # -- https://fetch.spec.whatwg.org/#concept-header-list-get
    values: dict[str, str] = {}
    for name, value in _WANTED.findall(head):  # the section starts with its status line
        key = _NAMES.get(name)
        if key is None:
            key = _NAMES[name.lower()]
        text = isomorphic_decode(value.strip(b" \t\r"))
        previous = values.get(key)
        values[key] = text if previous is None else f"{previous}, {text}"
    get = values.get
    return get("content-type"), get("transfer-encoding"), get("content-encoding")


# A reader asks for the Content-Type of a record's first bytes (is it a page?) and then
# parses the same header section again with its payload: the second parse is this one
# entry (values of immutable bytes: the same for every caller and thread). Sections over
# _CACHED_HEAD bytes are parsed every time, so the entry never holds a big one.
_cached_head: Final = functools.lru_cache(maxsize=1)(_head_values)
_CACHED_HEAD: Final = 1 << 14


def _parsed_head(head: bytes) -> tuple[str | None, str | None, str | None]:
    return _cached_head(head) if len(head) <= _CACHED_HEAD else _head_values(head)


def header_content_type(block: bytes) -> str | None:
    """The Content-Type of a response block (its payload is not copied)."""
    return _parsed_head(_split(block)[0])[0]


def parse_response(block: bytes, start: int = 0, stop: int | None = None) -> HttpResponse:
    """Split a ``response`` record's block into HTTP status, headers and payload.

    The block is ``block[start:stop]``: a reader that holds it inside a bigger buffer
    (a whole gzip member) passes the buffer, and only the payload is copied.
    """
    head, payload_start = _split(block, start, stop)
    status_line = head.split(b"\n", 1)[0].split(None, 2)
    code = status_line[1] if len(status_line) > 1 else b""
    content_type, transfer_encoding, content_encoding = _parsed_head(head)
    status = int(code) if code.isdigit() else None
    return HttpResponse(
        status, content_type, transfer_encoding, content_encoding, block[payload_start:stop]
    )


#: A body of more chunks than this is not dechunked (a record of one-byte chunks
#: would cost a Python step per byte): it is skipped as "broken: too many chunks".
MAX_CHUNKS: Final = 1 << 20


def dechunk(data: bytes) -> bytes | None:
    """Undo the chunked transfer coding; ``None`` when *data* is not chunked.

    "chunked-body = *chunk last-chunk trailer-section CRLF;
    chunk = chunk-size [ chunk-ext ] CRLF chunk-data CRLF;
    chunk-size = 1*HEXDIG; last-chunk = 1*("0") [ chunk-ext ] CRLF"
    -- RFC 9112, section 7.1. A body cut short keeps the chunks received so far.
    Raises :class:`BrokenRecord` for more than :data:`MAX_CHUNKS` chunks.
    """
    out = bytearray()
    position = 0
    chunks = 0
    find, fullmatch = data.find, _HEX.fullmatch
    while position < len(data):
        line_end = find(b"\n", position)
        if line_end == -1:
            if position == 0:
                return None  # one line: not chunked
            break  # cut inside a chunk-size line
        size_field = data[position:line_end].split(b";", 1)[0].strip()
        if fullmatch(size_field) is None:
            if position == 0:
                return None  # not chunked at all
            break  # junk after the chunks: keep what came before it
        size = int(size_field, 16)
        if size == 0:
            break
        chunks += 1
        if chunks > MAX_CHUNKS:
            raise BrokenRecord("broken: too many chunks")
        start = line_end + 1
        out += data[start : start + size]
        position = start + size
        if data.startswith(b"\r\n", position):
            position += 2
        elif data.startswith(b"\n", position):
            position += 1
    return bytes(out)


def decode_payload(response: HttpResponse, limit: int = MAX_BODY) -> bytes:
    """The response body with its transfer and content codings removed.

    Content codings are undone by :func:`undo_content_codings`, which stops at *limit*
    bytes. Every failure is a :class:`BrokenRecord` whose text is the skip reason:
    ``too large (over N bytes)``, ``bad content coding (gzip)`` (corrupt or truncated),
    ``unsupported content coding (compress)``.
    """
    data = response.payload
    if response.transfer_encoding and "chunked" in response.transfer_encoding.lower():
        unchunked = dechunk(data)
        if unchunked is not None:
            data = unchunked
    try:
        return undo_content_codings(data, response.content_encoding, limit=limit)
    except TooLarge:
        raise BrokenRecord(f"too large (over {limit:,} bytes)") from None
    except BadCoding as error:
        raise BrokenRecord(f"bad content coding ({str(error).split(':', 1)[0]})") from None
    except UnsupportedCoding as error:
        name = str(error).removeprefix("unsupported Content-Encoding: ").strip("'")
        raise BrokenRecord(f"unsupported content coding ({name[:60]})") from None


def _is_xml(essence: str) -> bool:
    # "An XML MIME type is any MIME type whose subtype ends in "+xml" or whose essence is
    # "text/xml" or "application/xml"." -- https://mimesniff.spec.whatwg.org/#xml-mime-type
    # (any */xml subtype counts too, as in decode_body).
    subtype = essence.partition("/")[2]
    return subtype == "xml" or subtype.endswith("+xml")


def page_kind(content_type: str | None, body: bytes | None) -> str | None:
    """``"html"``, ``"xml"`` (decoded by :func:`decode_body`'s XML rules) or ``None``.

    A missing, unparsable or "unknown" Content-Type is sniffed as browsers do
    (with *body* ``None``, such a response may still be a page: ``"html"``).
    """
    essence = content_type_essence(content_type)
    if essence is not None and essence not in UNKNOWN_ESSENCES:
        if essence in HTML_ESSENCES:
            return "html"
        return "xml" if _is_xml(essence) else None
    return "html" if body is None or sniffs_as_html(body) else None


#: Content-Type values longer than this are parsed every time, never cached: the
#: cache holds at most 1024 values of at most this length (256 KiB in all).
_CACHED_LENGTH: Final = 256


def _essence(content_type: str) -> str | None:
    mime = extract_mime_type(content_type)
    return None if mime is None else mime.essence


# Crawls repeat a few hundred Content-Type values: parse each once.
_cached_essence: Final = functools.lru_cache(maxsize=1024)(_essence)


def content_type_essence(content_type: str | None) -> str | None:
    """The essence of a Content-Type value, or ``None`` when absent or unparsable."""
    if content_type is None:
        return None
    if len(content_type) > _CACHED_LENGTH:
        return _essence(content_type)
    return _cached_essence(content_type)


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
