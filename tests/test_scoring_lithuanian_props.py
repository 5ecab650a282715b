"""Property tests for the Lithuanian scorers: the multipliers really multiply every entry.

Seed 002: a deal whose declarer has an unplayed eglė "vertinamas dvigubai" (every entry doubled)
and a dark game "visi padalijimo įvertinimo užrašai dvigubinami"; seed 000: beyond one's rights
"visi taškai, vistai ir vištos ... mažinami pusiau". Away from the track/kitty limits and with
hens to spare, the whole deal's sheet must scale exactly.
"""
from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings, strategies as st

from prefcli.model.build import record_from_data
from prefcli.scoring import score

CONTRACTS = ["6S", "6NT", "7D", "8H", "9C", "10NT", "misere"]


@st.composite
def deals(draw, players=("N", "E", "S", "W")):
    """A contract by E (dealer W, defenders S then N) with a random defence and trick split."""
    contract = draw(st.sampled_from(CONTRACTS))
    mode = draw(st.sampled_from(["both", "alone", "open", "pass"]))
    t = draw(st.integers(0, 10))
    s = draw(st.integers(0, 10 - t))
    deal = {"contract": contract, "declarer": "E"}
    if mode == "both":
        deal.update(whist={"S": "whist", "N": "whist"}, tricks={"E": t, "S": s, "N": 10 - t - s})
    elif mode == "alone":
        deal.update(whist={"S": "whist", "N": "pass"}, tricks={"E": t, "S": 10 - t, "N": 0})
    elif mode == "open":
        deal.update(whist={"S": "whist", "N": "pass"}, open=True, tricks={"E": t, "S": s, "N": 10 - t - s})
    else:
        deal.update(whist={"S": "pass", "N": "pass"})
    deal["talon"] = draw(st.sampled_from(["AS KS", "7H 8H", "9C 10D", "AD 7S"]))
    return deal


def diff(rules, deal, start, variant):
    data = {"format": "pref-record/1", "players": ["N", "E", "S", "W"], "first_dealer": "W",
            "rules": {"variant": variant, **rules}, "deals": [deal], "start": start}
    r = score(record_from_data(data, strict=True))
    before, after = r.sheet(0), r.sheet(1)
    out = {}
    for p in after.players:
        out[("pool", p)] = after.pool[p] - before.pool[p]
        out[("mountain", p)] = after.mountain[p] - before.mountain[p]
        for q, v in after.whists[p].items():
            out[("whists", p, q)] = v - before.whists[p][q]
    return out


BIG = {"pool": {"N": 0, "E": 0, "S": 0, "W": 0}, "mountain": {"N": 500, "E": 500, "S": 500, "W": 500}}


@settings(max_examples=60, deadline=None)
@given(deals())
def test_egle_doubles_every_entry(deal):
    plain = diff({"pool": 240, "general_egles": 0, "egles": 0}, deal, BIG, "lithuanian")
    egle = diff({"pool": 240, "general_egles": 0, "egles": 1}, deal, BIG, "lithuanian")
    assert egle == {k: 2 * v for k, v in plain.items()}


@settings(max_examples=40, deadline=None)
@given(deals())
def test_dark_with_an_egle_quadruples(deal):
    if deal["contract"].startswith("6"):
        deal = dict(deal, whist={"S": "whist", "N": "whist"}, tricks=deal.get("tricks") or {"E": 6, "S": 2, "N": 2})
    deal = {k: v for k, v in deal.items() if k != "open"}
    if deal["whist"] == {"S": "whist", "N": "pass"}:
        deal["tricks"] = {"E": deal["tricks"]["E"], "S": 10 - deal["tricks"]["E"], "N": 0}
    plain = diff({"pool": 240, "general_egles": 0, "egles": 0, "talon_bonus": "never"}, deal, BIG, "lithuanian")
    dark = diff({"pool": 240, "general_egles": 0, "egles": 1}, dict(deal, dark=True), BIG, "lithuanian")
    assert dark == {k: 4 * v for k, v in plain.items()}


@settings(max_examples=60, deadline=None)
@given(deals())
def test_kitty_beyond_rights_halves_every_entry(deal):
    deal = {k: v for k, v in deal.items() if k != "talon"}
    rules = {"pool": 6000, "skip_eglute": True, "skip_eglute_hens": 0}
    full = diff(dict(rules, eglutes=1), deal, BIG, "lithuanian-kitty")
    half = diff(dict(rules, eglutes=0), deal, BIG, "lithuanian-kitty")
    assert half == {k: v * F(1, 2) for k, v in full.items()}
