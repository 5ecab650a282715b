"""The table as data (issue 10 item 7): seats, who holds cards, who sits out, a dummy seat, and
each preset's player counts enforced when a record is read."""
import pytest

from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.rules.presets import resolve_rules
from prefcli.rules.table import Table, TableError, table_for
from prefcli.scoring import ScoringError, score


def test_three_players_all_hold_cards():
    t = Table(("A", "B", "C"))
    assert t.from_first_hand("A") == ("B", "C", "A")
    assert t.sitting_out("A") == ()
    assert t.defenders("A", "B") == ("C", "A")


def test_four_players_the_dealer_sits_out():
    t = Table(("A", "B", "C", "D"))
    assert t.from_first_hand("A") == ("B", "C", "D") and t.sitting_out("A") == ("A",)
    assert t.active("C") == ("A", "B", "D")
    assert t.defenders("A", "C") == ("D", "B")          # from the declarer's left, the dealer out
    assert t.sits_out_every_deal


def test_five_players_the_dealer_and_the_one_waiting_his_turn_sit_out():
    # seed 004 l.107: "žaidžiant su penkiais žaidėjais žaidime nedalyvauja du: dalintojas ir
    # laukiantys eilėje" (with five, two sit out: the dealer and the one waiting his turn); the
    # one waiting is the next to deal, on the dealer's left (seating.waiting: next, the default)
    t = Table(("A", "B", "C", "D", "E"))
    assert t.sitting_out("A") == ("A", "B")
    assert t.from_first_hand("A") == ("C", "D", "E") and t.first_hand("A") == "C"
    assert t.active("D") == ("A", "B", "C")                  # D deals, E waits
    assert t.defenders("A", "D") == ("E", "C")               # from D's left, A and B out


def test_five_players_the_dealer_and_his_right_sit_out():
    # the other reading of "laukiantys eilėje": the one who dealt before (seating.waiting: previous)
    t = Table(("A", "B", "C", "D", "E"), waiting="previous")
    assert t.from_first_hand("A") == ("B", "C", "D")
    assert t.sitting_out("A") == ("A", "E")


def test_a_dummy_seat_holds_cards_and_never_deals():
    # HUSAR.md H3 (seed 004 l.39): seats P1 → dummy → P2; in P1's deals the dummy is the first
    # hand (left of the dealer), in P2's deals it is the second (right of the dealer)
    t = Table(("A", "B"), dummy="dummy")
    assert t.seats == ("A", "dummy", "B")
    assert t.from_first_hand("A") == ("dummy", "B", "A")
    assert t.from_first_hand("B") == ("A", "dummy", "B")
    assert t.left_of("A") == ("B",)                      # the dummy is nobody's
    assert t.callers("A") == ("B", "A")                  # H6: the dummy never calls
    assert t.defenders("A", "B") == ("A", "dummy")
    assert t.defenders("B", "A") == ("dummy", "B")
    assert t.sitting_out("A") == ()


def test_alternating_dummy_seating_puts_the_dummy_left_of_every_dealer():
    t = Table(("A", "B"), dummy="dummy", dummy_seating="alternating")
    assert t.from_first_hand("A") == ("dummy", "B", "A")
    assert t.from_first_hand("B") == ("dummy", "A", "B")


@pytest.fixture
def sochi_for_three_or_four(monkeypatch):
    """Sochi as a club that plays it by 3 or 4 only (every Russian preset takes five since the
    five-player table, seed 004 l.107): the enforcement of a preset's counts is what is tested."""
    from dataclasses import replace

    from prefcli.rules import presets as P
    P._load()
    monkeypatch.setitem(P._PRESETS, "sochi", replace(P._PRESETS["sochi"], players=(3, 4)))
    P._RESOLVED.clear()
    yield
    P._RESOLVED.clear()


def test_the_presets_player_counts_are_enforced(sochi_for_three_or_four):
    with pytest.raises(TableError, match="sochi is played by 3 or 4 players"):
        table_for(("A", "B", "C", "D", "E"), resolve_rules({"variant": "sochi"}))
    data = {"format": "pref-record/1", "players": ["A", "B", "C", "D", "E"], "rules": {"variant": "sochi"},
            "deals": [{"contract": "6S", "declarer": "B", "whist": {"C": "pass", "D": "pass"}}]}
    rec = record_from_data(data, strict=False)
    assert any("sochi is played by 3 or 4 players" in p.message for p in check_record(rec))
    with pytest.raises(ScoringError, match="3 or 4 players"):
        score(rec)


# ---------------------------------------------------------------------------------------------
# Who deals first with a seat sitting out: written (first_dealer, start.state.dealer, the first
# deal's dealer:) or FORMAT.md l.23's default, the first player, which then decides who sits out;
# names that contradict it are refused, never re-seated to fit (issue 10)
# ---------------------------------------------------------------------------------------------

def _four(variant, deal, **top):
    return record_from_data({"format": "pref-record/1", "players": ["N", "E", "S", "W"],
                             "rules": {"variant": variant}, **top, "deals": [deal]}, strict=True)


@pytest.mark.parametrize("variant", ["lithuanian", "lithuanian-kitty", "sochi"])
def test_without_a_written_dealer_the_first_player_deals_and_sits_out(variant):
    # FORMAT.md l.23 "first_dealer: Ann  # optional; default: the first player"
    rec = _four(variant, {"contract": "6S", "declarer": "E", "whist": {"S": "pass", "W": "pass"}})
    assert check_record(rec) == []
    assert score(rec).dealers[0] == "N"


@pytest.mark.parametrize("variant", ["lithuanian", "lithuanian-kitty", "sochi"])
def test_names_that_contradict_the_default_dealer_are_refused_not_reseated(variant):
    # N deals by default and sits out: a deal declared by N is not re-read as dealt by W
    rec = _four(variant, {"contract": "6S", "declarer": "N", "whist": {"E": "pass", "S": "pass"}})
    problems = check_record(rec)
    assert problems and all(p.path[:2] == ("deals", 0) for p in problems)
    assert any("N" in p.message and "sits out" in p.message for p in problems)
    with pytest.raises(ScoringError):
        score(rec)


def test_a_written_first_dealer_or_deal_dealer_is_taken_as_written():
    deal = {"contract": "all-pass", "tricks": {"N": 0, "E": 3, "S": 3, "W": 4}}
    assert score(_four("lithuanian", deal, first_dealer="N")).dealers[0] == "N"
    assert score(_four("lithuanian", {**deal, "dealer": "N"})).dealers[0] == "N"


def test_three_players_keep_the_first_seat_as_the_first_dealer():
    rec = record_from_data({"format": "pref-record/1", "players": ["A", "B", "C"], "rules": {"variant": "lithuanian"},
                            "deals": [{"contract": "all-pass", "tricks": {"A": 3, "B": 3, "C": 4}}]}, strict=True)
    assert score(rec).dealers[0] == "A"           # FORMAT.md: who deals decides nothing about who plays
