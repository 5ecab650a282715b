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
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from prefcli.model.records import Deal, Record

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


class Dealing:
    """The rotation as it goes, one deal at a time (for readers that build a record line by line,
    like the quick-entry notes); :func:`rotation` walks a whole record with it."""

    def __init__(self, players: Sequence[str], first_dealer: Optional[str], rules: Any,
                 same_dealer: Optional[bool] = None) -> None:
        get = _getter(rules)
        self.players = list(players)
        n = len(self.players)
        self.same = bool(get("allpass.same_dealer", False)) if same_dealer is None else same_dealer
        self.leading_count = max(_count(get("general_egles", 0), n), _count(get("eglutes", 0), n))
        if get("skip_eglute", False):
            self.leading_count = 0
        self.bomb_general = get("bomb_allpass", None) == "general"
        self.seat = self.players.index(first_dealer) if first_dealer in self.players else 0
        self.leading, self.seen = True, 0

    @property
    def dealer(self) -> Optional[str]:
        """Who the rotation says deals the next deal."""
        return self.players[self.seat] if self.players else None

    def kind(self, all_pass: bool, bomb: bool) -> str:
        if not all_pass:
            return CONTRACT
        if self.leading and self.seen < self.leading_count:
            return GENERAL
        return BOMB if bomb and self.bomb_general else MANDATORY

    def deal(self, all_pass: bool, bomb: bool = False, dealer: Optional[str] = None) -> Tuple[str, Optional[str]]:
        """Record one deal (its own `dealer:` when given); returns its kind and who dealt it."""
        kind = self.kind(all_pass, bomb)
        if kind == GENERAL:
            self.seen += 1
        elif kind == CONTRACT:
            self.leading = False
        if not self.players:
            return kind, None
        if dealer is not None and dealer in self.players:
            self.seat = self.players.index(dealer)
        dealt = self.players[self.seat]
        if not (self.same and kind == MANDATORY):
            self.seat = (self.seat + 1) % len(self.players)
        return kind, dealt


def rotation(record: Record, rules: Any, explicit: bool = True,
             same_dealer: Optional[bool] = None) -> Rotation:
    """The kinds, dealers and expected dealers of every deal, in one walk.

    Kinds: `general` (a leading general eglė / eglutė), `bomb` (an all-pass after a bomb that
    counts as a general eglė), `mandatory` (any other all-pass: the seed 000 "extra eglutė" too)
    or `contract`. After a `mandatory` all-pass the dealer deals again when the rules'
    ``allpass.same_dealer`` (or `same_dealer`, to compare both rotations) says so. With
    `explicit`, a deal's `dealer:` resets the rotation.
    """
    walk = Dealing(record.players, record.first_dealer, rules, same_dealer)
    kinds: Dict[int, str] = {}
    dealt: Dict[int, str] = {}
    expected: Dict[int, str] = {}
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        if walk.dealer is not None:
            expected[entry.pos] = walk.dealer
        kind, by = walk.deal(entry.contract.is_all_pass, entry.bomb is not None,
                             entry.dealer if explicit else None)
        kinds[entry.pos] = kind
        if by is not None:
            dealt[entry.pos] = by
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
