#!/usr/bin/env python3
"""Generate the character-frequency tables of the detector.

Source: the word-frequency lists of ``wordfreq`` 3.1.1 (Robyn Speer et al.,
https://github.com/rspeer/wordfreq, data CC BY-SA 4.0: Wikipedia, subtitles,
news, books, web text, Twitter, Reddit), *not* the development corpus.
For each language the character frequency is the sum, over the words of its
"small" list, of the word's frequency times the number of times the character
occurs in it (lower-cased, NFC). Traditional Chinese is derived from the
Chinese list with wordfreq's own Traditional -> Simplified character mapping:
a traditional character gets the frequency of its simplified form. Thai is
not in wordfreq: its letters, vowel and tone marks get Zipf shares
(1 / (rank + 2)) from their approximate order of frequency in Thai text
(:data:`THAI_BY_FREQUENCY`, general knowledge of Thai orthography). Romanian
is written with s/t with comma below or, in every legacy encoding that has them
only, with cedilla: both spellings get the share of the pair. Estonian is not
in wordfreq either: its letters get approximate shares (:data:`ESTONIAN`,
general knowledge of Estonian orthography).

Each letter is written out as a bucket ``k`` with ``ln(p) ~= -k / 2``, where
``p`` is its share of all letters: the non-ASCII letters (what the candidate
encodings disagree on) and the ASCII letters a-z (which tell the languages
of one script apart).

Run ``pip install wordfreq==3.1.1 && python tools/gen_detect_tables.py``;
``--check`` verifies the checked-in module is up to date.
"""

from __future__ import annotations

import argparse
import gzip
import math
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "browser_decode" / "_detect" / "_frequencies.py"

#: language -> (wordfreq list, maximum number of characters to keep)
LANGUAGES: dict[str, tuple[str, int]] = {
    **{
        lang: (lang, 120)
        for lang in (
            *("en", "fr", "de", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "ca", "is"),
            *("cs", "sk", "pl", "hu", "sl", "sh", "ro"),  # windows-1250, ISO-8859-2, -16
            *("lt", "lv", "tr", "ru", "uk", "bg", "mk", "el", "he", "ar", "fa", "ur", "vi"),
        )
    },
    "ja": ("ja", 3000),
    "ko": ("ko", 2000),
    "zh-Hans": ("zh", 3000),
    "zh-Hant": ("zh", 3000),
    "th": ("", 100),
    "et": ("", 100),
}
MIN_SHARE = 2e-6  # rarer characters are left to the detector's floor
BUCKETS_PER_NAT = 2


def _load(name: str) -> list[list[str]]:
    import msgpack  # type: ignore[import-not-found]
    import wordfreq  # type: ignore[import-not-found]

    path = Path(wordfreq.__file__).parent / "data" / name
    with gzip.open(path) as f:
        return msgpack.load(f, raw=False, strict_map_key=False)  # type: ignore[no-any-return]


def _char_shares(wordlist: str) -> dict[str, float]:
    pack = _load(f"small_{wordlist}.msgpack.gz")
    counts: dict[str, float] = defaultdict(float)
    # pack[0] is a header; pack[i] holds the words of frequency 10 ** (-(i - 1) / 100).
    for index, bucket in enumerate(pack[1:]):
        freq = 10 ** (-index / 100)
        for word in bucket:
            for char in unicodedata.normalize("NFC", word.lower()):
                if unicodedata.category(char)[0] in "LM":
                    counts[char] += freq
    total = sum(counts.values())
    return {c: n / total for c, n in counts.items()}


def _traditional(simplified: dict[str, float]) -> dict[str, float]:
    mapping = _load("_chinese_mapping.msgpack.gz")
    to_simplified = {
        chr(int(t)) if isinstance(t, int) else t: chr(int(s)) if isinstance(s, int) else s
        for t, s in mapping.items()
    }
    # Each simplified character's share is split evenly among the Big5 characters
    # that it stands for: its traditional forms, and itself when Big5 has it.
    forms: dict[str, set[str]] = defaultdict(set)
    for trad, simp in to_simplified.items():
        if _in_big5(trad):
            forms[simp].add(trad)
    shares: dict[str, float] = defaultdict(float)
    for char, share in simplified.items():
        targets = forms.get(char, set()) | ({char} if _in_big5(char) else set())
        for target in targets:
            shares[target] += share / len(targets)
    total = sum(shares.values())
    return {c: n / total for c, n in shares.items()}


def _in_big5(char: str) -> bool:
    try:
        char.encode("big5")
    except UnicodeEncodeError:
        return False
    return True


