#!/usr/bin/env python3
"""Detection of undeclared pages: browser_decode against the usual detectors, in one run.

For every page of a corpus folder (``manifest.jsonl`` + files, the format of
``../shared/corpus/dev``; default: that folder when it exists) the body is the
``undecl`` file (declarations removed), or ``orig`` when the page never
declared anything. A detector is right when our decoder, run with the WHATWG
encoding it chose, gives exactly the text that the true encoding gives
(manifest field ``encoding``). Peers answer Python codec names or labels; they
are mapped onto the WHATWG encoding a browser uses for them (``cp932`` ->
Shift_JIS, ``GB2312`` -> GBK, ...), and an answer no browser has counts as wrong.

Printed: exact-text accuracy per true encoding and overall, median and p95
milliseconds per page, time relative to a plain decode with the true encoding,
the calibration of ``Provenance.score`` on those pages (as below),
and the scaling of ``decode_html`` on 10 MB (and 20 MB) of undeclared
windows-1251 and Shift_JIS: time relative to the decode alone, and peak memory
(tracemalloc) relative to the decoded text.

With ``--validation SPLIT`` (a split of the validation corpus that
``tools/build_validation.py`` writes: ``manifest.jsonl`` with ``file``,
``encoding``, ``size``, ``kind``), it prints instead exact-text accuracy by
sample size and the calibration of ``Provenance.score``: for each score bucket
the share of right answers, the share of right answers among those scoring
0.9 or more and the share of wrong answers that do (``--sample-sizes page24``:
of the short pages only); ``--fit`` also fits the constants of
``_detect/_calibration.py`` on that split (run it on TUNE only).

    python benchmarks/bench_detect.py [CORPUS] [--repeat N] [--no-peers]
                                      [--no-scaling | --scaling-only] [--sizes 0.1,1,10]
    python benchmarks/bench_detect.py --validation /work/validation/report [--hint]
    python benchmarks/bench_detect.py --validation /work/validation/tune --fit
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import statistics
import sys
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from browser_decode import decode_html, get_encoding
from browser_decode._detect import default, detect, evidence, valid_utf8

MARGIN_CAP = 40.0

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "dev"

#: Python codec names (as detectors spell them) that are not WHATWG labels ->
#: the WHATWG encoding browsers use for such bytes.
CODEC_TO_WHATWG = {
    "ascii": "windows-1252", "utf_8": "UTF-8", "utf_16": "UTF-16LE", "utf_16_le": "UTF-16LE",
    "utf_16_be": "UTF-16BE", "latin_1": "windows-1252", "cp874": "windows-874",
    "tis_620": "windows-874", "iso8859_11": "windows-874", "mac_roman": "macintosh",
    "mac_cyrillic": "x-mac-cyrillic", "maccyrillic": "x-mac-cyrillic", "cp932": "Shift_JIS",
    "shift_jis_2004": "Shift_JIS", "shift_jisx0213": "Shift_JIS", "euc_jis_2004": "EUC-JP",
    "euc_jisx0213": "EUC-JP", "iso2022_jp": "ISO-2022-JP", "cp949": "EUC-KR", "uhc": "EUC-KR",
    "cp950": "Big5", "big5hkscs": "Big5", "big5-hkscs": "Big5", "gb2312": "GBK",
    "cp866": "IBM866", "koi8_r": "KOI8-R", "koi8_u": "KOI8-U", "iso8859_9": "windows-1254",
    "iso-8859-9": "windows-1254", "iso8859_1": "windows-1252", "iso-8859-1": "windows-1252",
    "windows-31j": "Shift_JIS",
}  # fmt: skip
for _n in range(1250, 1259):
    CODEC_TO_WHATWG[f"cp{_n}"] = f"windows-{_n}"
for _n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16):
    CODEC_TO_WHATWG[f"iso8859_{_n}"] = f"ISO-8859-{_n}"


def to_whatwg(answer: str | None) -> str | None:
    if not answer:
        return None
    key = answer.strip().lower().replace("-", "_")
    if key in CODEC_TO_WHATWG:
        return CODEC_TO_WHATWG[key]
    encoding = get_encoding(answer)
    if encoding is None:
        encoding = get_encoding(key)
    return None if encoding is None or encoding.name == "replacement" else encoding.name


Detector = Callable[[bytes], "str | None"]
#: A ranking's lead over the best candidate giving another text, and the distinct
#: byte values it rests on (``Evidence.margin``, ``Evidence.distinct``).
Leads = tuple[float, int]


def ours(body: bytes) -> str | None:
    """The detection step of ``decode_html`` for an undeclared body (after BOM,
    header and prescan, which find nothing here): valid UTF-8, detect, default."""
    return (valid_utf8(body) or detect(body) or default(body)).encoding.name


def peers() -> dict[str, Detector]:
    found: dict[str, Detector] = {}
    try:
        import charset_normalizer

        def cn(body: bytes) -> str | None:
            best = charset_normalizer.from_bytes(body).best()
            return None if best is None else to_whatwg(best.encoding)

        found["charset-normalizer"] = cn
    except ImportError:
        pass
    try:
        import chardet

        found["chardet"] = lambda body: to_whatwg(chardet.detect(body)["encoding"])
    except ImportError:
        pass
    try:
        import cchardet

        found["cchardet"] = lambda body: to_whatwg(cchardet.detect(body)["encoding"])
    except ImportError:
        pass
    return found


def load(corpus: Path) -> list[tuple[str, str, bytes]]:
    pages = []
    with open(corpus / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            path = corpus / (row.get("undecl") or row["orig"])
            pages.append((row["page"], row["encoding"], path.read_bytes()))
    return pages


def _timed(func: Callable[[], object], repeat: int) -> tuple[object, float]:
    best = float("inf")
    result: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return result, best


def run_corpus(corpus: Path, repeat: int, with_peers: bool) -> None:
    pages = load(corpus)
    detectors: dict[str, Detector] = {"browser_decode": ours}
    if with_peers:
        detectors.update(peers())
    truth_text = {}
    decode_time = {}
    for page, encoding, body in pages:
        codec = get_encoding(encoding)
        assert codec is not None
        truth_text[page], decode_time[page] = _timed(lambda: codec.decode(body), repeat)  # noqa: B023
    print(f"corpus: {corpus} ({len(pages)} pages)\n")
    results: dict[str, dict[str, list[bool]]] = {}
    timings: dict[str, list[float]] = {}
    misses: list[str] = []
    for name, detector in detectors.items():
        per_encoding: dict[str, list[bool]] = defaultdict(list)
        times = []
        for page, encoding, body in pages:
            answer, seconds = _timed(lambda: detector(body), repeat)  # noqa: B023
            times.append(seconds)
            ok = answer == encoding
            if not ok and isinstance(answer, str):
                codec = get_encoding(answer)
                ok = codec is not None and codec.decode(body) == truth_text[page]
            per_encoding[encoding].append(ok)
            if not ok and name == "browser_decode":
                misses.append(f"  {page} {encoding} -> {answer}")
        results[name] = per_encoding
        timings[name] = times
    names = list(detectors)
    encodings = sorted({e for _, e, _ in pages}, key=lambda e: (-len(results[names[0]][e]), e))
    print(f"{'encoding':16} {'pages':>5} " + " ".join(f"{n:>18}" for n in names))
    for encoding in encodings:
        row = [f"{sum(results[n][encoding]) / len(results[n][encoding]):18.1%}" for n in names]
        print(f"{encoding:16} {len(results[names[0]][encoding]):5} " + " ".join(row))
    overall = []
    for n in names:
        flat = [ok for oks in results[n].values() for ok in oks]
        overall.append(f"{sum(flat)}/{len(flat)} {sum(flat) / len(flat):6.1%}")
    print(f"{'overall':16} {len(pages):5} " + " ".join(f"{o:>18}" for o in overall))
    plain = [decode_time[p] for p, _, _ in pages]
    print()
    for label, values in (
        ("median ms/page", lambda n: statistics.median(timings[n]) * 1e3),
        ("p95 ms/page", lambda n: statistics.quantiles(timings[n], n=20)[-1] * 1e3),
        ("x plain decode (total)", lambda n: sum(timings[n]) / sum(plain)),
        (
            "x plain decode (median)",
            lambda n: statistics.median(
                t / max(d, 1e-9) for t, d in zip(timings[n], plain, strict=True)
            ),
        ),
    ):
        print(f"{label:22} " + " ".join(f"{values(n):18.2f}" for n in names))
    print(f"{'plain decode median ms':22} {statistics.median(plain) * 1e3:18.3f}")
    if misses:
        print("\nbrowser_decode misses:\n" + "\n".join(misses))
    scored = []
    for _, encoding, body in pages:
        found = valid_utf8(body) or detect(body)
        if found is not None and found.score is not None:
            truth = get_encoding(encoding)
            assert truth is not None
            scored.append((found.score, found.encoding.decode(body) == truth.decode(body)))
    print_calibration(scored)


_RUSSIAN = (
    "Съешь же ещё этих мягких французских булок, да выпей чаю. Вчера в городе "
    "прошёл концерт, на который пришли тысячи людей; погода была тёплой. "
)
_JAPANESE = (
    "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。"
    "何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。"
)


def _big_body(text: str, codec: str, size: int) -> bytes:
    line = text.encode(codec)
    parts = []
    total = 0
    n = 0
    while total < size:
        chunk = b"<p>%d " % n + line + b"</p>\n"
        parts.append(chunk)
        total += len(chunk)
        n += 1
    return b"".join(parts)[:size]


def _peak(func: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    result = func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    return peak


def run_scaling(sizes_mb: list[float], repeat: int) -> None:
    print("\nscaling: decode_html(undeclared body) against the decode alone (best of N)")
    print(
        f"{'body':24} {'decode ms':>10} {'decode_html ms':>15} {'ratio':>6} "
        f"{'peak/text':>10} {'decode peak/text':>17}"
    )
    for size_mb in sizes_mb:
        for text, codec, name in (
            (_RUSSIAN, "cp1251", "windows-1251"),
            (_JAPANESE, "cp932", "Shift_JIS"),
        ):
            body = _big_body(text, codec, int(size_mb * 1_000_000))
            encoding = get_encoding(name)
            assert encoding is not None
            result = decode_html(body)
            assert result.provenance.encoding == name, result.provenance
            text_size = sys.getsizeof(result.text)
            del result
            plain = full = float("inf")
            for _ in range(repeat):
                plain = min(plain, _timed(lambda: encoding.decode(body), 1)[1])  # noqa: B023
                full = min(full, _timed(lambda: decode_html(body), 1)[1])  # noqa: B023
            peak = _peak(lambda: decode_html(body))  # noqa: B023
            decode_peak = _peak(lambda: encoding.decode(body))  # noqa: B023
            print(
                f"{size_mb:5g} MB {name:16} {plain * 1e3:10.2f} {full * 1e3:15.2f} "
                f"{full / plain:6.2f} {peak / text_size:10.2f} {decode_peak / text_size:17.2f}"
            )


#: language of a validation sample -> a TLD whose browser default is its usual
#: legacy encoding (for ``--hint``: the accuracy with the obvious hint)
_TLDS = {
    "ru": "ru", "uk": "ua", "bg": "bg", "be": "by", "sr": "rs", "mk": "mk", "cs": "cz",
    "sk": "sk", "hr": "hr", "pl": "pl", "hu": "hu", "sl": "si", "el": "gr", "tr": "tr",
    "th": "th", "vi": "vn", "et": "ee", "lt": "lt", "lv": "lv", "ja": "jp", "ko": "kr",
    "zh-CN": "cn", "zh-TW": "tw", "zh-HK": "hk", "ar": "sa", "fa": "ir",
}  # fmt: skip


def run_validation(split: Path, fit: bool, hint: bool, sizes: list[str] | None) -> None:
    rows = []
    with open(split / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if sizes is None or row["size"] in sizes:
                rows.append(row)
    by_size: dict[str, list[bool]] = defaultdict(list)
    by_encoding: dict[str, list[bool]] = defaultdict(list)
    scored: list[tuple[float, bool, Leads | None, str]] = []
    misses: dict[tuple[str, str, str], int] = defaultdict(int)
    for row in rows:
        body = (split / row["file"]).read_bytes()
        truth = get_encoding(row["encoding"])
        assert truth is not None
        url = _TLDS.get(row["language"]) if hint else None
        found = valid_utf8(body)
        margin: Leads | None = None
        if found is None:
            ev = evidence(body, url=url)
            found = ev.hint
            if ev.margin is not None:
                margin = (ev.margin, ev.distinct)
        if found is None:
            found = default(body, url=url)
        ok = found.encoding.decode(body) == truth.decode(body)
        by_size[row["size"]].append(ok)
        by_encoding[row["encoding"]].append(ok)
        if not ok:
            misses[(row["encoding"], row["language"], found.encoding.name)] += 1
        if found.score is not None:
            scored.append((found.score, ok, margin, f"{row['encoding']}/{row['language']}"))
    print(f"validation split: {split} ({len(rows)} samples{', with TLD hints' if hint else ''})")
    order = ["page24", "page64", "page200", "64", "256", "1024", "4096", "full"]
    print(f"{'size':10} {'samples':>8} {'exact':>8}")
    for size in sorted(by_size, key=lambda s: order.index(s) if s in order else 99):
        oks = by_size[size]
        print(f"{size:10} {len(oks):8} {sum(oks) / len(oks):8.1%}")
    flat = [ok for oks in by_size.values() for ok in oks]
    print(f"{'all':10} {len(flat):8} {sum(flat) / len(flat):8.1%}")
    print(f"\n{'encoding':16} {'samples':>8} {'exact':>8}")
    for encoding, oks in sorted(by_encoding.items(), key=lambda kv: sum(kv[1]) / len(kv[1])):
        print(f"{encoding:16} {len(oks):8} {sum(oks) / len(oks):8.1%}")
    print_calibration([(score, ok) for score, ok, _, _ in scored])
    print("\nmost frequent misses (true encoding, language, chosen):")
    for key, n in sorted(misses.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {n:4} x {key}")
    if fit:
        _fit([(m, group, ok) for _, ok, m, group in scored if m is not None], len(scored))


#: The edges of the calibration table's score buckets.
BUCKETS = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)


def print_calibration(scored: list[tuple[float, bool]]) -> None:
    """Score bucket -> answers and share right; and the two goals of issue 13: at
    least 99% right among scores >= 0.9, at most 5% of wrong answers scoring >= 0.9."""
    print("\ncalibration of Provenance.score (answers with a score)")
    print(f"{'score':12} {'answers':>8} {'right':>8}")
    for lo, hi in itertools.pairwise((*BUCKETS, 2.0)):
        bucket = [ok for score, ok in scored if lo <= score < hi]
        if bucket:
            label = f"[{lo:.2f},{hi:.2f})" if hi <= 1.0 else f"{lo:.2f}"
            print(f"{label:12} {len(bucket):8} {sum(bucket) / len(bucket):8.1%}")
    confident = [ok for score, ok in scored if score >= 0.9]
    wrong = [score for score, ok in scored if not ok]
    if confident:
        share = sum(confident) / len(confident)
        print(f"right among score >= 0.9: {share:.2%} ({len(confident)}; goal >= 99%)")
    if wrong:
        share = sum(score >= 0.9 for score in wrong) / len(wrong)
        print(f"wrong answers with score >= 0.9: {share:.2%} (of {len(wrong)} wrong; goal <= 5%)")


def _fit(points: list[tuple[Leads, str, bool]], answers: int) -> None:
    """The constants of ``_detect/_calibration.py`` (see its docstring).

    The score is a logistic function of ``min(margin, PER_BYTE * distinct)``. For
    each cap ``PER_BYTE`` (1 to 10 nats by halves, or none), the capped margin for
    0.9 must hold beyond the split it is fitted on: resampling the (encoding,
    language) pairs of the split 200 times, in at least 90% of the resamples at
    most 3% of all wrong answers lie above it and at least 99.5% of the answers
    above it are right. The cap that leaves the most right answers above its
    margin wins; of equals, the smallest (the most cautious).
    """
    import math
    import random

    ties = [ok for (margin, _), _, ok in points if margin < 1.0]
    tie_share = min(max(sum(ties) / max(len(ties), 1), 0.1), 0.5)
    names = sorted({group for _, group, _ in points})
    rng = random.Random(13)
    draws = [[rng.choice(names) for _ in names] for _ in range(200)]
    best: tuple[int, float, float] | None = None
    for cap in [step / 2 for step in range(2, 21)] + [math.inf]:
        groups: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        for (margin, distinct), group, ok in points:
            groups[group].append((min(margin, cap * distinct), ok))

        def holds(limit: float, groups: dict[str, list[tuple[float, bool]]] = groups) -> bool:
            good = 0
            for draw in draws:
                sample = [p for name in draw for p in groups[name]]
                wrong = sum(not ok for _, ok in sample) or 1
                above = [ok for m, ok in sample if m >= limit]
                bad = len(above) - sum(above)
                good += bad <= 0.03 * wrong and bad <= 0.005 * max(len(above), 1)
            return good >= 0.9 * len(draws)

        m90 = next((step / 2 for step in range(0, 81) if holds(step / 2)), MARGIN_CAP)
        right = sum(ok for pts in groups.values() for m, ok in pts if m >= m90)
        print(f"  per byte {cap:5} nats: margin for 0.9 = {m90:4}, right above it: {right}")
        if best is None or right > best[0]:
            best = (right, cap, m90)
    assert best is not None
    _, cap, m90 = best
    c = math.log(tie_share / (1 - tie_share))
    a = (math.log(9) - c) / max(m90, 0.5)
    print(f"fitted on {len(points)} ranked answers ({answers} scored): per byte = {cap} nats,")
    print(f"margin for 0.9 = {m90}, tie share = {tie_share:.3f}: A = {a:.3f}, C = {c:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3, help="best of N timings per page")
    parser.add_argument("--no-peers", action="store_true", help="only browser_decode")
    parser.add_argument("--no-scaling", action="store_true", help="skip the 10/20 MB figures")
    parser.add_argument("--scaling-only", action="store_true", help="only the 10/20 MB figures")
    parser.add_argument("--sizes", default="0.1,1,10", help="scaling body sizes in MB")
    parser.add_argument("--validation", type=Path, help="a split of the validation corpus")
    parser.add_argument("--fit", action="store_true", help="fit the score's constants (TUNE)")
    parser.add_argument("--hint", action="store_true", help="pass the language's TLD as url=")
    parser.add_argument("--sample-sizes", help="only these sample sizes, e.g. page24,page64")
    args = parser.parse_args()
    if args.validation:
        sizes = args.sample_sizes.split(",") if args.sample_sizes else None
        run_validation(args.validation, args.fit, args.hint, sizes)
        return 0
    if args.scaling_only:
        pass
    elif (args.corpus / "manifest.jsonl").exists():
        run_corpus(args.corpus, args.repeat, not args.no_peers)
    else:
        print(f"no corpus at {args.corpus}: skipping the accuracy table")
    if not args.no_scaling:
        run_scaling([float(s) for s in args.sizes.split(",")], max(args.repeat, 5))
    return 0


if __name__ == "__main__":
    sys.exit(main())
