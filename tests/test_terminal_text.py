"""A terminal shows a record's control characters, never obeys them (io.streams.TerminalText).

Names, notes and comments come from other people's files: raw, ``\\x1b[2J`` clears the user's
screen, ``\\x1b]0;…\\x07`` retitles the window, a carriage return overwrites a row of a sheet. On
a terminal prefcli writes them as ``\\x1b``; to a file or a pipe the text is exact."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from prefcli.io.streams import TerminalText

NAMES = ["A\x1b[31mnn", "Bob", "Cid\x07"]


def _record(tmp_path):
    record = {"format": "pref-record/1", "players": NAMES, "rules": {"variant": "sochi"},
              "deals": [{"contract": "6S", "declarer": "Bob", "whist": {NAMES[2]: "whist", NAMES[0]: "pass"},
                         "tricks": {"Bob": 6, NAMES[2]: 3, NAMES[0]: 1}}]}
    src = tmp_path / "esc.json"
    src.write_text(json.dumps(record), encoding="utf-8")
    return src


def test_control_characters_are_shown_not_sent():
    out = io.StringIO()
    t = TerminalText(out)
    assert t.write("A\x1b[31mnn\x07 \x7f\x9b\r\n\tok") == len("A\x1b[31mnn\x07 \x7f\x9b\r\n\tok")
    t.write("\r")                                   # the progress bar's own, alone
    assert out.getvalue() == "A\\x1b[31mnn\\x07 \\x7f\\x9b\\x0d\n\tok\r"
    with pytest.raises(TypeError):                  # as a text stream (click asks with b"")
        t.write(b"")


def _on_terminals(args):
    """stdout and stderr each on a pseudo-terminal; what each showed."""
    import pty
    import select
    (mo, so), (me, se) = pty.openpty(), pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "prefcli", *args], stdout=so, stderr=se,
                            stdin=subprocess.DEVNULL, cwd=str(ROOT), env=env)
    os.close(so)
    os.close(se)
    seen = {mo: b"", me: b""}
    open_fds = [mo, me]
    while open_fds:
        ready, _, _ = select.select(open_fds, [], [], 120)
        if not ready:
            break
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:                          # EIO: the child closed the terminal
                chunk = b""
            if chunk:
                seen[fd] += chunk
            else:
                open_fds.remove(fd)
    os.close(mo)
    os.close(me)
    proc.wait(timeout=120)
    return proc.returncode, seen[mo], seen[me]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pty semantics tested on Linux")
def test_a_sheet_on_a_terminal_shows_the_escapes_and_a_pipe_gets_the_text(tmp_path):
    src = _record(tmp_path)
    code, out, err = _on_terminals(["score", str(src)])
    assert code == 0, err
    assert b"\x1b" not in out and b"\x07" not in out
    assert b"A\\x1b[31mnn" in out and b"Cid\\x07" in out
    piped = subprocess.run([sys.executable, "-m", "prefcli", "score", str(src)], capture_output=True,
                           cwd=str(ROOT), timeout=120)
    assert piped.returncode == 0 and "A\x1b[31mnn".encode() in piped.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pty semantics tested on Linux")
def test_a_problem_on_a_terminal_shows_the_escapes(tmp_path):
    src = _record(tmp_path)
    data = json.loads(src.read_text(encoding="utf-8"))
    data["deals"][0]["declarer"] = "\x1b]0;pwned\x07"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = _on_terminals(["validate", str(src)])
    assert code == 1
    assert b"\x1b" not in err and b"\x07" not in err and b"pwned" in err, err
