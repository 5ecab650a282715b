"""Scoring a record (``prefcli score``) as a library function.

:func:`score_source` loads a record (a path or ``-``), scores it under its preset (or
`variant` and `sets`) and returns a :class:`Scored`: the :class:`~prefcli.scoring.ScoreResult`
(the ledger) or the located problems that stopped it. ``Scored.document(after, explain)`` is
the ``pref-sheet/1`` document that ``score -f json`` writes and ``settle`` reads.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import InputError, Problem
from prefcli.model.slots import dataclass


@dataclass(frozen=True)
class Scored:
    """A record scored (`result`), or the problems that stopped it (`result` is None)."""

    source: str
    result: Any = None
    problems: List[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result is not None and not self.problems

    @property
    def deals(self) -> int:
        return len(self.result.record.deals) if self.result is not None else 0

    def document(self, after: Optional[int] = None, explain: bool = False) -> Dict[str, Any]:
        """The ``pref-sheet/1`` document of the sheet after deal `after` (all deals: None)."""
        from prefcli.app.sheet import sheet_document
        return sheet_document(self.result, after, explain=explain)


def score_source(source: str, variant: Optional[str] = None,
                 sets: Sequence[Tuple[str, Any]] = (), entries: bool = True, running: bool = False) -> Scored:
    """Load and score one record; a bad record gives a Scored with its located problems.

    A bad ``--set``/``--variant`` (kind ``usage``) is raised: it is not the file's fault. With
    `entries` False the ledger keeps the final sheet's sums alone (no ``--explain``, no
    ``--after``, no table: a record's memory is then not its two or three entries a deal); with
    `running` as well, it keeps the running totals the table shows deal by deal
    (``ledger.running``: the table without ``--after`` or ``--explain``).
    """
    try:
        return Scored(source, score_file(source, variant, sets, entries, running))
    except InputError as exc:
        return Scored(source, None, list(exc.problems))


def score_file(file: str, variant: Optional[str], sets: Sequence, entries: bool = True,
               running: bool = False) -> Any:
    """Load and score a record; every failure becomes a located InputError (or OptionError).

    The record is built by the loader's fast path (no schema pass for a record whose fields are
    all known); when scoring fails, the schema and validate's rule checks run, so their precise
    messages come first.
    """
    from prefcli.model.diagnostics import InputError, PrefcliError
    from prefcli.io.documents import build_record_fast, format_check, load_document, schema_problems
    from prefcli.rules.presets import resolve_rules
    from prefcli.scoring import score

    doc = load_document(file)
    if doc.kind == "sheet":
        raise InputError([doc.problem(("format",), "this is a score sheet (pref-sheet/1); prefcli score "
                                      "reads a game record (pref-record/1): use prefcli settle for a sheet")])
    # another kind of document (a tournament, a settlement, ...) is said so in one line, as every
    # command says it: the record schema's messages below would list each of its fields instead
    format_check(doc, "record")
    record = None
    try:
        record = build_record_fast(doc, release=True)
        # the record holds everything scoring needs: the parsed data (a kilobyte a deal) goes
        # before scoring starts, and is parsed again from the text if an error needs it
        doc.data = None
        rules = resolve_rules(record.rules, variant=variant, sets=sets)
        if entries:
            return score(record, rules)
        from prefcli.model.ledger import totals_only
        with totals_only(running):
            return score(record, rules)
    except Exception as exc:           # noqa: BLE001 - re-raised below, located
        if isinstance(exc, PrefcliError) and exc.is_usage:
            raise
        if doc.data is None:
            from prefcli.io.parsing import parse_text
            doc.data = parse_text(doc.name, doc.text, doc.is_json).data
        try:
            probs = schema_problems(doc, "record")
        except Exception:              # noqa: BLE001 - the schema pass must not hide the error
            probs = []
        if not probs and not isinstance(exc, InputError) and record is not None:
            try:                       # the rule checks of validate name the real fault
                from prefcli.rules.checks import check_record
                probs = [doc.place(p) for p in check_record(record) if p.severity == "error"]
            except Exception:          # noqa: BLE001
                probs = []
        if probs:
            raise InputError(probs) from None
        if isinstance(exc, InputError):
            raise
        if not isinstance(exc, PrefcliError) or exc.is_usage:
            raise                       # --set / --variant: nothing to locate in the file
        raise InputError([doc.place(exc)]) from None


