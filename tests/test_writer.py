"""Canonical writing of records and sheets (issue 7): round trips, idempotence, quoting.

The round trips are parametrised over the examples folder, so examples added later are covered.
"""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from conftest import EXAMPLES
from prefcli.io.documents import load_document
from prefcli.io.parsing import parse_text
from prefcli.model.build import record_from_data
from prefcli.model.build_sheet import sheet_from_data
from prefcli.io.writer_json import dump_json
from prefcli.io.writer_text import dump_yaml
from prefcli.rules.canonical import canonical_record_data, record_to_data, rules_to_data, sheet_to_data

FORMAT_EXAMPLE = """\
format: pref-record/1
meta:
  event: Club night
  date: 2026-11-29
  site: Vilnius
players: [Ann, Bob, Cid]
rules:
  variant: sochi
  pool: 20
  price: "0.1"
  whist_style: gentleman
first_dealer: Ann
deals:
  - contract: 6S
    declarer: Bob
    whist: {Cid: whist, Ann: whist}
    tricks: {Bob: 6, Cid: 3, Ann: 1}
  - contract: 7H
    declarer: Cid
    whist: {Ann: pass, Bob: pass}
  - contract: misere
    declarer: Ann
    open: true
    tricks: {Ann: 1, Bob: 5, Cid: 4}
  - contract: all-pass
    tricks: {Ann: 2, Bob: 5, Cid: 3}
"""


def example_files():
    if not EXAMPLES.is_dir():
        return []
    out = []
    for p in sorted(EXAMPLES.rglob("*")):
        if p.suffix.lower() in (".yaml", ".yml", ".json") and p.is_file():
            doc = load_document(str(p))
            if doc.kind in ("record", "sheet"):
                out.append(p)
    return out


EXAMPLE_FILES = example_files()


def canonical(doc):
    if doc.kind == "sheet":
        return sheet_to_data(sheet_from_data(doc.data, strict=True))
    return record_to_data(record_from_data(doc.data, strict=True))


def reread(text: str, is_json: bool):
    return parse_text("<test>", text, is_json)


def check_round_trips(doc):
    data = canonical(doc)
    y1 = dump_yaml(data)
    j1 = dump_json(data)
    # YAML -> JSON -> YAML gives the same data and the same text
    from_yaml = canonical(reread(y1, False))
    assert from_yaml == data
    j2 = dump_json(from_yaml)
    assert j2 == j1
    from_json = canonical(reread(j2, True))
    assert from_json == data
    assert dump_yaml(from_json) == y1
    # idempotent: the canonical text converted again is unchanged
    assert dump_yaml(canonical(reread(y1, False))) == y1
    assert dump_json(canonical(reread(j1, True))) == j1
    # plain yaml.safe_load (YAML 1.1) reads the same data as a JSON reader
    assert yaml.safe_load(y1) == json.loads(j1)
    return data


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_examples_round_trip(path):
    check_round_trips(load_document(str(path)))


def test_format_md_example_round_trips():
    data = check_round_trips(reread(FORMAT_EXAMPLE, False))
    assert list(data) == ["format", "meta", "players", "rules", "first_dealer", "deals"]
    # the date stays a string: quoted, so YAML 1.1 readers do not make it a date
    assert data["meta"]["date"] == "2026-11-29"
    assert "date: '2026-11-29'" in dump_yaml(data)


def test_canonical_layout_of_format_example():
    text = dump_yaml(canonical(reread(FORMAT_EXAMPLE, False)))
    assert text.splitlines()[:4] == ["format: pref-record/1", "meta:", "  event: Club night",
                                     "  date: '2026-11-29'"]
    assert "players: [Ann, Bob, Cid]" in text
    assert "  - contract: 6S\n    declarer: Bob\n    whist: {Cid: whist, Ann: whist}\n" \
           "    tricks: {Bob: 6, Cid: 3, Ann: 1}\n" in text
    assert "rules:\n  variant: sochi\n  pool: 20\n  price: '0.1'\n  whist_style: gentleman\n" in text


