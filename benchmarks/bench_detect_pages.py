"""Detection on realistic undeclared pages: the undeclared legacy pages of bench_warc.py.

    python benchmarks/bench_detect_pages.py [--per 40] [--rounds 7]

Generates ``5 * per`` undeclared legacy pages with bench_warc.py's ``page()`` (10-30 KB of
script, markup and navigation around sentences of real text in Japanese, Russian, Chinese,
Korean and English; the text of ../shared/corpus/dev when it is there, read at run time,
else built-in sentences), seeded, and times ``evidence()`` and ``decode_html`` on each,
warm: the best of *rounds* runs per page. Prints per encoding the median and mean of the
pages' times, and the mean over all pages (the mix of bench_warc.py's archive). Compare two
trees by running this script with each on ``PYTHONPATH``, taking turns.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_warc

from browser_decode import decode_html
from browser_decode._detect import evidence


def pages(per: int, seed: int) -> list[tuple[str, bytes]]:
    """(encoding, body) of ``5 * per`` undeclared legacy pages (``page()`` picks the language)."""
    pools, _ = bench_warc.text_pools()
    pools = bench_warc.encodable(pools)
    out = []
    for number in range(5 * per):
        document, encoding, _, language = bench_warc.page(
            random.Random(seed + number), pools, "undeclared-legacy"
        )
        out.append((encoding, document.encode(bench_warc.LEGACY[language][1])))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per", type=int, default=40, help="pages per language (on average)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    bodies = pages(args.per, args.seed)
    for _, body in bodies:  # (first-use costs are not what is measured)
        decode_html(body, "text/html")
    clock = time.perf_counter
    best: list[list[float]] = [[float("inf"), float("inf")] for _ in bodies]
    gc.disable()
    for _ in range(args.rounds):
        for times, (_, body) in zip(best, bodies, strict=True):
            start = clock()
            evidence(body)
            middle = clock()
            decode_html(body, "text/html")
            end = clock()
            times[0] = min(times[0], middle - start)
            times[1] = min(times[1], end - middle)
    gc.enable()
    by_encoding: dict[str, list[list[float]]] = {}
    for times, (encoding, _) in zip(best, bodies, strict=True):
        by_encoding.setdefault(encoding, []).append(times)
    print(f"{len(bodies)} pages, best of {args.rounds} runs each, microseconds a page")
    header = ("encoding", "pages", "evidence median", "mean", "decode_html mean")
    print("{:14s} {:>5s} {:>16s} {:>6s} {:>17s}".format(*header))
    for encoding, rows in sorted(by_encoding.items()):
        ev = [row[0] * 1e6 for row in rows]
        call = [row[1] * 1e6 for row in rows]
        print(
            f"{encoding:14s} {len(rows):5d} {statistics.median(ev):16.0f} "
            f"{statistics.mean(ev):6.0f} {statistics.mean(call):17.0f}"
        )
    ev = [times[0] * 1e6 for times in best]
    call = [times[1] * 1e6 for times in best]
    mean_ev, mean_call = statistics.mean(ev), statistics.mean(call)
    print(f"{'all':14s} {len(best):5d} {'':16s} {mean_ev:6.0f} {mean_call:17.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
