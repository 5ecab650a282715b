"""Speed of `prefcli score` (YAML, JSON, the table, a record with a comment): the score rows of run_all.py.

    python benchmarks/bench_score.py [--quick] [--pairs N]

The same measurement as `python benchmarks/run_all.py --only score` (alternating whole-process runs
of the installed prefcli and a baseline with the collector paused, medians with min–max; see
benchmarks/_timing.py). Exit status 1 if two outputs that must be identical differ.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_all  # noqa: E402

if __name__ == "__main__":
    sys.exit(run_all.main(["--only", "score", *sys.argv[1:]]))
