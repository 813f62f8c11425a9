"""The Encoding Standard's decoders, in replacement error mode.

Strategy: every decoder is a function ``bytes -> str`` that never raises and
gives exactly the output of the standard's decoder for that encoding (the
"decode" hook is https://encoding.spec.whatwg.org/#decode, minus its BOM
sniff, which :mod:`browser_decode._bom_sniff` does). Python's C codecs do the
bulk work where they provably agree with the standard; generated tables and
spec-following Python code handle everything else.

One module per decoder family, as in the standard's sections; the multi-byte ones share
:mod:`._multibyte` (exact token decoders, and the C-codec fast path with its corrections).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import (
    _big5,
    _euc_jp,
    _euc_kr,
    _gb18030,
    _iso_2022_jp,
    _shift_jis,
    _single_byte,
    _utf,
)

Decoder = Callable[[bytes], str]
CountingDecoder = Callable[[bytes], tuple[str, int]]

_FAMILIES: Final = (_utf, _single_byte, _gb18030, _big5, _euc_jp, _iso_2022_jp, _shift_jis, _euc_kr)
DECODERS: Final[dict[str, Decoder]] = {k: v for f in _FAMILIES for k, v in f.DECODERS.items()}
#: The same decoders, returning the text and the number of errors the standard's decoder
#: reports ("If result is error: ... replacement: Push U+FFFD (�) to output"): every U+FFFD
#: of the text but those the bytes encode. Each decoder knows where it replaced something,
#: so text without errors is never scanned for U+FFFD (see :mod:`._count`).
COUNTING: Final[dict[str, CountingDecoder]] = {
    k: v for f in _FAMILIES for k, v in f.COUNTING.items()
}


def decode(name: str, data: bytes) -> str:
    """Decode *data* with the decoder of the encoding called *name*."""
    return DECODERS[name](data)


def decode_counting(name: str, data: bytes) -> tuple[str, int]:
    """Decode *data* with the decoder of *name*; also return its number of errors."""
    return COUNTING[name](data)
