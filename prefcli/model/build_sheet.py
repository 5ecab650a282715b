"""Building a score sheet (:class:`~prefcli.model.records.Sheet`) from loaded data, with the record
builder's parts (:mod:`prefcli.model.build`): its areas, players and amounts are read as a
record's opening sheet is, and every problem is recorded with its data path, never raised
unless `strict`. ``prefcli.model.build.sheet_from_data`` is this module's."""
from __future__ import annotations

from typing import Any, List, Literal, Mapping, Optional, Tuple, overload

from prefcli.model.build import _Builder, _players
from prefcli.model.diagnostics import InputError, Path, Problems
from prefcli.model.formats import SHEET_FORMAT
from prefcli.model.records import LOG_AREAS, LogEntry, Sheet
from prefcli.model.values import type_name


def _log(b: _Builder, raw: Any, players: Tuple[str, ...]) -> Tuple[LogEntry, ...]:
    """The running log of a sheet: every write seated, whists naming someone else."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        b.err(("log",), "expected a list of writes ({area, player, value}, oldest first)")
        return ()
    seated = set(players)
    out: List[LogEntry] = []
    for i, item in enumerate(raw):
        path: Path = ("log", i)
        if not isinstance(item, Mapping):
            b.err(path, f"expected a write {{area, player, value}}, found {type_name(item)}")
            continue
        area, player, on = item.get("area"), item.get("player"), item.get("on")
        ok = True
        if area not in LOG_AREAS:
            b.err(path + ("area",), f"expected one of {', '.join(LOG_AREAS)}, found {area!r}")
            ok = False
        if not isinstance(player, str) or player not in seated:
            b.err(path + ("player",), f"{player!r} is not seated (players: {', '.join(players)})")
            ok = False
        if area == "whists":
            if not isinstance(on, str) or on not in seated:
                b.err(path + ("on",), f"a whists write names who it is written on (a seated player), found {on!r}")
                ok = False
            elif on == player:
                b.err(path + ("on",), f"'{player}' cannot write whists on himself")
                ok = False
        elif on is not None:
            b.err(path + ("on",), f"only whists are written on someone; this is {area}")
            ok = False
        value = b.amount(item.get("value"), path + ("value",))
        deal = item.get("deal")
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int) or deal < 1):
            b.err(path + ("deal",), f"expected a deal number (1, 2, …), found {deal!r}")
            ok = False
        note = item.get("note")
        if note is not None and not isinstance(note, str):
            b.err(path + ("note",), f"expected text, found {type_name(note)}")
            ok = False
        if ok and value is not None and isinstance(area, str) and isinstance(player, str):  # ok: both are
            out.append(LogEntry(area, player, value, on, deal, note))
    return tuple(out)


@overload
def sheet_from_data(data: Any, problems: Optional[Problems] = ..., *, strict: Literal[True]) -> Sheet: ...
@overload
def sheet_from_data(data: Any, problems: Optional[Problems], strict: Literal[True]) -> Sheet: ...
@overload
def sheet_from_data(data: Any, problems: Optional[Problems] = ..., strict: bool = ...) -> Optional[Sheet]: ...


def sheet_from_data(data: Any, problems: Optional[Problems] = None, strict: bool = False) -> Optional[Sheet]:
    problems = problems if problems is not None else Problems()
    b = _Builder(problems)
    if not isinstance(data, Mapping):
        b.err((), f"a sheet must be a mapping with format: {SHEET_FORMAT}, found {type_name(data)}")
        if strict:
            raise InputError(problems.items)
        return None
    players = _players(b, data)
    sheet = Sheet(players, dict(data.get("rules") or {}) if isinstance(data.get("rules"), Mapping) else {},
                  b.sheet_data(data, players, ()),
                  dict(data.get("meta") or {}) if isinstance(data.get("meta"), Mapping) else {},
                  _log(b, data.get("log"), players))
    if strict and problems:
        raise InputError(problems.items)
    return sheet
