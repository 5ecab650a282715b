"""Safe outputs (issue 11, item 2): every command that writes a result goes through one
function, prefcli.io.output.write_output; these tests drive it per command, with real files in
tmp_path, FIFOs with a reader thread, symlinks, hard links, /dev/null, /dev/stdout and /dev/full.

What cannot be tested here, honestly: a read-only folder when the tests run as root (root
writes anyway; the test skips), and a regular file on a really full file system (needs a
mount); the latter is covered by making the write fail in-process and checking that the old
file and the folder are untouched.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
import yaml

from conftest import EXAMPLES, ROOT
from prefcli.io import output
from prefcli.io.output import FormatConflict, OutputError, choose_format, write_output

ON_LINUX = sys.platform.startswith("linux")
has_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")


def run(args: List[str], stdout=subprocess.PIPE, env: Optional[Dict[str, str]] = None,
        stdin: Optional[bytes] = None, cwd: Optional[Path] = None) -> Tuple[int, bytes, str]:
    """prefcli in a real process; stdout may be a file object (e.g. /dev/full)."""
    full_env = dict(os.environ)
    full_env.pop("PYTHONIOENCODING", None)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "prefcli", *args], stdout=stdout, stderr=subprocess.PIPE,
                          input=stdin, cwd=str(cwd or ROOT), env=full_env, timeout=120)
    return proc.returncode, proc.stdout or b"", proc.stderr.decode("utf-8")


# Every command that writes a result: (arguments before -o, a fitting extension, a text check)
COMMANDS = {
    "score": (["score", str(EXAMPLES / "sochi-3p.yaml")], ".yaml", "pref-sheet/1"),
    "settle": (["settle", str(EXAMPLES / "paper-sheet.yaml")], ".json", "pref-settlement/1"),
    "convert": (["convert", str(EXAMPLES / "sochi-3p.yaml")], ".yaml", "pref-record/1"),
    "variants": (["variants", "sochi"], ".json", '"variant": "sochi"'),
    "schema": (["schema", "record"], ".json", "2020-12"),
    "replay": (["replay", str(EXAMPLES / "full-deals-sochi.yaml")], ".json", '"deals"'),
    "validate": (["validate", str(EXAMPLES / "sochi-3p.yaml")], ".json", "pref-validation/1"),
    "stats": (["stats", str(EXAMPLES / "tournament")], ".json", "pref-stats/1"),
    "rating": (["rating", str(EXAMPLES / "tournament")], ".csv", "rank"),
    "draw": (["draw", str(EXAMPLES / "sochi-3p.yaml")], ".svg", "<svg"),
    "report": (["report", str(EXAMPLES / "sochi-3p.yaml")], ".html", "<!DOCTYPE html>"),
}
NAMES = sorted(COMMANDS)
#: what the default (human or own) format of each command shows, for outputs without extension
PLAIN = {"score": "sochi, pool 12", "settle": "payments:", "convert": "pref-record/1",
         "variants": "sochi: Sochi", "schema": "2020-12", "replay": "trick  1:", "validate": "ok: ",
         "stats": "game(s)", "rating": "rank", "draw": "<svg", "report": "<!DOCTYPE html>"}


def _one_line_naming(err: str, path: str) -> None:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert path in lines[0] and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# Regular files: atomic, mode kept, format from the extension
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_regular_file_written_atomically_keeping_its_mode(name, tmp_path):
    args, ext, marker = COMMANDS[name]
    out = tmp_path / f"result{ext}"
    out.write_text("old content\n")
    os.chmod(out, 0o640)
    code, stdout, err = run(args + ["-o", str(out)])
    assert code == 0, err
    assert stdout == b""
    text = out.read_text(encoding="utf-8")
    assert marker in text and "old content" not in text
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]     # no temporary file left


@pytest.mark.parametrize("name", NAMES)
def test_new_file_gets_the_umask_mode_not_0600(name, tmp_path):
    args, ext, _ = COMMANDS[name]
    out = tmp_path / f"new{ext}"
    code, _, err = run(args + ["-o", str(out)])
    assert code == 0, err
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask


@pytest.mark.parametrize("name", NAMES)
def test_symlink_replaces_its_target_and_stays_a_link(name, tmp_path):
    args, ext, marker = COMMANDS[name]
    target = tmp_path / "real" / f"target{ext}"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / f"link{ext}"
    link.symlink_to(target)
    code, _, err = run(args + ["-o", str(link)])
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert marker in target.read_text(encoding="utf-8")
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]


@pytest.mark.parametrize("name", NAMES)
def test_dangling_symlink_creates_its_target(name, tmp_path):
    args, ext, marker = COMMANDS[name]
    target = tmp_path / f"later{ext}"
    link = tmp_path / f"link{ext}"
    link.symlink_to(target)
    code, _, err = run(args + ["-o", str(link)])
    assert code == 0, err
    assert link.is_symlink() and marker in target.read_text(encoding="utf-8")


def test_score_o_json_writes_json_not_the_table(tmp_path):
    for ext, parse in ((".json", json.loads), (".yaml", yaml.safe_load), (".yml", yaml.safe_load)):
        out = tmp_path / f"sheet{ext}"
        code, _, err = run(["score", str(EXAMPLES / "sochi-3p.yaml"), "-o", str(out)])
        assert code == 0, err
        assert parse(out.read_text(encoding="utf-8"))["format"] == "pref-sheet/1"
    out = tmp_path / "sheet.csv"
    assert run(["score", str(EXAMPLES / "sochi-3p.yaml"), "-o", str(out)])[0] == 0
    assert out.read_text().splitlines()[0].startswith("player")
    out = tmp_path / "sheet.txt"
    assert run(["score", str(EXAMPLES / "sochi-3p.yaml"), "-o", str(out)])[0] == 0
    assert out.read_text().startswith("sochi, pool 12")


@pytest.mark.parametrize("name,ext,parse", [
    ("settle", ".json", json.loads), ("settle", ".yaml", yaml.safe_load),
    ("variants", ".json", json.loads), ("variants", ".yml", yaml.safe_load),
    ("replay", ".json", json.loads), ("convert", ".json", json.loads), ("convert", ".yml", yaml.safe_load),
    ("schema", ".json", json.loads),
])
def test_extension_picks_the_format_in_every_command(name, ext, parse, tmp_path):
    args, _, _ = COMMANDS[name]
    if name == "convert" and ext == ".json":   # the example's comments cannot go into JSON
        args = args + ["--drop-comments"]
    out = tmp_path / f"out{ext}"
    code, _, err = run(args + ["-o", str(out)])
    assert code == 0, err
    assert isinstance(parse(out.read_text(encoding="utf-8")), dict)


@pytest.mark.parametrize("name,ext,fmt", [
    ("score", ".json", "yaml"), ("score", ".csv", "table"), ("settle", ".yaml", "json"),
    ("variants", ".json", "yaml"), ("replay", ".json", "text"), ("convert", ".json", "yaml"),
])
def test_extension_against_an_explicit_format_is_a_usage_error(name, ext, fmt, tmp_path):
    args, _, _ = COMMANDS[name]
    out = tmp_path / f"out{ext}"
    flag = "--to" if name == "convert" else "-f"
    code, _, err = run(args + ["-o", str(out), flag, fmt])
    assert code == 2, err
    assert "-o" in err and not out.exists()


@pytest.mark.parametrize("name,ext", [("replay", ".yaml"), ("variants", ".csv"), ("schema", ".yaml"),
                                      ("convert", ".csv"), ("draw", ".json"), ("report", ".yaml")])
def test_extension_naming_a_format_the_command_cannot_write_is_a_usage_error(name, ext, tmp_path):
    args, _, _ = COMMANDS[name]
    out = tmp_path / f"out{ext}"
    code, _, err = run(args + ["-o", str(out)])
    assert code == 2 and not out.exists(), err


def test_agreeing_format_and_extension_and_unknown_extensions(tmp_path):
    out = tmp_path / "s.json"
    assert run(["score", str(EXAMPLES / "sochi-3p.yaml"), "-o", str(out), "-f", "json"])[0] == 0
    assert json.loads(out.read_text())["format"] == "pref-sheet/1"
    out = tmp_path / "s.out"                 # an extension prefcli does not know asks for nothing
    assert run(["score", str(EXAMPLES / "sochi-3p.yaml"), "-o", str(out), "-f", "json"])[0] == 0
    assert json.loads(out.read_text())["format"] == "pref-sheet/1"
    assert run(["score", str(EXAMPLES / "sochi-3p.yaml"), "-o", str(out)])[0] == 0
    assert out.read_text().startswith("sochi, pool 12")


def test_choose_format_unit():
    assert choose_format("a.json", None, ["table", "json"], "table") == "json"
    assert choose_format("a.YML", None, ["table", "yaml"], "table") == "yaml"
    assert choose_format("a.txt", None, ["text", "json"], "json") == "text"
    assert choose_format("a.txt", None, ["table", "json"], "json") == "table"
    assert choose_format("a.txt", "table", ["table", "json"], "json") == "table"
    assert choose_format("-", None, ["table", "json"], "table") == "table"
    assert choose_format(None, "json", ["table", "json"], "table") == "json"
    assert choose_format("noext", None, ["table", "json"], "table") == "table"
    with pytest.raises(FormatConflict):
        choose_format("a.json", "yaml", ["json", "yaml"], "json")
    with pytest.raises(FormatConflict):
        choose_format("a.csv", None, ["json", "yaml"], "json")


# ---------------------------------------------------------------------------------------------
# Never over an input
# ---------------------------------------------------------------------------------------------

IMPORTS = ROOT / "tests" / "examples" / "imports"


def _settle_part(tmp_path: Path) -> Path:
    code, out, err = run(["settle", str(EXAMPLES / "paper-sheet.yaml"), "-f", "json"])
    assert code == 0, err
    part = tmp_path / "part.json"
    part.write_bytes(out)
    return part


#: every command that reads an input and writes a result: (command, input, more arguments)
OVERWRITE_CASES = [
    ("score", EXAMPLES / "sochi-3p.yaml", []), ("settle", EXAMPLES / "paper-sheet.yaml", []),
    ("settle", EXAMPLES / "sochi-3p.yaml", []), ("settle", EXAMPLES / "sochi-3p.yaml", ["--summary"]),
    ("replay", EXAMPLES / "full-deals-sochi.yaml", []), ("convert", EXAMPLES / "sochi-3p.yaml", []),
    ("validate", EXAMPLES / "sochi-3p.yaml", []), ("stats", EXAMPLES / "sochi-3p.yaml", []),
    ("rating", EXAMPLES / "sochi-3p.yaml", []), ("draw", EXAMPLES / "sochi-3p.yaml", []),
    ("report", EXAMPLES / "sochi-3p.yaml", []), ("analyze", EXAMPLES / "full-deals-sochi.yaml", []),
    ("import", IMPORTS / "preferanser" / "1.json", []), ("merge", None, []),
]


@pytest.mark.parametrize("name,given,more", OVERWRITE_CASES,
                         ids=[f"{n}{''.join(m)}-{g.name if g else 'part'}" for n, g, m in OVERWRITE_CASES])
def test_never_writes_over_an_input(name, given, more, tmp_path):
    """One rule for every command (convert included, since issue 11 (e)): an output that is one
    of the inputs is exit 1, one line naming it, nothing written."""
    if given is None:
        source = _settle_part(tmp_path)
        given = tmp_path / "given.json"
        source.rename(given)
    src = tmp_path / given.name
    if given != src:
        src.write_bytes(given.read_bytes())
    before = src.read_bytes()
    link = tmp_path / ("link" + src.suffix)
    link.symlink_to(src)
    hard = tmp_path / ("hard" + src.suffix)
    os.link(src, hard)
    sub = tmp_path / "sub"
    sub.mkdir()
    for read, write in ((src, src), (src, link), (link, src), (src, hard),
                        (src, Path("..") / src.name)):
        code, _, err = run([name, str(read), *more, "-o", str(write)], cwd=sub)
        assert code == 1, (read, write, err)
        _one_line_naming(err, str(write))
        assert "refusing to write over it" in err
        assert src.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([src.name, link.name, hard.name, "sub"])


def test_never_writes_over_standard_input_or_a_folder_member(tmp_path):
    src = tmp_path / "g.yaml"
    src.write_bytes((EXAMPLES / "sochi-3p.yaml").read_bytes())
    before = src.read_bytes()
    with open(src, "rb") as fh:
        proc = subprocess.run([sys.executable, "-m", "prefcli", "score", "-", "-o", str(src)], stdin=fh,
                              capture_output=True, cwd=str(ROOT), timeout=120)
    assert proc.returncode == 1 and b"standard input" in proc.stderr
    assert src.read_bytes() == before
    # settle of a folder: every file found there is an input
    folder = tmp_path / "season"
    folder.mkdir()
    sheet = folder / "r1.yaml"
    sheet.write_bytes((EXAMPLES / "paper-sheet.yaml").read_bytes())
    code, _, err = run(["settle", str(folder), "-o", str(sheet)])
    assert code == 1 and "refusing" in err
    assert sheet.read_bytes() == (EXAMPLES / "paper-sheet.yaml").read_bytes()


def test_convert_refuses_its_input_and_in_place_still_works(tmp_path):
    src = tmp_path / "g.yaml"
    src.write_bytes((EXAMPLES / "sochi-3p.yaml").read_bytes())
    link = tmp_path / "l.yaml"
    link.symlink_to(src)
    code, _, err = run(["convert", str(src), "-o", str(link)])
    assert code == 1 and "--in-place" in err and "refusing to write over it" in err
    assert src.read_bytes() == (EXAMPLES / "sochi-3p.yaml").read_bytes()
    code, _, err = run(["convert", str(link), "--in-place"])
    assert code == 0, err
    assert link.is_symlink() and "pref-record/1" in src.read_text()


def test_standard_output_redirected_into_an_input_is_refused(tmp_path):
    src = tmp_path / "g.yaml"
    src.write_bytes((EXAMPLES / "sochi-3p.yaml").read_bytes())
    with open(src, "ab") as fh:                      # `prefcli score g.yaml >> g.yaml`
        code, _, err = run(["score", str(src)], stdout=fh)
    assert code == 1 and "refusing" in err
    assert src.read_bytes() == (EXAMPLES / "sochi-3p.yaml").read_bytes()


# ---------------------------------------------------------------------------------------------
# Devices, FIFOs, /dev/stdout: written into, never replaced
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_dev_null_is_written_into(name):
    args, _, _ = COMMANDS[name]
    code, stdout, err = run(args + ["-o", os.devnull])
    assert code == 0, err
    assert stdout == b""
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", NAMES)
def test_fifo_reader_gets_the_output(name, tmp_path):
    args, marker = COMMANDS[name][0], PLAIN[name]
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: List[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    code, _, err = run(args + ["-o", str(fifo)])
    t.join(30)
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and marker in got[0].decode("utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_dev_stdout_writes_into_standard_output(name, tmp_path):
    args, marker = COMMANDS[name][0], PLAIN[name]
    code, stdout, err = run(args + ["-o", "/dev/stdout"])
    assert code == 0, err
    assert marker in stdout.decode("utf-8")
    # stdout redirected to a file: the shell's file gets the data (it is not replaced)
    out = tmp_path / "redirected.txt"
    with open(out, "wb") as fh:
        code, _, err = run(args + ["-o", "/dev/stdout"], stdout=fh)
    assert code == 0, err
    assert marker in out.read_text(encoding="utf-8")


@pytest.mark.skipif(not ON_LINUX, reason="/dev/fd/N as in Linux")
def test_dev_fd_of_a_shell_redirection_keeps_its_file(tmp_path):
    out = tmp_path / "three.txt"
    script = f'exec "{sys.executable}" -m prefcli schema sheet -o /dev/fd/3 3> "{out}"'
    proc = subprocess.run(["sh", "-c", script], capture_output=True, cwd=str(ROOT), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "pref-sheet/1" in out.read_text()


# ---------------------------------------------------------------------------------------------
# Failures: exit 1, one line naming the path, nothing half-written
# ---------------------------------------------------------------------------------------------

@has_dev_full
@pytest.mark.parametrize("name", NAMES)
def test_dev_full_is_exit_1_with_one_line(name):
    args, _, _ = COMMANDS[name]
    code, _, err = run(args + ["-o", "/dev/full"])
    assert code == 1
    _one_line_naming(err, "/dev/full")
    assert "no space left" in err


@has_dev_full
@pytest.mark.parametrize("name", NAMES)
def test_stdout_on_dev_full_is_exit_1_with_one_line(name):
    args = COMMANDS[name][0]
    with open("/dev/full", "wb") as full:
        code, _, err = run(args, stdout=full)
    assert code == 1
    _one_line_naming(err, "standard output")
    assert "no space left" in err


@pytest.mark.parametrize("name", NAMES)
def test_missing_folder_folder_and_file_as_folder(name, tmp_path):
    args, ext, _ = COMMANDS[name]
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    cases = [
        (tmp_path / "missing" / f"out{ext}", "does not exist"),
        (tmp_path, "is a folder"),
        (plain / f"out{ext}", "not a folder"),
    ]
    for dest, words in cases:
        code, _, err = run(args + ["-o", str(dest)])
        assert code == 1, (dest, err)
        _one_line_naming(err, str(dest))
        assert words in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt"]
    assert plain.read_text() == "x"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="running as root: a read-only folder is writable anyway")
@pytest.mark.parametrize("name", NAMES)
def test_read_only_folder(name, tmp_path):
    args, ext, _ = COMMANDS[name]
    folder = tmp_path / "ro"
    folder.mkdir()
    os.chmod(folder, 0o555)
    try:
        code, _, err = run(args + ["-o", str(folder / f"out{ext}")])
        assert code == 1
        _one_line_naming(err, str(folder / f"out{ext}"))
        assert "permission denied" in err
        assert list(folder.iterdir()) == []
    finally:
        os.chmod(folder, 0o755)


def test_read_only_existing_file_is_replaced_atomically_like_mv(tmp_path):
    """A read-only *file* in a writable folder: the rename replaces it (as `mv` and editors
    do) and keeps its mode; what protects a file from being rewritten is its folder."""
    out = tmp_path / "locked.json"
    out.write_text("{}")
    os.chmod(out, 0o444)
    code, _, err = run(["schema", "sheet", "-o", str(out)])
    assert code == 0, err
    assert stat.S_IMODE(out.stat().st_mode) == 0o444 and "pref-sheet/1" in out.read_text()


def test_a_failing_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    """A full disk on a regular file (simulated: the write raises ENOSPC after one chunk)."""
    out = tmp_path / "s.json"
    out.write_text("old\n")
    real_write = os.write
    calls = []

    def failing(fd, data):
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, bytes(data)[:10])

    monkeypatch.setattr(output.os, "write", failing)
    with pytest.raises(OutputError) as info:
        write_output(str(out), "x" * 1000)
    assert info.value.file == str(out) and "no space left" in info.value.message
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_write_output_unit(tmp_path):
    out = tmp_path / "a.txt"
    write_output(str(out), "ė → ok\n")
    assert out.read_bytes() == "ė → ok\n".encode("utf-8")
    write_output(str(out), b"bytes\n")
    assert out.read_bytes() == b"bytes\n"
    with pytest.raises(OutputError):
        write_output(str(out), "again", inputs=[str(out)])
    assert out.read_bytes() == b"bytes\n"
    with pytest.raises(OutputError) as info:
        write_output(str(tmp_path / "no" / "x"), "x")
    assert "does not exist" in info.value.message
    with pytest.raises(OutputError):
        write_output(str(tmp_path) + "/", "x")
    with pytest.raises(OutputError) as info:
        write_output("/dev/stdin", "x")
    assert "standard input" in info.value.message


# ---------------------------------------------------------------------------------------------
# Encodings: output never fails on the stream's encoding
# ---------------------------------------------------------------------------------------------

def _named(tmp_path: Path) -> Path:
    src = tmp_path / "names.yaml"
    text = (EXAMPLES / "paper-sheet.yaml").read_text(encoding="utf-8")
    src.write_text(text.replace("Ann", "Аня").replace("Bob", "Jonė"), encoding="utf-8")
    return src


@pytest.mark.parametrize("encoding", ["cp1252", "ascii", "latin-1"])
def test_non_utf8_stream_encoding_writes_utf8_to_pipes_and_files(encoding, tmp_path):
    src = _named(tmp_path)
    env = {"PYTHONIOENCODING": encoding}
    for args in (["settle", str(src)], ["settle", str(src), "-f", "json"], ["settle", str(src), "-f", "yaml"],
                 ["convert", str(src)], ["validate", str(src)], ["score", str(EXAMPLES / "sochi-3p.yaml")]):
        code, stdout, err = run(args, env=env)
        assert code == 0, (args, err)
        text = stdout.decode("utf-8")          # UTF-8, whatever the locale said
        if args[0] in ("settle", "convert"):
            assert "Аня" in text and "Jonė" in text
    code, stdout, _ = run(["settle", str(src)], env=env)
    assert "Jonė  →  Cid" in stdout.decode("utf-8")
    code, _, err = run(["validate", str(src), str(tmp_path / "Jonė-missing.yaml")], env=env)
    assert code == 1 and "Jonė-missing.yaml" in err and "Traceback" not in err


@pytest.mark.skipif(not ON_LINUX, reason="needs a pseudo-terminal")
def test_a_terminal_in_cp1252_gets_readable_escapes_not_a_crash(tmp_path):
    import pty
    src = _named(tmp_path)
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONIOENCODING="cp1252")
    proc = subprocess.Popen([sys.executable, "-m", "prefcli", "settle", str(src)], stdout=slave,
                            stderr=subprocess.PIPE, cwd=str(ROOT), env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(60)
    os.close(master)
    shown = b"".join(chunks).decode("cp1252")
    assert proc.returncode == 0, proc.stderr.read()
    assert "Jon\\u0117" in shown and "\\u0410\\u043d\\u044f" in shown


def test_o_file_is_utf8_whatever_the_locale(tmp_path):
    src = _named(tmp_path)
    out = tmp_path / "s.json"
    code, _, err = run(["settle", str(src), "-o", str(out)], env={"PYTHONIOENCODING": "cp1252"})
    assert code == 0, err
    assert json.loads(out.read_text(encoding="utf-8"))["players"][:2] == ["Аня", "Jonė"]
