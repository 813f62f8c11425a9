"""gb18030 and GBK decoders (Encoding Standard 10.1-10.2,
https://encoding.spec.whatwg.org/#gb18030-decoder).

"GBK's decoder is gb18030's decoder." Fast path (both labels): Python's ``gbk`` codec, which
agrees with the standard on every one- and two-byte sequence it accepts (checked exhaustively
on first use by :func:`~._multibyte.codec_differences`); four-byte sequences and 0x80
(U+20AC in the standard), which it rejects, go to the exact token decoder.
"""

from __future__ import annotations

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
)


# "GBK's decoder is gb18030's decoder." The same exact token decoder; only the fast path
# runs Python's ``gbk`` codec: on two-byte text it agrees with the standard everywhere it
# accepts the bytes (no character needs a correction, so no output scan), and it rejects
# four-byte sequences and 0x80, which the token decoder then decodes. Web pages labelled
# gb18030 are overwhelmingly two-byte text, so both labels use it. (Python's ``gb18030``
# codec would take four-byte sequences too, but it is GB18030-2005: 21 characters need
# correcting, and scanning every output for them cost more than it saved.)
FAST_GBK: Final = FastDecoder("gbk", TOKENS)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"gb18030": FAST_GBK, "GBK": FAST_GBK}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {
    "gb18030": FAST_GBK.decode_counting,
    "GBK": FAST_GBK.decode_counting,
}
