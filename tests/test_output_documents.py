"""Machine output people can consume (issue 11.8): every JSON document prefcli writes carries
its `format` and validates against the schema prefcli publishes (`prefcli schema KIND`)."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from conftest import run_cli

from prefcli.model.formats import SCHEMA_KIND as FORMAT_KIND

CASES = [
    ["validate", "-f", "json", "examples/"],
    ["validate", "-f", "json", "tests/examples/negative/revoke.yaml", "examples/sochi-3p.yaml"],
    ["settle", "-f", "json", "examples/sochi-3p.yaml"],
    ["replay", "-f", "json", "examples/full-deals-sochi.yaml"],
    ["replay", "-f", "json", "examples/full-deals-sochi.yaml", "tests/examples/negative/revoke.yaml"],
    ["score", "-f", "json", "examples/lithuanian-4p.yaml", "--explain"],
    ["settle", "-f", "json", "examples/tournament/"],
    ["settle", "-f", "json", "examples/paper-sheet.yaml", "tests/examples/negative/revoke.yaml", "--standings"],
    ["settle", "-f", "json", "--summary", "examples/tournament/round1.yaml", "examples/tournament/round2.yaml"],
]


def schema_of(kind):
    code, out, err = run_cli(["schema", kind])
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a[:3]))
def test_json_output_has_its_format_and_validates(args):
    code, out, err = run_cli(args)
    assert code in (0, 1), err
    doc = json.loads(out)
    kind = FORMAT_KIND[doc["format"]]
    errors = sorted(Draft202012Validator(schema_of(kind)).iter_errors(doc), key=str)
    assert not errors, [e.message for e in errors[:3]]


def test_example_tournament_files_validate_against_the_tournament_schema():
    import yaml
    from conftest import EXAMPLES
    schema = schema_of("tournament")
    for path in EXAMPLES.rglob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("format") == "pref-tournament/1":
            assert not list(Draft202012Validator(schema).iter_errors(data)), path


def _types(value, path="", out=None):
    """Every leaf's JSON type, by path with list indexes and player names folded."""
    out = {} if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            _types(v, f"{path}.{'*' if path.endswith(('net', 'money', 'mountain', 'shares', 'balance', 'pairwise', 'amnesty')) or path.endswith('*') else k}", out)
    elif isinstance(value, list):
        for v in value:
            _types(v, path + "[]", out)
    else:
        kind = "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else type(value).__name__
        if value is not None:
            out.setdefault(path, set()).add(kind)
    return out


def test_settlement_fields_have_one_json_type_each():
    """No `29` / `"61.6"` / `"308/15"` mix: amounts are numbers, their exact forms strings."""
    docs = []
    for args in (["examples/sochi-3p.yaml"], ["examples/tournament/"], ["examples/lithuanian-4p.yaml"],
                 ["examples/seed000-sheet.yaml", "examples/paper-sheet.yaml", "--standings"]):
        code, out, err = run_cli(["settle", "-f", "json", *args])
        assert code == 0, err
        docs.append(json.loads(out))
    seen = {}
    for d in docs:
        for path, kinds in _types(d).items():
            seen.setdefault(path, set()).update(kinds)
    mixed = {p: k for p, k in seen.items() if len(k) > 1}
    assert not mixed, mixed
    assert seen[".net.*"] == {"number"} and seen[".exact.net.*"] == {"str"}
