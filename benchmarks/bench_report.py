"""Benchmark of `prefcli report` and `prefcli draw` (issue 14).

    python benchmarks/bench_report.py [--repeat 5] [--deals 30] [--keep DIR]

Measures, as a user runs them (fresh processes of the installed prefcli, median of --repeat;
benchmarks/_timing.py):

* ``prefcli report examples/sochi-3p.yaml -o …``: goal under 1 s of wall time; printed beside
  the same run's ``prefcli --version`` (the start-up floor) as a ratio;
* ``prefcli draw examples/sochi-3p.yaml`` likewise;
* the size of the page of a generated game of --deals full deals (hands, auction, play: the
  replay's data and a sheet with a slider of every deal); goal under 300 KB.

Prints a small report; the goals are reported, not enforced (timings depend on the machine).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import _timing as T  # noqa: E402


def best(cmd: Sequence[str], repeat: int) -> float:
    """Median wall time of `repeat` runs (after one warm-up)."""
    return statistics.median(r.wall for r in T.repeat(cmd, repeat))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--keep", metavar="DIR", help="keep the generated game and pages here")
    args = ap.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="prefcli-bench-report-"))
    work.mkdir(parents=True, exist_ok=True)
    py = T.prefcli()
    sample = str(ROOT / "examples" / "sochi-3p.yaml")
    try:
        base = best(py + ["--version"], args.repeat)
        page = work / "sochi-3p.html"
        rep = best(py + ["report", sample, "-o", str(page)], args.repeat)
        drw = best(py + ["draw", sample, "-o", str(work / "sochi-3p.svg")], args.repeat)
        game = work / f"full-{args.deals}.yaml"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", str(args.deals),
                        "--full", "--seed", "14", "-o", str(game)], check=True, cwd=str(ROOT))
        big = work / f"full-{args.deals}.html"
        full = best(py + ["report", str(game), "-o", str(big)], max(1, args.repeat // 2))
        size = big.stat().st_size
        print(f"prefcli --version (start-up floor)         {base * 1000:7.0f} ms")
        print(f"report examples/sochi-3p.yaml              {rep * 1000:7.0f} ms  ({rep / base:.2f} × start-up; "
              f"goal < 1000 ms: {'ok' if rep < 1 else 'MISSED'}) page {page.stat().st_size / 1024:.0f} KB")
        print(f"draw examples/sochi-3p.yaml                {drw * 1000:7.0f} ms  ({drw / base:.2f} × start-up)")
        print(f"report of {args.deals} full deals                  {full * 1000:7.0f} ms  page {size / 1024:.0f} KB "
              f"(goal < 300 KB: {'ok' if size < 300 * 1024 else 'MISSED'})")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
