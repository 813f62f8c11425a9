"""Multi-byte decoders: provisional, Python's nearest C codecs.

To be replaced by byte-exact decoders (one module per family).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final


def _codec(name: str) -> Callable[[bytes], str]:
    def decode(data: bytes) -> str:
        return data.decode(name, "replace")

    return decode


DECODERS: Final[dict[str, Callable[[bytes], str]]] = {
    "GBK": _codec("gb18030"),
    "gb18030": _codec("gb18030"),
    "Big5": _codec("big5hkscs"),
    "EUC-JP": _codec("euc_jp"),
    "ISO-2022-JP": _codec("iso2022_jp"),
    "Shift_JIS": _codec("cp932"),
    "EUC-KR": _codec("cp949"),
}
