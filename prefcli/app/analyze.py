"""Double-dummy analysis of recorded full deals (`prefcli analyze`).

What a strong player asks after a hard deal: with every card known, what would perfect play
have given from the opening lead, how did that change after each trick, and which card cost a
trick (and which card would have kept the result). The deal is read through the engine's replay
(one reading: seats, first hand, the declarer's hand after the discard, the all-pass talon), so
only a legal deal is analysed; the search itself is :mod:`prefcli.rules.solver`.

The three kinds of deal:

- a trick contract: the declarer's tricks, the declarer maximising, the defenders minimising;
- a misère: the declarer's tricks, the declarer minimising, the catchers maximising;
- an all-pass: for each player the fewest tricks he can be sure of taking when the other two
  play together against him (a bound, not a prediction: three different worst cases), with the
  first tricks led from the talon as the preset plays them.

The work is split into a picklable :class:`DealTask` (plain masks and names, built here from the
replay) and :func:`analyze_task`, so ``--jobs`` can hand deals to worker processes and get the
same answers.

Library code: no click, no I/O.
"""
from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

from prefcli.model.cards import DECK, Strain
from prefcli.model.diagnostics import PrefcliError, Problem
from prefcli.model.records import Deal, Record
from prefcli.rules.presets import Rules
from prefcli.rules.engine import DealReplay, conventions, replay_record, talon_leads
from prefcli.rules.play import opening_hands
from prefcli.rules.moves import card_code, legal_mask, mask_of
from prefcli.rules.solver import Solver, popcount, runs

__all__ = ["AnalysisOptions", "DealTask", "Mistake", "DealAnalysis", "RecordAnalysis", "Analysis", "ANALYSIS_FORMAT",
           "prepare_tasks", "analyze_task", "analyze_record", "analyze_tasks", "card_text",
           "ALL_PASS_BOUND"]

ALL_PASS_BOUND = ("each number is the most tricks that player must take when he plays his best "
                  "and the other two play together against him (his worst case, not a forecast)")
STRAINS = (Strain.S, Strain.C, Strain.D, Strain.H, Strain.NT)


class AnalysisError(PrefcliError):
    """A deal that cannot be analysed (a summary deal, an unknown discard, a two-handed play)."""

    kind = "rule"


class SummaryDeal(AnalysisError):
    """A deal recorded as its result only (no cards)."""


@dataclass(frozen=True)
class AnalysisOptions:
    table: bool = False             # the declarer's tricks in every strain and the misère
    best_discard: bool = False      # also find the discard that does best in the played contract
    mistakes: bool = True


def card_text(code: int) -> str:
    """A card as players write it in an analysis: rank and suit symbol (7♥, 10♠)."""
    c = DECK[code]
    return f"{c.rank.letter}{c.suit.symbol}"


@dataclass
class DealTask:
    """One deal ready for the solver: seats in playing order from the first hand, hands as
    masks (the declarer's after his discard), the recorded tricks as (leader seat, codes)."""

    pos: int
    number: int
    seats: Tuple[str, ...]
    contract: str
    kind: str                                   # "contract" | "misere" | "all-pass"
    trump: int
    declarer: Optional[int]                     # seat index; None in an all-pass
    hands: Tuple[int, int, int]
    tricks: Tuple[Tuple[int, Tuple[int, ...]], ...]
    winners: Tuple[int, ...]                    # seat index of each recorded trick's winner (−1 nobody)
    talon: Tuple[int, ...] = ()                 # all-pass: the cards that lead the first tricks
    talon_competes: bool = False
    talon_mode: str = "unused"
    twelve: int = 0                             # the declarer's hand and the talon (for discards)
    discard: Tuple[int, ...] = ()
    discard_known: bool = True
    fixed_discard: bool = False                 # without the talon: the "discard" is the talon itself
    played: bool = True
    claim: Optional[Dict[str, int]] = None
    counts: Optional[Dict[str, int]] = None       # the recorded result (play and claim)
    level: int = 0
    options: AnalysisOptions = AnalysisOptions()


@dataclass
class Mistake:
    trick: int                                  # 1-based
    player: str
    card: str
    better: str
    kept: int                                   # the result the better card kept (see `side`)
    cost: int
    side: str                                   # whose result: "declarer", "defence", or a name
    text: str = ""

    def as_dict(self) -> Dict[str, Any]:
        return {"trick": self.trick, "player": self.player, "card": self.card, "better": self.better,
                "kept": self.kept, "side": self.side, "cost": self.cost, "text": self.text}


