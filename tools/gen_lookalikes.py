#!/usr/bin/env python3
"""Derive the browser-vs-strict-codec look-alike pairs for ``normalize_for_matching``.

The same bytes of a CJK page decode to different code points in a browser
(the WHATWG index, e.g. Shift_JIS 0x81 0x60 -> U+FF5E FULLWIDTH TILDE) and in
Python's strict codecs (``shift_jis``: U+301C WAVE DASH). Text of one page
scraped both ways then fails to match. This script finds every such pair by
decoding every two-byte sequence (and EUC-JP's three-byte JIS X 0212 ones, and
gb18030's four-byte BMP ones) with browser_decode's WHATWG decoders, which are
generated from ``indexes.json``, and with each strict codec below; where both
give one non-ASCII-only code point and they differ, that is a pair.

Pairs are then grouped by their NFKC forms (union-find), and each group folds
to its smallest member: the fold table maps every other member to it.

Run ``python tools/gen_lookalikes.py`` to (re)write
``src/browser_decode/_text/lookalikes.py``; ``--check`` exits 1 if it is stale.
The result depends on Python's CJK codec tables, which have not changed in
years; the check test pins them.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from browser_decode import get_encoding

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "browser_decode" / "_text" / "lookalikes.py"

_TRAIL_SJIS = [*range(0x40, 0x7F), *range(0x80, 0xFD)]
_TRAIL_BIG5 = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
_TRAIL_GBK = [*range(0x40, 0x7F), *range(0x80, 0xFF)]
_EUC = range(0xA1, 0xFF)


def _shift_jis() -> Iterator[bytes]:
    for lead in [*range(0x81, 0xA0), *range(0xE0, 0xFD)]:
        for trail in _TRAIL_SJIS:
            yield bytes((lead, trail))


def _euc_jp() -> Iterator[bytes]:
    for lead in _EUC:
        for trail in _EUC:
            yield bytes((lead, trail))
            yield bytes((0x8F, lead, trail))
    for trail in range(0xA1, 0xE0):
        yield bytes((0x8E, trail))


def _big5() -> Iterator[bytes]:
    for lead in range(0x81, 0xFF):
        for trail in _TRAIL_BIG5:
            yield bytes((lead, trail))


def _euc_kr() -> Iterator[bytes]:
    for lead in range(0x81, 0xFF):
        for trail in range(0x41, 0xFF):
            yield bytes((lead, trail))


def _gbk() -> Iterator[bytes]:
    for lead in range(0x81, 0xFF):
        for trail in _TRAIL_GBK:
            yield bytes((lead, trail))


def _gb18030() -> Iterator[bytes]:
    yield from _gbk()
    for first in range(0x81, 0x85):  # the four-byte sequences of the BMP
        for second in range(0x30, 0x3A):
            for third in range(0x81, 0xFF):
                for fourth in range(0x30, 0x3A):
                    yield bytes((first, second, third, fourth))


#: WHATWG encoding -> (byte sequences, Python strict codecs that read them).
#: Python's JIS X 0213 codecs (``shift_jisx0213``, ``euc_jis_2004``, ...) are
#: left out: JIS X 0213 is another character set, which puts different
#: characters where cp932 (and so the WHATWG index) has its extension rows.
SOURCES = {
    "Shift_JIS": (_shift_jis, ("shift_jis", "cp932")),
    "EUC-JP": (_euc_jp, ("euc_jp",)),
    "Big5": (_big5, ("big5", "cp950", "big5hkscs")),
    "EUC-KR": (_euc_kr, ("euc_kr", "cp949")),
    "GBK": (_gbk, ("gb2312", "gbk")),
    "gb18030": (_gb18030, ("gb18030",)),
}


def find_pairs() -> dict[tuple[str, str], str]:
    """(browser char, strict char) -> where it was first seen.

    Two code points for the same bytes are a look-alike pair only when neither
    side can produce the other's code point anywhere: the browser's decoder
    never yields the strict one and the strict codec never yields the browser's
    one (a mapping disagreement, as U+FF5E/U+301C). Where a codec assigns a
    whole region differently (Python's ``big5`` without the ETEN extensions,
    the JIS X 0213 codecs over the cp932 extension rows), both characters exist
    on both sides and are different characters, not look-alikes. Private-use
    code points (the browser's user-defined areas) are never folded.
    """
    pairs: dict[tuple[str, str], str] = {}
    for name, (sequences, codecs) in SOURCES.items():
        encoding = get_encoding(name)
        assert encoding is not None
        browser_image: set[str] = set()
        strict_image: dict[str, set[str]] = {codec: set() for codec in codecs}
        found: list[tuple[str, str, str, bytes]] = []
        for data in sequences():
            browser = encoding.decode(data)
            if len(browser) == 1:
                browser_image.add(browser)
            for codec in codecs:
                try:
                    strict = data.decode(codec)
                except UnicodeDecodeError:
                    continue
                if len(strict) != 1:
                    continue
                strict_image[codec].add(strict)
                if len(browser) == 1 and strict != browser and not browser.isascii():
                    found.append((browser, strict, codec, data))
        for browser, strict, codec, data in found:
            if (
                strict not in browser_image
                and browser not in strict_image[codec]
                and "Co" not in (unicodedata.category(browser), unicodedata.category(strict))
                and browser != "\ufffd"
                and (browser, strict) not in pairs
            ):
                pairs[browser, strict] = f"{name} {data.hex(' ').upper()}: {codec}"
    return pairs


def _nfkc(char: str) -> str:
    return unicodedata.normalize("NFKC", char)


def fold_tables(pairs: dict[tuple[str, str], str]) -> tuple[dict[str, str], dict[str, str]]:
    """The folds: (before NFKC: raw code point -> raw code point, after NFKC: form -> form).

    Groups are built over NFKC forms. The representative is the smallest
    single-code-point form (or the smallest form if all have several code
    points). A single-code-point form folds after NFKC; a form of several
    code points (U+203E OVERLINE is NFKC " \u0305") cannot be a key, so the raw
    code points that produce it fold before NFKC to one that produces the
    representative.
    """
    parent: dict[str, str] = {}

    def find(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    raw: dict[str, set[str]] = {}
    for pair in pairs:
        for char in pair:
            raw.setdefault(_nfkc(char), set()).add(char)
        a, b = find(_nfkc(pair[0])), find(_nfkc(pair[1]))
        if a != b:
            parent[max(a, b, key=_order)] = min(a, b, key=_order)
    before: dict[str, str] = {}
    after: dict[str, str] = {}
    for node in parent:
        root = find(node)
        if node == root:
            continue
        assert not (node.isascii() and root.isascii()), f"folds two ASCII forms: {node}{root}"
        if len(node) == 1:
            after[node] = root
        else:
            for char in raw[node]:
                before[char] = min(raw[root])
    return before, after


def _order(form: str) -> tuple[int, ...]:
    return (len(form) > 1, *map(ord, form))


def _name(char: str) -> str:
    return " ".join(unicodedata.name(c, f"U+{ord(c):04X}") for c in char)


def _literal(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}" for c in text)


def render(pairs: dict[tuple[str, str], str]) -> str:
    before, after = fold_tables(pairs)
    lines = [
        "# GENERATED by tools/gen_lookalikes.py from the WHATWG indexes (via",
        "# browser_decode's decoders) and Python's strict CJK codecs; do not edit.",
        "",
        '"""Look-alike code points that browsers and strict codecs decode differently."""',
        "",
        "from __future__ import annotations",
        "",
        "TYPE_CHECKING = False",
        "if TYPE_CHECKING:",
        "    from typing import Final",
        "",
        "#: (browser's code point, strict codec's code point, where first seen).",
        "PAIRS: Final[tuple[tuple[int, int, str], ...]] = (",
    ]
    for (browser, strict), where in sorted(pairs.items()):
        lines.append(f'    (0x{ord(browser):04X}, 0x{ord(strict):04X}, "{where}"),')
    lines += [
        ")",
        "",
        "#: Before NFKC: code point -> code point (forms of several code points).",
        "PREFOLD: Final[dict[int, str]] = {",
    ]
    for key, value in sorted(before.items()):
        line = f'    0x{ord(key):04X}: "{_literal(value)}",  # {_name(key)} -> {_name(value)}'
        lines.append(line[:100])
    lines += [
        "}",
        "",
        "#: After NFKC: code point -> the form its look-alike group folds to.",
        "FOLD: Final[dict[int, str]] = {",
    ]
    for key, value in sorted(after.items()):
        line = f'    0x{ord(key):04X}: "{_literal(value)}",  # {_name(key)} -> {_name(value)}'
        lines.append(line[:100])
    lines += ["}", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the module is stale")
    args = parser.parse_args()
    pairs = find_pairs()
    text = render(pairs)
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is stale: run python tools/gen_lookalikes.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    before, after = fold_tables(pairs)
    print(f"wrote {OUTPUT}: {len(pairs)} pairs, {len(before)} + {len(after)} folds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
