"""Shared machinery of the multi-byte decoders: exact token decoding and the C-codec fast path.

Three layers, each checked against the one before it by the test-suite:

1. **Reference decoders** (``reference_decode`` in each family module): the standard's
   handler, transcribed step by step and run by :func:`run_handler`, which implements the
   I/O queue with *restore* ("prepend to the queue") and end-of-queue. Slow, obviously right.

2. **Token decoders** (:class:`TokenDecoder`): every multi-byte decoder of the standard
   other than ISO-2022-JP is, between two outputs, back in its initial state, and how many
   bytes it consumes before that depends only on the next few bytes. So its whole behaviour
   is a regular tokenizer (a ``re`` pattern with at most four bytes of reach) plus a table
   token -> output, where an error that *restores* an ASCII byte is the two-byte token
   whose output is U+FFFD followed by that ASCII byte (decoded again, it is itself).
   ``re.split``, ``codecs.charmap_decode`` for the runs of one-byte tokens, list lookups
   and ``"".join`` run this in C at several MB/s even on random bytes. The table's rows are
   built from slices of the generated indexes when first needed.

3. **Fast path** (:class:`FastDecoder`): Python's nearest C codec decodes the input with an
   error handler of ours (``codecs.register_error``, on first use, under the name
   ``browser_decode.<codec>``). Where the codec meets an error, it has stopped at one of
   its character boundaries, which is also one of the standard's (every sequence the
   codec accepts is a whole number of the standard's tokens; the test-suite checks each
   one): the handler returns the token decoder's output for the token there and the codec
   resumes after it, keeping what it decoded before. When errors are dense, the token
   decoder runs on, in growing stretches, to a *resynchronisation byte*: a byte that is
   never the second, third or fourth byte of a sequence, so that both decoders are at a
   boundary after it.
   Where the codec succeeds but disagrees with the standard (a valid sequence mapped to a
   different character, or accepted where the standard reports an error), the
   disagreement is found by decoding *every* one-, two- (and for EUC-JP three-) byte
   sequence with the codec and with the token decoder (:func:`codec_differences`; its
   result is recorded by ``tools/gen_tables.py`` per codec fingerprint, and taken on first
   use where the codec's fingerprint is the same, see :func:`recorded_fixes`): each
   character the codec produces only from sequences that the standard decodes to one
   other output, context-free, is fixed by ``str.replace``;
   at the other differing sequences the codec is made to stop: their first byte is
   overwritten, in a copy of the input, with a byte the codec never accepts, so that its
   error handler decodes them (from the input as given).
"""

from __future__ import annotations

import codecs
import re
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal, TypeAlias

# Token decoding of a stretch builds one bytes object per token; stretches are cut at
# resynchronisation bytes to at most about this many bytes, so memory stays bounded.
_STRETCH: Final = 1 << 16
# Errors are dense when _DENSE_ERRORS of them start within _DENSE_SPAN bytes: one handler call
# per error then costs more than the token decoder, which runs on for at least _MIN_SLOW
# bytes, doubled while they stay dense, up to _STRETCH; otherwise an error is one token.
_DENSE_ERRORS: Final = 8
_DENSE_SPAN: Final = 256
_MIN_SLOW: Final = 64
# The fast path decodes inputs of more than twice this many bytes in pieces of about this
# size (cut at resynchronisation bytes): the codec's copies of its input (for the error
# handler, and the one with stop bytes in it) then stay small, and its output at most twice
# the text; smaller inputs need no joining.
_PIECE: Final = 1 << 20
_REPLACEMENT: Final = "\ufffd"


# -- 1. the standard's decoder framework --------------------------------------------------------


class IOQueue:
    """The input I/O queue of https://encoding.spec.whatwg.org/#concept-stream.

    "To restore an item or items to an I/O queue, insert them at the start of the queue."
    """

    __slots__ = ("_data", "_pos", "_restored")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0
        self._restored: list[int] = []  # a stack: the next item is the last one

    def read(self) -> int | None:
        """The next byte, or ``None`` for end-of-queue."""
        if self._restored:
            return self._restored.pop()
        if self._pos < len(self._data):
            self._pos += 1
            return self._data[self._pos - 1]
        return None

    def restore(self, *items: int) -> None:
        self._restored.extend(reversed(items))


#: A decoder instance's handler, given the I/O queue and a byte (None: end-of-queue): returns
#: a string (one or more code points), or one of CONTINUE, ERROR, FINISHED.
Handler: TypeAlias = Callable[[IOQueue, "int | None"], "str | int"]


CONTINUE: Final = 0
ERROR: Final = 1
FINISHED: Final = 2


def run_handler(handler: Handler, data: bytes) -> str:
    """*Process a queue* in replacement error mode (https://encoding.spec.whatwg.org/#decode).

    "1. Let result be the result of processing an item with the result of reading from
    input ... 2. If result is not continue, then return result." and, for an error in
    replacement mode: "Push U+FFFD (�) to output."
    """
    queue = IOQueue(data)
    out: list[str] = []
    while True:
        result = handler(queue, queue.read())
        if result == FINISHED:
            return "".join(out)
        if result == ERROR:
            out.append(_REPLACEMENT)
        elif isinstance(result, str):
            out.append(result)


# -- 2. token decoders --------------------------------------------------------------------------


def replacement_then(byte: int) -> str:
    """Output of "if byte is an ASCII byte, restore byte to ioQueue. Return error." in a
    two-byte token: U+FFFD, then the restored ASCII byte decoded on its own (an ASCII byte
    outside a sequence always decodes to itself in these decoders)."""
    return _REPLACEMENT + chr(byte) if byte < 0x80 else _REPLACEMENT


PointerLookup = Callable[[int, int], "str | None"]


