"""Double-dummy solver for Preferans: the tricks one player takes when every card is known and
everyone plays perfectly.

Why its own solver: the open Preferans solvers live inside GUIs or bots, and bridge's DDS lets a
void hand discard instead of ruffing, which Preferans forbids (the project's analysis design
notes, ANALYSIS.md, compare them).
The play rules themselves are not repeated here: the legal cards come from
:func:`prefcli.rules.moves.legal_mask`, the same primitive the replay checks records with.

The game is always two-sided. One seat is the *target*, whose tricks are counted; the *high*
side wants that count high, the other side low:

- a trick contract: the target is the declarer, who is the high side; the defenders are low;
- a misère: the target is the declarer, who is the low side; the two catchers are high;
- an all-pass, for each player in turn: he is the low side and the other two play against him
  (the "paranoid" bound: the fewest tricks he can be sure of, whatever the others do).

Techniques (after DDS and eschava's solver): boolean zero-window probes ("does
the high side get at least k?") driven from a guess, MTD-style; a transposition table at trick
boundaries keyed by the *relative* ranks of the cards still out (a 9 with the 10 gone plays as a
10), holding lower and upper bounds and the best lead; equivalent cards (touching cards of one
hand, the cards between them gone) tried once; quick tricks (the leader's sure winners) as
cut-offs in trick contracts; the best lead of a position tried first, then winning cards.

Seats are numbered 0, 1, 2 in playing order from the first hand; cards are the 0…31 codes of
:mod:`prefcli.rules.moves`. The first tricks of an all-pass may be led from the talon (``talon``
codes); the first hand then plays first, and with ``talon_competes`` the talon card itself can
win its trick (for nobody: the four-player dealer who sits out), otherwise it only names the
suit, and a trick nobody could follow goes to the best card of the first hand's suit. After the
talon tricks the first hand leads. This mirrors the replay in :mod:`prefcli.rules.engine`.

Library code: no I/O.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from prefcli.rules.moves import SUIT_MASK, legal_mask, trick_winner_codes

__all__ = ["Solver", "popcount", "runs"]

_NEXT = (1, 2, 0)
_RUNS: Dict[int, Tuple[int, ...]] = {}
_CODE: Dict[int, int] = {}


def popcount(m: int) -> int:
    return bin(m).count("1")


def _suit_runs(key: int) -> Tuple[int, ...]:
    """Representative codes of the runs in one suit, highest first: `key` packs the suit (bits
    16-17), the other live cards of the suit (bits 8-15) and the hand's cards (bits 0-7)."""
    hs, os_, s = key & 0xFF, (key >> 8) & 0xFF, key >> 16
    out: List[int] = []
    prev_in_run = False
    for r in range(7, -1, -1):
        if (hs >> r) & 1:
            if not prev_in_run:
                out.append(s * 8 + r)
            prev_in_run = True
        elif (os_ >> r) & 1:
            prev_in_run = False
    t = tuple(out)
    _RUNS[key] = t
    return t


def runs(hand: int, legal: int, live: int) -> List[int]:
    """One card of each set of equivalent legal cards of `hand`, highest first in each suit:
    touching cards of one hand (no live card of another hand between them) win the same tricks."""
    out: List[int] = []
    others = live & ~hand
    for s in range(4):
        hs = (legal >> (8 * s)) & 0xFF
        if hs:
            key = (s << 16) | (((others >> (8 * s)) & 0xFF) << 8) | hs
            r = _RUNS.get(key)
            out.extend(r if r is not None else _suit_runs(key))
    return out


def _suit_code(key: int) -> int:
    """The relative-rank picture of one suit: who holds each card still out, highest first, two
    bits a card after a leading 1 (so 9-10 of one hand with the J gone reads like 10-J)."""
    a, b, c = key & 0xFF, (key >> 8) & 0xFF, key >> 16
    code = 1
    for r in range(7, -1, -1):
        bit = 1 << r
        if a & bit:
            code = code * 4 + 1
        elif b & bit:
            code = code * 4 + 2
        elif c & bit:
            code = code * 4 + 3
    _CODE[key] = code
    return code


