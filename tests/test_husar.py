"""The two-player game with a dummy (гусарик; issue 13 items 1, 2, 4, 5): shared/spec/HUSAR.md.

The worked example of HUSAR.md §4 (lines 328-420: deal 1, its sheet entries, the variations, the
settlement, overflow and all-pass illustrations) is reproduced first, entry by entry; then the
rules the reading and the replay check (H3, H6, H8-H10, H14, H15), the options, and every command.
"""
from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import EXAMPLES
from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.rules.context import RecordContext
from prefcli.rules.presets import get_preset, resolve_rules
from prefcli.scoring import score

HUSAR_EXAMPLE = EXAMPLES / "husar-sochi.yaml"

# HUSAR.md §4, "Deal 1, dealer Anna" (l.337-368) and the record it prints (l.420-452)
WORKED = {
    "format": "pref-record/1",
    "players": ["Anna", "Boris"],
    "rules": {"variant": "sochi-husar"},
    "deals": [{
        "dealer": "Anna",
        "hands": {"dummy": "JS 10S 9S 10D 9D 7D JC 10C 9C 8C",
                  "Boris": "AS 8S AH KH 10H 7H KD 8D AC 7C",
                  "Anna": "KS QS QH JH 9H AD QD JD KC QC"},
        "talon": "8H 7S",
        "auction": ["6S", "pass"],
        "discard": "7S 7C",
        "contract": "7H",
        "declarer": "Boris",
        "whist": {"Anna": "whist"},
        "open": True,
        "play": ["7D 8D JD", "AD 9D KD", "QD 10D 7H", "AH 9H 8C", "KH JH 9C",
                 "AS QS 9S", "AC QC 10C", "8S KS 10S", "KC JC 8H", "10H QH JS"],
        "tricks": {"Boris": 6, "Anna": 4},
    }],
}


def worked(**deal_changes) -> dict:
    data = copy.deepcopy(WORKED)
    for k, v in deal_changes.items():
        if v is None:
            data["deals"][0].pop(k, None)
        else:
            data["deals"][0][k] = v
    return data


def entries(data: dict, **kw):
    rec = record_from_data(data, strict=True)
    result = score(rec, **kw)
    return [(e.player, e.area, e.on, e.amount, e.rule) for e in result.ledger.entries if e.deal is not None], result


def problems(data: dict):
    return [p.message for p in check_record(record_from_data(data, strict=True)) if p.severity == "error"]


# --- HUSAR.md §4: the worked example ---------------------------------------------------------

def test_worked_example_sheet_entries():
    """HUSAR.md §4 "Sheet entries" (l.370-376): Boris 4 to his mountain (price 4 × 1 undertrick),
    Anna 20 whists on Boris (4 × 4 defence tricks = 16, + consolation 4 × 1), the dummy nothing."""
    got, result = entries(WORKED)
    assert got == [("Boris", "mountain", None, 4, "contract.failed"),
                   ("Anna", "whists", "Boris", 16, "whist.tricks"),
                   ("Anna", "whists", "Boris", 4, "consolation")]
    assert result.ledger.players == ("Anna", "Boris")          # H16: the dummy has no sector


def test_worked_example_replays_card_by_card():
    """HUSAR.md §4 steps 1-5 (l.340-366): the dummy is skipped in the auction, Boris wins with 6♠,
    Anna whists, the dummy (first hand) leads, Boris takes 6, the defence 4 (Anna 4, dummy 0)."""
    rec = record_from_data(WORKED, strict=True)
    ctx = RecordContext(rec, resolve_rules(rec.rules))
    reading = ctx.reading(rec.deals[0])
    assert reading.ok, reading.problems
    assert reading.seats == ("dummy", "Boris", "Anna")        # H3: first hand = dummy in Anna's deal
    assert reading.callers == ("Boris", "Anna")                # H6: the dummy does not call
    assert reading.defenders == ("Anna", "dummy") and reading.whisters == ("Anna",)
    assert reading.open and reading.controller == "Anna"        # H9, H10
    rep = reading.replay
    assert [(s.player, str(s.call)) for s in rep.auction] == [("Boris", "6S"), ("Anna", "pass")]
    assert rep.tricks[0].leader == "dummy"
    assert [t.winner for t in rep.tricks] == ["Anna", "Anna", "Boris", "Boris", "Boris", "Boris", "Boris",
                                              "Anna", "Boris", "Anna"]
    assert rep.counts == {"dummy": 0, "Boris": 6, "Anna": 4}
    assert reading.tricks == {"dummy": 0, "Boris": 6, "Anna": 4}


