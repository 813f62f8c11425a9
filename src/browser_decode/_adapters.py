"""One call for the responses of requests, httpx, aiohttp, Scrapy and urllib.

Duck typing only: none of these clients is imported. Every adapter takes the
raw body bytes and the real ``Content-Type`` header (all of its values, joined
with ", " as Fetch's "get" combines them) and the response URL as the *url*
hint, then runs :func:`~browser_decode.decode_html`. The clients' own ``.text``
is never used: each decides the encoding its own way (requests: ISO-8859-1
for any ``text/*`` without charset; httpx and aiohttp: UTF-8; Scrapy/w3lib:
closest to browsers, but only the last Content-Type header and Python's
codecs, e.g. ``cp1252`` with its five undefined bytes).

Where each client keeps them:

- requests: ``.content``, ``.headers.get`` (values already combined), ``.url``;
- httpx: ``.content`` (or ``await .aread()``), ``.headers.get_list``, ``.url``;
- aiohttp: ``await .read()``, ``.headers.getall``, ``.url``;
- Scrapy: ``.body``, ``.headers.getlist`` (bytes values), ``.url``;
- urllib: ``body=`` or ``.read()``, ``.headers.get_all``, ``.url``.

Content codings: requests, httpx and aiohttp undo ``Content-Encoding``
themselves; urllib never does, and Scrapy leaves in the header the codings its
middleware did not undo. For those two the adapters undo the codings the
header names (gzip, x-gzip, deflate, br, zstd; br and zstd need the brotli and
zstandard packages) up to :data:`MAX_DECODED_BYTES`. A body that is still
compressed (gzip or zstd magic number) is a :class:`ContentCodingError`, never
a "detected" decode of compressed bytes.
"""

from __future__ import annotations

import codecs

from ._api import _coerce_optional_str, decide, decode_html
from ._content_coding import (
    MAX_DECODED_BYTES,
    BadCoding,
    ContentCodingError,
    still_compressed,
    undo_content_codings,
)
from ._detect._external import DetectorArg, resolve_detector
from ._infra import isomorphic_decode
from ._result import DecodeResult, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

__all__ = [
    "MAX_DECODED_BYTES",
    "ContentCodingError",
    "adecode_response",
    "decode_response",
    "fix_requests_encoding",
    "httpx_default_encoding",
]

_CONTENT_TYPE: Final = "Content-Type"
_CONTENT_ENCODING: Final = "Content-Encoding"

_UNSUPPORTED: Final = (
    "{func}() takes a response of requests, httpx, aiohttp (adecode_response), "
    "Scrapy or urllib (with body=...); {what} has no {missing}"
)

#: WHATWG encoding -> the Python codec whose decoding is closest to it.
#: Exact (same text for every byte sequence, in "replace" mode) for UTF-8 and
#: UTF-16; for the others Python's tables differ from the standard's indexes
#: in a few byte sequences (e.g. windows-1252 0x81 is U+0081 in browsers and
#: an error in "cp1252"; ISO-2022-JP katakana escapes are unknown to
#: "iso2022_jp"). See docs/clients.md.
PYTHON_CODECS: Final[dict[str, str]] = {
    "UTF-8": "utf-8",
    "UTF-16LE": "utf-16-le",
    "UTF-16BE": "utf-16-be",
    "IBM866": "cp866",
    "ISO-8859-2": "iso8859-2",
    "ISO-8859-3": "iso8859-3",
    "ISO-8859-4": "iso8859-4",
    "ISO-8859-5": "iso8859-5",
    "ISO-8859-6": "iso8859-6",
    "ISO-8859-7": "iso8859-7",
    "ISO-8859-8": "iso8859-8",
    "ISO-8859-8-I": "iso8859-8",
    "ISO-8859-10": "iso8859-10",
    "ISO-8859-13": "iso8859-13",
    "ISO-8859-14": "iso8859-14",
    "ISO-8859-15": "iso8859-15",
    "ISO-8859-16": "iso8859-16",
    "KOI8-R": "koi8-r",
    "KOI8-U": "koi8-u",
    "macintosh": "mac-roman",
    "windows-874": "cp874",
    "windows-1250": "cp1250",
    "windows-1251": "cp1251",
    "windows-1252": "cp1252",
    "windows-1253": "cp1253",
    "windows-1254": "cp1254",
    "windows-1255": "cp1255",
    "windows-1256": "cp1256",
    "windows-1257": "cp1257",
    "windows-1258": "cp1258",
    "x-mac-cyrillic": "mac-cyrillic",
    "GBK": "gb18030",
    "gb18030": "gb18030",
    "Big5": "big5hkscs",
    "EUC-JP": "euc-jp",
    "ISO-2022-JP": "iso2022-jp",
    "Shift_JIS": "cp932",
    "EUC-KR": "cp949",
    # No Python codec decodes like this; the nearest single-byte behaviour.
    "x-user-defined": "latin-1",
    # Registered by this module on first use (see _register_replacement_codec).
    "replacement": "browser-decode-replacement",
}

