"""Re-decode the HTML responses of WARC archives with :func:`decode_html`.

Reading is FastWARC's (``pip install 'browser-decode[warc]'``), imported only
when a WARC is read. A :class:`Task` is a byte range of one file; the records
that start in it are its work (:mod:`._run` runs tasks on all cores).

:func:`read_pages` is the whole pipeline for one file or range: it needs
nothing but the path and returns plain dicts.
"""

from __future__ import annotations

import importlib
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Final, Literal

from .._api import decode_html
from ._http import (
    HTML_ESSENCES,
    MAX_BODY,
    UNKNOWN_ESSENCES,
    BrokenRecord,
    content_type_essence,
    decode_payload,
    essence_of,
    html_essence,
    parse_response,
)

Content = Literal["html", "text", "none"]
CONTENTS: Final = ("html", "text", "none")

#: The fields of one output record, in output order (the last one is named
#: after the content choice: ``html`` or ``text``; absent for ``none``).
FIELDS: Final = (
    "url", "record_id", "status", "content_type", "encoding", "source", "confidence",
    "replacements", "bytes",
)  # fmt: skip

_PROGRESS_EVERY: Final = 64


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says what to install."""


def _archive_iterator() -> Any:
    try:
        warc = importlib.import_module("fastwarc.warc")
    except ImportError:
        raise MissingExtra(
            "reading WARC files needs FastWARC: pip install 'browser-decode[warc]'"
        ) from None
    return warc.ArchiveIterator


@dataclass
class Summary:
    """What a run did: pages per encoding and source, records skipped and why."""

    records: int = 0
    pages: int = 0
    encodings: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    with_replacements: int = 0
    skipped: Counter[str] = field(default_factory=Counter)

    def add(self, other: Summary) -> None:
        self.records += other.records
        self.pages += other.pages
        self.encodings.update(other.encodings)
        self.sources.update(other.sources)
        self.with_replacements += other.with_replacements
        self.skipped.update(other.skipped)


@dataclass(frozen=True, slots=True)
class Task:
    """Records of *path* that start at byte offsets in ``[start, stop)``.

    With *align*, *start* need not be a record boundary: the task begins at the
    first gzip member at or after it that holds a WARC record.
    """

    path: str
    start: int = 0
    stop: int | None = None
    align: bool = False


class Record:
    """One WARC record while it is the current one: its fields and lazily read block.

    Only the first :data:`HEAD_BYTES` of the block are read up front: records
    that turn out not to be HTML are skipped without reading (or holding) the
    rest. :meth:`block` reads the rest, and only before the next record is read.
    """

    __slots__ = ("_read", "_rest", "head", "length", "position", "record_id", "type", "uri")

    def __init__(
        self,
        position: int,
        type: str,
        record_id: str | None,
        uri: str | None,
        length: int,
        head: bytes,
        read: Callable[[int], bytes],
    ) -> None:
        self.position, self.type, self.record_id, self.uri = position, type, record_id, uri
        self.length, self.head, self._read = length, head, read
        self._rest: bytes | None = None

    def block(self) -> bytes:
        """The record's whole block (at most ``MAX_BODY`` + 1 bytes of it)."""
        if self._rest is None:
            try:
                complete = len(self.head) >= self.length
                self._rest = b"" if complete else self._read(MAX_BODY + 1 - len(self.head))
            except Exception:  # unreadable bytes: the block is cut short (truncated)
                self._rest = b""
        return self.head + self._rest


#: How much of each block is read before deciding whether the record is a page.
HEAD_BYTES: Final = 1 << 16


def _next_start(handle: Any, offset: int, gzipped: bool) -> int | None:
    """The offset of the next plausible record start at or after *offset*."""
    marker = b"\x1f\x8b\x08" if gzipped else b"\nWARC/1."
    skip = 0 if gzipped else 1
    handle.seek(max(offset - skip, 0))
    base = handle.tell()
    carry = b""
    while chunk := handle.read(1 << 20):
        data = carry + chunk
        found = data.find(marker)
        if found != -1:
            return int(base + found + skip)
        carry = data[-(len(marker) - 1) :]
        base += len(data) - len(carry)
    return None


def _member_start(handle: Any, offset: int) -> int | None:
    """The first gzip member at or after *offset* whose data begins with ``WARC/``."""
    while (candidate := _next_start(handle, offset, True)) is not None:
        handle.seek(candidate)
        try:
            data = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(handle.read(4096), 5)
        except zlib.error:
            data = b""
        if data == b"WARC/":
            return candidate
        offset = candidate + 1
    return None


