"""The scans' shortcuts for declared pages and undeclared UTF-8 pages (issue 14), each
against the plain loops of tests/_reference_scans.py (hypothesis) or the plain expression:

* ``charset_meta``: the one-match path to a ``<meta charset=label>`` that decode_html tries
  first; ``prescan_rest``, the loop after it; decode_html on that path against the stages;
* ``ATTRIBUTES_TOKEN``'s step for tags without quotes, and the no-charset ``<meta>``
  lookahead by runs without "c";
* ``prescan_unspelled`` and the head scan's one-match shortcut where the first 1024 bytes
  hold no "charset", with a declaring ``<meta>`` before, across and after byte 1024.
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode import _head_scan, _prescan

from . import _reference_scans
from .test_fast_paths import (
    _SPACES,
    _attribute,
    _boundary,
    _declaring,
    _grammar_soup,
    _head_padding,
    _head_soup,
    _head_token,
    _padding,
    _soup,
    _tag,
)

# -- declared pages (issue 14): the <meta charset> shortcut and the tokens' shortcuts ---------

_SIMPLE_META_TAGS = [
    b'<meta charset="utf-8">',
    b"<META CHARSET=windows-1251>",
    b"<meta charset='gbk' />",
    b"<meta  charset = Shift_JIS >",
    b"<meta/charset=koi8-r>",
    b"<meta charset=bogus>",
    b'<meta charset="">',
    b'<meta charset="utf-16le">',
    b"<meta charset=x-user-defined>",
    b"<meta charset=utf-8",
    b'<meta charset="utf-8" name=x>',
    b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
    b"<META CONTENT='text/html;CHARSET=gbk' HTTP-EQUIV=content-type/>",
    b'<meta http-equiv=content-type content="charset=bogus">',
    b'<meta http-equiv=content-type content="text/html">',
]
_SIMPLE_METAS = st.sampled_from(_SIMPLE_META_TAGS)
_STARTS = st.sampled_from(
    [
        b"",
        b"<!DOCTYPE html><html lang=en><head>",
        b'<html lang="en">\n<head>\n',
        b"<\x00?\x00x\x00",
        b"\x00<\x00?\x00x",
    ]
)


@settings(max_examples=2000, deadline=None)
@given(
    start=_STARTS,
    head=st.one_of(_soup, _grammar_soup),
    padding=_padding,
    meta=_SIMPLE_METAS,
    tail=_soup,
    end=st.sampled_from([1024, 1024, 40, 3000]),
)
def test_charset_meta_is_the_prescans_answer(
    start: bytes, head: bytes, padding: bytes, meta: bytes, tail: bytes, end: int
) -> None:
    """The one-match path to a ``<meta charset=label>`` or ``<meta http-equiv>`` (what
    decode_html tries first on the body itself) gives the plain loop's answer whenever it
    gives one."""
    for body in (start + head + padding + meta + tail, start + meta + head):
        reference = _reference_scans.prescan(body[:end])
        simple = _prescan.charset_meta(body, end)
        if simple is not None and (found := _prescan.charset_meta_declaration(*simple)):
            assert found == reference
        else:
            assert _prescan.prescan_rest(body[:end]) == reference
        assert _prescan.prescan(body[:end]) == reference


def test_charset_meta_finds_the_common_declarations() -> None:
    body = b'<!DOCTYPE html>\n<html lang="en"><head>\n<meta charset="UTF-8">' + b"x" * 2000
    simple = _prescan.charset_meta(body, 1024)
    assert simple == (b"UTF-8", body.index(b"<meta"), False)
    assert _prescan.charset_meta_declaration(*simple) == _reference_scans.prescan(body[:1024])
    pragma = b'<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
    body = body.replace(b'<meta charset="UTF-8">', pragma)
    simple = _prescan.charset_meta(body, 1024)
    assert simple == (b"text/html; charset=Shift_JIS", body.index(b"<meta"), True)
    found = _prescan.charset_meta_declaration(*simple)
    assert found is not None and found.label == "Shift_JIS"
    assert found == _reference_scans.prescan(body[:1024])
    # beyond the first 1024 bytes it is not the prescan's
    late = b"<p>" + b" " * 1100 + b"<meta charset=gbk>"
    assert _prescan.charset_meta(late, 1024) is None
    # nor after a BOM-less UTF-16 XML declaration (the prescan's answer is its encoding)
    assert _prescan.charset_meta(b"<\x00?\x00x\x00<meta charset=gbk>", 1024) is None
    assert _prescan.charset_meta(b"\x00<\x00?\x00x<meta charset=gbk>", 1024) is None


@settings(max_examples=400, deadline=None)
@given(
    start=_STARTS,
    head=st.one_of(_soup, _grammar_soup),
    padding=_padding,
    meta=_SIMPLE_METAS,
    tail=st.sampled_from([b"", "приветмир".encode("cp1251") * 40, b"\xe6\x97\xa5" * 400]),
    content_type=st.sampled_from([None, "text/html", "text/html; charset=utf-8", "text/plain"]),
)
def test_decode_html_charset_meta_path_agrees_with_the_stages(
    start: bytes, head: bytes, padding: bytes, meta: bytes, tail: bytes, content_type: str | None
) -> None:
    from browser_decode import decode_html
    from browser_decode._api import decide, result_from_hint

    body = start + head + padding + meta + tail
    expected = result_from_hint(body, decide(body, content_type))
    for _ in range(2):  # the first call fills the caches, the second uses them
        result = decode_html(body, content_type)
        assert result == expected
        assert result.provenance.to_dict() == expected.provenance.to_dict()


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.one_of(_attribute(), _SPACES, st.sampled_from([b"/", b" ", b"\t"])), max_size=6))
def test_attributes_token_ends_where_the_loop_does(parts: list[bytes]) -> None:
    """ATTRIBUTES_TOKEN (its shortcut for tags without quotes included) ends after the ">"
    where "get an attribute", repeated, stops; or does not match."""
    data = b" ".join(parts) + b">" + b"'\">x>"
    match = re.compile(_prescan.ATTRIBUTES_TOKEN).match(data)
    try:
        loop_end = _prescan.skip_attributes(data, 0) + 1
    except _prescan._OutOfBytes:
        loop_end = None
    if match is not None:
        assert match.end() == loop_end
    if b'"' not in data[: data.index(b">")] and b"'" not in data[: data.index(b">")]:
        assert match is not None  # the shortcut's case


@settings(max_examples=2000, deadline=None)
@given(_tag(), st.sampled_from([b"", b">", b"charset>", b" x=charset>"]))
def test_no_charset_meta_token_is_the_plain_lookahead(tag: bytes, rest: bytes) -> None:
    """NO_CHARSET_META_TOKEN's lookahead (runs without "c", a check at each "c") matches as
    ``(?![^>]*(?i:charset))`` does."""
    plain = re.compile(
        rb"(?i:meta)(?=[\t\n\x0c\r /])(?![^>]*(?i:charset))" + _prescan._ATTRIBUTES_NO_GT
    )
    data = tag[1:] + rest
    new = re.compile(_prescan.NO_CHARSET_META_TOKEN).match(data)
    old = plain.match(data)
    assert (new and new.end()) == (old and old.end())


# -- undeclared pages (issue 14): the head scan's shortcut where no "charset" comes early --


@settings(max_examples=2500, deadline=None)
@given(
    head=_head_soup,
    boundary=_boundary,
    middle=_head_soup,
    padding=_head_padding,
    declaring=_declaring,
    tail=_head_soup,
    shift=st.integers(0, 1100),
)
def test_head_scan_shortcut_agrees_with_the_loop(
    head: bytes,
    boundary: bytes,
    middle: bytes,
    padding: bytes,
    declaring: bytes,
    tail: bytes,
    shift: int,
) -> None:
    """``head_scan(body, clear=True)`` (its one-match shortcut for a head that ends
    early) gives what the plain loop gives, wherever the first 1024 bytes hold no
    "charset"; ``prescan_unspelled`` gives the prescan's answer and says so."""
    for body in (
        head + boundary + middle + b" " * shift + declaring + tail,
        head + boundary + b"<p>" * (shift // 3) + padding + declaring + tail,
        head + b" " * shift + boundary + middle + declaring,
    ):
        first = body[:1024]
        if b"charset" in first:
            continue
        found, lowered = _prescan.prescan_unspelled(body)
        assert found == _reference_scans.prescan(first)
        clear = lowered is not None
        assert clear == (not _prescan.may_declare(first) and not first.startswith(b"<\x00?"))
        if clear:
            assert lowered == body[:1028].lower()
            assert _head_scan.head_scan(body, True) == _reference_scans.head_scan(body)
            assert _head_scan.head_scan(body, True, lowered) == _reference_scans.head_scan(body)


_clear_head_soup = st.lists(
    _head_token.filter(lambda token: b"charset" not in token.lower()), max_size=12
).map(b"".join)


@settings(max_examples=2500, deadline=None)
@given(
    head=_clear_head_soup,
    boundary=_boundary,
    filler=st.sampled_from(
        [b" ", b"x", b"<p>", b"<!---->", b"<link>", b"<title>t</title>", b"<title> "]
    ),
    declaring=st.sampled_from(
        [
            b"<meta charset=gbk>",
            b"<meta name=x charset=gbk>",
            b"<meta\ncharset='big5'>",
            b"</title><meta charset=gbk>",
        ]
    ),
    back=st.integers(-40, 40),
    tail=_head_soup,
)
def test_head_scan_shortcut_at_the_1024_byte_mark(
    head: bytes, boundary: bytes, filler: bytes, declaring: bytes, back: int, tail: bytes
) -> None:
    """A declaring ``<meta>`` placed around byte 1024 (before it, across it, after it)
    behind a head without "charset": the shortcut agrees with the plain loop."""
    start = head + boundary
    count = max(0, (1024 - back - len(start)) // len(filler))
    body = start + filler * count + declaring + tail + b"x" * 1100
    first = body[:1024]
    if b"charset" in first.lower():
        return
    lowered = body[:1028].lower()
    assert _prescan.prescan_unspelled(body) == (_reference_scans.prescan(first), lowered)
    assert _head_scan.head_scan(body, True) == _reference_scans.head_scan(body)
    assert _head_scan.head_scan(body, True, lowered) == _reference_scans.head_scan(body)


def test_head_scan_shortcut_is_taken_on_the_common_page() -> None:
    head = (
        b'<!DOCTYPE html><html lang="en"><head><title>T</title>\n'
        b'<meta name="viewport" content="width=device-width">\n'
        b'<link rel=stylesheet href="/a.css"><script>var a = "<b>";</script>\n'
        b"</head><body><p>"
    )
    expressions = _head_scan._head_then_end()
    # (two where ``re`` has atomic groups, 3.11+; before, the walk alone, no expression)
    assert len(expressions) == (2 if sys.version_info >= (3, 11) else 0)
    for expression in expressions:
        ended = expression.match(head + b"x" * 3000, 0, 1024)
        assert ended is not None and ended.end() == head.index(b"</head>") + 7
    # a <meta> that starts before byte 1024 and declares after it is still found
    body = head.ljust(1010) + b"<meta name=x charset=gbk>" + b"x" * 2000
    assert b"charset" not in body[:1024].lower()
    hint = _head_scan.head_scan(body, True)
    assert hint is not None and hint.encoding.name == "GBK"
    assert hint == _reference_scans.head_scan(body)


@pytest.mark.parametrize("end", [1006, 1010, 1016, 1020, 1023])
def test_head_scan_shortcut_with_a_meta_right_after_the_head(end: int) -> None:
    """A ``<meta>`` that starts right where the head ends (before byte 1024) and declares
    after it: the shortcut's look for "<meta" from the head's end finds it."""
    head = b"<html><head><title>T</title>"
    body = head + b" " * (end - len(head) - 7) + b"</head><meta name=x charset=gbk>" + b"x" * 2000
    assert body.index(b"<meta") == end and b"charset" not in body[:1024].lower()
    found, lowered = _prescan.prescan_unspelled(body)
    assert found is None and lowered is not None
    hint = _head_scan.head_scan(body, True, lowered)
    assert hint is not None and hint.encoding.name == "GBK"
    assert hint == _reference_scans.head_scan(body)


@pytest.mark.parametrize("end", [b"</head>", b"<body class=x>", b"x"])
@pytest.mark.parametrize("second", [b" <meta charset=gbk>", b"<p><meta charset=gbk>"])
def test_head_scan_shortcut_goes_on_after_the_head_it_matched(end: bytes, second: bytes) -> None:
    """The head ended before byte 1024 and a ``<meta>`` starts there that holds "charset"
    after byte 1024 but declares nothing: the walk goes on from the token that ended
    the head, out of the head (a ``<meta>`` beyond byte 1024 is not reached)."""
    head = b"<html><head><title>T</title>" + end
    body = head.ljust(1012) + b"<meta name=x charset=bogus>" + second + b"x" * 2000
    assert b"charset" not in body[:1024].lower()
    found, lowered = _prescan.prescan_unspelled(body)
    assert found is None and lowered is not None
    assert _head_scan.head_scan(body, True, lowered) is None
    assert _head_scan.head_scan(body, True) == _reference_scans.head_scan(body) is None


@pytest.mark.parametrize("opening", [b"<script>", b"<style>", b"<title>", b"<!--"])
@pytest.mark.parametrize("at", [1030, 1500, 9000])
def test_head_scan_shortcut_goes_on_in_a_head_it_did_not_see_end(opening: bytes, at: int) -> None:
    """The head's tokens run past byte 1024 (a raw text element or a comment across it):
    the walk goes on from the last token matched, in the head, and finds a declaring
    ``<meta>`` after it, as the plain loop does."""
    closing = {b"<script>": b"</script>", b"<style>": b"</style>", b"<title>": b"</title>"}
    head = b"<!DOCTYPE html><html><head><link rel=x href=y>" + opening
    body = head + b"a=1; " * ((at - len(head)) // 5) + closing.get(opening, b"-->")
    body += b"\n<meta charset=gbk></head><body>" + b"x" * 2000
    found, lowered = _prescan.prescan_unspelled(body)
    assert found is None and lowered is not None
    hint = _head_scan.head_scan(body, True, lowered)
    assert hint is not None and hint.encoding.name == "GBK"
    assert hint == _reference_scans.head_scan(body)


@pytest.mark.parametrize("meta", _SIMPLE_META_TAGS)
@pytest.mark.parametrize("after", [b"", b"<meta charset=koi8-r>", b" <p>"])
def test_head_scan_meta_tag_shortcut_agrees_with_the_steps(meta: bytes, after: bytes) -> None:
    """``meta_tag``'s one match for ``<meta charset=label>`` (the head scan's, after byte
    1024, and the prescan's) gives what the steps for a ``<meta`` tag give, and the walk
    goes on after the tag as theirs does."""
    data = meta + after + b"</head><body>x"
    assert _prescan.meta_tag(data, 0, 5) == _prescan._meta(data, 5, 0)
    body = b"<html><head>" + b"<link rel=x href=y>\n" * 60 + data + b"x" * 100
    assert _head_scan.head_scan(body) == _reference_scans.head_scan(body)
    assert _head_scan.head_scan(body, True) == _reference_scans.head_scan(body)


def _outcome(scan: object, *args: object) -> object:
    """What a scan step gives, or that it runs out of bytes."""
    try:
        return scan(*args)  # type: ignore[operator]
    except _prescan._OutOfBytes:
        return "out of bytes"


_EQUALS = st.sampled_from([b"=", b" = ", b"\n=\t", b"= "])
_HTTP_EQUIV = st.tuples(
    st.sampled_from([b"http-equiv", b"HTTP-EQUIV", b"Http-Equiv", b"http-equi", b"http-equivx"]),
    _EQUALS,
    st.sampled_from(
        [
            b'"content-type"',
            b"'Content-Type'",
            b"content-type",
            b"CONTENT-TYPE",
            b"content-type/",
            b'"content-type2"',
            b"content-typex",
            b'"refresh"',
            b'"content-type',
        ]
    ),
).map(b"".join)
_CONTENT = st.tuples(
    st.sampled_from([b"content", b"Content", b"CONTENT", b"contents"]),
    _EQUALS,
    st.sampled_from(
        [
            b'"text/html; charset=gbk"',
            b"'text/html;charset=\"koi8-r\"'",
            b'"text/html; charset = utf-16le"',
            b'"text/html"',
            b'"charset=bogus"',
            b'"charset=\'gbk"',
            b'"text/html; CHARSET=Shift_JIS; x=y"',
            b'"charset charset=big5"',
            b'"charsetx=1;charset=x-user-defined"',
            b"text/html;charset=gbk",
            b'""',
            b'"charset=\xe9"',
            b"'a>b charset=euc-kr'",
        ]
    ),
).map(b"".join)
_PRAGMA_TAGS = st.tuples(
    st.sampled_from([b"<meta", b"<META", b"<Meta"]),
    st.sampled_from([b" ", b"/", b"\n", b" / "]),
    st.sampled_from([(0, 1), (1, 0)]),
    _HTTP_EQUIV,
    st.sampled_from([b" ", b"", b"/", b"\n / ", b" x "]),
    _CONTENT,
    st.sampled_from([b">", b"/>", b" >", b" / >", b" x>", b"", b" "]),
).map(lambda t: t[0] + t[1] + (t[3], t[5])[t[2][0]] + t[4] + (t[3], t[5])[t[2][1]] + t[6])


@settings(max_examples=3000, deadline=None)
@given(tag=_PRAGMA_TAGS, after=st.sampled_from([b"", b"<p>x", b"<meta charset=koi8-r>"]))
def test_pragma_meta_shortcut_agrees_with_the_steps(tag: bytes, after: bytes) -> None:
    """``meta_tag``'s one match for ``<meta http-equiv=content-type content="...">`` (either
    order) gives what the steps for a ``<meta`` tag give, wherever the tag ends; and the
    prescan and the head scan over pages with it give what the plain loops give."""
    data = tag + after
    assert _outcome(_prescan.meta_tag, data, 0, 5) == _outcome(_prescan._meta, data, 5, 0)
    page = b"<html><head>" + data
    assert _prescan.prescan(page) == _reference_scans.prescan(page)
    body = b"<html><head>" + b"<link rel=x href=y>\n" * 60 + data + b"</head>" + b"x" * 100
    assert _head_scan.head_scan(body) == _reference_scans.head_scan(body)


@pytest.mark.parametrize(
    "tag",
    [b"<metax charset=gbk>", b"<meta/charset=gbk>", b"<META\ncharset=gbk>", b"<meta>", b"<meta"],
)
@pytest.mark.parametrize("clear", [True, False])
def test_head_scan_first_step_at_a_meta_after_the_heads_tokens(tag: bytes, clear: bool) -> None:
    """Where the head's tokens (one match) end at a ``<meta`` start tag, the walk goes on
    with it as its first step would; a longer name is no ``<meta>`` (it ends the head)."""
    body = b"<html><head>" + b"<link rel=x href=y>\n" * 60 + tag + b"<meta charset=koi8-r>"
    for tail in (b"", b"</head><body>" + b"x" * 100):
        assert _head_scan.head_scan(body + tail, clear) == _reference_scans.head_scan(body + tail)


@pytest.mark.parametrize(("at", "size"), [(16384, 20_000), (8192, 70_000), (8192, 20_000)])
def test_head_scan_first_step_where_the_tokens_match_ends(at: int, size: int) -> None:
    """A ``<metax`` whose "<meta" ends where the head's tokens are matched up to (the walk's
    look for "charset" ahead, or its first part): its name goes on after it."""
    head = b"<html><head>"
    for tag in (b"<metax charset=gbk>", b"<meta charset=gbk>"):
        body = head + b" " * (at - 5 - len(head)) + tag + b"<meta charset=koi8-r>"
        body += b"</head><body>" + b"x" * (size - len(body))
        assert _head_scan.head_scan(body, True) == _reference_scans.head_scan(body)
