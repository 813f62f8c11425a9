"""``repair``: undo a wrong single-byte decode of a whole response, exactly.

Strategy: text that an ISO-8859-1 or windows-1252 decoder produced holds one
code point per byte, and both decoders are one-to-one, so the bytes come back
exactly by running the decoder's table backwards (requests' ``response.text``
for a ``text/*`` response without a charset is ``body.decode("iso-8859-1")``).
The recovered bytes are then decoded by :func:`decode_body`'s rules and the
result is *verified* before it replaces the text:

1. no U+FFFD introduced (the recovered bytes are well-formed in the encoding
   the rules chose), and the text changes;
2. the decision rests on evidence: a BOM, a declaration (header, ``<meta>``,
   XML declaration), bytes that are valid UTF-8 (random Latin-1 text almost
   never is), the type's default, or a mark in the input that only a wrong
   decode leaves (C1 controls, U+0000 as a quarter of the text, ISO-2022-JP
   escapes);
3. otherwise statistical detection chose the encoding, and a guess replaces
   the text only when the text itself shows it was garbled (runs of three or
   more non-ASCII characters, symbols inside words, or accented letters that no
   single language uses together: never symbols alone), the new reading is
   plausible (its letters are of one script, and of one language's alphabet for
   Latin script) and it is no more garbled by charset-normalizer's mess ratio.
   The detector's score plays no part, so correct text stays correct whatever
   the detector answers for its bytes. When the caller gave a
   *default_encoding*, an unverified detection yields to it instead, if the
   bytes read cleanly in it and the detector does not rank windows-1252 first
   or second (the text as it stands would then be a plausible reading).

Anything else comes back unchanged with the reason. Each repair carries a
replayable plan (:meth:`RepairResult.replay`, :func:`apply_plan`), after
ftfy's ``ExplainedText``.
"""

from __future__ import annotations

import enum
import re
import unicodedata

from .._api import result_from_hint
from .._decode_body import decode_body
from .._frozen import checked_as_dataclass
from .._get_an_encoding import ENCODINGS, get_encoding
from .._hint import EncodingHint
from .._result import Confidence, DecodeResult, Provenance, PublicEnumType, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NamedTuple
else:
    from .._frozen import NamedTuple

__all__ = [
    "RepairResult",
    "RepairStatus",
    "RepairStep",
    "apply_plan",
    "repair",
]


class RepairStatus(str, enum.Enum, metaclass=PublicEnumType):
    """What :func:`repair` concluded."""

    #: The text was a wrong decode; it now holds the properly decoded bytes.
    REPAIRED = "repaired"
    #: The text reads the same under the rules (ASCII, or already right).
    UNNEEDED = "unneeded"
    #: The text is not the output of a reversible wrong decode, or the
    #: recovered bytes do not verify; nothing was changed.
    IMPOSSIBLE = "impossible"

    def __str__(self) -> str:
        return self.value


class RepairStep(NamedTuple):
    """One step of a repair plan.

    ``("encode", "iso-8859-1" | "windows-1252")``: run that WHATWG/ISO decoder
    backwards, giving the original bytes; ``("skip", "<n>")``: drop *n* leading
    bytes (a BOM); ``("decode", "<WHATWG encoding name>")``: decode the bytes.
    """

    action: str
    parameter: str


@checked_as_dataclass(frozen=True)
class RepairResult:
    """The outcome of :func:`repair`.

    Attributes:
        text: the repaired text, or the input unchanged.
        changed: whether *text* differs from the input (status ``repaired``).
        status: ``repaired``, ``unneeded`` or ``impossible``.
        wrong_decoding: the decode that garbled the text (``"ISO-8859-1"`` or
            ``"windows-1252"``) when its inverse applies, else ``None``.
        provenance: how the recovered bytes were decoded (``None`` when no bytes
            could be recovered).
        reason: one sentence for humans.
        plan: the steps that turn the input into *text* (empty if unchanged).

    A frozen dataclass in behaviour (``dataclasses.fields``, ``replace``, ``asdict`` work
    on it), without importing :mod:`dataclasses` (see ``_frozen``).
    """

    __slots__ = __match_args__ = (
        "text",
        "changed",
        "status",
        "wrong_decoding",
        "provenance",
        "reason",
        "plan",
    )

    text: str
    changed: bool
    status: RepairStatus
    wrong_decoding: str | None
    provenance: Provenance | None
    reason: str
    plan: tuple[RepairStep, ...]

    def __init__(
        self,
        text: str,
        changed: bool,
        status: RepairStatus,
        wrong_decoding: str | None,
        provenance: Provenance | None,
        reason: str,
        plan: tuple[RepairStep, ...] = (),
    ) -> None:
        _set = object.__setattr__
        _set(self, "text", text)
        _set(self, "changed", changed)
        _set(self, "status", status)
        _set(self, "wrong_decoding", wrong_decoding)
        _set(self, "provenance", provenance)
        _set(self, "reason", reason)
        _set(self, "plan", plan)

    def replay(self, text: str) -> str:
        """Apply :attr:`plan` to *text* (``result.replay(input) == result.text``)."""
        return apply_plan(text, self.plan)


