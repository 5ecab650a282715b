"""Variants as data: rule options, families and named presets.

A *family* (russian, lithuanian, lithuanian-kitty) owns a set of named :class:`Option` s and a
scorer; a *preset* (sochi, leningrad, …) is a family plus default values. A record's ``rules``
block and ``--set K=V`` override any option or table value by its dotted name
(``allpass.progression``, ``prices.7``). Adding a club's house rule is adding a row here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.values import did_you_mean, show
from prefcli.model.diagnostics import Path, PrefcliError
from prefcli.model.numbers import POOL_MAX


class OptionError(PrefcliError, ValueError):
    """An unknown option name or a value of the wrong kind; `path` locates it in a record."""

    kind = "schema"


_TRUE = {"yes", "true", "on", "1", "y"}
_FALSE = {"no", "false", "off", "0", "n"}


def _as_bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
        return v.strip().lower() in _TRUE
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise ValueError("expected yes/no (true/false)")


def _as_number(v: Any) -> Fraction:
    if isinstance(v, bool):
        raise ValueError("expected a number")
    from prefcli.model.numbers import NumberError, exact
    if isinstance(v, (int, Fraction, Decimal, float, str)):
        try:
            return exact(v)
        except NumberError as exc:
            raise ValueError(exc.message if "out of range" in exc.message else "expected a number") from None
    raise ValueError("expected a number")


def _as_int(v: Any) -> int:
    f = _as_number(v)
    if f.denominator != 1:
        raise ValueError("expected a whole number")
    return int(f)


def _as_list(v: Any) -> List[Any]:
    if isinstance(v, str):
        text = v.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        return [t for t in (s.strip() for s in text.replace(";", ",").split(",")) if t]
    if isinstance(v, (list, tuple)):
        return list(v)
    raise ValueError("expected a list such as [1, 2, 3]")


def _as_decimal(v: Any) -> str:
    if isinstance(v, bool):
        raise ValueError("expected a decimal amount such as \"0.1\"")
    from prefcli.model.numbers import NumberError, check_decimal, check_money, money_text, parse_decimal
    try:
        d = check_decimal(v) if isinstance(v, Decimal) else parse_decimal(str(v))
    except NumberError as exc:
        raise ValueError(exc.message if "out of range" in exc.message
                         else "expected a decimal amount such as \"0.1\"") from None
    if d < 0:
        raise ValueError("expected a non-negative decimal amount such as \"0.1\"")
    try:
        check_money(d, "the amount")
    except NumberError as exc:
        raise ValueError(exc.message) from None
    return money_text(d)


@dataclass(frozen=True)
class Option:
    """A named rule option: its kind of value, its meaning, and (for choices) what it may be.

    kinds: ``bool``, ``int``, ``number`` (exact), ``decimal`` (money, kept as text),
    ``choice``, ``ints`` / ``numbers`` (lists), ``number-or-choice`` (a fixed number or one of
    the choices), ``text``.
    """

    name: str
    kind: str
    meaning: str
    choices: Tuple[str, ...] = ()
    minimum: Optional[Fraction] = Fraction(0)
    #: a number the seeds do not give, which prefcli had to choose (``prefcli variants`` marks it):
    #: `why` the default, the other plausible `alternatives` as (value, what it means), each a
    #: valid value of the option and played by the scorer; or `see`: the option whose values are
    #: this one's readings (a table row set by ``upper_rows``)
    inferred: bool = False
    why: str = ""
    alternatives: Tuple[Tuple[str, str], ...] = ()
    see: str = ""
    #: a choice that sets whole table rows (a reading of a table the seed leaves out): choice →
    #: {option: value or Ref}; a value set by name in a record or with --set still wins
    rows: Optional[Mapping[str, Mapping[str, Any]]] = None
    maximum: Optional[Fraction] = None

    def describe_values(self) -> str:
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "number-or-choice":
            return "a number | " + " | ".join(self.choices)
        return {"bool": "yes | no", "int": "a whole number", "number": "a number",
                "decimal": "a decimal text, e.g. \"0.1\"", "ints": "a list of whole numbers",
                "numbers": "a list of numbers", "text": "text"}.get(self.kind, self.kind)

    def coerce(self, value: Any) -> Any:
        """The option's value in canonical form; ValueError says what was expected."""
        try:
            if self.kind == "bool":
                return _as_bool(value)
            if self.kind == "text":
                if not isinstance(value, str):
                    raise ValueError("expected text")
                return value
            if self.kind == "decimal":
                return _as_decimal(value)
            if self.kind in ("int", "number"):
                out = _as_int(value) if self.kind == "int" else _as_number(value)
                self._check_min(out)
                return out
            if self.kind in ("ints", "numbers"):
                items = [(_as_int(x) if self.kind == "ints" else _as_number(x)) for x in _as_list(value)]
                for x in items:
                    self._check_min(x)
                return tuple(items)
            if self.kind == "choice":
                text = str(value).strip().lower() if not isinstance(value, bool) else ("yes" if value else "no")
                for choice in self.choices:
                    if choice.lower() == text:
                        return choice
                raise ValueError(f"expected one of {', '.join(self.choices)}")
            if self.kind == "number-or-choice":
                if isinstance(value, bool):
                    text = "yes" if value else "no"
                    if text in self.choices:
                        return text
                    raise ValueError(f"expected a number or one of {', '.join(self.choices)}")
                if isinstance(value, str) and value.strip().lower() in self.choices:
                    return value.strip().lower()
                try:
                    out = _as_number(value)
                except ValueError:
                    raise ValueError(f"expected a number or one of {', '.join(self.choices)}") from None
                self._check_min(out)
                return out
        except ValueError as exc:
            raise ValueError(f"{show(value)} is not a valid {self.name} ({exc}); valid: {self.describe_values()}") from None
        raise AssertionError(f"unknown option kind {self.kind}")

    def _check_min(self, value: "int | Fraction") -> None:
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"must be at most {self.maximum}")
        if not -10**9 <= value <= 10**9:
            raise ValueError("absurdly large")


