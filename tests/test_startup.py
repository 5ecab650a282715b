"""What starting a command loads (issue 18: a command's start-up is most of the time of a small
record). Checking a summary record must not load what only other commands or full deals use;
each of these modules is imported at first use, and this test keeps it that way. It counts
modules, never time: it runs in a fresh interpreter and reads ``sys.modules``."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "sochi-3p.yaml"

#: Loaded only by the commands (or the deals) that need them.
LAZY = (
    "prefcli.rules.replay", "prefcli.rules.replayed", "prefcli.rules.play", "prefcli.rules.auction",
    "prefcli.rules.moves", "prefcli.rules.solver", "prefcli.rules.engine",
    "prefcli.app.analyze", "prefcli.app.analysis_search", "prefcli.app.analysis_model",
    "prefcli.app.convert", "prefcli.app.settle", "prefcli.app.report", "prefcli.app.draw",
    "prefcli.app.executors", "prefcli.io.importers", "prefcli.io.writer", "prefcli.io.writer_json",
    "prefcli.io.writer_text", "prefcli.io.quickentry", "prefcli.render.svg", "prefcli.render.html",
    "prefcli.render.sheet", "prefcli.settle", "jsonschema", "dask",
)

_RUN = """
import json, sys
import prefcli.cli.main as m
code = m.main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)
"""


def _loaded(args: List[str], cwd: Path) -> List[str]:
    done = subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True,
                          cwd=str(cwd), timeout=300)
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert code == 0, done.stderr
    return modules


def _lazy_loaded(modules: List[str]) -> List[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in LAZY)]


def test_validate_of_a_summary_record_loads_no_lazy_module() -> None:
    modules = _loaded(["validate", str(EXAMPLE), "-q"], ROOT)
    assert "prefcli.rules.checks" in modules          # it did check the record
    assert _lazy_loaded(modules) == []


def test_validate_of_a_json_record_loads_neither_yaml_nor_a_lazy_module(tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    done = subprocess.run([sys.executable, "-m", "prefcli", "convert", str(EXAMPLE), "--to", "json", "--drop-comments",
                           "-o", str(record)], capture_output=True, text=True, cwd=str(ROOT),
                          timeout=300)
    if done.returncode != 0:
        pytest.fail(done.stderr)
    modules = _loaded(["validate", str(record), "-q"], tmp_path)
    assert "prefcli.rules.checks" in modules
    assert _lazy_loaded(modules) == []
    assert "yaml" not in modules and "prefcli.io.yaml_fast" not in modules


def test_a_full_deal_still_loads_the_replay(tmp_path: Path) -> None:
    modules = _loaded(["validate", str(ROOT / "examples" / "full-deals-sochi.yaml"), "-q"], ROOT)
    assert "prefcli.rules.replay" in modules and "prefcli.rules.play" in modules


_RUN_NEW = """
import json, sys
before = sorted(sys.modules)
import prefcli.cli.main as m
code = m.main(sys.argv[1:])
print(json.dumps([code, before, sorted(sys.modules)]), file=sys.stderr)
"""

#: Standard modules a command of a file does not need (pathlib brings urllib.parse and ipaddress:
#: 2.5 ms of every start): imported only where they are used (folders, importers, -o checks).
NOT_AT_START = ("pathlib", "urllib.parse", "ipaddress", "tempfile", "shutil", "zipfile")


@pytest.mark.parametrize("args", [["score", "-f", "json"], ["score"], ["validate", "-q"], ["convert", "-f", "yaml"],
                                  ["replay", "--check"]])
def test_a_command_of_one_file_loads_no_pathlib(tmp_path: Path, args: List[str]) -> None:
    """What prefcli itself imports (an editable install's finder may bring pathlib in before)."""
    new = _new_modules([*args, str(_json_record(tmp_path))], tmp_path)
    assert [m for m in NOT_AT_START if m in new] == []


def _json_record(tmp_path: Path) -> Path:
    """The example as a JSON record without comments (the fast path's kind of file)."""
    record = tmp_path / "record.json"
    done = subprocess.run([sys.executable, "-m", "prefcli", "convert", str(EXAMPLE), "--to", "json", "--drop-comments",
                           "-o", str(record)], capture_output=True, text=True, cwd=str(ROOT), timeout=300)
    if done.returncode != 0:
        pytest.fail(done.stderr)
    return record


def _new_modules(args: List[str], cwd: Path) -> List[str]:
    """The modules a run of prefcli with `args` imports that were not there before it started."""
    done = subprocess.run([sys.executable, "-c", _RUN_NEW, *args], capture_output=True, text=True,
                          cwd=str(cwd), timeout=300)
    code, before, after = json.loads(done.stderr.strip().splitlines()[-1])
    assert code == 0, done.stderr
    return [m for m in after if m not in before]


def test_version_loads_only_the_command_line_and_the_format_names(tmp_path: Path) -> None:
    """`prefcli --version` is click and three small modules of prefcli, nothing of a command."""
    new = _new_modules(["--version"], tmp_path)
    mine = sorted(m for m in new if m.startswith("prefcli"))
    assert mine == ["prefcli", "prefcli.cli", "prefcli.cli.main", "prefcli.io", "prefcli.io.streams",
                    "prefcli.model", "prefcli.model.formats"]
    assert [m for m in ("yaml", "json", "dataclasses", "fractions", "decimal", "tempfile") if m in new] == []


#: What a command of one JSON record, or one file's settlement, never needs: the YAML libraries,
#: the pictures, the other output formats, a temporary file.
NOT_FOR_ONE_FILE = ("yaml", "prefcli.io.yaml_fast", "prefcli.render.svg", "prefcli.render.svg_layouts",
                    "prefcli.render.svg_frames", "prefcli.render.html", "prefcli.render.draw", "tempfile",
                    "shutil", "random", "csv", "prefcli.io.writer", "prefcli.io.writer_text")


@pytest.mark.parametrize("args", [["score", "-f", "json"], ["score"], ["settle"], ["settle", "-f", "json"],
                                  ["validate", "-q"]])
def test_a_command_of_one_json_file_loads_nothing_it_does_not_use(tmp_path: Path, args: List[str]) -> None:
    new = _new_modules([*args, str(_json_record(tmp_path))], tmp_path)
    assert [m for m in NOT_FOR_ONE_FILE if m in new] == []
    assert ("prefcli.render.sheet" in new) == (args == ["score"])     # the table only for the table


_LEAVE = """
import sys, threading
import prefcli.cli.main as m
print("written before", end="")          # (buffered: a pipe; the quick end flushes it)
sys.stderr.write("said before")
if sys.argv[1] == "thread":
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    m._leave(5)
    stop.set()
    t.join()
elif sys.argv[1] == "child":
    import multiprocessing, time
    p = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(2,))
    p.start()
    m._leave(5)
    p.join()
else:
    m._leave(5)
print(" and returned", end="")
"""


@pytest.mark.parametrize("case, code, out", [
    ("plain", 5, "written before"),                      # ended at once, what it wrote flushed
    ("thread", 0, "written before and returned"),        # another thread: the ordinary shutdown
    ("child", 0, "written before and returned"),         # a child process: the ordinary shutdown
])
def test_a_command_ends_without_the_shutdown_only_when_nothing_is_left_to_finish(case: str, code: int,
                                                                                out: str) -> None:
    """cli.main._leave: the process ends with the command's status and nothing it wrote lost;
    it keeps the interpreter's shutdown while another thread or a child process runs."""
    done = subprocess.run([sys.executable, "-c", _LEAVE, case], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (code, out, "said before")


def test_the_console_script_and_python_m_end_with_the_commands_status(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-record/1\nplayers: [A, B]\n", encoding="utf-8")
    for args, code in ((["--version"], 0), (["validate", str(bad)], 1), (["nosuch"], 2)):
        done = subprocess.run([sys.executable, "-m", "prefcli", *args], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == code, (args, done.stderr)
        assert (done.stdout + done.stderr).strip(), args
