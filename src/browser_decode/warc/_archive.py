"""Re-decode the HTML (and XML) responses of WARC archives.

Reading is this module's own: a WARC file (plain, or gzip with one member per
record or one for the whole file) is parsed record by record, and every record
is framed by its real end (the CRLF CRLF after the block its Content-Length
gives), so that a lying Content-Length, a cut record or garbage between records
is reported and never swallows the next record. A gzip member that breaks (bad
deflate data, a wrong CRC or length, cut) gives every byte before the damage,
so the records before it are read and the record it breaks is reported at its
own offset; reading resumes at the next member holding a record. What a file
gives never depends on how it is read: a member inflated whole in one call (the
fast path) or piece by piece (the streaming parser), the pieces (:data:`_PIECE`)
falling anywhere in it, give the same records, lengths and reports (the
inflater's call that fails gives nothing, so :meth:`_GzipStream._break` inflates
the failing part again, and a record's length is read ahead to its member's end
rather than taken from what has been read). A gzip member that holds a WARC record
starts afresh: nothing read before it (a record whose Content-Length runs on, a
stretch of junk) runs into it (:class:`_GzipStream` pauses before it).

A :class:`Task` is a byte range of one file; what starts in it (records, and
reports of junk and damage) is its work, and it ends where the next task
begins, so that the tasks of a file, one after another, give what one pass over
it gives: nothing is lost or reported twice where a task ends, whatever the bytes
there. A task of a gzip file begins and ends at a member that holds a WARC record,
where one pass starts afresh too; a task of an uncompressed file at a record that
one pass finds (:mod:`._run` plans tasks and runs them on all cores).

:func:`read_pages` is the whole pipeline for one file or range: it needs
nothing but the path and returns plain dicts.
"""

from __future__ import annotations

import bisect
import importlib
import os
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, BinaryIO, Final, Literal

from .._api import decode_html
from .._decode_body import decode_body
from .._detect._external import Detector, DetectorArg, resolve_detector
from .._result import Confidence, Source
from ._http import (
    MAX_BODY,
    BrokenRecord,
    decode_payload,
    essence_of,
    header_content_type,
    page_kind,
    parse_response,
)

Content = Literal["html", "text", "none"]
CONTENTS: Final = ("html", "text", "none")

#: The fields of one output record, in output order (the last one is named
#: after the content choice: ``html`` or ``text``; absent for ``none``).
FIELDS: Final = (
    "url", "record_id", "warc_date", "warc_file", "offset", "length", "status",
    "content_type", "encoding", "label", "source", "confidence", "score", "runner_up",
    "detector", "binary", "replacements", "bytes",
)  # fmt: skip

_PROGRESS_EVERY: Final = 64

