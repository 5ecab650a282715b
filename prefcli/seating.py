"""Who deals each deal, and what kind of all-pass deal it is: one answer for every layer.

The rotation is data-driven: ``allpass.same_dealer`` (Classic, Lithuanian mandatory eglė: the
dealer deals again after an all-pass), the leading general eglės / eglutės that rotate
(``general_egles`` / ``eglutes``: one per dealer at the start, seed 002 "Kiekvieną kartą dalija
kitas žaidėjas"), and an all-pass after a bomb that counts as a general eglė (``bomb_allpass``).
A deal's own ``dealer:`` is taken as the truth and the rotation goes on from it (validate reports
it when it differs from the rotation, once, at that deal).
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from .model import Deal, Record

GENERAL, BOMB, MANDATORY, CONTRACT = "general", "bomb", "mandatory", "contract"


def _count(value: Any, players: int) -> int:
    if value in (None, False):
        return 0
    if isinstance(value, str):
        return players if value == "players" else 0
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def deal_kinds(record: Record, rules: Any) -> Dict[int, str]:
    """`general` (a leading general eglė / eglutė), `bomb`, `mandatory` (any other all-pass) or `contract`."""
    get = rules.get if rules is not None else (lambda name, default=None: default)
    n = len(record.players)
    leading_count = max(_count(get("general_egles", 0), n), _count(get("eglutes", 0), n))
    if get("skip_eglute", False):
        leading_count = 0
    out: Dict[int, str] = {}
    leading, seen = True, 0
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        if entry.contract.is_all_pass:
            if leading and seen < leading_count:
                out[entry.pos] = GENERAL
                seen += 1
            elif entry.bomb is not None and get("bomb_allpass", None) == "general":
                out[entry.pos] = BOMB
            else:
                out[entry.pos] = MANDATORY
        else:
            leading = False
            out[entry.pos] = CONTRACT
    return out


def dealers(record: Record, rules: Any, explicit: bool = True,
            same_dealer: Optional[bool] = None) -> Dict[int, str]:
    """The dealer of each deal (by pos). With `explicit`, a deal's `dealer:` resets the rotation;
    `same_dealer` overrides the rules' ``allpass.same_dealer`` (to compare both rotations)."""
    players = record.players
    if not players:
        return {}
    get = rules.get if rules is not None else (lambda name, default=None: default)
    same = bool(get("allpass.same_dealer", False)) if same_dealer is None else same_dealer
    kinds = deal_kinds(record, rules)
    seat = players.index(record.first_dealer) if record.first_dealer in players else 0
    out: Dict[int, str] = {}
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        if explicit and entry.dealer is not None and entry.dealer in players:
            seat = players.index(entry.dealer)
        out[entry.pos] = players[seat]
        if not (same and kinds.get(entry.pos) == MANDATORY):
            seat = (seat + 1) % len(players)
    return out


def expected_dealers(record: Record, rules: Any) -> Dict[int, str]:
    """The dealer the rotation gives each deal, continuing from the previous deal's actual dealer
    (its `dealer:` when written), so one wrong `dealer:` is reported once, at that deal."""
    players = record.players
    if not players:
        return {}
    get = rules.get if rules is not None else (lambda name, default=None: default)
    same = bool(get("allpass.same_dealer", False))
    kinds = deal_kinds(record, rules)
    seat = players.index(record.first_dealer) if record.first_dealer in players else 0
    out: Dict[int, str] = {}
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        out[entry.pos] = players[seat]
        if entry.dealer is not None and entry.dealer in players:
            seat = players.index(entry.dealer)
        if not (same and kinds.get(entry.pos) == MANDATORY):
            seat = (seat + 1) % len(players)
    return out
