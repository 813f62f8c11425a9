"""The single-byte ranking's fast paths against the plain computation.

``_rank._rank_single_byte`` reads its candidates from one structure built on first use,
keeps the members' bounds in a heap, weighs an encoding of one language once, takes the
best language of dense text from one sum per language, counts the context penalties of
non-Latin encodings in the bytes near those 0x80-0xFF only, sorts by C keys, and sets
aside the candidates that a tighter bound puts below the best so far, scoring them only
when they may come before the stand-in. The plain computation below is the ranking as
first written (every bound from ``_models``' tables, sorted lists, the languages tried in
their ASCII order, every penalty counted by ``bytes.count`` over the whole window, every
candidate down to the stand-in scored): the rankings must be equal down to the stand-in
(all that ``evidence`` reads; below it the fast one leaves out candidates it did not
score), and so must ``evidence`` on bodies of every size (above 64 KiB the sample is read
in pieces).
"""

from __future__ import annotations

import math
from operator import itemgetter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browser_decode._detect import _rank, evidence
from browser_decode._detect._models import (
    ASCII_FIELD,
    ASCII_FIELD_MASK,
    PRIORS,
    RANKS,
    SINGLE_BYTE,
    ascii_fields,
    ascii_packed,
    best_byte_table,
    byte_table,
    context_classes,
    script_groups,
    weigh,
    weigh_all,
)
from browser_decode._detect._rank import _ASCII_CASES, _Ranked
from browser_decode._detect._sample import trim_sample

from .test_fast_paths import _context_by_counts


def _plain_single_byte(
    high: bytes,
    ascii_total: int | None,
    around: bytes,
    scale: float,
    window_high: bytes | None,
    bonuses: dict[str, float],
    ranked: list[_Ranked],
) -> list[_Ranked]:
    """``_rank._rank_single_byte`` as first written."""
    del window_high  # (the whole window is counted)
    _, shifts = ascii_packed()
    any_ascii = ascii_total is not None
    total = ascii_total or 0

    def ascii_score(key: str | tuple[str, ...]) -> float:
        return (0 - ((total >> shifts[key]) & ASCII_FIELD_MASK)) / 2

    def ascii_bound(languages: tuple[str, ...]) -> float:
        return ascii_score(languages) if any_ascii else 0

    def prior(name: str) -> float:
        return PRIORS.get(name, 0.0) + bonuses.get(name, 0.0)

    def expand(members: tuple[str, ...]) -> list[tuple[float, int, str]]:
        return [
            (-(weigh(high, best_byte_table(name)) + ascii_bound(SINGLE_BYTE[name]) + prior(name)),
             RANKS[name], name)
            for name in members
        ]  # fmt: skip

    pending = [
        (weigh(high, table) + ascii_bound(languages) + max(map(prior, members)),
         RANKS[members[0]], members)
        for table, languages, members in script_groups()
    ]  # fmt: skip
    bounds: list[tuple[float, int, str]] = []
    top = max((r.score for r in ranked), default=-math.inf)
    penalties: dict[bytes, float] = {}
    baseline = around.translate(_ASCII_CASES).count(b"lu")
    while True:
        best_group = max(pending, default=None)
        if best_group is None and not bounds:
            break
        next_bound = -bounds[0][0] if bounds else -math.inf
        group_bound = best_group[0] if best_group is not None else -math.inf
        if group_bound > next_bound and best_group is not None:
            pending.remove(best_group)
            bounds = sorted([*bounds, *expand(best_group[2])])
            continue
        negative, rank, name = bounds.pop(0)
        upper = -negative
        if upper < top:
            ranked.append(_Ranked(upper, rank, name, exact=False))
            break
        ceiling = upper - prior(name) - ascii_bound(SINGLE_BYTE[name])
        languages = SINGLE_BYTE[name]
        order = sorted(
            zip(map(ascii_score, languages), range(len(languages)), strict=True),
            key=itemgetter(0),
            reverse=True,
        )
        best = -math.inf
        for language_ascii, index in order:
            if language_ascii + ceiling < best:
                break
            best = max(best, weigh(high, byte_table(name, languages[index])) + language_ascii)
        classes = context_classes(name)
        key = classes[0x61:0x62] + high.translate(classes)
        if key not in penalties:
            alnum = b"a" in around.translate(classes)
            penalties[key] = _context_by_counts(name, around, scale, baseline, alnum)
        score = best + prior(name) + penalties[key]
        ranked.append(_Ranked(score, rank, name))
        top = max(top, score)
    ranked.sort(key=lambda r: (-r.score, r.rank))
    return ranked


