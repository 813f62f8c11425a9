#!/usr/bin/env python3
"""Build the validation corpus: every (encoding, language) pair used on the web, many sizes.

The corpus is for *measuring* detection (``benchmarks/bench_validation.py``) and
for tuning it without ever seeing the reported figures. It is written to
``--out`` (default ``/work/validation``) as two splits, ``tune/`` and
``report/``, which draw on disjoint sources. The data is never committed; this
script is, and rebuilds the same corpus from the same installed packages.

Sources (all text written by people, none of it the development corpus and none
of it what the detector's statistics are generated from: not wordfreq, not
CLDR/babel locale data, not Debian's iso-codes translations):

* ``gettext``: the compiled message catalogs (``*.mo``) of the Debian packages
  installed under ``/usr/share/locale`` (``--locale-dir``): translations of
  program messages by the packages' translators, each catalog under its
  package's licence (GPL-2+/GPL-3+/LGPL-2.1+ for glib, gtk, coreutils, grep,
  apt, dpkg, wget, PackageKit, Linux-PAM, ..., listed per file in
  ``/usr/share/doc/<package>/copyright``). The catalogs of ``iso-codes``
  (``iso_*.mo``) are excluded: they feed the detector's statistics. English
  text is the catalogs' message ids (the programs' own strings, same licences).
* ``man``: Debian's translated manual pages (``manpages-de``, ``-fr``, ``-pl``,
  ... and the translations shipped by other packages) under ``/usr/share/man/<lang>``
  (``--man-dir``), rendered to plain text with ``man``; GPL-2+ and the
  licences of the upstream pages (listed in ``/usr/share/doc/manpages-*/copyright``).
  Used when ``man`` is installed.
* ``ud``: for the languages the two sources above hardly hold (Maltese, Urdu), the
  sentences (``# text =`` lines) of Universal Dependencies treebanks given with
  ``--ud`` (a folder of ``<lang>_<name>-ud-<part>.conllu`` files, e.g. a clone of
  ``UniversalDependencies/UD_Maltese-MUDT``, CC BY-SA 4.0, or ``UD_Urdu-UDTB``,
  CC BY-NC-SA 4.0: newspaper and other written text annotated by the treebanks'
  authors). Each ``.conllu`` file (train, dev, test) is one unit.

Splits: every source unit (a catalog of one package in one language, or the
man pages of one section in one language) goes to one split only, greedily
balanced per language by size (the largest unit to ``report``); a message that
occurs in both splits' units (the same translation in two packages) is kept
only in ``report``. So tuning never sees a reported sentence.

Samples, for every pair of :data:`TABLE` with enough text in the split:

* ``size`` ``64``, ``256``, ``1024``, ``4096``: that many bytes of encoded text
  at most (cut at a character boundary), ``full``: 8 to 32 KB of joined
  messages (all there is, at least 4 KB, for a small language); each as
  ``kind`` ``text`` (the bytes alone) and ``html`` (the text, with ``&<>`` as
  entities, in ``<html><head><title>x</title></head><body><p>...</p></body></html>``,
  no charset);
* ``page24``, ``page64``, ``page200``: a stretch of 24, 64 or 200 characters in
  that minimal page (``kind`` ``html``; ``&<>`` dropped from the stretch), as in
  issue 13's short-page test (not for UTF-16).

Messages that are themselves mojibake (UTF-8 read as Latin-1 in the catalog,
"Â«%sÂ»") are left out. Every sample holds at least one non-ASCII character (a
window is placed around a random non-ASCII character of the joined messages):
pure ASCII needs no detection. Text is joined from whole messages (newlines as spaces), in a seeded
random order. Characters an encoding cannot represent are never dropped: a
message that does not survive ``encode`` followed by browser_decode's WHATWG
decoder unchanged is left out of that pair's pool (e.g. Welsh "ŵ" for
windows-1252, curly quotes for ISO-8859-15), with two exceptions that follow
what legacy pages did: Romanian comma-below letters (ș ț) are written with the
cedilla letters (ş ţ) where the encoding lacks them, and Vietnamese in
windows-1258 is written as the encoding composes it (base letter plus
combining tone mark, where the precomposed letter is missing), and Persian and Urdu
in windows-1256 and ISO-8859-6 write yeh (U+06CC) as the Arabic yeh (U+064A) and the
Urdu full stop (U+06D4) as ".". The truth of a
sample is ``get_encoding(encoding).decode(file bytes)``; the builder checks that
it equals the text it encoded.

Single-byte encodings are encoded with the inverse of browser_decode's own
tables; multi-byte ones with Python's codecs (``gbk``, ``gb18030``,
``big5hkscs``, ``cp932``, ``euc_jp``, ``iso2022_jp``, ``cp949``, ``utf-16-le``,
``utf-16-be``, ``utf-8``) and the round trip above.

Each split has ``manifest.jsonl``: one JSON object per sample, ``{"file",
"encoding", "language", "size", "kind", "source"}``; ``source`` is
``gettext:<dir>/<domain>+...``, ``man:<dir>/<section>+...`` or
``ud:<folder>/<file>+...`` for the units the
sample's messages come from.

    python tools/build_validation.py [--out DIR] [--seed 13] [--per 3] [--locale-dir DIR]
                                     [--man-dir DIR] [--no-man] [--ud DIR ...]

Deterministic for a given seed and set of installed catalogs.
"""

