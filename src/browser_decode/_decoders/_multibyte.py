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
   and ``"".join`` run this in C at several MB/s even on random bytes. Tables are built
   from the generated indexes on first use.

3. **Fast path** (:class:`FastDecoder`): Python's nearest C codec decodes chunks with an
   error handler of ours (``codecs.register_error``, on first use, under the name
   ``browser_decode.<codec>``). Where the codec meets an error, it has stopped at one of
   its character boundaries, which is also one of the standard's (every sequence the
   codec accepts is a whole number of the standard's tokens; the test-suite checks each
   one): the handler returns the token decoder's output for the token there and the codec
   resumes after it, keeping what it decoded before. When errors are dense, the token
   decoder runs on, in growing stretches, to a *resynchronisation byte*: a byte that is
   never the second, third or fourth byte of a sequence, so that both decoders are at a
   boundary after it (chunks are cut at such bytes too).
   Where the codec succeeds but disagrees with the standard (a valid sequence mapped to a
   different character, or accepted where the standard reports an error), the
   disagreement is found on first use by decoding *every* one-, two- (and for EUC-JP
   three-) byte sequence with the codec and with the token decoder
   (:func:`codec_differences`): each character the codec produces only from sequences that
   the standard decodes to one other output, context-free, is fixed by ``str.replace``;
   for a character the codec also produces from sequences the standard agrees on, the
   differing sequences are looked for in the chunk's bytes, and if one is there the token
   decoder decodes that chunk instead. Where the suspect characters are slow to look for
   (Big5's), all the differing sequences are looked for in the bytes instead, and the codec
   decodes from one to the next, the token decoder at each (``in_bytes``).
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import repeat
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
# The C codec decodes chunks of about this size (cut at resynchronisation bytes); a chunk
# that needs decoding again (see FastDecoder._chunks) is redone in chunks of _MIN_CHUNK.
_CHUNK: Final = 1 << 14
_MIN_CHUNK: Final = 1 << 11
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
    the end of input) and with every next byte."""
    for lead in range(0x81, 0xFF):
        yield bytes([lead]), _REPLACEMENT
        for byte in range(256):
            found = code_points(lead, byte)
            yield bytes([lead, byte]), replacement_then(byte) if found is None else found


def _no_compute(token: bytes) -> str:
    raise AssertionError(f"token {token!r} missing from the table")


_from_bytes: Final = int.from_bytes
_BIG: Final[Literal["big"]] = "big"

# Stands for the separator byte in the decoded one-byte runs; no decoder outputs it.
_SEPARATOR: Final = "\uffff"


@dataclass
class TokenDecoder:
    """An exact decoder: tokens that begin with a leading byte are found by *multi* (a
    pattern with one group, which takes every leading byte, so the bytes between matches
    are one-byte tokens), decoded by the lazily built *build* table (or *compute* for the
    few long ones left out of it); the runs of one-byte tokens are decoded by
    ``codecs.charmap_decode`` with the 256-character *singles* table, all runs at once,
    joined by *separator* (a leading byte, which therefore never occurs inside a run).
    """

    multi: re.Pattern[bytes]
    singles: str
    separator: int
    build: Callable[[], Iterable[tuple[bytes, str]]]
    compute: Callable[[bytes], str] = _no_compute
    resync: re.Pattern[bytes] | None = None
    _table: dict[bytes, str] | None = field(default=None, repr=False)
    _by_value: list[str | None] | None = field(default=None, repr=False)
    _by_int: dict[int, str] | None = field(default=None, repr=False)
    _charmap: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        assert len(self.singles) == 256 and _SEPARATOR not in self.singles
        assert self.multi.match(bytes([self.separator, 0x20])), "separator must be a lead"
        charmap = list(self.singles)
        charmap[self.separator] = _SEPARATOR
        self._charmap = "".join(charmap)

    @property
    def table(self) -> dict[bytes, str]:
        if self._table is None:
            self._table = dict(self.build())
        return self._table

    @property
    def by_value(self) -> list[str | None]:
        """The table's tokens of one and two bytes, indexed by their big-endian value."""
        if self._by_value is None:
            by_value: list[str | None] = [None] * 0x10000
            for token, text in self.table.items():
                if len(token) <= 2:
                    by_value[_from_bytes(token, "big")] = text
            self._by_value = by_value
        return self._by_value

    @property
    def by_int(self) -> dict[int, str]:
        """The table keyed by the tokens' big-endian values."""
        if self._by_int is None:
            self._by_int = {_from_bytes(token, "big"): text for token, text in self.table.items()}
        return self._by_int

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
                out.append(self.table.get(match[0]) or self.compute(match[0]))
                pos = match.end()
        return "".join(out)

    def token_at(self, data: bytes, pos: int) -> tuple[str, int]:
        """The output of the token that starts at *pos* (a boundary), and where it ends."""
        match = self.multi.match(data, pos)
        if match is None:
            return self.singles[data[pos]], pos + 1
        return self.table.get(match[0]) or self.compute(match[0]), match.end()

    def decode_stretch(self, chunk: bytes) -> str:
        """Decode *chunk*, which ends at the end of input or just after a
        resynchronisation byte (so no token straddles its end, and ``\\Z`` in *multi*
        matches only at the real end of input)."""
        parts = self.multi.split(chunk)
        if len(parts) == 1:
            return codecs.charmap_decode(chunk, "strict", self.singles)[0]
        decoded = codecs.charmap_decode(
            bytes([self.separator]).join(parts[0::2]), "strict", self._charmap
        )[0].split(_SEPARATOR)
        tokens = parts[1::2]
        # Look the tokens up by their value as big-endian integers, in a list (or, where
        # some tokens are longer than two bytes and computed, a dict): much faster than
        # hashing and comparing bytes keys.
        keys = map(_from_bytes, tokens, repeat(_BIG))
        found: list[str | None]
        if self.compute is _no_compute:
            found = list(map(self.by_value.__getitem__, keys))
        else:
            found = list(map(self.by_int.get, keys))
            if None in found:  # the few long tokens: computed one by one
                compute = self.compute
                at = found.index(None)
                while True:
                    found[at] = compute(tokens[at])
                    try:
                        at = found.index(None, at + 1)
                    except ValueError:
                        break
        parts[0::2] = decoded  # (the texts replace the bytes)
        parts[1::2] = found  # (no None left)
        return "".join(parts)  # type: ignore[arg-type]  # (all texts now)

    def iter_stretch(self, data: bytes, start: int, end: int) -> Iterator[str]:
        """Decode data[start:end] (*start* a boundary, *end* as in :meth:`decode_stretch`)
        in pieces of bounded size."""
        resync = self.resync
        while start < end:
            cut = end
            if end - start > _STRETCH:
                found = resync.search(data, start + _STRETCH, end) if resync else None
                if found is None:
                    yield from self._iter_matches(data, start, end)
                    return
                cut = found.end()
            yield self.decode_stretch(data[start:cut])
            start = cut

    def _iter_matches(self, data: bytes, start: int, end: int) -> Iterator[str]:
        # No resynchronisation byte in reach: walk the matches (bounded memory, slower).
        table = self.table
        for match in self.multi.finditer(data, start, end):
            if match.start() > start:
                yield codecs.charmap_decode(data[start : match.start()], "strict", self.singles)[0]
            token = match[0]
            yield table.get(token) or self.compute(token)
            start = match.end()
        if start < end:
            yield codecs.charmap_decode(data[start:end], "strict", self.singles)[0]

    def __call__(self, data: bytes) -> str:
        return "".join(self.iter_stretch(data, 0, len(data)))


