"""The values ``decode_html`` returns: the text and how its encoding was chosen."""

from __future__ import annotations

import enum
from collections.abc import Mapping

from ._frozen import checked_as_dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NamedTuple
else:
    from ._frozen import NamedTuple


class PublicEnumType(enum.EnumMeta):
    """The enums' metaclass: ``dir()`` (and so ``help()``) lists the members and the
    methods defined here, not the hundred methods inherited from ``str``."""

    def __dir__(cls) -> list[str]:
        own = set(cls.__dict__)
        keep = ("__class__", "__doc__", "__module__")
        return sorted(n for n in super().__dir__() if n in own or n in keep or not hasattr(str, n))


class Source(str, enum.Enum, metaclass=PublicEnumType):
    """Which rule decided the encoding, in the order the rules are tried."""

    #: A byte order mark at the start of the body (Encoding Standard "BOM sniff").
    BOM = "bom"
    #: The ``charset`` parameter of the HTTP ``Content-Type`` header.
    HEADER = "header"
    #: A ``<meta>`` or XML declaration found by the HTML prescan (or the bounded
    #: head scan beyond 1024 bytes that Chromium also performs); for XML bodies
    #: (``decode_body``), the XML declaration.
    META = "meta"
    #: Nothing declared an encoding and the bytes are valid UTF-8 (a deliberate
    #: deviation: browsers would show windows-1252 mojibake).
    UTF8 = "utf-8"
    #: Nothing declared an encoding and statistical detection chose it.
    DETECTED = "detected"
    #: Nothing declared or detected an encoding: windows-1252, as browsers do
    #: (or the caller's *default_encoding*); for XML and JSON bodies
    #: (``decode_body``), UTF-8, the format's own default.
    DEFAULT = "default"

    def __str__(self) -> str:
        return self.value


class Confidence(str, enum.Enum, metaclass=PublicEnumType):
    """The HTML Standard's *confidence* of the encoding decision.

    "The confidence is either *tentative*, *certain*, or *irrelevant*."
    -- https://html.spec.whatwg.org/multipage/parsing.html#concept-encoding-confidence
    A BOM or a Content-Type charset is *certain*; anything found in or guessed
    from the document itself is *tentative* (a later ``<meta>`` could still
    make a browser change its mind).
    """

    CERTAIN = "certain"
    TENTATIVE = "tentative"

    def __str__(self) -> str:
        return self.value