def leading_byte_handler(code_points: PointerLookup) -> Handler:
    """The shared shape of the Big5 and EUC-KR decoders, whose steps differ only in the
    pointer and the index (*code_points*: leading byte, byte -> output or ``None``).

    "1. If byte is end-of-queue and [leading] is not 0x00, then set [leading] to 0x00 and
    return error. 2. If byte is end-of-queue and [leading] is 0x00, then return finished.
    3. If [leading] is not 0x00: let leading be [leading]; set [leading] to 0x00; [...]
    if codePoint is non-null, then return [it]; if byte is an ASCII byte, restore byte to
    ioQueue; return error. 4. If byte is an ASCII byte, then return a code point whose
    value is byte. 5. If byte is in the range 0x81 to 0xFE, inclusive, then set [leading]
    to byte and return continue. 6. Return error."
    -- https://encoding.spec.whatwg.org/#big5-decoder, #euc-kr-decoder
    """
    leading = 0

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal leading
        if byte is None:
            if leading:
                leading = 0
                return ERROR
            return FINISHED
        if leading:
            lead, leading = leading, 0
            found = code_points(lead, byte)
            if found is not None:
                return found
            if byte < 0x80:
                queue.restore(byte)
            return ERROR
        if byte < 0x80:
            return chr(byte)
        if 0x81 <= byte <= 0xFE:
            leading = byte
            return CONTINUE
        return ERROR

    return handler


def leading_byte_table(code_points: PointerLookup) -> Iterator[tuple[bytes, str]]:
    """The tokens of a :func:`leading_byte_handler` decoder: each leading byte alone (at
    the end of input) and with every next byte (the reference for :func:`token_values`)."""
    for lead in range(0x81, 0xFF):
        yield bytes([lead]), _REPLACEMENT
        for byte in range(256):
            found = code_points(lead, byte)
            yield bytes([lead, byte]), replacement_then(byte) if found is None else found


#: What a leading byte followed by each byte outputs where their pointer has no code point.
_RESTORING: Final = [replacement_then(byte) for byte in range(256)]
_NO_CODE_POINT: Final = "\ufffe"  # (the generated indexes' null, _indexes.NO_CODE_POINT)
#: The value of every token longer than two bytes in :attr:`TokenDecoder.by_value`.
_LONG: Final = 0x10000
#: How many entries the dict of :attr:`TokenDecoder.by_value` holds at most (its rows and the
#: long tokens computed).
_COMPUTED: Final = 1 << 17
#: Held while a table that threads share is first made (:attr:`TokenDecoder.by_value`).
_FIRST_USE: Final = threading.Lock()


def index_row(*segments: tuple[int, str]) -> list[str | None]:
    """What a leading byte followed by each of the 256 bytes outputs, given *segments*
    (first trailing byte, the code points of it and the next trailing bytes, U+FFFE where
    the pointer has none, as sliced from an index): the segment's code point where there
    is one, else an error, with the trailing byte restored if it is ASCII (the same as
    :func:`replacement_then`). Slices and list assignments: no Python call per pair."""
    row: list[str | None] = list(_RESTORING)
    parts: list[tuple[int, str]] = []
    for lo, chars in segments:
        if lo < 0x80 < lo + len(chars):  # the ASCII part restores its byte, the rest not
            parts += [(lo, chars[: 0x80 - lo]), (0x80, chars[0x80 - lo :])]
        else:
            parts.append((lo, chars))
    for lo, chars in parts:
        if lo >= 0x80:
            row[lo : lo + len(chars)] = chars.replace(_NO_CODE_POINT, _REPLACEMENT)
            continue
        row[lo : lo + len(chars)] = chars
        at = chars.find(_NO_CODE_POINT)
        while at >= 0:
            row[lo + at] = _RESTORING[lo + at]
            at = chars.find(_NO_CODE_POINT, at + 1)
    return row


def token_values(leads: Iterable[int], row: Callable[[int], list[str | None]]) -> list[str | None]:
    """:attr:`TokenDecoder.by_value` for a decoder whose tokens of one and two bytes are
    each leading byte alone (at the end of input: an error) and with every next byte
    (*row*: the 256 outputs of a leading byte and each next byte, None where that is not
    a token)."""
    values: list[str | None] = [None] * (_LONG + 1)
    for lead in leads:
        values[lead] = _REPLACEMENT
        values[lead << 8 : (lead + 1) << 8] = row(lead)
    return values


def _no_compute(token: bytes) -> str:
    raise AssertionError(f"token {token!r} missing from the table")


_from_bytes: Final = int.from_bytes
_BIG: Final[Literal["big"]] = "big"

# Stands for the separator byte in the decoded one-byte runs; no decoder outputs it.
_SEPARATOR: Final = "\uffff"


