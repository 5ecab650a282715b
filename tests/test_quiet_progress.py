"""-q/--quiet and progress bars, the same in every command (issue 11 (b)).

-q means one thing everywhere: standard error gets nothing but problems (no progress bar, no
note, no summary line, no report of changes) and the result asked for is still written, with
the same exit status. Progress bars are drawn on standard error only when it is a terminal:
the terminal case runs the command with its stderr on a real pseudo-terminal (pty), the other
case with stderr on a pipe.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from conftest import EXAMPLES, ROOT
from prefcli.cli.main import COMMANDS

IMPORTS = ROOT / "tests" / "examples" / "imports"

#: a run of each command on valid input that writes its usual result
VALID = {
    "validate": ["validate", "examples/season-2019/"],
    "replay": ["replay", "examples/full-deals-sochi.yaml", "--deal", "1"],
    "score": ["score", "examples/sochi-3p.yaml"],
    "settle": ["settle", "examples/tournament/"],
    "stats": ["stats", "examples/season-2019/"],
    "rating": ["rating", "examples/season-2019/"],
    "merge": None,                      # built from a settle part in the test
    "draw": ["draw", "examples/sochi-3p.yaml"],
    "report": ["report", "examples/paper-sheet.yaml"],
    "analyze": ["analyze", "examples/full-deals-sochi.yaml", "--deal", "2"],
    "convert": ["convert", "examples/sochi-3p.yaml", "--variant", "leningrad"],
    "import": ["import", str(IMPORTS / "preferanser" / "1.json")],
    "variants": ["variants", "sochi"],
    "schema": ["schema", "record"],
}
#: commands whose standard output is itself a report of what was fine: -q leaves it out
REPORTS_ON_STDOUT = {"validate", "replay"}


def test_every_command_is_in_the_table():
    assert set(VALID) == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(VALID))
def test_quiet_keeps_the_result_and_silences_the_rest(run, name, tmp_path):
    args = VALID[name]
    if args is None:
        code, part, err = run(["settle", "examples/paper-sheet.yaml", "-f", "json"])
        assert code == 0, err
        (tmp_path / "a.json").write_text(part, encoding="utf-8")
        (tmp_path / "b.json").write_text(part, encoding="utf-8")
        args = ["merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    code, out, err = run(args)
    assert code == 0, err
    code_q, out_q, err_q = run([*args, "-q"])
    assert code_q == 0 and err_q == "", err_q
    if name in REPORTS_ON_STDOUT:
        assert out_q == ""
    else:
        assert out_q == out and out_q
    code_l, out_l, err_l = run([*args, "--quiet"])
    assert (code_l, out_l, err_l) == (code_q, out_q, err_q)


def test_convert_and_import_reports_are_what_quiet_silences(run):
    code, _, err = run(VALID["convert"])
    assert code == 0 and "converted sochi → leningrad" in err
    code, _, err = run(VALID["import"])
    assert code == 0 and err.strip()


def test_quiet_keeps_every_problem_and_the_exit_status(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [Ann, Bob]\n", encoding="utf-8")
    good = EXAMPLES / "paper-sheet.yaml"
    for name in ("settle", "stats", "rating"):
        code, out, err = run([name, str(good), str(bad)])
        assert code == 1
        problems = [line for line in err.splitlines() if line.startswith(str(bad))]
        assert problems and "could not be" in err, err
        code_q, out_q, err_q = run([name, str(good), str(bad), "-q"])
        assert code_q == 1 and out_q == out
        assert err_q.splitlines() == problems, (name, err_q)
    code, out, err = run(["settle", str(good), str(bad), "--summary", "-q"])
    assert code == 1 and err.splitlines() and all(line.startswith(str(bad)) for line in err.splitlines())


# ---------------------------------------------------------------------------------------------
# Progress bars: on a terminal only, never when piped, never with -q
# ---------------------------------------------------------------------------------------------

#: the batch commands and a run with at least two steps, and the bar's label
BATCHES = {
    "validate": (["validate", "examples/season-2019/"], "checking"),
    "replay": (["replay", "examples/full-deals-sochi.yaml", "examples/analysis-sochi.yaml", "--check"],
               "replaying"),
    "settle": (["settle", "examples/season-2019/"], "settling"),
    "settle --summary": (["settle", "examples/season-2019/", "--summary"], "settling"),
    "stats": (["stats", "examples/season-2019/"], "reading"),
    "rating": (["rating", "examples/season-2019/"], "reading"),
    "analyze": (["analyze", "examples/analysis-sochi.yaml"], "analysing"),
}


def _env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONIOENCODING", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _on_a_terminal(args: List[str]) -> Tuple[int, bytes, bytes]:
    """Run prefcli with standard error on a pseudo-terminal (stdout a pipe); what the terminal got."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "prefcli", *args], stdout=subprocess.PIPE, stderr=slave,
                            stdin=subprocess.DEVNULL, cwd=str(ROOT), env=_env())
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:          # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out = proc.stdout.read() if proc.stdout else b""
    proc.wait(timeout=300)
    return proc.returncode, out, seen


needs_pty = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pty semantics tested on Linux")


@needs_pty
@pytest.mark.parametrize("name", sorted(BATCHES))
def test_progress_bar_on_a_terminal_and_quiet_silences_it(name):
    args, label = BATCHES[name]
    code, out, tty = _on_a_terminal(args)
    assert code in (0, 1), tty
    assert f"\r{label} [".encode() in tty and b"] 2/" in tty, tty[-400:]
    code_q, out_q, tty_q = _on_a_terminal([*args, "-q"])
    assert code_q == code and b"\r" not in tty_q and f"{label} [".encode() not in tty_q, tty_q[-400:]
    assert out_q == out or name in REPORTS_ON_STDOUT


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_no_progress_bar_when_piped(name):
    args, label = BATCHES[name]
    proc = subprocess.run([sys.executable, "-m", "prefcli", *args], capture_output=True, cwd=str(ROOT),
                          env=_env(), timeout=300)
    assert proc.returncode in (0, 1)
    assert b"\r" not in proc.stderr and f"{label} [".encode() not in proc.stderr
