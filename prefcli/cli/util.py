"""Small pieces every command shares: options, input expansion, output, errors.

Commands let library errors (:class:`~prefcli.model.diagnostics.PrefcliError`, the one base of
them all) and :class:`click.UsageError` through; ``prefcli.cli.main`` turns them into messages on
stderr and the documented exit codes, by type, so no command prints a traceback.
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, List, Optional, Sequence, Tuple

import click

from prefcli.cli.completion import complete_set, complete_variant

if TYPE_CHECKING:          # (pathlib, fractions and the model are not what every command needs first)
    from prefcli.model.diagnostics import Problem

INPUT_SUFFIXES = (".yaml", ".yml", ".json")

_ASCII_DIGITS = frozenset("0123456789")


class Count(click.IntRange):
    """A whole number on the command line in ASCII digits only, as in a file: Python's int()
    also takes ``1_000`` and other scripts' digits (``'١٢'`` is 12), which the schemas refuse in
    a record, so the same number must not mean something on the command line alone."""

    name = "integer"

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            digits = text[1:] if text[:1] in "+-" else text
            if not digits or not set(digits) <= _ASCII_DIGITS or len(digits) > 12:
                self.fail(f"{value!s} is not a whole number (digits 0-9, at most 12)", param, ctx)
        return super().convert(value, param, ctx)


class Real(click.ParamType):
    """A finite decimal number in ASCII (``32``, ``-1.5``, ``1e2``): no ``nan``, ``inf``, ``1_0``
    or other scripts' digits, and at most 30 characters, like the bounded numbers of a file."""

    name = "number"

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, float):
            return value
        import re
        text = str(value).strip()
        if len(text) > 30 or not re.fullmatch(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?", text):
            self.fail(f"{value!s} is not a number (like 32, -1.5 or 1e2)", param, ctx)
        import math
        number = float(text)
        if not math.isfinite(number):
            self.fail(f"{value!s} is too large a number", param, ctx)
        return number


class CheckFailed(Exception):
    """The command has reported problems itself; exit with status 1, or 3 when one of them was
    an internal error (a batch goes on past an input that hit a bug; its status still says so)."""

    @property
    def status(self) -> int:
        return 3 if _INTERNAL_SHOWN[0] else 1


#: whether print_problems showed an internal error in this run (reset by cli.main)
_INTERNAL_SHOWN = [False]


def format_option(report: str, *more: str, default: Optional[str] = None,
                  help: Optional[str] = None) -> Callable:
    """``-f/--format``, its choices taken from the renderer registry for `report`
    (:data:`prefcli.render.REGISTRY`); aliases (``text`` for ``table``) are accepted and resolved.

    (Called the old way, with the format names themselves, it still works.)
    """
    from prefcli import render
    if report in render.REGISTRY:
        names = render.choices(report)
        first = render.formats(report)[0]
    else:
        names = [report, *more]
        first = report
        report = ""

    def resolve(ctx: click.Context, param: click.Parameter, value: Optional[str]) -> Optional[str]:
        if value is None or not report:
            return value
        return render.canonical(report, value)

    return click.option("-f", "--format", "fmt", type=click.Choice(names), default=default or first,
                        show_default=True, callback=resolve,
                        help=help or f"output format ({', '.join(n for n in names if n not in render.ALIASES)})")


def rules_options(func: Callable) -> Callable:
    func = click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", shell_complete=complete_set,
                        help="override a rule option, e.g. --set allpass.progression=[1,2,4] (repeatable)")(func)
    func = click.option("--variant", metavar="NAME", default=None, shell_complete=complete_variant,
                        help="score under this preset instead of the record's own (see prefcli variants)")(func)
    return func


def parse_sets(sets: Iterable[str]) -> List[Tuple[str, Any]]:
    """`NAME=VALUE` pairs; values are read like YAML flow values ([1,2,4], yes, 0.5)."""
    from prefcli.rules.presets import OptionError, parse_set
    out = []
    for text in sets:
        name, raw = parse_set(text)
        if name == "variant":       # was taken and then ignored by every command but convert
            raise OptionError("--set variant: the preset is chosen with --variant NAME, not --set", kind="usage")
        out.append((name, _flow_value(raw)))
    return out


def _flow_value(raw: str) -> Any:
    if raw.startswith("[") and raw.endswith("]"):
        return [x.strip() for x in raw[1:-1].split(",") if x.strip()]
    return raw


def expand_inputs(paths: Sequence[str]) -> List[str]:
    """Files as given; folders → their *.yaml, *.yml, *.json files (:mod:`prefcli.app.inputs`)."""
    from prefcli.app.inputs import expand_inputs as _expand
    return _expand(paths)


def plain(value: Any) -> Any:
    """Data with Fractions made printable (int, or "12.5" / "40/3")."""
    from prefcli.io.emit import plain as _plain
    return _plain(value)


def dump(data: Any, fmt: str) -> str:
    """JSON or YAML text of plain data (the one emitter, :mod:`prefcli.io.emit`)."""
    from prefcli.io.emit import dump as _dump
    return _dump(data, fmt)


def write_text(dest: Optional[str], text: "str | Iterable[str]", inputs: Iterable[str] = ()) -> None:
    """Write a command's result: stdout (`-`), or `-o PATH` safely (see prefcli.io.output).

    `inputs` are the files the command read; writing over one of them is refused (exit 1).
    """
    from prefcli.io.output import write_output
    write_output(dest, text, inputs)