class TokenDecoder:
    """An exact decoder: tokens that begin with a leading byte are found by *multi* (a
    pattern with one group, which takes every leading byte, so the bytes between matches
    are one-byte tokens), decoded by the lazily built table :attr:`by_value` (or *compute*
    for the few long ones left out of it); the runs of one-byte tokens are decoded by
    ``codecs.charmap_decode`` with the 256-character *singles* table, all runs at once,
    joined by *separator* (a leading byte, which therefore never occurs inside a run).

    *row* gives the outputs of a leading byte (one of *leads*) and each next byte, from
    slices of the indexes (see :func:`index_row`), for :attr:`by_value`; *build* yields
    the same tokens pair by pair through the spec's pointer formulas, the reference the
    test-suite checks it against (:attr:`table`). *legit*: the token whose
    output is the character U+FFFD, not an error (gb18030's 84 31 A4 37; no other index
    holds U+FFFD). *bulk*: a decoder of whole stretches that gives the standard's text or
    None (then the tokens decode them): gb18030's four-byte letters by Python's codec, see
    ``_gb18030.CodecStretches``. (A plain class: a dataclass costs a fraction of a
    millisecond to create, on the first use of a multi-byte decoder.)
    """

    def __init__(
        self,
        multi: re.Pattern[bytes],
        singles: str,
        separator: int,
        build: Callable[[], Iterable[tuple[bytes, str]]],
        leads: Iterable[int],
        row: Callable[[int], list[str | None]],
        compute: Callable[[bytes], str] = _no_compute,
        resync: re.Pattern[bytes] | None = None,
        legit: bytes = b"",
        bulk: Callable[[bytes], str | None] | None = None,
    ) -> None:
        assert len(singles) == 256 and _SEPARATOR not in singles
        assert multi.match(bytes([separator, 0x20])), "separator must be a lead"
        self.multi = multi
        self.singles = singles
        self.separator = separator
        self.build = build
        self.leads = tuple(leads)
        self.row = row
        self.compute = compute
        self.resync = resync
        self.legit = legit
        self.bulk = bulk
        self._table: dict[bytes, str] | None = None
        self._by_value: list[str | None] | None = None
        charmap = list(singles)
        charmap[separator] = _SEPARATOR
        self._charmap = "".join(charmap)
        #: what *compute* gave for the long tokens computed so far, by value (up to
        #: _COMPUTED entries)
        self._by_int: dict[int, str] = {}
        #: where some tokens are computed: the output of every token :meth:`decode_stretch`
        #: has met, by its bytes (up to _COMPUTED entries, then emptied)
        self._by_token: dict[bytes, str] = {}
        self._rows_left = len(self.leads)

    @property
    def table(self) -> dict[bytes, str]:
        """The tokens of one and two bytes -> output, pair by pair from :attr:`build`
        (slow: the reference for :attr:`by_value`)."""
        if self._table is None:
            self._table = dict(self.build())
        return self._table

    def values(self) -> list[str | None]:
        """All of :attr:`by_value` (built at once; for tests)."""
        return token_values(self.leads, self.row)

    @property
    def by_value(self) -> list[str | None]:
        """The outputs of the tokens of one and two bytes, indexed by their big-endian
        value; None at every other value, and at index 0x10000, where every longer token
        is looked up (then computed). Its rows (the tokens of a leading byte and the next
        byte) are built when a lookup first finds None there (:meth:`missing`): the fast
        path's codec decodes valid text, and only errors need them."""
        by_value = self._by_value
        if by_value is None:
            # (one list, ever: a thread that has read it builds its rows where every other
            # thread reads them)
            with _FIRST_USE:
                by_value = self._by_value
                if by_value is None:
                    by_value = [None] * (_LONG + 1)
                    for lead in self.leads:
                        by_value[lead] = _REPLACEMENT  # a leading byte at the end of input
                    self._by_value = by_value
        return by_value

    def build_rows(self, leads: Iterable[int]) -> None:
        """Build the rows of :attr:`by_value` of these leading bytes that are not there yet
        (about 10 µs each). (Callers read the table again after it, whether or not this
        call built a row: another thread may have built it.)"""
        by_value = self.by_value
        for lead in leads:
            if by_value[(lead << 8) | 0x20] is None:  # (never None in a row built)
                row = self.row(lead)
                by_value[lead << 8 : (lead + 1) << 8] = row
                self._rows_left -= 1

    def missing(self, token: bytes) -> str:
        """The output of a token for which :attr:`by_value` held None: its row is
        built (if it is not yet: another thread may have built it since), or it is
        computed."""
        if len(token) == 2:
            self.build_rows(token[:1])
            text = self.by_value[_from_bytes(token, _BIG)]
            if text is not None:
                return text
        return self.computed(token)

    def lookup(self, token: bytes) -> str:
        """The output of *token* (a match of :attr:`multi`)."""
        text = self.by_value[_from_bytes(token, _BIG) if len(token) <= 2 else _LONG]
        return text or self.missing(token)

    def computed(self, token: bytes) -> str:
        """*compute* (token), remembered (by value, in the dict of :attr:`by_value`) if it
        is a long token: texts repeat the same few (in gb18030, the four-byte ones of the
        scripts other than Chinese)."""
        if len(token) <= 2:
            return self.compute(token)
        value = _from_bytes(token, _BIG)
        text = self._by_int.get(value)
        if text is None:
            text = self.compute(token)
            if len(self._by_int) < _COMPUTED:
                self._by_int[value] = text
        return text

    def decode_short(self, data: bytes) -> str:
        """Decode a few bytes, token by token (for building and checking tables)."""
        out = []
        pos = 0
        while pos < len(data):
            match = self.multi.match(data, pos)
            if match is None:
                out.append(self.singles[data[pos]])
                pos += 1
            else:
                out.append(self.lookup(match[0]))
                pos = match.end()
        return "".join(out)

    def decode_stretch(self, chunk: bytes) -> str:
        """Decode *chunk*, which ends at the end of input or just after a
        resynchronisation byte (so no token straddles its end, and ``\\Z`` in *multi*
        matches only at the real end of input)."""
        if self.bulk is not None:
            text = self.bulk(chunk)
            if text is not None:
                return text
        parts = self.multi.split(chunk)
        if len(parts) == 1:
            return codecs.charmap_decode(chunk, "strict", self.singles)[0]
        decoded = codecs.charmap_decode(
            bytes([self.separator]).join(parts[0::2]), "strict", self._charmap
        )[0].split(_SEPARATOR)
        tokens = parts[1::2]
        # Look the tokens up by their value as big-endian integers, in a list: much faster
        # than hashing and comparing bytes keys. Rows missing are built for the leading bytes
        # of the stretch.
        found: list[str | None]
        if self.compute is _no_compute:
            by_value = self.by_value
            found = list(map(by_value.__getitem__, map(_from_bytes, tokens, repeat(_BIG))))
            if None in found:
                # (read again whether or not this call built a row: another thread may
                # have built it since the first read)
                self.build_rows({token[0] for token in tokens})
                found = list(map(by_value.__getitem__, map(_from_bytes, tokens, repeat(_BIG))))
        else:
            # Where some tokens are longer than two bytes and computed (gb18030): by their
            # bytes, in a dict of the tokens met so far, which learns the new ones of each
            # stretch. Faster there than an integer per token looked up in a dict (0.45 ms
            # against 0.78 for the 9,000 tokens of bench_call's 20 KB gb18030 page), and no
            # dict entries for whole rows (256 each) on first use.
            found = list(map(self._by_token.get, tokens))
            if None in found:
                self._learn(tokens)
                found = list(map(self._by_token.get, tokens))
                if None in found:  # (another thread emptied the dict since: rare)
                    found = list(map(self.lookup, tokens))
        parts[0::2] = decoded  # (the texts replace the bytes)
        parts[1::2] = found  # (no None left)
        return "".join(parts)  # type: ignore[arg-type]  # (all texts now)

    def _learn(self, tokens: list[bytes]) -> None:
        """Put the output of each of *tokens* that :attr:`_by_token` lacks in it: the rows of
        their leading bytes built (once: then :meth:`lookup` finds them), the long ones
        computed. The dict is emptied first if it would grow beyond _COMPUTED entries."""
        seen = self._by_token
        new = set(tokens).difference(seen)
        if len(seen) + len(new) > _COMPUTED:
            seen.clear()
            new = set(tokens)
        if self._rows_left:
            self.build_rows({token[0] for token in new if len(token) == 2})
        lookup = self.lookup
        for token in new:
            seen[token] = lookup(token)

    def cut(self, data: bytes, start: int, end: int, size: int) -> int | None:
        """Where to end a stretch from *start* (a boundary) of about *size* bytes: just after
        the first resynchronisation byte from start + size on (a boundary of every decoder),
        *end* if the rest is less than twice *size*, None if no such byte is in reach."""
        if end - start <= 2 * size:
            return end
        found = self.resync.search(data, start + size, end) if self.resync else None
        return None if found is None else found.end()

    def iter_stretch(self, data: bytes, start: int, end: int) -> Iterator[str]:
        """Decode data[start:end] (*start* a boundary, *end* as in :meth:`decode_stretch`)
        in pieces of bounded size."""
        while start < end:
            cut = self.cut(data, start, end, _STRETCH)
            if cut is None:
                yield from self._iter_matches(data, start, end)
                return
            yield self.decode_stretch(data[start:cut])
            start = cut

    def _iter_matches(self, data: bytes, start: int, end: int) -> Iterator[str]:
        # No resynchronisation byte in reach: walk the matches (bounded memory, slower).
        lookup = self.lookup
        for match in self.multi.finditer(data, start, end):
            if match.start() > start:
                yield codecs.charmap_decode(data[start : match.start()], "strict", self.singles)[0]
            yield lookup(match[0])
            start = match.end()
        if start < end:
            yield codecs.charmap_decode(data[start:end], "strict", self.singles)[0]

    def __call__(self, data: bytes) -> str:
        return "".join(self.iter_stretch(data, 0, len(data)))

    def errors_in(self, text: str, data: bytes, start: int, end: int) -> int:
        """The standard's number of errors in data[start:end] (*start* a boundary, *end* as
        in :meth:`decode_stretch`), given its *text*: every error is one U+FFFD, and the
        rest are :attr:`legit` tokens (looked for only where their bytes occur)."""
        errors = text.count(_REPLACEMENT)
        legit = self.legit
        if errors and legit and data.find(legit, start, end) >= 0:
            errors -= sum(1 for hit in self.multi.finditer(data, start, end) if hit[0] == legit)
        return errors

    def decode_counting(self, data: bytes) -> tuple[str, int]:
        """The text and the number of errors."""
        text = self(data)
        return text, self.errors_in(text, data, 0, len(data))


