"""Every example in examples/ is a test (issue 2 §7): it validates, and it survives load → dump → load.

Parametrised over the folder, so examples added later are covered.
"""
import hashlib
import json

import pytest
import yaml

from conftest import EXAMPLES, run_cli
from prefcli.io.documents import load_document
from prefcli.io.parsing import parse_text
from prefcli.rules.checks import check_document

DOCS = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".yaml", ".yml", ".json")
              and not p.name.endswith((".expected-sheet.yaml", ".expected.yaml")))
ALL = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


def is_prefcli_doc(path):
    data = load_document(str(path)).data
    return isinstance(data, dict) and str(data.get("format", "")).startswith(("pref-record/", "pref-sheet/", "pref-tournament/"))


@pytest.mark.parametrize("path", [p for p in ALL if is_prefcli_doc(p)], ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_example_is_valid(path):
    doc = load_document(str(path))
    problems = check_document(doc)
    assert problems == [], "\n".join(p.text() for p in problems)


@pytest.mark.parametrize("path", [p for p in ALL if is_prefcli_doc(p)], ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_load_dump_load_same_data(path):
    data = load_document(str(path)).data
    as_json = json.dumps(data, default=str)
    assert parse_text("x.json", as_json, True).data == json.loads(as_json)
    # YAML written by PyYAML's safe dumper reads back to the same data with the strict loader
    plain = json.loads(as_json)
    assert parse_text("x.yaml", yaml.safe_dump(plain, sort_keys=False, allow_unicode=True), False).data == plain


def test_validate_command_accepts_the_folder():
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in ALL}
    docs = [str(p) for p in ALL if is_prefcli_doc(p)]
    code, out, err = run_cli(["validate", *docs])
    assert code == 0, err
    assert out.count("ok: ") == len(docs)
    assert {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in ALL} == before


def test_validate_json_report():
    code, out, err = run_cli(["validate", "-f", "json", str(EXAMPLES / "full-deals-sochi.yaml")])
    assert code == 0
    report = json.loads(out)
    assert report["valid"] is True and report["files"][0]["problems"] == []
