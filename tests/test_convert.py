"""`prefcli convert` (issue 7): preset conversion and its report, and the command's file handling.

Preset mappings rest on the seeds:
- seed 001 (Russian): half-whist, "второй может «уйти за полвиста», т.е. признать игру сыгранной
  и без розыгрыша записать за половину"; open whisting, "в светлую: ... распоряжается ходами с
  обеих рук единолично";
- seed 002 (Lithuanian): a whist "iš abiejų rankų" (from both hands), open "atviromis" or closed
  "uždaromis"; the take-over "Perimu"; the mandatory eglė "Jeigu visi trys žaidėjai pasuoja, ...
  žaidžiama privalomoji eglė"; dark bidding "patamsiu"; the bomb.
"""
from __future__ import annotations

import json
import os

import pytest

from conftest import EXAMPLES, example_records, run_cli
from prefcli.app.convert import convert_record, convert_rules
from prefcli.io.parsing import parse_text
from prefcli.model.build import record_from_data
from prefcli.rules.presets import OptionError, get_preset, preset_names
from prefcli.rules.checks import check_record
from prefcli.io.writer_text import dump_yaml
from prefcli.rules.canonical import record_to_data

P3 = ["Ann", "Bob", "Cid"]


def rec(deals, variant="sochi", players=P3, **rules):
    return record_from_data({"format": "pref-record/1", "players": players,
                             "rules": {"variant": variant, **rules}, "deals": deals}, strict=True)


def items_of(conv, deal=None):
    return [i for i in conv.items if deal is None or i.deal == deal]


MADE = {"contract": "6S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "whist"},
        "tricks": {"Bob": 6, "Cid": 3, "Ann": 1}}
HALF = {"contract": "6D", "declarer": "Ann", "whist": {"Bob": "pass", "Cid": "half-whist"}}
RETURNED = {"contract": "6C", "declarer": "Cid", "whist": {"Ann": "pass", "Bob": "half-whist"},
            "return": "Ann", "tricks": {"Cid": 7, "Ann": 2, "Bob": 1}}
OPEN = {"contract": "7S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "pass"}, "open": True,
        "tricks": {"Bob": 6, "Cid": 3, "Ann": 1}}
ALLPASS = {"contract": "all-pass", "tricks": {"Ann": 2, "Bob": 5, "Cid": 3}}


# --- rules ----------------------------------------------------------------------------------

def test_rules_carry_over_by_name_and_report_the_rest():
    rules = {"variant": "sochi", "pool": 30, "whist_style": "gentleman", "misere_after": "9NT",
             "allpass": {"talon": "unused", "progression": [1, 2, 4]}, "price": "0.1"}
    out, items = convert_rules(rules, "lithuanian")
    assert out == {"variant": "lithuanian", "pool": 30, "misere_after": "9NT", "allpass.talon": "unused",
                   "price": "0.1"}
    lost = {i.field: i for i in items if i.loss}
    assert set(lost) == {"rules.whist_style", "rules.allpass.progression"}
    assert "lithuanian has no option whist_style" in lost["rules.whist_style"].what
    assert [i.field for i in items if not i.loss] == ["rules.variant"]
    # a value the target's option does not accept is dropped too
    out, items = convert_rules({"variant": "lithuanian", "shortfall_8_10": "split"}, "sochi")
    assert "shortfall_8_10" not in out and items[-1].loss and "second | both" in items[-1].what


def test_set_applies_to_the_target_and_is_reported():
    conv = convert_record(rec([MADE]), "leningrad", [("pool", "30"), ("allpass.amnesty", "no")])
    assert conv.data["rules"] == {"variant": "leningrad", "pool": 30, "allpass": {"amnesty": False}}
    assert [i.field for i in conv.items] == ["rules.variant", "rules.pool", "rules.allpass.amnesty"]
    assert not conv.losses
    with pytest.raises(OptionError):
        convert_record(rec([MADE]), "leningrad", [("whist_style", "stingy")])
    with pytest.raises(OptionError):
        convert_record(rec([MADE]), "no-such-preset")


# --- deals ----------------------------------------------------------------------------------

