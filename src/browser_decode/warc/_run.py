"""Running :class:`~._archive.Task` lists: one process, all cores, in order.

A run is a list of tasks whose results are concatenated in task order, so the
output does not depend on how many processes (or cluster workers) ran them. Nor
does it depend on how a file is cut into tasks, on damaged archives too: a task
reports what starts in its range (records, and stretches of junk or damage) and
ends where the next one begins (:mod:`._archive`), so the tasks of a file give the
pages and the summary (every count, every skip reason) of one task over all of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import itertools
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import IO, Any, Final, Literal, Protocol

from .._api import decode_html
from .._detect._external import DetectorArg, resolve_detector
from ._archive import Content, Record, Summary, Task, iter_records, read_pages, utf8_body
from ._http import MAX_BODY

#: Files larger than this are split into tasks of about this many bytes.
CHUNK_BYTES: Final = 16 << 20

_JSON: Final = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(",", ":"))
_JSON_ASCII: Final = json.JSONEncoder(check_circular=False, separators=(",", ":"))


def _orjson() -> tuple[Callable[[dict[str, Any]], bytes], type[Exception]] | None:
    """orjson's ``dumps`` (one line, UTF-8) and its error, if installed (the ``[warc]`` extra).

    It writes the same bytes as the standard library's encoder above for the values
    :func:`_same_with_orjson` admits, about twice as fast (it escapes and encodes to
    UTF-8 in one pass).
    """
    try:
        module = importlib.import_module("orjson")
    except ImportError:
        return None
    option = module.OPT_APPEND_NEWLINE

    def dumps(page: dict[str, Any]) -> bytes:
        result: bytes = module.dumps(page, option=option)
        return result

    return dumps, module.JSONEncodeError


_ORJSON: Final = _orjson()
_PLAIN: Final = frozenset({str, int, bool, type(None)})


def _same_with_orjson(page: dict[str, Any]) -> bool:
    """Whether orjson writes *page* byte for byte as the standard library does.

    Strings (orjson refuses lone surrogates: then the standard library escapes them),
    ints (orjson refuses more than 64 bits), booleans, ``None``, and floats written
    without an exponent (Python writes ``1e-05``, orjson ``1e-5``; NaN fails here too).
    """
    for key, value in page.items():
        kind = type(value)
        if kind is float:
            if not (value == 0.0 or 1e-4 <= abs(value) < 1e16):
                return False
        elif kind not in _PLAIN or type(key) is not str:
            return False
    return True


def to_json_line(page: dict[str, Any]) -> bytes:
    """One JSON Lines record (UTF-8; lone surrogates, if any, are escaped).

    The same bytes with or without orjson (the ``[warc]`` extra), which only makes it faster.
    """
    if _ORJSON is not None and _same_with_orjson(page):
        dumps, error = _ORJSON
        try:
            return dumps(page)
        except error:  # a lone surrogate, an int over 64 bits
            pass
    return _stdlib_line(page)


def _stdlib_line(page: dict[str, Any]) -> bytes:
    """The standard library's JSON line of *page* (lone surrogates escaped)."""
    try:
        return (_JSON.encode(page) + "\n").encode()
    except UnicodeEncodeError:
        return (_JSON_ASCII.encode(page) + "\n").encode()


def page_line(page: dict[str, Any]) -> bytes:
    """:func:`to_json_line` of a page of :func:`~._archive.read_pages`, the same bytes.

    A page's fields are strings, ints, booleans and ``None`` (:data:`~._archive.FIELDS`)
    but for ``score``, a float or ``None``: only that one is checked here, not every
    field's type (a loop over the 19 fields was a microsecond a page).
    """
    score = page.get("score")
    if _ORJSON is not None and (
        type(score) in _PLAIN
        or (type(score) is float and (score == 0.0 or 1e-4 <= abs(score) < 1e16))
    ):
        dumps, error = _ORJSON
        try:
            # (a UTF-8 page's text from its body's bytes, when page_of kept them)
            utf8 = utf8_body(page)
            if utf8 is not None and (line := _utf8_page_line(page, utf8, dumps)) is not None:
                return line
            return dumps(page)
        except error:  # a lone surrogate, an int over 64 bits
            return _stdlib_line(page)
    return to_json_line(page)


#: The bytes 0x00-0x1F but tab, line feed and carriage return (``bytes.translate``'s
#: deleted bytes: what is left of a body is those of them it holds).
_ALL_BUT_OTHER_CONTROLS: Final = bytes(b for b in range(256) if b >= 0x20 or b in b"\t\n\r")