#: Text of one script and the codecs that may write it (and read it wrongly).
_TEXTS = [
    ("Вчера вечером мы гуляли по парку Ёё ЖЖ, «и» — ", ["cp1251", "koi8_r", "cp866", "iso8859_5"]),
    ("Учора ввечері ми гуляли парком, і вітер ґанок Її ", ["cp1251", "koi8_u", "mac_cyrillic"]),
    ("Gestern Abend Grüße aus München, Straße ÄÖÜ ß € “x” ", ["cp1252", "iso8859_15", "mac_roman"]),
    ("Łódź źdźbło żółć ĄĘŚ Příliš žluťoučký kůň úpěl ", ["cp1250", "iso8859_2", "iso8859_16"]),
    ("Pavasarį ąžuolai žaliuoja, šalia ūkio ėjo ", ["cp1257", "iso8859_13", "iso8859_4"]),
    ("Καλημέρα κόσμε, ΑΒΓΔ αβγδ ά ", ["cp1253", "iso8859_7"]),
    ("שלום עולם, מה שלומך היום ", ["cp1255", "iso8859_8"]),
    ("مرحبا بالعالم، كيف حالك اليوم ", ["cp1256", "iso8859_6"]),
    ("สวัสดีชาวโลก ภาษาไทย ", ["cp874"]),
    ("Türkçe çalışıyor, ĞÜŞİÖÇ ğüşıöç ", ["cp1254", "iso8859_9", "iso8859_3"]),
    ("Tiếng Việt có dấu, Đà Nẵng ", ["cp1258"]),
]
_ASCII = st.sampled_from([" ", "  ", "<p>", '<a href="/x/12">', "</a>\n", "word ", "Mixed", "0A",
                          "iPhone 15 ", "x", "-", "'", "\t"])  # fmt: skip

_bodies = st.sampled_from(_TEXTS).flatmap(
    lambda script: st.tuples(
        st.lists(st.one_of(st.text(alphabet=script[0], min_size=1, max_size=12), _ASCII),
                 max_size=120).map("".join),
        st.sampled_from(script[1]),
    )
).map(lambda t: t[0].encode(t[1], "ignore"))  # fmt: skip

_BONUSES = [
    {"windows-1252": _rank.DEFAULT_BONUS},
    {"windows-1251": _rank.HINT_BONUS},
    {"KOI8-R": _rank.HINT_BONUS, "ISO-8859-5": _rank.HINT_BONUS},
    {"ISO-8859-2": _rank.HINT_BONUS},
    {},
]


def _seen(ranked: list[_Ranked]) -> list[_Ranked]:
    """*ranked* down to its first candidate not scored exactly (a stand-in), which
    ``evidence`` never reads past (``_margin`` stops there)."""
    for index, candidate in enumerate(ranked):
        if not candidate.exact:
            return ranked[: index + 1]
    return ranked


def _assert_same_ranking(fast: list[_Ranked], plain: list[_Ranked]) -> None:
    """The fast ranking is the plain one down to the stand-in, and below it holds
    only candidates the plain one holds, as it scored them."""
    assert _seen(fast) == _seen(plain)
    assert set(fast) <= set(plain)


