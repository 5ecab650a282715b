"""Batches behave like batches (issue 11.9): a tournament file's `inputs:` are settled whenever
the file is given, alone or in a folder; a folder settles what its tournament lists."""
from __future__ import annotations

import json
import shutil

import pytest

from conftest import EXAMPLES, run_cli
from prefcli.app.settle import plan_inputs, settle

ROUNDS = ["round1.yaml", "round2.yaml", "round3.yaml"]


@pytest.fixture
def cup(tmp_path):
    """The example tournament's rounds, its rules listing only rounds 1 and 3, plus a stray sheet."""
    for r in ROUNDS:
        shutil.copy(EXAMPLES / "tournament" / r, tmp_path / r)
    text = (EXAMPLES / "tournament" / "tournament.yaml").read_text(encoding="utf-8")
    (tmp_path / "tournament.yaml").write_text(text + "inputs: [round1.yaml, round3.yaml]\n", encoding="utf-8")
    return tmp_path


def files(data):
    return [i["file"].replace("\\\\", "/").rsplit("/", 1)[-1] for i in data["inputs"]]


def test_the_file_alone_settles_what_it_lists(cup):
    code, out, err = run_cli(["settle", str(cup / "tournament.yaml"), "-f", "json"])
    assert code == 0, err
    data = json.loads(out)
    assert files(data) == ["round1.yaml", "round3.yaml"] and "standings" in data


def test_a_folder_settles_what_its_tournament_lists(cup):
    code, out, err = run_cli(["settle", str(cup), "-f", "json"])
    assert code == 0, err
    assert files(json.loads(out)) == ["round1.yaml", "round3.yaml"]


def test_with_the_tournament_option_and_no_inputs(cup):
    code, out, err = run_cli(["settle", "--tournament", str(cup / "tournament.yaml"), "-f", "json"])
    assert code == 0, err
    assert files(json.loads(out)) == ["round1.yaml", "round3.yaml"]


def test_other_inputs_given_beside_it_are_settled_too(cup):
    code, out, err = run_cli(["settle", str(cup / "tournament.yaml"), str(cup / "round2.yaml"), "-f", "json"])
    assert code == 0, err
    assert sorted(files(json.loads(out))) == ROUNDS


def test_a_tournament_without_inputs_leaves_the_folder_as_it_is():
    plan = plan_inputs([str(EXAMPLES / "tournament")])
    assert [p.rsplit("/", 1)[-1] for p in plan.sources] == ROUNDS
    assert plan.tournament is not None and plan.tournament.name == "Club autumn cup"
    report = settle([str(EXAMPLES / "tournament")])
    assert report.ok and report.summary.standings is not None


def test_two_tournaments_are_a_usage_error(cup):
    (cup / "other.yaml").write_text("format: pref-tournament/1\nname: other\n", encoding="utf-8")
    code, out, err = run_cli(["settle", str(cup)])
    assert code == 2 and "more than one tournament" in err


def test_a_listed_input_that_is_missing_is_a_located_problem(cup):
    (cup / "round3.yaml").unlink()
    code, out, err = run_cli(["settle", str(cup / "tournament.yaml")])
    assert code == 1 and "round3.yaml" in err and "Traceback" not in err


def _sources(data):
    return [g["source"].replace("\\\\", "/").rsplit("/", 1)[-1] for g in data["games"]]


@pytest.mark.parametrize("command", [["stats"], ["rating", "-m", "whists"]], ids=lambda c: c[0])
def test_stats_and_rating_read_what_a_tournament_lists_as_settle_does(cup, command):
    """stats and rating had their own reading of the inputs: a tournament file given alone was
    'no records or sheets among the inputs' (exit 2), a folder read every file in it."""
    for given in (str(cup / "tournament.yaml"), str(cup)):
        code, out, err = run_cli([*command, given, "-f", "json"])
        assert code == 0, err
        data = json.loads(out)
        assert data["inputs"] == 2
        if "games" in data:
            assert _sources(data) == ["round1.yaml", "round3.yaml"]


def _in(folder, args, stdin):
    import subprocess
    import sys
    from conftest import ROOT
    env = dict(__import__("os").environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "prefcli", *args], input=stdin, capture_output=True,
                          text=True, cwd=str(folder), env=env, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("command", [["settle"], ["stats"], ["rating", "-m", "whists"]], ids=lambda c: c[0])
def test_a_tournament_on_stdin_settles_what_it_lists(cup, command):
    """`settle - < tournament.yaml` said 'no records or sheets among the inputs' (exit 2) while
    `settle tournament.yaml` settled its inputs: a tournament is honoured however it is given.
    Its inputs are named relative to the current folder (standard input has none)."""
    text = (cup / "tournament.yaml").read_text(encoding="utf-8")
    code, out, err = _in(cup, [*command, "-", "-f", "json"], text)
    assert code == 0, err
    named = json.loads(_in(cup, [*command, "tournament.yaml", "-f", "json"], None)[1])
    data = json.loads(out)
    if command == ["settle"]:
        assert files(data) == ["round1.yaml", "round3.yaml"]
        assert data["standings"] == named["standings"]
    else:
        assert data["inputs"] == 2


def test_a_record_on_stdin_is_still_read_once_after_the_look_ahead(cup, run):
    """The look at stdin (is it a tournament?) keeps what it read for the record's reader."""
    text = (cup / "round1.yaml").read_text(encoding="utf-8")
    code, out, err = run(["settle", "-", "-f", "json"], stdin=text)
    assert code == 0, err
    assert len(json.loads(out)["inputs"]) == 1


def test_a_broken_tournament_on_stdin_is_a_located_error(cup, run):
    code, out, err = run(["settle", "-"], stdin="format: pref-tournament/1\nname: [x\n")
    assert code == 1
    assert err.startswith("<stdin>:3:1:") or "<stdin>:" in err.splitlines()[0]
