"""EUC-JP decoder (Encoding Standard 12.1, https://encoding.spec.whatwg.org/#euc-jp-decoder).

Fast path: Python's ``euc_jp``. It lacks most of JIS X 0212 (0x8F sequences) and the NEC/IBM
rows of index jis0208, and maps some sequences differently (0xA1 0xC1 is U+301C there, U+FF5E
here); :func:`~._multibyte.codec_differences` finds every difference on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .._cjk_jis import JIS0208, JIS0212
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


def _index_code_point(leading: int, byte: int, jis0212: bool) -> str | None:
    # "4. If leading and byte are both in the range 0xA1 to 0xFE, inclusive, then set
    # codePoint to the index code point for (leading - 0xA1) x 94 + byte - 0xA1 in index
    # jis0208 if EUC-JP jis0212 is false and in index jis0212 otherwise."
    if not (0xA1 <= leading <= 0xFE and 0xA1 <= byte <= 0xFE):
        return None
    index = JIS0212 if jis0212 else JIS0208
    pointer = (leading - 0xA1) * 94 + byte - 0xA1
    if pointer < len(index) and index[pointer] != NO_CODE_POINT:
        return index[pointer]
    return None


def _handler() -> Handler:
    jis0212 = False
    leading = 0

    def handler(queue: IOQueue, byte: int | None) -> str | int:
        nonlocal jis0212, leading
        # "1. If byte is end-of-queue and EUC-JP leading is not 0x00, then set EUC-JP leading
        # to 0x00 and return error. 2. If byte is end-of-queue and EUC-JP leading is 0x00,
        # then return finished."
        if byte is None:
            if leading:
                leading = 0
                return ERROR
            return FINISHED
        # "3. If EUC-JP leading is 0x8E and byte is in the range 0xA1 to 0xDF, inclusive,
        # then set EUC-JP leading to 0x00 and return a code point whose value is
        # 0xFF61 - 0xA1 + byte."
        if leading == 0x8E and 0xA1 <= byte <= 0xDF:
            leading = 0
            return chr(0xFF61 - 0xA1 + byte)
        # "4. If EUC-JP leading is 0x8F and byte is in the range 0xA1 to 0xFE, inclusive,
        # then set EUC-JP jis0212 to true, set EUC-JP leading to byte, and return continue."
        if leading == 0x8F and 0xA1 <= byte <= 0xFE:
            jis0212 = True
            leading = byte
            return CONTINUE
        # "5. If EUC-JP leading is not 0x00: ..."
        if leading:
            lead, leading = leading, 0
            code_point = _index_code_point(lead, byte, jis0212)
            # "5. Set EUC-JP jis0212 to false."
            jis0212 = False
            # "6. If codePoint is non-null, then return a code point whose value is codePoint."
            if code_point is not None:
                return code_point
            # "7. If byte is an ASCII byte, then restore byte to ioQueue. 8. Return error."
            if byte < 0x80:
                queue.restore(byte)
            return ERROR
        # "6. If byte is an ASCII byte, then return a code point whose value is byte."
        if byte < 0x80:
            return chr(byte)
        # "7. If byte is 0x8E, 0x8F, or in the range 0xA1 to 0xFE, inclusive, then set EUC-JP
        # leading to byte and return continue."
        if byte in (0x8E, 0x8F) or 0xA1 <= byte <= 0xFE:
            leading = byte
            return CONTINUE
        # "8. Return error."
        return ERROR

    return handler


def reference_decode(data: bytes) -> str:
    """The standard's EUC-JP decoder, step by step (slow; for tests)."""
    return run_handler(_handler(), data)


def _pair(lead: int, byte: int) -> str:
    if lead == 0x8E and 0xA1 <= byte <= 0xDF:
        return chr(0xFF61 - 0xA1 + byte)  # step 3
    if lead == 0x8F and 0xA1 <= byte <= 0xFE:
        # Step 4 then end of input or an ASCII byte (restored): one error, two bytes.
        return "\ufffd"
    cp = _index_code_point(lead, byte, False)
    return replacement_then(byte) if cp is None else cp


def _table() -> Iterator[tuple[bytes, str]]:
    for lead in (0x8E, 0x8F, *range(0xA1, 0xFF)):
        yield bytes([lead]), "\ufffd"  # at the end of input
        for byte in range(256):
            yield bytes([lead, byte]), _pair(lead, byte)


def _row(leading: int) -> list[str | None]:
    if leading == 0x8E:  # step 3: 0xA1-0xDF
        return index_row((0xA1, "".join(map(chr, range(0xFF61, 0xFF61 + 0xDF - 0xA1 + 1)))))
    if leading == 0x8F:  # step 4 then end of input or an ASCII byte, as in _pair
        return index_row((0xA1, "\ufffd" * 94))
    # Step 5's pointers (index jis0208) for this leading byte: bytes 0xA1-0xFE.
    base = (leading - 0xA1) * 94
    return index_row((0xA1, JIS0208[base : base + 94]))


def _three_bytes(token: bytes) -> str:
    # 0x8F, then step 4, then step 5 with EUC-JP jis0212 true and a non-ASCII byte.
    assert len(token) == 3 and token[0] == 0x8F, token
    cp = _index_code_point(token[1], token[2], True)
    return "\ufffd" if cp is None else cp


# 0x8F 0xA1-0xFE takes a third byte unless it is ASCII (restored); any other leading byte
# takes the next byte. No ASCII byte is ever a trailing byte: they resynchronise.
TOKENS: Final = TokenDecoder(
    multi=re.compile(rb"(\x8f[\xa1-\xfe][\x80-\xff]|[\x8e\x8f\xa1-\xfe][\x00-\xff]?)"),
    singles="".join(chr(b) if b < 0x80 else "\ufffd" for b in range(256)),
    separator=0xA1,
    build=_table,
    leads=(0x8E, 0x8F, *range(0xA1, 0xFF)),
    row=_row,
    compute=_three_bytes,
    resync=re.compile(rb"[\x00-\x7f]"),
)


# The third round of the codec's fingerprint (0x8F and two more bytes: 65,000 sequences, 3 ms)
# is checked as inputs hold 0x8F and a byte (JIS X 0212, rare in pages).
FAST: Final = FastDecoder("euc_jp", TOKENS, max_length=3, deferred=True)

DECODERS: Final[dict[str, Callable[[bytes], str]]] = {"EUC-JP": FAST}
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {"EUC-JP": FAST.decode_counting}
