"""Every preset resolves to the values it had when its tables were last rearranged: the option
tables share base rows (the Lithuanian families' shortfall and auction rows, for one), and
sharing a row must change no preset's values.

tests/examples/presets-resolved.json holds each preset's resolved values (in the order
``resolve_rules`` gives them) and its own table, as "type repr". A preset changed on purpose is
written again with ``python tests/test_preset_values.py``; a rearrangement of the tables leaves
the file as it is.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Dict

import pytest

from prefcli.rules.presets import get_preset, preset_names, resolve_rules

SNAPSHOT = Path(__file__).resolve().parent / "examples" / "presets-resolved.json"


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def preset_values(name: str) -> Dict[str, Dict[str, str]]:
    return {"resolved": {k: _shown(v) for k, v in resolve_rules({"variant": name}).values.items()},
            "preset": {k: _shown(v) for k, v in sorted(get_preset(name).values.items())}}


def test_the_snapshot_names_every_preset():
    assert list(json.loads(SNAPSHOT.read_text(encoding="utf-8"))) == preset_names()


@pytest.mark.parametrize("name", preset_names())
def test_a_preset_resolves_as_before(name):
    want = json.loads(SNAPSHOT.read_text(encoding="utf-8"))[name]
    got = preset_values(name)
    assert list(got["resolved"].items()) == list(want["resolved"].items()), \
        f"{name}: resolved values changed (on purpose? python tests/test_preset_values.py writes them)"
    assert got["preset"] == want["preset"]


if __name__ == "__main__":      # write the snapshot again (a preset changed on purpose)
    data = {name: preset_values(name) for name in preset_names()}
    SNAPSHOT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    sys.exit(0)


def test_a_familys_option_is_found_by_its_index_as_by_a_scan() -> None:
    """Family.option looks names up in an index made at the first question: the same option a
    scan of the family's options finds first, None for a name it does not have; the index is
    no field (equality, repr and a copy's options are unchanged)."""
    import dataclasses

    from prefcli.rules.presets import Family, Option, presets
    for family in {id(p.family): p.family for p in presets()}.values():
        for o in family.options:
            assert family.option(o.name) is next(x for x in family.options if x.name == o.name)
        assert family.option("no.such.option") is None
        assert "_index" not in [f.name for f in dataclasses.fields(family)]
    first, second = Option("a", "int", "first"), Option("a", "int", "second")
    twice = Family("twice", (first, second), "m:f")
    assert twice.option("a") is first
    assert twice == Family("twice", (first, second), "m:f") and "_index" not in repr(twice)


def test_every_shipped_presets_values_are_ones_their_options_take() -> None:
    """prefcli's own tables register without checking their values (at every start it was a
    third of the Russian tables' import): checked here, every preset, every value."""
    from prefcli.rules.presets import presets
    from prefcli.rules.presets.base import check_values
    shipped = presets()
    assert len(shipped) >= 10
    for preset in shipped:
        check_values(preset)


def test_a_preset_registered_from_outside_has_its_values_checked() -> None:
    import dataclasses

    from prefcli.rules.presets import get_preset
    from prefcli.rules.presets.base import _PRESETS, _RESOLVED, check_values, register_preset
    sochi = get_preset("sochi")
    bad = dataclasses.replace(sochi, name="test-bad-pool", values={**sochi.values, "pool": "lots"})
    with pytest.raises(ValueError, match="not a valid pool"):
        check_values(bad)
    with pytest.raises(ValueError, match="not a valid pool"):
        register_preset(bad)
    assert "test-bad-pool" not in _PRESETS
    unknown = dataclasses.replace(sochi, name="test-unknown", values={**sochi.values, "no_such": 1})
    with pytest.raises(AssertionError, match="unknown option no_such"):
        register_preset(unknown, check=False)
    _RESOLVED.clear()
