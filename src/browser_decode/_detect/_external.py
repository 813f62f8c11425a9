"""The detection step, pluggable: the built-in detector, charset-normalizer, or a callable.

``decode_html(..., detector=...)`` and every other entry point accept:

* ``None`` or ``"builtin"``: :func:`browser_decode._detect.detect` (the default);
* ``"charset-normalizer"``: charset-normalizer's answer among the WHATWG encodings only
  (its candidates are restricted to the Python codecs that WHATWG labels name, and its
  answer is mapped back through the label table; the text is always decoded by the WHATWG
  decoder, never by the Python codec);
* a callable ``(bytes) -> (label, score) | None``: the label goes through the WHATWG label
  table (:func:`~browser_decode.get_encoding`); ``None``, an unknown label or a label of the
  "replacement" encoding fall through to the default, as an undecided detector does.

Only the detection step changes: a BOM, a header charset, a ``<meta>`` and valid UTF-8 still
decide before it, and the default after it. ``Provenance.detector`` records which detector
decided a ``detected`` result.
"""

from __future__ import annotations

import encodings
import encodings.aliases
import math
from collections.abc import Callable
from functools import cache

from .._get_an_encoding import ENCODINGS, Encoding, get_encoding
from .._hint import EncodingHint, Request
from .._labels import LABELS
from .._result import Confidence, Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, NamedTuple, TypeAlias
else:
    from .._frozen import NamedTuple

__all__ = ["BUILTIN", "Detector", "DetectorArg", "detection_stage", "resolve_detector"]

#: What a detector callable returns: a label and a score in [0, 1], or ``None``.
Answer: TypeAlias = "tuple[str, float] | None"

_BUILTIN_NAME: Final = "builtin"
_CHARSET_NORMALIZER: Final = "charset-normalizer"
#: charset-normalizer reads at most this much of the body (its cost grows with the size).
CHARSET_NORMALIZER_LIMIT: Final = 64 * 1024


class Detector(NamedTuple):
    """A resolved ``detector=`` argument: its name (for the provenance) and its step."""

    name: str
    run: Callable[[bytes, str | None, str | None], EncodingHint | None]

    def detect(
        self, body: bytes, url: str | None, default_encoding: str | None
    ) -> EncodingHint | None:
        hint = self.run(body, url, default_encoding)
        if hint is None or hint.source is not Source.DETECTED or hint.detector == self.name:
            return hint
        return hint._replace(detector=self.name)


#: What the ``detector=`` argument accepts (a resolved :class:`Detector` too, internally).
DetectorArg: TypeAlias = "str | Callable[[bytes], Answer] | Detector | None"


def _builtin(body: bytes, url: str | None, default_encoding: str | None) -> EncodingHint | None:
    from . import detect

    return detect(body, url=url, default_encoding=default_encoding)


BUILTIN: Final = Detector(_BUILTIN_NAME, _builtin)


def _usable(encoding: Encoding | None) -> Encoding | None:
    # The replacement encoding exists for labels that *declare* a dangerous
    # encoding; a detector never means it.
    return None if encoding is None or encoding.name == "replacement" else encoding


def _hint(encoding: Encoding, score: float, runner_up: str | None, name: str) -> EncodingHint:
    return EncodingHint(
        encoding,
        Source.DETECTED,
        Confidence.TENTATIVE,
        score=round(min(max(score, 0.0), 1.0), 3),
        runner_up=runner_up,
        detector=name,
    )


def detection_stage(body: bytes, request: Request) -> EncodingHint | None:
    """The pipeline's detection step with the request's detector (the built-in one by default)."""
    detector = request.detector or BUILTIN
    return detector.detect(body, request.url, request.default_encoding)


# --- charset-normalizer -------------------------------------------------------------


def _python_module(label: str) -> str | None:
    """The name of the Python codec module a label names, as charset-normalizer spells it."""
    normalized = encodings.normalize_encoding(label).lower()
    name = encodings.aliases.aliases.get(normalized, normalized)
    try:
        __import__(f"encodings.{name}")
    except ImportError:
        return None
    return name


