"""`prefcli score`: formats, --explain, --after, --variant / --set, errors, and the pipe to settle."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from prefcli.io.documents import load_record
from prefcli.scoring import score

ROOT = Path(__file__).resolve().parent.parent
SOCHI = str(ROOT / "examples" / "sochi-3p.yaml")
LENINGRAD = str(ROOT / "examples" / "leningrad-4p.yaml")




def test_table_shows_the_sheet(run, capsys):
    code, out, err = run(["score", SOCHI])
    assert code == 0, err
    assert "sochi, pool 12" in out and "finished" in out
    for word in ("pool", "mountain", "whists on Ann", "net whists", "Ann–Bob"):
        assert word in out
    # the running totals list every deal
    assert "\n24 " in out


def test_json_is_a_sheet_with_the_full_rules(run, capsys, tmp_path):
    code, out, err = run(["score", SOCHI, "-f", "json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["format"] == "pref-sheet/1" and doc["players"] == ["Ann", "Bob", "Cid"]
    assert doc["rules"]["variant"] == "sochi" and doc["rules"]["pool"] == 12 and doc["rules"]["price"] == "0.1"
    assert doc["rules"]["allpass"]["progression"] == [1, 2, 3] and doc["rules"]["pool_point_whists"] == 10
    assert doc["pool"] == {"Ann": 12, "Bob": 12, "Cid": 12}
    assert doc["status"]["finished"] is True and doc["status"]["deals"] == 24
    record, _ = load_record(SOCHI)
    sheet = score(record).sheet()
    assert {p: Fraction(str(v)) for p, v in doc["mountain"].items()} == sheet.mountain
    # the document is valid input for settle and for the sheet loader
    path = tmp_path / "sheet.json"
    path.write_text(out)
    from prefcli.io.documents import load_sheet
    loaded, _ = load_sheet(str(path))
    assert loaded.whists == sheet.whists


def test_yaml_equals_json(run, capsys):
    _, out_json, _ = run(["score", LENINGRAD, "-f", "json"])
    _, out_yaml, _ = run(["score", LENINGRAD, "-f", "yaml"])
    assert yaml.safe_load(out_yaml) == json.loads(out_json)


def test_csv_rows_per_player_and_explain_rows(run, capsys):
    code, out, _ = run(["score", SOCHI, "-f", "csv"])
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0][:3] == ["player", "pool", "mountain"] and len(rows) == 4
    code, out, _ = run(["score", SOCHI, "-f", "csv", "--explain"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"help", "contract.made", "whist.half", "allpass.tricks"} <= {r["rule"] for r in rows}
    assert sum(Fraction(r["amount"]) for r in rows if r["area"] == "pool" and r["player"] == "Ann") == 12


def test_explain_lists_every_entry_with_deal_and_rule(run, capsys):
    code, out, _ = run(["score", SOCHI, "--explain"])
    assert code == 0
    assert "help.own-mountain" in out and "help from Ann" in out and "contract.failed" in out
    code, out, _ = run(["score", SOCHI, "--explain", "-f", "json"])
    entries = json.loads(out)["status"]["entries"]
    record, _ = load_record(SOCHI)
    assert len(entries) == len(score(record).ledger.entries)
    assert all({"deal", "player", "area", "amount", "rule"} <= set(e) for e in entries)


def test_after_n_is_the_sheet_after_deal_n(run, capsys):
    code, out, _ = run(["score", SOCHI, "-f", "json", "--after", "5"])
    doc = json.loads(out)
    assert doc["status"]["deals"] == 5 and doc["status"]["finished"] is False
    assert doc["pool"] == {"Ann": 12, "Bob": 2, "Cid": 4}       # the misère of deal 5 closed Ann
    code, _, err = run(["score", SOCHI, "--after", "99"])
    assert code == 2 and "24 deal" in err


def test_variant_rescores(run, capsys):
    _, sochi, _ = run(["score", SOCHI, "-f", "json"])
    code, len_, err = run(["score", SOCHI, "-f", "json", "--variant", "leningrad"])
    assert code == 0, err
    a, b = json.loads(sochi), json.loads(len_)
    assert b["rules"]["variant"] == "leningrad" and b["rules"]["whist_multiplier"] == 2
    assert b["rules"]["price"] == "0.1"                     # the record's own overrides travel
    assert a["whists"] != b["whists"]


def test_set_overrides_an_option(run, capsys):
    _, base, _ = run(["score", SOCHI, "-f", "json"])
    code, out, err = run(["score", SOCHI, "-f", "json", "--set", "allpass.progression=[1,2,4]",
                         "--set", "whist_style=gentleman"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rules"]["allpass"]["progression"] == [1, 2, 4] and doc["rules"]["whist_style"] == "gentleman"
    assert doc["mountain"] != json.loads(base)["mountain"]


@pytest.mark.parametrize("args,needle", [
    (["--set", "whist_style=polite"], "greedy | gentleman"),
    (["--set", "nosuch=1"], "valid options"),
    (["--set", "allpass.progression=[a,b]"], "allpass.progression"),
    (["--variant", "nope"], "known variants: "),
])
def test_bad_options_are_usage_errors_with_the_valid_ones(run, capsys, args, needle):
    code, out, err = run(["score", SOCHI, *args])
    assert code == 2 and needle in err and "Traceback" not in err


def test_scoring_error_is_located(run, capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("format: pref-record/1\nplayers: [A, B, C]\nrules: {variant: sochi}\ndeals:\n"
                    "  - {contract: 6S, declarer: A, whist: {B: whist, C: pass}, tricks: {A: 6, B: 4, C: 0}}\n"
                    "  - {contract: 8S, declarer: B, whist: {C: pass, A: half-whist}}\n")
    code, _, err = run(["score", str(path)])
    assert code == 1
    assert "bad.yaml:6:" in err and "deal 2" in err and "half-whist" in err and "bad.yaml:5" not in err


def test_bad_record_option_is_located(run, capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("format: pref-record/1\nplayers: [A, B, C]\nrules:\n  variant: sochi\n  whist_style: nice\n"
                    "deals: []\n")
    code, _, err = run(["score", str(path)])
    assert code == 1 and "bad.yaml:5:" in err and "greedy" in err


def test_pipe_to_settle():
    """`prefcli score game.yaml -f json | prefcli settle -` works (the brief's example)."""
    score_p = subprocess.run([sys.executable, "-m", "prefcli", "score", LENINGRAD, "-f", "json"],
                             capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert score_p.returncode == 0, score_p.stderr
    settle_p = subprocess.run([sys.executable, "-m", "prefcli", "settle", "-", "-f", "json"],
                              input=score_p.stdout, capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert settle_p.returncode == 0, settle_p.stderr
    net = json.loads(settle_p.stdout)["net"]
    assert sum(Fraction(str(v)) for v in net.values()) == 0


def test_sp_leningrad_unwhisted_six_settles_to_26_66(run, capsys, tmp_path):
    """[SP] (RUSSIAN-VARIANTS.md §9.2.1): 3-player Leningrad, an unwhisted six: "Net: 2 × 20 −
    (2 × 20)/3 = 26.66 whists for him (13.33 from each opponent)": the sheet carries what settle
    needs (pool target, leningrad_overs / pool_point_whists)."""
    rec = tmp_path / "six.yaml"
    rec.write_text("format: pref-record/1\nplayers: [A, B, C]\nrules: {variant: leningrad}\ndeals:\n"
                   "  - {contract: 6S, declarer: A, whist: {B: pass, C: pass}}\n")
    code, out, err = run(["score", str(rec), "-f", "json"])
    assert code == 0, err
    sheet = tmp_path / "six.json"
    sheet.write_text(out)
    code, out, err = run(["settle", str(sheet), "-f", "json"])
    assert code == 0, err
    doc = json.loads(out)
    net = doc["exact"]["net"]          # exact values as text; `net` holds them rounded to 0.01
    assert Fraction(net["A"]) == Fraction(80, 3) and Fraction(net["B"]) == Fraction(-40, 3)
    assert doc["net"]["A"] == 26.67 and doc["net"]["B"] == -13.33


def test_family_words_come_from_the_rules():
    """sheetio is family-neutral: a Lithuanian sheet prints "track" and "hens"."""
    from prefcli.render import sheet as sheetio
    from prefcli.model.records import Record
    from prefcli.rules.presets import resolve_rules
    from prefcli.scoring import ScoreResult
    from prefcli.model.ledger import Ledger
    rules = resolve_rules({"variant": "lithuanian"})
    ledger = Ledger(("A", "B", "C"))
    ledger.pool(1, "A", Fraction(6), "test")
    ledger.mountain(1, "B", Fraction(5, 2), "test")
    record = Record(players=("A", "B", "C"), rules={"variant": "lithuanian"}, deals=())
    res = ScoreResult(record=record, rules=rules, ledger=ledger)
    text = sheetio.render_table(res)
    assert "track" in text and "hens" in text and "mountain" not in text
    doc = sheetio.sheet_document(res)
    assert doc["mountain"]["B"] == "2.5" and doc["rules"]["variant"] == "lithuanian"
    assert "track" in sheetio.render_explain(res)


@pytest.mark.parametrize("text, line", [
    ("format: pref-tournament/1\nname: Cup\n",
     "format: this is a tournament (format: pref-tournament/1); a record is needed here"),
    ('{"format": "pref-settlement/1", "players": ["Ann"]}',
     "format: unknown format 'pref-settlement/1': expected pref-record/1 or pref-sheet/1"),
    ('{"format": "pref-stats/1", "by": "player"}',
     "format: unknown format 'pref-stats/1': expected pref-record/1 or pref-sheet/1"),
    ('{"players": ["A", "B", "C"], "rules": {"variant": "sochi"}, "deals": []}',
     "missing 'format': write format: pref-record/1 (a game record) or format: pref-sheet/1 (a score sheet)"),
])
def test_another_kind_of_document_is_one_line_as_in_replay(run, tmp_path, text, line):
    """score of a tournament, a settlement or a document without `format` says so in the one line
    that replay prints (and validate, which checks a tournament file as one), not the record
    schema's complaint about each field it holds."""
    path = tmp_path / ("doc.json" if text.startswith("{") else "doc.yaml")
    path.write_text(text, encoding="utf-8")
    for command in ("score", "replay") + (() if "tournament" in text else ("validate",)):
        code, _, err_text = run([command, str(path)])
        err = err_text.strip().splitlines()
        assert code == 1 and len(err) == 1 and err[0].endswith(line), (command, err)
