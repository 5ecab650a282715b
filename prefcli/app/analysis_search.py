"""The double-dummy analysis of one :class:`~prefcli.app.analysis_model.DealTask`: the value
from the opening lead and after each trick, the cards that cost a trick, the all-pass bounds and
the best discard (the search itself is :mod:`prefcli.rules.solver`)."""
from __future__ import annotations

import dataclasses
import itertools
import time
from prefcli.model.slots import dataclass
from typing import Any, Dict, List, Optional, Tuple, cast

from prefcli.app.analysis_model import STRAINS, DealAnalysis, DealTask, Mistake, card_text
from prefcli.rules.moves import legal_mask
from prefcli.rules.solver import HeadsUpSolver, Solver, runs


@dataclass
class _Pos:
    hands: List[int]
    leader: int
    table: Tuple[int, ...]
    trick: int
    n: int = 3                  # the hands that play (2 in a husar all-pass)

    def mover(self) -> int:
        return (self.leader + len(self.table)) % self.n

    def after(self, card: int) -> "_Pos":
        m = self.mover()
        hands = list(self.hands)
        hands[m] &= ~(1 << card)
        return _Pos(hands, self.leader, self.table + (card,), self.trick, self.n)


class _Game:
    """One solver and the position values it has given (a position is asked more than once)."""

    def __init__(self, task: DealTask, target: int, high: bool) -> None:
        self.task = task
        self.target = target
        n = len(task.seats)
        self.high_seat = tuple((s == target) == high for s in range(n))
        self.solver: Any = (Solver(task.trump, target, high, task.talon, task.talon_competes) if n == 3 else
                            HeadsUpSolver(task.trump, target, task.talon, task.talon_competes))
        self.solves = 0
        self.last: Optional[int] = None

    def value(self, pos: _Pos) -> int:
        self.solves += 1
        v = self.solver.value(pos.hands, pos.leader, pos.table, pos.trick, guess=self.last)
        self.last = v
        return v

    def keeps(self, pos: _Pos, card: int, v: int) -> bool:
        """Does playing `card` in `pos` keep the mover's side at `v` (the target's tricks)?"""
        nxt = pos.after(card)
        if self.high_seat[pos.mover()]:
            return self.solver.at_least(nxt.hands, nxt.leader, nxt.table, nxt.trick, v)
        return not self.solver.at_least(nxt.hands, nxt.leader, nxt.table, nxt.trick, v + 1)


def _led(task: DealTask, pos: _Pos) -> int:
    if pos.table:
        return pos.table[0] >> 3
    if pos.trick < len(task.talon):
        return task.talon[pos.trick] >> 3
    return -1


def _alternatives(task: DealTask, pos: _Pos, played: int) -> List[int]:
    m = pos.mover()
    h = pos.hands[m]
    live = pos.hands[0] | pos.hands[1] | pos.hands[2]
    for c in pos.table:
        live |= 1 << c
    for t in task.talon[pos.trick:]:
        live |= 1 << t
    legal = legal_mask(h, _led(task, pos), task.trump)
    out = []
    for c in runs(h, legal, live):
        # a card of the played card's run is the same card
        if c == played or (c >> 3 == played >> 3 and _same_run(h, live, c, played)):
            continue
        out.append(c)
    return out


def _same_run(h: int, live: int, a: int, b: int) -> bool:
    lo, hi = min(a, b), max(a, b)
    between = ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)
    return not (between & live & ~h)


def _walk(task: DealTask, game: _Game, want_mistakes: bool, phrase,
          only_seat: Optional[int] = None) -> Tuple[List[int], List[Mistake]]:
    """The target's double-dummy total after each complete recorded trick, and the cards that
    cost the mover's side: `phrase(seat, total)` turns the target's total into (whose result,
    that side's number, the words "the defence at 5")."""
    names = task.seats
    n = len(names)
    pos = _Pos(list(task.hands), 0, (), 0, n)
    taken = 0
    totals: List[int] = []
    mistakes: List[Mistake] = []
    v = game.value(pos)
    totals.append(taken + v)
    for ti, (leader, codes) in enumerate(task.tricks):
        pos = _Pos(pos.hands, leader, (), ti, n)
        for card in codes:
            m = pos.mover()
            nxt = pos.after(card)
            v2 = game.value(nxt)
            worse = v2 < v if game.high_seat[m] else v2 > v
            if worse and want_mistakes and (only_seat is None or m == only_seat):
                better = next((a for a in _alternatives(task, pos, card) if game.keeps(pos, a, v)), None)
                if better is not None:
                    who, kept, words = phrase(m, taken + v)
                    cost = abs(v - v2)
                    text = (f"trick {ti + 1}: {names[m]} {card_text(card)} — {card_text(better)} kept "
                            f"{words}; cost {cost}")
                    mistakes.append(Mistake(ti + 1, names[m], card_text(card), card_text(better), kept, cost,
                                            who, text))
            pos, v = nxt, v2
        if task.winners[ti] == game.target:
            taken += 1
            v -= 1
        pos = _Pos(pos.hands, pos.leader, (), ti + 1, n)
        totals.append(taken + v)
    return totals, mistakes


def _taken_after(task: DealTask, seat: int) -> List[int]:
    out, n = [0], 0
    for w in task.winners:
        n += w == seat
        out.append(n)
    return out


def _table(task: DealTask) -> Dict[str, int]:
    """The declarer's tricks with his hand after the discard, the first hand leading, in every
    strain, and in the misère (fewest tricks)."""
    assert task.declarer is not None
    out: Dict[str, int] = {}
    for strain in STRAINS:
        trump = strain.suit.order if strain.suit is not None else -1
        out[strain.letter] = Solver(trump, task.declarer, True).value(list(task.hands), 0)
    out["misere"] = Solver(-1, task.declarer, False).value(list(task.hands), 0)
    return out


