"""merge refuses a part whose figures were changed by hand where they are seen. It adds up each
input's exact net, so an edited `net` of an input, or of the part itself, used to be dropped
without a word and the merged totals were those of the unedited part."""
from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES, run_cli


def _written_part(tmp_path, command):
    """The -f json part that `command` (settle or stats) writes of an example."""
    out = tmp_path / f"{command}.json"
    code, _, err = run_cli([command, str(EXAMPLES / "sochi-3p.yaml"), "-f", "json", "-o", str(out)])
    assert code == 0, err
    return out


@pytest.fixture
def part(tmp_path):
    return _written_part(tmp_path, "settle")


def _edited(path, change):
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    edited = path.with_name("edited.json")
    edited.write_text(json.dumps(data), encoding="utf-8")
    return edited


def test_the_part_as_written_merges(part):
    code, out, err = run_cli(["merge", str(part), str(part)])
    assert code == 0, err
    assert json.loads(out)["exact"]["net"] == {"Ann": "1376/3", "Bob": "-676/3", "Cid": "-700/3"}


def test_an_inputs_net_edited_by_hand_is_refused(part):
    edited = _edited(part, lambda d: d["inputs"][0]["net"].update(Ann=233.33))
    code, out, err = run_cli(["merge", str(edited), str(part)])
    assert code == 1 and out == ""
    assert ("inputs[0].net.Ann: 233.33 is not the input's exact net 688/3 rounded (229.33): a part edited by "
            "hand is not merged; settle its inputs again") in err


def test_the_parts_own_exact_net_edited_by_hand_is_refused(part):
    edited = _edited(part, lambda d: d["exact"]["net"].update(Ann="1"))
    code, _, err = run_cli(["merge", str(edited)])
    assert code == 1
    assert "exact.net.Ann: '1' is not the sum of its inputs' nets (688/3)" in err


def test_the_parts_own_net_edited_by_hand_is_refused(part):
    edited = _edited(part, lambda d: d["net"].update(Bob=0))
    code, _, err = run_cli(["merge", str(edited)])
    assert code == 1
    assert "net.Bob: 0 is not its inputs' exact net -338/3 rounded (-112.67)" in err


def test_a_merged_part_merges_again(part, tmp_path):
    merged = tmp_path / "m.json"
    code, _, err = run_cli(["merge", str(part), str(part), "-o", str(merged)])
    assert code == 0, err
    code, out, err = run_cli(["merge", str(merged), str(part)])
    assert code == 0, err
    assert json.loads(out)["exact"]["net"]["Ann"] == "688"


@pytest.fixture
def stats_part(tmp_path):
    return _written_part(tmp_path, "stats")


@pytest.mark.parametrize("field, value, shown, derived", [("average", 999, "999", "688/3"),
                                                          ("declared", 0, "0", "6"), ("made", 7, "7", "4")])
def test_a_stats_rows_derived_figure_edited_by_hand_is_refused(stats_part, field, value, shown, derived):
    """average, declared and made are not read back (result/games, the contracts' sums)."""
    def change(d):
        d["groups"][0]["players"][0][field] = value
    edited = _edited(stats_part, change)
    code, out, err = run_cli(["merge", str(edited), str(stats_part)])
    assert code == 1 and out == ""
    assert (f"groups[0].players[0].{field}: {shown} is not what the row's own figures give ({derived}): a part "
            "edited by hand is not merged; run stats on its inputs again") in err


def test_a_stats_part_as_written_merges(stats_part):
    code, out, err = run_cli(["merge", str(stats_part), str(stats_part)])
    assert code == 0, err
    row = json.loads(out)["groups"][0]["players"][0]
    assert (row["player"], row["games"], row["average"]) == ("Ann", 2, "688/3")
