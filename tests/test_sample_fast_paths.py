"""The sample's scans of detection agree with their previous, plain versions (issue 14).

``trim_prefix`` / ``trim_sample`` (counted in blocks), ``words_around`` (the head's
non-ASCII words counted without splitting the rest, the words before the first one's
neighbour not split, the words picked in one pass; in sparse text beyond the head, the
words found where their bytes 0x80-0xFF lie), ``first_high`` and ``nearly_utf8``
(lead and continuation bytes counted in the bytes 0x80-0xFF; the decode instead of the
count of stray continuation bytes) are each compared with a copy of the code they
replaced (kept below as the reference), on bodies of every shape: dense and sparse
non-ASCII text, markup, every kind of whitespace, ASCII stretches of kilobytes, and
bodies over 64 KiB.
"""

from __future__ import annotations

import re
from itertools import chain, compress, count, islice
from operator import not_

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode._detect import _sample
from browser_decode._detect._sample import (
    MAX_CONTEXTS,
    MAX_HIGH_BYTES,
    WHOLE,
    first_high,
    high_bytes,
    nearly_utf8,
    sample,
    sample_ranges,
    trim,
    trim_prefix,
    trim_sample,
    words_around,
)

# -- the reference: the code the fast paths replaced (main at f016b4f) ----------------

_ASCII = bytes(range(0x80))
_STEP = 256
_MARKUP_TO_SPACE = bytes(0x20 if chr(b) in '<>/="' else b for b in range(256))
_SAFE_CUT = re.compile(rb"[\x00-\x2f]")
_UTF8_CLASSES = bytes(
    ord("c") if 0x80 <= b <= 0xBF else ord("l") if 0xC2 <= b <= 0xF4 else 0x20 for b in range(256)
)
_UTF8_FFFD = b"\xef\xbf\xbd"


def _cut_before(data: bytes, end: int, readable: int | None = None) -> tuple[bytes, bytes] | None:
    found = max(
        data.rfind(b"\n", end - _STEP, end),
        data.rfind(b" ", end - _STEP, end),
        data.rfind(b"<", end - _STEP, end),
    )
    cut = data[: end if found < 0 else found]
    kept = cut.translate(None, _ASCII)
    if len(kept) < MAX_HIGH_BYTES // 2:
        if readable is None:
            after = _SAFE_CUT.search(data, end)
        else:
            after = _SAFE_CUT.search(data, end, readable)
            if after is None:
                return None
        cut = data[: after.start()] if after else data
        kept = cut.translate(None, _ASCII)
    return cut, kept


def _trim_prefix_before(data: bytes, size: int, readable: int) -> tuple[bytes, bytes] | None:
    limit = MAX_HIGH_BYTES * 5 // 4
    whole = readable >= size
    seen = 0
    for end in range(_STEP, size, _STEP):
        if end > readable:
            return None
        seen += len(data[end - _STEP : end].translate(None, _ASCII))
        if seen >= MAX_HIGH_BYTES:
            break
    else:
        return (data, data.translate(None, _ASCII)) if whole else None
    total = seen
    for start in range(end, size, _STEP):
        if total > limit:
            break
        if start + _STEP > readable and not whole:
            return None
        total += len(data[start : start + _STEP].translate(None, _ASCII))
    if total <= limit:
        return (data, data.translate(None, _ASCII)) if whole else None
    return _cut_before(data, end, None if whole else readable)


def _words_around_before(data: bytes) -> bytes:
    for chunk in (data[: 8 * 1024], data):
        words = chunk.translate(_MARKUP_TO_SPACE).split()
        picked = list(islice(compress(count(), map(not_, map(bytes.isascii, words))), 128))
        if len(picked) >= 32 or len(chunk) == len(data):
            break
    return b" ".join(chain.from_iterable([words[i - 1 if i else 0 : i + 2] for i in picked]))


def _nearly_utf8_before(data: bytes) -> float | None:
    classes = data.translate(_UTF8_CLASSES)
    leads, continuations = classes.count(b"l"), classes.count(b"c")
    if leads - 1 > continuations * 1.1:
        return None
    cut = _sample._without_cut_character(data)
    if len(cut) < len(data):
        data = cut
        classes = data.translate(_UTF8_CLASSES)
        leads, continuations = classes.count(b"l"), classes.count(b"c")
    if not leads <= continuations * 1.1 or continuations > 3.3 * leads + 2:
        return None
    stray = classes.count(b" c") + classes.startswith(b"c")
    if stray * 20 > leads:
        return None
    text = data.decode("utf-8", "replace")
    errors = text.count("\ufffd") - data.count(_UTF8_FFFD)
    non_ascii = len(text) - (len(data) - len(data.translate(None, _ASCII)))
    valid = non_ascii - errors
    if errors == 0 and valid:
        return 1.0 - 0.5**valid
    if valid < 4 or errors * 20 > valid:
        return None
    return valid / (valid + errors) * (1.0 - 0.5**valid)


