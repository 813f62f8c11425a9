"""Language models: how plausible a decoded character is in a language.

Each candidate encoding serves a few languages. A candidate's score for a
sample is the log-likelihood of the sample's non-ASCII characters (ASCII bytes
mean the same in every candidate) under the best of its languages: a sum of
log character shares from :mod:`._frequencies` (generated from word lists,
not from pages), with floors for what the lists do not hold:

* punctuation and symbols that any text uses (quotes, dashes, NBSP, ...);
* letters the language does not use: rare, but they occur (names, loans);
* C1 controls, private-use and unassigned code points, U+FFFD: the mark of a
  wrong decoder, almost never in real text.

Single-byte candidates are scored from a histogram of the sample's bytes
0x80-0xFF (a byte is always the same character), multi-byte ones from their
decoded characters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from struct import Struct
from zlib import adler32

from .._decoders import decode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: log-likelihoods (natural log) of what the letter tables do not cover
COMMON_PUNCTUATION: Final = -6.5
CJK_PUNCTUATION: Final = -4.5
FOREIGN_LETTER: Final = -13.0
SYMBOL: Final = -10.0
IMPOSSIBLE: Final = -25.0
#: An uppercase letter: a minority of letters, but whole headlines are capitals.
UPPERCASE: Final = -1.0
#: A lowercase letter followed by an uppercase one ("aB"): rare in any script,
#: the rule when an encoding with the cases swapped reads the text.
CASE_SWITCH: Final = -5.0
#: A combining mark (Thai vowel or tone mark, Hebrew point, Arabic vowel sign,
#: Vietnamese tone mark) after a space or an ASCII letter: it must follow a
#: letter of its own script.
STRAY_MARK: Final = -10.0
#: A word of a non-Latin script next to an ASCII word ("la è bella" read as
#: Cyrillic): it happens (names, brands), but far less than words of one script.
SCRIPT_SWITCH: Final = -2.0
#: A non-ASCII symbol or punctuation mark between two letters, as in "f˙r":
#: apostrophes and the like excepted.
SYMBOL_IN_WORD: Final = -8.0
_INSIDE_WORDS: Final = frozenset("’·\u00ad")
#: A letter of a non-Latin script written against an ASCII letter, as in a word
#: mixing scripts: rare in real text, the rule when a Latin text's accented
#: letters are read in a Cyrillic, Greek, Hebrew, ... encoding.
MIXED_SCRIPT: Final = -6.0

#: Punctuation and the symbols of everyday text. Not the rarer symbols that a
#: wrong single-byte decoder makes of letters (½ ¼ ¾ † ‡ ‰ ™ № ¤ ¦ ¨ ´ ¸ ¬ ¯):
#: those score as symbols.
_COMMON_PUNCTUATION: Final = frozenset("\u00a0\u00ad«»‘’‚‛“”„‟‹›–—―…•·′″€£¥¢©®°±×÷§²³¿¡")
_CJK_PUNCTUATION: Final = frozenset(
    "\u3000、。〃〈〉《》「」『』【】〔〕〜・ー…‥‘’“”※○●◎◇◆□■△▲▽▼☆★→←↑↓＝"
    + "".join(chr(c) for c in range(0xFF01, 0xFF5F))  # fullwidth ASCII forms
)
_CJK_LANGUAGES: Final = frozenset({"ja", "ko", "zh-Hans", "zh-Hant"})

_WESTERN: Final = ("en", "fr", "de", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "ca")
#: More languages of Latin-1's repertoire (windows-1252 and ISO-8859-15 hold them all).
_LATIN1_MORE: Final = ("nn", "is", "fo", "gl", "eu", "ga", "gd", "br", "oc", "ast", "af", "sq")
#: Celtic languages: Latin-1 covers Irish, Breton and Scottish Gaelic, and Welsh but
#: for w/y with circumflex, which ISO-8859-14 adds.
_CELTIC: Final = ("cy", "ga", "br", "gd")
_NORDIC: Final = ("is", "fo", "da", "nb", "nn", "sv", "fi")
#: "sh" (wordfreq's Serbo-Croatian, Latin script) stands for Croatian, Bosnian and
#: Serbian in the Latin script.
_CENTRAL: Final = ("cs", "sk", "pl", "hu", "sl", "sh", "ro")
_CYRILLIC: Final = ("ru", "uk", "bg", "be", "sr", "mk")
_BALTIC: Final = ("lt", "lv", "et")
#: Languages written in the Latin script: their non-ASCII letters sit between ASCII letters.
_OTHER_LATIN: Final = ("tr", "ku", "vi", "mt", "eo", "se")
LATIN: Final = frozenset(
    (*_WESTERN, *_LATIN1_MORE, *_CELTIC, *_NORDIC, *_CENTRAL, *_BALTIC, *_OTHER_LATIN)
)

#: Single-byte candidates -> the languages written in them on the web: the
#: languages each encoding was made for (ISO/IEC 8859 parts 1-16, Microsoft's
#: code pages 874 and 1250-1258, Mac OS Roman and Cyrillic, KOI8-R (RFC 1489),
#: KOI8-U (RFC 2319), IBM code page 866), restricted to those whose letters it
#: holds. The table and its sources are in docs/detection.md. x-user-defined is
#: never a page's encoding; ISO-8859-8-I decodes exactly as ISO-8859-8.
SINGLE_BYTE: Final[dict[str, tuple[str, ...]]] = {
    "windows-1252": (*_WESTERN, *_LATIN1_MORE, "et"),
    "windows-1251": _CYRILLIC,
    "windows-1250": (*_CENTRAL, "sq"),
    "windows-1253": ("el",),
    "windows-1254": ("tr", "ku"),
    "windows-1255": ("he", "yi"),
    "windows-1256": ("ar", "fa", "ur"),
    "windows-1257": _BALTIC,
    "windows-1258": ("vi",),
    "windows-874": ("th",),
    "ISO-8859-2": _CENTRAL,
    "ISO-8859-15": (*_WESTERN, "et", "eu", "gl"),
    "ISO-8859-5": ("ru", "bg", "sr", "mk"),
    "KOI8-R": ("ru", "bg"),
    "KOI8-U": ("uk", "ru", "be"),
    "IBM866": ("ru", "bg"),
    "x-mac-cyrillic": _CYRILLIC,
    "ISO-8859-7": ("el",),
    "ISO-8859-6": ("ar",),
    "ISO-8859-8": ("he",),
    "ISO-8859-13": (*_BALTIC, "pl", "sl"),
    "ISO-8859-4": _BALTIC,
    "ISO-8859-16": ("ro", "pl", "hu", "sh", "sl"),
    "macintosh": (*_WESTERN, "is"),
    "ISO-8859-3": ("tr", "mt", "eo"),
    "ISO-8859-10": ("is", "fo", "da", "nb", "sv", "fi", "se"),
    "ISO-8859-14": _CELTIC,
}

#: Multi-byte candidates -> (Python codec used as a strict filter, languages).
#: The Python codecs accept (nearly) a subset of what the WHATWG decoders
#: accept (cp932 for Shift_JIS, cp949 for EUC-KR, gb18030 for GBK,
#: big5hkscs for Big5), so a few errors are tolerated rather than fatal.
MULTI_BYTE: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "GBK": ("gb18030", ("zh-Hans",)),
    "Big5": ("big5hkscs", ("zh-Hant",)),
    "Shift_JIS": ("cp932", ("ja",)),
    "EUC-JP": ("euc_jp", ("ja",)),
    "EUC-KR": ("cp949", ("ko",)),
}

#: Small log-priors (nats): encodings that were rarely a legacy default on the
#: web start slightly behind; evidence from a few characters outweighs this.
PRIORS: Final[dict[str, float]] = {
    "ISO-8859-15": -0.5,
    "ISO-8859-4": -2.0,
    "ISO-8859-13": -1.0,
    "ISO-8859-16": -2.0,
    "ISO-8859-6": -0.5,
    "ISO-8859-8": -0.5,
    "KOI8-U": -0.5,
    "IBM866": -1.0,
    "x-mac-cyrillic": -1.0,
    "macintosh": -2.0,
    "ISO-8859-3": -1.5,
    "ISO-8859-10": -2.0,
    "ISO-8859-14": -1.5,
}


@cache
def letter_weights(language: str) -> dict[str, float]:
    """Character -> log share for the letters of *language* (from the tables).

    The tables are imported on first use: ``import browser_decode`` does not pay
    for them.
    """
    from . import _frequencies

    fields = _frequencies.LETTERS[language].split(" ")
    per_nat = _frequencies.BUCKETS_PER_NAT
    return {
        char: -int(bucket) / per_nat
        for bucket, chars in zip(fields[0::2], fields[1::2], strict=True)
        for char in chars
    }


def floor_weight(char: str, language: str) -> float:
    """The log-likelihood of a character that *language*'s letter table lacks."""
    if language in _CJK_LANGUAGES and char in _CJK_PUNCTUATION:
        return CJK_PUNCTUATION
    if char in _COMMON_PUNCTUATION:
        return COMMON_PUNCTUATION
    category = unicodedata.category(char)
    if category in ("Cc", "Co", "Cn", "Cs") or char == "\ufffd":
        return IMPOSSIBLE
    if category[0] in "LM":
        return FOREIGN_LETTER
    return SYMBOL