def iter_records(
    path: str,
    start: int = 0,
    stop: int | None = None,
    *,
    heads: bool = True,
    align: bool = False,
) -> Iterator[Record | str]:
    """The WARC records of *path* that start in ``[start, stop)``, in file order.

    Stretches FastWARC cannot parse give one ``str`` (the reason) each; reading
    resumes at the next record start (a gzip member, or a ``WARC/1.`` line).
    Without *heads*, no block is read (an index pass). With *align*, reading
    begins at the first WARC gzip member at or after *start* (see :class:`Task`).
    """
    archive_iterator = _archive_iterator()
    with open(path, "rb") as handle:
        gzipped = handle.read(2) == b"\x1f\x8b"
        if align and gzipped and start > 0:
            aligned = _member_start(handle, start)
            if aligned is None:
                return
            start = aligned
        position, last, failing = start, start - 1, False
        while stop is None or position < stop:
            handle.seek(position)
            try:
                for record in archive_iterator(handle, parse_http=False, fsspec_args=False):
                    here = record.stream_pos
                    if stop is not None and here >= stop:
                        return
                    last, failing = here, False
                    yield Record(
                        position=here,
                        type=str(record.record_type),
                        record_id=record.record_id,
                        uri=record.headers.get("WARC-Target-URI"),
                        length=record.content_length,
                        head=record.reader.read(HEAD_BYTES) if heads else b"",
                        read=record.reader.read,
                    )
                return
            except Exception as error:  # FastWARC raises OSError (and others) on bad bytes
                if not failing:
                    yield f"broken archive ({str(error)[:60]})"
                failing = True
                resume = _next_start(handle, max(last, position) + 1, gzipped)
                if resume is None:
                    return
                position = resume


def index(path: str) -> list[int]:
    """Byte offsets of the records of *path* (where a :class:`Task` may start)."""
    return [r.position for r in iter_records(path, heads=False) if isinstance(r, Record)]


class _TextExtractor(HTMLParser):
    _SKIP: Final = frozenset({"script", "style", "noscript", "template"})
    _BREAK: Final = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "title", "section"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BREAK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self._skipping = max(self._skipping - 1, 0)
        elif tag in self._BREAK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """The visible text of a document, roughly: no markup, scripts or styles."""
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    lines = (" ".join(line.split()) for line in "".join(extractor.parts).split("\n"))
    return "\n".join(line for line in lines if line)


def page_of(record: Record, content: Content = "html") -> dict[str, Any] | str:
    """The output record for one WARC record, or the reason it is skipped."""
    if record.type != "response":
        return f"not a response ({record.type})"
    try:
        try:
            response = parse_response(record.head)
        except BrokenRecord:
            if len(record.head) < HEAD_BYTES:
                raise
            response = parse_response(record.block())  # headers longer than HEAD_BYTES
    except BrokenRecord as reason:
        return "broken: truncated record" if len(record.block()) < record.length else str(reason)
    essence = content_type_essence(response.content_type)
    if essence is not None and essence not in HTML_ESSENCES and essence not in UNKNOWN_ESSENCES:
        return f"not HTML ({essence[:60]})"  # skipped without reading the rest of the block
    block = record.block()
    if len(block) > MAX_BODY:
        return f"too large (over {MAX_BODY:,} bytes)"
    if len(block) < record.length:
        return "broken: truncated record"
    if len(block) != len(record.head):
        response = parse_response(block)
    try:
        body = decode_payload(response)
    except BrokenRecord as reason:
        return str(reason)
    if html_essence(response.content_type, body) is None:
        return f"not HTML ({essence_of(response.content_type)})"
    try:
        text, provenance = decode_html(body, response.content_type, url=record.uri)
        extracted = html_to_text(text) if content == "text" else None
    except Exception as error:  # a bug, never bad input: keep the run going, count it
        return f"internal error ({type(error).__name__}; please report)"
    page: dict[str, Any] = {
        "url": record.uri,
        "record_id": record.record_id,
        "status": response.status,
        "content_type": response.content_type,
        "encoding": provenance.encoding,
        "source": provenance.source.value,
        "confidence": provenance.confidence.value,
        "replacements": provenance.replacements,
        "bytes": len(body),
    }
    if content == "html":
        page["html"] = text
    elif content == "text":
        page["text"] = extracted
    return page


def read_pages(
    path: str,
    *,
    content: Content = "html",
    start: int = 0,
    stop: int | None = None,
    align: bool = False,
    summary: Summary | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """The decoded HTML pages of one WARC file (or of a :class:`Task`'s range).

    Every record is counted in *summary* (if given); records that give no page
    are counted in ``summary.skipped`` by reason. *progress* is called now and
    then with (records read since the last call, current byte offset).
    """
    if content not in CONTENTS:
        raise ValueError(f"content must be one of {CONTENTS}, not {content!r}")
    summary = Summary() if summary is None else summary
    since = 0
    for item in iter_records(path, start, stop, align=align):
        if isinstance(item, str):
            summary.skipped[item] += 1
            continue
        summary.records += 1
        page = page_of(item, content)
        if isinstance(page, str):
            summary.skipped[page] += 1
        else:
            summary.pages += 1
            summary.encodings[page["encoding"]] += 1
            summary.sources[page["source"]] += 1
            summary.with_replacements += page["replacements"] > 0
            yield page
        since += 1
        if progress is not None and since >= _PROGRESS_EVERY:
            progress(since, item.position)
            since = 0
    if progress is not None and since:
        progress(since, -1)