# ISO-8859-1 (Python's "latin-1", requests' default): byte b <-> U+00bb.
_NOT_LATIN1: Final = re.compile("[^\x00-\xff]")
# windows-1252 as the Encoding Standard decodes it: bytes 0x80-0x9F give the
# index code points ("€", "‚", ...), and the five bytes the index leaves out
# (0x81, 0x8D, 0x8F, 0x90, 0x9D) give U+0081 ... U+009D, so it is one-to-one
# too. Python's cp1252 agrees on the other 251 bytes and fails on those five.
_WINDOWS_1252_TEXT: Final = ENCODINGS["windows-1252"].decode(bytes(range(256)))
# str.translate table: each windows-1252 code point -> the code point of its byte.
_WINDOWS_1252_TO_BYTES: Final = {
    ord(char): byte for byte, char in enumerate(_WINDOWS_1252_TEXT) if ord(char) != byte
}
_NOT_WINDOWS_1252: Final = re.compile(
    "[^" + "".join(re.escape(char) for char in sorted(set(_WINDOWS_1252_TEXT))) + "]"
)
# Sources whose decision is evidence enough (see the module docstring).
_DECLARED: Final = frozenset({Source.BOM, Source.HEADER, Source.META, Source.UTF8, Source.DEFAULT})


def _encode(text: str, wrong_decoding: str) -> bytes:
    """Run the *wrong_decoding* decoder backwards (the text must be in its range)."""
    if wrong_decoding == "iso-8859-1":
        return text.encode("latin-1")
    if wrong_decoding == "windows-1252":
        return text.translate(_WINDOWS_1252_TO_BYTES).encode("latin-1")
    raise ValueError(f"cannot undo a {wrong_decoding!r} decode")


def _recover(text: str) -> tuple[str, bytes] | None:
    """The wrong decoder whose inverse applies, and the bytes; ``None`` if neither."""
    if _NOT_LATIN1.search(text) is None:
        return "iso-8859-1", text.encode("latin-1")
    if _NOT_WINDOWS_1252.search(text) is None:
        return "windows-1252", _encode(text, "windows-1252")
    return None


def apply_plan(text: str, plan: tuple[RepairStep, ...] | list[RepairStep]) -> str:
    """Replay a repair *plan* on *text* (``apply_plan(input, result.plan) == result.text``)."""
    data = b""
    for action, parameter in plan:
        if action == "encode":
            data = _encode(text, parameter)
        elif action == "skip":
            data = data[int(parameter) :]
        elif action == "decode":
            encoding = get_encoding(parameter)
            if encoding is None:
                raise ValueError(f"unknown encoding in plan: {parameter!r}")
            text = encoding.decode(data)
        else:
            raise ValueError(f"unknown repair action: {action!r}")
    return text


# Marks that no correct text has: C1 controls (U+0080-U+009F; an ISO-8859-1
# decode of bytes 0x80-0x9F made them) and ISO-2022-JP escape sequences
# (ESC $ B, ESC ( B, ...: 7-bit Japanese read as ASCII).
_HARD_MARK: Final = re.compile("[\x80-\x9f]|\x1b(?:\\$[@B]|\\([BIJ])")
# Three or more non-ASCII characters in a row: what a non-Latin script or a
# CJK encoding becomes when read as Latin-1 ("Ïðèâåò", "ÄãºÃ"); a Latin-script
# language rarely puts even two accented letters side by side.
_RUN: Final = re.compile("[^\x00-\x7f]{3,}")
# A Latin-1 symbol between two letters ("Pøíli¹ ¾lu»ouèký"): a Central
# European letter that a Latin-1 reading turned into a symbol. The middle dot
# (Catalan "col·lecció") is left out; º and ª are letters.
_SYMBOL_IN_WORD: Final = re.compile(
    "(?<=[^\\W\\d_])[\xa1-\xa9\xab-\xb4\xb6\xb8\xb9\xbb-\xbf\xd7\xf7](?=[^\\W\\d_])"
)
# A letter of a non-Latin alphabet touching an ASCII letter.
_MIXED_WORD: Final = re.compile(
    "[A-Za-z](?=[^\\W\\d_\\x00-\\u024f])|(?<=[^\\W\\d_\\x00-\\u024f])[A-Za-z]"
)
# A reading whose mess ratio (charset-normalizer's) is higher than the input's
# by more than this is never taken.
_MESS_TOLERANCE: Final = 0.02

