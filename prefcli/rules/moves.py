"""The play rules on bit masks: which cards may be played, and who wins a trick.

One place for "follow suit, else trump if you can, else anything" and for the trick's winner,
on the representation both the replay and the double-dummy solver use: a card is a small
integer (suit order × 8 + rank − 7, its index in :data:`prefcli.model.cards.DECK`) and a hand
is a 32-bit mask of those integers. The replay checks every card of every record with it and
the solver calls it at every node, so it avoids building Card objects.

Library code: no I/O.
"""
from __future__ import annotations

from typing import Iterable, List, Sequence

from prefcli.model.cards import DECK, Card

__all__ = ["SUIT_MASK", "card_code", "mask_of", "cards_of", "legal_mask", "trick_winner_codes"]

SUIT_MASK = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
_ID_CODE = {id(c): i for i, c in enumerate(DECK)}


def card_code(card: Card) -> int:
    """The card's index in DECK (suit order × 8 + rank − 7)."""
    code = _ID_CODE.get(id(card))
    if code is None:
        code = card.suit.order * 8 + int(card.rank) - 7
    return code


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << card_code(c)
    return m


def cards_of(mask: int) -> List[Card]:
    return [DECK[i] for i in range(32) if (mask >> i) & 1]


def legal_mask(hand: int, led: int, trump: int) -> int:
    """The cards of `hand` that may be played to a trick led in suit `led` (−1: this card leads)
    with trump suit `trump` (−1: no trump): follow suit; having none, trump; else anything."""
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    if trump >= 0:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps
    return hand


def trick_winner_codes(codes: Sequence[int], trump: int, led: int = -1) -> int:
    """Index of the winning card among `codes`: the highest trump, else the highest card of the
    led suit (`led` −1: the first card's suit); −1 when no card is of either (a talon-named suit
    nobody followed)."""
    if led < 0:
        led = codes[0] >> 3
    best, best_key = -1, -1
    for i, c in enumerate(codes):
        s = c >> 3
        key = 16 + (c & 7) if s == trump else (8 + (c & 7) if s == led else -1)
        if key > best_key:
            best, best_key = i, key
    return best
