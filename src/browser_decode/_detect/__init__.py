"""Stages 5-7: bodies that declare nothing. Valid UTF-8, detection, default.

Browsers never guess UTF-8 for undeclared http content; we do (a documented
deviation, docs/deviations.md): bytes that decode as UTF-8 without a single
error are almost never anything else. Otherwise :func:`detect` chooses among
WHATWG encodings only, in bounded time (docs/detection.md):

1. a sample of at most ~64 KiB (head, middle and tail of a larger body);
2. sound pre-filters: NUL patterns -> UTF-16LE/BE, ISO-2022-JP escape
   sequences in 7-bit text -> ISO-2022-JP, nearly-valid UTF-8 -> UTF-8; a
   candidate whose decoder fails on the sample drops out;
3. the survivors are ranked by the log-likelihood of their decoded non-ASCII
   characters under per-language character frequencies (:mod:`._rank`,
   :mod:`._models`),
   plus small priors and the caller's hints.
"""

from __future__ import annotations

import codecs
import math
import re
from typing import Final

from .._get_an_encoding import ENCODINGS
from .._hint import EncodingHint
from .._result import Confidence, Source
from ._hints import default_encoding_of, tld_encoding
from ._rank import rank_candidates
from ._sample import (
    HEAD,
    MAX_HIGH_BYTES,
    UTF16_HEAD,
    WHOLE,
    _end_before_boundary,
    ascii_with_iso_2022_jp_escapes,
    high_bytes,
    nearly_utf8,
    sample,
    trim,
    utf16_without_bom,
)

__all__ = ["default", "detect", "valid_utf8"]

_HIGH_BYTE: Final = re.compile(rb"[\x80-\xff]")
# valid_utf8 decodes this many bytes from the first byte 0x80-0xFF before the body.
_PROBE: Final = 1024

#: Encodings that decode every byte exactly as another one does.
_SAME_DECODER: Final[dict[str, str]] = {"gb18030": "GBK", "ISO-8859-8-I": "ISO-8859-8"}


def valid_utf8(body: bytes) -> EncodingHint | None:
    """UTF-8 when the undeclared body decodes as UTF-8 without an error.

    Two kinds of valid UTF-8 are left to :func:`detect`: 7-bit ISO-2022-JP
    (its escape sequences are ASCII) and BOM-less UTF-16 of mostly-ASCII text
    (its NULs are ASCII too).

    One strict decode of the body, and a bounded look before it: both checks
    above need an ASCII head (of the sample, of the first 4 KiB), so a byte
    0x80-0xFF there settles them; and a piece of 1 KiB from the first such byte
    that is not UTF-8 rejects a legacy body before any body-sized buffer is made.
    """
    high = _HIGH_BYTE.search(body, 0, UTF16_HEAD)
    # Where the sample may be ASCII, 7-bit ISO-2022-JP is possible.
    sample_may_be_ascii = high is None or not (
        len(body) <= WHOLE or high.start() < _sample_head_end(body)
    )
    if sample_may_be_ascii and b"\x1b" in body and ascii_with_iso_2022_jp_escapes(sample(body)):
        return None
    if high is None:
        # UTF-16 is valid UTF-8 only when all its bytes are ASCII (any byte >= 0x80
        # would need UTF-8 continuation bytes around it), so only such heads defer
        # (utf16_without_bom reads the first UTF16_HEAD bytes only).
        if b"\x00" in body[:UTF16_HEAD] and utf16_without_bom(body) is not None:
            return None
        if body.isascii():
            return _utf8_hint(body.decode("ascii"))
    else:
        start = high.start()
        try:
            # The bytes before are ASCII: a character starts here; an incomplete one at
            # the end of the piece is no error (final=False).
            codecs.utf_8_decode(body[start : start + _PROBE], "strict", False)
        except UnicodeDecodeError:
            return None
    try:
        decoded = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return _utf8_hint(decoded)


def _utf8_hint(decoded: str) -> EncodingHint:
    return EncodingHint(ENCODINGS["UTF-8"], Source.UTF8, Confidence.TENTATIVE, decoded=decoded)


def _sample_head_end(body: bytes) -> int:
    """Where the head of :func:`sample` of a body larger than WHOLE ends."""
    return _end_before_boundary(body, 0, HEAD)


def detect(
    body: bytes, *, url: str | None = None, default_encoding: str | None = None
) -> EncodingHint | None:
    """The most plausible WHATWG encoding of an undeclared body, or ``None``.

    *url* (a URL or a bare top-level domain) and *default_encoding* (a label)
    are optional hints, as a browser's TLD and locale are: they break ties and
    tip close calls, never more. ``None`` when the body gives no evidence.
    """
    utf16 = utf16_without_bom(body)
    if utf16 is not None:
        name, score = utf16
        return _hint(name, score, None)
    data = sample(body)
    if b"\x1b" in data and ascii_with_iso_2022_jp_escapes(data):
        return _hint("ISO-2022-JP", 1.0, None)
    high = high_bytes(data)
    if not high:
        # Only beyond the sample: their byte values alone must decide.
        high = high_bytes(body)[:MAX_HIGH_BYTES]
        if not high:
            return None
    data, high = trim(data, high)
    share = nearly_utf8(data)
    if share is not None:
        return _hint("UTF-8", share, None)

    hinted = {
        _SAME_DECODER.get(e.name, e.name): e
        for e in (tld_encoding(url), default_encoding_of(default_encoding))
        if e is not None
    }
    ranked = rank_candidates(data, high, hinted)
    best, second = ranked[0], ranked[1] if len(ranked) > 1 else None
    margin = math.inf if second is None else best.score - second.score
    score = 1.0 / (1.0 + math.exp(-min(margin, 50.0)))
    name = hinted[best.name].name if best.name in hinted else best.name
    return _hint(name, score, second.name if second is not None and second.name else None)


def _hint(name: str, score: float, runner_up: str | None) -> EncodingHint:
    return EncodingHint(
        ENCODINGS[name],
        Source.DETECTED,
        Confidence.TENTATIVE,
        score=round(min(max(score, 0.0), 1.0), 3),
        runner_up=runner_up,
    )


def default(
    body: bytes, *, url: str | None = None, default_encoding: str | None = None
) -> EncodingHint:
    """When detection found nothing: the caller's *default_encoding* if it is a
    label, else the encoding of *url*'s top-level domain, else windows-1252.

    "Otherwise, return an implementation-defined or user-specified default
    character encoding, with the confidence tentative. ... windows-1252 is
    recommended as a default in predominantly Western demographics"
    -- https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
    """
    encoding = default_encoding_of(default_encoding)
    if encoding is not None:
        return EncodingHint(encoding, Source.DEFAULT, Confidence.TENTATIVE, label=default_encoding)
    encoding = tld_encoding(url)
    if encoding is not None:
        return EncodingHint(encoding, Source.DEFAULT, Confidence.TENTATIVE)
    return EncodingHint(ENCODINGS["windows-1252"], Source.DEFAULT, Confidence.TENTATIVE)