def leading_byte_tokens(code_points: PointerLookup, resync: bytes) -> TokenDecoder:
    """The exact token decoder of a :func:`leading_byte_handler` decoder: every leading
    byte takes the next byte with it; *resync* matches the bytes that are never a
    trailing byte."""
    return TokenDecoder(
        multi=re.compile(rb"([\x81-\xfe][\x00-\xff]?)"),
        singles="".join(chr(b) if b < 0x80 else _REPLACEMENT for b in range(256)),
        separator=0x81,
        build=lambda: leading_byte_table(code_points),
        resync=re.compile(resync),
    )


# -- 3. the fast path ---------------------------------------------------------------------------


class SequenceFinder:
    """Finds where any of some byte sequences start, each position once, overlapping
    occurrences included.

    One regular expression per first byte: then it is a literal prefix, which sre looks for
    in a tight loop, about 2.5 times faster than ``bytes.find`` of a two-byte string on
    Python 3.11 (one pattern with several first bytes starts with a character set, which
    sre tests byte by byte about ten times slower). The rest of the sequences (sre turns
    single bytes into a character set) is matched where it stops. Before the expressions,
    memchr rules out data without any of the first bytes (EUC-JP's 0x8F): nearly free."""

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
            if find(first, start, end) < 0:
                continue
            if not overlaps:
                found += [match.start() for match in pattern.finditer(data, start, end)]
                continue
            match = pattern.search(data, start, end)
            while match is not None:
                found.append(match.start())
                match = pattern.search(data, match.start() + 1, end)
        if len(self._locators) > 1:
            found.sort()
        return found


