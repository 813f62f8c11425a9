#!/usr/bin/env python3
"""Generate the character-frequency tables of the detector.

Source: the word-frequency lists of ``wordfreq`` 3.1.1 (Robyn Speer et al.,
https://github.com/rspeer/wordfreq, data CC BY-SA 4.0: Wikipedia, subtitles,
news, books, web text, Twitter, Reddit), *not* the development corpus.
For each language the character frequency is the sum, over the words of its
"small" list, of the word's frequency times the number of times the character
occurs in it (lower-cased, NFC). Traditional Chinese is derived from the
Chinese list with wordfreq's own Traditional -> Simplified character mapping:
a traditional character gets the frequency of its simplified form. Romanian
is written with s/t with comma below or, in every legacy encoding that has them
only, with cedilla: both spellings get the share of the pair.

Languages wordfreq lacks (:data:`MEASURED`: Maltese, Esperanto, Welsh, Irish,
Scottish Gaelic, Breton, Northern Sami, Faroese, Norwegian Nynorsk, Albanian,
Kurdish, Basque, Galician, Afrikaans, Occitan, Asturian, Estonian, Thai,
Belarusian, Serbian Cyrillic, Yiddish) are measured on the text of two other sources, each string
counted once: the locale data of CLDR as the ``babel`` package ships it
(names of territories, languages, scripts, months, days, units, currencies,
time zones, date fields; Unicode License v3) and the translations of the
Debian ``iso-codes`` package (names of countries, languages, scripts,
currencies in ``/usr/share/locale/<lang>/LC_MESSAGES/iso_*.mo``; LGPL-2.1+).
Only letters of the language's script count. These two sources are reserved
for statistics: nothing the detector is evaluated on comes from them.

Each letter is written out as a bucket ``k`` with ``ln(p) ~= -k / 2``, where
``p`` is its share of all letters: the non-ASCII letters (what the candidate
encodings disagree on) and the ASCII letters a-z (which tell the languages
of one script apart).

Run ``pip install wordfreq==3.1.1 babel==2.19.0`` (and ``apt-get install
iso-codes``, 4.15.0 here), then ``python tools/gen_detect_tables.py``;
``--check`` verifies the checked-in module is up to date.
"""

from __future__ import annotations

