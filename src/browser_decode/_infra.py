"""Primitives of the WHATWG Infra Standard that the other stages share.

https://infra.spec.whatwg.org/
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


# "ASCII whitespace is U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, or U+0020 SPACE."
# -- https://infra.spec.whatwg.org/#ascii-whitespace
ASCII_WHITESPACE: Final = "\t\n\x0c\r "
ASCII_WHITESPACE_BYTES: Final = b"\t\n\x0c\r "

_UPPER: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER_TABLE: Final = str.maketrans(_UPPER, _UPPER.lower())


def ascii_lowercase(text: str) -> str:
    """Replace only ASCII upper alphas by their lowercase counterparts.

    "To ASCII lowercase a string, replace all ASCII upper alphas in the string
    with their corresponding code point in ASCII lower alpha."
    -- https://infra.spec.whatwg.org/#ascii-lowercase

    ``str.lower()`` is wrong here: it maps U+0130 and U+212A (KELVIN SIGN) to
    ASCII letters, which would let "LATİN1" match a label.

    >>> ascii_lowercase("LATİN1")
    'latİn1'
    """
    return text.translate(_LOWER_TABLE)


def isomorphic_decode(data: bytes) -> str:
    """Each byte becomes the code point of the same value.

    "To isomorphic decode a byte sequence input, return a string whose code
    point length is equal to input's length and whose code points have the same
    values as the values of input's bytes, in the same order."
    -- https://infra.spec.whatwg.org/#isomorphic-decode
    """
    return data.decode("latin-1")
