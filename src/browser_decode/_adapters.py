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
"""

from __future__ import annotations

import inspect
from typing import Any, Final

from ._api import _coerce_optional_str, decide, decode_html
from ._infra import isomorphic_decode
from ._result import DecodeResult, Source

_CONTENT_TYPE: Final = "Content-Type"

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
    # No Python codec decodes like these; the nearest single-byte behaviour.
    "x-user-defined": "latin-1",
    "replacement": "utf-8",
}

# With a BOM the codec must also remove it, as "decode" does.
_BOM_CODECS: Final = {"UTF-8": "utf-8-sig", "UTF-16LE": "utf-16", "UTF-16BE": "utf-16"}


def python_codec(encoding: str, source: Source | None = None) -> str:
    """The Python codec closest to the WHATWG *encoding* (BOM-aware for ``Source.BOM``)."""
    if source is Source.BOM and encoding in _BOM_CODECS:
        return _BOM_CODECS[encoding]
    return PYTHON_CODECS[encoding]


def _header_values(headers: Any) -> list[str]:
    """All ``Content-Type`` values of a client's header object, as str."""
    raw: list[Any]
    if hasattr(headers, "get_all"):  # email.message.Message (urllib)
        raw = headers.get_all(_CONTENT_TYPE) or []
    elif hasattr(headers, "get_list"):  # httpx.Headers
        raw = headers.get_list(_CONTENT_TYPE)
    elif hasattr(headers, "getall"):  # multidict (aiohttp)
        raw = headers.getall(_CONTENT_TYPE, [])
    elif hasattr(headers, "getlist"):  # scrapy.http.Headers (bytes values), werkzeug
        raw = headers.getlist(_CONTENT_TYPE) or []
    elif hasattr(headers, "get"):  # requests' CaseInsensitiveDict (already combined), dict
        value = headers.get(_CONTENT_TYPE)
        if value is None and isinstance(headers, dict):
            value = next((v for k, v in headers.items() if str(k).lower() == "content-type"), None)
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


def _body(response: object, func: str) -> bytes:
    body = getattr(response, "body", None)  # Scrapy
    if isinstance(body, (bytes, bytearray)):
        return bytes(body)
    content = getattr(response, "content", None)  # requests, httpx
    if isinstance(content, (bytes, bytearray)):
        return bytes(content)
    read = getattr(response, "read", None)
    if read is not None and inspect.iscoroutinefunction(read):
        raise TypeError(f"{func}() got an async response: use 'await adecode_response(response)'")
    if read is not None and hasattr(response, "isclosed"):  # http.client.HTTPResponse
        if response.isclosed():
            raise TypeError(
                f"{func}(): this urllib response was already read; pass its bytes as body="
            )
        data = read()
        if isinstance(data, (bytes, bytearray)):
            return bytes(data)
    what = type(response).__name__
    raise TypeError(_UNSUPPORTED.format(func=func, what=what, missing="raw body (bytes)"))


def decode_response(
    response: object, *, body: bytes | None = None, default_encoding: str | None = None
) -> DecodeResult:
    """Decode an HTTP client's response as a browser would: ``decode_html`` on its raw bytes.

    Works with a ``requests.Response``, an ``httpx.Response`` (read), a Scrapy
    ``Response`` and urllib's ``http.client.HTTPResponse``: pass the bytes you
    already read as *body*, or the response is read here (urllib's body is a
    stream). The Content-Type header and the URL come from the response.
    Raises :class:`TypeError` for other objects; use :func:`adecode_response`
    for aiohttp.
    """
    default_encoding = _coerce_optional_str(default_encoding, "default_encoding")
    content_type = _content_type(response, "decode_response")
    data = body if body is not None else _body(response, "decode_response")
    return decode_html(data, content_type, url=_url(response), default_encoding=default_encoding)


async def adecode_response(
    response: object, *, default_encoding: str | None = None
) -> DecodeResult:
    """:func:`decode_response` for async clients: ``await`` the body, then decode.

    aiohttp's ``ClientResponse`` (``await response.read()``) and a streamed
    ``httpx.Response`` from an ``AsyncClient`` (``await response.aread()``).
    """
    default_encoding = _coerce_optional_str(default_encoding, "default_encoding")
    content_type = _content_type(response, "adecode_response")
    reader = getattr(response, "aread", None) or getattr(response, "read", None)
    if reader is None or not inspect.iscoroutinefunction(reader):
        what = type(response).__name__
        raise TypeError(
            _UNSUPPORTED.format(func="adecode_response", what=what, missing="async read()")
        )
    data = await reader()
    return decode_html(data, content_type, url=_url(response), default_encoding=default_encoding)


def fix_requests_encoding(response: Any) -> DecodeResult:
    """Set ``response.encoding`` of a ``requests.Response`` to what a browser would use.

    Returns the exact :class:`~browser_decode.DecodeResult`. ``response.text``
    then decodes with the closest *Python* codec (requests only runs Python
    codecs): identical to ``result.text`` for UTF-8 and UTF-16 (with or
    without BOM) and for every body that avoids the few byte sequences where
    Python's tables differ from the standard's (see docs/clients.md). When the
    text matters byte for byte, use the returned ``result.text``.
    """
    if not hasattr(response, "encoding"):
        raise TypeError(
            f"fix_requests_encoding() takes a requests.Response, not {type(response).__name__}"
        )
    result = decode_response(response)
    response.encoding = python_codec(result.encoding, result.source)
    return result


def httpx_default_encoding(content: bytes) -> str:
    """A ``default_encoding`` callable for httpx: the browser's choice, as a Python codec.

    ``httpx.Client(default_encoding=browser_decode.httpx_default_encoding)``.
    httpx calls it only when the Content-Type has no charset (or one Python
    does not know), with the body bytes; it returns the Python codec closest to
    the encoding that BOM, ``<meta>`` prescan, UTF-8 validity and detection
    choose (see :data:`PYTHON_CODECS` for where the codec is not exact).
    """
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise TypeError(f"httpx_default_encoding() takes bytes, not {type(content).__name__}")
    hint = decide(bytes(content), None)
    return python_codec(hint.encoding.name, hint.source)
