"""The ``browser-decode`` command line (also ``python -m browser_decode``).

Inputs are files, folders (searched recursively for pages), ``-`` for standard input and
http(s) URLs (fetched with urllib; the response's real Content-Type header is used and its
Content-Encoding undone). One input: the text is printed after a ``#`` line with the
provenance (``--text-only``: the page alone, as the UTF-8 document ``--out`` writes). Several
inputs: UTF-8 documents go to ``--out DIR`` (:func:`browser_decode.to_utf8_document`) and/or
JSON Lines of provenance to standard output (``--json``, the default when there is no
``--out``); a summary goes to standard error. Standard output is always UTF-8.

Every input is bounded: ``--max-bytes`` (read, and after undoing a content coding) and, for
URLs, ``--timeout`` (total, not per read). Files under ``--out`` are written under a hidden
temporary name and renamed when complete; names derived from URLs never leave ``--out``.

Exit status: the rule of :mod:`browser_decode._cli.common`, shared with ``warc``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import http.client
import importlib
import io
import json
import os
import signal
import stat
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, Final

from .. import __version__
from .._api import decode_html
from .._content_coding import MAX_DECODED_BYTES, ContentCodingError, still_compressed
from .._content_coding import undo_content_codings as _undo_content_codings
from .._decode_body import BodyKind, body_kind, decode_body
from .._extract_mime_type import extract_mime_type
from .._get_an_encoding import get_encoding
from .._result import DecodeResult
from .._text.utf8_document import to_utf8_document
from .common import (
    EXIT_OUTPUT,
    add_progress_arguments,
    exit_for_inputs,
    exit_for_signal,
)

#: A folder's pages are all its files (recursively) except hidden ones and
#: those with one of these suffixes, which are never web pages.
NOT_PAGE_SUFFIXES: Final = frozenset({
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".bmp", ".tif", ".tiff", ".svgz",
    ".mp3", ".mp4", ".m4a", ".ogg", ".webm", ".wav", ".avi", ".mov", ".woff", ".woff2", ".ttf",
    ".otf", ".eot", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".warc",
    ".arc", ".pdf", ".exe", ".dll", ".so", ".dylib", ".pyc", ".class", ".jar", ".wasm", ".db",
    ".sqlite", ".css", ".js", ".mjs", ".map", ".json", ".jsonl", ".csv", ".tsv", ".parquet",
})  # fmt: skip
_NO_PAGES: Final = (
    "no pages in this folder (hidden files and images, archives, fonts, scripts, "
    "styles and data files are not pages)"
)
_PROGRESS_AFTER: Final = 0.5  # seconds of work before a progress bar is shown
#: The default total time for fetching one URL (connection, headers and body), in seconds.
DEFAULT_TIMEOUT: Final = 30.0
#: The default cap on one input, in bytes: as read, and again after undoing a content coding.
DEFAULT_MAX_BYTES: Final = MAX_DECODED_BYTES
_READ_SIZE: Final = 1 << 16
_MAX_NAME: Final = 200  # bytes in one path component written under --out
_USER_AGENT: Final = f"browser-decode/{__version__} (+https://pypi.org/project/browser-decode/)"
_NOT_REGULAR: Final = "not a regular file (a FIFO, device or socket): refused"
# O_NONBLOCK: opening a FIFO without a writer must not hang before fstat refuses it.
_OPEN_FLAGS: Final = os.O_RDONLY | sum(
    getattr(os, flag, 0) for flag in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY")
)


class InputError(Exception):
    """One input could not be read; the batch goes on."""


class OutputError(Exception):
    """A decoded page could not be written under ``--out``."""


class _Stopped(BaseException):
    """SIGTERM (or SIGHUP) arrived: unwind, removing temporary files, and exit 128 + N."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass(frozen=True)
class Source:
    """One input: a path, ``-`` or a URL; *relative* names its copy under ``--out``."""

    name: str
    relative: tuple[str, ...]
    kind: str = "file"  # "file", "url" or "stdin"