def _trick_end(table: Tuple[int, ...], leader: int, trick: int, seats: int, talon: Tuple[int, ...],
               talon_competes: bool, trump: int) -> Tuple[int, int]:
    """Who wins a complete trick (-1: the talon card, which nobody scores) and who leads the
    next: the winner, or after a talon-led trick the first hand again. Shared by the three-seat
    and the heads-up search so that the talon's part in a trick is read one way."""
    if trick < len(talon):
        t = talon[trick]
        led = t >> 3
        if talon_competes:
            w = trick_winner_codes((t,) + table, trump, led)
            return (-1 if w == 0 else (leader + w - 1) % seats), 0
        w = trick_winner_codes(table, trump, led)
        if w < 0:
            w = trick_winner_codes(table, trump)
        return (leader + w) % seats, 0
    winner = (leader + trick_winner_codes(table, trump)) % seats
    return winner, winner


def _led_and_live(hands: Sequence[int], table: Tuple[int, ...], trick: int,
                  talon: Tuple[int, ...]) -> Tuple[int, int]:
    """The suit led to the current trick (-1: none yet) and the cards still live: in the hands,
    on the table, and the talon cards still to lead (they separate runs, since they can win)."""
    if table:
        led = table[0] >> 3
    elif trick < len(talon):
        led = talon[trick] >> 3
    else:
        led = -1
    live = 0
    for h in hands:
        live |= h
    for c in table:
        live |= 1 << c
    for t in talon[trick:]:
        live |= 1 << t
    return led, live


