"""Stages 5-7: bodies that declare nothing. Valid UTF-8, detection, default.

Browsers never guess UTF-8 for undeclared http content; we do (a documented
deviation, docs/deviations.md): bytes that decode as UTF-8 without a single
error are almost never anything else. Otherwise :func:`detect` chooses among
WHATWG encodings only, in bounded time (docs/detection.md):

1. a sample of at most ~64 KiB (head, middle and tail of a larger body);
2. sound pre-filters: NUL patterns -> UTF-16LE/BE, ISO-2022-JP escape
   sequences in 7-bit text -> ISO-2022-JP, controls no text holds -> not text
   (``binary``), nearly-valid UTF-8 -> UTF-8; a candidate whose decoder fails
   on the sample drops out;
3. the survivors are ranked by the log-likelihood of their decoded non-ASCII
   characters under per-language character frequencies (:mod:`._rank`,
   :mod:`._models`), plus small priors, windows-1252's or the caller's hints'
   lead; the score is the calibrated probability of being right
   (:mod:`._calibration`).
"""

from __future__ import annotations

import codecs
import math
import re
from collections.abc import Callable

from .._decoders import decode
from .._get_an_encoding import ENCODINGS
from .._hint import EncodingHint
from .._prescan import ATOMIC
from .._result import Confidence, Source
from .._split import decode_utf8_strict
from ._calibration import calibrated, calibrated_prefilter, calibrated_utf16
from ._hints import default_encoding_of, tld_encoding
from ._sample import (
    CONTROLS_OR_ESC,
    HEAD,
    UTF16_HEAD,
    WHOLE,
    _end_before_boundary,
    ascii_with_iso_2022_jp_escapes,
    high_bytes,
    holds_any,
    in_sample,
    looks_binary,
    may_look_binary,
    nearly_utf8,
    non_ascii_piece,
    sample,
    sample_ranges,
    trim_prefix,
    trim_sample,
    utf16_text,
    utf16_without_bom,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NamedTuple

    from . import _models as _ranking_models
    from . import _rank as _ranking
    from ._rank import _Ranked
else:
    from .._frozen import NamedTuple

    # The ranking and its models: imported by the first body that detection ranks
    # (_import_ranking), not at import (2-3 ms of ``import browser_decode`` that declared
    # and UTF-8 pages never use); module globals, so a call pays a check, not an import
    # (1.4 µs each). (Not named as the submodules: ``from . import _rank`` would take a
    # package attribute of that name, None, for the module.)
    _ranking = _ranking_models = None


def _import_ranking() -> None:
    global _ranking, _ranking_models
    from . import _models as _ranking_models
    from . import _rank as _ranking


__all__ = ["default", "detect", "utf8_text", "valid_utf8"]

_HIGH_BYTE: Final = re.compile(rb"[\x80-\xff]")
#: ASCII, then one valid UTF-8 sequence (Unicode's table 3-7 of well-formed byte
#: sequences, which Python's strict UTF-8 decoder follows: no overlong form, surrogate
#: or code point above U+10FFFF).
_FIRST_UTF8: Final = re.compile(
    ATOMIC + rb"[\x00-\x7f]*)(?:[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]"
    rb"|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]"
    rb"|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2})"
)
#: Bodies larger than this are probed before valid_utf8's strict decode of them.
_PROBE_ABOVE: Final = 128 * 1024

#: Encodings that decode every byte exactly as another one does.
_SAME_DECODER: Final[dict[str, str]] = {"gb18030": "GBK", "ISO-8859-8-I": "ISO-8859-8"}


def valid_utf8(body: bytes) -> EncodingHint | None:
    """UTF-8 when the undeclared body decodes as UTF-8 without an error.

    Two kinds of valid UTF-8 are left to :func:`detect`: 7-bit ISO-2022-JP
    (its escape sequences are ASCII) and BOM-less UTF-16 of mostly-ASCII text
    (its NULs are ASCII too).
    """
    decoded = utf8_text(body)
    return None if decoded is None else _utf8_hint(decoded)


def utf8_text(body: bytes) -> str | None:
    """The text of :func:`valid_utf8`, or ``None`` when it gives no hint.

    One strict decode of the body, after a bounded look: both kinds of valid
    UTF-8 left to detection need an ASCII head (of the sample, of the first
    4 KiB), so a byte 0x80-0xFF in the first 4 KiB that lies in the sample's
    head settles them at once (the common page). A legacy body is rejected
    without a decode where its first byte 0x80-0xFF (in the first 4 KiB) starts
    no valid UTF-8 sequence (one match: the first bytes 0x80-0xFF of legacy text
    are almost never valid UTF-8); else by the strict decode itself, which stops
    at its first invalid byte, a large one by a decode of its first 4 KiB first.
    """
    head_ascii = body.isascii() if len(body) <= UTF16_HEAD else body[:UTF16_HEAD].isascii()
    if not head_ascii and _FIRST_UTF8.match(body) is None:
        # The first byte 0x80-0xFF (in the first 4 KiB) starts no valid UTF-8 sequence:
        # the strict decode would fail there (legacy text, almost always), so it is
        # not tried (an exception alone costs tens of us when the caches are cold).
        return None
    if head_ascii or (len(body) > WHOLE and _sample_head_end(body) <= UTF16_HEAD):
        # The sample may be ASCII, or its head end before the first byte 0x80-0xFF:
        # where that byte is decides (rare: the plain look).
        # (an ASCII head holds none: no regex walk over its 4 KiB, ~15 us)
        high = None if head_ascii else _HIGH_BYTE.search(body, 0, UTF16_HEAD)
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
            if body.find(b"\x00", 0, UTF16_HEAD) >= 0 and utf16_without_bom(body) is not None:
                return None
            if body.isascii():
                return body.decode("ascii")
    try:
        if len(body) > _PROBE_ABOVE:
            # A body-sized buffer that large is mapped afresh for each decode (glibc's
            # mmap threshold is 128 KiB): a legacy body is rejected by its first 4 KiB
            # first. (An incomplete character at their end is no error: final=False.)
            codecs.utf_8_decode(body[:UTF16_HEAD], "strict", False)
        return decode_utf8_strict(body)  # (in pieces when large: peak memory)
    except UnicodeDecodeError:
        return None


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
    tip close calls, never more. ``None`` when the body gives no evidence. A
    body that is not text in any encoding gets the default encoding with
    ``binary`` set and score 0.
    """
    return evidence(body, url=url, default_encoding=default_encoding).hint


class Evidence(NamedTuple):
    """What :func:`detect` decided, with the inputs of its score."""

    hint: EncodingHint | None
    #: the winner's lead over the best candidate that gives another text (nats);
    #: ``None`` when a pre-filter decided
    margin: float | None = None
    #: how many bytes 0x80-0xFF were scored
    high: int = 0
    #: how many distinct byte values the winner and that candidate read as different
    #: characters (every one against a multi-byte candidate or a stand-in)
    distinct: int = 0


_new_evidence: Final[Callable[[type[Evidence], tuple[object, ...]], Evidence]] = tuple.__new__


def evidence(
    body: bytes, *, url: str | None = None, default_encoding: str | None = None
) -> Evidence:
    """:func:`detect`, with the margin and amount of evidence behind its score."""
    # (utf16_without_bom needs a NUL in the first UTF16_HEAD bytes: text has none)
    utf16 = utf16_without_bom(body) if body.find(b"\x00", 0, UTF16_HEAD) >= 0 else None
    if utf16 is not None:
        return Evidence(_hint(utf16[0], calibrated_utf16(body, *utf16), None))
    if len(body) <= WHOLE:
        # (the sample is the body)
        data = body
        if b"\x1b" in data and ascii_with_iso_2022_jp_escapes(data):
            return Evidence(_hint("ISO-2022-JP", calibrated_prefilter(1.0), None))
        if looks_binary(data):
            order = utf16_text(data)
            if order is not None:
                return Evidence(_hint(order, calibrated_prefilter(1.0), None))
            return Evidence(_binary(body, url, default_encoding))
        if data.isascii():
            return Evidence(None)
        size = len(data)
        trimmed = trim_sample(data)

        def whole_sample() -> bytes:
            return body

    else:
        found = _large_sample(body, url, default_encoding)
        if isinstance(found, Evidence):
            return found
        trimmed, size, whole_sample = found
    data, high = trimmed
    valid = nearly_utf8(data, high)
    if valid is not None:
        return Evidence(_hint("UTF-8", calibrated_prefilter(valid), None))

    if _ranking is None:
        _import_ranking()
    hinted = (
        {
            _SAME_DECODER.get(e.name, e.name): e
            for e in (tld_encoding(url), default_encoding_of(default_encoding))
            if e is not None
        }
        if url or default_encoding is not None
        else {}  # (neither names an encoding)
    )
    bonuses = (
        dict.fromkeys(hinted, _ranking.HINT_BONUS)
        if hinted
        else {"windows-1252": _ranking.DEFAULT_BONUS}
    )
    ranked = _ranking.rank_candidates(data, high, bonuses)
    every = _tie_beyond(ranked, data, high, whole_sample) if len(data) < size else None
    if every is not None:
        # The two best read the trimmed sample alike but not the rest of it:
        # all of it decides between them, and the margin between them is nil.
        winner, other = ranked[0], ranked[1]
        if _ranking.prefer(winner.name, other.name, every):
            winner, other = other, winner
        ranked = [winner._replace(score=other.score), other, *ranked[2:]]
        high = every
    best = ranked[0]
    second = ranked[1] if len(ranked) > 1 else None
    name = hinted[best.name].name if best.name in hinted else best.name
    margin, distinct = _margin(ranked, high)
    hint = _hint(
        name,
        calibrated(margin, distinct),
        second.name if second is not None and second.name else None,
    )
    # (``Evidence(...)`` without the Python frame of the named tuple's ``__new__``)
    return _new_evidence(Evidence, (hint, margin, len(high), distinct))


def _large_sample(
    body: bytes, url: str | None, default_encoding: str | None
) -> Evidence | tuple[tuple[bytes, bytes], int, Callable[[], bytes]]:
    """The pre-filters on the sample of a body larger than WHOLE, then the sample
    trimmed, its size, and the whole sample on demand; or what a pre-filter decided.

    The sample is joined only when needed: dense text is trimmed within the body's
    head, and escapes and controls are looked for in the sample's pieces in place.
    """
    ranges = sample_ranges(body)
    (_, head_end), (middle_start, middle_end), (tail_start, tail_end) = ranges
    # (sample_size(ranges): the pieces and the two newlines between them)
    size = head_end + middle_end - middle_start + tail_end - tail_start + 2
    joined: list[bytes] = []

    def whole_sample() -> bytes:
        if not joined:
            joined.append(sample(body))
        return joined[0]

    # (text holds neither: one look for both, then each)
    if holds_any(body, ranges, CONTROLS_OR_ESC):
        if in_sample(body, ranges, b"\x1b") and ascii_with_iso_2022_jp_escapes(whole_sample()):
            return Evidence(_hint("ISO-2022-JP", calibrated_prefilter(1.0), None))
        if may_look_binary(body, ranges) and looks_binary(whole_sample()):
            order = utf16_text(whole_sample())
            if order is not None:
                return Evidence(_hint(order, calibrated_prefilter(1.0), None))
            return Evidence(_binary(body, url, default_encoding))
    # (a sample trimmed within its head holds bytes 0x80-0xFF: it is not ASCII)
    trimmed = trim_prefix(body, size, head_end)
    if trimmed is not None:
        return trimmed, size, whole_sample
    data = whole_sample()
    if data.isascii():
        # Only beyond the sample: the text around the first such byte decides.
        data = non_ascii_piece(body)
        if data.isascii():
            return Evidence(None)
        if looks_binary(data):
            return Evidence(_binary(body, url, default_encoding))
        joined[:] = [data]
        size = len(data)
    # Only the bytes 0x80-0xFF that are scored are read (high_bytes(whole) on demand).
    return trim_sample(data), size, whole_sample


def _tie_beyond(
    ranked: list[_Ranked], trimmed: bytes, high: bytes, whole_of: Callable[[], bytes]
) -> bytes | None:
    """The bytes 0x80-0xFF of the sample *whole_of()* when the two best candidates
    decode *high* (those of its prefix *trimmed*) alike but not them; else ``None``."""
    if _ranking_models is None:
        _import_ranking()
    if len(ranked) < 2:
        return None
    a, b = ranked[0].name, ranked[1].name
    single_byte = _ranking_models.SINGLE_BYTE
    if a not in single_byte or b not in single_byte:
        return None
    alike = _ALIKE.get((a, b)) or _decoded_alike(a, b)
    if high.translate(None, alike):  # they read a byte of *high* differently
        return None
    # *high* is that of a prefix of *whole*: only a byte after it that the two
    # decode differently (ASCII never) makes them differ on all of it.
    whole = whole_of()
    if not whole[len(trimmed) :].translate(None, alike):
        return None
    return high_bytes(whole)


#: :func:`_decoded_alike` of the pairs seen (a plain dict: read in place, no cached call).
_ALIKE: Final[dict[tuple[str, str], bytes]] = {}


def _decoded_alike(a: str, b: str) -> bytes:
    """The bytes that single-byte encodings *a* and *b* decode to the same character
    (never none: ASCII), kept in :data:`_ALIKE`."""
    found = _ALIKE.get((a, b))
    if found is None:
        every = bytes(range(256))
        found = bytes(
            x for x, y, z in zip(every, decode(a, every), decode(b, every), strict=True) if y == z
        )
        _ALIKE[(a, b)] = found
    return found


def _margin(ranked: list[_Ranked], high: bytes) -> tuple[float, int]:
    """The lead of the best candidate over the best one that gives another text, and
    how many distinct byte values of *high* (the bytes 0x80-0xFF) the two read as
    different characters: the evidence the lead rests on.

    Candidates that decode the sample's bytes 0x80-0xFF exactly as the winner
    does give the same text: their scores say nothing about being right. A
    stand-in (the upper bound of candidates not scored exactly) always counts.
    Against a multi-byte candidate or a stand-in, every distinct byte is evidence.
    """
    if _ranking_models is None:
        _import_ranking()
    single_byte = _ranking_models.SINGLE_BYTE
    best = ranked[0]
    for other in ranked[1:]:
        if other.exact and other.name in single_byte and best.name in single_byte:
            alike = _ALIKE.get((best.name, other.name)) or _decoded_alike(best.name, other.name)
            differing = high.translate(None, alike)
            if not differing:
                continue
            return best.score - other.score, _distinct(differing)
        return best.score - other.score, _distinct(high)
    return math.inf, _distinct(high)


_EVERY_BYTE: Final = bytes(range(256))


def _distinct(data: bytes) -> int:
    """``len(set(data))``: the byte values that deleting those of *data* from every
    byte value removes (one translate in C, no set of ints)."""
    return 256 - len(_EVERY_BYTE.translate(None, data))


def _binary(body: bytes, url: str | None, default_encoding: str | None) -> EncodingHint:
    fallback = default(body, url=url, default_encoding=default_encoding)
    return EncodingHint(
        fallback.encoding,
        Source.DEFAULT,
        Confidence.TENTATIVE,
        label=fallback.label,
        score=0.0,
        binary=True,
    )


def _hint(name: str, score: float, runner_up: str | None) -> EncodingHint:
    score = round(min(max(score, 0.0), 1.0), 3)
    key = (name, score, runner_up)
    hint = _HINTS.get(key)
    if hint is None:
        hint = EncodingHint(
            ENCODINGS[name], _DETECTED, _TENTATIVE, score=score, runner_up=runner_up
        )
        if score > 0.0:  # (not -0.0 for 0.0, nor NaN)
            if len(_HINTS) >= _CACHE_SIZE:
                _HINTS.clear()
            _HINTS[key] = hint
    return hint


#: (encoding, score, runner-up) -> the frozen hint of that answer (built once: building
#: one costs microseconds when the CPU caches are cold, a look-up a few hundred ns).
_HINTS: Final[dict[tuple[str, float, str | None], EncodingHint]] = {}
_CACHE_SIZE: Final = 512
_DETECTED: Final = Source.DETECTED
_TENTATIVE: Final = Confidence.TENTATIVE


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