# --- the replacement encoding as a Python codec ----------------------------------
# "The replacement encoding ... exists to prevent certain attacks that abuse a
# mismatch between encodings supported in the server and the client." Its
# decoder: "1. If byte is end-of-queue, then return finished. 2. If
# replacement error returned is false, set replacement error returned to true
# and return error. 3. Return finished." -- https://encoding.spec.whatwg.org/#replacement
# So a non-empty body is one U+FFFD. Python's codecs of the same labels
# (iso2022_kr, hz) would show the text the browser hides; this codec gives
# the browser's text to requests' and httpx's ``.text``.
_REPLACEMENT_CODEC: Final = "browser-decode-replacement"


def _replacement_decode(data: Any, errors: str = "strict", /) -> tuple[str, int]:
    size = len(memoryview(data))
    return ("\ufffd" if size else ""), size


class _ReplacementDecoder(codecs.IncrementalDecoder):
    def __init__(self, errors: str = "strict") -> None:
        super().__init__(errors)
        self._returned = False

    def decode(self, input: Any, final: bool = False) -> str:
        if len(memoryview(input)) and not self._returned:
            self._returned = True
            return "\ufffd"
        return ""

    def reset(self) -> None:
        self._returned = False

    def getstate(self) -> tuple[bytes, int]:
        return b"", int(self._returned)

    def setstate(self, state: tuple[bytes, int]) -> None:
        self._returned = bool(state[1])


def _search_replacement(name: str) -> codecs.CodecInfo | None:
    if name.replace("_", "-") != _REPLACEMENT_CODEC:
        return None
    utf8 = codecs.lookup("utf-8")  # "get an output encoding": replacement -> UTF-8
    return codecs.CodecInfo(
        name=_REPLACEMENT_CODEC,
        encode=utf8.encode,
        decode=_replacement_decode,
        incrementalencoder=utf8.incrementalencoder,
        incrementaldecoder=_ReplacementDecoder,
    )


_registered: list[bool] = []


def _register_replacement_codec() -> None:
    """Make ``browser-decode-replacement`` a Python codec (once per process)."""
    if not _registered:
        # (registered, then marked: a thread that finds the mark finds the codec, and a
        # registration cut short is made again; a second one is harmless)
        codecs.register(_search_replacement)
        _registered.append(True)


# With a BOM the codec must also remove it, as "decode" does.
_BOM_CODECS: Final = {"UTF-8": "utf-8-sig", "UTF-16LE": "utf-16", "UTF-16BE": "utf-16"}


def python_codec(encoding: str, source: Source | None = None) -> str:
    """The Python codec closest to the WHATWG *encoding* (BOM-aware for ``Source.BOM``)."""
    if source is Source.BOM and encoding in _BOM_CODECS:
        return _BOM_CODECS[encoding]
    if encoding == "replacement":
        _register_replacement_codec()
    return PYTHON_CODECS[encoding]


