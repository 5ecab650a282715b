"""Problems found in an input, and where they are.

A problem knows the data path (``deals[3].tricks.Bob``); the file, line and column are filled in
by whoever has the text (the loader's locator), so the rules code stays free of I/O.
"""
from __future__ import annotations

from dataclasses import field, replace
from prefcli.model.slots import dataclass
from typing import Any, Dict, Iterable, List, Optional, Tuple, Type, Union

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
        where = _name(self.file) if self.file else "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        p = format_path(self.path)
        level = "" if self.severity == "error" else f"{self.severity}: "
        return f"{where}: {p + ': ' if p else ''}{level}{self.message}"

    def as_dict(self) -> Dict[str, Any]:
        return {
            "file": _name(self.file) if self.file else self.file, "line": self.line, "column": self.column,
            "path": format_path(self.path), "kind": self.kind,
            "severity": self.severity, "message": self.message,
        }


#: The kind of an error in what the user typed on the command line rather than in a file.
USAGE = "usage"


class PrefcliError(Exception):
    """The one base of every error prefcli's library raises about its input.

    It carries what a :class:`Problem` needs except the place in a file: the message, the data
    path (``deals[0].play[1][1]``) and the kind (syntax | schema | rule | play | option), plus a
    line and column when the raiser already knows them (the YAML reader, quick entry). Whoever
    holds the text (``Document.place``) turns it into a located problem; the CLI catches this
    class, never a list of names. Subclasses set ``kind`` as a class attribute.
    """

    kind: str = "rule"

    def __init__(self, message: str, path: Iterable[PathElem] = (), kind: Optional[str] = None, *,
                 file: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.path: Path = tuple(path)
        if kind is not None:
            self.kind = kind
        self.file, self.line, self.column = file, line, column

    def __reduce__(self):  # subclasses take other arguments: rebuild from the state (workers)
        return (_restore_error, (type(self), self.args, self.__dict__))

    def problem(self) -> Problem:
        """This error as a problem (not yet placed in a file unless the raiser knew the place)."""
        return Problem(self.message, self.path, self.file, self.line, self.column, kind=self.kind)

    @property
    def problems(self) -> List[Problem]:
        return [self.problem()]

    @property
    def is_usage(self) -> bool:
        """A bad command-line value (``--set``, ``--variant``): exit 2, not a fault of a file."""
        return self.kind == USAGE


def _restore_error(cls: "Type[PrefcliError]", args: tuple, state: Dict[str, Any]) -> "PrefcliError":
    obj = cls.__new__(cls)
    Exception.__init__(obj, *args)
    obj.__dict__.update(state)
    return obj


class InputError(PrefcliError):
    """An input that cannot be used; carries every problem found (at least one), located."""

    def __init__(self, problems: List[Problem]) -> None:
        assert problems
        first = problems[0]
        super().__init__(first.message, first.path, first.kind, file=first.file, line=first.line,
                         column=first.column)
        self.args = (first.text(),)
        self._problems = list(problems)

    def problem(self) -> Problem:
        return self._problems[0]

    @property
    def problems(self) -> List[Problem]:
        return self._problems

    @problems.setter
    def problems(self, value: List[Problem]) -> None:
        self._problems = list(value)

    def __str__(self) -> str:
        return self._problems[0].text()


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


def _name(file: str) -> str:
    from prefcli.model.values import display_name
    return display_name(file)