@settings(max_examples=400, deadline=None)
def _check_single_byte(data: bytes, high: bytes, bonuses: dict[str, float]) -> None:
    """The single-byte ranking of *data* (no multi-byte candidates) is the plain one's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rank, "MULTI_BYTE", {})
        fast = _rank.rank_candidates(data, high, dict(bonuses))
        patch.setattr(_rank, "_rank_single_byte", _plain_single_byte)
        plain = _rank.rank_candidates(data, high, dict(bonuses))
    _assert_same_ranking(fast, plain)


@given(_bodies, st.sampled_from(_BONUSES))
def test_single_byte_ranking_is_the_plain_one(body: bytes, bonuses: dict[str, float]) -> None:
    """The single-byte ranking (no multi-byte candidates) is the plain computation's."""
    data, high = trim_sample(body)
    if not high:
        return
    _check_single_byte(data, high, bonuses)


@settings(max_examples=150, deadline=None)
@given(
    _bodies,
    st.sampled_from([1, 40, 400, 1500]),
    st.sampled_from([None, "http://example.ru/", "http://example.pl/", "gr"]),
)
def test_evidence_is_that_of_the_plain_ranking(body: bytes, copies: int, url: str | None) -> None:
    """``evidence`` with the fast single-byte ranking is that of the plain one, on bodies up
    to a few hundred KiB (the sample of a body above 64 KiB is read in pieces)."""
    body = b"<html><body>\n" + body * copies
    fast = evidence(body, url=url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rank, "_rank_single_byte", _plain_single_byte)
        plain = evidence(body, url=url)
    assert fast == plain


@pytest.mark.parametrize("name", ["windows-1251", "KOI8-R", "windows-1252", "ISO-8859-7"])
def test_benchmark_like_pages_rank_as_the_plain_ranking(name: str) -> None:
    """Dense text after a long ASCII head (the head is left out of the non-Latin windows),
    as the benchmark's pages are."""
    text = {"windows-1251": "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁ", "KOI8-R": "абвгдеёжзАБВЁ",
            "windows-1252": "àéèçôüßñÀÉ", "ISO-8859-7": "αβγδεζηθΑΒΓ"}[name]  # fmt: skip
    codec = {"windows-1251": "cp1251", "KOI8-R": "koi8_r", "windows-1252": "cp1252",
             "ISO-8859-7": "iso8859_7"}[name]  # fmt: skip
    words = " ".join(text[i % len(text) : i % len(text) + 5] for i in range(0, 3000, 7))
    body = ("<!DOCTYPE html><head><title>Page 12 A</title></head>\n" * 20 + "<p>" + words).encode(
        codec
    )
    data, high = trim_sample(body)
    for bonuses in _BONUSES:
        with pytest.MonkeyPatch.context() as patch:
            fast = _rank.rank_candidates(data, high, dict(bonuses))
            patch.setattr(_rank, "_rank_single_byte", _plain_single_byte)
            plain = _rank.rank_candidates(data, high, dict(bonuses))
        _assert_same_ranking(fast, plain)


_mixed = st.lists(
    st.one_of(
        st.sampled_from(
            ["àéè ", "Grüße ", "Καλημέρα ", "αβγ", "ΑΒΓ ", "шалом ", "aBcD ", "0A ", "<p>"]
        ),
        st.sampled_from([" ", "x", "Zq"]),
    ),
    min_size=1,
    max_size=60,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    _mixed, st.sampled_from(["cp1252", "cp1253", "iso8859_7", "cp1251"]), st.sampled_from(_BONUSES)
)
def test_scripts_mixed_rank_as_the_plain_ranking(
    text: str, codec: str, bonuses: dict[str, float]
) -> None:
    """Latin and other scripts in one text: Latin encodings and others evaluated in turn
    (their windows and case-switch baselines differ)."""
    data, high = trim_sample(text.encode(codec, "replace"))
    if not high:
        return
    _check_single_byte(data, high, bonuses)


