"""Checking records and sheets: the schema first, then the rules of the game.

Every check appends to a :class:`Problems` collector with the data path, so one run reports every
problem of a file; the loader's document turns paths into lines and columns. Card-play legality is
the rules engine's (``prefcli.engine.check_record``); this module calls it on every full deal.
"""
from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.diagnostics import InputError, Problem, Problems
from prefcli.io.documents import build_record, build_sheet, format_check, schema_problems
from prefcli.io.located import Document
from prefcli.model.records import PLAYER_COUNTS, Adjust, Record, counts_text
from prefcli.model.values import not_seated


def check_document(doc: Document, keep_data: bool = True) -> List[Problem]:
    """All problems of a loaded document (empty when it is valid), located.

    With `keep_data` False, a record's parsed deals (about a kilobyte a deal) are let go once
    the record is built from them: the checks read the record, and places come from the text."""
    from prefcli.io.parsing import paused_gc
    with paused_gc():
        return _check_document(doc, None, keep_data)


def check_document_record(doc: Document, keep_data: bool = True) -> Tuple[List[Problem], Optional[Record]]:
    """check_document, and the record it built (None for a sheet, a tournament or a record that
    could not be built): convert writes that record rather than building it a second time."""
    from prefcli.io.parsing import paused_gc
    built: List[Record] = []
    with paused_gc():
        problems = _check_document(doc, built, keep_data)
    return problems, (built[0] if built else None)


def _check_document(doc: Document, built: Optional[List[Record]] = None, keep_data: bool = True) -> List[Problem]:
    try:
        kind = format_check(doc, None)
    except InputError as exc:
        return exc.problems
    if kind == "tournament":
        return _tournament_rules(doc)
    probs = schema_problems(doc, kind)  # type: ignore[arg-type]
    if probs:
        return probs
    try:
        if kind == "sheet":
            build_sheet(doc, check_schema=False)
            return _sheet_rules(doc)
        record = build_record(doc, check_schema=False, consume=not keep_data)
    except InputError as exc:
        return exc.problems
    if built is not None:
        built.append(record)
    if not keep_data:
        doc.data = {k: v for k, v in doc.data.items() if k != "deals"}
    problems = check_record(record, warnings=True)
    out = [doc.place(p) for p in problems]
    out.sort(key=lambda p: (p.line or 0, p.column or 0))
    return out


def _tournament_rules(doc: Document) -> List[Problem]:
    """A tournament file (settle's standings rules): checked by the same parser settle uses, and
    its listed inputs as every command that reads the list checks them."""
    import os
    from prefcli.io.tournament import SettlementError, tournament_from_data
    base = os.path.dirname(doc.name) if doc.name != "<stdin>" else ""
    try:
        t = tournament_from_data(doc.data, base)
    except SettlementError as exc:
        return [doc.problem(exc.path, exc.message)]
    from prefcli.io.tournament import listed_input_problems
    return [doc.problem(where, message) for where, message in
            listed_input_problems(t, doc.name if doc.name != "<stdin>" else None)]


def _sheet_rules(doc: Document) -> List[Problem]:
    from prefcli.rules.presets import OptionError, resolve_rules
    rules = doc.data.get("rules") or {}
    try:
        resolved = resolve_rules(rules)
    except OptionError as exc:
        return [doc.problem(exc.path, exc.message)]
    # the game's state a continued record takes up (start.state): the family's fields only
    from prefcli.rules.state import read_state
    players = [p for p in (doc.data.get("players") or []) if isinstance(p, str)]
    _, problems = read_state(doc.data.get("state"), resolved.family, players, ("state",))
    return [doc.place(p) for p in problems]


