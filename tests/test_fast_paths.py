"""The fast paths of the undeclared-page stages agree with the slow algorithms (issue 14).

* ``may_declare``: without "charset" (in any case) in reach, the prescan and the head scan
  skip their tag loop. Checked against the loop itself (``may_declare`` forced true) on
  generated tag soup, with and without "charset" in it.
* the token expressions of the prescan and the head scan (and the head scan's first 8 KiB
  part) against the plain loops of tests/_reference_scans.py; ``decode_html``'s shortcut
  for common calls against ``decide`` + ``result_from_hint``.
* ``valid_utf8``: one strict decode after a bounded look; checked against the previous
  algorithm (sample decode, then the whole), kept here as the reference.
* detection: ``trim_sample`` against ``trim`` of all the sample's bytes 0x80-0xFF;
  ``weigh`` (half-nat tables, adler32) against the plain sum of the byte weights;
  ``_context`` by bits against every pattern counted by ``bytes.count``; ``_tie_beyond``
  against collecting all the bytes 0x80-0xFF first.
* the undeclared path before ranking (cold work): the first-sequence test of ``utf8_text``
  against Python's UTF-8 decoder, ``sample_ranges`` and its boundaries against the lists of
  finds, the one look for controls and ESC, ``nearly_utf8``'s early rejection, and
  ``decode_html``'s direct call of the detection against the stages.
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


@pytest.mark.parametrize(
    "body",
    [
        # a byte 0x80-0xFF in the first 4 KiB, before or after the end of the sample's
        # head (the last boundary before 32 KiB), with and without 7-bit ISO-2022-JP
        # in the sample (the escapes of its middle and tail)
        b"a\n" + b"\xc3\xa9" * 10 + b"x" * 40000 + b"\n\x1b$B$3\x1b(B\n" + b"y" * 30000,
        b"a\n" + b"\xc3\xa9" * 10 + b"x" * 40000 + b"\n" + b"y" * 30000,
        b"a" * 5000 + b"\xc3\xa9\n" + b"x" * 40000 + b"\n\x1b$B$3\x1b(B\n" + b"y" * 30000,
        b"a\n\xc3\xa9" + b"x" * 70000 + b"\n\x1b$B$3\x1b(B\n",
        b"\xc3\xa9 \x1b$B$3\x1b(B " * 10,
        b"\x1b$B$3\x1b(B " * 10,
        "h\u00e9llo\x00".encode("utf-16-le") * 3000,
        # bodies over 128 KiB, probed by their first 4 KiB first (a character across
        # its end is no error)
        b"\xe0\xe1 " * 50000,
        "\u00e9".encode() * 70000,
        b"a" * 4095 + "\u00e9".encode() + b"x" * 140000,
        b"a" * 4095 + "\u00e9".encode() + b"x" * 140000 + b"\xff",
    ],
)
def test_valid_utf8_where_the_first_high_byte_lies(body: bytes) -> None:
    hint = valid_utf8(body)
    assert (None if hint is None else hint.decoded) == _valid_utf8_before(body)


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


# -- detection (issue 13/14 speed): each fast path against the plain algorithm ---------------

_high_text = st.lists(
    st.one_of(
        st.binary(max_size=6),
        st.sampled_from([b" ", b"\n", b"<p>", b"word ", b"\xe0\xe1 ", b"\xc3\xa9", b"x" * 900]),
        st.binary(min_size=1, max_size=4).map(lambda b: bytes(x | 0x80 for x in b) * 40),
    ),
    max_size=60,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(_high_text)
def test_trim_sample_is_trim_of_all_high_bytes(data: bytes) -> None:
    """trim_sample reads only as far as it needs to, and cuts where trim cuts."""
    from browser_decode._detect._sample import high_bytes, trim, trim_sample

    assert trim_sample(data) == trim(data, high_bytes(data))


@pytest.mark.parametrize("count", [511, 512, 639, 640, 641, 700, 5000])
@pytest.mark.parametrize("unit", [b"\xe0 ", b"\xe0\xe1", b"ab\xe0 cd"])
def test_trim_sample_at_the_limits(count: int, unit: bytes) -> None:
    from browser_decode._detect._sample import high_bytes, trim, trim_sample

    data = b"<p>" + unit * (count // len(high_bytes(unit))) + b"</p>"
    assert trim_sample(data) == trim(data, high_bytes(data))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000).map(lambda b: bytes(x | 0x80 for x in b)))
def test_weigh_is_the_sum_of_the_byte_weights(high: bytes) -> None:
    """_models.weigh (half-nat tables summed by adler32 in C) is the plain sum of each
    byte's weight, exactly, for every (encoding, language) pair."""
    from browser_decode._detect._models import SINGLE_BYTE, byte_table, byte_weights, weigh

    for encoding, languages in SINGLE_BYTE.items():
        for language in languages:
            weights = byte_weights(encoding, language)
            assert weigh(high, byte_table(encoding, language)) == sum(
                weights[b - 0x80] for b in high
            ), (encoding, language)


