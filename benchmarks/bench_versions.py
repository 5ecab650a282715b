"""The same command under two versions of prefcli: a git revision against the checkout.

    python benchmarks/bench_versions.py                 # main against the working tree
    python benchmarks/bench_versions.py --before a3c5faa --pairs 7
    python benchmarks/bench_versions.py --command "score -f json" --corpus summary-json
    python benchmarks/bench_versions.py --command "settle --jobs 1 -f json" --corpus dir

Made for before/after measurements of a change (the README's speed notes): the revision is
exported with ``git archive`` into benchmarks/out/versions/REV and both sides run as
``python -m prefcli`` with that tree or the checkout first on ``PYTHONPATH`` (same interpreter,
same installed dependencies, bytecode cached), alternating, after one warm-up each
(``_timing.pair``). It prints each side's median CPU (user + sys) and wall time and the
per-pair CPU ratio, after / before. Nothing is asserted: speed is reported, never tested.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import List

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _timing as T  # noqa: E402

CORPORA = {
    "summary-json": ("sochi-10k-summary.json", ["--deals", "10000", "--json"]),
    "summary-yaml": ("sochi-10k-summary.yaml", ["--deals", "10000"]),
    "full-yaml": ("sochi-10k-full.yaml", ["--deals", "10000", "--full"]),
    "full-json": ("sochi-10k-full.json", ["--deals", "10000", "--full", "--json"]),
    # a folder of 1,000 records of 30 deals (run_all's `validate DIR` and `settle` rows)
    "dir": ("many1000x30", ["--records", "1000", "--deals-per-record", "30", "--seed", "1"]),
}


def export(rev: str) -> Path:
    """The tree of `rev`, exported once into benchmarks/out/versions/REV."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=str(T.ROOT), capture_output=True, text=True,
                         check=True).stdout.strip()
    dest = T.OUT / "versions" / sha
    if not (dest / "prefcli").exists():
        dest.mkdir(parents=True, exist_ok=True)
        tar = dest / "tree.tar"
        subprocess.run(["git", "archive", "-o", str(tar), sha, "prefcli", "schemas"], cwd=str(T.ROOT), check=True)
        with tarfile.open(tar) as t:
            t.extractall(dest)
        tar.unlink()
    return dest


def side(tree: Path, command: List[str], path: Path) -> List[str]:
    return ["env", f"PYTHONPATH={tree}", sys.executable, "-m", "prefcli", *command, str(path), "-o", "/dev/null"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="main", help="the git revision measured against the checkout")
    ap.add_argument("--command", default="score -f json", help="the prefcli command (its input is the corpus)")
    ap.add_argument("--corpus", choices=sorted(CORPORA), default="summary-json")
    ap.add_argument("--pairs", type=int, default=5)
    args = ap.parse_args()
    name, gen = CORPORA[args.corpus]
    path = T.generate(T.OUT / name, *gen)
    before = export(args.before)
    command = args.command.split()
    p = T.pair(side(T.ROOT, command, path), side(before, command, path), args.pairs)
    print(f"{T.header(args.pairs)}")
    print(f"prefcli {args.command} {name}: before = {args.before} ({before.name}), after = the checkout")
    for label, key in (("before", "b"), ("after", "a")):
        print(f"  {label:<6} CPU {T.fmt_time(p.median(key, 'cpu'))}, wall {T.fmt_time(p.median(key, 'wall'))}")
    print(f"  CPU after / before: {T.fmt_ratio(p.ratio('cpu'))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