def _utf8_page_line(
    page: dict[str, Any], utf8: bytes, dumps: Callable[[dict[str, Any]], bytes]
) -> bytes | None:
    r"""orjson's line of a page whose last field, ``html``, is the text *utf8* decodes to
    (without an error): the other fields by orjson, the text from its bytes, escaped as
    orjson escapes it, not encoded again (4-5 us less on a 20 KB page). ``None`` for a
    text with other control characters (orjson writes ``\b``, ``\f``, ``\u00XX``: rare).

    orjson writes a string's UTF-8 bytes as they are but for ``"`` and ``\`` (escaped
    with a backslash) and U+0000-U+001F (``\t``, ``\n``, ``\r`` and the others above); a
    body decoded without an error holds no surrogate, which it would refuse.
    """
    if (
        len(page) < 2
        or next(reversed(page)) != "html"
        or utf8.translate(None, _ALL_BUT_OTHER_CONTROLS)
    ):
        return None
    text = page.pop("html")
    try:
        head = dumps(page)  # (``{...}`` and a newline)
    finally:
        page["html"] = text
    escaped = (
        utf8.replace(b"\\", b"\\\\")
        .replace(b'"', b'\\"')
        .replace(b"\n", b"\\n")
        .replace(b"\r", b"\\r")
        .replace(b"\t", b"\\t")
    )
    return b"".join((head[:-2], b',"html":"', escaped, b'"}\n'))


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
    limit: int = MAX_BODY,
    *,
    detector: DetectorArg = None,
) -> TaskResult:
    """Run one task; safe to call in any process (it only reads *task.path*).

    The task's whole output is returned in memory (its size is bounded by the
    task's byte range): for clusters. The CLI streams instead (:func:`stream`).
    *progress* gets (records, bytes) read since its previous call. *detector* is
    :func:`~browser_decode.decode_html`'s (for a cluster: a name, or a callable
    that pickles).
    """
    summary = Summary()
    pages = task_pages(task, content, summary, progress, limit, detector=detector)
    span = _span(task)
    if output == "rows":
        return TaskResult(summary, span, rows=list(pages))
    return TaskResult(summary, span, jsonl=b"".join(map(page_line, pages)))


def _span(task: Task) -> int:
    stop = os.path.getsize(task.path) if task.stop is None else task.stop
    return stop - task.start


def task_pages(
    task: Task,
    content: Content,
    summary: Summary,
    progress: Callable[[int, int], None] | None = None,
    limit: int = MAX_BODY,
    *,
    detector: DetectorArg = None,
) -> Iterator[dict[str, Any]]:
    """The pages of one task, one at a time, counted in *summary*."""
    stop = os.path.getsize(task.path) if task.stop is None else task.stop
    done = task.start

    def report(records: int, position: int) -> None:
        nonlocal done
        position = stop if position < 0 else position
        assert progress is not None
        progress(records, position - done)
        done = position

    return read_pages(
        task.path,
        content=content,
        start=task.start,
        stop=task.stop,
        align=task.align,
        summary=summary,
        progress=None if progress is None else report,
        limit=limit,
        detector=detector,
    )


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
    read here as the tasks are consumed (an index pass: the reader skips from
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


def _context(detector: DetectorArg = None) -> multiprocessing.context.BaseContext:
    """Fork where it is safe (Linux, one thread): workers start without imports.

    Elsewhere spawn, which imports the library afresh in every worker.
    """
    if sys.platform == "linux" and threading.active_count() == 1:
        # Load what the decoder (and a named detector) imports lazily, so that forked
        # workers inherit it.
        decode_html(b"\xc0\xe0\xf0 undeclared", "text/html")
        if isinstance(detector, str):
            decode_html(b"\xc0\xe0\xf0 undeclared", "text/html", detector=detector)
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
    limit: int = MAX_BODY,
    detector: DetectorArg = None,
) -> Iterator[TaskResult]:
    """The results of all tasks over *paths*, in order, on *jobs* processes.

    The concatenated output is the same for every *jobs*: each task's output
    depends only on its byte range, and results are yielded in task order.
    *progress* gets (records, bytes) as work completes. *detector* (as for
    :func:`~browser_decode.decode_html`) goes to every worker: a name, or a
    callable that pickles.
    """
    resolve_detector(detector)  # a bad argument fails here, before any work
    if jobs <= 1 or (len(paths) == 1 and os.path.getsize(paths[0]) <= chunk_bytes):
        for task in plan(paths, chunk_bytes, cut=False):  # one process: whole files
            yield run_task(task, content, output, progress, limit, detector=detector)
        return
    pool = ProcessPoolExecutor(
        jobs, mp_context=_context(detector), initializer=_worker_init, initargs=(os.getpid(),)
    )
    try:
        tasks = plan(paths, chunk_bytes)
        window: deque[Future[TaskResult]] = deque()
        for task in itertools.islice(tasks, 2 * jobs):
            window.append(
                pool.submit(run_task, task, content, output, None, limit, detector=detector)
            )
        while window:
            result = window.popleft().result()
            for task in itertools.islice(tasks, 1):
                window.append(
                    pool.submit(run_task, task, content, output, None, limit, detector=detector)
                )
            if progress is not None:
                progress(result.summary.records, result.span)
            yield result
    finally:
        _stop_workers(pool)


