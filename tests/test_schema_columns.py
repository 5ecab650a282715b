"""The compiled schema check of a record's deals a field at a time gives the item-by-item answer.

Issue 18 (validate of the 10k full-deal JSON): the compiled check (`schema_fast`) checks a list of
deals column by column (every deal's hands at once, every trick's text at once, each distinct
name or contract once) before, and instead of, deal by deal. It may only say "valid" where the
deal-by-deal check does; when it cannot say, the deal-by-deal check runs as before. These tests
hold the two (and jsonschema) side by side on generated records of every preset and on made-up
bad deals: wrong types, unknown and missing fields, bad cards, adjust entries among the deals,
and duplicate keys in the JSON text.
"""
from __future__ import annotations

import copy
import json
import random
import re
import sys
from pathlib import Path
from typing import Any, Iterator, List

import pytest

from conftest import ROOT

from prefcli.io import schema_fast
from prefcli.io.schemas import schema_text, validator_for

sys.path.insert(0, str(ROOT / "tests"))
from test_schema_fast import VALUES, _paths, _set  # noqa: E402


def _generate(deals: int, full: bool, players: int, variant: str, seed: int = 18) -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    return generate(deals, full=full, players=players, variant=variant, seed=seed)


def _presets() -> List[str]:
    from prefcli.rules.presets import preset_names
    return preset_names()


def _long_way() -> Any:
    check = schema_fast.compile_schema(json.loads(schema_text("record")), columns=False)
    assert check is not None
    return check


def _answer(check: Any, data: Any) -> Any:
    try:
        return check(data)
    except Exception as exc:  # noqa: BLE001 - the same exception from both, or is_valid's False
        return type(exc)


def _truth(data: Any) -> bool:
    return not any(True for _ in validator_for("record").iter_errors(data))


def _rows_function() -> Any:
    """The shipped check's function that checks the deals column by column."""
    from prefcli.io import schema_record_check
    source = Path(schema_record_check.__file__).read_text(encoding="utf-8")
    names = re.findall(r"if (_r[0-9]+)\(x\): return True", source)
    assert len(names) == 1, "the deals are no longer checked column by column"
    return getattr(schema_record_check, names[0])


# -- the cards of many texts at once ----------------------------------------------------------

def test_cards_text_says_what_the_regular_expression_says():
    rnd = random.Random(18)
    pieces = sorted(schema_fast.CARD_TOKENS) + ["", " ", "  ", ",", "1", "0", "10", "01", "110S", "100S", "1S",
                                                 "0S", "11S", "6S", "7", "S", "\n", "\t", "7S\n", "x",
                                                 "\x01", "\x02", "\x03", "\x04", "\x01\x02", "\x03\x04\x02", "T",
                                                 "♠", "A♠", "10♥", "1 0S", "AS KS"]
    seen = 0
    for _ in range(20000):
        text = rnd.choice(["", " ", "  ", ","]).join(rnd.choice(pieces) for _ in range(rnd.randint(0, 6)))
        if rnd.random() < 0.5:
            text = " ".join(rnd.choice(sorted(schema_fast.CARD_TOKENS)) for _ in range(rnd.randint(1, 12)))
            if rnd.random() < 0.5:       # one place changed
                i = rnd.randrange(len(text) + 1)
                text = text[:i] + rnd.choice(pieces) + text[i + rnd.randint(0, 2):]
        want = schema_fast.CARDS_TEXT(text) is not None
        assert schema_fast.cards_text(text) == want, repr(text)
        seen += want
    assert seen > 5000
    # and on a record's worth of hands joined
    data = _generate(300, True, 3, "sochi")
    hands = " ".join(t for d in data["deals"] for t in d["hands"].values())
    assert schema_fast.cards_text(hands) and not schema_fast.cards_text(hands + " 1S")
    assert not schema_fast.cards_text(hands.replace("10", "1", 1)) and not schema_fast.cards_text(hands + " ")
    # every short text of a few characters that reach each branch (the tens, ASCII or not)
    import itertools
    for n in range(7):
        for chars in itertools.product("AS10 ♠\x01", repeat=n):
            text = "".join(chars)
            assert schema_fast.cards_text(text) == (schema_fast.CARDS_TEXT(text) is not None), repr(text)