#: The output's ``source`` and ``confidence`` strings by member (an enum's ``.value`` is a
#: Python-level descriptor call: two a page).
_VALUES: Final[dict[Source | Confidence, str]] = {
    member: member.value for member in (*Source, *Confidence)
}


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says what to install."""


@dataclass
class Summary:
    """What a run did: pages per encoding and source, records skipped and why."""

    records: int = 0
    pages: int = 0
    encodings: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    with_replacements: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    #: Detected pages (source ``detected``) by the detector that decided them.
    detectors: Counter[str] = field(default_factory=Counter)

    def add(self, other: Summary) -> None:
        self.records += other.records
        self.pages += other.pages
        self.encodings.update(other.encodings)
        self.sources.update(other.sources)
        self.with_replacements += other.with_replacements
        self.skipped.update(other.skipped)
        self.detectors.update(other.detectors)


@dataclass(frozen=True, slots=True)
class Task:
    """Records of *path* that start at byte offsets in ``[start, stop)``, and the
    reports of junk and damage that start there.

    With *align*, *start* and *stop* need not be record boundaries: the task
    begins at the first gzip member at or after *start* that holds a WARC
    record, and ends at the first one at or after *stop* (where the next task
    begins), so it also reads what lies between *stop* and that member.
    """

    path: str
    start: int = 0
    stop: int | None = None
    align: bool = False


#: How much of each block is read before deciding whether the record is a page.
HEAD_BYTES: Final = 1 << 13
#: A WARC header longer than this is taken for bytes that are no record.
_HEADER_LIMIT: Final = 1 << 16
_PIECE: Final = 1 << 16
_INFLATE_STEP: Final = 1 << 20
#: A broken member is searched for its last good byte by halving when at most this much of
#: it came before the piece that broke (else a byte at a time): see _inflate_until_broken.
_BISECT_BELOW: Final = 1 << 18
_GZIP_MAGIC: Final = b"\x1f\x8b"
# "version = "WARC/1.1" CRLF" (WARC 1.1, section 4); WARC/1.0 files are read alike.
_VERSION: Final = b"WARC/1."
_VERSION_LINE: Final = re.compile(rb"WARC/1\.[0-9]+\r\n")
# "warc-record = header CRLF block CRLF CRLF" -- WARC 1.1, section 4
_TRAILER: Final = b"\r\n\r\n"


def _inflater() -> tuple[Callable[[int], Any], tuple[type[Exception], ...]]:
    """``decompressobj`` and its errors: ISA-L's (``isal``, about 1.7x faster) if installed.

    Both implement DEFLATE (RFC 1951) and gzip framing (RFC 1952) exactly; only speed
    differs. ``isal`` comes with ``pip install -e '.[warc]'``.
    """
    try:
        isal_zlib = importlib.import_module("isal.isal_zlib")
    except ImportError:
        return zlib.decompressobj, (zlib.error,)
    return isal_zlib.decompressobj, (zlib.error, isal_zlib.error)


_decompressobj, _INFLATE_ERRORS = _inflater()


class _Gap(Exception):
    """The bytes could not be read (corrupt or cut gzip data, bytes that are no gzip member).

    The stream has already moved on to the next readable place; ``str(gap)`` is the reason.
    """


class _Stream:
    """The (decompressed) bytes of a WARC file from an offset, for the record parser.

    ``at`` is the parser's place, in *logical* offsets (offsets in the decompressed
    stream; for a plain file, file offsets). Bytes from ``base`` are buffered;
    :meth:`mark` forgets the ones before ``at``. :meth:`origin` maps a logical
    offset to the file offset of the gzip member it came from.
    """

    def __init__(self, handle: BinaryIO, start: int, size: int) -> None:
        self.handle, self.size = handle, size
        self.buf = bytearray()
        self.base = self.at = start
        self.ended = False
        #: The stream stopped before a gzip member that holds a WARC record (see
        #: :class:`_GzipStream`): what came before it ends there.
        self.paused = False

    # -- what a subclass provides
    def _more(self) -> bytes:
        """The next bytes (empty at the end); may raise :class:`_Gap`."""
        raise NotImplementedError

    def _reopen(self, logical: int) -> int:
        """Read again from the unit holding *logical*; its logical start."""
        raise NotImplementedError

    def origin(self, logical: int) -> int:
        """The file offset where the unit holding *logical* starts."""
        return logical

    def origin_end(self, logical: int, strict: bool = True) -> int:
        """The file offset where the unit holding the byte before *logical* ends."""
        return logical

    def damage(self, logical: int) -> str | None:
        """Why the unit holding *logical* breaks (a corrupt or cut gzip member), if it does."""
        return None

    def resume(self) -> bool:
        """Go on after a pause, afresh (nothing buffered); ``False`` at the end."""
        return False

    # -- the parser's primitives
    def _pull(self) -> bool:
        if self.ended:
            return False
        try:
            data = self._more()
        except _Gap:
            self.base, self.at = self.end, self.end  # nothing before the gap can be used
            self.buf.clear()
            raise
        if not data:
            self.ended = True
            return False
        self.buf += data
        return True

    @property
    def end(self) -> int:
        return self.base + len(self.buf)

    def need(self, count: int) -> bool:
        """Whether *count* bytes from ``at`` are (or could be made) buffered."""
        while self.end - self.at < count:
            if not self._pull():
                return False
        return True

    def peek(self, count: int) -> bytes:
        offset = self.at - self.base
        return bytes(self.buf[offset : offset + count])

    def find(self, needle: bytes, limit: int) -> int | None:
        """The offset of *needle* after ``at`` within *limit* bytes, reading as needed."""
        searched = 0
        while True:
            offset = self.at - self.base
            found = self.buf.find(needle, offset + searched, offset + limit + len(needle))
            if found != -1:
                return found - offset
            searched = max(self.end - self.at - len(needle) + 1, 0)
            if searched >= limit or not self._pull():
                return None

    def scan(self, needle: bytes) -> bool:
        """Move ``at`` to the next *needle* after it; ``False`` (at the end) when none."""
        self.at += 1
        while True:
            offset = self.at - self.base
            found = self.buf.find(needle, offset)
            if found != -1:
                self.at = self.base + found
                return True
            self.at = max(self.end - len(needle) + 1, self.at)
            self.mark()
            if not self._pull():
                return False

    def take(self, count: int) -> bytes:
        offset = self.at - self.base
        self.at += count
        return bytes(self.buf[offset : offset + count])

    def skip(self, count: int) -> bool:
        """Move ``at`` *count* bytes on without keeping them; ``False`` at the end."""
        target = self.at + count
        while self.end < target:
            self.at = self.end
            self.mark()
            if not self._pull():
                return False
        self.at = target
        return True

    def mark(self) -> None:
        """Forget the bytes before ``at``."""
        drop = self.at - self.base
        if drop:
            del self.buf[:drop]
            self.base = self.at

    def prune(self) -> None:
        """Forget what :meth:`rewind` would need to go back before ``at``."""

    def rewind(self, logical: int) -> None:
        """Continue from *logical* (an offset already passed)."""
        if logical >= self.base:
            self.at = logical
            return
        self.buf.clear()
        self.ended = False
        self.base = self.at = self._reopen(logical)
        self.skip(max(logical - self.at, 0))


class _PlainStream(_Stream):
    def __init__(self, handle: BinaryIO, start: int, size: int) -> None:
        super().__init__(handle, start, size)
        handle.seek(start)

    def _more(self) -> bytes:
        position = self.end
        if self.handle.tell() != position:
            self.handle.seek(position)
        return self.handle.read(max(min(_PIECE, self.size - position), 0))

    def skip(self, count: int) -> bool:
        target = self.at + count
        if target <= self.end:
            self.at = target
            return True
        self.buf.clear()
        self.base = self.at = min(target, self.size)
        return target <= self.size

    def _reopen(self, logical: int) -> int:
        return logical


class _GzipStream(_Stream):
    """Gzip members one after another (one per record, or one for the whole file).

    A member that holds a WARC record (its data begins with ``WARC/``: where a
    :class:`Task` may begin) starts afresh: the stream pauses before it when it
    comes after other members, so that nothing read before it (a record whose
    Content-Length runs on, a stretch of junk) runs into it, and the parser
    goes on there as a task beginning there would. The stream ends before the
    first member at or after file offset *until* (where the next task begins).
    """

    def __init__(self, handle: BinaryIO, start: int, size: int, until: int | None = None) -> None:
        super().__init__(handle, 0, size)
        self.until = size if until is None else until
        # Members read: [logical start, file start, file end (-1 while reading)].
        self.units: list[list[int]] = []
        # Ends of members found by reading ahead (for a broken one: where reading resumed
        # after it, and why it broke), by file start (see origin_end).
        self.ends: dict[int, tuple[int, str | None]] = {}
        self._seek(start)

    def _seek(self, offset: int | None) -> None:
        """Continue with the member at file *offset* (``None``: at the end)."""
        offset = self.size if offset is None else offset
        self.handle.seek(offset)
        self.feed = b""
        self.fed_end = offset
        self.decompressor: Any = None
        self.broken: str | None = None  # the member broke: the next read raises _Gap(broken)
        self.fresh = True  # the next member is where reading (re)starts: no pause before it
        self.paused = False

    def _read(self) -> bytes:
        data = self.handle.read(max(min(_PIECE, self.size - self.fed_end), 0))
        self.fed_end += len(data)
        return data

    def resume(self) -> bool:
        if not self.paused or self.fed_end - len(self.feed) >= self.until:
            return False
        self.paused = self.ended = False
        self.fresh = True
        self.base = self.at = self.end
        self.buf.clear()
        return True

    def _lost(self, after: int) -> None:
        self._seek(_member_start(self.handle, after, self.size))

    def _more(self) -> bytes:
        while True:
            if self.broken is not None:
                reason, self.broken = self.broken, None
                raise _Gap(reason)
            if self.decompressor is None:
                if len(self.feed) < 2:
                    self.feed += self._read()
                if not self.feed:
                    return b""
                here = self.fed_end - len(self.feed)
                if here >= self.until or (
                    not self.fresh and _warc_member(self.handle, here, self.fed_end)
                ):
                    self.paused = True
                    return b""
                self.fresh = False
                if not self.feed.startswith(_GZIP_MAGIC):
                    self._lost(here + 1)
                    raise _Gap("bytes that are no gzip member")
                self.decompressor = _decompressobj(16 + zlib.MAX_WBITS)
                self.units.append([self.end, here, -1])
            if out := self._inflate():
                return out

    def _inflate(self) -> bytes:
        """The next bytes of the current member (maybe none: it ended, or it broke)."""
        unit = self.units[-1]
        cut = False
        if not self.feed:
            self.feed = self._read()
            cut = not self.feed  # (the file ends: but a step may have held output back)
        try:
            out: bytes = self.decompressor.decompress(self.feed, _INFLATE_STEP)
        except _INFLATE_ERRORS:
            return self._break("bad gzip data")
        if self.decompressor.eof:
            self.feed = self.decompressor.unused_data
            unit[2] = self.fed_end - len(self.feed)
            self.decompressor = None
        else:
            self.feed = self.decompressor.unconsumed_tail
            if cut and not out:
                return self._break("truncated gzip member")
        return out

    def _break(self, reason: str) -> bytes:
        """The bytes the current member gives before it breaks, past those given already.

        A member that breaks (bad deflate data, a wrong CRC or length, the file ends in
        it) gives every byte that the longest part of it without an error inflates to,
        whatever pieces it was read in (an inflater's call that fails gives nothing, so
        the member is inflated again up to its last good byte); then the next read
        raises ``_Gap(reason)``, and reading resumes at the next WARC member after its
        start. So a record is read up to the damage and reported there, and the records
        before it in the member are read whole, for every piece size.
        """
        unit = self.units[-1]
        given = self.end - unit[0]
        out = _inflate_until_broken(
            self.handle, unit[1], self.fed_end - len(self.feed), self.feed, given
        )
        self._lost(unit[1] + 1)
        self.ends[unit[1]] = (self.fed_end, reason)
        self.broken = reason
        return out

    def member(self) -> tuple[bytes, int, int] | None:
        """The next gzip member inflated whole, with its file start and end; or ``None``.

        The fast path for archives of one member per record: only at a member
        boundary with nothing buffered, and only for a member that inflates without
        error to at most :data:`_INFLATE_STEP` bytes. Otherwise ``None``, and the
        stream reads on as if it had read what this read (a bigger member goes on
        from where this stopped; a corrupt one is read again).
        """
        if self.decompressor is not None or self.broken or self.at != self.end or self.ended:
            return None
        if len(self.feed) < 2:
            self.feed += self._read()
        feed = self.feed
        if not feed.startswith(_GZIP_MAGIC):
            return None
        start = self.fed_end - len(feed)
        if start >= self.until:
            return None
        decompressor = _decompressobj(16 + zlib.MAX_WBITS)
        try:
            out: bytes = decompressor.decompress(feed, _INFLATE_STEP)
            while not (decompressor.eof or decompressor.unconsumed_tail) and (
                len(out) < _INFLATE_STEP
            ):
                more = self._read()  # the member goes on in the next piece of the file
                if not more:
                    break
                feed += more
                out += decompressor.decompress(more, _INFLATE_STEP - len(out))
        except _INFLATE_ERRORS:
            self.feed = feed  # read it again as a stream, which says where it breaks
            return None
        # (the parser has nothing pending here: the member starts afresh, paused before or not)
        self.fresh = False
        if not decompressor.eof:
            # A bigger member (or the file ends inside it): the stream goes on from here,
            # with what was inflated buffered, as if it had read it.
            self.decompressor = decompressor
            self.units.append([self.end, start, -1])
            self.buf += out
            self.feed = decompressor.unconsumed_tail
            return None
        self.feed = decompressor.unused_data
        return out, start, self.fed_end - len(self.feed)

    def push(self, data: bytes, start: int, end: int) -> None:
        """Buffer a member that :meth:`member` gave (file bytes ``[start, end)``) for the parser."""
        self.units.append([self.end, start, end])
        self.buf += data

    def _unit(self, logical: int) -> list[int]:
        index = bisect.bisect_right(self.units, logical, key=lambda unit: unit[0]) - 1
        return self.units[max(index, 0)]

    def origin(self, logical: int) -> int:
        return self._unit(logical)[1] if self.units else logical

    def origin_end(self, logical: int, strict: bool = True) -> int:
        """The file offset where the member holding the byte before *logical* ends.

        With *strict* (a record that ends there), the member is read on to its end, or
        until it gives bytes after *logical*: when it breaks first, the record is damaged
        and :class:`_Gap` is raised. A member that goes on past the record (a file of one
        member) or that breaks later is read ahead once to find its end (for one that
        breaks: where reading resumes after it). The answer never depends on how the
        file was read.
        """
        if not self.units:
            return logical
        unit = self._unit(logical - 1)
        if strict and unit[2] < 0 and unit is self.units[-1] and self.end <= logical:
            self._finish_member()  # (bytes buffered after logical: it goes on past it)
        return unit[2] if unit[2] >= 0 else self._extent(unit)[0]

    def damage(self, logical: int) -> str | None:
        if not self.units:
            return None
        unit = self._unit(logical)
        return None if unit[2] >= 0 else self._extent(unit)[1]

    def _extent(self, unit: list[int]) -> tuple[int, str | None]:
        extent = self.ends.get(unit[1])
        if extent is None:
            extent = self.ends[unit[1]] = _member_end(self.handle, unit[1], self.size)
            self.handle.seek(self.fed_end)
        return extent

    def _finish_member(self) -> None:
        """Read the current member on until it ends or gives more bytes (buffered)."""
        while self.broken is not None or self.decompressor is not None:
            if self.broken is not None:
                self._pull()  # raises the gap, as a read would
                return
            if out := self._inflate():
                self.buf += out
                return

    def prune(self) -> None:
        # Members wholly before the parser's place are no longer needed for rewinding.
        if len(self.units) < 2:  # (whole members, read by member(), are never listed)
            return
        keep = bisect.bisect_right(self.units, self.at, key=lambda unit: unit[0]) - 1
        if keep > 0:
            del self.units[:keep]

    def _reopen(self, logical: int) -> int:
        unit = self._unit(logical)
        del self.units[self.units.index(unit) :]
        self._seek(unit[1])
        return unit[0]


def _member_start(handle: BinaryIO, offset: int, size: int | None = None) -> int | None:
    """The first gzip member at or after *offset* whose data begins with ``WARC/``."""
    while (candidate := _next_magic(handle, offset)) is not None:
        if size is not None and candidate >= size:
            return None
        if _warc_member(handle, candidate):
            return candidate
        offset = candidate + 1
    return None


def _warc_member(handle: BinaryIO, offset: int, then: int | None = None) -> bool:
    """Whether the gzip member at *offset* begins with ``WARC/`` (the handle is left at *then*)."""
    handle.seek(offset)
    try:
        data = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(handle.read(4096), 5)
    except zlib.error:
        data = b""
    if then is not None:
        handle.seek(then)
    return data == b"WARC/"


def _next_magic(handle: BinaryIO, offset: int) -> int | None:
    """The offset of the next gzip magic number (and deflate method) at or after *offset*."""
    marker = _GZIP_MAGIC + b"\x08"
    handle.seek(offset)
    base, carry = offset, b""
    while chunk := handle.read(1 << 20):
        data = carry + chunk
        found = data.find(marker)
        if found != -1:
            return base + found
        carry = data[-(len(marker) - 1) :]
        base += len(data) - len(carry)
    return None


def _inflate_until_broken(
    handle: BinaryIO, start: int, clean_end: int, failed: bytes, skip: int
) -> bytes:
    """What the gzip member at *start* inflates to before it breaks, less its first *skip* bytes.

    The file bytes ``[start, clean_end)`` inflated without an error; *failed*, the bytes
    from *clean_end* on, did not (or the file ends: *failed* is empty). The member is
    inflated again with the same inflater, up to the longest part of *failed* that gives
    no error: found by halving when what went before is short (each try inflates it
    again), else a byte at a time (an inflater's state cannot be copied: ISA-L's).
    """

    def inflate(extra: int, keep: list[bytes] | None) -> tuple[Any, int]:
        decompressor = _decompressobj(16 + zlib.MAX_WBITS)
        total = 0
        handle.seek(start)
        position = start
        while position < clean_end:
            data = handle.read(min(_PIECE, clean_end - position))
            if not data:
                break
            position += len(data)
            total = _inflate_into(decompressor, data, keep, skip, total)
        if extra:
            total = _inflate_into(decompressor, failed[:extra], keep, skip, total)
        return decompressor, total

    def good(extra: int) -> bool:
        try:
            inflate(extra, None)
        except _INFLATE_ERRORS:
            return False
        return True

    kept: list[bytes] = []
    if clean_end - start <= _BISECT_BELOW:
        low, high = 0, len(failed)  # failed[:low] inflates, failed[:high + 1] does not
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if good(middle) else (low, middle - 1)
        try:
            inflate(low, kept)
        except _INFLATE_ERRORS:  # (what went before breaks now: nothing to add)
            return b""
        return b"".join(kept)
    try:
        decompressor, total = inflate(0, kept)
        for byte in range(len(failed)):
            total = _inflate_into(decompressor, failed[byte : byte + 1], kept, skip, total)
    except _INFLATE_ERRORS:
        pass
    return b"".join(kept)


def _inflate_into(
    decompressor: Any, data: bytes, keep: list[bytes] | None, skip: int, total: int
) -> int:
    """Inflate *data*, keeping in *keep* the output past the first *skip* bytes; the output's
    length so far (*total* before)."""
    while True:
        out: bytes = decompressor.decompress(data, _INFLATE_STEP)
        if keep is not None and total + len(out) > skip:
            keep.append(out[max(skip - total, 0) :])
        total += len(out)
        data = decompressor.unconsumed_tail
        # (a full step may have held output back with all the input taken: ask again)
        if decompressor.eof or not (data or len(out) == _INFLATE_STEP):
            return total


def _member_end(handle: BinaryIO, start: int, size: int) -> tuple[int, str | None]:
    """Where the gzip member at *start* ends, and ``None``; for one that breaks, where
    reading resumes after it, and why it broke (as :meth:`_GzipStream._break` says)."""
    decompressor = _decompressobj(16 + zlib.MAX_WBITS)
    handle.seek(start)
    position = start
    try:
        while True:
            data = handle.read(max(min(_PIECE, size - position), 0))
            position += len(data)
            _inflate_into(decompressor, data, None, 0, 0)
            if decompressor.eof:
                return position - len(decompressor.unused_data), None
            if not data:
                break
        reason = "truncated gzip member"
    except _INFLATE_ERRORS:
        reason = "bad gzip data"
    resume = _member_start(handle, start + 1, size)
    return size if resume is None else resume, reason


@dataclass(slots=True)
class Record:
    """One WARC record as read: its fields, the start of its block, and its block if kept.

    The kept block is ``block[block_start:block_end]`` (``block_end`` ``None``: to the
    end): a record read from a gzip member inflated whole keeps the member's bytes and
    the block's place in them, so that the block is never copied; the streaming parser
    keeps the block itself. ``problem`` is set when the record cannot be trusted: its
    block ends where its Content-Length says it does not, or the file (or gzip member)
    ends inside it.
    """

    position: int
    length: int
    type: str
    record_id: str | None
    uri: str | None
    date: str | None
    content_length: int
    head: bytes = b""
    block: bytes | None = None
    block_start: int = 0
    block_end: int | None = None
    too_large: bool = False
    problem: str | None = None


# "named-field = field-name ":" [ field-value ]" (WARC 1.1, section 4); names are
# case-insensitive. Only the five fields read here are decoded; continuation lines are
# not used by any of them. A line is ``name [ \t]* ":" [ \t]* value [ \t]* [CR]``; a
# value holding a CR elsewhere is no value (the line is ignored). One search finds the
# five fields' lines only (after a LF: a header's first line is its version line), and
# skips every other line in C: 2 us a record less than splitting the lines in Python.
_WARC_FIELD: Final = re.compile(
    rb"\n(warc-type|warc-record-id|warc-target-uri|warc-date|content-length)[ \t]*:[ \t]*"
    rb"([^\r\n]*)\r?(?=\n|\Z)",
    re.IGNORECASE,
)
# Field names as found (the usual spellings, and lowercase) to the lowercase name.
_WARC_SPELLINGS: Final = (
    "WARC-Type", "WARC-Record-ID", "WARC-Target-URI", "WARC-Date", "Content-Length",
)  # fmt: skip
_WARC_NAMES: Final = {spelling.encode(): spelling.lower() for spelling in _WARC_SPELLINGS} | {
    spelling.lower().encode(): spelling.lower() for spelling in _WARC_SPELLINGS
}


def _warc_fields(header: bytes, end: int | None = None) -> dict[str, str]:
    """The first value of each of the five fields read, by lowercase name.

    The header is ``header[:end]``; its first line, when it is no field, must be a
    version line (``WARC/1.x``), which a caller has checked: without *end*, the
    first line is read like the others.
    """
    fields: dict[str, str] = {}
    if end is None:
        found = _WARC_FIELD.findall(b"\n" + header)
    else:
        found = _WARC_FIELD.findall(header, 0, end)
    for name, value in found:
        key = _WARC_NAMES.get(name)
        if key is None:
            key = _WARC_NAMES[name.lower()]
        if key not in fields:
            fields[key] = value.rstrip(b" \t").decode("utf-8", "replace")
    return fields


def _record(position: int, length: int, fields: dict[str, str], content_length: int) -> Record:
    """A record at *position* from its WARC fields (names in lowercase)."""
    get = fields.get
    return Record(
        position,
        length,
        get("warc-type", "unknown"),
        get("warc-record-id"),
        get("warc-target-uri"),
        get("warc-date"),
        content_length,
    )


def _digits(value: str) -> bool:
    # "Content-Length = 1*DIGIT" (WARC 1.1, section 5.3): ASCII digits only ("²" is no length).
    return value.isascii() and value.isdigit()


def _whole_record(
    data: bytes,
    start: int,
    end: int,
    heads: bool,
    keep: Callable[[str, bytes], bool] | None,
    limit: int,
) -> Record | None:
    """The record of a gzip member that holds exactly one well-formed record, else ``None``.

    *data* is the member inflated, ``[start, end)`` its place in the file. The record
    must be what the streaming parser would find there: a version line and header
    within :data:`_HEADER_LIMIT`, a Content-Length, and the block followed by CRLF
    CRLF where the member ends. Anything else is left to the streaming parser.
    """
    if not data.startswith(_VERSION):
        return None
    header_end = data.find(b"\r\n\r\n", 0, _HEADER_LIMIT + 4)
    if header_end == -1 or _VERSION_LINE.match(data, 0, header_end) is None:
        return None
    fields = _warc_fields(data, header_end)
    length_field = fields.get("content-length", "")
    if not _digits(length_field):
        return None
    length = int(length_field)
    block_start = header_end + 4
    block_end = block_start + length
    if len(data) != block_end + len(_TRAILER) or not data.endswith(_TRAILER):
        return None
    record = _record(start, end - start, fields, length)
    if heads:
        # The member is in memory already: its block is kept without asking *keep* (which
        # only spares the streaming parser reading blocks that give no page), and its
        # HTTP headers are parsed once, by the reader; ``head`` (a copy) only when not.
        if length <= limit:
            record.block, record.block_start, record.block_end = data, block_start, block_end
        else:
            record.head = data[block_start : block_start + min(length, HEAD_BYTES)]
            record.too_large = keep is None or keep(record.type, record.head)
    return record


def _ends_well(stream: _Stream) -> int | None:
    """The length of the record end at ``at`` (CRLF CRLF), or ``None`` when it is no end."""
    stream.need(len(_TRAILER))
    if stream.peek(len(_TRAILER)) == _TRAILER:
        return len(_TRAILER)
    # Lenient about writers that end records with fewer line ends (or none at the end).
    try:
        stream.need(len(_TRAILER) + len(_VERSION))
    except _Gap:
        return None
    after = stream.peek(len(_TRAILER) + len(_VERSION))
    stripped = after.lstrip(b"\r\n")
    used = len(after) - len(stripped)
    if used <= len(_TRAILER) and (not stripped or stripped.startswith(_VERSION)):
        return used
    return None


def iter_records(
    path: str,
    start: int = 0,
    stop: int | None = None,
    *,
    heads: bool = True,
    align: bool = False,
    keep: Callable[[str, bytes], bool] | None = None,
    limit: int = MAX_BODY,
) -> Iterator[Record | str]:
    """The WARC records of *path* that start in ``[start, stop)``, in file order.

    Each record is framed by its real end: the block must be followed by the
    record end (CRLF CRLF) where its Content-Length says; when it is not, the
    record is given with a ``problem`` and reading resumes at the next
    ``WARC/1.`` after its header, so the record a lying Content-Length ran into
    is read whole. Bytes that are no record give one ``str`` (the reason) per
    stretch. Without *heads*, no block is read (an index pass). With *heads*,
    ``head`` is the first :data:`HEAD_BYTES` of the block, and the whole block
    (``block``) is kept when ``keep(type, head)`` says so (always, without
    *keep*, and for a record read from a gzip member inflated whole, which is in
    memory already) and it is at most *limit* bytes (else ``too_large``); a record
    read from a whole member that keeps its block has no ``head`` (``b""``: the block
    holds it). With *align*, reading begins at the first WARC gzip member at or after
    *start* and ends before the first one at or after *stop* (as for a :class:`Task`);
    without, reading a gzip file ends before the first member at or after *stop*.
    """
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size  # a growing file is read up to here
        gzipped = handle.read(2) == _GZIP_MAGIC
        stream: _Stream
        if gzipped:
            if align and start > 0:
                aligned = _member_start(handle, start, size)
                if aligned is None:
                    return
                start = aligned
            # The task ends where the next one begins: with *align*, at the first WARC
            # member at or after *stop*. The members before it are read whole, records
            # and junk: the ones that start in it are the next task's.
            until = stop
            if align and stop is not None:
                until = _member_start(handle, stop, size)
            stream, stop = _GzipStream(handle, start, size, until), None
        else:
            stream = _PlainStream(handle, start, size)
        yield from _parse(stream, stop, heads, keep, limit)


def _parse(
    stream: _Stream,
    stop: int | None,
    heads: bool,
    keep: Callable[[str, bytes], bool] | None,
    limit: int,
) -> Iterator[Record | str]:
    in_junk = False  # inside a stretch already reported
    members = stream if isinstance(stream, _GzipStream) else None
    while True:
        record: Record | None = None
        try:
            stream.mark()
            stream.prune()
            # The common case first: a gzip member that holds exactly one record.
            if members is not None and (whole := members.member()) is not None:
                record = _whole_record(*whole, heads, keep, limit)
                if record is None:
                    members.push(*whole)  # not one well-formed record: read it as a stream
                else:
                    whole = None  # (the record holds its bytes: see read_pages)
                    if stop is not None and record.position >= stop:
                        return
                    in_junk = False
                    yield record
                    continue
            if not stream.need(len(_VERSION)):
                if stream.end > stream.at and not in_junk:
                    yield _junk(stream)
                if stream.resume():
                    in_junk = False
                    continue
                return
            here = stream.at
            header_end = None
            if stream.peek(len(_VERSION)) == _VERSION:
                header_end = stream.find(b"\r\n\r\n", _HEADER_LIMIT)
            header = b"" if header_end is None else stream.peek(header_end)
            if _VERSION_LINE.match(header) is None:
                header_end = None
            fields = {} if header_end is None else _warc_fields(header)
            length_field = fields.get("content-length", "")
            if header_end is None or not _digits(length_field):
                if (
                    header_end is None
                    and stream.ended
                    and not stream.paused
                    and stream.peek(5) == b"WARC/"
                ):
                    yield "broken archive (the file ends inside a WARC header)"
                    return
                if not in_junk:
                    yield _junk(stream)
                    in_junk = True
                if not stream.scan(_VERSION):
                    if stream.resume():
                        in_junk = False
                        continue
                    return
                continue
            position = stream.origin(here)
            if stop is not None and position >= stop:
                return
            in_junk = False
            length = int(length_field)
            stream.at += header_end + 4
            block_start = stream.at
            record = _record(position, 0, fields, length)
            if heads:
                stream.need(min(length, HEAD_BYTES))
                record.head = stream.peek(min(length, HEAD_BYTES))
            wanted = heads and (keep is None or keep(record.type, record.head))
            if wanted and length <= limit:
                complete = stream.need(length)
                if complete:
                    record.block = stream.take(length)
            else:
                record.too_large = wanted
                complete = stream.skip(length)
            trailer = _ends_well(stream) if complete else None
            if trailer is None:
                # The file ends inside the block, or the Content-Length is wrong: too long (it
                # ran into the next record) or too short. Resume at the next record start
                # after this header, so that the record it ran into is read whole.
                record.problem = (
                    "broken: Content-Length does not match the record's end"
                    if complete or stream.paused  # (it ran up to the next WARC member)
                    else "broken: truncated record"
                )
                if (damage := stream.damage(here)) is not None:
                    # A member that breaks gives a record that ends wrong: say why.
                    record.problem = f"broken: {damage}"
                record.block = None
                end = stream.origin_end(min(stream.at, stream.end), strict=False)
                record.length = end - position
                yield record
                record = None
                stream.rewind(block_start)
                in_junk = True
                if not stream.scan(_VERSION):
                    if stream.resume():
                        in_junk = False
                        continue
                    return
                continue
            stream.at += trailer
            record.length = stream.origin_end(stream.at) - position
            yield record
            record = None
        except _Gap as gap:
            if record is not None:
                record.problem = f"broken: {gap}"
                record.block, record.block_start, record.block_end = None, 0, None
                # (as a record whose Content-Length does not match: to where reading resumes)
                record.length = stream.origin_end(stream.end, strict=False) - record.position
                yield record
            elif not in_junk:
                yield f"broken archive ({gap})"
            in_junk = False


def _junk(stream: _Stream) -> str:
    """The report for bytes at the parser's place that are no record."""
    # A damaged gzip member may inflate to garbage before its error shows: the damage is
    # what to report (the gap that follows is in the same stretch).
    damage = stream.damage(stream.at)
    return f"broken archive ({damage or 'bytes that are no WARC record'})"


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