def test_cards_contracts_hands_canonical():
    data = {"format": "pref-record/1", "players": ["Ann", "Bob", "Cid"], "rules": {"variant": "sochi"},
            "deals": [{
                "dealer": "Ann",
                "hands": {"Bob": ["A♠", "K♠", "Q♠", "J♠", "T♠", "9♠", "A♥", "K♥", "7♦", "7♣"],
                          "Cid": "8s 7s qh jh th 9h ad kd qd jd",
                          "Ann": "8H 7H 10D 9D 8D AC KC QC JC 10C"},
                "talon": ["9♣", "8♣"], "auction": ["6♠", "pass", "6♣", "here", "pass"],
                "discard": "7♦ 7♣", "contract": "7♠", "declarer": "Bob",
                "whist": {"Cid": "вист", "Ann": "pas"}, "play": [["A♠", "8♠", "8♥"]],
            }]}
    out = canonical_record_data(data)
    deal = out["deals"][0]
    assert deal["hands"] == {"Bob": "AS KS QS JS 10S 9S AH KH 7D 7C",
                             "Cid": "8S 7S QH JH 10H 9H AD KD QD JD",
                             "Ann": "8H 7H 10D 9D 8D AC KC QC JC 10C"}
    assert deal["talon"] == "9C 8C" and deal["discard"] == "7D 7C"
    assert deal["auction"] == ["6S", "pass", "6C", "here", "pass"]
    assert deal["contract"] == "7S"
    assert deal["whist"] == {"Cid": "whist", "Ann": "pass"}
    assert deal["play"] == ["AS 8S 8H"]
    assert list(deal) == ["dealer", "hands", "talon", "auction", "discard", "contract", "declarer",
                          "whist", "play"]
    text = dump_yaml(out)
    assert "    play:\n      - AS 8S 8H\n" in text  # tricks one per line, never a flow list


def test_rules_canonical_order_nesting_and_values():
    rules = {"allpass.amnesty": "no", "pool": "30", "variant": "Sochi",
             "prices": {7: 5}, "allpass": {"progression": "[1, 2, 4]"}, "price": Decimal("0.10"),
             "house_rule": "yes"}
    out = rules_to_data(rules)
    assert list(out) == ["variant", "pool", "price", "prices", "allpass", "house_rule"]
    assert out["variant"] == "sochi" and out["pool"] == 30 and out["price"] == "0.10"
    assert out["prices"] == {"7": 5}
    assert out["allpass"] == {"progression": [1, 2, 4], "amnesty": False}
    assert out["house_rule"] == "yes"  # an unknown option is kept as written (validate reports it)


TRICKY = ["no", "No", "yes", "on", "off", "y", "n", "~", "null", "true", "True", "2026-11-29",
          "2026-11-29 10:00:00", "010", "0o10", "0x1F", "1e5", "1E5", ".5", "+1", "-1", "1_000",
          "12:30", ".inf", ".nan", "", " lead", "a: b", "#x", "- x", "[x]", "{x}", "*x", "&x", "!x",
          "%x", "@x", "`x", "'q'", '"q"', "x #y", "Žilvinas", "Пётр", "a\nb", "tab\there", "=", "<<"]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_strings_read_back_as_strings(text):
    data = {"format": "pref-record/1", "meta": {"value": text, text or "empty": [text]},
            "players": ["Ann", "Bob", "Cid"], "rules": {"variant": "sochi"}, "deals": []}
    y = dump_yaml(data)
    assert parse_text("<t>", y, False).data == data           # the project's loader (YAML 1.2 core)
    assert yaml.safe_load(y) == data                          # plain PyYAML (YAML 1.1)
    j = dump_json(data)
    assert parse_text("<t>", j, True).data == data
    assert json.loads(j) == data