def test_a_columns_texts_joined_from_its_iterator_are_checked_as_the_list_of_them():
    from itertools import chain
    from prefcli.io.schema_columns import card_texts, joined_cards
    rnd = random.Random(5)
    data = _generate(200, True, 3, "sochi")
    hands = [d["hands"] for d in data["deals"]]
    plays = [d["play"] for d in data["deals"] if "play" in d]
    assert joined_cards(chain.from_iterable(map(dict.values, hands))) is True
    assert joined_cards(map(" ".join, plays)) is True
    for _ in range(300):
        hs, ps = copy.deepcopy(hands), copy.deepcopy(plays)
        bad = rnd.choice(["", "AS  KS", "1S", " AS", 7, None, ["AS"], "10S 0S", "01S"])
        rnd.choice(hs)[rnd.choice(["Ann", "Bob", "Cid"])] = bad
        trick = rnd.choice(ps)
        if rnd.random() < 0.2:
            trick.clear()                # a deal without tricks: the joined text has two spaces
        else:
            trick[rnd.randrange(len(trick))] = bad
        flat = list(chain.from_iterable(map(dict.values, hs)))
        assert joined_cards(chain.from_iterable(map(dict.values, hs))) is card_texts(flat) is False
        assert joined_cards(map(" ".join, ps)) is (all(ps) and card_texts(list(chain.from_iterable(ps)))) is False
    assert joined_cards([]) is False and joined_cards(["AS"]) is True


def test_the_distinct_values_of_a_column_are_tested_as_all_of_them():
    from decimal import Decimal
    from prefcli.io.schema_columns import distinct
    rnd = random.Random(9)
    values = [1, True, 0, False, 1.0, Decimal(1), "1", "a", "", None, [1], {"a": 1}, 2, "Ann"]
    tests = [lambda v: isinstance(v, bool), lambda v: type(v) is int, lambda v: isinstance(v, str),
             lambda v: isinstance(v, str) and v in {"a", "Ann"}, lambda v: v is not None]
    for _ in range(3000):
        vals = [rnd.choice(values) for _ in range(rnd.randint(0, 5))]
        for test in tests:
            assert all(map(test, distinct(vals))) == all(map(test, vals)), vals


# -- generated records of every preset ---------------------------------------------------------

@pytest.mark.parametrize("variant", _presets())
def test_generated_records_of_every_preset_pass_the_columns_as_they_pass_deal_by_deal(variant):
    rows, long_way = _rows_function(), _long_way()
    from prefcli.io.schema_record_check import CHECK
    for full in (False, True):
        for players in (3, 4):
            try:
                data = _generate(60, full, players, variant)
            except Exception:  # noqa: BLE001 - a preset that is not played by this many
                continue
            data = json.loads(json.dumps(data))          # as a JSON document holds it
            assert rows(data["deals"]) is True, (variant, full, players)
            assert CHECK(data) is True and long_way(data) is True and _truth(data)


# -- made-up bad deals -------------------------------------------------------------------------

CARD_TEXTS = ["AS  KS", " AS", "AS ", "1S", "10", "AS,KS", "AS, KS", "♠A", "A♠ K♠", "ts 9h", "11S", "6S", "",
              "AS\nKS", "AS\tKS", "10S 10S", "110S", "0S"]


def _deal_mutants(data: Any, pos: int) -> Iterator[Any]:
    """`data` with one thing of deal `pos` changed: each value replaced by each of VALUES (and by
    odd card texts where a text of cards is), each field removed, an unknown field added."""
    deal = data["deals"][pos]
    for path in _paths(deal):
        full = ("deals", pos) + path
        values = list(VALUES)
        here: Any = deal
        for k in path:
            here = here[k]
        if type(here) is str and schema_fast.CARDS_TEXT(here) is not None:
            values += CARD_TEXTS + [here.replace(" ", "  "), here.lower(), here.replace("10", "T")]
        for v in values:
            yield _set(copy.deepcopy(data), full, v)
        if path:
            parent = copy.deepcopy(data)
            holder = parent["deals"][pos]
            for k in path[:-1]:
                holder = holder[k]
            if isinstance(holder, dict):
                del holder[path[-1]]
                yield parent
                extra = copy.deepcopy(data)
                holder = extra["deals"][pos]
                for k in path[:-1]:
                    holder = holder[k]
                holder["contrat"] = "6S"
                yield extra
    yield _set(copy.deepcopy(data), ("deals", pos), {"adjust": {"pool": {"Ann": 2}}})
    yield _set(copy.deepcopy(data), ("deals", pos), {"adjust": {"pool": {"Ann": "x"}}})
    yield _set(copy.deepcopy(data), ("deals", pos), {"adjust": {}, "contract": "6S"})


