"""Peak memory of ``browser-decode warc``: bounded by the largest record, not by the output.

    python benchmarks/bench_warc_memory.py [--gigabytes 1.0] [--keep DIR]

Builds a gzip WARC (one member per record) whose pages decode to about
``--gigabytes`` of JSON Lines, runs the command on it with ``--jobs 1`` and
``--jobs 2`` in a subprocess, and samples the resident memory of the whole
process tree (the command and its workers) every 20 ms. Then the hostile
records of issue 16: one record of 1-byte chunks (60 MiB), a brotli bomb
(10 GiB of output from under 1 KiB), a gzip bomb; each must be skipped quickly
and in bounded memory. Prints peak RSS (tree and largest single process),
seconds and output size per run.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psutil

MB = 1 << 20


def record(uri: str, block: bytes, number: int) -> bytes:
    head = (
        f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uuid.UUID(int=number)}>\r\n"
        f"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
        f"Content-Type: application/http; msgtype=response\r\nContent-Length: {len(block)}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def response(body: bytes, *headers: str) -> bytes:
    return ("\r\n".join(["HTTP/1.1 200 OK", *headers]) + "\r\n\r\n").encode() + body


def big_archive(path: Path, gigabytes: float) -> int:
    """Pages of 256 KiB of UTF-8 text (charset in the header); returns the page count."""
    line = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю. Weather: sunny.</p>\n"
    body = ("<!doctype html>" + line * (256 * 1024 // len(line.encode()))).encode()
    pages = int(gigabytes * 1e9 / len(body))
    with path.open("wb") as out:
        for number in range(pages):
            block = response(body, "Content-Type: text/html; charset=utf-8")
            out.write(gzip.compress(record(f"http://x/{number}", block, number), 1, mtime=0))
    return pages


def hostile_archive(path: Path) -> None:
    brotli = __import__("brotli")
    chunked = b"1\r\nx\r\n" * (10 * MB) + b"0\r\n\r\n"  # 60 MiB of 1-byte chunks
    bomb = brotli.compress(b"\0" * (1 << 30), quality=11)  # 1 GiB of zeros
    gzip_bomb = gzip.compress(b"<p>" + b"\0" * (1 << 30), 9)
    blocks = [
        response(chunked, "Content-Type: text/html", "Transfer-Encoding: chunked"),
        response(bomb, "Content-Type: text/html", "Content-Encoding: br"),
        response(gzip_bomb, "Content-Type: text/html", "Content-Encoding: gzip"),
    ]
    with path.open("wb") as out:
        for number, block in enumerate(blocks):
            out.write(gzip.compress(record(f"http://h/{number}", block, number), 1, mtime=0))


def measure(args: list[str]) -> tuple[float, float, float, int, str]:
    """Peak RSS of the tree (MB), of one process (MB), seconds, exit status, stderr."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
        root = psutil.Process(process.pid)
        tree_peak = single_peak = 0
        while process.poll() is None:
            try:
                processes = [root, *root.children(recursive=True)]
                sizes = []
                for each in processes:
                    with contextlib.suppress(psutil.NoSuchProcess):
                        sizes.append(each.memory_info().rss)
                tree_peak = max(tree_peak, sum(sizes))
                single_peak = max(single_peak, max(sizes, default=0))
            except psutil.NoSuchProcess:
                pass
            time.sleep(0.02)
        seconds = time.perf_counter() - started
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return tree_peak / MB, single_peak / MB, seconds, process.returncode, text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gigabytes", type=float, default=1.0)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep its files")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = options.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        archive, out = folder / "big.warc.gz", folder / "out.jsonl"
        pages = big_archive(archive, options.gigabytes)
        print(f"archive: {pages:,} pages, {archive.stat().st_size / MB:,.1f} MiB gzip")
        command = [sys.executable, "-m", "browser_decode", "warc", "--no-progress"]
        print(f"{'run':<28} {'peak RSS, tree':>15} {'largest process':>16} {'seconds':>8} "
              f"{'output':>10}  status")  # fmt: skip
        # Tasks of 1/16 of the archive, so that --jobs 2 really runs two workers.
        chunk = str(max(archive.stat().st_size // 16, 1 << 16))
        for jobs in (1, 2):
            tree, single, seconds, status, _ = measure(
                [
                    *command,
                    str(archive),
                    "--out",
                    str(out),
                    "--jobs",
                    str(jobs),
                    "--chunk-size",
                    chunk,
                ]
            )
            size = out.stat().st_size / 1e9 if out.exists() else 0.0
            print(
                f"{f'--jobs {jobs}':<28} {tree:>12,.0f} MB {single:>13,.0f} MB {seconds:>8.1f} "
                f"{size:>7.2f} GB  {status}"
            )
            out.unlink(missing_ok=True)
        hostile = folder / "hostile.warc.gz"
        hostile_archive(hostile)
        tree, single, seconds, status, err = measure(
            [*command, str(hostile), "--out", str(out), "--jobs", "1"]
        )
        print(
            f"{'hostile records, --jobs 1':<28} {tree:>12,.0f} MB {single:>13,.0f} MB "
            f"{seconds:>8.1f} {out.stat().st_size:>8,} B  {status}"
        )
        print("skipped:", " | ".join(line.strip() for line in err.splitlines()[-3:]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    sys.exit(main())