def test_half_whist_kept_where_played_and_lost_elsewhere():
    r = rec([MADE, HALF])
    for russian in ("leningrad", "rostov", "classic"):
        assert not convert_record(r, russian).losses
    conv = convert_record(r, "lithuanian")
    assert conv.data["deals"][1]["whist"] == {"Bob": "pass", "Cid": "pass"}
    (item,) = [i for i in conv.items if i.deal == 2]
    assert item.loss and item.field == "whist.Cid" and "half-whist" in item.what
    # and the target option decides, not the preset's name
    conv = convert_record(r, "leningrad", [("half_whist", "no")])
    assert [i.field for i in conv.losses] == ["whist.Cid"]


def test_returned_half_whist_becomes_the_whist_it_amounts_to():
    conv = convert_record(rec([RETURNED]), "lithuanian-kitty")
    deal = conv.data["deals"][0]
    assert deal["whist"] == {"Ann": "whist", "Bob": "pass"} and "return" not in deal
    item, alone = items_of(conv, 1)
    assert not item.loss and "returned half-whist" in item.what
    # the returner's whist is closed, the passer playing his cards: from both hands there (seed 000 l.89)
    assert deal["takeover"] == "Ann" and not alone.loss and alone.field == "takeover"


def test_a_closed_lone_whist_is_a_whist_from_both_hands_where_a_whister_alone_puts_the_passers_cards_away():
    # Sochi's closed lone whist: the passer plays his own cards and the whister answers for the
    # defenders' whole quota; the Lithuanian games' whister alone plays with the passer's cards put
    # away (seed 000 l.89 "Pasavęs varžovas padeda užverstas kortas", seed 002 l.101), so the same
    # defence there is the whist from both hands, closed (takeover: the whister, seed 002 "uždaromis")
    lone = {"contract": "6S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "pass"},
            "tricks": {"Bob": 7, "Cid": 2, "Ann": 1}}
    for target in ("lithuanian", "lithuanian-kitty"):
        conv = convert_record(rec([lone]), target)
        assert conv.data["deals"][0]["takeover"] == "Cid" and not conv.losses
        (item,) = [i for i in items_of(conv, 1) if i.field == "takeover"]
        assert "from both hands, closed" in item.what
    # open whisting, and a game already Lithuanian, keep their defence
    assert "takeover" not in convert_record(rec([OPEN]), "lithuanian").data["deals"][0]
    lt = rec([dict(lone, tricks={"Bob": 7, "Cid": 3, "Ann": 0})], "lithuanian")
    assert "takeover" not in convert_record(lt, "lithuanian-kitty").data["deals"][0]
    assert not [i for i in convert_record(lt, "lithuanian-kitty").items if i.deal == 1]
    # back to a Russian preset the whist alone stays a lone whist, and the report says what shifts
    conv = convert_record(lt, "sochi")
    assert conv.data["deals"][0]["whist"] == {"Cid": "whist", "Ann": "pass"} and not conv.losses
    (item,) = items_of(conv, 1)
    assert item.field == "whist" and "the passer plays his own cards" in item.what


def test_open_whist_and_both_hands():
    # Russian open whisting ↔ Lithuanian whist from both hands, open: the same `open: true`
    conv = convert_record(rec([OPEN]), "lithuanian")
    assert conv.data["deals"][0]["open"] is True and not conv.losses
    assert any(i.field == "open" for i in items_of(conv, 1))
    # closed from both hands (takeover naming the whister himself) → open whisting
    lt = rec([{"contract": "6H", "declarer": "Ann", "whist": {"Bob": "whist", "Cid": "pass"},
               "takeover": "Bob", "tricks": {"Ann": 6, "Bob": 3, "Cid": 1}}], "lithuanian")
    conv = convert_record(lt, "sochi")
    deal = conv.data["deals"][0]
    assert deal["open"] is True and "takeover" not in deal and deal["whist"] == {"Bob": "whist", "Cid": "pass"}
    assert not conv.losses
    # the passer's take-over: the whister changes, which is reported as a loss
    lt = rec([{"contract": "6H", "declarer": "Ann", "whist": {"Bob": "whist", "Cid": "pass"},
               "takeover": "Cid", "tricks": {"Ann": 6, "Bob": 3, "Cid": 1}}], "lithuanian")
    conv = convert_record(lt, "sochi")
    assert conv.data["deals"][0]["whist"] == {"Bob": "pass", "Cid": "whist"}
    assert [i.field for i in conv.losses] == ["takeover"]
    # the kitty family has the take-over only by option
    assert not convert_record(lt, "lithuanian-kitty", [("takeover", "yes")]).losses


