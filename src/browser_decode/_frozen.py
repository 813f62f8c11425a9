"""Frozen value classes that behave as frozen ``slots`` dataclasses without importing
:mod:`dataclasses` (which imports :mod:`inspect`, ``ast``, ``dis``, ``tokenize``: about a
third of ``import browser_decode``).

A public value class (``Provenance``, ``RepairResult``) lists its fields in ``__slots__``
and ``__match_args__`` (in order), writes its own ``__init__`` (setting the fields through
``object.__setattr__``), and is decorated with :func:`checked_as_dataclass`, which is
``dataclasses.dataclass`` for type checkers and :func:`frozen_value` at run time. That gives
it what ``@dataclass(frozen=True, slots=True)`` would: the same ``repr``, ``==``, ``hash``,
frozen assignment (:class:`dataclasses.FrozenInstanceError`), pickling state, ``__replace__``
(``copy.replace``, Python 3.13) and, for users who call :func:`dataclasses.fields`,
:func:`~dataclasses.replace`, :func:`~dataclasses.asdict`, :func:`~dataclasses.astuple` or
:func:`~dataclasses.is_dataclass`, the ``__dataclass_fields__`` and ``__dataclass_params__``
of a shadow dataclass with the same fields, built on first access (``dataclasses`` is then
already imported by whoever asked). ``tests/test_frozen.py`` checks all of it against a real
dataclass with the same fields.

Also :data:`NamedTuple`: ``typing.NamedTuple``'s class syntax without importing
:mod:`typing`.
"""

from __future__ import annotations

import collections
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass as checked_as_dataclass
    from typing import Any, Final, NamedTuple
else:

    def checked_as_dataclass(**_options: object) -> Any:
        """``dataclasses.dataclass`` for type checkers; :func:`frozen_value` at run time."""
        return frozen_value

    class _NamedTupleMeta(type):
        """``typing.NamedTuple``'s class syntax without importing :mod:`typing` (a tenth
        of ``import browser_decode``): the same :func:`collections.namedtuple` class, with
        the namespace's methods, properties and docstring, as ``typing.NamedTupleMeta``
        makes it. Only ``__annotations__`` differs: the annotations as written (strings,
        under ``from __future__ import annotations``), where typing has ``ForwardRef``
        objects of them; ``typing.get_type_hints`` resolves either."""

        def __new__(mcls, typename: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
            if bases != (NamedTuple,):
                raise TypeError("can only inherit from a NamedTuple type")
            types = namespace.get("__annotations__", {})
            default_names: list[str] = []
            for name in types:
                if name in namespace:
                    default_names.append(name)
                elif default_names:
                    raise TypeError(
                        f"Non-default namedtuple field {name} cannot follow default "
                        f"field{'s' if len(default_names) > 1 else ''} "
                        f"{', '.join(default_names)}"
                    )
            cls = collections.namedtuple(
                typename,
                list(types),
                defaults=[namespace[name] for name in default_names],
                module=namespace["__module__"],
            )
            cls.__annotations__ = cls.__new__.__annotations__ = dict(types)
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
                if key not in _SPECIAL and key not in cls._fields:
                    setattr(cls, key, value)
            return cls

    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
         "_make", "_replace", "_asdict", "_source"}
    )  # fmt: skip
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})
    NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})


__all__ = ["NamedTuple", "checked_as_dataclass", "frozen_value"]


class _ShadowAttribute:
    """``__dataclass_fields__`` / ``__dataclass_params__`` of the class it is set on,
    taken from a shadow dataclass with the same fields when first read (then stored on the
    class in place of this descriptor)."""

    def __init__(self) -> None:
        self.owner: type | None = None
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner = owner
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        cls = self.owner
        assert cls is not None
        shadow = _shadow(cls)
        for name in ("__dataclass_fields__", "__dataclass_params__"):
            setattr(cls, name, getattr(shadow, name))
        return getattr(shadow, self.name)


def _shadow(cls: type) -> type:
    """A frozen slots dataclass with *cls*'s fields: names and order from
    ``__match_args__``, types from the annotations, defaults from ``__init__``."""
    import dataclasses
    import inspect  # (dataclasses imported it)

    names: tuple[str, ...] = cls.__match_args__  # type: ignore[attr-defined]
    defaults = cls.__init__.__defaults__ or ()  # type: ignore[misc]
    first_default = len(names) - len(defaults)
    annotations = {}
    for klass in reversed(cls.__mro__):
        annotations.update(inspect.get_annotations(klass))
    fields: list[Any] = []
    for index, name in enumerate(names):
        if index < first_default:
            fields.append((name, annotations[name]))
        else:
            default = defaults[index - first_default]
            fields.append((name, annotations[name], dataclasses.field(default=default)))
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True, slots=True)


def _values(self: Any) -> tuple[Any, ...]:
    return tuple([getattr(self, name) for name in self.__match_args__])


def _frozen(self: Any, name: str) -> bool:
    # As a frozen dataclass: a field, or any name of an instance of the class itself (not
    # of a subclass), cannot be assigned or deleted.
    return "__match_args__" in type(self).__dict__ or name in self.__match_args__


def __repr__(self: Any) -> str:
    fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
    return f"{type(self).__qualname__}({fields})"


def __eq__(self: Any, other: object) -> bool:
    if other.__class__ is self.__class__:
        return _values(self) == _values(other)
    return NotImplemented


def __hash__(self: Any) -> int:
    return hash(_values(self))


def __setattr__(self: Any, name: str, value: object) -> None:
    if _frozen(self, name):
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def __delattr__(self: Any, name: str) -> None:
    if _frozen(self, name):
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


# Pickling: the state of a frozen slots dataclass (a list of the field values in order),
# so pickles made before and after these classes stopped being dataclasses load in either.
def __getstate__(self: Any) -> list[Any]:
    return [getattr(self, name) for name in self.__match_args__]


def __setstate__(self: Any, state: list[Any]) -> None:
    for name, value in zip(self.__match_args__, state, strict=False):
        object.__setattr__(self, name, value)


def __replace__(self: Any, /, **changes: Any) -> Any:
    """``copy.replace(value, **changes)`` (Python 3.13), as ``dataclasses.replace``."""
    for name in self.__match_args__:
        if name not in changes:
            changes[name] = getattr(self, name)
    return self.__class__(**changes)


_METHODS: Final = (
    __repr__,
    __eq__,
    __hash__,
    __setattr__,
    __delattr__,
    __getstate__,
    __setstate__,
    __replace__,
)


def frozen_value(cls: type) -> type:
    """Give *cls* (its fields in ``__slots__`` and ``__match_args__``, its own
    ``__init__``) the methods of a frozen slots dataclass, each a function of its own named
    as the class's (as ``dataclass`` does), and its lazily built ``__dataclass_fields__``
    and ``__dataclass_params__``. The class is the same object: its ``__mro__`` is
    unchanged."""
    for method in _METHODS:
        name = method.__name__
        if name not in cls.__dict__:
            copy = types.FunctionType(
                method.__code__, method.__globals__, name, method.__defaults__
            )
            copy.__kwdefaults__ = method.__kwdefaults__
            copy.__qualname__ = f"{cls.__qualname__}.{name}"
            copy.__doc__ = method.__doc__
            copy.__module__ = cls.__module__
            setattr(cls, name, copy)
    for name in ("__dataclass_fields__", "__dataclass_params__"):
        attribute = _ShadowAttribute()
        attribute.__set_name__(cls, name)
        setattr(cls, name, attribute)
    return cls
