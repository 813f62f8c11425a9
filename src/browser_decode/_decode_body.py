"""``decode_body``: any response body, decoded by the rules of its type.

Strategy: the Content-Type picks a *body kind* (HTML, XML, JSON or text) and
each kind has its own tuple of stages, in precedence order, built from the same
stage functions as ``decode_html`` (BOM sniff, header charset, "get an XML
encoding", valid UTF-8, detection, default). The first hint wins and is decoded
by the same code as ``decode_html``, so the provenance is the same object.

The kinds are MIME Sniffing's type groups
(https://mimesniff.spec.whatwg.org/#mime-type-groups):

"An HTML MIME type is a MIME type whose essence is "text/html"."
"An XML MIME type is any MIME type whose subtype ends in "+xml" or whose
essence is "text/xml" or "application/xml". [RFC7303]"
"A JSON MIME type is any MIME type whose subtype ends in "+json" or whose
essence is "application/json" or "text/json"."

We also take any ``*/xml`` subtype (``image/xml`` ...) as XML. Everything else
that parses (``text/plain``, ``text/css``, ``application/javascript``, ...) is
*text*. No Content-Type, or one that does not parse, is sniffed as HTML, as in
``decode_html``.
"""

from __future__ import annotations

import enum

from ._bom_sniff import bom_sniff
from ._detect import valid_utf8
from ._detect._external import DetectorArg, detection_stage
from ._extract_mime_type import MimeType, legacy_extract_an_encoding
from ._get_an_encoding import ENCODINGS
from ._hint import Body, EncodingHint, Stage
from ._prescan import get_an_xml_encoding
from ._result import Confidence, DecodeResult, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

__all__ = ["BodyKind", "body_kind", "decode_body"]


class BodyKind(str, enum.Enum):
    """Which decoding rules a Content-Type selects."""

    HTML = "html"
    XML = "xml"
    JSON = "json"
    TEXT = "text"

    def __str__(self) -> str:
        return self.value


def body_kind(mime: MimeType | None) -> BodyKind:
    """The rules for a parsed Content-Type (``None``: absent or unparsable -> HTML)."""
    if mime is None or mime.essence == "text/html":
        return BodyKind.HTML
    if mime.subtype == "xml" or mime.subtype.endswith("+xml"):
        return BodyKind.XML
    if mime.essence in ("application/json", "text/json") or mime.subtype.endswith("+json"):
        return BodyKind.JSON
    return BodyKind.TEXT


# --- XML --------------------------------------------------------------------

# XML 1.0, Appendix F.1 (autodetection without a BOM): "00 3C 00 3F: UTF-16BE
# ... 3C 00 3F 00: UTF-16LE ... (the encoding declaration must be read to
# determine which code page is in use)". The HTML prescan uses the same
# patterns, with one more byte: "0x3C, 0x0, 0x3F, 0x0, 0x78, 0x0" (`<?x`).
# UTF-32 and EBCDIC patterns of Appendix F are not WHATWG encodings.
_UTF16_XML_DECLARATIONS: Final = (
    (b"<\x00?\x00x\x00", "UTF-16LE"),
    (b"\x00<\x00?\x00x", "UTF-16BE"),
)
# An XML declaration is short; look for its end no further than this.
_XML_DECLARATION_LIMIT: Final = 1024


def _utf16_xml_declaration(body: bytes) -> EncodingHint | None:
    """A BOM-less UTF-16 XML declaration: the byte pattern decides the encoding.

    The ``encoding`` pseudo-attribute (read from the UTF-16 text) becomes the
    label when present; only the byte order can follow from the bytes, so a
    label naming anything but UTF-16 does not change the decision.
    """
    for pattern, name in _UTF16_XML_DECLARATIONS:
        if body.startswith(pattern):
            encoding = ENCODINGS[name]
            head = encoding.decode(body[: _XML_DECLARATION_LIMIT * 2])
            end = head.find(">")
            label = None
            if end >= 0:
                found = get_an_xml_encoding(head[: end + 1].encode("ascii", "replace"))
                label = None if found is None else found.label
            return EncodingHint(encoding, Source.META, Confidence.TENTATIVE, label=label, offset=0)
    return None


def xml_declaration(body: bytes) -> EncodingHint | None:
    """The ``encoding`` of an XML declaration at the very start of *body*.

    XML 1.0, 4.3.3: "In the absence of information provided by an external
    transport protocol (e.g. HTTP or MIME), it is a fatal error for an entity
    including an encoding declaration to be presented to the XML processor in
    an encoding other than that named in the declaration". The declaration
    is read with the HTML Standard's "get an XML encoding" (WHATWG labels;
    "If the encoding is UTF-16BE/LE, then change it to UTF-8", as Chromium's
    XML decoding also does), limited to the declaration itself (up to its
    first ``>``), since an XML declaration cannot contain ``>``.
    """
    hint = _utf16_xml_declaration(body)
    if hint is not None:
        return hint
    if not body.startswith(b"<?xml"):
        return None
    end = body.find(b">", 0, _XML_DECLARATION_LIMIT)
    if end < 0:
        return None
    found = get_an_xml_encoding(body[: end + 1])
    if found is None:
        return None
    return EncodingHint(
        found.encoding, Source.META, Confidence.TENTATIVE, label=found.label, offset=0
    )


