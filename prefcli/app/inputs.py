"""Which files a command reads: files as given, folders searched, ``-`` for stdin."""
from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING, Iterator, List, Sequence

from prefcli.model.diagnostics import PrefcliError

if TYPE_CHECKING:
    from pathlib import Path

INPUT_SUFFIXES = (".yaml", ".yml", ".json")


class NoInputs(PrefcliError):
    """A folder given with nothing prefcli reads in it (a usage error: exit 2)."""

    kind = "usage"


def check_stdin_once(paths: Sequence[str]) -> None:
    """`-` read twice would be empty the second time: a usage error, not a bad file."""
    if sum(1 for p in paths if p == "-") > 1:
        raise NoInputs("- (standard input) can be given only once")


def folder_files(folder: str) -> Iterator[Path]:
    """Every file under `folder`, recursively (symlinked folders not followed, as Path.rglob).

    A folder that changes while it is listed (a subfolder removed or made unreadable between
    the listing and the look inside: a temporary folder, a sync client) is listed as it is found:
    Path.rglob raised FileNotFoundError from its scandir, an internal error (exit 3)."""
    from pathlib import Path
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in filenames:
            path = Path(dirpath, name)
            try:
                if path.is_file():
                    yield path
            except OSError:
                continue


#: the errors Path.is_dir answers False for (pathlib's _ignore_error: no such file, not a folder
#: on the way, a bad descriptor, a loop of links; Windows' not ready, bad name, cannot resolve)
_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)
_NOT_THERE_WINDOWS = (21, 123, 1921)


def _is_dir(p: str) -> bool:
    """``Path(p).is_dir()`` as Python 3.9-3.12 answer it, without importing pathlib (2.5 ms of
    every start of validate, replay, settle): ``os.stat`` of the name (a normalized name finds
    the same file), False for the errors it ignores or a name that cannot be encoded, any other
    OSError raised."""
    try:
        return stat.S_ISDIR(os.stat(p).st_mode)
    except OSError as exc:
        if exc.errno in _NOT_THERE or getattr(exc, "winerror", None) in _NOT_THERE_WINDOWS:
            return False
        raise
    except ValueError:
        return False


def expand_inputs(paths: Sequence[str]) -> List[str]:
    """Files as given; folders → their *.yaml, *.yml, *.json files (recursively, sorted)."""
    check_stdin_once(paths)
    out: List[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        if p and _is_dir(p):            # Path("") is the current folder: '' is no name at all
            found = sorted(str(f) for f in folder_files(p) if f.suffix.lower() in INPUT_SUFFIXES)
            if not found:
                raise NoInputs(f"{p}: no .yaml, .yml or .json files in this folder")
            out.extend(found)
        else:
            out.append(p)
    return out