def wanted(record_type: str, head: bytes) -> bool:
    """Whether a record may give a page, from its type and the start of its block."""
    if record_type != "response":
        return False
    try:
        content_type = header_content_type(head)
    except BrokenRecord:
        return True  # headers longer than the head, or broken: page_of says which
    return page_kind(content_type, None) is not None


def page_of(
    record: Record,
    content: Content = "html",
    *,
    path: str | None = None,
    limit: int = MAX_BODY,
    detector: DetectorArg = None,
) -> dict[str, Any] | str:
    """The output record for one WARC record, or the reason it is skipped.

    *detector* is ``decode_html``'s: who guesses the encoding of undeclared pages.
    """
    _UTF8_BODY[0] = None  # (nothing of an earlier page is held: see utf8_body)
    if record.type != "response":
        return f"not a response ({record.type[:40]})"
    if record.problem is not None:
        return record.problem
    try:
        if record.block is None:
            response = parse_response(record.head)
        else:
            response = parse_response(record.block, record.block_start, record.block_end)
    except BrokenRecord as reason:
        return f"too large (over {limit:,} bytes)" if record.too_large else str(reason)
    if page_kind(response.content_type, None) is None:
        return f"not HTML ({essence_of(response.content_type)})"
    if record.too_large or record.block is None:
        return f"too large (over {limit:,} bytes)"
    try:
        body = decode_payload(response, limit)
    except BrokenRecord as reason:
        return str(reason)
    kind = page_kind(response.content_type, body)
    if kind is None:
        return f"not HTML ({essence_of(response.content_type)})"
    try:
        if kind == "html":
            text, provenance = decode_html(
                body, response.content_type, url=record.uri, detector=detector
            )
        else:
            text, provenance = decode_body(
                body, response.content_type, url=record.uri, detector=detector
            )
        extracted = html_to_text(text) if content == "text" else None
    except Exception as error:  # a bug, never bad input: keep the run going, count it
        return f"internal error ({type(error).__name__}; please report)"
    page: dict[str, Any] = {
        "url": record.uri,
        "record_id": record.record_id,
        "warc_date": record.date,
        "warc_file": path,
        "offset": record.position,
        "length": record.length,
        "status": response.status,
        "content_type": response.content_type,
        "encoding": provenance.encoding,
        "label": provenance.label,
        "source": _VALUES[provenance.source],
        "confidence": _VALUES[provenance.confidence],
        "score": provenance.score,
        "runner_up": provenance.runner_up,
        "detector": provenance.detector,
        "binary": provenance.binary,
        "replacements": provenance.replacements,
        "bytes": len(body),
    }
    if content == "html":
        page["html"] = text
        if kind == "html" and provenance.encoding == "UTF-8" and not provenance.replacements:
            # The text is the body decoded as UTF-8 without an error (after its BOM, if
            # any): its UTF-8 bytes are the body's (see utf8_body).
            _UTF8_BODY[0] = (text, body[3:] if provenance.source is Source.BOM else body)
    elif content == "text":
        page["text"] = extracted
    return page


