"""Helpers shared by the rules tests (no tests here): a record from a few deals of Ann, Bob and
Cid, the rule problems its deals have, and the pieces of generated deals (hypothesis)."""
from __future__ import annotations

from typing import Any, Dict, List

from hypothesis import strategies as st

from prefcli.model.build import record_from_data
from prefcli.rules.engine import check_record
from prefcli.rules.presets import resolve_rules

W, PS = "whist", "pass"
RUSSIAN = ("sochi", "leningrad", "rostov", "classic")
STRAINS = ("S", "C", "D", "H", "NT")


def rec(deals: List[Dict[str, Any]], variant: str = "sochi", players=("Ann", "Bob", "Cid"), **rules: Any):
    data = {"format": "pref-record/1", "players": list(players),
            "rules": {"variant": variant, **rules}, "deals": deals}
    return record_from_data(data, strict=True)


def problems(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    """The rule and play problems of the deals (``check_record``: without the facts a record
    leaves out)."""
    r = rec(deals, variant, players, **rules)
    return check_record(r, resolve_rules(r.rules))


def messages(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    return [p.message for p in problems(deals, variant, players, **rules)]


@st.composite
def split10(draw, names: List[str]) -> Dict[str, int]:
    """Ten tricks split among three names."""
    a = draw(st.integers(0, 10))
    b = draw(st.integers(0, 10 - a))
    return dict(zip(names, (a, b, 10 - a - b)))
