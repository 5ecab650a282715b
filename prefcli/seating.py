"""Who deals each deal, and what kind of all-pass deal it is: one answer for every layer.

The rotation is data-driven: ``allpass.same_dealer`` (Classic, Lithuanian mandatory eglė: the
dealer deals again after an all-pass), the leading general eglės / eglutės that rotate
(``general_egles`` / ``eglutes``: one per dealer at the start, seed 002 "Kiekvieną kartą dalija
kitas žaidėjas"; none when ``skip_eglute`` skips them), and an all-pass after a bomb that counts
as a general eglė (``bomb_allpass``). A deal's own ``dealer:`` is taken as the truth and the
rotation goes on from it (validate reports it when it differs from the rotation, once, at that
deal).

The scorers, the rules engine, validate and convert all ask here, so a rule about the rotation
is written once. Nothing here knows a variant's name: only option values are read.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

from .model import Deal, Record

GENERAL, BOMB, MANDATORY, CONTRACT = "general", "bomb", "mandatory", "contract"

#: The rule options the rotation reads (see :func:`options`).
OPTIONS: Tuple[str, ...] = ("allpass.same_dealer", "general_egles", "eglutes", "skip_eglute", "bomb_allpass")


@dataclass(frozen=True)
class Rotation:
    """One walk over the deals (by pos): the kind of each deal, who dealt it, and who the
    rotation says should have dealt it (before the deal's own ``dealer:`` is taken)."""

    kinds: Dict[int, str]
    dealers: Dict[int, str]
    expected: Dict[int, str]


def _getter(rules: Any) -> Callable[..., Any]:
    get = getattr(rules, "get", None) if rules is not None else None
    return get if get is not None else (lambda name, default=None: default)


def _count(value: Any, players: int) -> int:
    if value in (None, False):
        return 0
    if isinstance(value, str):
        return players if value == "players" else 0
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def options(rules: Any) -> Tuple[Tuple[str, Any], ...]:
    """The options the rotation reads, as (name, value) pairs (those the rules set), for a caller
    that keeps a frozen digest of the rules (the engine's ``Conventions``): ``dict()`` of the
    pairs gives the same rotation as the rules themselves."""
    get = _getter(rules)
    pairs = ((name, get(name, None)) for name in OPTIONS)
    return tuple((name, value) for name, value in pairs if value is not None)


def rotation(record: Record, rules: Any, explicit: bool = True,
             same_dealer: Optional[bool] = None) -> Rotation:
    """The kinds, dealers and expected dealers of every deal, in one walk.

    Kinds: `general` (a leading general eglė / eglutė), `bomb` (an all-pass after a bomb that
    counts as a general eglė), `mandatory` (any other all-pass: the seed 000 "extra eglutė" too)
    or `contract`. After a `mandatory` all-pass the dealer deals again when the rules'
    ``allpass.same_dealer`` (or `same_dealer`, to compare both rotations) says so. With
    `explicit`, a deal's `dealer:` resets the rotation.
    """
    get = _getter(rules)
    players = record.players
    n = len(players)
    same = bool(get("allpass.same_dealer", False)) if same_dealer is None else same_dealer
    leading_count = max(_count(get("general_egles", 0), n), _count(get("eglutes", 0), n))
    if get("skip_eglute", False):
        leading_count = 0
    kinds: Dict[int, str] = {}
    dealt: Dict[int, str] = {}
    expected: Dict[int, str] = {}
    seat = players.index(record.first_dealer) if record.first_dealer in players else 0
    leading, seen = True, 0
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        if entry.contract.is_all_pass:
            if leading and seen < leading_count:
                kind = GENERAL
                seen += 1
            elif entry.bomb is not None and get("bomb_allpass", None) == "general":
                kind = BOMB
            else:
                kind = MANDATORY
        else:
            leading = False
            kind = CONTRACT
        kinds[entry.pos] = kind
        if not n:
            continue
        expected[entry.pos] = players[seat]
        if explicit and entry.dealer is not None and entry.dealer in players:
            seat = players.index(entry.dealer)
        dealt[entry.pos] = players[seat]
        if not (same and kind == MANDATORY):
            seat = (seat + 1) % n
    return Rotation(kinds, dealt, expected)


def deal_kinds(record: Record, rules: Any) -> Dict[int, str]:
    """`general` (a leading general eglė / eglutė), `bomb`, `mandatory` (any other all-pass) or `contract`."""
    return rotation(record, rules).kinds


def dealers(record: Record, rules: Any, explicit: bool = True,
            same_dealer: Optional[bool] = None) -> Dict[int, str]:
    """The dealer of each deal (by pos). With `explicit`, a deal's `dealer:` resets the rotation;
    `same_dealer` overrides the rules' ``allpass.same_dealer`` (to compare both rotations)."""
    return rotation(record, rules, explicit, same_dealer).dealers


def expected_dealers(record: Record, rules: Any) -> Dict[int, str]:
    """The dealer the rotation gives each deal, continuing from the previous deal's actual dealer
    (its `dealer:` when written), so one wrong `dealer:` is reported once, at that deal."""
    return rotation(record, rules).expected
