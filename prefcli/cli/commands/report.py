"""`prefcli report FILE -o game.html`: one self-contained HTML page of a game or a tournament."""
from __future__ import annotations

from typing import Optional, Sequence

import click

from prefcli.cli.util import EXAMPLES_HEADER, format_option, parse_sets, quiet_option, rules_options


@click.command("report", epilog=EXAMPLES_HEADER + """
  prefcli report examples/lithuanian-4p.yaml -o game.html
  prefcli report examples/tournament/ -o cup.html
""")
@click.argument("file", metavar="FILE")
@rules_options
@click.option("--style", type=click.Choice(["paper", "plain"]), default="paper", show_default=True,
              help="the sheet picture's style (see prefcli draw)")
@format_option("report")
@click.option("-o", "--output", default="-", metavar="PATH", help="write the page here instead of stdout")
@click.option("--analyze", "analyze", is_flag=True,
              help="add the double-dummy analysis of every full deal (as prefcli analyze)")
@quiet_option
def command(file: str, variant: Optional[str], sets: Sequence[str], style: str, fmt: Optional[str],
            output: str, analyze: bool, quiet: bool) -> None:
    """Write one HTML page about FILE: a game record, a score sheet, a pref-tournament/1 file
    with its rounds (inputs:), or a folder of rounds as prefcli settle reads one.

    The page has the players, the preset and every option that differs from it; the sheet as
    on paper with a slider to step deal by deal; every deal with the entries --explain gives; the
    settlement and payments; for full deals a replay (hands, talon, auction, discard, trick by
    trick), and with --analyze their double-dummy analysis. A tournament adds the standings and the results per round. The page is
    self-contained: it loads nothing and works offline from a file.
    """
    from prefcli import render
    from prefcli.app.report import build_report, report_inputs
    from prefcli.cli.util import report_format, write_text
    from prefcli.io.output import check_not_input

    check_not_input(output, [file])
    fmt = report_format("report", fmt, output)
    report = build_report(file, variant, parse_sets(sets))
    if analyze:
        from prefcli.app.analyze import analyze_report
        analyze_report(report)
    write_text(output, render.render("report", fmt, report, style=style), report_inputs(file, report))
