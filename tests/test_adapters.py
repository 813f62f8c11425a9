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

from .conftest import PAGES, Page, serve

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


# --- a server of typed and compressed responses ---------------------------------------

import gzip  # noqa: E402
import json  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from http.server import BaseHTTPRequestHandler  # noqa: E402

from browser_decode import ContentCodingError, decode_body  # noqa: E402
from browser_decode._content_coding import BadCoding, TooLarge  # noqa: E402

from .conftest import spec_labels  # noqa: E402

#: name -> (Content-Type, body, the text a browser shows, the encoding)
TYPED: dict[str, tuple[str, bytes, str, str]] = {
    "xhtml": (
        "application/xhtml+xml",
        b'<?xml version="1.0" encoding="windows-1252"?><html><p>Caf\xe9</p></html>',
        '<?xml version="1.0" encoding="windows-1252"?><html><p>Café</p></html>',
        "windows-1252",
    ),
    "rss": (
        "application/rss+xml",
        b'<?xml version="1.0" encoding="windows-1252"?><rss><title>\x93Caf\xe9\x94</title></rss>',
        '<?xml version="1.0" encoding="windows-1252"?><rss><title>“Café”</title></rss>',
        "windows-1252",
    ),
    "sitemap": (
        "application/xml",
        '<?xml version="1.0" encoding="koi8-r"?><urlset>Привет</urlset>'.encode("koi8-r"),
        '<?xml version="1.0" encoding="koi8-r"?><urlset>Привет</urlset>',
        "KOI8-R",
    ),
    "json": (
        "application/json; charset=iso-8859-1",
        '{"city": "München"}'.encode(),
        '{"city": "München"}',
        "UTF-8",
    ),
    "text": (
        "text/plain",
        b"<meta charset=koi8-r> " + "Grüße aus München, schöne Grüße".encode(),
        "<meta charset=koi8-r> Grüße aus München, schöne Grüße",
        "UTF-8",
    ),
}
_HTML = "<!doctype html><meta charset=windows-1251><p>Привет, мир</p>"
_HTML_BODY = _HTML.encode("cp1251")


def _compress(coding: str, data: bytes) -> bytes:
    if coding in ("gzip", "x-gzip"):
        return gzip.compress(data)
    if coding == "deflate":
        return zlib.compress(data)
    if coding == "br":
        import brotli

        return bytes(brotli.compress(data))
    if coding == "zstd":
        import zstandard

        return bytes(zstandard.ZstdCompressor().compress(data))
    raise AssertionError(coding)


#: path -> (headers, body)
ROUTES: dict[str, tuple[dict[str, str], bytes]] = {
    **{f"/typed/{name}": ({"Content-Type": ct}, body) for name, (ct, body, _, _) in TYPED.items()},
    **{
        f"/coded/{coding}": (
            {"Content-Type": "text/html", "Content-Encoding": coding},
            _compress(coding, _HTML_BODY),
        )
        for coding in ("gzip", "x-gzip", "deflate", "br", "zstd")
    },
    "/coded/gzip-br": (
        {"Content-Type": "text/html", "Content-Encoding": "gzip, br"},
        _compress("br", gzip.compress(_HTML_BODY)),
    ),
    "/coded/undeclared-gzip": ({"Content-Type": "text/html"}, gzip.compress(_HTML_BODY)),
    "/coded/corrupt": (
        {"Content-Type": "text/html", "Content-Encoding": "gzip"},
        gzip.compress(_HTML_BODY)[:-12],
    ),
    "/coded/bomb": (
        {"Content-Type": "text/html", "Content-Encoding": "gzip"},
        gzip.compress(b"<p>" + b"a" * 200_000),
    ),
    **{
        f"/replacement/{where}/{label}": (
            {"Content-Type": "text/html" + (f"; charset={label}" if where == "header" else "")},
            (f"<meta charset={label}>" if where == "meta" else "").encode()
            + b"<script>alert(1)</script>",
        )
        for label, name in spec_labels().items()
        if name == "replacement"
        for where in ("header", "meta")
    },
}


