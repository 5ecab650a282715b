"""Every fast path gives the bytes of the slow path it skips (issue 18: outputs byte-identical).

Each command runs twice on every example and on bad inputs: as shipped, and with the fast paths
switched off (jsonschema always run, PyYAML always writing the YAML). Output, errors and exit
code must be the same.
"""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from conftest import EXAMPLES, ROOT


def _inputs() -> List[Path]:
    out = [p for p in sorted(EXAMPLES.rglob("*")) if p.suffix in (".yaml", ".json") and p.is_file()]
    neg = ROOT / "tests" / "examples" / "negative"
    out += sorted(p for p in neg.glob("*") if p.suffix in (".yaml", ".json"))[:25]
    return out


COMMANDS = [["validate", "-f", "json"], ["validate"], ["convert", "-f", "yaml"], ["convert", "-f", "json"],
            ["score", "-f", "json"]]


def _slow(monkeypatch) -> None:
    from prefcli.io import schema_fast, writer_json, writer_text

    monkeypatch.setattr(schema_fast, "is_valid", lambda kind, data: False)

    def no_direct(self, marked):
        raise writer_text._NotDirect("switched off")
    monkeypatch.setattr(writer_text._DirectYaml, "document", no_direct)
    monkeypatch.setattr(writer_text._DirectYaml, "write", no_direct)
    monkeypatch.setattr(writer_json, "_json_line_fast", lambda value: None)


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_output_with_and_without_fast_paths(path, run, monkeypatch):
    fast = [run(cmd + [str(path)]) for cmd in COMMANDS]
    _slow(monkeypatch)
    slow = [run(cmd + [str(path)]) for cmd in COMMANDS]
    for cmd, a, b in zip(COMMANDS, fast, slow):
        assert a == b, " ".join(cmd)


def test_a_broken_record_is_reported_by_jsonschema_with_its_place(run, tmp_path):
    text = (EXAMPLES / "full-deals-sochi.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("talon: ", "talon: 11X ", 1), encoding="utf-8")
    code, out, err = run(["validate", str(bad)])
    assert code == 1
    line = next(i for i, l in enumerate(text.split("\n"), 1) if "talon: " in l)
    assert f"bad.yaml:{line}:" in out + err