@dataclass
class Fixes:
    """What to correct in text decoded by the C codec."""

    #: codec character -> the standard's output, for characters that the codec produces
    #: only from sequences that the standard decodes (context-free) to that output.
    replace: dict[str, str]
    #: codec character -> the sequences, among those the codec decodes to it, where the
    #: standard differs (other sequences give the character in both). If one of them
    #: occurs in the input, the stretch is decoded again by the token decoder.
    check: dict[str, tuple[bytes, ...]]

    chars: tuple[str, ...] = field(init=False)
    chained: bool = field(init=False)
    any_char: Callable[[str], re.Match[str] | None] | None = field(init=False)
    #: the sequences of :attr:`check`, each with its character, longest first
    check_seqs: tuple[tuple[bytes, str], ...] = field(init=False, repr=False)
    #: every sequence where the codec and the standard differ (the sequences of
    #: :attr:`check` and those the codec decodes to a character of :attr:`replace`), for
    #: :meth:`locate`; empty if not known.
    sequences: tuple[bytes, ...] = ()
    _check_finder: SequenceFinder = field(init=False, repr=False)
    _finder: SequenceFinder = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # ``char in text`` is a fast search (much faster than a regex character class),
        # so the few suspect characters are looked for one by one.
        self.chars = tuple(sorted(set(self.replace) | set(self.check)))
        # ... unless they are many: then one pass of a character class is cheaper.
        self.any_char = (
            re.compile("[" + "".join(map(re.escape, self.chars)) + "]").search
            if len(self.chars) > 64
            else None
        )
        # Replacing one character after the other is safe unless a replacement contains a
        # character that is replaced too (gb18030 swaps U+1E3F and U+E7C7).
        self.chained = any(c in self.replace for good in self.replace.values() for c in good)
        # The sequences of check are looked for in the bytes before their characters in
        # the text: ``char in text`` runs memchr on the character's low byte, and for a
        # character such as U+FF3C (low byte 0x3C, '<') stops at every tag, so it costs
        # about as much as a search of the bytes, which finds all the sequences at once.
        seqs = sorted(
            {(seq, char) for char, found in self.check.items() for seq in found},
            key=lambda pair: (-len(pair[0]), pair),
        )
        self.check_seqs = tuple(seqs)
        self._check_finder = SequenceFinder(seq for seq, _ in seqs)
        self.sequences = tuple(sorted(set(self.sequences)))
        self._finder = SequenceFinder(self.sequences)

    def locate(self, data: bytes, start: int, end: int) -> list[int]:
        """Where the sequences of :attr:`sequences` start in data[start:end]
        (sorted; a position may be inside a character, not at its start)."""
        return self._finder.locate(data, start, end)

    def apply(self, text: str, data: bytes, start: int, end: int) -> str | None:
        """*text* (the codec's decoding of data[start:end]) corrected, or None if the
        token decoder must decode that stretch instead."""
        if self.any_char is not None and self.any_char(text) is None:
            return text
        if self.check_seqs and self._differs(text, data, start, end):
            return None
        return self.replace_only(text)

    def _differs(self, text: str, data: bytes, start: int, end: int) -> bool:
        """Whether data[start:end] holds one of the sequences of :attr:`check` and *text*
        the character the codec decodes it to (else the codec has not decoded it: it is
        inside another sequence, or the error handler took it)."""
        for at in self._check_finder.locate(data, start, end):
            # (every sequence that starts there)
            for seq, char in self.check_seqs:
                if data.startswith(seq, at, end) and char in text:
                    return True
        return False

    def replace_only(self, text: str) -> str:
        """*text* with the characters of :attr:`replace` replaced."""
        replace = self.replace
        if not self.chained:
            # No test of ``char in text`` first: where *char* is missing, ``str.replace``
            # costs one search (the same one) and returns *text* itself; where it is
            # there, a test would search the text up to it twice.
            for char, good in replace.items():
                text = text.replace(char, good)
            return text
        present = [char for char in replace if char in text]
        if len(present) > 1:
            pattern = re.compile("[" + "".join(map(re.escape, present)) + "]")
            return pattern.sub(self._replacement, text)
        for char in present:
            text = text.replace(char, replace[char])
        return text

    def _replacement(self, match: re.Match[str]) -> str:
        return self.replace[match[0]]


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