#: Thai characters, most frequent first (approximate).
THAI_BY_FREQUENCY = (
    "\u0e32\u0e19\u0e23\u0e2d\u0e48\u0e01\u0e40\u0e07\u0e21\u0e22\u0e49\u0e25\u0e27\u0e14"
    "\u0e17\u0e35\u0e34\u0e2a\u0e15\u0e31\u0e30\u0e44\u0e1a\u0e04\u0e1b\u0e2b\u0e41\u0e02"
    "\u0e08\u0e1e\u0e38\u0e4c\u0e43\u0e0a\u0e39\u0e37\u0e47\u0e42\u0e36\u0e1c\u0e0b\u0e33"
    "\u0e16\u0e20\u0e18\u0e28\u0e1f\u0e13\u0e29\u0e0d\u0e09\u0e1d\u0e46\u0e10\u0e2f\u0e12"
    "\u0e2e\u0e24\u0e06\u0e11\u0e2c\u0e0e\u0e0f\u0e4a\u0e4b\u0e0c\u0e03\u0e05\u0e26\u0e4d"
    "\u0e3a\u0e45\u0e4e\u0e50\u0e51\u0e52\u0e53\u0e54\u0e55\u0e56\u0e57\u0e58\u0e59"
)  # not the archaic marks U+0E4F, U+0E5A, U+0E5B


#: Approximate letter shares (%) of Estonian text.
ESTONIAN = {
    "a": 9.1, "i": 8.5, "e": 8.0, "s": 7.9, "t": 6.6, "l": 5.7, "u": 5.0, "n": 4.8,
    "k": 4.5, "d": 3.8, "m": 3.6, "o": 3.5, "r": 3.0, "v": 2.1, "ä": 1.8, "g": 1.7,
    "h": 1.7, "j": 1.6, "p": 1.6, "õ": 1.0, "b": 0.9, "ü": 0.9, "ö": 0.3, "f": 0.1,
    "c": 0.05, "z": 0.03, "š": 0.03, "y": 0.03, "w": 0.02, "ž": 0.01, "x": 0.01, "q": 0.005,
}  # fmt: skip


def _estonian() -> dict[str, float]:
    total = sum(ESTONIAN.values())
    return {c: share / total for c, share in ESTONIAN.items()}


def _thai() -> dict[str, float]:
    assert len(set(THAI_BY_FREQUENCY)) == len(THAI_BY_FREQUENCY)
    weights = {c: 1 / (rank + 2) for rank, c in enumerate(THAI_BY_FREQUENCY)}
    total = sum(weights.values())
    return {c: w / total for c, w in weights.items()}


def _romanian(shares: dict[str, float]) -> dict[str, float]:
    shares = dict(shares)
    for comma, cedilla in (("\u0219", "\u015f"), ("\u021b", "\u0163")):
        both = shares.get(comma, 0.0) + shares.get(cedilla, 0.0)
        shares[comma] = shares[cedilla] = both
    return shares


def _quoted(text: str) -> str:
    """A double-quoted literal, as ``ruff format`` writes it (letters need no escapes)."""
    assert '"' not in text and "\\" not in text and text.isprintable(), text
    return f'"{text}"'


def _module() -> str:
    out = [
        "# GENERATED by tools/gen_detect_tables.py from wordfreq 3.1.1 word lists; do not edit.",
        "# Data: wordfreq (c) Robyn Speer, CC BY-SA 4.0, https://github.com/rspeer/wordfreq",
        "# (character frequencies derived from its word frequencies).",
        '"""Non-ASCII letters per language, by frequency bucket ``k``: ln(share) ~= -k / 2."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"BUCKETS_PER_NAT: Final = {BUCKETS_PER_NAT}",
        "",
        "LETTERS: Final[dict[str, tuple[tuple[int, str], ...]]] = {",
    ]
    zh = _char_shares("zh")
    for lang, (wordlist, limit) in sorted(LANGUAGES.items()):
        if lang == "zh-Hans":
            shares = zh
        elif lang == "zh-Hant":
            shares = _traditional(zh)
        elif lang == "th":
            shares = _thai()
        elif lang == "et":
            shares = _estonian()
        elif lang == "ro":
            shares = _romanian(_char_shares(wordlist))
        else:
            shares = _char_shares(wordlist)
        kept = sorted(
            (
                (s, c)
                for c, s in shares.items()
                if (not c.isascii() or c.islower()) and s >= MIN_SHARE
            ),
            key=lambda sc: (-sc[0], sc[1]),
        )[: limit + 26]
        buckets: dict[int, list[str]] = defaultdict(list)
        for share, char in kept:
            buckets[round(-math.log(share) * BUCKETS_PER_NAT)].append(char)
        out.append(f"    {_quoted(lang)}: (")
        for k in sorted(buckets):
            # expanded, with trailing commas, as ``ruff format`` keeps it
            chars = _quoted("".join(sorted(buckets[k])))
            out.extend(("        (", f"            {k},", f"            {chars},", "        ),"))
        out.append("    ),")
    out.append("}")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the module is stale")
    args = parser.parse_args()
    text = _module()
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date", file=sys.stderr)
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
