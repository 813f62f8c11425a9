"""Stage 3b: a <meta> beyond 1024 bytes, only while the head lasts (as Chromium does)."""

from __future__ import annotations

import pytest

from browser_decode import Source, decode_html
from browser_decode._head_scan import HEAD_SCAN_LIMIT, head_scan
from browser_decode._prescan import PRESCAN_LIMIT

META = b"<meta charset=koi8-r>"
FILLER = b"x" * (PRESCAN_LIMIT + 100)


def found(body: bytes) -> str | None:
    hint = head_scan(body)
    return None if hint is None else hint.encoding.name


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # head content before the <meta>: still honoured (the Chromium oracle's cases)
        (b"<html><head><!--" + FILLER + b"-->" + META, "KOI8-R"),
        (b"<html><head><title>" + FILLER + b"</title>" + META, "KOI8-R"),
        (b"<html><head><script>'" + FILLER + b"'</script>" + META, "KOI8-R"),
        (b"<head><style>" + FILLER + b"</style><link rel=x><base href=y>" + META, "KOI8-R"),
        (b"<head>" + b" \n" * 600 + META, "KOI8-R"),
        # a <meta> inside a script or a comment beyond 1024 bytes does not count
        (b"<head><script>'" + FILLER + META + b"'</script>", None),
        (b"<head><!--" + FILLER + META + b"-->", None),
        # body content before it ends the head
        (b"<body><p>" + FILLER + b"</p>" + META, None),
        (b"<head><title>t</title></head>" + b" " * PRESCAN_LIMIT + META, None),
        (b"<head>" + FILLER + META, None),  # text
        (b"<head><div>" + b" " * PRESCAN_LIMIT + META, None),
        # short bodies are the prescan's alone
        (b"<head>" + META, None),
    ],
)
def test_head_scan(body: bytes, expected: str | None) -> None:
    assert found(body) == expected


def test_meta_straddling_byte_1024() -> None:
    """The prescan runs out of bytes inside the tag; the head scan completes it."""
    body = b"<head><!--" + b"x" * (PRESCAN_LIMIT - 20) + b"-->" + META + b"<p>text"
    assert body.index(META) < PRESCAN_LIMIT < body.index(META) + len(META)
    result = decode_html(body)
    assert (result.encoding, result.source, result.offset) == (
        "KOI8-R",
        Source.META,
        body.index(META),
    )


def test_limit() -> None:
    """A <meta> that ends beyond HEAD_SCAN_LIMIT bytes is not read."""
    inside = b"<head><!--" + b"x" * (HEAD_SCAN_LIMIT - 40) + b"-->" + META
    assert len(inside) <= HEAD_SCAN_LIMIT and found(inside) == "KOI8-R"
    outside = b"<head><!--" + b"x" * HEAD_SCAN_LIMIT + b"-->" + META
    assert found(outside) is None


def test_decode_html_uses_it() -> None:
    body = b"<html><head><title>" + FILLER + b"</title>" + META + b"\xc1"
    result = decode_html(body, "text/html")
    assert (result.encoding, result.source) == ("KOI8-R", Source.META)
    assert result.text.endswith("а")
    assert decode_html(body, "text/plain").source is not Source.META


@pytest.mark.parametrize(
    "body",
    [b"<" * 1_000_000, b"<!--" * 250_000, b"<head><script>" * 100_000, b"<a " * 300_000],
)
def test_pathological_inputs(body: bytes) -> None:
    assert head_scan(body) is None