def _header_values(headers: Any, name: str = _CONTENT_TYPE) -> list[str]:
    """All values of the header *name* in a client's header object, as str."""
    raw: list[Any]
    if hasattr(headers, "get_all"):  # email.message.Message (urllib)
        raw = headers.get_all(name) or []
    elif hasattr(headers, "get_list"):  # httpx.Headers
        raw = headers.get_list(name)
    elif hasattr(headers, "getall"):  # multidict (aiohttp)
        raw = headers.getall(name, [])
    elif hasattr(headers, "getlist"):  # scrapy.http.Headers (bytes values), werkzeug
        raw = headers.getlist(name) or []
    elif hasattr(headers, "get"):  # requests' CaseInsensitiveDict (already combined), dict
        value = headers.get(name)
        if value is None and isinstance(headers, dict):
            lower = name.lower()
            value = next((v for k, v in headers.items() if str(k).lower() == lower), None)
        raw = [] if value is None else [value]
    else:
        raise TypeError(f"response.headers of type {type(headers).__name__} is not a mapping")
    return [
        isomorphic_decode(bytes(v)) if isinstance(v, (bytes, bytearray)) else str(v) for v in raw
    ]


def _content_type(response: object, func: str) -> str | None:
    headers = getattr(response, "headers", None)
    if headers is None:
        what = type(response).__name__
        raise TypeError(_UNSUPPORTED.format(func=func, what=what, missing="headers"))
    values = _header_values(headers)
    # Fetch's "get": "the values of all headers in list whose name is a
    # byte-case-insensitive match for name, separated from each other by 0x2C
    # 0x20, in order." -- https://fetch.spec.whatwg.org/#concept-header-list-get
    return ", ".join(values) if values else None


def _url(response: object) -> str | None:
    url = getattr(response, "url", None)
    return None if url is None else str(url)


def _is_urllib(response: object) -> bool:
    return hasattr(response, "isclosed") and hasattr(response, "read")


def _decompressed(response: object, data: bytes, raw: bool) -> bytes:
    """*data* with the content codings still on it undone; compressed bytes are an error.

    *raw*: the client hands over the body as it came off the wire (urllib; Scrapy,
    whose middleware leaves in the header the codings it did not undo).
    """
    if raw:
        codings = ", ".join(_header_values(getattr(response, "headers", None), _CONTENT_ENCODING))
        data = undo_content_codings(data, codings or None, limit=MAX_DECODED_BYTES)
    coding = still_compressed(data)
    if coding is not None:
        raise BadCoding(
            f"the body is still {coding}-compressed (Content-Encoding not undone by the "
            "client): decode it first, or let the client do it"
        )
    return data


def _is_coroutine_function(function: object) -> bool:
    # inspect is imported here, on a response's first read, not by ``import browser_decode``
    # (it costs a third of that import: it imports ast, dis and tokenize).
    import inspect

    return inspect.iscoroutinefunction(function)


def _body(response: object, func: str) -> bytes:
    body = getattr(response, "body", None)  # Scrapy
    if isinstance(body, (bytes, bytearray)):
        return _decompressed(response, bytes(body), raw=True)
    content = getattr(response, "content", None)  # requests, httpx
    if isinstance(content, (bytes, bytearray)):
        return _decompressed(response, bytes(content), raw=False)
    read = getattr(response, "read", None)
    if read is not None and _is_coroutine_function(read):
        raise TypeError(f"{func}() got an async response: use 'await adecode_response(response)'")
    if read is not None and hasattr(response, "isclosed"):  # http.client.HTTPResponse
        if response.isclosed():
            raise TypeError(
                f"{func}(): this urllib response was already read; pass its bytes as body="
            )
        data = read()
        if isinstance(data, (bytes, bytearray)):
            return _decompressed(response, bytes(data), raw=True)
    what = type(response).__name__
    raise TypeError(_UNSUPPORTED.format(func=func, what=what, missing="raw body (bytes)"))


def decode_response(
    response: object,
    *,
    body: bytes | None = None,
    default_encoding: str | None = None,
    detector: DetectorArg = None,
) -> DecodeResult:
    """Decode an HTTP client's response as a browser would: ``decode_html`` on its raw bytes.

    Works with a ``requests.Response``, an ``httpx.Response`` (read), a Scrapy
    ``Response`` and urllib's ``http.client.HTTPResponse``: pass the bytes you
    already read as *body*, or the response is read here (urllib's body is a
    stream). The Content-Type header and the URL come from the response; the
    body's type decides the rules (HTML, XML, JSON, text: docs/body-types.md).

    urllib's and Scrapy's bodies are decompressed as their ``Content-Encoding``
    says, up to 64 MiB (:data:`MAX_DECODED_BYTES`). Raises
    :class:`ContentCodingError` for a body that is still compressed, corrupt,
    over the cap or in a coding this installation cannot undo;
    :class:`TypeError` for objects that are not responses; use
    :func:`adecode_response` for aiohttp.
    """
    default_encoding = _coerce_optional_str(default_encoding, "default_encoding")
    detector = resolve_detector(detector)
    content_type = _content_type(response, "decode_response")
    if body is not None:
        body = _decompressed(response, bytes(body), raw=_is_urllib(response))
    data = body if body is not None else _body(response, "decode_response")
    return decode_html(
        data,
        content_type,
        url=_url(response),
        default_encoding=default_encoding,
        detector=detector,
    )


