"""Every number field of every schema states the bound its reader enforces (issue 11 (c)).

The bounds live in one place, prefcli.model.numbers: schema_fragment(KIND) is what a schema
node marked `"$comment": "bounds: KIND …"` must say; every other number field of a schema
prefcli reads is listed below with the reason it needs no such bound. Then the readers are
driven at each bound and one step past it, through the commands that skip the schema pass
(score, settle) and through validate (which runs it): both accept the one and refuse the other
with its place, so the schema and the reader agree.
"""
from __future__ import annotations

import json
import re
from decimal import Decimal, localcontext
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from conftest import ROOT
from prefcli.model import numbers
from prefcli.model.numbers import BOUND_KINDS, schema_fragment

SCHEMAS = ROOT / "schemas"
#: the schemas of documents prefcli reads (records, sheets, tournaments; merge reads the others)
READ = ("record", "sheet", "tournament", "settlement", "stats")
#: number fields of those schemas that need no bound of their own, and why (path regexes)
STRUCTURAL = {
    r"/tricks/additionalProperties$|/claim/additionalProperties$":
        "0..10: a deal has ten tricks (a rule of the game, checked by the deal reading)",
    r"/problems?/.*(line|column)$|/\$defs/problem/properties/(line|column)$": "a place in a file, written by prefcli",
    r"/contract$|/bid$": "a contract's text, not a number",
    r"/contracts/propertyNames$": "a contract's text, not a number",
    r"^/properties/(net|inputs/items/properties/(net|average_mountain|pairwise|mountain|mountain_after_amnesty|"
    r"shares|whist_balance|mountain_balance))": "rounded to 0.01 for reading by people; merge reads the exact strings",
    r"^/properties/standings/items/properties/(rank|total|games|average|whists)$":
        "standings as written (rounded; the exact strings beside them are bounded)",
    r"^/properties/tournament/properties/(bands/items/properties/above|cap|floor)":
        "the tournament's settings echoed in the output (read from a bounded tournament file)",
    r"^/\$defs/count$|^/properties/rating/": "counts and ratings prefcli computes (stats output)",
    r"^/\$defs/amount/oneOf/0$": "stats: a whole sum prefcli computes (merge reads it exactly; the string form is bounded)",
}


def _schema(name: str) -> Dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def _nodes(node: Any, ptr: str = "") -> List[Tuple[str, Dict[str, Any]]]:
    out = []
    if isinstance(node, dict):
        out.append((ptr, node))
        for k, v in node.items():
            out.extend(_nodes(v, f"{ptr}/{k}"))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_nodes(v, f"{ptr}/{i}"))
    return out


def _bounds_kind(node: Dict[str, Any]) -> str:
    m = re.match(r"bounds: (\S+)", str(node.get("$comment", "")))
    return m.group(1) if m else ""


def _is_number_field(node: Dict[str, Any]) -> bool:
    t = node.get("type")
    types = t if isinstance(t, list) else [t]
    if "integer" in types or "number" in types:
        return True
    return "pattern" in node and "[0-9]" in node["pattern"]


@pytest.mark.parametrize("name", sorted(p.name.split(".")[0] for p in SCHEMAS.glob("*.schema.json")))
def test_every_bounds_node_is_what_numbers_py_says(name):
    for ptr, node in _nodes(_schema(name)):
        kind = _bounds_kind(node)
        if kind:
            assert kind in BOUND_KINDS, (name, ptr, kind)
            body = {k: v for k, v in node.items() if k not in ("description", "$comment")}
            assert body == schema_fragment(kind), (name, ptr)


@pytest.mark.parametrize("name", READ)
def test_every_number_field_of_a_read_schema_is_bounded_or_says_why_not(name):
    doc = _schema(name)
    bounded: List[str] = [ptr for ptr, node in _nodes(doc) if _bounds_kind(node)]
    for ptr, node in _nodes(doc):
        if not _is_number_field(node) or any(ptr.startswith(b) for b in bounded):
            continue
        if any(re.search(rx, ptr) for rx in STRUCTURAL):
            continue
        # a card's pattern is a card, not a number
        if "pattern" in node and re.search(r"JjQqKkAa|J\|Q\|K\|A", node["pattern"]):
            continue
        pytest.fail(f"{name}.schema.json {ptr}: a number field without a bound from prefcli.model.numbers")


def test_price_and_coin_state_their_limit():
    for name in ("record", "sheet"):
        rules = _schema(name)["properties"]["rules"]["properties"]
        for field in ("price", "coin"):
            assert _bounds_kind(rules[field]) == "money"
            assert f"at most {numbers.MONEY_DIGITS} digits" in rules[field]["description"]
    for field in ("price", "coin"):
        assert _bounds_kind(_schema("tournament")["properties"][field]) == "money"


# ---------------------------------------------------------------------------------------------
# The readers enforce the same bounds: at the bound accepted, one step past refused, placed
# ---------------------------------------------------------------------------------------------