class _RouteHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        route = ROUTES.get(self.path)
        if route is None:
            self.send_error(404)
            return
        headers, body = route
        self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def routes() -> Iterator[str]:
    with serve(_RouteHandler) as base:
        yield base


def _fetch_all(base: str, path: str) -> dict[str, Any]:
    """decode_response / adecode_response / StreamDecoder through every client."""
    import aiohttp

    url = base + path
    results: dict[str, Any] = {
        "requests": decode_response(requests.get(url, timeout=10)),
        "httpx": decode_response(httpx.get(url)),
    }
    with urllib.request.urlopen(url, timeout=10) as response:
        results["urllib"] = decode_response(response)
    with requests.get(url, stream=True, timeout=10) as response:
        decoder = StreamDecoder(response.headers.get("Content-Type"))
        text = "".join(decoder.feed(chunk) for chunk in response.iter_content(3))
        results["StreamDecoder"] = (text + decoder.close(), decoder.provenance)

    async def fetch() -> tuple[Any, Any]:
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            first = await adecode_response(response)
        async with httpx.AsyncClient() as client, client.stream("GET", url) as response:
            second = await adecode_response(response)
        return first, second

    results["aiohttp"], results["httpx-async"] = asyncio.run(fetch())
    return results


@pytest.mark.parametrize("name", sorted(TYPED))
def test_every_entry_point_follows_the_body_type(routes: str, name: str) -> None:
    content_type, body, text, encoding = TYPED[name]
    expected = decode_body(body, content_type)
    assert (expected.text, expected.encoding) == (text, encoding)
    for client, result in _fetch_all(routes, f"/typed/{name}").items():
        assert tuple(result) == tuple(expected), client
    scrapy_http = pytest.importorskip("scrapy.http")
    response = scrapy_http.TextResponse(
        url="https://example.com/", body=body, headers={"Content-Type": content_type}
    )
    assert tuple(decode_response(response)) == tuple(expected)


@pytest.mark.parametrize("coding", ["gzip", "x-gzip", "deflate", "br", "zstd", "gzip-br"])
def test_content_encoding_is_undone(routes: str, coding: str) -> None:
    """urllib hands over the compressed bytes: decode_response undoes the coding."""
    expected = decode_html(_HTML_BODY, "text/html")
    assert expected.text == _HTML
    with urllib.request.urlopen(f"{routes}/coded/{coding}", timeout=10) as response:
        assert tuple(decode_response(response)) == tuple(expected)
    with urllib.request.urlopen(f"{routes}/coded/{coding}", timeout=10) as response:
        data = response.read()
        assert tuple(decode_response(response, body=data)) == tuple(expected)
    if coding in ("gzip", "deflate"):  # what requests and httpx undo themselves everywhere
        assert tuple(decode_response(requests.get(f"{routes}/coded/{coding}"))) == tuple(expected)
        assert tuple(decode_response(httpx.get(f"{routes}/coded/{coding}"))) == tuple(expected)


def test_scrapy_response_with_a_coding_left_in_the_header() -> None:
    scrapy_http = pytest.importorskip("scrapy.http")
    response = scrapy_http.HtmlResponse(
        url="https://example.com/",
        body=gzip.compress(_HTML_BODY),
        headers={"Content-Type": "text/html", "Content-Encoding": "gzip"},
    )
    assert decode_response(response).text == _HTML


@pytest.mark.parametrize(
    ("path", "error"),
    [("/coded/undeclared-gzip", BadCoding), ("/coded/corrupt", BadCoding)],
)
def test_compressed_bytes_are_an_error_never_a_detected_page(
    routes: str, path: str, error: type[Exception]
) -> None:
    with (
        urllib.request.urlopen(routes + path, timeout=10) as response,
        pytest.raises(error) as raised,
    ):
        decode_response(response)
    assert isinstance(raised.value, ContentCodingError)
    # The clients that decompress themselves hand over the gzip bytes untouched here.
    with pytest.raises(ContentCodingError, match="still gzip-compressed"):
        decode_response(requests.get(routes + "/coded/undeclared-gzip", timeout=10))


