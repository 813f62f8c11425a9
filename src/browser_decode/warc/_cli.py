"""``browser-decode warc FILE... --out OUT``: decode the HTML pages of WARC archives.

Exit status: the rule shared with the page CLI (:mod:`.._cli.common`): 0 when
every input file was read (records that give no page are counted and skipped,
never fatal); 1 when some input files could not be read (the others are still
processed); 2 for a usage error or a missing optional dependency (pyarrow for
Parquet); 3 when no input file could be read; 4 when the output could not be
written; 5 when a worker process died; 128+N when stopped by signal N. The
output file is written under a temporary name and renamed when the run ends
well: a stopped or failed run never leaves a partial file under its name.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import shutil
import signal
import stat
import sys
import time
from collections import Counter
from collections.abc import Sequence
from types import FrameType
from typing import IO, Any, Final

from .._cli.common import (
    EXIT_OUTPUT,
    EXIT_USAGE,
    EXIT_WORKER_DIED,
    add_progress_arguments,
    exit_for_inputs,
    exit_for_signal,
)
from ._archive import CONTENTS, FIELDS, MissingExtra, Summary
from ._http import MAX_BODY
from ._run import CHUNK_BYTES, WorkerDied, page_line, stream

_TOP: Final = 12


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="browser-decode warc",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "exit status: 0 all inputs read; 1 some inputs unreadable; 2 usage error or a "
            "missing package;\n3 no input readable; 4 output not writable; 5 a worker process "
            "died; 128+N stopped by signal N.\nbr payloads need brotli: pip install -e "
            "'.[warc]' in a checkout (pip install 'browser-decode[warc]' from PyPI)."
        ),
        description=(
            "Decode every HTML response of WARC files (plain or gzip) as a browser would; "
            "write one record per page. XML responses (XHTML, feeds, sitemaps) are decoded by "
            "the XML rules."
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
    parser.add_argument(
        "--max-page-bytes",
        type=int,
        default=MAX_BODY,
        metavar="BYTES",
        help="skip (and count as 'too large') a record whose block or decoded body is over "
        f"this (default: {MAX_BODY:,}); memory use is bounded by it",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop the whole run after this many seconds, as SIGALRM would (exit 142, the "
        "summary so far, no output file); default: no limit, since a re-processing job has no "
        "natural bound and --max-page-bytes already bounds each record",
    )
    parser.add_argument(
        "--detector",
        choices=("builtin", "charset-normalizer"),
        default="builtin",
        help="who guesses the encoding of undeclared pages, as decode_html(detector=...) "
        "(docs/detectors.md; default: builtin); a detected page's 'detector' field names it",
    )
    add_progress_arguments(parser)
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
        *(["  detected by:", *_counts(summary.detectors)] if summary.detectors else []),
        f"  with replacement characters (U+FFFD): {summary.with_replacements:,}",
        f"skipped: {sum(summary.skipped.values()):,}",
        *_counts(summary.skipped, "  "),
    ]
    return "\n".join(lines) + "\n"


def _temporary(path: str) -> str | None:
    """A temporary name next to *path* for writing it, or ``None`` to write it in place.

    Devices, pipes and other non-regular outputs (``/dev/stdout``, a FIFO) are
    written in place; a regular file is renamed from the temporary one at the end.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
    except FileNotFoundError:
        pass
    head, tail = os.path.split(path)
    return os.path.join(head, f".{tail}.{os.getpid()}.partial")


class _FileSink:
    """An output file written under a temporary name, renamed by :meth:`commit`."""

    def __init__(self, path: str) -> None:
        self.final = path
        self.temp = None if path == "-" else _temporary(path)
        self.target = self.temp or path

    def _finish(self) -> None:
        raise NotImplementedError

    def commit(self) -> None:
        self._finish()
        if self.temp is not None:
            os.replace(self.temp, self.final)

    def discard(self) -> None:
        with contextlib.suppress(Exception):
            self._finish()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)


