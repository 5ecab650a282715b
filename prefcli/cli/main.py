"""The command-line interface: a thin click layer over the library.

Commands live in ``prefcli.cli.commands.<name>`` and are imported only when used, so ``prefcli
--version`` starts about as fast as click itself. This module owns the exit codes: 0 ok,
1 invalid input or failed check, 2 usage error, 3 internal error (one line; ``--debug`` for the
traceback). No traceback reaches a user otherwise.
"""
from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_starting(signum: int, frame: Any) -> None:
    """Ctrl-C before the command runs (click and prefcli still importing, about 20 ms of every
    start): nothing is written yet, so the process ends at once, quietly, with 130. Python's own
    handler would raise KeyboardInterrupt inside some import, outside every ``except`` of
    :func:`_main`, and print its traceback with status 1."""
    os._exit(130)


def _is_the_command() -> bool:
    """This import is the start of ``prefcli`` or ``python -m prefcli`` (not a program or a test
    that imports the CLI, nor a spawned worker, whose main module is ``__mp_main__``): only then
    are the process's signals prefcli's to handle."""
    main = sys.modules.get("__main__")
    if getattr(main, "__name__", None) != "__main__":
        return False
    spec = getattr(main, "__spec__", None)
    if spec is not None:
        return getattr(spec, "name", None) == "prefcli.__main__"
    return os.path.basename(getattr(main, "__file__", None) or "") == "prefcli"


_THE_COMMAND = _is_the_command()


def _starting_as_the_command() -> bool:
    """The command is starting and SIGINT still has Python's own handler (not one that the
    caller set, nor ignored, as in a shell's background job)."""
    return _THE_COMMAND and signal.getsignal(signal.SIGINT) is signal.default_int_handler


class Terminated(BaseException):
    """SIGTERM or SIGHUP while a command runs (``kill``, ``timeout``, a batch system's time
    limit, the terminal closed). Raised like Ctrl-C, past every ``except Exception``, so the
    output being written is removed, not left beside its target as a ``.NAME.xxxx.tmp`` file,
    workers are stopped, and the process ends quietly, with the shell's 128 + the signal's
    number. Not a KeyboardInterrupt: click answers that with a newline on stderr."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.status = 128 + signum


_PID = os.getpid()
_ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _terminated(signum: int, frame: Any) -> None:
    signal.signal(signum, signal.SIG_DFL)       # once: a second one ends the process at once
    if os.getpid() != _PID:                     # a process forked from this one: end as the signal says
        os.kill(os.getpid(), signum)
        return
    raise Terminated(signum)


def _end_quietly_on_termination() -> None:
    """SIGTERM and SIGHUP raise :class:`Terminated` from here on, where they still have the
    system's default action (``nohup`` ignores SIGHUP: that stays)."""
    for signum in _ENDING:
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _terminated)


if _starting_as_the_command():
    signal.signal(signal.SIGINT, _interrupted_while_starting)

import importlib  # noqa: E402 - after the handler: the imports are most of the start
from typing import Any, Dict, List, Optional, Tuple  # noqa: E402

import click  # noqa: E402

from prefcli import __version__

COMMANDS: Dict[str, str] = {
    "validate": "check records and sheets: schema, then the rules",
    "replay": "replay full deals trick by trick and check every call and card",
    "score": "compute the score sheet under the record's preset or another",
    "settle": "who pays whom: net whists, money and payments",
    "stats": "statistics per player over many games, head to head, the season as SVG",
    "rating": "rate players over many games: cumulative whists, place points or Elo",
    "merge": "add up settle / stats results written with -f json by shards",
    "draw": "draw the score sheet as on paper (SVG)",
    "report": "one self-contained HTML page of a game or tournament",
    "analyze": "double-dummy analysis of full deals: best play, the cards that cost a trick",
    "convert": "JSON ⇄ YAML, canonical form, another preset, quick-entry notes",
    "import": "read other programs' saved games and sheets, report what is lost, check their totals",
    "variants": "list presets, or every option of one preset",
    "schema": "print the JSON Schema of records or sheets",
}

#: Command names that are Python keywords live in a module with a trailing underscore.
MODULES: Dict[str, str] = {"import": "import_"}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> List[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> Optional[click.Command]:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"prefcli.cli.commands.{MODULES.get(name, name)}")
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(list(COMMANDS.items()))


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from prefcli.model.formats import version_text
    click.echo(version_text(__version__))
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog="""\b
Examples:
  prefcli validate examples/
  prefcli settle examples/sochi-3p.yaml -f json | jq .payments
  prefcli COMMAND --help          every command's options, with examples

\b
Shell completion (click's own): add to ~/.bashrc
  eval "$(_PREFCLI_COMPLETE=bash_source prefcli)"
(zsh: zsh_source in ~/.zshrc; fish: _PREFCLI_COMPLETE=fish_source prefcli | source).""")
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="the version, and the format versions prefcli reads and writes")
@click.option("--debug", is_flag=True,
              help="show the Python traceback of an internal error (before or after the command)")
def cli(debug: bool) -> None:
    """prefcli: check, replay, score and settle Preferans game records.

    Exit status: 0 ok, 1 invalid input or failed check, 2 usage error, 3 internal error,
    130 interrupted (Ctrl-C), 143 and 129 ended by SIGTERM and SIGHUP (nothing half-written is
    left). A closed standard output (| head) ends any command quietly, 0.
    """


