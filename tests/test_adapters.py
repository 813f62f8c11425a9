"""decode_response & co. with the real clients against a local server.

Each test id says what the client's own ``.text`` gives (``text_ok`` or
``text_WRONG``) next to what ``decode_response`` decides, e.g.
``meta_only-requests_text_WRONG-vs-decode_response_Shift_JIS``.
"""

from __future__ import annotations

import asyncio
import http.client
import urllib.request
from typing import Any, ClassVar

import pytest

from browser_decode import (
    StreamDecoder,
    adecode_response,
    decode_html,
    decode_response,
    fix_requests_encoding,
    httpx_default_encoding,
)

from .conftest import PAGES, Page

requests = pytest.importorskip("requests")
httpx = pytest.importorskip("httpx")

# What each client's own .text gives for each page (measured; asserted below so
# that a change in a client shows up): True = the browser's text.
CLIENT_TEXT_OK = {
    "requests": {"no_charset": False, "charset_in_header": True},
    "httpx": {"no_charset": True, "charset_in_header": True},
    "aiohttp": {"no_charset": True, "charset_in_header": True},
    "scrapy": {page.name: True for page in PAGES},
}


def _text_ok(client: str, page: Page) -> bool:
    return CLIENT_TEXT_OK[client].get(page.name, False)


def _cases(client: str) -> list[Any]:
    return [
        pytest.param(
            page,
            id=f"{page.name}-{client}_text_{'ok' if _text_ok(client, page) else 'WRONG'}"
            f"-vs-decode_response_{page.encoding}",
        )
        for page in PAGES
    ]


def _check(result: Any, page: Page) -> None:
    assert result.text == page.text
    assert (result.encoding, str(result.source)) == (page.encoding, page.source)
    assert tuple(result) == tuple(decode_html(page.body, page.content_type))


@pytest.mark.parametrize("page", _cases("requests"))
def test_requests(server: str, page: Page) -> None:
    response = requests.get(f"{server}/{page.name}", timeout=10)
    assert (response.text == page.text) is _text_ok("requests", page)
    _check(decode_response(response), page)


@pytest.mark.parametrize("page", _cases("requests"))
def test_fix_requests_encoding_makes_requests_text_right(server: str, page: Page) -> None:
    response = requests.get(f"{server}/{page.name}", timeout=10)
    result = fix_requests_encoding(response)
    _check(result, page)
    assert response.text == page.text


def test_requests_streamed_with_iter_content(server: str) -> None:
    page = PAGES[2]  # meta_only
    with requests.get(f"{server}/{page.name}", stream=True, timeout=10) as response:
        decoder = StreamDecoder(response.headers.get("Content-Type"), url=response.url)
        text = "".join(decoder.feed(chunk) for chunk in response.iter_content(7))
        text += decoder.close()
    assert text == page.text
    assert str(decoder.provenance) == "Shift_JIS (meta)"


@pytest.mark.parametrize("page", _cases("httpx"))
def test_httpx(server: str, page: Page) -> None:
    response = httpx.get(f"{server}/{page.name}")
    assert (response.text == page.text) is _text_ok("httpx", page)
    _check(decode_response(response), page)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_httpx_default_encoding(server: str, page: Page) -> None:
    with httpx.Client(default_encoding=httpx_default_encoding) as client:
        response = client.get(f"{server}/{page.name}")
    # httpx consults default_encoding only without a charset it knows:
    # "iso-8859-1" is Python's latin-1 there, not the browsers' windows-1252.
    assert (response.text == page.text) is (page.name != "legacy_label")


def test_httpx_async_stream(server: str) -> None:
    page = PAGES[3]  # bom

    async def fetch() -> Any:
        async with (
            httpx.AsyncClient() as client,
            client.stream("GET", f"{server}/{page.name}") as response,
        ):
            return await adecode_response(response)

    _check(asyncio.run(fetch()), page)


@pytest.mark.parametrize("page", _cases("aiohttp"))
def test_aiohttp(server: str, page: Page) -> None:
    aiohttp = pytest.importorskip("aiohttp")

    async def fetch() -> tuple[str, Any]:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{server}/{page.name}") as response,
        ):
            result = await adecode_response(response)
            try:
                own = await response.text()
            except (UnicodeDecodeError, LookupError):
                own = ""
            return own, result

    own, result = asyncio.run(fetch())
    assert (own == page.text) is _text_ok("aiohttp", page)
    _check(result, page)