# The non-ASCII letters of the Latin-script languages (lower case; "é" is
# added to all as the commonest loan). A text whose accented letters no single
# one of them uses together ("ý", "ð" and "þ" with "ç" and "ü": Turkish read as
# Latin-1) is a wrong decode; a repaired text must fit one of them (or one
# non-Latin script). Alphabets are facts about the languages, not statistics.
_LATIN_ALPHABETS: Final = (
    "àâçéèêëîïôöüñ",  # English, with its common loans
    "àâæçéèêëîïôœùûüÿ",  # French
    "äöüßé",  # German
    "áéíñóúü",  # Spanish, Asturian, Galician, Basque
    "áâãàçéêíóôõúü",  # Portuguese
    "àèéìíîòóùú",  # Italian
    "àçéèíïòóúü",  # Catalan, Occitan
    "áéíóúàèëïöüäâêôû",  # Dutch
    "åäöéü",  # Swedish
    "æøåéèóôàü",  # Danish, Norwegian
    "äöåšžé",  # Finnish
    "áðéíóúýþæö",  # Icelandic
    "áðíóúýæøé",  # Faroese
    "äöõüšžé",  # Estonian
    "áéíóú",  # Irish
    "àèìòùáéó",  # Scottish Gaelic
    "âêîôûŵŷäëïöüáéíóúàèìòù",  # Welsh
    "âêîôûùüñëéè",  # Breton
    "áéèêëíîïóôöúûüýŉ",  # Afrikaans
    "çëé",  # Albanian
    "çğıöşüâîûéİ",  # Turkish
    "çəğıöşüé",  # Azerbaijani
    "çêîşûé",  # Kurdish
    "áéíóöőúüű",  # Hungarian
    "áčďéěíňóřšťúůýž",  # Czech
    "áäčďéíĺľňóôŕšťúýž",  # Slovak
    "ąćęłńóśźżé",  # Polish
    "čćđšžé",  # Slovene, Croatian, Bosnian, Serbian (Latin)
    "ăâîșțşţé",  # Romanian
    "ąčęėįšųūžé",  # Lithuanian
    "āčēģīķļņšūžé",  # Latvian
    "ċġħżàèìòùé",  # Maltese
    "ĉĝĥĵŝŭé",  # Esperanto
)
_ALPHABET_SETS: Final = tuple(
    frozenset(letters) | frozenset(letters.upper()) for letters in _LATIN_ALPHABETS
)
# Letters a text in any language may borrow (names, quotations).
_LOANS: Final = frozenset("àâçéèêëîïôöüñáíóúäß" + "àâçéèêëîïôöüñáíóúä".upper())
_VIETNAMESE_MARKS: Final = frozenset("\u0300\u0301\u0302\u0303\u0306\u0309\u031b\u0323")
# Scripts whose letters may be mixed in one text (Japanese kana and kanji, ...).
_SCRIPT_GROUPS: Final = {
    "HIRAGANA": "CJK", "KATAKANA": "CJK", "CJK": "CJK", "HANGUL": "CJK",
    "HALFWIDTH": "CJK", "FULLWIDTH": "CJK", "IDEOGRAPHIC": "CJK", "BOPOMOFO": "CJK",
}  # fmt: skip


def _utf16_read_bytewise(text: str) -> bool:
    """Whether U+0000 makes up a quarter of *text* (at least 8 characters): UTF-16
    read one byte at a time (every ASCII character brings a NUL). A stray NUL in
    real text does not count."""
    return len(text) >= 8 and text.count("\x00") * 4 >= len(text)


def _hard_mark(text: str) -> bool:
    """Whether *text* shows a mark that only a wrong decode leaves (see above)."""
    return _HARD_MARK.search(text) is not None or _utf16_read_bytewise(text)


