"""Benchmark: `prefcli replay --check` over ≥ 10,000 full deals against a bare libyaml parse.

    python benchmarks/bench_replay.py [--deals 10000] [--players 3] [--variant sochi] [--repeat 3]

Generates the corpus into a temporary folder (benchmarks/generate.py), then times, in the same
run, (a) ``yaml.load(text, Loader=yaml.CSafeLoader)`` of the file and (b) ``python -m prefcli
replay --check FILE`` as a subprocess (start-up included). Prints both times, the ratio (goal
≤ 1.5) and deals per second. Best of --repeat runs for each.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

GOAL = 1.5


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
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--players", type=int, default=3, choices=(3, 4))
    ap.add_argument("--variant", default="sochi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--breakdown", action="store_true",
                    help="also time each stage in-process (load, build, validate's checks, engine)")
    args = ap.parse_args()

    import yaml
    from generate import dump, generate

    with tempfile.TemporaryDirectory(prefix="prefcli-bench-") as tmp:
        path = Path(tmp) / "corpus.yaml"
        t0 = time.perf_counter()
        record = generate(args.deals, full=True, players=args.players, variant=args.variant, seed=args.seed)
        path.write_text(dump(record, False), encoding="utf-8")
        gen = time.perf_counter() - t0
        size = path.stat().st_size
        print(f"corpus: {args.deals} full deals, {args.variant}, {args.players} players, "
              f"{size / 1e6:.1f} MB (generated in {gen:.1f} s)")

        parse_times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            with open(path, encoding="utf-8") as fh:
                yaml.load(fh.read(), Loader=yaml.CSafeLoader)
            parse_times.append(time.perf_counter() - t)
        replay_times = []
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        for _ in range(args.repeat):
            t = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "prefcli", "replay", "--check", str(path)],
                                  capture_output=True, text=True, cwd=str(ROOT), env=env)
            replay_times.append(time.perf_counter() - t)
            if proc.returncode != 0:
                print(f"replay --check failed (exit {proc.returncode}):\n{proc.stderr[:2000]}", file=sys.stderr)
                return 1
        parse, replay = min(parse_times), min(replay_times)
        ratio = replay / parse
        print(f"bare libyaml parse (CSafeLoader): {parse:.2f} s")
        print(f"prefcli replay --check:          {replay:.2f} s  ({args.deals / replay:,.0f} deals/s)")
        print(f"ratio: {ratio:.2f} (goal ≤ {GOAL}) {'OK' if ratio <= GOAL else 'ABOVE GOAL'}")
        if args.breakdown:
            _breakdown(path, parse)
    return 0


if __name__ == "__main__":
    sys.exit(main())
