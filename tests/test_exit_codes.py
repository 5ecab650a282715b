"""One exit-code table, everywhere (issue 11.5): 0 ok, 1 invalid input or failed check, 2 usage
error, 3 internal error, 130 on Ctrl-C (quietly, in workers too); a closed standard output
(`| head`) ends every command quietly with status 0. Each command is run as a real process."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import EXAMPLES, ROOT, ctrl_c_as_from_a_terminal, run_cli
from prefcli.cli.main import COMMANDS

NEG = "tests/examples/negative/tricks-sum-11.yaml"
SEASON = "examples/season-2019/"

#: command → (a run that succeeds and writes to stdout, a run on invalid input)
RUNS = {
    "validate": (["validate", "examples/"], ["validate", NEG]),
    "replay": (["replay", "examples/full-deals-sochi.yaml"], ["replay", "--check", "tests/examples/negative/revoke.yaml"]),
    "score": (["score", "examples/sochi-3p.yaml"], ["score", NEG]),
    "settle": (["settle", "examples/tournament/"], ["settle", NEG]),
    "convert": (["convert", "examples/sochi-3p.yaml"], ["convert", NEG]),
    "variants": (["variants", "sochi"], None),
    "schema": (["schema", "record"], None),
    "stats": (["stats", SEASON], ["stats", NEG]),
    "rating": (["rating", SEASON], ["rating", NEG]),
    "merge": (["merge", "{settlement}"], ["merge", NEG]),
    "draw": (["draw", "examples/sochi-3p.yaml"], ["draw", NEG]),
    "report": (["report", "examples/sochi-3p.yaml"], ["report", NEG]),
    "analyze": (["analyze", "examples/full-deals-sochi.yaml", "--deal", "1"], ["analyze", NEG]),
    "import": (["import", "tests/examples/imports/gchet/9f2c4e1a7b3d4c5e8f901a2b3c4d5e6f.json"],
               ["import", NEG]),
}


@pytest.fixture(scope="module")
def settlement(tmp_path_factory):
    path = tmp_path_factory.mktemp("merge") / "s.json"
    code, out, err = run_cli(["settle", "examples/tournament/", "-f", "json"])
    assert code == 0, err
    path.write_text(out, encoding="utf-8")
    return str(path)


def fill(args, settlement):
    return [settlement if a == "{settlement}" else a for a in args]


def test_every_command_is_covered():
    """A new command gets its row here (and so its exit-code tests)."""
    assert set(RUNS) == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_ok_invalid_and_usage(name, settlement):
    ok, bad = RUNS[name]
    code, out, err = run_cli(fill(ok, settlement))
    assert code == 0, err
    if bad is not None:
        code, out, err = run_cli(bad)
        assert code == 1, (name, err)
        assert err.strip() and "Traceback" not in err
    code, out, err = run_cli([name, "--no-such-option"])
    assert code == 2 and "no-such-option" in err and "Traceback" not in err


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_closed_stdout_ends_quietly_with_0(name, settlement):
    read, write = os.pipe()
    os.close(read)                                  # the reader is gone before anything is written
    try:
        proc = subprocess.run([sys.executable, "-m", "prefcli", *fill(RUNS[name][0], settlement)],
                              stdout=write, stderr=subprocess.PIPE, cwd=str(ROOT), timeout=120)
    finally:
        os.close(write)
    assert proc.returncode == 0, proc.stderr
    err = proc.stderr.decode()          # what a command always says on stderr may be there; no word of the pipe
    assert "Traceback" not in err and "pipe" not in err.lower() and "standard output" not in err, err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("name", ["validate", "replay", "score", "settle", "convert"])
def test_ctrl_c_is_130_and_quiet(name):
    """The command waits on standard input; Ctrl-C (SIGINT) stops it."""
    proc = subprocess.Popen([sys.executable, "-m", "prefcli", name, "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT),
                            preexec_fn=ctrl_c_as_from_a_terminal)
    try:
        _wait_until_started(proc)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)             # standard input stays open: no end of input races the signal
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    assert proc.returncode == 130
    assert err.decode().strip() == "" and b"Traceback" not in out    # (click ends the ^C line)


@pytest.mark.parametrize("how", [["-m", "prefcli"], ["{script}"]])
def test_ctrl_c_while_starting_is_130_and_quiet(tmp_path, how):
    """Ctrl-C while click is still importing (a stand-in `click` on the path sends the signal
    from inside that import, where Python's own handler would raise KeyboardInterrupt outside
    every `except` of the CLI and print a traceback with status 1): 130, nothing written."""
    shim = tmp_path / "click"
    shim.mkdir()
    (shim / "__init__.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n"
                                      "raise SystemExit('the signal was not taken')\n", encoding="utf-8")
    script = tmp_path / "prefcli"            # as pip writes a console script
    script.write_text("import re\nimport sys\nfrom prefcli.cli.main import entry\n"
                      "if __name__ == '__main__':\n    sys.exit(entry())\n", encoding="utf-8")
    args = [a.format(script=script) for a in how]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run([sys.executable, *args, "validate", "-"], input=b"", capture_output=True,
                          cwd=str(tmp_path), env=env, timeout=60, preexec_fn=ctrl_c_as_from_a_terminal)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, b"", b"")


def test_importing_the_cli_leaves_ctrl_c_alone():
    """A program or test that imports the CLI keeps Python's own Ctrl-C (KeyboardInterrupt)."""
    code = ("import signal, prefcli.cli.main\n"
            "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=str(ROOT), timeout=60,
                          preexec_fn=ctrl_c_as_from_a_terminal)
    assert proc.returncode == 0, proc.stderr