@dataclass
class Summary:
    inputs: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    encodings: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    with_replacements: list[str] = field(default_factory=list)
    binary: list[str] = field(default_factory=list)

    def add(self, name: str, result: DecodeResult) -> None:
        self.encodings[result.encoding] += 1
        self.sources[str(result.source)] += 1
        if result.replacements:
            self.with_replacements.append(name)
        if getattr(result.provenance, "binary", False):
            self.binary.append(name)

    def render(self) -> str:
        decoded = self.inputs - len(self.failed)
        noun = "input" if self.inputs == 1 else "inputs"
        lines = [
            f"browser-decode: {self.inputs} {noun}, {decoded} decoded, {len(self.failed)} failed"
        ]
        for title, counter in (("encoding", self.encodings), ("source", self.sources)):
            if counter:
                width = max(len(title), *map(len, counter))
                lines.append(f"  {title:<{width}}  pages")
                for key, count in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])):
                    lines.append(f"  {key:<{width}}  {count:>5}")
        for title, names in (
            ("pages with replacement characters (U+FFFD)", self.with_replacements),
            ("binary inputs (not text)", self.binary),
        ):
            if names or title.startswith("pages"):
                lines.append(f"  {title}: {len(names)}")
                lines.extend(f"    {name}" for name in names[:10])
                if len(names) > 10:
                    lines.append(f"    ... and {len(names) - 10} more")
        lines.extend(f"  failed: {name}: {reason}" for name, reason in self.failed)
        return "\n".join(lines)


class Progress:
    """``[#####.....] 12/40`` on stderr once the work takes a while (default: on a terminal)."""

    def __init__(self, total: int, stream: IO[str], *, enabled: bool | None = None) -> None:
        self.total = total
        self.stream = stream
        wanted = stream.isatty() if enabled is None else enabled
        self.enabled = total > 1 and wanted
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, done: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.start < _PROGRESS_AFTER or now - self.last < 0.1:
            return
        self.last, self.shown = now, True
        filled = 30 * done // self.total
        bar = "#" * filled + "." * (30 - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total}")
        self.stream.flush()

    def finish(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 48 + "\r")
            self.stream.flush()
            self.shown = False


# -- naming the copies --------------------------------------------------------------------


def _safe_component(name: str) -> str:
    """One path component that stays one component: no separator, NUL, ``.`` or ``..``."""
    for bad in ("/", "\\", "\0"):
        name = name.replace(bad, "_")
    if name in ("", ".", ".."):
        name = "_" + name
    encoded = name.encode("utf-8", "surrogateescape")
    if len(encoded) > _MAX_NAME:
        digest = hashlib.sha256(encoded).hexdigest()[:16]
        name = encoded[: _MAX_NAME - 17].decode("utf-8", "ignore") + "-" + digest
    return name


def url_relative(url: str) -> tuple[str, ...]:
    """Where the copy of *url* goes under ``--out``: host, then the path's segments.

    Dot segments are removed as the URL Standard does ("A double-dot URL path segment must be
    ".." or an ASCII case-insensitive match for ".%2e", "%2e.", or "%2e%2e"", and a ".." never
    climbs above the host), after percent-decoding, so no segment can leave ``--out``; a
    backslash or an encoded ``/`` inside a segment becomes ``_``.
    """
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or "_"
    if parts.port is not None:
        host += f"_{parts.port}"
    segments: list[str] = []
    raw = parts.path.split("/")
    for segment in raw:
        decoded = urllib.parse.unquote(segment)
        if decoded == "..":
            if segments:
                segments.pop()
        elif decoded not in ("", "."):
            segments.append(decoded)
    if not segments or urllib.parse.unquote(raw[-1]) in ("", ".", ".."):
        segments.append("index.html")
    if parts.query:
        segments[-1] += "_" + urllib.parse.quote(parts.query, safe="")
    return tuple(_safe_component(s) for s in (host.replace(":", "_"), *segments))


# -- listing the inputs -------------------------------------------------------------------


def _reason(error: OSError) -> str:
    """A short, stable reason for an OS error on an input."""
    reasons = {
        errno.ENOENT: "no such file or folder",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.ELOOP: "symbolic link loop (too many levels of symbolic links)",
        errno.ENOTDIR: "a part of the path is not a folder",
        errno.ENAMETOOLONG: "file name too long",
    }
    return reasons.get(error.errno or 0, error.strerror or str(error))


def _stat_reason(path: str, error: OSError) -> str:
    if error.errno == errno.ENOENT and os.path.islink(path):
        return "broken symbolic link"
    return _reason(error)


def _is_url(name: str) -> bool:
    return name.lower().startswith(("http://", "https://"))


