"""`prefcli variants [NAME]`: presets, every option with its value and meaning, bad names."""
from __future__ import annotations

import json

import pytest
import yaml

from prefcli.rules.presets import COMMON_OPTIONS, get_preset

RUSSIAN = ("sochi", "leningrad", "rostov", "classic")




def test_lists_presets(run, capsys):
    code, out, _ = run(["variants"])
    assert code == 0
    for name in RUSSIAN + ("lithuanian", "lithuanian-kitty"):
        assert name in out
    code, out, _ = run(["variants", "-f", "json"])
    names = [v["name"] for v in json.loads(out)["variants"]]
    assert set(RUSSIAN) <= set(names)


@pytest.mark.parametrize("name", RUSSIAN)
def test_every_option_with_value_and_meaning(run, capsys, name):
    code, out, _ = run(["variants", name])
    assert code == 0
    preset = get_preset(name)
    for o in preset.family.options:
        assert o.name in out and o.meaning in out
    code, out, _ = run(["variants", name, "-f", "yaml"])
    doc = yaml.safe_load(out)
    names = [o["name"] for o in doc["options"]]
    assert names == [o.name for o in COMMON_OPTIONS if o.name != "variant"] + preset.family.option_names()
    assert all(o["meaning"] for o in doc["options"])


def test_preset_values_follow_presets_md(run, capsys):
    """PRESETS.md table: a few distinguishing defaults per preset."""
    def values(name):
        _, out, _ = run(["variants", name, "-f", "json"])
        return {o["name"]: o["value"] for o in json.loads(out)["options"]}
    s, l, r, c = (values(n) for n in RUSSIAN)
    assert (s["whist_style"], l["whist_style"], r["whist_style"], c["whist_style"]) == \
        ("greedy", "gentleman", "gentleman", "greedy")
    assert (s["responsibility"], l["responsibility"], r["responsibility"], c["responsibility"]) == \
        ("full", "half", "half", "half-until-closed")
    assert l["whist_multiplier"] == 2 and l["help"] == "none" and l["end"] == "total" and l["leningrad_overs"] is True
    assert r["consolation"] == 10 and r["allpass.scoring"] == "rostov" and r["allpass.amnesty"] is False
    assert c["allpass.progression"] == [1, 2, 4] and c["allpass.exit"] == [7, 7, 7] and c["dark"] is True
    assert s["allpass.progression"] == [1, 2, 3] and l["allpass.progression"] == [2, 4, 6]


def test_set_shows_the_override(run, capsys):
    code, out, _ = run(["variants", "sochi", "--set", "allpass.progression=[1,2,4]", "-f", "json"])
    assert code == 0
    opt = next(o for o in json.loads(out)["options"] if o["name"] == "allpass.progression")
    assert opt["value"] == [1, 2, 4] and opt["overridden"] is True


@pytest.mark.parametrize("args,needle,status", [
    # NAME is a command-line argument: a usage error, as `--variant nope` is in every command
    # and `schema nope` is (README: exit codes)
    (["variants", "nope"], "known variants: lithuanian", 2),
    (["variants", "sochy"], "did you mean 'sochi'?", 2),
    # a bad --set is a usage error in every command (README: exit codes), variants too
    (["variants", "sochi", "--set", "whist_style=nice"], "greedy | gentleman", 2),
    (["variants", "sochi", "--set", "nosuch=1"], "valid options: ", 2),
])
def test_unknown_names_and_values_are_usage_errors(run, capsys, args, needle, status):
    code, _, err = run([*args])
    assert code == status and needle in err and "Traceback" not in err
