"""A continued game keeps its state (issue 12 item 6).

A game split over two evenings scores exactly as one record: the first evening's sheet, as
``prefcli score -f yaml`` writes it, is the second record's ``start:`` (pool, mountain, whists and
the game's ``state``), and the final sheet and settlement are the whole record's. Seed 000 keeps
each player's eglutė table on the sheet (l.33–41), seed 002 each player's eglė strokes (l.41,
l.57, the eglė table of l.265–269); the Russian sheet carries its all-pass run and bombs.
"""
from __future__ import annotations

import copy
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from prefcli.app.sheet import sheet_document
from prefcli.cli.main import _main
from prefcli.io.documents import build_record, build_sheet, load_document
from prefcli.io.parsing import parse_text
from prefcli.io.emit import to_json, to_yaml
from prefcli.model.diagnostics import InputError, PrefcliError
from prefcli.rules.checks import check_document
from prefcli.scoring import score
from prefcli.settle import settle_sheet

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _records() -> List[str]:
    """Every multi-deal record among the examples (Russian with 3 and 4 players, summary and full
    deals, seed 002, seed 000, and whatever is added later)."""
    out = []
    for path in sorted(EXAMPLES.rglob("*.yaml")):
        data = load_document(path).data
        if isinstance(data, dict) and data.get("format") == "pref-record/1" and len(data.get("deals") or []) > 1:
            out.append(str(path.relative_to(EXAMPLES)))
    return out


RECORDS = _records()
AREAS = ("pool", "mountain", "whists", "state")


def _doc(data: Dict[str, Any], name: str = "<test>.yaml"):
    return parse_text(name, to_yaml(data), False)


def _score_data(data: Dict[str, Any]):
    return score(build_record(_doc(data)))


def _written_sheet(result, fmt: str = "yaml") -> Dict[str, Any]:
    """The sheet as `prefcli score -f yaml|json` writes it, read back the way prefcli reads it."""
    text = to_yaml(sheet_document(result)) if fmt == "yaml" else to_json(sheet_document(result))
    doc = parse_text("<sheet>." + fmt, text, fmt == "json")
    build_sheet(doc)                               # a valid pref-sheet/1
    assert check_document(doc) == []               # and validate passes it, state included
    return doc.data


