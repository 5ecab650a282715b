"""The speed-ups keep behaviour: the resolved-rules cache, the parsed-notation caches of the model
builder and the whole-number sums of the sheet give exactly what they gave before."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import List, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefcli.rules import presets
from prefcli.model.diagnostics import Problems
from prefcli.model.records import SheetData
from prefcli.model.build import record_from_data
from prefcli.rules.presets import OptionError, resolve_rules
from prefcli.model.ledger import Entry, sheet_from_entries


# --- resolve_rules cache ------------------------------------------------------------------

def test_different_rules_blocks_never_share_a_result() -> None:
    assert resolve_rules({"variant": "sochi", "pool": 10})["pool"] == 10
    assert resolve_rules({"variant": "sochi", "pool": 20})["pool"] == 20
    assert resolve_rules({"variant": "leningrad"}).variant == "leningrad"
    assert resolve_rules({"variant": "sochi"}).variant == "sochi"
    assert resolve_rules({"variant": "sochi"}, variant="rostov").variant == "rostov"
    assert resolve_rules({"variant": "sochi"}, sets=[("pool", "30")])["pool"] == 30
    assert resolve_rules({"variant": "sochi"}, sets=[("pool", "40")])["pool"] == 40


def test_values_equal_in_python_but_different_as_rules_are_kept_apart() -> None:
    """1 == True == Decimal('1') in Python; "0.10" and "0.1" are equal Decimals. As rule values
    they are not the same thing, so they must not share a cached result."""
    assert resolve_rules({"pool": 1})["pool"] == 1
    with pytest.raises(OptionError):
        resolve_rules({"pool": True})
    assert resolve_rules({"price": Decimal("0.1")})["price"] == "0.1"
    assert resolve_rules({"price": Decimal("0.10")})["price"] == "0.10"
    assert resolve_rules({"prices": {"7": 5}}).overridden == ("prices.7",)
    # an int key and a text key name the same option, but an error's path keeps the key as written
    for key in (7, "7", 7):
        with pytest.raises(OptionError) as info:
            resolve_rules({"prices": {key: "x"}})
        assert info.value.path == ("rules", "prices", key) and type(info.value.path[-1]) is type(key)
    a = resolve_rules({"pool": 10, "price": "0.1"}).overridden
    b = resolve_rules({"price": "0.1", "pool": 10}).overridden
    assert a == ("pool", "price") and b == ("price", "pool")


def test_errors_are_raised_every_time() -> None:
    for _ in range(2):
        with pytest.raises(OptionError) as info:
            resolve_rules({"variant": "sochi", "no_such_option": 1})
        assert info.value.path == ("rules", "no_such_option")


def test_a_cached_result_is_not_changed_by_its_callers() -> None:
    block = {"variant": "sochi", "pool": 12}
    first = resolve_rules(block)
    first.values["pool"] = 999          # a careless caller
    second = resolve_rules(block)
    assert second["pool"] == 12
    assert second.values is not first.values
    block["pool"] = 14                  # the caller's own mapping changes: a new result
    assert resolve_rules(block)["pool"] == 14


def test_sets_may_be_any_iterable() -> None:
    pairs = (p for p in [("pool", "15")])
    assert resolve_rules({}, sets=pairs)["pool"] == 15  # type: ignore[arg-type]


def test_unhashable_or_odd_values_are_resolved_without_the_cache() -> None:
    class Odd:
        def __str__(self) -> str:
            return "25"
    assert resolve_rules({"pool": "25"})["pool"] == 25
    with pytest.raises(OptionError):
        resolve_rules({"pool": Odd()})


_OPTION_VALUES = {
    "pool": st.sampled_from([10, 20, "20", True, Decimal("20.0"), -1, None]),
    "price": st.sampled_from([Decimal("0.1"), Decimal("0.10"), "0.5", 1, None, "x"]),
    "allpass": st.sampled_from([{"progression": [1, 2, 3]}, {"progression": "1,2,4"}, {"amnesty": "no"},
                                {"amnesty": False}, {"amnesty": 0}, {}]),
    "variant": st.sampled_from(["sochi", "leningrad", "rostov", "classic", "nope", 1]),
}


@settings(max_examples=120, deadline=None)
@given(block=st.fixed_dictionaries({}, optional=_OPTION_VALUES),
       variant=st.sampled_from([None, "sochi", "leningrad"]),
       sets=st.lists(st.tuples(st.sampled_from(["pool", "price"]), st.sampled_from(["10", "0.2", "x"])), max_size=2))
def test_cached_and_uncached_resolution_agree(block, variant, sets) -> None:
    def run():
        try:
            r = resolve_rules(block, variant, sets, "sochi")
            return ("ok", r.preset.name, dict(r.values), r.overridden)
        except OptionError as exc:
            return ("error", exc.message, exc.path)
    presets.register_preset(presets.get_preset("sochi"))  # registering empties the cache: a fresh answer
    uncached = run()
    assert run() == uncached
    assert run() == uncached   # again, from the cache


def test_a_preset_registered_again_is_seen_at_once() -> None:
    """What the resolution cache must never do: answer with a preset's old values."""
    import dataclasses
    base = presets.get_preset("sochi")
    club = dataclasses.replace(base, name="test-cache-club", values={**base.values, "pool": 21})
    presets.register_preset(club)
    try:
        assert resolve_rules({"variant": "test-cache-club"})["pool"] == 21
        presets.register_preset(dataclasses.replace(club, values={**base.values, "pool": 33}))
        assert resolve_rules({"variant": "test-cache-club"})["pool"] == 33
    finally:
        presets._PRESETS.pop("test-cache-club", None)   # leave the registry as it was
        presets.register_preset(base)