class _ParquetSink(_FileSink):
    #: Rows are written in row groups of this many pages (or fewer, for big pages).
    BATCH: Final = 1000
    BATCH_BYTES: Final = 32 << 20

    def __init__(self, path: str, content: str) -> None:
        super().__init__(path)
        try:
            pa = importlib.import_module("pyarrow")
            pq = importlib.import_module("pyarrow.parquet")
        except ImportError:
            raise MissingExtra(
                "--format parquet needs pyarrow: pip install -e '.[parquet]' in a checkout "
                "(pip install 'browser-decode[parquet]' from PyPI)"
            ) from None
        columns = [
            ("url", pa.string()), ("record_id", pa.string()), ("warc_date", pa.string()),
            ("warc_file", pa.string()), ("offset", pa.int64()), ("length", pa.int64()),
            ("status", pa.int32()), ("content_type", pa.string()), ("encoding", pa.string()),
            ("label", pa.string()), ("source", pa.string()), ("confidence", pa.string()),
            ("score", pa.float64()), ("runner_up", pa.string()), ("detector", pa.string()),
            ("binary", pa.bool_()), ("replacements", pa.int64()), ("bytes", pa.int64()),
        ]  # fmt: skip
        assert tuple(name for name, _ in columns) == FIELDS
        self.content = content
        if content != "none":
            columns.append((content, pa.large_string()))
        self.pa = pa
        self.schema = pa.schema(columns)
        self.names = [name for name, _ in columns]
        # Rows not yet written: pages as columns, and tables read from part files.
        self.columns: dict[str, list[Any]] = {name: [] for name in self.names}
        self.pending: list[Any] = []
        self.count = self.size = 0
        # Dictionary encoding suits the short repeated columns (encoding, source, ...); the
        # pages themselves are all different: hashing them for a dictionary that is then
        # given up costs about a sixth of the writing.
        self.writer = pq.ParquetWriter(
            self.target,
            self.schema,
            use_dictionary=[name for name in self.names if name != content],
        )

    def add(self, page: dict[str, Any]) -> None:
        for name, column in self.columns.items():
            column.append(page.get(name))
        self.count += 1
        self.size += len(page.get(self.content) or "")
        if self.count >= self.BATCH or self.size >= self.BATCH_BYTES:
            self._flush()

    def add_part(self, part: IO[bytes]) -> None:
        """A worker's JSON Lines, parsed by Arrow's JSON reader (C++), in the same row groups."""
        table = self._read_part(part)
        if table is None:  # a line longer than a block: one line at a time
            for line in part:
                self.add(json.loads(line))
            return
        if self.content == "none":
            sizes = [0] * table.num_rows
        else:
            compute = importlib.import_module("pyarrow.compute")
            sizes = compute.utf8_length(table[self.content]).fill_null(0).to_pylist()
        start = 0
        for row, size in enumerate(sizes):
            self.count += 1
            self.size += size
            if self.count >= self.BATCH or self.size >= self.BATCH_BYTES:
                self.pending.append(table.slice(start, row + 1 - start))
                start = row + 1
                self._flush()
        if start < table.num_rows:
            self.pending.append(table.slice(start))

    #: Arrow's JSON reader parses blocks of this size; a longer line falls back to json.loads.
    BLOCK: Final = 16 << 20

    def _read_part(self, part: IO[bytes]) -> Any:
        reader = importlib.import_module("pyarrow.json")
        try:
            return reader.read_json(
                part,
                read_options=reader.ReadOptions(block_size=self.BLOCK),
                parse_options=reader.ParseOptions(
                    explicit_schema=self.schema, unexpected_field_behavior="error"
                ),
            )
        except self.pa.ArrowException:
            part.seek(0)
            return None

    def _flush(self) -> None:
        if self.columns[self.names[0]]:
            self.pending.append(self.pa.Table.from_pydict(self.columns, schema=self.schema))
            self.columns = {name: [] for name in self.names}
        if self.pending:
            # One chunk per column, as one process writes it: the same file for every --jobs.
            self.writer.write_table(self.pa.concat_tables(self.pending).combine_chunks())
        self.pending, self.count, self.size = [], 0, 0

    def _finish(self) -> None:
        try:
            self._flush()
        finally:
            self.writer.close()


