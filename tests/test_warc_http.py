"""The HTTP message inside WARC response records: framing, codings, HTML sniffing."""

from __future__ import annotations

import gzip
import importlib
import re
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode.warc import _cli as _warc_cli
from browser_decode.warc._archive import _warc_fields
from browser_decode.warc._http import (
    BrokenRecord,
    _fields,
    _head_values,
    content_type_essence,
    dechunk,
    decode_payload,
    page_kind,
    parse_response,
    sniffs_as_html,
)


def chunked(data: bytes, size: int = 7, extension: str = "") -> bytes:
    parts = [
        f"{len(data[i : i + size]):x}{extension}\r\n".encode() + data[i : i + size] + b"\r\n"
        for i in range(0, len(data), size)
    ]
    return b"".join(parts) + b"0\r\n\r\n"


def test_dechunk() -> None:
    data = "Привет, chunked world".encode()
    assert dechunk(chunked(data)) == data
    assert dechunk(chunked(data, 3, ";ext=1")) == data
    assert dechunk(b"0\r\n\r\n") == b""
    # RFC 9112 allows trailer fields after the last chunk.
    assert dechunk(b"3\r\nabc\r\n0\r\nExpires: never\r\n\r\n") == b"abc"
    # Cut short: the chunks that arrived.
    # "7\r\n" + 7 bytes + "\r\n", then "7\r\n" and 5 of the next 7 bytes.
    assert dechunk(chunked(data)[:20]) == data[:12]
    # Not chunked at all (a crawler removed the coding but kept the header).
    assert dechunk(b"<html>hello</html>") is None


@pytest.mark.parametrize(
    ("body", "html"),
    [
        (b"<!DOCTYPE html><p>", True),
        (b"  \n\t<!doctype HTML>", True),
        (b"<html lang=en>", True),
        (b"<HEAD>", True),
        (b"<p>text", True),
        (b"<b>bold", True),
        (b"<br>", True),
        (b"<!-- comment -->", True),
        (b"<a href=x>", True),
        (b"<body onload=x>", True),
        (b"<abbr>", False),  # "<A" must be followed by SP or ">"
        (b"<html", False),  # no tag-terminating byte
        (b"<?xml version='1.0'?><html>", False),
        (b"%PDF-1.4", False),
        (b"", False),
        (b"hello <html>", False),
    ],
)
def test_sniffs_as_html(body: bytes, html: bool) -> None:
    assert sniffs_as_html(body) is html


BODY = "<!doctype html><p>Съешь же ещё этих мягких французских булок".encode("cp1251")


def response(payload: bytes, *headers: str) -> bytes:
    return (
        "HTTP/1.1 200 OK\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n"
    ).encode() + payload


@pytest.mark.parametrize(
    ("payload", "headers"),
    [
        (BODY, ()),
        (gzip.compress(BODY), ("Content-Encoding: gzip",)),
        (gzip.compress(BODY), ("Content-Encoding: x-gzip",)),
        (zlib.compress(BODY), ("Content-Encoding: deflate",)),
        (zlib.compress(BODY)[2:-4], ("Content-Encoding: deflate",)),  # raw deflate
        (BODY, ("Content-Encoding: gzip",)),  # stored decoded, header kept
        (BODY, ("Content-Encoding: identity",)),
        (chunked(gzip.compress(BODY)), ("Transfer-Encoding: chunked", "Content-Encoding: gzip")),
        (gzip.compress(zlib.compress(BODY)), ("Content-Encoding: deflate, gzip",)),
    ],
)
def test_decode_payload(payload: bytes, headers: tuple[str, ...]) -> None:
    assert decode_payload(parse_response(response(payload, *headers))) == BODY


def test_parse_response() -> None:
    parsed = parse_response(
        b"HTTP/1.0 404 Not Found\r\ncontent-TYPE:text/html\r\nServer: x\r\n"
        b"Content-Type:  charset=koi8-r \r\n\r\n<p>"
    )
    assert parsed.status == 404
    # "values of all headers ... separated from each other by 0x2C 0x20, in order"
    assert parsed.content_type == "text/html, charset=koi8-r"
    assert parsed.payload == b"<p>"
    bare = parse_response(b"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>")
    assert (bare.content_type, bare.payload) == ("text/html", b"<p>")
    for broken in (b"", b"<html>", b"HTTP/1.1 200 OK\r\nContent-Type: text/html"):
        with pytest.raises(BrokenRecord):
            parse_response(broken)


