"""Executors (local processes, Dask) give the results of --jobs 1; a batch's memory stays flat."""
import json
import os
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, ctrl_c_as_from_a_terminal, run_cli

sys.path.insert(0, str(ROOT / "benchmarks"))


def _dask():
    """distributed, or a clean skip outside CI (in CI the test extra installs it: never skip)."""
    if os.environ.get("CI"):
        import distributed
        return distributed
    return pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Twelve generated 30-deal records (3 and 4 players, three presets) plus the examples."""
    from generate import dump, generate
    folder = tmp_path_factory.mktemp("batch")
    for i in range(12):
        variant = ("sochi", "leningrad", "rostov")[i % 3]
        rec = generate(30, players=3 + i % 2, variant=variant, seed=100 + i)
        (folder / f"g{i:02d}.yaml").write_text(dump(rec, False))
    return sorted(str(p) for p in folder.glob("*.yaml")) + sorted(
        str(p) for p in EXAMPLES.rglob("*.yaml") if "tournament" not in p.parts)


def _settled(results):
    return [(r.source, r.ok, dict(r.settlement.net) if r.ok else None, r.money,
             [p.text() for p in r.problems]) for r in results]


@pytest.fixture
def cluster():
    """A cluster of threads in this process, for the tests given an address. Closed after each:
    the tests that follow fork processes, and a fork made while its threads run could copy a
    lock one of them holds (held for ever in the child)."""
    distributed = _dask()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40,
                                  scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as c, \
            distributed.Client(c) as client:
        client.wait_for_workers(2, timeout=60)
        yield c, client


def test_local_processes_equal_one_process(records):
    from prefcli.app.batch import settle_stream
    from prefcli.app.executors import make_executor
    from prefcli.settle import SettleOptions
    one = _settled(settle_stream(records, SettleOptions()))
    with make_executor("local", 2) as ex:
        two = _settled(settle_stream(records, SettleOptions(), ex))
    assert two == one and len(one) == len(records)


def test_dask_cluster_equals_jobs_1(records, cluster):
    from prefcli.app.batch import settle_stream
    from prefcli.app.executors import DaskExecutor
    from prefcli.app.stats import StatsOptions, run_stats
    from prefcli.settle import SettleOptions
    _, client = cluster
    one = _settled(settle_stream(records, SettleOptions()))
    ex = DaskExecutor(client=client)
    assert ex.workers == 2
    assert _settled(settle_stream(records, SettleOptions(), ex)) == one
    for by in ("player", "variant"):
        assert run_stats(records, StatsOptions(by), ex).stats == run_stats(records, StatsOptions(by)).stats


def test_cli_on_a_dask_address_equals_jobs_1(records, cluster):
    c, _ = cluster
    address = c.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    code, one, err = run_cli(["settle", *records, "-f", "json", "--jobs", "1"])
    assert code == 0, err
    code, dask_out, err = run_cli(["settle", *records, "-f", "json", "--executor", f"dask:{address}"])
    assert code == 0, err
    assert dask_out == one
    code, one, err = run_cli(["stats", *records, "-f", "json", "--rating", "elo"])
    code, dask_out, err = run_cli(["stats", *records, "-f", "json", "--rating", "elo", "--executor", f"dask:{address}"])
    assert code == 0, err
    assert dask_out == one


def test_bad_executor_is_a_usage_error():
    code, out, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), "--executor", "spark"])
    assert code == 2 and "unknown executor" in err


def test_summary_totals_equal_the_full_run_and_merge(records, tmp_path):
    code, full, err = run_cli(["settle", *records, "-f", "json"])
    assert code == 0, err
    code, summ, err = run_cli(["settle", *records, "-f", "json", "--summary"])
    assert code == 0, err
    full, summ = json.loads(full), json.loads(summ)
    for k in ("players", "net", "money", "payments", "unit"):
        assert summ[k] == full[k], k
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for part, files in ((a, records[:5]), (b, records[5:])):
        code, text, err = run_cli(["settle", *files, "-f", "json", "--summary"])
        part.write_text(text)
    code, merged, err = run_cli(["merge", str(b), str(a)])
    assert code == 0, err
    assert json.loads(merged)["net"] == full["net"]


def test_memory_stays_flat_in_the_number_of_inputs(records):
    """Ten times the inputs, the same peak: nothing per input is kept (tracemalloc peaks)."""
    import gc
    import tracemalloc

    from prefcli.app.batch import settle_totals
    from prefcli.settle import SettleOptions
    one = records[:1]
    settle_totals(one * 3, SettleOptions())          # caches (presets, parsed notation) warmed

    def peak(n):
        gc.collect()
        # gc.collect() empties the interpreter's free lists (of tuples, …), which the run then
        # refills, and tracemalloc counts what they hold: refill them first, outside the trace
        settle_totals(one * n, SettleOptions())
        tracemalloc.start()
        try:
            batch = settle_totals(one * n, SettleOptions())
            assert batch.totals.inputs == n
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    # the lower of two runs: a module's bounded cache emptied by earlier tests refills in one run
    small, large = min(peak(30), peak(30)), min(peak(300), peak(300))
    assert large < small * 1.25 + 200_000, (small, large)


def test_stats_memory_stays_flat_without_the_time_line(records):
    import gc
    import tracemalloc

    from prefcli.app.stats import StatsOptions, run_stats
    one = records[:1]
    options = StatsOptions(timeline=False)
    run_stats(one * 3, options)

    def peak(n):
        gc.collect()
        run_stats(one * n, options)      # the free lists refilled outside the trace (see above)
        tracemalloc.start()
        try:
            result = run_stats(one * n, options)
            assert result.stats.inputs == n and result.stats.games == ()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    # the lower of two runs: a module's bounded cache emptied by earlier tests refills in one run
    small, large = min(peak(30), peak(30)), min(peak(300), peak(300))
    assert large < small * 1.25 + 200_000, (small, large)
    # with the time line each game keeps one small row, nothing more
    full = run_stats(one * 5, StatsOptions()).stats
    assert len(full.games) == 5


def _local_dask(monkeypatch=None, release=None, **kw):
    from prefcli.app.executors import DaskExecutor
    ex = DaskExecutor(workers=2, **kw)
    if release is not None:
        # the cluster starts only when the test releases it: every chunk until then goes to the
        # helper process (and, once the test has waited for the start, the rest to the cluster)
        start = ex._start_local

        def gated():
            assert release.wait(120)
            start()
        monkeypatch.setattr(ex, "_start_local", gated)
    return ex


def test_local_cluster_takes_over_from_the_helper_in_input_order(records, monkeypatch):
    """The first chunk here, the next ones in the forked helper while the local cluster starts,
    the rest on the cluster: the results are those of one process, in input order, and none
    is yielded before the cluster is up (its workers are forked meanwhile)."""
    import threading

    from prefcli.app import executors
    from prefcli.app.settle_input import _settle_worker
    from prefcli.settle import SettleOptions
    _dask()
    items = [(s, SettleOptions()) for s in records] * 2
    one = _settled(_settle_worker(x) for x in items)
    release = threading.Event()
    submit = executors.LocalProcesses.submit
    seen = []

    def counted(self, func, chunk):
        # the helper's 10th chunk releases the start, and this thread waits for it (the helper
        # gets no more chunks meanwhile); nothing may have been yielded by then
        handle = submit(self, func, chunk)
        seen.append(len(got))
        if len(seen) == 10:
            release.set()
            ex._starter.join()
        return handle
    monkeypatch.setattr(executors.LocalProcesses, "submit", counted)
    with _local_dask(monkeypatch, release) as ex:
        got = []
        for r in ex.map(_settle_worker, items, chunk=1):
            got.append(r)
        assert seen[:10] == [0] * 10         # nothing yielded while the cluster started
        assert _settled(got) == one
        assert ex.placed["here"] == 1 and ex.placed["helper"] == 10 and ex.placed["dask"] == len(items) - 11
        assert ex._helper is None            # stopped once the map is done
        # a second map on the same executor goes to the running cluster only
        ex.placed = {"here": 0, "helper": 0, "dask": 0}
        assert _settled(ex.map(_settle_worker, items[:5], chunk=2)) == one[:5]
        assert ex.placed == {"here": 0, "helper": 0, "dask": 3}


def test_a_batch_the_helper_finishes_is_yielded_once_the_cluster_is_up(records, monkeypatch):
    """Every chunk after the first goes to the helper before the cluster is up: the results
    wait for the start all the same (its workers are forked meanwhile), then come in input
    order."""
    import time

    from prefcli.app.settle_input import _settle_worker
    from prefcli.settle import SettleOptions
    _dask()
    items = [(s, SettleOptions()) for s in records[:6]]

    class AllToTheHelper:
        """The cluster's start waits until the helper has been given the last chunk."""
        def wait(self, timeout):
            end = time.monotonic() + timeout
            while ex.placed["helper"] < 5:
                if time.monotonic() > end:
                    return False
                time.sleep(0.001)
            return True
    with _local_dask(monkeypatch, AllToTheHelper()) as ex:
        it = ex.map(_settle_worker, items, chunk=1)
        first = next(it)
        assert ex._cluster is not None and not (ex._starter and ex._starter.is_alive())
        assert _settled([first, *it]) == _settled(_settle_worker(x) for x in items)
        assert ex.placed == {"here": 1, "helper": 5, "dask": 0}


