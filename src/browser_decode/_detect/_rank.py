"""Ranking the candidate encodings of a sample: the statistics of :func:`detect`.

Single-byte candidates are scored from the sample's bytes 0x80-0xFF translated
to their weights and summed (:func:`._models.weigh`) and from letter classes
counted with ``bytes.translate`` (all in C);
multi-byte candidates from their decoded characters. Candidates are scored
exactly only while an upper bound of their score can still beat the best so
far (branch and bound), which keeps the cost to a few dozen vector sums.
"""

from __future__ import annotations

import codecs
import math
import re
from collections.abc import Callable, Sequence
from functools import cache
from functools import partial as _with
from heapq import heapify, heappop
from operator import itemgetter, mul
from struct import Struct

from ._models import (
    ASCII_FIELD,
    ASCII_FIELD_MASK,
    CASE_SWITCH,
    LATIN_LANGUAGES,
    MAX_HALF_NATS,
    MIXED_SCRIPT,
    MULTI_BYTE,
    PRIORS,
    RANKS,
    SCRIPT_SWITCH,
    SINGLE_BYTE,
    STRAY_MARK,
    SYMBOL_IN_WORD,
    CharScorer,
    all_best_byte_table,
    ascii_fields,
    ascii_packed,
    best_byte_table,
    byte_table,
    byte_tables,
    char_scorer,
    context_classes,
    max_single_byte_prior,
    part_languages,
    script_groups,
    sub_groups,
    weigh,
    weigh_all,
)
from ._sample import contexts, words_around

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NamedTuple
else:
    from .._frozen import NamedTuple

#: Log-prior bonus (nats) of an encoding the caller's hints point at: enough to
#: win a tie or a near-tie, far less than the evidence of a few characters.
HINT_BONUS: Final = 3.0
#: Log-prior bonus of windows-1252 when there is no hint: what a browser shows
#: when the bytes do not clearly say otherwise.
DEFAULT_BONUS: Final = 2.0
#: A character of a multi-byte reading squeezed between two ASCII letters
#: ("Gr晧e"): the mark of two Latin letters read as one CJK character.
MULTI_BYTE_IN_WORD: Final = -8.0
#: (In the bytes: an ASCII letter, a lead byte, a trail byte, an ASCII letter.)
_IN_WORD: Final = re.compile(rb"[A-Za-z][\x81-\xfe][\x40-\xfe](?=[A-Za-z])")
#: ``bytes.translate`` table: ASCII letters -> ``L``, bytes 0x81-0xFE -> ``H``.
_LETTER_LEAD: Final = bytes(
    ord("L") if chr(b).isascii() and chr(b).isalpha() else ord("H") if 0x81 <= b <= 0xFE else 0x20
    for b in range(256)
)
#: A stretch of ASCII from a byte 0x00-0x2F to the last such byte before the next byte
#: 0x80-0xFF. No byte 0x00-0x2F continues a character in any ASCII-compatible WHATWG
#: encoding: a multi-byte decoder is back in its initial state after it (an error that
#: began before it takes four bytes at most: the first four are kept), so dropping the
#: rest of the stretch up to its last such byte changes neither the non-ASCII
#: characters decoded nor the errors (tested against decoding every byte).
_ASCII_STRETCH: Final = re.compile(rb"([\x00-\x2f][\x00-\x7f]{3})[\x00-\x7f]*([\x00-\x2f])")


#: Bytes from the first byte 0x80-0xFF whose pairs are counted first (:func:`_paired`).
_PAIRS_HEAD: Final = 2048


def _paired(pairs: bytes, first: int, count: int) -> bool:
    """``pairs.count(b"hh") * 8 >= count``: whether pairs of bytes 0x80-0xFF (``h`` in
    *pairs*, the first at *first*) hold an eighth of the *count* of such bytes.

    ``bytes.count`` counts from the left without overlaps: a prefix holds at most the
    pairs of the whole. Dense text (CJK, Cyrillic, ...) holds enough in its first
    :data:`_PAIRS_HEAD` bytes, and all of it is counted only when they do not.
    """
    if pairs.count(b"hh", first, first + _PAIRS_HEAD) * 8 >= count:
        return True
    return pairs.count(b"hh") * 8 >= count


def _probe_redundant(limit: int, allowed: int, first_piece: int, probe: int) -> bool:
    """Whether a probe of *probe* bytes that allows *allowed* errors rules out only
    candidates that :func:`_decode_with_few_errors` (at most *limit* errors; its first
    piece *first_piece* bytes long before compaction) rules out by its first piece.

    The whole holds at least the probe's errors but one (a prefix has at most one error
    more than the whole, for the character it may cut), and so does a first piece that
    holds the probe's bytes (compaction keeps every error): more than *allowed* errors in
    the probe are more than *limit* there when *limit* is below *allowed*. Those the probe
    leaves in are decoded there again (tested on samples of every kind, and on errors
    placed against the limits).
    """
    return limit < allowed and first_piece >= probe


def _high_pairs(data: bytes, high: bytes, first: int) -> tuple[bytes, int]:
    """``data.translate(_HIGH_PAIRS)`` (bytes 0x80-0xFF -> ``h``, others -> space) where it
    holds an ``h``, and where that lies in it: the pairs of ``data[base:]`` up to its last
    byte 0x80-0xFF (*high*: the bytes 0x80-0xFF of *data*, the first at *first*), and
    *base*.

    Every ``h`` of the whole translation lies in that piece (the last byte 0x80-0xFF is
    the last occurrence of its value: one memrchr), and it is the piece's translation, so
    a ``find`` or ``count`` of ``h`` at *i* and beyond in the whole is one at ``i - base``
    in the piece (plus *base*), and a ``count`` of ``hh`` in it is one in the piece (the
    spaces around it neither make nor break a pair): no pass over the ASCII head and tail
    of the sample (tested against the whole translation). Without *high*, or where the
    piece would leave out fewer than :data:`_PAIRS_COPY` bytes: the whole translation
    (*base* 0), without the copy of the piece.
    """
    end = data.rfind(high[-1:]) + 1 if high else 0
    if not high or first + len(data) - end < _PAIRS_COPY:
        return data.translate(_HIGH_PAIRS), 0  # (the piece is nearly all: no copy of it)
    return data[first:end].translate(_HIGH_PAIRS), first


#: :func:`_high_pairs` translates all of the sample when the piece would leave out fewer
#: bytes than this.
_PAIRS_COPY: Final = 512


def _compact(data: bytes) -> bytes:
    """*data* without the inside of its long ASCII stretches (``_ASCII_STRETCH.sub(rb"\\1\\2",
    data)``: its pieces and groups joined, no Python call per match)."""
    return b"".join(_ASCII_STRETCH.split(data))


