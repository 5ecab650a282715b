"""Writing a command's result to standard output or to `-o PATH`, without ever losing data.

Every command writes through :func:`write_output`, so one function decides, once, what a
destination means:

- ``-`` (or no ``-o``) is standard output; ``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N`` and
  ``/proc/self/fd/N`` are the process's own descriptors, written *into* (a shell redirection
  such as ``3> log`` keeps its file, a pipe's reader gets the data);
- a device, a FIFO or a socket (``/dev/null``, ``/dev/full``, a named pipe) is opened and
  written into, never replaced by a regular file;
- a symlink is followed: its target is replaced, the link is kept;
- a regular file (new or existing) is written atomically: a temporary file in the same folder,
  fsync, then a rename over the target, keeping the old file's permission bits; readers see
  the old content or the new one, never half of it, and a failure leaves the old file as it was;
- a destination that is one of the command's inputs (compared by device and inode, so through
  symlinks, hard links and ``./x`` spellings too) is refused before anything is written.

Every failure is an :class:`OutputError`: one line naming the path and the reason in words
(``out/x.json: cannot write: the folder out does not exist``); the CLI exits 1 with it.

Encoding: results are UTF-8. A file written with ``-o`` is always UTF-8; standard output and
standard error are UTF-8 too when they are a file or a pipe, whatever the locale or
``PYTHONIOENCODING`` says (what prefcli writes, prefcli, jq and spreadsheets read back:
``prefcli score g.yaml -f json > s.json`` on a Windows console in cp1252 still gives a UTF-8
file). Only a terminal keeps its own encoding, so what is shown is what it can display;
characters it cannot show are written as ``\\u0117``-style escapes instead of failing, so a
name stays recognisable (see :func:`configure_stream`).

This module is library code: no click. The CLI maps :class:`OutputError` to exit 1 and
:class:`FormatConflict` to a usage error (exit 2).
"""
from __future__ import annotations

import errno
import os
import re
import stat
import sys
from typing import IO, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, cast

from prefcli.model.diagnostics import PrefcliError

#: a whole result, or its text in chunks (written as they come: a streamed batch's output
#: is never held in memory whole)
Data = Union[str, bytes, Iterable[str]]

#: `-o NAME.ext` → the output format it asks for. `text` stands for the command's human form
#: (called `table` or `text` by different commands).
EXTENSION_FORMATS = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv",
                     ".txt": "text", ".text": "text", ".svg": "svg", ".html": "html", ".htm": "html"}
#: the names commands give their human-readable form
HUMAN_FORMATS = ("table", "text")

_FD_PATH = re.compile(r"\A/(?:dev/fd|proc/self/fd)/([0-9]+)\Z")
_STD_PATHS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


from prefcli.io.errors import OutputError, _reason  # noqa: E402,F401 - re-exported
class FormatConflict(ValueError):
    """`-o NAME.ext` and `-f FORMAT` disagree, or the extension names a format the command
    cannot write: a usage error (exit 2)."""


# ---------------------------------------------------------------------------------------------
# Formats from extensions
# ---------------------------------------------------------------------------------------------

def format_of_path(path: Optional[str]) -> Optional[str]:
    """The format an output path's extension asks for (json, yaml, csv, text), or None."""
    if not path or path == "-":
        return None
    return EXTENSION_FORMATS.get(os.path.splitext(path)[1].lower())


def choose_format(output: Optional[str], given: Optional[str], choices: Sequence[str],
                  default: str) -> str:
    """The format to write: `-f` when given, else the extension of `-o`, else the default.

    Both given and disagreeing, or an extension naming a format the command does not write,
    is a :class:`FormatConflict`: writing a text table into `sheet.json` is never what was meant.
    An extension prefcli does not know (`.out`, none) asks for nothing.
    """
    wanted = format_of_path(output)
    if wanted == "text":
        human = [c for c in choices if c in HUMAN_FORMATS]
        wanted = human[0] if human else "text"
    if wanted is not None and wanted not in choices:
        raise FormatConflict(f"-o {output}: this command writes {', '.join(choices)}, not {wanted}")
    if given is not None:
        if wanted is not None and given != wanted and not (given in HUMAN_FORMATS and wanted in HUMAN_FORMATS):
            raise FormatConflict(f"-o {output} asks for {wanted} but -f says {given}: "
                                 f"leave one out, or make them agree")
        return given
    return wanted or default


# ---------------------------------------------------------------------------------------------
# Streams
# ---------------------------------------------------------------------------------------------

from prefcli.io.streams import (ERRORS, _fileno, _silence_fd, configure_stream,  # noqa: E402,F401 - re-exported
                                 configure_streams, result_stream)


