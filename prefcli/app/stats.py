"""The `stats` pipeline: map each input to a statistics part, fold the parts with the exact merge.

:func:`stats_source` is a pure function of one input (a file name and the options): it loads,
scores (:func:`prefcli.scoring.score`), settles (:func:`prefcli.settle.settle_sheet`) and counts
(:func:`prefcli.settle.stats.game_stats`). :func:`run_stats` maps it with any executor
(:mod:`prefcli.app.executors`) and merges as results arrive, so only the running total is kept.
"""
from __future__ import annotations

from dataclasses import field, replace
from prefcli.model.slots import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import Problem
from prefcli.settle.stats import Stats, StatsFold, game_stats

if TYPE_CHECKING:
    from prefcli.settle import Tournament
    from prefcli.settle.rating import Rating, RatingOptions


@dataclass(frozen=True)
class StatsOptions:
    by: str = "player"
    variant: Optional[str] = None
    sets: Tuple[Tuple[str, Any], ...] = ()
    #: keep each game's row on the time line (the ratings, the picture and a mergeable -f json
    #: part need it); without it the statistics take the same memory for any number of games
    timeline: bool = True


@dataclass(frozen=True)
class StatsPart:
    """One input's statistics, or the problems that stopped it (`skipped`: not a game)."""

    source: str
    stats: Optional[Stats] = None
    problems: Tuple[Problem, ...] = ()
    skipped: bool = False


@dataclass
class StatsResult:
    """The merged statistics of a batch, the problems of the inputs that failed, and (when one
    was asked for) the rating table: the report the ``stats`` and ``rating`` renderers show."""

    stats: Stats
    problems: List[Problem] = field(default_factory=list)
    failed: int = 0
    tournament: Optional[Tournament] = None
    ratings: Optional[List[Rating]] = None
    rating_options: Optional[RatingOptions] = None
    #: what the reader should know about the batch (names that look alike: model.values)
    notes: List[str] = field(default_factory=list)

    def rate(self, options: RatingOptions) -> None:
        """Add the rating table (raises ValueError for a table the games do not fit)."""
        from prefcli.settle.rating import rate
        self.ratings = rate(self.stats.games, options)
        self.rating_options = options

    def rating_document(self) -> Optional[Dict[str, Any]]:
        o = self.rating_options
        if self.ratings is None or o is None:    # rate() sets both
            return None
        out: Dict[str, Any] = {"method": o.method}
        if o.method == "elo":
            out.update({"start": o.elo_start, "k": o.elo_k})
        out["table"] = [{"rank": r.rank, "player": r.player, "games": r.games,
                         "value": round(r.value, 1) if isinstance(r.value, float) else r.value}
                        for r in self.ratings]
        return out

    def document(self, **_options: Any) -> Dict[str, Any]:
        """The ``pref-stats/1`` document (schemas/stats.schema.json), with the rating if any."""
        from prefcli.io.emit import plain
        from prefcli.settle.stats import to_data
        data = to_data(self.stats)
        rating = self.rating_document()
        if rating is not None:
            data["rating"] = plain(rating)
        return data


def stats_source(source: str, options: StatsOptions) -> StatsPart:
    """Load, score, settle and count one input; every failure becomes located problems."""
    from prefcli.app.settle_input import input_problems
    from prefcli.settle import TOURNAMENT_FORMAT, settle_sheet, tournament_from_data
    doc = None
    try:
        from prefcli.io.documents import build_record_fast, build_sheet, load_document
        doc = load_document(source)
        if isinstance(doc.data, dict) and doc.data.get("format") == TOURNAMENT_FORMAT:
            import os
            tournament_from_data(doc.data, os.path.dirname(source) if source != "-" else "")
            return StatsPart(source, skipped=True)
        if doc.kind == "record":
            from prefcli.scoring import score
            record = build_record_fast(doc)
            result = score(record, variant=options.variant, sets=list(options.sets))
            settlement = settle_sheet(result.sheet(), result.rules)
            part = game_stats(options.by, doc.name, record.players, settlement, record.meta,
                              result.rules.variant, score_result=result)
        else:
            from prefcli.rules.presets import resolve_rules
            sheet = build_sheet(doc)
            rules = resolve_rules(sheet.rules, variant=options.variant, sets=list(options.sets))
            settlement = settle_sheet(sheet.data, rules)
            part = game_stats(options.by, doc.name, sheet.players, settlement, sheet.meta,
                              getattr(rules, "variant", None), sheet=sheet.data)
        return StatsPart(source, part)
    except Exception as exc:  # noqa: BLE001 - one bad input must not stop a batch
        return StatsPart(source, problems=input_problems(exc, doc, source))


def _stats_worker(args: Tuple[str, StatsOptions]) -> StatsPart:
    return stats_source(*args)


def run_stats(sources: Sequence[str], options: StatsOptions, executor: Any = None,
              progress: Optional[Callable[[int, int], None]] = None) -> StatsResult:
    """Statistics of every source: the merge of the parts (the same whatever the executor)."""
    from prefcli.app.executors import Executor
    ex = executor if executor is not None else Executor()
    if "-" in sources:
        ex = Executor()
    fold = StatsFold(options.by)        # added in place: each merge() copied all before
    out = StatsResult(Stats(options.by))
    done = 0
    for part in ex.map(_stats_worker, ((s, options) for s in sources)):
        done += 1
        if progress is not None:
            progress(done, len(sources))
        if part.problems:
            out.problems.extend(part.problems)
            out.failed += 1
        elif part.stats is not None:
            fold.add(part.stats if options.timeline else replace(part.stats, games=()))
    out.stats = fold.stats()
    from prefcli.model.values import lookalike_notes
    out.notes = lookalike_notes({p for group in out.stats.players.values() for p in group})
    return out
