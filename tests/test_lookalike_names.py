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
    # a Cyrillic А (a Russian keyboard) is drawn as the Latin A (UTS #39 confusables)
    (["Ann", "Аnn", "Bob"], "'Аnn' and 'Ann' look the same printed (U+0410 U+006E U+006E, and "
                                 "U+0041 U+006E U+006E)"),
    (["Bob", "Воb", "Cid"], "'Воb' and 'Bob' look the same printed"),
])
def test_two_players_who_look_the_same_printed_are_refused(tmp_path, command, players, shown):
    code, _, err = _run(tmp_path, command, _record(players, players))
    assert code == 1
    assert f"players: {shown}" in err and "two players must be told apart on the sheet" in err, err


def test_players_who_differ_in_letter_case_are_told_apart(tmp_path):
    code, _, err = _run(tmp_path, "validate", _record(["ann", "Ann", "Bob"], ["ann", "Ann", "Bob"]))
    assert code == 0, err


def test_a_cyrillic_name_is_not_taken_for_another():
    """The letters drawn alike are read as one; other Cyrillic names stay apart."""
    from prefcli.model.values import printed_form
    assert printed_form("\u0410\u043d\u044f") != printed_form("\u0410\u043d\u0430")     # Аня, Ана
    assert printed_form("Ёж") == printed_form("Е\u0308ж") != printed_form("Еж")
    assert printed_form("\u0421\u0430\u0448\u0430") != printed_form("\u0421\u0430\u0448\u0443")


def _two_files(tmp_path, names_a, names_b):
    for name, players in (("a.json", names_a), ("b.json", names_b)):
        (tmp_path / name).write_text(json.dumps(_record(players, players)), encoding="utf-8")
    return [str(tmp_path / "a.json"), str(tmp_path / "b.json")]


NOTE = ("'Ann' (U+0041 U+006E U+006E) and '\u0410nn' (U+0410 U+006E U+006E) look the same printed but are "
        "different names, counted as different players: write a player's name the same way in every input")


@pytest.mark.parametrize("command", [["stats"], ["rating"], ["stats", "-f", "json"]])
def test_a_season_says_which_names_across_files_look_alike(tmp_path, command):
    """One table refuses two such names; across files they are two players whose rows no one
    could tell apart, so the batch says so (they are still counted apart: it never guesses)."""
    files = _two_files(tmp_path, ["Ann", "Bob", "Cid"], ["\u0410nn", "Bob", "Cid"])
    code, out, err = run_cli([*command, *files])
    assert code == 0, err
    assert f"prefcli: note: {NOTE}" in err
    assert "\u0410nn" in out and "Ann" in out
    code, out, err = run_cli([*command, "-q", *files])
    assert code == 0 and err == ""


@pytest.mark.parametrize("args", [[], ["--summary"], ["-f", "json"], ["--summary", "-f", "json"]])
def test_a_settlement_of_files_notes_names_that_look_alike(tmp_path, args):
    files = _two_files(tmp_path, ["Ann", "Bob", "Cid"], ["\u0410nn", "Bob", "Cid"])
    code, out, err = run_cli(["settle", *args, *files])
    assert code == 0, err
    if "json" in args:
        assert NOTE in json.loads(out)["notes"]
    else:
        assert f"note: {NOTE}" in out


def test_names_that_differ_in_print_get_no_note(tmp_path):
    files = _two_files(tmp_path, ["Ann", "Bob", "Cid"], ["ann", "Bob", "Dan"])
    for command in (["stats"], ["settle"]):
        code, out, err = run_cli([*command, *files])
        assert code == 0 and "look the same" not in out + err, err
