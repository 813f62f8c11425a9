"""gb18030 and GBK decoders (Encoding Standard 10.1-10.2,
https://encoding.spec.whatwg.org/#gb18030-decoder).

"GBK's decoder is gb18030's decoder." Fast path (both labels): Python's ``gbk`` codec, which
agrees with the standard on every one- and two-byte sequence it accepts (checked exhaustively
on first use by :func:`~._multibyte.codec_differences`); four-byte sequences and 0x80
(U+20AC in the standard), which it rejects, go to the exact token decoder, and where they
are dense (a page of Thai or Hebrew letters), its stretches to Python's ``gb18030`` codec
where that gives the standard's text (:class:`CodecStretches`).
"""

from __future__ import annotations

import codecs
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator

from .._cjk_gb18030 import GB18030, GB18030_RANGES
from .._indexes import NO_CODE_POINT
from ._multibyte import (
    CONTINUE,
    ERROR,
    FINISHED,
    FastDecoder,
    Handler,
    IOQueue,
    TokenDecoder,
    index_row,
    replacement_then,
    run_handler,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_RANGE_POINTERS: Final = [pointer for pointer, _ in GB18030_RANGES]


def ranges_code_point(pointer: int) -> str | None:
    """The index gb18030 ranges code point for *pointer*."""
    # "1. If pointer is greater than 39419 and less than 189000, or pointer is greater than
    # 1237575, then return null."
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    # "2. If pointer is 7457, then return code point U+E7C7."
    if pointer == 7457:
        return "\ue7c7"
    # "3. Let offset be the last pointer in index gb18030 ranges that is less than or equal
    # to pointer and let codePointOffset be its corresponding code point.
    # 4. Return a code point whose value is codePointOffset + pointer - offset."
    offset, code_point_offset = GB18030_RANGES[bisect_right(_RANGE_POINTERS, pointer) - 1]
    return chr(code_point_offset + pointer - offset)


def _four_byte_pointer(first: int, second: int, third: int, byte: int) -> int:
    # "((gb18030 first - 0x81) x (10 x 126 x 10)) + ((gb18030 second - 0x30) x (10 x 126))
    # + ((gb18030 third - 0x81) x 10) + byte - 0x30"
    return (first - 0x81) * 12600 + (second - 0x30) * 1260 + (third - 0x81) * 10 + byte - 0x30


def _two_byte_code_point(leading: int, byte: int) -> str | None:
    # "5. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
    # 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFE, inclusive, then
    # set pointer to (leading - 0x81) x 190 + (byte - offset).
    # 7. Let codePoint be null if pointer is null; otherwise the index code point for pointer
    # in index gb18030."
    if not (0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFE):
        return None
    offset = 0x40 if byte < 0x7F else 0x41
    pointer = (leading - 0x81) * 190 + (byte - offset)
    if pointer < len(GB18030) and GB18030[pointer] != NO_CODE_POINT:
        return GB18030[pointer]
    return None


def _handler() -> Handler:
    first = second = third = 0

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal first, second, third
        if byte is None:
            # "1. If byte is end-of-queue and gb18030 first, gb18030 second, and gb18030
            # third are 0x00, then return finished.
            # 2. If byte is end-of-queue, and gb18030 first, gb18030 second, or gb18030 third
            # is not 0x00, then set gb18030 first, gb18030 second, and gb18030 third to 0x00,
            # and return error."
            if first == second == third == 0:
                return FINISHED
            first = second = third = 0
            return ERROR
        # "3. If gb18030 third is not 0x00:"
        if third:
            # "1. If byte is not in the range 0x30 to 0x39, inclusive: 1. Restore « gb18030
            # second, gb18030 third, byte » to ioQueue. 2. Set gb18030 first, gb18030 second,
            # and gb18030 third to 0x00. 3. Return error."
            if not 0x30 <= byte <= 0x39:
                queue.restore(second, third, byte)
                first = second = third = 0
                return ERROR
            # "2. Let codePoint be the index gb18030 ranges code point for ...
            # 3. Set gb18030 first, gb18030 second, and gb18030 third to 0x00.
            # 4. If codePoint is null, then return error.
            # 5. Return a code point whose value is codePoint."
            code_point = ranges_code_point(_four_byte_pointer(first, second, third, byte))
            first = second = third = 0
            return ERROR if code_point is None else code_point
        # "4. If gb18030 second is not 0x00:"
        if second:
            # "1. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 third to
            # byte and return continue."
            if 0x81 <= byte <= 0xFE:
                third = byte
                return CONTINUE
            # "2. Restore « gb18030 second, byte » to ioQueue, set gb18030 first and gb18030
            # second to 0x00, and return error."
            queue.restore(second, byte)
            first = second = 0
            return ERROR
        # "5. If gb18030 first is not 0x00:"
        if first:
            # "1. If byte is in the range 0x30 to 0x39, inclusive, then set gb18030 second to
            # byte and return continue."
            if 0x30 <= byte <= 0x39:
                second = byte
                return CONTINUE
            # "2. Let leading be gb18030 first. 3. Set gb18030 first to 0x00."
            leading, first = first, 0
            code_point = _two_byte_code_point(leading, byte)
            # "8. If codePoint is non-null, then return a code point whose value is codePoint."
            if code_point is not None:
                return code_point
            # "9. If byte is an ASCII byte, then restore byte to ioQueue. 10. Return error."
            if byte < 0x80:
                queue.restore(byte)
            return ERROR
        # "6. If byte is an ASCII byte, then return a code point whose value is byte."
        if byte < 0x80:
            return chr(byte)
        # "7. If byte is 0x80, then return code point U+20AC (€)."
        if byte == 0x80:
            return "\u20ac"
        # "8. If byte is in the range 0x81 to 0xFE, inclusive, then set gb18030 first to byte
        # and return continue."
        if 0x81 <= byte <= 0xFE:
            first = byte
            return CONTINUE
        # "9. Return error."
        return ERROR

    return handler


def reference_decode(data: bytes) -> str:
    """The standard's gb18030 decoder, step by step (slow; for tests)."""
    return run_handler(_handler(), data)


def _table() -> Iterator[tuple[bytes, str]]:
    for lead in range(0x81, 0xFF):
        # A leading byte alone: at the end of input, or before a digit that does not start
        # a four-byte sequence (step 5.1, then « second, ... » restored by step 4.2 or 3.1).
        yield bytes([lead]), "\ufffd"
        for byte in range(256):
            if not 0x30 <= byte <= 0x39:
                cp = _two_byte_code_point(lead, byte)
                yield bytes([lead, byte]), replacement_then(byte) if cp is None else cp


def _row(leading: int) -> list[str | None]:
    # Step 6's pointers for this leading byte: bytes 0x40-0x7E, then 0x80-0xFE; a digit
    # is not taken with it (see TOKENS).
    base = (leading - 0x81) * 190
    row = index_row((0x40, GB18030[base : base + 63]), (0x80, GB18030[base + 63 : base + 190]))
    row[0x30:0x3A] = [None] * 10
    return row


def _long_token(token: bytes) -> str:
    if len(token) == 4:
        code_point = ranges_code_point(_four_byte_pointer(*token))
        return "\ufffd" if code_point is None else code_point
    # Two or three bytes at the end of input: "set gb18030 first, gb18030 second, and
    # gb18030 third to 0x00, and return error" (nothing is restored).
    return "\ufffd"


# Stretches of four-byte letters. Python's ``gbk`` codec rejects every four-byte sequence,
# so that a page of Thai, Hebrew, Arabic, Tibetan or Uyghur text (or of letters such as "ß")
# in gb18030 goes through the token decoder letter by letter: 10-20 times the time of
# Python's ``gb18030`` codec on such pages. That codec decodes them as the standard does,
# but for a few sequences; it is checked against the standard's indexes on first use.

#: What a sequence the codec rejects leaves when decoded with "replace" (its ASCII bytes,
#: the separator, U+FFFD), and what it does not.
_NOT_REJECTED: Final = re.compile(r"[^\x00-\x7f\ufffd]")


def _four_bytes(pointers: list[int]) -> bytes:
    """The four-byte sequences of *pointers* (the inverse of the standard's formula), each
    followed by a newline."""
    out = bytearray(5 * len(pointers))
    out[0::5] = bytes([0x81 + pointer // 12600 for pointer in pointers])
    out[1::5] = bytes([0x30 + pointer // 1260 % 10 for pointer in pointers])
    out[2::5] = bytes([0x81 + pointer // 10 % 126 for pointer in pointers])
    out[3::5] = bytes([0x30 + pointer % 10 for pointer in pointers])
    out[4::5] = b"\n" * len(pointers)
    return bytes(out)


def _four_byte_sample() -> tuple[bytes, str, bytes]:
    """What the first-use check decodes of the four-byte sequences, each followed by a
    newline: the first and last sequence of every range of index gb18030 ranges (the last
    two ranges end where pointers without a code point begin: 39420, 1237576) and the
    pointer 7457 and its neighbours (the sequences, then the standard's code points); the
    sequences just past those ends and the first and last of the two runs of leading bytes
    without any code point, 0x85-0x8F and 0xE4-0xFE (all to be rejected)."""
    pointers = [7456, 7457, 7458]
    code_points = [ranges_code_point(pointer) or "" for pointer in pointers]
    # (each range's code points run on from its first: the last is its first + its length - 1)
    ends = [*_RANGE_POINTERS[1:-1], 39420, 1237576]
    for (start, first), end in zip(GB18030_RANGES, ends, strict=True):
        pointers += (start, end - 1)
        code_points += (chr(first), chr(first + end - 1 - start))
    # (pointer = (leading byte - 0x81) x 12600 + ...: 0x84's own run from 39420 to its end)
    rejected = [39420, 4 * 12600 - 1, 4 * 12600, 15 * 12600 - 1]
    rejected += (1237576, 99 * 12600, 126 * 12600 - 1)
    return _four_bytes(pointers), "\n".join(code_points) + "\n", _four_bytes(rejected)


class CodecStretches:
    """Python's ``gb18030`` codec for the stretches the token decoder decodes (its *bulk*):
    the codec's text where it is the standard's, else None (the tokens decode the stretch).

    On first use, the codec decodes every two-byte sequence that has a pointer, compared
    with index gb18030; it must reject what the standard rejects there (a leading byte
    with a byte that is neither a trail byte nor a digit; a four-byte sequence cut short),
    decode ASCII as ASCII, and reject 0xFF. Four-byte sequences map by ranges (a code point
    offset per range of pointers, linear within it: "index gb18030 ranges code point"), and
    Python's codec holds the same table of ranges: it must decode the first and last
    sequence of each range and the pointer 7457 and its neighbours (an exception inside a
    range) as the standard does, and reject the sequences just past the ranges and at the
    ends of the leading bytes that have none (:func:`_four_byte_sample`). That is a
    sample: all 39,420 four-byte sequences below U+10000 would cost 4 ms (the codec looks
    each one's range up in a linear scan); the test-suite compares every four-byte
    sequence on the Python it runs.

    Where the codec gives another character than the standard (20 two-byte sequences, such
    as A6 D9: the standard's U+FE10, the codec's U+E78D, and the four-byte 81 35 F4 37),
    its character is a *suspect*: a stretch whose text holds one is left to the tokens, as
    is a stretch that the codec rejects (it stops at its first error: the standard's
    errors, 0x80, which the standard decodes to U+20AC, a sequence cut off at the end of
    input). A codec that fails any other part of the check is not used.
    """

    def __init__(self, codec: str = "gb18030") -> None:
        self.codec = codec
        #: the codec's decode function once checked; None before, or if it failed
        self._decode: Callable[[bytes, str], tuple[str, int]] | None = None
        self._checked = False
        self._suspect: re.Pattern[str] | None = None

    def __call__(self, chunk: bytes) -> str | None:
        decode = self._decode
        if decode is None:
            if self._checked:
                return None
            decode = self._first_use()
            if decode is None:
                return None
        try:
            text = decode(chunk, "strict")[0]
        except UnicodeDecodeError:
            return None
        suspect = self._suspect
        if suspect is not None and suspect.search(text):
            return None
        return text

    def _first_use(self) -> Callable[[bytes, str], tuple[str, int]] | None:
        try:
            decode: Callable[[bytes, str], tuple[str, int]] = codecs.lookup(self.codec).decode
        except LookupError:  # (a Python built without its CJK codecs)
            self._checked = True
            return None
        suspects = self.differences(decode)
        if suspects is not None:
            if suspects:
                self._suspect = re.compile("[" + re.escape("".join(sorted(suspects))) + "]")
            self._decode = decode  # (after its suspects: a thread that finds it finds them)
        self._checked = True
        return self._decode

    @staticmethod
    def differences(decode: Callable[[bytes, str], tuple[str, int]]) -> set[str] | None:
        """The characters *decode* gives where the standard gives others (see the class
        doc), or None if it fails the check."""
        leads = bytes(range(0x81, 0xFF))
        # Every two-byte sequence with a pointer, in pointer order (index gb18030's).
        pairs = bytearray(2 * 126 * 190)
        pairs[0::2] = b"".join(bytes([lead]) * 190 for lead in leads)
        pairs[1::2] = (bytes(range(0x40, 0x7F)) + bytes(range(0x80, 0xFF))) * 126
        # Each leading byte with a byte that is neither a trail byte nor a digit (every
        # such byte for the first, middle and last leading byte), with a digit and an ASCII
        # byte, with a digit, a leading byte and an ASCII byte: each to be rejected.
        others = bytes(range(0x30)) + b":;<=>?\x7f\xff"
        cases = [bytes([lead, other, 0x0A]) for lead in b"\x81\xa1\xfe" for other in others]
        for tail in (b"?\n", b"\x7f\n", b"\xff\n", b"0A\n", b"9\x81\n"):
            case = bytearray(126 * (1 + len(tail)))
            case[0 :: 1 + len(tail)] = leads
            for at, byte in enumerate(tail, 1):
                case[at :: 1 + len(tail)] = bytes([byte]) * 126
            cases.append(bytes(case))
        four_bytes, want, rejected = _four_byte_sample()
        try:
            two_bytes = decode(bytes(pairs), "strict")[0]
            ascii_ = decode(bytes(range(0x80)), "strict")[0]
            got = decode(four_bytes, "strict")[0]
        except UnicodeDecodeError:
            return None
        if (
            len(two_bytes) != len(GB18030)
            or ascii_ != "".join(map(chr, range(0x80)))
            or _NOT_REJECTED.search(decode(b"".join(cases) + rejected + b"\xff", "replace")[0])
        ):
            return None
        got_parts, want_parts = got.split("\n"), want.split("\n")
        if len(got_parts) != len(want_parts):
            return None
        found = {mine for mine, theirs in zip(got_parts, want_parts, strict=True) if mine != theirs}
        if two_bytes != GB18030:
            for at in range(0, len(GB18030), 64):
                mine, theirs = two_bytes[at : at + 64], GB18030[at : at + 64]
                if mine != theirs:
                    found.update(
                        char for char, other in zip(mine, theirs, strict=True) if char != other
                    )
        return found


#: Python's ``gb18030`` codec for the token decoder's stretches, where it agrees.
CODEC_STRETCHES: Final = CodecStretches()

_SINGLES: Final = "".join(
    chr(b) if b < 0x80 else "\u20ac" if b == 0x80 else "\ufffd" for b in range(256)
)

# Tokens that begin with a leading byte: four bytes; a cut-off four-byte sequence at the end
# of input; a leading byte with the next byte unless that is a digit (then the leading byte
# alone is an error and the digit is restored). Bytes below 0x30 are never consumed after a
# leading byte (two-byte trails are 0x40 and up, four-byte ones 0x30-0x39 and 0x81-0xFE).
TOKENS: Final = TokenDecoder(
    multi=re.compile(
        rb"([\x81-\xfe][\x30-\x39][\x81-\xfe][\x30-\x39]"
        rb"|[\x81-\xfe][\x30-\x39][\x81-\xfe]?\Z"
        rb"|[\x81-\xfe][^\x30-\x39]?)"
    ),
    singles=_SINGLES,
    separator=0x81,
    build=_table,
    leads=range(0x81, 0xFF),
    row=_row,
    compute=_long_token,
    resync=re.compile(rb"[\x00-\x2f]"),
    # pointer 39394 in index gb18030 ranges: U+FFFD itself, not an error
    legit=b"\x84\x31\xa4\x37",
    bulk=CODEC_STRETCHES,
)


# "GBK's decoder is gb18030's decoder." The same exact token decoder; only the fast path
# runs Python's ``gbk`` codec: on two-byte text it agrees with the standard everywhere it
# accepts the bytes (no character needs a correction, so no output scan), and it rejects
# four-byte sequences and 0x80, which the token decoder then decodes. Web pages labelled
# gb18030 are overwhelmingly two-byte text, so both labels use it. (Python's ``gb18030``
# codec would take four-byte sequences too, but it is GB18030-2005: 21 characters differ,
# and a search of every output for them costs as much as the decode, 5 ns a character. It
# decodes the stretches of dense four-byte letters, where that search is cheaper than the
# token decoder: CodecStretches.)
FAST_GBK: Final = FastDecoder("gbk", TOKENS)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"gb18030": FAST_GBK, "GBK": FAST_GBK}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {
    "gb18030": FAST_GBK.decode_counting,
    "GBK": FAST_GBK.decode_counting,
}
