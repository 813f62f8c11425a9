"""Big5 decoder (Encoding Standard 11.1, https://encoding.spec.whatwg.org/#big5-decoder).

Fast path: Python's ``big5hkscs``, the nearest codec; where it disagrees with index Big5 (which
is Big5 with HKSCS and other common extensions), :func:`~._multibyte.codec_differences` finds
it on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final

from .._indexes import BIG5, NO_CODE_POINT
from ._multibyte import (
    CONTINUE,
    ERROR,
    FINISHED,
    FastDecoder,
    Fixes,
    Handler,
    IOQueue,
    TokenDecoder,
    codec_differences,
    replacement_then,
    run_handler,
)

# "6. If there is a row in the table below whose first column is pointer, then return the
# two code points listed in its second column"
_TWO_CODE_POINTS: Final = {
    1133: "\u00ca\u0304",
    1135: "\u00ca\u030c",
    1164: "\u00ea\u0304",
    1166: "\u00ea\u030c",
}


def _pointer_code_points(leading: int, byte: int) -> str | None:
    # "4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x62.
    # 5. If byte is in the range 0x40 to 0x7E, inclusive, or 0xA1 to 0xFE, inclusive, then
    # set pointer to (leading - 0x81) x 157 + (byte - offset)."
    if not (0x40 <= byte <= 0x7E or 0xA1 <= byte <= 0xFE):
        return None
    offset = 0x40 if byte < 0x7F else 0x62
    pointer = (leading - 0x81) * 157 + (byte - offset)
    if pointer in _TWO_CODE_POINTS:
        return _TWO_CODE_POINTS[pointer]
    # "7. Let codePoint be null if pointer is null; otherwise the index code point for
    # pointer in index Big5."
    if pointer < len(BIG5) and BIG5[pointer] != NO_CODE_POINT:
        return BIG5[pointer]
    return None


def _handler() -> Handler:
    leading = 0

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal leading
        # "1. If byte is end-of-queue and Big5 leading is not 0x00, then set Big5 leading to
        # 0x00 and return error. 2. If byte is end-of-queue and Big5 leading is 0x00, then
        # return finished."
        if byte is None:
            if leading:
                leading = 0
                return ERROR
            return FINISHED
        # "3. If Big5 leading is not 0x00: 1. Let leading be Big5 leading. 2. Set Big5
        # leading to 0x00."
        if leading:
            lead, leading = leading, 0
            code_points = _pointer_code_points(lead, byte)
            # "8. If codePoint is non-null, then return a code point whose value is codePoint."
            if code_points is not None:
                return code_points
            # "9. If byte is an ASCII byte, restore byte to ioQueue. 10. Return error."
            if byte < 0x80:
                queue.restore(byte)
            return ERROR
        # "4. If byte is an ASCII byte, then return a code point whose value is byte."
        if byte < 0x80:
            return chr(byte)
        # "5. If byte is in the range 0x81 to 0xFE, inclusive, then set Big5 leading to byte
        # and return continue."
        if 0x81 <= byte <= 0xFE:
            leading = byte
            return CONTINUE
        # "6. Return error."
        return ERROR

    return handler


def reference_decode(data: bytes) -> str:
    """The standard's Big5 decoder, step by step (slow; for tests)."""
    return run_handler(_handler(), data)


def _table() -> Iterator[tuple[bytes, str]]:
    for lead in range(0x81, 0xFF):
        yield bytes([lead]), "\ufffd"  # at the end of input
        for byte in range(256):
            cps = _pointer_code_points(lead, byte)
            yield bytes([lead, byte]), replacement_then(byte) if cps is None else cps


# Every leading byte takes the next byte with it; bytes below 0x40 are never a trailing byte.
TOKENS: Final = TokenDecoder(
    multi=re.compile(rb"([\x81-\xfe][\x00-\xff]?)"),
    singles="".join(chr(b) if b < 0x80 else "\ufffd" for b in range(256)),
    separator=0x81,
    build=_table,
    resync=re.compile(rb"[\x00-\x3f]"),
)


def _fixes() -> Fixes:
    return codec_differences("big5hkscs", TOKENS)


FAST: Final = FastDecoder("big5hkscs", TOKENS, _fixes)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"Big5": FAST}
