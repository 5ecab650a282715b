"""What a replay found out about one deal (:class:`DealReplay`): the auction and its winner, the
discard, the contract, the tricks card by card and their counts, and the first illegal step. Made
by :mod:`prefcli.rules.replay`, kept on the deal's reading."""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from typing import Any, Dict, List, Optional, Tuple

from prefcli.model.cards import Card, Contract, Decision
from prefcli.model.diagnostics import Problem
from prefcli.model.records import Deal
from prefcli.rules.auction import AuctionResult, AuctionStep
from prefcli.rules.errors import RulesError
from prefcli.rules.play import TrickPlay

__all__ = ["DealReplay", "new_replay"]


@dataclass
class DealReplay:
    """Everything a replay found out about one deal; `problems` empty when it is legal."""

    deal: Deal
    number: int
    dealer: Optional[str] = None
    first_hand: Optional[str] = None
    seats: Tuple[str, ...] = ()                  # active players from the first hand
    hands: Optional[Dict[str, Tuple[Card, ...]]] = None
    talon: Optional[Tuple[Card, ...]] = None
    auction: List[AuctionStep] = field(default_factory=list)
    auction_result: Optional[AuctionResult] = None
    bid: Optional[Contract] = None
    declarer: Optional[str] = None
    discard: Optional[Tuple[Card, ...]] = None
    contract: Optional[Contract] = None
    whist: List[Tuple[str, Decision]] = field(default_factory=list)  # from the declarer's left
    open: Optional[bool] = None
    takeover: Optional[str] = None
    returned_by: Optional[str] = None
    played: bool = False                         # the deal is played out (not passed/half-whist)
    tricks: List[TrickPlay] = field(default_factory=list)
    counts: Optional[Dict[str, int]] = None      # derived from play (+ claim)
    claim: Optional[Dict[str, int]] = None
    problems: List[Problem] = field(default_factory=list)
    error: Optional[RulesError] = None           # the first illegal step
    unplayable: List[Problem] = field(default_factory=list)   # structure that blocks a replay
    dummy: Optional[str] = None                  # the husar's dummy hand (HUSAR.md H1)
    dummy_played_by: Optional[str] = None        # who chooses its cards (H9, H10), "robot", or None: it sits out

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def checked(self) -> bool:
        """The play was replayed (hands known and valid)."""
        return self.hands is not None and not self.unplayable

    def as_dict(self) -> Dict[str, Any]:
        """Plain data for JSON output (with a dummy hand: who played it)."""
        out = self._as_dict()
        if self.dummy is not None:
            out["dummy"] = self.dummy
            out["dummy_played_by"] = self.dummy_played_by
        return out

    def _as_dict(self) -> Dict[str, Any]:
        return {
            "index": self.deal.pos,
            "number": self.number,
            "dealer": self.dealer,
            "first_hand": self.first_hand,
            "hands": ({p: [str(c) for c in cs] for p, cs in self.hands.items()}
                      if self.hands is not None else None),
            "talon": [str(c) for c in self.talon] if self.talon is not None else None,
            "auction": [{"player": s.player, "call": str(s.call)} for s in self.auction],
            "bid": str(self.bid) if self.bid is not None else None,
            "declarer": self.declarer,
            "discard": [str(c) for c in self.discard] if self.discard is not None else None,
            "contract": str(self.contract) if self.contract is not None else None,
            "whist": {p: str(d) for p, d in self.whist},
            "open": self.open,
            "takeover": self.takeover,
            "return": self.returned_by,
            "play": [{"leader": t.leader, "cards": [{"player": w, "card": str(c)} for w, c in t.cards],
                      "winner": t.winner} for t in self.tricks],
            "claim": self.claim,
            "tricks": self.counts,
            "problems": [p.as_dict() for p in self.problems],
        }


def _template() -> Optional[Tuple[Dict[str, Any], Tuple[str, ...]]]:
    """DealReplay's fields with their defaults, in field order, and those made fresh for each
    replay (the lists); None when a field needs another factory (then the class makes them)."""
    import dataclasses
    if hasattr(DealReplay, "__slots__") or hasattr(DealReplay, "__post_init__"):
        return None
    plain: Dict[str, Any] = {}
    lists = []
    for f in dataclasses.fields(DealReplay):
        if f.name in ("deal", "number"):
            plain[f.name] = None
        elif f.default is not dataclasses.MISSING:
            plain[f.name] = f.default
        elif f.default_factory is list:      # type: ignore[misc,comparison-overlap]
            plain[f.name] = None
            lists.append(f.name)
        else:
            return None
    return plain, tuple(lists)


_TEMPLATE = _template()


def new_replay(deal: Deal, number: int) -> DealReplay:
    """``DealReplay(deal=deal, number=number)`` without the dataclass's ``__init__`` (one a full
    deal of every command): the same object, every field in field order."""
    if _TEMPLATE is None:
        return DealReplay(deal=deal, number=number)
    plain, lists = _TEMPLATE
    obj = object.__new__(DealReplay)
    d = plain.copy()            # (a dictionary's copy, made in C, then given to the object as its own)
    d["deal"] = deal
    d["number"] = number
    for name in lists:
        d[name] = []
    obj.__dict__ = d
    return obj
