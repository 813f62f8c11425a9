"""The inputs of ``browser-decode``: listing files and folders, reading them, fetching URLs.

Every input is bounded: at most ``--max-bytes`` (as read, and again after undoing a content
coding, with :func:`browser_decode._content_coding.undo_content_codings`) and, for a URL,
``--timeout`` seconds in all. Whatever goes wrong with one input is an :class:`InputError`
with a short reason, never a traceback: the batch goes on and the failure is counted.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import importlib
import os
import signal
import stat
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Final

from .. import __version__
from .._content_coding import MAX_DECODED_BYTES, ContentCodingError
from .._content_coding import undo_content_codings as _undo_content_codings
from .output import safe_component, url_relative

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
#: The default total time for fetching one URL (connection, headers and body), in seconds.
DEFAULT_TIMEOUT: Final = 30.0
#: The default cap on one input, in bytes: as read, and again after undoing a content coding.
DEFAULT_MAX_BYTES: Final = MAX_DECODED_BYTES
_READ_SIZE: Final = 1 << 16
_USER_AGENT: Final = f"browser-decode/{__version__} (+https://pypi.org/project/browser-decode/)"
_NOT_REGULAR: Final = "not a regular file (a FIFO, device or socket): refused"
# O_NONBLOCK: opening a FIFO without a writer must not hang before fstat refuses it.
_OPEN_FLAGS: Final = os.O_RDONLY | sum(
    getattr(os, flag, 0) for flag in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY")
)


class InputError(Exception):
    """One input could not be read; the batch goes on."""


@dataclass(frozen=True)
class Source:
    """One input: a path, ``-`` or a URL; *relative* names its copy under ``--out``."""

    name: str
    relative: tuple[str, ...]
    kind: str = "file"  # "file", "url" or "stdin"


def reason(error: OSError) -> str:
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
    return reason(error)


def is_url(name: str) -> bool:
    return name.lower().startswith(("http://", "https://"))


def _is_page(name: str) -> bool:
    return not name.startswith(".") and Path(name).suffix.lower() not in NOT_PAGE_SUFFIXES


def _walk(folder: str) -> tuple[list[Source], list[tuple[str, str]]]:
    """The pages of *folder*, and every folder or file under it that could not be read."""
    pages: list[Source] = []
    errors: list[tuple[str, str]] = []

    def unreadable(error: OSError) -> None:
        errors.append((str(error.filename), f"cannot list the folder: {reason(error)}"))

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
            pages.append(Source(path, tuple(safe_component(p) for p in relative)))
    return pages, errors


def expand(names: Sequence[str]) -> tuple[list[Source], list[tuple[str, str]]]:
    """The inputs to decode, and the errors found while listing them."""
    sources: list[Source] = []
    errors: list[tuple[str, str]] = []
    for name in names:
        if name == "-":
            sources.append(Source(name, ("stdin.html",), "stdin"))
            continue
        if is_url(name):
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
            sources.append(Source(name, (safe_component(Path(name).name),)))
        else:
            errors.append((name, _NOT_REGULAR))
    return sources, errors


def too_large(limit: int) -> InputError:
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
            raise InputError(f"cannot read: {reason(error)}") from None
    if len(data) > limit:
        raise too_large(limit)
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
                    raise too_large(limit)
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
