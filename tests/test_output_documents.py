"""Machine output people can consume (issue 11.8): every JSON document prefcli writes carries
its `format` and validates against the schema prefcli publishes (`prefcli schema KIND`)."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from conftest import run_cli

FORMAT_KIND = {"pref-validation/1": "validation", "pref-sheet/1": "sheet"}

CASES = [
    ["validate", "-f", "json", "examples/"],
    ["validate", "-f", "json", "tests/examples/negative/revoke.yaml", "examples/sochi-3p.yaml"],
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
