"""The value every stage of the pipeline returns.

Strategy: each stage takes the body (and the parsed Content-Type) and returns
an :class:`EncodingHint` or ``None``. A stage never decodes the body and never
raises on hostile bytes; ``decode_html`` tries the stages in spec order and the
first hint wins.
"""

from __future__ import annotations

from collections.abc import Callable

from ._get_an_encoding import Encoding
from ._result import Confidence, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    from ._detect._external import Detector
    from ._extract_mime_type import MimeType
else:
    from ._frozen import NamedTuple


#: The bodies the entry points accept.
Body = bytes | bytearray | memoryview


class EncodingHint(NamedTuple):
    """A stage's decision (a named tuple: cheap to build, immutable; ``_replace`` for a
    changed copy)."""

    encoding: Encoding
    source: Source
    confidence: Confidence
    label: str | None = None
    offset: int | None = None
    #: bytes to skip before decoding (the BOM)
    skip: int = 0
    score: float | None = None
    runner_up: str | None = None
    #: detection found no text in any encoding (random bytes, binaries, images)
    binary: bool = False
    #: the decoded text, when the stage had to decode to decide (saves a pass)
    decoded: str | None = None
    #: for ``detected``: which detector decided ("builtin", "charset-normalizer", ...)
    detector: str | None = None


class Request(NamedTuple):
    """What the stages may look at besides the body."""

    mime: MimeType | None
    url: str | None = None
    default_encoding: str | None = None
    #: the detection step (None: the built-in detector)
    detector: Detector | None = None


#: A stage: the body and the request in, a hint or ``None`` out.
Stage = Callable[[bytes, Request], EncodingHint | None]
