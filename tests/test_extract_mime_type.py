"""Stage 2: the charset of the Content-Type header (Fetch + MIME Sniffing parsing)."""

from __future__ import annotations

import pytest

from browser_decode._extract_mime_type import (
    extract_mime_type,
    legacy_extract_an_encoding,
    parse_mime_type,
)


def header_encoding(value: str) -> str | None:
    hint = legacy_extract_an_encoding(extract_mime_type(value))
    return None if hint is None else hint.encoding.name


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=windows-1251", "windows-1251"),
        ('text/html; charset="windows-1251"', "windows-1251"),
        ("TEXT/HTML; CHARSET=WINDOWS-1251", "windows-1251"),
        ("text/html;charset=windows-1251", "windows-1251"),
        ("text/html; foo=bar; charset=windows-1251; x=y", "windows-1251"),
        # invalid: single quotes are not an HTTP quoted-string, so the label is 'x' with quotes
        ("text/html; charset='windows-1251'", None),
        # the parameter name is "charset " (with a space): not a token, dropped
        ("text/html; charset = windows-1251", None),
        ("text/html; charset =windows-1251", None),
        # trailing whitespace of an unquoted value is removed
        ("text/html; charset=windows-1251 ", "windows-1251"),
        # empty or unknown labels are ignored
        ("text/html; charset=", None),
        ('text/html; charset=""', None),
        ("text/html; charset=bogus", None),
        ("text/html; charset=utf-7", None),
        # the first charset parameter wins
        ("text/html; charset=windows-1251; charset=utf-8", "windows-1251"),
        ("text/html; charset=utf-8; charset=windows-1251", "UTF-8"),
        # an unterminated quoted string still yields its value
        ('text/html; charset="windows-1251', "windows-1251"),
        # quoted-string escapes
        ('text/html; charset="win\\dows-1251"', "windows-1251"),
        ('text/html; charset="shift_jis"garbage', "Shift_JIS"),
        # a parameter without "=" is skipped
        ("text/html; charset; charset=koi8-r", "KOI8-R"),
        # no type/subtype: the whole value is not a MIME type
        ("charset=utf-8", None),
        ("text/; charset=utf-8", None),
        ("/html; charset=utf-8", None),
        ("text html; charset=utf-8", None),
        ("", None),
        # several header values (combined with ","): Fetch's "extract a MIME type"
        ("text/html, text/html; charset=koi8-r", "KOI8-R"),
        ("text/html; charset=koi8-r, text/html", "KOI8-R"),
        ("text/html; charset=koi8-r, text/plain", None),
        ("text/plain; charset=koi8-r, */*", "KOI8-R"),
        ('text/html; charset="a,b", text/html', None),
        # labels resolve through "get an encoding"
        ("text/html; charset=iso-8859-1", "windows-1252"),
        ("text/html; charset=gb2312", "GBK"),
        ("text/html; charset=x-user-defined", "x-user-defined"),
        ("text/html; charset=utf-16", "UTF-16LE"),
        ("text/html; charset=iso-2022-kr", "replacement"),
    ],
)
def test_header_charset(header: str, expected: str | None) -> None:
    assert header_encoding(header) == expected


def test_parse_mime_type_details() -> None:
    mime = parse_mime_type(' Text/HTML ; Charset="UTF-8" ; q=1 ')
    assert mime is not None
    assert mime.essence == "text/html"
    assert mime.parameters == {"charset": "UTF-8", "q": "1"}
    assert parse_mime_type("text/html; é=1") == parse_mime_type("text/html")


def test_label_as_written_is_kept() -> None:
    hint = legacy_extract_an_encoding(extract_mime_type("text/html; charset=Latin1"))
    assert hint is not None and hint.label == "Latin1"