#: A multi-byte candidate whose decoder fails on more than this share of the
#: sample's non-ASCII bytes (plus two, for a cut sequence) drops out.
MAX_ERROR_SHARE: Final = 0.01
#: Bytes from the first non-ASCII one that a multi-byte candidate must decode
#: nearly without errors before it is tried on the whole sample.
_PROBE: Final = 512
#: Whether the probe is skipped where it is redundant (``rank_candidates``; the tests
#: compare the rankings without the skip).
_SKIP_PROBE: Final = True
#: The first half of the probe, decoded first.
_SHORT_PROBE: Final = _PROBE // 2
#: ``bytes.translate`` tables: ASCII letters by case (see ``context_classes``), and
#: bytes 0x80-0xFF -> ``h``.
_ASCII_CASES: Final = bytes(
    ord("l") if 0x61 <= b <= 0x7A else ord("u") if 0x41 <= b <= 0x5A else 0x20 for b in range(256)
)
#: So few non-ASCII bytes that multi-byte candidates are tried whatever their pattern.
_FEW: Final = 24
#: Enough non-ASCII bytes to decide without the ASCII letters, when they are dense.
_MANY: Final = 256
#: An ASCII letter: its class tells a Latin encoding's table from another script's.
_ASCII_CLASS: Final = ord("a")
_ASCII_LOWER: Final = bytes(b + 0x20 if 0x41 <= b <= 0x5A else b for b in range(256))
_NOT_ASCII_LETTERS: Final = bytes(
    b for b in range(256) if not (0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A)
)
_HIGH_PAIRS: Final = bytes(0x20 if b < 0x80 else ord("h") for b in range(256))
#: The letters a-z (each counted in the words' letters by one ``map`` in C).
_LOWERCASE: Final = tuple(bytes([c]) for c in range(ord("a"), ord("z") + 1))


class _Ranked(NamedTuple):
    score: float
    rank: int
    name: str
    #: ``False`` for a stand-in: an upper bound of candidates not scored exactly
    exact: bool = True


