"""Rules fidelity, round 2 (issue 12): each rule as the seed's text states it, the seed and line
named beside its test, each choice a preset option (``prefcli variants NAME`` shows it)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest

from prefcli.model.records import record_from_data
from prefcli.rules.engine import check_record
from prefcli.rules.presets import get_preset, resolve_rules
from russian_helpers import run, sheet_of

ROOT = Path(__file__).resolve().parent.parent
W, PS = "whist", "pass"
RUSSIAN = ("sochi", "leningrad", "rostov", "classic")


def rec(deals: List[Dict[str, Any]], variant: str = "sochi", players=("Ann", "Bob", "Cid"), **rules: Any):
    data = {"format": "pref-record/1", "players": list(players),
            "rules": {"variant": variant, **rules}, "deals": deals}
    return record_from_data(data, strict=True)


def problems(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    r = rec(deals, variant, players, **rules)
    return check_record(r, resolve_rules(r.rules))


def messages(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    return [p.message for p in problems(deals, variant, players, **rules)]


def auction_deal(calls, contract, declarer, dealer="Ann", **more):
    order = {"Ann": ["Bob", "Cid", "Ann"], "Bob": ["Cid", "Ann", "Bob"], "Cid": ["Ann", "Bob", "Cid"]}[dealer]
    others = [p for p in order if p != declarer]
    return {"dealer": dealer, "auction": calls, "contract": contract, "declarer": declarer,
            "whist": {others[0]: PS, others[1]: PS}, **more}


# =============================================================================================
# item 3: no jumps in the Russian presets
# seed 001 l.100 "Назначения в процессе торговли нужно делать последовательно, не прыгая …
# через ступеньки"; seed 004 l.182 "priskyrimai turi būti atliekami nuosekliai, be šokinėjimo …
# per žingsnius"; seed 004 l.310 "žaidimas turėtų būti keliamas griežta kostiumų tvarka"
# =============================================================================================

@pytest.mark.parametrize("variant", RUSSIAN)
def test_russian_presets_bid_one_rung_at_a_time(variant):
    assert get_preset(variant).values["bid_jumps"] is False
    # seed 001 l.100: 6♠ then 7♥ skips the rungs 6♣ … 6NT
    jump = auction_deal(["6S", "7H", "pass", "pass"], "7H", "Cid")
    msgs = messages([jump], variant)
    assert len(msgs) == 1 and "the next bid after 6S is 6C" in msgs[0]
    # seed 001 l.100's own example: "пика" – пас – "трефа" – "трефа здесь", one rung each
    clean = auction_deal(["6S", "pass", "6C", "here", "6D", "here", "pass"], "6D", "Bob")
    assert messages([clean], variant) == []
    # a club that allows jumps says so: the option's other value
    assert messages([jump], variant, bid_jumps=True) == []


@pytest.mark.parametrize("variant", RUSSIAN)
def test_bid_jumps_cites_the_seeds_that_forbid_them(variant, capsys):
    from prefcli.cli.main import main
    meaning = get_preset(variant).family.option("bid_jumps").meaning
    assert "seed 001 l.100" in meaning and "seed 004 l.182" in meaning and "l.310" in meaning
    assert "a bid may skip rungs (seed 004)" not in meaning
    assert main(["variants", variant]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("bid_jumps"))
    assert line.split()[1] == "no"
    assert "seed 001 l.100" in out


# =============================================================================================
# item 2: who left on a half-whist writes nothing when the declarer fails
# seed 003 l.154 "Odejście za połwistu w przypadku «remisu» rozgrywającego nie zapisuje wistów";
# seed 004 l.258 "tas, kuris paliko pusę švilpuko, nerašo švilpukų, kai taškas atsisako" (the
# consolation is written in whists, so he writes no consolation either)
# =============================================================================================

def _sheet(deals, players=("A", "B", "C"), variant="sochi", **rules):
    return sheet_of(deals, players=list(players), variant=variant, **rules)


@pytest.mark.parametrize("variant", RUSSIAN)
def test_returned_half_whist_the_half_whister_writes_nothing_on_a_remise(variant):
    assert get_preset(variant).values["half_whist_consolation"] == "none"
    # 7♥ by A; B passes, C half-whists, B returns the whist and plays; A takes 6: down one
    deal = {"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": "half-whist"}, "return": "B",
            "tricks": {"A": 6, "B": 3, "C": 1}}
    s = _sheet([deal], variant=variant)
    assert not any(k.startswith("whists.C.") for k in s), s
    assert s["whists.B.A"] > 0 and s["mountain.A"] > 0
    # the other value keeps the consolation for him (the behaviour before this option)
    w = _sheet([deal], variant=variant, half_whist_consolation="written")
    assert w["whists.C.A"] > 0
    assert {k: v for k, v in w.items() if k != "whists.C.A"} == s


def test_returned_half_whist_sochi_numbers():
    # sochi 7♥ = 4; down one: mountain 4; B whists alone: 4 defenders' tricks × 4 = 16, + 4
    # consolation; C (who left on the half-whist) writes nothing
    deal = {"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": "half-whist"}, "return": "B",
            "tricks": {"A": 6, "B": 3, "C": 1}}
    assert _sheet([deal]) == {"mountain.A": 4, "whists.B.A": 16 + 4}


def test_half_whist_consolation_in_variants(capsys):
    from prefcli.cli.main import main
    assert main(["variants", "leningrad"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("half_whist_consolation"))
    assert line.split()[1] == "none" and "seed 003 l.154" in out and "seed 004 l.258" in out


# =============================================================================================
# item 5: seed 002 checks under `lithuanian`
# =============================================================================================

def _lt(deals, players=("A", "B", "C"), **rules):
    data = {"format": "pref-record/1", "players": list(players), "first_dealer": players[-1],
            "rules": {"variant": "lithuanian", **rules}, "deals": deals}
    return record_from_data(data, strict=True)


def _lt_problems(deals, players=("A", "B", "C"), **rules):
    """Every problem validate finds (record-level checks, deal readings, the scorer's)."""
    from prefcli.rules.checks import check_record as validate_record
    r = _lt(deals, players, **rules)
    return [(p.path, p.message) for p in validate_record(r)]


def _score_error(record):
    from prefcli.scoring import ScoringError, score
    try:
        score(record, resolve_rules(record.rules))
    except ScoringError as exc:
        return (tuple(exc.path or ()), exc.message)
    return None


SIX = {"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}


def test_seed002_l113_two_whisters_may_not_play_open():
    # seed 002 l.113 "Jeigu sutinka vistuoti abu žaidėjai, atviromis kortomis žaisti negalima."
    deal = {"contract": "7S", "declarer": "A", "whist": {"B": W, "C": W}, "open": True,
            "tricks": {"A": 7, "B": 2, "C": 1}}
    probs = _lt_problems([deal])
    assert [p for p, _ in probs] == [("deals", 0, "open")]
    assert "both defenders whist" in probs[0][1]
    assert _score_error(_lt([deal]))[0] == ("deals", 0, "open")
    closed = dict(deal, open=False)
    assert _lt_problems([closed]) == [] and _score_error(_lt([closed])) is None


def test_seed002_l27_the_target_divides_by_three():
    # seed 002 l.27 "rombe įrašomas skaičius svyruoja tarp 60 ir 240, šis skaičius turi dalintis iš
    # trijų be liekanos"
    assert get_preset("lithuanian").values["pool_divisor"] == 3
    probs = _lt_problems([SIX], pool=100)
    assert [p for p, _ in probs] == [("rules", "pool")] and "100 does not divide by 3" in probs[0][1]
    assert _score_error(_lt([SIX], pool=100)) == probs[0]
    assert _lt_problems([SIX], pool=120) == [] and _lt_problems([SIX], pool=99) == []
    # a club that agrees otherwise says so
    assert _lt_problems([SIX], pool=100, pool_divisor=1) == []


def test_seed002_l27_validate_and_score_agree_from_the_command_line(tmp_path):
    from conftest import run_cli
    f = tmp_path / "g.yaml"
    f.write_text("format: pref-record/1\nplayers: [A, B, C]\nrules: {variant: lithuanian, pool: 100}\n"
                 "deals:\n- {contract: 6S, declarer: A, whist: {B: pass, C: pass}}\n", encoding="utf-8")
    for cmd in ("validate", "score"):
        code, _, err = run_cli([cmd, str(f)])
        assert code == 1 and "g.yaml:3:" in err and "rules.pool: the target 100 does not divide by 3" in err


def test_seed002_l297_every_player_calls_the_bomb_once():
    # seed 002 l.297 "Partijos eigoje visi žaidėjai privalo po vieną kartą skelbti bombą. Ją skelbti
    # gali tik žaidėjas, turintis Pirmojo teises." Dealer C, so A is the first hand of deal 1 and
    # B of deal 2 (rotating left); A bombs in deal 1 and again in deal 4.
    deals = [
        {"dealer": "C", "bomb": "A", "contract": "7S", "declarer": "A", "whist": {"B": PS, "C": PS}},
        {"dealer": "A", "bomb": "B", "contract": "7S", "declarer": "B", "whist": {"C": PS, "A": PS}},
        {"dealer": "B", "contract": "6S", "declarer": "C", "whist": {"A": PS, "B": PS}},
        {"dealer": "C", "bomb": "A", "contract": "7H", "declarer": "A", "whist": {"B": PS, "C": PS}},
    ]
    probs = _lt_problems(deals)
    assert [p for p, _ in probs] == [("deals", 3, "bomb")]
    assert "deal 4: A already called his bomb in deal 1" in probs[0][1]
    assert _score_error(_lt(deals)) == probs[0]
    # once each: clean; with bomb_calls: any the second bomb is a club's choice
    assert _lt_problems(deals[:3]) == []
    assert _lt_problems(deals, bomb_calls="any") == []


def test_seed002_options_in_variants(capsys):
    from prefcli.cli.main import main
    assert main(["variants", "lithuanian"]) == 0
    out = capsys.readouterr().out
    rows = {x.split()[0]: x.split()[1] for x in out.splitlines() if x[:1].isalpha() and len(x.split()) > 1}
    assert rows["pool_divisor"] == "3" and rows["bomb_calls"] == "once"
    assert "seed 002 l.27" in out and "seed 002 l.297" in out


# =============================================================================================
# item 1: seed 000 l.77, the contest order (auction_order: pairs, lithuanian-kitty)
# "Tokios varžybos tęsiasi tol, kol vienas jų taria «pas». Tada į varžybas stoja trečiasis
# žaidėjas C, kuris gali pasuoti arba skelbti vienu rangu aukštesnį žaidimą už A ir B varžybų
# laimėtoją. Šie abu žaidėjai vėl varžosi tokiu pat būdu … kol išaiškėja nugalėtojas, kuris tampa
# šio žaidimo lošiku ir jam atitenka 2 užverstos pirkinio kortos."
# Dealer Ann: Bob is A, Cid is B, Ann is C.
# =============================================================================================

def _kitty_auction(calls, contract, declarer):
    return auction_deal(calls, contract, declarer, dealer="Ann")


def _replayed(calls):
    from prefcli.rules.engine import replay_record
    r = rec([_kitty_auction(calls, "6S", "Bob")], "lithuanian-kitty")
    return replay_record(r, resolve_rules(r.rules))[0]


def test_seed000_l77_six_spades_pass_pass_is_over():
    # 6♠ – pas – pas: A's 6♠ stands, C passes at once: A takes the talon with 6♠
    assert messages([_kitty_auction(["6S", "pass", "pass"], "6S", "Bob")], "lithuanian-kitty") == []
    rep = _replayed(["6S", "pass", "pass"])
    assert [s.player for s in rep.auction] == ["Bob", "Cid", "Ann"]
    assert rep.auction[-1].holder == "Bob" and str(rep.auction[-1].high) == "6S"
    # a call after the end is refused as such
    msgs = messages([_kitty_auction(["6S", "pass", "pass", "6C"], "6C", "Bob")], "lithuanian-kitty")
    assert len(msgs) == 1 and "the auction was over after call 3" in msgs[0]


def test_seed000_l77_third_hand_passes_after_a_contest():
    # A 6♠, B 6♣, A mine, B pass: A won the contest at 6♣; C passes at once: A plays from 6♣
    calls = ["6S", "6C", "mine", "pass", "pass"]
    assert messages([_kitty_auction(calls, "6C", "Bob")], "lithuanian-kitty") == []
    # the contract is not below the standing bid
    msgs = messages([_kitty_auction(calls, "6S", "Bob")], "lithuanian-kitty")
    assert len(msgs) == 1 and "below the winning bid 6C" in msgs[0]
    # B won the first contest (A passed on 6♣), C passes at once: B plays from 6♣
    calls = ["6S", "6C", "pass", "pass"]
    assert messages([_kitty_auction(calls, "6C", "Cid")], "lithuanian-kitty") == []


def test_seed000_l77_the_winner_is_not_offered_a_bid_over_his_own():
    from prefcli.model.cards import parse_call
    from prefcli.rules.engine import Auction, conventions
    conv = conventions(resolve_rules({"variant": "lithuanian-kitty"}))
    a = Auction(conv, ["A", "B", "C"])
    for c in ("6S", "6C", "pass"):          # A 6♠, B 6♣, A passes: B won the contest
        a.apply(parse_call(c))
    assert a.next_player() == "C"
    assert [str(c) for c in a.legal_calls()] == ["pass", "6D"]
    a.apply(parse_call("pass"))             # C passes at once: over, B holds 6♣
    assert a.done and a.result().winner == "B" and str(a.result().bid) == "6C"
    # C challenges instead: B may say mine or pass, never raise
    a = Auction(conv, ["A", "B", "C"])
    for c in ("6S", "6C", "pass", "6D"):
        a.apply(parse_call(c))
    assert a.next_player() == "B" and [str(c) for c in a.legal_calls()] == ["pass", "here"]


def test_seed002_l27_rescoring_under_lithuanian_keeps_the_records_target():
    # the target is the playing table's agreement: score --variant lithuanian of a pool-20 game
    # is a what-if, not a lithuanian table's record
    from prefcli.scoring import score
    r = rec([{"contract": "6S", "declarer": "Bob", "whist": {"Cid": PS, "Ann": PS}}], "sochi", pool=20)
    assert score(r, variant="lithuanian").rules["pool"] == 20


# =============================================================================================
# item 4: the 4th player's take-over in the Russian family
# seed 004 l.37 "Jei abu partneriai atsisako nušvilpti prieš tą, kuris užsakė žaidimą su kyšiais,
# ketvirtasis dalintojas turi teisę paimti bet kurio iš dviejų kortas ir, jei nori, tęsti vietoj
# kortų savininko." l.72 "… tokią galimybę gauna ketvirtas dalijęs žaidėjas. Tuo pačiu metu jis
# turi teisę paimti bet kurio iš tų, kurie atsisakė švilpti, korteles."
# Dealer A sits out; B declares; C and D both pass; A takes over.
# =============================================================================================

P4 = ("A", "B", "C", "D")


def _takeover(tricks, **more):
    return {"dealer": "A", "contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS},
            "takeover": "A", "tricks": tricks, **more}


@pytest.mark.parametrize("variant", RUSSIAN)
def test_seed004_l37_the_dealer_takes_over_when_both_refuse(variant):
    assert get_preset(variant).values["takeover"] is True
    assert messages([_takeover({"B": 5, "C": 3, "D": 2})], variant, P4) == []


def test_seed004_l37_scored_from_the_recorded_tricks():
    # sochi 6♠ = 2; B takes 5: down one, mountain 2; the dealer A writes the whists of the
    # defenders' 5 tricks × 2 = 10 and, with consolation_to: all, everybody writes 2 consolation
    down = _sheet([_takeover({"B": 5, "C": 3, "D": 2})], players=P4)
    assert down == {"mountain.B": 2, "whists.A.B": 10 + 2, "whists.C.B": 2, "whists.D.B": 2}
    # made: pool 2, the dealer writes the defenders' 3 tricks × 2; nobody answers for the quota
    made = _sheet([_takeover({"B": 7, "C": 2, "D": 1})], players=P4)
    assert made == {"pool.B": 2, "whists.A.B": 6}
    # without the take-over the same deal is unplayed: both passed
    plain = {"dealer": "A", "contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}}
    assert _sheet([plain], players=P4) == {"pool.B": 2}


def test_seed004_l37_explained_in_the_ledger():
    res = run([_takeover({"B": 5, "C": 3, "D": 2})], players=list(P4))
    texts = [e.text for e in res.ledger.entries]
    assert any("took over the defence: 5 defenders' trick(s)" in t for t in texts)


def test_seed004_l37_who_and_when():
    # only the sitting-out dealer
    msgs = messages([dict(_takeover({"B": 5, "C": 3, "D": 2}), takeover="C")], "sochi", P4)
    assert len(msgs) == 1 and "only the sitting-out 4-player dealer's take-over" in msgs[0]
    # only when both refused
    one_whist = dict(_takeover({"B": 5, "C": 3, "D": 2}), whist={"C": W, "D": PS})
    msgs = messages([one_whist], "sochi", P4)
    assert len(msgs) == 1 and "both defenders refused" in msgs[0]
    # only against a trick contract
    mis = {"dealer": "A", "contract": "misere", "declarer": "B", "takeover": "A", "tricks": {"B": 0, "C": 5, "D": 5}}
    msgs = messages([mis], "sochi", P4)
    assert len(msgs) == 1 and "only against a trick contract" in msgs[0]
    # a club without it says so
    msgs = messages([_takeover({"B": 5, "C": 3, "D": 2})], "sochi", P4, takeover=False)
    assert len(msgs) == 1 and "option takeover" in msgs[0]


def test_seed004_takeover_in_variants(capsys):
    from prefcli.cli.main import main
    assert main(["variants", "sochi"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("takeover"))
    assert line.split()[1] == "yes" and "seed 004 l.37" in out


# =============================================================================================
# item 8: Stalingrad, the third hand may not say "here" after "one"
# seed 004 l.57 "Tose pirmenybių sistemose, kur užsakant šešis kastuvus, abu partneriai privalo
# švilpti, žaidėjas iš trečios rankos po «VIENAS» neturi teisės pasakyti «ČIA»."
# Dealer Ann: Bob first hand, Cid second, Ann third. here_rule: any lets the third hand hold.
# =============================================================================================

def test_seed004_l57_stalingrad_third_hand_no_here_after_one():
    deal = auction_deal(["6S", "pass", "here", "pass"], "6S", "Ann",
                        whist={"Bob": W, "Cid": W}, tricks={"Ann": 6, "Bob": 2, "Cid": 2})
    probs = problems([deal], "sochi", here_rule="any", stalingrad=True)
    assert [p.path for p in probs] == [("deals", 0, "auction", 2)]
    assert "third hand (Ann) may not say here after 6S" in probs[0].message
    # without stalingrad the same auction is legal under here_rule: any
    assert messages([deal], "sochi", here_rule="any") == []
    # after a higher bid the third hand may hold it
    higher = auction_deal(["6S", "6C", "here", "pass", "pass"], "6C", "Ann",
                          whist={"Bob": PS, "Cid": PS})
    assert messages([higher], "sochi", here_rule="any", stalingrad=True) == []


def test_seed004_l57_cited_in_variants():
    assert "seed 004 l.57" in get_preset("sochi").family.option("stalingrad").meaning


def test_seed004_l37_convert_keeps_the_dealers_take_over():
    # a Lithuanian dealer's take-over after both passed is the Russian family's own (seed 004 l.37)
    from prefcli.app.convert import convert_record
    lt = rec([{"dealer": "A", "contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}, "takeover": "A",
               "tricks": {"B": 5, "C": 3, "D": 2}}], "lithuanian", P4)
    conv = convert_record(lt, "sochi")
    assert conv.data["deals"][0]["takeover"] == "A" and not conv.losses


def test_seed004_l37_the_lithuanian_example_converts_to_sochi():
    # examples/lithuanian-4p.yaml deal 14: the sitting-out dealer N takes over after both passed,
    # which the Russian family now plays: converted to sochi, the record is valid
    from prefcli.app.convert import convert_record
    from prefcli.io.documents import load_record
    record, _ = load_record(str(ROOT / "examples" / "lithuanian-4p.yaml"))
    conv = convert_record(record, "sochi")
    assert conv.data["deals"][13]["takeover"] == "N"
    assert not any(i.field == "takeover" and i.deal == 14 for i in conv.items)
