"""Decode scraped web pages exactly as a browser does, and say how.

>>> from browser_decode import decode_html
>>> text, provenance = decode_html(b"<meta charset=shift_jis>\\x82\\xa0", "text/html")
>>> text[-1], str(provenance)
('あ', 'Shift_JIS (meta)')
"""

from __future__ import annotations

from ._adapters import (
    adecode_response,
    decode_response,
    fix_requests_encoding,
    httpx_default_encoding,
)
from ._api import decode_html
from ._decode_body import decode_body
from ._get_an_encoding import Encoding, get_encoding
from ._result import Confidence, DecodeResult, Provenance, Source
from ._streaming import StreamDecoder
from ._text.normalize import normalize_for_matching
from ._text.repair import RepairResult, RepairStatus, RepairStep, repair
from ._text.utf8_document import to_utf8_document

__all__ = [
    "Confidence",
    "DecodeResult",
    "Encoding",
    "Provenance",
    "RepairResult",
    "RepairStatus",
    "RepairStep",
    "Source",
    "StreamDecoder",
    "adecode_response",
    "decode_body",
    "decode_html",
    "decode_response",
    "fix_requests_encoding",
    "get_encoding",
    "httpx_default_encoding",
    "normalize_for_matching",
    "repair",
    "to_utf8_document",
]
__version__ = "0.1.0"

for _name in __all__:
    globals()[_name].__module__ = __name__
del _name


def __dir__() -> list[str]:
    return [*__all__, "__version__"]
