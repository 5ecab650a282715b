"""``dataclass(slots=True)`` for the oldest Python prefcli supports (3.9 has no `slots=`).

A record holds one Deal a deal and a ledger two or three Entries a deal: in an instance
dictionary their fields cost 270–830 bytes each, in slots 8 bytes a field (issue 11 item 1: a
24 MB record's memory). :func:`slotted` rebuilds a finished dataclass with ``__slots__``, as
Python 3.10's own ``slots=True`` does, and keeps a frozen one picklable.
"""
from __future__ import annotations

import dataclasses
import reprlib
import sys
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

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
    same text).

    A class with a docstring (dataclasses writes one from ``__init__``'s signature otherwise)
    and no ``__init__``, ``__setattr__`` or ``__delattr__`` of its own also gets its
    ``__init__`` made at its first call (:func:`_lazy_init`: dataclasses' own, compiled then)
    and, when frozen, the frozen ``__setattr__`` and ``__delattr__`` as shared closures
    (:func:`_frozen_methods`): a run of ``score`` makes thirty dataclasses and calls the
    ``__init__`` of eighteen (the builders make Deals and readings without it), and these were
    three compiled functions a class, the largest a deal's or a reading's thirty fields."""
    class_hash = cls.__dict__.get("__hash__", dataclasses.MISSING)
    has_explicit_hash = not (class_hash is dataclasses.MISSING
                             or (class_hash is None and "__eq__" in cls.__dict__))
    lazy = (_LAZY[0] and bool(cls.__dict__.get("__doc__"))
            and not any(n in cls.__dict__ for n in ("__init__", "__setattr__", "__delattr__")))
    if lazy:
        cls = dataclasses.dataclass(cls, init=False, frozen=False, eq=False, repr=False)
    else:
        cls = dataclasses.dataclass(cls, frozen=frozen, eq=False, repr=False)
    params: Any = getattr(cls, "__dataclass_params__")
    fields = dataclasses.fields(cls)
    if lazy:
        params.init = True
        setattr(cls, "__init__", _lazy_init(cls, frozen))
        if frozen:
            params.frozen = True
            for method in _frozen_methods(cls, tuple(f.name for f in fields)):
                setattr(cls, method.__name__, method)
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


#: whether :func:`_lean` makes ``__init__`` at its first call (tests compare with dataclasses' own way)
_LAZY = [True]


def _lazy_init(cls: type, frozen: bool) -> Callable[..., None]:
    """An ``__init__`` that, called first, has dataclasses make the real one (from a class of
    the same module, name, fields, ``__post_init__`` and frozenness: the same source, defaults
    and globals), puts it in its place on the class that holds it (found through the
    instance's MRO, as :func:`slotted` may have copied the class) and calls it; afterwards the
    class's ``__init__`` is the real one. A field out of order (one without a default after
    one with) is then refused at that first call, not at import."""
    made: List[Callable[..., None]] = []

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not made:
            made.append(_dataclass_init(cls, frozen))
            for owner in type(self).__mro__:
                if owner.__dict__.get("__init__") is __init__:
                    type.__setattr__(owner, "__init__", made[0])
        made[0](self, *args, **kwargs)
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _dataclass_init(cls: type, frozen: bool) -> Callable[..., None]:
    """dataclasses' ``__init__`` for the fields of `cls`: written here for plain fields
    (:func:`_plain_init`), else made by dataclasses on a class given its Field objects
    (dataclasses sets their name, type and kind again, to what they are)."""
    written = _plain_init(cls, frozen)
    if written is not None:
        return written
    fields: Any = cls.__dict__["__dataclass_fields__"]
    body: dict = {"__module__": cls.__module__, "__qualname__": cls.__qualname__,
                  "__doc__": cls.__doc__, "__annotations__": {n: f.type for n, f in fields.items()}}
    for name, f in fields.items():
        body[name] = f
    if hasattr(cls, "__post_init__"):
        body["__post_init__"] = getattr(cls, "__post_init__")
    shell: Any = dataclasses.dataclass(type(cls.__name__, (), body), frozen=frozen, eq=False, repr=False)
    init: Callable[..., None] = shell.__dict__["__init__"]
    return init


def _plain_init(cls: type, frozen: bool) -> Optional[Callable[..., None]]:
    """The ``__init__`` dataclasses writes for `cls` (Python 3.9 to 3.13: the same
    parameters, defaults, annotations and assignments, the default factories called in the
    same place, ``__post_init__`` after), when every field is a plain one: in ``__init__``,
    positional, none called ``self``, no ClassVar or InitVar, the defaults last. Anything
    else, None (dataclasses makes it). One compiled function, where a frozen class made by
    dataclasses compiles three (its ``__setattr__`` and ``__delattr__`` again)."""
    all_fields: Any = cls.__dict__["__dataclass_fields__"]
    fields = dataclasses.fields(cls)    # type: ignore[arg-type]
    factory_mark = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", None)
    if len(fields) != len(all_fields) or factory_mark is None:
        return None
    missing = dataclasses.MISSING
    params: List[str] = []
    body: List[str] = []
    values: Dict[str, Any] = {"__dataclass_builtins_object__": object, "__dataclass_return_type__": None,
                              "_HAS_DEFAULT_FACTORY": factory_mark}
    seen_default = False
    for f in fields:
        name = f.name
        if (not f.init or getattr(f, "kw_only", False) is True or name == "self"
                or not name.isidentifier()):
            return None
        values[f"_type_{name}"] = f.type
        if f.default_factory is not missing:
            values[f"_dflt_{name}"] = f.default_factory
            params.append(f"{name}:_type_{name}=_HAS_DEFAULT_FACTORY")
            value = f"_dflt_{name}() if {name} is _HAS_DEFAULT_FACTORY else {name}"
            seen_default = True
        elif f.default is not missing:
            values[f"_dflt_{name}"] = f.default
            params.append(f"{name}:_type_{name}=_dflt_{name}")
            value = name
            seen_default = True
        elif seen_default:
            return None                 # (dataclasses' own TypeError says which)
        else:
            params.append(f"{name}:_type_{name}")
            value = name
        body.append(f"__dataclass_builtins_object__.__setattr__(self,{name!r},{value})" if frozen
                    else f"self.{name}={value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    names = ", ".join(values)
    text = (f"def __create_fn__({names}):\n"
            f" def __init__({', '.join(['self'] + params)})->__dataclass_return_type__:\n"
            + "".join(f"  {line}\n" for line in body or ["pass"])
            + " return __init__")
    module = sys.modules.get(cls.__module__)
    scope: Dict[str, Any] = {}
    # compiled without this module's `from __future__ import annotations` (exec would inherit
    # it): the annotations are the fields' types themselves, as in dataclasses' own
    exec(compile(text, "<string>", "exec", dont_inherit=True), module.__dict__ if module is not None else {}, scope)
    init: Callable[..., None] = scope["__create_fn__"](**values)
    if sys.version_info >= (3, 10):     # (3.9's dataclasses leave the name __create_fn__ gives)
        init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _frozen_methods(cls: type, names: Tuple[str, ...]) -> Tuple[Callable[..., None], Callable[..., None]]:
    """The ``__setattr__`` and ``__delattr__`` dataclasses writes for a frozen `cls` with the
    fields `names`: the same condition (``type(self) is cls or name in fields``), the same
    FrozenInstanceError and words, else the base's method, as closures."""
    fields = frozenset(names)
    error = dataclasses.FrozenInstanceError
    owner: Any = cls

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in fields:
            raise error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in fields:
            raise error(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)
    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    __delattr__.__qualname__ = f"{cls.__qualname__}.__delattr__"
    return __setattr__, __delattr__


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
