"""prefcli.seating: the one dealer rotation every layer asks (scorers, engine, validate, convert)."""
from __future__ import annotations

from prefcli.rules.engine import conventions, deal_dealers
from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules
from prefcli.rules.table import (BOMB, CONTRACT, GENERAL, MANDATORY, deal_kinds, dealers, expected_dealers,
                             options, rotation)

NESW = ["N", "E", "S", "W"]
ALL_PASS = {"contract": "all-pass"}
SIX = {"contract": "6S", "declarer": "E", "whist": {"S": "pass", "W": "pass"}}


def rec(deals, variant, players=NESW, **rules):
    return record_from_data({"format": "pref-record/1", "players": list(players), "first_dealer": players[0],
                             "rules": {"variant": variant, **rules}, "deals": deals})


def in_order(mapping):
    return [mapping[pos] for pos in sorted(mapping)]


def test_lithuanian_general_bomb_and_mandatory_egles():
    # seed 002: the general eglės, "Kiekvieną kartą dalija kitas žaidėjas", rotate; after a later
    # all-pass (a mandatory eglė) the same dealer deals again; an all-pass after a bomb counts as a
    # general eglė (bomb_allpass: general, inferred) and the next dealer deals.
    deals = [ALL_PASS] * 4 + [SIX, dict(ALL_PASS, bomb="E"), ALL_PASS, SIX]
    record = rec(deals, "lithuanian")
    rules = resolve_rules(record.rules)
    r = rotation(record, rules)
    assert in_order(r.kinds) == [GENERAL] * 4 + [CONTRACT, BOMB, MANDATORY, CONTRACT]
    assert in_order(r.dealers) == ["N", "E", "S", "W", "N", "E", "S", "S"]
    assert r.kinds == deal_kinds(record, rules)
    assert r.dealers == dealers(record, rules) == r.expected == expected_dealers(record, rules)
    mandatory = rotation(record, resolve_rules(record.rules, sets=[("bomb_allpass", "mandatory")]))
    assert in_order(mandatory.kinds)[5] == MANDATORY
    assert in_order(mandatory.dealers)[5:] == ["E", "E", "E"]   # two mandatory eglės: E deals on


def test_kitty_eglutes_then_extra_eglutes():
    # seed 000: "Iš pradžių 4 kartus (žaidžiant trise - 3 kartus) žaidžiama eglutė"; later "kai
    # visi trys žaidėjai pasuoja, žaidžiamas dar vienas neeilinis eglutės žaidimas" (an extra
    # eglutė: the rotation's mandatory kind). Only with allpass.same_dealer (not the seed's
    # default) does the dealer of an extra eglutė deal again; the leading eglutės always rotate.
    deals = [ALL_PASS] * 3 + [SIX, ALL_PASS, SIX]
    record = rec(deals, "lithuanian-kitty", players=NESW[:3])
    plain = rotation(record, resolve_rules(record.rules))
    assert in_order(plain.kinds) == [GENERAL] * 3 + [CONTRACT, MANDATORY, CONTRACT]
    assert in_order(plain.dealers) == ["N", "E", "S", "N", "E", "S"]
    same = rotation(record, resolve_rules(record.rules, sets=[("allpass.same_dealer", "yes")]))
    assert in_order(same.dealers) == ["N", "E", "S", "N", "E", "E"]
    # seed 000: "susitaria eglutės žaidimo nežaisti": skipped eglutės, so every all-pass is extra
    skipped = rotation(record, resolve_rules(record.rules, sets=[("skip_eglute", "yes")]))
    assert GENERAL not in skipped.kinds.values()


def test_a_written_dealer_resets_the_rotation_and_is_reported_once():
    record = rec([SIX, dict(SIX, dealer="W"), SIX, SIX], "sochi")
    rules = resolve_rules(record.rules)
    r = rotation(record, rules)
    assert in_order(r.dealers) == ["N", "W", "N", "E"]
    assert in_order(r.expected) == ["N", "E", "N", "E"]          # only deal 2 differs from its dealer
    assert in_order(rotation(record, rules, explicit=False).dealers) == ["N", "E", "S", "W"]


def test_the_engine_asks_seating():
    for record, sets in ((rec([ALL_PASS] * 5 + [SIX], "lithuanian-kitty"), [("allpass.same_dealer", "yes")]),
                         (rec([ALL_PASS] * 4 + [dict(ALL_PASS, bomb="E"), SIX], "lithuanian"), []),
                         (rec([SIX, ALL_PASS, SIX], "classic"), [])):
        rules = resolve_rules(record.rules, sets=sets)
        assert deal_dealers(record, conventions(rules)) == dealers(record, rules)
        assert dealers(record, dict(options(rules))) == dealers(record, rules)
