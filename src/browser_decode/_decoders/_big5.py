"""Big5 decoder (Encoding Standard 11.1, https://encoding.spec.whatwg.org/#big5-decoder).

Fast path: Python's ``big5hkscs``, the nearest codec; where it disagrees with index Big5 (which
is Big5 with HKSCS and other common extensions), :func:`~._multibyte.codec_differences` finds
it on first use.
"""

from __future__ import annotations

from collections.abc import Callable

from .._cjk_big5 import BIG5
from .._indexes import NO_CODE_POINT
from ._multibyte import (
    FastDecoder,
    index_row,
    leading_byte_handler,
    leading_byte_tokens,
    run_handler,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

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


def reference_decode(data: bytes) -> str:
    """The standard's Big5 decoder, step by step (slow; for tests)."""
    return run_handler(leading_byte_handler(_pointer_code_points), data)


def _row(leading: int) -> list[str | None]:
    # Step 5's pointers for this leading byte: bytes 0x40-0x7E, then 0xA1-0xFE.
    base = (leading - 0x81) * 157
    row = index_row((0x40, BIG5[base : base + 63]), (0xA1, BIG5[base + 63 : base + 157]))
    for pointer, code_points in _TWO_CODE_POINTS.items():  # step 6
        if pointer // 157 == leading - 0x81:
            offset = pointer % 157
            row[offset + (0x40 if offset < 63 else 0x62)] = code_points
    return row


# Every leading byte takes the next byte with it; bytes below 0x40 are never a trailing byte.
TOKENS: Final = leading_byte_tokens(_pointer_code_points, _row, rb"[\x00-\x3f]")


FAST: Final = FastDecoder("big5hkscs", TOKENS, patch_all=True)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"Big5": FAST}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {"Big5": FAST.decode_counting}
