"""Decode scraped web pages exactly as a browser does, and say how.

    >>> from browser_decode import decode_html
    >>> text, provenance = decode_html(b"<meta charset=shift_jis>\\x82\\xa0", "text/html")
    >>> text[-1], str(provenance)
    ('あ', 'Shift_JIS (meta)')

Decoding (each returns a DecodeResult: ``text, provenance``):
    decode_html(body, content_type=None, *, url=None, default_encoding=None, detector=None)
        The browser's order: BOM, Content-Type charset, <meta> prescan, then (undeclared
        pages) valid UTF-8, detection among WHATWG encodings, default. XML, JSON and text
        Content-Types get their own rules (decode_body is the same function).
    decode_response(response) / await adecode_response(response)
        requests, httpx, aiohttp, Scrapy, urllib: raw bytes + real headers; urllib's and
        Scrapy's Content-Encoding undone (ContentCodingError when it cannot be).
    StreamDecoder(content_type).feed(chunk) ... .close()
        The same text chunk by chunk, with bounded memory.
    fix_requests_encoding(response), httpx_default_encoding
        Make requests' / httpx's own .text (nearly) right.

The result:
    Provenance: encoding, source (Source), confidence (Confidence), label, offset,
    replacements, score, runner_up, detector; to_dict() / from_dict() store it as JSON.
    get_encoding(label) -> Encoding: the WHATWG label table; Encoding.decode(bytes).

Text that was already decoded wrongly:
    repair(text) -> RepairResult; normalize_for_matching(text) for comparisons.

Detection: detector=None (built-in), "charset-normalizer", or a callable
(bytes) -> (label, score) | None. Command line: ``browser-decode --help``.
Documentation: README.md and docs/ (pipeline, provenance, clients, body types).
"""

from __future__ import annotations

from ._adapters import (
    adecode_response,
    decode_response,
    fix_requests_encoding,
    httpx_default_encoding,
)
from ._api import decode_html
from ._content_coding import ContentCodingError
from ._decode_body import decode_body
from ._get_an_encoding import Encoding, get_encoding
from ._result import Confidence, DecodeResult, Provenance, Source
from ._streaming import StreamDecoder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._text.normalize import normalize_for_matching
    from ._text.repair import RepairResult, RepairStatus, RepairStep, repair
    from ._text.utf8_document import to_utf8_document

__all__ = [
    "Confidence",
    "ContentCodingError",
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

#: Public names whose modules are imported when a name is first used (PEP 562): repair's
#: expressions and tables, the UTF-8 document rewrite and the matching normalization cost
#: a sixth of ``import browser_decode`` that most programs never use. Their modules give
#: their names this package as ``__module__`` themselves, as the loop below does here.
_ON_FIRST_USE = {
    "normalize_for_matching": "._text.normalize",
    "RepairResult": "._text.repair",
    "RepairStatus": "._text.repair",
    "RepairStep": "._text.repair",
    "repair": "._text.repair",
    "to_utf8_document": "._text.utf8_document",
}

for _name in __all__:
    if _name not in _ON_FIRST_USE:
        globals()[_name].__module__ = __name__
del _name


def __getattr__(name: str) -> object:
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return [*__all__, "__version__"]
