"""The cost stays linear: µs per deal of each command at sizes from 100 to 200,000 deals (issue 18).

    python benchmarks/bench_per_deal.py [--repeat 3] [--huge] [--commands validate,score,...]

For every command (validate, score -f json and convert -f json on summary YAML records, convert -f
yaml on the same as JSON, replay --check on full deals), whole processes of the installed prefcli
(benchmarks/_timing.py) on records from benchmarks/generate.py (made once into benchmarks/out/).
The sizes are run round-robin (every size once, then again, --repeat times) so a change in the
machine's load reaches every size alike; each cell is the median. Printed per size:

* µs per deal = median wall time / deals (start-up included, so it falls with size at first);
* marginal µs per deal = the extra time over the previous size / the extra deals: linear cost
  means this stays flat from one step to the next (a quadratic cost would multiply it by the
  size factor, 10×);
* the peak resident set, and its marginal KiB per deal (linear memory: flat).

Summary sizes: 100, 1,000, 10,000, 100,000 (--huge adds 200,000). Full deals (replay) stop at
10,000 unless --huge (100,000 and 200,000): generating and replaying them takes minutes.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _timing as T  # noqa: E402

SUMMARY = [100, 1000, 10000, 100000]
FULL = [100, 1000, 10000]
HUGE_SUMMARY = [200000]
HUGE_FULL = [100000, 200000]


def corpus(n: int, full: bool, json: bool) -> Path:
    kind = "full" if full else "sum"
    path = T.OUT / f"{kind}{n}.{'json' if json else 'yaml'}"
    return T.generate(path, "--deals", str(n), "--seed", "1", *(["--full"] if full else []),
                      *(["--json"] if json else []))


COMMANDS: Dict[str, Tuple[List[str], bool, bool]] = {
    # name: (prefcli arguments before the file, full deals, JSON input)
    "validate": (["validate", "-q"], False, False),
    "score": (["score", "-f", "json"], False, False),
    "replay --check": (["replay", "--check"], True, False),
    "convert -f json": (["convert", "-f", "json"], False, False),
    "convert -f yaml (from JSON)": (["convert", "-f", "yaml"], False, True),
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per size (median)")
    ap.add_argument("--huge", action="store_true", help="add 200,000 summary and 100,000/200,000 full deals")
    ap.add_argument("--sizes", default=None, help="comma-separated sizes instead of the defaults (e.g. 100,1000)")
    ap.add_argument("--commands", default=",".join(COMMANDS),
                    help="comma-separated subset of: " + ", ".join(COMMANDS))
    args = ap.parse_args(argv)
    # 200,000 full deals are 77 MB of YAML, past the default 64 MiB input limit
    os.environ.setdefault("PREFCLI_MAX_BYTES", str(512 * 1024 * 1024))
    chosen = [c.strip() for c in args.commands.split(",") if c.strip()]
    unknown = [c for c in chosen if c not in COMMANDS]
    if unknown:
        ap.error(f"unknown command(s): {', '.join(unknown)}")
    print(T.header(args.repeat).replace("alternated pairs after one warm-up each", "runs per size, round-robin")
          .split("; ratio")[0])
    print("| command | deals | median wall | µs/deal | marginal µs/deal | peak MiB | marginal KiB/deal |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in chosen:
        pre, full, json = COMMANDS[name]
        sizes = (FULL + HUGE_FULL * args.huge) if full else (SUMMARY + HUGE_SUMMARY * args.huge)
        if args.sizes:
            sizes = [int(x) for x in args.sizes.split(",")]
        files = {n: corpus(n, full, json) for n in sizes}
        cmds = {n: T.prefcli() + pre + [str(files[n])] for n in sizes}
        T.run(cmds[sizes[0]])                                   # warm the bytecode cache
        runs: Dict[int, List[T.Run]] = {n: [] for n in sizes}
        for _ in range(args.repeat):
            for n in sizes:
                r = T.run(cmds[n])
                if r.code != 0:             # a refused record would time the refusal, not the work
                    sys.exit(f"{name} of {files[n]} exited {r.code}: every corpus here is valid")
                runs[n].append(r)
        prev: Optional[Tuple[int, float, float]] = None
        for n in sizes:
            wall = statistics.median(r.wall for r in runs[n])
            peak = statistics.median(r.peak_mib for r in runs[n])
            marginal = mem = "—"
            if prev:
                marginal = f"{(wall - prev[1]) / (n - prev[0]) * 1e6:.1f}"
                mem = f"{(peak - prev[2]) * 1024 / (n - prev[0]):.2f}"
            print(f"| `{name}` | {n:,} | {T.fmt_time(wall)} | {wall / n * 1e6:.1f} | {marginal} "
                  f"| {peak:.0f} | {mem} |", flush=True)
            prev = (n, wall, peak)
    print(f"finished with {T.load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
