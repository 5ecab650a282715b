"""The command line as a scripting citizen: exit codes, stdin, stderr, no tracebacks (issue 2 §6)."""
import json

import click
import pytest

from conftest import EXAMPLES, run_cli
from prefcli.cli import main as cli_module


def test_version_and_help():
    code, out, _ = run_cli(["--version"])
    assert code == 0 and "prefcli" in out
    code, out, _ = run_cli(["--help"])
    assert code == 0
    for name in ("validate", "replay", "score", "settle", "convert", "variants", "schema"):
        assert name in out


def test_usage_errors_exit_2():
    assert run_cli(["nosuchcommand"])[0] == 2
    assert run_cli(["validate"])[0] == 2
    assert run_cli(["validate", "--format", "xml", "x.yaml"])[0] == 2


def test_stdin_is_dash():
    text = (EXAMPLES / "full-deals-sochi.yaml").read_text()
    code, out, err = run_cli(["validate", "-"], stdin=text)
    assert code == 0, err
    assert "<stdin>" in out
    code, out, err = run_cli(["validate", "-"], stdin="format: pref-record/1\nplayers: [A]\n")
    assert code == 1 and "<stdin>" in err


def test_problems_go_to_stderr_results_to_stdout():
    code, out, err = run_cli(["validate", "-"], stdin="format: pref-record/1\nplayers: [A, B, C]\nrules: {variant: sochi}\n"
                                                       "deals: [{contract: 6S, declarer: Z}]\n")
    assert code == 1 and out == "" and "<stdin>:4" in err


def test_quiet_prints_nothing_for_valid_files():
    code, out, err = run_cli(["validate", "-q", str(EXAMPLES / "full-deals-sochi.yaml")])
    assert (code, out, err) == (0, "", "")


def test_schema_command_prints_draft_2020_12():
    for kind in ("record", "sheet", "analysis"):
        code, out, _ = run_cli(["schema", kind])
        assert code == 0
        schema = json.loads(out)
        assert schema["$schema"].endswith("2020-12/schema")


def _all_properties(node, path="$"):
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield f"{path}.{name}", sub
        for key, sub in node.items():
            yield from _all_properties(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _all_properties(sub, f"{path}[{i}]")


@pytest.mark.parametrize("kind", ["record", "sheet", "analysis"])
def test_every_schema_property_has_a_description(kind):
    from prefcli.io.schemas import schema
    missing = [p for p, sub in _all_properties(schema(kind)) if isinstance(sub, dict) and "description" not in sub
               and "$ref" not in sub]
    assert missing == []


def test_internal_error_is_one_line_exit_3(monkeypatch, capsys):
    @click.command("boom")
    def boom():
        raise RuntimeError("kaput")

    monkeypatch.setitem(cli_module.COMMANDS, "boom", "test")
    monkeypatch.setattr(cli_module.LazyGroup, "get_command",
                        lambda self, ctx, name: boom if name == "boom" else None)
    assert cli_module.main(["boom"]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "kaput" in err and "Traceback" not in err
    assert cli_module.main(["--debug", "boom"]) == 3
    assert "Traceback" in capsys.readouterr().err


def test_library_imports_without_click_in_the_layers():
    """The library layers do not import click (the CLI is a thin layer on top)."""
    import subprocess, sys
    code = ("import sys, prefcli.model.cards, prefcli.model.records, prefcli.io.documents, prefcli.rules.checks, prefcli.rules.presets, "
            "prefcli.model.ledger, prefcli.scoring, prefcli.settle; assert 'click' not in sys.modules, 'click imported'")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0
