"""Start-up and validate (YAML, JSON, a folder of 1,000 files): the validate rows of run_all.py.

    python benchmarks/bench_validate.py [--quick] [--pairs N]

The same measurement as `python benchmarks/run_all.py --only validate` (alternating whole-process runs
of the installed prefcli and a baseline with the collector paused, medians with min–max; see
benchmarks/_timing.py). Exit status 1 if two outputs that must be identical differ.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_all  # noqa: E402

if __name__ == "__main__":
    sys.exit(run_all.main(["--only", "validate", *sys.argv[1:]]))
