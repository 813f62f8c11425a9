"""EUC-KR decoder (Encoding Standard 13.1, https://encoding.spec.whatwg.org/#euc-kr-decoder).

Fast path: Python's ``cp949`` (index EUC-KR is KS X 1001 with the Unified Hangul Code, that
is Windows code page 949); differences are found by :func:`~._multibyte.codec_differences`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final

from .._indexes import EUC_KR, NO_CODE_POINT
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


def _handler() -> Handler:
    leading = 0

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal leading
        # "1. If byte is end-of-queue and EUC-KR leading is not 0x00, then set EUC-KR
        # leading to 0x00 and return error. 2. If byte is end-of-queue and EUC-KR leading
        # is 0x00, then return finished."
        if byte is None:
            if leading:
                leading = 0
                return ERROR
            return FINISHED
        # "3. If EUC-KR leading is not 0x00: ..."
        if leading:
            lead, leading = leading, 0
            code_point = _pointer_code_point(lead, byte)
            # "6. If codePoint is non-null, then return a code point whose value is codePoint."
            if code_point is not None:
                return code_point
            # "7. If byte is an ASCII byte, then restore byte to ioQueue. 8. Return error."
            if byte < 0x80:
                queue.restore(byte)
            return ERROR
        # "4. If byte is an ASCII byte, then return a code point whose value is byte."
        if byte < 0x80:
            return chr(byte)
        # "5. If byte is in the range 0x81 to 0xFE, inclusive, then set EUC-KR leading to
        # byte and return continue."
        if 0x81 <= byte <= 0xFE:
            leading = byte
            return CONTINUE
        # "6. Return error."
        return ERROR

    return handler


def reference_decode(data: bytes) -> str:
    """The standard's EUC-KR decoder, step by step (slow; for tests)."""
    return run_handler(_handler(), data)


def _table() -> Iterator[tuple[bytes, str]]:
    for lead in range(0x81, 0xFF):
        yield bytes([lead]), "\ufffd"  # at the end of input
        for byte in range(256):
            cp = _pointer_code_point(lead, byte)
            yield bytes([lead, byte]), replacement_then(byte) if cp is None else cp


# Every leading byte takes the next byte with it; bytes below 0x41 are never a trailing byte.
TOKENS: Final = TokenDecoder(
    multi=re.compile(rb"([\x81-\xfe][\x00-\xff]?)"),
    singles="".join(chr(b) if b < 0x80 else "\ufffd" for b in range(256)),
    separator=0x81,
    build=_table,
    resync=re.compile(rb"[\x00-\x40]"),
)


def _fixes() -> Fixes:
    return codec_differences("cp949", TOKENS)


FAST: Final = FastDecoder("cp949", TOKENS, _fixes)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"EUC-KR": FAST}