def rank_candidates(data: bytes, high: bytes, bonuses: dict[str, float]) -> list[_Ranked]:
    """The candidates, best first, scored exactly down to the first that cannot win.

    *bonuses*: log-prior bonuses of the encodings the hints (or the default) name.

    Single-byte candidates that cannot beat the best are left out but one,
    whose score is then its upper bound.
    """
    # every language's (and set of languages') ASCII score in one sum (exact, see
    # ascii_packed), ``None`` when no ASCII letter counts (then every one is 0); a field
    # is read out on demand
    ascii_total: int | None = None
    # (the first byte 0x80-0xFF is the first occurrence of its value: one memchr)
    first = data.find(high[:1]) if high else -1
    if len(high) >= _MANY and len(data) <= 4 * len(high):
        # A quarter of the bytes and more are non-ASCII: no Latin-script text, so
        # no ASCII letters to tell its languages apart; they alone decide.
        around, scale = data, 1.0
    else:
        words = words_around(data, first if high else None)
        around, scale = contexts(data, high, words)
        letters = words.translate(_ASCII_LOWER, _NOT_ASCII_LETTERS)
        if letters:  # (then some letter's count is not 0)
            ascii_total = sum(map(mul, map(letters.count, _LOWERCASE), ascii_packed()[0]))

    def ascii_score(key: str | tuple[str, ...]) -> float:
        if ascii_total is None:
            return 0.0  # (the field of a sum of nothing: (0 - 0) / 2)
        return (0 - ((ascii_total >> ascii_packed()[1][key]) & ASCII_FIELD_MASK)) / 2

    ranked: list[_Ranked] = []
    bound_all = math.inf
    # Every character of EUC-KR and EUC-JP is two bytes 0x80-0xFF, and most of
    # GBK's, Big5's and Shift_JIS's: long text whose non-ASCII bytes stand alone is
    # none of them (a few characters may all have an ASCII trail byte).
    pairs, base = _high_pairs(data, high, first)
    if len(high) <= _FEW or _paired(pairs, first - base, len(high)):
        limit = 2 + int(MAX_ERROR_SHARE * len(high))
        # the sample from its first byte 0x80-0xFF in two pieces, cut at another such byte
        # a quarter in, each without its long ASCII stretches when first needed (_compact,
        # _decode_with_few_errors)
        cut = pairs.find(b"h", first - base + (len(data) - first) // 4)
        cut = len(data) if cut < 0 else cut + base
        pieces: list[bytes] = []
        probe = data[first : first + _PROBE]
        allowed = 2 + len(probe) // 64
        # (only when the probe is longer, and its first half holds enough bytes 0x80-0xFF
        # for that many errors: each error starts at one)
        enough = pairs.count(b"h", first - base, first - base + _SHORT_PROBE) >= allowed + 2
        short = probe[:_SHORT_PROBE] if len(probe) > _SHORT_PROBE and enough else b""
        # (once a candidate has been decoded in full, the text is likely multi-byte: the
        # probe is skipped where it rules out nothing that the decode does not)
        redundant = _SKIP_PROBE and _probe_redundant(limit, allowed, cut - first, len(probe))
        survivors: list[tuple[int, str, str, str]] = []
        for rank, (name, (codec, languages)) in enumerate(MULTI_BYTE.items(), len(SINGLE_BYTE)):
            # (the codec's own decode function: ``bytes.decode(codec)`` looks the codec
            # up by name on every call, ~2.5 us each right after other work has evicted
            # the registry from the CPU caches, 0.3 us warm)
            decode = _CODEC_DECODE.get(codec) or _codec_decode(codec)
            # a cheap look at the first non-ASCII bytes rules most candidates out; its
            # first half first: a prefix has at most one error more than the whole (for
            # the character it may cut), so that many already rule it out
            if short:
                if decode(short, "replace")[0].count("\ufffd") - 1 > allowed:
                    continue
                short = b""  # (text that one reads is likely multi-byte: no more halves)
            if not (redundant and pieces) and (
                decode(probe, "replace")[0].count("\ufffd") > allowed
            ):
                continue
            # (the ASCII bytes before the first other one decode alike, without errors,
            # and so do the long ASCII stretches dropped from the pieces)
            text = _decode_with_few_errors(data, first, cut, codec, limit, pieces)
            if text is not None:
                (language,) = languages  # (each multi-byte candidate has one language)
                # (its non-ASCII characters only: ASCII ones weigh nothing, in any order)
                survivors.append((rank, name, language, _non_ascii(text)))
        if survivors:
            # (none without an ASCII letter right before a lead byte: no regex then)
            maybe = b"LH" in around.translate(_LETTER_LEAD)
            in_word = (len(_IN_WORD.findall(around)) if maybe else 0) * (scale * MULTI_BYTE_IN_WORD)
            bound_all = _bound_all(high, ascii_score(LATIN_LANGUAGES), bonuses)
            ranked = _rank_multi_byte(survivors, ascii_score, in_word, bonuses, bound_all)
    # Single-byte candidates, by an upper bound of their score (each byte's best
    # weight in any of the encoding's languages; context penalties are never
    # positive): those whose bound is below the best so far are skipped.
    # One bound for every single-byte candidate first (bound_all): text in a multi-byte
    # encoding usually settles it without scoring them one by one.
    if ranked and bound_all < max(r.score for r in ranked):
        # unnamed stand-in for them all, so the confidence is never overstated
        ranked.append(_Ranked(bound_all, len(SINGLE_BYTE) + len(MULTI_BYTE), "", exact=False))
        ranked.sort(key=lambda r: (-r.score, r.rank))
        return ranked
    # (the window is the sample itself where its bytes 0x80-0xFF are dense)
    window_high = high if around is data else None
    return _rank_single_byte(high, ascii_total, around, scale, window_high, bonuses, ranked)


def _rank_single_byte(
    high: bytes,
    ascii_total: int | None,
    around: bytes,
    scale: float,
    window_high: bytes | None,
    bonuses: dict[str, float],
    ranked: list[_Ranked],
) -> list[_Ranked]:
    """*ranked* (the multi-byte candidates scored) with the single-byte candidates, all
    best first: scored exactly down to the first whose bound cannot win (it stands in
    for the others by its bound).

    *ascii_total*: the ASCII letters' packed score (:func:`._models.ascii_packed`), or
    ``None`` when no ASCII letter counts (every language's ASCII score is then 0).
    *around*, *scale*: the window of context penalties (:func:`_window`), and
    *window_high* its bytes 0x80-0xFF when they are known (else ``None``).

    Candidates of one script share a bound first (each byte's best weight in any of
    them): a script the bytes do not fit is ruled out in one sum. The groups, their
    members and the members' tables are read from one structure built on first use
    (:func:`_script_groups`), so that a call touches few objects.

    Only the candidates down to the stand-in are ever read (``evidence``: the winner, the
    runner-up, the first candidate after the winner that reads the bytes otherwise;
    ``_margin`` stops at a stand-in). A candidate popped at a bound that may win is given
    a tighter bound first (its best weights; for a non-Latin one, a part of its
    penalties, :meth:`_Context.bound`): below the best so far, it is set aside. The
    stand-in is then the one it would be with every candidate scored (the best one is
    never set aside: its tighter bound is at least its score, so at least the best so
    far; until it is scored the stand-in is not reached, and after it the best so far
    is the same), and a candidate set aside comes before it only if its tighter bound
    is not below the stand-in's: those are scored; the others are left out (their
    scores are below the stand-in's, never read). Float sums keep the order of their
    parts, so the tighter bounds are at least the scores.
    """
    groups = _GROUPS or _script_groups()
    priors = _PRIORS_CACHE.get(tuple(bonuses.items())) or _priors(bonuses)
    # every weighing (weigh_all), by the counts of the distinct bytes when they are few
    counted = _counted(high)
    weights_of = _with(weigh_all, high) if counted is None else _with(_weigh_counted, counted)
    # every ASCII score at once (0 for each when ``None``): a field is read by its index
    fields = None if ascii_total is None else ascii_fields(ascii_total)
    # (each bound summed as before: weight + ASCII bound + prior)
    pending = [
        (
            weight
            + (0 if fields is None else (0 - fields[group.ascii_field]) / 2)
            + priors[group.names],
            group.rank,
            group,
        )
        for weight, group in zip(weights_of(_GROUP_TABLES), groups, strict=True)
    ]
    pending.sort()  # (the best group last)
    # members of the groups expanded (minus the bound, rank, member, the weight of its
    # bound), a heap: the least is the best bound
    bounds: list[tuple[float, int, _Member, float]] = []
    top = max(r.score for r in ranked) if ranked else -math.inf
    # the context penalties, and the bytes beside ASCII letters, counted on first need (no
    # object where no candidate is scored)
    context: _Context | None = None
    # members set aside (a bound below the best so far: theirs, tighter than the one they
    # were popped at, the member, that one, the weight of its table, its best weights or
    # ``None``), and the stand-in's bound: only those that may come before it are scored
    deferred: list[tuple[float, _Member, float, float, float | None]] = []
    seen = -math.inf
    # the script of the best so far, when it is a single-byte candidate: "Latin" or "other"
    leader = ""
    # the smaller groups (._models.sub_groups) of the groups expanded without their
    # members, the best last: one is expanded whenever its bound reaches the best
    # member's (a member of it may tie it, of a lower rank), so that the best of
    # *bounds* is the best of every member of the groups expanded, as if they were all
    # there: the same ranking, with fewer sums where a smaller group's bound is below
    smaller: list[tuple[float, int, _Group]] = []
    # Dense text with no ASCII letters that count, or text a multi-byte candidate reads
    # best, is rarely Latin: the Latin group's smaller groups are bounded first (Latin
    # text weighs them all).
    split = fields is None or bool(ranked)
    while pending or bounds or smaller:
        # (of the groups to expand, the one of the best bound first: any order expands
        # the same groups before a member is popped, and the first may make the others'
        # bounds fall below the best member's; a smaller group not expanded first is never
        # due: a pending group's bound is then above it, so above the best member's)
        if (
            smaller
            and (not bounds or smaller[-1][0] >= -bounds[0][0])
            and (not pending or smaller[-1][0] >= pending[-1][0])
        ):
            group = smaller.pop()[2]
        elif pending and (not bounds or pending[-1][0] > -bounds[0][0]):
            # The best group's bound is above every member's so far: its members'.
            # (also below the best so far: its best member stands in for the runner-up)
            group = pending.pop()[2]
            if group.parts and split:
                smaller += [
                    (
                        weight
                        + (0 if fields is None else (0 - fields[part.ascii_field]) / 2)
                        + priors[part.names],
                        part.rank,
                        part,
                    )
                    for weight, part in zip(weights_of(group.part_tables), group.parts, strict=True)
                ]
                smaller.sort()
                continue
        else:
            group = None
        if group is not None:
            bounds += [
                (
                    -(
                        weight
                        + (0 if fields is None else (0 - fields[member.ascii_field]) / 2)
                        + priors[member.name]
                    ),
                    member.rank,
                    member,
                    weight,
                )
                for weight, member in zip(weights_of(group.tables), group.members, strict=True)
            ]
            heapify(bounds)
            continue
        negative, rank, member, weight = heappop(bounds)
        upper = -negative
        if upper < top:
            # Not evaluated: stand in for the runner-up by their bound, so the
            # confidence is never overstated.
            ranked.append(_Ranked(upper, rank, member.name, exact=False))
            seen = upper
            break
        prior = priors[member.name]
        best: float | None = None
        if member.key == b"a" and leader:
            # (a non-Latin encoding behind a single-byte one: a part of its penalty that
            # costs less than all of it; the rest is never positive)
            context = context or _Context(high, around, scale, window_high)
            partial = context.bound(member, leader == "Latin")
            bound = upper + partial
            if not bound < top:
                best = _best_weights(
                    member, high, weights_of, counted, fields, weight, upper, prior
                )
                bound = best + prior + partial
        else:
            best = _best_weights(member, high, weights_of, counted, fields, weight, upper, prior)
            bound = best + prior
        if bound < top:
            deferred.append((bound, member, upper, weight, best))
            continue
        if best is None:  # (never: for the type checker)
            best = _best_weights(member, high, weights_of, counted, fields, weight, upper, prior)
        context = context or _Context(high, around, scale, window_high)
        score = best + prior + context.penalty(member)
        ranked.append(_Ranked(score, rank, member.name))
        if score > top:
            top, leader = score, "other" if member.key == b"a" else "Latin"
    for bound, member, upper, weight, best in deferred:
        if not bound < seen:
            # (it may come before the stand-in: scored)
            prior = priors[member.name]
            if best is None:
                best = _best_weights(
                    member, high, weights_of, counted, fields, weight, upper, prior
                )
            context = context or _Context(high, around, scale, window_high)
            score = best + prior + context.penalty(member)
            ranked.append(_Ranked(score, member.rank, member.name))
    # best first, ties in rank order (sorts are stable)
    ranked.sort(key=_RANK)
    ranked.sort(key=_SCORE, reverse=True)
    return ranked


class _Context:
    """The context penalties of one ranking's single-byte candidates (:func:`_context_of`),
    each counted on first need and kept by the classes of the bytes present; and the bound
    of a non-Latin one's penalty by its letters against ASCII ones (:func:`_beside_ascii`).

    *high*: the bytes 0x80-0xFF of a sample that holds all those of *around*; *around*,
    *scale*, *window_high*: as for :func:`_rank_single_byte`.
    """

    __slots__ = (
        *("around", "baseline", "beside", "found", "high"),
        *("near", "scale", "whole", "window_high"),
    )

    def __init__(self, high: bytes, around: bytes, scale: float, window_high: bytes | None):
        self.high, self.around, self.scale, self.window_high = high, around, scale, window_high
        self.found: dict[bytes, float] = {}
        # the windows (bytes, their ``ones``): all of *around* for Latin encodings, the
        # bytes near those 0x80-0xFF for the others (_window); the ASCII case switches in
        # the first; the bytes beside ASCII letters in the second (_beside_ascii)
        self.whole: tuple[bytes, int] | None = None
        self.near: tuple[bytes, int] | None = None
        self.baseline = 0
        self.beside: bytes | None = None

    def penalty(self, member: _Member) -> float:
        """The context penalties of *member*."""
        # encodings that class the present bytes (and the ASCII letters) alike get
        # the same penalties
        key = member.key + self.high.translate(member.classes)
        penalty = self.found.get(key)
        if penalty is None:
            if member.key == b"a":
                # (not a Latin encoding: its ASCII letters are "a", their case switches
                # are never counted: the baseline is nil)
                if self.near is None:
                    self.near = _window(self.around, self.window_high)
                window, ones = self.near
                flags = int.from_bytes(window.translate(member.flags), "big")
                penalty = _context_of(flags, ones, self.scale, 0, None, key)
            else:
                if self.whole is None:
                    self.whole = _window(self.around, None)
                    self.baseline = self.around.translate(_ASCII_CASES).count(b"lu")
                window, ones = self.whole
                flags = int.from_bytes(window.translate(member.flags), "big")
                penalty = _context_of(flags, ones, self.scale, self.baseline, None, key)
            self.found[key] = penalty
        return penalty

    def bound(self, member: _Member, latin: bool) -> float:
        """A bound of the context penalties of non-Latin *member*: where a Latin encoding
        leads (*latin*), those of its letters against ASCII ones ("al", "la" of
        :func:`_context_of`): the bytes 0x80-0xFF are likely letters between ASCII ones,
        and they are counted for every encoding at once; else its case switches ("lu"),
        counted in its classes. The other penalties are never positive (all are whole
        numbers before the scale: the sum of some is at least that of all). Behind a
        non-Latin leader, its penalties themselves when an encoding that classes the
        present bytes alike was scored."""
        if self.near is None:
            self.near = _window(self.around, self.window_high)
        if latin:
            if self.beside is None:
                self.beside = _beside_ascii(*self.near)
            mixed = self.beside.translate(member.letters).count(1)
            return (mixed * MIXED_SCRIPT) * self.scale
        key = member.key + self.high.translate(member.classes)
        known = self.found.get(key)
        if known is not None:
            return known
        switches = self.near[0].translate(member.classes).count(b"lu")
        return (switches * CASE_SWITCH) * self.scale


def _best_weights(
    member: _Member,
    high: bytes,
    weights_of: Callable[[Sequence[bytes]], list[float]],
    counted: tuple[bytes, list[int]] | None,
    fields: tuple[int, ...] | None,
    weight: float,
    upper: float,
    prior: float,
) -> float:
    """The best of weight + ASCII score over the languages of *member* (*weights_of*: the
    weights of the bytes 0x80-0xFF *high* in tables, ``weigh_all``'s, from their counts
    *counted* when that is not ``None``, :func:`_weigh_counted`; *fields*: the ASCII
    scores' fields, ``None`` when every one is 0; *weight*: that of its bound's table,
    *upper*: its bound, *prior*: its prior).

    With *counted*, every language is weighed at once (a sum per distinct byte, not a
    translation per table); else the languages whose ASCII score plus the bound's weight
    is below the best so far are left out. Either way the result is the largest weight +
    ASCII score of all the languages (those left out give at most the best: see there),
    the same float.
    """
    if member.alone:
        # (one language: its table is the bound's)
        return weight + (0.0 if fields is None else (0 - fields[member.fields[0]]) / 2)
    if fields is None:
        # every language's ASCII score is 0: the best is the best weight (plus that
        # 0.0, as each weight had it added)
        return max(weights_of(member.tables)) + 0.0
    if counted is not None:
        return max(
            map(
                float.__add__,
                weights_of(member.tables),
                [(0 - fields[field]) / 2 for field in member.fields],
            )
        )
    # the best of weight + ASCII score over the languages; those whose ASCII score
    # plus the best weights (ceiling) is below the best so far cannot beat it (ceiling
    # is the weight of the bound's table, but for rounding: a language left out by a
    # rounding gives at most the best so far, as all are whole half nats)
    ascii_bound = (0 - fields[member.ascii_field]) / 2
    ceiling = upper - prior - ascii_bound
    scores = [(0 - fields[field]) / 2 for field in member.fields]
    first = scores.index(max(scores))
    best = weigh(high, member.tables[first]) + scores[first]
    rest = [i for i, score in enumerate(scores) if not score + ceiling < best and i != first]
    if 2 * len(rest) >= len(scores):
        # (most are left: all weighed in one call; the others are below the first one's
        # score, so the best is the same)
        return max(map(float.__add__, weigh_all(high, member.tables), scores))
    if rest:
        weights = weigh_all(high, tuple(member.tables[i] for i in rest))
        best = max(best, *(w + scores[i] for w, i in zip(weights, rest, strict=True)))
    return best


#: Bytes 0x80-0xFF whose distinct values are at most this many are weighed by their counts
#: (:func:`_counted`).
_FEW_DISTINCT: Final = 32
_HIGH_VALUES: Final = bytes(range(0x80, 0x100))


def _counted(high: bytes) -> tuple[bytes, list[int]] | None:
    """The distinct values of the bytes *high* (0x80-0xFF) and how many times each occurs,
    when they are few (at most :data:`_FEW_DISTINCT`) and *high* is short enough for
    :func:`._models.weigh_all`'s one ``adler32`` per table; else ``None`` (then
    ``weigh_all`` weighs, one translation per table: cheaper for many distinct bytes)."""
    if len(high) > _ADLER_CHUNK:
        return None  # (and each sum fits in 16 bits: 63 * _ADLER_CHUNK < 2**16)
    # (a prefix holds at most the distinct values of the whole: dense text with many has
    # them in its first bytes, read without a pass over all of them)
    if 0x80 - len(_HIGH_VALUES.translate(None, high[:128])) > _FEW_DISTINCT:
        return None
    absent = _HIGH_VALUES.translate(None, high)
    if 0x80 - len(absent) > _FEW_DISTINCT:
        return None
    present = _HIGH_VALUES.translate(None, absent)
    return present, list(map(high.count, present))


#: ``weigh_all`` sums up to this many codes in one ``adler32`` (``_models._CHUNK``).
_ADLER_CHUNK: Final = 65519 // MAX_HALF_NATS


def _weigh_counted(counted: tuple[bytes, list[int]], tables: Sequence[bytes]) -> list[float]:
    """``weigh_all(high, tables)`` from *counted*, :func:`_counted` of *high* (not ``None``):
    the counts of its distinct bytes.

    ``weigh_all`` gives each table's ``-0.5 * S``, *S* the sum of the codes of the bytes
    of *high* (whole numbers below 64: ``adler32`` sums them exactly, *high* being at most
    :data:`_ADLER_CHUNK` bytes). *S* is also the sum over the distinct bytes of their
    count times their code; :func:`_packed` holds each byte's codes in every table as
    fields of 16 bits of one integer, so one sum of products gives every table's *S* at
    once, exactly (each at most ``63 * len(high)``, below 2**16: no field carries into the
    next), read out by one unpack: the same whole numbers, so the same floats (tested
    against ``weigh_all``).
    """
    present, counts = counted
    found = _PACKED.get(id(tables))
    if found is None or found[0] is not tables:
        found = _packed(tables)
    _, packed, layout = found
    total = sum(map(mul, counts, map(packed.__getitem__, present)))
    return [-0.5 * code for code in layout.unpack(total.to_bytes(layout.size, "little"))]


#: :func:`_packed` of the tables seen, by their ``id`` (each with the tables themselves,
#: kept alive so that no other object takes their ``id``).
_PACKED: Final[dict[int, tuple[Sequence[bytes], tuple[int, ...], Struct]]] = {}


def _packed(tables: Sequence[bytes]) -> tuple[Sequence[bytes], tuple[int, ...], Struct]:
    """*tables*, each byte value's codes in every one of *tables* as one integer (table
    *i*'s in bits ``16 * i`` to ``16 * i + 15``), and the layout of those fields; kept in
    :data:`_PACKED` (a few dozen tuples of tables: the script groups', their members')."""
    packed = tuple(
        sum(table[value] << (16 * index) for index, table in enumerate(tables))
        for value in range(256)
    )
    found = (tables, packed, Struct(f"<{len(tables)}H"))
    if len(_PACKED) < 256:
        _PACKED[id(tables)] = found
    return found


_SCORE: Final = itemgetter(0)
_RANK: Final = itemgetter(1)


class _Member(NamedTuple):
    """A single-byte candidate as :func:`_rank_single_byte` reads it."""

    name: str
    rank: int
    #: :func:`._models.best_byte_table`
    table: bytes
    #: the index of the ASCII field (:func:`._models.ascii_fields`) of its languages' bound
    ascii_field: int
    #: :func:`._models.byte_tables`: each language's
    tables: tuple[bytes, ...]
    #: each language's ASCII field
    fields: tuple[int, ...]
    #: :func:`._models.context_classes`, its :func:`_flag_table`, and the class of ASCII
    #: letters (the start of its key of penalties)
    classes: bytes
    flags: bytes
    key: bytes
    #: a ``bytes.translate`` table: byte -> 1 where its class is a letter's, else 0
    letters: bytes
    #: whether it has one language (whose table is then *table*)
    alone: bool


class _Group(NamedTuple):
    """A script group (:func:`._models.script_groups`) as :func:`_rank_single_byte` reads it."""

    names: tuple[str, ...]
    rank: int
    ascii_field: int
    members: tuple[_Member, ...]
    #: each member's :func:`._models.best_byte_table`
    tables: tuple[bytes, ...]
    #: its smaller groups (:func:`._models.sub_groups`, without parts), their tables
    parts: tuple[_Group, ...] = ()
    part_tables: tuple[bytes, ...] = ()


_GROUPS: Final[list[_Group]] = []
_GROUP_TABLES: Final[list[bytes]] = []


def _script_groups() -> list[_Group]:
    """:data:`_GROUPS`, built on first use."""
    _, shifts = ascii_packed()
    index = {key: shift // ASCII_FIELD for key, shift in shifts.items()}

    def member(name: str) -> _Member:
        return _Member(
            name,
            RANKS[name],
            best_byte_table(name),
            index[SINGLE_BYTE[name]],
            byte_tables(name),
            tuple(index[language] for language in SINGLE_BYTE[name]),
            context_classes(name),
            _flag_table(name),
            context_classes(name)[_ASCII_CLASS : _ASCII_CLASS + 1],
            context_classes(name).translate(_LETTERS),
            byte_tables(name) == (best_byte_table(name),),
        )

    def group(languages: tuple[str, ...], names: tuple[str, ...]) -> _Group:
        members = tuple(map(member, names))
        tables = tuple(m.table for m in members)
        return _Group(names, RANKS[names[0]], index[languages], members, tables)

    groups = [
        group(languages, names)._replace(
            parts=tuple(group(part_languages(part), part) for _, part in sub_groups(names)),
            part_tables=tuple(table for table, _ in sub_groups(names)),
        )
        for _, languages, names in script_groups()
    ]
    _GROUP_TABLES[:] = [table for table, _, _ in script_groups()]
    _GROUPS[:] = groups
    return _GROUPS


def _bound_all(high: bytes, ascii_bound: float, bonuses: dict[str, float]) -> float:
    """A bound on the score of every single-byte candidate: each byte's best weight
    in any of them, the ASCII letters' best in any Latin language, the best prior."""
    bound = weigh(high, all_best_byte_table())
    bound += ascii_bound
    return bound + max_single_byte_prior() + max(bonuses.values(), default=0.0)


#: Characters of a multi-byte candidate's text scored at first (then twice as many
#: each time it is the best candidate not scored yet).
_FIRST_CHARS: Final = 64


#: Up to this many characters in all, the multi-byte texts are all scored in full.
_FEW_CHARS: Final = 2048


class _Partial:
    """A multi-byte candidate's text (its non-ASCII characters: :func:`_non_ascii`)
    scored over its first characters."""

    __slots__ = (
        *("bound", "done", "left", "name", "non_ascii", "rank"),
        *("rest", "scorer", "step", "text", "total"),
    )

    def __init__(self, rank: int, name: str, text: str, scorer: CharScorer, rest: float) -> None:
        self.rank, self.name, self.text, self.scorer = rank, name, text, scorer
        self.rest = rest  # the ASCII score
        self.done, self.total, self.step = 0, 0.0, _FIRST_CHARS
        self.non_ascii = len(text)
        self.left = self.non_ascii  # characters not scored yet
        self.bound = 0.0


#: Every ASCII byte: deleted from UTF-8 by ``bytes.translate``.
_ASCII_BYTES: Final = bytes(range(0x80))


def _non_ascii(text: str) -> str:
    """*text* without its ASCII characters, which weigh nothing in any language (three
    passes in C: UTF-8, ASCII bytes deleted, back; a lone surrogate passes through)."""
    utf8 = text.encode("utf-8", "surrogatepass")
    return utf8.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")


def _rank_multi_byte(
    survivors: list[tuple[int, str, str, str]],
    ascii_score: Callable[[str], float],
    in_word: float,
    bonuses: dict[str, float],
    bound_all: float,
) -> list[_Ranked]:
    """The multi-byte *survivors* (rank, name, language, the non-ASCII characters of
    the decoded text) scored; those that cannot be among the first two (nor above the
    single-byte candidates' *bound_all* when it would stand in for them) only down to a
    bound below both (not exact).

    A text's score is a sum of character weights: ASCII ones weigh nothing (and are
    left out of the survivors' texts), the others at most the language's best weight
    (``CharScorer.best``). The sum over its first characters plus that bound for each
    character left bounds it (the rest of the score added as the exact score adds it:
    float additions keep the order; the character sums are exact in any grouping, see
    ``CharScorer.score``). The candidate of best bound is scored further until it is
    scored in full: it is then the best of those left. Only the first two, or the first
    one when the single-byte stand-in would come second, are ever seen (``evidence``:
    the winner, the runner-up, the lead over the first other text); the others are left
    at a bound below both.
    """
    if sum(len(text) for _, _, _, text in survivors) <= _FEW_CHARS:
        # (few characters: each scored in full at once costs less than steps)
        return [
            _Ranked(
                ((char_scorer(language).score(text) + ascii_score(language)) + in_word)
                + _prior(name, bonuses),
                rank,
                name,
            )
            for rank, name, language, text in survivors
        ]
    pending = []
    for rank, name, language, text in survivors:
        item = _Partial(rank, name, text, char_scorer(language), ascii_score(language))
        _score_further(item, _FIRST_CHARS, in_word, bonuses)
        pending.append(item)
    # The one whose first characters weigh most on average usually wins: it is scored
    # in full first (which only saves the others' steps: any order gives these scores).
    likely = max(pending, key=_mean_weight)
    _score_further(likely, len(likely.text), in_word, bonuses)
    if bound_all >= likely.bound and len(pending) <= 3:
        # (no stand-in will cut below it: the runner-up is scored in full, and so
        # would be all but one of the others; steps would not pay)
        for item in pending:
            _score_further(item, len(item.text) - item.done, in_word, bonuses)
        return [_Ranked(item.bound, item.rank, item.name) for item in pending]
    scored: list[_Ranked] = []
    threshold = -math.inf
    while pending:
        best = max(pending, key=_best_bound)
        if best.bound < threshold:
            break
        if best.done < len(best.text):
            # (where its bound must get to: below the stand-in's when that will come
            # second, or below the runner-up's, unknown until it is scored in full)
            target = threshold if threshold > -math.inf else bound_all
            if target >= likely.bound:
                size = len(best.text) - best.done
            else:
                size = _next_step(best, target)
            _score_further(best, size, in_word, bonuses)
            continue
        pending.remove(best)
        scored.append(_Ranked(best.bound, best.rank, best.name))
        if len(scored) >= 2:
            threshold = max(threshold, scored[1].score)
        if bound_all < scored[0].score:
            threshold = max(threshold, bound_all)
    scored += [_Ranked(item.bound, item.rank, item.name, exact=False) for item in pending]
    return scored


def _next_step(item: _Partial, threshold: float) -> int:
    """How many more characters of *item* to score: about as many as it takes, at the
    mean weight of those scored so far, to bring its bound below *threshold* (a guess:
    any steps give the same scores), else twice as many as last time."""
    scored = max(item.non_ascii - item.left, 1)  # non-ASCII characters scored
    mean = item.total / scored
    if mean < item.scorer.best:
        needed = (item.bound - threshold) / (item.scorer.best - mean)
        # (in characters: as dense in non-ASCII ones as those scored, and a few more)
        return int(needed * item.done / scored) + 16
    size = item.step
    item.step *= 2
    return size


def _score_further(item: _Partial, size: int, in_word: float, bonuses: dict[str, float]) -> None:
    """Score the next *size* characters of *item*, and bound its score anew."""
    chunk = item.text[item.done : item.done + size]
    item.total += item.scorer.score(chunk)
    item.done += len(chunk)
    item.left -= len(chunk)
    item.bound = _partial_bound(item, in_word, bonuses)


def _partial_bound(item: _Partial, in_word: float, bonuses: dict[str, float]) -> float:
    """A bound on the score of *item*; its score once it is scored in full (the parts
    added as in the first ranking: ``((characters + ASCII) + in_word) + prior``)."""
    characters = item.total + item.left * item.scorer.best
    return ((characters + item.rest) + in_word) + _prior(item.name, bonuses)


def _mean_weight(item: _Partial) -> tuple[float, int]:
    """The mean weight of the characters of *item* scored so far (and minus its rank)."""
    return item.total / max(item.done, 1), -item.rank


def _best_bound(item: _Partial) -> tuple[float, int]:
    return item.bound, -item.rank


def _window(around: bytes, high: bytes | None) -> tuple[bytes, int]:
    """The bytes to count context penalties in, and the integer whose bytes (one per
    byte of them) are all 0x01: all of *around*, or, for an encoding of a non-Latin
    script, from two bytes before its first byte 0x80-0xFF to two bytes after its last
    one, when *high* holds those bytes (in order).

    In such an encoding, every pattern that :func:`_context_of` counts holds a byte
    0x80-0xFF (ASCII letters and digits are of their own class) and lies within two
    bytes of it: the penalties are those of all of *around*. (Where ASCII letters or
    digits are all outside, none lies near a letter: the penalties of the script's
    patterns are nil, as without any.) A dense sample starts with the page's head,
    which holds none. (Not in a Latin encoding: there a digit before an ASCII capital
    is a case switch, "0A", wherever it is.)

    (Counting only in the bytes near the bytes 0x80-0xFF elsewhere gives the same
    penalties too, but cutting those pieces out costs more than the counts it saves.)
    """
    # (the first occurrence of the first one's value is the first one; same at the end)
    first = around.find(high[:1]) if high else -1
    if high and first >= 0:
        start = max(first - 2, 0)
        end = around.rfind(high[-1:]) + 3
        if end - start < len(around):
            around = around[start:end]
    return around, int.from_bytes(b"\x01" * len(around), "big")


#: ``bytes.translate`` tables: the classes of ``context_classes`` -> 1 for a letter's
#: (``l``, ``u``), else 0; bytes -> 1 for an ASCII letter or digit, else 0.
_LETTERS: Final = bytes(1 if b in b"lu" else 0 for b in range(256))
_ALNUM: Final = bytes(1 if chr(b).isascii() and chr(b).isalnum() else 0 for b in range(256))


def _beside_ascii(window: bytes, ones: int) -> bytes:
    """The bytes 0x80-0xFF of *window* that are next to an ASCII letter or digit, each
    once per such neighbour (*ones*: as for :func:`_window`).

    In an encoding of a non-Latin script, those of them that are letters (``_Member.letters``)
    are its "al" and "la" of :func:`_context_of` (there the ASCII letters and digits are
    "a", and no byte 0x80-0xFF is): their count is ``translate`` and ``count`` on these
    bytes, for each encoding, where the bits of :func:`_context_of` cost a pass over
    the window for each of a dozen big-integer operations.
    """
    alnum = int.from_bytes(window.translate(_ALNUM), "big")
    value = int.from_bytes(window, "big")
    size = len(window)
    after = value & ((alnum >> 8) * 0xFF)  # (each byte after one)
    before = value & (((alnum << 8) & ones) * 0xFF)  # (each byte before one)
    return (after.to_bytes(size, "big") + before.to_bytes(size, "big")).translate(
        None, _ASCII_BYTES
    )


#: Each class of ``context_classes`` as one bit of a byte (``bytes.translate`` of the
#: classes): lower, upper, space (anything else), ASCII letter or digit, mark, symbol.
_FLAGS: Final = {ord("l"): 0, ord("u"): 1, ord(" "): 2, ord("a"): 3, ord("m"): 4, ord("s"): 5}


@cache
def _flag_table(name: str) -> bytes:
    """A ``bytes.translate`` table: byte -> the bit of its class in *name*."""
    return bytes(1 << _FLAGS[c] for c in context_classes(name))


def _context(
    name: str, around: bytes, scale: float, baseline: int | None = None, alnum: bool | None = None
) -> float:
    """:func:`_context_of` single-byte candidate *name* over all of *around* (*baseline*:
    its ASCII case switches, counted when ``None``; *alnum*: whether it holds ASCII
    letters or digits, read from the classes when ``None``)."""
    window, ones = _window(around, None)
    flags = int.from_bytes(window.translate(_flag_table(name)), "big")
    if baseline is None:
        baseline = around.translate(_ASCII_CASES).count(b"lu")
    if context_classes(name)[0x61] != 0x61:
        alnum = False  # (a Latin encoding: ASCII letters are its own)
    return _context_of(flags, ones, scale, baseline, alnum)


def _context_of(
    flags: int,
    ones: int,
    scale: float,
    baseline: int,
    alnum: bool | None = None,
    present: bytes | None = None,
) -> float:
    """Penalties for letter cases switching mid-word and for scripts mixing, in a window
    of bytes (:func:`_window`: the non-ASCII bytes with their neighbours) that each
    count for *scale* of them.

    *flags*: the window's bytes as one integer (a byte each, holding the bit of its
    class in the encoding: :func:`_flag_table`); *ones*: the integer of as many bytes
    0x01. *baseline*: the case switches ("lu") among the window's ASCII letters, which
    are the text's own and do not count (nil where no ASCII letter has a case class).
    *alnum*: whether the window holds ASCII letters or digits that are not the
    encoding's own; ``None``: whether it holds bytes of the class a non-Latin encoding
    gives them (a Latin encoding gives none).

    Pairs and triples of classes are counted as bits: a class's positions are *flags*
    shifted so its bit is bit 0 of each byte, masked; ``x`` followed by ``y`` is
    ``X & (Y << 8)``. That is ``classes.count(b"xy")`` for every pattern here; the
    symbol ones can overlap themselves (``bytes.count`` counts "lslsl" once):
    :func:`_apart` counts them as it does.

    *present*, when known: the classes of the ASCII letters and of every byte 0x80-0xFF
    in the window (of a sample that holds them all: ``_Member.key`` and the sample's
    bytes translated). A class missing there is nowhere in the window (no ASCII byte is a
    mark or a symbol, nor is any other byte of the ASCII letters' class), so its
    positions are nil without a pass over *flags*.
    """
    # (ASCII letters and digits in a non-Latin script only)
    ascii_ = (flags >> 3) & ones if present is None or b"a" in present else 0
    # ASCII letters or digits in the window that are not the encoding's own
    script = ascii_ != 0 if alnum is None else alnum
    penalty = 0.0
    lower, upper = flags & ones, (flags >> 1) & ones
    symbol = (flags >> 5) & ones if present is None or b"s" in present else 0
    if symbol:
        # "asa", "lsl", "usl", "lsu", "usu", each counted on its own by bytes.count, from
        # the left, without overlaps; only two matches of a pattern whose ends are of
        # one class overlap (two apart: "lslsl" holds "lsl" once; see _apart), and
        # never two of different patterns among those (the byte they share would be
        # of two classes): the matches of those three are counted together
        symbol_next = symbol << 8
        lower_s, upper_s = lower & symbol_next, upper & symbol_next
        lower_third, upper_third = lower << 16, upper << 16
        alike = (
            (ascii_ & symbol_next & (ascii_ << 16))
            | (lower_s & lower_third)
            | (upper_s & upper_third)
        )
        count = _apart(alike) + ((lower_s & upper_third) | (upper_s & lower_third)).bit_count()
        penalty += count * SYMBOL_IN_WORD
    switches_in_words = (lower & (upper << 8)).bit_count()  # "lu"
    mark = (flags >> 4) & ones if present is None or b"m" in present else 0
    space = (flags >> 2) & ones if mark or script else 0
    if script:
        letter = lower | upper
        # (each pattern's matches counted at bytes of one class: pairs of disjoint sets)
        mixed = ((ascii_ & (letter << 8)) | (letter & (ascii_ << 8))).bit_count()  # "al", "la"
        # "a l", "a u", "l a", "u a"
        switches = (
            (space << 8) & ((ascii_ & (letter << 16)) | (letter & (ascii_ << 16)))
        ).bit_count()
        penalty += switches * SCRIPT_SWITCH
        if mark:
            penalty += ((space | ascii_) & (mark << 8)).bit_count() * STRAY_MARK  # " m", "am"
        return (penalty + switches_in_words * CASE_SWITCH + mixed * MIXED_SCRIPT) * scale
    if mark:
        penalty += (space & (mark << 8)).bit_count() * STRAY_MARK  # " m"
    return (penalty + (switches_in_words - baseline) * CASE_SWITCH) * scale


def _apart(matches: int) -> int:
    """How many of the *matches* of a three-class pattern (a bit at the first byte of
    each) ``bytes.count`` counts: from the left, each one not overlapping the last one
    counted (two that overlap lie two apart: "lslsl" holds "lsl" once)."""
    count = 0
    while matches & (matches << 16):
        # the first of each run of matches two apart is counted, the next one is not
        # (``x ^ (x & y)``: x without y, on non-negative integers)
        first = matches ^ (matches & (matches >> 16))
        count += first.bit_count()
        matches ^= matches & (first | (first >> 16))
    # (no two left two apart: each one counts)
    return count + matches.bit_count()


#: codec name -> its stateless decode function (:func:`_codec_decode`; a plain dict: read in
#: place, no cached call)
_CODEC_DECODE: Final[dict[str, Callable[[bytes, str], tuple[str, int]]]] = {}


def _codec_decode(codec: str) -> Callable[[bytes, str], tuple[str, int]]:
    """The decode function of *codec* (one of ours, never a document's label), kept in
    :data:`_CODEC_DECODE`: ``decode(data, errors)[0] == data.decode(codec, errors)``."""
    decode: Callable[[bytes, str], tuple[str, int]] = codecs.lookup(codec).decode
    _CODEC_DECODE[codec] = decode
    return decode


@cache
def _incremental_decoder(codec: str) -> Callable[[str], codecs.IncrementalDecoder]:
    """The incremental decoder class of *codec* (looked up once)."""
    return codecs.getincrementaldecoder(codec)


def _decode_with_few_errors(
    data: bytes, start: int, cut: int, codec: str, limit: int, pieces: list[bytes]
) -> str | None:
    """``data[start:]`` decoded by *codec* (errors replaced) without the inside of its long
    ASCII stretches, when it holds at most *limit* U+FFFD, else ``None``.

    *cut* (*start* <= *cut* <= ``len(data)``) is ``len(data)`` or the place of a byte
    0x80-0xFF: no ASCII stretch crosses it, so ``data[start:cut]`` and ``data[cut:]``
    compacted (the two *pieces*, computed on first need and kept for the next
    candidate) join into all of it compacted (tested). They are decoded by one
    incremental decoder, whose two texts join into the one-shot decoding (an incomplete
    sequence at the end of the first piece is kept for the second; tested): text that no
    candidate reads (Cyrillic read as GBK, ...) holds many errors from its start, and
    the first piece holding more than *limit* rules it out (the whole holds those), with
    the second piece neither compacted nor decoded. All in C: no Python error handler.
    """
    if not pieces:
        pieces.append(_compact(data[start:cut]))
    decoder = _incremental_decoder(codec)("replace")
    head = decoder.decode(pieces[0])
    if head.count("\ufffd") > limit:
        return None
    if len(pieces) < 2:
        pieces.append(_compact(data[cut:]))
    text = head + decoder.decode(pieces[1], True)
    return text if text.count("\ufffd") <= limit else None


def prefer(first: str, second: str, high: bytes) -> bool:
    """Whether single-byte *second* explains the bytes 0x80-0xFF *high* better than *first*
    (each under its best language, without context): for two candidates tied on a trimmed
    sample, the rest of the sample decides."""

    def best(name: str) -> float:
        return PRIORS.get(name, 0.0) + max(
            weigh(high, byte_table(name, language)) for language in SINGLE_BYTE[name]
        )

    return best(second) > best(first)


_PRIORS_CACHE: dict[tuple[tuple[str, float], ...], dict[str | tuple[str, ...], float]] = {}


def _priors(bonuses: dict[str, float]) -> dict[str | tuple[str, ...], float]:
    """Every single-byte candidate's prior with *bonuses*, and the best of each
    script group's (its tuple of members; a few distinct ones: cached under the
    bonuses' items, as the hints give them)."""
    key = tuple(bonuses.items())
    found = _PRIORS_CACHE.get(key)
    if found is None:
        found = {name: _prior(name, bonuses) for name in SINGLE_BYTE}
        for _, _, members in script_groups():
            found[members] = max(found[name] for name in members)
            for _, part in sub_groups(members):
                found[part] = max(found[name] for name in part)
        if len(_PRIORS_CACHE) < 256:
            _PRIORS_CACHE[key] = found
    return found


def _prior(name: str, bonuses: dict[str, float]) -> float:
    return PRIORS.get(name, 0.0) + bonuses.get(name, 0.0)
