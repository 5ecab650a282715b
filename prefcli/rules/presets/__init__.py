"""Variants as data: rule options, families and named presets.

A *family* (russian, lithuanian, lithuanian-kitty) owns a set of named :class:`Option` s and a
scorer; a *preset* (sochi, leningrad, …) is a family plus default values. A record's ``rules``
block and ``--set K=V`` override any option or table value by its dotted name
(``allpass.progression``, ``prices.7``). Adding a club's house rule is adding a row here.
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.values import did_you_mean, show
from prefcli.model.diagnostics import Path, PrefcliError
from prefcli.model.numbers import POOL_MAX


from prefcli.rules.presets.options import (COMMON_OPTIONS, Family, Option, OptionError, Preset, Ref, Same, StateField, _FALSE, _TRUE, _as_bool, _as_decimal, _as_int, _as_list, _as_number, _common_option)  # noqa: F401
from prefcli.rules.presets.base import (_FAMILIES, _PRESETS, _RESOLVED, _RESOLVED_MAX,  # noqa: F401
                                       expand_rows, register_family, register_preset)


_LOADED = [False]


def _load() -> None:
    """Every family's presets, in the families' order (Lithuanian, Russian, husar), also when
    the Russian ones were loaded alone before (:func:`_load_russian`)."""
    if _LOADED[0]:
        return
    first = list(_PRESETS)           # the Russian presets, when get_preset loaded them alone
    from prefcli.rules.presets import lithuanian  # noqa: F401 - importing registers the presets
    lithuanian_names = [n for n in _PRESETS if n not in first]
    from prefcli.rules.presets import russian  # noqa: F401
    from prefcli.rules.presets import husar  # noqa: F401 - the Russian tables with a dummy
    if first:
        rest = [n for n in _PRESETS if n not in first and n not in lithuanian_names]
        ordered = {n: _PRESETS[n] for n in lithuanian_names + first + rest}
        _PRESETS.clear()
        _PRESETS.update(ordered)
    _LOADED[0] = True


def _load_russian() -> None:
    """The Russian family alone: most records name one of its presets, and the other families'
    tables cost a start-up as much again (issue 18)."""
    from prefcli.rules.presets import russian  # noqa: F401 - importing registers the presets


def presets() -> List[Preset]:
    _load()
    return list(_PRESETS.values())


def preset_names() -> List[str]:
    _load()
    return list(_PRESETS)


def get_preset(name: str) -> Preset:
    key = str(name).strip().lower()
    if key not in _PRESETS and not _LOADED[0]:
        _load_russian()
        if key not in _PRESETS:
            _load()
    if key not in _PRESETS:
        hint = did_you_mean(key, _PRESETS) or f"; known variants: {', '.join(_PRESETS)}"
        raise OptionError(f"unknown variant {show(name)}{hint}", ("rules", "variant"))
    return _PRESETS[key]


def flatten(mapping: Mapping[str, Any], prefix: str = "", path: Path = ()) -> Iterator[Tuple[str, Any, Path]]:
    """Nested rules (`allpass: {amnesty: no}`, `prices: {7: 5}`) → dotted names with paths."""
    for k, v in mapping.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            yield from flatten(v, name + ".", path + (k,))
        else:
            yield name, v, path + (k,)


@dataclass(frozen=True)
class Rules:
    """Resolved rules: a preset's values with every override applied and checked."""

    preset: Preset
    values: Mapping[str, Any]
    overridden: Tuple[str, ...] = ()

    @property
    def variant(self) -> str:
        return self.preset.name

    @property
    def family(self) -> Family:
        return self.preset.family

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)

    def value(self, name: str) -> Any:
        """The value of a rule the engine, the table or settlement reads: the option's value, or
        the family's fixed value for a rule it does not offer (:attr:`Family.fixed`). KeyError
        for a name the family declares neither way: there is no default to fall back on."""
        if name in self.values:
            return self.values[name]
        v = self.family.fixed[name]
        return self.value(v.option) if isinstance(v, Same) else v

    def table(self, prefix: str) -> Dict[str, Any]:
        """All values under `prefix.` (e.g. `prices` → {'6': 2, …, 'misere': 10})."""
        p = prefix + "."
        return {k[len(p):]: v for k, v in self.values.items() if k.startswith(p)}

    def as_mapping(self, only_overridden: bool = False) -> Dict[str, Any]:
        """Nested plain form for output, variant first, dotted names nested (``allpass.amnesty``
        → ``allpass: {amnesty}``): every option that has a value (a sheet's `rules`, so it settles
        the same whatever the presets' defaults become), or only those the record or the command
        line set."""
        out: Dict[str, Any] = {"variant": self.variant}
        names = self.overridden if only_overridden else self.values
        for k in names:
            v = self.values[k]
            if k == "variant" or v is None:
                continue
            node = out
            parts = k.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = plain_value(v)
        return out

    def word(self, key: str) -> str:
        return self.family.words.get(key, key)


def plain_value(v: Any) -> Any:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else str(v)
    if isinstance(v, tuple):
        return [plain_value(x) for x in v]
    return v


def all_option_names(family: Family) -> List[str]:
    return [o.name for o in COMMON_OPTIONS] + family.option_names()




class _Unfreezable(Exception):
    pass


