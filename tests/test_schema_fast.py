"""The compiled schema check gives jsonschema's answer (issue 18: validate's fast path).

`schema_fast.is_valid` may only say "valid" when jsonschema finds nothing; validate then skips
the jsonschema pass. These tests compare the two answers on every shipped example and bad input,
and on thousands of records with one value replaced, one field removed or one unknown field added.
"""
from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from conftest import BADINPUTS, EXAMPLES, ROOT

from prefcli.io import schema_fast
from prefcli.io.schemas import validator_for

VALUES = [None, True, False, 0, 1, -1, 3, 10, 11, 100000, 100001, 10 ** 9, 10 ** 9 + 1, 1.0, 2.5, -0.0,
          float("nan"), float("inf"), Decimal("1.5"), Decimal("7"), Decimal("NaN"), Fraction(1, 3), "", " ",
          "x", "Ann", "7S", "7S 8S", "AS,KS", "10♥", "6S", "6 nt", "misère", "all-pass", "whist", "pass",
          "half-whist", "time", "1/3", "-2.5", "1" * 13, "a" * 101, "pref-record/1", "pref-sheet/1", [], {},
          [None], ["7S"], ["7S", "7S"], ["Ann", "Bob", "Cid"], ["Ann", "Ann", "Cid"], [1, 2, 3], {"a": 1},
          {"Ann": 1}, {"Ann": "whist"}, {"Ann": 11}, {"Ann": "7S"}, {"adjust": {}}, {"contract": "6S"}]


def _truth(kind: str, data: Any) -> bool:
    return not any(True for _ in validator_for(kind).iter_errors(data))


def _decided(kind: str, data: Any):
    """The compiled check's own answer, or None when it declines (Unsure)."""
    check = schema_fast.checker(kind)
    assert check is not None, f"the {kind} schema no longer compiles: validate would lose its fast path"
    try:
        return check(data)
    except (schema_fast.Unsure, ArithmeticError):  # is_valid declines these: jsonschema decides
        return None


def _documents() -> Iterator[Tuple[str, str, Any]]:
    from prefcli.io.documents import load_document
    from prefcli.model.diagnostics import InputError
    folders = [EXAMPLES, ROOT / "tests" / "examples", BADINPUTS]
    for folder in folders:
        if not folder.is_dir():
            continue
        for p in sorted(folder.rglob("*")):
            if p.suffix.lower() not in (".yaml", ".yml", ".json") or not p.is_file():
                continue
            try:
                doc = load_document(str(p))
            except InputError:
                continue
            if doc.kind in ("record", "sheet", "tournament"):
                yield str(p), doc.kind, doc.data


def test_every_shipped_schema_of_an_input_compiles():
    for kind in ("record", "sheet", "tournament"):
        assert schema_fast.checker(kind) is not None


def test_the_shipped_record_check_is_what_the_compiler_makes_of_the_schema():
    """The record's compiled check ships as a module (no compile at every start); it must be
    exactly what the compiler makes of the schema now (else: ``python -m prefcli.io.schema_fast``),
    it is the one the fast path uses, and a schema that is not its text is compiled afresh."""
    from pathlib import Path

    from prefcli.io import schema_record_check
    from prefcli.io.schemas import schema_text
    shipped = Path(schema_record_check.__file__).read_text(encoding="utf-8")
    assert shipped == schema_fast.module_source("record", schema_text("record")), \
        "prefcli/io/schema_record_check.py is stale: run python -m prefcli.io.schema_fast"
    assert schema_fast.checker("record") is schema_record_check.CHECK
    compiled = schema_fast.compile_schema(json.loads(schema_text("record")))
    assert compiled is not None and compiled is not schema_record_check.CHECK

    def answer(check, data):
        try:
            return check(data)
        except Exception as exc:  # noqa: BLE001 - Unsure and the like: the same from both
            return type(exc)
    for _, kind, data in _documents():
        if kind == "record":
            assert answer(compiled, data) == answer(schema_record_check.CHECK, data)


def test_same_answer_on_every_file():
    seen = 0
    for name, kind, data in _documents():
        got = _decided(kind, data)
        assert got is not None, f"{name}: the fast check declined a plain document"
        assert got == _truth(kind, data), name
        seen += 1
    assert seen >= 10


