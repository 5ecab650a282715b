"""Checking inputs (``prefcli validate``) as a library function.

:func:`check` reads every file (folders are searched, ``-`` is stdin), runs the JSON Schema and
then the rules on each, and returns a :class:`CheckReport`: one :class:`FileCheck` per input with
its located problems. Nothing is printed; ``document()`` is the ``pref-validation/1`` report
(``schemas/validation.schema.json``) that ``validate -f json`` writes.
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from prefcli.model.diagnostics import InputError, Problem
from prefcli.model.records import VALIDATION_FORMAT


@dataclass(frozen=True)
class FileCheck:
    """One input checked: what it is and what is wrong with it (nothing when it is valid)."""

    file: str
    kind: Optional[str]                      # record | sheet | tournament | None (unreadable)
    problems: List[Problem] = field(default_factory=list)
    deals: Optional[int] = None              # entries of a record's `deals`

    @property
    def valid(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    def document(self) -> Dict[str, Any]:
        from prefcli.model.values import display_name
        out: Dict[str, Any] = {"file": display_name(self.file), "kind": self.kind, "valid": self.valid}
        if self.deals is not None:
            out["deals"] = self.deals
        out["problems"] = [p.as_dict() for p in self.problems]
        return out


@dataclass(frozen=True)
class CheckReport:
    """Every input checked, in the order given (a folder's files sorted)."""

    files: List[FileCheck]

    @property
    def valid(self) -> bool:
        return all(f.valid for f in self.files)

    @property
    def problems(self) -> List[Problem]:
        return [p for f in self.files for p in f.problems]

    @property
    def invalid(self) -> int:
        return sum(1 for f in self.files if not f.valid)

    def document(self) -> Dict[str, Any]:
        """The ``pref-validation/1`` report."""
        return {"format": VALIDATION_FORMAT, "valid": self.valid,
                "files": [f.document() for f in self.files]}


def check_source(source: str) -> FileCheck:
    """Check one file (or ``-``): the schema, then the rules; every problem located."""
    from prefcli.app.notes import NOTES_SUFFIXES
    from prefcli.io.documents import load_document
    from prefcli.rules.checks import check_document
    if source.lower().endswith(NOTES_SUFFIXES):
        return check_notes(source)
    try:
        doc = load_document(source)
    except InputError as exc:
        return FileCheck(exc.problems[0].file or source, None, list(exc.problems))
    deals = doc.data.get("deals") if isinstance(doc.data, dict) else None
    count = len(deals) if isinstance(deals, list) else None
    del deals
    problems = check_document(doc, keep_data=False)
    return FileCheck(doc.name, doc.kind, list(problems), count)


def check_notes(source: str) -> FileCheck:
    """Quick-entry notes are checked as `convert` reads them: every line, in notes syntax.

    Notes name their players and variant in a header or on convert's command line; without
    them nothing can be checked, and the problem says how to give them."""
    from prefcli.app.notes import notes_to_record, read_text
    try:
        name, text = read_text(source)
        record = notes_to_record(text, name)
    except InputError as exc:
        problems = list(exc.problems)
        if any("--players" in p.message for p in problems):
            problems.append(Problem("quick-entry notes: give the players and variant as convert does, e.g. "
                                    f"prefcli convert {source} --players Ann,Bob,Cid --variant sochi, "
                                    "then validate what it writes", (), source, None, None, "usage"))
        return FileCheck(exc.problems[0].file or source, "notes", problems)
    return FileCheck(name, "notes", [], len(record.deals))


def check(sources: Iterable[str], progress: Optional[Callable[[int, int], None]] = None) -> CheckReport:
    """Check every input (files, folders searched for .yaml/.yml/.json, ``-`` for stdin).

    `progress(done, total)` is called after each file (the CLI draws a bar on a terminal).
    Raises :class:`~prefcli.app.inputs.NoInputs` for a folder with nothing to check.
    """
    from prefcli.app.inputs import expand_inputs
    paths = expand_inputs(list(sources))
    out: List[FileCheck] = []
    for path in paths:
        out.append(check_source(path))
        if progress is not None:
            progress(len(out), len(paths))
    return CheckReport(out)
