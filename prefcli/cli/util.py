"""Small pieces every command shares: options, input expansion, output, errors.

Commands let library errors (:class:`~prefcli.model.diagnostics.PrefcliError`, the one base of
them all) and :class:`click.UsageError` through; ``prefcli.cli.main`` turns them into messages on
stderr and the documented exit codes, by type, so no command prints a traceback.
"""
from __future__ import annotations

import os
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable, List, Sequence, Tuple

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


def write_text(dest: str, text: str) -> None:
    """Write to stdout (`-`) or atomically to a file (temporary file + rename)."""
    if dest == "-" or dest is None:
        click.echo(text, nl=False)
        return
    target = Path(dest)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(directory))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            try:
                os.chmod(tmp, target.stat().st_mode & 0o777)
            except OSError:
                pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def print_problems(problems: Iterable[Problem]) -> None:
    for p in problems:
        click.echo(p.text(), err=True)


def progress_enabled() -> bool:
    """Progress bars only on a terminal (never in pipes, files or CI logs)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
