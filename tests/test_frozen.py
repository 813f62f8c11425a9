"""The public value classes behave as the frozen slots dataclasses they were, without
``import browser_decode`` importing :mod:`dataclasses` (and so :mod:`inspect`, ``ast``...).

Each class is checked against a reference dataclass written out here with the same fields:
constructor, repr, ==, hash, frozen assignment, slots, match args, pickling state, and the
:mod:`dataclasses` functions a user may call on them.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import browser_decode
from browser_decode import Confidence, Provenance, RepairResult, RepairStatus, Source
from browser_decode._text.repair import RepairStep


def _coerce_enums(self: Any) -> None:
    if not isinstance(self.source, Source):
        object.__setattr__(self, "source", Source(self.source))
    if not isinstance(self.confidence, Confidence):
        object.__setattr__(self, "confidence", Confidence(self.confidence))


#: What Provenance was: ``@dataclass(frozen=True, slots=True)`` with these fields.
REFERENCE_PROVENANCE: Any = dataclasses.make_dataclass(
    "Provenance",
    [
        ("encoding", "str"),
        ("source", "Source"),
        ("confidence", "Confidence"),
        ("label", "str | None", dataclasses.field(default=None)),
        ("offset", "int | None", dataclasses.field(default=None)),
        ("replacements", "int", dataclasses.field(default=0)),
        ("score", "float | None", dataclasses.field(default=None)),
        ("runner_up", "str | None", dataclasses.field(default=None)),
        ("detector", "str | None", dataclasses.field(default=None)),
        ("binary", "bool", dataclasses.field(default=False)),
    ],
    namespace={"__post_init__": _coerce_enums},
    frozen=True,
    slots=True,
)

#: What RepairResult was.
REFERENCE_REPAIR_RESULT: Any = dataclasses.make_dataclass(
    "RepairResult",
    [
        ("text", "str"),
        ("changed", "bool"),
        ("status", "RepairStatus"),
        ("wrong_decoding", "str | None"),
        ("provenance", "Provenance | None"),
        ("reason", "str"),
        ("plan", "tuple[RepairStep, ...]", dataclasses.field(default=())),
    ],
    frozen=True,
    slots=True,
)

_P_ARGS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("UTF-8", Source.UTF8, Confidence.TENTATIVE), {}),
    (("Shift_JIS", Source.META, Confidence.TENTATIVE, "sjis", 12), {}),
    (("Shift_JIS", "meta", "tentative"), {"label": "sjis", "offset": 12}),
    (
        ("windows-1251", Source.DETECTED, Confidence.TENTATIVE),
        {"score": 0.973, "runner_up": "KOI8-R", "detector": "builtin", "replacements": 2},
    ),
    ((), {"encoding": "EUC-KR", "source": "detected", "confidence": "tentative", "binary": True}),
    (("UTF-8", Source.BOM, Confidence.CERTAIN, None, None, 3, None, None, None, False), {}),
]
_R_ARGS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("x", False, RepairStatus.UNNEEDED, None, None, "ASCII"), {}),
    (
        ("é", True, RepairStatus.REPAIRED, "windows-1252"),
        {
            "provenance": Provenance("UTF-8", Source.HEADER, Confidence.CERTAIN),
            "reason": "r",
            "plan": (RepairStep("encode", "windows-1252"), RepairStep("decode", "UTF-8")),
        },
    ),
]
CASES = [(Provenance, REFERENCE_PROVENANCE, args, kwargs) for args, kwargs in _P_ARGS] + [
    (RepairResult, REFERENCE_REPAIR_RESULT, args, kwargs) for args, kwargs in _R_ARGS
]
IDS = [f"{ours.__name__}-{index}" for index, (ours, *_) in enumerate(CASES)]


def _another(value: object) -> object:
    """A value of the same field that differs from *value*."""
    if isinstance(value, (Source, Confidence)):
        return next(member for member in type(value) if member is not value)
    return "other" if value != "other" else "another"


def _values(value: Any) -> list[Any]:
    return [getattr(value, field.name) for field in dataclasses.fields(value)]


def test_the_classes_have_the_references_shape() -> None:
    for ours, reference in (
        (Provenance, REFERENCE_PROVENANCE),
        (RepairResult, REFERENCE_REPAIR_RESULT),
    ):
        assert ours.__slots__ == reference.__slots__
        assert ours.__match_args__ == reference.__match_args__
        assert dataclasses.is_dataclass(ours) and not isinstance(ours, type(None))
        ours_fields = [
            (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare)
            for f in dataclasses.fields(ours)
        ]
        reference_fields = [
            (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare)
            for f in dataclasses.fields(reference)
        ]
        assert ours_fields == reference_fields
        assert repr(ours.__dataclass_params__) == repr(reference.__dataclass_params__)
        assert ours.__qualname__ == reference.__qualname__
        assert ours.__mro__[1:] == reference.__mro__[1:] == (object,)
        for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
            ours_method, reference_method = getattr(ours, method), getattr(reference, method)
            assert ours_method.__qualname__ == reference_method.__qualname__, method


@pytest.mark.parametrize(("ours", "reference", "args", "kwargs"), CASES, ids=IDS)
def test_a_value_behaves_as_the_reference(
    ours: Any, reference: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    value, expected = ours(*args, **kwargs), reference(*args, **kwargs)
    assert repr(value) == repr(expected)
    assert _values(value) == _values(expected)
    assert [type(v) for v in _values(value)] == [type(v) for v in _values(expected)]
    assert hash(value) == hash(expected)
    assert not hasattr(value, "__dict__")
    # == and hash: equal to a value with the same fields, unequal when any one differs
    assert value == ours(*args, **kwargs) and hash(value) == hash(ours(*args, **kwargs))
    assert value != expected and expected != value  # another class: never equal
    for field in dataclasses.fields(reference):
        other = _another(getattr(expected, field.name))
        changed = dataclasses.replace(value, **{field.name: other})
        assert changed != value and hash(changed) != hash(value)
        assert changed == dataclasses.replace(value, **{field.name: other})
        assert _values(changed) == _values(dataclasses.replace(expected, **{field.name: other}))
    # frozen: the same exception and message
    for name in value.__match_args__:
        with pytest.raises(dataclasses.FrozenInstanceError) as raised:
            setattr(value, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError) as reference_raised:
            setattr(expected, name, 1)
        assert str(raised.value) == str(reference_raised.value)
        with pytest.raises(dataclasses.FrozenInstanceError) as raised:
            delattr(value, name)
        with pytest.raises(dataclasses.FrozenInstanceError) as reference_raised:
            delattr(expected, name)
        assert str(raised.value) == str(reference_raised.value)
    # (another name: a frozen dataclass means FrozenInstanceError; Python 3.11's slots
    # dataclasses raise a TypeError from their super() call instead, a CPython bug)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'colour'"):
        value.colour = 1
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'colour'"):
        del value.colour
    # dataclasses' functions
    assert dataclasses.is_dataclass(value)
    assert dataclasses.asdict(value) == dataclasses.asdict(expected)
    assert dataclasses.astuple(value) == dataclasses.astuple(expected)
    first = dataclasses.fields(value)[0].name
    again = dataclasses.replace(value, **{first: "y"})
    assert type(again) is ours
    assert repr(again) == repr(dataclasses.replace(expected, **{first: "y"}))
    # copy.replace (Python 3.13) calls __replace__
    assert repr(value.__replace__(**{first: "y"})) == repr(again)
    if hasattr(copy, "replace"):  # Python 3.13
        assert repr(copy.replace(value, **{first: "y"})) == repr(again)
    with pytest.raises(TypeError) as raised:
        dataclasses.replace(value, colour="red")
    with pytest.raises(TypeError) as reference_raised:
        dataclasses.replace(expected, colour="red")
    assert str(raised.value) == str(reference_raised.value)
    # pickling: the same state, so pickles of either load in the other
    assert value.__getstate__() == expected.__getstate__()
    assert value.__reduce_ex__(2)[1:] == ((ours,), expected.__getstate__(), None, None)
    assert expected.__reduce_ex__(2)[1:] == ((reference,), value.__getstate__(), None, None)
    blank = ours.__new__(ours)
    blank.__setstate__(expected.__getstate__())
    assert blank == value
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copied = pickle.loads(pickle.dumps(value, protocol))
        assert copied == value and repr(copied) == repr(value)
    assert copy.copy(value) == value and copy.deepcopy(value) == value
    # pattern matching by position
    match value:
        case ours(a, b):
            assert (a, b) == tuple(_values(expected)[:2])
        case _:
            raise AssertionError("no match")


def test_constructor_errors_are_the_references() -> None:
    for ours, reference, args in (
        (Provenance, REFERENCE_PROVENANCE, ("UTF-8",)),
        (
            Provenance,
            REFERENCE_PROVENANCE,
            ("UTF-8", "bom", "certain", None, None, 0, None, None, None, False, 1),
        ),
        (RepairResult, REFERENCE_REPAIR_RESULT, ()),
    ):
        with pytest.raises(TypeError) as raised:
            ours(*args)
        with pytest.raises(TypeError) as reference_raised:
            reference(*args)
        assert str(raised.value) == str(reference_raised.value)
    with pytest.raises(ValueError):
        Provenance("UTF-8", "guessed", "certain")  # type: ignore[arg-type]


def test_the_dataclass_attributes_are_computed_on_first_use() -> None:
    """A subclass sees its base's fields; class and instance give the same objects."""

    class Mine(Provenance):
        pass

    value = Mine("UTF-8", Source.UTF8, Confidence.TENTATIVE)
    assert dataclasses.fields(Mine) == dataclasses.fields(Provenance) == dataclasses.fields(value)
    value.extra = 1  # type: ignore[attr-defined]  # a subclass's own names stay assignable
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.encoding = "x"  # type: ignore[misc]
    assert Provenance.__dataclass_fields__ is Provenance.__dataclass_fields__


