"""Linear cost: scoring full deals without `tricks` (each deal read and replayed once).

    python benchmarks/bench_linear.py [--small 500] [--large 2000] [--repeat 3] [--variant sochi]

`benchmarks/generate.py --full` makes two records of full deals (hands, auction, discard, play);
their `tricks` are removed, so the scorer takes every deal's tricks from its replay. The script
prints `prefcli score` wall time of the large record / the small one (goal < 4 for 4× the deals:
linear; a quadratic cost gives about 16), and the CPU-time ratio beside it (steadier on a busy
machine). Both run as fresh processes; best of --repeat runs each.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def best(cmd: List[str], repeat: int) -> Tuple[float, float]:
    """Best wall time and best CPU time (user + sys of the child) of `repeat` fresh runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{proc.stderr[:2000]}")
    return min(walls), min(cpus)


def record_without_tricks(deals: int, variant: str, path: Path) -> None:
    """A generated record of `deals` full deals, written as JSON with every `tricks` removed."""
    gen = [sys.executable, str(HERE / "generate.py"), "--deals", str(deals), "--full", "--json",
           "--variant", variant, "--seed", "1", "-o", str(path)]
    subprocess.run(gen, check=True, cwd=str(ROOT))
    data = json.loads(path.read_text(encoding="utf-8"))
    for deal in data["deals"]:
        if isinstance(deal, dict):
            deal.pop("tricks", None)
    path.write_text(json.dumps(data), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=500)
    ap.add_argument("--large", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", default="sochi")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small.json", Path(tmp) / "large.json"
        record_without_tricks(args.small, args.variant, small)
        record_without_tricks(args.large, args.variant, large)
        cmd = [sys.executable, "-m", "prefcli", "score", "-f", "json"]
        ws, cs = best(cmd + [str(small)], args.repeat)
        wl, cl = best(cmd + [str(large)], args.repeat)
    factor = args.large / args.small
    print(f"score of full deals without tricks: {args.large} deals {wl:.2f} s / {args.small} deals {ws:.2f} s "
          f"= {wl / ws:.2f} (goal < {factor:.0f} for {factor:.0f}× the deals); CPU {cl:.2f} s / {cs:.2f} s "
          f"= {cl / cs:.2f}")


if __name__ == "__main__":
    main()