def _is_page(name: str) -> bool:
    return not name.startswith(".") and Path(name).suffix.lower() not in NOT_PAGE_SUFFIXES


def _walk(folder: str) -> tuple[list[Source], list[tuple[str, str]]]:
    """The pages of *folder*, and every folder or file under it that could not be read."""
    pages: list[Source] = []
    errors: list[tuple[str, str]] = []

    def unreadable(error: OSError) -> None:
        errors.append((str(error.filename), f"cannot list the folder: {_reason(error)}"))

    for root, dirs, files in os.walk(folder, onerror=unreadable):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not _is_page(name):
                continue
            path = os.path.join(root, name)
            try:
                mode = os.stat(path).st_mode
            except OSError as error:
                errors.append((path, _stat_reason(path, error)))
                continue
            if not stat.S_ISREG(mode):
                errors.append((path, _NOT_REGULAR))
                continue
            relative = Path(os.path.relpath(path, folder)).parts
            pages.append(Source(path, tuple(_safe_component(p) for p in relative)))
    return pages, errors


def expand(names: Sequence[str]) -> tuple[list[Source], list[tuple[str, str]]]:
    """The inputs to decode, and the errors found while listing them."""
    sources: list[Source] = []
    errors: list[tuple[str, str]] = []
    for name in names:
        if name == "-":
            sources.append(Source(name, ("stdin.html",), "stdin"))
            continue
        if _is_url(name):
            try:
                parts = urllib.parse.urlsplit(name)
                _ = parts.port  # raises ValueError for a port that is not a number
                if not parts.hostname:
                    raise ValueError("no host")
                sources.append(Source(name, url_relative(name), "url"))
            except ValueError as error:
                errors.append((name, f"not a valid URL ({error})"))
            continue
        try:
            mode = os.stat(name).st_mode
        except OSError as error:
            errors.append((name, _stat_reason(name, error)))
            continue
        except ValueError as error:  # an embedded NUL
            errors.append((name, f"not a valid path ({error})"))
            continue
        if stat.S_ISDIR(mode):
            pages, problems = _walk(name)
            if not pages and not problems:
                problems = [(name, _NO_PAGES)]
            sources.extend(pages)
            errors.extend(problems)
        elif stat.S_ISREG(mode):
            sources.append(Source(name, (_safe_component(Path(name).name),)))
        else:
            errors.append((name, _NOT_REGULAR))
    return sources, errors


# -- reading ------------------------------------------------------------------------------


def _too_large(limit: int) -> InputError:
    return InputError(f"larger than --max-bytes ({limit:,} bytes)")


