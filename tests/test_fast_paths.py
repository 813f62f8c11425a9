"""The fast paths of the undeclared-page stages agree with the slow algorithms (issue 14).

* ``may_declare``: without "charset" (in any case) in reach, the prescan and the head scan
  skip their tag loop. Checked against the loop itself (``may_declare`` forced true) on
  generated tag soup, with and without "charset" in it.
* ``valid_utf8``: one strict decode after a bounded look; checked against the previous
  algorithm (sample decode, then the whole), kept here as the reference.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import _head_scan, _prescan
from browser_decode._detect import valid_utf8
from browser_decode._detect._sample import (
    UTF16_HEAD,
    WHOLE,
    ascii_with_iso_2022_jp_escapes,
    sample,
    utf16_without_bom,
)
from browser_decode._hint import EncodingHint

from . import _reference_scans

_PIECES = [
    b"<meta",
    b"<META",
    b"<Meta ",
    b" charset",
    b"CHARSET",
    b"ChArSeT",
    b"=",
    b'"',
    b"'",
    b" content=",
    b"http-equiv=content-type ",
    b'"text/html; charset=shift_jis"',
    b"<!--",
    b"-->",
    b"<script>",
    b"</script>",
    b"<style>",
    b"</style>",
    b"<title>",
    b"</title>",
    b"<?xml ",
    b"encoding=",
    b"utf-8",
    b"windows-1251",
    b"gbk",
    b">",
    b"/",
    b" ",
    b"\n",
    b"<link rel=stylesheet href=x>",
    b"<head>",
    b"<body>",
    b"text",
    b"<",
    b"<!",
    b"</",
    b"<p>",
    b"\x82\xa0",
    # attribute shapes for the token expressions
    b"<a",
    b"</a",
    b"<meta/",
    b"<meta\t",
    b" name=x",
    b' name="a>b"',
    b" name='>'",
    b" =",
    b"==",
    b" / ",
    b"a=",
    b"=>",
    b' "',
    b"<!-->",
    b"<!--->",
    b"<?",
    b"</1",
    b"<1",
    b"<textarea>",
    b"</textarea>",
    b"<iframe ",
    b"</SCRIPT",
    b"</scriptx",
    b"<html>",
    b"</head>",
    b"<noscript>",
    b"<object>",
    b"<base href=x>",
]
_soup = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.binary(min_size=1, max_size=3)), max_size=60
).map(b"".join)
# Long enough for the head scan (beyond 1024 bytes): padding of head content first.
_padding = st.sampled_from([b"", b" " * 1100, b"<link href=a>\n" * 80, b"<!-- x -->" * 120])


def _slow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_prescan, "may_declare", lambda data: True)
    monkeypatch.setattr(_head_scan, "may_declare", lambda data: True)


@settings(max_examples=400, deadline=None)
@given(head=_soup, padding=_padding, tail=_soup)
def test_prescan_and_head_scan_fast_path_agree_with_the_loop(
    head: bytes, padding: bytes, tail: bytes
) -> None:
    body = head + padding + tail
    fast = (_prescan.prescan(body[:1024]), _head_scan.head_scan(body))
    with pytest.MonkeyPatch.context() as monkeypatch:
        _slow(monkeypatch)
        slow = (_prescan.prescan(body[:1024]), _head_scan.head_scan(body))
    assert fast == slow


def test_may_declare_is_case_insensitive() -> None:
    assert _prescan.may_declare(b"<meta ChArSeT=x>")
    assert not _prescan.may_declare(b"<meta chrset=x>")
    body = b" " * 1100 + b'<meta http-equiv=Content-Type content="text/html; CHARSET=gbk">'
    hint = _head_scan.head_scan(body)
    assert hint is not None and hint.encoding.name == "GBK"


def _valid_utf8_before(body: bytes) -> EncodingHint | str | None:
    """valid_utf8 before issue 14 (sample decode, then the whole): the encoding's text."""
    if b"\x1b" in body and ascii_with_iso_2022_jp_escapes(sample(body)):
        return None
    if b"\x00" in body and body[:UTF16_HEAD].isascii() and utf16_without_bom(body) is not None:
        return None
    if body.isascii():
        return body.decode("ascii")
    try:
        if len(body) > WHOLE:
            sample(body).decode("utf-8")
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


_texty = st.lists(
    st.one_of(
        st.sampled_from(
            [b"\x1b$B", b"\x1b(B", b"\x00", b"a\x00", b"\xe3\x81\x82", b"\xd0\xbf", b"\x82\xa0"]
        ),
        st.text(max_size=8).map(lambda t: t.encode("utf-8")),
        st.binary(max_size=3),
        st.sampled_from([b"<p>", b"\n", b" ", b"x" * 500, b"\n" * 3000]),
    ),
    max_size=40,
).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(head=_texty, middle=st.sampled_from([b"", b"<p>ascii</p>\n" * 6000]), tail=_texty)
def test_valid_utf8_agrees_with_the_previous_algorithm(
    head: bytes, middle: bytes, tail: bytes
) -> None:
    body = head + middle + tail
    hint = valid_utf8(body)
    before = _valid_utf8_before(body)
    assert (None if hint is None else hint.decoded) == before