def leading_byte_tokens(
    code_points: PointerLookup, row: Callable[[int], list[str | None]], resync: bytes
) -> TokenDecoder:
    """The exact token decoder of a :func:`leading_byte_handler` decoder: every leading
    byte takes the next byte with it (*row*: the outputs of a leading byte and each next
    byte, from index slices; *code_points*: the same pair by pair, the reference);
    *resync* matches the bytes that are never a trailing byte."""
    return TokenDecoder(
        multi=re.compile(rb"([\x81-\xfe][\x00-\xff]?)"),
        singles="".join(chr(b) if b < 0x80 else _REPLACEMENT for b in range(256)),
        separator=0x81,
        build=lambda: leading_byte_table(code_points),
        leads=range(0x81, 0xFF),
        row=row,
        resync=re.compile(resync),
    )


# -- 3. the fast path ---------------------------------------------------------------------------


# SequenceFinder walks from one occurrence of a first byte to the next with memchr while
# they are at least this many bytes apart on average (a call costs about as much as sre's
# scan of 300 bytes); where they are denser, sre's scan takes over.
_SPARSE: Final = 1024


class SequenceFinder:
    """Finds where any of some byte sequences start, each position once, overlapping
    occurrences included.

    One regular expression per first byte: then it is a literal prefix, which sre looks for
    in a tight loop, about 2.5 times faster than ``bytes.find`` of a two-byte string on
    Python 3.11 (one pattern with several first bytes starts with a character set, which
    sre tests byte by byte about ten times slower). The rest of the sequences (sre turns
    single bytes into a character set) is matched where it stops. Where the first byte is
    rare (Big5's 0xA2 in most pages, EUC-JP's 0x8F), memchr finds its occurrences many times
    faster than that scan, and the expression is only matched at each."""

    def __init__(self, sequences: Iterable[bytes]) -> None:
        groups: dict[bytes, list[bytes]] = {}
        for seq in sorted(set(sequences)):
            groups.setdefault(seq[:1], []).append(seq)
        self._firsts = tuple(groups)
        locators = []
        for first, seqs in groups.items():
            rests = b"|".join(re.escape(seq[1:]) for seq in seqs)
            # finditer's matches do not overlap: exact only if no match can begin inside
            # another one (else each search starts one byte after the last match).
            overlaps = any(first in seq[1:] for seq in seqs)
            locators.append((re.compile(re.escape(first) + b"(?:" + rests + b")"), overlaps))
        self._locators = tuple(locators)

    def locate(self, data: bytes, start: int, end: int) -> list[int]:
        """Where the sequences start in data[start:end], sorted."""
        find = data.find
        found: list[int] = []
        for first, (pattern, overlaps) in zip(self._firsts, self._locators, strict=True):
            # memchr from one occurrence of the first byte to the next, while they are sparse
            match = pattern.match
            at = find(first, start, end)
            seen = 0
            while at >= 0 and (seen := seen + 1) * _SPARSE < at - start + 2 * _SPARSE:
                if match(data, at, end):
                    found.append(at)
                at = find(first, at + 1, end)
            if at < 0:
                continue
            # then sre's scan
            if not overlaps:
                found += [hit.start() for hit in pattern.finditer(data, at, end)]
                continue
            hit = pattern.search(data, at, end)
            while hit is not None:
                found.append(hit.start())
                hit = pattern.search(data, hit.start() + 1, end)
        if len(self._locators) > 1:
            found.sort()
        return found


