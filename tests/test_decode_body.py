"""decode_body: the rules of each body type, their precedence, XML declarations, JSON.

Expected texts are checked against Python's codecs where those agree with the
WHATWG decoders (plain letters of KOI8-R, windows-1251, Shift_JIS, GBK).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import Confidence, Source, decode_body, decode_html
from browser_decode._decode_body import BodyKind, body_kind
from browser_decode._extract_mime_type import extract_mime_type

RUSSIAN = "Привет, мир! Съешь же ещё этих мягких французских булок, да выпей чаю."


@pytest.mark.parametrize(
    ("content_type", "kind"),
    [
        (None, BodyKind.HTML),
        ("text/html", BodyKind.HTML),
        ("TEXT/HTML; charset=utf-8", BodyKind.HTML),
        ("not a mime type", BodyKind.HTML),  # unparsable: sniffed as HTML
        ("*/*", BodyKind.HTML),  # Fetch ignores */*
        ("application/xml", BodyKind.XML),
        ("text/xml", BodyKind.XML),
        ("application/rss+xml", BodyKind.XML),
        ("application/atom+xml", BodyKind.XML),
        ("application/xhtml+xml", BodyKind.XML),
        ("image/svg+xml", BodyKind.XML),
        ("application/json", BodyKind.JSON),
        ("text/json", BodyKind.JSON),
        ("application/ld+json", BodyKind.JSON),
        ("application/manifest+json", BodyKind.JSON),
        ("text/plain", BodyKind.TEXT),
        ("text/css", BodyKind.TEXT),
        ("application/javascript", BodyKind.TEXT),
        ("application/octet-stream", BodyKind.TEXT),
        ("application/xml-dtd", BodyKind.TEXT),  # not an XML MIME type (no +xml)
    ],
)
def test_body_kind_follows_mime_sniffing_groups(content_type: str | None, kind: BodyKind) -> None:
    """MIME Sniffing's HTML/XML/JSON MIME type definitions pick the rules."""
    mime = None if content_type is None else extract_mime_type(content_type)
    assert body_kind(mime) is kind


# --- HTML ---------------------------------------------------------------


@pytest.mark.parametrize("content_type", [None, "text/html", "text/html; charset=koi8-r", "nope"])
@pytest.mark.parametrize(
    "body",
    [
        b'<meta charset="shift_jis">\x82\xa0',
        b"<p>caf\xc3\xa9</p>",
        b'<?xml version="1.0" encoding="koi8-r"?><html>\xf0</html>',
        RUSSIAN.encode("cp1251"),
        b"\xff\xfe<\x00p\x00>\x00",
    ],
)
def test_html_is_exactly_decode_html(body: bytes, content_type: str | None) -> None:
    """HTML (and no or an unparsable Content-Type) takes decode_html's path."""
    assert decode_body(body, content_type) == decode_html(body, content_type)


# --- XML ----------------------------------------------------------------


def test_xml_declaration_decides() -> None:
    """The XML declaration's encoding is used, as a tentative in-document declaration."""
    body = b'<?xml version="1.0" encoding="koi8-r"?><rss>' + "Привет".encode("koi8_r") + b"</rss>"
    result = decode_body(body, "application/rss+xml")
    assert result.text == body.decode("koi8_r")
    assert (result.encoding, result.source, result.confidence) == (
        "KOI8-R",
        Source.META,
        Confidence.TENTATIVE,
    )
    assert (result.label, result.offset) == ("koi8-r", 0)


@pytest.mark.parametrize(
    "declaration",
    [
        b"<?xml version='1.0' encoding='windows-1251'?>",
        b'<?xml version="1.0" encoding = "CP1251" standalone="yes"?>',
        b'<?xml version="1.0"\n encoding="x-cp1251"?>',
    ],
)
def test_xml_declaration_spellings(declaration: bytes) -> None:
    """Quotes of either kind, spaces around '=', WHATWG labels in any case."""
    body = declaration + RUSSIAN.encode("cp1251")
    result = decode_body(body, "application/xml")
    assert result.encoding == "windows-1251"
    assert result.text == body.decode("cp1251")


def test_header_charset_beats_xml_declaration() -> None:
    """RFC 7303: the charset parameter is authoritative over the document."""
    body = b'<?xml version="1.0" encoding="windows-1251"?><a>' + "мир".encode("koi8_r") + b"</a>"
    result = decode_body(body, "application/xml; charset=koi8-r")
    assert (result.encoding, result.source) == ("KOI8-R", Source.HEADER)
    assert result.text.endswith("мир</a>")