@settings(max_examples=500, deadline=None)
@given(
    block=st.sampled_from(
        [
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>\r\n\r\nmore",
            b"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>",
            b"HTTP/1.1 200 OK\r\nX: 1\n\nContent-Type: a\r\n\r\n<p>",
            b"HTTP/1.0 404\r\nContent-Type: text/html",
            b"HTTP/",
            b"<html>",
            b"",
        ]
    ),
    before=st.binary(max_size=8) | st.sampled_from([b"HTTP/1.1 200 OK\r\n", b"\r\n\r\n\n\n"]),
    after=st.binary(max_size=8) | st.sampled_from([b"\r\n\r\n", b"\n\nHTTP/", b"\r\n\r\n<"]),
)
def test_parse_response_of_a_span_is_that_of_the_block(
    block: bytes, before: bytes, after: bytes
) -> None:
    """The whole-member path parses the block in place, ``data[start:stop]``: the same
    response (or the same reason) as the block copied out, whatever surrounds it."""
    data = before + block + after
    span = (len(before), len(before) + len(block))
    try:
        expected: object = parse_response(block)
    except BrokenRecord as reason:
        expected = str(reason)
    try:
        got: object = parse_response(data, *span)
    except BrokenRecord as reason:
        got = str(reason)
    assert got == expected