# --------------------------------------------------------------------------- streaming


class Sink(Protocol):
    """Where :func:`stream` puts pages: one at a time, or a part file of JSON Lines."""

    def add(self, page: dict[str, Any]) -> None: ...

    def add_part(self, part: IO[bytes]) -> None: ...


class WorkerDied(RuntimeError):
    """A worker process died (killed, out of memory): the run cannot be completed."""


#: How often a worker checks that its parent is still alive (where the kernel
#: cannot be asked to kill it with its parent).
_PARENT_CHECK: Final = 0.5


def _worker_init(parent: int) -> None:
    """Set a worker up so that it never outlives the run.

    It leaves the terminal's process group (Ctrl-C reaches the parent, which stops
    the workers itself), and dies with its parent: by the kernel on Linux
    (``PR_SET_PDEATHSIG``), and everywhere by a thread that checks the parent.
    """
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="parent-check", daemon=True).start()


def _part_task(
    task: Task, content: Content, limit: int, part: str, detector: DetectorArg = None
) -> tuple[Summary, int]:
    """In a worker: one task's JSON Lines into the file *part*; its summary and span."""
    summary = Summary()
    with open(part, "wb") as out:
        for page in task_pages(task, content, summary, None, limit, detector=detector):
            out.write(page_line(page))
            del page
    return summary, _span(task)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def stream(
    paths: list[str],
    sink: Sink,
    *,
    jobs: int = 1,
    content: Content = "html",
    chunk_bytes: int = CHUNK_BYTES,
    limit: int = MAX_BODY,
    progress: Callable[[int, int], None] | None = None,
    summary: Summary | None = None,
    detector: DetectorArg = None,
) -> Summary:
    """Decode *paths* into *sink*, in order, on *jobs* processes; the run's summary.

    Memory stays bounded by the largest record, not by the output: one process
    hands each page to the sink as it is decoded; with more, each worker writes
    its task's JSON Lines to a temporary part file, which is copied to the sink
    in task order. The output is the same for every *jobs*. *summary*, when
    given, is the one counted into (it holds the counts so far if the run stops).
    *detector* (as for :func:`~browser_decode.decode_html`) goes to every worker.
    Raises :class:`WorkerDied` when a worker process dies; the workers are
    stopped whenever this function returns or raises.
    """
    summary = Summary() if summary is None else summary
    resolve_detector(detector)  # a bad argument fails here, before any work
    if jobs <= 1 or (len(paths) == 1 and os.path.getsize(paths[0]) <= chunk_bytes):
        for task in plan(paths, chunk_bytes, cut=False):  # one process: whole files
            for page in task_pages(task, content, summary, progress, limit, detector=detector):
                sink.add(page)
                del page  # (see read_pages: not held while the next page is decoded)
        return summary
    parts: str | None = None
    pool: ProcessPoolExecutor | None = None
    try:
        parts = directory = tempfile.mkdtemp(prefix="browser-decode-warc-")
        pool = executor = ProcessPoolExecutor(
            jobs, mp_context=_context(detector), initializer=_worker_init, initargs=(os.getpid(),)
        )
        tasks = enumerate(plan(paths, chunk_bytes))
        window: deque[tuple[str, Future[tuple[Summary, int]]]] = deque()

        def submit(number: int, task: Task) -> None:
            part = os.path.join(directory, f"{number:09d}.jsonl")
            future = executor.submit(_part_task, task, content, limit, part, detector)
            window.append((part, future))

        try:
            for number, task in itertools.islice(tasks, 2 * jobs):
                submit(number, task)
            while window:
                part, future = window.popleft()
                task_summary, span = future.result()
                # (a worker that died since makes this submit raise, not only result())
                for number, task in itertools.islice(tasks, 1):
                    submit(number, task)
                with open(part, "rb") as handle:
                    sink.add_part(handle)
                os.unlink(part)
                summary.add(task_summary)
                if progress is not None:
                    progress(task_summary.records, span)
        except BrokenProcessPool:
            raise WorkerDied("a worker process died (killed, or out of memory)") from None
    finally:
        _clean_up(pool, parts)
    return summary


def _clean_up(pool: ProcessPoolExecutor | None, parts: str | None) -> None:
    """Stop the workers of *pool* and remove the directory *parts*, whatever is raised
    meanwhile: a stop signal's handler (the command line's raises) that cuts a step short
    makes the steps run again (each can), and what it raised is raised once they are done,
    so that a run stopped as it ends leaves no temporary directory."""
    raised: BaseException | None = None
    for _ in range(_CLEAN_UP_TRIES):
        try:
            if pool is not None:
                _stop_workers(pool)
            if parts is not None:
                shutil.rmtree(parts, ignore_errors=True)
            break
        except BaseException as error:  # (raised again below)
            raised = raised or error
    if raised is not None:
        raise raised


#: Tries of :func:`_clean_up` (a signal each time would be a signal every few ms).
_CLEAN_UP_TRIES: Final = 5