def _record(tmp_path: Path, rules: str, adjust: str) -> Path:
    p = tmp_path / "g.yaml"
    p.write_text("format: pref-record/1\nplayers: [Ann, Bob, Cid]\n"
                 f"rules: {{variant: sochi, {rules}}}\n"
                 "deals:\n- contract: 6S\n  declarer: Bob\n  whist: {Cid: whist, Ann: pass}\n"
                 "  tricks: {Bob: 6, Cid: 3, Ann: 1}\n"
                 f"- adjust: {{mountain: {{Bob: {adjust}}}}}\n", encoding="utf-8")
    return p


AT_THE_BOUND = [
    ("pool: 100000", "4"),
    ("pool: 12", str(numbers.AMOUNT_INT_MAX)),
    ("pool: 12", f"-{numbers.AMOUNT_INT_MAX}"),
    ("pool: 12", f'"{numbers.AMOUNT_MAX}"'),
    ("pool: 12", f'"-{numbers.AMOUNT_MAX}"'),
    ("pool: 12", "0.000000000001"),
    ("pool: 12", '"0.000000000001"'),
    ("pool: 12", '"1/999999999999"'),
    ('pool: 12, price: "999999999999.999999999999", coin: "0.000000000001"', "4"),
    ("pool: 12, price: 999999999999", "4"),
]
PAST_THE_BOUND = [
    ("pool: 100001", "4", "3:", "pool"),
    ("pool: 12", str(numbers.AMOUNT_INT_MAX + 1), "9:", "deals[1].adjust.mountain.Bob"),
    ("pool: 12", f'"{numbers.AMOUNT_MAX + 1}"', "9:", "deals[1].adjust.mountain.Bob"),
    ("pool: 12", '"0.0000000000001"', "9:", "deals[1].adjust.mountain.Bob"),
    ("pool: 12", '"1/1000000000001"', "9:", "deals[1].adjust.mountain.Bob"),
    ('pool: 12, price: "1000000000000"', "4", "3:", "rules.price"),
    ('pool: 12, price: "0.0000000000001"', "4", "3:", "rules.price"),
    ('pool: 12, coin: "0.0000000000001"', "4", "3:", "rules.coin"),
    ("pool: 12, price: 1e12", "4", "3:", "rules.price"),
]


@pytest.mark.parametrize("rules,adjust", AT_THE_BOUND)
def test_at_the_bound_every_reader_accepts(run, tmp_path, rules, adjust):
    path = _record(tmp_path, rules, adjust)
    for command in (["validate"], ["score"], ["settle"], ["convert", "--to", "json"]):
        code, out, err = run([*command, str(path)])
        assert code == 0, (command, err)


@pytest.mark.parametrize("rules,adjust,line,field", PAST_THE_BOUND)
def test_past_the_bound_every_reader_refuses_with_the_place(run, tmp_path, rules, adjust, line, field):
    path = _record(tmp_path, rules, adjust)
    for command in (["validate"], ["score"], ["settle"], ["convert", "--to", "json"]):
        code, out, err = run([*command, str(path)])
        assert code == 1, (command, err)
        assert f"{path}:{line}" in err and field in err and "Traceback" not in err, (command, err)


@pytest.mark.parametrize("option,value", [("--price", "1000000000000"), ("--price", "0.0000000000001"),
                                          ("--coin", "0.0000000000001")])
def test_command_line_money_has_the_same_bounds(run, option, value):
    code, _, err = run(["settle", "examples/paper-sheet.yaml", option, value])
    assert code == 2 and option in err and "out of range" in err, err


def test_money_is_exact_and_zero_sum_at_the_largest_price_and_smallest_coin(run, tmp_path):
    import jsonschema
    path = tmp_path / "s.yaml"
    path.write_text("format: pref-sheet/1\nplayers: [Ann, Bob, Cid]\n"
                    'rules: {variant: sochi, pool: 20, price: "999999999999.999999999999", coin: "0.000000000001"}\n'
                    "pool: {Ann: 20, Bob: 20, Cid: 20}\n"
                    'mountain: {Ann: "999999999999", Bob: 37, Cid: "0.000000000001"}\n'
                    "whists:\n  Ann: {Bob: 86, Cid: 40}\n  Bob: {Ann: 52, Cid: 64}\n  Cid: {Ann: 70, Bob: \"1/3\"}\n",
                    encoding="utf-8")
    code, out, err = run(["settle", str(path), "-f", "json"])
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, _schema("settlement"))
    with localcontext() as ctx:
        ctx.prec = 200
        money = {p: Decimal(v) for p, v in doc["money"].items()}
        assert sum(money.values()) == 0
        from fractions import Fraction
        price = Fraction(doc["price"])
        coin = Fraction(doc["coin"])
        for p, v in money.items():        # each within one coin of the exact net × price
            exact = Fraction(doc["exact"]["net"][p]) * price
            assert abs(Fraction(v) - exact) < coin, p
        paid = {p: Decimal(0) for p in money}
        for pay in doc["payments"]:
            paid[pay["from"]] -= Decimal(pay["amount"])
            paid[pay["to"]] += Decimal(pay["amount"])
        assert paid == money
    assert "E" not in out.split('"exact"')[0]      # plain decimals, never 1E-12