def _fold(char: str) -> str:
    lower = char.lower()
    return lower if len(lower) == 1 else char


@cache
def _high_half(encoding: str) -> tuple[tuple[str, ...], tuple[float, ...], tuple[float, ...]]:
    """The bytes 0x80-0xFF of *encoding*: their case-folded characters, the floors
    of those (outside CJK languages) and their case penalties."""
    chars = decode(encoding, bytes(range(0x80, 0x100)))
    folded = tuple(map(_fold, chars))
    floors = tuple(floor_weight(f, "") for f in folded)
    cases = tuple(UPPERCASE if f != c else 0.0 for f, c in zip(folded, chars, strict=True))
    return folded, floors, cases


@cache
def byte_weights(encoding: str, language: str) -> tuple[float, ...]:
    """Weights of bytes 0x80..0xFF decoded by *encoding*, under *language*."""
    letters = letter_weights(language)
    folded, floors, cases = _high_half(encoding)
    if language in _CJK_LANGUAGES:
        floors = tuple(floor_weight(f, language) for f in folded)
    get = letters.get
    return tuple(map(float.__add__, map(get, folded, floors), cases))


#: Every weight of a byte 0x80-0xFF is a whole number of half nats (the letter
#: tables' buckets, the floors, the uppercase cost), at most this many below zero.
MAX_HALF_NATS: Final = 63


