"""Stage 1: the Encoding Standard's *BOM sniff*.

https://encoding.spec.whatwg.org/#bom-sniff
"""

from __future__ import annotations

from ._get_an_encoding import ENCODINGS
from ._hint import EncodingHint
from ._result import Confidence, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# "1. Let BOM be the result of peeking 3 bytes from ioQueue, converted to a byte
# sequence.
# 2. For each of the rows in the table below, starting with the first one and
# going down, if BOM starts with the bytes given in the first column, then
# return the encoding given in the cell in the second column of that row.
# Otherwise, return null.
#   0xEF 0xBB 0xBF  UTF-8
#   0xFE 0xFF       UTF-16BE
#   0xFF 0xFE       UTF-16LE"
# (No UTF-32: "0xFF 0xFE 0x00 0x00" is the UTF-16LE BOM followed by U+0000.)
_BOMS: Final = (
    (b"\xef\xbb\xbf", "UTF-8"),
    (b"\xfe\xff", "UTF-16BE"),
    (b"\xff\xfe", "UTF-16LE"),
)


def bom_sniff(body: bytes) -> EncodingHint | None:
    """The encoding a byte order mark at the start of *body* names, or ``None``.

    The hint's ``skip`` is the length of the BOM: "decode" removes it before
    running the decoder. A BOM beats a Content-Type charset and any ``<meta>``.
    """
    for bom, name in _BOMS:
        if body.startswith(bom):
            return EncodingHint(ENCODINGS[name], Source.BOM, Confidence.CERTAIN, skip=len(bom))
    return None
