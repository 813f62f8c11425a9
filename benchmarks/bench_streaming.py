"""Memory and speed of StreamDecoder on a large streamed body, with decode_html as the peer.

Generates a body of --mb megabytes on the fly (never held whole by the
streaming run), feeds it in --chunk-byte chunks to ``StreamDecoder`` and
records the tracemalloc peak; then decodes the same body with ``decode_html``
in one piece (the body and its text in memory) and prints the ratios.

    python benchmarks/bench_streaming.py            # 50 MB, 64 KiB chunks
    python benchmarks/bench_streaming.py --mb 5 --chunk 1000
"""

from __future__ import annotations

import argparse
import hashlib
import time
import tracemalloc
from collections.abc import Iterator

from browser_decode import StreamDecoder, decode_html

_PARAGRAPH = "<p>Grüße — 東京の価格は 1.000～2.000 円です。Привет, мир! €</p>\n"

CASES = {
    # name: (encoding for the Python encoder, content type, head of the body)
    "UTF-8, <meta>": ("utf-8", "text/html", b"<!doctype html><meta charset=utf-8>"),
    "Shift_JIS, header": ("cp932", "text/html; charset=shift_jis", b"<!doctype html>"),
    "windows-1251, undeclared": ("cp1251", "text/html", b"<!doctype html>"),
}


def _body(encoder: str, head: bytes, size: int, chunk: int) -> Iterator[bytes]:
    text = _PARAGRAPH if encoder != "cp1251" else "<p>Привет, мир! Как дела?</p>\n"
    block = text.encode(encoder, "ignore") * max(1, chunk // 40)
    yield head
    sent = len(head)
    while sent < size:
        piece = block[: size - sent]
        # cut blocks at arbitrary offsets so that characters straddle chunks
        for start in range(0, len(piece), chunk):
            yield piece[start : start + chunk]
        sent += len(piece)


Run = tuple[float, int, str, str]  # seconds, tracemalloc peak, sha256 of the text, provenance


def _stream(encoder: str, content_type: str, head: bytes, size: int, chunk: int) -> Run:
    tracemalloc.start()
    started = time.perf_counter()
    decoder = StreamDecoder(content_type)
    digest = hashlib.sha256()
    for piece in _body(encoder, head, size, chunk):
        digest.update(decoder.feed(piece).encode("utf-8", "surrogatepass"))
    digest.update(decoder.close().encode("utf-8", "surrogatepass"))
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, peak, digest.hexdigest(), str(decoder.provenance)


def _whole(encoder: str, content_type: str, head: bytes, size: int, chunk: int) -> Run:
    tracemalloc.start()
    started = time.perf_counter()
    body = b"".join(_body(encoder, head, size, chunk))
    result = decode_html(body, content_type)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    text_digest = hashlib.sha256(result.text.encode("utf-8", "surrogatepass")).hexdigest()
    return elapsed, peak, text_digest, str(result.provenance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0, help="body size in MB (10**6 bytes)")
    parser.add_argument("--chunk", type=int, default=65536, help="chunk size in bytes")
    parser.add_argument("--no-peer", action="store_true", help="skip decode_html on the whole body")
    args = parser.parse_args()
    size = int(args.mb * 1_000_000)
    print(f"body {size / 1e6:.0f} MB, chunks of {args.chunk} bytes; peak = tracemalloc peak")
    header = f"{'case':<26} {'run':<14} {'seconds':>8} {'MB/s':>7} {'peak MiB':>9}  provenance"
    print(header)
    print("-" * len(header))
    for name, (encoder, content_type, head) in CASES.items():
        runs = [("StreamDecoder", _stream)] + ([] if args.no_peer else [("decode_html", _whole)])
        results: dict[str, tuple[float, int, str]] = {}
        for label, run in runs:
            elapsed, peak, digest, provenance = run(encoder, content_type, head, size, args.chunk)
            results[label] = (elapsed, peak, digest)
            print(
                f"{name:<26} {label:<14} {elapsed:>8.2f} {size / 1e6 / elapsed:>7.1f} "
                f"{peak / 2**20:>9.2f}  {provenance}"
            )
        if len(results) == 2:
            (s_time, s_peak, s_text), (w_time, w_peak, w_text) = results.values()
            same = "identical text" if s_text == w_text else "TEXT DIFFERS"
            print(
                f"{'':<26} {'ratio':<14} {s_time / w_time:>8.2f}x {'':>7} "
                f"{s_peak / w_peak:>9.4f}x  stream/whole, {same}"
            )


if __name__ == "__main__":
    main()
