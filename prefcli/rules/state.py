"""A game's state beyond its numbers: what a sheet carries so that the game can go on from it.

The pool, mountain and whists are not the whole of a game in progress. Seed 002 keeps each
player's eglė strokes beside his mountain ("prie kurio nors savo vertikalaus brūkšnio po kalnu
nubrėžia po 4 įstrižus brūkšnelius", l.41; the eglė table, l.265–269); seed 000 keeps each
player's eglutė table in a corner of the sheet (l.33–41: the eglutės played, the games declared);
a Russian sheet in the middle of an all-pass run knows the next all-pass's price and the next
contract's exit level. Without them a game continued from its sheet would give every player his
eglė strokes again, or every kitty declarer no rights at all.

Each family declares its fields as data (:class:`~prefcli.rules.presets.StateField` rows in
:attr:`~prefcli.rules.presets.Family.state`); this module reads a ``state:`` mapping (a record's
``start.state`` or a sheet's ``state``) against them, with one located problem per wrong value,
and gives back plain values the scorers and the rotation read by name. Nothing here knows a
family's name.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.diagnostics import Path, Problem
from prefcli.model.numbers import COUNT_MAX
from prefcli.model.values import did_you_mean, not_seated, show, type_name

#: A read state: field name → value (a count is an int, sizes a tuple of Fractions, a seat a
#: name; a per-player field maps every seated player it names to such a value).
State = Dict[str, Any]

_COUNT_MAX = COUNT_MAX          # the one place of the bound: prefcli.model.numbers


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        from decimal import Decimal
        if isinstance(value, Decimal) and value == value.to_integral_value():
            value = int(value)
        else:
            raise ValueError(f"expected a whole number ≥ 0, found {type_name(value)}")
    if not 0 <= value <= _COUNT_MAX:
        raise ValueError(f"expected a whole number from 0 to {_COUNT_MAX}, found {value}")
    return int(value)


def _sizes(value: Any) -> Tuple[Fraction, ...]:
    from prefcli.model.numbers import NumberError, check_amount, exact
    if not isinstance(value, list):
        raise ValueError(f"expected a list of numbers (oldest first, [] for none), found {type_name(value)}")
    if len(value) > 1000:
        raise ValueError("expected at most 1000 numbers")
    out = []
    for x in value:
        if isinstance(x, bool):
            raise ValueError("expected numbers, found yes/no")
        try:
            f = check_amount(exact(x), not isinstance(x, str))     # the schema's amount
        except NumberError as exc:
            if "out of range" in exc.message:
                raise ValueError(exc.message) from None
            raise ValueError(f"expected numbers, found {show(x)}") from None
        except (TypeError, ValueError):
            raise ValueError(f"expected numbers, found {show(x)}") from None
        if f <= 0 or f > 10 ** 9:
            raise ValueError(f"expected numbers above 0, found {show(x)}")
        out.append(f)
    return tuple(out)


def read_state(raw: Any, family: Any, players: Sequence[str], path: Path) -> Tuple[State, List[Problem]]:
    """The state written at `path` under `family`'s declared fields, and its problems.

    Every field is the family's (an unknown name is refused with the names it has); a per-player
    field names every seated player and no one else; values have the field's kind. A field left
    out altogether is a new game's (the scorer notes it, :func:`missing_note`)."""
    problems: List[Problem] = []
    out: State = {}
    if raw is None:
        return out, problems
    if not isinstance(raw, Mapping):
        return out, [Problem(f"expected a mapping of state fields, found {type_name(raw)}", path, kind="schema")]
    if len(raw) > 100:
        return out, [Problem(f"expected at most 100 state fields, found {len(raw)}", path, kind="schema")]
    fields = {f.name: f for f in family.state}
    seated = set(players)
    for name, value in raw.items():
        where = path + (str(name),)
        f = fields.get(str(name))
        if f is None:
            known = ", ".join(fields) or "none"
            hint = did_you_mean(str(name), list(fields)) or f" (the {family.name} family's are: {known})"
            problems.append(Problem(f"unknown state field '{name}'{hint}", where, kind="schema"))
            continue
        if f.scope == "player":
            if not isinstance(value, Mapping):
                problems.append(Problem(f"expected a value per player ({{NAME: value}}), found {type_name(value)}",
                                        where, kind="schema"))
                continue
            per: Dict[str, Any] = {}
            for who, v in value.items():
                if who not in seated:
                    problems.append(Problem(not_seated(str(who), players), where + (str(who),)))
                    continue
                got = _value(f, v, players, where + (str(who),), problems)
                if got is not None:
                    per[str(who)] = got
            missing = [p for p in players if p not in value]
            if missing:
                has = "has" if len(missing) == 1 else "have"
                problems.append(Problem(f"{', '.join(missing)} {has} no {f.name} entry: every seated player needs "
                                        f"one (a sheet written by prefcli score names them all)", where, kind="schema"))
            out[f.name] = per
        else:
            got = _value(f, value, players, where, problems)
            if got is not None:
                out[f.name] = got
    return out, problems


def check_state(raw: Any, family: Any, players: Sequence[str], path: Path) -> State:
    """:func:`read_state`, raising the first problem (a located error once its document places
    it): for the readers that take a sheet's state on trust otherwise (settle)."""
    from prefcli.model.diagnostics import PrefcliError
    state, problems = read_state(raw, family, players, path)
    if problems:
        raise PrefcliError(problems[0].message, problems[0].path, kind=problems[0].kind)
    return state


def _value(f: Any, value: Any, players: Sequence[str], where: Path, problems: List[Problem]) -> Any:
    try:
        if f.kind == "count":
            return _count(value)
        if f.kind == "sizes":
            return _sizes(value)
        if f.kind == "seat":
            if not isinstance(value, str) or value not in players:
                raise ValueError(f"expected a seated player ({', '.join(players)}), found {show(value)}")
            return value
    except ValueError as exc:
        problems.append(Problem(str(exc), where, kind="schema"))
        return None
    raise AssertionError(f"unknown state kind {f.kind}")


def state_document(state: Mapping[str, Any], family: Any, players: Sequence[str]) -> Dict[str, Any]:
    """Plain data of a state in canonical form: the family's field order, seat order, sizes as
    whole numbers or exact texts ("3/2")."""
    out: Dict[str, Any] = {}
    for f in family.state:
        if f.name not in state:
            continue
        v = state[f.name]
        if v is None:
            continue
        if f.scope == "player":
            out[f.name] = {p: _plain(v[p]) for p in players if p in v}
        else:
            out[f.name] = _plain(v)
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else str(v)
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def per_player(state: Mapping[str, Any], name: str, players: Sequence[str], fresh: Any) -> Dict[str, Any]:
    """A per-player field's value for every seated player: the state's, else `fresh` (the value
    a new game starts with)."""
    given = state.get(name) or {}
    return {p: given.get(p, fresh) for p in players}


def missing_note(state: Mapping[str, Any], family: Any, names: Sequence[str], fresh: str) -> Optional[str]:
    """A note for a ``start:`` that leaves out fields the family keeps: which were taken as a new
    game's (`fresh` says what that means), so the reading is never silent."""
    gone = [n for n in names if n not in state and family.state_field(n) is not None]
    if not gone:
        return None
    return (f"start: no state {', '.join(gone)}: taken as a new game's ({fresh}); a sheet written by "
            "prefcli score -f yaml carries them")