def _paths(data: Any, prefix=()) -> List[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(data, list):
        for i, v in enumerate(data[:8]):
            out.extend(_paths(v, prefix + (i,)))
    return out


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    data[path[0]] = _set(data[path[0]], path[1:], value)
    return data


def _mutants(data: Any) -> Iterator[Any]:
    for path in _paths(data):
        for v in VALUES:
            yield _set(copy.deepcopy(data), path, v)
        if path:
            parent = copy.deepcopy(data)
            holder = parent
            for k in path[:-1]:
                holder = holder[k]
            if isinstance(holder, dict):
                del holder[path[-1]]
                yield parent
                unknown = copy.deepcopy(data)
                target = unknown
                for k in path[:-1]:
                    target = target[k]
                target["contrat"] = "6S"
                yield unknown


@pytest.mark.parametrize("name", ["full-deals-sochi.yaml", "sochi-3p.yaml", "leningrad-4p.yaml",
                                  "paper-sheet.yaml", "tournament/tournament.yaml"])
def test_same_answer_on_mutated_documents(name):
    from prefcli.io.documents import load_document
    path = EXAMPLES / name
    if not path.exists():
        pytest.skip(f"{name} is not in examples/")
    doc = load_document(str(path))
    data = doc.data
    if doc.kind == "record":  # a few deals are enough; keep a penalty/adjust entry if there is one
        deals = data["deals"]
        data = dict(data, deals=deals[:6] + [d for d in deals if "adjust" in d or "penalties" in d][:2])
    decided = 0
    for mutant in _mutants(data):
        got = _decided(doc.kind, mutant)
        if got is None:
            continue
        decided += 1
        try:
            truth = _truth(doc.kind, mutant)
        except ArithmeticError:  # jsonschema itself cannot compare a Decimal NaN
            continue
        text = json.dumps(mutant, default=str)
        if got:  # the one direction that matters: never "valid" when jsonschema finds something
            assert truth, text[:600]
        elif "NaN" not in text:  # NaN passes jsonschema's bounds (every comparison is false); not here
            assert not truth, text[:600]
    assert decided > 100


def test_is_valid_declines_what_it_cannot_decide():
    from prefcli.io.documents import load_document
    data = load_document(str(EXAMPLES / "sochi-3p.yaml")).data
    odd = dict(data, players=[1, 1, 2])          # uniqueItems on numbers: jsonschema decides
    assert schema_fast.is_valid("record", odd) is False
    assert _truth("record", odd) is False


def test_validate_messages_unchanged_through_the_fast_path(tmp_path):
    """A valid record: no jsonschema run at all; an invalid one: jsonschema's messages, located."""
    from prefcli.app.check import check_source
    src = (EXAMPLES / "sochi-3p.yaml").read_text(encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(src, encoding="utf-8")
    assert check_source(str(good)).problems == []
    bad = tmp_path / "bad.yaml"
    bad.write_text(src.replace("contract: ", "contrakt: ", 1), encoding="utf-8")
    problems = check_source(str(bad)).problems
    unknown = [p for p in problems if "unknown field 'contrakt'" in p.message]
    assert unknown and unknown[0].line == 14 and unknown[0].kind == "schema"


# -- the compiler's shortcuts (issue 18: validate of a long JSON record) ------------------------

def _same_as_jsonschema(schema: dict, values: List[Any]) -> int:
    from jsonschema import Draft202012Validator
    check = schema_fast.compile_schema(schema)
    assert check is not None
    truth = Draft202012Validator(schema)
    for v in values:
        assert check(v) == (not any(True for _ in truth.iter_errors(v))), repr(v)
    return len(values)


def test_the_card_shortcuts_are_the_shipped_patterns_and_never_pass_what_they_should_not():
    import re
    from prefcli.io.schemas import schema_text
    text = schema_text("record")
    for pattern, kind in schema_fast.SHORTCUTS.items():
        assert json.dumps(pattern, ensure_ascii=False) in text, f"the {kind} pattern is no longer the schema's"
    one, many = (re.compile(p) for p, k in sorted(schema_fast.SHORTCUTS.items(), key=lambda i: i[1] != "card"))
    for token in schema_fast.CARD_TOKENS:
        assert one.search(token) and many.search(token), token
    assert len(schema_fast.CARD_TOKENS) == 14 * 12
    # texts the shortcut accepts are ones the pattern accepts (it only ever saves the search)
    import random
    rnd = random.Random(18)
    pieces = sorted(schema_fast.CARD_TOKENS) + ["", " ", ",", "1", "11S", "6S", "7", "S", "\n", "7S\n", "\t"]
    for _ in range(3000):
        t = rnd.choice(" ,").join(rnd.choice(pieces) for _ in range(rnd.randint(0, 4)))
        if schema_fast.CARD_TOKENS.issuperset(t.split(" ")):
            assert many.search(t), repr(t)
        if t in schema_fast.CARD_TOKENS:
            assert one.search(t), repr(t)
        # the shortcut in C says what the tokens say, exactly
        assert (schema_fast.CARDS_TEXT(t) is not None) == schema_fast.CARD_TOKENS.issuperset(t.split(" ")), repr(t)


CARDS_SCHEMA = {"type": "object", "additionalProperties": {
    "oneOf": [{"type": "string", "pattern": next(p for p, k in schema_fast.SHORTCUTS.items() if k == "cards")},
              {"type": "array", "items": {"type": "string",
                                          "pattern": next(p for p, k in schema_fast.SHORTCUTS.items() if k == "card")}}]}}


def test_card_texts_and_lists_decided_as_jsonschema_does():
    texts = ["7S 8S", "7S  8S", "7S,8S", "7S8S", "", " ", " 7S", "7S ", "11S", "6S", "7S\n", "7S 8S\n", "10♥ AS",
             "A♠", "x", "7S 8", "T s", "ts"]
    values = [{"a": t} for t in texts] + [{"a": [t]} for t in texts] + [{"a": [t, "7S"]} for t in texts]
    values += [{"a": 7}, {"a": None}, {"a": [7]}, {"a": {}}, {}]
    assert _same_as_jsonschema(CARDS_SCHEMA, values) > 50
    # asked twice (the second answer from what the first remembered): the same
    assert _same_as_jsonschema(CARDS_SCHEMA, values) > 50
    # several texts checked at once (their tokens joined by a space), as hands and a play are:
    # one odd text, or one that is not a text, among good ones is still found
    import itertools
    some = ["7S 8S", "AS", "10♥ A♠", "", " 7S", "7S ", "7S  8S", "7S,8S", "11S", "7S\n", 7, None, ["7S"], ["x"]]
    pairs = list(itertools.product(some, repeat=2))
    many = [{"a": x, "b": y} for x, y in pairs] + [{"a": x, "b": "KS", "c": y} for x, y in pairs]
    assert _same_as_jsonschema(CARDS_SCHEMA, many) > 300
    play = {"type": "array", "maxItems": 10, "items": CARDS_SCHEMA["additionalProperties"]}
    tricks = [[x, y] for x, y in pairs] + [[x, "KS QS JS", y] for x, y in pairs] + [[], ["7S"] * 11]
    assert _same_as_jsonschema(play, tricks) > 300


def test_one_of_with_branches_of_the_same_type_still_counts_them():
    schema = {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 2}], "$defs": {}}
    _same_as_jsonschema(schema, [1, 2, 3, 2.5, 1.5, "x", None, True])
    inline = {"type": "object", "properties": {"n": schema}}
    _same_as_jsonschema(inline, [{"n": 1}, {"n": 3}, {"n": 2.5}, {"n": "x"}, {}])


def test_a_closed_object_with_many_fields_is_checked_field_by_field():
    props = {f"f{i}": {"type": "integer", "maximum": i} for i in range(12)}
    props["self"] = {"$ref": "#/$defs/obj"}                 # a field whose test is the object's own
    props["pick"] = {"if": {"type": "object", "required": ["a"]}, "then": {"type": "object", "required": ["b"]},
                     "else": {"type": "string"}}
    obj = {"type": "object", "required": ["f0"], "additionalProperties": False, "properties": props}
    schema = {"$ref": "#/$defs/obj", "$defs": {"obj": obj}}
    values = [{"f0": 0}, {"f0": 1}, {"f0": 0, "f11": 11}, {"f0": 0, "f11": 12}, {"f0": 0, "g": 1}, {"f1": 0},
              {"f0": 0, "self": {"f0": 0}}, {"f0": 0, "self": {"f0": 0, "self": {"f3": 1}}},
              {"f0": 0, "pick": {"a": 1, "b": 2}}, {"f0": 0, "pick": {"a": 1}}, {"f0": 0, "pick": "x"},
              {"f0": 0, "pick": 3}, {"f0": 0, "f5": True}, [], "x"]
    _same_as_jsonschema(schema, values)