import argparse
import gettext
import gzip
import hashlib
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
    **{lang: ("", 100) for lang in ("th", "et", "be", "sr")},
    **{lang: ("", 100) for lang in ("yi",)},
    **{
        lang: ("", 120)
        for lang in (
            *("mt", "eo", "cy", "ga", "gd", "br", "se", "fo", "nn", "sq", "ku"),
            *("eu", "gl", "af", "oc", "ast"),
        )
    },
}
#: language -> (babel locale, iso-codes catalog folder, script of its letters)
MEASURED: dict[str, tuple[str, str, str]] = {
    "mt": ("mt", "mt", "LATIN"),
    "eo": ("eo", "eo", "LATIN"),
    "cy": ("cy", "cy", "LATIN"),
    "ga": ("ga", "ga", "LATIN"),
    "gd": ("gd", "gd", "LATIN"),
    "br": ("br", "br", "LATIN"),
    "se": ("se", "se", "LATIN"),
    "fo": ("fo", "fo", "LATIN"),
    "et": ("et", "et", "LATIN"),
    "th": ("th", "th", "THAI"),
    "be": ("be", "be", "CYRILLIC"),
    "sr": ("sr", "sr", "CYRILLIC"),
    "nn": ("nn", "nn", "LATIN"),
    "sq": ("sq", "sq", "LATIN"),
    "ku": ("ku", "kmr", "LATIN"),
    "eu": ("eu", "eu", "LATIN"),
    "gl": ("gl", "gl", "LATIN"),
    "af": ("af", "af", "LATIN"),
    "oc": ("oc", "oc", "LATIN"),
    "ast": ("ast", "ast", "LATIN"),
    "yi": ("yi", "yi", "HEBREW"),
}
ISO_CODES = Path("/usr/share/locale")
#: the parts of a CLDR locale that are text in its language (not patterns or codes)
BABEL_KEYS = (
    "territories", "languages", "scripts", "variants", "months", "days", "quarters", "eras",
    "day_periods", "currency_names", "currency_names_plural", "unit_display_names",
    "date_fields", "time_zones", "meta_zones",
)  # fmt: skip
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


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict) or hasattr(value, "values"):
        return [s for v in value.values() for s in _strings(v)]  # type: ignore[union-attr]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _measured_text(language: str) -> list[str]:
    """The strings of *language* in CLDR (through babel) and in iso-codes' catalogs."""
    from babel import localedata  # type: ignore[import-not-found]

    locale, folder, _ = MEASURED[language]
    data = localedata.load(locale, merge_inherited=False)
    strings = [s for key in BABEL_KEYS if key in data for s in _strings(data[key])]
    seen: set[str] = set()
    for path in sorted((ISO_CODES / folder / "LC_MESSAGES").glob("iso_*.mo")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest in seen:  # iso_3166.mo and iso_3166-1.mo hold the same catalog
            continue
        seen.add(digest)
        with open(path, "rb") as f:
            catalog = gettext.GNUTranslations(f)
        for key, value in sorted(catalog._catalog.items(), key=str):  # type: ignore[attr-defined]
            if isinstance(value, str) and value and value != key:
                strings.append(value)
    return sorted(set(strings))


def _measured_shares(language: str) -> dict[str, float]:
    script = MEASURED[language][2]
    counts: dict[str, float] = defaultdict(float)
    for text in _measured_text(language):
        for char in unicodedata.normalize("NFC", text.lower()):
            category, name = unicodedata.category(char), unicodedata.name(char, "")
            letter = category[0] == "L" and name.startswith(script)
            if letter or (category == "Mn" and script != "LATIN" and script in name):
                counts[char] += 1
    total = sum(counts.values())
    return {c: n / total for c, n in counts.items()}


def _romanian(shares: dict[str, float]) -> dict[str, float]:
    shares = dict(shares)
    for comma, cedilla in (("\u0219", "\u015f"), ("\u021b", "\u0163")):
        both = shares.get(comma, 0.0) + shares.get(cedilla, 0.0)
        shares[comma] = shares[cedilla] = both
    return shares


def _quoted(text: str) -> str:
    """A double-quoted literal (letters need no escapes)."""
    assert '"' not in text and "\\" not in text and text.isprintable(), text
    return f'"{text}"'


def _module() -> str:
    out = [
        "# GENERATED by tools/gen_detect_tables.py; do not edit.",
        "# Data: wordfreq 3.1.1 word lists (c) Robyn Speer, CC BY-SA 4.0,",
        "# https://github.com/rspeer/wordfreq (character frequencies derived from its word",
        "# frequencies); for the languages it lacks (MEASURED in the generator): CLDR",
        "# locale data (babel 2.19.0; Unicode License v3) and Debian iso-codes 4.15.0",
        "# translations (LGPL-2.1+), letters counted in their strings.",
        '"""Letters per language, by frequency bucket ``k``: ln(share) ~= -k / 2.',
        "",
        "Each language's table is one string, ``k letters k letters ...`` separated by",
        "spaces (letters are never spaces): cheap to compile and load, parsed on first use.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "TYPE_CHECKING = False",
        "if TYPE_CHECKING:",
        "    from typing import Final",
        "",
        f"BUCKETS_PER_NAT: Final = {BUCKETS_PER_NAT}",
        "",
        "LETTERS: Final[dict[str, str]] = {",
    ]
    zh = _char_shares("zh")
    for lang, (wordlist, limit) in sorted(LANGUAGES.items()):
        if lang == "zh-Hans":
            shares = zh
        elif lang == "zh-Hant":
            shares = _traditional(zh)
        elif lang in MEASURED:
            shares = _measured_shares(lang)
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
        table = " ".join(f"{k} {''.join(sorted(buckets[k]))}" for k in sorted(buckets))
        out.append(f"    {_quoted(lang)}: {_quoted(table)},")
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
