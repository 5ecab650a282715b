"""mathfewmatthews-dev/preferans-score ("Пуля преферанса", a PWA and an older WinForms build): the
"Сохранить" file ``preferans.pref.json`` (``format: preferans-game-v2``), a bare state, or the
PascalCase state of the WinForms build (``app.js`` saveGame / loadGame / normalizeState).

The file holds a score sheet (pool, mountain, whists[i][j] = what i wrote on j) and its running
log (``scoreLog``: each cell's values as written on paper), but no deal facts: it becomes a
``pref-sheet/1`` with the log; the ``history`` text lines are kept in ``meta``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

from prefcli.io.importers import (Cell, Imported, Importer, PeerSheet, Reader, Source, register, source_meta,
                                  unique_names)
from prefcli.model.records import SHEET_FORMAT
from prefcli.model.values import show

PROGRAM = "mathfewmatthews-dev/preferans-score"
FORMAT = "preferans-game-v2"
#: Built-in convention names (as the program shows them) → preset. A custom convention, or a
#: name not listed here, is reported and scored as sochi.
CONVENTIONS = {"сочи": "sochi", "сочинка": "sochi", "sochi": "sochi", "ленинград": "leningrad",
               "ленинградка": "leningrad", "питер": "leningrad", "leningrad": "leningrad",
               "ростов": "rostov", "ростовка": "rostov", "rostov": "rostov", "классика": "classic",
               "classic": "classic"}
CLOSING = {"each": "each", "total": "total", "sum": "total"}
STATE_KEYS = ("convention", "poolTarget", "players", "pool", "mountain", "whists")
#: State fields the importer reads.
READ = ("convention", "poolTarget", "players", "pool", "mountain", "whists", "scoreLog", "history",
        "customConventions", "poolClosingMode", "raspassLevel")
#: State fields that are the program's own bookkeeping, not the sheet.
QUIET = ("initialPoolTarget", "scoresCalculated", "lastScoreDelta", "remoteUpdatedAt", "scoreCountingMode")


def _camel(key: str) -> str:
    return key[:1].lower() + key[1:] if key else key


def _state(data: Any) -> Optional[Tuple[Dict[str, Any], Tuple[Any, ...], str]]:
    """(state with camelCase keys, its path in the file, which form)."""
    if not isinstance(data, dict):
        return None
    if data.get("format") == FORMAT and isinstance(data.get("state"), dict):
        return data["state"], ("state",), FORMAT
    keys = {_camel(k) for k in data}
    if {"players", "pool", "mountain", "whists"} <= keys and ("convention" in keys or "poolTarget" in keys):
        pascal = any(k[:1].isupper() for k in data)
        return data, (), "PascalCase state (WinForms)" if pascal else "bare state"
    return None


def detect(source: Source) -> bool:
    return _state(source.json()) is not None


def parse(source: Source) -> Imported:
    doc = source.document()
    found = _state(doc.data)
    r = Reader(doc)
    if found is None:
        if isinstance(doc.data, dict) and doc.data.get("format") == FORMAT:
            r.mapping(("state",))
        raise r.fail((), f"not a {PROGRAM} save: expected format {FORMAT} with a state, or a bare state")
    raw_state, base, form = found
    keys = {_camel(k): k for k in raw_state}   # camelCase → as written

    def p(*path: Any) -> Tuple[Any, ...]:
        """The path in the file of a state field given in camelCase."""
        head = keys.get(path[0], path[0]) if path else None
        return base + ((head,) + tuple(path[1:]) if path else ())

    version = f"{FORMAT} (schemaVersion {doc.data.get('schemaVersion')})" if form == FORMAT else form
    out = Imported(PROGRAM, version, [])
    raw_players = r.list(p("players"), max_items=10)
    if len(raw_players) == 5:
        raise r.fail(p("players"), "5 players: this importer reads the program's sheets of 3 or 4 players")
    if len(raw_players) not in (3, 4):
        raise r.fail(p("players"), f"{len(raw_players)} players; a Preferans sheet has 3 or 4")
    names = unique_names([r.text(p("players", i), max_len=100) for i in range(len(raw_players))])
    n = len(names)

    def row(path: Tuple[Any, ...]) -> List[Fraction]:
        items = r.list(path, max_items=10)
        if len(items) != n:
            raise r.fail(path, f"{len(items)} values for {n} players")
        return [r.number(path + (i,)) for i in range(n)]

    totals: Dict[Cell, Fraction] = {}
    for area in ("pool", "mountain"):
        for i, v in enumerate(row(p(area))):
            totals[(area, names[i], None)] = v
    wrows = r.list(p("whists"), max_items=10)
    if len(wrows) != n:
        raise r.fail(p("whists"), f"{len(wrows)} rows for {n} players")
    for i in range(n):
        for j, v in enumerate(row(p("whists", i))):
            if i != j:
                totals[("whists", names[i], names[j])] = v
            elif v != 0:
                raise r.fail(p("whists", i, j), f"{names[i]} has whists written on himself ({v})")

    sheet: Dict[str, Any] = {"format": SHEET_FORMAT}
    rules: Dict[str, Any] = {}
    convention = r.text(p("convention"), required=False)
    custom = r.list(p("customConventions"), required=False) or []
    variant = CONVENTIONS.get((convention or "").strip().lower())
    if variant is None:
        is_custom = any(isinstance(c, dict) and c.get("name") == convention for c in custom)
        out.note(None, "convention", f"{'the custom' if is_custom else 'the'} convention {show(convention)} is not "
                                     "one prefcli knows: the sheet is written under sochi, and its settlement "
                                     "may differ from the program's", loss=True)
        variant = "sochi"
    rules["variant"] = variant
    pool = r.integer(p("poolTarget"), required=False, lo=1, hi=100000)
    if pool is not None:
        rules["pool"] = pool
    closing = r.text(p("poolClosingMode"), required=False)
    if closing is not None:
        if closing.lower() not in CLOSING:
            out.note(None, "poolClosingMode", f"{show(closing)} is not known: not carried", loss=True)
        else:
            if source.rules_access().preset_values({"variant": variant}).get("end") != CLOSING[closing.lower()]:
                rules["end"] = CLOSING[closing.lower()]
    level = r.integer(p("raspassLevel"), required=False, lo=0, hi=100)
    if level:
        out.note(None, "raspassLevel", f"the all-pass series in progress (level {level}) is not carried: a sheet "
                                       "keeps no deals", loss=True)
    if custom:
        out.note(None, "customConventions", f"{len(custom)} custom convention(s) defined in the file are not "
                                            "carried (their knobs have no prefcli mapping)", loss=True)
    pending = r.list(("pendingEvents",), required=False) if form == FORMAT else None
    if pending:
        out.note(None, "pendingEvents", f"{len(pending)} event(s) not yet synchronised are not carried", loss=True)

    history = r.list(p("history"), required=False) or []
    lines = [r.text(p("history", i), max_len=10000) for i in range(len(history))]
    extra: Dict[str, Any] = {}
    for key in ("gameId", "revision", "exportedAt"):
        if form == FORMAT and doc.data.get(key) is not None:
            extra[key] = doc.data[key]
    meta: Dict[str, Any] = {"source": source_meta(PROGRAM, version, source.name, convention=convention, **extra)}
    if lines:
        meta["history"] = lines
        out.note(None, "history", f"{len(lines)} history line(s) kept as text in meta.history (no deal facts: "
                                  "the deals cannot be rescored or replayed)")
    sheet["meta"] = meta
    sheet["players"] = names
    sheet["rules"] = rules
    sheet["pool"] = {names[i]: totals[("pool", names[i], None)] for i in range(n)}
    sheet["mountain"] = {names[i]: totals[("mountain", names[i], None)] for i in range(n)}
    sheet["whists"] = {a: {b: totals[("whists", a, b)] for b in names if b != a and totals[("whists", a, b)]}
                       for a in names}
    sheet["whists"] = {a: row_ for a, row_ in sheet["whists"].items() if row_}

    log, writes = _score_log(r, p, names)
    if log:
        sheet["log"] = log
        out.note(None, "scoreLog", "the running log keeps each cell's values in order; which deal wrote what, "
                                   "and the order between cells, is not in the file")
    out.peer = PeerSheet(totals, writes) if log else None
    out.leftover({_camel(k): v for k, v in raw_state.items()}, base, READ, QUIET)
    if form == FORMAT:
        out.leftover(doc.data, (), ("format", "schemaVersion", "gameId", "revision", "state", "pendingEvents",
                                    "exportedAt"))
    out.documents.append(("", sheet))
    return out


def _score_log(r: Reader, p, names: List[str]) -> Tuple[List[Dict[str, Any]], List[Tuple[Cell, Fraction]]]:
    """scoreLog{pool[i][], mountain[i][], whists[i][j][]} → log writes (cell by cell) and deltas."""
    n = len(names)
    if r.at(p("scoreLog")) is None:
        return [], []
    r.mapping(p("scoreLog"))
    log: List[Dict[str, Any]] = []
    writes: List[Tuple[Cell, Fraction]] = []

    def cell_values(path, cell: Cell) -> None:
        values = r.list(path, max_items=100000)
        previous = Fraction(0)
        for k in range(len(values)):
            v = r.number(path + (k,))
            if v == previous:
                continue
            item: Dict[str, Any] = {"area": cell[0], "player": cell[1]}
            if cell[2] is not None:
                item["on"] = cell[2]
            item["value"] = v
            log.append(item)
            writes.append((cell, v - previous))
            previous = v

    for area in ("pool", "mountain"):
        if r.at(p("scoreLog", area)) is None:
            continue
        rows = r.list(p("scoreLog", area), max_items=10)
        if len(rows) != n:
            raise r.fail(p("scoreLog", area), f"{len(rows)} rows for {n} players")
        for i in range(n):
            cell_values(p("scoreLog", area, i), (area, names[i], None))
    if r.at(p("scoreLog", "whists")) is not None:
        rows = r.list(p("scoreLog", "whists"), max_items=10)
        if len(rows) != n:
            raise r.fail(p("scoreLog", "whists"), f"{len(rows)} rows for {n} players")
        for i in range(n):
            cols = r.list(p("scoreLog", "whists", i), max_items=10)
            if len(cols) != n:
                raise r.fail(p("scoreLog", "whists", i), f"{len(cols)} columns for {n} players")
            for j in range(n):
                if i == j:
                    vals = r.list(p("scoreLog", "whists", i, j), max_items=100000)
                    if any(r.number(p("scoreLog", "whists", i, j, k)) != 0 for k in range(len(vals))):
                        raise r.fail(p("scoreLog", "whists", i, j), f"{names[i]} has whists written on himself")
                    continue
                cell_values(p("scoreLog", "whists", i, j), ("whists", names[i], names[j]))
    return log, writes


register(Importer("mathfewmatthews", "mathfewmatthews-dev/preferans-score (PWA, WinForms)",
                  "preferans.pref.json (preferans-game-v2), bare or PascalCase state", "sheet", detect, parse))