def test_aiohttp_response_in_sync_call_is_a_clear_type_error(server: str) -> None:
    aiohttp = pytest.importorskip("aiohttp")

    async def fetch() -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{server}/meta_only") as response,
        ):
            with pytest.raises(TypeError, match="await adecode_response"):
                decode_response(response)

    asyncio.run(fetch())


@pytest.mark.parametrize("page", _cases("scrapy"))
def test_scrapy(page: Page) -> None:
    scrapy_http = pytest.importorskip("scrapy.http")
    headers = {} if page.content_type is None else {"Content-Type": page.content_type}
    response = scrapy_http.HtmlResponse(url="https://example.com/", body=page.body, headers=headers)
    assert (response.text == page.text) is _text_ok("scrapy", page)
    _check(decode_response(response), page)


class _ScrapyLike:
    """The attributes decode_response reads from a Scrapy response."""

    url = "https://example.jp/page"

    def __init__(self, page: Page) -> None:
        self.body = page.body
        self.headers = _BytesHeaders(page.content_type)


class _BytesHeaders:
    def __init__(self, value: str | None) -> None:
        self._values = [] if value is None else [value.encode("latin-1")]

    def getlist(self, key: str) -> list[bytes]:
        return self._values if key.lower() == "content-type" else []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_scrapy_like_stand_in(page: Page) -> None:
    _check(decode_response(_ScrapyLike(page)), page)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: f"{page.name}-urllib")
def test_urllib_reads_the_stream(server: str, page: Page) -> None:
    with urllib.request.urlopen(f"{server}/{page.name}", timeout=10) as response:
        _check(decode_response(response), page)


def test_urllib_with_body_already_read(server: str) -> None:
    page = PAGES[1]
    with urllib.request.urlopen(f"{server}/{page.name}", timeout=10) as response:
        data = response.read()
        _check(decode_response(response, body=data), page)
        with pytest.raises(TypeError, match="already read"):
            decode_response(response)


def test_url_is_passed_as_hint(server: str) -> None:
    class Response:
        url = "https://example.ru/"
        headers: ClassVar[dict[str, str]] = {"content-type": "text/html"}
        content = "Привет, как дела? Всё хорошо.".encode("cp1251") * 3

    result = decode_response(Response())
    assert result == decode_html(Response.content, "text/html", url="https://example.ru/")


def test_multiple_content_type_headers_are_combined() -> None:
    class Headers:
        def get_all(self, key: str) -> list[str]:
            return ["text/html", "text/html; charset=windows-1251"]

    class Response:
        headers = Headers()
        content = b"\xef\xf0\xe8"

    assert decode_response(Response()).encoding == "windows-1251"


@pytest.mark.parametrize(
    "thing", ["a string", b"bytes", 3, object(), http.client.HTTPMessage()], ids=repr
)
def test_unsupported_objects_are_a_clear_type_error(thing: object) -> None:
    with pytest.raises(TypeError, match="decode_response"):
        decode_response(thing)


def test_adecode_response_needs_an_async_read() -> None:
    class Response:
        headers: ClassVar[dict[str, str]] = {}
        content = b""

    with pytest.raises(TypeError, match="async read"):
        asyncio.run(adecode_response(Response()))


def test_fix_requests_encoding_type_error() -> None:
    with pytest.raises(TypeError, match=r"requests\.Response"):
        fix_requests_encoding(b"body")


def test_httpx_default_encoding_returns_python_codecs() -> None:
    import codecs

    assert httpx_default_encoding(b"<meta charset=shift_jis>") == "cp932"
    assert httpx_default_encoding(b"\xef\xbb\xbfabc") == "utf-8-sig"
    assert httpx_default_encoding(b"\xff\xfea\x00") == "utf-16"
    for page in PAGES:
        codecs.lookup(httpx_default_encoding(page.body))
    with pytest.raises(TypeError):
        httpx_default_encoding("text")  # type: ignore[arg-type]


def test_python_codecs_cover_every_encoding() -> None:
    import codecs

    from browser_decode._adapters import PYTHON_CODECS, python_codec
    from browser_decode._labels import NAMES

    assert set(PYTHON_CODECS) == set(NAMES)
    for name in PYTHON_CODECS:
        codecs.lookup(python_codec(name))
