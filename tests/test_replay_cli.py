"""`prefcli replay`: text and JSON output, --check, --deal, batches, bad inputs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import BADINPUTS, needs_shared, run_cli
from test_engine import PLAY, full_deal


def write(path: Path, deals, variant="sochi", players=("Ann", "Bob", "Cid")) -> Path:
    data = {"format": "pref-record/1", "players": list(players), "rules": {"variant": variant}, "deals": deals}
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture
def good(tmp_path) -> Path:
    return write(tmp_path / "good.yaml", [full_deal(), {"contract": "6S", "declarer": "Cid",
                                                       "whist": {"Ann": "pass", "Bob": "pass"}}])


def test_text_shows_every_step(good):
    code, out, err = run_cli(["replay", str(good)])
    assert code == 0, err
    assert "deal 1 (dealer Ann, first hand Bob)" in out
    assert "auction: Bob 6S, Cid pass, Ann 6C, Bob here, Ann pass → Bob with 6C" in out
    assert "talon:   9C 8C" in out and "discard: 7D 7C" in out
    assert "contract: 7S by Bob" in out
    assert "whist:   Cid whist, Ann pass" in out
    assert "trick  1: Bob AS, Cid 8S, Ann 8H → Bob" in out
    assert "trick 10: Ann KC, Bob 8C, Cid QH → Ann" in out
    assert "result:  Bob 8, Cid 0, Ann 2" in out
    assert "deal 2" in out and "contract: 6S by Cid" in out


def test_json_shape(good):
    code, out, err = run_cli(["replay", "-f", "json", str(good)])
    assert code == 0, err
    data = json.loads(out)
    d0 = data["deals"][0]
    assert d0["index"] == 0 and d0["contract"] == "7S" and d0["declarer"] == "Bob"
    assert d0["tricks"] == {"Bob": 8, "Cid": 0, "Ann": 2}
    assert d0["problems"] == []
    assert d0["play"][0] == {"leader": "Bob", "winner": "Bob", "cards": [
        {"player": "Bob", "card": "AS"}, {"player": "Cid", "card": "8S"}, {"player": "Ann", "card": "8H"}]}
    assert data["deals"][1]["index"] == 1


def test_deal_option(good):
    code, out, _ = run_cli(["replay", "--deal", "2", str(good)])
    assert code == 0 and "deal 2" in out and "deal 1 " not in out
    code, _, err = run_cli(["replay", "--deal", "9", str(good)])
    assert code == 1 and "no deal 9" in err
    # placed at the record's deals, with their path, as analyze places it
    line = next(i for i, t in enumerate(good.read_text().splitlines(), 1) if t.startswith("deals:"))
    assert f"{good}:{line + 1}:" in err and ": deals: no deal 9" in err


def test_check_is_silent_on_legal_input(good):
    code, out, err = run_cli(["replay", "--check", str(good)])
    assert (code, out, err) == (0, "", "")


@needs_shared
def test_check_reports_revoke_with_location():
    code, out, err = run_cli(["replay", "--check", str(BADINPUTS / "revoke.yaml")])
    assert code == 1 and out == ""
    assert "revoke.yaml:18:9: deals[0].play[1][1]: deal 1, trick 2: Cid played QH but holds 7S and must follow spades" in err


@needs_shared
def test_replay_shows_the_problem_and_fails():
    code, out, err = run_cli(["replay", str(BADINPUTS / "revoke.yaml")])
    assert code == 1
    assert "trick  1: Bob AS, Cid 8S, Ann 8H → Bob" in out
    assert "problem: deal 1, trick 2: Cid played QH" in out
    assert "Traceback" not in err


def test_json_problems(tmp_path):
    bad = write(tmp_path / "bad.yaml", [full_deal(play=["AS 8S 9C"] + PLAY[1:])])
    code, out, _ = run_cli(["replay", "--format", "json", str(bad)])
    assert code == 1
    d0 = json.loads(out)["deals"][0]
    assert d0["problems"][0]["path"] == "deals[0].play[0][2]"
    assert d0["problems"][0]["kind"] == "play"
    assert "Ann played 9C, which Bob holds" in d0["problems"][0]["message"]


def test_batch_folder_and_stdin(tmp_path, good):
    folder = tmp_path / "batch"
    folder.mkdir()
    write(folder / "a.yaml", [full_deal()])
    write(folder / "b.yaml", [full_deal(play=["AS 8S 8H", "AS 7S 7H"] + PLAY[2:])])
    code, out, err = run_cli(["replay", "--check", str(folder)])
    assert code == 1 and out == ""
    assert "b.yaml" in err and "already played in trick 1" in err and "a.yaml" not in err
    code, out, err = run_cli(["replay", "--check", "-"], stdin=good.read_text())
    assert code == 0, err
    code, out, _ = run_cli(["replay", "-f", "json", str(folder)])
    files = {d["file"] for d in json.loads(out)["deals"]}
    assert len(files) == 2


def test_variant_override_changes_the_rules(tmp_path):
    # a dark bid is legal in Classic, not in Sochi
    deal = {"dealer": "Ann", "auction": ["dark 6S", "pass", "pass"], "contract": "7S", "declarer": "Bob",
            "dark": True, "whist": {"Cid": "pass", "Ann": "pass"}}
    path = write(tmp_path / "dark.yaml", [deal], variant="classic")
    code, _, err = run_cli(["replay", "--check", str(path)])
    assert code == 0, err
    code, _, err = run_cli(["replay", "--check", "--variant", "sochi", str(path)])
    assert code == 1 and "dark calls are not played" in err
    code, _, err = run_cli(["replay", "--check", "--set", "dark=no", str(path)])
    assert code == 1 and "dark calls" in err


# (every bad input under `replay --check` is in test_acceptance.py; here the plain replay of the
# ones that reach the rules: impossible cards, wrong counts, unknown players)
@pytest.mark.parametrize("name", ["revoke.yaml", "duplicate-card.yaml", "tricks-sum-11.yaml", "bad-card.yaml",
                                  "dealer-plays-4p.yaml", "unknown-player-in-tricks.yaml",
                                  "declarer-whists.yaml"])
@needs_shared
def test_bad_inputs_exit_1_without_traceback(name):
    code, out, err = run_cli(["replay", str(BADINPUTS / name)])
    assert code == 1, (name, err)
    assert err.strip() and "Traceback" not in err
    assert name in err or "prefcli:" in err
