"""Linear cost: scoring full deals without `tricks` (each deal read and replayed once); with
--batches, batches of games that each have their own players.

    python benchmarks/bench_linear.py [--small 500] [--large 2000] [--repeat 3] [--variant sochi]
    python benchmarks/bench_linear.py --batches 250,1000,2000 [--repeat 3] [--jobs 1] [--command stats ...]

`benchmarks/generate.py --full` makes two records of full deals (hands, auction, discard, play);
their `tricks` are removed, so the scorer takes every deal's tricks from its replay. The script
prints `prefcli score` wall time of the large record / the small one (goal < 4 for 4× the deals:
linear; a quadratic cost gives about 16), and the CPU-time ratio beside it (steadier on a busy
machine). Both run as fresh processes of the installed prefcli, alternately (benchmarks/_timing.py);
the ratio is the median [min–max] over the --repeat pairs.

--batches N,N,…: at each size N, a folder of N games (a generated record of 20 summary deals,
copied) where every game has its own three players (3N names), against a folder of the same N
games of the same three players, alternately, for each command (settle --summary, settle in
every format, stats, stats --rating elo, rating). It prints the CPU time per input (µs) of the
many-players batch at each size and its CPU ratio to the three-player batch: linear means the
µs per input stay flat as N grows and the ratio stays near 1 (a fold that copies what it has
built, or scans every player at each step, makes both grow with N). The table's bytes grow with
inputs × players (a column a player), so its row is the one whose ratio rises with N.
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


#: the commands of the --batches series (each given the folder)
BATCH_COMMANDS = {
    "settle --summary": ["settle", "--summary"],
    "settle": ["settle"],
    "settle -f json": ["settle", "-f", "json"],
    "settle -f csv": ["settle", "-f", "csv"],
    "stats": ["stats"],
    "stats --rating elo -f json": ["stats", "--rating", "elo", "-f", "json"],
    "rating": ["rating"],
}


def batch_folders(tmp: Path, n: int) -> "tuple[Path, Path]":
    """`n` copies of one generated 20-deal record: each with its own players, and all alike."""
    import re
    base = tmp / "base.yaml"
    if not base.exists():
        subprocess.run([sys.executable, str(HERE / "generate.py"), "--deals", "20", "--seed", "1", "-o", str(base)],
                       check=True, cwd=str(ROOT))
    text = base.read_text(encoding="utf-8")
    many, same = tmp / f"many-{n}", tmp / f"same-{n}"
    many.mkdir()
    same.mkdir()
    for i in range(n):
        (many / f"g{i:05}.yaml").write_text(re.sub(r"\b(Ann|Bob|Cid)\b", lambda m: f"{m.group(1)}{i}", text),
                                            encoding="utf-8")
        (same / f"g{i:05}.yaml").write_text(text, encoding="utf-8")
    return many, same


def batches(args: argparse.Namespace) -> None:
    sizes = [int(x) for x in args.batches.split(",")]
    names = args.command or list(BATCH_COMMANDS)
    unknown = [c for c in names if c not in BATCH_COMMANDS]
    if unknown:
        sys.exit(f"unknown --command {unknown[0]!r}; one of: {', '.join(BATCH_COMMANDS)}")
    with tempfile.TemporaryDirectory() as tmp:
        folders = {n: batch_folders(Path(tmp), n) for n in sizes}
        print(f"batches of games with their own players (3 per game) against the same games of three players; "
              f"--jobs {args.jobs}; CPU per input, median of {args.repeat} alternated pairs; {T.load()}")
        for name in names:
            cells = []
            for n in sizes:
                many, same = folders[n]
                cmd = T.prefcli() + BATCH_COMMANDS[name] + ["--jobs", str(args.jobs)]
                p = T.pair(cmd + [str(many)], cmd + [str(same)], args.repeat, warmup=0)
                per = p.median("a", "cpu") / n * 1e6
                cells.append(f"{n}: {per:,.0f} µs ({T.fmt_ratio(p.ratio('cpu'))})")
            print(f"  {name:<28} " + "; ".join(cells), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=500)
    ap.add_argument("--large", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", default="sochi")
    ap.add_argument("--batches", default=None, metavar="N,N,…",
                    help="the many-players series at these numbers of games (e.g. 250,1000,2000)")
    ap.add_argument("--jobs", type=int, default=1, help="--batches: the commands' --jobs")
    ap.add_argument("--command", action="append", default=[],
                    help=f"--batches: only this command (repeatable): {', '.join(BATCH_COMMANDS)}")
    args = ap.parse_args()
    if args.batches:
        batches(args)
        return
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