def test_worked_example_variation_passed():
    """HUSAR.md §4 variations (l.380): had Anna passed, Boris writes 4 in his pool, no play."""
    got, _ = entries(worked(whist={"Anna": "pass"}, play=None, tricks=None))
    assert got == [("Boris", "pool", None, 4, "contract.unplayed")]


def test_worked_example_variation_rostov_consolation():
    """HUSAR.md §4 variations (l.381-382): Rostov's fixed consolation 10: Anna 16 + 10 = 26, Boris 4."""
    got, _ = entries(WORKED, sets=[("consolation", "10")])
    assert ("Anna", "whists", "Boris", 10, "consolation") in got
    assert sum(a for p, area, on, a, r in got if p == "Anna") == 26
    assert ("Boris", "mountain", None, 4, "contract.failed") in got


@pytest.mark.parametrize("share, anna", [("whister-takes-all", 20), ("lost", 12)])
def test_worked_example_variation_gentleman_passer_share(share, anna):
    """HUSAR.md §4 variations (l.383-386): gentleman whist; whister-takes-all: Anna still writes
    20; lost: only her half of the 16 trick whists (8) plus her consolation 4 = 12."""
    got, _ = entries(WORKED, sets=[("whist_style", "gentleman"), ("husar.passer_share", share)])
    assert sum(a for p, area, on, a, r in got if p == "Anna" and area == "whists") == anna
    assert all(p in ("Anna", "Boris") for p, *_ in got)


def test_worked_example_variation_declarer_leads():
    """HUSAR.md §4 variations (l.387-388): with husar.first_lead = declarer Boris leads trick 1,
    so the recorded play (the dummy's ♦7 first) is refused there."""
    data = worked()
    data["rules"]["husar"] = {"first_lead": "declarer"}
    msgs = problems(data)
    assert any("trick 1: Boris played 7D, which dummy holds" in m for m in msgs), msgs