def read_file(path: str, limit: int) -> bytes:
    """The bytes of a regular file, at most *limit*; a FIFO or device is refused unopened."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        raise InputError(f"cannot read: {_stat_reason(path, error)}") from None
    with os.fdopen(fd, "rb") as file:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise InputError(_NOT_REGULAR)
            data = file.read(limit + 1)
        except OSError as error:
            raise InputError(f"cannot read: {_reason(error)}") from None
    if len(data) > limit:
        raise _too_large(limit)
    return data


def _accept_encoding() -> str:
    codings = ["gzip", "deflate"]
    for coding, module in (("br", "brotli"), ("zstd", "zstandard")):
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
            codings.append(coding)
    return ", ".join(codings)


class _TimedOut(BaseException):
    """The ``--timeout`` alarm rang (a BaseException, so that no ``except`` in urllib eats it)."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`_TimedOut` in this thread after *seconds*, wherever it is blocked.

    A socket timeout bounds each read only; a server that sends a byte every few seconds, in
    its headers or its body, would go on forever. SIGALRM interrupts DNS, connect, TLS and
    reads alike. Where there is no ``setitimer`` or this is not the main thread, the socket
    timeout and the check between reads are the bound.
    """

    def ring(signum: int, frame: FrameType | None) -> None:
        raise _TimedOut

    try:
        previous = signal.signal(signal.SIGALRM, ring)
    except (AttributeError, ValueError):
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _iri_to_uri(url: str) -> str:
    """*url* with a non-ASCII host in IDNA and other non-ASCII characters percent-encoded.

    What a browser sends for ``http://bücher.example/ü``; urllib would raise instead.
    """
    if url.isascii():
        return url
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    host = parts.hostname or ""
    if not host.isascii():
        try:
            netloc = netloc.replace(host, host.encode("idna").decode("ascii"))
        except UnicodeError:
            raise ValueError(f"not a valid host name: {host!r}") from None

    def quote(text: str) -> str:
        return urllib.parse.quote(text, safe="".join(map(chr, range(0x21, 0x7F))))

    return urllib.parse.urlunsplit(
        (parts.scheme, netloc, quote(parts.path), quote(parts.query), quote(parts.fragment))
    )


def fetch(url: str, *, timeout: float, limit: int) -> tuple[bytes, str | None]:
    """GET *url*: the body with its Content-Encoding undone, and the Content-Type as received.

    The whole exchange (connection, headers, body) must end within *timeout* seconds, and the
    body (as received and as decoded) must not exceed *limit* bytes.
    """
    deadline = time.monotonic() + timeout
    late = InputError(f"timed out after {timeout:g} s (--timeout)")
    headers = {"User-Agent": _USER_AGENT, "Accept-Encoding": _accept_encoding()}
    try:
        request = urllib.request.Request(_iri_to_uri(url), headers=headers)
        with (
            _deadline(timeout),
            urllib.request.urlopen(request, timeout=timeout) as response,
        ):
            values = response.headers.get_all("Content-Type") or []
            codings = response.headers.get_all("Content-Encoding") or []
            chunks: list[bytes] = []
            size = 0
            while chunk := response.read1(_READ_SIZE):
                if time.monotonic() > deadline:
                    raise late
                size += len(chunk)
                if size > limit:
                    raise _too_large(limit)
                chunks.append(chunk)
    except _TimedOut:
        raise late from None
    except urllib.error.HTTPError as error:
        raise InputError(f"HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            raise late from None
        raise InputError(f"cannot fetch the URL: {error.reason}") from None
    except TimeoutError:
        raise late from None
    except (OSError, ValueError, http.client.HTTPException) as error:
        raise InputError(f"cannot fetch the URL: {error or type(error).__name__}") from None
    try:
        body = _undo_content_codings(b"".join(chunks), ", ".join(codings), limit=limit)
    except ContentCodingError as error:
        raise InputError(f"{error.reason}: {error}") from None
    return body, ", ".join(values) if values else None


def read(source: Source, args: argparse.Namespace) -> tuple[bytes, str | None]:
    """One input's bytes (bounded) and the Content-Type it came with."""
    if source.kind == "stdin":
        data = sys.stdin.buffer.read(args.max_bytes + 1)
        if len(data) > args.max_bytes:
            raise _too_large(args.max_bytes)
        header = None
    elif source.kind == "url":
        data, header = fetch(source.name, timeout=args.timeout, limit=args.max_bytes)
    else:
        data, header = read_file(source.name, args.max_bytes), None
    coding = still_compressed(data)
    if coding is not None:
        raise InputError(
            f"the body is still {coding}-compressed (a Content-Encoding that was not "
            "undone); decompress it first"
        )
    return data, header


def decode(
    source: Source, body: bytes, header: str | None, args: argparse.Namespace
) -> DecodeResult:
    """``decode_html``, or ``decode_body`` when the Content-Type names XML, JSON or text."""
    content_type = args.content_type or header
    url = args.url or (source.name if source.kind == "url" else None)
    if _kind(content_type) is BodyKind.HTML:
        return decode_html(body, content_type, url=url, default_encoding=args.default_encoding)
    return decode_body(body, content_type, url=url, default_encoding=args.default_encoding)


def _kind(content_type: str | None) -> BodyKind:
    return body_kind(None if content_type is None else extract_mime_type(content_type))


def document_bytes(result: DecodeResult, content_type: str | None) -> bytes:
    """What ``--out`` and ``--text-only`` write: the UTF-8 document (JSON without a BOM)."""
    return to_utf8_document(result.text, bom=_kind(content_type) is not BodyKind.JSON)


# -- writing ------------------------------------------------------------------------------


_DIR_FLAGS: Final = os.O_RDONLY | sum(
    getattr(os, flag, 0) for flag in ("O_DIRECTORY", "O_NOFOLLOW", "O_CLOEXEC")
)
_NEW_FILE_FLAGS: Final = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | sum(getattr(os, flag, 0) for flag in ("O_NOFOLLOW", "O_CLOEXEC", "O_BINARY"))
)
# Folders opened by descriptor, so that no folder can be swapped for a symbolic link between
# the check and the write (POSIX); elsewhere the same steps by path.
_BY_DESCRIPTOR: Final = {os.open, os.mkdir, os.stat, os.replace, os.unlink} <= os.supports_dir_fd


