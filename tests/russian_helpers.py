"""Helpers for the Russian scoring tests (no tests here): build a record from short data, read the sheet."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence

from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules
from prefcli.scoring import score

P3 = ["A", "B", "C"]
P4 = ["A", "B", "C", "D"]


def record(deals: List[Dict[str, Any]], players: Sequence[str] = P3, variant: str = "sochi",
           **rules: Any):
    data: Dict[str, Any] = {"format": "pref-record/1", "players": list(players),
                            "rules": {"variant": variant, **_nest(rules)}, "deals": deals}
    for key in ("start", "end", "first_dealer"):
        if key in data["rules"]:
            data[key] = data["rules"].pop(key)
    if len(players) > 3 and "first_dealer" not in data and not any("dealer" in d for d in deals[:1]):
        data["first_dealer"] = players[0]     # with a seat sitting out it is written, never guessed
    return record_from_data(data, strict=True)


def _nest(rules: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in rules.items():
        k = k.replace("__", ".")
        node = out
        parts = k.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = v
    return out


def run(deals: List[Dict[str, Any]], players: Sequence[str] = P3, variant: str = "sochi",
        sets: Sequence = (), **rules: Any):
    rec = record(deals, players, variant, **rules)
    return score(rec, resolve_rules(rec.rules, sets=list(sets)))


def flat(result, upto: Optional[int] = None) -> Dict[str, Fraction]:
    """The sheet as {"pool.A": 2, "mountain.B": 4, "whists.B.A": 8, …}, zeros left out."""
    s = result.sheet(upto)
    out: Dict[str, Fraction] = {}
    for p, v in s.pool.items():
        if v:
            out[f"pool.{p}"] = v
    for p, v in s.mountain.items():
        if v:
            out[f"mountain.{p}"] = v
    for p, row in s.whists.items():
        for q, v in row.items():
            if v:
                out[f"whists.{p}.{q}"] = v
    return out


def sheet_of(deals, players=P3, variant="sochi", sets=(), **rules) -> Dict[str, Fraction]:
    return flat(run(deals, players, variant, sets, **rules))


def rules_of(result) -> List[str]:
    return [e.rule for e in result.ledger.entries]
