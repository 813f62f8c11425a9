"""UTF-8, UTF-16LE and UTF-16BE decoders (Encoding Standard sections 8 and 14.2).

CPython's UTF-8 and UTF-16 decoders in ``"replace"`` mode emit one U+FFFD per
"maximal subpart" of an ill-formed sequence and one per unpaired surrogate or
dangling final byte, which is what the standard's decoders do ("U+FFFD
substitution of maximal subparts", https://encoding.spec.whatwg.org/#utf-8-decoder).
The test-suite checks this against the standard's cases and Chromium.
"""

from __future__ import annotations

from collections.abc import Callable
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
