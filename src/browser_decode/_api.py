"""``decode_html``: the encoding sniffing algorithm for the body's type, then the decoder."""

from __future__ import annotations

from collections.abc import Callable

from ._bom_sniff import bom_sniff
from ._decode_body import JSON_STAGES, XML_STAGES, BodyKind, body_kind
from ._decoders import COUNTING, CountingDecoder
from ._decoders._count import utf_counting
from ._detect import default, evidence, utf8_text, valid_utf8
from ._detect._external import BUILTIN, DetectorArg, detection_stage, resolve_detector
from ._extract_mime_type import MimeType, extract_mime_type, legacy_extract_an_encoding
from ._head_scan import head_scan, head_scan_declaration
from ._hint import Body, EncodingHint, Request, Stage
from ._infra import isomorphic_decode
from ._prescan import (
    PRESCAN_LIMIT,
    Declaration,
    charset_meta,
    charset_meta_declaration,
    prescan_rest,
    prescan_stage,
    prescan_unspelled,
)
from ._result import DecodeResult, Provenance, Source, with_replacements
from ._split import PIECES_ABOVE, decode_in_pieces

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

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


def _provenance(hint: EncodingHint, errors: int, detector: str | None = None) -> Provenance:
    """The provenance of *hint*'s text with *errors*; *detector* names the detector when
    the hint does not (a detected hint before ``Detector.detect`` names it)."""
    return Provenance(
        encoding=hint.encoding.name,
        source=hint.source,
        confidence=hint.confidence,
        label=hint.label,
        offset=hint.offset,
        replacements=errors,
        score=hint.score,
        runner_up=hint.runner_up,
        detector=hint.detector if detector is None else detector,
        binary=hint.binary,
    )


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
    if (
        type(body) is bytes
        and detector is None
        and (content_type is None or type(content_type) is str)
        and (url is None or type(url) is str)
        and (default_encoding is None or type(default_encoding) is str)
    ):
        # The common calls, with what every call of the same header value shares computed
        # once: the same stages in the same order as decide() and result_from_hint().
        entry = _BY_CONTENT_TYPE.get(content_type)
        if entry is None:
            entry = _content_type_entry(content_type)
        _, stages, header = entry
        if stages:  # the HTML (and text) stages
            if body.startswith(_BOMS):
                # BOM sniff: "If BOMEncoding is non-null ... with confidence certain"
                decision, skip = _BOM_DECISIONS[body[:2]]
                if len(body) > PIECES_ABOVE:
                    return _result(body[skip:], *decision)
                # (the UTF decoders read a view: the body after its BOM is not copied)
                codec, provenance = _BOM_CODECS[body[:2]], decision[1]
                text, errors = utf_counting(codec, memoryview(body)[skip:])
                if errors:
                    provenance = with_replacements(provenance, errors)
                return _new_result(DecodeResult, (text, provenance))
            if header is not None:
                # "legacy extract an encoding": the Content-Type charset.
                return _result(body, *header)
            if stages == _PRESCAN:
                # The commonest declarations, ``<meta charset=label>`` and ``<meta
                # http-equiv=content-type content="...">`` reached by the prescan's first
                # tokens, in one match over the body (see charset_meta), where the usual
                # spelling of "charset" is there (memchr-fast when it is not).
                lowered = None
                if body.find(b"charset", 0, PRESCAN_LIMIT) >= 0:
                    simple = charset_meta(body, PRESCAN_LIMIT)
                    if simple is not None:
                        meta = _BY_CHARSET_META.get(simple) or _charset_meta_decision(simple)
                        if meta is not None:
                            return _result(body, *meta)
                    found = prescan_rest(body[:PRESCAN_LIMIT])
                else:
                    # (and whether "charset" is missing in every case: the head scan's
                    # shortcut, see head_scan)
                    found, lowered = prescan_unspelled(body)
                if found is not None:
                    return _result(body, *_meta_decision(found))
                # STAGES[3:]: the head scan (its declaration, as the prescan's), valid
                # UTF-8, then detection and the default.
                found = head_scan_declaration(body, lowered is not None, lowered)
                if found is not None:
                    return _result(body, *_meta_decision(found))
                # (valid_utf8's text, and the provenance every valid UTF-8 body shares)
                decoded = utf8_text(body)
                if decoded is not None:
                    return _new_result(DecodeResult, (decoded, _UTF8_PROVENANCE))
                return _detected(body, url, default_encoding)
    return _decode(body, content_type, url, default_encoding, detector, "decode_html")


