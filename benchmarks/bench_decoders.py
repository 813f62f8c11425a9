#!/usr/bin/env python3
"""Benchmark browser_decode's 40 decoders against Python's nearest C codecs, in one run.

For each encoding: ~1 MB of realistic valid text (markup-like ASCII mixed with runs of the
encoding's own characters, drawn from its index and weighted towards the common ranges: kana
and level-1 kanji, GB2312 hanzi, Big5 common hanzi, KS X 1001 Hangul, a single-byte
encoding's letters), decoded by ``browser_decode`` and by ``bytes.decode(codec, "replace")``
with Python's nearest codec; and 1 MB of random bytes (malformed input) decoded by
``browser_decode``. The text is generated here from the standard's indexes: no corpus.

    python benchmarks/bench_decoders.py [--size BYTES] [--repeat N] [--markdown]
                                        [--only NAME ...] [--corpus]

Targets (issue 3): single-byte, UTF-8 and UTF-16 within 1.1x of Python's codec; the CJK
encodings within 1.5x on valid text; no encoding below 5 MB/s on malformed input.
Timings are the best of --repeat runs, on a warmed heap (see :func:`warm_heap`); first use
(lazy tables) is timed separately.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from browser_decode._decoders import DECODERS  # noqa: E402
from browser_decode._labels import NAMES  # noqa: E402

INDEXES = json.loads((ROOT / "spec" / "whatwg-encoding" / "indexes.json").read_text("utf-8"))

PYTHON_CODECS: dict[str, str | None] = {
    "UTF-8": "utf-8", "IBM866": "cp866", "ISO-8859-8-I": "iso8859_8", "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u", "macintosh": "mac_roman", "windows-874": "cp874",
    "x-mac-cyrillic": "mac_cyrillic", "GBK": "gbk", "gb18030": "gb18030",
    "Big5": "big5hkscs", "EUC-JP": "euc_jp", "ISO-2022-JP": "iso2022_jp",
    "Shift_JIS": "cp932", "EUC-KR": "cp949", "replacement": None, "UTF-16BE": "utf-16-be",
    "UTF-16LE": "utf-16-le",
    # Python has no x-user-defined codec: cp437 is a charmap codec with all 256 bytes
    # defined, the machinery ours uses (latin-1 is a special case: a plain copy).
    "x-user-defined": "cp437",
}  # fmt: skip
for _name in NAMES:
    if _name.startswith("ISO-8859-") and _name not in PYTHON_CODECS:
        PYTHON_CODECS[_name] = "iso8859_" + _name.split("-")[2]
    elif _name.startswith("windows-12"):
        PYTHON_CODECS[_name] = "cp" + _name.split("-")[1]

CJK = {"GBK", "gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR"}

WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "was",
    "for",
    "on",
    "that",
    "with",
    "as",
    "by",
    "at",
    "from",
    "this",
    "page",
    "home",
    "news",
]


def markup(rng: random.Random) -> bytes:
    pick = rng.random()
    if pick < 0.3:
        return f'<p class="c{rng.randrange(40)}">'.encode()
    if pick < 0.5:
        return b"</p>\n"
    if pick < 0.65:
        return f'<a href="/n/{rng.randrange(10**6)}.html">'.encode()
    if pick < 0.75:
        return b"</a>"
    if pick < 0.9:
        return (" " + " ".join(rng.choices(WORDS, k=rng.randrange(1, 5))) + " ").encode()
    return f" {rng.randrange(10**4)}, ".encode()


# -- double-byte characters from the indexes ----------------------------------------------------


def _mapped(index: str, pointers: range | list[int]) -> list[int]:
    values = INDEXES[index]
    return [p for p in pointers if p < len(values) and values[p] is not None]


def _shift_jis(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 188)
    return bytes([lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)])


def _euc_jp(pointer: int) -> bytes:
    return bytes([pointer // 94 + 0xA1, pointer % 94 + 0xA1])


def _gb(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 190)
    return bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)])


def _big5(pointer: int) -> bytes:
    lead, trail = divmod(pointer, 157)
    return bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)])


def _euc_kr(pointer: int) -> bytes:
    return bytes([pointer // 190 + 0x81, pointer % 190 + 0x41])


def _rows_94(first_row: int, last_row: int) -> range:
    return range((first_row - 1) * 94, last_row * 94)


def _block(width: int, leads: tuple[int, int], trails: tuple[int, int], offset: int) -> list[int]:
    """Pointers of the two-byte codes with these leading and trailing bytes (column =
    trail - offset)."""
    return [
        (lead - 0x81) * width + trail - offset
        for lead in range(leads[0], leads[1] + 1)
        for trail in range(trails[0], trails[1] + 1)
    ]


# encoding -> (index, to_bytes, common pointers, all pointers). Common: JIS X 0208 symbols,
# kana and level-1 kanji; GB2312 symbols and level-1 hanzi; Big5 symbols and frequent hanzi;
# KS X 1001 symbols and Hangul.
_JIS = [*_rows_94(1, 5), *_rows_94(16, 47)]
_GB = [
    *_block(190, (0xA1, 0xA1), (0xA1, 0xFE), 0x41),
    *_block(190, (0xB0, 0xD6), (0xA1, 0xFE), 0x41),
]
_BIG5 = [
    *_block(157, (0xA1, 0xA1), (0xA1, 0xFE), 0x62),
    *_block(157, (0xA4, 0xC5), (0xA1, 0xFE), 0x62),
    *_block(157, (0xA4, 0xC5), (0x40, 0x7E), 0x40),
]
_KR = [
    *_block(190, (0xA1, 0xA1), (0xA1, 0xFE), 0x41),
    *_block(190, (0xB0, 0xC8), (0xA1, 0xFE), 0x41),
]
DOUBLE_BYTE: dict[str, tuple[str, Callable[[int], bytes], list[int], range]] = {
    "Shift_JIS": ("jis0208", _shift_jis, _JIS, range(11104)),
    "EUC-JP": ("jis0208", _euc_jp, _JIS, range(94 * 94)),
    "ISO-2022-JP": ("jis0208", _euc_jp, _JIS, range(94 * 94)),  # then 7-bit, see below
    "GBK": ("gb18030", _gb, _GB, range(23940)),
    "gb18030": ("gb18030", _gb, _GB, range(23940)),
    "Big5": ("big5", _big5, _BIG5, range(19782)),
    "EUC-KR": ("euc-kr", _euc_kr, _KR, range(23940)),
}  # fmt: skip


def double_byte_text(name: str, size: int, rng: random.Random) -> bytes:
    index, to_bytes, common, everything = DOUBLE_BYTE[name]
    common_chars = [to_bytes(p) for p in _mapped(index, common)]
    rare_chars = [to_bytes(p) for p in _mapped(index, everything)]
    if name == "Shift_JIS":  # no EUDC (private use) in realistic text
        rare_chars = [c for c in rare_chars if not 0xF0 <= c[0] <= 0xF9]
    pieces: list[bytes] = []
    total = 0
    while total < size:
        run = rng.choices(common_chars, k=rng.randrange(8, 60))
        if rng.random() < 0.05:  # now and then, any character of the index
            run.append(rng.choice(rare_chars))
        text = b"".join(run)
        if name == "ISO-2022-JP":
            text = b"\x1b$B" + text.translate(_MINUS_0X80) + b"\x1b(B"
        pieces += [text, markup(rng)]
        total += len(text) + len(pieces[-1])
    return b"".join(pieces)


_MINUS_0X80 = bytes((b - 0x80) & 0xFF for b in range(256))


def single_byte_text(name: str, size: int, rng: random.Random) -> bytes:
    """Words of the encoding's letters (its own script if it has one, else accented Latin
    in mostly-ASCII words), between markup."""
    index = "iso-8859-8" if name == "ISO-8859-8-I" else name.lower()
    highs = [
        bytes([0x80 + i])
        for i, cp in enumerate(INDEXES[index])
        if cp is not None and chr(cp).isalpha()
    ]
    own_script = len(highs) > 45
    ascii_letters = [bytes([b]) for b in b"etaoinshrdlucmfwyp"]
    pieces: list[bytes] = []
    total = 0
    while total < size:
        words = []
        for _ in range(rng.randrange(3, 12)):
            n = rng.randrange(2, 9)
            if own_script:
                words.append(b"".join(rng.choices(highs, k=n)))
            else:
                words.append(
                    b"".join(
                        rng.choice(highs) if rng.random() < 0.08 else rng.choice(ascii_letters)
                        for _ in range(n)
                    )
                )
        pieces += [b" ".join(words), markup(rng)]
        total += len(pieces[-2]) + len(pieces[-1])
    return b"".join(pieces)


def unicode_text(size: int, rng: random.Random) -> str:
    scripts = [(0x61, 0x7B), (0xE0, 0x100), (0x430, 0x450), (0x3B1, 0x3CA), (0x4E00, 0x9FA0),
               (0x3041, 0x3097), (0xAC00, 0xD7A4), (0x1F600, 0x1F640)]  # fmt: skip
    pieces = []
    total = 0
    while total < size:
        low, high = rng.choice(scripts)
        word = "".join(chr(rng.randrange(low, high)) for _ in range(rng.randrange(2, 20)))
        pieces += [word, markup(rng).decode()]
        total += len(word) * 2 + len(pieces[-1])
    return "".join(pieces)


#: The row of gb18030 text in scripts it encodes in four bytes (Hebrew, Arabic, Devanagari,
#: Thai, Tibetan: Python's ``gbk`` rejects them, so they are not the fast path's codec's).
FOUR_BYTE = "gb18030 (four-byte letters)"
_FOUR_BYTE_SCRIPTS = [(0x5D0, 0x5EB), (0x627, 0x64B), (0x905, 0x93A), (0xE01, 0xE2F),
                      (0xF40, 0xF6A)]  # fmt: skip


def _gb_four(code_point: int) -> bytes:
    """The standard's four-byte gb18030 sequence of a code point below U+10000 that index
    gb18030 lacks (the inverse of "index gb18030 ranges code point")."""
    ranges = INDEXES["gb18030-ranges"]
    offset, first = max((pair for pair in ranges if pair[1] <= code_point), key=lambda p: p[1])
    pointer = offset + code_point - first
    return bytes([0x81 + pointer // 12600, 0x30 + pointer // 1260 % 10,
                  0x81 + pointer // 10 % 126, 0x30 + pointer % 10])  # fmt: skip


def four_byte_text(size: int, rng: random.Random) -> bytes:
    """Words of one script's letters at a time (four bytes each), between markup."""
    letters = [[_gb_four(cp) for cp in range(low, high)] for low, high in _FOUR_BYTE_SCRIPTS]
    pieces: list[bytes] = []
    total = 0
    while total < size:
        script = rng.choice(letters)
        words = [b"".join(rng.choices(script, k=rng.randrange(2, 9))) for _ in range(12)]
        pieces += [b" ".join(words[: rng.randrange(3, 12)]), markup(rng)]
        total += len(pieces[-2]) + len(pieces[-1])
    return b"".join(pieces)


