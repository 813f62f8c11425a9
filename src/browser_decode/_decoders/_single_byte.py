"""Single-byte decoders, x-user-defined and replacement (Encoding Standard 9, 14.1, 14.3).

"1. If byte is end-of-queue, then return finished.
2. If byte is an ASCII byte, return a code point whose value is byte.
3. Let code point be the index code point for byte - 0x80 in index single-byte.
4. If code point is null, then return error.
5. Return a code point whose value is code point."
-- https://encoding.spec.whatwg.org/#single-byte-decoder

``codecs.charmap_decode`` with a 256-character table is exactly this loop in
C (it is what Python's own cp125x codecs run): a table entry of U+FFFE is
"undefined", which the ``"replace"`` handler turns into one U+FFFD per byte.
The tables come from the generated indexes, so the windows-125x "holes" that
Python's codecs reject (0x81 -> U+0081 in windows-1252) decode as browsers do.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from .._indexes import SINGLE_BYTE
from ._count import charmap_counting

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_ASCII: Final = "".join(map(chr, range(0x80)))
# codecs.charmap_decode: "undefined mapping" (the index's null).
_UNDEFINED: Final = "\ufffe"


def _charmap_decoder(table: str) -> Callable[[bytes], str]:
    assert len(table) == 256

    def decode(data: bytes) -> str:
        return codecs.charmap_decode(data, "replace", table)[0]

    return decode


def _charmap_counting(table: str) -> Callable[[bytes], tuple[str, int]]:
    """The decoder of *table*, returning the text and its number of errors (U+FFFE in
    the table: "4. If code point is null, then return error.")."""
    if _UNDEFINED not in table:

        def decode_total(data: bytes) -> tuple[str, int]:
            return codecs.charmap_decode(data, "strict", table)[0], 0

        return decode_total

    def decode_counting(data: bytes) -> tuple[str, int]:
        return charmap_counting(data, table)

    return decode_counting


def _index_name(encoding: str) -> str:
    # "ISO-8859-8 and ISO-8859-8-I are distinct encoding names, because
    # ISO-8859-8 has influence on the layout direction. ... they share the same
    # index" -- https://encoding.spec.whatwg.org/#legacy-single-byte-encodings
    return "iso-8859-8" if encoding == "ISO-8859-8-I" else encoding.lower()


_NAMES: Final = (
    "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
    "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10", "ISO-8859-13",
    "ISO-8859-14", "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh",
    "windows-874", "windows-1250", "windows-1251", "windows-1252", "windows-1253",
    "windows-1254", "windows-1255", "windows-1256", "windows-1257", "windows-1258",
    "x-mac-cyrillic",
)  # fmt: skip

# "2. If byte is an ASCII byte, return a code point whose value is byte.
# 3. Return a code point whose value is 0xF780 + byte - 0x80."
# -- https://encoding.spec.whatwg.org/#x-user-defined-decoder
_X_USER_DEFINED: Final = _ASCII + "".join(chr(0xF780 + b) for b in range(0x80))


def _replacement(data: bytes) -> str:
    # "1. If byte is end-of-queue, then return finished.
    # 2. If replacement error returned is false, set replacement error
    # returned to true and return error. 3. Return finished."
    # -- https://encoding.spec.whatwg.org/#replacement-decoder
    return "\ufffd" if data else ""


def _replacement_counting(data: bytes) -> tuple[str, int]:
    return ("\ufffd", 1) if data else ("", 0)


DECODERS: Final[dict[str, Callable[[bytes], str]]] = {
    name: _charmap_decoder(_ASCII + SINGLE_BYTE[_index_name(name)]) for name in _NAMES
}
DECODERS["x-user-defined"] = _charmap_decoder(_X_USER_DEFINED)
DECODERS["replacement"] = _replacement

#: The same decoders, returning the text and the number of errors.
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {
    name: _charmap_counting(_ASCII + SINGLE_BYTE[_index_name(name)]) for name in _NAMES
}
COUNTING["x-user-defined"] = _charmap_counting(_X_USER_DEFINED)
COUNTING["replacement"] = _replacement_counting