def write_atomically(folder: Path, relative: Sequence[str], data: bytes) -> Path:
    """Write *data* to ``folder/relative`` under a temporary name, then rename it.

    Never through a symbolic link: every folder below *folder* is opened with ``O_NOFOLLOW``
    (a symbolic link is refused, whatever it points to), and the file is created
    ``O_EXCL | O_NOFOLLOW`` under a hidden temporary name, then renamed over the final name (a
    rename replaces a link, it never follows one; a link there is refused anyway). A run
    stopped midway leaves no file under the final name.
    """
    target = folder.joinpath(*relative)
    fd = -1
    temporary = None
    try:
        fd = os.open(folder, _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0)) if _BY_DESCRIPTOR else -1
        current = folder
        for part in relative[:-1]:
            current = current / part
            fd = _enter(fd, current, part)
        name = relative[-1]
        where = {"dir_fd": fd} if _BY_DESCRIPTOR else {}
        path = name if _BY_DESCRIPTOR else str(current / name)
        try:
            mode = os.stat(path, follow_symlinks=False, **where).st_mode
        except FileNotFoundError:
            mode = 0
        if stat.S_ISLNK(mode):
            raise OutputError(f"{target} is a symbolic link; not replaced")
        if stat.S_ISDIR(mode):
            raise OutputError(f"{target} is a folder")
        temporary = f".{name[:100]}.{os.urandom(4).hex()}.part"
        temporary_path = temporary if _BY_DESCRIPTOR else str(current / temporary)
        # Mode 0o666 less the umask, as for any new file.
        with os.fdopen(os.open(temporary_path, _NEW_FILE_FLAGS, 0o666, **where), "wb") as file:
            file.write(data)
        if _BY_DESCRIPTOR:
            os.replace(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)
        else:
            os.replace(temporary_path, path)
        temporary = None
    except OSError as error:
        raise OutputError(f"cannot write {target}: {_reason(error)}") from None
    finally:
        if temporary is not None:  # failed or interrupted (KeyboardInterrupt, SIGTERM)
            with contextlib.suppress(OSError):
                if _BY_DESCRIPTOR:
                    os.unlink(temporary, dir_fd=fd)
                else:
                    os.unlink(str(target.parent / temporary))
        if fd >= 0:
            os.close(fd)
    return target


def _enter(fd: int, path: Path, part: str) -> int:
    """Create (if needed) and open the folder *part* of *fd*: the new descriptor (*fd* closed)."""
    try:
        if _BY_DESCRIPTOR:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, dir_fd=fd)
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            return child
        if os.path.islink(path):
            raise OSError(errno.ELOOP, "symbolic link", str(path))
        with contextlib.suppress(FileExistsError):
            os.mkdir(path)
        if not os.path.isdir(path):
            raise OSError(errno.ENOTDIR, "not a folder", str(path))
        return fd
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK) or os.path.islink(path):
            raise OutputError(f"{path} is a symbolic link; not written through") from None
        if error.errno == errno.ENOTDIR:
            raise OutputError(f"{path} exists and is not a folder") from None
        raise OutputError(f"cannot create {path}: {_reason(error)}") from None


def _unique(relative: tuple[str, ...], taken: set[tuple[str, ...]]) -> tuple[str, ...]:
    candidate, number = relative, 1
    while candidate in taken:
        number += 1
        stem, dot, suffix = relative[-1].rpartition(".")
        name = f"{stem}-{number}.{suffix}" if dot and stem else f"{relative[-1]}-{number}"
        candidate = (*relative[:-1], name)
    taken.add(candidate)
    return candidate


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


# -- output -------------------------------------------------------------------------------


def _header_line(result: DecodeResult) -> str:
    provenance = result.provenance
    details = [f"confidence={provenance.confidence}"]
    if provenance.label is not None:
        details.append(f"label={provenance.label!r}")
    if provenance.offset is not None:
        details.append(f"offset={provenance.offset}")
    details.append(f"replacements={provenance.replacements}")
    if getattr(provenance, "binary", False):
        details.append("binary=True")
    return f"# {provenance} " + " ".join(details)


