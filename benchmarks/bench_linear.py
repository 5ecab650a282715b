"""Linear cost: scoring full deals without `tricks` (each deal read and replayed once).

    python benchmarks/bench_linear.py [--small 500] [--large 2000] [--repeat 3] [--variant sochi]

`benchmarks/generate.py --full` makes two records of full deals (hands, auction, discard, play);
their `tricks` are removed, so the scorer takes every deal's tricks from its replay. The script
prints `prefcli score` wall time of the large record / the small one (goal < 4 for 4× the deals:
linear; a quadratic cost gives about 16), and the CPU-time ratio beside it (steadier on a busy
machine). Both run as fresh processes of the installed prefcli, alternately (benchmarks/_timing.py);
the ratio is the median [min–max] over the --repeat pairs.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import _timing as T  # noqa: E402


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
        cmd = T.prefcli() + ["score", "-f", "json"]
        p = T.pair(cmd + [str(large)], cmd + [str(small)], args.repeat)
    factor = args.large / args.small
    print(f"score of full deals without tricks: {args.large} deals {T.fmt_time(p.median('a'))} / {args.small} deals "
          f"{T.fmt_time(p.median('b'))} = {T.fmt_ratio(p.ratio())} (goal < {factor:.0f} for {factor:.0f}× the deals); "
          f"CPU {T.fmt_ratio(p.ratio('cpu'))}")


if __name__ == "__main__":
    main()
