"""The multi-byte candidates' fast paths against the plain computation.

``_models.CharScorer.score`` sums the weights of a text's characters in C (a translate
to codes and ``adler32``), ``_rank._non_ascii`` drops the ASCII characters (which weigh
nothing) before scoring, and ``_rank._decode_with_few_errors`` decodes in two pieces with
"replace" and stops after the first when it already holds too many errors. The plain
computation below is the one first written: each character looked up and the weights
summed by Python in order, every character kept, one decode with an error handler that
counts. Scores must be equal to the bit, rankings equal on every exact score, and
``evidence`` equal on bodies of every size (above 64 KiB the sample is read in pieces).
"""

from __future__ import annotations

import codecs
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode._detect import _models, _rank, evidence
from browser_decode._detect._models import MULTI_BYTE, floor_weight, letter_weights
from browser_decode._detect._sample import trim_sample

_LANGUAGES = ("ja", "ko", "zh-Hans", "zh-Hant")
_CODECS = [codec for codec, _ in MULTI_BYTE.values()]


def _plain_score(text: str, language: str) -> float:
    """The weights of the characters of *text* looked up one by one and summed in order
    (ASCII weighing nothing)."""
    letters = letter_weights(language)
    return sum(
        0.0 if char.isascii() else letters.get(char, floor_weight(char, language)) for char in text
    )


#: Characters of every kind a multi-byte decoder gives: each language's letters, CJK
#: punctuation, fullwidth forms, symbols, U+FFFD, private use, beyond the BMP, ASCII.
_ALPHABET = (
    "가나다라한국어서울の日本語カタ中文字的這國個"
    "、。「」・ー！？（）ｱ①※★\ufffd\ue000\U00020000\U0001f600 <>ab\n0"
)
_texts = st.one_of(
    st.text(alphabet=st.sampled_from(_ALPHABET), max_size=400),
    st.text(max_size=200),
    # long: the sum is taken over several chunks
    st.text(alphabet=st.sampled_from("한국어日本語中文\ufffd ab"), min_size=500, max_size=3000).map(
        lambda t: t * 3
    ),
)


@settings(max_examples=400, deadline=None)
@given(_texts, st.sampled_from(_LANGUAGES))
def test_char_scorer_is_the_plain_sum(text: str, language: str) -> None:
    """``CharScorer.score`` is the plain sum to the bit, whether its characters are in its
    table already or seen for the first time (floors), and again once they are."""
    scorer = _models.char_scorer(language)
    want = _plain_score(text, language)
    first, again = scorer.score(text), scorer.score(text)
    assert math.copysign(1.0, first) == math.copysign(1.0, want)  # (never -0.0)
    assert first == want and again == want


def test_char_scorer_sums_beyond_one_adler32_chunk() -> None:
    """Texts whose codes overflow one ``adler32`` sum (all at the lowest weight)."""
    for size in (_models._CODES_CHUNK - 1, _models._CODES_CHUNK, _models._CODES_CHUNK + 1, 9000):
        text = "\ue000" * size  # private use: IMPOSSIBLE, the heaviest code
        for language in _LANGUAGES:
            assert _models.char_scorer(language).score(text) == _plain_score(text, language)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_non_ascii_is_the_text_without_ascii(text: str) -> None:
    assert _rank._non_ascii(text) == "".join(char for char in text if not char.isascii())


def _plain_decode(data: bytes, codec: str, limit: int) -> str | None:
    """One decode, errors replaced and counted by a Python handler that gives up after
    *limit* (the first version); also ``None`` when more U+FFFD than *limit*."""
    spent = [0]

    def spend(exc: UnicodeError) -> tuple[str, int]:
        assert isinstance(exc, UnicodeDecodeError)
        spent[0] += 1
        if spent[0] > limit:
            raise OverflowError
        return "\ufffd", exc.end

    codecs.register_error("test_multi_byte_fast_paths.spend", spend)
    try:
        text = data.decode(codec, "test_multi_byte_fast_paths.spend")
    except OverflowError:
        return None
    return text if text.count("\ufffd") <= limit else None


