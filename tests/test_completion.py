"""Shell completion of the names prefcli knows (prefcli/cli/completion.py): presets, rule options
and their values, importers, executors, each from the library's own registry."""
from __future__ import annotations

import json
import subprocess
import sys
from typing import List

import pytest

from prefcli.cli.main import cli
from prefcli.io.importers import importers
from prefcli.rules.presets import preset_names


def complete(args: List[str], incomplete: str) -> List[str]:
    """What click's completion offers for the word being typed after `args`."""
    from click.shell_completion import ShellComplete
    return [i.value for i in ShellComplete(cli, {}, "prefcli", "_PREFCLI_COMPLETE").get_completions(args, incomplete)]


# every command that takes --variant (the one rules_options, and convert's own)
VARIANT_COMMANDS = ["score", "settle", "replay", "draw", "report", "stats", "rating", "analyze", "convert"]


@pytest.mark.parametrize("command", VARIANT_COMMANDS)
def test_variant_completes_every_preset_and_only_those_typed(command):
    assert complete([command, "--variant"], "") == preset_names()
    assert complete([command, "--variant"], "len") == ["leningrad", "leningrad-husar"]
    assert complete([command, "--variant"], "LIT") == ["lithuanian", "lithuanian-kitty"]   # any case, as get_preset
    assert complete([command, "--variant"], "x") == []


def test_variants_name_completes_the_presets():
    assert complete(["variants"], "so") == ["sochi", "sochi-husar"]


@pytest.mark.parametrize("preset", ["sochi", "lithuanian", "lithuanian-kitty", "classic-husar"])
def test_set_completes_exactly_the_options_the_preset_lists(run, preset):
    code, out, _ = run(["variants", preset, "-f", "json"])
    assert code == 0
    listed = [o["name"] for o in json.loads(out)["options"]]
    assert sorted(complete(["score", "--variant", preset, "--set"], "")) == sorted(listed)
    assert sorted(complete(["variants", preset, "--set"], "")) == sorted(listed)
    assert "variant" not in listed        # --set variant is refused: the preset is chosen with --variant


def test_set_without_a_preset_completes_every_familys_options():
    names = set(complete(["score", "--set"], "allpass."))
    assert {"allpass.progression", "allpass.amnesty", "allpass.regain"} <= names     # Russian, and Lithuanian
    assert all(n.startswith("allpass.") for n in names)
    # a preset misspelt: every family's options still
    assert set(complete(["score", "--variant", "sochy", "--set"], "allpass.")) == names


def test_set_values_of_a_choice_and_of_yes_no():
    assert complete(["score", "--set"], "whist_style=") == ["whist_style=greedy", "whist_style=gentleman"]
    assert complete(["score", "--set"], "whist_style=gr") == ["whist_style=greedy"]
    assert complete(["score", "--set"], "gentleman_split_when_made=") == [
        "gentleman_split_when_made=yes", "gentleman_split_when_made=no"]
    assert complete(["score", "--set"], "pool=") == []            # a number: nothing to offer
    assert complete(["score", "--set"], "nonsense=") == []


def test_set_values_offered_are_accepted(run):
    for value in complete(["score", "--set"], "whist_style=") + complete(["score", "--set"], "single_whist="):
        code, _, err = run(["score", "examples/sochi-3p.yaml", "--set", value, "-f", "json"])
        assert code == 0, (value, err)


def test_import_from_completes_auto_and_every_importer():
    assert complete(["import", "--from"], "") == ["auto"] + [i.name for i in importers()]
    assert complete(["import", "--from"], "pref") == ["prefandroid", "preferanser"]


@pytest.mark.parametrize("command", ["settle", "stats", "rating", "analyze"])
def test_executor_completes_local_and_dask(command):
    assert complete([command, "--executor"], "") == ["local", "dask"]


def test_every_preset_offered_is_one_prefcli_takes(run):
    for name in complete(["score", "--variant"], ""):
        code, _, err = run(["score", "examples/sochi-3p.yaml", "--variant", name, "-f", "json"])
        assert code in (0, 1), (name, err)                 # scored, or refused for the record's table
        assert "unknown variant" not in err


def test_completion_costs_nothing_at_start_up():
    proc = subprocess.run([sys.executable, "-c", "import sys, prefcli.cli.main; "
                           "print('click.shell_completion' in sys.modules)"], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "False", proc.stderr


def test_completion_through_the_shell_protocol():
    """What bash asks (``_PREFCLI_COMPLETE=bash_complete``), in a real process."""
    import os
    env = {**os.environ, "_PREFCLI_COMPLETE": "bash_complete", "COMP_WORDS": "prefcli settle --variant ros",
           "COMP_CWORD": "3"}
    proc = subprocess.run([sys.executable, "-c", "from prefcli.cli.main import cli; cli(prog_name='prefcli')"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["plain,rostov", "plain,rostov-husar"], proc.stderr


@pytest.mark.parametrize("preset", ["sochi", "lithuanian", "lithuanian-kitty", "classic-husar"])
def test_every_value_offered_after_name_is_one_the_preset_takes(run, preset):
    """Every NAME=value the completion offers for the preset's choice and yes/no options."""
    offered = [v for name in complete(["variants", preset, "--set"], "")
               for v in complete(["variants", preset, "--set"], name + "=")]
    assert len(offered) > 40
    for value in offered:
        code, _, err = run(["variants", preset, "--set", value, "-f", "json"])
        assert code == 0, (value, err)