def half_nats(weights: tuple[float, ...]) -> bytes:
    """A ``bytes.translate`` table: byte 0x80+i -> ``-2 * weights[i]`` (ASCII -> 0).

    The sum of a sample's bytes 0x80-0xFF translated by it (:func:`weigh`) is
    minus twice their summed weights, exactly: no float rounding in any order.
    """
    codes = [-2 * weight for weight in weights]
    if len(codes) != 0x80 or not all(c == int(c) and 0 <= c <= MAX_HALF_NATS for c in codes):
        raise ValueError("byte weights must be whole half nats in [-MAX_HALF_NATS / 2, 0]")
    return bytes(0x80) + bytes(map(int, codes))


#: Bytes summed per call of ``zlib.adler32``: its low 16 bits are 1 + the sum of
#: the bytes modulo 65521, exact while the sum stays below 65520.
_CHUNK: Final = 65519 // MAX_HALF_NATS


def weigh_all(high: bytes, tables: Sequence[bytes]) -> list[float]:
    """``[weigh(high, table) for table in tables]``, in fewer calls."""
    if len(high) <= _CHUNK:
        return [-0.5 * ((adler32(codes) & 0xFFFF) - 1) for codes in map(high.translate, tables)]
    return [weigh(high, table) for table in tables]


def weigh(high: bytes, table: bytes) -> float:
    """The summed weights of the bytes 0x80-0xFF *high*, whose weights *table* holds
    (:func:`half_nats`): one ``translate`` and one ``adler32`` in C per 1 KiB,
    where a histogram and a Python sum cost a call per distinct byte."""
    codes = high.translate(table)
    if len(codes) <= _CHUNK:
        return -0.5 * ((adler32(codes) & 0xFFFF) - 1)  # (the common case, without a call)
    return -0.5 * byte_sum(codes, _CHUNK)


def byte_sum(codes: bytes, chunk: int) -> int:
    """The sum of the bytes *codes*, each small enough that *chunk* of them sum below
    65520: ``zlib.adler32``'s low 16 bits are 1 + that sum (modulo 65521), one call per
    *chunk* bytes, all in C."""
    if len(codes) <= chunk:
        return (adler32(codes) & 0xFFFF) - 1
    total = 0
    for start in range(0, len(codes), chunk):
        total += (adler32(codes[start : start + chunk]) & 0xFFFF) - 1
    return total


