"""Cost of the encoding decision on hostile and ordinary bodies.

Prints, for each body, the time of ``decode_html`` and of the decision alone
(BOM, header, prescan, head scan, UTF-8 check, detection), median of several runs,
next to a plain ``bytes.decode`` of the same body for scale.

    python benchmarks/bench_sniff.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from browser_decode import decode_html
from browser_decode._api import decide

MB = 1_000_000


def bodies() -> dict[str, tuple[bytes, str | None]]:
    page = (
        b"<!DOCTYPE html><html><head><meta charset=windows-1251><title>t</title></head><body>"
        + "Съешь же ещё этих мягких французских булок. ".encode("cp1251") * 2000
        + b"</body></html>"
    )
    return {
        "1 MB of '<'": (b"<" * MB, None),
        "1 MB of '<!--'": (b"<!--" * (MB // 4), None),
        "1 MB of '<meta '": (b"<meta " * (MB // 6), None),
        "1 MB of '<head><script>'": (b"<head><script>" * (MB // 14), None),
        "1 MB of 0xFF": (b"\xff" * MB, None),
        "1 MB of '<a b='": (b"<a b=" * (MB // 5), "text/html"),
        "90 kB windows-1251 page, meta": (page, "text/html"),
    }


def median_ms(func: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    print(f"{'body':34} {'decide ms':>10} {'decode_html ms':>15} {'latin-1 decode ms':>18}")
    for name, (body, content_type) in bodies().items():
        d = median_ms(lambda b=body, c=content_type: decide(b, c))  # type: ignore[misc]
        h = median_ms(lambda b=body, c=content_type: decode_html(b, c))  # type: ignore[misc]
        p = median_ms(lambda b=body: b.decode("latin-1"))  # type: ignore[misc]
        print(f"{name:34} {d:10.2f} {h:15.2f} {p:18.2f}")


if __name__ == "__main__":
    main()
