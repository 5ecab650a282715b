"""Small pieces every command shares: options, input expansion, output, errors.

Commands let library errors (:class:`~prefcli.model.diagnostics.PrefcliError`, the one base of
them all) and :class:`click.UsageError` through; ``prefcli.cli.main`` turns them into messages on
stderr and the documented exit codes, by type, so no command prints a traceback.
"""
from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

import click

from prefcli.model.diagnostics import Problem

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
INPUT_SUFFIXES = (".yaml", ".yml", ".json")


class CheckFailed(Exception):
    """The command has reported problems itself; exit with status 1."""


def fail(message: str) -> "None":
    click.echo(f"prefcli: {message}", err=True)
    raise CheckFailed(message)


def format_option(*choices: str, default: str = "table") -> Callable:
    return click.option("-f", "--format", "fmt", type=click.Choice(list(choices)), default=default,
                        show_default=True, help="output format")


def rules_options(func: Callable) -> Callable:
    func = click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                        help="override a rule option, e.g. --set allpass.progression=[1,2,4] (repeatable)")(func)
    func = click.option("--variant", metavar="NAME", default=None,
                        help="score under this preset instead of the record's own (see prefcli variants)")(func)
    return func


def parse_sets(sets: Iterable[str]) -> List[Tuple[str, Any]]:
    """`NAME=VALUE` pairs; values are read like YAML flow values ([1,2,4], yes, 0.5)."""
    from prefcli.rules.presets import parse_set
    out = []
    for text in sets:
        name, raw = parse_set(text)
        out.append((name, _flow_value(raw)))
    return out


def _flow_value(raw: str) -> Any:
    if raw.startswith("[") and raw.endswith("]"):
        return [x.strip() for x in raw[1:-1].split(",") if x.strip()]
    return raw


def expand_inputs(paths: Sequence[str]) -> List[str]:
    """Files as given; folders → their *.yaml, *.yml, *.json files (recursively, sorted)."""
    out: List[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        path = Path(p)
        if path.is_dir():
            found = sorted(str(f) for f in path.rglob("*") if f.is_file() and f.suffix.lower() in INPUT_SUFFIXES)
            if not found:
                raise click.UsageError(f"{p}: no .yaml, .yml or .json files in this folder")
            out.extend(found)
        else:
            out.append(p)
    return out


def plain(value: Any) -> Any:
    """Data with Fractions made printable (int, or "12.5" / "40/3")."""
    from decimal import Decimal

    from prefcli.model.ledger import format_amount

    def conv(value: Any) -> Any:  # imports hoisted out of the walk: a big batch has 10^5 leaves
        t = type(value)
        if t is str or t is int or t is bool or value is None:
            return value
        if isinstance(value, Fraction):
            return format_amount(value)
        if isinstance(value, dict):
            return {str(k): conv(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [conv(v) for v in value]
        if isinstance(value, Decimal):
            return str(value)
        return value

    return conv(value)


def dump(data: Any, fmt: str) -> str:
    """JSON or YAML text of plain data (block style YAML, keys in the given order)."""
    data = plain(data)
    if fmt == "json":
        import json
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "yaml":
        import yaml
        dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
        return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=False)
    raise ValueError(f"unknown format {fmt}")


def write_text(dest: Optional[str], text: str, inputs: Iterable[str] = ()) -> None:
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
        click.echo(p.text(), err=True)


def progress_enabled() -> bool:
    """Progress bars only on a terminal (never in pipes, files or CI logs)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
