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

import importlib
from collections.abc import Callable

from . import _single_byte, _utf

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Generic, TypeVar

    _D = TypeVar("_D")

    class _DictOf(dict[str, _D], Generic[_D]):
        """(``dict`` at run time: no Generic class, and so no typing)"""

else:
    _D = object
    _DictOf = dict

Decoder = Callable[[bytes], str]
CountingDecoder = Callable[[bytes], tuple[str, int]]

# The multi-byte families are imported on first use (with their indexes and codecs), so
# that ``import browser_decode`` does not pay for them.
_FAMILY_OF: Final[dict[str, str]] = {
    "gb18030": "_gb18030",
    "GBK": "_gb18030",
    "Big5": "_big5",
    "EUC-JP": "_euc_jp",
    "ISO-2022-JP": "_iso_2022_jp",
    "Shift_JIS": "_shift_jis",
    "EUC-KR": "_euc_kr",
}


class _Decoders(_DictOf[_D]):
    """Encoding name -> decoder; a multi-byte family's module is imported on first use."""

    def __init__(self, attribute: str) -> None:
        super().__init__()
        self._attribute = attribute
        for family in (_utf, _single_byte):
            self.update(getattr(family, attribute))

    def __missing__(self, name: str) -> _D:
        if name not in _FAMILY_OF:
            raise KeyError(name)
        module = importlib.import_module(f"{__name__}.{_FAMILY_OF[name]}")
        self.update(getattr(module, self._attribute))
        return self[name]


DECODERS: Final[dict[str, Decoder]] = _Decoders("DECODERS")
#: The same decoders, returning the text and the number of errors the standard's decoder
#: reports ("If result is error: ... replacement: Push U+FFFD (�) to output"): every U+FFFD
#: of the text but those the bytes encode. Each decoder knows where it replaced something,
#: so text without errors is never scanned for U+FFFD (see :mod:`._count`).
COUNTING: Final[dict[str, CountingDecoder]] = _Decoders("COUNTING")


def decode(name: str, data: bytes) -> str:
    """Decode *data* with the decoder of the encoding called *name*."""
    return DECODERS[name](data)


def decode_counting(name: str, data: bytes) -> tuple[str, int]:
    """Decode *data* with the decoder of *name*; also return its number of errors."""
    return COUNTING[name](data)
