"""`settle --executor` and `settle --summary`: the batch as a stream (prefcli.app.batch)."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

import click

from prefcli.cli.util import CheckFailed, note, print_problems, progress_bar, settlement_text, write_text


def _executor(spec: Optional[str], jobs: int):
    from prefcli.app.executors import ExecutorError, make_executor
    try:
        return make_executor(spec, jobs)
    except ExecutorError as exc:
        raise click.UsageError(exc.message) from None


def collect(sources: Sequence[str], options: Any, jobs: int, spec: Optional[str], strict: bool,
            progress: Any) -> List[Any]:
    """Every result, in input order, from the chosen executor (what settle_many returns)."""
    from prefcli.app.batch import settle_stream
    out: List[Any] = []
    with _executor(spec, jobs) as ex:
        for r in settle_stream(sources, options, ex):
            out.append(r)
            progress(len(out), len(sources))
            if strict and r.failed:
                break
    return out


def _check_tournaments(found: Sequence[Any], given: Any, options: Any, quiet: bool = False) -> None:
    """A tournament file among the inputs: its price or coin must already be in force (the
    totals are folded as the inputs are settled, so nothing can be priced again afterwards)."""
    if given is None and len(found) > 1:
        raise click.UsageError("more than one tournament file among the inputs; choose one with --tournament")
    for t in found:
        if (t.price is not None and options.price != t.price) or (t.coin is not None and options.coin != t.coin):
            raise click.UsageError("--summary: the tournament file among the inputs sets a price or coin; "
                                   "give it with --tournament FILE (or --price/--coin)")
    if any(t.active for t in list(found) + ([given] if given is not None else [])):
        note("prefcli: note: --summary gives totals only; run settle without it for the standings", quiet)


def run_summary(sources: Sequence[str], options: Any, jobs: int, spec: Optional[str], fmt: str,
                output: str, read: Sequence[str], tournament: Any = None, quiet: bool = False) -> None:
    import json

    from prefcli.app.batch import settle_totals
    from prefcli.settle.totals import totals_data
    total = len(sources)
    with _executor(spec, jobs) as ex, progress_bar("settling", quiet) as bar:
        done = [0]

        def step(_result: Any) -> None:
            done[0] += 1
            bar(done[0], total)
        batch = settle_totals(sources, options, ex, on_result=step)
    _check_tournaments(batch.tournaments, tournament, options, quiet)
    print_problems(batch.problems)
    if batch.totals.inputs == 0:
        raise CheckFailed("no input could be settled") if batch.failed else click.UsageError(
            "no records or sheets among the inputs")
    s = batch.totals.summary(options.coin)
    from prefcli.settle.document import summary_document
    data = summary_document(s)
    data["totals"] = totals_data(batch.totals)
    if s.notes:
        data["notes"] = list(s.notes)
    if fmt == "json":
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    elif fmt == "yaml":
        from prefcli.cli.util import dump
        text = dump(data, "yaml")
    else:
        text = settlement_text(data, "csv" if fmt == "csv" else "table")
    write_text(output, text, read)
    if batch.failed:
        note(f"prefcli: {batch.failed} of {batch.failed + batch.totals.inputs} inputs could not be settled", quiet)
        raise CheckFailed("bad inputs")