async def adecode_response(
    response: object, *, default_encoding: str | None = None, detector: DetectorArg = None
) -> DecodeResult:
    """:func:`decode_response` for async clients: ``await`` the body, then decode.

    aiohttp's ``ClientResponse`` (``await response.read()``) and a streamed
    ``httpx.Response`` from an ``AsyncClient`` (``await response.aread()``);
    both undo the content codings themselves (a body that is still compressed
    is a :class:`ContentCodingError`).
    """
    default_encoding = _coerce_optional_str(default_encoding, "default_encoding")
    detector = resolve_detector(detector)
    content_type = _content_type(response, "adecode_response")
    reader = getattr(response, "aread", None) or getattr(response, "read", None)
    if reader is None or not _is_coroutine_function(reader):
        what = type(response).__name__
        raise TypeError(
            _UNSUPPORTED.format(func="adecode_response", what=what, missing="async read()")
        )
    data = await reader()
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"adecode_response(): read() gave {type(data).__name__}, not bytes")
    data = _decompressed(response, bytes(data), raw=False)
    return decode_html(
        data,
        content_type,
        url=_url(response),
        default_encoding=default_encoding,
        detector=detector,
    )


def fix_requests_encoding(response: Any, *, detector: DetectorArg = None) -> DecodeResult:
    """Set ``response.encoding`` of a ``requests.Response`` to what a browser would use.

    Returns the exact :class:`~browser_decode.DecodeResult`. ``response.text``
    then decodes with the closest *Python* codec (requests only runs Python
    codecs): identical to ``result.text`` for UTF-8 and UTF-16 (with or
    without BOM) and for every body that avoids the few byte sequences where
    Python's tables differ from the standard's (see docs/clients.md). When the
    text matters byte for byte, use the returned ``result.text``.

    The "replacement" encoding (``charset=iso-2022-kr``, ``hz-gb-2312``, ...)
    becomes the codec ``browser-decode-replacement``, registered on first use:
    ``response.text`` is then one U+FFFD, as in a browser, never the text the
    label would hide. A read ``httpx.Response`` works too (its ``encoding`` is
    settable before ``.text`` is first read).
    """
    if not hasattr(response, "encoding"):
        raise TypeError(
            f"fix_requests_encoding() takes a requests.Response, not {type(response).__name__}"
        )
    result = decode_response(response, detector=detector)
    response.encoding = python_codec(result.encoding, result.source)
    return result


def httpx_default_encoding(content: bytes) -> str:
    """A ``default_encoding`` callable for httpx: the browser's choice, as a Python codec.

    ``httpx.Client(default_encoding=browser_decode.httpx_default_encoding)``.
    httpx calls it only when the Content-Type has no charset (or one Python
    does not know), with the body bytes; it returns the Python codec closest to
    the encoding that BOM, ``<meta>`` prescan, UTF-8 validity and detection
    choose (see :data:`PYTHON_CODECS` for where the codec is not exact). A
    ``<meta>`` naming the "replacement" encoding gives ``browser-decode-replacement``
    (one U+FFFD). The hook never sees the header: for a header charset of the
    replacement encoding httpx either decodes with Python's codec of that name
    (``iso-2022-kr``, ``csiso2022kr``, ``hz-gb-2312``) or asks the hook about the
    body alone; call :func:`fix_requests_encoding` on the response (or use
    :func:`decode_response`) to be safe there.
    """
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise TypeError(f"httpx_default_encoding() takes bytes, not {type(content).__name__}")
    hint = decide(bytes(content), None)
    return python_codec(hint.encoding.name, hint.source)
