"""The registry of families and presets: each family module registers its tables when it is
imported (:func:`prefcli.rules.presets._load` imports them). Below the package's own module, so
the family modules import this one and the package imports them, never the other way round.
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

from prefcli.rules.presets.options import COMMON_OPTIONS, Family, Preset, Ref, _common_option

_FAMILIES: Dict[str, Family] = {}
_PRESETS: Dict[str, Preset] = {}


def register_family(family: Family) -> Family:
    from prefcli.rules.presets.common import READ_BY_ENGINE
    names = {o.name for o in family.options} | {o.name for o in COMMON_OPTIONS}
    missing = [n for n in READ_BY_ENGINE if n not in names and n not in family.fixed]
    if missing:
        raise AssertionError(f"family {family.name}: neither an option nor a fixed value for {missing}")
    both = [n for n in family.fixed if n in names]
    if both:
        raise AssertionError(f"family {family.name}: {both} are options and fixed values at once")
    _FAMILIES[family.name] = family
    _RESOLVED.clear()
    return family


def expand_rows(family: "Family", values: Dict[str, Any]) -> None:
    """Set the table values of every rows option (:attr:`Option.rows`) from its current choice, in
    the family's order (a row may repeat another option's value: :class:`Ref`)."""
    for o in family.options:
        if not o.rows:
            continue
        choice = str(values.get(o.name))
        for name, v in o.rows[choice].items():
            opt = family.option(name)
            assert opt is not None, f"{o.name}: unknown option {name} in its rows"
            values[name] = opt.coerce(values[v.option] if isinstance(v, Ref) else v)


def register_preset(preset: Preset, check: bool = True) -> Preset:
    """Add `preset` to the registry (its rows option's rows set out in its values), refusing an
    unknown option or a missing default; with `check`, also a value its option does not take
    (:func:`check_values`). prefcli's own tables register with ``check=False``: their values
    are checked by tests/test_preset_values.py, not at every start (a third of the Russian
    tables' import), and the preset a record names has every value coerced when resolved."""
    rowed = [o for o in preset.family.options if o.rows]
    if rowed:                       # a preset states the rows option; its rows are the option's data
        values = dict(preset.values)
        stated = [n for o in rowed for n in o.rows[values[o.name]] if n in values]  # type: ignore[index]
        if stated:
            raise AssertionError(f"preset {preset.name}: {stated} are set by a rows option; state them once")
        for o in rowed:
            for name, v in o.rows[values[o.name]].items():  # type: ignore[index]
                values[name] = values[v.option] if isinstance(v, Ref) else v
        import dataclasses
        preset = dataclasses.replace(preset, values=values)
    for k in preset.values:
        if preset.family.option(k) is None and _common_option(k) is None:
            raise AssertionError(f"preset {preset.name}: unknown option {k}")
    if check:
        check_values(preset)
    missing = [o.name for o in preset.family.options if o.name not in preset.values and o.name != "variant"]
    if missing:
        raise AssertionError(f"preset {preset.name}: no default for {missing}")
    _PRESETS[preset.name] = preset
    _RESOLVED.clear()
    return preset


def check_values(preset: Preset) -> None:
    """Every value of `preset` is one its option takes (the option's ValueError, else)."""
    for k, v in preset.values.items():
        opt = preset.family.option(k) or _common_option(k)
        if opt is not None and v is not None:
            opt.coerce(v)


# Resolved rules by a frozen form of the arguments (see _frozen). A batch of records from one
# club repeats the same `rules` block in every file; resolving it costs about a millisecond.
_RESOLVED: Dict[Any, Tuple[Preset, Dict[str, Any], Tuple[str, ...]]] = {}
_RESOLVED_MAX = 256
