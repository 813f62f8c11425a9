"""The ``browser-decode`` command line (also ``python -m browser_decode``).

Inputs are files, folders (searched recursively for pages), ``-`` for standard
input and http(s) URLs (fetched with urllib; the response's real
Content-Type header is used). One input: the text is printed after a ``#``
line with the provenance. Several inputs: decoded UTF-8 copies go to
``--out DIR`` and/or JSON Lines of provenance to standard output (``--json``,
the default when there is no ``--out``); a summary goes to standard error.

Exit status: 0 every input was decoded; 1 some inputs failed (each is
reported, the others are decoded); 2 nothing was decoded (every input
failed, or bad arguments).
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final

from .. import __version__
from .._api import decode_html
from .._result import DecodeResult

EXIT_OK: Final = 0
EXIT_SOME_FAILED: Final = 1
EXIT_ALL_FAILED: Final = 2

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
_FETCH_TIMEOUT: Final = 30.0
_USER_AGENT: Final = f"browser-decode/{__version__} (+https://pypi.org/project/browser-decode/)"


class InputError(Exception):
    """One input could not be read; the batch goes on."""


@dataclass(frozen=True)
class Source:
    """One input: a path, ``-`` or a URL; *relative* names its copy under ``--out``."""

    name: str
    relative: str


@dataclass
class Summary:
    inputs: int = 0
    failed: list[str] = field(default_factory=list)
    encodings: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    with_replacements: list[str] = field(default_factory=list)

    def add(self, name: str, result: DecodeResult) -> None:
        self.encodings[result.encoding] += 1
        self.sources[str(result.source)] += 1
        if result.replacements:
            self.with_replacements.append(name)

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
        count = len(self.with_replacements)
        lines.append(f"  pages with replacement characters (U+FFFD): {count}")
        lines.extend(f"    {name}" for name in self.with_replacements[:10])
        if count > 10:
            lines.append(f"    ... and {count - 10} more")
        lines.extend(f"  failed: {name}" for name in self.failed)
        return "\n".join(lines)


class Progress:
    """``[#####.....] 12/40`` on a terminal's stderr, once the work takes a while."""

    def __init__(self, total: int, stream: IO[str]) -> None:
        self.total = total
        self.stream = stream
        self.enabled = total > 1 and stream.isatty()
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


def _is_url(name: str) -> bool:
    return name.lower().startswith(("http://", "https://"))


def _url_relative(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    path = parts.path.strip("/") or "index.html"
    if parts.query:
        path += "_" + urllib.parse.quote(parts.query, safe="")
    return os.path.join(parts.netloc.replace(":", "_"), *path.split("/"))


def _is_page(path: Path) -> bool:
    return path.suffix.lower() not in NOT_PAGE_SUFFIXES


def _walk(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(root, name)
            if not name.startswith(".") and _is_page(path) and path.is_file():
                yield path


def expand(names: Sequence[str]) -> tuple[list[Source], list[tuple[str, str]]]:
    """The inputs to decode, and the errors found while listing them."""
    sources: list[Source] = []
    errors: list[tuple[str, str]] = []
    for name in names:
        if name == "-" or _is_url(name):
            relative = "stdin.html" if name == "-" else _url_relative(name)
            sources.append(Source(name, relative))
            continue
        path = Path(name)
        if path.is_dir():
            pages = list(_walk(path))
            if not pages:
                errors.append((name, _NO_PAGES))
            sources.extend(Source(str(p), str(p.relative_to(path))) for p in pages)
        elif path.exists():
            sources.append(Source(name, path.name))
        else:
            errors.append((name, "no such file or folder"))
    return sources, errors


def fetch(url: str) -> tuple[bytes, str | None]:
    """GET *url* with urllib; the body and the Content-Type header as received."""
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=_FETCH_TIMEOUT) as response:
            body = response.read()
            values = response.headers.get_all("Content-Type") or []
    except urllib.error.HTTPError as error:
        raise InputError(f"HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise InputError(f"cannot fetch the URL: {error.reason}") from None
    except (OSError, ValueError) as error:
        raise InputError(f"cannot fetch the URL: {error}") from None
    return body, ", ".join(values) if values else None


def read(source: Source, stdin: IO[bytes]) -> tuple[bytes, str | None]:
    if source.name == "-":
        return stdin.read(), None
    if _is_url(source.name):
        return fetch(source.name)
    try:
        return Path(source.name).read_bytes(), None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}") from None


def _header_line(result: DecodeResult) -> str:
    provenance = result.provenance
    details = [f"confidence={provenance.confidence}"]
    if provenance.label is not None:
        details.append(f"label={provenance.label!r}")
    if provenance.offset is not None:
        details.append(f"offset={provenance.offset}")
    details.append(f"replacements={provenance.replacements}")
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
    if out is not None:
        record["output"] = out
    return json.dumps(record, ensure_ascii=False)


def _unique(path: Path, taken: set[Path]) -> Path:
    candidate, number = path, 1
    while candidate in taken:
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    taken.add(candidate)
    return candidate


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="browser-decode",
        description="Decode saved or fetched web pages as a browser would, and say how.",
        epilog="Exit status: 0 all inputs decoded, 1 some inputs failed, 2 nothing decoded. "
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
        "for files)",
    )
    parser.add_argument(
        "--default-encoding",
        default=None,
        metavar="LABEL",
        help="the encoding for undeclared pages that are neither UTF-8 nor detectable",
    )
    parser.add_argument("--out", metavar="DIR", help="write a decoded UTF-8 copy of each page here")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON line of provenance per input (the default for several inputs "
        "without --out)",
    )
    parser.add_argument("--no-summary", action="store_true", help="no summary on standard error")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def _warc(argv: list[str]) -> int:
    """``browser-decode warc ARGS``: ``browser_decode.warc._cli.main(ARGS)``, imported lazily."""
    module = importlib.import_module("browser_decode.warc._cli")
    return int(module.main(argv))


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "warc":
        return _warc(args_list[1:])
    args = build_parser().parse_args(args_list)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")  # never crash on a narrow terminal
    stdout, stderr = sys.stdout, sys.stderr
    sources, errors = expand(args.inputs)
    for name, message in errors:
        print(f"browser-decode: {name}: {message}", file=stderr)
    if len(args.inputs) == 1 and not (args.out or args.json or Path(args.inputs[0]).is_dir()):
        return EXIT_ALL_FAILED if errors else _single(sources[0], args)

    summary = Summary(inputs=len(sources) + len(errors), failed=[name for name, _ in errors])
    as_json = args.json or not args.out
    out_dir = Path(args.out) if args.out else None
    taken: set[Path] = set()
    progress = Progress(len(sources), stderr)
    for done, source in enumerate(sources, 1):
        try:
            body, header = read(source, sys.stdin.buffer)
            result = decode_html(
                body,
                args.content_type or header,
                url=source.name if _is_url(source.name) else None,
                default_encoding=args.default_encoding,
            )
            written = None
            if out_dir is not None:
                target = _unique(out_dir / source.relative, taken)
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(result.text, encoding="utf-8", newline="")
                except OSError as error:
                    raise InputError(f"cannot write {target}: {error.strerror}") from None
                written = str(target)
        except InputError as error:
            progress.finish()
            print(f"browser-decode: {source.name}: {error}", file=stderr)
            summary.failed.append(source.name)
            if as_json:
                print(json.dumps({"input": source.name, "error": str(error)}), file=stdout)
            continue
        summary.add(source.name, result)
        if as_json:
            print(_json_line(source.name, body, result, written), file=stdout)
        progress.update(done)
    progress.finish()
    if not args.no_summary:
        print(summary.render(), file=stderr)
    if not summary.failed:
        return EXIT_OK
    return EXIT_SOME_FAILED if len(summary.failed) < summary.inputs else EXIT_ALL_FAILED


def _single(source: Source, args: argparse.Namespace) -> int:
    try:
        body, header = read(source, sys.stdin.buffer)
    except InputError as error:
        print(f"browser-decode: {source.name}: {error}", file=sys.stderr)
        return EXIT_ALL_FAILED
    result = decode_html(
        body,
        args.content_type or header,
        url=source.name if _is_url(source.name) else None,
        default_encoding=args.default_encoding,
    )
    print(_header_line(result))
    sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
    return EXIT_OK
