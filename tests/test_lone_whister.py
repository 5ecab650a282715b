"""A lone whister who plays alone, the passer's cards put away (the Lithuanian games' "Vienas!").

Seed 000 l.89: "«Vienas!» Tai reiškia, kad žaidimą žaidžia dviese - lošikas ir vistavęs jo
varžovas. Pasavęs varžovas padeda užverstas kortas ir žaidime nedalyvauja." Seed 002 l.101:
"pasavusiojo kortos paliekamos užverstos ant stalo, ir vistuojantysis žaidžia prieš žaidžiantįjį
vienas. Tokiu atveju jam pakanka paimti du kirčius". So the passer takes no trick and plays no
card; a deal that says he did was whisted from both hands (seed 002 "uždaromis": takeover: the
whister; "atviromis": open: true), and is refused saying so, never scored as alone (the quota of
one) with the passer's tricks counted.
"""
from __future__ import annotations

import pytest

from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.rules.presets import resolve_rules
from prefcli.scoring import ScoringError, score

P3 = ["N", "E", "S"]
NO_EGLES = {"lithuanian": {"general_egles": 0, "egles": 0}, "lithuanian-kitty": {"skip_eglute": True}}


def rec(deal, variant="lithuanian"):
    return record_from_data({"format": "pref-record/1", "players": P3,
                             "rules": {"variant": variant, **NO_EGLES[variant]}, "deals": [deal]}, strict=True)


def errors(record):
    return [p.message for p in check_record(record) if p.severity == "error"]


def whists_on_n(result):
    return {w: row["N"] for w, row in result.sheet().whists.items() if row.get("N")}


LONE = {"contract": "6D", "declarer": "N", "whist": {"E": "whist", "S": "pass"}}


@pytest.mark.parametrize("variant", ["lithuanian", "lithuanian-kitty"])
def test_the_passer_of_a_whister_alone_takes_no_trick(variant):
    bad = rec(dict(LONE, tricks={"N": 6, "E": 3, "S": 1}), variant)
    (msg,) = errors(bad)
    assert msg.startswith("deal 1: S passed and E whisted alone, so S's cards were put away")
    assert "seed 000 l.89" in msg and "write takeover: E (closed cards) or open: true" in msg
    with pytest.raises(ScoringError, match="S's cards were put away"):
        score(bad)
    # alone, as the seeds play it: the passer takes nothing, the whister's quota is 2 (seed 002 l.101)
    alone = rec(dict(LONE, tricks={"N": 6, "E": 4, "S": 0}), variant)
    assert errors(alone) == []
    # the same tricks, whisted from both hands (closed, or open), keep the passer's trick
    for how in ({"takeover": "E"}, {"open": True}):
        both = rec(dict(LONE, tricks={"N": 6, "E": 3, "S": 1}, **how), variant)
        assert errors(both) == []


def test_alone_and_from_both_hands_differ_by_the_quota():
    # seed 002 l.101: alone 2 tricks suffice at a 6; from both hands 4 are needed. E takes 2 (with
    # S's 1 from both hands): alone he met his quota, from both hands he is one short
    alone = score(rec(dict(LONE, tricks={"N": 8, "E": 2, "S": 0})))
    both = score(rec(dict(LONE, tricks={"N": 7, "E": 2, "S": 1}, takeover="E")))
    # 12 whists a trick at a 6 (seed 002 l.133); the start's 60 hens each (half the track of 120)
    assert whists_on_n(alone) == {"E": 2 * 12} and alone.sheet().mountain["E"] == 60
    assert whists_on_n(both) == {"E": 3 * 12} and both.sheet().mountain["E"] == 60 + 6   # one trick short


def test_a_three_card_trick_beside_a_whister_alone_is_refused_where_it_is():
    deal = {"dealer": "S", "contract": "6S", "declarer": "N", "whist": {"E": "whist", "S": "pass"},
            "hands": {"N": "AS KS QS JS 10S 9S AH KH 7D 7C", "E": "8S 7S QH JH 10H 9H AD KD QD JD",
                      "S": "8H 7H 10D 9D 8D AC KC QC JC 10C"},
            "talon": "9C 8C", "auction": ["pass", "6S", "pass"], "discard": "7D 7C",
            "play": ["AD 7S 10D"]}
    record = record_from_data({"format": "pref-record/1", "players": P3, "first_dealer": "S",
                               "rules": {"variant": "lithuanian", "general_egles": 0, "egles": 0},
                               "deals": [deal]}, strict=True)
    problems = [p for p in check_record(record) if p.severity == "error"]
    assert problems and problems[0].path == ("deals", 0, "play", 0)
    assert "each trick has two cards, the declarer's and E's, yet trick 1 has 3" in problems[0].message


def sochi(tricks):
    return record_from_data({"format": "pref-record/1", "players": P3, "rules": {"variant": "sochi"},
                             "deals": [dict(LONE, tricks=tricks)]}, strict=True)


AS_LITHUANIAN = resolve_rules({"variant": "lithuanian", **NO_EGLES["lithuanian"]})


def test_rescored_under_other_rules_the_defence_as_played_stands():
    # a Sochi game's closed lone whist (the passer plays his cards), rescored as lithuanian: the
    # whist from both hands, closed, as convert writes it (takeover: E): E is credited S's trick
    # too and answers for the quota of 4 (met: no hens), 4 × 12 whists
    rescored = score(sochi({"N": 6, "E": 3, "S": 1}), AS_LITHUANIAN)
    written = score(rec(dict(LONE, tricks={"N": 6, "E": 3, "S": 1}, takeover="E")))
    assert whists_on_n(rescored) == whists_on_n(written) == {"E": 4 * 12}
    assert rescored.sheet().mountain == written.sheet().mountain
    short = score(sochi({"N": 7, "E": 2, "S": 1}), AS_LITHUANIAN)
    assert short.sheet().mountain["E"] == 60 + 6          # one trick short of 4, from both hands