class Fixes:
    """How the fast path corrects its C codec, as :func:`codec_differences` found it.

    *replace*: codec character -> the standard's output, for the characters that the codec
    produces only from sequences that the standard decodes, context-free, to that output:
    they are replaced in the codec's text. *sequences*: every sequence where the codec and
    the standard differ. *patch*: those of them whose characters are not replaced in the
    text: the fast path makes the codec stop at each one, and its error handler decodes it
    (see :class:`FastDecoder`). *stop*: a byte that no sequence the codec accepts contains:
    written over the first byte of a sequence of *patch*, it makes the codec stop there.
    *complete*: whether every sequence the codec accepts was compared (none is longer than
    the comparison went), and none decodes to U+FFFD (errors are counted as the U+FFFD of
    the handler and of the replacements). *layout*: the sequences that each round of the
    comparison after the first extended by every byte (those the codec found incomplete in
    the round before), concatenated per round.
    """

    def __init__(
        self,
        replace: dict[str, str],
        sequences: tuple[bytes, ...] = (),
        patch: tuple[bytes, ...] = (),
        stop: int | None = None,
        complete: bool = True,
        layout: tuple[bytes, ...] = (),
    ) -> None:
        self.replace = replace
        self.sequences = sequences
        self.patch = patch
        self.stop = stop
        self.complete = complete
        self.layout = layout
        self._finder = SequenceFinder(patch)

    def _fields(self) -> tuple[object, ...]:
        return self.replace, self.sequences, self.patch, self.stop, self.complete, self.layout

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fixes) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # (mutable, as the dataclass was)

    def __repr__(self) -> str:
        return f"Fixes{self._fields()!r}"

    @property
    def usable(self) -> bool:
        """Whether the codec's text can be corrected: else the token decoder decodes all
        (a codec of some later Python whose sequences are longer than compared, or that
        accepts every byte somewhere, though a sequence needs stopping)."""
        return self.complete and (self.stop is not None or not self.patch)

    def locate(self, data: bytes) -> list[int]:
        """Where the sequences of :attr:`patch` start in *data* (sorted; a position may be
        inside a character rather than at its start)."""
        return self._finder.locate(data, 0, len(data))

    def replace_counting(self, text: str) -> tuple[str, int]:
        """:meth:`replace_only`, and how many characters became U+FFFD (errors of the
        standard that the codec decoded as a character: counted only where there are any,
        as ``str.replace`` returns its very input when it replaces nothing)."""
        errors = 0
        for char, good in self.replace.items():
            replaced = text.replace(char, good)
            if good == _REPLACEMENT and replaced is not text:
                errors += text.count(char)
            text = replaced
        return text, errors

    def replace_only(self, text: str) -> str:
        """*text* with the characters of :attr:`replace` replaced (none of them is the
        replacement of another: :func:`codec_differences` patches those instead)."""
        # No test of ``char in text`` first: where *char* is missing, ``str.replace`` costs
        # one search (the same one) and returns *text* itself; where it is there, a test
        # would search the text up to it twice.
        for char, good in self.replace.items():
            text = text.replace(char, good)
        return text


def _spec_closed(tokens: TokenDecoder, seq: bytes) -> bool:
    """Whether the standard's decoder, having consumed *seq* from its initial state, is at a
    boundary (initial state) whatever bytes follow: checked against probes of every
    byte class the tokenizers distinguish (ASCII, digits, trail and lead bytes)."""
    for probe in (b"\n", b"0", b"\x81", b"\xa1", b"\xff", b"\x810\x810", b"\xa1\xa1\xa1"):
        text = seq + probe
        pos = 0
        while pos < len(seq):
            match = tokens.multi.match(text, pos)
            pos = match.end() if match else pos + 1
        if pos != len(seq):
            return False
    return True


def replaceable(candidates: dict[str, str], wanted: Iterable[str]) -> dict[str, str]:
    """The *candidates* (codec character -> the standard's output) that can be replaced in
    the codec's text: not the characters that the standard itself outputs for a differing
    sequence (*wanted*), since the error handler gives them for stopped sequences and the
    replacements give them too; replacing them as well would change those (two swapped
    characters, replaced one after the other, would end up the same)."""
    wanted = set(wanted)
    return {char: good for char, good in candidates.items() if char not in wanted}


def codec_differences(
    codec: str,
    tokens: TokenDecoder,
    max_length: int = 2,
    *,
    patch_all: bool = False,
) -> Fixes:
    """Compare the C codec with the exact token decoder on every codec sequence of up to
    *max_length* bytes, and derive the :class:`Fixes` for the codec's output.

    Sequences the codec rejects are its errors, which the error handler decodes, except
    that a sequence it rejects only for want of more bytes opens the next, longer round.
    *patch_all*: correct no character in the text, stop the codec at every differing
    sequence instead (for characters that are slow to look for, see :class:`FastDecoder`).
    """
    info = codecs.lookup(codec)
    decode = info.decode
    incremental = info.incrementaldecoder
    differing: dict[str, list[tuple[bytes, str]]] = {}
    agreeing: set[str] = set()
    single_token: set[int] = set()
    used: set[int] = set()  # the bytes of the sequences the codec accepts
    outputs_fffd: list[bytes] = []  # sequences the codec accepts and decodes to U+FFFD

    def compare(seqs: Iterable[bytes]) -> list[bytes]:
        """Record differences; return the sequences that are incomplete for the codec."""
        incomplete = []
        for seq in seqs:
            try:
                got: str = decode(seq)[0]
            except UnicodeDecodeError as exc:
                if exc.end == len(seq):
                    try:
                        if incremental("strict").decode(seq, False) == "":
                            incomplete.append(seq)
                    except UnicodeDecodeError:
                        pass
                continue
            used.update(seq)
            if _REPLACEMENT in got:
                outputs_fffd.append(seq)
            if len(seq) == 1:
                single_token.add(seq[0])
            elif seq[0] in single_token:
                continue  # two one-byte codec tokens: covered by the one-byte round
            # "\n" after the sequence: never part of a sequence; it ends one cut short.
            want = tokens.decode_short(seq + b"\n")[:-1]
            if got == want:
                agreeing.update(got)  # (the test-suite checks such sequences are closed)
            else:
                for char in got:
                    differing.setdefault(char, []).append((seq, want))
        return incomplete

    prefixes = compare(bytes([b]) for b in range(256))
    layout = []
    for _length in range(2, max_length + 1):
        layout.append(b"".join(prefixes))
        prefixes = compare(p + bytes([b]) for p in prefixes for b in range(256))
    candidates: dict[str, str] = {}
    for char, cases in differing.items():
        outputs = {w for _, w in cases}
        if (
            not patch_all
            and char not in agreeing
            and len(outputs) == 1
            and all(decode(seq)[0] == char and _spec_closed(tokens, seq) for seq, _ in cases)
        ):
            candidates[char] = outputs.pop()
    wanted = {char for cases in differing.values() for _, want in cases for char in want}
    replace = replaceable(candidates, wanted)
    sequences = tuple(seq for cases in differing.values() for seq, _ in cases)
    patch = tuple(
        seq for char, cases in differing.items() if char not in replace for seq, _ in cases
    )
    stop = next((b for b in (0x80, 0xFF, *range(256)) if b not in used), None)
    # Errors are counted as the handler's and the replacements' U+FFFD: a codec that
    # outputs U+FFFD itself cannot be used (none does).
    complete = not prefixes and not outputs_fffd
    return Fixes(replace, sequences, patch, stop, complete, tuple(layout))


