"""Speed of `prefcli score`, as ratios against baselines measured in the same run.

    python benchmarks/bench_score.py [--deals 10000] [--repeat 3] [--variant sochi]

1. `prefcli score -f json` of a generated 10,000-deal YAML record / a bare libyaml parse of the
   same file (`yaml.load(..., Loader=yaml.CSafeLoader)`) (goal ≤ 1.3).
2. The same record as JSON / `json.load` of it (goal ≤ 10).
Both sides run as fresh processes (start-up included); best of --repeat runs each. The CPU-time
ratio (user + sys of the child processes) is printed too: on a busy machine it is the steadier one. The records
come from `benchmarks/generate.py` (summary deals); if it cannot run, a small private generator
of summary deals below is used instead.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NAMES = ["Ann", "Bob", "Cid"]


CPU: Dict[str, float] = {}


def best(cmd: List[str], repeat: int) -> float:
    """Best wall time of `repeat` fresh runs; the best CPU time (user + sys) goes to CPU[key],
    which is steadier than wall time on a busy machine."""
    import resource
    times, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=str(ROOT))
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd[:4])}… failed:\n{proc.stderr.decode(errors='replace')[:2000]}")
    CPU[" ".join(cmd)] = min(cpus)
    return min(times)


def cpu(cmd: List[str]) -> float:
    return CPU[" ".join(cmd)]


def private_record(deals: int, variant: str, seed: int = 1) -> Dict[str, Any]:
    """Summary deals with realistic frequencies (a fallback when generate.py is unavailable)."""
    rnd = random.Random(seed)
    out: List[Dict[str, Any]] = []
    for _ in range(deals):
        r = rnd.random()
        if r < 0.15:
            a = rnd.randint(0, 6)
            b = rnd.randint(0, 10 - a)
            out.append({"contract": "all-pass", "tricks": dict(zip(NAMES, (a, b, 10 - a - b)))})
            continue
        decl = rnd.choice(NAMES)
        i = NAMES.index(decl)
        d1, d2 = NAMES[(i + 1) % 3], NAMES[(i + 2) % 3]
        if r < 0.22:
            t = rnd.choice([0, 0, 0, 1, 2])
            rest = 10 - t
            x = rnd.randint(0, rest)
            out.append({"contract": "misere", "declarer": decl, "tricks": {decl: t, d1: x, d2: rest - x}})
            continue
        level = rnd.choice([6, 6, 6, 7, 7, 8, 9, 10])
        contract = f"{level}{rnd.choice(['S', 'C', 'D', 'H', 'NT'])}"
        if level <= 7 and r < 0.3:
            out.append({"contract": contract, "declarer": decl, "whist": {d1: "pass", d2: "half-whist"}})
            continue
        if r < 0.4:
            out.append({"contract": contract, "declarer": decl, "whist": {d1: "pass", d2: "pass"}})
            continue
        taken = max(0, min(10, level + rnd.choice([-2, -1, 0, 0, 0, 1])))
        x = rnd.randint(0, 10 - taken)
        whist = rnd.choice([(d1, d2), (d1,), (d2,)])
        out.append({"contract": contract, "declarer": decl,
                    "whist": {d1: "whist" if d1 in whist else "pass", d2: "whist" if d2 in whist else "pass"},
                    "tricks": {decl: taken, d1: x, d2: 10 - taken - x}})
    return {"format": "pref-record/1", "players": NAMES, "rules": {"variant": variant, "pool": 20},
            "deals": out}


def make_inputs(tmp: Path, deals: int, variant: str) -> tuple:
    ypath, jpath = tmp / "big.yaml", tmp / "big.json"
    py = sys.executable
    gen = HERE / "generate.py"
    ok = gen.exists()
    if ok:
        base = [py, str(gen), "--deals", str(deals), "--players", "3", "--variant", variant]
        ok = (subprocess.run(base + ["-o", str(ypath)], capture_output=True).returncode == 0
              and subprocess.run(base + ["--json", "-o", str(jpath)], capture_output=True).returncode == 0)
    if not ok:
        import yaml
        data = private_record(deals, variant)
        ypath.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None), encoding="utf-8")
        jpath.write_text(json.dumps(data), encoding="utf-8")
        print("(generate.py unavailable: using the private generator)")
    return ypath, jpath


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--variant", default="sochi")
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        ypath, jpath = make_inputs(Path(tmp), args.deals, args.variant)
        ours_cmd = [py, "-m", "prefcli", "score", "-f", "json"]
        bare_y_cmd = [py, "-c", f"import yaml; yaml.load(open({str(ypath)!r}, encoding='utf-8'), "
                                "Loader=yaml.CSafeLoader)"]
        bare_j_cmd = [py, "-c", f"import json; json.load(open({str(jpath)!r}, encoding='utf-8'))"]
        bare_y = best(bare_y_cmd, args.repeat)
        ours_y = best(ours_cmd + [str(ypath)], args.repeat)
        bare_j = best(bare_j_cmd, args.repeat)
        ours_j = best(ours_cmd + [str(jpath)], args.repeat)
        kb_y, kb_j = ypath.stat().st_size // 1024, jpath.stat().st_size // 1024
        cy = cpu(ours_cmd + [str(ypath)]) / cpu(bare_y_cmd)
        cj = cpu(ours_cmd + [str(jpath)]) / cpu(bare_j_cmd)
        print(f"score YAML: {args.deals} deals ({kb_y} KiB) {ours_y:.2f} s / bare libyaml parse {bare_y:.2f} s "
              f"= {ours_y / bare_y:.2f} (goal ≤ 1.3; CPU time {cy:.2f}); {args.deals / ours_y:.0f} deals/s")
        print(f"score JSON: {args.deals} deals ({kb_j} KiB) {ours_j:.2f} s / json.load {bare_j:.2f} s "
              f"= {ours_j / bare_j:.2f} (goal ≤ 10; CPU time {cj:.2f}); {args.deals / ours_j:.0f} deals/s")


if __name__ == "__main__":
    main()
