"""Rules fidelity, round 2 (issue 12), items 7, 9 and 10: misère without the talon, "be visų"
and irregularities as rules. Each rule as the seed's text states it, the seed and line named
beside its test, each choice a preset option (``prefcli variants NAME`` shows it)."""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from prefcli.model.records import record_from_data
from prefcli.rules.engine import check_record
from prefcli.rules.presets import get_preset, resolve_rules
from russian_helpers import run, sheet_of as _sheet_of

W, PS = "whist", "pass"
RUSSIAN = ("sochi", "leningrad", "rostov", "classic")


def rec(deals: List[Dict[str, Any]], variant: str = "sochi", players=("Ann", "Bob", "Cid"), **rules: Any):
    data = {"format": "pref-record/1", "players": list(players),
            "rules": {"variant": variant, **rules}, "deals": deals}
    return record_from_data(data, strict=True)


def problems(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    r = rec(deals, variant, players, **rules)
    from prefcli.rules.context import RecordContext
    ctx = RecordContext(r, resolve_rules(r.rules))
    return [p for reading in ctx.readings() for p in reading.problems]


def messages(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    return [p.message for p in problems(deals, variant, players, **rules)]


def sheet_of(deals, players=("Ann", "Bob", "Cid"), **kw):
    return _sheet_of(deals, players=list(players), **kw)


def variants_line(variant: str, option: str, capsys) -> str:
    from prefcli.cli.main import main
    assert main(["variants", variant]) == 0
    out = capsys.readouterr().out
    return next(x for x in out.splitlines() if x.split() and x.split()[0] == option)


# =============================================================================================
# item 9: "be visų"
# seed 004 l.198 "Žaidėjas privalo užsisakyti ne žemesnę sutartį, nei ta, kurią jis pasiekė
# prekybos proceso metu." l.200 "Jei žaidėjas pateikia pavedimą, kuris prieštarauja pagrindinėms
# taisyklėms (sutartis, mažesnė už prekyboje padarytą pavedimą; menka suma po dalyvavimo
# prekyboje su kitais pavedimais) … Jei žaidėjas nenori keisti pavedimo, jam įskaitoma «be visų»
# nuolaida žaidime, kurį jis pasiekė prekybos proceso metu."
# Recorded: the bid reached (bid:), the declaration kept (contract:), without_all: true.
# Scored: a remise of the bid reached with none of its tricks: level × price × declarer_fail_multiplier
# to the mountain; unplayed and unwhisted, so no trick whists; the consolation for the missing
# tricks as on any remise.
# =============================================================================================

def _kept(contract="6S", bid="7S", **more):
    return {"bid": bid, "contract": contract, "declarer": "Bob", "without_all": True, **more}


@pytest.mark.parametrize("variant", RUSSIAN)
def test_seed004_l200_be_visu_is_played_in_every_russian_preset(variant):
    assert get_preset(variant).values["without_all"] is True
    assert messages([_kept()], variant) == []


def test_seed004_l200_be_visu_numbers():
    # sochi: 7♠ reached (price 4), 6♠ kept: down all 7 → Bob's mountain 7 × 4 = 28; nobody
    # whisted, so no trick whists; consolation 7 × 4 = 28 by each defender (consolation_to: all)
    assert sheet_of([_kept()]) == {"mountain.Bob": 28, "whists.Ann.Bob": 28, "whists.Cid.Bob": 28}
    # leningrad: declarer_fail_multiplier 2 → 7 × 4 × 2 = 56; consolation price × whist_multiplier
    # = 4 × 2 = 8 a trick → 56 each
    assert sheet_of([_kept()], variant="leningrad") == {
        "mountain.Bob": 56, "whists.Ann.Bob": 56, "whists.Cid.Bob": 56}
    # rostov: the fixed consolation 10 a trick → 70 each; the mountain 7 × 4 = 28
    assert sheet_of([_kept()], variant="rostov") == {
        "mountain.Bob": 28, "whists.Ann.Bob": 70, "whists.Cid.Bob": 70}
    # a misère after other bids (seed 004 l.200 "menka suma po dalyvavimo prekyboje su kitais
    # pavedimais"): 6♠ reached (price 2) → 6 × 2 = 12, consolation 6 × 2 = 12 each
    assert sheet_of([_kept("misere", "6S")]) == {"mountain.Bob": 12, "whists.Ann.Bob": 12, "whists.Cid.Bob": 12}
    # consolation_to: whisters → nobody whisted, nobody writes it
    assert sheet_of([_kept()], consolation_to="whisters") == {"mountain.Bob": 28}


def test_seed004_l200_be_visu_explained():
    res = run([_kept()], players=["Ann", "Bob", "Cid"])
    rules = [(e.player, e.rule, e.amount) for e in res.ledger.entries]
    assert ("Bob", "without-all", 28) in rules
    text = next(e.text for e in res.ledger.entries if e.rule == "without-all")
    assert "be visų" in text and "7S" in text


def test_seed004_l200_be_visu_only_for_a_declaration_against_the_rules():
    # a legal declaration (8♠ over the bid 7♠) has nothing to keep against the rules: refused
    msgs = messages([_kept("8S", "7S")])
    assert len(msgs) == 1 and "is a legal declaration" in msgs[0]
    # the level reached is needed
    probs = problems([{"contract": "6S", "declarer": "Bob", "without_all": True}])
    assert len(probs) == 1 and probs[0].path == ("deals", 0, "without_all") and "bid:" in probs[0].message
    # nothing is whisted or played
    probs = problems([_kept(whist={"Cid": W, "Ann": PS}, tricks={"Bob": 3, "Cid": 4, "Ann": 3})])
    assert sorted(p.path for p in probs) == [("deals", 0, "tricks"), ("deals", 0, "whist")]
    # an all-pass has no declaration
    msgs = messages([{"contract": "all-pass", "without_all": True, "tricks": {"Ann": 3, "Bob": 3, "Cid": 4}}])
    assert any("an all-pass deal has no declaration" in m for m in msgs)
    # without the option the same deal is refused
    msgs = messages([_kept()], without_all=False)
    assert len(msgs) == 1 and "option without_all" in msgs[0]
    # the Lithuanian families (seeds 000, 002) have no such rule
    msgs = messages([{"bid": "7S", "contract": "6S", "declarer": "E", "without_all": True}],
                    "lithuanian", ("N", "E", "S"))
    assert any("option without_all" in m for m in msgs)


def test_seed004_l200_be_visu_with_the_auction():
    # Bob (first hand, dealer Ann) 6♠ … 7♠ wins; he names 6♠ and keeps it
    deal = {"dealer": "Ann", "auction": ["6S", "pass", "6C", "here", "6D", "here", "6H", "here", "6NT", "7S", "pass"],
            "bid": "7S", "contract": "6S", "declarer": "Bob", "without_all": True}
    assert messages([deal]) == []
    assert sheet_of([deal])["mountain.Bob"] == 28


def test_seed004_l200_be_visu_in_variants_notes_and_writer(capsys):
    line = variants_line("sochi", "without_all", capsys)
    assert line.split()[1] == "yes"
    assert "seed 004 l.196" in get_preset("sochi").family.option("without_all").meaning
    from prefcli.app.notes import notes_to_record
    from prefcli.io.writer import record_to_data
    r = notes_to_record("Bob 6S bid:7S without-all\n", players=["Ann", "Bob", "Cid"])
    d = r.deals[0]
    assert d.without_all and str(d.bid) == "7S" and str(d.contract) == "6S"
    data = record_to_data(r)
    assert data["deals"][0]["without_all"] is True and data["deals"][0]["bid"] == "7S"
    assert record_from_data(data, strict=True).deals[0] == d
