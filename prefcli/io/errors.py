"""An output that could not be written, in words: :class:`OutputError` and the reason of an
OSError. Kept apart so :mod:`prefcli.io.streams` (import-free, loaded by every run) and
:mod:`prefcli.io.output` (which re-exports both) share them without importing each other."""
from __future__ import annotations

import errno

from prefcli.model.diagnostics import PrefcliError


class OutputError(PrefcliError):
    """A result that could not be written (exit 1); the message names the path.

    `file` is the output's name; the data path is empty (nothing in a document is wrong)."""

    kind = "output"

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message, (), file=path)
        self.args = (f"{path}: {message}",)

    def text(self) -> str:
        return f"{self.file}: {self.message}"


def _reason(exc: OSError) -> str:
    """An OSError in words, without Python's `[Errno 28]` decoration."""
    code = exc.errno
    if code == errno.ENOSPC:
        return "no space left on the device"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if code == errno.EROFS:
        return "the file system is read-only"
    if code == errno.EISDIR:
        return "is a folder"
    if code == errno.ENOTDIR:
        return "a part of the path is not a folder"
    if code == errno.ENOENT:
        return "the folder does not exist"
    if code == getattr(errno, "EDQUOT", None):
        return "disk quota exceeded"
    if code == errno.ENAMETOOLONG:
        return "the name is too long"
    return (exc.strerror or str(exc)).lower()
