"""The values ``decode_html`` returns: the text and how its encoding was chosen."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple


class Source(str, enum.Enum):
    """Which rule decided the encoding, in the order the rules are tried."""

    #: A byte order mark at the start of the body (Encoding Standard "BOM sniff").
    BOM = "bom"
    #: The ``charset`` parameter of the HTTP ``Content-Type`` header.
    HEADER = "header"
    #: A ``<meta>`` or XML declaration found by the HTML prescan (or the bounded
    #: head scan beyond 1024 bytes that Chromium also performs); for XML bodies
    #: (``decode_body``), the XML declaration.
    META = "meta"
    #: Nothing declared an encoding and the bytes are valid UTF-8 (a deliberate
    #: deviation: browsers would show windows-1252 mojibake).
    UTF8 = "utf-8"
    #: Nothing declared an encoding and statistical detection chose it.
    DETECTED = "detected"
    #: Nothing declared or detected an encoding: windows-1252, as browsers do
    #: (or the caller's *default_encoding*); for XML and JSON bodies
    #: (``decode_body``), UTF-8, the format's own default.
    DEFAULT = "default"

    def __str__(self) -> str:
        return self.value


class Confidence(str, enum.Enum):
    """The HTML Standard's *confidence* of the encoding decision.

    "The confidence is either *tentative*, *certain*, or *irrelevant*."
    -- https://html.spec.whatwg.org/multipage/parsing.html#concept-encoding-confidence
    A BOM or a Content-Type charset is *certain*; anything found in or guessed
    from the document itself is *tentative* (a later ``<meta>`` could still
    make a browser change its mind).
    """

    CERTAIN = "certain"
    TENTATIVE = "tentative"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Provenance:
    """How the encoding of a body was decided.

    Attributes:
        encoding: canonical WHATWG name, spelled as in the Encoding Standard
            ("UTF-8", "Shift_JIS", "windows-1252", "replacement", ...).
        source: which rule decided (see :class:`Source`).
        confidence: *certain* or *tentative*, as the HTML Standard uses them.
        label: the label as written in the header or document (``None`` for a
            BOM or when nothing was declared).
        offset: byte offset of the declaration in the body (the ``<`` of the
            ``<meta>`` or ``<?xml``); ``None`` when it is not in the body.
        replacements: how many U+FFFD the decoding introduced for malformed
            bytes (U+FFFD that the bytes themselves encode are not counted).
        score: for ``detected``, the detector's confidence in ``[0, 1]``.
        runner_up: for ``detected``, the second-best WHATWG encoding, if any.
        binary: the body is not text in any encoding (random bytes, an
            executable, an image, compressed data): nothing was detected, the
            text is the default encoding's reading of it (``score`` 0).
    """

    encoding: str
    source: Source
    confidence: Confidence
    label: str | None = None
    offset: int | None = None
    replacements: int = 0
    score: float | None = None
    runner_up: str | None = None
    binary: bool = False

    def __str__(self) -> str:
        return f"{self.encoding} ({self.source.value})"


class DecodeResult(NamedTuple):
    """Decoded text together with its :class:`Provenance`.

    A named tuple, so it unpacks as ``text, provenance``; the provenance fields
    are also readable on the result itself (``result.encoding``, ...).
    """

    text: str
    provenance: Provenance

    @property
    def encoding(self) -> str:
        return self.provenance.encoding

    @property
    def source(self) -> Source:
        return self.provenance.source

    @property
    def confidence(self) -> Confidence:
        return self.provenance.confidence

    @property
    def label(self) -> str | None:
        return self.provenance.label

    @property
    def offset(self) -> int | None:
        return self.provenance.offset

    @property
    def replacements(self) -> int:
        return self.provenance.replacements

    def __repr__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"DecodeResult(text={text!r}, provenance={self.provenance!r})"