#: Latin text with the letters of many languages, as on pages that quote names and loans.
_LATIN_WORDS = ["Señor", "Muñoz", "naïve", "café", "Ångström", "Grüße", "façade", "Noël", "piñata",
                "crème", "brûlée", "Zürich", "“quoted”", "it’s", "—", "€5", "Łódź", "Ærø", "Œuvre",
                "São", "Paulo", "the", "and", "ordered", "a", "ISBN", "iPhone"]  # fmt: skip
_OTHER_WORDS = ["Москва", "Καλημέρα", "שלום", "Ёж", "ΑΒΓ"]

_latin_pages = st.tuples(
    st.lists(
        st.one_of(
            st.sampled_from(_LATIN_WORDS),
            st.sampled_from(_LATIN_WORDS),
            st.sampled_from(_OTHER_WORDS),
            st.sampled_from(['<a href="/p/12">', "</a>", "<li>", "\n", "8ce72a", "x", "  "]),
        ),
        min_size=1,
        max_size=400,
    ).map(" ".join),
    st.sampled_from(["cp1252", "cp1250", "iso8859_15", "mac_roman", "cp1257", "cp1251"]),
    st.sampled_from([0, 200, 3000]),
).map(lambda t: b"<nav>menu item link</nav>\n" * (t[2] // 25) + t[0].encode(t[1], "ignore"))


@settings(max_examples=300, deadline=None)
@given(_latin_pages, st.sampled_from(_BONUSES))
def test_latin_pages_rank_as_the_plain_ranking(body: bytes, bonuses: dict[str, float]) -> None:
    """Latin letters between ASCII ones, some words of other scripts, after markup: the
    non-Latin candidates are set aside by their letters against ASCII ones, the Latin
    ones by their best weights; the ranking down to the stand-in is the plain one's."""
    data, high = trim_sample(body)
    if not high:
        return
    _check_single_byte(data, high, bonuses)


@settings(max_examples=100, deadline=None)
@given(_latin_pages, st.sampled_from([1, 30, 300]), st.sampled_from([None, "http://example.ru/"]))
def test_latin_pages_evidence_is_that_of_the_plain_ranking(
    body: bytes, copies: int, url: str | None
) -> None:
    """``evidence`` of Latin pages (multi-byte candidates too), up to a few hundred KiB."""
    body *= copies
    fast = evidence(body, url=url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rank, "_rank_single_byte", _plain_single_byte)
        plain = evidence(body, url=url)
    assert fast == plain


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=4),
            st.sampled_from(
                [b" ", b"a", b"Z9", b"\xe0", b"\xc0b", b"x\xe9y", b"\xd7", b"\x80\x81"]
            ),
        ),
        max_size=80,
    ).map(b"".join)
)
def test_bytes_beside_ascii_count_the_letters_against_ascii_ones(window: bytes) -> None:
    """``_beside_ascii``'s bytes that are letters in a non-Latin encoding are its "al",
    "la", "au" and "ua" counted by ``bytes.count`` (as ``_context_of`` counts them), and
    ``_ALNUM`` is the class of its ASCII letters and digits."""
    beside = _rank._beside_ascii(*_rank._window(window, None))
    assert not beside.translate(None, bytes(range(0x80, 0x100)))  # (bytes 0x80-0xFF only)
    members = [
        member for group in _rank._GROUPS or _rank._script_groups() for member in group.members
    ]
    for member in members:
        classes = context_classes(member.name)
        if member.key != b"a":
            assert b"a" not in classes  # (a Latin encoding: its own ASCII letters)
            continue
        assert bytes(c == ord("a") for c in classes) == _rank._ALNUM
        in_window = window.translate(classes)
        want = sum(in_window.count(pair) for pair in (b"al", b"la", b"au", b"ua"))
        assert beside.translate(member.letters).count(1) == want, member.name


