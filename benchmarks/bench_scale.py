"""Benchmark of settlement at scale (issue 15): parallel ratios, Dask, and flat memory.

    python benchmarks/bench_scale.py [--records 1000] [--memory-records 10000] [--deals 30] [--repeat 3]

In one run, on records of 30 generated deals (``benchmarks/generate.py``, deterministic):

* ``settle FILES -f json`` with ``--jobs 1``, ``--jobs 2`` and ``--executor dask --jobs 2`` (a local
  Dask cluster of two workers, started and stopped by the command, so its start-up counts) on
  ``--records`` records; median wall time of ``--repeat`` runs; the three outputs must be identical.
  Goals: jobs 2 / jobs 1 ≤ 0.6, Dask / jobs 2 ≤ 1.5.
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


def best(args: Sequence[str], repeat: int) -> Tuple[float, bytes, int, float]:
    """Median wall time of `repeat` runs, the output, the exit status, and the median CPU time."""
    walls, cpus, out, code = [], [], b"", 0
    for _ in range(repeat):
        w, out, code, _ = run(args)
        walls.append(w)
        cpus.append(CPU["last"])
    return statistics.median(walls), out, code, statistics.median(cpus)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--memory-records", type=int, default=10000)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR", default=None, help="generate into DIR (reused when it has records)")
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
    one_t, one_out, one_code, one_c = best(settle + ["--jobs", "1"], args.repeat)
    two_t, two_out, two_code, two_c = best(settle + ["--jobs", "2"], args.repeat)
    dask_t, dask_out, dask_code, dask_c = best(settle + ["--jobs", "2", "--executor", "dask"], args.repeat)
    same = one_out == two_out == dask_out and one_code == two_code == dask_code == 0
    print(f"\nsettle of {len(timing)} records (median of {args.repeat}; CPU: the command and its workers):")
    print(f"  --jobs 1                      {one_t:7.2f} s wall  {one_c:6.2f} s CPU  {len(timing) / one_t:6.0f} records/s")
    print(f"  --jobs 2                      {two_t:7.2f} s wall  {two_c:6.2f} s CPU  {len(timing) / two_t:6.0f} records/s")
    print(f"  --executor dask --jobs 2      {dask_t:7.2f} s wall  {dask_c:6.2f} s CPU  {len(timing) / dask_t:6.0f} records/s "
          "(local cluster started and stopped)")
    print(f"  --jobs 2 / --jobs 1           {two_t / one_t:7.2f}     goal ≤ 0.6")
    print(f"  dask / --jobs 2               {dask_t / two_t:7.2f}     goal ≤ 1.5")
    print(f"  outputs identical: {'yes' if same else 'NO'} ({len(one_out):,} bytes of JSON)")

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
