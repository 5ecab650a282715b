"""Finding the shipped JSON Schemas and turning jsonschema's errors into sentences.

The schemas live in the top-level ``schemas/`` folder, installed as the package
``prefcli.schemas``; a plain checkout (no install) finds them next to the package.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Dict

from prefcli.model.records import PLAYER_COUNTS, counts_text
from prefcli.model.values import did_you_mean, show

#: Input documents prefcli reads, then the reports it writes; each has schemas/KIND.schema.json.
KINDS = ("record", "sheet", "tournament", "validation", "replay", "settlement", "stats", "import", "analysis")


def schema_text(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown schema '{kind}': expected one of {', '.join(KINDS)}")
    name = f"{kind}.schema.json"
    # the file beside the package (installed: prefcli/schemas/; a checkout: schemas/), read
    # directly: importlib.resources brings zipfile, tempfile and shutil in, a few ms of every run
    # (and pathlib 2.5 ms: os.path finds the same files)
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for folder in (os.path.join(here, "schemas"), os.path.join(os.path.dirname(here), "schemas")):
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                return f.read()
        except OSError:
            pass
    try:
        from importlib.resources import files
        return (files("prefcli.schemas") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        pass
    with open(os.path.join(os.path.dirname(here), "schemas", name), encoding="utf-8") as f:
        return f.read()


@lru_cache(maxsize=None)
def schema(kind: str) -> Dict[str, Any]:
    import json       # (a YAML record checked by the shipped compiled schema never needs it)
    return json.loads(schema_text(kind))


@lru_cache(maxsize=None)
def validator_for(kind: str):
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schema(kind))


def describe_error(err: Any) -> str:
    """A sentence a person can act on, for one jsonschema error."""
    v, inst = err.validator, err.instance
    where = err.absolute_path
    last = where[-1] if where else None
    if v == "required":
        missing = [m for m in err.validator_value if not (isinstance(inst, dict) and m in inst)]
        return f"missing required field '{missing[0] if missing else err.validator_value[0]}'"
    if v == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        extra = [k for k in inst if k not in allowed] if isinstance(inst, dict) else []
        hint = f"; known fields: {', '.join(allowed)}" if allowed else ""
        return f"unknown field {', '.join(repr(e) for e in extra)}{hint}"
    if v == "maxItems" and last is None or (v in ("minItems", "maxItems") and where and where[-1] == "players"):
        return f"{len(inst)} players listed; a record has {counts_text(PLAYER_COUNTS)} players"
    if v in ("minItems", "maxItems"):
        return f"{len(inst)} items; expected {'at least' if v == 'minItems' else 'at most'} {err.validator_value}"
    if v == "uniqueItems":
        seen, dup = set(), None
        for x in inst:
            if x in seen:
                dup = x
                break
            seen.add(x)
        return f"'{dup}' is listed twice; names must be unique"
    if v == "minimum":
        if where and "tricks" in where:
            return f"trick count {inst} is negative; counts are 0 to 10"
        return f"{inst} is below the minimum {err.validator_value}"
    if v == "maximum":
        if where and "tricks" in where:
            return f"trick count {inst} is above 10"
        return f"{inst} is above the maximum {err.validator_value}"
    if v in ("pattern", "oneOf", "anyOf"):
        from prefcli.model.cards import NotationError, parse_cards, parse_contract
        parent = where[-2] if len(where) >= 2 else None
        field = last if isinstance(last, str) else parent
        try:
            if field in ("contract", "bid"):
                parse_contract(inst)
            elif field in ("hands", "talon", "discard", "play") or parent in ("hands", "play"):
                parse_cards(inst)
        except NotationError as exc:
            return exc.message
        if v == "pattern":
            return f"{show(inst)} is not valid here ({err.schema.get('description', 'see the schema')})"
        return f"{_short(inst)} is not valid here: expected {err.schema.get('description', 'see the schema')}"
    if v == "enum":
        return f"{_short(inst)} is not one of {', '.join(map(str, err.validator_value))}"
    if v == "const":
        if type(inst) is not type(err.validator_value):
            from prefcli.model.values import type_name
            return f"expected {show(err.validator_value)}, found {type_name(inst)}"
        return f"{show(inst)} should be {show(err.validator_value)}"
    if v == "type":
        from prefcli.model.values import type_name
        expected = err.validator_value
        if isinstance(expected, list):
            expected = " or ".join(expected)
        words = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
                 "number": "a number", "boolean": "true or false"}
        return f"expected {words.get(expected, expected)}, found {type_name(inst)}"
    return err.message


_short = show


def unknown_field_message(name: str, allowed: Any) -> str:
    """"unknown field 'contrat'; did you mean 'contract'?" (or the known fields, when none is close)."""
    allowed = sorted(allowed)
    hint = did_you_mean(name, allowed)
    if not hint and allowed:
        hint = f"; known fields: {', '.join(allowed)}"
    return f"unknown field {show(name)}{hint}"