#: Text of one script (and ASCII) and the codecs that write it: its own, the other
#: multi-byte ones that read it with some errors, single-byte ones that look multi-byte.
_SCRIPT_TEXTS = [
    ("가나다라마바사한국어서울의이는을를에서 <p>ab\n", ["cp949", "euc_kr", "euc_jp", "gbk"]),
    ("日本語の文章です東京カタあいうえおかきくけこ価格ｱｲｳ <p>ab\n", ["cp932", "euc_jp", "gbk"]),
    (
        "的一是不了人我在有他这中大来上国个到说们为 <p>ab\n",
        ["gbk", "gb18030", "big5hkscs", "cp932"],
    ),
    ("的一是不了人我在有他這中大來上國個到說們為 <p>ab\n", ["big5hkscs", "big5", "gbk"]),
    ("абвгдеёжзийклмнопАБВГДЕЁ <p>ab Cd\n", ["cp1251", "koi8_r", "mac_cyrillic", "cp949"]),
    ("àéèçôüßñÀÉ ąęłśżĄŁ αβγδ ÿ <p>ab Cd\n", ["cp1252", "cp1250", "iso8859_7"]),
    ("αβγδεζηθΑΒΓ שלום مرحبا ไทย <p>ab\n", ["iso8859_7", "cp1255", "cp1256", "cp874"]),
]
_encoded = (
    st.sampled_from(_SCRIPT_TEXTS)
    .flatmap(
        lambda script: st.tuples(
            st.text(alphabet=st.sampled_from(script[0]), min_size=1, max_size=1200),
            st.sampled_from(script[1]),
        )
    )
    .map(lambda t: t[0].encode(t[1], "ignore"))
)
_bytes = st.one_of(
    _encoded,
    # bytes 0x80-0xFF alone and in pairs, in every share (where pairs decide whether
    # multi-byte candidates are tried at all)
    st.lists(
        st.sampled_from([b"a\xe9 ", b"\xb0\xa1 ", b"text ", b"\xc7\xd1\xb1\xb9"]), max_size=300
    ).map(b"".join),
    st.binary(max_size=600),
    st.lists(st.one_of(_encoded, st.binary(max_size=8)), max_size=6).map(b"".join),
)


@settings(max_examples=500, deadline=None)
@given(_bytes, st.integers(0, 40), st.integers(0, 30), st.integers(0, 1000))
def test_decode_with_few_errors_is_the_plain_decode(
    data: bytes, limit: int, start: int, cut: int
) -> None:
    """Two compacted pieces decoded by an incremental decoder, the first alone ruling out,
    give the one decode's non-ASCII characters and errors and its verdict, for every
    multi-byte candidate's codec and every cut at a byte 0x80-0xFF (or at the end)."""
    start = min(start, len(data))
    cut = next((i for i in range(start + cut, len(data)) if data[i] >= 0x80), len(data))
    for codec in _CODECS:
        pieces: list[bytes] = []
        got = _rank._decode_with_few_errors(data, start, cut, codec, limit, pieces)
        want = _plain_decode(data[start:], codec, limit)
        assert (got is None) == (want is None), codec
        if got is not None and want is not None:
            assert _rank._non_ascii(got) == _rank._non_ascii(want), codec
            assert got.count("\ufffd") == want.count("\ufffd"), codec
        if len(pieces) == 2:  # (both pieces: all of it compacted)
            assert b"".join(pieces) == _rank._compact(data[start:]), codec


@settings(max_examples=300, deadline=None)
@given(_bytes)
def test_probe_decode_is_bytes_decode(data: bytes) -> None:
    """The probes' decode function of each multi-byte candidate's codec (looked up once)
    gives ``bytes.decode``'s text, errors replaced."""
    for codec in _CODECS:
        text, consumed = _rank._codec_decode(codec)(data, "replace")
        assert text == data.decode(codec, "replace"), codec
        assert consumed == len(data)


def _plain_rank_multi_byte(
    survivors: list[tuple[int, str, str, str]],
    ascii_score: object,
    in_word: float,
    bonuses: dict[str, float],
    bound_all: float,
) -> list[_rank._Ranked]:
    """Every survivor's whole text scored by the plain sum (all exact)."""
    assert callable(ascii_score)
    return [
        _rank._Ranked(
            ((_plain_score(text, language) + ascii_score(language)) + in_word)
            + _rank._prior(name, bonuses),
            rank,
            name,
        )
        for rank, name, language, text in survivors
    ]


