"""Settling inputs (``prefcli settle``) as library functions.

:func:`settle` is the whole pipeline of the command: which inputs (a tournament file's
``inputs:`` honoured, alone or in a folder), each one loaded and settled (in this process or in
workers), the totals per player name, the tournament standings; it returns a
:class:`SettleReport` whose :meth:`~SettleReport.document` is the ``pref-settlement/1`` document
(``schemas/settlement.schema.json``). Nothing is printed; problems are located
:class:`~prefcli.model.diagnostics.Problem` s on the report, one bad input never stops a batch.

:func:`settle_source` and :func:`settle_many` are the per-file and batch steps underneath.
"""
from __future__ import annotations

import gc
import os
from dataclasses import replace
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import PrefcliError, Problem
from prefcli.model.records import TOURNAMENT_FORMAT
from prefcli.settle.results import InputResult, SettleOptions, Settled, Summary, settle_document, summarize
from prefcli.settle.tournament import Band, Tournament, standings as make_standings, tournament_from_data
from prefcli.app.settle_input import _locate, _settle_rendered, _settle_worker, settle_source  # noqa: F401 - re-exported

Progress = Optional[Callable[[int, int], None]]


def settle_many(sources: Sequence[str], options: SettleOptions, jobs: int = 1, strict: bool = False,
                progress: Optional[Callable[[int, int], None]] = None) -> List[InputResult]:
    """Settle every source, in input order; `jobs` > 1 uses worker processes.

    The results are the same whatever `jobs` is (each input is settled on its own, exactly).
    With `strict` the batch stops at the first bad input (in input order) and returns the results
    up to and including it.
    """
    out: List[InputResult] = []
    for r in settle_iter(sources, options, jobs, progress):
        out.append(r)
        if strict and r.failed:
            break
    return out


