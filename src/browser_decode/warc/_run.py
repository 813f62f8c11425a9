"""Running :class:`~._archive.Task` lists: one process, all cores, in order.

A run is a list of tasks whose results are concatenated in task order, so the
output does not depend on how many processes (or cluster workers) ran them.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import sys
import threading
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .._api import decode_html
from ._archive import Content, Record, Summary, Task, _archive_iterator, iter_records, read_pages

#: Files larger than this are split into tasks of about this many bytes.
CHUNK_BYTES: Final = 16 << 20

_JSON: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":"))
_JSON_ASCII: Final = json.JSONEncoder(check_circular=False, separators=(",", ":"))


def to_json_line(page: dict[str, Any]) -> bytes:
    """One JSON Lines record (UTF-8; lone surrogates, if any, are escaped)."""
    try:
        return (_JSON.encode(page) + "\n").encode()
    except UnicodeEncodeError:
        return (_JSON_ASCII.encode(page) + "\n").encode()


@dataclass
class TaskResult:
    """A task's output: JSON Lines bytes or rows, and its summary."""

    summary: Summary
    span: int
    jsonl: bytes = b""
    rows: list[dict[str, Any]] = field(default_factory=list)


def run_task(
    task: Task,
    content: Content = "html",
    output: Literal["jsonl", "rows"] = "jsonl",
    progress: Callable[[int, int], None] | None = None,
) -> TaskResult:
    """Run one task; safe to call in any process (it only reads *task.path*).

    *progress* gets (records, bytes) read since its previous call.
    """
    summary = Summary()
    stop = os.path.getsize(task.path) if task.stop is None else task.stop
    done = task.start

    def report(records: int, position: int) -> None:
        nonlocal done
        position = stop if position < 0 else position
        assert progress is not None
        progress(records, position - done)
        done = position

    pages = read_pages(
        task.path,
        content=content,
        start=task.start,
        stop=task.stop,
        align=task.align,
        summary=summary,
        progress=None if progress is None else report,
    )
    if output == "rows":
        return TaskResult(summary, stop - task.start, rows=list(pages))
    return TaskResult(summary, stop - task.start, jsonl=b"".join(map(to_json_line, pages)))


def iter_split(
    path: str, positions: Iterable[int], chunk_bytes: int = CHUNK_BYTES
) -> Iterator[Task]:
    """Tasks of about *chunk_bytes* each over *path*, cut at record *positions*.

    Lazy: a task is yielded as soon as the positions reach its end.
    """
    start = 0
    for position in positions:
        if position - start >= chunk_bytes:
            yield Task(path, start, position)
            start = position
    yield Task(path, start, None)


def split(path: str, positions: Iterable[int], chunk_bytes: int = CHUNK_BYTES) -> list[Task]:
    """Tasks of about *chunk_bytes* each over *path*, cut at record *positions*."""
    return list(iter_split(path, positions, chunk_bytes))


def plan(paths: list[str], chunk_bytes: int = CHUNK_BYTES, *, cut: bool = True) -> Iterator[Task]:
    """The tasks over *paths*: whole files, and with *cut* files over *chunk_bytes* cut.

    A gzip WARC with one member per record is cut at fixed byte offsets (each
    task finds its first member). An uncompressed WARC is cut at record offsets,
    read here as the tasks are consumed (an index pass: FastWARC skips from
    record to record), so that the first tasks run while the rest is indexed.
    Any other file is one task. One process needs no cutting (*cut* false):
    whole files and their parts give the same records.
    """
    for path in paths:
        size = os.path.getsize(path)
        if not cut or size <= chunk_bytes:
            yield Task(path)
        elif _per_record_gzip(path):
            # Gzip members can be found without decompressing the file: fixed byte
            # ranges, each task aligning its start on the next WARC member.
            for start in range(0, size, chunk_bytes):
                stop = start + chunk_bytes
                yield Task(path, start, stop if stop < size else None, align=True)
        elif _starts_with(path, b"WARC/"):  # uncompressed: the index pass reads headers, seeks
            positions = (
                r.position for r in iter_records(path, heads=False) if isinstance(r, Record)
            )
            yield from iter_split(path, positions, chunk_bytes)
        else:  # one gzip (or zstd, lz4) stream: it can only be read from the start
            yield Task(path)


#: A first gzip member that inflates to more than this is taken for a whole-file stream.
_MEMBER_LIMIT: Final = 32 << 20


def _per_record_gzip(path: str) -> bool:
    """Whether *path* is gzip with one member per record, checked on its first member.

    Per-record members (what WARC 1.1's annex on compression recommends, and
    what crawlers write) let a reader start at any member; a file compressed as
    one stream has to be read from its start.
    """
    if not _starts_with(path, b"\x1f\x8b"):
        return False
    decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
    inflated = 0
    with open(path, "rb") as handle:
        while not decompressor.eof:
            chunk = handle.read(1 << 16)
            if not chunk or inflated > _MEMBER_LIMIT:
                return False
            try:
                inflated += len(decompressor.decompress(chunk))
            except zlib.error:
                return False
        following = decompressor.unused_data + handle.read(64)
    return following.startswith(b"\x1f\x8b")


def _starts_with(path: str, magic: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(magic)) == magic


def _context() -> multiprocessing.context.BaseContext:
    """Fork where it is safe (Linux, one thread): workers start without imports.

    Elsewhere spawn, which imports the library afresh in every worker.
    """
    if sys.platform == "linux" and threading.active_count() == 1:
        # Load what the decoder imports lazily, so that forked workers inherit it.
        decode_html(b"\xc0\xe0\xf0 undeclared", "text/html")
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run(
    paths: list[str],
    *,
    jobs: int = 1,
    content: Content = "html",
    output: Literal["jsonl", "rows"] = "jsonl",
    chunk_bytes: int = CHUNK_BYTES,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[TaskResult]:
    """The results of all tasks over *paths*, in order, on *jobs* processes.

    The concatenated output is the same for every *jobs*: each task's output
    depends only on its byte range, and results are yielded in task order.
    *progress* gets (records, bytes) as work completes.
    """
    _archive_iterator()  # fail early, in this process, when FastWARC is missing
    if jobs <= 1 or (len(paths) == 1 and os.path.getsize(paths[0]) <= chunk_bytes):
        for task in plan(paths, chunk_bytes, cut=False):  # one process: whole files
            yield run_task(task, content, output, progress)
        return
    with ProcessPoolExecutor(jobs, mp_context=_context()) as pool:
        tasks = plan(paths, chunk_bytes)
        window: deque[Future[TaskResult]] = deque()
        for task in itertools.islice(tasks, 2 * jobs):
            window.append(pool.submit(run_task, task, content, output))
        while window:
            result = window.popleft().result()
            for task in itertools.islice(tasks, 1):
                window.append(pool.submit(run_task, task, content, output))
            if progress is not None:
                progress(result.summary.records, result.span)
            yield result
