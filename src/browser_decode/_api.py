"""``decode_html``: the encoding sniffing algorithm for the body's type, then the decoder."""

from __future__ import annotations

from typing import Final

from ._bom_sniff import bom_sniff
from ._decode_body import JSON_STAGES, XML_STAGES, BodyKind, body_kind
from ._decoders import COUNTING
from ._detect import default, valid_utf8
from ._detect._external import DetectorArg, detection_stage, resolve_detector
from ._extract_mime_type import MimeType, extract_mime_type, legacy_extract_an_encoding
from ._head_scan import head_scan
from ._hint import Body, EncodingHint, Request, Stage
from ._infra import isomorphic_decode
from ._prescan import prescan_stage
from ._result import DecodeResult, Provenance

__all__ = ["Body", "decide", "decode_html", "result_from_hint", "run_stages", "stages_for"]

# MIME types whose bodies get the HTML prescan. "no Content-Type at all" (and an
# unparsable one) is sniffed as HTML, as Chromium does.
_HTML_ESSENCES: Final = frozenset({"text/html"})


def _is_html(request: Request) -> bool:
    return request.mime is None or request.mime.essence in _HTML_ESSENCES


#: The stages in the order of the HTML Standard's encoding sniffing algorithm.
STAGES: Final[tuple[Stage, ...]] = (
    lambda body, request: bom_sniff(body),
    lambda body, request: legacy_extract_an_encoding(request.mime),
    lambda body, request: prescan_stage(body) if _is_html(request) else None,
    lambda body, request: head_scan(body) if _is_html(request) else None,
    lambda body, request: valid_utf8(body),
    detection_stage,
)


def stages_for(mime: MimeType | None) -> tuple[Stage, ...]:
    """The stages of the body's type (docs/body-types.md): HTML and text share
    :data:`STAGES` (the prescan runs for HTML only); XML and JSON have their own."""
    kind = body_kind(mime)
    if kind is BodyKind.XML:
        return XML_STAGES
    if kind is BodyKind.JSON:
        return JSON_STAGES
    return STAGES


def _coerce_body(body: object, caller: str = "decode_html") -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):
        raise TypeError(
            f"{caller}() needs the raw bytes of the response (e.g. response.content), "
            "not already-decoded text (str)"
        )
    raise TypeError(f"{caller}() body must be bytes, not {type(body).__name__}")


def _coerce_content_type(content_type: object) -> str | None:
    if content_type is None or isinstance(content_type, str):
        return content_type
    if isinstance(content_type, (bytes, bytearray)):
        # Header values are bytes; Fetch reads them isomorphically decoded.
        return isomorphic_decode(bytes(content_type))
    raise TypeError(f"content_type must be str, bytes or None, not {type(content_type).__name__}")


def _coerce_optional_str(value: object, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"{what} must be str or None, not {type(value).__name__}")


def decide(
    body: bytes,
    content_type: str | None,
    *,
    url: str | None = None,
    default_encoding: str | None = None,
    detector: DetectorArg = None,
) -> EncodingHint:
    """The first hint of the stages of the body's type, in precedence order."""
    mime = None if content_type is None else extract_mime_type(content_type)
    request = Request(mime, url, default_encoding, resolve_detector(detector))
    return run_stages(stages_for(mime), body, request)


def run_stages(stages: tuple[Stage, ...], body: bytes, request: Request) -> EncodingHint:
    """The hint of the first stage that gives one, else the default."""
    for stage in stages:
        hint = stage(body, request)
        if hint is not None:
            return hint
    return default(body, url=request.url, default_encoding=request.default_encoding)


def decode_html(
    body: Body,
    content_type: str | bytes | None = None,
    *,
    url: str | None = None,
    default_encoding: str | None = None,
    detector: DetectorArg = None,
) -> DecodeResult:
    """Decode an HTML response body as a browser would, and say how.

    Precedence (the HTML Standard's encoding sniffing algorithm, then our
    documented fallbacks); the first rule that gives an encoding wins:

    1. a byte order mark, UTF-8 / UTF-16LE / UTF-16BE (``bom``, certain);
    2. the ``charset`` of the Content-Type header (``header``, certain);
    3. the prescan of the first 1024 bytes: ``<meta charset>``,
       ``<meta http-equiv=content-type content=...>``, ``<?xml encoding=...>``
       (``meta``, tentative); for ``text/html`` or no/unparsable Content-Type;
    4. a ``<meta>`` later in the head, as Chromium honours it (``meta``);
    5. bytes that are valid UTF-8 (``utf-8``, tentative; browsers would not);
    6. statistical detection among WHATWG encodings (``detected``);
    7. *default_encoding* if given, else windows-1252 (``default``).

    *body* is the raw bytes; *content_type* the header value (``str``,
    ``bytes`` or ``None`` when there was none). *url* (the page's URL or just
    its top-level domain) and *default_encoding* (a label) are optional hints
    for undeclared pages only, like a browser's TLD and locale defaults; a
    declaration always beats them. *detector* replaces step 6: ``None`` or
    ``"builtin"`` (the default), ``"charset-normalizer"``, or a callable
    ``(bytes) -> (label, score) | None`` (docs/detectors.md).

    The body's type decides which rules apply (docs/body-types.md): when the
    Content-Type names XML (``*/xml``, ``*+xml``: XHTML, RSS, Atom,
    sitemaps), JSON or another text type, its rules are those of
    :func:`decode_body` (e.g. the XML declaration for XHTML); ``text/html``,
    no Content-Type or an unparsable one get the rules above.

    Never raises for any bytes or header text; raises :class:`TypeError` for
    arguments of the wrong type (and :class:`ValueError` for an unknown
    detector name).
    """
    return _decode(body, content_type, url, default_encoding, detector, "decode_html")


def _decode(
    body: object,
    content_type: object,
    url: object,
    default_encoding: object,
    detector: DetectorArg,
    caller: str,
) -> DecodeResult:
    data = _coerce_body(body, caller)
    hint = decide(
        data,
        _coerce_content_type(content_type),
        url=_coerce_optional_str(url, "url"),
        default_encoding=_coerce_optional_str(default_encoding, "default_encoding"),
        detector=resolve_detector(detector),
    )
    return result_from_hint(data, hint)


def result_from_hint(data: bytes, hint: EncodingHint) -> DecodeResult:
    """Decode *data* as the winning *hint* says, and record how."""
    name = hint.encoding.name
    if hint.decoded is not None:
        # A stage decoded the body strictly to decide (valid UTF-8): no error.
        text, errors = hint.decoded, 0
    else:
        # The decoder counts its errors as it goes: no second pass over the text.
        text, errors = COUNTING[name](data[hint.skip :] if hint.skip else data)
    provenance = Provenance(
        encoding=name,
        source=hint.source,
        confidence=hint.confidence,
        label=hint.label,
        offset=hint.offset,
        replacements=errors,
        score=hint.score,
        runner_up=hint.runner_up,
        detector=hint.detector,
        binary=hint.binary,
    )
    return DecodeResult(text, provenance)