def codec_differences(
    codec: str, tokens: TokenDecoder, max_length: int = 2, extra: Iterable[bytes] = ()
) -> Fixes:
    """Compare the C codec with the exact token decoder on every codec sequence of up to
    *max_length* bytes (plus the *extra* sequences, e.g. gb18030's four-byte ones), and
    derive the :class:`Fixes` for the codec's output.

    Sequences the codec rejects are its errors, which the fast path never keeps, except
    that a sequence it rejects only for want of more bytes opens the next, longer round.
    """
    info = codecs.lookup(codec)
    decode = info.decode
    incremental = info.incrementaldecoder
    differing: dict[str, list[tuple[bytes, str]]] = {}
    agreeing: set[str] = set()
    single_token: set[int] = set()

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
    for _length in range(2, max_length + 1):
        prefixes = compare(p + bytes([b]) for p in prefixes for b in range(256))
    compare(extra)
    replace: dict[str, str] = {}
    check: dict[str, tuple[bytes, ...]] = {}
    for char, cases in differing.items():
        outputs = {w for _, w in cases}
        if (
            char not in agreeing
            and len(outputs) == 1
            and all(decode(seq)[0] == char and _spec_closed(tokens, seq) for seq, _ in cases)
        ):
            replace[char] = outputs.pop()
        else:
            check[char] = tuple(seq for seq, _ in cases)
    sequences = tuple(seq for cases in differing.values() for seq, _ in cases)
    return Fixes(replace, check, sequences)


