"""``decode_html``: the encoding sniffing algorithm, then the decoder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ._bom_sniff import bom_sniff
from ._decoders import count_replacements
from ._detect import default, detect, valid_utf8
from ._extract_mime_type import MimeType, extract_mime_type, legacy_extract_an_encoding
from ._head_scan import head_scan
from ._hint import EncodingHint
from ._infra import isomorphic_decode
from ._prescan import prescan_stage
from ._result import DecodeResult, Provenance

Body = bytes | bytearray | memoryview
Stage = Callable[[bytes, "MimeType | None"], "EncodingHint | None"]

# MIME types whose bodies get the HTML prescan. "no Content-Type at all" (and an
# unparsable one) is sniffed as HTML, as Chromium does.
_HTML_ESSENCES: Final = frozenset({"text/html"})


def _is_html(mime: MimeType | None) -> bool:
    return mime is None or mime.essence in _HTML_ESSENCES


#: The stages in the order of the HTML Standard's encoding sniffing algorithm.
STAGES: Final[tuple[Stage, ...]] = (
    lambda body, mime: bom_sniff(body),
    lambda body, mime: legacy_extract_an_encoding(mime),
    lambda body, mime: prescan_stage(body) if _is_html(mime) else None,
    lambda body, mime: head_scan(body) if _is_html(mime) else None,
    lambda body, mime: valid_utf8(body),
    lambda body, mime: detect(body),
)


def _coerce_body(body: object) -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    if isinstance(body, str):
        raise TypeError(
            "decode_html() needs the raw bytes of the response (e.g. response.content), "
            "not already-decoded text (str)"
        )
    raise TypeError(f"decode_html() body must be bytes, not {type(body).__name__}")


def _coerce_content_type(content_type: object) -> str | None:
    if content_type is None or isinstance(content_type, str):
        return content_type
    if isinstance(content_type, (bytes, bytearray)):
        # Header values are bytes; Fetch reads them isomorphically decoded.
        return isomorphic_decode(bytes(content_type))
    raise TypeError(
        f"content_type must be str, bytes or None, not {type(content_type).__name__}"
    )


def decide(body: bytes, content_type: str | None) -> EncodingHint:
    """The first hint of the stages, in precedence order (see :func:`decode_html`)."""
    mime = None if content_type is None else extract_mime_type(content_type)
    for stage in STAGES:
        hint = stage(body, mime)
        if hint is not None:
            return hint
    return default(body)


def decode_html(body: Body, content_type: str | bytes | None = None) -> DecodeResult:
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
    7. windows-1252 (``default``).

    *body* is the raw bytes; *content_type* the header value (``str``,
    ``bytes`` or ``None`` when there was none). Never raises for any bytes or
    header text; raises :class:`TypeError` for arguments of the wrong type.
    """
    data = _coerce_body(body)
    hint = decide(data, _coerce_content_type(content_type))
    payload = data[hint.skip :] if hint.skip else data
    text = hint.decoded if hint.decoded is not None else hint.encoding.decode(payload)
    provenance = Provenance(
        encoding=hint.encoding.name,
        source=hint.source,
        confidence=hint.confidence,
        label=hint.label,
        offset=hint.offset,
        replacements=count_replacements(hint.encoding.name, payload, text),
        score=hint.score,
        runner_up=hint.runner_up,
    )
    return DecodeResult(text, provenance)