# --- parsed notation caches of the model builder -------------------------------------------

def _deal_problems(deals) -> List[str]:
    problems = Problems()
    record_from_data({"format": "pref-record/1", "players": ["Ann", "Bob", "Cid"], "deals": deals}, problems)
    return [p.message for p in problems]


def test_a_bad_token_after_good_ones_is_still_reported() -> None:
    good = {"contract": "6S", "declarer": "Ann", "whist": {"Bob": "whist", "Cid": "pass"},
            "tricks": {"Ann": 6, "Bob": 3, "Cid": 1}, "hands": {"Ann": ["7S", "8S"]}}
    assert _deal_problems([good, good]) == []
    bad = {"contract": "6X", "declarer": ""}
    assert len(_deal_problems([good, bad])) == 1
    bad = dict(good, whist={"Bob": "wist", "Cid": "pass"}, tricks={"Ann": True, "Bob": 3, "Cid": 1.5},
               hands={"Ann": ["7S", "1S"]}, declarer=" ")
    msgs = _deal_problems([good, bad])
    assert len(msgs) == 5, msgs


def test_the_same_text_gives_equal_objects() -> None:
    rec = record_from_data({"format": "pref-record/1", "players": ["Ann", "Bob", "Cid"],
                            "deals": [{"contract": "7H", "declarer": "Bob", "whist": {"Ann": "half-whist"},
                                       "talon": ["7S", "AS"]}] * 2}, strict=True)
    a, b = rec.deals
    assert a.contract == b.contract and str(a.contract) == "7H"
    assert a.whist == b.whist and a.talon == b.talon
    assert a.pos == 0 and b.pos == 1


# --- whole-number sums of the sheet --------------------------------------------------------

def _naive(players, entries, upto: Optional[int]) -> SheetData:
    """The sheet summed entry by entry in Fractions (the definition)."""
    sheet = SheetData.empty(players)
    for e in entries:
        if upto is not None and e.deal is not None and e.deal > upto:
            continue
        if e.area == "pool":
            sheet.pool[e.player] = sheet.pool.get(e.player, Fraction(0)) + e.amount
        elif e.area == "mountain":
            sheet.mountain[e.player] = sheet.mountain.get(e.player, Fraction(0)) + e.amount
        else:
            row = sheet.whists.setdefault(e.player, {})
            row[e.on] = row.get(e.on, Fraction(0)) + e.amount
    return sheet


_amounts = st.one_of(st.integers(-50, 50).map(Fraction),
                     st.tuples(st.integers(-99, 99), st.integers(1, 6)).map(lambda t: Fraction(*t)))
_who = st.sampled_from(["Ann", "Bob", "Cid", "Dan"])


@st.composite
def _entry(draw) -> Entry:
    area = draw(st.sampled_from(["pool", "mountain", "whists"]))
    player = draw(_who)
    on = draw(_who.filter(lambda q: q != player)) if area == "whists" else None
    return Entry(draw(st.one_of(st.none(), st.integers(1, 5))), player, area, draw(_amounts), "r", on)