class _ErrorState(threading.local):
    """What the error handler of one :class:`FastDecoder` found in the chunk that the codec
    is decoding in this thread (the codec calls the handler synchronously: one per thread)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        #: how many times the handler ran
        self.errors = 0
        #: where the error before the last _DENSE_ERRORS ones was (a position in the chunk)
        self.mark = -_DENSE_SPAN
        #: how far the token decoder runs on in dense errors (doubles while they last)
        self.slow = 0


class FastDecoder:
    """Decode with a C codec, fall back to the exact :class:`TokenDecoder`; see module doc."""

    def __init__(
        self, codec: str, tokens: TokenDecoder, *, max_length: int = 2, in_bytes: bool = False
    ) -> None:
        """*max_length*: the longest codec sequences :func:`codec_differences` compares.

        *in_bytes*: find the differing sequences in the bytes (:meth:`Fixes.locate`) rather
        than the codec's suspect characters in its text (:meth:`Fixes.apply`), and decode
        the chunk in pieces around them (:meth:`_pieces`). Worth it where looking for the
        characters is slow: ``char in text`` runs memchr on the character's low byte, and
        big5hkscs's suspects U+2022, U+203E, U+223C, U+FF3C, U+FF64 have the low bytes of
        '"', '>', '<', '<' and 'd', so that each search stops at every tag, about as slow
        as a regex over the bytes that finds all the sequences at once; and a chunk with
        none of the sequences then needs no correction at all. Where the characters' low
        bytes are rare (euc_jp's), their searches are several times faster.
        """
        assert tokens.resync is not None
        self.codec = codec
        info = codecs.lookup(codec)
        self._decode = info.decode
        self._incremental = info.incrementaldecoder
        self._in_bytes = in_bytes
        self.tokens = tokens
        self._resync: re.Pattern[bytes] = tokens.resync
        self._max_length = max_length
        self._fixes: Fixes | None = None
        self._state = _ErrorState()
        #: the name of this decoder's codec error handler, registered on first use
        self.errors = f"browser_decode.{codec}"

    @property
    def fixes(self) -> Fixes:
        if self._fixes is None:
            fixes = codec_differences(self.codec, self.tokens, self._max_length)
            codecs.register_error(self.errors, self._error_handler())
            self._fixes = fixes
        return self._fixes

    def _error_handler(self) -> Callable[[UnicodeError], tuple[str, int]]:
        """The codec error handler. The codec stopped at *exc.start*, one of its boundaries
        and so one of the standard's (see :meth:`_chunks`): the token decoder decodes the
        token there and the codec resumes after it. Where errors come thick and fast
        (_DENSE_ERRORS of them in less than _DENSE_SPAN bytes: a run of invalid bytes), it
        decodes on to just after a resynchronisation byte, further each time."""
        state = self._state
        tokens = self.tokens
        match = tokens.multi.match
        singles = tokens.singles
        table = tokens.table
        compute = tokens.compute
        search = self._resync.search

        def on_error(exc: UnicodeError) -> tuple[str, int]:
            if not isinstance(exc, UnicodeDecodeError):
                raise exc
            data: bytes = exc.object
            bad = exc.start
            state.errors += 1
            if not state.errors % _DENSE_ERRORS:
                if bad - state.mark < _DENSE_SPAN:
                    state.slow = slow = min(max(2 * state.slow, _MIN_SLOW), _STRETCH)
                    found = search(data, min(bad + slow, len(data)))
                    end = state.mark = found.end() if found else len(data)
                    return "".join(tokens.iter_stretch(data, bad, end)), end
                state.slow = 0
                state.mark = bad
            token = match(data, bad)
            if token is None:
                return singles[data[bad]], bad + 1
            return table.get(token[0]) or compute(token[0]), token.end()

        return on_error

    def _corrected(
        self, data: bytes, view: memoryview, start: int, end: int, text: str
    ) -> Iterator[str]:
        """*text*, the codec's decoding of data[start:end] (without errors), corrected, where
        :meth:`Fixes.apply` found a sequence that the codec decodes to a character it also
        gives for sequences the standard agrees on. Where such a sequence starts at a
        boundary of the codec (the codec decodes the bytes before it), it is a character:
        the token decoder decodes it and the codec goes on after it; elsewhere it is inside
        another character."""
        fixes = self.fixes
        decode = self._decode
        found_from = start
        while True:
            seqs = [seq for char in fixes.check if char in text for seq in fixes.check[char]]
            hits = [found for seq in seqs if (found := data.find(seq, found_from, end)) >= 0]
            if not hits:
                yield fixes.replace_only(text)
                return
            hit = min(hits)
            try:
                before: str = decode(view[start:hit])[0]
            except UnicodeDecodeError:
                found_from = hit + 1  # inside a character: not one
                continue
            token, after = self.tokens.token_at(data, hit)
            yield fixes.replace_only(before)
            yield token
            if after >= end:
                return
            start = found_from = after
            text = decode(view[start:end])[0]

    def _pieces(
        self, data: bytes, view: memoryview, pos: int, end: int, hits: list[int]
    ) -> tuple[list[str], int]:
        """data[pos:end] decoded by the codec from one of *hits* (where a sequence of
        :attr:`Fixes.sequences` starts) to the next, and by the token decoder at each hit
        where the codec is at a boundary; and how far that went: if the codec finds an
        error, the decoding of the bytes up to the last such hit's token (the rest is
        for :meth:`_chunks`), else *end*.

        The codec is strict and incremental: having decoded the bytes up to a hit without
        error, it holds back the start of an unfinished character, if any; then the hit
        is inside that character (the codec, given the next bytes, will finish it) and is
        no concern. Otherwise the hit is at a boundary of both decoders (see
        :meth:`_chunks`): the token decoder decodes the token there, and the codec goes on
        after it."""
        decoder = self._incremental("strict")
        decode = decoder.decode
        getstate = decoder.getstate
        token_at = self.tokens.token_at
        out: list[str] = []
        start = pos
        #: how many pieces of out were decoded before *clean*, a boundary of both decoders
        kept, clean = 0, pos
        try:
            for hit in hits:
                if hit < start:
                    continue  # inside the token just decoded
                out.append(decode(view[start:hit]))
                start = hit
                if getstate()[0]:
                    continue  # inside a character
                token, start = token_at(data, hit)
                out.append(token)
                kept, clean = len(out), start
            out.append(decode(view[start:end], True))
        except UnicodeDecodeError:
            del out[kept:]
            return out, clean
        return out, end

    def __call__(self, data: bytes) -> str:
        self.fixes  # noqa: B018  # (first use: compare the codec, register the handler)
        return "".join(self._chunks(data, memoryview(data), 0, len(data), _CHUNK))

    def _chunks(
        self, data: bytes, view: memoryview, pos: int, end: int, size: int
    ) -> Iterator[str]:
        """Decode data[pos:end] (*pos* a boundary, *end* as in
        :meth:`TokenDecoder.decode_stretch`) in chunks of about *size* bytes.

        pos is a boundary for both decoders (0, or just after a resynchronisation byte). The
        codec takes chunks that end at one too, so that a correction redoes at most one
        chunk. Where it finds an error, it has stopped at one of its character boundaries,
        which is one of the standard's as long as it has not decoded a sequence of
        Fixes.check (every other sequence it accepts is a whole number of the standard's
        tokens): the error handler decodes the token there. The token decoder never
        outputs a character of Fixes.replace (the test-suite checks every table entry and
        long token), so the chunk's text is corrected as a whole. Where a sequence of
        Fixes.check is in a chunk, the chunk is decoded again: without errors, by
        :meth:`_corrected`; with errors, in chunks of _MIN_CHUNK bytes, and those by the
        token decoder.
        """
        decode = self._decode
        fixes = self.fixes
        errors = self.errors
        state = self._state
        resync = self._resync
        in_bytes = self._in_bytes
        while pos < end:
            cut = end
            if end - pos > 2 * size:
                found = resync.search(data, pos + size, end)
                cut = found.end() if found else end
            if in_bytes:
                hits = fixes.locate(data, pos, cut)
                if not hits:  # nothing the codec gets wrong (its errors: the handler)
                    state.reset()
                    yield decode(view[pos:cut], errors)[0]
                    pos = cut
                    continue
                pieces, done = self._pieces(data, view, pos, cut, hits)
                yield from pieces
                if done == cut:
                    pos = cut
                    continue
                pos = done  # (an error: the rest of the chunk as without in_bytes)
            state.reset()
            text: str = decode(view[pos:cut], errors)[0]
            fixed = fixes.apply(text, data, pos, cut)
            if fixed is not None:
                yield fixed
            elif not state.errors:
                yield from self._corrected(data, view, pos, cut, text)
            elif size > _MIN_CHUNK:
                yield from self._chunks(data, view, pos, cut, _MIN_CHUNK)
            else:
                yield from self.tokens.iter_stretch(data, pos, cut)
            pos = cut
