"""Seat counts as data (issue 13, issue 12 item 11, issue 10 item 7): the format takes 2 to 5
players, the preset says which it is played by, and the table says who holds cards."""
from __future__ import annotations

import json

import pytest

from prefcli.model.records import PLAYER_COUNTS, counts_text

from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.rules.presets import presets, resolve_rules
from prefcli.rules.table import DEFAULT_COUNTS, SITTING_OUT, WAITING, Table, TableError, table_for

from conftest import ROOT


def test_the_schemas_take_the_formats_player_counts():
    # one list of counts (the model's), the record and sheet schemas say the same
    for name in ("record", "sheet"):
        schema = json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        players = schema["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (min(PLAYER_COUNTS), max(PLAYER_COUNTS))
    assert PLAYER_COUNTS == (2, 3, 4, 5)


def test_counts_are_said_as_a_person_says_them():
    assert counts_text((3, 4)) == "3 or 4"
    assert counts_text((2, 3, 4, 5)) == "2 to 5"
    assert counts_text((3, 4, 5)) == "3 to 5"
    assert counts_text((2, 3, 5)) == "2, 3 or 5"
    assert counts_text((3,)) == "3"


def _record(n: int, variant: str = "sochi") -> dict:
    names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"][:n]
    return {"format": "pref-record/1", "players": names, "rules": {"variant": variant}, "deals": []}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_format_takes_two_to_five_players(n):
    rec = record_from_data(_record(n), strict=True)
    assert len(rec.players) == n


def test_six_players_are_refused_by_the_format(run, tmp_path):
    f = tmp_path / "six.yaml"
    f.write_text("format: pref-record/1\nplayers: [A, B, C, D, E, F]\nrules: {variant: sochi}\ndeals: []\n",
                 encoding="utf-8")
    code, out, err = run(["validate", str(f)])
    assert code == 1
    assert f"{f}:2:10: players: 6 players listed; a record has 2 to 5 players" in out + err


def test_a_preset_refuses_a_count_it_is_not_played_by_with_its_place(run, tmp_path):
    # every count is the preset's (Preset.players): a table it does not take is refused where
    # `players:` is written, file:line:col: path: message
    counts = {p.name: p.players for p in presets()}
    refusing = next(name for name, cs in counts.items() if 2 not in cs)
    f = tmp_path / "two.yaml"
    f.write_text(f"format: pref-record/1\nplayers: [A, B]\nrules: {{variant: {refusing}}}\ndeals: []\n",
                 encoding="utf-8")
    code, out, err = run(["validate", str(f)])
    assert code == 1
    assert (f"{f}:2:10: players: 2 players listed; {refusing} is played by "
            f"{counts_text(counts[refusing])} players") in out + err


def test_every_preset_states_its_counts_within_the_formats():
    for p in presets():
        assert p.players and set(p.players) <= set(PLAYER_COUNTS), p.name
    assert set(DEFAULT_COUNTS) <= set(PLAYER_COUNTS)


def test_the_table_for_a_preset_checks_its_counts():
    rules = resolve_rules({"variant": "sochi"})
    for n in PLAYER_COUNTS:
        names = tuple("ABCDE"[:n])
        if n in rules.preset.players:
            assert table_for(names, rules).players == names
        else:
            with pytest.raises(TableError, match=f"{n} players listed; sochi is played by"):
                table_for(names, rules)
    with pytest.raises(TableError, match="seated twice"):
        table_for(("A", "B", "A"), rules)


def test_who_sits_out_is_a_row_by_the_number_of_seats():
    # seed 004 l.107: "Keturių žaidėjų žaidime dalintojas žaidime nedalyvauja" (with four the
    # dealer sits out) ... "žaidžiant su penkiais žaidėjais žaidime nedalyvauja du: dalintojas ir
    # laukiantys eilėje" (with five two sit out: the dealer and the one waiting his turn)
    assert SITTING_OUT[3] == () and SITTING_OUT[4] == ("dealer",) and SITTING_OUT[5] == ("dealer", "waiting")
    assert WAITING == {"next": 1, "previous": -1}
    for n in (3, 4, 5):
        t = Table(tuple("ABCDE"[:n]))
        for dealer in t.players:
            assert len(t.active(dealer)) == 3                       # three hands, whoever deals
            assert len(t.sitting_out(dealer)) == len(SITTING_OUT[n])
            assert set(t.active(dealer)) | set(t.sitting_out(dealer)) == set(t.players)


def test_five_players_each_sits_out_twice_in_five_deals():
    # the rotation moves the deal to the left: over five deals everyone deals once and waits once
    t = Table(("A", "B", "C", "D", "E"))
    out = [t.sitting_out(d) for d in t.players]
    assert out == [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E"), ("A", "E")]
    assert all(sum(p in o for o in out) == 2 for p in t.players)


def test_quick_entry_asks_the_preset_for_its_counts():
    from prefcli.app.notes import parse_quick_entry
    from prefcli.model.diagnostics import InputError
    with pytest.raises(InputError) as err:
        parse_quick_entry("players: Ann, Bob, Cid, Dan, Eve, Fay\nBob 6S Cid:p Dan:p 6/2/2\n", "q.txt")
    assert "3 to 5 different players are needed, got Ann, Bob, Cid, Dan, Eve, Fay" in err.value.problems[0].message
    with pytest.raises(InputError) as err:
        parse_quick_entry("players: Ann, Bob\nBob 6S Ann:p 6/4\n", "q.txt")
    counts = counts_text(resolve_rules({"variant": "sochi"}).preset.players)
    if 2 not in resolve_rules({"variant": "sochi"}).preset.players:
        assert f"{counts} different players are needed for sochi" in err.value.problems[0].message


def test_a_check_without_a_preset_names_the_formats_counts():
    data = _record(5, "no-such-preset")
    rec = record_from_data(data, strict=False)
    msgs = [p.message for p in check_record(rec)]
    assert any("unknown variant" in m for m in msgs)
