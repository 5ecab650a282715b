"""One vocabulary (issue 11.6): the same flag means the same thing in every command, every
--help shows examples, --version names the format versions, shell completion is click's."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from prefcli.cli.main import COMMANDS


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_help_has_examples_and_the_output_option(run, name):
    code, out, err = run([name, "--help"])
    assert code == 0, err
    assert "Examples:" in out and "  prefcli " in out.split("Examples:", 1)[1]
    assert "-o, --output" in out


@pytest.mark.parametrize("name", ["validate", "replay", "score", "settle", "convert", "variants", "stats",
                                  "rating", "merge", "import", "analyze"])
def test_format_is_dash_f_everywhere(run, name):
    code, out, err = run([name, "--help"])
    assert "-f, --format" in out, name


def test_table_is_the_one_name_of_the_human_form_and_text_still_works(run):
    for args in (["validate", "-f", "text", "examples/sochi-3p.yaml"], ["validate", "-f", "table", "examples/sochi-3p.yaml"]):
        code, out, err = run(args)
        assert code == 0 and "ok: examples/sochi-3p.yaml" in out, err
    code, out, err = run(["replay", "-f", "text", "examples/full-deals-sochi.yaml", "--deal", "1"])
    assert code == 0 and "trick  1:" in out


def test_convert_takes_dash_f_and_keeps_to(run):
    code, out1, err = run(["convert", "examples/sochi-3p.yaml", "-f", "json", "--drop-comments"])
    assert code == 0, err
    code, out2, err = run(["convert", "examples/sochi-3p.yaml", "--to", "json", "--drop-comments"])
    assert code == 0 and out1 == out2 and out1.lstrip().startswith("{")


@pytest.mark.parametrize("name,args", [("validate", ["examples/"]), ("replay", ["examples/full-deals-sochi.yaml"]),
                                       ("convert", ["examples/sochi-3p.yaml", "--variant", "lithuanian"])])
def test_quiet_prints_nothing_but_problems(run, name, args):
    code, out, err = run([name, "-q", *args])
    assert code == 0 and err == "", err
    if name != "convert":
        assert out == ""


def test_version_names_the_formats(run):
    code, out, err = run(["--version"])
    assert code == 0
    assert out.startswith("prefcli ") and "reads: pref-record/1, pref-sheet/1" in out and "pref-settlement/1" in out


def test_shell_completion_is_clicks_own():
    env = {**os.environ, "_PREFCLI_COMPLETE": "bash_complete", "COMP_WORDS": "prefcli se", "COMP_CWORD": "1"}
    proc = subprocess.run([sys.executable, "-c", "from prefcli.cli.main import cli; cli(prog_name='prefcli')"],
                          env=env, capture_output=True, text=True, cwd=str(ROOT), timeout=60)
    assert "settle" in proc.stdout, proc.stderr


def _vocabulary_table():
    """The README's "One vocabulary" table: {(command, flag)} and the rows' flags."""
    import re
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### One vocabulary", 1)[1].split("\n### ", 1)[0]
    pairs = set()
    seen = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        flags_cell, _, commands_cell = cells
        flags = [f for chunk in re.findall(r"`([^`]+)`", flags_cell) for f in chunk.split()[0].split("/")]
        seen.extend(flags)
        for name in (c.strip() for c in commands_cell.split(",")):
            for flag in flags:
                pairs.add((name, flag))
    return pairs, seen


def test_the_readme_vocabulary_is_every_option_of_every_command():
    """One flag, one meaning: every option of every command is a row of the README's table
    listing that command, and the table lists nothing a command does not take."""
    import click

    from prefcli.cli.main import cli
    ctx = click.Context(cli)
    actual = set()
    for name in COMMANDS:
        for p in cli.get_command(ctx, name).params:
            if isinstance(p, click.Option):
                actual.update((name, flag) for flag in p.opts + p.secondary_opts if flag not in ("-h", "--help"))
    documented, flags = _vocabulary_table()
    assert len(flags) == len(set(flags)), "a flag has two rows"
    assert actual - documented == set(), "options missing from the README's vocabulary"
    assert documented - actual == set(), "the README lists options a command does not take"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_quiet_is_in_every_command(run, name):
    code, out, err = run([name, "--help"])
    assert "-q, --quiet" in out and "nothing but problems" in out


COUNTS = [(["replay", "examples/sochi-3p.yaml", "--deal"], "2"), (["analyze", "examples/analysis-sochi.yaml", "--deal"], "1"),
          (["score", "examples/sochi-3p.yaml", "--after"], "2"), (["draw", "examples/sochi-3p.yaml", "--after"], "2"),
          (["settle", "examples/sochi-3p.yaml", "-j"], "1"), (["stats", "examples/season-2019/", "-j"], "1")]


@pytest.mark.parametrize("args,good", COUNTS, ids=lambda a: " ".join(a) if isinstance(a, list) else a)
@pytest.mark.parametrize("bad", ["1_0", "\u0661\u0662", "1.0", "9" * 40, "", "0x2"])
def test_a_whole_number_option_takes_ascii_digits_only(run, args, good, bad):
    """Python's int() reads '1_0' as 10 and Arabic-Indic '١٢' as 12; a record refuses both (the
    schemas' [0-9]), so the command line does too: a usage error naming the option."""
    code, out, err = run([*args, bad])
    assert code == 2 and "Invalid value for" in err and "Traceback" not in err, (code, err)
    code, out, err = run([*args, good, "-o", "-"] if args[0] != "draw" else [*args, good, "-o", "-"])
    assert code == 0, err


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "1e999", "1_0", "\u0661", "3" * 31, ""])
def test_elo_options_take_finite_ascii_numbers(run, bad):
    for option in ("--elo-k", "--elo-start"):
        code, out, err = run(["rating", "examples/season-2019/", "-m", "elo", option, bad])
        assert code == 2 and "Invalid value for" in err and "Traceback" not in err, (option, bad, err)
    code, out, err = run(["rating", "examples/season-2019/", "-m", "elo", "--elo-k", "16", "--elo-start", "1e3"])
    assert code == 0, err