def test_dark_and_bomb_only_where_the_target_has_them():
    dark = dict(MADE, dark=True)
    r = rec([dark], "classic")
    assert not convert_record(r, "lithuanian").losses               # lithuanian: dark = yes
    conv = convert_record(r, "sochi")
    assert "dark" not in conv.data["deals"][0]
    assert [(i.deal, i.field) for i in conv.losses] == [(1, "dark")]
    bomb = {"contract": "7S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "whist"}, "bomb": "Ann",
            "tricks": {"Bob": 7, "Cid": 2, "Ann": 1}}
    r = rec([bomb], "lithuanian")
    assert not convert_record(r, "classic").losses                  # Russian: bombs come with dark
    conv = convert_record(r, "lithuanian-kitty")
    assert "bomb" not in conv.data["deals"][0] and [i.field for i in conv.losses] == ["bomb"]


def test_allpass_is_the_mandatory_egle():
    conv = convert_record(rec([MADE, ALLPASS]), "lithuanian")
    assert conv.data["deals"][1] == ALLPASS
    (item,) = items_of(conv, 2)
    assert not item.loss and "mandatory eglė" in item.what


def test_russian_misere_catchers_whist_in_lithuanian():
    misere = {"contract": "misere", "declarer": "Ann", "tricks": {"Ann": 1, "Bob": 5, "Cid": 4}}
    conv = convert_record(rec([misere]), "lithuanian")
    assert conv.data["deals"][0]["whist"] == {"Bob": "whist", "Cid": "whist"}
    assert not conv.losses


def test_concede_dropped_where_not_allowed():
    conceded = {"contract": "8H", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "pass"}, "concede": True}
    r = rec([conceded], "sochi", without_three=True)
    assert not convert_record(r, "leningrad").losses                 # the option travels
    conv = convert_record(r, "lithuanian")
    assert any(i.field == "concede" and i.loss for i in conv.items)


def test_four_player_rotation_is_kept():
    # classic deals again after an all-pass; the leningrad deals were dealt passing on
    four = ["Ann", "Bob", "Cid", "Dan"]
    deals = [{"contract": "all-pass", "tricks": {"Bob": 3, "Cid": 4, "Dan": 3}},
             {"contract": "7S", "declarer": "Cid", "whist": {"Dan": "whist", "Ann": "whist"},
              "tricks": {"Cid": 7, "Dan": 2, "Ann": 1}}]   # classic: at least 7 after an all-pass
    r = rec(deals, "leningrad", four)
    conv = convert_record(r, "classic")
    assert conv.data["rules"]["allpass"] == {"same_dealer": False}
    assert [i.field for i in conv.losses] == ["rules.allpass.same_dealer"]
    converted = record_from_data(conv.data, strict=True)
    assert check_record(converted) == []


def test_report_item_text_and_json():
    conv = convert_record(rec([MADE, HALF]), "lithuanian")
    texts = [i.text() for i in conv.items]
    assert "record: rules.variant: sochi → lithuanian" in texts
    assert any(t.startswith("deal 2: whist.Cid: half-whist") and t.endswith("[lost]") for t in texts)
    data = conv.report_data()
    assert data["from"] == "sochi" and data["to"] == "lithuanian" and data["losses"] == 1
    assert {"deal": 2, "field": "whist.Cid", "loss": True} == {k: data["changes"][-1][k] for k in ("deal", "field", "loss")}


# --- every example to every preset -----------------------------------------------------------