def test_decompression_is_capped(routes: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import browser_decode._adapters as adapters

    monkeypatch.setattr(adapters, "MAX_DECODED_BYTES", 100_000)
    with (
        urllib.request.urlopen(routes + "/coded/bomb", timeout=10) as response,
        pytest.raises(TooLarge, match="100,000"),
    ):
        decode_response(response)


def test_detector_passes_through_the_adapters(routes: str) -> None:
    body = "Привет, как дела? Всё хорошо.".encode("cp1251")

    class Response:
        url = "https://example.com/"
        headers: ClassVar[dict[str, str]] = {"Content-Type": "text/html"}
        content = body
        encoding = None

    def koi8(data: bytes) -> tuple[str, float]:
        return "koi8-r", 0.4

    assert decode_response(Response(), detector=koi8).encoding == "KOI8-R"
    assert fix_requests_encoding(Response(), detector="charset-normalizer").detector == (
        "charset-normalizer"
    )


# --- the replacement encoding in the drop-in hooks (issue 16.6) ---------------------------

_REPLACEMENT_LABELS = sorted(
    label for label, name in spec_labels().items() if name == "replacement"
)


def test_replacement_labels_come_from_the_standard() -> None:
    assert len(_REPLACEMENT_LABELS) >= 6 and "iso-2022-kr" in _REPLACEMENT_LABELS


@pytest.mark.parametrize("where", ["header", "meta"])
@pytest.mark.parametrize("label", _REPLACEMENT_LABELS)
def test_fix_requests_encoding_never_shows_what_the_browser_hides(
    routes: str, label: str, where: str
) -> None:
    url = f"{routes}/replacement/{where}/{label}"
    response = requests.get(url, timeout=10)
    result = fix_requests_encoding(response)
    assert result.encoding == "replacement" and result.text == "\ufffd"
    assert response.text == "\ufffd"
    # iter_content(decode_unicode=True) uses the codec's incremental decoder.
    streamed = requests.get(url, stream=True, timeout=10)
    fix_requests_encoding(streamed)
    assert "".join(streamed.iter_content(4, decode_unicode=True)) == "\ufffd"


@pytest.mark.parametrize("where", ["header", "meta"])
@pytest.mark.parametrize("label", _REPLACEMENT_LABELS)
def test_httpx_never_shows_what_the_browser_hides(routes: str, label: str, where: str) -> None:
    url = f"{routes}/replacement/{where}/{label}"
    if where == "meta":
        with httpx.Client(default_encoding=httpx_default_encoding) as client:
            assert client.get(url).text == "\ufffd"  # the hook saw the <meta>
    else:
        # The hook never sees the header (httpx passes the body only, and decodes
        # a charset Python knows without asking): documented in docs/clients.md;
        # fix_requests_encoding() makes the httpx response right.
        response = httpx.get(url)
        assert fix_requests_encoding(response).encoding == "replacement"
        assert response.text == "\ufffd"


def test_replacement_codec() -> None:
    import codecs

    from browser_decode._adapters import python_codec

    name = python_codec("replacement")
    assert codecs.decode(b"<script>", name) == "\ufffd" and codecs.decode(b"", name) == ""
    decoder = codecs.getincrementaldecoder(name)()
    assert [decoder.decode(b"a"), decoder.decode(b"b"), decoder.decode(b"", True)] == [
        "\ufffd",
        "",
        "",
    ]
    decoder.reset()
    assert decoder.decode(b"c") == "\ufffd"
    assert codecs.encode("é", name) == "é".encode()
    assert json.dumps(codecs.lookup(name).name) == '"browser-decode-replacement"'
