"""``repair``: undo a wrong single-byte decode of a whole response, exactly.

Strategy: text that an ISO-8859-1 or windows-1252 decoder produced holds one
code point per byte, and both decoders are one-to-one, so the bytes come back
exactly by running the decoder's table backwards (requests' ``response.text``
for a ``text/*`` response without a charset is ``body.decode("iso-8859-1")``).
The recovered bytes are then decoded by :func:`decode_body`'s rules and the
result is *verified* before it replaces the text:

1. no U+FFFD introduced (the recovered bytes are well-formed in the encoding
   the rules chose), and the text changes;
2. the decision rests on evidence: a BOM, a declaration (header, ``<meta>``,
   XML declaration), bytes that are valid UTF-8 (random Latin-1 text almost
   never is), the type's default; or, for statistical detection, one of: the
   detector is confident (``score`` at least :data:`TRUSTED_SCORE`, i.e. the
   runner-up is far behind: a text that really is Latin-1 makes it choose
   windows-1252 and read the same text) or its two best readings give the same
   text and neither is windows-1252, the input bears a mark only a wrong
   decode leaves (C1 controls; U+0000 as a quarter of the text; a Latin-1
   symbol between two letters; ISO-2022-JP escapes), or the new reading is
   clearly less garbled than the input (charset-normalizer's "mess" ratio
   drops by at least :data:`MESS_MARGIN`). When the caller gave a
   *default_encoding*, an unverified detection yields to it instead, if the
   bytes read cleanly in it and the detector does not rank windows-1252 first
   or second (the text as it stands would then be a plausible reading).

Anything else comes back unchanged with the reason. Each repair carries a
replayable plan (:meth:`RepairResult.replay`, :func:`apply_plan`), after
ftfy's ``ExplainedText``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final, NamedTuple

from .._api import result_from_hint
from .._decode_body import decode_body
from .._get_an_encoding import ENCODINGS, get_encoding
from .._hint import EncodingHint
from .._result import Confidence, DecodeResult, Provenance, PublicEnumType, Source

__all__ = [
    "MESS_MARGIN",
    "TRUSTED_SCORE",
    "RepairResult",
    "RepairStatus",
    "RepairStep",
    "apply_plan",
    "repair",
]

#: A detection-based repair must lower the mess ratio by at least this much ...
MESS_MARGIN: Final = 0.1
#: ... unless the detector's score is at least this (a margin of about 3 nats).
TRUSTED_SCORE: Final = 0.95
# Non-ASCII characters needed before two agreeing readings count as evidence.
_MIN_EVIDENCE: Final = 16


class RepairStatus(str, enum.Enum, metaclass=PublicEnumType):
    """What :func:`repair` concluded."""

    #: The text was a wrong decode; it now holds the properly decoded bytes.
    REPAIRED = "repaired"
    #: The text reads the same under the rules (ASCII, or already right).
    UNNEEDED = "unneeded"
    #: The text is not the output of a reversible wrong decode, or the
    #: recovered bytes do not verify; nothing was changed.
    IMPOSSIBLE = "impossible"

    def __str__(self) -> str:
        return self.value


class RepairStep(NamedTuple):
    """One step of a repair plan.

    ``("encode", "iso-8859-1" | "windows-1252")``: run that WHATWG/ISO decoder
    backwards, giving the original bytes; ``("skip", "<n>")``: drop *n* leading
    bytes (a BOM); ``("decode", "<WHATWG encoding name>")``: decode the bytes.
    """

    action: str
    parameter: str


@dataclass(frozen=True, slots=True)
class RepairResult:
    """The outcome of :func:`repair`.

    Attributes:
        text: the repaired text, or the input unchanged.
        changed: whether *text* differs from the input (status ``repaired``).
        status: ``repaired``, ``unneeded`` or ``impossible``.
        wrong_decoding: the decode that garbled the text (``"ISO-8859-1"`` or
            ``"windows-1252"``) when its inverse applies, else ``None``.
        provenance: how the recovered bytes were decoded (``None`` when no bytes
            could be recovered).
        reason: one sentence for humans.
        plan: the steps that turn the input into *text* (empty if unchanged).
    """

    text: str
    changed: bool
    status: RepairStatus
    wrong_decoding: str | None
    provenance: Provenance | None
    reason: str
    plan: tuple[RepairStep, ...] = ()

    def replay(self, text: str) -> str:
        """Apply :attr:`plan` to *text* (``result.replay(input) == result.text``)."""
        return apply_plan(text, self.plan)


# ISO-8859-1 (Python's "latin-1", requests' default): byte b <-> U+00bb.
_NOT_LATIN1: Final = re.compile("[^\x00-\xff]")
# windows-1252 as the Encoding Standard decodes it: bytes 0x80-0x9F give the
# index code points ("€", "‚", ...), and the five bytes the index leaves out
# (0x81, 0x8D, 0x8F, 0x90, 0x9D) give U+0081 ... U+009D, so it is one-to-one
# too. Python's cp1252 agrees on the other 251 bytes and fails on those five.
_WINDOWS_1252_TEXT: Final = ENCODINGS["windows-1252"].decode(bytes(range(256)))
# str.translate table: each windows-1252 code point -> the code point of its byte.
_WINDOWS_1252_TO_BYTES: Final = {
    ord(char): byte for byte, char in enumerate(_WINDOWS_1252_TEXT) if ord(char) != byte
}
_NOT_WINDOWS_1252: Final = re.compile(
    "[^" + "".join(re.escape(char) for char in sorted(set(_WINDOWS_1252_TEXT))) + "]"
)
# Sources whose decision is evidence enough (see the module docstring).
_DECLARED: Final = frozenset({Source.BOM, Source.HEADER, Source.META, Source.UTF8, Source.DEFAULT})


def _encode(text: str, wrong_decoding: str) -> bytes:
    """Run the *wrong_decoding* decoder backwards (the text must be in its range)."""
    if wrong_decoding == "iso-8859-1":
        return text.encode("latin-1")
    if wrong_decoding == "windows-1252":
        return text.translate(_WINDOWS_1252_TO_BYTES).encode("latin-1")
    raise ValueError(f"cannot undo a {wrong_decoding!r} decode")


def _recover(text: str) -> tuple[str, bytes] | None:
    """The wrong decoder whose inverse applies, and the bytes; ``None`` if neither."""
    if _NOT_LATIN1.search(text) is None:
        return "iso-8859-1", text.encode("latin-1")
    if _NOT_WINDOWS_1252.search(text) is None:
        return "windows-1252", _encode(text, "windows-1252")
    return None


def apply_plan(text: str, plan: tuple[RepairStep, ...] | list[RepairStep]) -> str:
    """Replay a repair *plan* on *text* (``apply_plan(input, result.plan) == result.text``)."""
    data = b""
    for action, parameter in plan:
        if action == "encode":
            data = _encode(text, parameter)
        elif action == "skip":
            data = data[int(parameter) :]
        elif action == "decode":
            encoding = get_encoding(parameter)
            if encoding is None:
                raise ValueError(f"unknown encoding in plan: {parameter!r}")
            text = encoding.decode(data)
        else:
            raise ValueError(f"unknown repair action: {action!r}")
    return text


# C1 controls (U+0080-U+009F) never occur in real text: an ISO-8859-1 decode
# of bytes 0x80-0x9F made them.
# A non-letter from U+00A1-U+00BF or U+00D7/U+00F7
# between two letters ("Pøíli¹ ¾lu»ouèký") is a Central European letter that a
# Latin-1 reading turned into a symbol. ISO-2022-JP escape sequences (ESC $ B,
# ESC ( B, ...) in text are 7-bit Japanese read as ASCII.
_WRONG_DECODE: Final = re.compile(
    "[\x80-\x9f]"
    "|(?<=[^\\W\\d_])[\xa1-\xa9\xab-\xb4\xb6-\xb9\xbb-\xbf\xd7\xf7](?=[^\\W\\d_])"
    "|\x1b(?:\\$[@B]|\\([BIJ])"
)


def _utf16_read_bytewise(text: str) -> bool:
    """Whether U+0000 makes up a quarter of *text* (at least 8 characters): UTF-16
    read one byte at a time (every ASCII character brings a NUL). A stray NUL in
    real text does not count."""
    return len(text) >= 8 and text.count("\x00") * 4 >= len(text)


def _wrong_decode_signature(text: str) -> bool:
    """Whether *text* shows a mark that only a wrong decode leaves (see above)."""
    return _WRONG_DECODE.search(text) is not None or _utf16_read_bytewise(text)


def _mess(text: str) -> float:
    from charset_normalizer.md import mess_ratio

    return float(mess_ratio(text, 1.0))


def _decode_as_hinted(
    data: bytes, text: str, label: str | None, detected: Provenance
) -> DecodeResult | None:
    """The recovered bytes in the caller's *default_encoding*, if that reads cleanly.

    Unverified detection yields to the caller's word (they know where the
    stored text came from), unless the detector itself ranks windows-1252 first
    or second for the bytes: then the text as it stands is a plausible reading
    and stays.
    """
    encoding = None if label is None else get_encoding(label)
    if encoding is None or "windows-1252" in (detected.encoding, detected.runner_up):
        return None
    hint = EncodingHint(encoding, Source.DEFAULT, Confidence.TENTATIVE, label=label)
    result = result_from_hint(data, hint)
    if result.provenance.replacements or result.text == text:
        return None
    return result


def _detection_trusted(text: str, data: bytes, provenance: Provenance) -> bool:
    """Whether detection on the recovered *data* is evidence enough by itself.

    It is when the detector is confident, or when its two best readings agree
    (e.g. windows-1250 and ISO-8859-2, which give the same Hungarian text and so
    tie), neither is windows-1252, which reads like the ISO-8859-1 decode,
    *text* has enough non-ASCII characters to go by, and their reading is no
    more garbled than *text*.
    """
    if provenance.score is not None and provenance.score >= TRUSTED_SCORE:
        return True
    if len(text) - len(text.encode("ascii", "ignore")) < _MIN_EVIDENCE:
        return False  # a few non-ASCII characters prove nothing
    runner_up = None if provenance.runner_up is None else get_encoding(provenance.runner_up)
    if runner_up is None or "windows-1252" in (provenance.encoding, runner_up.name):
        return False
    chosen = ENCODINGS[provenance.encoding].decode(data)
    if chosen != runner_up.decode(data):
        return False
    # ... and the agreed reading is no more garbled than the text as it stands.
    return _mess(chosen) <= _mess(text)


def _unchanged(
    text: str,
    status: RepairStatus,
    reason: str,
    wrong: str | None = None,
    provenance: Provenance | None = None,
) -> RepairResult:
    return RepairResult(text, False, status, wrong, provenance, reason)


def repair(
    text: str,
    content_type: str | bytes | None = None,
    *,
    url: str | None = None,
    default_encoding: str | None = None,
) -> RepairResult:
    """Undo an ISO-8859-1 or windows-1252 decode of a whole body, when that verifies.

    *text* is what a wrong decode produced, typically requests'
    ``response.text`` for a response without a charset (ISO-8859-1), or a
    windows-1252 decode. *content_type*, *url* and *default_encoding* are the
    optional hints of :func:`decode_body` (``None``: the bytes are sniffed as
    HTML, which also reads ``<?xml encoding>``). Text that is not mojibake
    comes back unchanged (``changed`` false, with the reason).

    >>> garbled = "<meta charset=utf-8>caf\\u00c3\\u00a9"  # UTF-8 read as ISO-8859-1
    >>> result = repair(garbled)
    >>> result.text, result.wrong_decoding, str(result.provenance)
    ('<meta charset=utf-8>café', 'ISO-8859-1', 'UTF-8 (meta)')
    >>> repair("café").changed
    False
    """
    if not isinstance(text, str):
        raise TypeError(
            f"repair() takes the wrongly decoded text (str), not {type(text).__name__}; "
            "for raw bytes use decode_body()"
        )
    # ISO-2022-JP is 7-bit; many NULs are UTF-16 read byte by byte.
    if text.isascii() and "\x1b" not in text and not _utf16_read_bytewise(text):
        return _unchanged(text, RepairStatus.UNNEEDED, "ASCII text reads the same in any decode")
    recovered = _recover(text)
    if recovered is None:
        return _unchanged(
            text,
            RepairStatus.IMPOSSIBLE,
            "the text has characters that neither an ISO-8859-1 nor a windows-1252 "
            "decode produces (e.g. U+FFFD for lost bytes, or CJK): not undoable",
        )
    wrong, data = recovered
    wrong_name = "ISO-8859-1" if wrong == "iso-8859-1" else "windows-1252"
    result = decode_body(data, content_type, url=url, default_encoding=default_encoding)
    provenance = result.provenance
    if result.text == text:
        return _unchanged(
            text,
            RepairStatus.UNNEEDED,
            f"the recovered bytes decode to the same text ({provenance})",
            wrong_name,
            provenance,
        )
    if provenance.replacements:
        return _unchanged(
            text,
            RepairStatus.IMPOSSIBLE,
            f"the recovered bytes are not clean {provenance.encoding} "
            f"({provenance.replacements} malformed sequences)",
            wrong_name,
            provenance,
        )
    if (
        provenance.source not in _DECLARED
        and not _wrong_decode_signature(text)
        and not _detection_trusted(text, data, provenance)
    ):
        hinted = _decode_as_hinted(data, text, default_encoding, provenance)
        if hinted is not None:
            result = hinted
            provenance = result.provenance
        else:
            before, after = _mess(text), _mess(result.text)
            if before - after < MESS_MARGIN:
                return _unchanged(
                    text,
                    RepairStatus.IMPOSSIBLE,
                    f"detection chose {provenance.encoding}, but that reading is not clearly "
                    f"less garbled (mess {before:.2f} -> {after:.2f})",
                    wrong_name,
                    provenance,
                )
    skip = 0
    if provenance.source is Source.BOM:
        skip = 3 if data.startswith(b"\xef\xbb\xbf") else 2
    plan: tuple[RepairStep, ...] = (RepairStep("encode", wrong),)
    if skip:
        plan += (RepairStep("skip", str(skip)),)
    plan += (RepairStep("decode", provenance.encoding),)
    return RepairResult(
        result.text,
        True,
        RepairStatus.REPAIRED,
        wrong_name,
        provenance,
        f"{wrong_name} decode undone; the bytes are {provenance}",
        plan,
    )