@checked_as_dataclass(frozen=True)
class Provenance:
    """How the encoding of a body was decided.

    Attributes:
        encoding: canonical WHATWG name, spelled as in the Encoding Standard
            ("UTF-8", "Shift_JIS", "windows-1252", "replacement", ...).
        source: which rule decided (see :class:`Source`).
        confidence: *certain* or *tentative*, as the HTML Standard uses them.
        label: the label as written in the header or document (``None`` for a
            BOM or when nothing was declared).
        offset: byte offset of the declaration in the body (the ``<`` of the
            ``<meta>`` or ``<?xml``); ``None`` when it is not in the body.
        replacements: how many U+FFFD the decoding introduced for malformed
            bytes (U+FFFD that the bytes themselves encode are not counted).
        score: for ``detected``, the detector's confidence in ``[0, 1]``.
        runner_up: for ``detected``, the second-best WHATWG encoding, if any.
        detector: for ``detected``, which detector decided: ``"builtin"``,
            ``"charset-normalizer"`` or the name of your callable.
        binary: the body is not text in any encoding (random bytes, an
            executable, an image, compressed data): nothing was detected, the
            text is the default encoding's reading of it (``score`` 0).

    Storable: :meth:`to_dict` gives plain JSON values (the enums as their
    string values) and :meth:`from_dict` rebuilds an equal object;
    ``Provenance(**d)`` with string values also gives the enums back.

    A frozen dataclass in behaviour (``dataclasses.fields``, ``replace``, ``asdict`` work
    on it), without importing :mod:`dataclasses` (see ``_frozen``).
    """

    __slots__ = __match_args__ = (
        "encoding",
        "source",
        "confidence",
        "label",
        "offset",
        "replacements",
        "score",
        "runner_up",
        "detector",
        "binary",
    )

    encoding: str
    source: Source
    confidence: Confidence
    label: str | None
    offset: int | None
    replacements: int
    score: float | None
    runner_up: str | None
    detector: str | None
    binary: bool

    def __init__(
        self,
        encoding: str,
        source: Source,
        confidence: Confidence,
        label: str | None = None,
        offset: int | None = None,
        replacements: int = 0,
        score: float | None = None,
        runner_up: str | None = None,
        detector: str | None = None,
        binary: bool = False,
    ) -> None:
        _set = object.__setattr__
        _set(self, "encoding", encoding)
        _set(self, "source", source)
        _set(self, "confidence", confidence)
        _set(self, "label", label)
        _set(self, "offset", offset)
        _set(self, "replacements", replacements)
        _set(self, "score", score)
        _set(self, "runner_up", runner_up)
        _set(self, "detector", detector)
        _set(self, "binary", binary)
        self.__post_init__()

    def __post_init__(self) -> None:
        # A provenance rebuilt from stored strings gets its enums back, so that
        # str() and attribute access behave as on the original.
        if not isinstance(self.source, Source):
            object.__setattr__(self, "source", Source(self.source))
        if not isinstance(self.confidence, Confidence):
            object.__setattr__(self, "confidence", Confidence(self.confidence))

    def __str__(self) -> str:
        return f"{self.encoding} ({self.source.value})"

    def to_dict(self) -> dict[str, Any]:
        """Every field as a plain JSON value (enums as their string values).

        >>> import json
        >>> p = Provenance("Shift_JIS", Source.META, Confidence.TENTATIVE, "sjis", 12)
        >>> Provenance.from_dict(json.loads(json.dumps(p.to_dict()))) == p
        True
        """
        return {name: _plain(getattr(self, name)) for name in self.__match_args__}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Provenance:
        """The provenance that :meth:`to_dict` stored.

        Fields missing from *data* take their defaults (a dict stored before a
        field was added still loads); an unknown key is a :class:`ValueError`.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"Provenance.from_dict() takes a mapping, not {type(data).__name__}")
        names = set(cls.__match_args__)
        unknown = sorted(str(key) for key in data if key not in names)
        if unknown:
            raise ValueError(f"Provenance.from_dict(): unknown field(s) {', '.join(unknown)}")
        return cls(**data)


def with_replacements(provenance: Provenance, replacements: int) -> Provenance:
    """*provenance* with another ``replacements`` count (``dataclasses.replace`` without
    its field walk)."""
    p = provenance
    return Provenance(
        p.encoding,
        p.source,
        p.confidence,
        p.label,
        p.offset,
        replacements,
        p.score,
        p.runner_up,
        p.detector,
        p.binary,
    )


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


class DecodeResult(NamedTuple):
    """Decoded text together with its :class:`Provenance`.

    A named tuple, so it unpacks as ``text, provenance``; the provenance fields
    are also readable on the result itself (``result.encoding``, ...).
    """

    text: str
    provenance: Provenance

    @property
    def encoding(self) -> str:
        return self.provenance.encoding

    @property
    def source(self) -> Source:
        return self.provenance.source

    @property
    def confidence(self) -> Confidence:
        return self.provenance.confidence

    @property
    def label(self) -> str | None:
        return self.provenance.label

    @property
    def offset(self) -> int | None:
        return self.provenance.offset

    @property
    def replacements(self) -> int:
        return self.provenance.replacements

    @property
    def score(self) -> float | None:
        return self.provenance.score

    @property
    def runner_up(self) -> str | None:
        return self.provenance.runner_up

    @property
    def detector(self) -> str | None:
        return self.provenance.detector

    def to_dict(self) -> dict[str, Any]:
        """``{"text": ..., **provenance.to_dict()}``: plain JSON values."""
        return {"text": self.text, **self.provenance.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DecodeResult:
        """The result that :meth:`to_dict` stored."""
        if not isinstance(data, Mapping) or not isinstance(data.get("text"), str):
            raise TypeError("DecodeResult.from_dict() takes a mapping with a 'text' string")
        fields = {key: value for key, value in data.items() if key != "text"}
        return cls(data["text"], Provenance.from_dict(fields))

    def __repr__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"DecodeResult(text={text!r}, provenance={self.provenance!r})"


def _field_of_provenance(self: DecodeResult, name: str) -> Any:
    # A field added to Provenance is readable on the result before it gets a
    # property of its own (set after the class: a NamedTuple body cannot hold
    # it, and type checkers should keep reporting typos).
    if name != "provenance" and not name.startswith("_"):
        provenance = self.provenance
        if name in provenance.__match_args__:
            return getattr(provenance, name)
    raise AttributeError(f"'DecodeResult' object has no attribute {name!r}")


setattr(DecodeResult, "__getattr__", _field_of_provenance)  # noqa: B010