def _write_stream(stream: Optional[IO[str]], data: Data, name: str) -> None:
    if stream is None:      # started with the descriptor closed (`>&-`): Python has no stream
        raise OutputError(name, "cannot write: it is closed")
    configure_stream(stream)
    try:
        if isinstance(data, bytes):
            stream.flush()
            # a text stream's bytes go to its buffer; a stream without one takes bytes itself
            binary = cast(IO[bytes], getattr(stream, "buffer", stream))
            binary.write(data)
        elif isinstance(data, str):
            stream.write(data)
        else:
            for chunk in data:
                stream.write(chunk)
        stream.flush()
    except BrokenPipeError:
        if _fileno(stream) in (1, 2):
            _silence_fd(_fileno(stream))
        raise
    except OSError as exc:
        try:
            fd = stream.fileno()
        except (AttributeError, ValueError, OSError):
            fd = -1
        if fd in (1, 2):
            _silence_fd(fd)
        raise OutputError(name, f"cannot write: {_reason(exc)}") from None


#: errors of a write that no retry fixes: reported as "cannot write", not as an internal error
_WRITE_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def stream_failure(exc: BaseException) -> Optional[OutputError]:
    """An OSError raised by printing to standard output (click.echo in a command) as an
    OutputError naming standard output, or None when it is something else."""
    if not isinstance(exc, OSError) or isinstance(exc, BrokenPipeError) or exc.errno not in _WRITE_ERRNOS:
        return None
    if getattr(exc, "filename", None):
        return None                 # a named file: not the standard streams
    _silence_fd(1)
    return OutputError("standard output", f"cannot write: {_reason(exc)}")


# ---------------------------------------------------------------------------------------------
# Inputs and destinations
# ---------------------------------------------------------------------------------------------

def _identity(st: os.stat_result) -> Tuple[int, int]:
    return (st.st_dev, st.st_ino)


def _input_identities(inputs: Iterable[str]) -> List[Tuple[Tuple[int, int], str]]:
    out = []
    for src in inputs:
        if src is None:
            continue
        try:
            if src == "-":
                st = os.fstat(0)
                if not stat.S_ISREG(st.st_mode):
                    continue
                out.append((_identity(st), "standard input"))
            else:
                st = os.stat(src)
                if stat.S_ISREG(st.st_mode):
                    out.append((_identity(st), src))
        except (OSError, ValueError):
            continue
    return out


def _std_fd(dest: str) -> Optional[int]:
    if dest in _STD_PATHS:
        return _STD_PATHS[dest]
    m = _FD_PATH.match(dest)
    return int(m.group(1)) if m else None


def check_not_input(dest: Optional[str], inputs: Iterable[str]) -> None:
    """Refuse (OutputError) when writing `dest` would write over one of `inputs`.

    Compared by (device, inode): `g.yaml`, `./g.yaml`, a symlink to it, a hard link and
    `/dev/stdout` redirected into it are the same file. A destination that does not exist yet
    cannot be an input. Call it before the work, so a long run is refused at once; write_output
    checks again.
    """
    ids = _input_identities(inputs)
    if not ids:
        return
    name = dest if dest is not None and dest != "-" else "standard output"
    try:
        if dest is None or dest == "-":
            st = os.fstat(sys.stdout.fileno())
        else:
            fd = _std_fd(dest)
            st = os.fstat(fd) if fd is not None else os.stat(dest)
    except (OSError, ValueError, AttributeError):
        return
    if not stat.S_ISREG(st.st_mode):
        return
    for ident, src in ids:
        if _identity(st) == ident:
            if src == name:
                what = "is an input of this command"
            elif src == "standard input":
                what = "is the file standard input reads"
            else:
                what = f"is the same file as the input {src}"
            raise OutputError(name, f"{what}: refusing to write over it (choose another output file)")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _encode(data: Data) -> Union[bytes, Iterator[bytes]]:
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode("utf-8", ERRORS)
    return (chunk.encode("utf-8", ERRORS) for chunk in data)


def _write_all(fd: int, payload: Union[bytes, Iterator[bytes]]) -> None:
    for part in ((payload,) if isinstance(payload, bytes) else payload):
        view = memoryview(part)
        while view:
            n = os.write(fd, view)
            view = view[n:]