def _valid_utf8_as_default(body: bytes, confidence: Confidence) -> EncodingHint | None:
    """UTF-8 as the type's own default, when the bytes are valid UTF-8."""
    hint = valid_utf8(body)
    if hint is None:
        return None
    return hint._replace(source=Source.DEFAULT, confidence=confidence)


#: XML: BOM, the charset parameter (RFC 7303: authoritative over the document,
#: after a BOM), the XML declaration, UTF-8 (XML's default). Bytes that are
#: not valid UTF-8 and declare nothing usable would be a fatal error for an
#: XML parser (a browser shows U+FFFD); we detect instead, as for undeclared
#: HTML (docs/body-types.md).
XML_STAGES: Final[tuple[Stage, ...]] = (
    lambda body, request: bom_sniff(body),
    lambda body, request: legacy_extract_an_encoding(request.mime),
    lambda body, request: xml_declaration(body),
    lambda body, request: _valid_utf8_as_default(body, Confidence.TENTATIVE),
    detection_stage,
)

# --- JSON -------------------------------------------------------------------

_UTF8: Final = ENCODINGS["UTF-8"]

#: JSON, RFC 8259, 8.1: "JSON text exchanged between systems that are not part
#: of a closed ecosystem MUST be encoded using UTF-8" ... "implementations that
#: parse JSON texts MAY ignore the presence of a byte order mark rather than
#: treating it as an error." RFC 8259, 11: "No "charset" parameter is defined
#: for this registration. Adding one really has no effect on compliant
#: recipients." So: a BOM (any of the three WHATWG BOMs), else UTF-8. The
#: charset parameter is consulted only for a body that is *not* valid UTF-8
#: (legacy APIs that send e.g. GBK with ``charset=gbk``); it never changes the
#: result for a conforming JSON text. RFC 4627's BOM-less UTF-16/32 detection
#: from the NUL pattern of the first two characters is obsolete (RFC 8259
#: dropped it) and is not done.
JSON_STAGES: Final[tuple[Stage, ...]] = (
    lambda body, request: bom_sniff(body),
    lambda body, request: _valid_utf8_as_default(body, Confidence.CERTAIN),
    lambda body, request: legacy_extract_an_encoding(request.mime),
    lambda body, request: EncodingHint(_UTF8, Source.DEFAULT, Confidence.CERTAIN),
)


def decode_body(
    body: Body,
    content_type: str | bytes | None = None,
    *,
    url: str | None = None,
    default_encoding: str | None = None,
    detector: DetectorArg = None,
) -> DecodeResult:
    """Decode any response body by the rules of its Content-Type, and say how.

    The same function as :func:`decode_html` (which follows the body's type
    too), under the name that says so.

    The first rule that gives an encoding wins:

    * **HTML** (``text/html``; no or an unparsable Content-Type):
      exactly :func:`decode_html`.
    * **XML** (``*/xml``, ``*+xml``: RSS, Atom, sitemaps, SVG, XHTML):
      BOM (``bom``); the ``charset`` parameter (``header``); the XML
      declaration ``<?xml ... encoding="..."?>`` at byte 0, or the BOM-less
      UTF-16 pattern ``<\\0?\\0x\\0`` (``meta``); bytes that are valid UTF-8,
      XML's default (``default``); otherwise detection (``detected``), then
      *default_encoding* or windows-1252 (``default``).
    * **JSON** (``application/json``, ``text/json``, ``*+json``): BOM
      (``bom``); UTF-8 (``default``, certain). The ``charset`` parameter
      counts only for a body that is not valid UTF-8 (``header``).
    * **text** (``text/plain`` and every other parsable type): BOM, the
      ``charset`` parameter, then as undeclared HTML: valid UTF-8, detection,
      default (no ``<meta>`` prescan).

    Labels are WHATWG labels (:func:`get_encoding`); unknown ones are
    ignored. Arguments as for :func:`decode_html`. Never raises for any bytes
    or header text; raises :class:`TypeError` for arguments of the wrong type.

    >>> decode_body(b'<?xml version="1.0" encoding="koi8-r"?><a>\\xf0</a>',
    ...             "application/rss+xml").provenance
    Provenance(encoding='KOI8-R', source=<Source.META: 'meta'>, confidence=<Confidence.TENTATIVE: 'tentative'>, label='koi8-r', offset=0, replacements=0, score=None, runner_up=None, detector=None)
    """  # noqa: E501
    from ._api import _decode  # _api imports this module's rules

    return _decode(body, content_type, url, default_encoding, detector, "decode_body")
