"""Executors (local processes, Dask) give the results of --jobs 1; a batch's memory stays flat."""
import json
import os
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, run_cli

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


@pytest.fixture(scope="module")
def cluster():
    distributed = _dask()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as c, distributed.Client(c) as client:
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