def checksum(text: str) -> str:
    """The length and CRC-32 of *text* (for :func:`codec_fingerprint`), encoded as UTF-16LE
    (by ``_codecs``' own function: ``str.encode`` would look the codec up, importing
    ``encodings.utf_16_le`` on first use)."""
    encoded = codecs.utf_16_le_encode(text, "surrogatepass")[0]
    return f"{len(text)}:{zlib.crc32(encoded):08x}"


def batch(prefixes: bytes, length: int, separator: bytes = b"\n") -> bytearray:
    """Every sequence of *prefixes* (concatenated, each *length* bytes) followed by each
    of the 256 bytes, each sequence followed by *separator*, in one buffer (built by
    slice assignments: no Python call per sequence)."""
    count = len(prefixes) // length
    width = length + 1 + len(separator)
    out = bytearray(width * 256 * count)
    for at in range(length):
        out[at::width] = b"".join(bytes([byte]) * 256 for byte in prefixes[at::length])
    out[length::width] = bytes(range(256)) * count
    for at, byte in enumerate(separator, length + 1):
        out[at::width] = bytes([byte]) * (256 * count)
    return out


def _singles_part(codec: str) -> str:
    info = codecs.lookup(codec)
    singles = []
    for byte in range(256):
        seq = bytes([byte])
        try:
            singles.append(info.decode(seq)[0])
        except UnicodeDecodeError as exc:
            try:
                pending = info.incrementaldecoder("strict").decode(seq, False) == ""
            except UnicodeDecodeError:
                pending = False
            singles.append("\x00incomplete" if pending else f"\x00error {exc.start} {exc.end}")
    return checksum("\x01".join(singles))


def _round_parts(codec: str, prefixes: bytes, length: int) -> tuple[str, str]:
    sequences = batch(prefixes, length)
    decode = codecs.lookup(codec).decode
    return checksum(decode(sequences, "replace")[0]), checksum(decode(sequences, "ignore")[0])


def codec_fingerprint(
    codec: str, layout: Sequence[bytes], deferred: bool = False
) -> tuple[str, ...]:
    """A checksum of what the codec does with every sequence :func:`codec_differences`
    compared when it found *layout*: each byte alone, exactly as that comparison sees it
    (decoded, rejected, or incomplete: the first round, which decides the second's
    sequences); then, per later round, every sequence of the round, each followed by
    ``\\n``, all decoded in one call with ``replace`` and one with ``ignore`` (which tells
    an error from a decoded U+FFFD). About a millisecond per round instead of 30-150 ms for
    the comparison: :func:`recorded_fixes` uses the comparison's result recorded for a
    codec with the same fingerprint. If *deferred*, the last round has one part per
    sequence it extends, checked as inputs need them (:class:`Deferred`)."""
    parts = [_singles_part(codec)]
    for length, prefixes in enumerate(layout, 1):
        if deferred and length == len(layout):
            parts += (_prefix_part(codec, prefix) for prefix in _split(prefixes, length))
        else:
            parts += _round_parts(codec, prefixes, length)
    return tuple(parts)


def _split(prefixes: bytes, length: int) -> list[bytes]:
    return [prefixes[at : at + length] for at in range(0, len(prefixes), length)]


def _prefix_part(codec: str, prefix: bytes) -> str:
    return " ".join(_round_parts(codec, prefix, len(prefix)))


#: A recorded measurement (generated module ``_measured``): fingerprint, then the fields
#: of :class:`Fixes` (replace, sequences, patch, stop, complete, layout), then the Python
#: versions it was measured on.
Recorded: TypeAlias = tuple[
    tuple[str, ...],
    dict[str, str],
    tuple[bytes, ...],
    tuple[bytes, ...],
    "int | None",
    bool,
    tuple[bytes, ...],
    tuple[str, ...],
]


#: A recorded measurement of ISO-2022-JP's codec: fingerprint, the characters to replace
#: and those that make the fast path decline, the Python versions it was measured on.
RecordedIso: TypeAlias = tuple[tuple[str, ...], dict[str, str], tuple[str, ...], tuple[str, ...]]


def measurement_key(codec: str, max_length: int, patch_all: bool, deferred: bool) -> str:
    """What a recorded measurement is filed under (its :class:`Fixes` depend on the first
    three, its fingerprint on the last)."""
    key = f"{codec} {max_length} {'patch_all' if patch_all else 'replace'}"
    return key + " deferred" if deferred else key


#: After this many inputs that hold its first bytes, a :class:`Deferred` round is checked
#: whole: a scan per input for its prefixes costs more, on pages full of them, than the
#: one check.
_DEFERRED_INPUTS: Final = 4


