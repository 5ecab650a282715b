"""Agreement (issue 10 item 2): for every input and every preset, `validate` exits 0 if and only
if `score`, `replay --check`, `settle` and `convert` succeed on it.

One reading of a deal (prefcli.rules.deal) is the only interpreter, so the commands cannot
disagree; this checks it on the regression cases of the issue (tests/examples/regressions/, one
file per case, its expectation in its first line), on generated records, and on mutations of the
examples under every preset. The commands run in-process (prefcli.cli.main), so it stays fast.

A *position* (a full deal with hands but no play, claim or tricks: a study, as the importers
write them) is no exception: marked ``position: true`` every command accepts it (score and settle
skip it with a note), unmarked every command refuses it with the same message.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefcli.cli.main import _main
from prefcli.io.parsing import parse_text
from prefcli.rules.presets import preset_names
from helpers import STRAINS, split10

HERE = Path(__file__).resolve().parent
REGRESSIONS = HERE / "examples" / "regressions"
EXAMPLES = HERE.parent / "examples"
OTHERS = (("score",), ("replay", "--check"), ("settle",), ("convert", "--to", "json", "--drop-comments"))


def run(args: List[str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _main(list(args))
    return code, out.getvalue(), err.getvalue()


def outcomes(path: Path) -> Dict[str, Tuple[int, str]]:
    res = {"validate": run(["validate", "-q", str(path)])}
    for cmd in OTHERS:
        res[cmd[0]] = run([*cmd, str(path)])
    return {k: (v[0], v[2]) for k, v in res.items()}


def assert_agree(path: Path, data: Dict[str, Any]) -> Dict[str, Tuple[int, str]]:
    res = outcomes(path)
    for name, (code, err) in res.items():
        assert "Traceback" not in err and code in (0, 1), (name, code, err)
    valid = res["validate"][0] == 0
    for name, (code, err) in res.items():
        if name == "validate":
            continue
        assert (code == 0) == valid, (name, res)
    return res


# ---------------------------------------------------------------------------------------------
# The regression folder: one file per case of the issue
# ---------------------------------------------------------------------------------------------

CASES = sorted(REGRESSIONS.glob("*.yaml"))


def expectation(path: Path) -> Tuple[str, str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.match(r"# expect: (\S+)(?:.*?-- (words|sheet): (.*))?$", first)
    assert m, f"{path.name}: the first line says '# expect: valid|refused|position -- words: …'"
    return m.group(1), (m.group(2) or "") + ":" + (m.group(3) or "")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_regression_case(path):
    expect, detail = expectation(path)
    kind, _, what = detail.partition(":")
    data = parse_text(str(path), path.read_text(encoding="utf-8"), False).data
    res = assert_agree(path, data)
    if expect == "refused":
        assert all(code == 1 for code, _ in res.values()), res
        for name in ("validate", "score", "settle"):
            assert what in res[name][1], (name, what, res[name][1])
    elif expect == "valid":
        assert all(code == 0 for code, _ in res.values()), res
        if kind == "words":
            assert what in res["validate"][1], res["validate"]
        if kind == "sheet":
            key, value = what.rsplit(" ", 1)
            _, writer, on = key.split(".")
            code, out, _ = run(["score", "-f", "json", str(path)])
            assert code == 0
            doc = json.loads(out)
            sheet = doc.get("sheet", doc)
            assert str(sheet["whists"][writer][on]) in (value, f"{value}.0"), sheet["whists"]
    else:
        assert expect == "position"
        assert all(code == 0 for code, _ in res.values()), res
        for cmd in (["score"], ["settle", "-f", "json"]):
            code, out, err = run([*cmd, str(path)])
            assert code == 0 and what in out, (cmd, out, err)
        code, out, _ = run(["replay", str(path), "--deal", "2"])
        assert code == 0 and "result:  none recorded (a position" in out, out
        code, out, _ = run(["analyze", str(path), "--deal", "2"])
        assert code == 0 and "double dummy: Bob takes 8 from the opening lead (7S needs 7: made)" in out, out


def test_regression_folder_is_not_empty():
    assert len(CASES) >= 10


# ---------------------------------------------------------------------------------------------
# Generated records and mutations of the examples, every command, every preset
# ---------------------------------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cid", "Dan"]


@st.composite
def summary_deal(draw, players: List[str], dealer: str) -> Dict[str, Any]:
    active = [p for p in players if p != dealer] if len(players) == 4 else list(players)
    kind = draw(st.sampled_from(["whisted", "whisted", "unplayed", "half", "misere", "all-pass"]))
    out: Dict[str, Any] = {"dealer": dealer} if draw(st.booleans()) else {}
    if kind == "all-pass":
        out.update(contract="all-pass", tricks=draw(split10(active)))
        return out
    decl = draw(st.sampled_from(active))
    i = active.index(decl)
    d1, d2 = active[(i + 1) % 3], active[(i + 2) % 3]
    out["declarer"] = decl
    if kind == "misere":
        out.update(contract="misere", whist={d1: "whist", d2: "whist"}, tricks=draw(split10([decl, d1, d2])))
        return out
    level = draw(st.integers(6, 7)) if kind == "half" else draw(st.integers(6, 10))
    out["contract"] = f"{level}{draw(st.sampled_from(STRAINS))}"
    if kind == "unplayed":
        out["whist"] = {d1: "pass", d2: "pass"}
    elif kind == "half":
        out["whist"] = {d1: "pass", d2: "half-whist"}
    else:
        a, b = draw(st.sampled_from([("whist", "whist"), ("whist", "pass"), ("pass", "whist")]))
        out["whist"] = {d1: a, d2: b}
        out["tricks"] = draw(split10([decl, d1, d2]))
    return out


MUTATIONS = ("drop-whist", "drop-tricks", "unseated-declarer", "add-tricks", "takeover", "open",
             "drop-dealer", "wrong-dealer", "first-dealer", "concede", "bomb", "dark", "return",
             "penalty", "tricks-11", "drop-talon", "partner", "drop-result", "position", "make-position")


def mutate(draw, data: Dict[str, Any]) -> Dict[str, Any]:
    data = copy.deepcopy(data)
    deals = [d for d in data.get("deals") or [] if isinstance(d, dict) and "contract" in d]
    if not deals:
        return data
    d = draw(st.sampled_from(deals))
    players = data["players"]
    m = draw(st.sampled_from(MUTATIONS))
    who = draw(st.sampled_from(players + ["Zed"]))
    if m == "drop-whist":
        d.pop("whist", None)
    elif m == "drop-tricks":
        d.pop("tricks", None)
    elif m == "unseated-declarer":
        d["declarer"] = "Zed"
    elif m == "add-tricks":
        d["tricks"] = dict(zip([p for p in players if p != d.get("dealer")][:3], (4, 3, 3)))
    elif m in ("takeover", "bomb", "partner"):
        d[m] = who
    elif m in ("open", "concede", "dark"):
        d[m] = True
    elif m == "return":
        d["return"] = who
    elif m == "drop-dealer":
        d.pop("dealer", None)
    elif m == "wrong-dealer":
        d["dealer"] = who
    elif m == "first-dealer":
        data["first_dealer"] = who
    elif m == "penalty":
        d["penalties"] = [{"player": who, "whists": {"on": players[0], "amount": 10}}]
    elif m == "tricks-11" and isinstance(d.get("tricks"), dict) and d["tricks"]:
        k = next(iter(d["tricks"]))
        d["tricks"][k] = int(d["tricks"][k]) + 1
    elif m == "drop-talon":
        d.pop("talon", None)
    elif m in ("drop-result", "make-position"):      # a full deal without a result: a position?
        for key in ("play", "claim", "tricks"):
            d.pop(key, None)
        if m == "make-position":
            d["position"] = True
    elif m == "position":
        d["position"] = True
    return data


@st.composite
def generated(draw) -> Dict[str, Any]:
    n = draw(st.sampled_from([3, 4]))
    players = NAMES[:n]
    deals = [draw(summary_deal(players, players[k % n])) for k in range(draw(st.integers(1, 6)))]
    data = {"format": "pref-record/1", "players": players,
            "rules": {"variant": draw(st.sampled_from(preset_names()))}, "deals": deals}
    if draw(st.booleans()):
        data = mutate(draw, data)
    return data


def _example_data() -> List[Dict[str, Any]]:
    out = []
    for p in sorted(EXAMPLES.rglob("*.yaml")):
        doc = parse_text(str(p), p.read_text(encoding="utf-8"), False)
        if doc.kind == "record":
            out.append(doc.data)
    return out


EXAMPLE_DATA = _example_data()


@st.composite
def mutated_example(draw) -> Dict[str, Any]:
    data = copy.deepcopy(draw(st.sampled_from(EXAMPLE_DATA)))
    data["rules"] = {"variant": draw(st.sampled_from(preset_names()))}
    return mutate(draw, data)


def _check(data: Dict[str, Any]) -> None:
    from prefcli.io.writer_json import dump
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(dump(data, "json"), encoding="utf-8")
        assert_agree(path, data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=generated())
def test_generated_records_agree(data):
    _check(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=mutated_example())
def test_mutated_examples_agree_under_every_preset(data):
    _check(data)


# ---------------------------------------------------------------------------------------------
# Positions: every full deal of the examples without its result, marked and unmarked
# ---------------------------------------------------------------------------------------------

def _full_deals() -> List[Tuple[str, int]]:
    out = []
    for k, data in enumerate(EXAMPLE_DATA):
        for i, d in enumerate(data.get("deals") or ()):
            if isinstance(d, dict) and d.get("hands") is not None:
                out.append((k, i))
    return out


@pytest.mark.parametrize("marked", [True, False], ids=["marked", "unmarked"])
@pytest.mark.parametrize("where", _full_deals(), ids=lambda w: f"example{w[0]}-deal{w[1] + 1}")
def test_a_full_deal_without_its_result_is_a_position_only_when_marked(where, marked, tmp_path):
    k, i = where
    data = copy.deepcopy(EXAMPLE_DATA[k])
    d = data["deals"][i]
    if not marked and not any(key in d for key in ("play", "claim", "tricks")):
        pytest.skip("a deal not played (both defenders passed) needs no result")
    for key in ("play", "claim", "tricks"):
        d.pop(key, None)
    if marked:
        d["position"] = True
    from prefcli.io.writer_json import dump
    path = tmp_path / "game.json"
    path.write_text(dump(data, "json"), encoding="utf-8")
    res = assert_agree(path, data)
    if marked:
        assert all(code == 0 for code, _ in res.values()), res
        code, out, _ = run(["score", str(path)])
        assert f"note: deal {i + 1}: a position (position: true, no result recorded): not scored" in out
    else:
        assert all(code == 1 for code, _ in res.values()), res
        for name in ("validate", "score", "settle", "replay", "convert"):
            assert f"deals[{i}]: deal {i + 1}: " in res[name][1] and "or mark it as a position (position: true)" \
                in res[name][1], (name, res[name][1])
