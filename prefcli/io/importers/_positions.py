"""What the problem-file importers (Bridge studio, Preferanser) share: turning a position (three
hands, the two cards left over, a contract, a declarer, a first leader, a given line of play)
into a full deal that ``validate``, ``replay`` and ``analyze`` read. Without the whole play the
deal is marked ``position: true`` (a study with no result: score and settle skip it, saying so).

A problem position is the play as it starts: the declarer's hand is already the one he plays
with. A record deals hands *before* the talon, so the two cards not in any hand are written as
the talon *and* the discard (the declarer took them and put them back), which keeps every hand
exactly the problem's. That is an assumption, reported as a note, never a silent guess.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from prefcli.model.cards import Card, format_cards

#: Clockwise seat order of a four-seat table; a three-player problem leaves one seat empty.
SEATS = ("N", "E", "S", "W")


def dealer_for(leader: str, seated: Sequence[str]) -> str:
    """The dealer whose first hand is `leader`: the seat before the leader, clockwise."""
    i = list(seated).index(leader)
    return seated[(i - 1) % len(seated)]


def full_deal(seated: Sequence[str], hands: Dict[str, List[Card]], rest: List[Card], contract: str,
              declarer: str, leader: str, whist: Optional[Dict[str, str]], play: Sequence[Card],
              note: Optional[str]) -> Tuple[Dict[str, Any], List[Card]]:
    """The deal's plain data, and the given cards a record cannot hold as its play: a record's
    `play` is the whole deal (or whole tricks ended by a claim), so a line that stops early is
    handed back to be kept as a note."""
    dealer = dealer_for(leader, seated)
    order = [seated[(list(seated).index(leader) + k) % len(seated)] for k in range(len(seated))]
    deal: Dict[str, Any] = {"dealer": dealer,
                            "hands": {p: format_cards(hands[p]) for p in order},
                            "talon": format_cards(rest), "discard": format_cards(rest),
                            "contract": contract, "declarer": declarer}
    if whist:
        deal["whist"] = whist
    if len(play) == 30:
        deal["play"] = [format_cards(play[i:i + 3]) for i in range(0, 30, 3)]
        play = []
    else:
        deal["position"] = True      # kept without a result on purpose: analysed, never scored
    if note:
        deal["note"] = note
    return deal, list(play)


def record(seated: Sequence[str], deal: Dict[str, Any], meta: Dict[str, Any]) -> Dict[str, Any]:
    from prefcli.model.records import RECORD_FORMAT
    return {"format": RECORD_FORMAT, "meta": meta, "players": list(seated), "rules": {"variant": "sochi"},
            "first_dealer": deal["dealer"], "deals": [deal]}
