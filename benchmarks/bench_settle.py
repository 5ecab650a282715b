"""Benchmark of `prefcli settle` on a batch (issue 6).

    python benchmarks/bench_settle.py [--records 1000] [--deals 30] [--repeat 3] [--keep DIR]

Generates N records of M deals (with ``benchmarks/generate.py``; a small built-in generator of
summary deals is used if that is missing or fails), then measures, as a user would run them:

* ``prefcli settle DIR --jobs 1`` and ``--jobs 2`` (wall time, best of --repeat); goal: the
  ratio jobs 2 / jobs 1 ≤ 0.6 on a 2-core machine; the two outputs must be identical;
* a bare libyaml parse of the same files (``yaml.load(…, CSafeLoader)`` in a fresh Python, the
  floor for any tool reading YAML); goal: settle --jobs 1 / bare parse ≤ 1.3.

Prints a small report; exit status 1 if the outputs of --jobs 1 and --jobs 2 differ (the goals
are reported, not enforced, because timings depend on the machine).
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent

BARE_PARSE = """
import sys, yaml
from pathlib import Path
files = sorted(str(f) for f in Path(sys.argv[1]).rglob('*') if f.suffix in ('.yaml', '.yml', '.json'))
for f in files:
    with open(f, 'rb') as fh:
        yaml.load(fh, Loader=yaml.CSafeLoader)
"""


def generate(folder: Path, records: int, deals: int, seed: int = 1) -> str:
    """Fill `folder` with records; returns which generator was used."""
    gen = ROOT / "benchmarks" / "generate.py"
    if gen.exists():
        proc = subprocess.run([sys.executable, str(gen), "--records", str(records), "--deals-per-record",
                               str(deals), "--seed", str(seed), "-o", str(folder)],
                              capture_output=True, text=True)
        if proc.returncode == 0 and any(folder.iterdir()):
            return "benchmarks/generate.py"
        print(f"generate.py failed ({proc.stderr.strip()[:200]}); using the built-in generator",
              file=sys.stderr)
        for f in folder.iterdir():
            f.unlink()
    _builtin_generate(folder, records, deals, seed)
    return "built-in summary-deal generator"


def _builtin_generate(folder: Path, records: int, deals: int, seed: int) -> None:
    """Plausible Sochi summary deals: made and failed contracts, passes, all-pass deals."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cid"]
    for r in range(records):
        lines = ["format: pref-record/1", "players: [Ann, Bob, Cid]", "rules:", "  variant: sochi",
                 "  pool: 20", "deals:"]
        for _ in range(deals):
            if rng.random() < 0.15:
                t = [0, 0, 0]
                for _ in range(10):
                    t[rng.randrange(3)] += 1
                lines += ["- contract: all-pass", "  tricks:"] + [f"    {n}: {t[i]}" for i, n in enumerate(names)]
                continue
            decl = rng.randrange(3)
            level = rng.choice([6, 6, 6, 7, 7, 8, 9])
            suit = rng.choice("SCDH") if rng.random() < 0.9 else "NT"
            d1, d2 = names[(decl + 1) % 3], names[(decl + 2) % 3]
            lines += [f"- contract: {level}{suit}", f"  declarer: {names[decl]}", "  whist:"]
            if rng.random() < 0.2:
                lines += [f"    {d1}: pass", f"    {d2}: pass"]
                continue
            lines += [f"    {d1}: whist", f"    {d2}: whist"]
            taken = max(0, min(10, level + rng.choice([-2, -1, 0, 0, 0, 1])))
            rest = 10 - taken
            a = rng.randint(0, rest)
            lines += ["  tricks:", f"    {names[decl]}: {taken}", f"    {d1}: {a}", f"    {d2}: {rest - a}"]
        (folder / f"r{r:04}.yaml").write_text("\n".join(lines) + "\n")


def timed(cmd: Sequence[str], repeat: int) -> Tuple[float, float, bytes, int]:
    """Best wall time and best CPU time (user + sys of the process and its workers)."""
    import resource
    best, best_cpu, out, code = float("inf"), float("inf"), b"", 0
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # As an installed package runs: with its modules' bytecode cached (pip compiles it at install
    # time). Where PYTHONDONTWRITEBYTECODE is set, every start would recompile every module, a
    # serial cost that says nothing about the program; the best of the runs counts.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(list(cmd), capture_output=True, cwd=str(ROOT), env=env)
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        out, code = proc.stdout, proc.returncode
        if code not in (0, 1):
            sys.stderr.write(proc.stderr.decode(errors="replace")[-2000:])
    return best, best_cpu, out, code


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=30, help="deals per record")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command; the best counts")
    ap.add_argument("--keep", metavar="DIR", default=None, help="generate into DIR and keep it")
    args = ap.parse_args(argv)

    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="prefcli-bench-settle-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if not any(folder.iterdir()):
            t0 = time.perf_counter()
            how = generate(folder, args.records, args.deals)
            print(f"generated {args.records} records × {args.deals} deals with {how} "
                  f"in {time.perf_counter() - t0:.1f} s")
        n = sum(1 for _ in folder.iterdir())
        settle = [sys.executable, "-m", "prefcli", "settle", str(folder), "-f", "json"]
        bare_t, bare_c, _, _ = timed([sys.executable, "-c", BARE_PARSE, str(folder)], args.repeat)
        one_t, one_c, one_out, one_code = timed(settle + ["--jobs", "1"], args.repeat)
        two_t, two_c, two_out, two_code = timed(settle + ["--jobs", "2"], args.repeat)
        same = one_out == two_out and one_code == two_code
        cpus = os.cpu_count() or 1
        try:
            load = " (load average %.2f %.2f %.2f)" % os.getloadavg()
        except OSError:
            load = ""
        print(f"inputs: {n} files in {folder}; {cpus} CPU(s){load}")
        print("                               wall      CPU")
        print(f"bare libyaml parse:          {bare_t:7.2f} s {bare_c:7.2f} s")
        print(f"prefcli settle --jobs 1:     {one_t:7.2f} s {one_c:7.2f} s   (exit {one_code})")
        print(f"prefcli settle --jobs 2:     {two_t:7.2f} s {two_c:7.2f} s   (exit {two_code})")
        r2 = two_t / one_t
        r1 = one_t / bare_t
        print(f"jobs 2 / jobs 1 (wall):      {r2:7.2f}     goal ≤ 0.6  {'ok' if r2 <= 0.6 else 'MISSED'}")
        print(f"jobs 1 / bare parse (wall):  {r1:7.2f}     goal ≤ 1.3  {'ok' if r1 <= 1.3 else 'MISSED'}")
        print(f"jobs 1 / bare parse (CPU):   {one_c / bare_c:7.2f}     (the same ratio, insensitive to other load)")
        print(f"--jobs 2 output identical to --jobs 1: {'yes' if same else 'NO'}")
        return 0 if same else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