def _best_discard(task: DealTask, keep_played: bool = False) -> Tuple[Dict[str, Any], Tuple[int, int]]:
    """The discard that does best in the played contract from the opening lead (most tricks,
    fewest in a misère); with `keep_played` (the discard is not recorded) only discards that
    keep every card the declarer played. Equivalent discards are solved once."""
    assert task.declarer is not None
    d = task.declarer
    high = task.kind == "contract"
    solver = Solver(task.trump, d, high)
    played = 0
    for leader, codes in task.tricks if keep_played else ():
        for j, c in enumerate(codes):
            if (leader + j) % 3 == d:
                played |= 1 << c
    others = task.hands[(d + 1) % 3] | task.hands[(d + 2) % 3]
    cards = [i for i in range(32) if (task.twelve >> i) & 1 and not (played >> i) & 1]
    seen = set()
    candidates: List[Tuple[int, int]] = []
    for a, b in itertools.combinations(cards, 2) if not task.fixed_discard else ():
        hand = task.twelve & ~(1 << a) & ~(1 << b)
        key = _shape(hand, others)
        if key in seen:
            continue
        seen.add(key)
        candidates.append((a, b))

    def hands_for(a: int, b: int) -> List[int]:
        hs = list(task.hands)
        hs[d] = task.twelve & ~(1 << a) & ~(1 << b)
        return hs

    result: Dict[str, Any] = {}
    best: Optional[Tuple[int, int]] = None
    best_v = -1
    if task.discard and task.discard_known:
        a, b = task.discard
        best_v = solver.value(hands_for(a, b), 0)
        best = (a, b)
        result["played"] = [card_text(a), card_text(b)]
        result["played_tricks"] = best_v
    for a, b in candidates:
        hs = hands_for(a, b)
        if best is None:
            best, best_v = (a, b), solver.value(hs, 0)
            continue
        if high and solver.at_least(hs, 0, (), 0, best_v + 1):
            best, best_v = (a, b), solver.value(hs, 0, guess=best_v + 1)
        elif not high and not solver.at_least(hs, 0, (), 0, best_v):
            best, best_v = (a, b), solver.value(hs, 0, guess=best_v - 1)
    assert best is not None
    result["best"] = [card_text(best[0]), card_text(best[1])]
    result["best_tricks"] = best_v
    result["discards_tried"] = len(candidates)
    return result, best


def _shape(hand: int, others: int) -> Tuple[int, ...]:
    """The declarer's hand up to equivalent cards: per suit, his cards as ranks among all cards
    still in play (his and the defenders')."""
    out = []
    for s in range(4):
        mine = (hand >> (8 * s)) & 0xFF
        theirs = (others >> (8 * s)) & 0xFF
        code = 1
        for r in range(7, -1, -1):
            if (mine >> r) & 1:
                code = code * 3 + 1
            elif (theirs >> r) & 1:
                code = code * 3 + 2
        out.append(code)
    return tuple(out)


def analyze_task(task: DealTask) -> DealAnalysis:
    """Analyse one deal (runs in a worker process under ``--jobs``)."""
    t0 = time.perf_counter()
    opts = task.options
    decl_name = task.seats[task.declarer] if task.declarer is not None else None
    out = DealAnalysis(task.pos, task.number, task.contract, task.kind, task.seats, decl_name,
                       len(task.tricks), talon_mode=task.talon_mode, played=task.played, level=task.level,
                       result=task.counts, claim=task.claim)
    if task.kind == "all-pass":
        per_seat: List[List[int]] = []
        seat_range = range(len(task.seats))      # three, or two in a husar all-pass (HUSAR.md H15)
        for seat in seat_range:
            game = _Game(task, seat, False)
            totals, mistakes = _walk(task, game, opts.mistakes,
                                     lambda m, total: (task.seats[m], total, f"{task.seats[m]} to at most {total}"),
                                     only_seat=seat)
            # an all-pass card is a mistake only for the bound of the player who played it
            out.mistakes.extend(mistakes)
            per_seat.append(totals)
            out.solves += game.solves
        out.tricks_dd = [{task.seats[s]: per_seat[s][i] for s in seat_range} for i in range(len(task.tricks) + 1)]
        taken = [_taken_after(task, s) for s in seat_range]
        out.taken = [{task.seats[s]: taken[s][i] for s in seat_range} for i in range(len(task.tricks) + 1)]
        out.mistakes.sort(key=lambda x: (x.trick, task.seats.index(x.player)))
    else:
        assert task.declarer is not None
        d = task.declarer
        if not task.discard:
            # the discard is unknown: analyse with the best one that keeps the cards he played
            info, best = _best_discard(task, keep_played=True)
            hands = tuple(task.twelve & ~(1 << best[0]) & ~(1 << best[1]) if s == d else task.hands[s]
                          for s in range(3))
            task = dataclasses.replace(task, hands=cast(Tuple[int, int, int], hands),  # range(3): three
                                       discard=tuple(best))
            out.discard = info
            out.discard["assumed"] = True
        high = task.kind == "contract"
        game = _Game(task, d, high)
        def phrase(m: int, total: int) -> Tuple[str, int, str]:
            if high and m != d:
                return "defence", 10 - total, f"the defence at {10 - total}"
            return task.seats[d], total, f"{task.seats[d]} at {total}"

        out.tricks_dd, out.mistakes = _walk(task, game, opts.mistakes, phrase)
        out.taken = _taken_after(task, d)
        out.solves += game.solves
        if opts.table:
            out.table = _table(task)
            out.solves += 6
        if opts.best_discard and out.discard is None:
            out.discard = _best_discard(task)[0]
    out.seconds = time.perf_counter() - t0
    return out