@cache
def byte_table(encoding: str, language: str) -> bytes:
    """:func:`byte_weights` as a :func:`half_nats` table."""
    return half_nats(byte_weights(encoding, language))


@cache
def byte_tables(encoding: str) -> tuple[bytes, ...]:
    """:func:`byte_table` of each language of *encoding*, in :data:`SINGLE_BYTE`'s order."""
    return tuple(byte_table(encoding, language) for language in SINGLE_BYTE[encoding])


@cache
def best_byte_table(encoding: str) -> bytes:
    """:func:`best_byte_weights` as a :func:`half_nats` table."""
    return half_nats(best_byte_weights(encoding))


@cache
def best_byte_tables(encodings: tuple[str, ...]) -> tuple[bytes, ...]:
    """:func:`best_byte_table` of each of *encodings*."""
    return tuple(map(best_byte_table, encodings))


@cache
def ascii_weights(language: str) -> tuple[float, ...]:
    """Weights of the letters a-z (case-folded) under *language*.

    ASCII letters tell the languages of the Latin script apart; in a page in
    any other script they are markup, names and loans, weighed as English.
    """
    if language not in LATIN and language != "en":
        return ascii_weights("en")
    letters = letter_weights(language)
    return tuple(letters.get(chr(c), FOREIGN_LETTER) for c in range(ord("a"), ord("z") + 1))


@cache
def best_ascii_weights(languages: tuple[str, ...]) -> tuple[float, ...]:
    """Each letter a-z's highest weight in any of *languages*: a bound on their scores."""
    tables = [ascii_weights(language) for language in languages]
    return tuple(max(weights) for weights in zip(*tables, strict=True))


#: Bits of one field of :func:`ascii_packed`: 2**32 / 255 letters fit in one.
ASCII_FIELD: Final = 32
ASCII_FIELD_MASK: Final = (1 << ASCII_FIELD) - 1


@cache
def ascii_packed() -> tuple[tuple[int, ...], dict[str | tuple[str, ...], int]]:
    """The ASCII letters' weights of every language and every set of languages
    (:func:`best_ascii_weights`) that ranking asks for, packed into one integer per
    letter a-z: field *i* (:data:`ASCII_FIELD` bits from ``shifts[key]``) holds minus
    twice the weight of that letter under key *i* (a whole number: weights are whole
    half nats). ``sum(count(letter) * packed[letter])`` then holds all their scores
    at once, exactly, in one sum of 26 products in C; and the key -> shift."""
    languages = {lang for langs in SINGLE_BYTE.values() for lang in langs}
    languages |= {lang for _, langs in MULTI_BYTE.values() for lang in langs}
    sets = {*SINGLE_BYTE.values(), *(langs for _, langs, _ in script_groups())}
    sets |= {
        part_languages(part) for _, _, names in script_groups() for _, part in sub_groups(names)
    }
    sets.add(LATIN_LANGUAGES)
    keys: list[str | tuple[str, ...]] = [*sorted(languages), *sorted(sets)]
    tables = [ascii_weights(k) if isinstance(k, str) else best_ascii_weights(k) for k in keys]
    packed = []
    for letter in range(26):
        value = 0
        for index, table in enumerate(tables):
            code = -2 * table[letter]
            if code != int(code) or not 0 <= code <= 0xFF:
                raise ValueError("ASCII weights must be whole half nats in [-127.5, 0]")
            value |= int(code) << (ASCII_FIELD * index)
        packed.append(value)
    return tuple(packed), {key: ASCII_FIELD * index for index, key in enumerate(keys)}


def ascii_fields(total: int) -> tuple[int, ...]:
    """Every field of *total*, a sum of :func:`ascii_packed` products, in the order of its
    keys: ``(total >> shift) & ASCII_FIELD_MASK`` for each shift, in one unpack in C."""
    layout, every = _ascii_layout()
    return layout.unpack((total & every).to_bytes(layout.size, "little"))


@cache
def _ascii_layout() -> tuple[Struct, int]:
    """The fields of :func:`ascii_packed` as a ``struct`` layout of little-endian integers,
    and the mask of all their bits."""
    if ASCII_FIELD != 32:
        raise ValueError("the layout reads fields of 32 bits")
    layout = Struct(f"<{len(ascii_packed()[1])}I")
    return layout, (1 << (8 * layout.size)) - 1