def _plain_patches(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_rank, "_PAIRS_HEAD", 0)  # (the pairs of all of the sample counted at once)
    patch.setattr(_rank, "_non_ascii", lambda text: text)
    patch.setattr(
        _rank,
        "_decode_with_few_errors",
        lambda data, start, cut, codec, limit, pieces: _plain_decode(data[start:], codec, limit),
    )
    patch.setattr(_rank, "_rank_multi_byte", _plain_rank_multi_byte)


def _check(data: bytes, high: bytes, bonuses: dict[str, float]) -> None:
    """The ranking of *data* is the plain one on every exact score; a bound left for a
    multi-byte candidate is at least its exact score and below the runner-up's."""
    fast = _rank.rank_candidates(data, high, dict(bonuses))
    with pytest.MonkeyPatch.context() as patch:
        _plain_patches(patch)
        plain = _rank.rank_candidates(data, high, dict(bonuses))
    exact = [r for r in fast if r.exact or r.name not in MULTI_BYTE]
    assert exact == [r for r in plain if r in exact or r.name not in MULTI_BYTE]
    for left in fast:
        if left.name in MULTI_BYTE and not left.exact:
            (full,) = [r for r in plain if r.name == left.name]
            assert full.score <= left.score < fast[1].score


_BONUSES = [{"windows-1252": _rank.DEFAULT_BONUS}, {"EUC-KR": 3.0}, {"Shift_JIS": 3.0, "GBK": 3.0}]


@pytest.mark.parametrize("steps", [False, True])
@settings(max_examples=300, deadline=None)
@given(_bytes, st.sampled_from(_BONUSES))
def test_multi_byte_ranking_is_the_plain_one(
    steps: bool, body: bytes, bonuses: dict[str, float]
) -> None:
    """The ranking is the plain one's; with *steps*, every text is scored step by step
    (texts of samples trimmed to a few hundred bytes 0x80-0xFF are short enough to be
    scored at once)."""
    data, high = trim_sample(body)
    if not high:
        return
    with pytest.MonkeyPatch.context() as patch:
        if steps:
            patch.setattr(_rank, "_FEW_CHARS", 0)
            patch.setattr(_rank, "_FIRST_CHARS", 8)
        _check(data, high, bonuses)


@settings(max_examples=150, deadline=None)
@given(
    _encoded,
    st.sampled_from([1, 30, 300, 1500]),
    st.sampled_from([None, "http://example.kr/", "http://example.ru/", "jp"]),
)
def test_evidence_is_that_of_the_plain_multi_byte_ranking(
    body: bytes, copies: int, url: str | None
) -> None:
    """``evidence`` is that of the plain computation on bodies up to a few hundred KiB,
    ASCII markup around them (stretches dropped before decoding, the sample in pieces)."""
    body = (
        b"<html><body>\n<script>var x = 1;</script>\n" + (body + b"\n<a href='/x'>y</a> ") * copies
    )
    fast = evidence(body, url=url)
    with pytest.MonkeyPatch.context() as patch:
        _plain_patches(patch)
        plain = evidence(body, url=url)
    assert fast == plain


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([b" ", b"h", b"hh", b"hhh", b" " * 300, b"h" * 40]), max_size=200).map(
        b"".join
    ),
    st.integers(0, 800),
)
def test_paired_is_the_count_of_pairs(pairs: bytes, count: int) -> None:
    """``_paired`` counts the pairs of a prefix first: the answer of counting them all."""
    first = pairs.find(b"h")
    assert _rank._paired(pairs, first, count) == (pairs.count(b"hh") * 8 >= count)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [b" ", b"a", b"\xe9", b"\xb0\xa1", b"x" * 300, b"x" * 700, b"\xc7\xd1\xb1", b"\n"]
        ),
        max_size=120,
    ).map(b"".join),
    st.integers(0, 5000),
    st.integers(0, 3000),
)
def test_high_pairs_are_the_whole_translation(data: bytes, at: int, span: int) -> None:
    """The pairs from the first byte 0x80-0xFF to the last answer every ``find`` and
    ``count`` of ``rank_candidates`` as the translation of all of the sample does."""
    high = data.translate(None, bytes(range(0x80)))
    whole = data.translate(_rank._HIGH_PAIRS)
    first = whole.find(b"h")
    pairs, base = _rank._high_pairs(data, high, data.find(high[:1]) if high else -1)
    assert pairs.count(b"hh") == whole.count(b"hh")
    if not high:
        assert (pairs, base) == (whole, 0)
        return
    # (all of it, where the piece would leave out few bytes; else the piece from the first)
    assert (pairs, base) == (whole, 0) or (base == first and pairs == whole[first:].rstrip())
    assert _rank._paired(pairs, first - base, len(high)) == _rank._paired(whole, first, len(high))
    start = first + at % (len(data) - first + 2)
    found = pairs.find(b"h", start - base)
    assert (found + base if found >= 0 else -1) == whole.find(b"h", start)
    assert pairs.count(b"h", start - base, start - base + span) == whole.count(
        b"h", start, start + span
    )
    assert pairs.count(b"hh", start - base, start - base + span) == whole.count(
        b"hh", start, start + span
    )


