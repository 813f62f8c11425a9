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

_FAMILIES: Final[tuple[dict[str, Decoder], ...]] = (
    _utf.DECODERS,
    _single_byte.DECODERS,
    _gb18030.DECODERS,
    _big5.DECODERS,
    _euc_jp.DECODERS,
    _iso_2022_jp.DECODERS,
    _shift_jis.DECODERS,
    _euc_kr.DECODERS,
)
DECODERS: Final[dict[str, Decoder]] = {k: v for family in _FAMILIES for k, v in family.items()}

# Byte sequences that legitimately encode U+FFFD, so that the count of
# replacement characters the decoder *introduced* can be told apart.
_ENCODED_FFFD: Final[dict[str, bytes]] = {
    "UTF-8": b"\xef\xbf\xbd",
    "gb18030": b"\x84\x31\xa4\x37",
    "GBK": b"\x84\x31\xa4\x37",
}


def decode(name: str, data: bytes) -> str:
    """Decode *data* with the decoder of the encoding called *name*."""
    return DECODERS[name](data)


def utf16_encoded_replacements(name: str, data: bytes) -> int:
    """How many UTF-16 code units of *data* (from an even offset) are U+FFFD."""
    # "surrogatepass" keeps lone surrogates from shifting the count.
    codec = "utf-16-le" if name == "UTF-16LE" else "utf-16-be"
    return data[: len(data) // 2 * 2].decode(codec, "surrogatepass").count("\ufffd")


def count_replacements(name: str, data: bytes, text: str) -> int:
    """How many U+FFFD in *text* stand for malformed bytes, not encoded U+FFFD."""
    found = text.count("\ufffd")
    if not found:
        return 0
    if name in _ENCODED_FFFD:
        found -= data.count(_ENCODED_FFFD[name])
    elif name in ("UTF-16LE", "UTF-16BE"):
        found -= utf16_encoded_replacements(name, data)
    return max(found, 0)