def settle_iter(sources: Sequence[str], options: SettleOptions, jobs: int = 1,
                progress: Optional[Callable[[int, int], None]] = None,
                executor: Optional[str] = None,
                render: Optional[Callable[[InputResult], Any]] = None) -> Iterator[Any]:
    """Every source settled, in input order, one result at a time (nothing is kept here): in
    this process, in `jobs` worker processes, or on `executor` (``dask[:ADDRESS]``). Stopping
    the iteration early stops the workers. The `jobs` − 1 workers are forked only as cores are
    measured idle (:class:`~prefcli.app.workers.IdleProbe`): on a machine with none to spare,
    they would share this process's core and only add their own cost.

    Each result is an :class:`InputResult`; with `render` (a picklable function of one, run
    where the input was settled) a :class:`~prefcli.settle.results.Settled` carrying what it
    returned, so a worker sends back its input's rendered output, not the settlement."""
    if executor is not None:
        yield from _executor_iter(sources, options, jobs, progress, executor, render)
        return
    sources = list(sources)
    total = len(sources)
    done = [0]

    def step(r: Any) -> Any:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)
        if done[0] % 64 == 0:
            # the collector is paused (below), but what the caller renders and forgets may
            # leave reference cycles (json's encoder does): the young ones, every 64 inputs,
            # keep a streamed batch flat without rescanning what it keeps
            gc.collect(0)
        return r

    # A batch allocates millions of short-lived objects (YAML nodes, Fractions) while the results
    # pile up; the cyclic collector would rescan those results again and again (~10% of the
    # time). Reference counting frees everything that matters; collect once at the end.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        if jobs <= 1 or total <= 1 or "-" in sources:
            if render is not None:
                for s in sources:
                    yield step(Settled.of(settle_source(s, options), render))
                return
            for s in sources:
                yield step(settle_source(s, options))
            return
        from prefcli.app.executors import IdleProbe, LocalProcesses
        # The first input is settled here before the workers fork: what it imports and caches
        # (a third of the reading and scoring stack is imported at first need, the presets'
        # tables are made once) is then shared by the forks instead of made again in each.
        # This process takes part in the map (jobs - 1 forks): on two cores, two processes.
        # The workers are forked when a core is measured idle while this process settles
        # (from the first input on): on a machine with none to spare, one process does it all.
        probe = IdleProbe()
        items: List[Any] = [(s, options, render) for s in sources] if render is not None else \
            [(s, options) for s in sources]
        worker: Callable[[Any], Any] = _settle_rendered if render is not None else _settle_worker
        first = worker(items[0])
        yield step(first)
        chunk = max(1, min(16, total // (jobs * 8) or 1))
        with LocalProcesses(min(jobs, total), here=True, when_idle=probe) as pool:
            for r in pool.map(worker, items[1:], chunk):
                yield step(r)
    finally:
        if was_enabled:
            gc.enable()


def _executor_iter(sources: Sequence[str], options: SettleOptions, jobs: int, progress: Progress,
                   executor: str, render: Optional[Callable[[InputResult], Any]] = None) -> Iterator[Any]:
    from prefcli.app.batch import settle_stream
    from prefcli.app.executors import ExecutorError, make_executor
    try:
        ex = make_executor(executor, jobs)
    except ExecutorError as exc:
        raise SettleUsageError(exc.message) from None
    done = 0
    with ex:
        for r in settle_stream(sources, options, ex, render):
            done += 1
            if progress is not None:
                progress(done, len(sources))
            yield r


# ---------------------------------------------------------------------------------------------
# Which inputs: a tournament file's `inputs:` honoured wherever the file is given
# ---------------------------------------------------------------------------------------------

class SettleUsageError(PrefcliError):
    """A request that cannot be carried out whatever the files say (exit 2)."""

    kind = "usage"


def _sniff_tournament(path: str) -> bool:
    """Cheaply: could this file be a pref-tournament/1 document? (confirmed by loading it)."""
    from prefcli.io.tournament import looks_like_tournament
    return looks_like_tournament(path)


_STDIN_SEEN: List[bytes] = []


def _stdin_holds_tournament() -> bool:
    """Could standard input be a pref-tournament/1 document? Read ahead (and kept for its
    reader), so a tournament piped in lists its inputs as a named file does (relative to the
    current folder: stdin has none)."""
    from prefcli.io.documents import peek_stdin
    head = peek_stdin()
    _STDIN_SEEN[:] = [head]
    return b"pref-tournament/" in head[:65536]


def _unread_stdin() -> None:
    """Give standard input back to its next reader (it was not a tournament after all)."""
    from prefcli.io.documents import unread_stdin
    if _STDIN_SEEN:
        unread_stdin(_STDIN_SEEN.pop())


def check_listed(path: str, t: Tournament) -> Tournament:
    """`t` when every input it lists can be one of its rounds; else a located InputError (exit
    1, before anything is settled), as validate reports it. settle, stats, rating and report
    read a tournament's list through here."""
    from prefcli.io.tournament import listed_input_problems
    problems = listed_input_problems(t, path)
    if problems:
        from prefcli.model.diagnostics import InputError
        if path == "-":                 # read once already: placed by path only
            raise InputError([Problem(message, where, "<stdin>") for where, message in problems])
        from prefcli.io.documents import load_document
        doc = load_document(path)
        raise InputError([doc.problem(where, message) for where, message in problems])
    return t


def load_tournament(path: str) -> Tournament:
    """A pref-tournament/1 file; raises a located InputError when it is not one."""
    from prefcli.io.documents import load_document
    from prefcli.model.diagnostics import InputError
    from prefcli.settle.methods import SettlementError
    doc = load_document(path)
    try:
        return tournament_from_data(doc.data, os.path.dirname(path) if path != "-" else "")
    except SettlementError as exc:
        raise InputError([doc.place(exc)]) from None


def _identity(path: str) -> Any:
    """What makes two names the same file (device and inode), else the absolute name."""
    try:
        st = os.stat(path)
        return (st.st_dev, st.st_ino)
    except OSError:
        return os.path.abspath(path)


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


@dataclass(frozen=True)
class Plan:
    """The inputs to settle and the tournament (file) that governs the standings, if any."""

    sources: List[str]
    tournament: Optional[Tournament] = None
    tournament_file: Optional[str] = None

    @property
    def read(self) -> List[str]:
        """Every file read (what an output must never overwrite)."""
        return self.sources + ([self.tournament_file] if self.tournament_file else [])


def plan_inputs(inputs: Sequence[str], tournament_file: Optional[str] = None) -> Plan:
    """Expand the inputs; a tournament file among them (or `tournament_file`) is not settled but
    governs the standings, and when it lists ``inputs:`` those are settled in its place: a file
    alone settles what it lists, a folder settles what its tournament lists. Other inputs given
    beside it are settled too. More than one tournament is a usage error."""
    from prefcli.app.inputs import NoInputs, check_stdin_once, expand_inputs
    check_stdin_once(inputs)
    found: List[Tuple[str, Tournament]] = []
    if tournament_file is not None:
        found.append((tournament_file, check_listed(tournament_file, load_tournament(tournament_file))))
    sources: List[str] = []
    for arg in inputs:
        files = expand_inputs([arg])
        tours = [f for f in files if _sniff_tournament(f) or (f == "-" and _stdin_holds_tournament())]
        confirmed: List[Tuple[str, Tournament]] = []
        for f in tours:
            if tournament_file is not None and _same(f, tournament_file):
                files = [x for x in files if x != f]
                continue
            try:
                confirmed.append((f, load_tournament(f)))
            except PrefcliError:
                if f == "-":
                    _unread_stdin()
                continue            # not a tournament after all (or a broken one): settled as given
            files = [x for x in files if x != f]
        for f, t in confirmed:
            found.append((f, check_listed(f, t)))
            if t.inputs:
                if os.path.isdir(arg):  # the folder settles what its tournament lists
                    files = []
                files = files + list(t.inputs)
        sources.extend(files)
    if len(found) > 1:
        names = ", ".join(f for f, _ in found)
        raise SettleUsageError(f"more than one tournament file ({names}); give one, or choose with --tournament")
    if tournament_file is not None and not inputs and found[0][1].inputs:
        sources = list(found[0][1].inputs)
    seen: List[str] = []
    keys = set()
    for s in sources:                   # each file once (a listed input also in the folder)
        if s != "-":
            key = _identity(s)
            if key in keys:
                continue
            keys.add(key)
        seen.append(s)
    if not seen and not found:
        raise NoInputs("give one or more files, folders, or - for stdin")
    if not seen:      # a fact of the file, not of the command line: exit 1, placed in it
        from prefcli.model.diagnostics import InputError, Problem
        raise InputError([Problem("a tournament file with no inputs: list them under inputs:, or give the "
                                  "rounds beside it", (), found[0][0], 1, 1)])
    t_file, tournament = found[0] if found else (None, None)
    return Plan(seen, tournament, t_file)


# ---------------------------------------------------------------------------------------------
# The pipeline
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StandingsRequest:
    """Tournament options from the command line (they override the tournament file's)."""

    bands: Tuple[Band, ...] = ()
    losses: Optional[str] = None
    cap: Optional[Fraction] = None
    floor: Optional[Fraction] = None
    always: bool = False                # standings even without bands, cap or floor

    def overrides(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        if self.bands:
            out["bands"] = self.bands
        if self.losses is not None:
            out["losses"] = self.losses
        if self.cap is not None:
            out["cap"] = abs(self.cap)
        if self.floor is not None:
            out["floor"] = self.floor
        return out


@dataclass(frozen=True)
class SettleReport:
    """Every input settled (or its problems), the totals, and the standings when asked for."""

    results: List[InputResult]
    summary: Optional[Summary]
    tournament: Optional[Tournament] = None
    plan: Optional[Plan] = None
    stopped: bool = False               # --strict stopped at a bad input

    @property
    def good(self) -> List[InputResult]:
        return [r for r in self.results if r.ok]

    @property
    def bad(self) -> List[InputResult]:
        return [r for r in self.results if r.failed]

    @property
    def problems(self) -> List[Problem]:
        return [p for r in self.bad for p in r.problems]

    @property
    def ok(self) -> bool:
        return bool(self.good) and not self.bad

    def document(self) -> Dict[str, Any]:
        """The ``pref-settlement/1`` document (schemas/settlement.schema.json)."""
        from prefcli.settle.document import settlement_document
        if self.summary is None:
            raise ValueError("nothing was settled")
        return settlement_document(self.good, self.summary, self.bad, self.tournament)


def _run(sources: Sequence[str], options: SettleOptions, jobs: int, strict: bool, progress: Progress,
         executor: Optional[str]) -> List[InputResult]:
    out: List[InputResult] = []
    for r in settle_iter(sources, options, jobs, progress, executor):
        out.append(r)
        if strict and r.failed:
            break
    return out


def priced_by(options: SettleOptions, tournament: Optional[Tournament]) -> SettleOptions:
    """The options with the tournament's price and coin where they give none (the options, as
    given on the command line, win): the whole report and the streamed one price alike."""
    if tournament is not None:
        if options.price is None and tournament.price is not None:
            options = replace(options, price=tournament.price)
        if options.coin is None and tournament.coin is not None:
            options = replace(options, coin=tournament.coin)
    return options


def settle(inputs: Sequence[str], options: SettleOptions = SettleOptions(), *,
           tournament_file: Optional[str] = None, standings: StandingsRequest = StandingsRequest(),
           jobs: int = 1, strict: bool = False, progress: Progress = None,
           executor: Optional[str] = None, plan: Optional[Plan] = None) -> SettleReport:
    """Settle records and sheets (files, folders, ``-``): the ``prefcli settle`` pipeline.

    A tournament file (among the inputs or `tournament_file`) gives the standings rules, its
    price and coin where `options` give none, and, when it lists ``inputs:``, the inputs.
    Raises a usage error (kind ``usage``) for no inputs or two tournaments; a bad input is a
    failed result in the report, not an exception.
    """
    plan = plan or plan_inputs(inputs, tournament_file)
    tournament = plan.tournament
    options = priced_by(options, tournament)
    results = _run(plan.sources, options, jobs, strict, progress, executor)
    found = [r.tournament for r in results if r.tournament is not None]
    results = [r for r in results if r.kind != "tournament"]
    if found:                           # a tournament read from stdin, say: too late to plan for
        if tournament is not None or len(found) > 1:
            raise SettleUsageError("more than one tournament file among the inputs; choose one with --tournament")
        tournament = found[0]
        price_ = tournament.price if options.price is None else None
        coin_ = tournament.coin if options.coin is None else None
        if price_ is not None or coin_ is not None:
            from prefcli.settle.results import reprice
            results = [reprice(r, price_, coin_) for r in results]
            options = replace(options, price=options.price if options.price is not None else price_,
                              coin=options.coin if options.coin is not None else coin_)
    overrides = standings.overrides()
    if overrides or standings.always:
        tournament = replace(tournament or Tournament(), **overrides)
    good = [r for r in results if r.ok]
    stopped = strict and any(r.failed for r in results)
    if not good:
        if not any(r.failed for r in results):
            raise SettleUsageError("no records or sheets among the inputs")
        return SettleReport(results, None, tournament, plan, stopped)
    active = tournament if tournament is not None and (tournament.active or standings.always) else None
    summary = summarize(good, active, coin=options.coin)
    if standings.always and summary.standings is None:
        summary = replace(summary, standings=make_standings(
            [(r.source, r.settlement.net) for r in good if r.settlement], tournament or Tournament(),
            summary.players))
    return SettleReport(results, summary, tournament, plan, stopped)
