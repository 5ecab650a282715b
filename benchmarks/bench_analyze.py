"""Benchmark: the double-dummy solver over random full deals, and `prefcli analyze` per deal.

    python benchmarks/bench_analyze.py [--deals 50] [--players 3] [--variant sochi] [--seed 1]

Generates --deals full deals (benchmarks/generate.py: random hands, bots' auctions, a random
legal play), then times, in-process:

- one *solve* = one position from the opening lead, one game (the played contract's declarer and
  strain, the misère, or one player's all-pass bound), a fresh transposition table each time;
  for every trick contract also the rest of the deal's table (every strain and the misère), so
  suits, no-trump and misère are all sampled. Median and worst time per solve, by kind and overall (goal: pure
  Python ≤ 0.5 s median per solve);
- the same solves with the quick-trick cut-offs off, as a baseline measured in the same run;
- the whole analysis of each deal (the line after every trick, the mistakes), median and worst.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

GOAL = 0.5


def _stats(times: List[float]) -> str:
    return (f"n={len(times):3d}  median {statistics.median(times) * 1000:8.1f} ms  "
            f"mean {statistics.mean(times) * 1000:8.1f} ms  worst {max(times) * 1000:8.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--players", type=int, default=3, choices=(3, 4))
    ap.add_argument("--variant", default="sochi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-baseline", action="store_true", help="skip the solves without quick tricks")
    args = ap.parse_args()

    from generate import dump, generate
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.app.analyze import AnalysisOptions, analyze_task, prepare_tasks
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.solver import Solver

    import tempfile
    data = generate(args.deals, full=True, players=args.players, variant=args.variant, seed=args.seed)
    with tempfile.TemporaryDirectory(prefix="prefcli-bench-") as tmp:
        path = Path(tmp) / "corpus.yaml"
        path.write_text(dump(data, False), encoding="utf-8")
        record = build_record_fast(load_document(str(path)))
    rules = resolve_rules(record.rules)
    tasks, refused = prepare_tasks(record, rules, AnalysisOptions())
    print(f"corpus: {args.deals} full deals ({args.variant}, {args.players} players), {len(tasks)} analysable, "
          f"{len(refused)} refused")

    games = []     # (kind, trump, target, high, hands, talon, competes)
    for t in tasks:
        if t.kind == "all-pass":
            for seat in range(3):
                games.append(("all-pass", -1, seat, False, t.hands, t.talon, t.talon_competes))
        elif t.kind == "misere":
            games.append(("misere", -1, t.declarer, False, t.hands, (), False))
        else:
            for trump in (0, 1, 2, 3, -1):
                games.append(("NT" if trump < 0 else "suit", trump, t.declarer, True, t.hands, (), False))
            games.append(("misere", -1, t.declarer, False, t.hands, (), False))

    def solve(game, quick: bool) -> float:
        kind, trump, target, high, hands, talon, competes = game
        s = Solver(trump, target, high, talon, competes, quick_tricks=quick and high)
        t0 = time.perf_counter()
        s.value(list(hands), 0)
        return time.perf_counter() - t0

    for game in games[:10]:          # warm the module's small caches (runs, suit codes) first
        solve(game, True)
    timed: Dict[str, List[float]] = {}
    base: Dict[str, List[float]] = {}
    for game in games:               # the solver and its baseline interleaved: the same load
        timed.setdefault(game[0], []).append(solve(game, True))
        if not args.no_baseline and game[3]:
            base.setdefault(game[0], []).append(solve(game, False))
    every = [x for v in timed.values() for x in v]
    print("per solve (one game from the opening lead, fresh table):")
    for kind in ("suit", "NT", "misere", "all-pass"):
        if kind in timed:
            print(f"  {kind:<9}{_stats(timed[kind])}")
    print(f"  {'all':<9}{_stats(every)}")
    med = statistics.median(every)
    print(f"median per solve {med:.3f} s (goal ≤ {GOAL} s pure Python) {'OK' if med <= GOAL else 'ABOVE GOAL'}")

    if base:
        contract = [x for k in ("suit", "NT") for x in base.get(k, [])]
        ours = [x for k in ("suit", "NT") for x in timed.get(k, [])]
        if contract:
            print(f"baseline, trick contracts without quick tricks: {_stats(contract)}")
            print(f"  quick tricks: median {statistics.median(contract) / statistics.median(ours):.1f}× faster")

    per_deal = []
    for t in tasks:
        t0 = time.perf_counter()
        analyze_task(t)
        per_deal.append(time.perf_counter() - t0)
    print(f"whole analysis per deal (line after every trick, mistakes): {_stats(per_deal)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
