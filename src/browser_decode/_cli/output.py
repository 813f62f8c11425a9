"""Where ``browser-decode --out`` writes: names that stay inside the folder, atomic files.

A URL's copy is named from its host and path with every dot segment removed, so no name can
leave ``--out``; each file is written under a hidden temporary name and renamed when complete,
and never through a symbolic link.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Final

_MAX_NAME: Final = 200  # bytes in one path component written under --out


class OutputError(Exception):
    """A decoded page could not be written under ``--out``."""


def safe_component(name: str) -> str:
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
    return tuple(safe_component(s) for s in (host.replace(":", "_"), *segments))


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


def unique(relative: tuple[str, ...], taken: set[tuple[str, ...]]) -> tuple[str, ...]:
    candidate, number = relative, 1
    while candidate in taken:
        number += 1
        stem, dot, suffix = relative[-1].rpartition(".")
        name = f"{stem}-{number}.{suffix}" if dot and stem else f"{relative[-1]}-{number}"
        candidate = (*relative[:-1], name)
    taken.add(candidate)
    return candidate


def within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _reason(error: OSError) -> str:
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return error.strerror or str(error)
