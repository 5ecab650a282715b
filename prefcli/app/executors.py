"""Where the map of a batch runs: this process, local worker processes, or a Dask cluster.

A batch (settle, stats) is a pure function of one input mapped over many inputs, then folded
with an exact merge. An :class:`Executor` only runs the map; it yields the results **in input
order** and keeps a bounded number of inputs in flight, so a batch of any size holds only a
window of results at a time (flat memory), and every executor gives the same results.

* ``local`` (``--jobs N``): N = 1 runs in this process; N > 1 forks N worker processes.
* ``dask`` / ``dask:ADDRESS`` (``pip install "prefcli[dask]"``): a ``distributed`` cluster; with
  no address a local cluster of ``--jobs`` worker processes (at least 2, forked where the system
  can, listening on 127.0.0.1 only) is started and stopped.

Items are sent in chunks (a few inputs a task) to keep the per-task overhead small.
"""
from __future__ import annotations

import collections
import gc
from typing import Any, Callable, Deque, Iterable, Iterator, List, Optional, Sequence

#: What ``--executor`` accepts (``dask:ADDRESS`` too).
EXECUTORS = ("local", "dask")


class ExecutorError(ValueError):
    """An executor that cannot be started (a usage problem: bad spec, Dask not installed)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def worker_init() -> None:
    """A worker process: no cyclic GC (see settle_many), and Ctrl-C left to the parent, which
    stops the pool and exits 130: no KeyboardInterrupt traceback from every worker."""
    import signal
    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(func: Callable[[Any], Any], chunk: Sequence[Any]) -> List[Any]:
    return [func(x) for x in chunk]


def _chunks(items: Iterable[Any], size: int) -> Iterator[List[Any]]:
    chunk: List[Any] = []
    for x in items:
        chunk.append(x)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class Executor:
    """Maps a function over items, yielding results in item order."""

    name = "local"
    workers = 1

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int = 0) -> Iterator[Any]:
        for x in items:
            yield func(x)

    def close(self) -> None:
        pass

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class LocalProcesses(Executor):
    """Forked worker processes (``multiprocessing``), results streamed in order (``imap``)."""

    def __init__(self, jobs: int) -> None:
        import multiprocessing
        self.workers = jobs
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() \
            else multiprocessing.get_context()
        self._pool = ctx.Pool(processes=jobs, initializer=worker_init)

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int = 0) -> Iterator[Any]:
        import functools
        size = chunk or 8
        for results in self._pool.imap(functools.partial(_run_chunk, func), _chunks(items, size)):
            yield from results

    def close(self) -> None:
        self._pool.terminate()
        self._pool.join()


class DaskExecutor(Executor):
    """A ``distributed`` client: the cluster at `address`, or a local one started here."""

    name = "dask"

    def __init__(self, address: Optional[str] = None, workers: int = 2, client: Any = None) -> None:
        try:
            import distributed
        except ImportError:
            raise ExecutorError('the dask executor needs Dask: pip install "prefcli[dask]"') from None
        self._cluster = None
        self._own_client = client is None
        if client is not None:
            self._client = client
        elif address:
            self._client = distributed.Client(address, timeout="30s")
        else:
            import multiprocessing

            import dask
            # Forked workers start in a fifth of a second with prefcli already imported; spawned
            # ones take seconds (a fresh interpreter each, importing everything again).
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else \
                dask.config.get("distributed.worker.multiprocessing-method")
            with dask.config.set({"distributed.worker.multiprocessing-method": method}):
                self._cluster = distributed.LocalCluster(n_workers=max(2, workers), threads_per_worker=1,
                                                         processes=True, host="127.0.0.1",
                                                         dashboard_address=None, silence_logs=40)
            self._client = distributed.Client(self._cluster)
        info = self._client.scheduler_info()
        self.workers = max(1, len(info.get("workers", {})))

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int = 0) -> Iterator[Any]:
        size = chunk or 16
        window = 4 * self.workers
        pending: Deque[Any] = collections.deque()
        client = self._client
        for c in _chunks(items, size):
            pending.append(client.submit(_run_chunk, func, c, pure=False))
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()

    def close(self) -> None:
        if self._own_client:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(spec: Optional[str], jobs: int = 1) -> Executor:
    """The executor of ``--executor SPEC`` (None or ``local``: ``--jobs`` local processes)."""
    if spec is None or spec == "local":
        return LocalProcesses(jobs) if jobs > 1 else Executor()
    if spec == "dask" or spec.startswith("dask:"):
        address = spec[len("dask:"):] if spec.startswith("dask:") else None
        return DaskExecutor(address or None, workers=jobs)
    raise ExecutorError(f"unknown executor '{spec}'; valid: local, dask, dask:ADDRESS")
