"""The vocabulary of variants as data: options (named, typed, with their meaning), families and
presets, and the options every family shares. Data types only: the registry is in
:mod:`prefcli.rules.presets.base`, the resolution of a record's rules in the package itself, so the
option tables (``common``, ``russian``, ``lithuanian``) import this module and nothing imports them
in a circle.
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
    #: an option kept with the record that no rule reads (what the players saw, not what they
    #: did): why, shown by ``prefcli variants``; tests/test_options_behaviour.py checks that it
    #: changes nothing, every other option that it changes something
    informational: str = ""

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
        """The option called `name` (the first, as the family lists them), or None: looked up
        in an index made at the first question (not a field: not compared, hashed or shown;
        registering a preset asks once for each of its values, resolving a record's rules
        once for each of its own)."""
        index = self.__dict__.get("_index")
        if index is None:
            index = {}
            for o in self.options:
                index.setdefault(o.name, o)
            self.__dict__["_index"] = index     # frozen: the index is a cache, not a field
        return index.get(name)

    def option_names(self) -> List[str]:
        return [o.name for o in self.options]


@dataclass(frozen=True)
class Preset:
    """A named preset: a family and the values of its options (a club's house rules are a
    preset's values, not code)."""

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



_COMMON_BY_NAME: Dict[str, Option] = {}
for _o in COMMON_OPTIONS:
    _COMMON_BY_NAME.setdefault(_o.name, _o)


def _common_option(name: str) -> Optional[Option]:
    return _COMMON_BY_NAME.get(name)