def _parts(data: Dict[str, Any], k: int) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The record cut after `k` deals: the first evening, and the second's record before its
    start is known."""
    first = copy.deepcopy(data)
    first["deals"] = data["deals"][:k]
    first.pop("end", None)
    second = copy.deepcopy(data)
    second["deals"] = data["deals"][k:]
    second.pop("first_dealer", None)          # the sheet says who deals next
    return first, second


def continued(data: Dict[str, Any], k: int, fmt: str = "yaml"):
    """Score the first `k` deals, write the sheet, continue the rest from it."""
    first, second = _parts(data, k)
    sheet = _written_sheet(_score_data(first), fmt)
    second["start"] = {key: sheet[key] for key in AREAS if key in sheet}
    return _score_data(second)


def _final(result) -> Dict[str, Any]:
    doc = sheet_document(result)
    net = settle_sheet(result.sheet(), result.rules).net
    return {**{k: doc.get(k) for k in AREAS}, "finished": doc["status"]["finished"], "net": net}


def _load(name: str) -> Dict[str, Any]:
    return load_document(EXAMPLES / name).data


# =============================================================================================
# the property: every cut of every real record continues to the whole record's sheet
# =============================================================================================

@pytest.mark.parametrize("name", RECORDS)
def test_a_record_split_at_every_deal_boundary_scores_as_one(name):
    data = _load(name)
    result = _score_data(data)
    whole = _final(result)
    if result.rules.family.state:
        assert whole["state"], name            # the sheet carries the family's state
    for k in range(len(data["deals"]) + 1):
        assert _final(continued(data, k)) == whole, f"{name} cut after deal {k}"


@pytest.mark.parametrize("name", ["lithuanian-4p.yaml", "kitty-4p.yaml", "sochi-3p.yaml"])
def test_the_json_sheet_continues_the_same(name):
    data = _load(name)
    whole = _final(_score_data(data))
    k = len(data["deals"]) // 2
    assert _final(continued(data, k, "json")) == whole


def test_without_the_state_the_classical_game_would_score_otherwise():
    # the point of the state: the same cut with pool, mountain and whists only differs
    data = _load("lithuanian-4p.yaml")
    whole = _final(_score_data(data))
    first, second = _parts(data, 8)
    sheet = _written_sheet(_score_data(first))
    second["start"] = {key: sheet[key] for key in ("pool", "mountain", "whists")}
    second["first_dealer"] = sheet["state"]["dealer"]
    res = _score_data(second)
    assert _final(res) != whole
    assert any("start: no state egles" in n for n in res.notes)      # and it says what it assumed


def test_the_sheet_after_a_deal_carries_the_state_after_that_deal():
    data = _load("kitty-4p.yaml")
    res = _score_data(data)
    for k in (0, 3, 7, len(data["deals"])):
        first, _ = _parts(data, k)
        assert sheet_document(res, k)["state"] == sheet_document(_score_data(first))["state"]


# ---- generated games: all-pass runs, dark all-passes and bombs (classic), eglės, eglutės ----

@st.composite
def _tricks(draw, names: List[str], total: int = 10) -> Dict[str, int]:
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=len(names) - 1, max_size=len(names) - 1)))
    bounds = [0] + cuts + [total]
    return {n: bounds[i + 1] - bounds[i] for i, n in enumerate(names)}


@st.composite
def _deal(draw, players: List[str], dark_and_bombs: bool, levels=(6, 7, 8)) -> Dict[str, Any]:
    if draw(st.integers(0, 2)) == 0:               # an all-pass (eglė, eglutė) in three
        d: Dict[str, Any] = {"contract": "all-pass", "tricks": draw(_tricks(players))}
        if dark_and_bombs and draw(st.booleans()):
            d["dark"] = True
        if dark_and_bombs and draw(st.integers(0, 3)) == 0:
            d["bomb"] = draw(st.sampled_from(players))
        return d
    declarer = draw(st.sampled_from(players))
    others = [p for p in players if p != declarer]
    level = draw(st.sampled_from(levels))
    strain = draw(st.sampled_from(["S", "C", "D", "H", "NT"]))
    d = {"contract": f"{level}{strain}", "declarer": declarer}
    if draw(st.integers(0, 3)) == 0:
        d["whist"] = {others[0]: "pass", others[1]: "pass"}
    else:
        d["whist"] = {others[0]: "whist", others[1]: "whist"}
        t = draw(st.integers(max(0, level - 3), 10))
        rest = draw(_tricks(others, 10 - t))
        d["tricks"] = {declarer: t, **rest}
    if dark_and_bombs and draw(st.integers(0, 4)) == 0:
        d["bomb"] = draw(st.sampled_from(players))
    return d


def _game(variant: str, players: List[str], deals: List[Dict[str, Any]], **rules: Any) -> Dict[str, Any]:
    return {"format": "pref-record/1", "players": players, "rules": {"variant": variant, **rules},
            "deals": deals}


@st.composite
def _generated(draw) -> Tuple[Dict[str, Any], int]:
    kind = draw(st.sampled_from(["classic", "sochi", "lithuanian", "lithuanian-kitty"]))
    players = ["A", "B", "C"]
    n = draw(st.integers(1, 12))
    if kind in ("classic", "sochi"):
        deals = [draw(_deal(players, kind == "classic")) for _ in range(n)]
        data = _game(kind, players, deals, pool=30)
    else:
        deals = [draw(_deal(players, False)) for _ in range(n)]
        data = _game(kind, players, deals, pool=60 if kind == "lithuanian" else 90)
    return data, draw(st.integers(0, n))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])   # (assume: refused records)
@given(_generated())
def test_generated_games_split_anywhere_score_as_one(case):
    data, k = case
    try:
        whole = _final(_score_data(data))
    except (PrefcliError, InputError):
        assume(False)                  # a generated record the rules refuse: not this property's
        return
    assert _final(continued(data, k)) == whole


# =============================================================================================
# seed-cited cases
# =============================================================================================

NESW = ["N", "E", "S", "W"]


def _classical(deals, start=None, **rules):
    data = _game("lithuanian", NESW, deals, **{"pool": 120, **rules})
    data["first_dealer"] = "W"
    if start is not None:
        data["start"] = start
        data.pop("first_dealer")
    return data


def test_seed002_l41_l57_a_played_egle_stays_played_in_the_second_evening():
    # seed 002 l.57: a declarer with an unplayed eglė scores double, and a made game strikes
    # one ("nusibraukia vieną eglę"); l.63: once all are played his deals are no longer doubled.
    # E has played all his eglės on the first evening (state egles E: 0), N has two left.
    sheet = {"pool": dict.fromkeys(NESW, 0), "mountain": dict.fromkeys(NESW, 60), "whists": {},
             "state": {"dealer": "N", "leading_egles": 0, "egles": {"N": 2, "E": 0, "S": 4, "W": 4}}}
    deals = [{"contract": "6D", "declarer": "E", "whist": {"S": "pass", "W": "pass"}},     # N deals
             {"contract": "6D", "declarer": "N", "whist": {"W": "pass", "S": "pass"}}]     # E deals
    res = _score_data(_classical(deals, start=sheet))
    s = res.sheet()
    assert s.pool["E"] == 6 and s.mountain["E"] == 60 - 6          # 3 lentelė's 6: not doubled
    assert s.pool["N"] == 12 and s.mountain["N"] == 60 - 12        # doubled by his eglė
    assert res.state["egles"] == {"N": 1, "E": 0, "S": 4, "W": 4}
    # without the state every player would have his 4 strokes again: E's 6 doubled
    fresh = dict(sheet, state={"dealer": "N"})
    assert _score_data(_classical(deals, start=fresh)).sheet().pool["E"] == 12


def test_seed000_l29_l41_rights_and_declared_games_carry_over():
    # seed 000 l.29–31: each player declares at full value as many times as eglutės were played;
    # beyond that "visi taškai, vistai ir vištos ... mažinami pusiau". A has used his 4 rights.
    players = ["A", "B", "C", "D"]
    start = {"pool": dict.fromkeys(players, 0), "mountain": dict.fromkeys(players, 0), "whists": {},
             "state": {"dealer": "D", "leading_egles": 0, "rights": dict.fromkeys(players, 4),
                       "declared": {"A": 4, "B": 1, "C": 0, "D": 0}}}
    deals = [{"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}},     # D deals
             {"contract": "6S", "declarer": "B", "whist": {"C": "pass", "D": "pass"}}]     # A deals
    data = _game("lithuanian-kitty", players, deals, pool=60)
    data["start"] = start
    res = _score_data(data)
    s = res.sheet()
    # seed 000's table: a made 6 is 12 points, half to the kitty: A halved (3), B in full (6)
    assert s.pool["A"] == 3 and s.pool["B"] == 6
    assert res.state["declared"] == {"A": 4, "B": 2, "C": 0, "D": 0}
    # l.41: an extra eglutė gives A a right again ("įgyja teisę ... su nesumažintais rezultatais")
    more = copy.deepcopy(data)
    more["deals"] = [{"contract": "all-pass", "tricks": {"A": 3, "B": 3, "C": 4}}] + \
                    [dict(deals[0], whist={"C": "pass", "D": "pass"}, declarer="B"),
                     {"contract": "6S", "declarer": "A", "whist": {"C": "pass", "D": "pass"}}]
    r2 = _score_data(more)
    assert r2.state["rights"] == dict.fromkeys(players, 5)
    assert any(e.rule == "kitty" and e.player == "A" and e.amount == 6 for e in r2.ledger.entries)


def test_seed000_a_complete_kitty_on_the_sheet_is_a_game_that_has_ended():
    # seed 000 l.11: "Kai tik kuris nors žaidėjas surenka sutartą katilą, partija yra baigta"
    players = ["A", "B", "C"]
    data = _game("lithuanian-kitty", players,
                 [{"contract": "all-pass", "tricks": {"A": 3, "B": 3, "C": 4}}], pool=60)
    data["start"] = {"pool": {"A": 60, "B": 10, "C": 0}, "mountain": dict.fromkeys(players, 0), "whists": {}}
    with pytest.raises(PrefcliError, match="the game ended before this record"):
        _score_data(data)


def test_seed002_l297_a_bomb_called_on_the_first_evening_is_not_called_again():
    # seed 002 l.297: "visi žaidėjai privalo po vieną kartą skelbti bombą"
    sheet = {"pool": dict.fromkeys(NESW, 0), "mountain": dict.fromkeys(NESW, 60), "whists": {},
             "state": {"dealer": "W", "leading_egles": 0, "egles": dict.fromkeys(NESW, 0),
                       "bombs_called": {"N": 1, "E": 0, "S": 0, "W": 0}}}
    # W deals: N is the first hand and may call the bomb, but has called it already
    deals = [{"contract": "all-pass", "bomb": "N", "tricks": {"N": 3, "E": 3, "S": 4, "W": 0}}]
    data = _classical(deals, start=sheet)
    text = to_yaml(data)
    doc = parse_text("evening2.yaml", text, False)
    probs = check_document(doc)
    assert any("N already called his bomb before this record (start.state.bombs_called)" in p.message
               and p.text().startswith("evening2.yaml:") for p in probs), [p.text() for p in probs]
    # with his bomb not yet called it is legal
    ok = copy.deepcopy(data)
    ok["start"]["state"]["bombs_called"]["N"] = 0
    assert [p for p in check_document(parse_text("e.yaml", to_yaml(ok), False)) if p.severity == "error"] == []


def test_russian_all_pass_progression_and_exit_carry_over():
    # sochi: allpass.progression [1, 2, 3]: the second all-pass in a row is priced 2 a trick,
    # and the amnesty takes the fewest tricks off; continued after the first all-pass
    players = ["A", "B", "C"]
    ap = {"contract": "all-pass", "tricks": {"A": 2, "B": 3, "C": 5}}
    data = _game("sochi", players, [ap, ap], pool=20)
    data["first_dealer"] = "A"
    whole = _score_data(data)
    assert whole.state["allpass_run"] == 2 and whole.state["allpass_streak"] == 2
    second = continued(data, 1)
    assert [e.amount for e in second.ledger.entries if e.rule == "allpass.tricks"] == [2, 6]  # (3−2)×2, (5−2)×2
    assert _final(second) == _final(whole)


def test_classic_bombs_still_to_play_carry_over():
    # Classic (dark = yes): a bomb multiplies its owner's next game and is used up only when
    # that game is made (Кодекс fn29–fn31); the sheet carries the bomb not yet used
    players = ["A", "B", "C"]
    deals = [{"contract": "all-pass", "bomb": "B", "tricks": {"A": 3, "B": 3, "C": 4}},
             {"contract": "7S", "declarer": "B", "whist": {"C": "pass", "A": "pass"}}]
    data = _game("classic", players, deals, pool=20)
    data["first_dealer"] = "A"
    first = _score_data(dict(data, deals=deals[:1]))
    assert _written_sheet(first)["state"]["bombs"] == {"A": [], "B": [2], "C": []}
    assert _final(continued(data, 1)) == _final(_score_data(data))
    made = [e for e in continued(data, 1).ledger.entries if e.rule == "contract.unplayed"]
    assert made[0].amount == 8                          # 7 = 4, × the bomb 2


# =============================================================================================
# the state is refused where it is wrong, located
# =============================================================================================

def _problems(data: Dict[str, Any], name: str = "g.yaml") -> List[str]:
    return [p.text() for p in check_document(parse_text(name, to_yaml(data), False)) if p.severity == "error"]


def test_wrong_state_is_refused_with_its_place():
    data = _classical([{"contract": "6D", "declarer": "E", "whist": {"S": "pass", "W": "pass"}}],
                      start={"pool": dict.fromkeys(NESW, 0), "mountain": dict.fromkeys(NESW, 60), "whists": {},
                             "state": {"dealer": "N", "eglez": {"N": 1}, "egles": {"Bob": 1, "E": 2},
                                       "rights": {"N": 1}}})
    out = _problems(data)
    assert any("start.state.eglez: unknown state field 'eglez'" in t and "egles" in t for t in out), out
    assert any("start.state.egles.Bob: 'Bob' is not seated" in t for t in out), out
    # a field of another family is not this family's
    assert any("start.state.rights: unknown state field 'rights'" in t for t in out), out
    assert all(t.startswith("g.yaml:") and t.split(":")[1].isdigit() for t in out), out


def test_first_dealer_must_agree_with_the_sheet():
    data = _classical([{"contract": "6D", "declarer": "E", "whist": {"S": "pass", "W": "pass"}}],
                      start={"pool": dict.fromkeys(NESW, 0), "mountain": dict.fromkeys(NESW, 60), "whists": {},
                             "state": {"dealer": "N"}})
    data["first_dealer"] = "S"
    out = _problems(data)
    assert any("first_dealer: first_dealer is S, but the sheet this game continues from says N" in t
               for t in out), out


def test_a_sheets_state_is_checked_by_validate():
    sheet = _written_sheet(_score_data(_load("kitty-4p.yaml")))
    sheet["state"]["egles"] = {"A": 1}
    probs = check_document(parse_text("s.yaml", to_yaml(sheet), False))
    assert any(p.path == ("state", "egles") and "unknown state field" in p.message for p in probs)


# =============================================================================================
# the commands: score writes it, score and validate read it back
# =============================================================================================

def _run(args: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = _main(args)
    return code, out.getvalue(), err.getvalue()


def test_two_evenings_with_the_commands(tmp_path):
    import yaml
    data = _load("lithuanian-4p.yaml")
    first, second = _parts(data, 9)
    (tmp_path / "evening1.yaml").write_text(to_yaml(first), encoding="utf-8")
    code, _, err = _run(["score", str(tmp_path / "evening1.yaml"), "-f", "yaml", "-o", str(tmp_path / "sheet.yaml")])
    assert code == 0, err
    sheet = yaml.safe_load((tmp_path / "sheet.yaml").read_text(encoding="utf-8"))
    second["start"] = {k: sheet[k] for k in AREAS}
    (tmp_path / "evening2.yaml").write_text(to_yaml(second), encoding="utf-8")
    assert _run(["validate", str(tmp_path / "evening2.yaml")])[0] == 0
    code, two, err = _run(["settle", str(tmp_path / "evening2.yaml"), "-f", "json"])
    assert code == 0, err
    (tmp_path / "whole.yaml").write_text(to_yaml(data), encoding="utf-8")
    code, one, _ = _run(["settle", str(tmp_path / "whole.yaml"), "-f", "json"])
    import json
    a, b = json.loads(one), json.loads(two)
    assert a["exact"]["net"] == b["exact"]["net"] and a["money"] == b["money"]


def test_a_per_player_field_names_every_seated_player():
    data = _classical([{"contract": "6D", "declarer": "E", "whist": {"S": "pass", "W": "pass"}}],
                      start={"pool": dict.fromkeys(NESW, 0), "mountain": dict.fromkeys(NESW, 60), "whists": {},
                             "state": {"dealer": "N", "egles": {"N": 1, "E": 2}}})
    out = _problems(data)
    assert any("start.state.egles: S, W have no egles entry: every seated player needs one" in t for t in out), out


def test_readme_shows_the_state_as_score_writes_it():
    from prefcli.rules.presets import get_preset
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ prefcli score examples/lithuanian-4p.yaml --after 8 -f yaml | sed -n '/^state:/,/^status:/p'\n", 1)[1]
    shown = block.split("```", 1)[0]
    code, out, err = _run(["score", "examples/lithuanian-4p.yaml", "--after", "8", "-f", "yaml"]) \
        if Path.cwd() == ROOT else _run(["score", str(EXAMPLES / "lithuanian-4p.yaml"), "--after", "8", "-f", "yaml"])
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("state:")
    end = lines.index("status:")
    assert "\n".join(lines[start:end + 1]) + "\n" == shown
    section = readme.split("### Continuing a game: the sheet's state", 1)[1].split("\n## ", 1)[0]
    for variant in ("sochi", "lithuanian", "lithuanian-kitty"):
        for f in get_preset(variant).family.state:
            assert f"`{f.name}`" in section, f.name


def test_a_continued_record_converts_and_reads_back_with_its_state(tmp_path):
    # what prefcli writes, prefcli reads: the canonical record keeps start.state as written
    data = _load("lithuanian-4p.yaml")
    first, second = _parts(data, 6)
    sheet = _written_sheet(_score_data(first))
    second["start"] = {k: sheet[k] for k in AREAS}
    src = tmp_path / "evening2.yaml"
    src.write_text(to_yaml(second), encoding="utf-8")
    code, out, err = _run(["convert", str(src), "-f", "json"])
    assert code == 0, err
    again = parse_text("again.json", out, True)
    assert again.data["start"]["state"] == sheet["state"]
    assert _final(score(build_record(again))) == _final(_score_data(data))


def test_a_finished_russian_sheet_continued_says_so():
    players = ["A", "B", "C"]
    data = _game("sochi", players, [{"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}],
                 pool=10)
    data["start"] = {"pool": dict.fromkeys(players, 10), "mountain": dict.fromkeys(players, 0), "whists": {}}
    res = _score_data(data)
    assert any("played after the game ended before this record (start:)" in n for n in res.notes), res.notes


def test_the_drawing_of_a_continued_game_shows_the_strokes_left():
    from prefcli.app.sheet import source_of_result
    data = _load("lithuanian-4p.yaml")
    first, second = _parts(data, 9)
    sheet = _written_sheet(_score_data(first))
    second["start"] = {k: sheet[k] for k in AREAS}
    res = _score_data(second)
    assert res.extra["egles_at_start"] == sheet["state"]["egles"]
    from prefcli.render.svg_frames import frames
    first_frame = frames(source_of_result(res))[0]
    # (strokes drawn, strokes played) per player: what is left is the sheet's state
    assert {p: d - played for p, (d, played) in first_frame.egles.items()} == sheet["state"]["egles"]


def test_convert_to_another_family_keeps_only_the_state_both_keep():
    from prefcli.app.convert import convert_record
    data = _classical([{"contract": "6D", "declarer": "E", "whist": {"S": "pass", "W": "pass"}}],
                      start={"pool": dict.fromkeys(NESW, 0), "mountain": dict.fromkeys(NESW, 60), "whists": {},
                             "state": {"dealer": "N", "egles": {"N": 1, "E": 0, "S": 2, "W": 4}}})
    conv = convert_record(build_record(_doc(data)), "sochi")
    assert conv.data["start"]["state"] == {"dealer": "N"}
    lost = [i for i in conv.items if i.field == "start.state"]
    assert len(lost) == 1 and lost[0].loss and "egles" in lost[0].what