_SPACES = st.sampled_from([b"", b" ", b"\t", b"\n ", b"/", b" / "])
_NAMES = st.sampled_from(
    [b"charset", b"CharSet", b"content", b"http-equiv", b"name", b"a", b"=", b"=x", b"c"]
)
_VALUES = st.sampled_from(
    [
        b"x",
        b"shift_jis",
        b"content-type",
        b"Content-Type",
        b"text/html; charset=gbk",
        b"charset='koi8-r'",
        b"a>b",
        b"",
        b"x y",
        b'"',
        b"'",
    ]
)


@st.composite
def _attribute(draw: st.DrawFn) -> bytes:
    name = draw(_NAMES)
    shape = draw(st.sampled_from(["none", "dq", "sq", "uq", "empty"]))
    if shape == "none":
        return name
    eq = draw(st.sampled_from([b"=", b" = ", b"\n=", b"= "]))
    value = draw(_VALUES)
    if shape == "dq":
        return name + eq + b'"' + value + b'"'
    if shape == "sq":
        return name + eq + b"'" + value + b"'"
    if shape == "uq":
        return name + eq + value
    return name + eq


@st.composite
def _tag(draw: st.DrawFn) -> bytes:
    name = draw(
        st.sampled_from(
            [
                b"meta",
                b"META",
                b"a",
                b"/a",
                b"/meta",
                b"script",
                b"title",
                b"head",
                b"body",
                b"html",
                b"link",
                b"textarea",
                b"/head",
                b"p",
                b"/",
            ]
        )
    )
    parts = [b"<", name]
    for _ in range(draw(st.integers(0, 4))):
        parts += [draw(st.sampled_from([b" ", b"\t", b"/", b" /"])), draw(_attribute())]
    parts += [draw(_SPACES), draw(st.sampled_from([b">", b"/>", b"", b">", b">"]))]
    return b"".join(parts)


_token = st.one_of(
    _tag(),
    _tag(),
    st.sampled_from(
        [b"<meta charset=gbk>", b'<meta http-equiv=content-type content="charset=koi8-r">']
    ),
    st.sampled_from([b"<!-->", b"<!--->", b"-->", b"<!--", b"<script>", b"</script>"]),
    st.sampled_from(
        [
            b"<!-->",
            b"<!--->",
            b"<!-- x -->",
            b"<!--",
            b"-->",
            b"<!x>",
            b"<?x>",
            b"</1>",
            b"<1",
            b"<",
            b"text",
            b" ",
            b"\n",
            b"</script>",
            b"</title>",
            b"</textarea>",
            b"<!DOCTYPE html>",
        ]
    ),
    st.binary(min_size=1, max_size=2),
)
_grammar_soup = st.lists(_token, max_size=40).map(b"".join)


@settings(max_examples=3000, deadline=None)
@given(
    head=st.one_of(_soup, _grammar_soup),
    padding=_padding,
    tail=st.one_of(_soup, _grammar_soup),
    cut=st.integers(0, 2400),
)
def test_token_expressions_agree_with_the_loops(
    head: bytes, padding: bytes, tail: bytes, cut: int
) -> None:
    """The prescan and the head scan, whose token expressions skip the common tokens in
    one C call, give what the plain loops give (tests/_reference_scans.py), also on every
    prefix (where a token is cut short, as in a stream)."""
    for body in (head + padding + tail, (head + padding + tail)[:cut], head + tail):
        assert _prescan.prescan(body[:1024]) == _reference_scans.prescan(body[:1024])
        assert _head_scan.head_scan(body) == _reference_scans.head_scan(body)


@st.composite
def _head_tag(draw: st.DrawFn) -> bytes:
    name = draw(
        st.sampled_from(
            [
                b"meta",
                b"Meta",
                b"link",
                b"LINK",
                b"base",
                b"noscript",
                b"object",
                b"html",
                b"head",
                b"/head",
                b"/meta",
                b"/noscript",
                b"/script",
                b"/title",
                b"/html",
                b"body",
                b"p",
                b"/p",
                b"div",
                b"metas",
                b"scripts",
            ]
        )
    )
    parts = [b"<", name]
    for _ in range(draw(st.integers(0, 3))):
        parts += [draw(st.sampled_from([b" ", b"\n", b"/"])), draw(_attribute())]
    parts += [draw(st.sampled_from([b"", b" ", b"/"])), b">"]
    return b"".join(parts)