def check_record(record: Record, rules=None, ctx=None, warnings: bool = False) -> List[Problem]:
    """Rule checks of a built record; problems carry data paths (not yet located).

    With `warnings`, the facts stated oddly that have one reading (which scoring follows) are
    reported too, as ``severity: warning`` (validate shows them and still passes the record).

    The record-level checks are here (the players, first_dealer, the opening sheet, adjustments);
    every deal's come from its reading (:mod:`prefcli.rules.deal`), built once in the record's
    context (pass `ctx` to share it with a scorer). A record whose readings are clean is then
    scored, and what the scorer still refuses (a rule of the family's arithmetic, such as deals
    after the kitty game's end) is reported too: validate passes exactly what score accepts.
    """
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import OptionError, resolve_rules

    problems = Problems()
    if rules is None and ctx is None:
        try:
            rules = resolve_rules(record.rules)
        except OptionError as exc:
            problems.add(exc.path or ("rules",), exc.message)
            rules = _fallback_rules(record)
    elif ctx is not None:
        rules = ctx.rules
    players = record.players
    seated = set(players)
    if rules is not None:
        if ctx is None:
            ctx = RecordContext(record, rules, keep_tricks=False)   # its own: problems only
        problems.extend(ctx.problems)
    else:
        if len(players) not in PLAYER_COUNTS:
            problems.add(("players",), f"{len(players)} players listed; a record has {counts_text(PLAYER_COUNTS)} players")
        if record.first_dealer is not None and record.first_dealer not in seated:
            problems.add(("first_dealer",), not_seated(record.first_dealer, players))
    # a record that may be scored is scored first, each deal's problems taken from the reading
    # the scorer made of it (every deal read once, one reading held at a time); the scorer's
    # own refusal counts only when nothing else is wrong, as if it had run last
    scored: Optional[List[Problem]] = None
    if ctx is not None and ctx.table is not None and not any(p.severity == "error" for p in problems):
        ctx.collect()
        try:
            scored = _scoring_problems(ctx)
        except Exception:          # noqa: BLE001 - a record with other errors is never scored
            scored = None           # (it is scored again below when it has none, to raise)
    for entry in record.deals:
        if isinstance(entry, Adjust):
            _check_adjust(entry, players, problems)
        elif ctx is not None and ctx.table is not None:
            problems.extend(ctx.read_problems(entry))
    if record.start is not None:
        _check_sheet_names(record.start.pool, ("start", "pool"), players, problems)
        _check_sheet_names(record.start.mountain, ("start", "mountain"), players, problems)
        for w, row in record.start.whists.items():
            if w not in seated:
                problems.add(("start", "whists", w), not_seated(w, players))
            for on in row:
                if on not in seated:
                    problems.add(("start", "whists", w, on), not_seated(on, players))
    if ctx is not None and not any(p.severity == "error" for p in problems):
        problems.extend(scored if scored is not None else _scoring_problems(ctx))
    return [p for p in problems if warnings or p.severity == "error"]


def _fallback_rules(record: Record):
    """The record's preset without its overrides, to read its deals when an override is wrong
    (the override is reported; the deals are still checked); None when the preset is unknown."""
    from prefcli.rules.presets import OptionError, resolve_rules
    try:
        return resolve_rules({"variant": record.variant} if record.variant else {})
    except OptionError:
        return None


def _scoring_problems(ctx) -> List[Problem]:
    """What the family's scorer refuses in a record whose readings are clean (the same context,
    no re-reading). The scorer is the one the family names (``Family.scorer``, data in the
    presets), so this module does not import the scoring layer above it."""
    import importlib
    from prefcli.model.diagnostics import PrefcliError
    from prefcli.model.ledger import totals_only
    module, _, func = ctx.rules.family.scorer.partition(":")
    try:
        with totals_only():            # only whether it scores counts here, not the entries
            getattr(importlib.import_module(module), func)(ctx.record, ctx.rules, ctx=ctx)
    except PrefcliError as exc:
        return [Problem(exc.message, exc.path, kind="rule")]
    return []


def _check_sheet_names(amounts: Mapping[str, object], path: Tuple, players: Sequence[str], problems: Problems) -> None:
    for name in amounts:
        if name not in players:
            problems.add(path + (name,), not_seated(name, players))


def _check_adjust(adj: Adjust, players: Sequence[str], problems: Problems) -> None:
    base = adj.path + ("adjust",)
    for area, items in (("pool", adj.pool), ("mountain", adj.mountain)):
        for name, _ in items:
            if name not in players:
                problems.add(base + (area, name), not_seated(name, players))
    for w, on, _ in adj.whists:
        if w not in players:
            problems.add(base + ("whists", w), not_seated(w, players))
        elif on not in players:
            problems.add(base + ("whists", w, on), not_seated(on, players))
        elif on == w:
            problems.add(base + ("whists", w, on), f"'{w}' cannot write whists on himself")