def _report(exc: BaseException) -> int:
    """Exit code for a library error (by type: every domain error is a PrefcliError), or -1."""
    from prefcli.model.diagnostics import PrefcliError
    from prefcli.cli.util import CheckFailed
    if isinstance(exc, CheckFailed):
        return exc.status
    from prefcli.io.output import OutputError, stream_failure
    if not isinstance(exc, OutputError):
        exc = stream_failure(exc) or exc
    if isinstance(exc, OutputError):
        click.echo(f"prefcli: {exc.text()}", err=True)
        return 1
    if isinstance(exc, PrefcliError) and exc.is_usage:
        click.echo(f"prefcli: {exc.message}", err=True)
        return 2
    if isinstance(exc, PrefcliError):
        for p in exc.problems:
            click.echo(p.text() if p.file else f"prefcli: {p.text()[len('<input>: '):]}", err=True)
        return 1
    return -1


def main(argv: Optional[List[str]] = None) -> int:
    """Run one command; the exit status. Standard output is flushed here, so a full disk or a
    closed pipe is reported with the command's status instead of failing at interpreter exit."""
    from prefcli.io.streams import configure_streams, quiet_stderr, terminal_text
    configure_streams()            # output never fails on the stream's encoding
    # a terminal shows a record's control characters, never obeys them; and the status never
    # depends on standard error being writable
    with terminal_text(), quiet_stderr():
        return _finish(_main(argv))


def _finish(code: int) -> int:
    """Standard output flushed while the status can still say it failed."""
    from prefcli.io.streams import finish_stdout
    try:
        finish_stdout()
    except BrokenPipeError:        # a closed pipe: quietly, 0 (the reader stopped reading)
        _close_stdout()
        code = 0
    except KeyboardInterrupt:
        code = 130
    except Terminated as exc:
        code = exc.status
    except Exception as exc:       # noqa: BLE001 - an OutputError (its module loads only then)
        click.echo(f"prefcli: {exc.text() if hasattr(exc, 'text') else exc}", err=True)
        code = code or 1
    return code


def _close_stdout() -> None:
    """The reader went away (| head): nothing more can be written, and nothing will complain
    at interpreter exit either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def _without_debug(args: List[str]) -> Tuple[List[str], bool]:
    """`--debug` is accepted before or after the command name (never after `--`)."""
    out: List[str] = []
    debug = False
    for i, a in enumerate(args):
        if a == "--":
            out.extend(args[i:])
            break
        if a == "--debug":
            debug = True
            continue
        out.append(a)
    return out, debug


def _main(argv: Optional[List[str]] = None) -> int:
    util = sys.modules.get("prefcli.cli.util")     # a run before this one in the process
    if util is not None:
        util._INTERNAL_SHOWN[0] = False
    args, debug = _without_debug(list(sys.argv[1:] if argv is None else argv))
    debug = debug or bool(os.environ.get("PREFCLI_DEBUG"))
    if "PREFCLI_MAX_BYTES" in os.environ:
        from prefcli.io.documents import MAX_BYTES_PROBLEM
        if MAX_BYTES_PROBLEM:       # the environment is part of the command line: a usage error
            print(f"prefcli: {MAX_BYTES_PROBLEM}", file=sys.stderr)
            return 2
    try:
        if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
            # from here Ctrl-C is KeyboardInterrupt again, caught below: the command may have
            # written part of its output, which is flushed or dropped as its status says
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if _THE_COMMAND:
            _end_quietly_on_termination()
        cli.main(args=args, prog_name="prefcli", standalone_mode=False)
        return 0
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except SystemExit as exc:
        # click answers a closed stdout (EPIPE) with sys.exit(1) after wrapping the streams;
        # prefcli's rule is the same quiet 0 for every command
        if "PacifyFlushWrapper" in type(sys.stdout).__name__:
            _close_stdout()
            return 0
        raise
    except click.exceptions.Abort:      # click's own form of Ctrl-C
        return 130
    except Terminated as exc:
        return exc.status
    except click.ClickException as exc:
        exc.show()
        return 2 if isinstance(exc, click.UsageError) else 1
    except KeyboardInterrupt:            # quietly: the user knows they pressed Ctrl-C
        return 130
    except BrokenPipeError:
        _close_stdout()
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        code = _report(exc)
        if code >= 0:
            if debug:
                import traceback
                traceback.print_exc()
            return code
        if debug:
            import traceback
            traceback.print_exc()
        click.echo(f"prefcli: internal error: {type(exc).__name__}: {exc} "
                   "(please report it; run with --debug for the traceback)", err=True)
        return 3


def entry() -> None:
    try:
        code = main()
        _default_termination()
    except Terminated as exc:       # the signal came as the command ended
        _default_termination()
        code = exc.status
    _leave(code)
    sys.exit(code)


def _default_termination() -> None:
    """SIGTERM and SIGHUP back to the system's action once the command is done: nothing is
    being written any more, and nothing is left to raise :class:`Terminated` into."""
    for signum in _ENDING:
        if signal.getsignal(signum) is _terminated:
            signal.signal(signum, signal.SIG_DFL)


def _leave(code: int) -> None:
    """End the process with `code` now, without the interpreter's shutdown, when nothing is left
    for it to do. Why: the shutdown frees every object and module one by one (about 13 ms of
    every run, a fifth of ``prefcli --version``, and the record's deals on top), memory the
    system takes back at once. Its other work is done before this: standard output is flushed
    (``_finish``: its failure is the status), every file prefcli writes is closed where it is
    written (io/output), and the workers of ``--jobs`` are ended by their executor. So the
    shutdown is kept only where something may still run or need it: another thread, a child
    process, Dask (its clusters close at exit) or coverage (it saves its data at exit)."""
    mods = sys.modules
    if "distributed" in mods or "coverage" in mods:
        return
    threading = mods.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    mp = mods.get("multiprocessing")
    if mp is not None and mp.active_children():
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:  # noqa: BLE001 - the ordinary shutdown then says (or hides) what it says
        return
    os._exit(code)
