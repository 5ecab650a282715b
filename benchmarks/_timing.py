"""The one timing helper of benchmarks/: whole processes, alternating A/B runs, medians.

Every benchmark that compares prefcli with a baseline goes through `pair()`:

* both sides run as fresh processes (start-up included), A B A B … after one warm-up each, so a
  drift in the machine's load hits both sides alike;
* each side's wall time, CPU time (user + sys of the process and the children it waited for, from
  ``os.wait4``'s resource usage) and peak resident set are taken from that process alone;
* the ratio is taken pair by pair and reported as the median with its min–max.

prefcli runs as an installed package runs: the ``prefcli`` script beside this interpreter (or
``python -m prefcli``), with ``PYTHONDONTWRITEBYTECODE`` removed so its bytecode is cached, from a
working folder outside the checkout (benchmarks/out/), so ``python -m`` does not pick the source
tree up from the current folder.

The baselines pause the cyclic garbage collector exactly as prefcli does around reading a record
(``prefcli.io.parsing.paused_gc``): a libyaml parse with the collector on spends most of its time
in it, which would flatter every YAML ratio.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"

# Baselines: each is a fresh `python -c` with the collector paused, as prefcli reads.
BASE_YAML = ("import gc, sys, yaml\ngc.disable()\n"
             "with open(sys.argv[1], encoding='utf-8') as f:\n    yaml.load(f, Loader=yaml.CSafeLoader)\n")
BASE_JSON = ("import gc, sys, json\ngc.disable()\n"
             "with open(sys.argv[1], encoding='utf-8') as f:\n    json.load(f)\n")
BASE_YAML_DIR = ("import gc, sys, yaml\nfrom pathlib import Path\ngc.disable()\n"
                 "for p in sorted(str(f) for f in Path(sys.argv[1]).rglob('*') "
                 "if f.suffix in ('.yaml', '.yml', '.json')):\n"
                 "    with open(p, 'rb') as fh:\n        yaml.load(fh, Loader=yaml.CSafeLoader)\n")
IMPORT_CLICK = "import click"


def env() -> Dict[str, str]:
    """The environment of every timed process: bytecode cached, as after `pip install`."""
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    return e


def prefcli() -> List[str]:
    """The installed `prefcli` script beside this interpreter, else `python -m prefcli`."""
    script = Path(sys.executable).with_name("prefcli")
    if script.exists():
        return [str(script)]
    found = shutil.which("prefcli")
    return [found] if found else [sys.executable, "-m", "prefcli"]


def python(code: str, *args: str) -> List[str]:
    return [sys.executable, "-c", code, *args]


@dataclass
class Run:
    wall: float          # seconds
    cpu: float           # seconds, user + sys
    peak_mib: float      # maximum resident set of the process (and its waited-for children)
    code: int
    out: bytes


def run(cmd: Sequence[str], stdout: bool = False) -> Run:
    """One fresh process; its own resource usage from os.wait4 (not the sum of all children)."""
    OUT.mkdir(parents=True, exist_ok=True)
    import tempfile
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as outf:
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdout=outf if stdout else subprocess.DEVNULL, stderr=err,
                                cwd=str(OUT), env=env())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        outf.seek(0)
        out = outf.read()
        if code not in (0, 1):
            err.seek(0)
            sys.exit(f"{' '.join(cmd)[:200]} failed (exit {code}):\n{err.read().decode(errors='replace')[-2000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code, out)


def repeat(cmd: Sequence[str], n: int, warmup: int = 1) -> List[Run]:
    for _ in range(warmup):
        run(cmd)
    return [run(cmd) for _ in range(n)]


@dataclass
class Pair:
    a: List[Run]
    b: List[Run]

    def ratios(self, what: str = "wall") -> List[float]:
        return [getattr(x, what) / getattr(y, what) for x, y in zip(self.a, self.b)]

    def ratio(self, what: str = "wall") -> Tuple[float, float, float]:
        r = self.ratios(what)
        return statistics.median(r), min(r), max(r)

    def median(self, side: str, what: str = "wall") -> float:
        return statistics.median(getattr(r, what) for r in getattr(self, side))


def pair(a: Sequence[str], b: Sequence[str], n: int, warmup: int = 1) -> Pair:
    """A and B alternately, `n` pairs after `warmup` runs of each; B first in each pair."""
    for _ in range(warmup):
        run(b)
        run(a)
    ra: List[Run] = []
    rb: List[Run] = []
    for _ in range(n):
        rb.append(run(b))
        ra.append(run(a))
    return Pair(ra, rb)


def fmt_ratio(m: Tuple[float, float, float]) -> str:
    med, lo, hi = m
    digits = 2 if med < 100 else 0
    return f"{med:.{digits}f} [{lo:.{digits}f}–{hi:.{digits}f}]"


def fmt_time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def generate(path: Path, *args: str) -> Path:
    """A corpus from benchmarks/generate.py, made once into benchmarks/out/ and reused."""
    if not path.exists() or (path.is_dir() and not any(path.iterdir())):
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(HERE / "generate.py"), *args, "-o", str(path)], check=True,
                       cwd=str(ROOT))
    return path


def which_prefcli() -> str:
    """Where the timed prefcli's package lives (site-packages, or the checkout for `pip install -e`)."""
    proc = subprocess.run(python("import prefcli, os; print(os.path.dirname(prefcli.__file__))"),
                          capture_output=True, text=True, cwd=str(OUT if OUT.exists() else HERE), env=env())
    where = proc.stdout.strip() or "?"
    if where.startswith(str(ROOT)):
        where += " (an editable install: the checkout's source, its bytecode cached)"
    return where


def header(pairs: int) -> str:
    return (f"{os.cpu_count()} CPU(s), {load()}; Python {sys.version.split()[0]}; prefcli from "
            f"{which_prefcli()}; {pairs} alternated pairs after one warm-up each; ratio = median "
            f"[min–max] of the per-pair wall-time ratios")


def optional(value: Optional[float], digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"