@dataclass
class DealAnalysis:
    pos: int
    number: int
    contract: str
    kind: str
    seats: Tuple[str, ...]
    declarer: Optional[str]
    tricks_recorded: int
    tricks_dd: List[Any] = field(default_factory=list)      # ints, or {player: bound} in an all-pass
    taken: List[Any] = field(default_factory=list)
    mistakes: List[Mistake] = field(default_factory=list)
    table: Optional[Dict[str, int]] = None
    discard: Optional[Dict[str, Any]] = None
    talon_mode: str = "unused"
    played: bool = True
    level: int = 0
    result: Optional[Dict[str, int]] = None
    claim: Optional[Dict[str, int]] = None
    solves: int = 0
    seconds: float = 0.0

    def as_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "index": self.pos, "number": self.number, "contract": self.contract, "kind": self.kind,
            "seats": list(self.seats), "declarer": self.declarer, "tricks_recorded": self.tricks_recorded,
            "tricks_dd": self.tricks_dd, "taken": self.taken,
            "mistakes": [m.as_dict() for m in self.mistakes],
        }
        if self.result is not None:
            out["result"] = self.result
        if self.kind == "all-pass":
            out["bound"] = ALL_PASS_BOUND
            out["talon"] = self.talon_mode
        if not self.played:
            out["played"] = False
        if self.table is not None:
            out["table"] = self.table
        if self.discard is not None:
            out["discard"] = self.discard
        return out


@dataclass
class RecordAnalysis:
    deals: List[DealAnalysis] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)


ANALYSIS_FORMAT = "pref-analysis/1"


@dataclass
class Analysis:
    """The report of ``prefcli analyze``: each analysed deal with the file it came from (None
    when one file was read), and the deals refused, as located problems."""

    items: List[Tuple[Optional[str], DealAnalysis]] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)

    def document(self, **_options: Any) -> Dict[str, Any]:
        """The ``pref-analysis/1`` document (schemas/analysis.schema.json)."""
        deals = []
        for name, a in self.items:
            d = a.as_dict()
            if name is not None:
                from prefcli.model.values import display_name
                d = {"file": display_name(name), **d}
            deals.append(d)
        return {"format": ANALYSIS_FORMAT, "deals": deals, "problems": [p.as_dict() for p in self.problems]}


# ---------------------------------------------------------------------------------------------
# From a replayed deal to a task
# ---------------------------------------------------------------------------------------------

def _summary_message(deal: Deal) -> str:
    what = "the hands of all three players and the talon"
    if deal.contract.is_tricks or deal.contract.is_misere:
        what = "the hands of all three players, the talon, and the declarer's discard (or --discard best)"
    return (f"deal {deal.number}: a summary deal ({deal.contract}) cannot be analysed: double-dummy "
            f"analysis needs the full deal: {what}; the play is optional")