@cache
def best_byte_weights(encoding: str) -> tuple[float, ...]:
    """Each byte's highest weight in any language of *encoding*: a bound on its score."""
    tables = [byte_weights(encoding, language) for language in SINGLE_BYTE[encoding]]
    return tuple(max(weights) for weights in zip(*tables, strict=True))


@cache
def context_classes(encoding: str) -> bytes:
    """A ``bytes.translate`` table of the letter classes that context penalties count.

    Lowercase letters (and letters without case, digits) -> ``l``, uppercase -> ``u``,
    combining marks -> ``m``, other non-ASCII characters (symbols, punctuation)
    -> ``s``, anything else -> space; in an encoding for a non-Latin script, ASCII
    letters and digits -> ``a``, so that ``al``, ``la``, ``au``, ``ua`` are
    script mixes.
    """
    latin = all(language in LATIN for language in SINGLE_BYTE[encoding])
    classes = bytearray(b" " * 256)
    for byte, char in enumerate(decode(encoding, bytes(range(256)))):
        if byte < 0x80 and not latin:
            if char.isalnum():
                classes[byte] = ord("a")
        elif char.isupper():
            classes[byte] = ord("u")
        elif unicodedata.category(char) == "Mn":
            classes[byte] = ord("m")
        elif unicodedata.category(char)[0] in "LM" or unicodedata.category(char) == "Nd":
            classes[byte] = ord("l")
        elif byte >= 0x80 and char not in _INSIDE_WORDS and not char.isspace():
            classes[byte] = ord("s")
    return bytes(classes)


_MAX_CACHED: Final = 20_000
#: The characters that :class:`CharScorer`'s translate table covers (the BMP): beyond
#: it, and where it has no weight yet, a character is looked up one by one.
_TABLE_SIZE: Final = 0x10000
#: A weight not known yet in that table (any code beyond ASCII: ``isascii`` sees it).
_UNKNOWN: Final = 0x80
#: Characters summed per call of ``zlib.adler32`` (weights in half nats are at most
#: 127: the sum of a chunk stays below 65520, see :data:`_CHUNK`).
_CODES_CHUNK: Final = 65519 // 0x7F


class _Weights(dict[str, float]):
    """Character -> weight under one language; floors are computed on first sight.
    ASCII characters weigh nothing (they read alike in every candidate).

    Each weight is also written into *codes* (code point -> minus twice the weight,
    :class:`CharScorer`'s translate table), whose text form *table* is then stale."""

    __slots__ = ("codes", "language", "table")

    def __init__(self, language: str) -> None:
        super().__init__(letter_weights(language))
        self.update(dict.fromkeys(map(chr, range(0x80)), 0.0))
        self.language = language
        self.codes = bytearray([_UNKNOWN]) * _TABLE_SIZE
        for char, weight in self.items():
            self._record(char, weight)
        self.table = ""

    def _record(self, char: str, weight: float) -> None:
        code = -2 * weight
        if code != int(code) or not 0 <= code < _UNKNOWN:
            raise ValueError("character weights must be whole half nats in [-63.5, 0]")
        if ord(char) < _TABLE_SIZE:
            self.codes[ord(char)] = int(code)
            self.table = ""

    def __missing__(self, char: str) -> float:
        weight = floor_weight(char, self.language)
        if len(self) < _MAX_CACHED:  # gb18030 reaches every code point: stay bounded
            self[char] = weight
            self._record(char, weight)
        return weight


class CharScorer:
    """Scores the non-ASCII characters of a decoded text under one language."""

    __slots__ = ("_weights", "best")

    def __init__(self, language: str) -> None:
        self._weights = _Weights(language)
        #: the highest weight of a non-ASCII character (a letter's, or a floor)
        self.best = max(
            *letter_weights(language).values(),
            CJK_PUNCTUATION,
            COMMON_PUNCTUATION,
            FOREIGN_LETTER,
            SYMBOL,
            IMPOSSIBLE,
        )

    def score(self, text: str) -> float:
        """The summed weights of the non-ASCII characters of *text* (ASCII weighs 0).

        Every weight is a whole number of half nats, small: every partial sum of them
        is a float exactly, so the sum is the same in any order and grouping (and as a
        Python ``sum`` of the weights in order, the plain computation). It is taken in
        C: *text* translated to minus twice each weight (one character each, from a
        table of the BMP) and those codes summed as bytes by ``adler32``. A character
        without a weight in the table yet (seen for the first time, or beyond the BMP)
        leaves a non-ASCII one in the codes: then each character is looked up (and its
        floor written into the table for the next time).
        """
        weights = self._weights
        codes = text.translate(weights.table or self._table())
        if not codes.isascii():
            return sum(map(weights.__getitem__, text))
        total = byte_sum(codes.encode("ascii"), _CODES_CHUNK)
        # (``0 - total``: 0.0 for no weight, as the sum of none or of zeros, never -0.0)
        return (0 - total) / 2

    def _table(self) -> str:
        """The translate table (its text form rebuilt from the codes when stale)."""
        weights = self._weights
        weights.table = weights.codes.decode("latin-1")
        return weights.table