def _context_by_counts(name: str, window: bytes, scale: float, baseline: int, alnum: bool) -> float:
    """_rank._context as first written: every pattern counted by bytes.count."""
    from browser_decode._detect._models import (
        CASE_SWITCH,
        MIXED_SCRIPT,
        SCRIPT_SWITCH,
        STRAY_MARK,
        SYMBOL_IN_WORD,
        context_classes,
    )

    table = context_classes(name)
    classes = window.translate(table)
    penalty = classes.count(b" m") * STRAY_MARK if b"m" in classes else 0.0
    if b"s" in classes:
        inside = sum(classes.count(p) for p in (b"lsl", b"usl", b"lsu", b"usu", b"asa"))
        penalty += inside * SYMBOL_IN_WORD
    if alnum and table[0x61] == 0x61:
        mixed = sum(classes.count(pair) for pair in (b"al", b"la", b"au", b"ua"))
        switches = sum(classes.count(words) for words in (b"a l", b"l a", b"a u", b"u a"))
        penalty += switches * SCRIPT_SWITCH
        penalty += classes.count(b"am") * STRAY_MARK
        return (penalty + classes.count(b"lu") * CASE_SWITCH + mixed * MIXED_SCRIPT) * scale
    return (penalty + (classes.count(b"lu") - baseline) * CASE_SWITCH) * scale


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=4),
            # (b"a\xd7b\xd7c": symbols two apart, "lslsl" in windows-1252, counted once)
            st.sampled_from(
                [b" ", b"a", b"Ab", b"\xe0", b"\xc0", b"\xe0\xc0", b"\xb7", b"\xd8", b"a\xd7b\xd7c"]
            ),
        ),
        max_size=80,
    ).map(b"".join),
    st.sampled_from([0.5, 1.0, 2.5]),
    st.integers(0, 5),
    st.booleans(),
)
def test_context_by_bits_is_context_by_counts(
    window: bytes, scale: float, baseline: int, alnum: bool
) -> None:
    """_rank._context counts pairs and triples of classes as bits: the same penalties."""
    from browser_decode._detect._models import SINGLE_BYTE
    from browser_decode._detect._rank import _context

    for name in SINGLE_BYTE:
        want = _context_by_counts(name, window, scale, baseline, alnum)
        assert _context(name, window, scale, baseline, alnum) == want, name


@settings(max_examples=200, deadline=None)
@given(_high_text, st.sampled_from([b"", b"\n<p>\xe8\xe9</p>" * 3000, b"<p>x</p>" * 9000]))
def test_tie_beyond_reads_all_the_sample_only_when_needed(head: bytes, rest: bytes) -> None:
    """_tie_beyond checks the rest of the sample for a byte the two best decode differently
    before collecting its bytes 0x80-0xFF: the answer the whole collection gives."""
    from browser_decode._decoders import decode
    from browser_decode._detect import _tie_beyond
    from browser_decode._detect._models import SINGLE_BYTE
    from browser_decode._detect._rank import _Ranked
    from browser_decode._detect._sample import high_bytes, trim_sample

    whole = head + rest
    trimmed, high = trim_sample(whole)
    every = high_bytes(whole)
    for a, b in (
        ("windows-1252", "ISO-8859-15"),
        ("windows-1250", "ISO-8859-2"),
        ("windows-1251", "x-mac-cyrillic"),
    ):
        assert a in SINGLE_BYTE and b in SINGLE_BYTE
        ranked = [_Ranked(0.0, 0, a), _Ranked(-1.0, 1, b)]
        alike = bytes(sorted(set(high)))
        everything = bytes(sorted(set(every)))
        want = (
            every
            if len(every) > len(high)
            and decode(a, alike) == decode(b, alike)
            and decode(a, everything) != decode(b, everything)
            else None
        )
        assert _tie_beyond(ranked, trimmed, high, lambda: whole) == want, (a, b)


