"""`prefcli replay --check` of 10,000 full deals against a libyaml parse (collector paused).

    python benchmarks/bench_replay.py [--pairs N] [--breakdown]

The ratio is the replay row of `python benchmarks/run_all.py --only replay` (alternating
whole-process runs of the installed prefcli and the baseline, median with min–max; see
benchmarks/_timing.py). --breakdown also times each stage in-process on the same corpus.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import run_all  # noqa: E402


def _breakdown(path: Path, parse: float) -> None:
    """Where the time goes, stage by stage, as a share of the bare parse."""
    from prefcli.rules.engine import check_record as engine_check
    from prefcli.io.documents import build_record, load_document
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.checks import check_record as validate_check

    def stage(name, fn):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        print(f"  {name:<34}{dt:6.2f} s  ({dt / parse:.2f} × parse)")
        return out

    print("breakdown (in-process):")
    doc = stage("load_document (strict YAML)", lambda: load_document(str(path)))
    record = stage("build_record (no JSON Schema)", lambda: build_record(doc, check_schema=False))
    rules = resolve_rules(record.rules)
    stage("engine.check_record", lambda: engine_check(record, rules))
    stage("validate.check_record (+ engine)", lambda: validate_check(record))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=None)
    ap.add_argument("--breakdown", action="store_true",
                    help="also time each stage in-process (load, build, validate's checks, engine)")
    args = ap.parse_args()
    code = run_all.main(["--only", "replay"] + (["--pairs", str(args.pairs)] if args.pairs else []))
    if args.breakdown:
        import gc
        import yaml
        path = run_all.corpora()["full.yaml"]
        gc.disable()                                  # as prefcli reads
        t = time.perf_counter()
        with open(path, encoding="utf-8") as fh:
            yaml.load(fh, Loader=yaml.CSafeLoader)
        parse = time.perf_counter() - t
        gc.enable()
        print(f"in-process libyaml parse (collector paused): {parse:.2f} s")
        _breakdown(path, parse)
    return code


if __name__ == "__main__":
    sys.exit(main())