@cache
def char_scorer(language: str) -> CharScorer:
    return CharScorer(language)


#: Every language whose ASCII letters are scored as its own (the others use English's).
LATIN_LANGUAGES: Final = ("en", *sorted(LATIN - {"en"}))


@cache
def all_best_byte_table() -> bytes:
    """Each byte's best weight in any single-byte candidate and language (a
    :func:`half_nats` table): one bound for all."""
    tables = [best_byte_weights(name) for name in SINGLE_BYTE]
    return half_nats(tuple(max(weights) for weights in zip(*tables, strict=True)))


#: The script of each language that is not written in the Latin script.
_SCRIPTS: Final = {
    **dict.fromkeys(_CYRILLIC, "Cyrillic"),
    "el": "Greek",
    **dict.fromkeys(("he", "yi"), "Hebrew"),
    **dict.fromkeys(("ar", "fa", "ur"), "Arabic"),
    "th": "Thai",
}
#: Single-byte candidate -> its place in :data:`SINGLE_BYTE` (ties go to the first).
RANKS: Final = {name: rank for rank, name in enumerate(SINGLE_BYTE)}


@cache
def script_groups() -> tuple[tuple[bytes, tuple[str, ...], tuple[str, ...]], ...]:
    """The single-byte candidates by script: (each byte's best weight in any of them as
    a :func:`half_nats` table, their languages, the candidates), so that a script the
    bytes do not fit is ruled out with one bound."""
    groups: dict[str, list[str]] = {}
    for name, languages in SINGLE_BYTE.items():
        groups.setdefault(_SCRIPTS.get(languages[0], "Latin"), []).append(name)
    return tuple(
        (
            half_nats(tuple(map(max, *(best_byte_weights(name) for name in members))))
            if len(members) > 1
            else best_byte_table(members[0]),
            tuple(sorted({language for name in members for language in SINGLE_BYTE[name]})),
            tuple(members),
        )
        for members in groups.values()
    )


#: The Latin script's candidates in pairs of like repertoires, each with its own bound
#: (:func:`sub_groups`): text in another script rules most of them out without a sum
#: for each candidate.
_LATIN_SUBGROUPS: Final = (
    ("windows-1252", "ISO-8859-15"),
    ("windows-1250", "ISO-8859-2"),
    ("windows-1257", "ISO-8859-13"),
    ("ISO-8859-4", "ISO-8859-10"),
    ("windows-1254", "ISO-8859-3"),
    ("windows-1258", "ISO-8859-16"),
    ("macintosh", "ISO-8859-14"),
)


@cache
def sub_groups(members: tuple[str, ...]) -> tuple[tuple[bytes, tuple[str, ...]], ...]:
    """The smaller groups of a script group's *members* (as :func:`script_groups` gives
    them, each in :data:`SINGLE_BYTE`'s order), with each byte's best weight in any of
    them as a :func:`half_nats` table; ``()`` when it has none."""
    if sorted(members) != sorted(name for part in _LATIN_SUBGROUPS for name in part):
        return ()
    parts = [tuple(name for name in members if name in part) for part in _LATIN_SUBGROUPS]
    return tuple(
        (half_nats(tuple(map(max, *(best_byte_weights(name) for name in part)))), part)
        for part in parts
    )


def part_languages(names: tuple[str, ...]) -> tuple[str, ...]:
    """The languages of the single-byte candidates *names* (a smaller group), sorted."""
    return tuple(sorted({language for name in names for language in SINGLE_BYTE[name]}))


@cache
def max_single_byte_prior() -> float:
    return max(PRIORS.get(name, 0.0) for name in SINGLE_BYTE)