def _write_into(dest: str, payload: Union[bytes, Iterator[bytes]]) -> None:
    """A device, FIFO or socket: open it and write into it (O_NONBLOCK is not used: a FIFO
    without a reader waits for one, as `echo > fifo` does)."""
    try:
        fd = os.open(dest, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise OutputError(dest, f"cannot write: {_reason(exc)}") from None
    try:
        _write_all(fd, payload)
    except OSError as exc:
        raise OutputError(dest, f"cannot write: {_reason(exc)}") from None
    finally:
        os.close(fd)


def _write_fd(fd_num: int, payload: Union[bytes, Iterator[bytes]], name: str) -> None:
    try:
        _write_all(fd_num, payload)
    except OSError as exc:
        raise OutputError(name, f"cannot write: {_reason(exc)}") from None


def _folder_problem(dest: str, folder: str) -> Optional[str]:
    """Why the folder of `dest` cannot take a new file, in words (or None when it can)."""
    shown = folder if folder not in ("", ".") else "the current folder"
    probe = folder or "."
    if not os.path.lexists(probe):
        return f"cannot write: the folder {shown} does not exist"
    if not os.path.isdir(probe):
        return f"cannot write: {shown} is not a folder"
    return None


def make_folder(dest: str, documents: int) -> None:
    """Make the folder that `-o FOLDER` names for a result of several files (its parents too).

    A file or anything else already at that name is never replaced by a folder, and a folder
    that cannot be made is said in words (exit 1), before any of the files is written."""
    if os.path.lexists(dest) and not os.path.isdir(dest):
        raise OutputError(dest, f"cannot write {documents} documents here: it is not a folder "
                                "(give -o FOLDER, a new or existing folder, one file each)")
    try:
        os.makedirs(dest, exist_ok=True)
    except OSError as exc:
        raise OutputError(dest, f"cannot make the folder: {_reason(exc)}") from None


def _write_atomic(shown: str, target: str, payload: Union[bytes, Iterator[bytes]],
                  old: Optional[os.stat_result]) -> None:
    """Temporary file beside the target, fsync, rename; the old file's mode kept."""
    folder = os.path.dirname(target)
    near = os.path.dirname(shown)
    problem = _folder_problem(shown, near if os.path.realpath(near or ".") == folder
                              or not os.path.lexists(near or ".") else folder)
    if problem:
        raise OutputError(shown, problem)
    base = os.path.basename(target)
    try:
        import tempfile  # here, not at import: `prefcli --version` starts without it
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=folder or ".")
    except OSError as exc:
        reason = _reason(exc)
        if exc.errno in (errno.EACCES, errno.EPERM):
            reason = f"permission denied (cannot create a file in {folder or 'the current folder'})"
        raise OutputError(shown, f"cannot write: {reason}") from None
    try:
        try:
            _write_all(fd, payload)
            os.fsync(fd)
            mode = stat.S_IMODE(old.st_mode) if old is not None else (0o666 & ~_umask())
            try:
                os.fchmod(fd, mode)
                if old is not None and hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (
                        os.geteuid(), os.getegid()):
                    os.fchown(fd, old.st_uid, old.st_gid)
            except OSError:
                pass          # keeping the owner needs privileges; the content is what matters
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(shown, f"cannot write: {_reason(exc)}") from None
        raise
    try:          # the rename itself survives a crash only once the folder is synced
        dfd = os.open(folder or ".", os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def write_output(dest: Optional[str], data: Data, inputs: Iterable[str] = ()) -> None:
    """Write a command's whole result to `dest` (`-`/None: standard output), safely.

    `inputs` are the files the command read (paths or `-`): writing over one of them is refused.
    Text is written as UTF-8 (see the module docstring for standard output).
    """
    inputs = list(inputs)
    if dest is None or dest == "-":
        check_not_input(dest, inputs)
        _write_stream(sys.stdout, data, "standard output")
        return
    if dest == "":
        raise OutputError("''", "cannot write: an empty file name (give a file name, or - for standard output)")
    fd_num = _std_fd(dest)
    if fd_num is not None:
        check_not_input(dest, inputs)
        if fd_num == 0:
            raise OutputError(dest, "cannot write: this is standard input")
        if fd_num == 1:
            _write_stream(sys.stdout, data, dest)
        elif fd_num == 2:
            _write_stream(result_stream(sys.stderr), data, dest)
        else:
            _write_fd(fd_num, _encode(data), dest)
        return
    check_not_input(dest, inputs)
    target = os.path.realpath(dest)           # a symlink: replace its target, keep the link
    try:
        st: Optional[os.stat_result] = os.stat(target)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputError(dest, "cannot write: a part of the path is not a folder") from None
    except OSError as exc:
        raise OutputError(dest, f"cannot write: {_reason(exc)}") from None
    if dest.endswith(os.sep) and (st is None or not stat.S_ISDIR(st.st_mode)):
        raise OutputError(dest, "cannot write: a file name cannot end with /")
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(dest, "cannot write: is a folder (give a file name)")
    payload = _encode(data)
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_into(dest, payload)
        return
    _write_atomic(dest, target, payload, st)