def _nearly_utf8_before(data: bytes) -> float | None:
    """_sample.nearly_utf8 before its early rejection of stray continuation bytes."""
    from browser_decode._detect import _sample

    data = _sample._without_cut_character(data)
    classes = data.translate(_sample._UTF8_CLASSES)
    leads, continuations = classes.count(b"l"), classes.count(b"c")
    if not leads <= continuations * 1.1 or continuations > 3.3 * leads + 2:
        return None
    text = data.decode("utf-8", "replace")
    errors = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")
    non_ascii = len(text) - (len(data) - len(data.translate(None, bytes(range(0x80)))))
    valid = non_ascii - errors
    if errors == 0 and valid:
        return 1.0 - 0.5**valid
    if valid < 4 or errors * 20 > valid:
        return None
    return valid / (valid + errors) * (1.0 - 0.5**valid)


_utf8_soup = st.lists(
    st.one_of(
        st.text(max_size=6).map(lambda t: t.encode("utf-8")),
        st.binary(max_size=3),
        st.sampled_from([b"\xef\xbf\xbd", b"\xc3", b"\xa9", b"\xb0\xa1", b" \xbf", b"\xf5\x80"]),
    ),
    max_size=50,
).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(_utf8_soup)
def test_nearly_utf8_early_rejection_agrees(data: bytes) -> None:
    from browser_decode._detect._sample import nearly_utf8

    assert nearly_utf8(data) == _nearly_utf8_before(data)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"a", b"Z", b" ", b"<", b"\x81", b"\xb0", b"\xfe", b"\xff", b"@"]),
        max_size=40,
    ).map(b"".join)
)
def test_in_word_precheck_never_hides_a_match(data: bytes) -> None:
    """Without an ASCII letter right before a byte 0x81-0xFE, _IN_WORD finds nothing."""
    from browser_decode._detect._rank import _IN_WORD, _LETTER_LEAD

    if b"LH" not in data.translate(_LETTER_LEAD):
        assert not _IN_WORD.findall(data)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3000), min_size=26, max_size=26))
def test_packed_ascii_scores_are_the_dot_products(counts: list[int]) -> None:
    """_models.ascii_packed: one sum of 26 products holds every language's (and set of
    languages') ASCII score, each equal to its plain dot product."""
    from operator import mul

    from browser_decode._detect._models import (
        ASCII_FIELD_MASK,
        ascii_packed,
        ascii_weights,
        best_ascii_weights,
    )

    packed, shifts = ascii_packed()
    total = sum(map(mul, counts, packed))
    for key, shift in shifts.items():
        weights = ascii_weights(key) if isinstance(key, str) else best_ascii_weights(key)
        assert (0 - ((total >> shift) & ASCII_FIELD_MASK)) / 2 == sum(map(mul, counts, weights))


_cjk_soup = st.lists(
    st.one_of(
        st.sampled_from(
            [
                b"\x81",
                b"\xa1",
                b"\xfe",
                b"\x80",
                b"\xff",
                b"\x30",
                b"\x39",
                b" ",
                b"<",
                b"a",
                b"@",
                b"\x8e",
                b"\x8f",
                b"\xa4",
                b"\x5c",
                b"\x7f",
                b"\x00",
                b"\n",
                b"<p class=x>",
            ]
        ),
        st.binary(max_size=4),
    ),
    max_size=60,
).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(_cjk_soup)
def test_ascii_stretches_dropped_before_a_multi_byte_decode_change_nothing(data: bytes) -> None:
    """_rank._ASCII_STRETCH: the candidate's non-ASCII characters and its errors are those
    of decoding every byte, for every multi-byte candidate's codec."""
    import re

    from browser_decode._detect._models import MULTI_BYTE
    from browser_decode._detect._rank import _ASCII_STRETCH, _compact

    ascii_runs = re.compile("[\x00-\x7f]+")
    compact = _ASCII_STRETCH.sub(rb"\1\2", data)
    assert _compact(data) == compact
    for codec, _ in MULTI_BYTE.values():
        want, got = data.decode(codec, "replace"), compact.decode(codec, "replace")
        assert ascii_runs.sub("", got) == ascii_runs.sub("", want), codec
        assert got.count("\ufffd") == want.count("\ufffd"), codec


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("ab <>\n한국어日本語のカ中文字\ufffd\u00e9\u0100\x85"), max_size=80
    )
)
def test_char_scorer_weighs_the_non_ascii_characters_only(text: str) -> None:
    """_models.CharScorer.score looks every character up (ASCII weighing nothing): the sum
    of the weights of the non-ASCII characters, as cutting the ASCII out first gave."""
    from browser_decode._detect import _models

    for language in ("ko", "ja", "zh-Hans", "zh-Hant"):
        letters = _models.letter_weights(language)
        want = sum(
            letters.get(char, _models.floor_weight(char, language))
            for char in text
            if not char.isascii()
        )
        assert _models.char_scorer(language).score(text) == want, language