# -- bodies of every shape ---------------------------------------------------------------


def _high(unit: bytes) -> bytes:
    return bytes(b | 0x80 for b in unit)


#: Pieces of pages: markup, every separator, ASCII words and long ASCII stretches
#: (scripts), non-ASCII words sparse (one byte in a Latin word) and dense (CJK runs
#: without spaces, Cyrillic words), and arbitrary bytes.
_PIECES = st.one_of(
    st.sampled_from(
        [
            b" ",
            b"\n",
            b"\t",
            b"\r\n",
            b"\x0b",
            b"\x0c",
            b"  ",
            b"<",
            b">",
            b"/",
            b"=",
            b'"',
            b"<p>",
            b"</a></li>",
            b'<a href="/x/y?z=1">',
            b"word ",
            b"nav-item",
            b"caf\xe9 ",
            b"na\xefve",
            b"\x93quoted\x94",
            b"\xc7\xe0 \xe5\xe4\xe8\xed ",
            b"\xc3\xa9",
            b"\xef\xbf\xbd",
            b"\xe4\xb8\xad\xe6\x96\x87",
            b"x" * 900,
            b"window.cfg={id:'80a',n:77,flag:true};" * 40,
        ]
    ),
    st.binary(max_size=8),
    st.binary(min_size=1, max_size=6).map(lambda b: _high(b) * 30),
    st.binary(min_size=1, max_size=3).map(lambda b: (_high(b) + b" ") * 20),
)
_bodies = st.tuples(st.lists(_PIECES, max_size=50), st.integers(1, 40)).map(
    lambda t: b"".join(t[0]) * (1 if len(b"".join(t[0])) * t[1] > 200_000 else t[1])
)


# -- the tests ---------------------------------------------------------------------------


@settings(max_examples=600, deadline=None)
@given(_bodies)
def test_trim_sample_is_the_step_loop(data: bytes) -> None:
    """trim_sample (blocks, then steps) cuts where the step loop cut, with the same bytes."""
    expected = _trim_prefix_before(data, len(data), len(data))
    assert trim_sample(data) == expected
    assert trim_prefix(data, len(data), len(data) + 5) == expected
    assert expected == trim(data, high_bytes(data))


@settings(max_examples=600, deadline=None)
@given(_bodies, st.integers(0, 200_000), st.integers(1, 70_000), st.binary(max_size=300))
def test_trim_prefix_of_a_larger_sample_is_the_step_loop(
    data: bytes, readable: int, more: int, after: bytes
) -> None:
    """With only the first *readable* bytes of a sample of *size* bytes at hand: the same
    answer (or ``None``) as the step loop, never reading past *readable*."""
    readable = min(readable, len(data))
    size = readable + more
    # (the bytes past *readable* are not the sample's: changing them changes nothing)
    body = data[:readable] + after + data[readable:]
    expected = _trim_prefix_before(body, size, readable)
    assert trim_prefix(body, size, readable) == expected
    assert trim_prefix(data, size, readable) == _trim_prefix_before(data, size, readable)