def task_from_replay(record: Record, rep: DealReplay, rules: Rules, options: AnalysisOptions) -> DealTask:
    """The solver's view of one replayed deal; raises :class:`AnalysisError` when the deal is
    not one to analyse."""
    deal = rep.deal
    path = ("deals", deal.pos)
    if rep.unplayable:
        p = rep.unplayable[0]
        raise AnalysisError(f"deal {deal.number}: cannot be analysed: {p.message}", p.path)
    if rep.problems:
        p = rep.problems[0]
        raise AnalysisError(f"deal {deal.number}: cannot be analysed, the deal is not legal: {p.message}", p.path)
    if rep.hands is None or deal.talon is None:
        raise SummaryDeal(_summary_message(deal), path)
    c = rep.contract or deal.contract
    seats = tuple(rep.seats)
    idx = {p: i for i, p in enumerate(seats)}
    opening = opening_hands(rep, deal)          # the replay's own: talon taken, discard put away
    hands = [opening[p] for p in seats]
    talon = tuple(deal.talon)
    conv = conventions(rules)
    four = len(record.players) > len(seats)     # someone sits out (the dealer with 4 or 5): the table's
    trump = c.trump.order if (c.is_tricks and c.trump is not None) else -1
    kind = "contract" if c.is_tricks else ("misere" if c.is_misere else "all-pass")
    decl: Optional[int] = None
    twelve = 0
    discard: Tuple[int, ...] = ()
    discard_known = True
    talon_codes: Tuple[int, ...] = ()
    mode = "unused"
    competes = False
    if kind == "all-pass":
        mode, n = talon_leads(conv, c, talon, four)
        talon_codes = tuple(card_code(x) for x in talon[:n])
        competes = mode == "dealer-plays"
    else:
        if rep.declarer not in idx:
            raise AnalysisError(f"deal {deal.number}: cannot be analysed without the declarer", path)
        decl = idx[rep.declarer]
        if c.without_talon and len(talon) == 2:
            # a misère or a 9 without the talon (misere_without_talon): his ten cards are his
            # hand, and the talon is what he "put away"; there is no discard to choose
            discard = tuple(card_code(x) for x in talon)
            twelve = hands[decl] | mask_of(talon)
        elif rep.discard is not None:
            discard = tuple(card_code(x) for x in rep.discard)
            twelve = hands[decl] | mask_of(rep.discard)
        else:
            twelve = hands[decl]                # no discard given: the replay lets him hold twelve
            discard_known = False
            played_by_decl = 0
            for t in rep.tricks:
                for who, card in t.cards:
                    if who == rep.declarer:
                        played_by_decl |= 1 << card_code(card)
            rest = twelve & ~played_by_decl
            if popcount(rest) == 2:
                discard = tuple(i for i in range(32) if (rest >> i) & 1)
                discard_known = True
            elif not options.best_discard:
                raise AnalysisError(f"deal {deal.number}: the discard is not recorded and the play does not "
                                    "show it: give discard: (the two cards the declarer put away), or use "
                                    "--discard best", path + ("discard",))
        if discard and rep.discard is None:
            hands[decl] = twelve & ~mask_of(DECK[x] for x in discard)
    tricks: List[Tuple[int, Tuple[int, ...]]] = []
    winners: List[int] = []
    for t in rep.tricks:
        own = [(who, card) for who, card in t.cards if who in idx]
        if len(own) != 3:
            why = ""
            if len(own) == 2:
                why = (" (a husar all-pass: the dummy sits out, HUSAR.md H15)" if rep.dummy is not None else
                       " (the lone whister played alone, whist_alone: his partner's cards were put away)")
            raise AnalysisError(f"deal {deal.number}: trick {t.number} is played by {len(own)} players{why}; "
                                "double-dummy analysis needs all three hands in every trick",
                                path + ("play", t.number - 1))
        tricks.append((idx[own[0][0]], tuple(card_code(x) for _, x in own)))
        winners.append(idx[t.winner] if t.winner in idx else -1)
    return DealTask(
        pos=deal.pos, number=rep.number, seats=seats, contract=str(c), kind=kind, trump=trump,
        declarer=decl, hands=(hands[0], hands[1], hands[2]), tricks=tuple(tricks), winners=tuple(winners),
        talon=talon_codes, talon_competes=competes, talon_mode=mode, twelve=twelve, discard=discard,
        discard_known=discard_known, fixed_discard=c.without_talon, played=rep.played, claim=rep.claim,
        counts=dict(rep.counts) if rep.counts is not None else (deal.tricks_map() or None),
        level=c.level or 0, options=options)


def prepare_tasks(record: Record, rules: Rules, options: AnalysisOptions,
                  only: Optional[Sequence[int]] = None) -> Tuple[List[DealTask], List[Problem]]:
    """Tasks for every full deal of the record (or those whose pos is in `only`), and a problem
    for every deal refused (a summary deal says what it lacks)."""
    tasks: List[DealTask] = []
    problems: List[Problem] = []
    wanted = set(only) if only is not None else None
    summaries = 0
    for rep in replay_record(record, rules, only=wanted):
        try:
            tasks.append(task_from_replay(record, rep, rules, options))
        except SummaryDeal as exc:
            summaries += 1
            problems.append(exc.problem())
        except PrefcliError as exc:
            problems.append(exc.problem())
    if summaries > 1 and summaries == len(problems) and not tasks:
        # a record of results only: one line, not one per deal
        first = problems[0]
        problems = [Problem(f"no full deal to analyse ({summaries} summary deals): double-dummy analysis "
                            "needs full deals: the hands of all three players, the talon, and for a contract "
                            "or misère the declarer's discard (or --discard best)", first.path, kind=first.kind)]
    return tasks, problems


# ---------------------------------------------------------------------------------------------
# The analysis of one task
# ---------------------------------------------------------------------------------------------

@dataclass
class _Pos:
    hands: List[int]
    leader: int
    table: Tuple[int, ...]
    trick: int

    def mover(self) -> int:
        return (self.leader + len(self.table)) % 3

    def after(self, card: int) -> "_Pos":
        m = self.mover()
        hands = list(self.hands)
        hands[m] &= ~(1 << card)
        return _Pos(hands, self.leader, self.table + (card,), self.trick)