def output_option(func: Callable) -> Callable:
    """`-o/--output PATH` (default stdout); its extension picks the format (see pick_format)."""
    return click.option("-o", "--output", default="-", metavar="PATH",
                        help="write here instead of stdout (- for stdout); the extension "
                             "(.json, .yaml, .csv, .txt) picks the format")(func)


def report_format(report: str, fmt: Optional[str], output: Optional[str]) -> str:
    """The format of `report` to write: -f, else -o's extension, else the registry's default."""
    from prefcli import render
    names = render.formats(report)
    return pick_format(fmt, output, names, names[0])


def pick_format(fmt: Optional[str], output: Optional[str], choices: Sequence[str], default: str,
                param: str = "fmt") -> str:
    """The output format: an explicit -f, else -o's extension, else the default.

    Whether -f was given is asked of click (a default value is not a choice the user made); a
    conflict between the two is a usage error (exit 2).
    """
    from prefcli.io.output import FormatConflict, choose_format
    given = fmt
    ctx = click.get_current_context(silent=True)
    if ctx is not None and fmt is not None:
        try:
            from click.core import ParameterSource
            if ctx.get_parameter_source(param) in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
                given = None
        except (ImportError, AttributeError):
            pass
    try:
        return choose_format(output, given, list(choices), fmt if fmt is not None and given is None else default)
    except FormatConflict as exc:
        raise click.UsageError(str(exc)) from None


def print_problems(problems: Iterable[Problem]) -> None:
    for p in problems:
        if p.kind == "internal":
            _INTERNAL_SHOWN[0] = True
        click.echo(p.text(), err=True)


def progress_enabled() -> bool:
    """Progress bars only on a terminal (never in pipes, files or CI logs)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal; a callback
    ``(done, total)`` for the library's batch functions."""

    def __init__(self, label: str, enabled: Optional[bool] = None, quiet: bool = False) -> None:
        self.label = label
        self.enabled = (progress_enabled() if enabled is None else enabled) and not quiet
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 2:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write("\r")         # alone: a terminal's TerminalText lets it through
        sys.stderr.write(f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            for part in ("\r", " " * (len(self.label) + 50), "\r"):
                sys.stderr.write(part)
            sys.stderr.flush()
            self.shown = False


@contextmanager
def progress_bar(label: str, quiet: bool = False) -> Iterator[Progress]:
    """``with progress_bar("settling", quiet) as bar: app_function(..., progress=bar)``; never
    drawn with -q or when stderr is not a terminal."""
    bar = Progress(label, quiet=quiet)
    try:
        yield bar
    finally:
        bar.close()


#: The heading of the examples every command's --help ends with.
EXAMPLES_HEADER = "\b\nExamples:"

#: -q/--quiet means one thing in every command: standard error gets nothing but problems (no
#: progress bar, no notes, no summary line, no report of changes); the result asked for is
#: still written, and the exit status is the same. validate and replay, whose standard output
#: is itself a report of what was fine, leave that out too (see the README's vocabulary).
quiet_option = click.option("-q", "--quiet", is_flag=True,
                            help="print nothing but problems (and the output asked for): no progress "
                                 "bar, notes or summary lines")


def note(text: str, quiet: bool = False) -> None:
    """An informational line on stderr (a note, a summary, what was written): not with -q."""
    if not quiet:
        click.echo(text, err=True)


def decimal_option(value: Optional[str], name: str):
    """--price/--coin as an exact Decimal (shared by settle and merge), a bad one a usage error."""
    if value is None:
        return None
    from prefcli.settle import SettlementError, to_decimal
    try:
        d = to_decimal(value, name)
    except SettlementError as exc:
        message = exc.message[len(name) + 2:] if exc.message.startswith(name + ": ") else exc.message
        raise click.BadParameter(message, param_hint=name) from None
    if name == "--coin" and d == 0:
        raise click.BadParameter("the coin must be positive", param_hint=name)
    return d


def settlement_text(data, fmt: str) -> str:
    """A settlement's totals and payments as a table or CSV (settle --summary and merge)."""
    import csv
    import io
    if fmt == "csv":
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(["kind", "player", "to", "whists", "money"])
        for p in data["players"]:
            out.writerow(["total", p, "", data["net"][p], data["money"][p] if data["money"] else ""])
        for pay in data["payments"]:
            out.writerow(["payment", pay["from"], pay["to"], pay["amount"] if data["unit"] == "whists" else "",
                          pay["amount"] if data["unit"] == "money" else ""])
        return buf.getvalue()
    names = data["players"]
    rows = [["", *names], ["total (whists)", *[str(data["net"][p]) for p in names]]]
    if data["money"]:
        rows.append(["total (money)", *[data["money"][p] for p in names]])
    from prefcli.render.columns import grid
    lines = grid(rows)
    n = len(data["inputs"]) if "inputs" in data else data["totals"]["inputs"]
    lines.append(f"{n} input(s)")
    # the notes a full settle's table shows too (render.settlement.multi_tail_lines): mixed
    # coins, inputs without a price, names that look alike; the table left them out
    lines += [f"note: {text}" for text in data.get("notes", ())]
    lines.append("")
    lines.append("payments on the totals:")
    lines += [f"  {p['from']}  →  {p['to']}  {p['amount']}" for p in data["payments"]] or ["  nobody owes anything"]
    return "\n".join(lines) + "\n"
