"""Benchmark of settlement at scale (issue 15): parallel ratios, Dask, and flat memory.

    python benchmarks/bench_scale.py [--records 1000] [--memory-records 10000] [--deals 30] [--repeat 3]

In one run, on records of 30 generated deals (``benchmarks/generate.py``, deterministic):

* ``settle FILES -f json`` with ``--jobs 1``, ``--jobs 2`` and ``--executor dask --jobs 2`` (a local
  Dask cluster of two workers, started and stopped by the command, so its start-up counts) on
  ``--records`` records; best wall time of ``--repeat`` runs; the three outputs must be identical.
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
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent

#: runs prefcli in this process and reports its peak RSS (KiB on Linux) on stderr's last line
PEAK = """
import resource, sys
from prefcli.cli.main import main
args = open(sys.argv[1]).read().split("\\0")
code = main(args)
sys.stderr.write("\\nmaxrss %d\\n" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
sys.exit(code)
"""


def _env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)   # as an installed package runs: bytecode cached
    return env


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
    """Wall time, stdout, exit status and peak RSS (KiB) of `prefcli ARGS` (many files: an arg file).

    CPU["last"] is the CPU time (user + sys) of the command and the workers it waited for."""
    import resource
    path = _argfile(args)
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", PEAK, path], capture_output=True, cwd=str(ROOT), env=_env())
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        CPU["last"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    finally:
        os.unlink(path)
    err = proc.stderr.decode(errors="replace")
    rss = int(err.rsplit("maxrss ", 1)[1].split()[0]) if "maxrss " in err else -1
    if proc.returncode not in (0, 1):
        sys.stderr.write(err[-2000:])
    return wall, proc.stdout, proc.returncode, rss


def best(args: Sequence[str], repeat: int) -> Tuple[float, bytes, int, float]:
    """Best wall time of `repeat` runs, the output, the exit status, and the best CPU time."""
    t, out, code, cpu = float("inf"), b"", 0, float("inf")
    for _ in range(repeat):
        w, out, code, _ = run(args)
        t, cpu = min(t, w), min(cpu, CPU["last"])
    return t, out, code, cpu


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
    print(f"\nsettle of {len(timing)} records (best of {args.repeat}; CPU: the command and its workers):")
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