_BOMS: Final = (b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe")
#: ``DecodeResult(text, provenance)`` without the Python frame of the named tuple's
#: ``__new__`` (it is ``tuple.__new__`` of the two fields).
_new_result: Final[Callable[[type[DecodeResult], tuple[str, Provenance]], DecodeResult]] = (
    tuple.__new__
)
#: A declared encoding's decoder, and the provenance of its text when it has no errors
#: (a frozen value: one object serves every such result).
_Decision = tuple[CountingDecoder, Provenance]
_BOM_DECISIONS: Final[dict[bytes, tuple[_Decision, int]]] = {}
for _bom in _BOMS:
    _hint = bom_sniff(_bom)
    assert _hint is not None
    _BOM_DECISIONS[_bom[:2]] = ((COUNTING[_hint.encoding.name], _provenance(_hint, 0)), _hint.skip)
#: The Python codec of each BOM's encoding (the UTF decoders are those codecs).
_BOM_CODECS: Final = {
    key: {"UTF-8": "utf-8", "UTF-16LE": "utf-16-le", "UTF-16BE": "utf-16-be"}[decision[1].encoding]
    for key, (decision, _) in _BOM_DECISIONS.items()
}
#: What the header value's body type runs: other stages (0: not here), the HTML stages
#: without the prescan (1: text types), with it (2: HTML, or no or a bad header value).
_OTHER, _TEXT, _PRESCAN = 0, 1, 2
#: Content-Type value -> (its MIME type, which stages, the header's decision or None).
_BY_CONTENT_TYPE: Final[dict[str | None, tuple[MimeType | None, int, _Decision | None]]] = {}
_BY_DECLARATION: Final[dict[Declaration, _Decision]] = {}
#: (value as written, offset, content value?) of a ``<meta charset>`` or ``<meta
#: http-equiv>`` (see charset_meta) -> its decision.
_BY_CHARSET_META: Final[dict[tuple[bytes, int, bool], _Decision]] = {}
#: Entries kept (crawls repeat a few header values and declarations endlessly); the
#: caches start over when full. Header values longer than this are not kept.
_CACHE_SIZE: Final = 512


def _content_type_entry(content_type: str | None) -> tuple[MimeType | None, int, _Decision | None]:
    mime = None if content_type is None else extract_mime_type(content_type)
    stages, decision = _OTHER, None
    if stages_for(mime) is STAGES:
        stages = _PRESCAN if _is_html(Request(mime)) else _TEXT
        hint = legacy_extract_an_encoding(mime)
        if hint is not None:
            decision = (COUNTING[hint.encoding.name], _provenance(hint, 0))
    entry = (mime, stages, decision)
    if content_type is None or len(content_type) <= _CACHE_SIZE:
        if len(_BY_CONTENT_TYPE) >= _CACHE_SIZE:
            _BY_CONTENT_TYPE.clear()
        _BY_CONTENT_TYPE[content_type] = entry
    return entry


def _meta_decision(found: Declaration) -> _Decision:
    decision = _BY_DECLARATION.get(found)
    if decision is None:
        hint = found.hint()
        decision = (COUNTING[hint.encoding.name], _provenance(hint, 0))
        if len(_BY_DECLARATION) >= _CACHE_SIZE:
            _BY_DECLARATION.clear()
        _BY_DECLARATION[found] = decision
    return decision


def _charset_meta_decision(simple: tuple[bytes, int, bool]) -> _Decision | None:
    found = charset_meta_declaration(*simple)
    if found is None:
        return None
    decision = _meta_decision(found)
    if len(_BY_CHARSET_META) >= _CACHE_SIZE:
        _BY_CHARSET_META.clear()
    _BY_CHARSET_META[simple] = decision
    return decision


def _detected(body: bytes, url: str | None, default_encoding: str | None) -> DecodeResult:
    """``result_from_hint(body, run_stages(STAGES[5:], body, request))`` for the built-in
    detector: its evidence, then the default; the answer's decoder and provenance built
    at once (no ``Request``, no stage calls, no copy of the hint to name the detector)."""
    hint = evidence(body, url=url, default_encoding=default_encoding).hint
    if hint is None:
        return result_from_hint(body, default(body, url=url, default_encoding=default_encoding))
    if hint.source is not _DETECTED:
        return result_from_hint(body, hint)  # (binary: the default, marked so)
    # (what Detector.detect and result_from_hint make of a detected hint: no skip, no text;
    # evidence's detected hints differ in encoding, score and runner-up only)
    key = (hint.encoding.name, hint.score, hint.runner_up)
    provenance = _BY_DETECTION.get(key)
    if provenance is None:
        provenance = _provenance(hint, 0, BUILTIN.name)
        if hint.score is not None and hint.score > 0.0:  # (not -0.0 for 0.0)
            if len(_BY_DETECTION) >= _CACHE_SIZE:
                _BY_DETECTION.clear()
            _BY_DETECTION[key] = provenance
    return _result(body, COUNTING[hint.encoding.name], provenance)


_DETECTED: Final = Source.DETECTED
#: (encoding, score, runner-up) of a detected answer -> the provenance of its text without
#: errors (a frozen value: one object serves every such result; building one costs
#: microseconds when the CPU caches are cold, a look-up a few hundred ns).
_BY_DETECTION: Final[dict[tuple[str, float | None, str | None], Provenance]] = {}


def _result(body: bytes, decoder: CountingDecoder, provenance: Provenance) -> DecodeResult:
    if len(body) > PIECES_ABOVE:
        text, errors = decode_in_pieces(provenance.encoding, body, COUNTING[provenance.encoding])
    else:
        text, errors = decoder(body)
    if errors:
        provenance = with_replacements(provenance, errors)
    return _new_result(DecodeResult, (text, provenance))


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
        payload = data[hint.skip :] if hint.skip else data
        if len(payload) > PIECES_ABOVE:
            text, errors = decode_in_pieces(name, payload, COUNTING[name])
        else:
            text, errors = COUNTING[name](payload)
    if errors or hint.score is not None:
        return DecodeResult(text, _provenance(hint, errors))
    # One frozen provenance per kind of error-free answer (e.g. every valid UTF-8 body).
    key = (
        hint.encoding,
        hint.source,
        hint.confidence,
        hint.label,
        hint.offset,
        hint.runner_up,
        hint.detector,
        hint.binary,
    )
    provenance = _BY_HINT.get(key)
    if provenance is None:
        provenance = _provenance(hint, 0)
        if len(_BY_HINT) >= _CACHE_SIZE:
            _BY_HINT.clear()
        _BY_HINT[key] = provenance
    return _new_result(DecodeResult, (text, provenance))


_BY_HINT: Final[dict[tuple[object, ...], Provenance]] = {}
#: The provenance of the valid_utf8 stage's answer (the same for every such body).
_utf8_hint = valid_utf8(b"")
assert _utf8_hint is not None
_UTF8_PROVENANCE: Final = _provenance(_utf8_hint, 0)
