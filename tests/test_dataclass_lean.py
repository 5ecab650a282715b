"""prefcli.model.slots.dataclass makes a class's ``__init__`` at its first call and a frozen
class's ``__setattr__``/``__delattr__`` as shared closures (issue 18: three compiled functions
a class at every start, for classes most runs never call). The classes it makes must behave as
dataclasses' own: each case is made both ways (``_LAZY`` on and off) and compared."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import sys
from dataclasses import InitVar, field
from typing import Any, Callable, ClassVar, List, Optional, Tuple

import pytest

from prefcli.model import slots
from prefcli.model.slots import dataclass, slotted


def _both(make: Callable[[], type]) -> Tuple[type, type]:
    """The class `make` defines, lazily made and made by dataclasses at once."""
    lazy = make()
    old = slots._LAZY[0]
    slots._LAZY[0] = False
    try:
        eager = make()
    finally:
        slots._LAZY[0] = old
    return lazy, eager


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return ("ok", call())
    except Exception as exc:     # noqa: BLE001 - the error is what is compared
        return (type(exc), str(exc))


def _frozen_plain() -> type:
    @dataclass(frozen=True)
    class Point:
        """A point."""

        x: int
        y: int = 2
        tags: List[str] = field(default_factory=list)
        label: Optional[str] = field(default=None, compare=False)
        unit: ClassVar[str] = "cm"
    return Point


def _with_post_init() -> type:
    @dataclass
    class Box:
        """A box whose area is computed, with an init-only scale."""

        w: int
        h: int
        scale: InitVar[int] = 1
        area: int = field(init=False, default=0)

        def __post_init__(self, scale: int) -> None:
            self.area = self.w * self.h * scale
    return Box


def _slotted_frozen() -> type:
    @slotted
    @dataclass(frozen=True)
    class Cell:
        """A slotted cell."""

        row: int
        col: int = 0
    return Cell


def _plain_post_init() -> type:
    @dataclass(frozen=True)
    class Run:
        """Plain fields and a check after them."""

        start: int
        steps: Tuple[int, ...] = ()
        seen: List[int] = field(default_factory=lambda: [0])

        def __post_init__(self) -> None:
            if self.start < 0:
                raise ValueError("a negative start")
    return Run


def _init_false_field() -> type:
    @dataclass
    class Later:
        """A field set after __init__."""

        a: int
        later: int = field(init=False, default=7)
    return Later


def _named_self() -> type:
    @dataclass
    class Odd:
        """A field called self."""

        self: int
        b: int = 1
    return Odd


@pytest.mark.parametrize("make", [_frozen_plain, _with_post_init, _slotted_frozen, _plain_post_init,
                                  _init_false_field, _named_self])
def test_a_lazily_made_class_behaves_as_the_dataclass(make: Callable[[], type]) -> None:
    lazy, eager = _both(make)
    assert "__init__" in lazy.__dict__
    for args, kw in [((1,), {}), ((1, 5), {}), ((), {"x": 3}), ((1, 2, 3, 4, 5, 6), {}), ((), {}),
                     ((1,), {"nope": 1}), ((4, 5), {"scale": 3}), ((7,), {"col": 8}), ((), {"row": 1}),
                     ((1,), {"h": 2}), ((2, 3), {})]:
        a, b = _outcome(lambda: lazy(*args, **kw)), _outcome(lambda: eager(*args, **kw))
        assert a[0] == b[0] or (a[0] == "ok") == (b[0] == "ok"), (args, kw, a, b)
        if a[0] != "ok":
            assert a == b, (args, kw)
            continue
        x, y = a[1], b[1]
        assert repr(x) == repr(y)
        assert dataclasses.astuple(x) == dataclasses.astuple(y)
        assert x == lazy(*args, **kw)
        assert _outcome(lambda: hash(x)) == _outcome(lambda: hash(y))
        assert copy.deepcopy(x) == x and copy.copy(x) == x     # (local classes: no pickle)
        assert repr(_outcome(lambda: dataclasses.replace(x))) == repr(_outcome(lambda: dataclasses.replace(y)))
        name = dataclasses.fields(x)[0].name
        assert _outcome(lambda: setattr(x, name, 9)) == _outcome(lambda: setattr(y, name, 9))
        assert _outcome(lambda: delattr(x, name)) == _outcome(lambda: delattr(y, name))
        assert _outcome(lambda: setattr(x, "other", 1)) == _outcome(lambda: setattr(y, "other", 1))
    assert lazy.__init__ is lazy.__dict__["__init__"]
    assert lazy.__init__.__qualname__ == eager.__init__.__qualname__
    assert lazy.__init__.__annotations__ == eager.__init__.__annotations__
    assert lazy.__init__.__defaults__ == eager.__init__.__defaults__
    assert lazy.__init__.__kwdefaults__ == eager.__init__.__kwdefaults__
    assert lazy.__init__.__code__.co_varnames == eager.__init__.__code__.co_varnames
    assert str(inspect.signature(lazy)) == str(inspect.signature(eager))   # the real one by now
    assert lazy.__dataclass_params__.__repr__() == eager.__dataclass_params__.__repr__()
    assert [f.name for f in dataclasses.fields(lazy)] == [f.name for f in dataclasses.fields(eager)]
    assert getattr(lazy, "__match_args__", None) == getattr(eager, "__match_args__", None)
    assert lazy.__doc__ == eager.__doc__


def test_fields_out_of_order_are_refused_at_the_first_call() -> None:
    @dataclass
    class Wrong:
        """A field without a default after one with."""

        a: int = 0
        b: int      # type: ignore[misc]
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        Wrong(1, 2)


@pytest.mark.skipif(sys.version_info < (3, 10), reason="kw_only is Python 3.10's")
def test_keyword_only_fields_are_made_by_dataclasses() -> None:
    def make() -> type:
        @dataclass
        class Kw:
            """Keyword-only fields."""

            a: int
            _: dataclasses.KW_ONLY       # type: ignore[name-defined]
            b: int = 2
        return Kw
    lazy, eager = _both(make)
    assert _outcome(lambda: lazy(1, 3)) == _outcome(lambda: eager(1, 3))
    assert repr(lazy(1, b=3)) == repr(eager(1, b=3))
    assert str(inspect.signature(lazy)) == str(inspect.signature(eager))


def test_a_subclass_made_before_the_first_call_gets_the_real_init() -> None:
    lazy, eager = _both(_frozen_plain)

    class Sub(lazy):        # type: ignore[valid-type, misc]
        pass

    class SubEager(eager):  # type: ignore[valid-type, misc]
        pass
    s, t = Sub(1), SubEager(1)
    assert repr(s).endswith("(x=1, y=2, tags=[], label=None)")
    assert "__init__" not in Sub.__dict__ and lazy.__init__ is lazy.__dict__["__init__"]
    # a subclass instance may set what is not a field, as dataclasses' frozen __setattr__ says
    assert _outcome(lambda: setattr(s, "z", 1)) == _outcome(lambda: setattr(t, "z", 1))
    assert _outcome(lambda: setattr(s, "x", 1)) == _outcome(lambda: setattr(t, "x", 1))
    assert _outcome(lambda: delattr(s, "z")) == _outcome(lambda: delattr(t, "z"))


def test_a_class_without_a_docstring_or_with_its_own_init_is_made_by_dataclasses() -> None:
    @dataclass(frozen=True)
    class Bare:
        a: int

    @dataclass
    class Own:
        """Its own __init__."""

        a: int

        def __init__(self) -> None:
            self.a = 5
    assert Bare.__doc__ == "Bare(a: 'int')" and Bare(1).a == 1
    assert Own().a == 5


def test_the_model_classes_are_made_the_lazy_way() -> None:
    """The classes every command makes (the reason for it), called or not yet."""
    from prefcli.model.records import Deal, Record
    from prefcli.rules.reading import DealReading
    for cls in (Deal, Record, DealReading):
        assert cls.__dataclass_params__.init
    record = Record(("A", "B", "C"), {}, ())
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'players'"):
        record.players = ()       # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'rules'"):
        del record.rules          # type: ignore[misc]
    assert pickle.loads(pickle.dumps(record)) == record