_cjk_pages = st.tuples(
    st.lists(
        st.one_of(
            st.text(
                alphabet="的一是不了人我在有他这中大来上国个到说们为日本語の文章です가나다라마바사",
                max_size=20,
            ),
            st.sampled_from(_LATIN_WORDS),
            st.sampled_from(['<a href="/p/12">', "</a>", "<li>", "\n", "x", "Москва"]),
        ),
        min_size=1,
        max_size=300,
    ).map(" ".join),
    st.sampled_from(["gbk", "big5hkscs", "cp932", "euc_jp", "cp949", "cp1252"]),
).map(lambda t: t[0].encode(t[1], "ignore"))


@settings(max_examples=300, deadline=None)
@given(_cjk_pages, st.sampled_from(_BONUSES))
def test_cjk_pages_rank_as_the_plain_ranking(body: bytes, bonuses: dict[str, float]) -> None:
    """Text that multi-byte candidates read: the single-byte ones after them (the Latin
    group bounded by its smaller groups first, the groups of best bound expanded first)
    rank as the plain ranking ranks them."""
    data, high = trim_sample(body)
    if not high:
        return
    fast = _rank.rank_candidates(data, high, dict(bonuses))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_rank, "_rank_single_byte", _plain_single_byte)
        plain = _rank.rank_candidates(data, high, dict(bonuses))
    _assert_same_ranking(fast, plain)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 400), min_size=26, max_size=26))
def test_ascii_fields_are_the_shifted_fields(counts: list[int]) -> None:
    """``ascii_fields`` (one unpack) reads each field of a packed sum as a shift and a mask
    do, for letter counts of any sample."""
    packed, shifts = ascii_packed()
    total = sum(count * value for count, value in zip(counts, packed, strict=True))
    fields = ascii_fields(total)
    assert len(fields) == len(shifts)
    for shift in shifts.values():
        assert fields[shift // ASCII_FIELD] == (total >> shift) & ASCII_FIELD_MASK


_TABLE_SETS = [
    (_rank._GROUPS or _rank._script_groups()) and _rank._GROUP_TABLES,
    *(group.tables for group in _rank._GROUPS),
    *(group.part_tables for group in _rank._GROUPS if group.parts),
    *(member.tables for group in _rank._GROUPS for member in group.members),
]


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=1100).map(lambda b: bytes(x | 0x80 for x in b)),
        st.lists(st.sampled_from(b"\x80\x92\x93\x94\xe9\xe8\xe0\xfc\xff"), max_size=1100).map(
            bytes
        ),
    ),
    st.integers(0, len(_TABLE_SETS) - 1),
)
def test_weighing_by_counts_is_weigh_all(high: bytes, which: int) -> None:
    """The weights from the counts of the distinct bytes are ``weigh_all``'s, to the bit
    (sign of zero included), for every set of tables the ranking weighs, with few and
    many distinct bytes and up to the longest *high* weighed by counts."""
    tables = _TABLE_SETS[which]
    want = weigh_all(high, tables)
    counted = _rank._counted(high)
    got = want if counted is None else _rank._weigh_counted(counted, tables)
    assert [w.hex() for w in got] == [w.hex() for w in want]
    present = bytes(sorted(set(high)))
    every = (present, [high.count(value) for value in present])
    forced = _rank._weigh_counted(every, tables)
    assert [w.hex() for w in forced] == [w.hex() for w in want]


@settings(max_examples=300, deadline=None)
@given(_latin_pages, st.sampled_from([0, 8, 32, 256]))
def test_latin_pages_rank_alike_whatever_is_weighed_by_counts(body: bytes, few: int) -> None:
    """The ranking is the same (down to the stand-in, and every score) whether the weights
    come from counts (few distinct bytes or many) or from one translation per table."""
    data, high = trim_sample(body)
    if not high:
        return
    for bonuses in _BONUSES[:3]:
        rankings = []
        for limit in (-1, few):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(_rank, "_FEW_DISTINCT", limit)
                rankings.append(_rank.rank_candidates(data, high, dict(bonuses)))
        assert rankings[0] == rankings[1]