def test_unknown_header_charset_falls_through_to_the_declaration() -> None:
    body = b'<?xml version="1.0" encoding="koi8-r"?><a>\xf0</a>'
    result = decode_body(body, "text/xml; charset=no-such-thing")
    assert (result.encoding, result.source) == ("KOI8-R", Source.META)


def test_bom_beats_header_and_declaration() -> None:
    body = b'\xef\xbb\xbf<?xml version="1.0" encoding="koi8-r"?><a>\xc3\xa9</a>'
    result = decode_body(body, "application/xml; charset=windows-1251")
    assert (result.encoding, result.source) == ("UTF-8", Source.BOM)
    assert result.text == '<?xml version="1.0" encoding="koi8-r"?><a>é</a>'


def test_xml_without_declaration_is_utf8_by_default() -> None:
    """XML 1.0, 4.3.3: no BOM and no encoding declaration means UTF-8."""
    result = decode_body(b'<?xml version="1.0"?><a>caf\xc3\xa9</a>', "application/atom+xml")
    assert result.text == '<?xml version="1.0"?><a>café</a>'
    assert (result.encoding, result.source) == ("UTF-8", Source.DEFAULT)


def test_encoding_attribute_after_the_declaration_is_not_a_declaration() -> None:
    """Only the XML declaration itself (up to its '>') is read."""
    body = b'<?xml version="1.0"?><a encoding="koi8-r">caf\xc3\xa9</a>'
    result = decode_body(body, "application/xml")
    assert (result.encoding, result.source) == ("UTF-8", Source.DEFAULT)


def test_declaration_must_start_the_body() -> None:
    body = b'\n<?xml version="1.0" encoding="koi8-r"?><a>caf\xc3\xa9</a>'
    assert decode_body(body, "application/xml").source is Source.DEFAULT


def test_utf16_declared_in_ascii_is_utf8() -> None:
    """An ASCII-readable declaration cannot be UTF-16: as HTML's rule and Chromium."""
    body = b'<?xml version="1.0" encoding="UTF-16"?><a>caf\xc3\xa9</a>'
    result = decode_body(body, "application/xml")
    assert (result.encoding, result.source, result.label) == ("UTF-8", Source.META, "UTF-16")
    assert result.text.endswith("café</a>")