@pytest.mark.parametrize("unit", [b"\xe0 ", b"\xe0\xe1", b"ab\xe0 cd", b"\xe0\xe1" + b"x" * 300])
@pytest.mark.parametrize("high", [511, 512, 513, 640, 641, 642, 767, 2000])
@pytest.mark.parametrize("shift", [0, 1, 255, 256, 257])
def test_trim_at_the_limits_and_step_ends(unit: bytes, high: int, shift: int) -> None:
    """Counts at MAX_HIGH_BYTES and its 5/4, reached at and around a step's end."""
    data = b"x" * shift + b"<p>" + unit * (high // len(high_bytes(unit))) + b"</p>"
    assert trim_sample(data) == _trim_prefix_before(data, len(data), len(data))
    for readable in range(0, len(data), max(97, len(data) // 80)):
        for size in (readable + 1, len(data), len(data) + 300):
            if size > readable:
                expected = _trim_prefix_before(data, size, readable)
                assert trim_prefix(data, size, readable) == expected, (readable, size)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30).map(b"".join), st.binary(max_size=2000))
def test_trim_prefix_of_large_bodies(head: bytes, tail: bytes) -> None:
    """The sample of a body over 64 KiB, trimmed within its head as evidence() does."""
    body = head * (WHOLE // max(len(head), 1) + 2) + tail if head else tail * 40
    ranges = sample_ranges(body)
    whole = sample(body)
    found = trim_prefix(body, len(whole), ranges[0][1])
    assert found == _trim_prefix_before(body, len(whole), ranges[0][1])
    assert trim_sample(whole) == _trim_prefix_before(whole, len(whole), len(whole))


@settings(max_examples=800, deadline=None)
@given(_bodies)
def test_words_around_is_the_plain_split(data: bytes) -> None:
    """The words with a byte 0x80-0xFF and their neighbours, as the plain split gives them,
    in the head (8 KiB) and around it."""
    expected = _words_around_before(data)
    assert words_around(data) == expected
    for cut in (8 * 1024 - 1, 8 * 1024, 8 * 1024 + 1, 9000):
        assert words_around(data[:cut]) == _words_around_before(data[:cut])


@pytest.mark.parametrize("count", [30, 31, 32, 33, 127, 128, 129, 300])
@pytest.mark.parametrize("before", [0, 1, 5000, 8189])
@pytest.mark.parametrize("word", [b"\xe9", b"ab\xe9", b"\xe9ab", b"a\xe9b\xe8c"])
def test_words_around_at_the_counts(count: int, before: int, word: bytes) -> None:
    """At and around MAX_CONTEXTS // 4 words in the head and MAX_CONTEXTS in all: the head
    decides exactly as the plain split, and the picks stop where it stops."""
    assert MAX_CONTEXTS == 128
    for gap in (b" ", b" x ", b"</a><a>", b"\n\t "):
        data = b"y" * before + b" " + (word + gap) * count + b"tail words" * 900
        assert words_around(data) == _words_around_before(data), gap


def _plain_picks(text: bytes) -> bytes:
    """The plain split's picks of *text* (no head): each of the first MAX_CONTEXTS words with
    a byte 0x80-0xFF with the words before and after it."""
    words = text.split()
    picked = list(islice(compress(count(), map(not_, map(bytes.isascii, words))), MAX_CONTEXTS))
    return b" ".join(chain.from_iterable([words[i - 1 if i else 0 : i + 2] for i in picked]))


# (text whose separators are spaces, as words_around hands it to _picked_where)
_TEXT_PIECES = st.sampled_from(
    [b" ", b"  ", b"a", b"word", b"\xe9", b"\x80", b"\xff", b"\x00", b"\x1f", b"\xe9\xe8"]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_TEXT_PIECES, max_size=80).map(b"".join))
def test_picked_where_is_the_plain_split(text: bytes) -> None:
    """The words found where their bytes 0x80-0xFF lie are the plain split's, with the same
    neighbours: at the ends of the text, next to each other, after runs of spaces."""
    assert _sample._picked_where(text) == _plain_picks(text)


@pytest.mark.parametrize("gap", [b" ", b" a ", b"  a  b  "])
@pytest.mark.parametrize("word", [b"\xe9", b"a\xe9", b"\xe9a\xe8"])
@pytest.mark.parametrize("count_", [127, 128, 129, 400])
def test_picked_where_stops_at_the_limit(gap: bytes, word: bytes, count_: int) -> None:
    """No more than MAX_CONTEXTS words picked, the last one with its next word."""
    text = b"first " + (word + gap) * count_ + b"last"
    assert _sample._picked_where(text) == _plain_picks(text)


@pytest.mark.parametrize("length", [1, 2, 700, 20_000])
@pytest.mark.parametrize("before", [b"", b"a ", b"a  b "])
def test_picked_where_in_long_words(length: int, before: bytes) -> None:
    """Words holding many bytes 0x80-0xFF, long or not, are each picked once."""
    text = before + b"w" * length + b"\xe9w" * 300 + b" next " + b"\xe9" * length + b" end"
    assert _sample._picked_where(text) == _plain_picks(text)


# Sparse text longer than the head with too few words holding a byte 0x80-0xFF in it (all of
# the words around them are picked, from where they lie: _picked_where).
_FILLER = st.sampled_from([b"word ", b"<p class=x>", b"</a></li>\n", b"a" * 700, b"  ", b"x=1 "])
_RARE = st.sampled_from([b"caf\xe9 ", b"\x93q\x94", b"\xe9", b" \xe9\xe8 ", b"<b>na\xefve</b>"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.lists(_FILLER, min_size=1, max_size=40), _RARE), max_size=60),
    st.integers(0, 3),
)
def test_words_around_of_sparse_text_is_the_plain_split(
    parts: list[tuple[list[bytes], bytes]], repeat: int
) -> None:
    """Beyond the head, where the words are found from the bytes 0x80-0xFF: the plain split's."""
    data = b"".join(b"".join(filler) + rare for filler, rare in parts) * (1 + repeat)
    # (a word with such a byte in the head, and more than _SPLIT_UP_TO bytes after it)
    data = b"lead caf\xe9 x\xe9y " + data + b"tail " * 4000 + b"\xe9 end"
    assert words_around(data) == _words_around_before(data)
    assert words_around(data, first_high(data)) == _words_around_before(data)


