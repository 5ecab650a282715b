"""examples/lithuanian-4p.yaml scored end to end against its hand-worked sheet.

The expected sheet (examples/lithuanian-4p.expected-sheet.yaml) was worked out by hand deal by
deal (the working is in the project notes), not copied from the program's output.
"""
from __future__ import annotations

import json
from fractions import Fraction as F

from conftest import EXAMPLES
from prefcli.io.documents import load_record, load_sheet
from prefcli.scoring import score

RECORD = EXAMPLES / "lithuanian-4p.yaml"
EXPECTED = EXAMPLES / "lithuanian-4p.expected-sheet.yaml"


def _as_numbers(sheet):
    return ({p: F(v) for p, v in sheet.pool.items()}, {p: F(v) for p, v in sheet.mountain.items()},
            {w: {on: F(v) for on, v in row.items()} for w, row in sheet.whists.items()})


def test_example_matches_the_hand_worked_sheet():
    record, _ = load_record(str(RECORD))
    expected, _ = load_sheet(str(EXPECTED))
    result = score(record)
    got = result.sheet()
    assert tuple(got.players) == tuple(expected.players)
    assert _as_numbers(got) == _as_numbers(expected)
    assert result.finished          # every track reached 60 with the last deal
    assert result.rules.variant == expected.rules["variant"] == "lithuanian"


def test_example_states_along_the_way():
    record, _ = load_record(str(RECORD))
    result = score(record)
    # after the four general eglės (worked by hand): tracks 0/12/0/12, hens 75/39/66/36
    s = result.sheet(4)
    assert ({p: int(v) for p, v in s.pool.items()}, {p: int(v) for p, v in s.mountain.items()}) == (
        {"N": 0, "E": 12, "S": 0, "W": 12}, {"N": 75, "E": 39, "S": 66, "W": 36})
    assert [result.dealers[i] for i in range(10)] == ["N", "E", "S", "W", "N", "E", "S", "W", "W", "N"]
    # the dark 7♣ with an eglė (deal 9) is worth four times: 36 track points
    assert result.sheet(9).pool["S"] - result.sheet(8).pool["S"] == 36
    # strokes: N made 2 (deals 7, 11), E 3 (5, 12, 16), S 3 (9, 13, 17), W 2 (10, 15; 6 and 14
    # failed), and every player got one back in deal 8
    assert result.extra["egles"] == {"N": 3, "E": 2, "S": 2, "W": 3}


def test_score_cli_json_is_the_same_sheet_and_settles(run):
    code, out, err = run(["score", str(RECORD), "-f", "json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["format"] == "pref-sheet/1"
    assert doc["pool"] == {"N": 60, "E": 60, "S": 60, "W": 60}
    assert doc["mountain"] == {"N": 45, "E": 0, "S": 6, "W": 159}
    assert doc["whists"]["N"] == {"E": 24, "S": 276, "W": 600}
    code, out2, err = run(["settle", "-", "-f", "json"], stdin=out)
    assert code == 0, err


def test_score_table_uses_the_games_words(run):
    code, out, err = run(["score", str(RECORD), "--explain"])
    assert code == 0, err
    assert "track" in out and "hens" in out and "eglė" in out


def test_variants_lists_every_option_of_both_presets(run):
    from prefcli.rules.presets import get_preset
    for name in ("lithuanian", "lithuanian-kitty"):
        code, out, err = run(["variants", name])
        assert code == 0, err
        for opt in get_preset(name).family.options:
            assert opt.name in out, (name, opt.name)
        assert "(inferred)" in out


def test_set_overrides_an_inferred_value(run):
    # --set points.8=... is how a club with a different Table 3 row scores the same record
    code, out, err = run(["score", str(RECORD), "-f", "json", "--set", "whist_price.8=20"])
    assert code == 0, err
    doc = json.loads(out)
    # deals 11 (S: 2 tricks) and 14 (N: 4 + talon 1) are 8s, all ×2: 96 → 80 and 240 → 200
    assert doc["whists"]["S"]["N"] == 300 - 96 + 80
    assert doc["whists"]["N"]["W"] == 600 - 240 + 200