def _json_line(name: str, body: bytes, result: DecodeResult, out: str | None) -> str:
    provenance = result.provenance
    record: dict[str, object] = {
        "input": name,
        "encoding": provenance.encoding,
        "source": str(provenance.source),
        "confidence": str(provenance.confidence),
        "label": provenance.label,
        "replacements": provenance.replacements,
        "bytes": len(body),
    }
    binary = getattr(provenance, "binary", None)
    if isinstance(binary, bool):
        record["binary"] = binary
    if out is not None:
        record["output"] = out
    return json.dumps(record, ensure_ascii=False)


def _emit(data: str | bytes) -> None:
    """Standard output gets UTF-8 bytes, whatever the locale says."""
    if isinstance(data, str):
        # A file name that is not UTF-8 carries lone surrogates: written as "\udcff", which
        # is also JSON's escape for them, so the JSON lines stay valid UTF-8 and exact.
        data = data.encode("utf-8", "backslashreplace")
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text stream without bytes underneath (tests, IDEs)
        sys.stdout.write(data.decode("utf-8", "replace"))
        return
    sys.stdout.flush()
    buffer.write(data)
    buffer.flush()


def _error(name: str, message: str) -> None:
    print(f"browser-decode: {name}: {message}", file=sys.stderr)


# -- the command line ---------------------------------------------------------------------