def test_tricky_player_names_round_trip():
    names = ["No", "010", "2026-11-29"]
    data = {"format": "pref-record/1", "players": names, "rules": {"variant": "sochi"},
            "deals": [{"contract": "6S", "declarer": "No", "whist": {"010": "whist", "2026-11-29": "pass"},
                       "tricks": {"No": 6, "010": 4, "2026-11-29": 0}}]}
    check_round_trips(reread(dump_yaml(canonical_record_data(data)), False))
    assert yaml.safe_load(dump_yaml(canonical_record_data(data)))["players"] == names


def test_numbers_and_amounts():
    data = {"format": "pref-record/1", "meta": {"ratio": Decimal("1.50"), "n": 3, "big": Decimal("1E+3")},
            "players": ["A", "B", "C"], "rules": {"variant": "sochi"},
            "start": {"pool": {"A": "12.5"}, "whists": {"A": {"B": "40/3"}, "B": {"A": 0}}},
            "deals": [{"adjust": {"mountain": {"B": -4}, "whists": {"C": {"A": "2.5"}}, "note": "agreed"}}]}
    out = canonical_record_data(data)
    assert out["start"]["pool"] == {"A": "12.5", "B": 0, "C": 0}
    assert out["start"]["whists"] == {"A": {"B": "40/3"}}       # zero entries left out
    assert out["deals"][0] == {"adjust": {"mountain": {"B": -4}, "whists": {"C": {"A": "2.5"}},
                                          "note": "agreed"}}
    y = dump_yaml(out)
    back = parse_text("<t>", y, False).data
    assert back["meta"]["ratio"] == Decimal("1.50") and back["meta"]["big"] == Decimal("1000")
    assert yaml.safe_load(y)["meta"]["ratio"] == 1.5
    check_round_trips(reread(y, False))


def test_empty_collections_and_multiline_note():
    data = {"format": "pref-record/1", "players": ["A", "B", "C"], "rules": {"variant": "sochi"},
            "deals": [{"contract": "7H", "declarer": "A", "whist": {"B": "pass", "C": "pass"},
                       "note": "line one\nline two"}]}
    y = dump_yaml(canonical_record_data(data))
    assert "note: |-\n      line one\n      line two\n" in y
    check_round_trips(reread(y, False))
    empty = {"format": "pref-record/1", "players": ["A", "B", "C"], "rules": {"variant": "sochi"}, "deals": []}
    assert "deals: []" in dump_yaml(canonical_record_data(empty))
    assert '"deals": []' in dump_json(canonical_record_data(empty))


def test_long_collections_fall_back_to_block_style():
    names = ["Alexandra Konstantinopolskaya", "Bartholomew Featherstonehaugh", "Cornelius Vanderbilt"]
    data = {"format": "pref-record/1", "players": names, "rules": {"variant": "sochi"},
            "deals": [{"contract": "6S", "declarer": names[0],
                       "whist": {names[1]: "whist", names[2]: "whist"},
                       "tricks": {names[0]: 6, names[1]: 3, names[2]: 1}}]}
    y = dump_yaml(canonical_record_data(data))
    assert max(len(line) for line in y.splitlines()) <= 80
    check_round_trips(reread(y, False))


def test_sheet_round_trip_and_order():
    text = """format: pref-sheet/1
players: [A, B, C, D]
rules: {variant: lithuanian-kitty, price: "0.001"}
whists:
  A: {B: 270, C: 480, D: 180}
  B: {A: 120, C: 360, D: 90}
  C: {A: 60, B: 420, D: 240}
  D: {A: 660, B: 210, C: 150}
mountain: {A: 0, B: 0, C: 0, D: 0}
pool:     {A: 60, B: 60, C: 60, D: 60}
"""
    data = check_round_trips(reread(text, False))
    assert list(data) == ["format", "players", "rules", "pool", "mountain", "whists"]
    assert data["whists"]["D"] == {"A": 660, "B": 210, "C": 150}
