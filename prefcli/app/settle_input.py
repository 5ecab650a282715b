"""One input settled (:func:`settle_source`): the step every batch maps, in this process or in
a worker. Kept apart from :mod:`prefcli.app.settle` (which re-exports it) so the streaming batch,
:mod:`prefcli.app.batch`, and the whole pipeline use it without importing each other."""
from __future__ import annotations

import gc
from typing import Any, Callable, Tuple

from prefcli.model.diagnostics import PrefcliError, Problem
from prefcli.model.records import TOURNAMENT_FORMAT
from prefcli.settle.results import InputResult, SettleOptions, Settled, settle_document
from prefcli.settle.tournament import tournament_from_data


def settle_source(source: str, options: SettleOptions) -> InputResult:
    """Load and settle one file ("-" = stdin); every failure becomes located problems."""
    doc = None
    try:
        from prefcli.io.documents import build_record_fast, build_sheet, load_document
        doc = load_document(source)
        if isinstance(doc.data, dict) and doc.data.get("format") == TOURNAMENT_FORMAT:
            import os
            base = os.path.dirname(source) if source != "-" else ""
            return InputResult(source, kind="tournament", tournament=tournament_from_data(doc.data, base))
        obj = build_record_fast(doc, release=True) if doc.kind == "record" else build_sheet(doc)
        return settle_document(obj, options, doc.name)
    except Exception as exc:  # noqa: BLE001 - one bad input must not stop a batch
        return InputResult(source, problems=input_problems(exc, doc, source))


def input_problems(exc: Exception, doc: Any, source: str) -> Tuple[Problem, ...]:
    """What one failed input of a batch reports (settle, stats, rating share it): its located
    problems, a read failure, or an internal error; a usage error (a bad --set or --variant) is
    the command line's fault, not the file's, and is raised again."""
    from prefcli.model.diagnostics import InputError
    if isinstance(exc, InputError):
        return tuple(p if p.file else p.at(file=source) for p in exc.problems)
    if isinstance(exc, PrefcliError):
        if exc.is_usage:
            raise exc
        return (_locate(doc, source, exc),)
    if isinstance(exc, (OSError, UnicodeError)):
        return (Problem(f"cannot read: {exc}", (), source),)
    return (Problem(f"internal error: {type(exc).__name__}: {exc}", (), source, kind="internal"),)


def _locate(doc: Any, source: str, exc: PrefcliError) -> Problem:
    """The error placed in its document (when it was loaded), else at least in its file."""
    if doc is not None and hasattr(doc, "place"):
        try:
            p = doc.place(exc)
            return p if p.file else p.at(file=source)
        except Exception:  # noqa: BLE001 - locating is best effort
            pass
    return exc.problem().at(file=source)


_SETTLED = [0]


def _settle_worker(args: Tuple[str, SettleOptions]) -> InputResult:
    """settle_source in a worker (a forked process, a Dask worker, or the executor here).

    A worker runs with the cyclic collector off (executors.worker_init), and a settled
    record's context and its reader refer to each other: without a collection every input's
    record stayed (about 25 KiB each, 30 deals). The young objects are collected every 64
    inputs, as the in-process batch does (settle_iter), so a worker's memory stays flat."""
    r = settle_source(*args)
    _SETTLED[0] += 1
    if _SETTLED[0] % 64 == 0:
        gc.collect(0)
    return r


def _settle_rendered(args: Tuple[str, SettleOptions, Callable[[InputResult], Any]]) -> Settled:
    """_settle_worker, then the batch's render step (a picklable function the caller composed:
    the command line hands down its renderer, which this layer cannot import), so a worker
    sends back the input's rendered part of the output and the few numbers the totals need,
    not the whole settlement for the parent to render (:class:`~prefcli.settle.results.Settled`)."""
    source, options, render = args
    return Settled.of(_settle_worker((source, options)), render)