@pytest.mark.parametrize("full", [True, False])
def test_made_up_bad_deals_get_the_deal_by_deal_answer(full):
    from prefcli.io.schema_record_check import CHECK
    long_way = _long_way()
    data = json.loads(json.dumps(_generate(24, full, 3, "sochi")))
    seen = valid = 0
    rnd = random.Random(18)
    for pos in (0, 11, 23):
        for mutant in _deal_mutants(data, pos):
            got, want = _answer(CHECK, mutant), _answer(long_way, mutant)
            assert got == want, json.dumps(mutant["deals"][pos], default=str)[:600]
            seen += 1
            valid += got is True
            if got is True and rnd.random() < 0.05:   # and the long way's "valid" is jsonschema's
                assert _truth(mutant)
    assert seen > 1000 and valid > 50


def test_the_columns_decline_what_they_cannot_say_and_the_deals_are_then_checked_one_by_one():
    rows = _rows_function()
    data = json.loads(json.dumps(_generate(10, True, 3, "sochi")))
    deals = data["deals"]
    assert rows(deals) is True
    assert rows([]) is None and rows(deals + [[]]) is None and rows(deals + ["6S"]) is None
    assert rows(deals + [{"adjust": {}}]) is None         # an adjust entry: its own schema
    assert rows(deals + [{"declarer": "Ann"}]) is None    # a deal without its contract
    assert rows(deals + [{"contract": "6S", "contrat": "6S"}]) is None
    odd = copy.deepcopy(deals)
    odd[3]["hands"]["Ann"] = odd[3]["hands"]["Ann"].split()  # a hand as a list of cards: valid
    assert rows(odd) is True
    odd[4]["tricks"] = {"Ann": True}                   # a bool is no trick count (True == 1)
    assert rows(odd) is None
    from prefcli.io.schema_record_check import CHECK
    assert CHECK(dict(data, deals=odd)) is False and not _truth(dict(data, deals=odd))


# -- what validate says of them ----------------------------------------------------------------

def _bad_texts() -> Iterator[str]:
    text = json.dumps(_generate(30, True, 3, "sochi"), indent=1, ensure_ascii=False)
    yield text
    yield text.replace('"talon": "', '"talon": "11X ', 1)
    yield text.replace('"contract": "', '"contrakt": "', 1)
    yield text.replace('"open": false', '"open": "no"', 1)
    yield text.replace('"dealer": "Bob"', '"dealer": ""', 1)
    yield text.replace('"auction": [', '"auction": [7, ', 1)
    i = text.index(' ', text.index('": "', text.index('"hands"', len(text) // 2)) + 4)
    yield text[:i] + " " + text[i:]                    # two spaces between two cards of a hand (valid)
    yield text[:i] + "Z" + text[i:]                    # a card of no suit
    j = text.rindex('"play": [')
    yield text[:j] + text[j:].replace('",', ' 7S",', 1)
    yield text[:j] + text[j:].replace('"play": [', '"play": [{"AS": 1}, ', 1)
    yield text.replace('"dealer": "Cid",', '"dealer": "Cid", "dealer": "Ann",', 1)     # a duplicate key
    yield text.replace('"Bob": "pass"', '"Bob": "pass", "Bob": "whist"', 1)
    yield text.replace('"tricks": {', '"tricks": {"Ann": 11, ', 1)
    yield text.replace('"deals": [', '"deals": [{"adjust": {"pool": {"Ann": 1}}}, ', 1)


def test_validate_says_the_same_of_made_up_records_with_and_without_the_columns(run, tmp_path, monkeypatch):
    paths = []
    for i, text in enumerate(_bad_texts()):
        p = tmp_path / f"r{i}.json"
        p.write_text(text, encoding="utf-8")
        paths.append(p)
    fast = [run(["validate", str(p)]) for p in paths]
    long_way = _long_way()
    monkeypatch.setattr(schema_fast, "checker", lambda kind: long_way if kind == "record" else None)
    slow = [run(["validate", str(p)]) for p in paths]
    assert fast == slow
    assert [code for code, _, _ in fast] == [0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0], str([c for c, _, _ in fast])
    assert "duplicate key 'dealer'" in fast[10][2] and "deals[" in fast[8][2]


def test_many_texts_of_cards_are_checked_a_few_hundred_at_a_time_as_all_at_once():
    from prefcli.io.schema_columns import card_texts
    data = _generate(400, True, 3, "sochi")
    hands = [t for d in data["deals"] for t in d["hands"].values()]
    assert len(hands) > 1000 and card_texts(hands) is True
    for i in (0, 511, 512, 513, len(hands) - 1):
        for bad in ("", "AS  KS", "1S", 7, None, ["AS"]):
            odd = list(hands)
            odd[i] = bad
            assert card_texts(odd) is False, (i, bad)
    assert card_texts([]) is False and card_texts(["AS"]) is True