from __future__ import annotations

import argparse
import bisect
import gettext
import itertools
import json
import random
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from browser_decode import get_encoding

SPLITS = ("report", "tune")
TEXT_SIZES = ("64", "256", "1024", "4096", "full")
PAGE_SIZES = {"page24": 24, "page64": 64, "page200": 200}
PAGE_HEAD = b"<html><head><title>x</title></head><body><p>"
PAGE_TAIL = b"</p></body></html>"

#: language code -> the directories of /usr/share/locale (and /usr/share/man) that hold it.
#: "en" is the catalogs' message ids.
LANGUAGES: dict[str, tuple[str, ...]] = {
    "en": (), "fr": ("fr",), "de": ("de",), "es": ("es",), "it": ("it",),
    "pt": ("pt", "pt_BR", "pt_PT"), "nl": ("nl",), "sv": ("sv",), "da": ("da",),
    "nb": ("nb", "nb_NO", "no"), "nn": ("nn",), "fi": ("fi",), "is": ("is",), "fo": ("fo",),
    "ca": ("ca",), "gl": ("gl",), "eu": ("eu",), "ga": ("ga",), "gd": ("gd",), "cy": ("cy",),
    "br": ("br",), "oc": ("oc",), "ast": ("ast",), "af": ("af",), "id": ("id",), "ms": ("ms",),
    "sq": ("sq",), "et": ("et",), "lt": ("lt",), "lv": ("lv",),
    "cs": ("cs",), "sk": ("sk",), "pl": ("pl",), "hu": ("hu",), "sl": ("sl",), "hr": ("hr",),
    "ro": ("ro",), "bs": ("bs",), "sr-Latn": ("sr@latin", "sr@Latn"),
    "ru": ("ru",), "uk": ("uk",), "bg": ("bg",), "be": ("be",), "sr": ("sr",), "mk": ("mk",),
    "el": ("el",), "he": ("he",), "yi": ("yi",), "ar": ("ar",), "fa": ("fa",), "ur": ("ur",),
    "tr": ("tr",), "ku": ("ku", "kmr"), "eo": ("eo",), "mt": ("mt",), "vi": ("vi",),
    "th": ("th",), "ja": ("ja",), "ko": ("ko",), "zh-CN": ("zh_CN", "zh_Hans"),
    "zh-TW": ("zh_TW", "zh_Hant"), "zh-HK": ("zh_HK",),
}  # fmt: skip

