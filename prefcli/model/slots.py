"""``dataclass(slots=True)`` for the oldest Python prefcli supports (3.9 has no `slots=`).

A record holds one Deal a deal and a ledger two or three Entries a deal: in an instance
dictionary their fields cost 270–830 bytes each, in slots 8 bytes a field (issue 11 item 1: a
24 MB record's memory). :func:`slotted` rebuilds a finished dataclass with ``__slots__``, as
Python 3.10's own ``slots=True`` does, and keeps a frozen one picklable.
"""
from __future__ import annotations

import dataclasses
from typing import Any, List, Type, TypeVar

T = TypeVar("T")


def slotted(cls: Type[T]) -> Type[T]:
    """The dataclass `cls` again, with a slot for each field and no instance dictionary."""
    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    body = dict(cls.__dict__)
    body["__slots__"] = names
    for name in names:
        body.pop(name, None)          # the defaults live on in __init__ and the Field objects
    body.pop("__dict__", None)
    body.pop("__weakref__", None)

    def __getstate__(self: Any) -> List[Any]:
        return [getattr(self, n) for n in names]

    def __setstate__(self: Any, state: List[Any]) -> None:
        for n, v in zip(names, state):
            object.__setattr__(self, n, v)    # a frozen dataclass refuses setattr

    body["__getstate__"] = __getstate__
    body["__setstate__"] = __setstate__
    meta: Any = type(cls)
    new: Type[T] = meta(cls.__name__, cls.__bases__, body)
    new.__qualname__ = cls.__qualname__
    return new


def plain_frozen(cls: type, names: tuple) -> bool:
    """Whether the dataclass `cls` is made by its ``__init__`` as an object whose ``__dict__``
    holds exactly the fields `names`, in order (no slots, no ``__post_init__``, every field an
    argument): then a maker may fill that ``__dict__`` itself and skip the frozen
    ``__setattr__`` the ``__init__`` goes through once a field (a replay makes a trick and an
    auction step by the thousand). A maker falls back to `cls` when this says no."""
    fields = dataclasses.fields(cls)
    return (tuple(f.name for f in fields) == names and all(f.init for f in fields)
            and not hasattr(cls, "__slots__") and not hasattr(cls, "__post_init__"))