@pytest.mark.parametrize("filler", [b"a=1;", b"x<y ", b"</scrip ", b"<!-- "])
@pytest.mark.parametrize("opening", [b"<script>", b"<style>", b"<title>", b"<link ", b"<!--"])
@pytest.mark.parametrize("size", [7000, 9000, 20000, 70000])
def test_long_tokens_across_the_scan_parts_agree_with_the_loop(
    opening: bytes, filler: bytes, size: int
) -> None:
    """Raw text, tags and comments that run past the head scan's first 8 KiB, or past
    its 64 KiB, closed after that or never (where the token expressions' atomic groups
    give up at once instead of backtracking): what the plain loop gives."""
    closing = {b"<script>": b"</script>", b"<style>": b"</STYLE>", b"<title>": b"</title>"}
    head = b"<!DOCTYPE html><html><head>" + opening + filler * (size // len(filler))
    for end in (b"", closing.get(opening, b">" if opening == b"<link " else b"-->")):
        for declaring in (b"<meta charset=koi8-r>", b""):
            body = head + end + declaring + b"</head><body>x</body></html>"
            assert _head_scan.head_scan(body) == _reference_scans.head_scan(body)
            assert _prescan.prescan(body[:1024]) == _reference_scans.prescan(body[:1024])


#: Text of one script (and ASCII) and the codecs that write it.
_SCRIPT_TEXTS = [
    ("가나다라마바사한국어서울의이는을를에서 <p>ab\n", ["cp949", "euc_jp", "gbk"]),
    ("日本語の文章です東京カタあいうえおかきくけこ価格 <p>ab\n", ["cp932", "euc_jp", "gbk"]),
    ("的一是不了人我在有他这中大来上国个到说们为 <p>ab\n", ["gbk", "big5hkscs", "cp932"]),
    ("的一是不了人我在有他這中大來上國個到說們為 <p>ab\n", ["big5hkscs", "gbk"]),
    ("абвгдеёжзийклмнопАБВГДЕЁ <p>ab Cd\n", ["cp1251", "koi8_r", "mac_cyrillic", "cp949"]),
    ("àéèçôüßñÀÉ ąęłśżĄŁ αβγδ ÿ <p>ab Cd\n", ["cp1252", "cp1250", "iso8859_2"]),
    ("αβγδεζηθΑΒΓ שלום مرحبا ไทย <p>ab\n", ["iso8859_7", "cp1255", "cp1256", "cp874"]),
]
_encoded = (
    st.sampled_from(_SCRIPT_TEXTS)
    .flatmap(
        lambda script: st.tuples(
            st.text(alphabet=st.sampled_from(script[0]), min_size=300, max_size=900),
            st.sampled_from(script[1]),
        )
    )
    .map(lambda t: t[0].encode(t[1], "ignore"))
)


@settings(max_examples=400, deadline=None)
@given(_encoded, st.sampled_from([None, "http://example.kr/", "http://example.ru/", "cz"]))
def test_ranking_shortcuts_change_no_evidence(body: bytes, url: str | None) -> None:
    """The ranking's shortcut against the plain computation: the multi-byte candidates left
    at a bound (scored step by step) change no evidence (their scores are never seen)."""
    from browser_decode._detect import _rank, evidence
    from browser_decode._detect._sample import trim_sample

    data, high = trim_sample(body)
    bonuses = {"windows-1252": _rank.DEFAULT_BONUS}
    fast_ranking = _rank.rank_candidates(data, high, bonuses) if high else None
    fast = evidence(body, url=url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rank, "_FIRST_CHARS", 10**9)  # every text scored in full at once
        plain_ranking = _rank.rank_candidates(data, high, bonuses) if high else None
        plain = evidence(body, url=url)
    assert fast == plain
    if fast_ranking is not None and plain_ranking is not None:
        multi = {name for name in _rank.MULTI_BYTE}
        exact = [r for r in fast_ranking if r.exact or r.name not in multi]
        assert exact == [r for r in plain_ranking if r in exact or r.name not in multi]
        for left in fast_ranking:
            if left.name in multi and not left.exact:  # a bound, below its exact score
                (full,) = [r for r in plain_ranking if r.name == left.name]
                assert full.score <= left.score < fast_ranking[1].score


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=40),
            st.sampled_from(
                [b"text ", b"\xe0\xe9 ", b"\x00", b"\x01\x02", b"\x1b\x1a\t\n", b"long " * 500]
            ),
        ),
        max_size=80,
    ).map(b"".join)
)
def test_looks_binary_is_the_count_of_controls(data: bytes) -> None:
    """looks_binary looks for a control byte before counting them: the plain count's answer."""
    from browser_decode._detect._sample import _CONTROLS, looks_binary

    controls = sum(1 for byte in data if byte in _CONTROLS)
    assert looks_binary(data) == (controls >= 3 and controls * 100 >= len(data))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000).map(lambda b: bytes(x | 0x80 for x in b)))
