"""A plain exhaustive minimax, the yardstick for the double-dummy solver.

Deliberately naive and independent of :mod:`prefcli.rules.solver`: Card objects, every legal
card tried (no equivalent cards, no pruning, no table), the engine's own ``legal_cards`` and
``trick_winner``. Only for small endgames.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from prefcli.model.cards import Card, Suit
from prefcli.rules.engine import legal_cards, trick_winner


def minimax(hands: Sequence[Sequence[Card]], leader: int, trump: Optional[Suit], target: int,
            target_high: bool, talon: Sequence[Card] = (), talon_competes: bool = False,
            table: Tuple[Card, ...] = ()) -> int:
    """The target's tricks from here: seats 0-2 in playing order, the target's side maximising
    when `target_high` (else minimising), the others the opposite; `talon` cards lead the next
    tricks with the first hand (seat 0) playing first."""
    high = [(s == target) == target_high for s in range(3)]
    return _value([list(h) for h in hands], leader, list(table), trump, target, high, list(talon),
                  talon_competes)


def _value(hands: List[List[Card]], leader: int, table: List[Card], trump: Optional[Suit], target: int,
           high: List[bool], talon: List[Card], competes: bool) -> int:
    if not table and not any(hands):
        return 0
    talon_trick = bool(talon)
    if len(table) == 3:
        if talon_trick:
            t = talon[0]
            if competes:
                w = trick_winner([t] + table, trump, t.suit)
                winner = -1 if w == 0 else (leader + w - 1) % 3
            else:
                w = trick_winner(table, trump, t.suit)
                if w < 0:
                    w = trick_winner(table, trump)
                winner = (leader + w) % 3
            return (winner == target) + _value(hands, 0, [], trump, target, high, talon[1:], competes)
        w = trick_winner(table, trump)
        winner = (leader + w) % 3
        return (winner == target) + _value(hands, winner, [], trump, target, high, talon, competes)
    mover = (leader + len(table)) % 3
    if table:
        led: Optional[Suit] = table[0].suit
    elif talon_trick:
        led = talon[0].suit
    else:
        led = None
    results = []
    for card in legal_cards(hands[mover], led, trump):
        hands[mover].remove(card)
        results.append(_value(hands, leader, table + [card], trump, target, high, talon, competes))
        hands[mover].append(card)
    return max(results) if high[mover] else min(results)