def _positive(kind: Callable[[str], float | int]) -> Callable[[str], float | int]:
    def parse(text: str) -> float | int:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be more than 0: {text!r}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="browser-decode",
        description="Decode saved or fetched web pages as a browser would, and say how.",
        epilog="Exit status: 0 every input read; 1 some inputs failed; 2 wrong command line; "
        "3 no input could be read; 4 output not written; 128+N stopped by signal N. "
        "Subcommand: 'browser-decode warc ...' (see 'browser-decode warc --help').",
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="a file, a folder (searched recursively), '-' for standard input, or an http(s) URL",
    )
    parser.add_argument(
        "--content-type",
        default=None,
        help="the Content-Type header to assume (overrides a URL's real header; default: none "
        "for files). XML, JSON and text types are decoded by their own rules (decode_body)",
    )
    parser.add_argument(
        "--default-encoding",
        default=None,
        metavar="LABEL",
        help="the encoding for undeclared pages that are neither UTF-8 nor detectable",
    )
    parser.add_argument(
        "--url",
        default=None,
        metavar="URL_OR_TLD",
        help="the page's URL or just its top-level domain (e.g. 'jp'), a hint for undeclared "
        "saved pages (default: a URL input's own URL)",
    )
    parser.add_argument(
        "--out", metavar="DIR", help="write each page here as a UTF-8 document (same tree)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON line of provenance per input (the default for several inputs "
        "without --out)",
    )
    parser.add_argument(
        "--text-only",
        action="store_true",
        help="one input: print only the page, as the UTF-8 document --out writes (no '#' line), "
        "for '> file'",
    )
    parser.add_argument(
        "--timeout",
        type=_positive(float),
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"total time allowed for fetching one URL (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-bytes",
        type=_positive(int),
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help="the largest input accepted, as read and after undoing a Content-Encoding "
        f"(default: {DEFAULT_MAX_BYTES:,} = 64 MiB)",
    )
    add_progress_arguments(parser)
    parser.add_argument("--no-summary", action="store_true", help="no summary on standard error")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def _check_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Labels and combinations that argparse cannot check: exit 2 with a message."""
    if args.default_encoding is not None and get_encoding(args.default_encoding) is None:
        parser.error(f"--default-encoding: unknown encoding label {args.default_encoding!r}")
    if args.content_type is not None:
        mime = extract_mime_type(args.content_type)
        if mime is None:
            parser.error(f"--content-type: not a MIME type: {args.content_type!r}")
        charset = mime.parameters.get("charset")
        if charset is not None and get_encoding(charset) is None:
            parser.error(f"--content-type: unknown charset label {charset!r}")
    if args.text_only and (args.out or args.json or len(args.inputs) > 1):
        parser.error("--text-only is for one input without --out or --json")
    if args.out is None:
        return
    out = Path(os.path.realpath(args.out))
    if os.path.lexists(args.out) and not os.path.isdir(args.out):
        parser.error(f"--out {args.out}: exists and is not a folder")
    for name in args.inputs:
        if name == "-" or _is_url(name):
            continue
        path = Path(os.path.realpath(name))
        if os.path.isdir(path) and _within(out, path):
            parser.error(f"--out {args.out}: is the input folder {name} or inside it")


@contextlib.contextmanager
def _signals() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind like Ctrl-C (so temporary files are removed)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Stopped(signum)

    previous = {}
    with contextlib.suppress(ValueError):  # not the main thread: leave the handlers alone
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is not None:
                previous[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _warc(argv: list[str]) -> int:
    """``browser-decode warc ARGS``: ``browser_decode.warc._cli.main(ARGS)``, imported lazily."""
    module = importlib.import_module("browser_decode.warc._cli")
    return int(module.main(argv))


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "warc":
        return _warc(args_list[1:])
    parser = build_parser()
    args = parser.parse_args(args_list)
    _check_arguments(parser, args)
    if isinstance(sys.stderr, io.TextIOWrapper):
        sys.stderr.reconfigure(errors="backslashreplace")  # names on a narrow terminal
    summary = Summary()
    try:
        with _signals():
            return _run(args, summary)
    except KeyboardInterrupt:
        return _stopped(signal.SIGINT, summary, args)
    except _Stopped as stopped:
        return _stopped(stopped.signum, summary, args)
    except BrokenPipeError:
        # The reader went away (``| head``): nothing more can be written; no traceback.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OUTPUT


def _stopped(signum: int, summary: Summary, args: argparse.Namespace) -> int:
    name = signal.Signals(signum).name
    print(f"\nbrowser-decode: stopped by {name}", file=sys.stderr)
    if summary.inputs and not args.no_summary:
        print(summary.render(), file=sys.stderr)
    return exit_for_signal(signum)


def _run(args: argparse.Namespace, summary: Summary) -> int:
    sources, errors = expand(args.inputs)
    for name, message in errors:
        _error(name, message)
    single = (
        len(args.inputs) == 1
        and not (args.out or args.json)
        and len(sources) + len(errors) == 1
        and not (sources and sources[0].kind == "file" and sources[0].name != args.inputs[0])
    )
    if single:
        return exit_for_inputs(1, 1) if errors else _single(sources[0], args)

    summary.inputs = len(sources) + len(errors)
    summary.failed.extend(errors)
    as_json = args.json or not args.out
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            _error(str(out_dir), f"cannot create the --out folder: {_reason(error)}")
            return EXIT_OUTPUT
    inputs = {os.path.realpath(s.name) for s in sources if s.kind == "file"}
    taken: set[tuple[str, ...]] = set()
    output_failed = False
    progress = Progress(len(sources), sys.stderr, enabled=args.progress)
    for done, source in enumerate(sources, 1):
        try:
            body, header = read(source, args)
            result = decode(source, body, header, args)
            written = None
            if out_dir is not None:
                relative = _unique(source.relative, taken)
                target = out_dir.joinpath(*relative)
                if os.path.realpath(target) in inputs:
                    raise OutputError(f"{target} is an input file; not overwritten")
                written = str(
                    write_atomically(
                        out_dir, relative, document_bytes(result, args.content_type or header)
                    )
                )
        except (InputError, OutputError) as error:
            progress.finish()
            output_failed = output_failed or isinstance(error, OutputError)
            _error(source.name, str(error))
            summary.failed.append((source.name, str(error)))
            if as_json:
                _emit(
                    json.dumps({"input": source.name, "error": str(error)}, ensure_ascii=False)
                    + "\n"
                )
            continue
        summary.add(source.name, result)
        if as_json:
            _emit(_json_line(source.name, body, result, written) + "\n")
        progress.update(done)
    progress.finish()
    if not args.no_summary:
        print(summary.render(), file=sys.stderr)
    if output_failed:
        return EXIT_OUTPUT
    return exit_for_inputs(len(summary.failed), summary.inputs)


def _single(source: Source, args: argparse.Namespace) -> int:
    try:
        body, header = read(source, args)
    except InputError as error:
        _error(source.name, str(error))
        return exit_for_inputs(1, 1)
    result = decode(source, body, header, args)
    if args.text_only:
        _emit(document_bytes(result, args.content_type or header))
        return exit_for_inputs(0, 1)
    text = result.text if result.text.endswith("\n") else result.text + "\n"
    _emit(_header_line(result) + "\n" + text)
    return exit_for_inputs(0, 1)
