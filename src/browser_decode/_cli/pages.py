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

Reading the inputs is :mod:`.inputs`, naming and writing the copies :mod:`.output`; this
module decodes, prints and decides the exit status: the rule of :mod:`.common`, shared with
``warc``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, Final

from .. import __version__
from .._api import decode_html
from .._content_coding import still_compressed
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
from .inputs import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIMEOUT,
    InputError,
    Source,
    expand,
    fetch,
    is_url,
    read_file,
    reason,
    too_large,
)
from .output import OutputError, unique, within, write_atomically

_PROGRESS_AFTER: Final = 0.5  # seconds of work before a progress bar is shown


class _Stopped(BaseException):
    """SIGTERM (or SIGHUP) arrived: unwind, removing temporary files, and exit 128 + N."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


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
        if result.provenance.binary:
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


def read(source: Source, args: argparse.Namespace) -> tuple[bytes, str | None]:
    """One input's bytes (bounded) and the Content-Type it came with."""
    if source.kind == "stdin":
        data = sys.stdin.buffer.read(args.max_bytes + 1)
        if len(data) > args.max_bytes:
            raise too_large(args.max_bytes)
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
    decoder = decode_html if _kind(content_type) is BodyKind.HTML else decode_body
    return decoder(
        body,
        content_type,
        url=url,
        default_encoding=args.default_encoding,
        detector=args.detector,
    )


def _kind(content_type: str | None) -> BodyKind:
    return body_kind(None if content_type is None else extract_mime_type(content_type))


def document_bytes(result: DecodeResult, content_type: str | None) -> bytes:
    """What ``--out`` and ``--text-only`` write: the UTF-8 document (JSON without a BOM)."""
    return to_utf8_document(result.text, bom=_kind(content_type) is not BodyKind.JSON)


# -- output -------------------------------------------------------------------------------


def _header_line(result: DecodeResult) -> str:
    provenance = result.provenance
    details = [f"confidence={provenance.confidence}"]
    if provenance.label is not None:
        details.append(f"label={provenance.label!r}")
    if provenance.offset is not None:
        details.append(f"offset={provenance.offset}")
    details.append(f"replacements={provenance.replacements}")
    if provenance.binary:
        details.append("binary=True")
    return f"# {provenance} " + " ".join(details)


def _json_line(name: str, body: bytes, result: DecodeResult, out: str | None) -> str:
    provenance = result.provenance
    # Every provenance field, as the stored form has it (Provenance.from_dict reads it back).
    record: dict[str, object] = {"input": name, **provenance.to_dict(), "bytes": len(body)}
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
        "--detector",
        choices=("builtin", "charset-normalizer"),
        default="builtin",
        help="who guesses the encoding of undeclared pages (docs/detectors.md; default: builtin)",
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
        if name == "-" or is_url(name):
            continue
        path = Path(os.path.realpath(name))
        if os.path.isdir(path) and within(out, path):
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
            _error(str(out_dir), f"cannot create the --out folder: {reason(error)}")
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
                relative = unique(source.relative, taken)
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
