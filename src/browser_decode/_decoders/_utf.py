"""UTF-8, UTF-16LE and UTF-16BE decoders (Encoding Standard sections 8 and 14.2).

CPython's UTF-8 and UTF-16 decoders in ``"replace"`` mode emit one U+FFFD per
"maximal subpart" of an ill-formed sequence and one per unpaired surrogate or
dangling final byte, which is what the standard's decoders do ("U+FFFD
substitution of maximal subparts", https://encoding.spec.whatwg.org/#utf-8-decoder).
tests/test_decoders_conformance.py checks this against reference decoders
written from the standard's algorithms (exhaustively over boundary bytes and
code units, and on seeded random strings), the WPT cases and Chromium's
recorded answers; tests/test_browser_chromium.py against a live Chromium.
A leading surrogate followed by a dangling byte at the end is one U+FFFD in
both ("If byte is end-of-queue and either UTF-16 leading byte or UTF-16
leading surrogate is non-null, ... return error").
"""

from __future__ import annotations

from collections.abc import Callable

from ._count import utf_counting

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


def _utf_8(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _utf_16le(data: bytes) -> str:
    return data.decode("utf-16-le", "replace")


def _utf_16be(data: bytes) -> str:
    return data.decode("utf-16-be", "replace")


DECODERS: Final[dict[str, Callable[[bytes], str]]] = {
    "UTF-8": _utf_8,
    "UTF-16LE": _utf_16le,
    "UTF-16BE": _utf_16be,
}


def _counting(codec: str) -> Callable[[bytes], tuple[str, int]]:
    def decode_counting(data: bytes) -> tuple[str, int]:
        return utf_counting(codec, data)

    return decode_counting


#: The same decoders, returning the text and the number of errors (see :mod:`._count`).
COUNTING: Final[dict[str, Callable[[bytes], tuple[str, int]]]] = {
    "UTF-8": _counting("utf-8"),
    "UTF-16LE": _counting("utf-16-le"),
    "UTF-16BE": _counting("utf-16-be"),
}
