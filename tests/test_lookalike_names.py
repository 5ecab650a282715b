"""Names that look alike printed: a name that is not seated but looks like a seated one is
refused with the code points of both (printed, the message listed the name among the players
and read as nonsense), and two players who would look the same on the sheet are refused. The
same message from every command (model.values.not_seated, rules.table.table_for)."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli


def _record(players, named):
    return {"format": "pref-record/1", "players": players, "rules": {"variant": "sochi"},
            "deals": [{"contract": "6S", "declarer": named[1], "whist": {named[2]: "whist", named[0]: "pass"},
                       "tricks": {named[1]: 6, named[2]: 3, named[0]: 1}}]}


def _run(tmp_path, command, record):
    src = tmp_path / "r.json"
    src.write_text(json.dumps(record), encoding="utf-8")
    return run_cli([command, str(src)])


@pytest.mark.parametrize("command", ["validate", "score", "settle"])
def test_a_name_composed_otherwise_shows_its_code_points(tmp_path, command):
    code, _, err = _run(tmp_path, command, _record(["Ёж", "Bob", "Cid"], ["Е\u0308ж", "Bob", "Cid"]))
    assert code == 1
    assert ("deals[0].whist.Е\u0308ж: 'Е\u0308ж' is not seated at this table (players: Ёж, Bob, Cid): it looks "
            "like the seated 'Ёж' but is written with other characters (U+0415 U+0308 U+0436, not U+0401 "
            "U+0436): write it as in players") in err


@pytest.mark.parametrize("command", ["validate", "score"])
def test_a_name_in_another_letter_case_says_so(tmp_path, command):
    code, _, err = _run(tmp_path, command, _record(["Ann", "Bob", "Cid"], ["ann", "Bob", "Cid"]))
    assert code == 1
    assert ("'ann' is not seated at this table (players: Ann, Bob, Cid): it differs from the seated 'Ann' "
            "only in letter case, and names are exact") in err


def test_a_name_with_a_zero_width_space_shows_it(tmp_path):
    code, _, err = _run(tmp_path, "validate", _record(["Ann", "Bob", "Cid"], ["Ann\u200b", "Bob", "Cid"]))
    assert code == 1 and "(U+0041 U+006E U+006E U+200B, not U+0041 U+006E U+006E)" in err


def test_an_unknown_name_gets_no_hint(tmp_path):
    code, _, err = _run(tmp_path, "validate", _record(["Ann", "Bob", "Cid"], ["Dan", "Bob", "Cid"]))
    assert code == 1 and "'Dan' is not seated at this table (players: Ann, Bob, Cid)\n" in err


@pytest.mark.parametrize("command", ["validate", "score", "settle"])
@pytest.mark.parametrize("players, shown", [
    (["Ann", "Ann\u200b", "Bob"], "'Ann\u200b' and 'Ann' look the same printed (U+0041 U+006E U+006E U+200B, "
                                  "and U+0041 U+006E U+006E)"),
    (["Ёж", "Е\u0308ж", "Bob"], "'Е\u0308ж' and 'Ёж' look the same printed (U+0415 U+0308 U+0436, and "
                                "U+0401 U+0436)"),
    (["Ann", " Ann", "Bob"], "' Ann' and 'Ann' look the same printed"),
])
def test_two_players_who_look_the_same_printed_are_refused(tmp_path, command, players, shown):
    code, _, err = _run(tmp_path, command, _record(players, players))
    assert code == 1
    assert f"players: {shown}" in err and "two players must be told apart on the sheet" in err, err


def test_players_who_differ_in_letter_case_are_told_apart(tmp_path):
    code, _, err = _run(tmp_path, "validate", _record(["ann", "Ann", "Bob"], ["ann", "Ann", "Bob"]))
    assert code == 0, err