@pytest.mark.parametrize("mountain, anna", [("divided", 40), ("undivided", 60)])
def test_worked_example_settlement(run, tmp_path, mountain, anna):
    """HUSAR.md §4 "Settlement illustration" (l.390-397): divided, Boris's 4 points × 10 / 2 = 20
    whists, Anna +40; undivided, 4 × 10 = 40, Anna +60."""
    path = tmp_path / "w.json"
    path.write_text(json.dumps(WORKED), encoding="utf-8")
    code, out, err = run(["settle", str(path), "-f", "json", "--set", f"husar.mountain={mountain}"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["net"] == {"Anna": anna, "Boris": -anna}


@pytest.mark.parametrize("mountain, off", [("divided", 6), ("undivided", 3)])
def test_overflow_illustration(mountain, off):
    """HUSAR.md §4 "Overflow illustration" (l.399-402): Anna needs 2 more and makes a 9 (price 8):
    2 go to her pool, 6 overflow; divided: 6 off her mountain; undivided: only 3 (K 4.1.1(в))."""
    data = {"format": "pref-record/1", "players": ["Anna", "Boris"],
            "rules": {"variant": "sochi-husar", "pool": 10, "husar": {"mountain": mountain}},
            "start": {"pool": {"Anna": 8, "Boris": 10}, "mountain": {"Anna": 10, "Boris": 0}},
            "deals": [{"contract": "9S", "declarer": "Anna", "whist": {"Boris": "pass"}}]}
    got, _ = entries(data)
    assert got == [("Anna", "pool", None, 2, "contract.unplayed"),
                   ("Anna", "mountain", None, -off, "help.own-mountain")]


@pytest.mark.parametrize("variant, want", [
    ("sochi-husar", [("Boris", "mountain", None, 2, "allpass.tricks")]),
    ("rostov-husar", [("Anna", "whists", "Boris", 30, "allpass.rostov")]),
])
def test_allpass_illustration(variant, want):
    """HUSAR.md §4 "All-pass illustration" (l.404-409): Anna 4, Boris 6; Sochi: amnesty 4, Boris
    writes 2; Rostov: Anna (fewer tricks) writes 5 × 6 = 30 whists on Boris."""
    data = {"format": "pref-record/1", "players": ["Anna", "Boris"], "rules": {"variant": variant},
            "deals": [{"contract": "all-pass", "tricks": {"Anna": 4, "Boris": 6}}]}
    got, _ = entries(data)
    assert got == want


# --- the table and the reading ---------------------------------------------------------------

def test_the_husar_presets_are_the_russian_tables_with_a_dummy():
    for base in ("sochi", "leningrad", "rostov", "classic"):
        p = get_preset(f"{base}-husar")
        assert p.players == (2,) and p.dummy == "dummy"
        rules, base_rules = resolve_rules({"variant": p.name}), resolve_rules({"variant": base})
        # the base's every option and value, but those of a seat that sits out (nobody does at two)
        from prefcli.rules.presets.husar import NOT_AT_TWO
        assert all(rules[k] == v for k, v in base_rules.values.items() if k != "variant" and k not in NOT_AT_TWO)
        assert not set(NOT_AT_TWO) & set(rules.values)
    rules = resolve_rules({"variant": "sochi-husar"})
    # HUSAR.md §3: every option with its proposed default
    assert {k: rules[k] for k in rules.values if k.startswith("husar.")} == {
        "husar.seating": "fixed", "husar.dummy_in_auction": "closed", "husar.hold_right": "first-live-hand",
        "husar.whist": "optional", "husar.half_whist": False, "husar.dummy_control": "whister",
        "husar.first_lead": "first-hand", "husar.passer_share": "whister-takes-all",
        "husar.allpass_talon": "closed", "husar.allpass_dummy": "out", "husar.mountain": "divided"}
    inferred = {o.name for o in rules.family.options if o.name.startswith("husar.") and o.inferred}
    assert inferred == {"husar.hold_right", "husar.half_whist", "husar.passer_share", "husar.allpass_dummy"}


def test_the_deal_alternates_and_the_first_hand_follows_h3():
    """H3 (seed 004 l.39): Anna's deals start with the dummy, Boris's with Anna; the dummy never deals."""
    rec = record_from_data({"format": "pref-record/1", "players": ["Anna", "Boris"],
                            "rules": {"variant": "sochi-husar"}, "first_dealer": "Anna",
                            "deals": [{"contract": "all-pass", "tricks": {"Anna": 5, "Boris": 5}}] * 4}, strict=True)
    ctx = RecordContext(rec, resolve_rules(rec.rules))
    got = [(r.dealer, r.first_hand, r.first_leader, r.players_in_play) for r in ctx.readings()]
    assert got == [("Anna", "dummy", "Boris", ("Boris", "Anna")), ("Boris", "Anna", "Anna", ("Anna", "Boris"))] * 2


@pytest.mark.parametrize("change, words", [
    ({"whist": {"Anna": "whist", "dummy": "pass"}}, "the dummy never speaks"),
    ({"declarer": "dummy", "auction": None, "whist": {"Anna": "whist"}}, "the dummy never bids or declares"),
    ({"hands": {"Boris": "AS 8S AH KH 10H 7H KD 8D AC 7C", "Anna": "KS QS QH JH 9H AD QD JD KC QC"}},
     "the hand of dummy is missing"),
])
def test_the_dummy_never_speaks_declares_or_goes_missing(change, words):
    assert any(words in m for m in problems(worked(**change))), problems(worked(**change))


def test_the_dummy_follows_suit():
    """H9-H10: the dummy's cards are checked like any hand's: in trick 2 (♦A led) the dummy holds
    ♦10 9 and may not throw a club."""
    data = worked()
    data["deals"][0]["play"][1] = "AD JC KD"
    msgs = problems(data)
    assert msgs == ["deal 1, trick 2: dummy played JC but holds 9D, 10D and must follow diamonds"]


def test_an_allpass_is_played_in_two_card_tricks_without_the_talon():
    """H15 (K 3.7.6.4, seed 004 l.86): the dummy and the talon stay closed; a three-card trick or a
    trick for the dummy is refused."""
    data = json.loads(json.dumps(record_from_data_plain(HUSAR_EXAMPLE)))
    deal = data["deals"][2]
    assert deal["contract"] == "all-pass"
    ok = problems(data)
    assert ok == []
    bad = copy.deepcopy(data)
    bad["deals"][2]["play"][0] = "KH 7H 8S"
    assert any("two cards a trick, HUSAR.md H15" in m for m in problems(bad))
    bad = copy.deepcopy(data)
    bad["deals"][3]["tricks"] = {"Anna": 6, "Boris": 3, "dummy": 1}
    assert any("the dummy's cards are not turned up and it takes no tricks" in m for m in problems(bad))


def record_from_data_plain(path: Path) -> dict:
    from prefcli.io.parsing import parse_text
    return parse_text(str(path), path.read_text(encoding="utf-8"), False).data


def test_misere_is_caught_with_the_dummy_open():
    """H14: the opponent catches with his and the dummy's cards open; the declarer (first hand)
    leads; the example's misère is made."""
    data = record_from_data_plain(HUSAR_EXAMPLE)
    rec = record_from_data(data, strict=True)
    ctx = RecordContext(rec, resolve_rules(rec.rules))
    r = ctx.reading(rec.deals[5])
    assert r.deal.contract.is_misere and r.ok
    assert r.controller == "Boris" and r.first_leader == "Anna"
    assert r.replay.counts == {"Anna": 0, "dummy": 3, "Boris": 7}


def test_compulsory_whist_refuses_a_pass():
    data = worked(whist={"Anna": "pass"}, play=None, tricks=None)
    data["rules"]["husar"] = {"whist": "compulsory"}
    assert any("every contract is played out" in m for m in problems(data))


def test_hold_right_none_refuses_here():
    """H6 option husar.hold_right: none: nobody may hold the last bid."""
    data = worked(auction=["6S", "6C", "here", "pass"], contract="7H")
    assert problems(data) == []            # Boris (first live hand) holds 6♣ by default
    data["rules"]["husar"] = {"hold_right": "none"}
    assert any("nobody may say here" in m for m in problems(data))
    data["rules"]["husar"] = {"hold_right": "first-hand-only"}   # the dummy is first hand here
    assert any("nobody may say here" in m for m in problems(data))


def test_robot_dummy_control_checks_every_dummy_card():
    """H9 option husar.dummy_control: robot (GO): lowest of the suit led, else lowest trump, else
    lowest card. The worked example's dummy leads ♦7 (its lowest card) but later plays ♣9 to
    ♥K where its lowest card is ♣8... so it is refused at the first card the robot would not play."""
    data = worked()
    data["rules"]["husar"] = {"dummy_control": "robot"}
    msgs = problems(data)
    assert any("played by the robot" in m for m in msgs), msgs


def test_alternating_seating_puts_the_dummy_first_in_boris_deals():
    rec = record_from_data({"format": "pref-record/1", "players": ["Anna", "Boris"],
                            "rules": {"variant": "sochi-husar", "husar": {"seating": "alternating"}},
                            "deals": [{"contract": "all-pass", "tricks": {"Anna": 5, "Boris": 5}}] * 2}, strict=True)
    ctx = RecordContext(rec, resolve_rules(rec.rules))
    assert [r.seats for r in ctx.readings()] == [("dummy", "Boris", "Anna"), ("dummy", "Anna", "Boris")]


def test_a_player_named_dummy_is_refused():
    data = worked()
    data["players"] = ["dummy", "Boris"]
    assert any("names the dummy hand" in m for m in problems(data))


# --- the example game ------------------------------------------------------------------------

def test_the_example_game_is_played_to_the_end():
    rec = record_from_data(record_from_data_plain(HUSAR_EXAMPLE), strict=True)
    assert len(rec.deals) >= 12 and sum(1 for d in rec.deals if d.hands is not None) == 3
    result = score(rec)
    assert result.finished
    sheet = result.ledger
    totals = {}
    for p in rec.players:
        totals[p] = tuple(sum(e.amount for e in sheet.entries if e.player == p and e.area == a)
                          for a in ("pool", "mountain"))
    assert totals == {"Anna": (20, 8), "Boris": (20, 32)}
    kinds = {e.rule for e in sheet.entries}
    assert {"contract.made", "contract.failed", "contract.unplayed", "allpass.tricks", "misere.made",
            "misere.failed", "shortfall", "help.own-mountain"} <= kinds


# --- the commands ----------------------------------------------------------------------------

def test_validate_and_replay(run):
    code, out, err = run(["validate", str(HUSAR_EXAMPLE)])
    assert code == 0 and "ok: examples/husar-sochi.yaml (record, 15 deals)" in out.replace(str(EXAMPLES.parent) + "/", "")
    code, out, err = run(["replay", str(HUSAR_EXAMPLE), "--deal", "1"])
    assert code == 0, err
    assert "deal 1 (dealer Anna, first hand dummy)" in out
    assert "whist:   Anna whist (open)" in out and "dummy:   open, played by Anna" in out
    assert "trick  1: dummy 7D, Boris 8D, Anna JD → Anna" in out
    code, out, err = run(["replay", str(HUSAR_EXAMPLE), "--deal", "3", "-f", "json"])
    deal = json.loads(out)["deals"][0]
    assert deal["dummy"] == "dummy" and deal["dummy_played_by"] is None
    assert all(len(t["cards"]) == 2 for t in deal["play"]) and deal["tricks"] == {"Boris": 7, "Anna": 3}


def test_score_explain_names_the_husar_rule(run):
    code, out, err = run(["score", str(HUSAR_EXAMPLE), "--explain", "--after", "1"])
    assert code == 0, err
    assert "7H down 1 × 4 [HUSAR.md H12]" in out
    assert "4 trick(s) × 4 [HUSAR.md H11, H12]" in out
    code, out, err = run(["score", str(HUSAR_EXAMPLE), "--explain"])
    for ref in ("H13", "H14", "H15", "H17, H18", "H8, H12"):
        assert f"[HUSAR.md {ref}]" in out


def test_convert_to_a_three_player_preset_is_refused(run):
    code, out, err = run(["convert", str(HUSAR_EXAMPLE), "--variant", "sochi"])
    assert code == 1 and out == ""
    from prefcli.model.records import counts_text
    assert ("players: cannot convert a 2-player record to sochi: 2 players listed; sochi is played by "
            f"{counts_text(get_preset('sochi').players)} players") in err
    assert "dummy hand belongs to nobody" in err
    code, out, err = run(["convert", str(HUSAR_EXAMPLE), "--variant", "leningrad-husar"])
    assert code == 0 and "variant: leningrad-husar" in out


def test_settle_and_the_sheet_round_trip(run):
    code, out, err = run(["settle", str(HUSAR_EXAMPLE), "-f", "json"])
    assert code == 0, err
    direct = json.loads(out)["net"]
    code, sheet, err = run(["score", str(HUSAR_EXAMPLE), "-f", "json"])
    assert code == 0, err
    code, out, err = run(["settle", "-", "-f", "json"], stdin=sheet)
    assert code == 0, err
    assert json.loads(out)["net"] == direct
    # pools closed, mountains 8 and 32: amnesty 24 × 10 / 2 = 120 on Boris, whists 66 − 8
    assert direct == {"Anna": 120 + 58, "Boris": -(120 + 58)}


def test_draw_has_a_two_player_layout(run, tmp_path):
    out_svg = tmp_path / "s.svg"
    code, out, err = run(["draw", str(HUSAR_EXAMPLE), "-o", str(out_svg)])
    assert code == 0, err
    svg = out_svg.read_text(encoding="utf-8")
    assert svg.startswith("<svg") or "<svg" in svg[:200]
    assert "Anna" in svg and "Boris" in svg and "dummy" not in svg


def test_report_page(run, tmp_path):
    page = tmp_path / "r.html"
    code, out, err = run(["report", str(HUSAR_EXAMPLE), "-o", str(page)])
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert "Anna" in html and "Boris" in html and "<svg" in html


def test_quick_entry_takes_two_player_deals(run, tmp_path):
    notes = tmp_path / "n.txt"
    notes.write_text("players: Anna, Boris\nvariant: sochi-husar\nBoris 7H Anna:w 6/4\nAnna 6S Boris:p\n"
                     "pass 3/7\nAnna misere 0\nBoris misere 1\n", encoding="utf-8")
    code, out, err = run(["convert", str(notes), "-f", "json"])
    assert code == 0, err
    deals = json.loads(out)["deals"]
    assert deals[0]["tricks"] == {"Boris": 6, "Anna": 4}
    assert deals[2]["tricks"] == {"Anna": 3, "Boris": 7}            # the dummy sits out (H15)
    assert deals[3]["tricks"] == {"Anna": 0, "Boris": 10}
    assert deals[4]["tricks"] == {"Boris": 1, "Anna": 9}
    notes.write_text("players: Anna, Boris\nBoris 6S Anna:w 6/4\n", encoding="utf-8")
    code, out, err = run(["convert", str(notes)])
    assert code == 1 and "two players play a husar preset" in err


def test_half_whist_is_an_agreement_and_the_dummy_never_returns_it():
    """H8 option husar.half_whist (inferred): off by default; on, the opponent half-whists a 6 or 7
    with the dummy as the partner who passed (Кодекс 3.8.7); the dummy cannot return it (3.8.8)."""
    deal = {"contract": "6S", "declarer": "Anna", "whist": {"Boris": "half-whist"}}
    data = {"format": "pref-record/1", "players": ["Anna", "Boris"], "rules": {"variant": "sochi-husar"},
            "deals": [deal]}
    assert any("option half_whist, husar.half_whist" in m for m in problems(data))
    data["rules"]["husar"] = {"half_whist": "yes"}
    got, _ = entries(data)
    assert got == [("Anna", "pool", None, 2, "contract.unplayed"), ("Boris", "whists", "Anna", 4, "whist.half")]
    data["deals"][0] = {**deal, "return": "dummy"}
    assert any("the dummy never speaks, so it neither takes over nor returns a whist" in m for m in problems(data))


def test_leningrad_husar_scores_the_worked_example_with_its_tables():
    """The same deal under leningrad-husar: whists and remises doubled (whist_multiplier 2,
    declarer_fail_multiplier 2); gentleman whist, but the dummy's half is the whister's
    (husar.passer_share: whister-takes-all, H12): Boris 8, Anna 4 × 8 + 1 × 8 = 40."""
    data = worked()
    data["rules"]["variant"] = "leningrad-husar"
    got, _ = entries(data)
    assert got == [("Boris", "mountain", None, 8, "contract.failed"),
                   ("Anna", "whists", "Boris", 32, "whist.tricks"),
                   ("Anna", "whists", "Boris", 8, "consolation")]


def test_a_closed_pool_helps_the_only_opponent():
    """H17 (K 4.2.3): Anna's pool needs 2; her 7♠ (4) puts 2 in it and 2 in Boris's, and she
    writes 10 whists a point on him."""
    data = {"format": "pref-record/1", "players": ["Anna", "Boris"], "rules": {"variant": "sochi-husar"},
            "start": {"pool": {"Anna": 18, "Boris": 10}, "mountain": {"Anna": 0, "Boris": 0}},
            "deals": [{"contract": "7S", "declarer": "Anna", "whist": {"Boris": "pass"}}]}
    got, _ = entries(data)
    assert got == [("Anna", "pool", None, 2, "contract.unplayed"), ("Boris", "pool", None, 2, "help"),
                   ("Anna", "whists", "Boris", 20, "help")]


# --- what a two-seat table never reaches, and what no rule reads -----------------------------

@pytest.mark.parametrize("name,value", [("takeover", True), ("misere_partner", True), ("talon_bonus", True),
                                        ("single_whist", "own"), ("help_tie", "first-seat"),
                                        ("shortfall_split", "pair-deficit"), ("return_whist", True)])
def test_options_of_a_seat_that_sits_out_or_a_second_whister_are_refused_at_two(name, value):
    """A Russian option that nothing at a two-seat table reaches is refused in a husar record, not
    read nowhere: the sitting-out 4-player dealer (takeover, misere_partner, the talon bonus), a
    second whister or a passer with a sheet (HUSAR.md H8: the dummy "cannot return the whist"), the
    whister's own tricks against the dummy's (H11: "Only two numbers matter"), a tie between two
    open pools (H17: one opponent to help)."""
    from prefcli.rules.presets import OptionError
    from prefcli.rules.presets.husar import NOT_AT_TWO
    assert name in NOT_AT_TWO
    with pytest.raises(OptionError):
        resolve_rules({"variant": "sochi-husar", name: value})
    data = worked()
    data["rules"][name] = value
    msgs = problems(data)
    assert len(msgs) == 1 and name in msgs[0], msgs
    assert resolve_rules({"variant": "sochi", name: value}).values[name] == value    # offered at three


def test_dummy_in_auction_is_informational_and_says_so(run):
    """HUSAR.md H5 gives husar.dummy_in_auction (closed / open) and no rule that reads it: it is kept
    with the record, changes no check and no number (tests/test_options_behaviour.py), and
    `prefcli variants` says so."""
    opt = get_preset("sochi-husar").family.option("husar.dummy_in_auction")
    assert opt.informational
    assert [o.name for o in get_preset("sochi-husar").family.options if o.informational] == ["husar.dummy_in_auction"]
    code, out, _ = run(["variants", "sochi-husar"])
    assert code == 0
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("husar.dummy_in_auction"))
    assert lines[i + 2].strip().startswith("informational: HUSAR.md H5")
    data = json.loads(run(["variants", "sochi-husar", "-f", "json"])[1])
    row = next(o for o in data["options"] if o["name"] == "husar.dummy_in_auction")
    assert row["informational"].startswith("HUSAR.md H5")
    for value in ("closed", "open"):
        rec = worked()
        rec["rules"]["husar"] = {"dummy_in_auction": value}
        assert problems(rec) == []
        assert entries(rec)[0] == entries(WORKED)[0]


def test_taking_the_talon_without_a_call_is_refused_with_its_reason():
    """HUSAR.md H6 (inferred, by analogy with Кодекс 3.3.15): "if the first live hand passes, the
    other player may take the talon without a call". Not played: the auction is [pass] and Anna,
    who would take the talon without a call, is told to write her call."""
    data = worked(auction=["pass"], contract="6S", declarer="Anna", whist={"Boris": "pass"},
                  hands=None, talon=None, discard=None, play=None, tricks=None, open=None)
    msgs = problems(data)
    assert len(msgs) == 1
    assert msgs[0].startswith("deal 1: the auction is not finished: Anna is still to call after 1 calls (with two "
                              "players the talon is taken by a call only")
    assert "HUSAR.md H6" in msgs[0] and "write Anna's call, e.g. 6S" in msgs[0]
    assert problems(worked(auction=["pass", "6S"], contract="6S", declarer="Anna", whist={"Boris": "pass"},
                           hands=None, talon=None, discard=None, play=None, tricks=None, open=None)) == []


# --- analyze: a husar all-pass, two hands -----------------------------------------------------

def _minimax(hands, leader, trump, target):
    from prefcli.rules.moves import legal_mask, trick_winner_codes
    if not hands[leader]:
        return 0
    other = 1 - leader
    lead_values = []
    for a in range(32):
        if not (legal_mask(hands[leader], -1, trump) >> a) & 1:
            continue
        replies = []
        for b in range(32):
            if not (legal_mask(hands[other], a >> 3, trump) >> b) & 1:
                continue
            w = (leader + trick_winner_codes((a, b), trump)) % 2
            nh = list(hands)
            nh[leader] &= ~(1 << a)
            nh[other] &= ~(1 << b)
            replies.append((w == target) + _minimax(nh, w, trump, target))
        lead_values.append(min(replies) if other == target else max(replies))
    return min(lead_values) if leader == target else max(lead_values)


def test_analyze_a_husar_allpass_with_two_hands(run):
    """HUSAR.md H15: the dummy sits out and the two players play ten two-card tricks, so the
    all-pass is a game of two sides: each player's bound is the result of perfect play, the two
    add up to 10, and after the last trick they are what was taken (examples/husar-sochi.yaml
    deal 3: Boris 7, Anna 3). `analyze` used to refuse it."""
    code, out, err = run(["analyze", str(HUSAR_EXAMPLE), "--deal", "3", "-f", "json"])
    assert code == 0, err
    (deal,) = json.loads(out)["deals"]
    assert deal["seats"] == ["Boris", "Anna"] and deal["kind"] == "all-pass"
    assert "the other plays against him" in deal["bound"]
    assert all(sum(row.values()) == 10 for row in deal["tricks_dd"])
    assert deal["tricks_dd"][-1] == {"Boris": 7, "Anna": 3} == deal["taken"][-1]
    assert deal["tricks_dd"][0] == {"Boris": 4, "Anna": 6}
    assert all(m["cost"] >= 1 and m["player"] in ("Boris", "Anna") for m in deal["mistakes"])


def test_heads_up_solver_agrees_with_a_plain_minimax():
    """The two-hand search (every position kept, equal cards merged) against a plain minimax on
    the last five tricks of examples/husar-sochi.yaml deal 3, for each player as the target."""
    from prefcli.model.cards import parse_cards
    from prefcli.rules.moves import mask_of
    from prefcli.rules.solver import HeadsUpSolver
    boris = mask_of(parse_cards("7S 9C AC 8D AH"))       # after ♥K ♦K ♠K ♥9 ♠9
    anna = mask_of(parse_cards("QS JD 10H JH QH"))       # after ♥7 ♦Q ♠A ♥8 ♠J
    for trump in (-1, 3):                                # no trump (all-pass), and hearts
        for target in (0, 1):
            for leader in (0, 1):
                want = _minimax([boris, anna], leader, trump, target)
                assert HeadsUpSolver(trump, target).value([boris, anna, 0], leader) == want


def test_the_first_live_hand_calls_the_bomb():
    """HUSAR.md H6: the dummy neither bids nor passes, its turn is skipped; so where a bomb is the
    first hand's (seed 002 "skelbti gali tik žaidėjas, turintis Pirmojo teises", bomb_min_level
    above 0) it is the first live hand's: Boris's in Anna's deals, where the dummy is first hand
    (nobody could call one there before)."""
    data = {"format": "pref-record/1", "players": ["Anna", "Boris"],
            "rules": {"variant": "sochi-husar", "dark": True, "bomb_min_level": 7},
            "deals": [{"dealer": "Anna", "bomb": "Boris", "contract": "7S", "declarer": "Boris",
                       "whist": {"Anna": "pass"}}]}
    assert problems(data) == []
    data["deals"][0]["bomb"] = "Anna"
    assert problems(data) == ["deal 1: only the first hand (Boris) may call a bomb, not Anna (seed 002: "
                              "\"skelbti gali tik žaidėjas, turintis Pirmojo teises\")"]
