"""``browser-decode warc FILE... --out OUT``: decode the HTML pages of WARC archives.

Exit status: 0 when every input file was read (records that give no page are
counted and skipped, never fatal); 1 when an input file could not be opened
(the others are still processed); 2 for a usage error or a missing optional
dependency (FastWARC, or pyarrow for Parquet).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import IO, Any, Final

from ._archive import CONTENTS, FIELDS, MissingExtra, Summary
from ._run import CHUNK_BYTES, TaskResult, run

_TOP: Final = 12


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="browser-decode warc",
        description=(
            "Decode every HTML response of WARC files (plain or gzip) as a browser would; "
            "write one record per page. Needs: pip install 'browser-decode[warc]'."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="WARC or WARC.gz files")
    parser.add_argument(
        "--out", required=True, help="output file ('-' for standard output, JSON Lines only)"
    )
    parser.add_argument(
        "--format",
        choices=("jsonl", "parquet"),
        default=None,
        help="output format (default: parquet if OUT ends in .parquet, else jsonl)",
    )
    parser.add_argument(
        "--content",
        choices=CONTENTS,
        default="html",
        help="what to store per page: the decoded document (html, default), its visible "
        "text (text, a simple markup stripper, slower), or nothing (none)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to use (default: all cores); the output does not depend on it",
    )
    parser.add_argument(
        "--chunk-size",
        type=int,
        default=CHUNK_BYTES,
        metavar="BYTES",
        help="with --jobs > 1, split files bigger than this into tasks of about this size",
    )
    progress = parser.add_mutually_exclusive_group()
    progress.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar on standard error (default: when it is a terminal)",
    )
    progress.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show the progress bar"
    )
    return parser


class _Progress:
    """A one-line progress bar on a terminal: share of bytes read and records/s."""

    def __init__(self, stream: IO[str], total_bytes: int, enabled: bool) -> None:
        self.stream, self.total, self.enabled = stream, max(total_bytes, 1), enabled
        self.records = self.bytes = 0
        self.started = self.shown = time.monotonic()

    def __call__(self, records: int, read: int) -> None:
        self.records += records
        self.bytes += read
        now = time.monotonic()
        if self.enabled and now - self.shown >= 0.2:
            self.shown = now
            self.draw(now)

    def rate(self, now: float | None = None) -> float:
        elapsed = (time.monotonic() if now is None else now) - self.started
        return self.records / elapsed if elapsed > 0 else 0.0

    def draw(self, now: float) -> None:
        share = min(self.bytes / self.total, 1.0)
        bar = "#" * int(share * 30)
        self.stream.write(
            f"\r[{bar:<30}] {share:4.0%} {self.records:,} records {self.rate(now):,.0f} records/s"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.draw(time.monotonic())
            self.stream.write("\n")


def _counts(counter: Counter[str], indent: str = "    ") -> list[str]:
    common = counter.most_common(_TOP)
    width = max((len(key) for key, _ in common), default=0)
    lines = [f"{indent}{key:<{width}}  {count:>9,}" for key, count in common]
    if len(counter) > _TOP:
        rest = sum(counter.values()) - sum(count for _, count in common)
        lines.append(f"{indent}({len(counter) - _TOP} more kinds: {rest:,} records)")
    return lines


def format_summary(summary: Summary, seconds: float, files: int) -> str:
    """The summary that ends a run (printed on standard error)."""
    rate = summary.records / seconds if seconds > 0 else 0.0
    lines = [
        f"browser-decode warc: {files} file(s), {summary.records:,} records in "
        f"{seconds:.1f} s ({rate:,.0f} records/s)",
        f"pages: {summary.pages:,}",
        "  by encoding:",
        *_counts(summary.encodings),
        "  by source:",
        *_counts(summary.sources),
        f"  with replacement characters (U+FFFD): {summary.with_replacements:,}",
        f"skipped: {sum(summary.skipped.values()):,}",
        *_counts(summary.skipped, "  "),
    ]
    return "\n".join(lines) + "\n"


class _ParquetSink:
    def __init__(self, path: str, content: str) -> None:
        try:
            pa = importlib.import_module("pyarrow")
            pq = importlib.import_module("pyarrow.parquet")
        except ImportError:
            raise MissingExtra(
                "--format parquet needs pyarrow: pip install 'browser-decode[parquet]'"
            ) from None
        columns = [
            ("url", pa.string()), ("record_id", pa.string()), ("status", pa.int32()),
            ("content_type", pa.string()), ("encoding", pa.string()), ("source", pa.string()),
            ("confidence", pa.string()), ("replacements", pa.int64()), ("bytes", pa.int64()),
        ]  # fmt: skip
        assert tuple(name for name, _ in columns) == FIELDS
        if content != "none":
            columns.append((content, pa.large_string()))
        self.pa = pa
        self.schema = pa.schema(columns)
        self.writer = pq.ParquetWriter(path, self.schema)

    def write(self, result: TaskResult) -> None:
        if result.rows:
            self.writer.write_table(self.pa.Table.from_pylist(result.rows, schema=self.schema))

    def close(self) -> None:
        self.writer.close()


class _JsonlSink:
    def __init__(self, path: str) -> None:
        self.stream: IO[bytes] = sys.stdout.buffer if path == "-" else open(path, "wb")  # noqa: SIM115

    def write(self, result: TaskResult) -> None:
        self.stream.write(result.jsonl)

    def close(self) -> None:
        if self.stream is sys.stdout.buffer:
            self.stream.flush()
        else:
            self.stream.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``browser-decode warc`` with *argv* (the arguments after ``warc``)."""
    parser = _parser()
    args = parser.parse_args(argv)
    fmt = args.format or ("parquet" if args.out.endswith(".parquet") else "jsonl")
    if fmt == "parquet" and args.out == "-":
        parser.error("--format parquet needs a file for --out")
    if args.jobs < 1 or args.chunk_size < 1:
        parser.error("--jobs and --chunk-size must be positive")
    status = 0
    paths: list[str] = []
    for path in args.files:
        try:
            with open(path, "rb"):
                paths.append(path)
        except OSError as error:
            print(f"browser-decode warc: cannot read {path}: {error.strerror}", file=sys.stderr)
            status = 1
    progress = _Progress(
        sys.stderr,
        sum(os.path.getsize(p) for p in paths),
        sys.stderr.isatty() if args.progress is None else args.progress,
    )
    summary = Summary()
    sink: Any = None
    try:
        sink = _ParquetSink(args.out, args.content) if fmt == "parquet" else _JsonlSink(args.out)
        results = run(
            paths,
            jobs=args.jobs,
            content=args.content,
            output="rows" if fmt == "parquet" else "jsonl",
            chunk_bytes=args.chunk_size,
            progress=progress,
        )
        for result in results:
            sink.write(result)
            summary.add(result.summary)
    except MissingExtra as error:
        print(f"browser-decode warc: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"browser-decode warc: {error}", file=sys.stderr)
        return 1
    finally:
        if sink is not None:
            sink.close()
    progress.close()
    sys.stderr.write(format_summary(summary, time.monotonic() - progress.started, len(paths)))
    return status


if __name__ == "__main__":
    sys.exit(main())