_WESTERN = ("en", "fr", "de", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "ca")
_UTF16 = ("en", "fr", "de", "ru", "el", "ar", "he", "ja", "ko", "zh-CN", "zh-TW", "th", "vi")
#: WHATWG encoding -> the languages written in it on the web (see docs/detection.md).
TABLE: dict[str, tuple[str, ...]] = {
    "windows-1252": (*_WESTERN, "nn", "is", "fo", "gl", "eu", "ga", "gd", "cy", "br", "oc",
                     "ast", "af", "id", "ms", "sq", "et"),
    "ISO-8859-15": (*_WESTERN, "et", "eu", "gl"),
    "macintosh": (*_WESTERN, "is"),
    "ISO-8859-3": ("tr", "mt", "eo"),
    "ISO-8859-4": ("lt", "lv", "et"),
    "ISO-8859-10": ("is", "fo", "da", "nb", "sv", "fi"),
    "ISO-8859-13": ("lt", "lv", "et", "pl", "sl"),
    "ISO-8859-14": ("cy", "ga", "br", "gd"),
    "ISO-8859-16": ("ro", "pl", "hu", "hr", "sl"),
    "windows-1250": ("cs", "sk", "pl", "hu", "sl", "hr", "ro", "bs", "sr-Latn", "sq"),
    "ISO-8859-2": ("cs", "sk", "pl", "hu", "sl", "hr", "ro", "bs", "sr-Latn"),
    "windows-1257": ("lt", "lv", "et"),
    "windows-1251": ("ru", "uk", "bg", "be", "sr", "mk"),
    "KOI8-R": ("ru", "bg"),
    "KOI8-U": ("uk", "ru", "be"),
    "ISO-8859-5": ("ru", "bg", "sr", "mk"),
    "IBM866": ("ru", "bg"),
    "x-mac-cyrillic": ("ru", "uk", "bg", "sr", "mk", "be"),
    "ISO-8859-7": ("el",),
    "windows-1253": ("el",),
    "windows-1255": ("he", "yi"),
    "ISO-8859-8": ("he",),
    "ISO-8859-8-I": ("he",),
    "windows-1256": ("ar", "fa", "ur"),
    "ISO-8859-6": ("ar",),
    "windows-1254": ("tr", "ku"),
    "windows-1258": ("vi",),
    "windows-874": ("th",),
    "GBK": ("zh-CN",),
    "gb18030": ("zh-CN",),
    "Big5": ("zh-TW", "zh-HK"),
    "Shift_JIS": ("ja",),
    "EUC-JP": ("ja",),
    "ISO-2022-JP": ("ja",),
    "EUC-KR": ("ko",),
    "UTF-16LE": _UTF16,
    "UTF-16BE": _UTF16,
    "UTF-8": tuple(LANGUAGES),
}  # fmt: skip

#: Python codecs for the multi-byte encodings (the round trip through our decoder is checked).
CODECS = {
    "GBK": "gbk", "gb18030": "gb18030", "Big5": "big5hkscs", "Shift_JIS": "cp932",
    "EUC-JP": "euc_jp", "ISO-2022-JP": "iso2022_jp", "EUC-KR": "cp949",
    "UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be", "UTF-8": "utf-8",
}  # fmt: skip

MAN_PAGES = 120  # at most this many pages of one section in one language
MIN_POOL = 3000  # characters of usable text a pair needs in a split
_SPACES = re.compile(r"\s+")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd]")
_ROMANIAN = str.maketrans("ȘșȚț", "ŞşŢţ")
#: Persian/Urdu yeh (U+06CC) and the Urdu full stop (U+06D4), which windows-1256 lacks,
#: as pages in it wrote them: Arabic yeh (U+064A) and ".".
_ARABIC_SCRIPT = str.maketrans("\u06cc\u06d4", "\u064a.")


@dataclass
class Unit:
    """One source unit: the messages of one catalog (or man section) in one language."""

    name: str
    messages: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(len(m) for m in self.messages)


def _mojibake(text: str) -> bool:
    """Whether *text* is UTF-8 that was read as Latin-1 or windows-1252 ("Â«%sÂ»"):
    a few translations carry such mojibake, which is not a correct text."""
    for codec in ("latin-1", "cp1252"):
        try:
            data = text.encode(codec)
            data.decode("utf-8")
        except UnicodeError:
            continue
        if not data.isascii():
            return True
    return False


def clean(message: str) -> str | None:
    text = _SPACES.sub(" ", message).strip()
    if len(text) < 8 or _CONTROL.search(text) or _mojibake(text):
        return None
    return text


def _catalog(path: Path) -> dict[object, str] | None:
    try:
        with open(path, "rb") as f:
            catalog = gettext.GNUTranslations(f)
    except (OSError, ValueError, IndexError, KeyError):
        return None
    return catalog._catalog  # type: ignore[attr-defined,no-any-return]