def test_the_local_cluster_is_started_with_a_bound_on_its_workers_start(monkeypatch):
    """A local cluster's worker that does not come up within START_TIMEOUT is killed and the
    start fails (distributed's death_timeout): an error, not a command that waits for ever."""
    from prefcli.app import executors
    distributed = _dask()
    seen = {}

    def refused(*a, **k):
        seen.update(k)
        raise RuntimeError("no cluster today")
    monkeypatch.setattr(distributed, "LocalCluster", refused)
    ex = _local_dask(overlap=False)
    with pytest.raises(RuntimeError, match="no cluster today"):
        list(ex.map(str, list(range(40)), chunk=4))
    ex.close()
    assert seen["death_timeout"] == executors.START_TIMEOUT and 0 < executors.START_TIMEOUT <= 120


def test_local_cluster_without_the_helper(records):
    from prefcli.app.settle_input import _settle_worker
    from prefcli.settle import SettleOptions
    _dask()
    items = [(s, SettleOptions()) for s in records]
    with _local_dask(overlap=False) as ex:
        assert _settled(ex.map(_settle_worker, items, chunk=3)) == _settled(_settle_worker(x) for x in items)
        assert ex.placed["here"] == 1 and ex.placed["helper"] == 0 and ex.placed["dask"] == -(-len(items) // 3) - 1
        assert ex.workers == 2


def test_a_batch_done_before_the_cluster_is_up_and_a_failed_start(records, monkeypatch):
    from prefcli.app.settle_input import _settle_worker
    from prefcli.settle import SettleOptions
    distributed = _dask()
    items = [(s, SettleOptions()) for s in records[:3]]
    with _local_dask() as ex:
        assert _settled(ex.map(_settle_worker, items, chunk=16)) == _settled(_settle_worker(x) for x in items)
        assert ex.placed == {"here": 1, "helper": 0, "dask": 0}
        assert ex._starter is None and ex._cluster is None and ex._helper is None   # one chunk: nothing started
    assert list(_local_dask().map(_settle_worker, [], chunk=4)) == []

    def refused(*a, **k):
        raise RuntimeError("no cluster today")
    monkeypatch.setattr(distributed, "LocalCluster", refused)
    ex = _local_dask(overlap=False)
    with pytest.raises(RuntimeError, match="no cluster today"):
        list(ex.map(_settle_worker, items, chunk=1))
    ex.close()


_FROZEN = """
import gc, sys, weakref
from prefcli.app.executors import _import_distributed
class Cycle:
    pass
c = Cycle(); c.me = c; ref = weakref.ref(c); del c        # garbage before the import
before = len(gc.get_objects())
distributed = _import_distributed()
assert ref() is None, "garbage of before the import was frozen"
frozen = gc.get_freeze_count()
assert frozen > before and len(gc.get_objects()) < before, (frozen, before, len(gc.get_objects()))
assert _import_distributed() is distributed and gc.get_freeze_count() == frozen
"""


def test_distributed_is_imported_with_its_heap_frozen(records):
    """What importing distributed adds to the heap is frozen (full collections, the
    interpreter's at exit among them, skip it), what was garbage before is collected first,
    and the local cluster's batch is still that of one process."""
    import subprocess
    _dask()
    subprocess.run([sys.executable, "-c", _FROZEN], check=True, cwd=str(ROOT), timeout=120)
    code, one, err = run_cli(["settle", *records, "-f", "json"])
    assert code == 0, err
    code, out, err = run_cli(["settle", *records, "-f", "json", "--executor", "dask", "--jobs", "2"])
    assert (code, out, err) == (0, one, "")


def test_local_cluster_leaves_port_8787_alone(records):
    """The local cluster's scheduler serves its HTTP routes on a free loopback port, so a port
    8787 held by another cluster gives no warning on the command's standard error."""
    import socket
    import warnings

    from prefcli.app.settle_input import _settle_worker
    from prefcli.settle import SettleOptions
    _dask()
    held = socket.socket()
    try:
        held.bind(("127.0.0.1", 8787))
        held.listen()
    except OSError:
        pass                             # already held by another cluster: the same case
    items = [(s, SettleOptions()) for s in records[:4]]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with _local_dask(overlap=False) as ex:
                assert _settled(ex.map(_settle_worker, items, chunk=1)) == _settled(_settle_worker(x) for x in items)
                http = ex._cluster.scheduler.http_server
                assert http.address == "127.0.0.1" and http.port != 8787
        assert not [w for w in caught if "already in use" in str(w.message)]
    finally:
        held.close()


def _twice(x):
    if x == "boom":
        raise ValueError("boom")
    if x == "die":
        os._exit(7)
    return 2 * x


def test_local_processes_yield_in_order_and_raise_what_a_worker_raised():
    """The forked workers (no multiprocessing.Pool) give the results in item order whatever
    the chunk size, raise a worker's exception in the parent, and say when a worker is gone."""
    from prefcli.app.executors import LocalProcesses, WorkerStopped
    items = list(range(203))
    for jobs, here in ((1, False), (2, False), (3, False), (1, True), (2, True), (3, True)):
        with LocalProcesses(jobs, here=here) as ex:     # here: this process takes part
            assert len(ex._procs) == jobs - here
            for chunk in (1, 4, 16, 500):
                assert list(ex.map(_twice, items, chunk)) == [2 * x for x in items]   # guided chunks
                assert list(ex.map(_twice, iter(items), chunk)) == [2 * x for x in items]
            assert list(ex.map(_twice, [], 4)) == []
            with pytest.raises(ValueError, match="boom"):
                list(ex.map(_twice, items[:10] + ["boom"] + items, 3))
    with LocalProcesses(2) as ex:
        got = ex.map(_twice, items, 2)
        assert [next(got) for _ in range(5)] == [0, 2, 4, 6, 8]     # stopped early: close stops them
        got.close()
        # what the workers still send back for the stopped map is dropped, not taken by the next
        assert list(ex.map(_twice, items[:50], 3)) == [2 * x for x in items[:50]]
        # nothing kept of it; what is still out (a worker the machine held back) is all dropped
        assert not ex._back and len(ex._dropped) == sum(ex._load)
        # one chunk at a time (the Dask executor's helper): ready, wait, get, in any order
        first, boom, last = ex.submit(_twice, [1, 2]), ex.submit(_twice, ["boom"]), ex.submit(_twice, [3])
        assert last.get() == [6] and first.wait(5) and first.ready() and first.get() == [2, 4]
        with pytest.raises(ValueError, match="boom"):
            boom.get()
    with LocalProcesses(2, here=True) as ex:
        got = ex.map(_twice, items, 2)
        assert [next(got) for _ in range(5)] == [0, 2, 4, 6, 8]
        got.close()
        assert list(ex.map(_twice, items[:50], 3)) == [2 * x for x in items[:50]]
    with LocalProcesses(2) as ex:
        with pytest.raises(WorkerStopped, match="exit code 7"):
            list(ex.map(_twice, items[:20] + ["die"] + items, 1))
    assert not ex._procs


def _with_pid(x):
    return 2 * x, os.getpid()


class _Readings:
    """An IdleProbe whose readings the test gives (then none idle)."""

    def __init__(self, *readings):
        self.readings = list(readings)

    def idle_cores(self):
        return self.readings.pop(0) if self.readings else 0.0


def test_workers_are_forked_only_when_a_core_is_measured_idle(monkeypatch):
    """With a probe (settle --jobs N), no worker until a reading finds half a core idle, then
    as many as were idle (at most the missing ones); the results in order all the while."""
    from prefcli.app.executors import LocalProcesses
    monkeypatch.setattr(LocalProcesses, "WATCH", 1e9)     # none retired here (the test below)
    items = list(range(300))
    with LocalProcesses(2, here=True, when_idle=_Readings(None, 0.0, 0.3)) as ex:
        assert ex._procs == []
        got = list(ex.map(_with_pid, items, 4))
        assert [x for x, _ in got] == [2 * x for x in items]
        assert {pid for _, pid in got} == {os.getpid()} and ex._procs == []
    with LocalProcesses(4, here=True, when_idle=_Readings(0.0, None, 1.2)) as ex:
        got = list(ex.map(_with_pid, items, 4))
        assert [x for x, _ in got] == [2 * x for x in items]
        assert len(ex._procs) == 1                  # one core idle: one of the three started
        pids = [pid for _, pid in got]
        assert pids[:2] == [os.getpid()] * 2        # this process alone until the reading
        assert set(pids) == {os.getpid(), ex._procs[0].pid}
    with LocalProcesses(3, here=True, when_idle=_Readings(5.0)) as ex:
        assert list(ex.map(_twice, items, 4)) == [2 * x for x in items]
        assert len(ex._procs) == 2 and ex._probe is None    # all started: no more readings


@pytest.mark.parametrize("args", [
    ["stats", "examples/season-2019/", "-f", "json"],
    ["rating", "examples/season-2019/", "-f", "json"],
    ["settle", "examples/season-2019/", "--summary", "-f", "json"],
    ["settle", "examples/season-2019/", "-f", "json", "--executor", "local"],
    ["analyze", "examples/analysis-sochi.yaml", "-f", "json"],
], ids=["stats", "rating", "settle --summary", "settle --executor local", "analyze"])
def test_every_command_with_jobs_forks_only_when_a_core_is_measured_idle(run, monkeypatch, args):
    """--jobs N means one thing in every command (make_executor, as settle's own batch): no core
    measured idle, no fork and the output of --jobs 1; a core idle, a worker forked, the same."""
    from prefcli.app import executors
    monkeypatch.setattr(executors.LocalProcesses, "WATCH", 1e9)     # none retired here
    forks = []
    real = executors.LocalProcesses._grow
    monkeypatch.setattr(executors.LocalProcesses, "_grow", lambda self, k: (forks.append(k), real(self, k)))
    one = run(args)
    assert one[0] == 0, one[2]
    for idle, forked in ((0.0, []), (float("inf"), [1])):
        monkeypatch.setattr(executors.IdleProbe, "idle_cores", lambda self: idle)
        forks.clear()
        assert run([*args, "-j", "2"]) == one
        assert forks == forked


def test_the_idle_probe_reads_the_systems_idle_time(tmp_path):
    from prefcli.app.executors import IdleProbe
    clock = [100.0]
    f = tmp_path / "uptime"
    f.write_text("5000.00 9000.00\n")
    probe = IdleProbe(str(f), lambda: clock[0])
    clock[0] += IdleProbe.SPAN / 2
    assert probe.idle_cores() is None               # too short a time to say
    clock[0] = 100.04
    f.write_text("5000.04 9000.03\n")
    assert probe.idle_cores() == pytest.approx(0.75)  # 30 ms of idle CPU in 40 ms
    clock[0] = 100.10
    assert probe.idle_cores() == 0.0                # none since the last reading
    f.write_text("5000.10 8000.00\n")               # a counter that went back: unknown
    clock[0] = 100.20
    assert probe.idle_cores() == float("inf")
    missing = IdleProbe(str(tmp_path / "none"))     # no such file (not Linux): start them
    assert missing.idle_cores() == float("inf")
    if os.path.exists("/proc/uptime"):
        real = IdleProbe()
        assert real._idle is not None and real._idle >= 0


def test_local_processes_where_the_system_cannot_fork(monkeypatch):
    """The other way (multiprocessing's own processes, e.g. where only spawn exists): the same
    messages, results, errors and early stops."""
    from prefcli.app import executors
    monkeypatch.setattr(executors, "FORK", False)
    items = list(range(103))
    for jobs, here in ((2, False), (2, True)):
        with executors.LocalProcesses(jobs, here=here) as ex:
            assert all(type(w) is executors._Spawned for w in ex._procs)
            assert list(ex.map(_twice, items, 4)) == [2 * x for x in items]
            with pytest.raises(ValueError, match="boom"):
                list(ex.map(_twice, items[:10] + ["boom"] + items, 3))
            got = ex.map(_twice, items, 2)
            assert [next(got) for _ in range(3)] == [0, 2, 4]
            got.close()
            assert list(ex.map(_twice, items[:9], 2)) == [2 * x for x in items[:9]]
    with executors.LocalProcesses(2) as ex:
        with pytest.raises(executors.WorkerStopped, match="exit code 7"):
            list(ex.map(_twice, items[:20] + ["die"] + items, 1))


def test_a_large_command_and_a_large_reply_do_not_wait_on_each_other():
    """Chunks and results far bigger than a pipe holds (the parent's writes never block)."""
    from prefcli.app.executors import LocalProcesses
    items = ["x" * 200_000 + str(i) for i in range(12)]
    with LocalProcesses(2) as ex:
        assert list(ex.map(_echo, items, 3)) == [s * 2 for s in items]


def _echo(s):
    return s * 2


_FORCED = """
import os, sys, time
from prefcli.app import executors, settle_input
executors.IdleProbe.idle_cores = lambda self: float("inf")      # fork whatever the load
PARENT = os.getpid()
real = settle_input.settle_source
def settle_source(source, options):
    if os.getpid() != PARENT:
        if os.environ["HOW"] == "crash":
            os._exit(9)
        time.sleep(0.05)
    return real(source, options)
settle_input.settle_source = settle_source
from prefcli.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def _copies(tmp_path, n):
    src = (EXAMPLES / "sochi-3p.yaml").read_text("utf-8")
    for i in range(n):
        (tmp_path / f"g{i:03d}.yaml").write_text(src, encoding="utf-8")
    return str(tmp_path)


def _children(pid):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(d))
    return out


@pytest.mark.skipif(not os.path.isdir("/proc") or not hasattr(os, "fork"), reason="needs /proc and fork")
def test_ctrl_c_stops_the_workers_and_exits_130(tmp_path):
    import signal
    import subprocess
    import time
    folder = _copies(tmp_path, 200)
    proc = subprocess.Popen([sys.executable, "-c", _FORCED, "settle", folder, "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT),
                            env={**os.environ, "HOW": "slow"}, start_new_session=True,
                            preexec_fn=ctrl_c_as_from_a_terminal)
    try:
        deadline = time.monotonic() + 60
        workers = []
        while not workers and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
            workers = _children(proc.pid)
        assert workers, "no worker was forked"
        os.killpg(proc.pid, signal.SIGINT)          # what a terminal's Ctrl-C sends: the whole group
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and out == b""
    for w in workers:                               # gone with their parent, not orphans
        assert not os.path.exists(f"/proc/{w}") or _children(1).count(w) == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_worker_that_dies_is_exit_3_with_a_clear_message(tmp_path):
    import subprocess
    folder = _copies(tmp_path, 40)
    proc = subprocess.run([sys.executable, "-c", _FORCED, "settle", folder, "-j", "2", "-f", "json"],
                          capture_output=True, text=True, cwd=str(ROOT), env={**os.environ, "HOW": "crash"},
                          timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert "a worker process stopped (exit code 9)" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


_CLOCK = {"wall": 0.0, "cpu": 0.0, "step": 0.0, "pid": 0}


def _tick(x):
    """An item that takes this process 10 ms of (made-up) wall time and `step` of its CPU."""
    if os.getpid() == _CLOCK["pid"]:
        _CLOCK["wall"] += 0.01
        _CLOCK["cpu"] += _CLOCK["step"]
    return 2 * x, os.getpid()


def test_a_worker_without_a_core_of_its_own_is_retired(monkeypatch):
    """Once forked, the CPU the batch gets is judged every WATCH seconds: less than half a core
    above one process a worker, and the last worker is given no more and stopped (the probe
    then looks again); enough, and it stays. The results stay in order either way."""
    import types
    from prefcli.app import executors
    monkeypatch.setattr(executors, "time", types.SimpleNamespace(monotonic=lambda: _CLOCK["wall"],
                                                                 process_time=lambda: _CLOCK["cpu"]))
    monkeypatch.setattr(executors, "IdleProbe", lambda: _Readings())    # no core idle after
    items = list(range(400))
    for step, kept in ((0.005, False), (0.03, True)):
        _CLOCK.update(wall=0.0, cpu=0.0, step=step, pid=os.getpid())
        with executors.LocalProcesses(2, here=True, when_idle=_Readings(5.0)) as ex:
            got = list(ex.map(_tick, items, 4))
            assert [x for x, _ in got] == [2 * x for x in items]
            assert len({pid for _, pid in got}) == 2            # the worker settled some
            assert bool(ex._procs) is kept and bool(ex._active) is kept
            if not kept:
                assert {pid for _, pid in got[-100:]} == {os.getpid()}


class _ClientStandIn:
    """A cluster's client, as far as DaskExecutor asks before it maps anything."""

    def scheduler_info(self):
        return {"workers": {"tcp://127.0.0.1:1": {}}}


@pytest.mark.parametrize("raised, silenced", [(KeyboardInterrupt, True), (SystemExit, True), (ValueError, False)])
def test_an_interrupted_dask_batch_leaves_the_schedulers_complaints_unsaid(raised, silenced):
    """Ctrl-C or SIGTERM in a Dask batch: the scheduler's "Couldn't gather keys ... forgotten"
    about the dropped tasks was printed under the quiet 130/143; an error keeps Dask's logs."""
    import logging
    from prefcli.app.executors import DaskExecutor
    log = logging.getLogger("distributed")
    level = log.level
    try:
        log.setLevel(logging.WARNING)
        with pytest.raises(raised):
            with DaskExecutor(client=_ClientStandIn()):
                raise raised()
        assert (log.level > logging.CRITICAL) is silenced
    finally:
        log.setLevel(level)
