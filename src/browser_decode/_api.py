"""``decode_html``: the encoding sniffing algorithm, then the decoder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Request:
    """What the stages may look at besides the body."""

    mime: MimeType | None
    url: str | None = None
    default_encoding: str | None = None


Stage = Callable[[bytes, Request], "EncodingHint | None"]

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
    lambda body, request: detect(body, url=request.url, default_encoding=request.default_encoding),
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
) -> EncodingHint:
    """The first hint of the stages, in precedence order (see :func:`decode_html`)."""
    mime = None if content_type is None else extract_mime_type(content_type)
    return run_stages(STAGES, body, Request(mime, url, default_encoding))


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
    declaration always beats them. Never raises for any bytes or header text;
    raises :class:`TypeError` for arguments of the wrong type.
    """
    data = _coerce_body(body)
    hint = decide(
        data,
        _coerce_content_type(content_type),
        url=_coerce_optional_str(url, "url"),
        default_encoding=_coerce_optional_str(default_encoding, "default_encoding"),
    )
    return result_from_hint(data, hint)


def result_from_hint(data: bytes, hint: EncodingHint) -> DecodeResult:
    """Decode *data* as the winning *hint* says, and record how."""
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
        binary=hint.binary,
    )
    return DecodeResult(text, provenance)