def gettext_units(locale_dir: Path) -> dict[str, list[Unit]]:
    """language -> its catalogs (``iso_*`` excluded), each a unit; English = message ids."""
    units: dict[str, list[Unit]] = defaultdict(list)
    english: dict[str, Unit] = {}
    for language, dirs in LANGUAGES.items():
        for directory in dirs:
            for path in sorted((locale_dir / directory / "LC_MESSAGES").glob("*.mo")):
                domain = path.stem
                if domain.startswith("iso_") or domain == "iso-codes":
                    continue
                catalog = _catalog(path)
                if not catalog:
                    continue
                unit = Unit(f"gettext:{directory}/{domain}")
                ids = None
                if domain not in english:
                    ids = english[domain] = Unit(f"gettext:msgid/{domain}")
                for key, value in catalog.items():
                    msgid = key[0] if isinstance(key, tuple) else key
                    if not isinstance(msgid, str) or not msgid or not isinstance(value, str):
                        continue
                    if ids is not None and (text := clean(msgid)):
                        ids.messages.append(text)
                    if value != msgid and (text := clean(value)):
                        unit.messages.append(text)
                if unit.messages:
                    units[language].append(unit)
    units["en"] = [unit for _, unit in sorted(english.items()) if unit.messages]
    return units


def man_units(man_dir: Path) -> dict[str, list[Unit]]:
    """language -> one unit per man section directory, rendered to plain text by ``man``."""
    units: dict[str, list[Unit]] = defaultdict(list)
    if shutil.which("man") is None:
        return units
    for language, dirs in LANGUAGES.items():
        for directory in dirs:
            for section in sorted((man_dir / directory).glob("man*")):
                unit = Unit(f"man:{directory}/{section.name}")
                for page in sorted(section.iterdir())[:MAN_PAGES]:
                    try:
                        rendered = subprocess.run(
                            ["man", "-l", "-E", "UTF-8", "-P", "cat", str(page)],
                            capture_output=True,
                            timeout=30,
                            env={"MANWIDTH": "10000", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
                            check=False,
                        ).stdout.decode("utf-8", "replace")
                    except (OSError, subprocess.SubprocessError):
                        continue
                    rendered = re.sub(".\b", "", rendered)  # overstrike bold/underline
                    for paragraph in re.split(r"\n\s*\n", rendered):
                        if (text := clean(paragraph)) and len(text) >= 40:
                            unit.messages.append(text)
                if unit.messages:
                    units[language].append(unit)
    return units


#: treebank file prefix (ISO 639-1) -> our language code, for the languages ``--ud`` may feed.
UD_LANGUAGES = {"mt": "mt", "ur": "ur"}


def ud_units(folders: list[Path]) -> dict[str, list[Unit]]:
    """language -> one unit per ``.conllu`` file: its sentences (``# text = ...``)."""
    units: dict[str, list[Unit]] = defaultdict(list)
    for folder in folders:
        for path in sorted(folder.glob("*.conllu")):
            language = UD_LANGUAGES.get(path.name.split("_", 1)[0])
            if language is None:
                continue
            unit = Unit(f"ud:{folder.name}/{path.name}")
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.startswith("# text =") and (text := clean(line[8:])):
                        unit.messages.append(text)
            if unit.messages:
                units[language].append(unit)
    return units


def split_units(units: list[Unit]) -> dict[str, list[Unit]]:
    """Disjoint splits, greedily balanced by size; a message in both stays in ``report``."""
    chosen: dict[str, list[Unit]] = {split: [] for split in SPLITS}
    sizes = dict.fromkeys(SPLITS, 0)
    for unit in sorted(units, key=lambda u: (-u.size, u.name)):
        split = min(SPLITS, key=lambda s: (sizes[s], SPLITS.index(s)))
        chosen[split].append(unit)
        sizes[split] += unit.size
    seen: set[str] = set()
    for split in SPLITS:  # report first
        for unit in chosen[split]:
            kept = [m for m in unit.messages if m not in seen]
            seen.update(kept)
            unit.messages[:] = list(dict.fromkeys(kept))
    return chosen


# -- encoders -------------------------------------------------------------------


def _single_byte_table(name: str) -> dict[int, int]:
    encoding = get_encoding(name)
    assert encoding is not None, name
    table = {}
    for byte in range(0x80, 0x100):
        char = encoding.decode(bytes([byte]))
        if len(char) == 1 and char != "\ufffd":
            table[ord(char)] = byte
    return table


class Encoder:
    """Encode text in a WHATWG encoding so that its WHATWG decoder gives the text back."""

    def __init__(self, name: str, language: str) -> None:
        self.name = name
        self.language = language
        decoder = get_encoding(name)
        assert decoder is not None, name
        self._decode = decoder.decode
        self._table: dict[int, int] | None = None
        if name not in CODECS:
            self._table = _single_byte_table(name)

    def prepare(self, text: str) -> str:
        """The text as a legacy page in this encoding writes it (see the docstring)."""
        if self.language == "ro" and self._table is not None and ord("ș") not in self._table:
            text = text.translate(_ROMANIAN)
        if self.language in ("fa", "ur") and self._table is not None and 0x6CC not in self._table:
            text = text.translate(_ARABIC_SCRIPT)
        if self.name == "windows-1258" and self._table is not None:
            text = "".join(self._compose_1258(char) for char in text)
        return text

    def _compose_1258(self, char: str) -> str:
        """*char* as windows-1258 writes it: a precomposed letter of the encoding
        plus the combining marks it lacks ("ệ" is "ê" + U+0323)."""
        table = self._table
        assert table is not None
        if ord(char) < 0x80 or ord(char) in table:
            return char
        decomposed = unicodedata.normalize("NFD", char)
        base, marks = decomposed[0], decomposed[1:]
        for size in range(len(marks), -1, -1):
            for kept in itertools.combinations(range(len(marks)), size):
                letter = unicodedata.normalize("NFC", base + "".join(marks[i] for i in kept))
                rest = "".join(mark for i, mark in enumerate(marks) if i not in kept)
                if all(ord(c) < 0x80 or ord(c) in table for c in letter + rest):
                    return letter + rest
        return char

    def encode(self, text: str) -> bytes | None:
        """The bytes, or ``None`` if the text does not survive the round trip."""
        if self._table is not None:
            table = self._table
            out = bytearray()
            for char in text:
                code = ord(char)
                if code < 0x80:
                    out.append(code)
                elif code in table:
                    out.append(table[code])
                else:
                    return None
            data = bytes(out)
        else:
            try:
                data = text.encode(CODECS[self.name])
            except UnicodeEncodeError:
                return None
        return data if self._decode(data) == text else None


# -- samples --------------------------------------------------------------------


@dataclass
class Pool:
    """The usable messages of one (encoding, language) pair in one split, joined."""

    text: str
    owners: list[tuple[int, str]]  # (start offset, unit name), ascending
    non_ascii: list[int]

    def sources(self, start: int, end: int) -> str:
        offsets = [offset for offset, _ in self.owners]
        first = max(0, bisect.bisect_right(offsets, start) - 1)
        last = max(first + 1, bisect.bisect_left(offsets, end))
        return "+".join(sorted({name for _, name in self.owners[first:last]}))


def make_pool(units: list[Unit], encoder: Encoder, rng: random.Random) -> Pool | None:
    items = []
    for unit in units:
        for message in unit.messages:
            text = encoder.prepare(message)
            if encoder.encode(text) is not None:
                items.append((text, unit.name))
    rng.shuffle(items)
    parts: list[str] = []
    owners: list[tuple[int, str]] = []
    offset = 0
    for text, name in items:
        owners.append((offset, name))
        parts.append(text)
        offset += len(text) + 1
    joined = " ".join(parts)
    non_ascii = [i for i, char in enumerate(joined) if ord(char) >= 0x80]
    if len(joined) < MIN_POOL or not non_ascii:
        return None
    return Pool(joined, owners, non_ascii)


def _fit(text: str, limit: int, encode: Callable[[str], bytes | None]) -> tuple[str, bytes] | None:
    """The longest prefix of *text* that encodes to at most *limit* bytes."""
    low, high = 0, min(len(text), limit)
    best: tuple[str, bytes] | None = None
    while low <= high:
        middle = (low + high) // 2
        data = encode(text[:middle])
        if data is not None and len(data) <= limit:
            best = (text[:middle], data)
            low = middle + 1
        else:
            high = middle - 1
    return best


def window(pool: Pool, rng: random.Random, chars: int) -> tuple[int, int]:
    """A stretch of about *chars* characters, starting at a word, around a non-ASCII one."""
    anchor = rng.choice(pool.non_ascii)
    start = max(0, anchor - rng.randrange(max(1, chars // 2)))
    space = pool.text.rfind(" ", 0, start)
    start = 0 if space < 0 or start - space > 40 else space + 1
    end = min(len(pool.text), start + chars)
    if end - start < chars and start > 0:  # near the end of the pool: move back
        start = max(0, end - chars)
        space = pool.text.find(" ", start, anchor)
        start = start if space < 0 else space + 1
    if end <= anchor:
        end = min(len(pool.text), anchor + 1)
    return start, end


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def samples_for_pair(
    pool: Pool, encoder: Encoder, rng: random.Random, per: int
) -> Iterable[tuple[str, str, bytes, str]]:
    """(size, kind, bytes, source) for one pair in one split."""
    bytes_per_char = max(1, len(encoder.encode(pool.text[:2000]) or b"") // 2000 or 1)
    for size in TEXT_SIZES:
        for kind in ("text", "html"):
            count = max(1, per - 1) if size == "full" else per
            for _ in range(count):
                for _attempt in range(20):
                    if size == "full":
                        target = rng.randrange(8192, 32768)
                        chars = target // bytes_per_char + 1
                        if len(pool.text) < chars:
                            start, end = 0, len(pool.text)
                            if len(pool.text) * bytes_per_char < 4096:
                                break
                        else:
                            start, end = window(pool, rng, chars)
                    else:
                        target = int(size)
                        start, end = window(pool, rng, target + 8)
                    stretch = pool.text[start:end]
                    fitted = _fit(stretch, target, encoder.encode)
                    if fitted is None or fitted[0].isascii():
                        continue
                    text, data = fitted
                    if kind == "html":
                        wrapped = encoder.encode(escape(text))
                        if wrapped is None:
                            continue
                        data = PAGE_HEAD + wrapped + PAGE_TAIL
                    yield size, kind, data, pool.sources(start, start + len(text))
                    break
    if encoder.name.startswith("UTF-16"):
        return
    for size, chars in PAGE_SIZES.items():
        for _ in range(per + 1):
            for _attempt in range(20):
                start, _ = window(pool, rng, chars)
                end = start + chars
                text = re.sub("[&<>]", " ", pool.text[start:end])
                if len(text) < chars or text.isascii():
                    continue
                data = encoder.encode(text)
                if data is None:
                    continue
                yield size, "html", PAGE_HEAD + data + PAGE_TAIL, pool.sources(start, end)
                break


def build(
    out: Path,
    units_by_language: dict[str, list[Unit]],
    *,
    seed: int,
    per: int,
    log: Callable[[str], None] = print,
) -> dict[str, int]:
    """Write both splits under *out*; return the number of samples per split."""
    splits = {language: split_units(units) for language, units in units_by_language.items()}
    counts = {}
    for split in SPLITS:
        root = out / split
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        rows = []
        skipped = []
        for encoding, languages in TABLE.items():
            for language in languages:
                units = splits.get(language, {}).get(split, [])
                rng = random.Random(f"{seed}/{split}/{encoding}/{language}")
                encoder = Encoder(encoding, language)
                pool = make_pool(units, encoder, rng) if units else None
                if pool is None:
                    skipped.append(f"{encoding}/{language}")
                    continue
                folder = root / encoding / language
                folder.mkdir(parents=True, exist_ok=True)
                numbers: dict[tuple[str, str], int] = defaultdict(int)
                for size, kind, data, source in samples_for_pair(pool, encoder, rng, per):
                    number = numbers[size, kind]
                    numbers[size, kind] += 1
                    name = f"{size}-{kind}-{number}.{'html' if kind == 'html' else 'txt'}"
                    (folder / name).write_bytes(data)
                    rows.append(
                        {
                            "file": f"{encoding}/{language}/{name}",
                            "encoding": encoding,
                            "language": language,
                            "size": size,
                            "kind": kind,
                            "source": source,
                        }
                    )
        with open(root / "manifest.jsonl", "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        counts[split] = len(rows)
        pairs = len({(r["encoding"], r["language"]) for r in rows})
        log(f"{split}: {len(rows)} samples, {pairs} pairs; no text for: {' '.join(skipped)}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/validation"))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--per", type=int, default=3, help="samples per pair, size and kind")
    parser.add_argument("--locale-dir", type=Path, default=Path("/usr/share/locale"))
    parser.add_argument("--man-dir", type=Path, default=Path("/usr/share/man"))
    parser.add_argument("--no-man", action="store_true", help="gettext catalogs only")
    parser.add_argument(
        "--ud",
        type=Path,
        action="append",
        default=[],
        help="a folder of Universal Dependencies .conllu files (Maltese, Urdu); repeatable",
    )
    args = parser.parse_args(argv)
    units = gettext_units(args.locale_dir)
    if not args.no_man:
        for language, more in man_units(args.man_dir).items():
            units.setdefault(language, []).extend(more)
    for language, more in ud_units(args.ud).items():
        units.setdefault(language, []).extend(more)
    build(args.out, units, seed=args.seed, per=args.per)
    return 0


if __name__ == "__main__":
    sys.exit(main())
