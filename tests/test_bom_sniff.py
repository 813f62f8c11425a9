"""Stage 1: the Encoding Standard's BOM sniff (three BOMs, nothing else)."""

from __future__ import annotations

import pytest

from browser_decode import Source, decode_html
from browser_decode._bom_sniff import bom_sniff


@pytest.mark.parametrize(
    ("body", "name", "length"),
    [
        (b"\xef\xbb\xbfabc", "UTF-8", 3),
        (b"\xfe\xff\x00a", "UTF-16BE", 2),
        (b"\xff\xfea\x00", "UTF-16LE", 2),
        # No UTF-32 in the Encoding Standard: FF FE 00 00 is the UTF-16LE BOM + U+0000.
        (b"\xff\xfe\x00\x00", "UTF-16LE", 2),
        (b"\xef\xbb\xbf", "UTF-8", 3),
    ],
)
def test_boms(body: bytes, name: str, length: int) -> None:
    hint = bom_sniff(body)
    assert hint is not None
    assert (hint.encoding.name, hint.skip, hint.source) == (name, length, Source.BOM)


@pytest.mark.parametrize(
    "body",
    [b"", b"\xef\xbb", b"\xef", b"\xfe", b"\x00\x00\xfe\xff", b"+/v8", b"\xdd\x73\x66\x73", b"ab"],
)
def test_no_bom(body: bytes) -> None:
    """Partial BOMs, UTF-32BE, UTF-7 and UTF-EBCDIC signatures are not BOMs."""
    assert bom_sniff(body) is None


def test_bom_beats_header_and_is_removed() -> None:
    text, provenance = decode_html(b"\xff\xfeh\x00i\x00", "text/html; charset=utf-8")
    assert text == "hi"
    assert provenance.encoding == "UTF-16LE" and provenance.source is Source.BOM


def test_only_one_bom_is_removed() -> None:
    """A second BOM is the character U+FEFF, kept in the text."""
    text, _ = decode_html(b"\xef\xbb\xbf\xef\xbb\xbfx")
    assert text == "\ufeffx"