# a stand-in sitecustomize: the signal arrives while the output is being written (between the
# temporary file's last byte and its rename), the window where a killed prefcli left
# `.game.yaml.xxxx.tmp` beside its target
_SIGNAL_WHILE_WRITING = ("import os, signal\n_fsync = os.fsync\n"
                         "def fsync(fd):\n    os.kill(os.getpid(), signal.{sig})\n    _fsync(fd)\n"
                         "os.fsync = fsync\n")


def _run_with_a_signal_while_writing(tmp_path, sig, preexec):
    (tmp_path / "sitecustomize.py").write_text(_SIGNAL_WHILE_WRITING.format(sig=sig), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run([sys.executable, "-m", "prefcli", "convert", str(EXAMPLES / "sochi-3p.yaml"),
                           "-o", str(out / "game.yaml")], capture_output=True, cwd=str(tmp_path), env=env,
                          timeout=60, preexec_fn=preexec)
    return proc, sorted(os.listdir(out))


def _sigint_ignored_as_in_a_background_job() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("sig, status", [("SIGTERM", 143), ("SIGHUP", 129)])
@pytest.mark.parametrize("preexec", [ctrl_c_as_from_a_terminal, _sigint_ignored_as_in_a_background_job],
                         ids=["terminal", "background-job"])
def test_sigterm_or_sighup_while_writing_leaves_nothing_and_is_quiet(tmp_path, sig, status, preexec):
    """`kill`, `timeout` or a closed terminal while prefcli writes: the temporary file is
    removed (the signal's default action left it behind), nothing is printed, and the status is
    the shell's 128 + the signal, also in a background job, where SIGINT is ignored."""
    proc, left = _run_with_a_signal_while_writing(tmp_path, sig, preexec)
    assert (proc.returncode, proc.stdout, proc.stderr, left) == (status, b"", b"", [])


def test_sighup_ignored_by_nohup_stays_ignored(tmp_path):
    def nohup() -> None:
        ctrl_c_as_from_a_terminal()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    proc, left = _run_with_a_signal_while_writing(tmp_path, "SIGHUP", nohup)
    assert (proc.returncode, proc.stderr, left) == (0, b"", ["game.yaml"])
    assert (tmp_path / "out" / "game.yaml").read_text(encoding="utf-8").startswith("# ")


def _wait_until_started(proc):
    """Until the command is blocked reading its standard input (the kernel says so in
    /proc/PID/wchan): past its imports and inside the CLI's own handling, so SIGINT is the
    user's Ctrl-C and not the death of an interpreter still starting up (a fixed sleep raced
    on a loaded machine)."""
    for _ in range(1200):
        try:
            with open(f"/proc/{proc.pid}/wchan") as fh:
                if "pipe" in fh.read():
                    return
        except OSError:
            pass
        if proc.poll() is not None:
            return
        time.sleep(0.05)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_in_settle_workers_is_quiet(tmp_path):
    """settle -j 2: the workers leave Ctrl-C to the parent, which stops them: status 130, and no
    word from any worker."""
    proc = _settle_400_with_workers(tmp_path)
    try:
        _wait_for_workers(proc)
        os.killpg(proc.pid, signal.SIGINT)           # as a terminal does: the whole group
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    if proc.returncode == 0:
        pytest.skip("the batch finished before the signal")
    assert proc.returncode == 130, err
    assert err.decode().strip() == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_to_settle_with_workers_ends_them_too(tmp_path):
    """`kill PID` of settle -j 2 (the parent only, as a batch system does): 143, quietly, and
    the workers end with it (their pipes close), none left running."""
    proc = _settle_400_with_workers(tmp_path)
    workers = []
    try:
        _wait_for_workers(proc)
        try:
            workers = open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()
        except OSError:
            pass
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        for _ in range(200):
            if not any(os.path.exists(f"/proc/{w}") and "Z" not in _state(w) for w in workers):
                break
            time.sleep(0.05)
        assert not any(os.path.exists(f"/proc/{w}") and "Z" not in _state(w) for w in workers), workers
    finally:
        if proc.poll() is None or workers:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
    if proc.returncode == 0:
        pytest.skip("the batch finished before the signal")
    assert proc.returncode == 143, err
    assert err.decode().strip() == ""


def _state(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def _settle_400_with_workers(tmp_path):
    """`settle -j 2` of 400 copies of an example, started in a session of its own."""
    text = (EXAMPLES / "sochi-3p.yaml").read_text(encoding="utf-8")
    files = []
    for i in range(400):
        p = tmp_path / f"g{i:03}.yaml"
        p.write_text(text, encoding="utf-8")
        files.append(str(p))
    return subprocess.Popen([sys.executable, "-m", "prefcli", "settle", "-j", "2", *files],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT),
                            start_new_session=True, preexec_fn=ctrl_c_as_from_a_terminal)


def _wait_for_workers(proc):
    """Until the worker of `settle -j 2` runs (the command settles inputs too: one fork)."""
    for _ in range(600):
        try:
            children = open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()
        except OSError:
            children = []
        if len(children) >= 1:
            time.sleep(0.2)
            return
        time.sleep(0.05)


def test_debug_before_or_after_the_command():
    for args in (["--debug", "validate", "examples/sochi-3p.yaml"], ["validate", "examples/sochi-3p.yaml", "--debug"]):
        code, out, err = run_cli(args)
        assert code == 0 and "ok: examples/sochi-3p.yaml" in out, err


#: runs that say something on standard error when they succeed (convert's and import's reports)
TALKATIVE = {"convert": ["convert", "examples/sochi-3p.yaml", "--variant", "leningrad", "--drop-comments"],
             "import": ["import", "tests/examples/imports/gchet/9f2c4e1a7b3d4c5e8f901a2b3c4d5e6f.json"]}


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("name", sorted(RUNS))
def test_an_unwritable_standard_error_leaves_the_status_alone(name, settlement):
    """`2>/dev/full`: the status is the command's outcome, whatever standard error can take.
    convert and import, which report their changes there, exited 1 (naming standard output)
    while the others exited 0; a failed run must still exit 1, and a usage error 2."""
    runs = [(TALKATIVE.get(name, RUNS[name][0]), 0), (RUNS[name][1], 1), ([name, "--no-such-option"], 2)]
    for args, want in runs:
        if args is None:
            continue
        with open("/dev/full", "wb") as full:
            proc = subprocess.run([sys.executable, "-m", "prefcli", *fill(args, settlement)], stdout=subprocess.PIPE,
                                  stderr=full, cwd=str(ROOT), timeout=120)
        assert proc.returncode == want, (args, proc.returncode)
        if want == 0:
            code, out, err = run_cli(fill(args, settlement))
            assert proc.stdout.decode() == out        # the result is written all the same


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_result_written_to_standard_error_still_fails_on_a_full_disk():
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "prefcli", "schema", "record", "-o", "/dev/stderr"],
                              stdout=subprocess.PIPE, stderr=full, cwd=str(ROOT), timeout=120)
    assert proc.returncode == 1