_head_token = st.one_of(
    _head_tag(),
    _head_tag(),
    st.sampled_from(
        [
            b"<meta charset=gbk>",
            b'<meta http-equiv=content-type content="charset=koi8-r">',
            b'<meta name="a" content="b>c">',
            b"<title>t<meta charset=big5></title>",
            b"<TITLE>t</Title>",
            b"<script>if (a <b) x = '<meta charset=big5>'</script>",
            b"<style>p{}</STYLE>",
            b"<textarea><meta charset=big5></textarea>",
            b"<iframe></iframe>",
            b"<!-- c -->",
            b"<!-->",
            b"<!x>",
            b"<?pi>",
            b"</ x>",
            b" ",
            b"\n\t",
            b"text",
            b"<",
            b"< ",
        ]
    ),
)
_head_soup = st.lists(_head_token, max_size=12).map(b"".join)
_head_padding = st.sampled_from(
    [
        b"",
        b" " * 1100,
        b"<link href=a>\n" * 80,
        b"<!-- x -->" * 120,
        b"<script>" + b"x" * 1100 + b"</script>",
        b"<meta name=x content=y>" * 50,
        b"<p>" + b"x" * 1100,
        b"<title>" + b"<x>" * 2000 + b"</title>",
        # about 8 KiB: the head scan's first part ends near here
        b"<link href=a>\n" * 580,
        b" " * 8150,
        b"<!--" + b"x" * 8140 + b"-->",
        b"<script>" + b"x" * 8130 + b"</script>",
    ]
)


_boundary = st.sampled_from(
    [
        b"",
        b"<body>",
        b"<BODY class=x>",
        b"</head>",
        b"text",
        b"<p>",
        b"<",
        b"<textarea>x</textarea>",
        b"<html>",
        b"<head>",
        b"<noscript>",
        b"<base href=x>",
        b"</title>",
        b"<metas>",
        b"<scripts>",
    ]
)
_declaring = st.sampled_from(
    [
        b"<meta charset=gbk>",
        b'<meta http-equiv=content-type content="charset=koi8-r">',
        b"<meta name=charset content=x><meta charset=big5>",
    ]
)


@settings(max_examples=2000, deadline=None)
@given(
    head=_head_soup,
    boundary=_boundary,
    padding=_head_padding,
    middle=_head_soup,
    declaring=_declaring,
    tail=_head_soup,
    shift=st.integers(0, 40),
)
def test_head_scan_tokens_agree_with_the_loop(
    head: bytes,
    boundary: bytes,
    padding: bytes,
    middle: bytes,
    declaring: bytes,
    tail: bytes,
    shift: int,
) -> None:
    """The head scan on head-like pages (where its two token expressions and the check
    for "charset" ahead come into play) gives what the plain loop gives."""
    body = head + boundary + padding + middle + b" " * shift + padding + declaring + tail
    assert _head_scan.head_scan(body) == _reference_scans.head_scan(body)


_CONTENT_TYPES = st.sampled_from(
    [
        None,
        "text/html",
        "text/html; charset=utf-8",
        "text/html; charset=Shift_JIS",
        "text/html; charset=windows-1251",
        "text/html; charset=utf-16le",
        "text/html; charset=bogus",
        "text/html; charset=",
        "TEXT/HTML;CHARSET=gbk",
        "text/plain",
        "text/plain; charset=koi8-r",
        "application/xhtml+xml",
        "application/xml; charset=euc-kr",
        "application/json",
        "text/css; charset=big5",
        "image/png",
        "garbage",
        "",
        'text/html; charset="x-user-defined"',
    ]
)
_bodies = st.tuples(
    st.sampled_from([b"", b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe", b"\xef\xbb"]),
    st.one_of(_soup, _grammar_soup),
    st.sampled_from([b"", b"\x82\xa0\xff\xfe\x80", "приветмир".encode("cp1251"), b"\xe6\x97"]),
).map(b"".join)


@settings(max_examples=600, deadline=None)
@given(body=_bodies, content_type=_CONTENT_TYPES)
def test_decode_html_fast_path_agrees_with_the_stages(
    body: bytes, content_type: str | None
) -> None:
    """decode_html's shortcut for common calls (cached per header value and per
    declaration) gives exactly the result of the stages themselves."""
    from browser_decode import decode_html
    from browser_decode._api import decide, result_from_hint

    expected = result_from_hint(body, decide(body, content_type))
    for _ in range(2):  # the first call fills the caches, the second uses them
        result = decode_html(body, content_type)
        assert result == expected
        assert result.provenance.to_dict() == expected.provenance.to_dict()
        assert type(result.provenance.source) is type(expected.provenance.source)
