#!/usr/bin/env python3
"""Detection on text it has never seen: translated messages of this machine's gettext catalogs.

A check independent of the development corpus: the ``.mo`` catalogs under
``/usr/share/locale`` (or ``--locale-dir``) hold real text written by
translators in dozens of languages. For each language, random messages are
joined into texts of a few sizes, encoded in the legacy encodings used for
that language, wrapped in a minimal HTML page, and given to the detection step
(valid UTF-8, detect, default). Right means exact text, as in
``bench_detect.py``. Characters an encoding lacks are dropped before encoding.

    python benchmarks/bench_detect_gettext.py [--sizes 60,150,600,2000] [--per 6] [--seed 1]
                                              [--peers]

With ``--peers``, charset-normalizer, chardet and cchardet (where installed)
answer the same texts, mapped as in ``bench_detect.py``.
"""

from __future__ import annotations

import argparse
import gettext
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

from bench_detect import Detector, ours, peers  # the sibling script

from browser_decode import get_encoding

#: catalog language -> (Python codec, WHATWG encoding) pairs to try
CASES: dict[str, list[tuple[str, str]]] = {
    "ru": [("cp1251", "windows-1251"), ("koi8_r", "KOI8-R"), ("cp866", "IBM866"),
           ("iso8859_5", "ISO-8859-5"), ("mac_cyrillic", "x-mac-cyrillic")],
    "uk": [("cp1251", "windows-1251"), ("koi8_u", "KOI8-U")],
    "bg": [("cp1251", "windows-1251")],
    "be": [("cp1251", "windows-1251")],
    "sr": [("cp1251", "windows-1251")],
    "el": [("iso8859_7", "ISO-8859-7"), ("cp1253", "windows-1253")],
    "he": [("cp1255", "windows-1255"), ("iso8859_8", "ISO-8859-8")],
    "ar": [("cp1256", "windows-1256"), ("iso8859_6", "ISO-8859-6")],
    "fa": [("cp1256", "windows-1256")],
    "tr": [("cp1254", "windows-1254")],
    "cs": [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")],
    "pl": [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")],
    "hu": [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")],
    "sk": [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")],
    "sl": [("cp1250", "windows-1250"), ("iso8859_2", "ISO-8859-2")],
    "hr": [("cp1250", "windows-1250")],
    "ro": [("cp1250", "windows-1250")],
    "lt": [("cp1257", "windows-1257")],
    "lv": [("cp1257", "windows-1257")],
    "et": [("cp1257", "windows-1257")],
    **{lang: [("cp1252", "windows-1252")]
       for lang in ("fr", "de", "es", "pt", "it", "nl", "sv", "da", "fi", "ca", "nb", "is")},
    "ja": [("cp932", "Shift_JIS"), ("euc_jp", "EUC-JP"), ("iso2022_jp", "ISO-2022-JP")],
    "ko": [("euc_kr", "EUC-KR")],
    "zh_CN": [("gbk", "GBK")],
    "zh_TW": [("big5", "Big5")],
    "th": [("cp874", "windows-874")],
    "vi": [("cp1258", "windows-1258")],
}  # fmt: skip


def messages(locale_dir: Path, language: str) -> list[str]:
    found = []
    for path in sorted((locale_dir / language / "LC_MESSAGES").glob("*.mo")):
        if path.name.startswith("iso_"):  # iso-codes: a source of the statistics
            continue
        try:
            with open(path, "rb") as f:
                catalog = gettext.GNUTranslations(f)
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        for value in catalog._catalog.values():  # type: ignore[attr-defined]
            if isinstance(value, str) and len(value) > 20 and "%" not in value:
                found.append(value.replace("\n", " "))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locale-dir", type=Path, default=Path("/usr/share/locale"))
    parser.add_argument("--sizes", default="60,150,600,2000")
    parser.add_argument("--per", type=int, default=6, help="texts per language, encoding, size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peers", action="store_true", help="also run the usual detectors")
    args = parser.parse_args()
    detectors: dict[str, Detector] = {"browser_decode": ours}
    if args.peers:
        detectors.update(peers())
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = random.Random(args.seed)
    texts: list[tuple[str, str, int, bytes]] = []
    for language, pairs in CASES.items():
        pool = messages(args.locale_dir, language)
        if len(pool) < 50:
            continue
        for codec, truth in pairs:
            for size in sizes:
                for _ in range(args.per):
                    text = ""
                    while len(text) < size:
                        text += rng.choice(pool) + " "
                    text = text.encode(codec, "ignore").decode(codec)
                    body = ("<html><body><p>" + text + "</p></body></html>").encode(codec)
                    texts.append((language, truth, size, body))
    if not texts:
        print(f"no gettext catalogs under {args.locale_dir}")
        return 0
    for name, detector in detectors.items():
        print(f"\n{name}: {len(texts)} texts")
        report(detector, texts, sizes)
    return 0


def report(detector: Detector, texts: list[tuple[str, str, int, bytes]], sizes: list[int]) -> None:
    results: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    misses: Counter[tuple[str, str, int, str | None]] = Counter()
    for language, truth, size, body in texts:
        encoding = get_encoding(truth)
        assert encoding is not None
        answer = detector(body)
        chosen = get_encoding(answer) if answer else None
        ok = chosen is not None and chosen.decode(body) == encoding.decode(body)
        results[truth][size].append(ok)
        if not ok:
            misses[(language, truth, size, answer)] += 1
    print(f"{'encoding':16} " + " ".join(f"{f'{s} chars':>11}" for s in sizes) + f" {'all':>11}")
    flat_all: list[bool] = []
    for truth, by_size in sorted(results.items()):
        flat = [ok for oks in by_size.values() for ok in oks]
        flat_all += flat
        cells = [f"{sum(by_size[s]) / len(by_size[s]):11.1%}" for s in sizes]
        print(f"{truth:16} " + " ".join(cells) + f" {sum(flat) / len(flat):11.1%}")
    per_size = [[ok for by_size in results.values() for ok in by_size[s]] for s in sizes]
    print(
        f"{'overall':16} "
        + " ".join(f"{sum(oks) / len(oks):11.1%}" for oks in per_size)
        + f" {sum(flat_all) / len(flat_all):11.1%}  ({sum(flat_all)}/{len(flat_all)})"
    )
    if misses:
        print("misses (language, true encoding, size, chosen):")
        for key, n in misses.most_common(10):
            print(f"  {n} x {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
