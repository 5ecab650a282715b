"""Problems found in an input, and where they are.

A problem knows the data path (``deals[3].tricks.Bob``); the file, line and column are filled in
by whoever has the text (the loader's locator), so the rules code stays free of I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

PathElem = Union[str, int]
Path = Tuple[PathElem, ...]


def format_path(path: Iterable[PathElem]) -> str:
    """`('deals', 3, 'tricks', 'Bob')` → `deals[3].tricks.Bob` (JSONPath-like, no `$`)."""
    out = ""
    for elem in path:
        if isinstance(elem, int):
            out += f"[{elem}]"
        else:
            out += ("." if out else "") + str(elem)
    return out


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: what, where, and (when known) what would be right."""

    message: str
    path: Path = ()
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    kind: str = "rule"  # syntax | schema | rule | play
    severity: str = "error"

    def at(self, file: Optional[str] = None, line: Optional[int] = None,
           column: Optional[int] = None) -> "Problem":
        return replace(self, file=file if file is not None else self.file,
                       line=line if line is not None else self.line,
                       column=column if column is not None else self.column)

    def text(self) -> str:
        """`file:line:col: path: message`, leaving out what is unknown."""
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        p = format_path(self.path)
        return f"{where}: {p + ': ' if p else ''}{self.message}"

    def as_dict(self) -> Dict[str, Any]:
        return {
            "file": self.file, "line": self.line, "column": self.column,
            "path": format_path(self.path), "kind": self.kind,
            "severity": self.severity, "message": self.message,
        }


class InputError(Exception):
    """An input that cannot be used; carries every problem found (at least one)."""

    def __init__(self, problems: List[Problem]) -> None:
        assert problems
        super().__init__(problems[0].text())
        self.problems = problems


@dataclass
class Problems:
    """A collector that rule checks append to, so one run reports everything it finds."""

    items: List[Problem] = field(default_factory=list)

    def add(self, path: Path, message: str, kind: str = "rule") -> None:
        self.items.append(Problem(message, tuple(path), kind=kind))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)