def _frozen(value: Any) -> Any:
    """A hashable form of a rules value that tells apart everything resolution could treat
    differently: the type is kept (True, 1, 1.0 and Decimal("1") are equal in Python but are
    not the same option value) and so is the text of a Decimal ("1.0" ≠ "1" as money), and the
    order of a mapping (it decides the order of `overridden`). Raises _Unfreezable for anything
    else, which is then simply resolved without the cache."""
    t = type(value)
    if value is None or t is str or t is int or t is bool or t is Fraction:
        return (t, value)
    if t is Decimal or t is float:
        return (t, repr(value))
    if isinstance(value, Mapping):
        return ("map", tuple((_frozen(k), _frozen(v)) for k, v in value.items()))
    if t is list or t is tuple:
        return (t, tuple(_frozen(x) for x in value))
    raise _Unfreezable


def resolve_rules(rules: Optional[Mapping[str, Any]] = None, variant: Optional[str] = None,
                  sets: Sequence[Tuple[str, Any]] = (), default_variant: str = "sochi") -> Rules:
    """Preset defaults ← the record's `rules` ← `--set` pairs. Raises :class:`OptionError`.

    `variant` (from `--variant`) replaces the record's preset; the record's other overrides
    still apply where the new preset has the same option (a club's house rules travel).

    Results are cached (only successful ones; errors are raised afresh each time); every call
    returns its own `values` dict, so a caller that changes it cannot change another's rules.
    """
    sets = list(sets)
    try:
        key: Any = (_frozen(rules), _frozen(variant), _frozen(sets), default_variant)
        hit = _RESOLVED.get(key)
    except (_Unfreezable, TypeError):
        key, hit = None, None
    if hit is not None:
        return Rules(hit[0], dict(hit[1]), hit[2])
    out = _resolve_rules(rules, variant, sets, default_variant)
    if key is not None:
        if len(_RESOLVED) >= _RESOLVED_MAX:
            _RESOLVED.clear()
        _RESOLVED[key] = (out.preset, dict(out.values), out.overridden)
    return out


def _resolve_rules(rules: Optional[Mapping[str, Any]], variant: Optional[str],
                   sets: Sequence[Tuple[str, Any]], default_variant: str) -> Rules:
    rules = rules or {}
    name = variant or rules.get("variant") or default_variant
    if not isinstance(name, str):
        raise OptionError(f"variant must be a name; known variants: {', '.join(preset_names())}",
                          ("rules", "variant"))
    try:
        preset = get_preset(name)
    except OptionError as exc:
        if variant:  # --variant: a usage error, named as the option
            raise OptionError(f"--variant {name}: {exc.message}", kind="usage") from None
        raise
    family = preset.family
    values: Dict[str, Any] = {}
    for o in COMMON_OPTIONS + family.options:
        v = preset.values.get(o.name)
        values[o.name] = o.coerce(v) if v is not None else None
    values["variant"] = preset.name
    overridden: List[str] = []
    items: List[Tuple[str, Any, Path]] = [
        (n, v, ("rules",) + p) for n, v, p in flatten(rules) if n != "variant"
    ]
    items += [(k, v, ()) for k, v in sets]
    # a rows option (a whole table's reading) first, so a number set by name still wins
    rows_first = {o.name for o in family.options if o.rows}
    items = [i for i in items if i[0] in rows_first] + [i for i in items if i[0] not in rows_first]
    expanded = False
    for name_, value, path in items:
        if not expanded and name_ not in rows_first:
            expanded = True
            if any(n in rows_first for n in overridden):
                expand_rows(family, values)
        opt = family.option(name_) or _common_option(name_)
        # a --set pair (no path in a file) is a usage error that names the option
        flag, kind = ("", None) if path else (f"--set {name_}: ", "usage")
        if opt is None:
            names = all_option_names(family)
            # `whist: gentleman` (the spec's own words): the option whose choices hold the value
            by_value = [o.name for o in COMMON_OPTIONS + family.options if isinstance(value, str) and o.choices
                        and value.strip().lower() in (c.lower() for c in o.choices)]
            hint = did_you_mean(name_, names, by_value) or f"; valid options: see prefcli variants {preset.name}"
            raise OptionError(f"{flag}unknown option '{name_}' for variant {preset.name}{hint}", path, kind)
        if value is None and opt.kind in ("decimal", "text"):
            values[name_] = None
            continue
        try:
            values[name_] = opt.coerce(value)
        except ValueError as exc:
            text = str(exc)
            if flag and text.startswith(f"{name_}: "):
                text = text[len(name_) + 2:]
            raise OptionError(f"{flag}{text}", path, kind) from None
        if name_ not in overridden:
            overridden.append(name_)
    if not expanded and any(n in rows_first for n in overridden):
        expand_rows(family, values)
    return Rules(preset, values, tuple(overridden))


def parse_set(text: str) -> Tuple[str, Any]:
    """`allpass.progression=[1,2,4]` → (name, raw value). The option coerces the value."""
    if "=" not in text:
        raise OptionError(f"--set takes NAME=VALUE, got '{text}'", kind="usage")
    k, v = text.split("=", 1)
    k = k.strip()
    if not k:
        raise OptionError(f"--set takes NAME=VALUE, got '{text}'", kind="usage")
    return k, v.strip()
