"""The first ``decode_html`` of each encoding in a fresh process, in CPU time.

The same call as the row "first decode_html of an encoding" of bench_call.py (a 20 KB page
of many scripts, declared in the header), in a fresh process per encoding and run, with
bytecode cached as in an installed package (every module compiled first, the lazily
imported ones too), timed by ``time.process_time`` as well as the wall clock: CPU time does
not count the time the process waits for a core, which on a shared machine is most of the
spread of single wall-clock figures. Prints the median and best of --runs per encoding,
the slowest first; with --against SRC, the same for another source tree (for instance the
main branch's), interleaved with this one, and the ratio of their medians.

    python benchmarks/bench_first_use.py [--runs 5] [--against ../main/src] [--all]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_call import _first_body

SRC = Path(__file__).resolve().parent.parent / "src"
_CODE = """
import json, sys, time
from browser_decode import decode_html
name, body = sys.argv[1], sys.stdin.buffer.read()
cpu, wall = time.process_time(), time.perf_counter()
decode_html(body, "text/html; charset=" + name)
print(json.dumps([(time.process_time() - cpu) * 1e3, (time.perf_counter() - wall) * 1e3]))
"""
MULTI_BYTE = ("gb18030", "GBK", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR")


def _env(src: Path, cache: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONPYCACHEPREFIX=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _compile(src: Path, cache: str) -> None:
    """Bytecode for every module, as pip writes it at install time."""
    code = "import sys, compileall; sys.exit(not compileall.compile_dir(sys.argv[1], quiet=1))"
    package = str(src / "browser_decode")
    subprocess.run([sys.executable, "-c", code, package], env=_env(src, cache), check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per encoding")
    parser.add_argument("--against", type=Path, help="another source tree, timed alike")
    parser.add_argument("--all", action="store_true", help="all 40 encodings (else multi-byte)")
    args = parser.parse_args()
    if args.all:
        sys.path.insert(0, str(SRC))
        from browser_decode._labels import NAMES

        names: tuple[str, ...] = NAMES
    else:
        names = MULTI_BYTE
    trees = [SRC] + ([args.against.resolve()] if args.against else [])
    caches = {tree: tempfile.mkdtemp(prefix="bench-first-use-") for tree in trees}
    for tree in trees:
        _compile(tree, caches[tree])
    times: dict[tuple[Path, str], list[list[float]]] = {(t, n): [] for t in trees for n in names}
    for _ in range(args.runs):
        for name in names:
            for tree in trees:  # (interleaved: both see the same load)
                done = subprocess.run(
                    [sys.executable, "-c", _CODE, name],
                    input=_first_body(name),
                    capture_output=True,
                    env=_env(tree, caches[tree]),
                    check=True,
                )
                times[tree, name].append(json.loads(done.stdout))
    medians = {key: statistics.median(cpu for cpu, _ in runs) for key, runs in times.items()}
    for tree in trees:
        print(f"{tree} (ms; median and best of {args.runs})")
        for name in sorted(names, key=lambda n: -medians[tree, n]):
            cpu = [c for c, _ in times[tree, name]]
            wall = [w for _, w in times[tree, name]]
            line = (
                f"  {name:14s} cpu {statistics.median(cpu):7.1f} {min(cpu):7.1f}"
                f"   wall {statistics.median(wall):7.1f} {min(wall):7.1f}"
            )
            if tree != SRC:
                line += f"   this tree / it: {medians[SRC, name] / medians[tree, name]:.2f}x"
            print(line)
    worst = max(names, key=lambda n: medians[SRC, n])
    print(f"worst of {len(names)} (cpu, median): {worst} {medians[SRC, worst]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
