"""`prefcli draw`: a record or a paper sheet → the sheet drawn as on paper (SVG).

The pipeline loads the input, scores a record (its ledger is what the drawing shows), and
returns a :class:`DrawResult`; every failure is an :class:`~prefcli.model.diagnostics.InputError`
with located problems, or an OptionError for --variant / --set.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

from prefcli.render import svg as svgdraw


@dataclass
class Loaded:
    """A loaded game: the drawing source, and the score result when it is a record."""

    name: str
    kind: str                       # record | sheet
    source: svgdraw.SheetSource
    result: Any = None              # ScoreResult for a record
    sheet: Any = None               # Sheet for a paper sheet
    doc: Any = None


class AfterError(ValueError):
    """--after N beyond the record's deals (a usage error, as in `prefcli score`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def check_after(loaded: "Loaded", after: Optional[int]) -> None:
    if after is None:
        return
    if loaded.kind == "sheet" and after:
        raise AfterError(f"--after {after}: a score sheet has no deals to step through (draw a game record)")
    if after > loaded.source.deals:
        raise AfterError(f"--after {after}: the record has {loaded.source.deals} deal(s)")


@dataclass
class DrawResult:
    loaded: Loaded
    svg: str
    after: Optional[int]


def load_game(file: str, variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = ()) -> Loaded:
    """Load a record (scored) or a sheet; the errors name the file, line and path."""
    from prefcli.io.loader import build_record_fast, build_sheet, load_document, schema_problems
    from prefcli.model.diagnostics import InputError
    from prefcli.rules.presets import OptionError, resolve_rules
    from prefcli.scoring import score

    doc = load_document(file)
    if doc.kind not in ("record", "sheet"):
        raise InputError([doc.problem(("format",), "expected a game record (pref-record/1) or a score sheet "
                                      "(pref-sheet/1)")])
    try:
        if doc.kind == "sheet":
            sheet = build_sheet(doc)
            rules = resolve_rules(sheet.rules, variant=variant, sets=sets)
            return Loaded(doc.name, "sheet", svgdraw.source_of_sheet(sheet, rules), sheet=sheet, doc=doc)
        record = build_record_fast(doc)
        result = score(record, variant=variant, sets=sets)
        return Loaded(doc.name, "record", svgdraw.source_of_result(result), result=result, doc=doc)
    except InputError:
        raise
    except OptionError as exc:
        if not exc.path:
            raise
        raise InputError([doc.problem(tuple(exc.path), exc.message)]) from None
    except Exception as exc:  # noqa: BLE001 - located below, or re-raised
        message = getattr(exc, "message", None)
        if message is None:
            raise
        probs = schema_problems(doc, doc.kind)
        if probs:
            raise InputError(probs) from None
        raise InputError([doc.problem(tuple(getattr(exc, "path", ()) or ()), message)]) from None


def draw(file: str, after: Optional[int] = None, style: str = "paper", variant: Optional[str] = None,
         sets: Sequence[Tuple[str, Any]] = ()) -> DrawResult:
    """The SVG of FILE's sheet after deal `after` (all deals when None)."""
    from prefcli.model.diagnostics import InputError
    loaded = load_game(file, variant, sets)
    check_after(loaded, after)
    try:
        text = svgdraw.render(loaded.source, after, style)
    except svgdraw.DrawError as exc:
        raise InputError([loaded.doc.problem(("players",), exc.message)]) from None
    return DrawResult(loaded, text, after)
