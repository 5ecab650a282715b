"""`prefcli validate`: options → :func:`prefcli.app.check.check` → a renderer."""
from __future__ import annotations

from typing import List

import click

from prefcli.cli.util import (CheckFailed, EXAMPLES_HEADER, format_option, output_option,
                              print_problems, progress_bar, quiet_option, report_format, write_text)


@click.command("validate", epilog=EXAMPLES_HEADER + """
  prefcli validate examples/
  prefcli validate game.yaml -f json | jq .valid
  cat game.yaml | prefcli validate -
""")
@click.argument("inputs", nargs=-1, required=True, metavar="FILE... | DIR | -")
@format_option("check", help="table: ok lines on stdout, problems as file:line:col: path: message "
                             "on stderr; json/yaml: one pref-validation/1 report on stdout")
@quiet_option
@output_option
def command(inputs: List[str], fmt: str, quiet: bool, output: str) -> None:
    """Check records, sheets and tournament files: the JSON Schema, then the rules of the game.

    Every problem of a file is reported, each with its place. Exit status 0 when everything is
    valid, 1 when something is not, 2 for a usage error.
    """
    from prefcli import render
    from prefcli.app.check import check
    from prefcli.render.check import summary_line

    fmt = report_format("check", fmt, output)
    from prefcli.io.output import check_not_input
    check_not_input(output, inputs)
    with progress_bar("checking", quiet) as bar:
        report = check(list(inputs), progress=bar)
    if fmt == "table":
        print_problems(report.problems)
        write_text(output, render.render("check", fmt, report, quiet=quiet), inputs)
        if not quiet and len(report.files) > 1 and not report.valid:
            click.echo(summary_line(report), err=True)
    else:
        write_text(output, render.render("check", fmt, report), inputs)
    if not report.valid:
        raise CheckFailed("invalid input")