class _JsonlSink(_FileSink):
    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.stream: IO[bytes] = (
            sys.stdout.buffer if path == "-" else open(self.target, "wb")  # noqa: SIM115
        )

    def add(self, page: dict[str, Any]) -> None:
        self.stream.write(page_line(page))

    def add_part(self, part: IO[bytes]) -> None:
        shutil.copyfileobj(part, self.stream, 1 << 20)

    def _finish(self) -> None:
        if self.stream is sys.stdout.buffer:
            self.stream.flush()
        else:
            self.stream.close()


class _Stopped(BaseException):
    """SIGTERM or SIGINT arrived: the run stops, its workers and temporary files go."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_signal(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def _inputs(files: list[str]) -> tuple[list[str], int]:
    """The input files that can be read, and how many cannot (each reported)."""
    paths: list[str] = []
    failed = 0
    for path in files:
        try:
            # Checked before opening: opening a FIFO would wait for a writer.
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise IsADirectoryError(0, "not a regular file")
            with open(path, "rb"):
                paths.append(path)
        except OSError as error:
            reason = error.strerror or str(error)
            print(f"browser-decode warc: cannot read {path}: {reason}", file=sys.stderr)
            failed += 1
    return paths, failed


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``browser-decode warc`` with *argv* (the arguments after ``warc``)."""
    parser = _parser()
    args = parser.parse_args(argv)
    fmt = args.format or ("parquet" if args.out.endswith(".parquet") else "jsonl")
    if fmt == "parquet" and args.out == "-":
        parser.error("--format parquet needs a file for --out")
    if args.jobs < 1 or args.chunk_size < 1 or args.max_page_bytes < 1:
        parser.error("--jobs, --chunk-size and --max-page-bytes must be positive")
    if args.timeout is not None and not args.timeout > 0:
        parser.error("--timeout must be a positive number of seconds")
    # Non-regular inputs (/dev/zero, a FIFO, a directory) are refused, as unreadable ones.
    paths, failed = _inputs(args.files)
    progress = _Progress(
        sys.stderr,
        sum(os.path.getsize(p) for p in paths),
        sys.stderr.isatty() if args.progress is None else args.progress,
    )
    summary = Summary()
    sink: _ParquetSink | _JsonlSink | None = None
    handlers = {}
    with contextlib.suppress(ValueError):  # signal handlers: main thread only
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
            handlers[signum] = signal.signal(signum, _on_signal)
        if args.timeout is not None:
            # The total deadline: the alarm stops the run like SIGTERM does.
            signal.setitimer(signal.ITIMER_REAL, args.timeout)
    try:
        try:
            sink = (
                _ParquetSink(args.out, args.content) if fmt == "parquet" else _JsonlSink(args.out)
            )
            stream(
                paths,
                sink,
                jobs=args.jobs,
                content=args.content,
                chunk_bytes=args.chunk_size,
                limit=args.max_page_bytes,
                progress=progress,
                summary=summary,
                detector=args.detector,
            )
            sink.commit()
        except MissingExtra as error:
            return _fail(sink, f"browser-decode warc: {error}", EXIT_USAGE)
        except WorkerDied as error:
            return _fail(sink, f"browser-decode warc: {error}; stopped", EXIT_WORKER_DIED, summary)
        except _Stopped as stop:
            name = signal.Signals(stop.signum).name
            why = f"--timeout of {args.timeout:g} s reached" if name == "SIGALRM" else name
            return _fail(
                sink,
                f"browser-decode warc: stopped by {why}",
                exit_for_signal(stop.signum),
                summary,
            )
        except OSError as error:
            where = args.out if error.filename is None else error.filename
            reason = error.strerror or str(error)
            return _fail(
                sink, f"browser-decode warc: cannot write {where}: {reason}", EXIT_OUTPUT, summary
            )
    finally:
        if args.timeout is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    progress.close()
    sys.stderr.write(format_summary(summary, time.monotonic() - progress.started, len(paths)))
    return exit_for_inputs(failed, len(args.files))


def _fail(
    sink: _ParquetSink | _JsonlSink | None,
    message: str,
    status: int,
    summary: Summary | None = None,
) -> int:
    """Discard the partial output, say why, print the summary so far; *status*."""
    if sink is not None:
        sink.discard()
    print(message, file=sys.stderr)
    if summary is not None:
        sys.stderr.write("summary so far:\n" + format_summary(summary, 0.0, 0))
    return status


if __name__ == "__main__":
    sys.exit(main())
