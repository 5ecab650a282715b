"""`settle` with a row per input (table, csv, json, yaml), streamed: each input is folded into
the totals and rendered into a spool as it is settled, then forgotten, so memory stays flat
however many inputs (prefcli.render.settlement_stream); the output is byte for byte what the
whole report renders (tests/test_settle_stream.py)."""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, List, Optional


from prefcli.cli.util import CheckFailed, note, print_problems, progress_bar, write_text


class _NeedsWholeBatch(Exception):
    """A tournament file turned up among the results (not seen when planning): its price must
    re-price every input, so the batch is settled again the whole way."""


def can_stream(plan: Any) -> bool:
    """Standard input is read once and may hold a tournament: those batches go the whole way."""
    return "-" not in plan.sources


def run_streamed(plan: Any, options: Any, request: Any, jobs: int, strict: bool, executor: Optional[str],
                 fmt: str, output: str, quiet: bool) -> bool:
    """Settle and write; False when the batch must go the whole way after all (nothing written)."""
    from prefcli.app.settle import SettleUsageError, priced_by, settle_iter
    from prefcli.render.settlement_stream import SettlementSpool, input_piece
    from prefcli.settle.results import SummaryFold
    from prefcli.settle.tournament import Tournament, standings as make_standings

    tournament = plan.tournament
    options = priced_by(options, tournament)
    overrides = request.overrides()
    if overrides or request.always:
        tournament = replace(tournament or Tournament(), **overrides)
    active = tournament if tournament is not None and (tournament.active or request.always) else None
    fold = SummaryFold(rounds=active is not None or request.always)
    spool = SettlementSpool(fmt)
    bad: List[Any] = []
    stopped = False
    try:
        with progress_bar("settling", quiet) as bar:
            # each input rendered where it is settled (a worker sends back its text)
            results = settle_iter(plan.sources, options, jobs, bar, executor, partial(input_piece, fmt))
            try:
                for r in results:
                    if r.tournament is not None or r.kind == "tournament":
                        raise _NeedsWholeBatch()
                    if r.failed:
                        print_problems(r.problems)
                        bad.append(r)
                        if strict:
                            stopped = True
                            break
                    elif r.ok:
                        fold.add(r)
                        spool.add(r)
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
        if fold.count == 0:
            if not bad:
                raise SettleUsageError("no records or sheets among the inputs")
            raise CheckFailed("no input could be settled")
        if stopped:
            raise CheckFailed("stopped at the first bad input (--strict)")
        summary = fold.summary(active, coin=options.coin)
        if request.always and summary.standings is None:
            summary = replace(summary, standings=make_standings(fold.rounds or [], tournament or Tournament(),
                                                                summary.players))
        write_text(output, spool.chunks(summary, bad, tournament), plan.read)
    except _NeedsWholeBatch:
        return False
    finally:
        spool.close()
    if bad:
        note(f"prefcli: {len(bad)} of {len(bad) + fold.count} inputs could not be settled", quiet)
        raise CheckFailed("bad inputs")
    return True


__all__ = ["can_stream", "run_streamed"]
