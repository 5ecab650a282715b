"""Benchmark of settlement at scale (issue 15): parallel ratios, Dask, and flat memory.

    python benchmarks/bench_scale.py [--records 1000] [--memory-records 10000] [--deals 30] [--repeat 3]
                                     [--busy N] [--no-dask] [--no-memory]

In one run, on records of 30 generated deals (``benchmarks/generate.py``, deterministic):

* ``settle FILES -f json`` with ``--jobs 1``, ``--jobs 2`` and ``--executor dask --jobs 2`` (a local
  Dask cluster of two workers, started and stopped by the command, so its start-up counts) on
  ``--records`` records, run in turn (1, 2, dask, 1, 2, dask, … after one warm-up each) ``--repeat``
  times; the ratios are taken round by round, median [min–max]; the three outputs must be
  identical. Goals: jobs 2 / jobs 1 ≤ 0.6, Dask / jobs 2 ≤ 1.5.
* the same ``--jobs 2`` / ``--jobs 1`` on a busy machine: ``--busy`` processes (default 1) spin
  all the time, started by this script and stopped after, while the two alternate. Goal ≤ 1
  (never slower than one job when another process holds a core: ``--jobs 2`` forks its worker
  only when it measures a core idle, so there it settles alone).
* ``--no-dask`` leaves the Dask command out of the rounds and ``--no-memory`` the peak-memory
  part (the parallel rows alone, e.g. at 200 or 5,000 records: ``--records 5000
  --memory-records 5000 --no-dask --no-memory``).
* the peak memory (maximum resident set) of ``settle --summary`` on 1,000 and on
  ``--memory-records`` records: the totals are folded as results arrive, so the peak should not
  grow with the number of inputs. The same for the per-input ``settle -f json`` (which writes a
  row per input and so holds them) is printed beside it.
* the figures a 10-million-record archive would take, from the measured rates.

Exit status 1 if the outputs differ; the goals are reported, not enforced (timings depend on
the machine and its load).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import _timing as T  # noqa: E402

#: runs prefcli with the arguments of an arg file (too many files for a command line)
MAIN = """
import sys
from prefcli.cli.main import main
sys.exit(main(open(sys.argv[1]).read().split("\\0")))
"""


def generate(folder: Path, records: int, deals: int, seed: int) -> List[str]:
    if not any(folder.glob("*.yaml")):
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--records", str(records),
                        "--deals-per-record", str(deals), "--seed", str(seed), "-o", str(folder)],
                       check=True, capture_output=True)
    return sorted(str(p) for p in folder.glob("*.yaml"))[:records]


def _argfile(args: Sequence[str]) -> str:
    fd, path = tempfile.mkstemp(prefix="prefcli-bench-args-")
    with os.fdopen(fd, "w") as fh:
        fh.write("\0".join(args))
    return path


CPU = {"last": 0.0}


def run(args: Sequence[str]) -> Tuple[float, bytes, int, int]:
    """Wall time, stdout, exit status and peak RSS (KiB) of `prefcli ARGS` (many files: an arg file),
    as a fresh process of the installed package (benchmarks/_timing.py).

    CPU["last"] is the CPU time (user + sys) of the command and the workers it waited for."""
    path = _argfile(args)
    try:
        r = T.run([sys.executable, "-c", MAIN, path], stdout=True)
    finally:
        os.unlink(path)
    CPU["last"] = r.cpu
    return r.wall, r.out, r.code, int(r.peak_mib * 1024)


def rounds(commands: Sequence[Sequence[str]], repeat: int) -> List[List[Tuple[float, float, bytes, int]]]:
    """Each command once as a warm-up, then all of them in turn `repeat` times: for each
    command, (wall, CPU, digest of the output, exit status) of every round, so a drift in the
    machine's load hits them alike and ratios can be taken round by round. Only digests are
    kept: megabytes of outputs held here would be counted in the peak of every process this
    script starts afterwards (a forked child's resident set starts as this one's)."""
    import hashlib
    for c in commands:
        run(c)
    out: List[List[Tuple[float, float, bytes, int]]] = [[] for _ in commands]
    for _ in range(repeat):
        for i, c in enumerate(commands):
            w, o, code, _ = run(c)
            out[i].append((w, CPU["last"], hashlib.sha256(o).digest(), code))
            SIZE["last"] = len(o)
            del o
    return out


SIZE = {"last": 0}


def _median(runs: Sequence[Tuple[float, float, bytes, int]], what: int) -> float:
    return statistics.median(r[what] for r in runs)


def _ratio(a: Sequence[Tuple[float, float, bytes, int]], b: Sequence[Tuple[float, float, bytes, int]],
           what: int = 0) -> str:
    r = [x[what] / y[what] for x, y in zip(a, b)]
    return f"{statistics.median(r):5.2f} [{min(r):.2f}–{max(r):.2f}]"


SPIN = "while True:\n    pass\n"


def busy_pair(settle: Sequence[str], repeat: int, spinners: int) -> Tuple[Sequence, Sequence]:
    """--jobs 1 and --jobs 2 in turn while `spinners` processes of this script spin."""
    # each in a session of its own, as another user's program is: the scheduler shares the
    # cores between sessions (autogroups) first, so a spinner in this script's session would
    # take its share from the settle being timed and make --jobs 2 look better than it is
    procs = [subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True) for _ in range(spinners)]
    try:
        time.sleep(0.5)                 # the spinners running before the first timed run
        one, two = rounds([list(settle) + ["--jobs", "1"], list(settle) + ["--jobs", "2"]], repeat)
    finally:
        for p in procs:
            p.kill()
            p.wait()
    return one, two


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--memory-records", type=int, default=10000)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--busy", type=int, default=1, metavar="N",
                    help="busy-loop processes for the busy-machine row (0: leave the row out)")
    ap.add_argument("--keep", metavar="DIR", default=None, help="generate into DIR (reused when it has records)")
    ap.add_argument("--no-dask", action="store_true", help="leave the Dask executor out")
    ap.add_argument("--no-memory", action="store_true", help="leave the peak-memory part out")
    args = ap.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="prefcli-bench-scale-"))
    big = base / f"records-{args.memory_records}x{args.deals}"
    big.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    files = generate(big, max(args.records, args.memory_records), args.deals, seed=7)
    print(f"{len(files)} records × {args.deals} deals in {big} (made in {time.perf_counter() - t0:.0f} s)")
    try:
        load = " (load average %.2f %.2f %.2f)" % os.getloadavg()
    except OSError:
        load = ""
    print(f"{os.cpu_count()} CPU(s){load}")
    timing = files[:args.records]
    settle = ["settle", *timing, "-f", "json"]
    commands = [settle + ["--jobs", "1"], settle + ["--jobs", "2"]]
    if not args.no_dask:
        commands.append(settle + ["--jobs", "2", "--executor", "dask"])
    one, two, *more = rounds(commands, args.repeat)
    dask = more[0] if more else []
    outs = {r[2] for r in one + two + dask}
    same = len(outs) == 1 and {r[3] for r in one + two + dask} == {0}
    one_t, two_t = (_median(x, 0) for x in (one, two))
    print(f"\nsettle of {len(timing)} records ({args.repeat} rounds of the {len(commands)} in turn; median; "
          "CPU: the command and its workers):")
    for label, x in (("--jobs 1", one), ("--jobs 2", two), ("--executor dask --jobs 2", dask)):
        if not x:
            continue
        t = _median(x, 0)
        print(f"  {label:28}  {t:7.2f} s wall  {_median(x, 1):6.2f} s CPU  {len(timing) / t:6.0f} records/s"
              + (" (local cluster started and stopped)" if "dask" in label else ""))
    print(f"  --jobs 2 / --jobs 1           {_ratio(two, one)}  CPU {_ratio(two, one, 1)}   goal ≤ 0.6")
    if dask:
        print(f"  dask / --jobs 2               {_ratio(dask, two)}  CPU {_ratio(dask, two, 1)}   goal ≤ 1.5")
    print(f"  outputs identical: {'yes' if same else 'NO'} ({SIZE['last']:,} bytes of JSON)")
    if args.busy > 0:
        b1, b2 = busy_pair(settle, args.repeat, args.busy)
        same = same and {r[2] for r in b1 + b2} == outs
        print(f"\nwith {args.busy} busy-loop process(es) spinning ({T.load()} at the end):")
        print(f"  --jobs 1 {_median(b1, 0):7.2f} s wall {_median(b1, 1):6.2f} s CPU;  --jobs 2 {_median(b2, 0):7.2f} s "
              f"wall {_median(b2, 1):6.2f} s CPU")
        print(f"  --jobs 2 / --jobs 1           {_ratio(b2, b1)}  CPU {_ratio(b2, b1, 1)}   goal ≤ 1 (never slower)")

    if args.no_memory:
        return 0 if same else 1
    print("\npeak memory (maximum resident set):")
    small_n = min(1000, len(files))
    rows = []
    for label, extra in (("settle --summary", ["--summary"]), ("settle -f json (a row per input)", [])):
        peaks = []
        for n in (small_n, len(files)):
            w, out, code, rss = run(["settle", *files[:n], "-f", "json", *extra])
            peaks.append((n, rss, w, code))
        rows.append((label, peaks))
        (n1, r1, _, _), (n2, r2, w2, c2) = peaks
        print(f"  {label:34} {n1:>6} inputs {r1 / 1024:7.1f} MiB   {n2:>6} inputs {r2 / 1024:7.1f} MiB"
              f"   ×{r2 / r1:.2f}  ({w2:.1f} s, exit {c2})")
    summary_peak = rows[0][1][1][1] / 1024
    rate1, rate2 = len(timing) / one_t, len(timing) / two_t
    size = sum(os.path.getsize(f) for f in timing) / len(timing)
    archive = 10_000_000
    print(f"\na 10-million-record archive ({size / 1024:.1f} KiB a record: {archive * size / 2**30:.0f} GiB of YAML):")
    print(f"  one process:        {archive:,} / {rate1:.0f} records/s = {archive / rate1 / 3600:.1f} h")
    print(f"  this machine, -j 2: {archive:,} / {rate2:.0f} records/s = {archive / rate2 / 3600:.1f} h")
    for cores in (16, 64):
        print(f"  a Dask cluster of {cores} cores (≈ {rate1:.0f} records/s a core): "
              f"{archive / (rate1 * cores) / 60:.0f} min")
    print(f"  memory: ≈ {summary_peak:.0f} MiB a process with --summary, whatever the number of records")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