class Deferred:
    """The last round of a recorded fingerprint, checked sequence by sequence as inputs
    hold them: an input where none of the sequences that the round extends occurs (a
    *prefix*) makes the codec decode none of the round's sequences, and the record's fixes
    are right for what it decodes (checked by the other rounds). EUC-JP's third round,
    0x8F and two more bytes, has 65,000 sequences (3 ms): a page with JIS X 0212 letters
    needs a few of its 255 prefixes (20 µs each). After _DEFERRED_INPUTS inputs that need
    it, the rest is checked at once."""

    def __init__(self, codec: str, prefixes: bytes, length: int, want: Sequence[str]) -> None:
        self.codec = codec
        self.length = length
        self.want = dict(zip(_split(prefixes, length), want, strict=True))
        self.checked: set[bytes] = set()
        self.inputs = 0
        firsts = bytes(sorted(set(prefixes[0::length])))
        self.triggers = tuple(firsts[at : at + 1] for at in range(len(firsts)))
        first = b"[" + re.escape(firsts) + b"]"
        rest = b"." * (length - 1)
        # (sre scans for the first byte; where a prefix may begin inside another, the
        # lookahead finds the overlapping ones too)
        self._find = re.compile(first + rest, re.DOTALL).findall
        self._find_all = re.compile(b"(?=(" + first + rest + b"))", re.DOTALL).findall

    def needed(self, data: bytes) -> bool:
        """Whether *data* may hold a prefix (one of their first bytes)."""
        return any(trigger in data for trigger in self.triggers)

    def holds(self, data: bytes) -> bool:
        """Whether the codec decodes the round's sequences of the prefixes in *data* (or,
        after _DEFERRED_INPUTS inputs, all) as recorded."""
        self.inputs += 1
        if self.inputs > _DEFERRED_INPUTS:
            found: Iterable[bytes] = self.want
        else:
            found = set(self._find(data))
            if any(trigger in prefix[1:] for prefix in found for trigger in self.triggers):
                found = set(self._find_all(data))
        for prefix in set(found) - self.checked:
            want = self.want.get(prefix)
            if want is not None:  # (else no sequence of the round begins with it)
                if _prefix_part(self.codec, prefix) != want:
                    return False
                self.checked.add(prefix)
        return True

    @property
    def done(self) -> bool:
        return self.inputs > _DEFERRED_INPUTS or len(self.checked) == len(self.want)


def recorded_fixes(
    codec: str, max_length: int, patch_all: bool, deferred: bool = False
) -> tuple[Fixes, Deferred | None] | None:
    """The :class:`Fixes` that :func:`codec_differences` gave for a codec whose
    :func:`codec_fingerprint` is this codec's (recorded by ``tools/gen_tables.py`` on each
    Python it was run with; its ``--check``, run by the tests, measures the running
    Python's codecs again and fails if they differ from the record), or None. *deferred*:
    the last round is left to check as inputs need it (:class:`Deferred`).
    """
    from ._measured import MEASURED

    for entry in MEASURED.get(measurement_key(codec, max_length, patch_all, deferred), ()):
        fingerprint, replace, sequences, patch, stop, complete, layout, _pythons = entry
        later = None
        checked = len(fingerprint)
        if deferred and layout:
            checked -= len(layout[-1]) // len(layout)
            later = Deferred(codec, layout[-1], len(layout), fingerprint[checked:])
        if codec_fingerprint(codec, layout[: len(layout) - deferred]) == fingerprint[:checked]:
            return Fixes(dict(replace), sequences, patch, stop, complete, layout), later
    return None


class _ErrorState(threading.local):
    """What the error handler of one :class:`FastDecoder` needs of the decoding that the
    codec is doing in this thread (the codec calls the handler synchronously: one per thread)."""

    def __init__(self) -> None:
        self.reset(None)

    def reset(self, original: bytes | None) -> None:
        #: the input as given (the codec may be decoding a copy with stop bytes in it)
        self.original = original
        #: how many times the handler ran
        self.errors = 0
        #: how many errors of the standard the handler decoded
        self.replaced = 0
        #: where the error before the last _DENSE_ERRORS ones was
        self.mark = -_DENSE_SPAN
        #: how far the token decoder runs on in dense errors (doubles while they last)
        self.slow = 0


def _not_yet(data: bytes | bytearray, errors: str) -> tuple[str, int]:
    raise AssertionError("FastDecoder.fixes first")


