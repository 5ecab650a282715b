"""Quick-entry notes (one deal per line) → a checked record, as a library function.

The parser is :mod:`prefcli.io.quickentry`; this adds the wiring a caller needs: the preset's
seating (the rotation), reading the text (a path or ``-``), the rule checks of validate, and
problems placed on the note's line.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import InputError, Problem

#: File names read as notes (a record is .yaml/.yml/.json).
NOTES_SUFFIXES = (".txt", ".notes")


def read_text(source: str) -> Tuple[str, str]:
    """(display name, text) of a notes file or ``-``: UTF-8, a BOM dropped."""
    from prefcli.io.documents import read_source
    from prefcli.io.parsing import decode_text
    name, raw = read_source(source)
    return name, decode_text(name, raw)   # UTF-8 or UTF-16 with a BOM; another encoding named


def parse_quick_entry(text: str, name: str = "<input>", players: Optional[Sequence[str]] = None,
                      variant: Optional[str] = None) -> Dict[str, Any]:
    """Quick-entry text → plain record data (:func:`prefcli.io.quickentry.parse_quick_entry` with
    the preset's seating). Raises InputError naming each bad line (all of them)."""
    return parse_quick_entry_lines(text, name, players, variant)[0]


def parse_quick_entry_lines(text: str, name: str = "<input>", players: Optional[Sequence[str]] = None,
                            variant: Optional[str] = None) -> Tuple[Dict[str, Any], List[int]]:
    """As :func:`parse_quick_entry`, plus the 1-based line number of each deal (for messages)."""
    from prefcli.io import quickentry
    from prefcli.rules.table import seating_for
    return quickentry.parse_quick_entry_lines(text, name, players, variant, seating_for)


def notes_to_record(text: str, name: str = "<notes>", players: Optional[Sequence[str]] = None,
                    variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = ()) -> Any:
    """Quick-entry notes → a checked :class:`~prefcli.model.records.Record`.

    Raises :class:`InputError` with every problem, each on the line of its deal.
    """
    from prefcli.model.build import record_from_data
    from prefcli.rules.checks import check_record
    from prefcli.rules.presets import OptionError

    try:
        data, lines = parse_quick_entry_lines(text, name, list(players) if players else None, variant)
        for key, value in sets:
            data["rules"][key] = value
        record = record_from_data(data, strict=False)
        problems = check_record(record) if record is not None else []
    except OptionError as exc:
        if exc.is_usage:
            raise
        raise InputError([Problem(exc.message, exc.path, name, None, None, "schema")]) from None
    if problems:
        placed: List[Problem] = []
        for p in problems:
            line = None
            if len(p.path) >= 2 and p.path[0] == "deals" and isinstance(p.path[1], int) \
                    and p.path[1] < len(lines):
                line = lines[p.path[1]]
            placed.append(p.at(name, line))
        raise InputError(placed)
    return record


def notes_file_to_record(source: str, players: Optional[Sequence[str]] = None,
                         variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = ()) -> Any:
    """:func:`notes_to_record` of a file (or ``-``)."""
    name, text = read_text(source)
    return notes_to_record(text, name, players, variant, sets)
