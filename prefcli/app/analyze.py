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

from typing import Any, List, Optional, Sequence, Tuple

from prefcli.app.analysis_model import (ALL_PASS_BOUND, ANALYSIS_FORMAT, Analysis, AnalysisError, AnalysisOptions,
                                        DealAnalysis, DealTask, Mistake, RecordAnalysis, SummaryDeal, card_text)
from prefcli.app.analysis_search import analyze_task
from prefcli.model.cards import DECK
from prefcli.model.diagnostics import PrefcliError, Problem
from prefcli.model.records import Deal, Record
from prefcli.rules.presets import Rules
from prefcli.rules.engine import DealReplay, conventions, replay_record, talon_leads
from prefcli.rules.play import opening_hands
from prefcli.rules.moves import card_code, mask_of
from prefcli.rules.solver import popcount

__all__ = ["AnalysisOptions", "DealTask", "Mistake", "DealAnalysis", "RecordAnalysis", "Analysis", "ANALYSIS_FORMAT",
           "prepare_tasks", "analyze_task", "analyze_record", "analyze_tasks", "card_text",
           "ALL_PASS_BOUND"]


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
    conv = conventions(rules)
    if c.is_all_pass and rep.dummy is not None and conv.allpass_dummy == "out":
        # a husar all-pass: the dummy sits out, two hands and two-card tricks (HUSAR.md H15)
        seats = tuple(p for p in seats if p != rep.dummy)
    idx = {p: i for i, p in enumerate(seats)}
    opening = opening_hands(rep, deal)          # the replay's own: talon taken, discard put away
    hands = [opening[p] for p in seats] + [0] * (3 - len(seats))
    talon = tuple(deal.talon)
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
        if len(own) != len(seats):
            why = ""
            if len(own) == 2 and rep.dummy is None:
                why = " (the lone whister played alone, whist_alone: his partner's cards were put away)"
            raise AnalysisError(f"deal {deal.number}: trick {t.number} is played by {len(own)} players{why}; "
                                f"double-dummy analysis needs all {len(seats)} hands in every trick",
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
                    raise AnalysisError(f"no deal {deal} (the record has {len(record.deals)} entries)",
                                        ("deals",))
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