class FastDecoder:
    """Decode with a C codec and the exact :class:`TokenDecoder` in its error handler.

    The codec decodes the whole input with an error handler of ours. Where it meets an
    error, it has stopped at one of its character boundaries, which is also one of the
    standard's: every sequence it accepts is a whole number of the standard's tokens (the
    test-suite checks each one). The handler decodes the standard's token there, from the
    input as given, and the codec resumes after it.

    Where the codec accepts a sequence but decodes it otherwise than the standard, the
    character it gives is either replaced in its text (:attr:`Fixes.replace`), or, where
    that character also comes from sequences the two agree on (big5hkscs decodes A1 FE and
    A2 41 both to U+FF0F; the standard gives U+FF0F and U+2215) or is slow to look for
    (*patch_all*), the codec is made to stop at the sequence: its first byte is
    overwritten, in a copy of the input, with a byte that no sequence the codec accepts
    contains (:attr:`Fixes.stop`). Wherever the sequence is, at a boundary (it is a
    character) or not (its first byte is the last of another character), the codec cannot
    decode the character that holds the stop byte, so it stops at the boundary where that
    character begins, and the handler, reading the input as given, decodes the standard's
    token there. Nothing else changes: before the stop byte, the codec decoded the same
    bytes as ever.
    """

    def __init__(
        self,
        codec: str,
        tokens: TokenDecoder,
        *,
        max_length: int = 2,
        patch_all: bool = False,
        deferred: bool = False,
        errors: str = "",
    ) -> None:
        """*max_length*: the longest codec sequences :func:`codec_differences` compares.

        *deferred*: the last round of a recorded fingerprint is checked as inputs hold its
        sequences (:class:`Deferred`).

        *errors*: the name its error handler is registered under (``browser_decode.`` and
        the codec's name if not given; each decoder needs a name of its own).

        *patch_all*: stop the codec at every differing sequence rather than replace their
        characters in the text. Worth it where looking for the characters is slow:
        ``char in text`` runs memchr on the character's low byte, and big5hkscs's U+2022,
        U+203E, U+223C, U+FF3C, U+FF64 have the low bytes of '"', '>', '<', '<' and 'd', so
        that each search stops at every tag, and eleven such searches cost more than finding
        the eleven sequences in the bytes. Where the characters' low bytes are rare
        (euc_jp's), their searches are several times faster than a search of the bytes.
        """
        assert tokens.resync is not None
        self.codec = codec
        # (the codec is looked up on first use: importing a CJK codec module costs time)
        self._decode: Callable[[bytes | bytearray, str], tuple[str, int]] = _not_yet
        self.tokens = tokens
        self._resync: re.Pattern[bytes] = tokens.resync
        self._max_length = max_length
        self._patch_all = patch_all
        self._deferred = deferred
        self._fixes: Fixes | None = None
        self._later: Deferred | None = None
        self._state = _ErrorState()
        #: the name of this decoder's codec error handler, registered on first use
        self.errors = errors or f"browser_decode.{codec}"

    @property
    def key(self) -> str:
        """What :func:`recorded_fixes` files this decoder's codec measurement under."""
        return measurement_key(self.codec, self._max_length, self._patch_all, self._deferred)

    def measure(self) -> Fixes:
        """Compare the codec with the token decoder, every sequence one by one
        (:func:`codec_differences`: 30-150 ms)."""
        return codec_differences(
            self.codec, self.tokens, self._max_length, patch_all=self._patch_all
        )

    @property
    def fixes(self) -> Fixes:
        """How to correct the codec: as recorded for a codec with its fingerprint, else
        measured now."""
        if self._fixes is None:
            found = recorded_fixes(self.codec, self._max_length, self._patch_all, self._deferred)
            fixes, self._later = (self.measure(), None) if found is None else found
            codecs.register_error(self.errors, self._error_handler())
            self._decode = codecs.lookup(self.codec).decode
            self._fixes = fixes
        return self._fixes

    def _check_later(self, data: bytes) -> None:
        """Check the deferred round of the fingerprint for the sequences in *data*; if the
        codec differs there from the record, measure it."""
        later = self._later
        if later is not None and not later.holds(data):
            self._fixes = self.measure()
            self._later = None
        elif later is not None and later.done:
            self._later = None

    def _error_handler(self) -> Callable[[UnicodeError], tuple[str, int]]:
        """The codec error handler: the token decoder decodes the token where the codec
        stopped (see the class doc), and the codec resumes after it. Where errors come thick
        and fast (_DENSE_ERRORS of them in less than _DENSE_SPAN bytes: a run of invalid
        bytes), it decodes on to just after a resynchronisation byte, further each time; so
        it does from two four-byte letters in a row where the token decoder has a *bulk*
        decoder (gb18030: a word of Thai or Hebrew, which the codec rejects letter by letter)."""
        state = self._state
        tokens = self.tokens
        match = tokens.multi.match
        singles = tokens.singles
        by_value = tokens.by_value
        missing = tokens.missing
        search = self._resync.search
        legit = tokens.legit
        bulk = tokens.bulk

        def stretch(data: bytes, bad: int) -> tuple[str, int]:
            # The token decoder runs on to a resynchronisation byte, further each time.
            state.slow = slow = min(max(2 * state.slow, _MIN_SLOW), _STRETCH)
            found = search(data, min(bad + slow, len(data)))
            end = state.mark = found.end() if found else len(data)
            text = "".join(tokens.iter_stretch(data, bad, end))
            state.replaced += tokens.errors_in(text, data, bad, end)
            return text, end

        def on_error(exc: UnicodeError) -> tuple[str, int]:
            if not isinstance(exc, UnicodeDecodeError):
                raise exc
            data: bytes = exc.object if state.original is None else state.original
            bad = exc.start
            state.errors += 1
            if not state.errors % _DENSE_ERRORS:
                if bad - state.mark < _DENSE_SPAN:
                    return stretch(data, bad)
                state.slow = 0
                state.mark = bad
            token = match(data, bad)
            if token is None:
                text = singles[data[bad]]
                if text == _REPLACEMENT:
                    state.replaced += 1
                return text, bad + 1
            bytes_ = token[0]
            if (
                bulk is not None
                and len(bytes_) == 4
                and data[bad + 5 : bad + 6].isdigit()  # (another four-byte sequence next)
                and 0x80 < data[bad + 4] < 0xFF
            ):
                # Four-byte letters (gb18030), which the codec rejects, one after the other:
                # a word of Thai or Hebrew (not an emoji now and then in Chinese), and more
                # follow, so the stretch from here goes to the token decoder (to its decoder
                # of whole stretches) at once.
                if bad - state.mark >= _DENSE_SPAN:
                    state.slow = 0
                return stretch(data, bad)
            known = by_value[_from_bytes(bytes_, _BIG) if len(bytes_) <= 2 else _LONG]
            text = known or missing(bytes_)
            if text[0] == _REPLACEMENT and bytes_ != legit:
                state.replaced += 1
            return text, token.end()

        return on_error

    def __call__(self, data: bytes) -> str:
        return self.decode_counting(data)[0]

    def decode_counting(self, data: bytes) -> tuple[str, int]:
        """The text and the number of errors of the standard's decoder: those the error
        handler decoded, and the codec's characters that are replaced by U+FFFD (the codec
        itself never outputs U+FFFD: :func:`codec_differences` would count it as a
        difference, since no index the codecs share holds it)."""
        fixes = self.fixes  # (first use: take the record or compare, register the handler)
        if self._later is not None and self._later.needed(data):
            self._check_later(data)  # (which may compare the codec now)
            fixes = self.fixes
        if not fixes.usable:
            return self.tokens.decode_counting(data)
        if len(data) <= 2 * _PIECE:
            return self._decode_piece(data)
        # In pieces that end just after a resynchronisation byte: a boundary of both decoders.
        texts = []
        errors = 0
        start, end = 0, len(data)
        while start < end:
            cut = self.tokens.cut(data, start, end, _PIECE) or end
            text, piece_errors = self._decode_piece(data[start:cut])
            texts.append(text)
            errors += piece_errors
            start = cut
        return "".join(texts), errors

    def _decode_piece(self, data: bytes) -> tuple[str, int]:
        fixes = self.fixes
        source: bytes | bytearray = data
        if fixes.patch:
            hits = fixes.locate(data)
            if hits:
                source = bytearray(data)
                stop = fixes.stop
                assert stop is not None  # (see Fixes.usable)
                for at in hits:
                    source[at] = stop
        state = self._state
        state.reset(data)
        try:
            text: str = self._decode(source, self.errors)[0]
        finally:
            state.original = None
        errors = state.replaced
        text, replaced = fixes.replace_counting(text)
        return text, errors + replaced
