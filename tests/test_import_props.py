"""`prefcli import` on generated malformed files (hypothesis): every importer, every kind of damage
(a value of the wrong type or range, a missing key, a truncated file, odd bytes, a mangled
problem-file line) ends in an imported document or a located error (`file:line:col: path:
message`), never a crash."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefcli.app.importing import Source, import_source
from prefcli.cli.main import main
from prefcli.model.diagnostics import InputError

HERE = Path(__file__).parent / "examples" / "imports"
JSON_SAMPLES = {
    "rostiktc2": "rostiktc2/preferans-backup-2026-07-14.json",
    "prefandroid": "prefandroid/pulya_20251124160000_3_20.json",
    "mathfewmatthews": "mathfewmatthews/preferans.pref.json",
    "gchet": "gchet/9f2c4e1a7b3d4c5e8f901a2b3c4d5e6f.json",
    "preferanser": "preferanser/5.json",
}
TEXT_SAMPLES = {"bridge-studio": "bridge-studio/preferansEn.bts", "notes": None}
NOTES = "players: Ann, Bob, Cid\nvariant: sochi\nBob 6S Cid:w Ann:w 6/3/1\npass 2/5/3\nAnn misere 1\n"

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["", "0", "-1", "11", "picche", "Normal", "MISER", "SPADE_ACE",
                                              "leningrad-1", "vist", "Raspasy", "Gora"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8)


def _paths(node: Any, prefix=()) -> List[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _set(node: Any, path: tuple, value: Any, delete: bool) -> Any:
    if not path:
        return value
    parent = node
    for elem in path[:-1]:
        parent = parent[elem]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    elif delete and isinstance(parent, list):
        parent.pop(path[-1])
    else:
        parent[path[-1]] = value
    return node


def _located(err: InputError, name: str) -> None:
    assert err.problems
    for p in err.problems:
        assert p.file is not None and p.file.startswith(name), p
        assert p.line is not None and p.column is not None, p.text()
        assert p.message
        assert p.text().startswith(f"{p.file}:{p.line}:{p.column}: ")


def _import(name: str, raw: bytes, forced: str) -> None:
    for choice in ("auto", forced):
        try:
            result = import_source(Source(name, raw), choice)
        except InputError as err:
            _located(err, name)
            continue
        assert result.outputs
        for p in result.problems:        # an output that does not validate: reported, located
            assert p.line is not None


@SETTINGS
@given(sample=st.sampled_from(sorted(JSON_SAMPLES)), data=st.data())
def test_json_saves_with_a_damaged_value_give_a_located_error(sample, data):
    original = json.loads((HERE / JSON_SAMPLES[sample]).read_text(encoding="utf-8"))
    doc = json.loads(json.dumps(original))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = data.draw(st.sampled_from(paths))
        delete = bool(path) and data.draw(st.booleans())
        doc = _set(doc, path, data.draw(json_values), delete)
    raw = json.dumps(doc, ensure_ascii=False, indent=data.draw(st.sampled_from([None, 1]))).encode()
    if sample == "gchet" and isinstance(doc, dict):   # keep the envelope's hash honest half the time
        pass
    _import("save.json", raw, sample)


@SETTINGS
@given(sample=st.sampled_from(sorted(JSON_SAMPLES) + ["bridge-studio"]), data=st.data())
def test_truncated_or_garbled_bytes_give_a_located_error(sample, data):
    path = HERE / (JSON_SAMPLES.get(sample) or TEXT_SAMPLES[sample])
    raw = path.read_bytes()
    cut = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.binary(max_size=8))
    raw = raw[:cut] + junk + raw[cut + data.draw(st.integers(0, 20)):]
    _import("file.dat", raw, sample)


@SETTINGS
@given(data=st.data())
def test_bridge_studio_lines_mangled_give_a_located_error(data):
    lines = (HERE / TEXT_SAMPLES["bridge-studio"]).read_bytes().decode("ascii").split("\r\n")
    words = ["deal", "contract", "play", "turns", "player", "absent", "comment", "misere", "6S", "11NT", "W",
             "Q", "DA", "D1", "AKQJT987....", "A98.AT98..T87", "99", "-1", "%", ""]
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        parts = lines[i].split(" ")
        j = data.draw(st.integers(0, len(parts)))
        word = data.draw(st.sampled_from(words) | st.text(max_size=6))
        parts[j:j + data.draw(st.integers(0, 1))] = [word]
        lines[i] = " ".join(parts)
    _import("problems.bts", "\r\n".join(lines).encode("utf-8", "replace"), "bridge-studio")


@SETTINGS
@given(data=st.data())
def test_notes_mangled_give_a_located_error(data):
    lines = NOTES.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        lines[i] = data.draw(st.sampled_from(["Bob 6S Cid:w Ann:w 6/3/2", "players: Ann", "Zed 6S 5/5",
                                              "Ann misere 11", "pass 1/1/1", "variant: nope"])
                             | st.text(max_size=20))
    _import("notes.txt", "\n".join(lines).encode(), "notes")


@settings(max_examples=15, deadline=None)
@given(sample=st.sampled_from(sorted(JSON_SAMPLES)), cut=st.integers(1, 400))
def test_the_command_exits_0_or_1_never_internal(tmp_path_factory, sample, cut):
    raw = (HERE / JSON_SAMPLES[sample]).read_bytes()
    path = tmp_path_factory.mktemp("imp") / "save.json"
    path.write_bytes(raw[:len(raw) - cut])
    assert main(["import", str(path), "-o", str(path.with_suffix(".yaml"))]) in (0, 1)


def _numeric_paths(node: Any, path: tuple = ()) -> list:
    if isinstance(node, bool):
        return []
    if isinstance(node, (int, float)):
        return [path]
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _numeric_paths(v, path + (k,))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _numeric_paths(v, path + (i,))]
    return []


@pytest.mark.parametrize("sample", sorted(JSON_SAMPLES))
def test_an_amount_too_fine_to_write_is_located_in_the_save(sample):
    """1e-300 where a save holds a number: refused at its own place in the file (a value the
    record format cannot hold exactly), never an unplaced error when the record is written."""
    original = json.loads((HERE / JSON_SAMPLES[sample]).read_text(encoding="utf-8"))
    for path in _numeric_paths(original)[:60]:
        doc = json.loads(json.dumps(original))
        _set(doc, path, 1e-300, False)
        _import("save.json", json.dumps(doc, indent=1).encode(), sample)