@pytest.mark.parametrize(("codec", "name"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
@pytest.mark.parametrize("label", ["UTF-16", None])
def test_bomless_utf16_xml_declaration(codec: str, name: str, label: str | None) -> None:
    """XML 1.0 Appendix F: 3C 00 3F 00 is UTF-16LE, 00 3C 00 3F is UTF-16BE."""
    encoding = f' encoding="{label}"' if label else ""
    text = f'<?xml version="1.0"{encoding}?><a>café 日本</a>'
    result = decode_body(text.encode(codec), "application/xml")
    assert result.text == text
    assert (result.encoding, result.source, result.label) == (name, Source.META, label)


def test_unknown_declared_label_is_ignored() -> None:
    """A non-WHATWG label (Python knows "MacCyrillic", browsers do not) declares nothing."""
    body = b'<?xml version="1.0" encoding="MacCyrillic"?><a>caf\xc3\xa9</a>'
    result = decode_body(body, "application/rss+xml")
    assert (result.encoding, result.source) == ("UTF-8", Source.DEFAULT)


def test_undeclared_xml_that_is_not_utf8_is_detected() -> None:
    """Instead of U+FFFD (browsers) or a fatal error (XML parsers): our detection."""
    body = b'<?xml version="1.0"?><p>' + (RUSSIAN * 3).encode("cp1251") + b"</p>"
    result = decode_body(body, "application/xml")
    assert result.source in (Source.DETECTED, Source.DEFAULT)
    assert result.encoding != "UTF-8"
    assert result.replacements == 0


# --- JSON ---------------------------------------------------------------


def test_json_is_utf8_and_ignores_charset() -> None:
    """RFC 8259: UTF-8; a charset parameter "really has no effect"."""
    result = decode_body(b'{"a": "caf\xc3\xa9"}', "application/json; charset=iso-8859-1")
    assert result.text == '{"a": "café"}'
    assert (result.encoding, result.source, result.confidence) == (
        "UTF-8",
        Source.DEFAULT,
        Confidence.CERTAIN,
    )


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [
        (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
        (b"\xff\xfe", "utf-16-le", "UTF-16LE"),
        (b"\xfe\xff", "utf-16-be", "UTF-16BE"),
    ],
)
def test_json_bom(bom: bytes, codec: str, name: str) -> None:
    """A BOM is honoured ("MAY ignore the presence of a byte order mark") and removed."""
    text = '{"a": "日本"}'
    result = decode_body(bom + text.encode(codec), "application/ld+json")
    assert result.text == text
    assert (result.encoding, result.source) == (name, Source.BOM)


def test_json_not_utf8_uses_charset_as_fallback() -> None:
    body = '{"a": "中文"}'.encode("gbk")
    result = decode_body(body, "application/json; charset=gbk")
    assert result.text == '{"a": "中文"}'
    assert (result.encoding, result.source) == ("GBK", Source.HEADER)


def test_json_not_utf8_without_charset_stays_utf8() -> None:
    result = decode_body(b'{"a": "caf\xe9"}', "application/json")
    assert result.text == '{"a": "caf\ufffd"}'
    assert (result.encoding, result.replacements) == ("UTF-8", 1)


def test_bomless_utf16_json_is_not_detected() -> None:
    """RFC 4627's NUL-pattern detection is obsolete (RFC 8259): the bytes are UTF-8."""
    body = '{"a":1}'.encode("utf-16-le")
    result = decode_body(body, "application/json")
    assert result.encoding == "UTF-8"
    assert result.text == body.decode("utf-8")


# --- text ---------------------------------------------------------------


def test_text_plain_has_no_meta_prescan() -> None:
    """A <meta> in a text/plain body is just text."""
    body = b'<meta charset="koi8-r">caf\xc3\xa9'
    result = decode_body(body, "text/plain")
    assert (result.encoding, result.source) == ("UTF-8", Source.UTF8)
    assert result.text == '<meta charset="koi8-r">café'


@pytest.mark.parametrize("content_type", ["text/plain", "text/css", "application/javascript"])
def test_text_charset_and_bom(content_type: str) -> None:
    body = "Привет".encode("koi8_r")
    result = decode_body(body, f"{content_type}; charset=koi8-r")
    assert (result.text, result.source) == ("Привет", Source.HEADER)
    bom = decode_body(b"\xef\xbb\xbf\xd0\x9f", f"{content_type}; charset=koi8-r")
    assert (bom.text, bom.source) == ("П", Source.BOM)


def test_text_undeclared_is_detected() -> None:
    body = (RUSSIAN * 3).encode("cp1251")
    result = decode_body(body, "text/plain")
    assert result.source in (Source.DETECTED, Source.DEFAULT)
    assert result.replacements == 0


# --- arguments ----------------------------------------------------------


def test_bytes_content_type_and_buffer_bodies() -> None:
    body = bytearray(b'<?xml version="1.0" encoding="koi8-r"?><a>\xf0</a>')
    assert decode_body(memoryview(body), b"application/xml").encoding == "KOI8-R"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("text",), "decode_body() needs the raw bytes"),
        ((123,), "decode_body() body must be bytes"),
        ((b"", 5), "content_type must be"),
    ],
)
def test_type_errors(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        decode_body(*args)  # type: ignore[arg-type]


def test_url_must_be_str() -> None:
    with pytest.raises(TypeError, match="url"):
        decode_body(b"", "text/plain", url=1)  # type: ignore[arg-type]


_TYPES = [
    None,
    "text/html",
    "application/xml",
    "application/rss+xml; charset=x",
    "application/json",
    "text/plain; charset=utf-16",
    ";;",
]


@settings(max_examples=150, deadline=None)
@given(
    body=st.one_of(
        st.binary(max_size=64),
        st.binary(max_size=32).map(lambda b: b'<?xml version="1.0" encoding="' + b),
        st.binary(max_size=32).map(lambda b: b"<\x00?\x00x\x00" + b),
    ),
    content_type=st.sampled_from(_TYPES),
)
def test_never_raises(body: bytes, content_type: str | None) -> None:
    """Any bytes with any Content-Type give text and a provenance."""
    result = decode_body(body, content_type)
    assert isinstance(result.text, str)
    assert result.replacements >= 0
