"""A record or a paper sheet loaded for a picture (`prefcli draw`, `prefcli report`).

:func:`load_game` loads the input and scores a record (its ledger is what a drawing shows); the
drawing pipeline itself, which needs the paper layouts, is :mod:`prefcli.render.draw`. Every
failure is a :class:`~prefcli.model.diagnostics.PrefcliError`: an InputError with located
problems, or a usage error (a bad --after, --set or --variant).
"""
from __future__ import annotations

from prefcli.model.slots import dataclass
from typing import Any, Optional, Sequence, Tuple

from prefcli.model.diagnostics import USAGE, PrefcliError
from prefcli.app.sheet import SheetSource, source_of_result, source_of_sheet


@dataclass
class Loaded:
    """A loaded game: the drawing source, and the score result when it is a record."""

    name: str
    kind: str                       # record | sheet
    source: SheetSource
    result: Any = None              # ScoreResult for a record
    sheet: Any = None               # Sheet for a paper sheet
    doc: Any = None


class AfterError(PrefcliError):
    """--after N beyond the record's deals: a usage error (exit 2), as in `prefcli score`."""

    kind = USAGE


def load_game(file: str, variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = ()) -> Loaded:
    """Load a record (scored) or a sheet; the errors name the file, line and path."""
    from prefcli.io.documents import build_record_fast, build_sheet, load_document, schema_problems
    from prefcli.model.diagnostics import InputError
    from prefcli.rules.presets import resolve_rules
    from prefcli.scoring import score

    doc = load_document(file)
    if doc.kind not in ("record", "sheet"):
        raise InputError([doc.problem(("format",), "expected a game record (pref-record/1) or a score sheet "
                                      "(pref-sheet/1)")])
    try:
        if doc.kind == "sheet":
            sheet = build_sheet(doc)
            rules = resolve_rules(sheet.rules, variant=variant, sets=sets)
            return Loaded(doc.name, "sheet", source_of_sheet(sheet, rules), sheet=sheet, doc=doc)
        record = build_record_fast(doc)
        result = score(record, variant=variant, sets=sets)
        return Loaded(doc.name, "record", source_of_result(result), result=result, doc=doc)
    except InputError:
        raise
    except PrefcliError as exc:
        if exc.is_usage:
            raise
        probs = schema_problems(doc, doc.kind)   # the schema's message first, when it has one
        raise InputError(probs or [doc.place(exc)]) from None


def check_after(loaded: Loaded, after: Optional[int]) -> None:
    if after is None:
        return
    if loaded.kind == "sheet" and after:
        raise AfterError(f"--after {after}: a score sheet has no deals to step through (draw a game record)")
    if after > loaded.source.deals:
        raise AfterError(f"--after {after}: the record has {loaded.source.deals} deal(s)")
