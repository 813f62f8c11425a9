"""What a call costs right after other work, against the same call again at once (issue 14).

``bench_call.py`` runs the old function (cchardet or charset-normalizer: 40-400 ms on an
undeclared legacy page) in every round; right after it, everything Python does runs slower
for a few hundred microseconds: the CPU's caches and translation buffers hold that work's
data and code. This script measures pieces of work right after the old function ("cold")
and then again at once ("warm"), medians of many rounds, and the same after a plain 16 MB
memory write instead of the old function (docs/speed.md, "The cold setting").

With ``--budget``: for every undeclared single-byte page of ``bench_call.py``, at 100 KB and
1 MB, each right after a 16 MB memory write (and again at once): the codec, the call, its
detection (``evidence()``) and the two parts of that (the sample with its pre-filters, and
the ranking of the candidates), and what the issue's goal (3x the codec at 100 KB, 1.5x at
1 MB) leaves to detection once the rest of the call is paid: ``goal x codec - (call -
detection)`` (docs/speed.md, "What the goal leaves to detection").

    python benchmarks/bench_cold.py [--rounds 41] [--budget]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench_call import CASES, codec_of, make_page, old_decode, size_label, warm_heap

import browser_decode._detect as detection
from browser_decode import decode_html
from browser_decode._detect import evidence
from browser_decode._detect._sample import nearly_utf8


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--budget", action="store_true", help="detection's share (above)")
    args = parser.parse_args(argv)
    warm_heap()
    if args.budget:
        return budget(args.rounds)
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
    befores: dict[str, Callable[[], object]] = {
        "the old function": lambda: old_decode(body, content_type),
        "a 16 MB memory write": _memory_write,
    }
    for func in work.values():
        func()
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for what in rng.sample(list(work), len(work)):
            for before, other in befores.items():
                results.setdefault((what, before), []).append(_cold_and_again(other, work[what]))
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


def _cold_and_again(
    before: Callable[[], object], work: Callable[[], object]
) -> tuple[float, float]:
    """The time (s) of *work* right after *before*, and of *work* again at once."""
    clock = time.perf_counter
    before()
    start = clock()
    work()
    cold = clock() - start
    start = clock()
    work()
    return cold, clock() - start


_JUNK = bytearray(16_000_000)


def _memory_write() -> None:
    _JUNK[:] = bytes(len(_JUNK))


def budget(rounds: int) -> int:
    """The ``--budget`` table (module docstring)."""
    detection._import_ranking()
    ranking = detection._ranking
    assert ranking is not None and detection._ranking_models is not None
    single_byte = detection._ranking_models.SINGLE_BYTE  # (the detector's own list)
    bonuses = {"windows-1252": ranking.DEFAULT_BONUS}  # (no hint: windows-1252's lead)
    pages = [c for c in CASES if c[1].startswith("undeclared") and c[0] in single_byte]
    rng = random.Random(7)
    print(f"medians of {rounds} rounds, microseconds right after a 16 MB memory write (again)")
    heads = ("codec", "call", "detection", "sample", "ranking", "left", "over")
    print(f"{'page':44s}" + "".join(f"{h:>14s}" for h in heads))
    for size in (100_000, 1_000_000):
        for name, declare, goal_small, goal_big in pages:
            body, content_type = make_page(name, size, declare)
            codec = codec_of(name)
            found = detection._large_sample(body, None, None)
            assert not isinstance(found, detection.Evidence)  # (a sample to rank)
            (data, high), _, _ = found
            work: dict[str, Callable[[], object]] = {
                "codec": lambda b=body, c=codec: b.decode(c, "replace"),
                "call": lambda b=body, t=content_type: decode_html(b, t),
                "detection": lambda b=body: evidence(b),
                "sample": lambda b=body, d=data, h=high: (
                    detection._large_sample(b, None, None),
                    nearly_utf8(d, h),
                ),
                "ranking": lambda d=data, h=high: ranking.rank_candidates(d, h, bonuses),
            }
            for func in work.values():
                func()
            times: dict[str, list[tuple[float, float]]] = {key: [] for key in work}
            for _ in range(rounds):
                for key in rng.sample(list(work), len(work)):
                    times[key].append(_cold_and_again(_memory_write, work[key]))
            cold_of = {k: statistics.median(c for c, _ in v) * 1e6 for k, v in times.items()}
            warm_of = {k: statistics.median(w for _, w in v) * 1e6 for k, v in times.items()}
            goal = goal_small if size < 1_000_000 else goal_big
            assert goal is not None
            left = goal * cold_of["codec"] - (cold_of["call"] - cold_of["detection"])
            label = f"{name}, {declare}, {size_label(size)}"
            cells = [f"{cold_of[k]:.0f} ({warm_of[k]:.0f})" for k in work]
            cells += [f"{left:.0f}", f"{cold_of['detection'] / left:.1f}x" if left > 0 else "-"]
            print(f"{label:44s}" + "".join(f"{c:>14s}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
