"""File names that are not UTF-8 (issue 11 (d)): `$'\\xff.yaml'` on the command line is read
and written by every command, and every message and document names it safely, as `\\xff` (the
way `ls -b` writes it): valid UTF-8 on every stream, never a traceback or exit 3. Real files
with such names, real processes (the name reaches prefcli as bytes)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from conftest import EXAMPLES, ROOT

IMPORTS = ROOT / "tests" / "examples" / "imports"


def _can_hold_bytes(folder: Path) -> bool:
    try:
        p = os.path.join(os.fsencode(folder), b"\xff.probe")
        with open(p, "wb"):
            pass
        os.unlink(p)
        return True
    except (OSError, ValueError):
        return False


@pytest.fixture
def odd(tmp_path):
    """A folder with inputs whose names are not UTF-8; returns (folder, name → bytes path)."""
    if not _can_hold_bytes(tmp_path):
        pytest.skip("this file system refuses names that are not UTF-8")
    folder = os.fsencode(tmp_path)
    files = {
        "record": (EXAMPLES / "sochi-3p.yaml", b"\xff.yaml"),
        "full": (EXAMPLES / "full-deals-sochi.yaml", b"f\xfe\xff.yaml"),
        "sheet": (EXAMPLES / "paper-sheet.yaml", b"sheet-\xe9.yaml"),
        "import": (IMPORTS / "preferanser" / "1.json", b"i\xff.json"),
    }
    out = {}
    for key, (src, name) in files.items():
        target = os.path.join(folder, name)
        shutil.copyfile(src, target)
        out[key] = target
    bad = os.path.join(folder, b"bad\xff.yaml")
    with open(bad, "wb") as fh:
        fh.write(b"format: pref-sheet/1\nplayers: [A, B]\n")
    out["bad"] = bad
    return folder, out


def _run(args: List[bytes], cwd: bytes) -> Tuple[int, bytes, bytes]:
    env = dict(os.environ)
    env.pop("PYTHONIOENCODING", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable.encode(), b"-m", b"prefcli", *args], capture_output=True, cwd=cwd,
                          env=env, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def _clean(data: bytes) -> str:
    text = data.decode("utf-8")                     # valid UTF-8, strictly
    assert "\\udc" not in text and "Traceback" not in text and "internal error" not in text, text
    return text


#: (command and its arguments, the inputs it reads by key, an output extension)
CASES = {
    "validate": ([b"validate"], ["record", "full"], b".json"),
    "replay": ([b"replay", b"--deal", b"1"], ["full"], b".json"),
    "score": ([b"score"], ["record"], b".yaml"),
    "settle": ([b"settle"], ["record", "sheet"], b".csv"),
    "settle --summary": ([b"settle", b"--summary"], ["record", "sheet"], b".json"),
    "stats": ([b"stats"], ["record", "sheet"], b".yaml"),
    "rating": ([b"rating"], ["record", "sheet"], b".json"),
    "draw": ([b"draw"], ["record"], b".svg"),
    "report": ([b"report"], ["record"], b".html"),
    "analyze": ([b"analyze", b"--deal", b"1"], ["full"], b".json"),
    "convert": ([b"convert"], ["record"], b".yaml"),
    "import": ([b"import"], ["import"], b".yaml"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_command_reads_and_writes_names_that_are_not_utf8(odd, name):
    folder, files = odd
    args, keys, ext = CASES[name]
    target = os.path.join(folder, b"out-\xfe" + ext)
    code, out, err = _run([*args, *[files[k] for k in keys], b"-o", target], folder)
    assert code == 0, err
    _clean(out)
    _clean(err)
    assert os.path.getsize(target) > 0
    text = _clean(open(target, "rb").read())
    if ext == b".json":
        json.loads(text)                            # a valid document, its names escaped
    if name in ("validate", "settle", "stats", "rating"):   # the result names its inputs
        shown = os.fsdecode(os.path.basename(files[keys[0]])).encode("utf-8", "surrogateescape") \
            .decode("utf-8", "backslashreplace")
        assert shown.replace("\\", "\\\\" if ext == b".json" else "\\") in text, (shown, text[:300])


@pytest.mark.parametrize("command", [[b"validate"], [b"score"], [b"settle"], [b"stats"], [b"draw"],
                                     [b"convert"], [b"replay", b"--check"], [b"validate", b"-f", b"json"]])
def test_a_problem_names_the_file_escaped(odd, command):
    folder, files = odd
    code, out, err = _run([*command, files["bad"]], folder)
    assert code == 1
    text = _clean(err) + _clean(out)
    if b"json" in command:
        doc = json.loads(out.decode("utf-8"))
        assert doc["files"][0]["file"].endswith("/bad\\xff.yaml")
        assert doc["files"][0]["problems"][0]["file"].endswith("/bad\\xff.yaml")
    else:
        assert "bad\\xff.yaml" in text, text


def test_json_documents_name_the_files_escaped(odd):
    folder, files = odd
    code, out, err = _run([b"settle", files["record"], files["sheet"], b"-f", b"json"], folder)
    assert code == 0, err
    doc = json.loads(out.decode("utf-8"))
    assert [i["file"].rsplit("/", 1)[-1] for i in doc["inputs"]] == ["\\xff.yaml", "sheet-\\xe9.yaml"]


def test_an_output_that_cannot_be_written_is_named_escaped(odd):
    folder, files = odd
    missing = os.path.join(folder, b"no-\xff", b"out.json")
    code, out, err = _run([b"score", files["record"], b"-o", missing], folder)
    assert code == 1
    text = _clean(err)
    assert "no-\\xff" in text and "does not exist" in text, text
    code, out, err = _run([b"score", files["record"], b"-o", files["record"]], folder)
    assert code == 1 and "\\xff.yaml" in _clean(err) and "refusing to write over it" in err.decode()


# ---------------------------------------------------------------------------------------------
# The shared hostile inputs, through the commands the acceptance tests do not run
# ---------------------------------------------------------------------------------------------

from conftest import BADINPUTS, needs_shared  # noqa: E402

NEWER = [["settle", "--summary"], ["stats"], ["rating"], ["draw"], ["report"], ["analyze"], ["import"], ["merge"]]


@needs_shared
@pytest.mark.parametrize("command", NEWER, ids=lambda c: " ".join(c))
def test_the_shared_bad_inputs_are_located_refusals_in_every_command(run, command):
    for path in sorted(BADINPUTS.glob("*")):
        if path.suffix not in (".yaml", ".json"):
            continue
        code, out, err = run([*command, str(path)])
        assert code == 1, (command, path.name, err)
        lines = [x for x in err.splitlines() if x.strip()]
        assert lines and "Traceback" not in err and "internal error" not in err, (path.name, err)
        located = [x for x in lines if x.startswith(f"{path}:") and x[len(str(path)) + 1:].split(":")[0].isdigit()]
        summary = [x for x in lines if x.startswith("prefcli: ") and "could not be" in x]
        assert located and len(located) + len(summary) == len(lines), (command, path.name, err)


@pytest.mark.parametrize("command", ["validate", "settle", "import"])
def test_a_name_with_a_newline_or_a_tab_stays_on_one_line(tmp_path, command):
    """`$'a\\nb.yaml'`: a message's `file:line:col` and validate's `ok:` line were split in two
    (scripts read them line by line); control characters are shown as `ls -b` shows them."""
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(EXAMPLES / "sochi-3p.yaml", folder / "a\nb.yaml")
    (folder / "bad\tx.yaml").write_text("format: pref-record/1\nplayers: [A, B]\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "prefcli", command, str(folder)], capture_output=True,
                          text=True, cwd=str(ROOT), timeout=300)
    text = proc.stdout + proc.stderr
    assert "a\nb" not in text and "bad\tx" not in text, text
    if command == "validate":
        assert f"ok: {folder}/a\\x0ab.yaml (record, 24 deals)\n" in proc.stdout
        assert f"{folder}/bad\\x09x.yaml:1:1: missing required field 'rules'" in proc.stderr
    elif command == "settle":
        assert "a\\x0ab.yaml" in text and f"{folder}/bad\\x09x.yaml:1:1:" in proc.stderr
    else:
        assert "a\\x0ab.yaml: skipped (not a saved file of a known program)" in proc.stderr
