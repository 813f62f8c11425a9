"""The Encoding Standard's *get an encoding*, and the :class:`Encoding` it returns.

https://encoding.spec.whatwg.org/#concept-encoding-get
"""

from __future__ import annotations

from ._infra import ASCII_WHITESPACE, ascii_lowercase, isomorphic_decode
from ._labels import LABELS, NAMES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["Encoding", "get_encoding"]


class Encoding:
    """One of the 40 encodings of the Encoding Standard.

    There is exactly one instance per encoding, so ``is`` and ``==`` agree.
    Instances pickle by name.
    """

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("Encoding objects are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (_by_name, (self.name,))

    def __repr__(self) -> str:
        return f"<Encoding {self.name}>"

    def decode(self, data: bytes | bytearray | memoryview) -> str:
        """Run this encoding's decoder over *data* in replacement error mode.

        No BOM is sniffed or removed: this is the standard's decoder itself,
        byte for byte what a browser produces once it has chosen the encoding.
        Malformed bytes become U+FFFD; it never raises for any bytes.
        """
        from ._decoders import decode

        return decode(self.name, bytes(data))


ENCODINGS: Final[dict[str, Encoding]] = {name: Encoding(name) for name in NAMES}


def _by_name(name: str) -> Encoding:
    return ENCODINGS[name]


def get_encoding(label: str | bytes) -> Encoding | None:
    """Resolve *label* to an :class:`Encoding`, or ``None`` if it is not a label.

    The Encoding Standard's *get an encoding*
    (https://encoding.spec.whatwg.org/#concept-encoding-get):

    "1. Remove any leading and trailing ASCII whitespace from label.
    2. If label is an ASCII case-insensitive match for any of the labels listed
    in the table below, then return the corresponding encoding; otherwise
    return failure."

    Only the 228 labels of the standard resolve. Python codec names that are
    not labels (``utf-7``, ``cp932``, ``latin-1``, ``base64``, ...) are unknown.
    ``bytes`` are isomorphic-decoded first.

    >>> get_encoding(" Latin1 ").name
    'windows-1252'
    >>> get_encoding("utf-7") is None
    True
    """
    if isinstance(label, (bytes, bytearray)):
        label = isomorphic_decode(bytes(label))
    elif not isinstance(label, str):
        raise TypeError(f"an encoding label is a str, not {type(label).__name__}")
    name = LABELS.get(ascii_lowercase(label.strip(ASCII_WHITESPACE)))
    return None if name is None else ENCODINGS[name]