class Solver:
    """Solves positions of one game: a trump suit (−1: no trump), a target seat and whether the
    target is the high side. The transposition table lives as long as the solver, so the
    positions of one deal (after each trick, each alternative card) share it."""

    def __init__(self, trump: int, target: int, target_high: bool, talon: Sequence[int] = (),
                 talon_competes: bool = False, quick_tricks: Optional[bool] = None) -> None:
        self.trump = trump
        self.target = target
        self.target_high = target_high
        self.high = tuple((s == target) == target_high for s in range(3))
        self.talon = tuple(talon)
        self.talon_competes = talon_competes
        # quick tricks count the leader's sure winners: a bound on *his side's* tricks, which is
        # the target's count only when the target plays alone for tricks (a trick contract)
        self.quick = target_high if quick_tricks is None else quick_tricks
        self.tt: Dict[int, List[int]] = {}
        self.nodes = 0
        self._hands = [0, 0, 0]
        self._search = self._build()

    # -- the fast search at trick boundaries ---------------------------------------------------
    def _build(self):  # noqa: C901 - one closure, for speed: locals instead of attributes
        H = self._hands
        tt = self.tt
        trump = self.trump
        target = self.target
        high = self.high
        NEXT = _NEXT
        RUNS = _RUNS
        CODE = _CODE
        suit_runs = _suit_runs
        suit_code = _suit_code
        SM = SUIT_MASK
        use_quick = self.quick and True
        # a misère or an all-pass: everyone would rather not win a trick, so low cards first
        low_first = not self.target_high
        tmask = SM[trump] if trump >= 0 else 0
        solver = self

        def gen(h: int, live: int, led: int) -> List[int]:
            m = legal_mask(h, led, trump)
            others = live & ~h
            out: List[int] = []
            for s in (0, 1, 2, 3):
                hs = (m >> (8 * s)) & 0xFF
                if hs:
                    key = (s << 16) | (((others >> (8 * s)) & 0xFF) << 8) | hs
                    r = RUNS.get(key)
                    out.extend(r if r is not None else suit_runs(key))
            if low_first:
                out.reverse()
            return out

        def duck_first(moves: List[int], best: int) -> List[int]:
            """The target of a misère or all-pass, following: his highest card that stays under
            the trick's best card first, then the rest from the top."""
            bs = best >> 3
            under = [c for c in moves if (c >> 3) == bs and c < best]
            if not under:
                return moves[::-1]
            under.reverse()
            return under + [c for c in reversed(moves) if not ((c >> 3) == bs and c < best)]

        def quick_tricks(leader: int, h: int, live: int) -> int:
            """Sure tricks for the leader's side: his top cards cashed from the top."""
            others = live & ~h
            total = 0
            drawn = True
            if trump >= 0:
                ht = (h >> (8 * trump)) & 0xFF
                ot = (others >> (8 * trump)) & 0xFF
                top = 0
                r = 7
                while r >= 0:
                    bit = 1 << r
                    if ht & bit:
                        top += 1
                    elif ot & bit:
                        break
                    r -= 1
                omax = 0
                for p in (0, 1, 2):
                    if p != leader:
                        n = bin((H[p] >> (8 * trump)) & 0xFF).count("1")
                        if n > omax:
                            omax = n
                if top >= omax:
                    total = bin(ht).count("1")
                else:
                    total = top
                    drawn = False
            for s in (0, 1, 2, 3):
                if s == trump:
                    continue
                hs = (h >> (8 * s)) & 0xFF
                if not hs:
                    continue
                os_ = (others >> (8 * s)) & 0xFF
                top = 0
                r = 7
                while r >= 0:
                    bit = 1 << r
                    if hs & bit:
                        top += 1
                    elif os_ & bit:
                        break
                    r -= 1
                if not top:
                    continue
                # the longest holding of this suit among the others, and (trumps not drawn) the
                # shortest among those who could ruff
                omax = 0
                ruff = 9
                for p in (0, 1, 2):
                    if p == leader:
                        continue
                    hp = H[p]
                    n = bin((hp >> (8 * s)) & 0xFF).count("1")
                    if n > omax:
                        omax = n
                    if not drawn and hp & tmask and n < ruff:
                        ruff = n
                win = bin(hs).count("1") if top >= omax else top
                if not drawn and win > ruff:
                    win = ruff
                total += win
            return total

        def search(leader: int, need: int, left: int) -> bool:
            """Does the high side hold the target to at least `need` of the `left` tricks?"""
            if need <= 0:
                return True
            if need > left:
                return False
            solver.nodes += 1
            a, b, c = H
            if left == 1:
                c0 = H[leader].bit_length() - 1
                p1 = NEXT[leader]
                p2 = NEXT[p1]
                c1 = H[p1].bit_length() - 1
                c2 = H[p2].bit_length() - 1
                w, bc = leader, c0
                if (c1 >> 3) == (bc >> 3):
                    if c1 > bc:
                        w, bc = p1, c1
                elif (c1 >> 3) == trump:
                    w, bc = p1, c1
                if (c2 >> 3) == (bc >> 3):
                    if c2 > bc:
                        w = p2
                elif (c2 >> 3) == trump:
                    w = p2
                return w == target
            live = a | b | c
            k0 = (a & 0xFF) | ((b & 0xFF) << 8) | ((c & 0xFF) << 16)
            k1 = ((a >> 8) & 0xFF) | (((b >> 8) & 0xFF) << 8) | (((c >> 8) & 0xFF) << 16)
            k2 = ((a >> 16) & 0xFF) | (((b >> 16) & 0xFF) << 8) | (((c >> 16) & 0xFF) << 16)
            k3 = (a >> 24) | ((b >> 24) << 8) | ((c >> 24) << 16)
            x0 = CODE.get(k0)
            if x0 is None:
                x0 = suit_code(k0)
            x1 = CODE.get(k1)
            if x1 is None:
                x1 = suit_code(k1)
            x2 = CODE.get(k2)
            if x2 is None:
                x2 = suit_code(k2)
            x3 = CODE.get(k3)
            if x3 is None:
                x3 = suit_code(k3)
            key = (((x0 << 17 | x1) << 17 | x2) << 17 | x3) << 2 | leader
            e = tt.get(key)
            if e is not None:
                if e[0] >= need:
                    return True
                if e[1] < need:
                    return False
                best = e[2]
            else:
                e = [0, left, -1]
                tt[key] = e
                best = -1
            h0 = H[leader]
            if use_quick:
                q = quick_tricks(leader, h0, live)
                if q:
                    if leader == target:
                        if q >= need:
                            if need > e[0]:
                                e[0] = need
                            return True
                    elif left - q < need:
                        if need - 1 < e[1]:
                            e[1] = need - 1
                        return False
            p0 = leader
            p1 = NEXT[p0]
            p2 = NEXT[p1]
            hi0 = high[p0]
            hi1 = high[p1]
            hi2 = high[p2]
            h1 = H[p1]
            h2 = H[p2]
            moves = gen(h0, live, -1)
            if low_first and p0 != target and len(moves) > 1:
                # catchers lead: suits the target still holds first (he cannot discard), low first
                ht = H[target]
                moves.sort(key=lambda c: 0 if (ht >> (c & 24)) & 0xFF else 1)
            if best >= 0 and (h0 >> best) & 1 and best in moves:
                moves.remove(best)
                moves.insert(0, best)
            res0 = not hi0
            won = -1
            for c0 in moves:
                s = c0 >> 3
                H[p0] = h0 & ~(1 << c0)
                res1 = not hi1
                m1 = gen(h1, live, s)
                if low_first and p1 == target:
                    m1 = duck_first(m1, c0)
                for c1 in m1:
                    H[p1] = h1 & ~(1 << c1)
                    if (c1 >> 3) == s:
                        if c1 > c0:
                            w1, bc = p1, c1
                        else:
                            w1, bc = p0, c0
                    elif (c1 >> 3) == trump:
                        w1, bc = p1, c1
                    else:
                        w1, bc = p0, c0
                    bs = bc >> 3
                    res2 = not hi2
                    m2 = gen(h2, live, s)
                    if low_first and p2 == target:
                        m2 = duck_first(m2, bc)
                    for c2 in m2:
                        H[p2] = h2 & ~(1 << c2)
                        if (c2 >> 3) == bs:
                            w = p2 if c2 > bc else w1
                        elif (c2 >> 3) == trump:
                            w = p2
                        else:
                            w = w1
                        v = search(w, need - 1 if w == target else need, left - 1)
                        if v is hi2:
                            res2 = v
                            break
                    H[p2] = h2
                    if res2 is hi1:
                        res1 = res2
                        break
                H[p1] = h1
                if res1 is hi0:
                    res0 = res1
                    won = c0
                    break
            H[p0] = h0
            if res0:
                if need > e[0]:
                    e[0] = need
            elif need - 1 < e[1]:
                e[1] = need - 1
            if won >= 0:
                e[2] = won
            return res0

        return search

    # -- any position: mid-trick and talon tricks by plain recursion, then the fast search ---------
    def _probe(self, hands: List[int], leader: int, table: Tuple[int, ...], trick: int, need: int) -> bool:
        talon_trick = trick < len(self.talon)
        if len(table) == 3:
            winner, nxt = _trick_end(table, leader, trick, 3, self.talon, self.talon_competes, self.trump)
            return self._probe(hands, nxt, (), trick + 1, need - (1 if winner == self.target else 0))
        mover = (leader + len(table)) % 3
        left = popcount(hands[mover])
        if need <= 0:
            return True
        if need > left:
            return False
        if not table and not talon_trick:
            self._hands[:] = hands
            return self._search(leader, need, left)
        led, live = _led_and_live(hands, table, trick, self.talon)
        h = hands[mover]
        want = self.high[mover]
        for card in runs(h, legal_mask(h, led, self.trump), live):
            nh = list(hands)
            nh[mover] = h & ~(1 << card)
            v = self._probe(nh, leader, table + (card,), trick, need)
            if v == want:
                return v
        return not want

    def value(self, hands: Sequence[int], leader: int, table: Sequence[int] = (), trick: int = 0,
              guess: Optional[int] = None) -> int:
        """The target's tricks from this position on (the current trick included) with perfect
        play: `hands` the three seats' cards still held, `leader` the seat that led (or leads)
        the current trick, `table` the cards already played to it, `trick` the number of tricks
        already complete (it places the talon tricks of an all-pass)."""
        hands = list(hands)
        table = tuple(table)
        mover = (leader + len(table)) % 3
        left = popcount(hands[mover]) + (1 if len(table) == 3 else 0)   # a full table: its trick counts
        lo, hi = 0, left
        g = left // 2 if guess is None else max(0, min(left, guess))
        # zero-window probes from the guess: "at least g+1?" then up or down one at a time
        while lo < hi:
            if g < lo:
                g = lo
            if g >= hi:
                g = hi - 1
            if self._probe(hands, leader, table, trick, g + 1):
                lo = g + 1
                g += 1
            else:
                hi = g
                g -= 1
        return lo

    def at_least(self, hands: Sequence[int], leader: int, table: Sequence[int], trick: int, need: int) -> bool:
        """One zero-window probe: does the high side get the target at least `need` tricks?"""
        return self._probe(list(hands), leader, tuple(table), trick, need)