def test_import_does_not_load_dataclasses_or_inspect() -> None:
    """``import browser_decode`` leaves out dataclasses and inspect (and what inspect
    imports): a third of a fresh process's import time; and typing, a tenth."""
    source = str(Path(browser_decode.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    code = (
        "import sys, browser_decode\n"
        "assert browser_decode.__file__.startswith(sys.argv[1]), browser_decode.__file__\n"
        "print(sorted(m for m in ('dataclasses', 'inspect', 'ast', 'dis', 'tokenize', 'typing')"
        " if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, source], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --- NamedTuple without typing ------------------------------------------------------------


def _named_tuple_classes(base: Any) -> Any:
    class Point(base):  # type: ignore[misc, valid-type]
        """A point."""

        x: int
        y: int = 0
        label: str | None = None

        @property
        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

        def moved(self, dx: int) -> Any:
            return self._replace(x=self.x + dx)

        def __repr__(self) -> str:
            return f"<{self.x},{self.y}>"

    return Point


def test_named_tuple_classes_are_typings() -> None:
    """_frozen.NamedTuple (run time) makes the class typing.NamedTuple makes."""
    import typing

    from browser_decode._frozen import NamedTuple

    ours, theirs = _named_tuple_classes(NamedTuple), _named_tuple_classes(typing.NamedTuple)
    assert ours.__mro__[1:] == theirs.__mro__[1:] == (tuple, object)
    for name in ("__name__", "__qualname__", "__module__", "__doc__", "_fields", "_field_defaults"):
        assert getattr(ours, name) == getattr(theirs, name), name
    # (typing's class also has __orig_bases__, (typing.NamedTuple,): the function its
    # class statement named, which no library of ours or theirs reads)
    assert set(vars(ours)) == set(vars(theirs)) - {"__orig_bases__"}
    assert list(ours.__annotations__) == list(theirs.__annotations__)
    assert ours.__new__.__defaults__ == theirs.__new__.__defaults__
    for args, kwargs in [((1,), {}), ((1, 2, "a"), {}), ((), {"x": 3, "label": "b"})]:
        a, b = ours(*args, **kwargs), theirs(*args, **kwargs)
        assert tuple(a) == tuple(b) and repr(a) == repr(b) and a == b and hash(a) == hash(b)
        assert a.norm == b.norm and tuple(a.moved(2)) == tuple(b.moved(2))
        assert a._asdict() == b._asdict()
    with pytest.raises(TypeError):
        ours()
    with pytest.raises(TypeError, match="Non-default namedtuple field y cannot follow"):

        class Bad(NamedTuple):  # type: ignore[misc]
            x: int = 0
            y: int

    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):

        class Worse(NamedTuple):
            x: int

            def _replace(self, **changes: Any) -> Any:  # type: ignore[override]
                return self


def test_public_named_tuples_resolve_their_annotations() -> None:
    import typing

    from browser_decode import DecodeResult, RepairStep

    assert typing.get_type_hints(DecodeResult) == {"text": str, "provenance": Provenance}
    assert typing.get_type_hints(RepairStep) == {"action": str, "parameter": str}
    assert DecodeResult._fields == ("text", "provenance")
    assert RepairStep("skip", "3")._replace(parameter="2") == ("skip", "2")


def test_type_checkers_see_frozen_dataclasses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's mypy takes Provenance and RepairResult for the frozen dataclasses they were:
    ``dataclasses.replace`` and ``fields`` accept them (and check the field names), an
    assignment to a field is an error."""
    mypy_api = pytest.importorskip("mypy.api")
    user = tmp_path / "user.py"
    user.write_text(
        "import dataclasses\n"
        "from browser_decode import Provenance, decode_html, repair\n"
        "p = dataclasses.replace(decode_html(b'x').provenance, label='x')\n"
        "reveal_type(p)\n"
        "reveal_type(dataclasses.replace(repair('x'), text='y'))\n"
        "names = [f.name for f in dataclasses.fields(Provenance)]\n"
        "p.label = 'z'\n"
        "dataclasses.replace(p, colour=1)\n"
    )
    source = str(Path(browser_decode.__file__).parent.parent)
    monkeypatch.setenv("MYPYPATH", source)
    stdout, _, _ = mypy_api.run(
        ["--strict", "--python-version", "3.10", "--cache-dir", str(tmp_path / "cache"),
         "--config-file", "", str(user)]
    )  # fmt: skip
    lines = [line.split(": ", 1)[1] for line in stdout.splitlines() if ": " in line]
    assert lines == [
        'note: Revealed type is "browser_decode._result.Provenance"',
        'note: Revealed type is "browser_decode._text.repair.RepairResult"',
        'error: Property "label" defined in "Provenance" is read-only  [misc]',
        'error: Unexpected keyword argument "colour" for "replace" of "Provenance"  [call-arg]',
        'note: "replace" defined in "browser_decode._result"',
    ], (stdout, source)