def test_weigh_all_is_weigh_of_each(high: bytes) -> None:
    """weigh_all gives weigh of each table (in one comprehension, or per table when long)."""
    from browser_decode._detect._models import SINGLE_BYTE, best_byte_tables, weigh, weigh_all

    tables = best_byte_tables(tuple(SINGLE_BYTE))
    assert weigh_all(high, tables) == [weigh(high, table) for table in tables]


@settings(max_examples=200, deadline=None)
@given(
    _high_text,
    st.sampled_from([b"<p>x</p>\n" * 8000, b"\n<p>\xe8\xe9 \xc0</p>" * 5000]),
    st.sampled_from([b"", b"\x1b$B", b"\x00\x01\x02" * 30]),
)
def test_sample_pieces_without_joining_them(head: bytes, rest: bytes, extra: bytes) -> None:
    """A large body's sample read in place: its length, escapes and controls found in
    its pieces, and a trim decided by its head alone, are those of the joined sample."""
    from browser_decode._detect._sample import (
        _CONTROLS,
        in_sample,
        looks_binary,
        may_look_binary,
        sample,
        sample_ranges,
        sample_size,
        trim_prefix,
        trim_sample,
    )

    body = head + extra + rest + head
    whole, ranges = sample(body), sample_ranges(body)
    assert sample_size(ranges) == len(whole)
    assert b"\n".join(body[start:end] for start, end in ranges) == whole
    assert in_sample(body, ranges, b"\x1b") == (b"\x1b" in whole)
    assert may_look_binary(body, ranges) == any(byte in _CONTROLS for byte in whole)
    assert may_look_binary(body, ranges) or not looks_binary(whole)
    trimmed = trim_prefix(body, len(whole), ranges[0][1])
    assert trimmed is None or trimmed == trim_sample(whole)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        _cjk_soup,
        _encoded,
        st.text(alphabet=st.sampled_from("абвгдеёжАБЯя ,.<p>\n"), max_size=400).map(
            lambda t: t.encode("cp1251")
        ),
    ),
    st.integers(1, 600),
)
def test_a_prefix_has_at_most_one_error_more(data: bytes, cut: int) -> None:
    """The probe's first half rules a multi-byte candidate out only if the probe would:
    decoding a prefix gives the errors of the whole up to the character it cuts, and one
    for that character (an incomplete sequence at the end is one error)."""
    from browser_decode._detect._models import MULTI_BYTE

    for codec, _ in MULTI_BYTE.values():
        whole = data.decode(codec, "replace").count("\ufffd")
        assert data[:cut].decode(codec, "replace").count("\ufffd") - 1 <= whole, codec


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_distinct_is_the_size_of_the_set(data: bytes) -> None:
    """_margin's count of distinct byte values is that of the set of them."""
    from browser_decode._detect import _distinct

    assert _distinct(data) == len(set(data))