@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("path", example_records(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_examples_convert_to_every_preset(path, preset):
    doc = parse_text(str(path), path.read_text(encoding="utf-8"), path.suffix == ".json")
    record = record_from_data(doc.data, strict=True)
    if len(record.players) not in get_preset(preset).players:
        # a record is played at its table: a 2-player husar record has no 3-player reading and
        # the other way round (HUSAR.md H1, H16), refused with the reason (issue 13 item 4)
        with pytest.raises(OptionError, match=f"cannot convert a {len(record.players)}-player record to {preset}"):
            convert_record(record, preset)
        return
    conv = convert_record(record, preset)
    assert conv.data["rules"]["variant"] == preset
    again = record_from_data(conv.data, strict=True)
    # the result is canonical: converting it to the same preset changes nothing
    assert convert_record(again, preset).data == conv.data
    if not conv.losses:
        assert check_record(again) == [], [i.text() for i in conv.items]


# --- the command -----------------------------------------------------------------------------

SAMPLE = """format: pref-record/1
players: [Ann, Bob, Cid]
rules: {pool: 20, variant: sochi}
deals:
- {contract: 6♠, declarer: Bob, whist: {Cid: whist, Ann: whist}, tricks: {Bob: 6, Cid: 3, Ann: 1}}
- contract: 6D
  declarer: Ann
  whist: {Bob: pass, Cid: half-whist}
"""


@pytest.fixture
def sample(tmp_path):
    p = tmp_path / "game.yaml"
    p.write_text(SAMPLE, encoding="utf-8")
    return p


def test_cli_yaml_to_json_and_back(sample, tmp_path, run):
    out = tmp_path / "game.json"
    code, stdout, err = run(["convert", str(sample), "-o", str(out)])
    assert code == 0 and stdout == "", err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["deals"][0]["contract"] == "6S" and data["rules"] == {"variant": "sochi", "pool": 20}
    code, back, err = run(["convert", str(out), "--to", "yaml"])
    assert code == 0, err
    code, direct, _ = run(["convert", str(sample)])
    assert back == direct
    # idempotent
    again = tmp_path / "again.yaml"
    again.write_text(direct, encoding="utf-8")
    code, third, _ = run(["convert", str(again)])
    assert third == direct
    # the input was not touched
    assert sample.read_text(encoding="utf-8") == SAMPLE


def test_cli_stdin_stdout_keeps_json_as_json():
    code, out, err = run_cli(["convert", "-"], stdin=json.dumps({
        "format": "pref-record/1", "players": P3, "rules": {"variant": "sochi"}, "deals": [MADE]}))
    assert code == 0, err
    assert json.loads(out)["deals"][0] == MADE


def test_cli_never_overwrites_the_input_without_in_place(sample, run):
    code, _, err = run(["convert", str(sample), "-o", str(sample)])
    assert code == 1 and "--in-place" in err and "refusing to write over it" in err
    assert sample.read_text(encoding="utf-8") == SAMPLE


def test_cli_in_place_is_atomic_and_canonical(sample, tmp_path):
    os.chmod(sample, 0o640)
    code, out, err = run_cli(["convert", str(sample), "--in-place"])
    assert code == 0 and out == "", err
    text = sample.read_text(encoding="utf-8")
    assert text.startswith("format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules:\n  variant: sochi\n")
    assert (sample.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml"]   # no temporary file left
    code, _, err = run_cli(["convert", str(sample), "--in-place", "--to", "json"])
    assert code == 2
    code, _, err = run_cli(["convert", "-", "--in-place"], stdin=SAMPLE)
    assert code == 2


def test_cli_variant_report_and_strict(sample, tmp_path, run):
    out = tmp_path / "lt.yaml"
    # the sample's pool 20 does not divide by 3 (seed 002 l.27): the divisor is set explicitly
    lt = ["--variant", "lithuanian", "--set", "pool_divisor=1"]
    code, _, err = run(["convert", str(sample), *lt, "-o", str(out)])
    assert code == 0, err
    assert "deal 2: whist.Cid: half-whist written as pass" in err and "[lost]" in err
    assert "sochi → lithuanian" in err
    assert "variant: lithuanian" in out.read_text(encoding="utf-8")
    code, _, err = run(["convert", str(sample), *lt, "--report", "json",
                            "-o", str(tmp_path / "lt2.yaml")])
    assert code == 0
    report = json.loads(err)
    assert report["losses"] == 1 and report["changes"][-1]["field"] == "whist.Cid"
    strict_out = tmp_path / "strict.yaml"
    code, _, err = run(["convert", str(sample), *lt, "--strict", "-o", str(strict_out)])
    assert code == 1 and "--strict" in err and not strict_out.exists()
    code, _, err = run(["convert", str(sample), "--variant", "leningrad", "--strict"])
    assert code == 0, err


def test_cli_bad_set_and_unknown_variant(sample, run):
    code, _, err = run(["convert", str(sample), "--variant", "monte-carlo"])
    assert code == 2 and "monte-carlo" in err and "Traceback" not in err
    code, _, err = run(["convert", str(sample), "--set", "pool=lots"])
    assert code == 2 and "--set pool" in err and "Traceback" not in err


def test_cli_sheet_format_only(tmp_path, run):
    sheet = tmp_path / "s.yaml"
    sheet.write_text("format: pref-sheet/1\nplayers: [A, B, C]\nrules: {variant: sochi}\n"
                     "pool: {A: 1, B: 2, C: 3}\nmountain: {A: 0, B: 0, C: 0}\nwhists: {A: {B: 5}}\n",
                     encoding="utf-8")
    code, out, err = run(["convert", str(sheet), "--to", "json"])
    assert code == 0, err
    assert json.loads(out)["whists"] == {"A": {"B": 5}}
    code, _, err = run(["convert", str(sheet), "--variant", "leningrad"])
    assert code == 1          # the input cannot be so converted: exit 1, located (issue 11 item 3)
    assert f"{sheet}:1:9: format: a sheet cannot be rewritten for another preset" in err, err


def test_cli_refuses_an_invalid_record(tmp_path, run):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SAMPLE.replace("Bob: 6, Cid: 3", "Bob: 6, Cid: 4"), encoding="utf-8")
    code, out, err = run(["convert", str(bad), "--to", "json"])
    assert code == 1 and out == "" and "11" in err


def test_cli_keeps_the_opening_comment_block(tmp_path, run):
    p = tmp_path / "c.yaml"
    p.write_text("# Friday game\n# typed from the paper sheet\n\n" + SAMPLE.replace("rules:", "# inner\nrules:"),
                 encoding="utf-8")
    code, out, err = run(["convert", str(p)])
    assert code == 0, err
    assert out.startswith("# Friday game\n# typed from the paper sheet\nformat: pref-record/1\n")
    # issue 11: every comment survives now, not only the opening block (this once asserted that
    # "# inner" was dropped, the data loss the issue reports)
    assert "# inner\nrules:" in out
    p.write_text(out, encoding="utf-8")
    assert run(["convert", str(p)])[1] == out          # idempotent, comments included
    code, out, err = run(["convert", str(p), "--to", "json"])
    assert code == 1 and out == "" and "# inner" in err   # JSON cannot hold them: refused, listed
    code, out, err = run(["convert", str(p), "--to", "json", "--drop-comments"])
    assert out.startswith("{")


def test_cli_players_option_does_not_turn_yaml_into_notes(sample, run):
    code, out, err = run(["convert", str(sample), "--players", "Ann,Bob,Cid"])
    assert code == 0, err
    assert out.startswith("format: pref-record/1")


def test_general_egles_are_lost_in_a_family_without_them():
    # seed 002: "Sužaidus pirmą bendrąją eglę ... žaidžiamos dar trys" — the game opens with
    # general eglės, and a declarer with eglės scores double: "toks padalijimas vertinamas dvigubai".
    egles = [{"contract": "all-pass", "tricks": {"Ann": 3, "Bob": 3, "Cid": 4}} for _ in range(3)]
    r = rec(egles + [MADE], "lithuanian")
    conv = convert_record(r, "sochi")
    lost = [(i.deal, i.field) for i in conv.losses]
    assert lost == [(1, "contract"), (2, "contract"), (3, "contract")]
    assert all("general eglė" in i.what for i in conv.losses)
    # the kitty game opens with eglutė deals too (seed 000): nothing is lost there
    assert not [i for i in convert_record(r, "lithuanian-kitty").losses if i.field == "contract"]
    # a Russian record that opens with all-pass deals: they become general eglės (a change)
    conv = convert_record(rec([ALLPASS, MADE]), "lithuanian")
    (item,) = items_of(conv, 1)
    assert not item.loss and "general eglė" in item.what
