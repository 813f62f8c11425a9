"""Shift_JIS decoder (Encoding Standard 12.3, https://encoding.spec.whatwg.org/#shift_jis-decoder).

Fast path: Python's ``cp932``. It agrees with the standard except where
:func:`~._multibyte.codec_differences` finds otherwise (0xA0 and 0xFD-0xFF, which cp932 maps
to private-use characters, are errors here).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .._cjk_jis import JIS0208
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


def _pointer_code_point(leading: int, byte: int) -> str | None:
    # "4. Let offset be 0x40 if byte is less than 0x7F; otherwise 0x41.
    # 5. Let leadingOffset be 0x81 if leading is less than 0xA0; otherwise 0xC1.
    # 6. If byte is in the range 0x40 to 0x7E, inclusive, or 0x80 to 0xFC, inclusive, then
    # set pointer to (leading - leadingOffset) x 188 + byte - offset."
    if not (0x40 <= byte <= 0x7E or 0x80 <= byte <= 0xFC):
        return None
    offset = 0x40 if byte < 0x7F else 0x41
    leading_offset = 0x81 if leading < 0xA0 else 0xC1
    pointer = (leading - leading_offset) * 188 + byte - offset
    # "7. If pointer is in the range 8836 to 10715, inclusive, then return a code point
    # whose value is 0xE000 - 8836 + pointer." (EUDC)
    if 8836 <= pointer <= 10715:
        return chr(0xE000 - 8836 + pointer)
    # "8. Let codePoint be null if pointer is null; otherwise the index code point for
    # pointer in index jis0208."
    if pointer < len(JIS0208) and JIS0208[pointer] != NO_CODE_POINT:
        return JIS0208[pointer]
    return None


def _is_leading(byte: int) -> bool:
    return 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC


def _handler() -> Handler:
    leading = 0

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal leading
        # "1. If byte is end-of-queue and Shift_JIS leading is not 0x00, then set Shift_JIS
        # leading to 0x00 and return error.
        # 2. If byte is end-of-queue and Shift_JIS leading is 0x00, then return finished."
        if byte is None:
            if leading:
                leading = 0
                return ERROR
            return FINISHED
        # "3. If Shift_JIS leading is not 0x00: ..."
        if leading:
            lead, leading = leading, 0
            code_point = _pointer_code_point(lead, byte)
            if code_point is not None:
                return code_point
            # "10. If byte is an ASCII byte, then restore byte to ioQueue. 11. Return error."
            if byte < 0x80:
                queue.restore(byte)
            return ERROR
        # "4. If byte is an ASCII byte or 0x80, then return a code point whose value is byte."
        if byte <= 0x80:
            return chr(byte)
        # "5. If byte is in the range 0xA1 to 0xDF, inclusive, then return a code point whose
        # value is 0xFF61 - 0xA1 + byte."
        if 0xA1 <= byte <= 0xDF:
            return chr(0xFF61 - 0xA1 + byte)
        # "6. If byte is in the range 0x81 to 0x9F, inclusive, or 0xE0 to 0xFC, inclusive,
        # then set Shift_JIS leading to byte and return continue."
        if _is_leading(byte):
            leading = byte
            return CONTINUE
        # "7. Return error."
        return ERROR

    return handler


def reference_decode(data: bytes) -> str:
    """The standard's Shift_JIS decoder, step by step (slow; for tests)."""
    return run_handler(_handler(), data)


def _single(byte: int) -> str:
    # Steps 4, 5 and 7 (a leading byte here is one at the end of input: step 1).
    if byte <= 0x80:
        return chr(byte)
    if 0xA1 <= byte <= 0xDF:
        return chr(0xFF61 - 0xA1 + byte)
    return "\ufffd"


def _table() -> Iterator[tuple[bytes, str]]:
    for lead in range(256):
        if _is_leading(lead):
            yield bytes([lead]), "\ufffd"  # at the end of input
            for byte in range(256):
                cp = _pointer_code_point(lead, byte)
                yield bytes([lead, byte]), replacement_then(byte) if cp is None else cp


_LEADS: Final = (*range(0x81, 0xA0), *range(0xE0, 0xFD))
# Index jis0208 with step 7's EUDC code points at pointers 8836 to 10715.
_EUDC: Final = "".join(map(chr, range(0xE000, 0xE000 + 1880)))
_POINTERS: Final = JIS0208[:8836] + _EUDC + JIS0208[10716:]


def _row(leading: int) -> list[str | None]:
    # Step 6's pointers for this leading byte: bytes 0x40-0x7E, then 0x80-0xFC.
    base = (leading - (0x81 if leading < 0xA0 else 0xC1)) * 188
    return index_row((0x40, _POINTERS[base : base + 63]), (0x80, _POINTERS[base + 63 : base + 188]))


# A leading byte always takes the next byte with it (a restored ASCII byte is part of the
# token's output); any other byte is a token on its own. Bytes below 0x40 are never a
# trailing byte: they resynchronise.
TOKENS: Final = TokenDecoder(
    multi=re.compile(rb"([\x81-\x9f\xe0-\xfc][\x00-\xff]?)"),
    singles="".join(map(_single, range(256))),
    separator=0x81,
    build=_table,
    leads=_LEADS,
    row=_row,
    resync=re.compile(rb"[\x00-\x3f]"),
)


FAST: Final = FastDecoder("cp932", TOKENS)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"Shift_JIS": FAST}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {"Shift_JIS": FAST.decode_counting}