@dataclass(frozen=True)
class Ref:
    """A row value that is another option's (the misère's row read as the 10's: ``Ref("points.10")``)."""

    option: str


@dataclass(frozen=True)
class Same:
    """A family value that is another option's (the Russian family plays bombs exactly when it
    plays dark calls: its ``bomb`` is ``Same("dark")``)."""

    option: str


@dataclass(frozen=True)
class StateField:
    """One fact of a game's state that its sheet carries besides the numbers, so a game continued
    from the sheet (a record's ``start:``) scores as if it had never stopped: seed 002's eglė
    strokes (l.41, l.57, the eglė table of l.265–269), seed 000's eglutė table (l.33–41: the
    eglutės played and the games declared), the Russian all-pass run and bombs.

    `scope` is ``player`` (a value per seated player: ``egles: {N: 2, E: 4}``) or ``game`` (one
    value); `kind` is ``count`` (a whole number ≥ 0), ``sizes`` (a list of numbers > 0, oldest
    first) or ``seat`` (a seated player's name). Families declare their fields as data
    (:attr:`Family.state`); :mod:`prefcli.rules.state` reads, checks and writes them for all.
    """

    name: str
    scope: str
    kind: str
    meaning: str


@dataclass(frozen=True)
class Family:
    """A family of presets sharing options and a scorer (`module:function`, imported lazily).

    `fixed` gives the value of every rule the rules engine, the table and settlement read
    (:data:`prefcli.rules.presets.common.READ_BY_ENGINE`) that the family does not offer as an
    option: what the family plays, stated as data (``takeover: no`` for the Russian family),
    so no reader keeps a default of its own. :func:`register_family` refuses a family that leaves
    one out.
    """

    name: str
    options: Tuple[Option, ...]
    scorer: str
    words: Mapping[str, str] = field(default_factory=dict)   # pool → "track", mountain → "hens"
    fixed: Mapping[str, Any] = field(default_factory=dict)
    refs: Mapping[str, str] = field(default_factory=dict)    # ledger rule key → the rule text behind it
    state: Tuple[StateField, ...] = ()      # what a continued game carries (start.state, a sheet's state)

    def state_field(self, name: str) -> Optional[StateField]:
        return next((f for f in self.state if f.name == name), None)

    def option(self, name: str) -> Optional[Option]:
        for o in self.options:
            if o.name == name:
                return o
        return None

    def option_names(self) -> List[str]:
        return [o.name for o in self.options]


@dataclass(frozen=True)
class Preset:
    name: str
    family: Family
    title: str
    description: str
    values: Mapping[str, Any]
    players: Tuple[int, ...] = (3, 4)     # the player counts it is played by (checked by the table)
    dummy: Optional[str] = None           # the name of a dummy hand's seat (husar), if any


COMMON_OPTIONS: Tuple[Option, ...] = (
    Option("variant", "text", "the preset these rules start from"),
    Option("pool", "int", "target of each pool (track / kitty size)", minimum=Fraction(1),
           maximum=Fraction(POOL_MAX)),
    Option("price", "decimal", "money per whist, e.g. \"0.1\" (none: results in whists)"),
    Option("coin", "decimal", "smallest money unit amounts are rounded to"),
    Option("method", "choice", "settlement method", ("russian", "lithuanian", "lithuanian-kitty")),
    Option("rounding", "choice",
           "settlement rounding: exact / mountain-shares (Кодекс 4.2.12) / every-share / truncate",
           ("exact", "mountain-shares", "every-share", "truncate")),
)



def _common_option(name: str) -> Optional[Option]:
    return next((o for o in COMMON_OPTIONS if o.name == name), None)


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


def register_preset(preset: Preset) -> Preset:
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
    for k, v in preset.values.items():
        opt = preset.family.option(k) or _common_option(k)
        if opt is None:
            raise AssertionError(f"preset {preset.name}: unknown option {k}")
        if v is not None:
            opt.coerce(v)
    missing = [o.name for o in preset.family.options if o.name not in preset.values and o.name != "variant"]
    if missing:
        raise AssertionError(f"preset {preset.name}: no default for {missing}")
    _PRESETS[preset.name] = preset
    _RESOLVED.clear()
    return preset


def _load() -> None:
    if not _PRESETS:
        from prefcli.rules.presets import lithuanian  # noqa: F401 - importing registers the presets
        from prefcli.rules.presets import russian
        from prefcli.rules.presets import husar  # noqa: F401 - the Russian tables with a dummy


def presets() -> List[Preset]:
    _load()
    return list(_PRESETS.values())


def preset_names() -> List[str]:
    _load()
    return list(_PRESETS)


def get_preset(name: str) -> Preset:
    _load()
    key = str(name).strip().lower()
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


# Resolved rules by a frozen form of the arguments (see _frozen). A batch of records from one
# club repeats the same `rules` block in every file; resolving it costs about a millisecond.
_RESOLVED: Dict[Any, Tuple[Preset, Dict[str, Any], Tuple[str, ...]]] = {}
_RESOLVED_MAX = 256


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
