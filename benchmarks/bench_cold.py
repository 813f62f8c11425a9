"""What a call costs right after other work, against the same call again at once (issue 14).

``bench_call.py`` runs the old function (cchardet or charset-normalizer: 40-400 ms on an
undeclared legacy page) in every round; right after it, everything Python does runs slower
for a few hundred microseconds: the CPU's caches and translation buffers hold that work's
data and code. This script measures pieces of work right after the old function ("cold")
and then again at once ("warm"), medians of many rounds, and the same after a plain 16 MB
memory write instead of the old function (docs/speed.md, "The cold setting").

    python benchmarks/bench_cold.py [--rounds 41]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench_call import make_page, old_decode, warm_heap

from browser_decode import decode_html
from browser_decode._detect import evidence


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=41)
    args = parser.parse_args(argv)
    warm_heap()
    body, content_type = make_page("windows-1251", 100_000, "undeclared")
    rng = random.Random(5)
    high = bytes(rng.randrange(0x80, 0x100) for _ in range(600))
    table = bytes(rng.randrange(0, 64) for _ in range(256))
    big = int.from_bytes(body[:2000], "big")
    half = 1.5

    def loop() -> None:
        for _ in range(500):
            pass

    def tuples() -> list[tuple[int, float]]:
        return [(i, half) for i in range(500)]

    def big_ints() -> None:
        value = big
        for _ in range(20):
            value = (value >> 1) & value

    def translates() -> None:
        for _ in range(40):
            high.translate(table)

    work: dict[str, Callable[[], object]] = {
        "an empty 500-iteration for loop": loop,
        "500 tuples built and kept": tuples,
        "20 operations on a 16,000-bit integer": big_ints,
        "40 bytes.translate of 600 bytes": translates,
        "evidence() of the windows-1251 100 KB undeclared page": lambda: evidence(body),
        "decode_html() of that page": lambda: decode_html(body, content_type),
        "the codec (cp1251) on that page": lambda: body.decode("cp1251", "replace"),
    }
    junk = bytearray(16_000_000)

    def memory_write() -> None:
        junk[:] = bytes(len(junk))

    befores: dict[str, Callable[[], object]] = {
        "the old function": lambda: old_decode(body, content_type),
        "a 16 MB memory write": memory_write,
    }
    for func in work.values():
        func()
    clock = time.perf_counter
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for what in rng.sample(list(work), len(work)):
            for before, other in befores.items():
                other()
                start = clock()
                work[what]()
                cold = clock() - start
                start = clock()
                work[what]()
                results.setdefault((what, before), []).append((cold, clock() - start))
    print(f"medians of {args.rounds} rounds, microseconds")
    heads = ("after the old function", "after 16 MB written", "again")
    print(f"{'work':56s} {heads[0]:>22s} {heads[1]:>20s} {heads[2]:>8s}")
    for what in work:
        old = results[(what, "the old function")]
        mem = results[(what, "a 16 MB memory write")]
        cold = statistics.median(c for c, _ in old) * 1e6
        written = statistics.median(c for c, _ in mem) * 1e6
        again = statistics.median(w for _, w in old + mem) * 1e6
        print(f"{what:56s} {cold:22.1f} {written:20.1f} {again:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