# -- the undeclared path before ranking, cold (issue 14): each shortcut against the plain way --

_UTF8_PIECES = st.sampled_from(
    [
        b"\xc3\xa9",
        b"\xc3",
        b"\xa9",
        b"\xc0\xaf",  # overlong
        b"\xc1\xbf",
        b"\xe0\x80\xaf",  # overlong
        b"\xe0\xa0\x80",
        b"\xed\x9f\xbf",
        b"\xed\xa0\x80",  # surrogate
        b"\xef\xbf\xbd",
        b"\xf0\x8f\xbf\xbf",  # overlong
        b"\xf0\x90\x80\x80",
        b"\xf4\x8f\xbf\xbf",
        b"\xf4\x90\x80\x80",  # above U+10FFFF
        b"\xf5\x80\x80\x80",
        b"\xff",
        "приветмир".encode("cp1251"),
        "Schöne".encode("cp1252"),
        "日本語".encode("cp932"),
    ]
)


@settings(max_examples=1000, deadline=None)
@given(
    st.binary(max_size=5000).map(lambda b: bytes(x & 0x7F for x in b)),
    st.lists(st.one_of(_UTF8_PIECES, st.binary(max_size=4)), min_size=1, max_size=4).map(b"".join),
)
def test_first_utf8_sequence_is_the_decoders(ascii_head: bytes, rest: bytes) -> None:
    """_FIRST_UTF8 matches exactly where the first byte 0x80-0xFF starts a sequence that
    Python's strict UTF-8 decoder reads as one character; where it does not, the strict
    decode of the body fails (so utf8_text rejects the body without it)."""
    from browser_decode._detect import _FIRST_UTF8, utf8_text

    body = ascii_head + rest
    first = next((i for i, byte in enumerate(body) if byte >= 0x80), None)
    if first is None:
        return

    def one_character(length: int) -> bool:
        try:
            return len(body[first : first + length].decode("utf-8")) == 1
        except UnicodeDecodeError:
            return False

    valid_first = any(one_character(length) for length in (2, 3, 4))
    assert (_FIRST_UTF8.match(body) is not None) == valid_first
    if not valid_first:
        with pytest.raises(UnicodeDecodeError):
            body.decode("utf-8")
        assert utf8_text(body) is None


def _start_after_boundary_before(body: bytes, start: int, limit: int) -> int:
    found = [i for i in (body.find(b, start, limit) for b in (b"\n", b" ", b"<")) if i >= 0]
    return min(found) + 1 if found else start


def _end_before_boundary_before(body: bytes, start: int, end: int) -> int:
    found = [i for i in (body.rfind(b, start, end) for b in (b"\n", b" ", b"<")) if i >= 0]
    return max(found) if found else end