@settings(max_examples=150, deadline=None)
@given(entries=st.lists(_entry(), max_size=25), upto=st.one_of(st.none(), st.integers(0, 5)))
def test_sheet_sums_equal_fraction_by_fraction_sums(entries, upto) -> None:
    players = ("Ann", "Bob", "Cid")
    fast, slow = sheet_from_entries(players, entries, upto), _naive(players, entries, upto)
    assert fast == slow
    # the same keys in the same order, every value a Fraction
    assert list(fast.pool) == list(slow.pool) and list(fast.mountain) == list(slow.mountain)
    assert [(k, list(v)) for k, v in fast.whists.items()] == [(k, list(v)) for k, v in slow.whists.items()]
    for area in (fast.pool, fast.mountain, *fast.whists.values()):
        assert all(type(v) is Fraction for v in area.values())


# --- deals built without the dataclass __init__ --------------------------------------------

def test_deals_built_from_data_are_the_same_objects_as_constructed_ones() -> None:
    """The loader's fast deal building gives what the dataclass gives (equal, hashable, same
    repr, picklable, replaceable, frozen): behaviour, not the building trick."""
    import dataclasses
    import pickle

    from prefcli.model.cards import Decision, parse_contract
    from prefcli.model.records import Deal

    data = {"format": "pref-record/1", "players": ["Ann", "Bob", "Cid"], "rules": {"variant": "sochi"},
            "deals": [{"contract": "6S", "declarer": "Ann", "whist": {"Bob": "pass", "Cid": "whist"},
                       "tricks": {"Ann": 7, "Bob": 1, "Cid": 2}, "note": "x"},
                      {"contract": "misere", "declarer": "Bob", "tricks": {"Bob": 0, "Cid": 5, "Ann": 5}}]}
    record = record_from_data(data)
    slow = [Deal(pos=0, contract=parse_contract("6S"), declarer="Ann",
                 whist=(("Bob", Decision.PASS), ("Cid", Decision.WHIST)),
                 tricks=(("Ann", 7), ("Bob", 1), ("Cid", 2)), note="x"),
            Deal(pos=1, contract=parse_contract("misere"), declarer="Bob",
                 tricks=(("Bob", 0), ("Cid", 5), ("Ann", 5)))]
    for fast, want in zip(record.deals, slow):
        assert type(fast) is Deal
        assert fast == want and hash(fast) == hash(want) and repr(fast) == repr(want)
        assert pickle.loads(pickle.dumps(fast)) == want
        assert dataclasses.replace(fast, note="y") == dataclasses.replace(want, note="y")
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.note = "changed"  # type: ignore[misc]
    assert len(record.deals) == len(slow)
    import json

    from prefcli.io.documents import build_record_fast

    from prefcli.io.parsing import parse_text
    from prefcli.model.diagnostics import InputError
    bad = parse_text("x.json", json.dumps({**data, "deals": [{"contract": "6S", "no_such_field": 1}]}), True)
    with pytest.raises(InputError, match="no_such_field"):   # refused, as Deal(...) refuses it
        build_record_fast(bad)


def test_ledger_entries_are_the_same_objects_as_constructed_ones() -> None:
    import dataclasses

    from prefcli.model.ledger import Ledger
    ledger = Ledger(("Ann", "Bob", "Cid"))
    ledger.pool(1, "Ann", 4, "contract.made", "made 6S")
    ledger.mountain(2, "Bob", Fraction(5, 2), "contract.failed")
    ledger.whists(3, "Cid", "Ann", 12, "whists", "whisted")
    ledger.add(None, "Ann", "pool", 7, "start")
    expected = [Entry(1, "Ann", "pool", Fraction(4), "contract.made", None, "made 6S"),
                Entry(2, "Bob", "mountain", Fraction(5, 2), "contract.failed"),
                Entry(3, "Cid", "whists", Fraction(12), "whists", "Ann", "whisted"),
                Entry(None, "Ann", "pool", Fraction(7), "start")]
    assert len(ledger.entries) == len(expected)
    for got, want in zip(ledger.entries, expected):
        assert type(got) is Entry and got == want and repr(got) == repr(want) and hash(got) == hash(want)
        assert type(got.amount) is Fraction
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.amount = Fraction(1)  # type: ignore[misc]
    # what Entry refuses, Ledger.add still refuses
    with pytest.raises(ValueError):
        ledger.add(1, "Ann", "bank", 3, "x")
    with pytest.raises(ValueError):
        ledger.add(1, "Ann", "whists", 3, "x")
    with pytest.raises(ValueError):
        ledger.add(1, "Ann", "pool", 3, "x", on="Bob")
