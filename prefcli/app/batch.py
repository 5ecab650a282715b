"""Settling a batch as a stream: map each input on an executor, fold the totals as they come.

:func:`settle_stream` yields every :class:`~prefcli.settle.InputResult` in input order from any
executor (:mod:`prefcli.app.executors`: this process, local processes, Dask); only a bounded
window of inputs is in flight. :func:`settle_totals` folds the stream into
:class:`~prefcli.settle.totals.Totals` and keeps nothing else, so its memory does not grow with
the number of inputs (10,000 records or 10 million: the same few kilobytes of totals).
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from collections import abc
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import Problem
from prefcli.app.settle_input import _settle_rendered, _settle_worker
from prefcli.settle import InputResult, SettleOptions
from prefcli.settle.totals import Totals


def settle_stream(sources: Sequence[str], options: SettleOptions, executor: Any = None,
                  render: Optional[Callable[[InputResult], Any]] = None) -> Iterator[Any]:
    """Every source settled, in input order, on `executor` (default: this process): each an
    :class:`~prefcli.settle.InputResult`, or with `render` (a picklable function of one) a
    :class:`~prefcli.settle.results.Settled` whose piece the worker rendered."""
    from prefcli.app.executors import Executor
    ex = executor if executor is not None and "-" not in sources else Executor()
    if render is not None:
        return ex.map(_settle_rendered, _Items(sources, (options, render)))
    return ex.map(_settle_worker, _Items(sources, (options,)))


class _Items(abc.Sequence):
    """(source, *extra) for each source, made a slice at a time: an executor can size its
    chunks from the length, and a batch of millions holds no tuple per input."""

    def __init__(self, sources: Sequence[str], extra: Tuple[Any, ...]) -> None:
        self.sources = sources
        self.extra = extra

    def __len__(self) -> int:
        return len(self.sources)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [(s, *self.extra) for s in self.sources[i]]
        return (self.sources[i], *self.extra)


@dataclass
class BatchTotals:
    totals: Totals = field(default_factory=Totals)
    failed: int = 0
    problems: List[Problem] = field(default_factory=list)   # bounded: the first `keep` failures
    tournaments: List[Any] = field(default_factory=list)


def settle_totals(sources: Sequence[str], options: SettleOptions, executor: Any = None,
                  on_result: Optional[Callable[[InputResult], None]] = None, keep: int = 1000) -> BatchTotals:
    """The totals of a batch, folded as results arrive (nothing per input is kept)."""
    out = BatchTotals()

    def settled() -> Iterator[Totals]:
        for r in settle_stream(sources, options, executor):
            if on_result is not None:
                on_result(r)
            if r.tournament is not None:
                out.tournaments.append(r.tournament)
            elif r.failed:
                out.failed += 1
                if len(out.problems) < keep:
                    out.problems.extend(r.problems)
            elif r.ok:
                yield Totals.of_result(r)
    out.totals = Totals.total(settled())        # folded as they come (Totals.total)
    return out
