"""Start-up and validate speed, each as a ratio against a baseline measured in the same run.

    python benchmarks/bench_validate.py [--deals 10000] [--repeat 3]

1. `prefcli --version` wall time / `python -c "import click"` (goal ≤ 1.3: yaml and jsonschema
   are imported lazily, commands are loaded on use).
2. `prefcli validate` of a generated 10,000-deal YAML record / a bare libyaml parse of the same
   file (`yaml.load(..., Loader=yaml.CSafeLoader)`) (goal ≤ 2.0).
Best of --repeat runs for each side; both sides run as fresh processes.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def best(cmd, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=str(ROOT))
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--full", action="store_true", help="full deals (hands and play) instead of summaries")
    args = ap.parse_args()
    py = sys.executable

    base = best([py, "-c", "import click"], args.repeat * 3)
    ours = best([py, "-m", "prefcli", "--version"], args.repeat * 3)
    print(f"start-up: prefcli --version {ours * 1000:.0f} ms / import click {base * 1000:.0f} ms "
          f"= {ours / base:.2f} (goal ≤ 1.3)")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        gen = [py, str(HERE / "generate.py"), "--deals", str(args.deals), "--players", "3",
               "--variant", "sochi", "-o", str(path)] + (["--full"] if args.full else [])
        subprocess.run(gen, check=True)
        bare = best([py, "-c", f"import yaml; yaml.load(open({str(path)!r}, encoding='utf-8'), Loader=yaml.CSafeLoader)"],
                    args.repeat)
        proc = subprocess.run([py, "-m", "prefcli", "validate", "-q", str(path)], cwd=str(ROOT),
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print("validate failed on the generated file:\n" + proc.stderr[:2000])
            sys.exit(1)
        val = best([py, "-m", "prefcli", "validate", "-q", str(path)], args.repeat)
        kb = path.stat().st_size // 1024
        print(f"validate: {args.deals} deals ({kb} KiB) {val:.2f} s / bare libyaml parse {bare:.2f} s "
              f"= {val / bare:.2f} (goal ≤ 2.0); {args.deals / val:.0f} deals/s")


if __name__ == "__main__":
    main()
