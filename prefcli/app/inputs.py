"""Which files a command reads: files as given, folders searched, ``-`` for stdin."""
from __future__ import annotations

from pathlib import Path
from typing import List, Sequence

from prefcli.model.diagnostics import PrefcliError

INPUT_SUFFIXES = (".yaml", ".yml", ".json")


class NoInputs(PrefcliError):
    """A folder given with nothing prefcli reads in it (a usage error: exit 2)."""

    kind = "usage"


def check_stdin_once(paths: Sequence[str]) -> None:
    """`-` read twice would be empty the second time: a usage error, not a bad file."""
    if sum(1 for p in paths if p == "-") > 1:
        raise NoInputs("- (standard input) can be given only once")


def expand_inputs(paths: Sequence[str]) -> List[str]:
    """Files as given; folders → their *.yaml, *.yml, *.json files (recursively, sorted)."""
    check_stdin_once(paths)
    out: List[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        path = Path(p)
        if p and path.is_dir():         # Path("") is the current folder: '' is no name at all
            found = sorted(str(f) for f in path.rglob("*") if f.is_file() and f.suffix.lower() in INPUT_SUFFIXES)
            if not found:
                raise NoInputs(f"{p}: no .yaml, .yml or .json files in this folder")
            out.extend(found)
        else:
            out.append(p)
    return out