@settings(max_examples=500, deadline=None)
@given(_bodies)
def test_first_high_is_the_search(data: bytes) -> None:
    found = re.search(rb"[\x80-\xff]", data)
    assert first_high(data) == (len(data) if found is None else found.start())


_utf8ish = st.lists(
    st.one_of(
        st.sampled_from(
            ["a", " ", "<p>", "é", "中文", "ж", "😀", "\ufffd"],
        ).map(lambda s: s.encode("utf-8")),
        st.binary(max_size=3),
        st.sampled_from([b"\xc3", b"\xe4\xb8", b"\xa9", b"\x80\x80", b"\xb0\xa1", b"\xc7\xd1"]),
    ),
    max_size=80,
).map(b"".join)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_utf8ish, _bodies))
def test_nearly_utf8_is_the_previous_test(data: bytes) -> None:
    """Counted in the bytes 0x80-0xFF, without the stray-continuation count: the same
    score or ``None``, given the bytes 0x80-0xFF or not."""
    expected = _nearly_utf8_before(data)
    assert nearly_utf8(data) == expected
    assert nearly_utf8(data, high_bytes(data)) == expected


@pytest.mark.parametrize("char", ["é", "中", "😀"])
@pytest.mark.parametrize(
    "error",
    [b"\xc3", b"\xe4", b"\xe4\xb8", b"\xf0", b"\xf0\x9f", b"\xf0\x9f\x98", b"\x80", b"\xff"],
)
def test_nearly_utf8_around_twenty_valid_per_error(char: str, error: bytes) -> None:
    """One to three errors among 1-90 valid sequences: the counts' rejection never
    rejects what the decode accepts (it is exact at 20 valid per error and one to three
    missing or one extra continuation byte each)."""
    for errors in (1, 2, 3):
        for valid in range(1, 91):
            data = b"<p>" + (char * valid).encode() + (error + b" x") * errors + b"</p>"
            assert nearly_utf8(data) == _nearly_utf8_before(data), (valid, errors)
            data = data[:-4] + error  # (and at the end: a character cut short)
            assert nearly_utf8(data) == _nearly_utf8_before(data), (valid, errors)


def _word_before_plain(data: bytes, first: int) -> int:
    """Where the word before the word at *first* starts, as ``words_around`` found it
    before: in all of the translated *data*."""
    text = data.translate(_sample._SEPARATORS_TO_SPACE)
    space = text.rfind(b" ", 0, first)
    return text.rfind(b" ", 0, len(text[:space].rstrip(b" "))) + 1 if space > 0 else 0


#: Words and runs of separators around the first byte 0x80-0xFF, short and longer than the
#: bytes read before it (_sample._BEFORE).
_BEFORE_PIECES = st.one_of(
    st.sampled_from([b" ", b"  ", b"<p>", b"</a> ", b"\n\t", b"=", b"word", b"x"]),
    st.integers(1, 1200).map(lambda n: b"y" * n),
    st.integers(1, 1200).map(lambda n: b" " * n),
    st.integers(1, 700).map(lambda n: b"<>" * n),
)


@settings(max_examples=800, deadline=None)
@given(st.lists(_BEFORE_PIECES, max_size=12).map(b"".join), st.sampled_from([b"\xe9x", b"\xc7"]))
def test_word_before_reads_the_bytes_before_as_all(before: bytes, word: bytes) -> None:
    """The start of the word before the first non-ASCII one, read in the bytes just before
    it, is the one found in all of the translated data (words and separator runs longer
    than those bytes, at the start or not)."""
    data = before + word + b" tail"
    first = len(before)
    assert _sample._word_before(data, first) == _word_before_plain(data, first)


@settings(max_examples=400, deadline=None)
@given(_bodies)
def test_words_around_with_the_first_high_byte_is_the_plain_split(data: bytes) -> None:
    """``words_around`` told where the first byte 0x80-0xFF lies gives the plain split's words."""
    expected = _words_around_before(data)
    assert words_around(data, first_high(data)) == expected
    assert _sample._word_before(data, first_high(data)) == _word_before_plain(
        data, first_high(data)
    )


@pytest.mark.parametrize("run", [1, 2, 3])
@pytest.mark.parametrize("shift", range(-4, 5))
@pytest.mark.parametrize("lead", [b"", b"w", b"x y", b"x  y "])
def test_word_before_at_the_edge_of_the_bytes_read(run: int, shift: int, lead: bytes) -> None:
    """A separator, a run of them or a word start right at the start of the bytes read
    before the first byte 0x80-0xFF (and one byte either side)."""
    for word in (b"y", b"<"):
        before = lead + b" " * run + word * (_sample._BEFORE - run + shift)
        data = before + b"\xe9 tail"
        assert _sample._word_before(data, len(before)) == _word_before_plain(data, len(before))