def _without_probe_skip(data: bytes, high: bytes, bonuses: dict[str, float]) -> None:
    """The ranking of *data* is the same with the redundant probes skipped and with every
    probe decoded."""
    fast = _rank.rank_candidates(data, high, dict(bonuses))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rank, "_SKIP_PROBE", False)
        plain = _rank.rank_candidates(data, high, dict(bonuses))
    assert fast == plain


@settings(max_examples=300, deadline=None)
@given(_bytes, st.sampled_from(_BONUSES))
def test_skipped_probes_rule_out_nothing(body: bytes, bonuses: dict[str, float]) -> None:
    """Where more than the probe's allowed errors are more than the whole's limit, a
    candidate the probe would rule out is ruled out by its decode: the rankings are alike."""
    data, high = trim_sample(body)
    if high:
        _without_probe_skip(data, high, bonuses)


@pytest.mark.parametrize("errors", [0, 5, 9, 10, 11, 12, 20, 30])
@pytest.mark.parametrize("size", [600, 2000, 4000])
def test_probes_are_kept_where_the_limit_allows_their_errors(errors: int, size: int) -> None:
    """Many bytes 0x80-0xFF (not trimmed: the limit of errors is then above the probe's),
    errors in the first bytes and none after: the probe is not skipped where a candidate
    it rules out would pass its decode."""
    text = ("的一是不了人我在有他这中大来上国个到说们为" * size)[:size].encode("gbk")
    for start in (b"", "가나다".encode("euc_kr") * 3):
        data = start + b"\x80 " * errors + text
        high = data.translate(None, bytes(range(0x80)))
        for bonuses in _BONUSES:
            _without_probe_skip(data, high, bonuses)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([b"\x80 ", b"\xff", b"\xa1", b"ab ", b"\n"]),
            _encoded,
        ),
        min_size=1,
        max_size=8,
    ).map(b"".join),
    st.integers(0, 40),
    st.sampled_from(_CODECS),
)
def test_a_redundant_probe_rules_out_what_the_first_piece_rules_out(
    data: bytes, limit: int, codec: str
) -> None:
    """Where ``_probe_redundant`` says so, a candidate with more errors in the probe than it
    allows is ruled out by ``_decode_with_few_errors`` (its first piece), whatever the
    limit, the cut and the text."""
    first = data.find(bytes(b for b in data if b >= 0x80)[:1] or b"\x80")
    if first < 0:
        return
    probe = data[first : first + _rank._PROBE]
    allowed = 2 + len(probe) // 64
    for cut in (len(data), first + (len(data) - first) // 4, first + 512, first + 700):
        cut = min(cut, len(data))
        if not _rank._probe_redundant(limit, allowed, cut - first, len(probe)):
            continue
        if probe.decode(codec, "replace").count("\ufffd") > allowed:
            assert _rank._decode_with_few_errors(data, first, cut, codec, limit, []) is None
            # (by the first piece alone: the second is never decoded)
            head = codecs.getincrementaldecoder(codec)("replace").decode(
                _rank._compact(data[first:cut])
            )
            assert head.count("\ufffd") > limit