@cache
def python_to_whatwg() -> dict[str, Encoding]:
    """Python codec module -> the WHATWG encoding whose labels name it.

    Built from the WHATWG label table: an encoding's own name wins over another
    encoding's label that Python resolves to the same codec (``latin_1`` is
    reached only by windows-1252's labels, as browsers read them).
    """
    # x-mac-cyrillic's labels are not Python aliases; the codec is the same table.
    by_module: dict[str, Encoding] = {"mac_cyrillic": ENCODINGS["x-mac-cyrillic"]}
    for name, encoding in ENCODINGS.items():
        module = _python_module(name)
        if module is not None and _usable(encoding) is not None:
            by_module.setdefault(module, encoding)
    for label, name in sorted(LABELS.items()):
        module = _python_module(label)
        usable = _usable(ENCODINGS[name])
        if module is not None and usable is not None:
            by_module.setdefault(module, usable)
    return by_module


def _charset_normalizer(
    body: bytes, url: str | None, default_encoding: str | None
) -> EncodingHint | None:
    from charset_normalizer import from_bytes

    table = python_to_whatwg()
    try:
        matches = from_bytes(body[:CHARSET_NORMALIZER_LIMIT], cp_isolation=sorted(table))
    except Exception:  # a detector's failure is "no answer", never the caller's crash
        return None
    answers = [table[m.encoding] for m in matches if m.encoding in table]
    if not answers:
        return None
    best = matches.best()
    score = 1.0 - best.chaos if best is not None and best.encoding in table else 0.0
    runner_up = next((e.name for e in answers[1:] if e is not answers[0]), None)
    return _hint(answers[0], score, runner_up, _CHARSET_NORMALIZER)


CHARSET_NORMALIZER: Final = Detector(_CHARSET_NORMALIZER, _charset_normalizer)


# --- a callable ---------------------------------------------------------------------


def _callable_name(function: Callable[..., object]) -> str:
    qualname = getattr(function, "__qualname__", None) or type(function).__qualname__
    module = getattr(function, "__module__", None)
    return f"{module}.{qualname}" if module else str(qualname)


def _from_callable(function: Callable[[bytes], Answer]) -> Detector:
    name = _callable_name(function)

    def run(body: bytes, url: str | None, default_encoding: str | None) -> EncodingHint | None:
        answer = function(body)
        if answer is None:
            return None
        if not isinstance(answer, tuple) or len(answer) != 2:
            raise TypeError(
                f"detector {name} must return (label, score) or None, not {answer!r:.80}"
            )
        label, score = answer
        if not isinstance(label, str):
            raise TypeError(f"detector {name} returned a label of type {type(label).__name__}")
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise TypeError(f"detector {name} returned a score of type {type(score).__name__}")
        if not math.isfinite(score):
            raise ValueError(f"detector {name} returned the score {score!r}")
        encoding = _usable(get_encoding(label))
        if encoding is None:
            return None  # not a WHATWG label: as if the detector had no answer
        return _hint(encoding, float(score), None, name)

    return Detector(name, run)


def resolve_detector(value: object) -> Detector:
    """The :class:`Detector` for a ``detector=`` argument (see the module docstring)."""
    if value is None or isinstance(value, Detector):
        return BUILTIN if value is None else value
    if isinstance(value, str):
        if value == _BUILTIN_NAME:
            return BUILTIN
        if value == _CHARSET_NORMALIZER:
            return CHARSET_NORMALIZER
        raise ValueError(
            f"unknown detector {value[:40]!r}: use 'builtin', 'charset-normalizer' or a callable"
        )
    if callable(value):
        return _from_callable(value)
    raise TypeError(
        "detector must be None, 'builtin', 'charset-normalizer' or a callable "
        f"(bytes) -> (label, score) | None, not {type(value).__name__}"
    )
