"""Property tests of canonical writing: any record reads back to the same data (issue 7).

Records are generated as data (names and free text chosen to trip YAML readers), built with the
model, written canonically as YAML and JSON, and read back with the project's loader and with
plain ``yaml.safe_load``.
"""
from __future__ import annotations

import json

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefcli.io.parsing import parse_text
from prefcli.model.build import record_from_data
from prefcli.io.writer_json import dump_json
from prefcli.io.writer_text import dump_yaml
from prefcli.rules.canonical import record_to_data

TRICKY = st.sampled_from(["no", "Yes", "on", "010", "2026-11-29", "1e5", "~", "null", "True", "12:30",
                          "0x1F", "+1", ".5", "Ann", "Bob", "Žilvinas", "Пётр", "a: b", "#1", "- x"])
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Co", "Cn")), min_size=1,
               max_size=12)
NAME = st.one_of(TRICKY, TEXT).filter(lambda s: s.strip() != "")
CONTRACTS = st.sampled_from([f"{lv}{s}" for lv in range(6, 11) for s in ("S", "C", "D", "H", "NT")]
                            + ["misere"])
DECISION = st.sampled_from(["whist", "pass", "half-whist"])


@st.composite
def records(draw):
    n = draw(st.sampled_from([3, 4]))
    players = draw(st.lists(NAME, min_size=n, max_size=n, unique=True))
    deals = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["game", "allpass", "adjust"]))
        if kind == "allpass":
            a = draw(st.integers(0, 10))
            b = draw(st.integers(0, 10 - a))
            deals.append({"contract": "all-pass", "tricks": dict(zip(players, [a, b, 10 - a - b]))})
            continue
        if kind == "adjust":
            deals.append({"adjust": {"pool": {players[0]: draw(st.integers(-50, 50))},
                                     "whists": {players[1]: {players[2]: draw(st.sampled_from(["2.5", "40/3", 7]))}},
                                     "note": draw(TEXT)}})
            continue
        decl, d1, d2 = players[0], players[1], players[2]
        deal = {"contract": draw(CONTRACTS), "declarer": decl,
                "whist": {d1: draw(DECISION), d2: draw(DECISION)}}
        if draw(st.booleans()):
            t = draw(st.integers(0, 10))
            u = draw(st.integers(0, 10 - t))
            deal["tricks"] = {decl: t, d1: u, d2: 10 - t - u}
        for flag in ("open", "dark", "concede"):
            if draw(st.booleans()):
                deal[flag] = True
        if draw(st.booleans()):
            deal["note"] = draw(TEXT)
        if draw(st.booleans()):
            deal["penalties"] = [{"player": d1, "mountain": draw(st.integers(1, 10)), "reason": draw(TEXT)}]
        deals.append(deal)
    data = {"format": "pref-record/1",
            "meta": {draw(TRICKY): draw(st.one_of(TRICKY, TEXT, st.integers(-5, 5)))},
            "players": players,
            "rules": {"variant": draw(st.sampled_from(["sochi", "leningrad", "lithuanian"])),
                      "pool": draw(st.integers(10, 60))},
            "deals": deals}
    if draw(st.booleans()):
        data["first_dealer"] = players[-1]
    return data


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_generated_records_round_trip(data):
    record = record_from_data(data, strict=True)
    canon = record_to_data(record)
    y = dump_yaml(canon)
    j = dump_json(canon)
    from_yaml = parse_text("<y>", y, False).data
    from_json = parse_text("<j>", j, True).data
    assert from_yaml == canon
    assert from_json == canon
    assert yaml.safe_load(y) == json.loads(j) == canon
    # idempotent, and YAML -> JSON -> YAML returns the same text
    again = record_to_data(record_from_data(from_yaml, strict=True))
    assert dump_yaml(again) == y
    assert dump_yaml(record_to_data(record_from_data(from_json, strict=True))) == y
    assert dump_json(again) == j