class HeadsUpSolver:
    """Two hands and two-card tricks: a husar all-pass, the dummy sitting out (HUSAR.md H15:
    "the two players play ten two-card tricks between them"). The same questions as
    :class:`Solver` asks of an all-pass (the target's fewest tricks against the other player;
    the talon leading the first tricks as the preset plays it), answered by an exact search:
    with two hands of ten cards the positions are few enough to keep every value."""

    def __init__(self, trump: int, target: int, talon: Sequence[int] = (), talon_competes: bool = False) -> None:
        self.trump = trump
        self.target = target
        self.target_high = False
        self.talon = tuple(talon)
        self.talon_competes = talon_competes
        self.tt: Dict[Tuple[int, int, int, int], int] = {}
        self.nodes = 0

    def _value(self, hands: Tuple[int, int], leader: int, table: Tuple[int, ...], trick: int) -> int:
        """The target's tricks from here on, the target taking as few as he can, the other as
        many for him as he can (the current trick included)."""
        talon_trick = trick < len(self.talon)
        if len(table) == 2:
            winner, nxt = _trick_end(table, leader, trick, 2, self.talon, self.talon_competes, self.trump)
            return (winner == self.target) + self._value(hands, nxt, (), trick + 1)
        mover = (leader + len(table)) % 2
        h = hands[mover]
        if not h:
            return 0
        key = (hands[0], hands[1], leader, trick if talon_trick else -1) if not table else None
        if key is not None:
            hit = self.tt.get(key)
            if hit is not None:
                return hit
        self.nodes += 1
        led, live = _led_and_live(hands, table, trick, self.talon)
        minimise = mover == self.target
        best: Optional[int] = None
        for card in runs(h, legal_mask(h, led, self.trump), live):
            nh = (h & ~(1 << card), hands[1]) if mover == 0 else (hands[0], h & ~(1 << card))
            v = self._value(nh, leader, table + (card,), trick)
            if best is None or (v < best if minimise else v > best):
                best = v
        assert best is not None
        if key is not None:
            self.tt[key] = best
        return best

    def value(self, hands: Sequence[int], leader: int, table: Sequence[int] = (), trick: int = 0,
              guess: Optional[int] = None) -> int:
        """As :meth:`Solver.value`, for two seats (`hands` may carry a third, empty entry)."""
        return self._value((hands[0], hands[1]), leader, tuple(table), trick)

    def at_least(self, hands: Sequence[int], leader: int, table: Sequence[int], trick: int, need: int) -> bool:
        return self.value(hands, leader, table, trick) >= need
