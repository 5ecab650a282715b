"""Rules fidelity, round 2 (issue 12): each rule as the seed's text states it, the seed and line
named beside its test, each choice a preset option (``prefcli variants NAME`` shows it)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest

from prefcli.model.build import record_from_data
from prefcli.rules.presets import get_preset, resolve_rules
from russian_helpers import run, sheet_of
from helpers import PS, RUSSIAN, W, messages, problems, rec

ROOT = Path(__file__).resolve().parent.parent


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


# =============================================================================================
# readings to make visible: the numbers the seeds do not give, each an option marked (inferred)
# in prefcli variants, with the other plausible values offered, implemented and listed in the
# README's one table
# =============================================================================================

from fractions import Fraction  # noqa: E402

from prefcli.rules.presets import presets  # noqa: E402
from prefcli.scoring import score as _score  # noqa: E402
from prefcli.settle import settle_sheet  # noqa: E402
from russian_helpers import flat, record as _record  # noqa: E402

NO_EGLES = {"general_egles": 0, "egles": 0}
ABCD = ("A", "B", "C", "D")
ABCDE = ("A", "B", "C", "D", "E")
SIX_BOTH_PASS = {"contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}}
_zero = dict.fromkeys(ABCD, 0)


def _start(mountain: Dict[str, Any], players=ABCD) -> Dict[str, Any]:
    return {"pool": dict.fromkeys(players, 0), "mountain": mountain, "whists": {}}


#: (family, option) → cases: (players, variant, deals, rules). Under every alternative reading of
#: an inferred option some case must come out otherwise than under the preset's default (the
#: sheet, the dealers, the state or the settlement), so every value offered is played.
READING_CASES: Dict[tuple, List[tuple]] = {
    ("lithuanian", "shortfall_8_10"): [(ABCD, "lithuanian", [
        {"contract": "8S", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 10, "C": 0, "D": 0}}],
        NO_EGLES)],
    ("lithuanian", "misere_catchers"): [(ABCD, "lithuanian", [
        {"contract": "misere", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 0, "C": 5, "D": 5}}],
        NO_EGLES)],
    # seed 002 l.177: ÷ 4, "suapvalina vieneto tikslumu": 2 hens → ½, 5 hens → 1¼
    ("lithuanian", "hens_rounding"): [(ABCD, "lithuanian", [], {"start": _start({"A": 0, "B": 2, "C": 5, "D": 0})})],
    # B has no hens: his made 6 strikes the fewest's (seed 002 l.171); D, short of the quota,
    # has the fewest only before his shortfall hens are written
    ("lithuanian", "strike_order"): [(ABCD, "lithuanian", [
        {"contract": "6S", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 8, "C": 2, "D": 0}}],
        {**NO_EGLES, "start": _start({"A": 30, "B": 0, "C": 25, "D": 20})})],
    ("lithuanian", "strike_beyond"): [(ABCD, "lithuanian", [SIX_BOTH_PASS], {**NO_EGLES, "start": _start(_zero)})],
    ("lithuanian", "allpass.regain"): [(ABCD, "lithuanian", [
        {"contract": "all-pass", "tricks": {"A": 0, "B": 3, "C": 3, "D": 4}}, SIX_BOTH_PASS], NO_EGLES)],
    ("lithuanian", "writeup_dealer"): [(ABCD, "lithuanian", [
        {"contract": "6S", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 5, "C": 3, "D": 2},
         "talon": "AS 7H"}], NO_EGLES)],
    ("lithuanian", "talon_bonus_misere"): [(ABCD, "lithuanian", [
        {"contract": "misere", "declarer": "B", "whist": {"C": PS, "D": PS}, "talon": "7S 8S"}], NO_EGLES)],
    ("lithuanian", "talon_two_aces"): [(ABCD, "lithuanian", [dict(SIX_BOTH_PASS, talon="AS AH")], NO_EGLES)],
    ("lithuanian", "misere_row"): [(ABCD, "lithuanian", [
        {"contract": "misere", "declarer": "B", "whist": {"C": PS, "D": PS}}], NO_EGLES)],
    ("lithuanian", "bomb_multiplier"): [(ABCD, "lithuanian", [
        {"contract": "7S", "declarer": "B", "whist": {"C": PS, "D": PS}, "bomb": "B"}], NO_EGLES)],
    ("lithuanian", "bomb_allpass"): [(("A", "B", "C"), "lithuanian", [
        {"contract": "all-pass", "bomb": "B", "tricks": {"A": 3, "B": 3, "C": 4}},
        {"contract": "6S", "declarer": "C", "whist": {"A": PS, "B": PS}}], NO_EGLES)],
    ("lithuanian-kitty", "shortfall_8_10"): [(ABCD, "lithuanian-kitty", [
        {"contract": "8S", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 10, "C": 0, "D": 0}}], {})],
    ("lithuanian-kitty", "misere_catchers"): [(ABCD, "lithuanian-kitty", [
        {"contract": "misere", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 0, "C": 5, "D": 5}}], {})],
    # seed 000 l.247: ÷ the 3 others: 3/2 hens → ½, 15/4 → 1¼
    ("lithuanian-kitty", "hens_rounding"): [(ABCD, "lithuanian-kitty", [],
                                             {"start": _start({"A": 0, "B": "3/2", "C": "15/4", "D": 0})})],
    # seed 000 l.239: a declarer without hens strikes the one with the most (paprastai)
    ("lithuanian-kitty", "strike_order"): [(ABCD, "lithuanian-kitty", [
        {"contract": "6S", "declarer": "B", "whist": {"C": W, "D": W}, "tricks": {"B": 8, "C": 2, "D": 0}}],
        {"start": _start({"A": 30, "B": 0, "C": 40, "D": 35})})],
    ("lithuanian-kitty", "strike_beyond"): [(ABCD, "lithuanian-kitty", [SIX_BOTH_PASS], {"start": _start(_zero)})],
    ("lithuanian-kitty", "skip_eglute_rights"): [(ABCD, "lithuanian-kitty", [SIX_BOTH_PASS], {"skip_eglute": True})],
    ("lithuanian-kitty", "allpass.same_dealer"): [(ABCD, "lithuanian-kitty", [
        {"contract": "all-pass", "tricks": {"B": 3, "C": 3, "D": 4}}], {"skip_eglute": True})],
    # five players, seed 004 l.107: A deals; the one waiting is B (next) or E (previous), so the
    # consolation "to all" is written by A, D, E or by A, B, D
    ("russian", "seating.waiting"): [(ABCDE, "sochi", [
        {"contract": "6S", "declarer": "C", "whist": {"D": W}, "tricks": {"C": 5, "D": 5}}], {})],
    ("russian", "consolation_waiting"): [(ABCDE, "sochi", [
        # (B waits: the defenders D and E write every decision and count, issue 10)
        {"contract": "6S", "declarer": "C", "whist": {"D": W, "E": PS}, "tricks": {"C": 5, "D": 5, "E": 0}}], {})],
    # the Lithuanian families write every defender's decision: E defends (next) or sits out
    # (previous, and the deal is refused): the seats are the whole difference
    ("lithuanian", "seating.waiting"): [(ABCDE, "lithuanian", [
        {"contract": "6S", "declarer": "C", "whist": {"D": W, "E": PS}, "tricks": {"C": 6, "D": 3, "E": 1}}],
        dict(NO_EGLES, pool=30))],
    ("lithuanian-kitty", "seating.waiting"): [(ABCDE, "lithuanian-kitty", [
        {"contract": "6S", "declarer": "C", "whist": {"D": W, "E": PS}, "tricks": {"C": 6, "D": 3, "E": 1}}],
        {"pool": 30})],
    # the two-player game (HUSAR.md H6, H8, H12, H15)
    ("russian-husar", "husar.hold_right"): [(("A", "B"), "sochi-husar", [
        {"dealer": "A", "auction": ["6S", "6C", "here", "pass"], "contract": "6S", "declarer": "B",
         "whist": {"A": PS}}], {})],
    ("russian-husar", "husar.half_whist"): [(("A", "B"), "sochi-husar", [
        {"contract": "6S", "declarer": "A", "whist": {"B": "half-whist"}}], {})],
    ("russian-husar", "husar.passer_share"): [(("A", "B"), "leningrad-husar", [
        {"contract": "7H", "declarer": "B", "whist": {"A": W}, "tricks": {"B": 6, "A": 4}}], {})],
    ("russian-husar", "husar.allpass_dummy"): [(("A", "B"), "sochi-husar", [
        {"contract": "all-pass", "tricks": {"A": 3, "B": 5, "dummy": 2}}], {})],
    ("russian", "takeover_shortfall"): [(ABCD, "sochi", [
        {"dealer": "A", "contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}, "takeover": "A",
         "tricks": {"B": 8, "C": 1, "D": 1}}], {})],
}


def _outcome(players, variant, deals, rules, option, value):
    from prefcli.scoring import ScoringError
    r = _record(deals, list(players), variant, **rules)
    try:
        res = _score(r, resolve_rules(r.rules, sets=[(option, value)]))
    except ScoringError as exc:           # a reading that refuses the record: its outcome is the refusal
        return ("refused", exc.message)
    net = settle_sheet(res.sheet(), res.rules).net
    return flat(res), dict(res.dealers), dict(res.state), {p: Fraction(v) for p, v in net.items()}


def _inferred_options():
    seen = {}
    for preset in presets():
        for o in preset.family.options:
            if o.inferred:
                seen.setdefault((preset.family.name, o.name), (o, []))[1].append(preset)
    return seen


def test_every_inferred_option_says_why_and_the_marks_agree():
    for preset in presets():
        fam = preset.family
        for o in fam.options:
            assert ("(inferred)" in o.meaning) == o.inferred, (fam.name, o.name)
            if not o.inferred:
                assert not (o.why or o.alternatives or o.see), (fam.name, o.name)
                continue
            if o.see:                  # a table row set by another inferred option, or a part of one
                target = fam.option(o.see)
                assert target is not None and target.inferred and target.why, (o.name, o.see)
                if o.kind == "number":
                    assert target.rows and any(o.name in row for row in target.rows.values()), (o.name, o.see)
                continue
            assert o.why, (fam.name, o.name)
            for value, meaning in o.alternatives:
                assert meaning and o.coerce(value) is not None, (o.name, value)


@pytest.mark.parametrize("key", sorted(k for k, (o, _) in _inferred_options().items() if o.alternatives))
def test_every_other_reading_is_played(key):
    option, in_presets = _inferred_options()[key]
    cases = READING_CASES.get(key)
    assert cases, f"{key}: no case shows its other readings"
    for preset in in_presets:
        default = preset.values[option.name]
        for value, _ in option.alternatives:
            if option.coerce(value) == option.coerce(default):
                continue
            assert any(_outcome(*c, option.name, default) != _outcome(*c, option.name, value) for c in cases), \
                (key, preset.name, value)


def test_seed002_readings_in_numbers():
    # the misère's row: the 10's (18 points) or the 9's (15); two aces in the talon: 2 or 3 × 12
    mis = [{"contract": "misere", "declarer": "B", "whist": {"C": PS, "D": PS}}]
    assert _outcome(ABCD, "lithuanian", mis, NO_EGLES, "misere_row", "ten")[0]["pool.B"] == 18
    assert _outcome(ABCD, "lithuanian", mis, NO_EGLES, "misere_row", "nine")[0]["pool.B"] == 15
    aces = [dict(SIX_BOTH_PASS, talon="AS AH")]
    assert _outcome(ABCD, "lithuanian", aces, NO_EGLES, "talon_two_aces", 2)[0]["whists.A.B"] == 24
    assert _outcome(ABCD, "lithuanian", aces, NO_EGLES, "talon_two_aces", 3)[0]["whists.A.B"] == 36
    # the rows a club sets by name win over the row option's
    rules = resolve_rules({"variant": "lithuanian", "misere_row": "nine", "points": {"misere": 7}})
    assert rules["points.misere"] == 7 and rules["remiz.misere"] == 30


def test_variants_marks_the_inferred_readings(capsys):
    from prefcli.cli.main import main
    import json
    assert main(["variants", "lithuanian", "-f", "json"]) == 0
    doc = {o["name"]: o for o in json.loads(capsys.readouterr().out)["options"]}
    assert doc["misere_row"]["inferred"] and doc["misere_row"]["alternatives"][0]["value"] == "nine"
    assert doc["points.misere"]["see"] == "misere_row" and doc["points.8"]["see"] == "upper_rows"
    assert "inferred" not in doc["points.6"]
    assert main(["variants", "lithuanian"]) == 0
    out = capsys.readouterr().out
    assert "inferred: seed 002 prints no misère row" in out and "other readings: nine:" in out


def test_readme_lists_every_inferred_reading():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Readings the seeds leave open", 1)[1].split("\n#", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("| `")]
    names = {r.split("`")[1] for r in rows}
    expected = {o.name for (_, _), (o, _) in _inferred_options().items() if not o.see}
    assert names == expected
    for (fam, name), (o, in_presets) in _inferred_options().items():
        if o.see:
            continue
        row = next(r for r in rows if r.split("`")[1] == name and all(p.name in r for p in in_presets))
        for value, _ in o.alternatives:
            assert f"`{value}`" in row, (name, value)
