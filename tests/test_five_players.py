"""Five players (issue 13 item 3, issue 12 item 11): the dealer and the one waiting his turn sit
out each deal, seed 004 l.107: "Keturių žaidėjų žaidime dalintojas žaidime nedalyvauja. ...
žaidžiant su penkiais žaidėjais žaidime nedalyvauja du: dalintojas ir laukiantys eilėje" (with
four the dealer takes no part; with five two take no part: the dealer and the one waiting his
turn). Every command on examples/sochi-5p.yaml, with the values worked by hand.

The hand score of examples/sochi-5p.yaml (Sochi, pool 10; prices 6 → 2, 7 → 4, 8 → 6, misère 10;
whists × 1; greedy responsible whist; consolation at the price, written by all but the one
waiting, consolation_waiting: no). Seats: players Ann, Bob, Cid, Dan, Eve; the one waiting is
the next dealer (seating.waiting: next), the first hand the seat after him.

  deal 1  Ann deals, Bob waits: Cid, Dan, Eve.  Cid 6S made, 6/3/1; Dan whists, Eve passes:
          Cid pool +2; Dan on Cid (3 + 1) × 2 = 8 (the greedy whister writes the passer's trick).
  deal 2  Bob deals, Cid waits: Dan, Eve, Ann.  Dan 7H, 6/2/2, down 1: Dan mountain 1 × 4 = 4;
          Eve and Ann on Dan 2 × 4 = 8 each; consolation 1 × 4 = 4 on Dan by Ann, Eve and the
          dealer Bob; Cid, waiting, writes nothing.
  deal 3  Cid deals, Dan waits: Eve, Ann, Bob.  All-pass 4/2/4, the dealer's talon won nothing:
          mountain Eve 4, Ann 2, Bob 4 (× 1, the first all-pass); Cid, the dealer with no
          trick, pool +1 (allpass.zero_trick_bonus_dealer).
  deal 4  Dan deals, Eve waits: Ann, Bob, Cid.  Bob's misère made: Bob pool +10.
  deal 5  Eve deals, Ann waits: Bob, Cid, Dan.  Dan 6NT, both passed: Dan pool +2.
  deal 6  Ann deals, Bob waits: Cid, Dan, Eve.  Eve 8D made 8/2/0, Cid whists: Eve pool +6;
          Cid on Eve 2 × 6 = 12.
  deal 7  Bob deals, Cid waits: Dan, Eve, Ann (Dan the first hand; the full deal replays to
          8/1/1).  Dan 7S made: pool +4; Eve and Ann on Dan 1 × 4 = 4 each.

  pools     Ann 0, Bob 10, Cid 2 + 1 = 3, Dan 2 + 4 = 6, Eve 6
  mountains Ann 2, Bob 4, Cid 0, Dan 4, Eve 4
  whists    Ann on Dan 8 + 4 + 4 = 16; Bob on Dan 4; Cid on Eve 12; Dan on Cid 8;
            Eve on Dan 8 + 4 + 4 = 16
  net       Ann +16, Bob +4, Cid 12 − 8 = +4, Dan 8 − 16 − 4 − 16 = −28, Eve 16 − 12 = +4 (sum 0)

Settlement (Sochi, the game unfinished: each pool's shortfall goes to its mountain): mountains
Ann 2 + 10 = 12, Bob 4 + 0 = 4, Cid 0 + 7 = 7, Dan 4 + 4 = 8, Eve 4 + 4 = 8; less the smallest,
4: 8, 0, 3, 4, 4; a point is 10 whists shared by the five, 2 each: shares 16, 0, 6, 8, 8 (sum
38). From the mountain: the others' shares less four times one's own: Ann 22 − 64 = −42, Bob
38 − 0 = 38, Cid 32 − 24 = 8, Dan 30 − 32 = −2, Eve 30 − 32 = −2. Net: Ann 16 − 42 = −26, Bob
4 + 38 = 42, Cid 4 + 8 = 12, Dan −28 − 2 = −30, Eve 4 − 2 = 2 (sum 0).
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from conftest import EXAMPLES
from prefcli.io.documents import load_record
from prefcli.model.build import record_from_data
from prefcli.render import svg_layouts
from prefcli.rules.checks import check_record
from prefcli.rules.context import RecordContext
from prefcli.rules.presets import get_preset, resolve_rules
from prefcli.scoring import score

FIVE = EXAMPLES / "sochi-5p.yaml"
NS = "{http://www.w3.org/2000/svg}"


def five():
    record, _ = load_record(FIVE)
    return record


def test_seed_004_l107_the_dealer_and_the_one_waiting_sit_out():
    # seed 004 l.107 "nedalyvauja du: dalintojas ir laukiantys eilėje": two sit out, the dealer
    # and the next to deal (seating.waiting: next); the three others hold the hands
    record = five()
    ctx = RecordContext(record, resolve_rules(record.rules))
    seen = [(r.dealer, r.sitting_out, r.seats) for r in ctx.readings()]
    assert seen == [
        ("Ann", ("Ann", "Bob"), ("Cid", "Dan", "Eve")),
        ("Bob", ("Bob", "Cid"), ("Dan", "Eve", "Ann")),
        ("Cid", ("Cid", "Dan"), ("Eve", "Ann", "Bob")),
        ("Dan", ("Dan", "Eve"), ("Ann", "Bob", "Cid")),
        ("Eve", ("Ann", "Eve"), ("Bob", "Cid", "Dan")),
        ("Ann", ("Ann", "Bob"), ("Cid", "Dan", "Eve")),
        ("Bob", ("Bob", "Cid"), ("Dan", "Eve", "Ann")),
    ]


def test_seed_004_l107_the_other_reading_of_the_one_waiting():
    # "laukiantys eilėje" does not say on which side he sits: seating.waiting: previous seats
    # out the one who dealt before (on the dealer's right) (inferred alternative)
    record = five()
    ctx = RecordContext(record, resolve_rules(dict(record.rules, seating={"waiting": "previous"})))
    first = ctx.readings()[0]
    assert first.sitting_out == ("Ann", "Eve") and first.seats == ("Bob", "Cid", "Dan")


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "rostov", "classic", "lithuanian", "lithuanian-kitty"])
def test_the_russian_and_lithuanian_presets_take_five(variant):
    assert 5 in get_preset(variant).players


def test_validate_accepts_the_example_and_locates_a_waiting_players_call(run, tmp_path):
    code, out, err = run(["validate", str(FIVE)])
    assert code == 0, out + err
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-record/1\nplayers: [Ann, Bob, Cid, Dan, Eve]\nrules: {variant: sochi}\n"
                   "first_dealer: Ann\ndeals:\n"
                   "- {contract: 6S, declarer: Bob, whist: {Dan: whist, Eve: pass}, tricks: {Bob: 6, Dan: 3, Eve: 1}}\n"
                   "- {contract: 6S, declarer: Dan, whist: {Eve: whist, Cid: pass}, tricks: {Dan: 6, Eve: 3, Cid: 1}}\n",
                   encoding="utf-8")
    code, out, err = run(["validate", str(bad)])
    assert code == 1
    # deal 1: Ann deals, Bob waits his turn; deal 2: Bob deals, Cid waits
    assert f"{bad}:6:28: deals[0].declarer: deal 1: Bob waits his turn and sits out with 5 players, " \
           "so cannot declare" in out + err
    assert f"{bad}:7:58: deals[1].whist.Cid: deal 2: Cid waits his turn and sits out, so is not a defender" in out + err


def test_the_one_waiting_takes_no_all_pass_tricks_but_the_dealer_may():
    data = {"format": "pref-record/1", "players": ["Ann", "Bob", "Cid", "Dan", "Eve"],
            "rules": {"variant": "sochi"}, "first_dealer": "Cid",
            "deals": [{"contract": "all-pass", "tricks": {"Eve": 4, "Ann": 2, "Bob": 3, "Dan": 1}}]}
    msgs = [p.message for p in check_record(record_from_data(data))]
    assert any("Dan" in m and "does not take tricks" in m for m in msgs)       # Dan waits
    data["deals"][0]["tricks"] = {"Eve": 4, "Ann": 2, "Bob": 3, "Cid": 1}     # Cid deals: his talon
    assert check_record(record_from_data(data)) == []


def test_replay_the_full_deal_from_the_first_hand_after_the_one_waiting(run):
    code, out, _ = run(["replay", str(FIVE)])
    assert code == 0
    assert "deal 7 (dealer Bob, first hand Dan)" in out
    assert "auction: Dan 6S, Eve pass, Ann 6C, Dan here, Ann pass → Dan with 6C" in out
    assert "trick  9: Dan 9C, Eve KD, Ann 10C → Ann" in out
    assert "result:  Dan 8, Eve 1, Ann 1" in out


def test_score_by_hand():
    res = score(five())
    sheet = res.sheet()
    assert sheet.pool == {"Ann": 0, "Bob": 10, "Cid": 3, "Dan": 6, "Eve": 6}
    assert sheet.mountain == {"Ann": 2, "Bob": 4, "Cid": 0, "Dan": 4, "Eve": 4}
    written = {(p, q): v for p, row in sheet.whists.items() for q, v in row.items() if v}
    assert written == {("Ann", "Dan"): 16, ("Bob", "Dan"): 4, ("Cid", "Eve"): 12, ("Dan", "Cid"): 8,
                       ("Eve", "Dan"): 16}


def test_score_explain_says_who_wrote_each_entry(run):
    code, out, _ = run(["score", str(FIVE), "--explain"])
    assert code == 0
    lines = [" ".join(line.split()) for line in out.splitlines()]
    # deal 2: the dealer Bob writes the consolation, Cid (waiting) does not
    assert "Bob whists on Dan 4 consolation consolation: 1 × 4" in lines
    assert not any(line.startswith("Cid whists on Dan") for line in lines)
    # deal 3: the dealer's zero-trick bonus
    assert "Cid pool 1 allpass.zero-bonus all-pass without a trick: 1" in lines
    assert "sochi, pool 10, 5 players: Ann, Bob, Cid, Dan, Eve; 7 of 7 deals, not finished" in lines


def test_the_one_waiting_writes_the_consolation_when_the_option_says_so():
    # consolation_waiting: yes (inferred alternative): deal 2's waiting Cid writes 1 × 4 on Dan too
    record = five()
    res = score(record, rules=resolve_rules(record.rules, sets=[("consolation_waiting", "yes")]))
    assert res.sheet().whists["Cid"]["Dan"] == 4


def test_settle_by_hand(run):
    code, out, _ = run(["settle", str(FIVE), "-f", "json"])
    assert code == 0
    doc = json.loads(out)
    net = {p: Fraction(str(v)) for p, v in doc["net"].items()}
    assert net == {"Ann": -26, "Bob": 42, "Cid": 12, "Dan": -30, "Eve": 2}
    assert sum(net.values()) == 0


def test_convert_keeps_the_five_players_and_reads_back(run, tmp_path):
    out_file = tmp_path / "five.json"
    code, _, err = run(["convert", str(FIVE), "--drop-comments", "-o", str(out_file)])
    assert code == 0, err
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["players"] == ["Ann", "Bob", "Cid", "Dan", "Eve"]
    assert score(record_from_data(data)).sheet().pool == score(five()).sheet().pool
    code, out, err = run(["convert", str(FIVE), "--variant", "leningrad"])
    assert code == 0 and "variant: leningrad" in out


def test_convert_to_a_preset_without_five_is_refused_with_the_reason(run, monkeypatch):
    from dataclasses import replace

    from prefcli.rules import presets as P
    monkeypatch.setitem(P._PRESETS, "leningrad", replace(get_preset("leningrad"), players=(3, 4)))
    P._RESOLVED.clear()
    code, _, err = run(["convert", str(FIVE), "--variant", "leningrad"])
    P._RESOLVED.clear()
    assert code == 1
    assert "5 players listed; leningrad is played by 3 or 4 players" in err


def test_draw_the_five_player_sheet_a_row_of_the_layout_table(run, tmp_path):
    assert svg_layouts.LAYOUTS[("russian", 5)] is svg_layouts.RUSSIAN_5 and svg_layouts.RUSSIAN_5.slots == 5
    out = tmp_path / "five.svg"
    code, _, err = run(["draw", str(FIVE), "-o", str(out)])
    assert code == 0, err
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    texts = {}
    for g in root.iter(NS + "g"):
        t = g.find(NS + "title")
        if t is not None:
            texts[t.text] = "".join("".join(x.itertext()) for x in g.findall(NS + "text"))
    # the running totals by hand, one a deal: Ann on Dan 8 + 4 (consolation) = 12 (deal 2), 16
    # (deal 7); Cid's pool 2 (deal 1), 3 (deal 3)
    assert texts["Ann: whists on Dan 12 · 16"] == "12·16"
    assert texts["Cid: pool 2 · 3"] == "2·3"
    assert texts["Bob: pool 10"] == "10"


def test_the_five_seats_are_the_bottom_seat_turned():
    lay = svg_layouts.RUSSIAN_5
    for k, seat in enumerate(lay.seats):
        assert {f"whists+{d}" for d in range(1, 5)} <= set(seat)
        b0, b = lay.seats[0]["pool"], seat["pool"]
        # the same distance from the centre, turned 72° a seat
        assert abs(((b.cx - .5) ** 2 + (b.cy - .5) ** 2) - ((b0.cx - .5) ** 2 + (b0.cy - .5) ** 2)) < 1e-9
        assert round(b.angle) == round((72 * k + 180) % 360 - 180)


def test_report_page_of_a_five_player_game(run, tmp_path):
    out = tmp_path / "five.html"
    code, _, err = run(["report", str(FIVE), "-o", str(out)])
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "<svg" in page and "Eve" in page


LT5 = """format: pref-record/1
players: [N, E, S, W, X]
rules: {variant: lithuanian, pool: 30, general_egles: 0, egles: 0}
first_dealer: N
deals:
- {dealer: N, contract: 6S, declarer: S, whist: {W: whist, X: pass}, talon: AH 7C, tricks: {S: 5, W: 5, X: 0}}
- {dealer: E, contract: all-pass, tricks: {W: 3, X: 5, N: 2, E: 0}}
"""


def test_lithuanian_five_the_dealers_part_stays_the_dealers(run, tmp_path):
    # seed 002's four-player dealer, carried to five (seed 004 l.107): the dealer N looks at the
    # talon and writes its bonus and the write-up; E, waiting, writes nothing.
    # By hand (track 30, start hens 15 each; 6: 12 hens a missing trick, 12 whists a trick):
    #   deal 1  N deals, E waits: S, W, X.  S 6S down 1 (5/5/0: W alone, X's cards put away): S hens 12; W whists the defence's
    #           5 tricks + 1 missing (write-up) = 6 × 12 = 72 on S; N: talon bonus AH 1 × 12 = 12
    #           and write-up 1 × 12 = 12 on S (24).
    #   deal 2  E deals, S waits: W, X, N.  A mandatory eglė, 3 hens a trick: W 9, X 15, N 6; the
    #           dealer E's talon took nothing: 6 on his track, 6 hens struck.
    #   hens N 15 + 6 = 21, E 15 − 6 = 9, S 15 + 12 = 27, W 15 + 9 = 24, X 15 + 15 = 30
    f = tmp_path / "lt5.yaml"
    f.write_text(LT5, encoding="utf-8")
    code, out, err = run(["validate", str(f)])
    assert code == 0, out + err
    record, _ = load_record(f)
    sheet = score(record).sheet()
    assert sheet.mountain == {"N": 21, "E": 9, "S": 27, "W": 24, "X": 30}
    assert sheet.pool == {"N": 0, "E": 6, "S": 0, "W": 0, "X": 0}
    written = {(p, q): v for p, row in sheet.whists.items() for q, v in row.items() if v}
    assert written == {("W", "S"): 72, ("N", "S"): 24}
    code, out, err = run(["settle", str(f)])
    assert code == 0, err


def test_variants_lists_the_five_player_options_marked_inferred(run):
    code, out, _ = run(["variants", "sochi"])
    assert code == 0
    assert "played by 3 to 5 players" in out
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("seating.waiting "))
    assert lines[i].split()[1] == "next" and "(inferred)" in lines[i + 1] and "seed 004 l.107" in lines[i + 1]
    i = next(k for k, line in enumerate(lines) if line.startswith("consolation_waiting "))
    assert lines[i].split()[1] == "no" and "(inferred)" in lines[i + 1]
    code, out, _ = run(["variants", "lithuanian", "-f", "json"])
    doc = json.loads(out)
    assert doc["players"] == [3, 4, 5]
    assert {o["name"]: o["value"] for o in doc["options"]}["seating.waiting"] == "next"


def test_quick_entry_takes_five_players_in_the_rotation():
    from prefcli.app.notes import parse_quick_entry
    data = parse_quick_entry("players: Ann, Bob, Cid, Dan, Eve\nfirst dealer: Ann\n"
                             "Cid 6S Dan:w Eve:p 6/3/1\nDan 7H Eve:w Ann:w 6/2/2\npass 4/2/4\n", "q.txt")
    deals = data["deals"] if isinstance(data, dict) else data[0]["deals"]
    # deal 3: Cid deals, Dan waits; the active hands in seat order are Ann, Bob, Eve
    assert deals[2]["tricks"] == {"Ann": 4, "Bob": 2, "Eve": 4}
    assert deals[1]["tricks"] == {"Dan": 6, "Eve": 2, "Ann": 2}


@pytest.mark.parametrize("family,name", [("lithuanian", "lithuanian-5"), ("lithuanian-kitty", "kitty-5")])
def test_the_lithuanian_sheets_have_a_five_player_row(family, name, tmp_path):
    lay = svg_layouts.layout_for(family, 5)
    assert lay.name == name and lay.slots == 5
    # the seat's cells of the four-player sheet, one whists box more
    four = svg_layouts.layout_for(family, 4).seats[0]
    assert set(lay.seats[0]) == set(four) | {"whists+4"}


def test_draw_a_lithuanian_five_player_sheet(run, tmp_path):
    # the hens by hand (test_lithuanian_five_the_dealers_part_stays_the_dealers): N 15 · 21
    f = tmp_path / "lt5.yaml"
    f.write_text(LT5, encoding="utf-8")
    out = tmp_path / "lt5.svg"
    code, _, err = run(["draw", str(f), "-o", str(out)])
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    ET.fromstring(text)
    assert "<title>N: hens 15 · 21</title>" in text and "<title>W: whists on S 72</title>" in text


def test_analyze_the_five_player_full_deal(run):
    # deal 7: Dan holds AS KS QS JS 10S 9S AH KH after the discard: eight tricks double dummy
    # (six spades and two hearts), as he took them
    code, out, err = run(["analyze", str(FIVE), "--deal", "7"])
    assert code == 0, err
    assert "deal 7: 7S by Dan (first hand Dan)" in out
    assert "double dummy: Dan takes 8 from the opening lead (7S needs 7: made)" in out