class _Game:
    """One solver and the position values it has given (a position is asked more than once)."""

    def __init__(self, task: DealTask, target: int, high: bool) -> None:
        self.task = task
        self.target = target
        self.high_seat = tuple((s == target) == high for s in range(3))
        self.solver = Solver(task.trump, target, high, task.talon, task.talon_competes)
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
    pos = _Pos(list(task.hands), 0, (), 0)
    taken = 0
    totals: List[int] = []
    mistakes: List[Mistake] = []
    v = game.value(pos)
    totals.append(taken + v)
    for ti, (leader, codes) in enumerate(task.tricks):
        pos = _Pos(pos.hands, leader, (), ti)
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
        pos = _Pos(pos.hands, pos.leader, (), ti + 1)
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
        for seat in range(3):
            game = _Game(task, seat, False)
            totals, mistakes = _walk(task, game, opts.mistakes,
                                     lambda m, total: (task.seats[m], total, f"{task.seats[m]} to at most {total}"),
                                     only_seat=seat)
            # an all-pass card is a mistake only for the bound of the player who played it
            out.mistakes.extend(mistakes)
            per_seat.append(totals)
            out.solves += game.solves
        out.tricks_dd = [{task.seats[s]: per_seat[s][i] for s in range(3)} for i in range(len(task.tricks) + 1)]
        taken = [_taken_after(task, s) for s in range(3)]
        out.taken = [{task.seats[s]: taken[s][i] for s in range(3)} for i in range(len(task.tricks) + 1)]
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


def analyze_tasks(tasks: Sequence[DealTask], jobs: int = 1, executor: Any = None,
                  progress: Optional[Any] = None) -> List[DealAnalysis]:
    """Every task, in order: here, in `jobs` local worker processes, or on `executor` (an
    :class:`prefcli.app.executors.Executor`); the same answers whichever. `progress(done,
    total)` is called as deals finish."""
    from prefcli.app.executors import make_executor
    total = len(tasks)
    out: List[DealAnalysis] = []
    own = executor is None
    ex = executor if executor is not None else make_executor(None, min(jobs, total) if total > 1 else 1)
    try:
        for a in ex.map(analyze_task, tasks, chunk=1):
            out.append(a)
            if progress is not None:
                progress(len(out), total)
    finally:
        if own:
            ex.close()
    return out


def analyze_record(record: Record, rules: Rules, options: AnalysisOptions = AnalysisOptions(),
                   only: Optional[Sequence[int]] = None, jobs: int = 1) -> RecordAnalysis:
    """Analyse every full deal of a record; refused deals become problems."""
    tasks, problems = prepare_tasks(record, rules, options, only)
    return RecordAnalysis(analyze_tasks(tasks, jobs), problems)


def analyze_inputs(sources: Sequence[str], options: AnalysisOptions = AnalysisOptions(),
                   variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = (),
                   deal: Optional[int] = None, jobs: int = 1, executor: Any = None,
                   progress: Optional[Any] = None) -> Analysis:
    """The analysis of every full deal of every source (files or ``-``), in input order; every
    refused deal and unreadable file a located problem. `deal` (1-based) picks one deal.

    The records are read and replayed here; only the solving goes to the workers."""
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.diagnostics import InputError
    from prefcli.rules.presets import resolve_rules

    many = len(sources) > 1
    problems: List[Problem] = []
    queued: List[Tuple[Optional[str], DealTask]] = []
    for source in sources:
        doc = None
        try:
            doc = load_document(source)
            record = build_record_fast(doc)
            rules = resolve_rules(record.rules, variant=variant, sets=list(sets))
            only = None
            if deal is not None:
                only = [deal - 1]
                if not any(isinstance(e, Deal) and e.pos == deal - 1 for e in record.deals):
                    raise AnalysisError(f"no deal {deal} (the record has {len(record.deals)} entries)")
            tasks, refused = prepare_tasks(record, rules, options, only)
        except InputError as exc:
            problems.extend(p if p.file else p.at(file=source) for p in exc.problems)
            continue
        except PrefcliError as exc:
            if exc.is_usage:     # a bad --set or --variant is the command line's fault
                raise
            problems.append(doc.place(exc) if doc is not None else exc.problem().at(file=source))
            continue
        except (OSError, UnicodeError) as exc:
            problems.append(Problem(f"cannot read: {exc}", (), source))
            continue
        problems.extend(doc.place(p) for p in refused)
        queued.extend((doc.name if many else None, t) for t in tasks)
    results = analyze_tasks([t for _, t in queued], jobs=jobs, executor=executor, progress=progress)
    return Analysis([(name, a) for (name, _), a in zip(queued, results)], problems)


def analyze_report(report: Any, options: AnalysisOptions = AnalysisOptions(), jobs: int = 1) -> None:
    """Fill in the analyses of every game of a :class:`prefcli.app.report.Report` from the
    replays it already holds (``prefcli report --analyze``); deals that cannot be analysed are
    left out (``prefcli analyze`` says why)."""
    for game in report.games:
        result = getattr(game.loaded, "result", None)
        if not game.replays or result is None:
            continue
        tasks = []
        for rep in game.replays:
            try:
                tasks.append(task_from_replay(result.record, rep, result.rules, options))
            except PrefcliError:
                continue
        game.analyses = analyze_tasks(tasks, jobs=jobs)