def test_unsupported_and_broken_codings() -> None:
    with pytest.raises(BrokenRecord, match=r"unsupported content coding \(compress\)"):
        decode_payload(parse_response(response(b"x", "Content-Encoding: compress")))
    with pytest.raises(BrokenRecord, match=r"bad content coding \(gzip\)"):
        decode_payload(parse_response(response(b"\x1f\x8bgarbage", "Content-Encoding: gzip")))
    # A truncated gzip payload is reported, never written cut.
    whole = gzip.compress(BODY * 50)
    cut = whole[: len(whole) // 2]
    with pytest.raises(BrokenRecord, match=r"bad content coding \(gzip\)"):
        decode_payload(parse_response(response(cut, "Content-Encoding: gzip")))


def _bomb(name: str, size: int) -> bytes:
    data = b"<p>" + b"a" * size
    if name == "br":
        return bytes(importlib.import_module("brotli").compress(data))
    if name == "zstd":
        return bytes(importlib.import_module("zstandard").ZstdCompressor().compress(data))
    if name == "deflate":
        return zlib.compress(data)
    return gzip.compress(data)


@pytest.mark.parametrize("name", ["gzip", "x-gzip", "deflate", "br", "zstd"])
def test_every_coding_stops_at_the_cap(name: str) -> None:
    """A decompression bomb is "too large", never cut and never the compressed bytes."""
    bomb = _bomb(name, 4 << 20)
    assert len(bomb) < 64 << 10
    message = response(bomb, f"Content-Encoding: {name}", "Content-Type: text/html")
    with pytest.raises(BrokenRecord, match=r"too large \(over 1,048,576 bytes\)"):
        decode_payload(parse_response(message), 1 << 20)
    assert len(decode_payload(parse_response(message), 8 << 20)) == (4 << 20) + 3


def test_dechunk_many_tiny_chunks_is_bounded() -> None:
    """One-byte chunks: linear and in bytes, and past MAX_CHUNKS a counted skip."""
    tiny = chunked(b"x" * 5000, size=1)
    assert dechunk(tiny) == b"x" * 5000
    from browser_decode.warc import _http

    with pytest.raises(BrokenRecord, match="too many chunks"):
        dechunk(chunked(b"x" * (_http.MAX_CHUNKS + 1), size=1))


def test_content_type_cache_is_bounded_by_size() -> None:
    """Long Content-Type values are not cached: 600 distinct 1 MiB values keep nothing alive."""
    from browser_decode.warc import _http

    _http._cached_essence.cache_clear()
    for number in range(50):
        value = "text/html; x=" + str(number) * (1 << 16)
        assert content_type_essence(value) == "text/html"
    assert _http._cached_essence.cache_info().currsize == 0
    assert content_type_essence("text/html; charset=utf-8") == "text/html"
    assert _http._cached_essence.cache_info().currsize == 1


@pytest.mark.parametrize(
    ("content_type", "body", "kind"),
    [
        ("text/html; charset=utf-8", b"", "html"),
        ("TEXT/HTML", b"", "html"),
        ("application/xhtml+xml", b"", "xml"),
        ("application/rss+xml", b"", "xml"),
        ("text/xml", b"", "xml"),
        ("application/xml", b"", "xml"),
        ("text/plain", b"<html>", None),
        ("image/png", b"<html>", None),
        ("application/json", b"<html>", None),
        (None, b"<html>", "html"),
        (None, b"GIF89a", None),
        ("unknown/unknown", b"<p>", "html"),
        ("*/*", b"%PDF", None),
        ("garbage", b"<!-- x -->", "html"),  # unparsable: sniffed
    ],
)
def test_page_kind(content_type: str | None, body: bytes, kind: str | None) -> None:
    assert page_kind(content_type, body) == kind


def test_missing_extra_is_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing optional package is named with the install command of a checkout."""
    real = importlib.import_module

    def without_pyarrow(name: str, package: str | None = None) -> object:
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_pyarrow)
    archive = tmp_path / "a.warc"
    archive.write_bytes(b"")
    out = tmp_path / "o.parquet"
    status = _warc_cli.main([str(archive), "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert "pip install -e '.[parquet]'" in err
    assert "pip install 'browser-decode[parquet]'" in err
    assert not out.exists()


def test_install_commands_work_from_a_checkout() -> None:
    """Every install command of docs/warc.md, the README's WARC section and the warc CLI's
    messages names extras that exist, as `pip install -e '.[...]'` (a checkout); the PyPI
    form appears only where it says it is for PyPI."""
    import re

    root = Path(__file__).resolve().parents[1]
    table = (root / "pyproject.toml").read_text().split("[project.optional-dependencies]")[1]
    extras = set(re.findall(r"^([a-z]+) = \[", table.split("\n[", 1)[0], re.MULTILINE))
    assert {"warc", "parquet", "dask"} <= extras
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Re-decoding crawl archives (WARC)", 1)[1].split("\n## ", 1)[0]
    texts = {
        "docs/warc.md": (root / "docs" / "warc.md").read_text(encoding="utf-8"),
        "README": section,
        "cli": (root / "src" / "browser_decode" / "warc" / "_cli.py").read_text(encoding="utf-8"),
    }
    seen = 0
    for name, text in texts.items():
        for line in text.splitlines():
            for match in re.finditer(r"pip install -e '\.\[([a-z,]+)\]'", line):
                assert set(match.group(1).split(",")) <= extras, (name, line)
                seen += 1
            if "'browser-decode[" in line:
                assert "PyPI" in line or "-e '.[" in line, (name, line)
    assert seen >= 5


# The field grammars as regular expressions (the readers' earlier form), the reference for
# the line-splitting readers: "named-field = field-name ":" [ field-value ]" (WARC 1.1,
# section 4) and "field-name ":" OWS field-value OWS" (RFC 9112, section 5).
_WARC_FIELD = re.compile(
    rb"^(warc-type|warc-record-id|warc-target-uri|warc-date|content-length)[ \t]*:[ \t]*"
    rb"([^\r\n]*?)[ \t]*\r?$",
    re.IGNORECASE | re.MULTILINE,
)
_HTTP_FIELD = re.compile(
    rb"^(content-type|transfer-encoding|content-encoding)[ \t]*:(.*)$", re.IGNORECASE | re.MULTILINE
)
_PIECES = [
    b"\r", b"\n", b"\r\n", b" ", b"\t", b":", b"a", b"1", b"\xc3\xa9", b"\xff", b"WARC-Type",
    b"warc-DATE", b"Content-Length", b"content-type", b"Transfer-Encoding", b"CONTENT-ENCODING",
    b"WARC-Target-URI", b"WARC-Record-ID", b"text/html; charset=utf-8",
]  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_field_readers_follow_the_field_grammar(pieces: list[bytes]) -> None:
    header = b"".join(pieces)
    warc: dict[str, str] = {}
    for name, value in _WARC_FIELD.findall(header):
        warc.setdefault(name.lower().decode(), value.decode("utf-8", "replace"))
    assert _warc_fields(header) == warc
    # Read in place, after a version line, up to the header's end (a whole member).
    version = b"WARC/1.1\r\n"
    block = b"\r\n\r\nWARC-Type: block\r\nContent-Length: 1\r\n"  # after the end: not read
    assert _warc_fields(version + header + block, len(version) + len(header)) == warc
    http: dict[str, list[str]] = {}
    for name, value in _HTTP_FIELD.findall(header):
        http.setdefault(name.lower().decode(), []).append(value.strip(b" \t\r").decode("latin-1"))
    assert _fields(header) == http
    # The one-pass reader of a header section (after its status line) agrees.
    section = b"HTTP/1.1 200 OK\r\n" + header
    joined = {name: ", ".join(values) for name, values in _fields(section).items()}
    expected = tuple(
        joined.get(name) for name in ("content-type", "transfer-encoding", "content-encoding")
    )
    assert _head_values(section) == expected
