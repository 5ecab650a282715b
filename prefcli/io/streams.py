"""The standard streams: never failing on a character, and flushed while the exit status can
still say so.

Kept apart from :mod:`prefcli.io.output` (and free of imports) because every run of prefcli,
`prefcli --version` included, configures the streams at start-up.
"""
from __future__ import annotations

import codecs
import os
import sys
from contextlib import contextmanager
from typing import IO, Iterable, Iterator, Optional, Tuple, cast

#: the error handler of every stream and file prefcli writes: a character the encoding cannot
#: hold is written as a backslash escape, and a byte of a file name that is not UTF-8 (held by
#: Python as a lone surrogate) as `\\xNN`, the byte itself, the way `ls -b` shows it
ERRORS = "prefcli-escape"


def _escape(exc: UnicodeError) -> Tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    part = exc.object[exc.start:exc.end]
    try:
        text = part.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        if text.isascii():
            return text, exc.end
    except UnicodeError:
        pass
    return part.encode("ascii", "backslashreplace").decode("ascii"), exc.end


codecs.register_error(ERRORS, _escape)


def _is_utf8(encoding: Optional[str]) -> bool:
    return (encoding or "").lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig")


def configure_stream(stream: Optional[IO[str]]) -> None:
    """Make a text stream unable to fail on a character (idempotent).

    A file or pipe becomes UTF-8 (errors="backslashreplace" only for lone surrogates, which no
    encoding can write); a terminal keeps its encoding, and what it cannot show is written as a
    backslash escape (`Jon\\u0117`), which keeps a name readable instead of crashing on it.
    """
    if stream is None or not hasattr(stream, "reconfigure"):
        return
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    try:
        if tty or _is_utf8(getattr(stream, "encoding", None)):
            if getattr(stream, "errors", None) != ERRORS:
                stream.reconfigure(errors=ERRORS)
        else:
            stream.reconfigure(encoding="utf-8", errors=ERRORS)
    except (AttributeError, ValueError, OSError):   # a replaced or closed stream: leave it
        pass


def configure_streams() -> None:
    """Standard output and standard error, as :func:`configure_stream` says (call at start-up)."""
    configure_stream(sys.stdout)
    configure_stream(sys.stderr)


#: what a terminal is shown for a control character a record may hold (in a name, a note, a
#: comment): C0 and C1 controls and DEL, newline and tab excepted, as ``\\xNN``
_SHOWN = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f, *range(0x80, 0xa0))}


class TerminalText:
    """A terminal's standard output or error: control characters in the text are written as
    ``\\x1b``, never sent. Why: names, notes and comments come from other people's files, and
    raw they are commands to the terminal (colours, its title, a cleared screen, the cursor
    moved, a carriage return that overwrites a row of a table), so a shared record could make
    a sheet show other figures than it holds. Only a terminal: a file or a pipe gets the text
    exactly, and JSON and YAML write the characters escaped anyway. The progress bar's own
    carriage return, written alone, is let through."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):       # as a text stream refuses bytes (click asks)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        return self.stream.write(text if text == "\r" else text.translate(_SHOWN)) and len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):       # encoding, errors, isatty, fileno, buffer, flush...
        return getattr(self.stream, name)


def _on_a_terminal(stream: Optional[IO[str]]) -> bool:
    try:
        return stream is not None and not isinstance(stream, TerminalText) and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


@contextmanager
def terminal_text() -> Iterator[None]:
    """Standard output and error as :class:`TerminalText` where they are terminals, while a
    command runs (restored after)."""
    old = sys.stdout, sys.stderr
    if _on_a_terminal(sys.stdout):
        sys.stdout = cast(IO[str], TerminalText(cast(IO[str], sys.stdout)))
    if _on_a_terminal(sys.stderr):
        sys.stderr = cast(IO[str], TerminalText(cast(IO[str], sys.stderr)))
    try:
        yield
    finally:
        for name, was in zip(("stdout", "stderr"), old):
            if isinstance(getattr(sys, name), TerminalText):
                setattr(sys, name, was)


class QuietStderr:
    """Standard error for what a command says about its work (problems, notes, progress): a
    write that fails (``2>/dev/full``, a closed pipe) is dropped, never raised.

    The one rule of every command: the exit status tells the command's outcome. Standard error
    is where the outcome is explained, not the outcome itself, so a message that cannot be
    written must neither turn a success into a failure nor hide a failure (its status stays).
    After the first failure fd 2 points at /dev/null, so the interpreter's flush at exit does
    not fail either. A result asked for with ``-o /dev/stderr`` is written to :attr:`stream`,
    the stream itself, and fails as any output does."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.failed = False

    def write(self, text: str) -> int:
        if self.failed:
            return len(text)
        try:
            return self.stream.write(text)
        except OSError:       # ENOSPC, EPIPE, EIO...: nowhere left to say anything
            self._fail()
            return len(text)

    def flush(self) -> None:
        if self.failed:
            return
        try:
            self.stream.flush()
        except OSError:
            self._fail()

    def _fail(self) -> None:
        self.failed = True
        fd = _fileno(self.stream)
        if fd == 2:
            _silence_fd(2)
            try:
                self.stream.flush()         # what the buffer still holds goes to /dev/null
            except (OSError, ValueError):
                pass

    def __getattr__(self, name: str):       # encoding, errors, isatty, fileno, buffer...
        return getattr(self.stream, name)


def result_stream(stream: Optional[IO[str]]) -> Optional[IO[str]]:
    """The real stream under :class:`QuietStderr`: a result written there must fail loudly."""
    return stream.stream if isinstance(stream, QuietStderr) else stream


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Standard error as :class:`QuietStderr` while a command runs (restored after, so a
    caller's own stream, pytest's capture included, is left as it was)."""
    old = sys.stderr
    if old is None or isinstance(old, QuietStderr):
        yield
        return
    sys.stderr = cast(IO[str], QuietStderr(old))
    try:
        yield
    finally:
        if isinstance(sys.stderr, QuietStderr):
            sys.stderr.flush()
            sys.stderr = old


def _silence_fd(fd: int) -> None:
    """After a failed write to fd 1 or 2, point it at /dev/null so the interpreter's own flush
    at exit does not fail a second time (which would print a traceback and exit 120)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except OSError:
        pass


def _fileno(stream: IO[str]) -> int:
    try:
        return stream.fileno()
    except (AttributeError, ValueError, OSError):
        return -1


def finish_stdout() -> None:
    """Flush standard output at the end of a command (a full disk is then exit 1, not 120).

    Commands that print with click.echo leave their text in the buffer; without this the
    error would surface in the interpreter's shutdown flush, after the exit status is decided.
    """
    stream = sys.stdout
    if stream is None:
        return
    try:
        stream.flush()
    except BrokenPipeError:
        _silence_fd(1)
        raise
    except OSError as exc:
        _silence_fd(1)
        from prefcli.io.errors import OutputError, _reason
        raise OutputError("standard output", f"cannot write: {_reason(exc)}") from None
    except ValueError:     # closed
        pass


