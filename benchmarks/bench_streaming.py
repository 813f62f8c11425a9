"""Memory and speed of StreamDecoder on a large streamed body, with decode_html as the peer.

Generates a body of --mb megabytes on the fly (never held whole by the
streaming run), feeds it in --chunk-byte chunks to ``StreamDecoder``; then
decodes the same body with ``decode_html`` in one piece (the body and its text
in memory). Times are the best of --repeat interleaved runs without tracing;
the memory peak comes from one more run of each under tracemalloc. Prints the
ratios stream/whole (the goal: time at most 2x).

    python benchmarks/bench_streaming.py            # 50 MB, 64 KiB chunks
    python benchmarks/bench_streaming.py --mb 16 --repeat 5
    python benchmarks/bench_streaming.py --mb 5 --chunk 1000
"""

from __future__ import annotations

import argparse
import hashlib
import time
import tracemalloc
from collections.abc import Callable, Iterator

from browser_decode import StreamDecoder, decode_html

_PARAGRAPH = "<p>Grüße — 東京の価格は 1.000～2.000 円です。Привет, мир! €</p>\n"
_CJK = "東京の価格は円です日本語のテキスト"  # no ASCII character: no ASCII byte
_KOREAN = "한국어텍스트입니다"

CASES = {
    # name: (encoding for the Python encoder, content type, head of the body)
    "UTF-8, <meta>": ("utf-8", "text/html", b"<!doctype html><meta charset=utf-8>"),
    "Shift_JIS, header": ("cp932", "text/html; charset=shift_jis", b"<!doctype html>"),
    "windows-1251, undeclared": ("cp1251", "text/html", b"<!doctype html>"),
    "UTF-8 CJK, no ASCII": ("utf-8", "text/html; charset=utf-8", b""),
    "EUC-KR, no ASCII": ("euc_kr", "text/html; charset=euc-kr", b""),
    "gb18030, no ASCII": ("gb18030", "text/html; charset=gb18030", b""),
    "EUC-JP, no ASCII": ("euc_jp", "text/html; charset=euc-jp", b""),
    "EUC-JP JIS X 0212, no ASCII": ("euc_jp", "text/html; charset=euc-jp", b""),
}


def _text_for(name: str, encoder: str) -> str:
    if "JIS X 0212" in name:
        return _CJK + "丂丄丅"  # three-byte sequences 0x8F ...
    if "no ASCII" in name:
        return _KOREAN if encoder == "euc_kr" else _CJK
    return _PARAGRAPH if encoder != "cp1251" else "<p>Привет, мир! Как дела?</p>\n"


def _body(encoder: str, head: bytes, size: int, chunk: int, text: str) -> Iterator[bytes]:
    block = text.encode(encoder, "ignore") * max(1, chunk // 40)
    yield head
    sent = len(head)
    while sent < size:
        piece = block[: size - sent]
        # cut blocks at arbitrary offsets so that characters straddle chunks
        for start in range(0, len(piece), chunk):
            yield piece[start : start + chunk]
        sent += len(piece)


Run = tuple[float, str, str]  # seconds, sha256 of the text, provenance


def _stream(pieces: list[bytes], content_type: str) -> Run:
    started = time.perf_counter()
    decoder = StreamDecoder(content_type)
    digest = hashlib.sha256()
    for piece in pieces:
        digest.update(decoder.feed(piece).encode("utf-8", "surrogatepass"))
    digest.update(decoder.close().encode("utf-8", "surrogatepass"))
    elapsed = time.perf_counter() - started
    return elapsed, digest.hexdigest(), str(decoder.provenance)


def _whole(pieces: list[bytes], content_type: str) -> Run:
    started = time.perf_counter()
    body = b"".join(pieces)
    result = decode_html(body, content_type)
    elapsed = time.perf_counter() - started
    text_digest = hashlib.sha256(result.text.encode("utf-8", "surrogatepass")).hexdigest()
    return elapsed, text_digest, str(result.provenance)


def _peak(run: Callable[[list[bytes], str], Run], pieces: list[bytes], content_type: str) -> int:
    """The tracemalloc peak of one run, beyond the chunks themselves."""
    tracemalloc.start()
    run(pieces, content_type)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="body size in MB (10**6 bytes)")
    parser.add_argument("--chunk", type=int, default=65536, help="chunk size in bytes")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved timed runs per side")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    args = parser.parse_args()
    size = int(args.mb * 1_000_000)
    print(
        f"body {size / 1e6:.0f} MB, chunks of {args.chunk} bytes; seconds = best of "
        f"{args.repeat} interleaved runs; peak = tracemalloc peak (chunks held by the caller)"
    )
    header = (
        f"{'case':<28} {'stream s':>9} {'whole s':>8} {'ratio':>6} "
        f"{'stream MiB':>11} {'whole MiB':>10}  provenance"
    )
    print(header)
    print("-" * len(header))
    worst = 0.0
    for name, (encoder, content_type, head) in CASES.items():
        pieces = list(_body(encoder, head, size, args.chunk, _text_for(name, encoder)))
        best = {"stream": float("inf"), "whole": float("inf")}
        digests: dict[str, str] = {}
        provenance = ""
        for _ in range(args.repeat):
            for label, run in (("stream", _stream), ("whole", _whole)):
                elapsed, digest, provenance = run(pieces, content_type)
                best[label] = min(best[label], elapsed)
                digests[label] = digest
        ratio = best["stream"] / best["whole"]
        worst = max(worst, ratio)
        memory = (
            ""
            if args.no_memory
            else f"{_peak(_stream, pieces, content_type) / 2**20:>11.2f} "
            f"{_peak(_whole, pieces, content_type) / 2**20:>10.2f}"
        )
        same = "" if digests["stream"] == digests["whole"] else "  TEXT DIFFERS"
        print(
            f"{name:<28} {best['stream']:>9.3f} {best['whole']:>8.3f} {ratio:>5.2f}x "
            f"{memory}  {provenance}{same}"
        )
    print(f"worst ratio stream/whole: {worst:.2f}x (goal: at most 2x)")


if __name__ == "__main__":
    main()
