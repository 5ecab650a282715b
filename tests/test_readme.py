"""The README stays true: its first commands work and its Python example runs."""
import os
import re

from conftest import ROOT, run_cli

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_starts_with_the_two_commands():
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    install_and_run, tests = blocks[0].strip(), blocks[1].strip()
    assert install_and_run.startswith("pip install . && prefcli ")
    assert tests == 'pip install ".[test]" && python -m pytest -q'
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests in ci
    args = install_and_run.split("&& prefcli ", 1)[1].split()
    code, out, err = run_cli(args)
    assert code == 0, err
    assert out.strip()


def test_readme_python_example_runs(capsys):
    code = re.findall(r"```python\n(.*?)```", README, re.S)
    assert code
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for block in code:
            exec(compile(block, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert "Payment(" in capsys.readouterr().out


def test_readme_analyze_blocks_are_real_output():
    """Every `$ prefcli analyze …` block of the README shows what the command prints now."""
    blocks = re.findall(r"```console\n\$ prefcli (analyze [^\n]*)\n(.*?)```", README, re.S)
    assert len(blocks) >= 3
    for command, shown in blocks:
        shown = shown.split("\n$ echo $?")[0].rstrip("\n")
        code, out, err = run_cli(command.split())
        assert (out + err).rstrip("\n") == shown, command


def test_using_the_library_shows_every_application_function():
    blocks = "".join(re.findall(r"```python\n(.*?)```", README, re.S))
    for module, name in [("check", "check"), ("replay", "replay"), ("score", "score_source"),
                         ("settle", "settle"), ("convert", "convert_source"), ("notes", "notes_to_record")]:
        assert f"from prefcli.app.{module} import {name}" in blocks, name


def test_readme_version_block_is_the_real_output():
    block = re.search(r"\$ prefcli --version\n(.*?)```", README, re.S).group(1)
    code, out, err = run_cli(["--version"])
    assert code == 0 and out.strip() == "\n".join(line.strip() for line in block.strip().splitlines())
