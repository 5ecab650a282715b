"""Where the map of a batch runs: this process, local worker processes, or a Dask cluster.

A batch (settle, stats) is a pure function of one input mapped over many inputs, then folded
with an exact merge. An :class:`Executor` only runs the map; it yields the results **in input
order** and keeps a bounded number of inputs in flight, so a batch of any size holds only a
window of results at a time (flat memory), and every executor gives the same results.

* ``local`` (``--jobs N``): N = 1 runs in this process; N > 1 runs in this process and up to
  N - 1 worker processes, forked as cores are measured idle.
* ``dask`` / ``dask:ADDRESS`` (``pip install "prefcli[dask]"``): a ``distributed`` cluster; with
  no address a local cluster of ``--jobs`` worker processes (at least 2, forked where the system
  can, listening on 127.0.0.1 only) is started and stopped.

Items are sent in chunks (a few inputs a task) to keep the per-task overhead small.
"""
from __future__ import annotations

import collections
import itertools
import os
import threading
import time
from collections.abc import Sequence as _Seq
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from prefcli.app.workers import IdleProbe, _Forked, _Spawned, worker_init  # noqa: F401 - re-exported

#: What ``--executor`` accepts (``dask:ADDRESS`` too).
EXECUTORS = ("local", "dask")


class ExecutorError(ValueError):
    """An executor that cannot be started (a usage problem: bad spec, Dask not installed)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _run_chunk(func: Callable[[Any], Any], chunk: Sequence[Any]) -> List[Any]:
    return [func(x) for x in chunk]


def _chunks(items: Iterable[Any], size: int) -> Iterator[List[Any]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _guided(items: Sequence[Any], size: int, workers: int, ahead: int = 4, start: int = 0,
            least: int = 1) -> Iterator[List[Any]]:
    """Chunks of `size` items, smaller towards the end (at most what is left over `ahead`
    times the workers, and at least `least`), so that the workers finish within a small chunk
    of each other instead of one waiting for the other's last whole chunk."""
    i, n = start, len(items)
    while i < n:
        k = max(least, min(size, (n - i) // (ahead * workers)))
        yield list(items[i:i + k])
        i += k


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


class WorkerStopped(RuntimeError):
    """A worker process ended while it held inputs (killed, out of memory)."""


#: the workers are forked where the system can (tests set this to try the other way)
FORK = hasattr(os, "fork")


class LocalProcesses(Executor):
    """Worker processes, each fed chunks of items over its own pipes, results yielded in
    item order (items given as a list: chunks that shrink towards the end).

    Why not ``multiprocessing.Pool``: its worker-handler thread waits on the results pipe as
    well, and while a result sits there unread (until the result thread gets the interpreter
    lock, up to a switch interval later) it spins, taking the lock again and again: about an
    eighth of a second of CPU in the parent of a 1,000-input batch, on two cores that the two
    workers needed. Here the parent has no threads: it sends each worker up to two chunks ahead,
    waits on the pipes, and keeps at most a few chunks that came back early.

    With `when_idle` (a probe started when this process began its work; with `here`), the
    workers are forked only as cores are measured idle while this process settles its own
    chunks (:class:`IdleProbe`), checked again as it goes: on a machine with no core to spare
    the batch runs in this process alone, as ``--jobs 1``. Once they run, the CPU the batch
    gets (this process's and what each worker reports with its results) is read every
    :attr:`WATCH` seconds: when it is not at least half a core more than the processes less
    one, a worker shares a core that another of the batch had (another program took the
    idle one) and the last worker started is given no more chunks and stopped when it has
    sent back what it held; the probe then looks for an idle core again."""

    #: chunks a worker holds (one settling, one waiting)
    DEPTH = 2
    #: the shortest time over which the CPU the batch gets is judged (s)
    WATCH = 0.1

    def __init__(self, jobs: int, here: bool = False, when_idle: Optional[IdleProbe] = None) -> None:
        self.workers = jobs
        #: this process takes part: jobs - 1 workers are forked, and this one settles chunks
        #: of its own between taking theirs back (on two cores, two processes, not three)
        self.here = here
        if here:
            jobs -= 1
        self._want = jobs                        # workers to have
        self._procs: List[Any] = []              # _Forked or _Spawned, alive
        self._active: List[Any] = []             # those given new chunks
        self._gated = when_idle is not None
        self._gone_cpu = 0.0                     # the CPU of the workers stopped since
        self._w_at = self._w_cpu = 0.0           # the CPU the batch had used, and when
        self._back: Dict[int, Any] = {}          # replies come back, not yet taken
        self._dropped: Set[int] = set()          # chunks whose replies nobody will take
        self._sent = 0
        self._probe = when_idle if here and jobs else None
        if self._probe is None:
            try:
                self._grow(jobs)
            except BaseException:
                self.close()
                raise

    @property
    def _load(self) -> List[int]:
        return [w.load for w in self._procs]

    def _grow(self, k: int) -> None:
        make = _Forked if FORK else _Spawned
        for _ in range(k):
            w = make(list(self._procs))
            self._procs.append(w)
            self._active.append(w)
        self._w_at, self._w_cpu = time.monotonic(), self._cpu()

    def _cpu(self) -> float:
        return time.process_time() + sum(w.cpu for w in self._procs) + self._gone_cpu

    def _watch(self) -> None:
        """The last worker retired when the batch's processes do not get a core each."""
        now = time.monotonic()
        if now - self._w_at < self.WATCH:
            return
        cpu = self._cpu()
        cores = (cpu - self._w_cpu) / (now - self._w_at)
        self._w_at, self._w_cpu = now, cpu
        if cores < len(self._active) + self.here - 0.5:
            w = self._active.pop()
            if not w.load:
                self._retire(w)
            if self._probe is None:
                self._probe = IdleProbe()

    def _retire(self, w: Any) -> None:
        self._procs.remove(w)
        w.stop()
        self._gone_cpu += w.cpu

    def _maybe_grow(self) -> None:
        """Fork as many of the missing workers as cores were measured idle (half a core
        rounds up); the probe is dropped once every worker runs."""
        assert self._probe is not None
        idle = self._probe.idle_cores()
        if idle is not None and idle >= 0.5:
            missing = self._want - len(self._active)
            self._grow(missing if idle == float("inf") else max(1, min(missing, int(idle + 0.5))))
            if len(self._active) >= self._want:
                self._probe = None

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int = 0) -> Iterator[Any]:
        size = chunk or 8
        seq = items if isinstance(items, _Seq) else None
        it = iter(items) if seq is None else None
        at = [0]

        def next_chunk() -> Optional[List[Any]]:
            if seq is None:
                c = list(itertools.islice(it, size))    # type: ignore[arg-type]
                return c or None
            i, n = at[0], len(seq)
            if i >= n:
                return None
            # smaller towards the end (at most what is left over four times the processes),
            # so that they finish within an item of each other, none waiting for another's
            # last whole chunk
            k = max(1, min(size, (n - i) // (4 * (len(self._active) + self.here))))
            if self._probe is not None and not self._active:
                k = min(k, max(1, size // 4))   # alone, undecided: the next reading comes soon
            at[0] = i + k
            return list(seq[i:i + k])

        queue: Deque[Any] = collections.deque()         # Submitted and _Here, in item order
        # items one by one are heavy ones (analyze's deals, up to a second each): one at a time
        # a worker, so that none waits behind a long one while the other worker is idle
        depth = self.DEPTH if chunk != 1 else 1
        more = True
        mine: Deque[_Here] = collections.deque()         # chunks of this process's, not run yet
        try:
            while True:
                if self._gated and self._active:
                    self._watch()
                if self._probe is not None:
                    self._maybe_grow()
                active = self._active
                n = len(active)
                window = (n + self.here) * (depth + 1)   # chunks sent or come back early, not yet yielded
                if self.here and n and any(w.load for w in self._procs):
                    self._collect(0)        # take back what is done: its worker gets more to do
                while more and len(queue) < window:
                    if n and min(w.load for w in active) < depth:
                        c = next_chunk()
                        if c is not None:
                            queue.append(self.submit(func, c))
                    elif self.here and not mine:
                        c = next_chunk()
                        if c is not None:
                            mine.append(_Here(c))
                            queue.append(mine[-1])
                    else:
                        break
                    if c is None:
                        more = False
                if not queue and not more:
                    return
                head = queue[0] if queue else None
                if type(head) is _Here:
                    if head.results is None:    # the first of ours not run yet
                        mine.popleft().run(func)
                    yield from queue.popleft().get()
                elif head is not None and head.index in self._back:
                    yield from queue.popleft().get()
                elif mine:                  # a worker's chunk is next: settle one of ours meanwhile
                    mine.popleft().run(func)
                else:
                    self._collect(None)
        finally:
            for h in queue:                 # stopped early: what comes back later is dropped
                if type(h) is not _Here and self._back.pop(h.index, None) is None:
                    self._dropped.add(h.index)

    def submit(self, func: Callable[[Any], Any], chunk: Sequence[Any]) -> "Submitted":
        """`func` over one chunk on the least busy worker, now; its results from the handle."""
        import pickle
        if not self._active:
            self._grow(1)
        w = min(self._active, key=lambda p: p.load)
        index = self._sent
        self._sent += 1
        try:
            w.post(pickle.dumps((index, func, list(chunk)), pickle.HIGHEST_PROTOCOL))
        except OSError:
            raise self._stopped(w) from None
        w.load += 1
        return Submitted(self, index)

    def _collect(self, timeout: Optional[float]) -> None:
        """Read every reply that has come back (waiting up to `timeout` for one; None: until
        one), and send what waited for room in a pipe."""
        import pickle
        busy = [w for w in self._procs if w.load]
        if not busy:
            return
        if FORK:
            import select
            poll = select.poll()
            by_fd: Dict[int, Any] = {}
            for w in busy:
                poll.register(w.reply, select.POLLIN)
                by_fd[w.reply] = w
            for w in self._procs:
                if w.outbuf:
                    poll.register(w.cmd, select.POLLOUT)
                    by_fd[w.cmd] = w
            while True:
                try:
                    events = poll.poll(None if timeout is None else int(timeout * 1000))
                    break
                except InterruptedError:
                    continue
            ready = []
            for fd, _ in events:
                w = by_fd[fd]
                if fd == w.cmd:
                    try:
                        w.flush()
                    except OSError:
                        raise self._stopped(w) from None
                else:
                    ready.append(w)
        else:
            from multiprocessing.connection import wait
            conns = {w.conn: w for w in busy}
            ready = [conns[c] for c in wait(list(conns), timeout)]
        for w in ready:
            try:
                replies = w.take()
            except (EOFError, OSError):
                raise self._stopped(w) from None
            for data in replies:
                index, ok, results, w.cpu = pickle.loads(data)
                w.load -= 1
                if index in self._dropped:
                    self._dropped.discard(index)
                else:
                    self._back[index] = (ok, results)
            if not w.load and w not in self._active:    # retired, and all it held is back
                self._retire(w)

    def _stopped(self, w: Any) -> WorkerStopped:
        return WorkerStopped(f"a worker process stopped (exit code {w.wait()})")

    def close(self) -> None:
        for w in self._procs:
            w.stop()
        self._procs, self._active = [], []
        self._probe = None


class _Here:
    """A chunk of LocalProcesses.map that this process settles itself."""

    __slots__ = ("chunk", "results")

    def __init__(self, chunk: List[Any]) -> None:
        self.chunk = chunk
        self.results: Optional[List[Any]] = None

    def run(self, func: Callable[[Any], Any]) -> None:
        self.results = [func(x) for x in self.chunk]

    def get(self) -> List[Any]:
        assert self.results is not None
        return self.results


class Submitted:
    """A chunk sent with :meth:`LocalProcesses.submit`: ready, wait, get (what a pool's
    AsyncResult gives, without its threads)."""

    def __init__(self, ex: LocalProcesses, index: int) -> None:
        self._ex = ex
        self.index = index

    def ready(self) -> bool:
        if self.index not in self._ex._back:
            self._ex._collect(0)
        return self.index in self._ex._back

    def wait(self, timeout: float) -> bool:
        if not self.ready():
            self._ex._collect(timeout)
        return self.index in self._ex._back

    def get(self) -> List[Any]:
        while self.index not in self._ex._back:
            self._ex._collect(None)
        ok, results = self._ex._back.pop(self.index)
        if not ok:
            raise results
        return results


def _import_distributed() -> Any:
    """``distributed``, imported with what it adds to the heap kept out of the cyclic
    collector's sight (``gc.freeze``).

    Why: the import adds about 40,000 objects that live as long as the process, and every full
    collection walks them: the interpreter's at exit (0.3-0.4 s of a local cluster's settle on
    the shared machine) and those of the local cluster's workers, forked afterwards. Garbage of
    before the import is collected first, so nothing a collection would free is frozen; a
    second executor in the same process finds ``distributed`` imported and freezes nothing."""
    import sys
    if "distributed" in sys.modules:
        return sys.modules["distributed"]
    import gc
    gc.collect()
    import distributed
    gc.freeze()
    return distributed


#: seconds a local cluster's worker has to start and reach the scheduler (distributed's
#: ``death_timeout``): one that does not is killed and the start fails with an error
START_TIMEOUT = 60


class DaskExecutor(Executor):
    """A ``distributed`` client: the cluster at `address`, or a local one started here.

    A local cluster costs a third of a second before its workers settle anything (importing
    ``distributed``, forking the workers, and each worker's first input importing the whole
    reading and scoring stack), on a batch of a second or so. So :meth:`map` settles the first
    chunk in this process (the workers, forked afterwards, inherit what it imported and cached),
    forks one helper process that settles the next chunks while a thread starts the cluster, and
    sends the rest to the cluster as soon as it is up. Every chunk goes to exactly one place and
    the results are yielded in input order, so they are those of ``--jobs 1``; none is yielded
    while the cluster starts (its workers are forked then: see :meth:`map`), and a batch of one
    chunk starts no cluster. With an address or a client the cluster is already running and
    every chunk goes to it.
    """

    name = "dask"

    def __init__(self, address: Optional[str] = None, workers: int = 2, client: Any = None,
                 overlap: bool = True) -> None:
        import importlib.util
        if client is None and importlib.util.find_spec("distributed") is None:
            raise ExecutorError('the dask executor needs Dask: pip install "prefcli[dask]"')
        self._cluster: Any = None
        self._client: Any = client
        self._own_client = client is None
        self._n = max(2, workers)
        self._overlap = overlap
        self._starter: Optional[threading.Thread] = None
        self._start_error: Optional[BaseException] = None
        self._helper: Any = None
        #: where the chunks went: "here" (this process), "helper" (the forked helper), "dask"
        self.placed: Dict[str, int] = {"here": 0, "helper": 0, "dask": 0}
        self.workers = self._n
        if client is None and address:
            self._client = _import_distributed().Client(address, timeout="30s")
        if self._client is not None:
            self._count_workers()

    def _count_workers(self) -> None:
        info = self._client.scheduler_info()
        self.workers = max(1, len(info.get("workers", {})))

    def _start_local(self) -> None:
        """Import ``distributed`` and start the local cluster and its client (in a thread)."""
        try:
            import multiprocessing

            distributed = _import_distributed()
            import dask
            # Forked workers start in a fifth of a second with prefcli already imported; spawned
            # ones take seconds (a fresh interpreter each, importing everything again). The
            # scheduler's HTTP routes go on a free loopback port, not 8787, which another cluster
            # may hold ("Port 8787 is already in use" on stderr); a worker that is not up within
            # START_TIMEOUT is killed and the start fails (an error, not a command that hangs).
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else \
                dask.config.get("distributed.worker.multiprocessing-method")
            with dask.config.set({"distributed.worker.multiprocessing-method": method}):
                self._cluster = distributed.LocalCluster(
                    n_workers=self._n, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, silence_logs=40, death_timeout=START_TIMEOUT,
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
            self._client = distributed.Client(self._cluster)
            self._count_workers()
        except BaseException as exc:  # noqa: BLE001 - raised again in the thread that maps
            self._start_error = exc

    def _ready(self, wait: bool = False) -> bool:
        """Is the cluster up? (`wait`: until it is.) A failed start is raised here."""
        if self._starter is not None:
            if wait:
                self._starter.join()
            if self._starter.is_alive():
                return False
            self._starter = None
            if self._start_error is not None:
                exc, self._start_error = self._start_error, None
                raise exc
        return self._client is not None

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int = 0) -> Iterator[Any]:
        if chunk or not isinstance(items, _Seq):
            chunks = _chunks(items, chunk or 16)
        else:
            # a first chunk of 16 (settled here before the cluster starts), then chunks of up to
            # 128 that shrink towards the end, but not below 8: a task costs the scheduler, the
            # client and the worker about 2-4 ms of CPU whatever its size (15 tasks for 1,000
            # inputs instead of 27), and the tail is still short
            chunks = itertools.chain([list(items[:16])] if len(items) else [],
                                     _guided(items, 128, self.workers, 2, start=16, least=8))

        # each entry: ("done", results) | ("helper", Submitted) | ("dask", Future), in input order
        pending: Deque[Any] = collections.deque()
        if self._client is None and self._starter is None:
            first = next(chunks, None)
            if first is None:
                return
            pending.append(("done", _run_chunk(func, first)))
            self.placed["here"] += 1
            second = next(chunks, None)
            if second is None:          # the batch was one chunk: no cluster to start for it
                yield from pending.popleft()[1]
                return
            chunks = itertools.chain([second], chunks)
            if self._overlap:
                # forked before any thread exists here (the cluster's start runs in one)
                self._helper = LocalProcesses(1)
            self._starter = threading.Thread(target=self._start_local, name="prefcli-dask-start", daemon=True)
            self._starter.start()
        try:
            while True:
                if self._helper is not None and not self._ready():
                    # the cluster is coming up: the helper takes the next chunks (two at a time).
                    # Nothing is yielded until it is up: its workers are forked meanwhile, and a
                    # lock this thread held then (stdout's, the caller writing) stays held there
                    out = [i for i, (kind, _) in enumerate(pending) if kind == "helper"]
                    if len(out) < 2:
                        c = next(chunks, None)
                        if c is None:
                            break
                        pending.append(("helper", self._helper.submit(func, c)))
                        self.placed["helper"] += 1
                    elif pending[out[0]][1].wait(0.005):
                        pending[out[0]] = ("done", pending[out[0]][1].get())
                    continue
                self._ready(wait=True)
                if sum(1 for kind, _ in pending if kind == "dask") < 4 * self.workers:
                    c = next(chunks, None)
                    if c is None:
                        break
                    pending.append(("dask", self._client.submit(_run_chunk, func, c, pure=False)))
                    self.placed["dask"] += 1
                else:
                    yield from self._take(pending.popleft())
            if self._starter is not None:
                # the helper did the rest before the cluster was up: wait for its start all the
                # same before yielding (a failed start is raised by the next map, if any)
                self._starter.join()
            while pending:
                yield from self._take(pending.popleft())
        finally:
            self._stop_helper()

    @staticmethod
    def _take(entry: Any) -> List[Any]:
        kind, handle = entry
        if kind == "done":
            return handle
        if kind == "helper":
            return handle.get()
        return handle.result()

    def _stop_helper(self) -> None:
        if self._helper is not None:
            self._helper.close()
            self._helper = None

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is not None and not issubclass(exc[0], Exception):
            # interrupted (Ctrl-C, SIGTERM): the scheduler's word on the tasks dropped with the
            # cluster ("Couldn't gather keys ... forgotten") is no news to a user whose command
            # ends quietly
            import logging
            logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
        self.close()

    def close(self) -> None:
        self._stop_helper()
        if self._starter is not None:
            self._starter.join()
            self._starter = None
        if self._own_client and self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(spec: Optional[str], jobs: int = 1) -> Executor:
    """The executor of ``--executor SPEC`` (None or ``local``: ``--jobs`` local processes).

    Local processes are those of ``settle --jobs N`` in every command: this process takes
    part, and the other N - 1 are forked only as cores are measured idle from now on
    (:class:`IdleProbe`), so that ``--jobs 2`` on a machine with no core to spare costs what
    ``--jobs 1`` does instead of adding a second process to the one core."""
    if spec is None or spec == "local":
        return LocalProcesses(jobs, here=True, when_idle=IdleProbe()) if jobs > 1 else Executor()
    if spec == "dask" or spec.startswith("dask:"):
        address = spec[len("dask:"):] if spec.startswith("dask:") else None
        return DaskExecutor(address or None, workers=jobs)
    raise ExecutorError(f"unknown executor '{spec}'; valid: local, dask, dask:ADDRESS")