def _sample_ranges_before(body: bytes) -> tuple[tuple[int, int], ...]:
    """sample_ranges before issue 14's cold work (a list of finds per boundary)."""
    from browser_decode._detect._sample import HEAD, PIECE

    size = len(body)
    if size <= WHOLE:
        return ((0, size),)
    ranges = [(0, _end_before_boundary_before(body, 0, HEAD))]
    for start, end in ((size // 2, size // 2 + PIECE), (size - PIECE, size)):
        start = _start_after_boundary_before(body, start, end)
        ranges.append((start, _end_before_boundary_before(body, start, end)))
    return tuple(ranges)


# Large bodies whose boundaries (newline, space, "<") are few, one kind only or none, in
# some pieces of the sample and not in others.
_sparse = st.lists(
    st.one_of(
        st.sampled_from([b"\n", b" ", b"<", b"\n \n", b"\x1b", b"\x00", b"\x01", b"\t\r\x0c"]),
        st.sampled_from([b"x", b"\xe0\xe1", b"\x82\xa0"]).flatmap(
            lambda unit: st.integers(1, 9000).map(lambda n: unit * n)
        ),
    ),
    min_size=1,
    max_size=40,
).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(_sparse, st.integers(0, 70000))
def test_sample_ranges_and_boundaries_agree_with_the_lists(body: bytes, pad: int) -> None:
    from browser_decode._detect._sample import (
        _CONTROLS,
        CONTROLS_OR_ESC,
        _end_before_boundary,
        _start_after_boundary,
        holds_any,
        sample,
        sample_ranges,
    )

    body = body + b"y" * pad + body
    ranges = sample_ranges(body)
    assert ranges == _sample_ranges_before(body)
    for start, end in ((0, len(body)), (len(body) // 3, len(body) // 2), (5, 5)):
        assert _start_after_boundary(body, start, end) == _start_after_boundary_before(
            body, start, end
        )
        assert _end_before_boundary(body, start, end) == _end_before_boundary_before(
            body, start, end
        )
    whole = sample(body)
    assert holds_any(body, ranges, CONTROLS_OR_ESC) == (
        b"\x1b" in whole or any(b in _CONTROLS for b in whole)
    )


_legacy_tails = st.sampled_from(
    [b"", b"\xc3", b"\xe0\xa0", b"\xf0\x90\x80", b"\xd0", b"\xe8\xe9\xea", b"\xbf\xbf"]
)


@settings(max_examples=500, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("абвгдеёжАБЯя ,.<p>\n"), max_size=300).map(
        lambda t: t.encode("cp1251")
    ),
    st.lists(_UTF8_PIECES, max_size=12).map(b"".join),
    _legacy_tails,
)
def test_nearly_utf8_legacy_rejection_agrees(legacy: bytes, utf8: bytes, tail: bytes) -> None:
    """nearly_utf8 rejects text with far more lead bytes than continuation bytes before
    looking for a cut character at its end: the answer of the plain order."""
    from browser_decode._detect._sample import nearly_utf8

    for data in (legacy + utf8 + tail, utf8 + legacy + tail, utf8 + tail):
        assert nearly_utf8(data) == _nearly_utf8_before(data)


_undeclared = st.one_of(
    st.text(alphabet=st.sampled_from("абвгдеёжАБЯя ,.<p>\n"), max_size=400).map(
        lambda t: t.encode("cp1251")
    ),
    st.text(alphabet=st.sampled_from("日本語のテキスト、。 <p>\n"), max_size=200).map(
        lambda t: t.encode("cp932")
    ),
    st.binary(max_size=600),
    st.sampled_from([b"\x1b$B$3$s\x1b(B ok", "h\u00e9llo".encode("utf-16-le") * 40, b"plain"]),
)


@settings(max_examples=300, deadline=None)
@given(
    _undeclared,
    st.sampled_from([b"", b"<p>ascii and more</p>\n" * 3300]),
    st.sampled_from([None, "http://example.ru/", "http://example.jp/", ""]),
    st.sampled_from([None, "koi8-r", "shift_jis", "bogus", ""]),
    st.sampled_from(["text/html", None, "text/plain"]),
)
def test_undeclared_detection_shortcut_agrees_with_the_stages(
    text: bytes, filler: bytes, url: str | None, default_encoding: str | None, ct: str | None
) -> None:
    """decode_html's undeclared path (evidence called directly, the provenance built at
    once) gives the result of the stages (Request, detection_stage, result_from_hint),
    also for large bodies (the sample's pieces), binary bodies and with hints."""
    from browser_decode import decode_html
    from browser_decode._api import decide, result_from_hint

    for body in (text, filler + text + filler):
        expected = result_from_hint(
            body, decide(body, ct, url=url, default_encoding=default_encoding)
        )
        result = decode_html(body, ct, url=url, default_encoding=default_encoding)
        assert result == expected
        assert result.provenance.to_dict() == expected.provenance.to_dict()


@pytest.mark.parametrize("repeat", [1, 400])
def test_utf16_whose_first_nul_lies_late_in_the_head(repeat: int) -> None:
    """evidence looks for the NUL bytes of BOM-less UTF-16 in the whole first 4 KiB before
    calling utf16_without_bom: CJK text without ASCII first, its NULs later."""
    from browser_decode._detect import Evidence, _hint, calibrated_utf16, evidence

    body = ("日本語の文章" * 60 + " and some ascii text, " * 60).encode("utf-16-le") * repeat
    assert b"\x00" not in body[:700] and b"\x00" in body[:4096]
    found = utf16_without_bom(body)
    assert found is not None and found[0] == "UTF-16LE"
    assert evidence(body) == Evidence(_hint(found[0], calibrated_utf16(body, *found), None))
