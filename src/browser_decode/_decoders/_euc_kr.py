"""EUC-KR decoder (Encoding Standard 13.1, https://encoding.spec.whatwg.org/#euc-kr-decoder).

Fast path: Python's ``cp949`` (index EUC-KR is KS X 1001 with the Unified Hangul Code, that
is Windows code page 949); differences are found by :func:`~._multibyte.codec_differences`.
"""

from __future__ import annotations

from collections.abc import Callable

from .._cjk_euc_kr import EUC_KR
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


def _pointer_code_point(leading: int, byte: int) -> str | None:
    # "4. If byte is in the range 0x41 to 0xFE, inclusive, then set pointer to
    # (leading - 0x81) x 190 + (byte - 0x41).
    # 5. Let codePoint be null if pointer is null; otherwise the index code point for
    # pointer in index EUC-KR."
    if not 0x41 <= byte <= 0xFE:
        return None
    pointer = (leading - 0x81) * 190 + (byte - 0x41)
    if pointer < len(EUC_KR) and EUC_KR[pointer] != NO_CODE_POINT:
        return EUC_KR[pointer]
    return None


def reference_decode(data: bytes) -> str:
    """The standard's EUC-KR decoder, step by step (slow; for tests)."""
    return run_handler(leading_byte_handler(_pointer_code_point), data)


def _row(leading: int) -> list[str | None]:
    # Step 4's pointers for this leading byte: bytes 0x41-0xFE.
    base = (leading - 0x81) * 190
    return index_row((0x41, EUC_KR[base : base + 190]))


# Every leading byte takes the next byte with it; bytes below 0x41 are never a trailing byte.
TOKENS: Final = leading_byte_tokens(_pointer_code_point, _row, rb"[\x00-\x40]")


FAST: Final = FastDecoder("cp949", TOKENS)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"EUC-KR": FAST}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {"EUC-KR": FAST.decode_counting}