def realistic(name: str, size: int, rng: random.Random) -> bytes:
    if name == FOUR_BYTE:
        return four_byte_text(size, rng)
    if name in DOUBLE_BYTE:
        return double_byte_text(name, size, rng)
    if name == "UTF-8":
        return unicode_text(size // 2, rng).encode("utf-8")
    if name in ("UTF-16LE", "UTF-16BE"):
        return unicode_text(size // 2, rng).encode(name.lower())
    if name == "x-user-defined":
        return bytes(rng.randrange(256) for _ in range(size))
    if name == "replacement":
        return bytes(rng.randrange(256) for _ in range(1024))
    return single_byte_text(name, size, rng)


def best_time(function: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        # CPU time of this process: the machine may be shared; the best of the runs.
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def paired_times(
    ours: Callable[[], object], theirs: Callable[[], object] | None, repeat: int
) -> tuple[float, float | None]:
    """Best CPU times of the two, measured alternately so that both see the same machine."""
    best_ours = best_theirs = float("inf")
    for _ in range(repeat):
        best_ours = min(best_ours, best_time(ours, 1))
        if theirs is not None:
            best_theirs = min(best_theirs, best_time(theirs, 1))
    return best_ours, None if theirs is None else best_theirs


def warm_heap() -> None:
    """Make and free some 200 MB of small objects first, as a long-running scraper has done
    long before: then neither side's megabyte-sized output string costs page faults, which
    in a fresh process made Python's big5hkscs (whose output grows to 4 bytes a character
    on this text) 0.6-0.9 ms per MB slower. Both sides now build their text the same way
    (one codec call up to 2 MiB), so the ratios of a fresh process are within 0.05 of these
    (Big5 1.64 cold, 1.68 warm); when ours joined 16 KB chunks, Big5's moved by 0.5."""
    junk = [str(i) for i in range(3_000_000)]
    del junk


def run(size: int, repeat: int, only: list[str] | None = None) -> list[dict[str, object]]:
    warm_heap()
    malformed = random.Random(20261202).randbytes(size)
    rows: list[dict[str, object]] = []
    for name in only or [*NAMES, FOUR_BYTE]:
        rng = random.Random(f"20261202-{name}")  # the same text whatever else runs
        decode = DECODERS["gb18030" if name == FOUR_BYTE else name]
        start = time.perf_counter()
        decode(b"\x81\x30\x81\x1b$B!")  # first use: lazy tables and codec comparison
        first_use = time.perf_counter() - start
        data = realistic(name, size, rng)
        codec = PYTHON_CODECS["gb18030" if name == FOUR_BYTE else name]
        ours, theirs = paired_times(
            lambda: decode(data),  # noqa: B023
            (lambda: data.decode(codec, "replace")) if codec else None,  # type: ignore[arg-type]  # noqa: B023
            repeat,
        )
        bad = best_time(lambda: decode(malformed), repeat)  # noqa: B023
        target = None if name == "replacement" else 1.5 if name in CJK | {FOUR_BYTE} else 1.1
        rows.append({
            "encoding": name, "bytes": len(data), "ours_ms": ours * 1e3,
            "python_ms": None if theirs is None else theirs * 1e3, "codec": codec or "-",
            "ratio": None if theirs is None else ours / theirs, "target": target,
            "malformed_mb_s": len(malformed) / bad / 1e6, "first_use_ms": first_use * 1e3,
        })  # fmt: skip
    return rows


def table(rows: list[dict[str, object]], markdown: bool) -> str:
    head = ["encoding", "valid KB", "ours ms", "Python ms", "codec", "ratio", "target",
            "malformed MB/s", "first use ms"]  # fmt: skip
    lines = []
    for row in rows:
        ratio = row["ratio"]
        target = row["target"]
        ok = "" if ratio is None or target is None else (" ok" if ratio <= target else " SLOW")
        lines.append([
            str(row["encoding"]), f"{row['bytes'] // 1024}", f"{row['ours_ms']:.2f}",
            "-" if row["python_ms"] is None else f"{row['python_ms']:.2f}", str(row["codec"]),
            "-" if ratio is None else f"{ratio:.2f}{ok}",
            "-" if target is None else f"{target}", f"{row['malformed_mb_s']:.1f}",
            f"{row['first_use_ms']:.1f}",
        ])  # fmt: skip
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(x) for x in column) for column in zip(head, *lines, strict=False)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join(fmt.format(*line) for line in [head, *lines])


CORPUS = ROOT.parent / "shared" / "corpus" / "dev"


def corpus_table(repeat: int) -> str | None:
    """Real pages of ../shared/corpus/dev (read there, never copied), per encoding of the
    manifest: total bytes, our time and the nearest codec's, and how many pages differ."""
    manifest = CORPUS / "manifest.jsonl"
    if not manifest.exists():
        return None
    pages: dict[str, list[bytes]] = {}
    for line in manifest.read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["encoding"] in DECODERS:
            pages.setdefault(row["encoding"], []).append((CORPUS / row["orig"]).read_bytes())
    lines = ["| encoding | pages | KB | ours ms | Python ms | ratio | pages differing |",
             "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name in NAMES:
        if name not in pages or PYTHON_CODECS[name] is None:
            continue
        bodies = pages[name]
        decode, codec = DECODERS[name], PYTHON_CODECS[name]
        for body in bodies:
            decode(body)
        ours, theirs = paired_times(
            lambda: [decode(b) for b in bodies],  # noqa: B023
            lambda: [b.decode(codec, "replace") for b in bodies],  # type: ignore[arg-type]  # noqa: B023
            repeat,
        )
        assert theirs is not None
        differ = sum(decode(b) != b.decode(codec, "replace") for b in bodies)  # type: ignore[arg-type]
        size = sum(map(len, bodies)) // 1024
        lines.append(
            f"| {name} | {len(bodies)} | {size} | {ours * 1e3:.2f} | {theirs * 1e3:.2f} | "
            f"{ours / theirs:.2f} | {differ} |"
        )
    # The pages in scripts that gb18030 encodes in four bytes, their text encoded so.
    four = [
        DECODERS[name](body).encode("gb18030")
        for name in ("windows-1255", "windows-874", "ISO-8859-6", "windows-1256")
        for body in pages.get(name, [])
    ]
    if four:
        decode = DECODERS["gb18030"]
        ours, theirs = paired_times(
            lambda: [decode(b) for b in four],
            lambda: [b.decode("gb18030", "replace") for b in four],
            repeat,
        )
        assert theirs is not None
        differ = sum(decode(b) != b.decode("gb18030", "replace") for b in four)
        lines.append(
            f"| gb18030 (Hebrew, Thai, Arabic pages re-encoded) | {len(four)} | "
            f"{sum(map(len, four)) // 1024} | {ours * 1e3:.2f} | {theirs * 1e3:.2f} | "
            f"{ours / theirs:.2f} | {differ} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1 << 20, help="bytes per input (1 MiB)")
    parser.add_argument("--repeat", type=int, default=11, help="runs per timing (best of)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--corpus", action="store_true", help="also time the real pages of ../shared/corpus/dev"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        choices=[*NAMES, FOUR_BYTE],
        help="only these encodings (and the row of gb18030's four-byte letters)",
    )
    args = parser.parse_args()
    rows = run(args.size, args.repeat, args.only)
    print(table(rows, args.markdown))
    if args.corpus:
        corpus = corpus_table(args.repeat)
        print("\n" + (corpus or f"(no corpus at {CORPUS})"))
    print(f"\nPython {sys.version.split()[0]}; best of {args.repeat}; {args.size} bytes.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
