"""The play rules on bit masks: which cards may be played, and who wins a trick.

One place for "follow suit, else trump if you can, else anything" and for the trick's winner,
on the representation both the replay and the double-dummy solver use: a card is a small
integer (suit order × 8 + rank − 7, its index in :data:`prefcli.model.cards.DECK`) and a hand
is a 32-bit mask of those integers. The replay checks every card of every record with it and
the solver calls it at every node, so it avoids building Card objects.

Library code: no I/O.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence

from prefcli.model.cards import DECK, Card

__all__ = ["SUIT_MASK", "card_code", "mask_of", "cards_of", "legal_mask", "trick_winner_codes", "TRICK_KEYS", "talon_tricks",
           "three_seats"]

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


#: a card's standing in a trick, by trump (+1: index 0 is no trump), suit led and card code: a
#: trump 16 + rank, a card of the suit led 8 + rank, any other -1 (the highest takes the trick)
TRICK_KEYS = tuple(tuple(tuple(16 + (c & 7) if (c >> 3) == trump else (8 + (c & 7) if (c >> 3) == led else -1)
                                for c in range(32)) for led in range(4)) for trump in range(-1, 4))
#: what a card that does not follow the suit led says of its player's hand, by trump (+1: index 0
#: is no trump), suit led and card code: the cards he may not hold any more (the suit led, and
#: trumps too when the card is not one); 0 for a card of the suit led
_VOID = tuple(tuple(tuple(0 if (c >> 3) == led else
                          (SUIT_MASK[led] | (SUIT_MASK[trump] if trump >= 0 and (c >> 3) != trump else 0))
                          for c in range(32)) for led in range(4)) for trump in range(-1, 4))
#: the seat after each of three, and the one after that (by position in the seats)
_NEXT1, _NEXT2 = (1, 2, 0), (2, 0, 1)
#: the rows of _VOID and TRICK_KEYS by the card that leads (not its suit): one lookup a trick
_VOID_BY_LEAD = tuple(tuple(rows[c >> 3] for c in range(32)) for rows in _VOID)
_KEYS_BY_LEAD = tuple(tuple(rows[c >> 3] for c in range(32)) for rows in TRICK_KEYS)
#: a trick won, counted by the winner's place: 1, 1 << 8 or 1 << 16 added to one number (ten
#: tricks at most: a count is below 256), and the place after each (by its count's unit)
_UNITS = (1, 1 << 8, 1 << 16)
_UNIT_NEXT1 = {1: 1 << 8, 1 << 8: 1 << 16, 1 << 16: 1}
_UNIT_NEXT2 = {1: 1 << 16, 1 << 8: 1, 1 << 16: 1 << 8}


def three_seats(play: Sequence[Sequence[Card]], hands: Dict[str, int], seats: Sequence[str], leader: Optional[str],
                won: Dict[str, int], trump: int) -> bool:
    """The replay's trick check (:meth:`prefcli.rules.play.PlayReplay._tricks_fast`) for three
    cards a trick and no talon card, unrolled (the common table: most of the cards of every full
    deal), with its rules the ones above (follow suit, else trump; the highest trump, else the
    highest card of the suit led, takes the trick): True with `won` counted, False as soon
    as a card does not follow, when a card was not held, or when the leader does not play; a card
    that is not a Card or a trick of another size raises (AttributeError, ValueError: the caller's
    False). `hands` is read, not changed. The three hands are kept from the leader's seat round (h0
    his, h1 the next's, h2 the last's), turned at each trick to its winner's; `l` is the leader's
    place in `seats` (as the unit its tricks are counted by: 1, 1 << 8, 1 << 16), and each trick is
    counted by the place that won it, all three in one number.

    Whether every card was held is asked once, at the end, not card by card: each card played is
    taken out of its hand by XOR, so a seat's cards played (their XOR, `gone`) are `n` different
    cards of its hand, one a trick, exactly when `gone` holds no card the hand did not and `n`
    cards (a card not held leaves its bit set outside the hand, a card played twice cancels out).
    While every card so far was held the hands are the true ones, so each follow check is the
    card-by-card one; once one was not, what the checks say no longer matters: the play is
    declined either way, and the long way finds the first wrong card."""
    a, b, c = seats
    ha, hb, hc = hands[a], hands[b], hands[c]
    if leader == a:
        h0, h1, h2, l = ha, hb, hc, 0
    elif leader == b:
        h0, h1, h2, l = hb, hc, ha, 1
    elif leader == c:
        h0, h1, h2, l = hc, ha, hb, 2
    else:
        return False
    keys = _KEYS_BY_LEAD[trump + 1]     # (each trick's rows by its first card)
    void = _VOID_BY_LEAD[trump + 1]
    next1, next2 = _UNIT_NEXT1, _UNIT_NEXT2
    u = _UNITS[l]                       # the leader's place, as its count's unit
    taken = 0
    for x0, x1, x2 in play:             # a trick of another size: ValueError
        h0 ^= x0._bit
        h1 ^= x1._bit
        h2 ^= x2._bit
        c0, c1, c2 = x0._code, x1._code, x2._code
        row = void[c0]                  # (the card just played is in neither suit it asks of)
        if h1 & row[c1] or h2 & row[c2]:
            return False                # a card that does not follow, or does not trump
        row = keys[c0]
        k0, k1, k2 = row[c0], row[c1], row[c2]
        if k1 > k0:
            if k2 > k1:
                h0, h1, h2, u = h2, h0, h1, next2[u]
            else:
                h0, h1, h2, u = h1, h2, h0, next1[u]
        elif k2 > k0:
            h0, h1, h2, u = h2, h0, h1, next2[u]
        taken += u
    # each seat's hand now, by the leader's place (h0 is that seat's)
    if u == 1:
        fa, fb, fc = h0, h1, h2
    elif u == 1 << 8:
        fa, fb, fc = h2, h0, h1
    else:
        fa, fb, fc = h1, h2, h0
    n = len(play)
    gone_a, gone_b, gone_c = ha ^ fa, hb ^ fb, hc ^ fc
    if (gone_a & ~ha or gone_b & ~hb or gone_c & ~hc or _popcount(gone_a) != n or _popcount(gone_b) != n
            or _popcount(gone_c) != n):
        return False                    # a card not held (or played twice)
    won[a] += taken & 0xFF
    won[b] += (taken >> 8) & 0xFF
    won[c] += taken >> 16
    return True


def _bits(mask: int) -> int:
    """How many cards `mask` holds (int.bit_count, from Python 3.10)."""
    return bin(mask).count("1")


_popcount = getattr(int, "bit_count", _bits)


def talon_tricks(play: Sequence[Sequence[Card]], hands: Dict[str, int], seats: Sequence[str], leader: Optional[str],
                 won: Dict[str, int], trump: int, talon: Sequence[Card], talon_plays: bool,
                 owner: Optional[str]) -> bool:
    """The replay's check of an all-pass's first tricks, each led by a talon card (written first
    in its trick or left out), for three seats: each player from the first hand (`leader`, who
    leads them all) follows the talon card's suit, else trumps; the best card takes the trick,
    the talon card too when it plays (`talon_plays`: for `owner`, or for nobody). True with `won`
    counted and the cards taken out of `hands`; False as soon as a card is not held or does not
    follow, a trick starts with another card than the talon's, nobody follows the talon card (the
    long way says who takes it then) or the leader does not play; a trick of another size or a
    card that is not a Card raises (ValueError, AttributeError: the caller's False)."""
    a, b, c = seats
    if leader == a:
        p0, p1, p2 = a, b, c
    elif leader == b:
        p0, p1, p2 = b, c, a
    elif leader == c:
        p0, p1, p2 = c, a, b
    else:
        return False
    h0, h1, h2 = hands[p0], hands[p1], hands[p2]
    keys = TRICK_KEYS[trump + 1]
    void = _VOID[trump + 1]
    for ti in range(min(len(talon), len(play))):
        trick = play[ti]
        code = talon[ti]._code
        if len(trick) == 4:
            if trick[0]._code != code:
                return False
            x0, x1, x2 = trick[1], trick[2], trick[3]
        else:
            x0, x1, x2 = trick          # a trick of another size: ValueError
        b0, b1, b2 = x0._bit, x1._bit, x2._bit
        if not (h0 & b0 and h1 & b1 and h2 & b2):
            return False
        h0 ^= b0
        h1 ^= b1
        h2 ^= b2
        c0, c1, c2 = x0._code, x1._code, x2._code
        led = code >> 3
        row = void[led]
        if h0 & row[c0] or h1 & row[c1] or h2 & row[c2]:
            return False
        row = keys[led]
        best = row[code] if talon_plays else -1
        who = owner
        if row[c0] > best:
            best, who = row[c0], p0
        if row[c1] > best:
            best, who = row[c1], p1
        if row[c2] > best:
            best, who = row[c2], p2
        if best < 0:
            return False
        if who is not None:
            won[who] = won.get(who, 0) + 1
    hands[p0], hands[p1], hands[p2] = h0, h1, h2
    return True