def _latin_letters(text: str) -> set[str]:
    """The distinct non-ASCII letters of *text* (U+00C0 ... U+024F, U+1E00 ... U+1EFF)."""
    return {
        char
        for char in set(text)
        if ("\xc0" <= char <= "\u024f" or "\u1e00" <= char <= "\u1eff") and char.isalpha()
    }


def _vietnamese(letters: set[str]) -> bool:
    """Whether all *letters* are Vietnamese: a, e, i, o, u, y with Vietnamese
    marks (tones, circumflex, breve, horn), or đ."""
    for letter in letters:
        decomposed = unicodedata.normalize("NFD", letter.lower())
        base, marks = decomposed[0], decomposed[1:]
        if letter not in "đĐ" and (base not in "aeiouy" or not set(marks) <= _VIETNAMESE_MARKS):
            return False
    return True


def _one_language(letters: set[str], loans: frozenset[str] = frozenset()) -> bool:
    """Whether one Latin-script language uses all of *letters* (with *loans*)."""
    return any(letters <= alphabet | loans for alphabet in _ALPHABET_SETS) or _vietnamese(
        letters - loans
    )


def _plausible(text: str) -> bool:
    """Whether *text* reads as one language: its non-ASCII letters are of one
    script, and its Latin letters of one language's alphabet, give or take the
    common loans (see above)."""
    scripts = set()
    for char in set(text):
        if char.isalpha() and not char.isascii() and not ("\xc0" <= char <= "\u024f"):
            if "\u1e00" <= char <= "\u1eff":
                continue  # Latin Extended Additional (Vietnamese): checked below
            name = unicodedata.name(char, "UNKNOWN").split(" ", 1)[0].split("-", 1)[0]
            scripts.add(_SCRIPT_GROUPS.get(name, name))
    if len(scripts) > 1:
        return False
    if scripts and "CJK" not in scripts:
        # An alphabet of another script inside Latin words ("abcdeκλιfg") is a
        # misreading; Japanese and Chinese do put ASCII words next to kanji.
        touching = len(_MIXED_WORD.findall(text))
        if touching > max(1, len(text) // 500):
            return False
    return _one_language(_latin_letters(text), _LOANS)


def _evidence(text: str) -> str | None:
    """Why *text*, taken alone, must be a wrong decode; ``None`` if nothing says so.

    Symbols alone ("§ 16", "© 2024", "25 °C") are never evidence: correct text
    is full of them, and their bytes mean a letter in some other encoding.
    """
    letters = [char for char in text if not char.isascii() and char.isalpha()]
    if not letters:
        return None
    if len(_SYMBOL_IN_WORD.findall(text)) >= 2:
        return "symbols inside words"
    if _one_language(_latin_letters(text)):
        return None  # even a run of them ("áéýúíóþæðö") may be an alphabet listed
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    in_runs = sum(len(run) for run in _RUN.findall(text))
    if in_runs >= 6 and in_runs * 10 >= non_ascii * 3:
        return "runs of non-ASCII characters that no Latin-script text has"
    return "accented letters that no single language uses together"


def _mess(text: str) -> float:
    from charset_normalizer.md import mess_ratio

    return float(mess_ratio(text, 1.0))


def _decode_as_hinted(
    data: bytes, text: str, label: str | None, detected: Provenance
) -> DecodeResult | None:
    """The recovered bytes in the caller's *default_encoding*, if that reads cleanly.

    Unverified detection yields to the caller's word (they know where the
    stored text came from), unless the detector itself ranks windows-1252 first
    or second for the bytes: then the text as it stands is a plausible reading
    and stays.
    """
    encoding = None if label is None else get_encoding(label)
    if encoding is None or "windows-1252" in (detected.encoding, detected.runner_up):
        return None
    hint = EncodingHint(encoding, Source.DEFAULT, Confidence.TENTATIVE, label=label)
    result = result_from_hint(data, hint)
    if result.provenance.replacements or result.text == text:
        return None
    return result


def _verify_detection(text: str, repaired: str, provenance: Provenance) -> str | None:
    """Why the detected reading *repaired* may not replace *text*; ``None`` if it may.

    Detection is a guess: it replaces the text only when the text itself shows
    that it was garbled (:func:`_evidence`), the new reading is plausible as one
    language, and it is no more garbled by charset-normalizer's mess measure.
    The detector's score is not used, so a correct text is safe whatever the
    detector answers for its bytes.
    """
    evidence = _evidence(text)
    if evidence is None:
        return (
            f"detection chose {provenance.encoding}, but nothing in the text shows a wrong "
            "decode (symbols alone, or accented letters that one language uses)"
        )
    if not _plausible(repaired):
        return (
            f"detection chose {provenance.encoding} ({evidence}), but that reading mixes "
            "scripts or alphabets"
        )
    before, after = _mess(text), _mess(repaired)
    if after > before + _MESS_TOLERANCE:
        return (
            f"detection chose {provenance.encoding} ({evidence}), but that reading is more "
            f"garbled (mess {before:.2f} -> {after:.2f})"
        )
    return None


def _unchanged(
    text: str,
    status: RepairStatus,
    reason: str,
    wrong: str | None = None,
    provenance: Provenance | None = None,
) -> RepairResult:
    return RepairResult(text, False, status, wrong, provenance, reason)


def repair(
    text: str,
    content_type: str | bytes | None = None,
    *,
    url: str | None = None,
    default_encoding: str | None = None,
) -> RepairResult:
    """Undo an ISO-8859-1 or windows-1252 decode of a whole body, when that verifies.

    *text* is what a wrong decode produced, typically requests'
    ``response.text`` for a response without a charset (ISO-8859-1), or a
    windows-1252 decode. *content_type*, *url* and *default_encoding* are the
    optional hints of :func:`decode_body` (``None``: the bytes are sniffed as
    HTML, which also reads ``<?xml encoding>``). Text that is not mojibake
    comes back unchanged (``changed`` false, with the reason).

    >>> garbled = "<meta charset=utf-8>caf\\u00c3\\u00a9"  # UTF-8 read as ISO-8859-1
    >>> result = repair(garbled)
    >>> result.text, result.wrong_decoding, str(result.provenance)
    ('<meta charset=utf-8>café', 'ISO-8859-1', 'UTF-8 (meta)')
    >>> repair("café").changed
    False
    """
    if not isinstance(text, str):
        raise TypeError(
            f"repair() takes the wrongly decoded text (str), not {type(text).__name__}; "
            "for raw bytes use decode_body()"
        )
    # ISO-2022-JP is 7-bit; many NULs are UTF-16 read byte by byte.
    if text.isascii() and "\x1b" not in text and not _utf16_read_bytewise(text):
        return _unchanged(text, RepairStatus.UNNEEDED, "ASCII text reads the same in any decode")
    recovered = _recover(text)
    if recovered is None:
        return _unchanged(
            text,
            RepairStatus.IMPOSSIBLE,
            "the text has characters that neither an ISO-8859-1 nor a windows-1252 "
            "decode produces (e.g. U+FFFD for lost bytes, or CJK): not undoable",
        )
    wrong, data = recovered
    wrong_name = "ISO-8859-1" if wrong == "iso-8859-1" else "windows-1252"
    result = decode_body(data, content_type, url=url, default_encoding=default_encoding)
    provenance = result.provenance
    if result.text == text:
        return _unchanged(
            text,
            RepairStatus.UNNEEDED,
            f"the recovered bytes decode to the same text ({provenance})",
            wrong_name,
            provenance,
        )
    if provenance.replacements:
        return _unchanged(
            text,
            RepairStatus.IMPOSSIBLE,
            f"the recovered bytes are not clean {provenance.encoding} "
            f"({provenance.replacements} malformed sequences)",
            wrong_name,
            provenance,
        )
    if provenance.source not in _DECLARED and not _hard_mark(text):
        refusal = _verify_detection(text, result.text, provenance)
        if refusal is not None:
            hinted = _decode_as_hinted(data, text, default_encoding, provenance)
            if hinted is None:
                return _unchanged(text, RepairStatus.IMPOSSIBLE, refusal, wrong_name, provenance)
            result = hinted
            provenance = result.provenance
    skip = 0
    if provenance.source is Source.BOM:
        skip = 3 if data.startswith(b"\xef\xbb\xbf") else 2
    plan: tuple[RepairStep, ...] = (RepairStep("encode", wrong),)
    if skip:
        plan += (RepairStep("skip", str(skip)),)
    plan += (RepairStep("decode", provenance.encoding),)
    return RepairResult(
        result.text,
        True,
        RepairStatus.REPAIRED,
        wrong_name,
        provenance,
        f"{wrong_name} decode undone; the bytes are {provenance}",
        plan,
    )


# Public in browser_decode, which imports this module on first use: reprs and pickles
# name the package, as for the names it imports at once.
for _public in (
    RepairResult,
    RepairStatus,
    RepairStep,
    repair,
):
    _public.__module__ = "browser_decode"
del _public