#: The text and body of the last page :func:`page_of` made, when the text is the body
#: decoded as UTF-8 without an error (see :func:`utf8_body`); ``None`` otherwise.
_UTF8_BODY: Final[list[tuple[str, bytes] | None]] = [None]


def utf8_body(page: dict[str, Any]) -> bytes | None:
    """The UTF-8 bytes of ``page["html"]``, when they are at hand: the page is the last
    that :func:`page_of` made, its text the body decoded as UTF-8 without an error, and
    ``page["html"]`` that very text (the same object: a page changed since, or another
    page, gets ``None``). The JSON line of such a page is written from them (``_run.page_line``)
    instead of encoding the text again. Only the last page's are kept, until the next
    page is made (:func:`read_pages` lets them go once the page has been taken)."""
    last = _UTF8_BODY[0]
    if last is not None and last[0] is page.get("html"):
        return last[1]
    return None


def read_pages(
    path: str,
    *,
    content: Content = "html",
    start: int = 0,
    stop: int | None = None,
    align: bool = False,
    summary: Summary | None = None,
    progress: Callable[[int, int], None] | None = None,
    limit: int = MAX_BODY,
    detector: DetectorArg = None,
) -> Iterator[dict[str, Any]]:
    """The decoded pages of one WARC file (or of a :class:`Task`'s range).

    Pages are ``text/html`` responses (and responses without a usable
    Content-Type that sniff as HTML), decoded by :func:`decode_html`, and XML
    responses (XHTML, RSS, Atom, sitemaps: ``*/xml``, ``*+xml``), decoded by
    :func:`decode_body`'s XML rules. Every record is counted in *summary* (if
    given); records that give no page are counted in ``summary.skipped`` by
    reason. A record whose block or decoded body is over *limit* bytes is
    skipped as "too large". *progress* is called now and then with (records
    read since the last call, current byte offset). *detector* is
    :func:`decode_html`'s (``None`` or ``"builtin"``, ``"charset-normalizer"``, a
    callable): it decides the undeclared pages, and a detected page's ``detector``
    field names it.
    """
    if content not in CONTENTS:
        raise ValueError(f"content must be one of {CONTENTS}, not {content!r}")
    resolved: Detector = resolve_detector(detector)  # a bad argument fails here, once
    # The built-in detector is passed as None: decode_html's short path for the common
    # calls takes only that (the same stages, without resolving the argument per page).
    chosen: Detector | None = None if resolved is resolve_detector(None) else resolved
    summary = Summary() if summary is None else summary
    since = 0
    records = iter_records(path, start, stop, align=align, keep=wanted, limit=limit)
    while True:
        try:
            item = next(records, None)
        except OSError as error:  # the file vanished or became unreadable: counted, not fatal
            summary.skipped[f"broken archive (read error: {error.strerror or error})"] += 1
            break
        if item is None:
            break
        if isinstance(item, str):
            summary.skipped[item] += 1
            continue
        summary.records += 1
        position = item.position
        page = page_of(item, content, path=path, limit=limit, detector=chosen)
        # Nothing of a record is held while the next one is read and decoded (here, in
        # _parse and in stream's loop): its buffers (the inflated member, the text and
        # its UTF-8 form, ~60 KB) are freed first, and the next record's may reuse them.
        del item
        if isinstance(page, str):
            summary.skipped[page] += 1
        else:
            summary.pages += 1
            summary.encodings[page["encoding"]] += 1
            summary.sources[page["source"]] += 1
            if page["detector"] is not None:
                summary.detectors[page["detector"]] += 1
            summary.with_replacements += page["replacements"] > 0
            yield page
        del page
        _UTF8_BODY[0] = None  # (its body too: the page has been written, if it was)
        since += 1
        if progress is not None and since >= _PROGRESS_EVERY:
            progress(since, position)
            since = 0
    if progress is not None and since:
        progress(since, -1)
