"""``dataclass(slots=True)`` for the oldest Python prefcli supports (3.9 has no `slots=`).

A record holds one Deal a deal and a ledger two or three Entries a deal: in an instance
dictionary their fields cost 270–830 bytes each, in slots 8 bytes a field (issue 11 item 1: a
24 MB record's memory). :func:`slotted` rebuilds a finished dataclass with ``__slots__``, as
Python 3.10's own ``slots=True`` does, and keeps a frozen one picklable.
"""
from __future__ import annotations

import dataclasses
import reprlib
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, List, Type, TypeVar

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


def _fields_tuple(names: tuple) -> Callable[[Any], tuple]:
    """The tuple of the fields `names` of an instance (``(self.a, self.b)``), made in C."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    if not names:
        return lambda self: ()
    return attrgetter(*names)


def _lean(cls: type, frozen: bool, eq: bool, rep: bool) -> type:
    """`cls` as ``dataclasses.dataclass(cls, frozen=frozen, eq=eq, repr=rep)`` makes it, with
    ``__repr__``, ``__eq__`` and ``__hash__`` shared closures instead of functions compiled from
    source for each class: every command starts by making about a hundred dataclasses, and
    the ``exec`` of their generated methods was a fifth of its start-up (issue 18). The
    methods answer exactly as the generated ones do (the same tuples compared and hashed, the
    same text); ``__init__`` and a frozen class's ``__setattr__`` stay dataclasses' own."""
    class_hash = cls.__dict__.get("__hash__", dataclasses.MISSING)
    has_explicit_hash = not (class_hash is dataclasses.MISSING
                             or (class_hash is None and "__eq__" in cls.__dict__))
    cls = dataclasses.dataclass(cls, frozen=frozen, eq=False, repr=False)
    params: Any = getattr(cls, "__dataclass_params__")
    fields = dataclasses.fields(cls)
    if rep and "__repr__" not in cls.__dict__:
        shown = tuple(f.name for f in fields if f.repr)

        @reprlib.recursive_repr()
        def __repr__(self: Any) -> str:
            return (f"{self.__class__.__qualname__}("
                    + ", ".join(f"{n}={getattr(self, n)!r}" for n in shown) + ")")
        __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
        setattr(cls, "__repr__", __repr__)
        params.repr = True
    if eq:
        params.eq = True
        if "__eq__" not in cls.__dict__:
            compared = _fields_tuple(tuple(f.name for f in fields if f.compare))

            def __eq__(self: Any, other: Any) -> Any:
                if other.__class__ is self.__class__:
                    return compared(self) == compared(other)
                return NotImplemented
            __eq__.__qualname__ = f"{cls.__qualname__}.__eq__"
            setattr(cls, "__eq__", __eq__)
        if not has_explicit_hash:
            if frozen:
                hashed = _fields_tuple(tuple(f.name for f in fields
                                             if (f.compare if f.hash is None else f.hash)))

                def __hash__(self: Any) -> int:
                    return hash(hashed(self))
                __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
                setattr(cls, "__hash__", __hash__)
            else:
                setattr(cls, "__hash__", None)
    return cls


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False,
                  unsafe_hash=False, frozen=False, **more):
        """``dataclasses.dataclass``, made cheaper to create (:func:`_lean`) where nothing it
        is asked for needs the generated methods; anything else is dataclasses' own."""
        def wrap(c):
            simple = (init and not order and not unsafe_hash and not more
                      and not any(hasattr(b, "__dataclass_fields__") for b in c.__mro__[1:]))
            if simple:
                return _lean(c, frozen, eq, repr)
            return dataclasses.dataclass(c, init=init, repr=repr, eq=eq, order=order,
                                         unsafe_hash=unsafe_hash, frozen=frozen, **more)
        return wrap if cls is None else wrap(cls)
