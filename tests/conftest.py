"""Shared test helpers: running the CLI in-process and finding the shared folder."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from hypothesis import settings as hypothesis_settings

# CI (`.ci/run` sets HYPOTHESIS_PROFILE=ci) draws the same examples every run: each test's
# examples follow from the test itself (derandomize), so the run that decides whether a change
# lands gives the same answer when run again, and a failure it shows can be run again here. A
# session's own runs draw new examples at random and keep any that fail in .hypothesis/: that is
# where new failures are found, and each becomes a named test (test_writer_model's hands that
# name a holder twice).
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "default")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PREFCLI_SHARED", ROOT.parent / "shared"))
EXAMPLES = ROOT / "examples"
BADINPUTS = SHARED / "badinputs"


#: for tests that read ../shared (present beside the checkout in development and in CI)
needs_shared = pytest.mark.skipif(not BADINPUTS.is_dir(), reason="../shared/badinputs is not beside the checkout")


def example_records() -> List[Path]:
    """Every game record in examples/ (found again each run, so new examples are covered)."""
    from prefcli.io.parsing import parse_text
    out = []
    for p in sorted(EXAMPLES.rglob("*")):
        if p.suffix.lower() in (".yaml", ".yml", ".json"):
            doc = parse_text(str(p), p.read_text(encoding="utf-8"), p.suffix == ".json")
            if doc.kind == "record":
                out.append(p)
    return out


def run_cli(args: List[str], stdin: Optional[str] = None) -> Tuple[int, str, str]:
    """Run `python -m prefcli ARGS` in a real process: for what only a process shows (exit on
    signals, closed pipes, the interpreter's own streams). Most CLI tests use the `run` fixture."""
    proc = subprocess.run([sys.executable, "-m", "prefcli", *args], input=stdin, capture_output=True,
                          text=True, cwd=str(ROOT), timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def run(monkeypatch, capsys):
    """The CLI runner: the real `prefcli.cli.main.main` (its exit codes and error rendering) in
    this process, without the cost of a new Python per call. ``run(args, stdin=None)`` →
    (exit status, stdout, stderr)."""
    import io

    from prefcli.cli.main import main

    def _run(args, stdin: Optional[str] = None) -> Tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")),
                                                               encoding="utf-8"))
        capsys.readouterr()
        monkeypatch.chdir(ROOT)
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return _run


def ctrl_c_as_from_a_terminal() -> None:
    """SIGINT's default action in the child. Why: a shell without job control starts a
    background job (`pytest ... &`) with SIGINT ignored, every child inherits that, and a Python
    started with SIGINT ignored never installs its handler: the signal would be lost and the
    test would wait out its timeout (seen on a run started from a script)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
