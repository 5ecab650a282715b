"""`prefcli analyze`: options → :func:`prefcli.app.analyze.analyze_inputs` → a renderer
(:mod:`prefcli.render.analysis`)."""
from __future__ import annotations

from typing import Optional, Sequence

import click

from prefcli.cli.completion import complete_executor
from prefcli.cli.util import (Count, CheckFailed, EXAMPLES_HEADER, expand_inputs, format_option, output_option,
                              parse_sets, print_problems, progress_bar, report_format, rules_options,
                              quiet_option, write_text)


@click.command("analyze", epilog=EXAMPLES_HEADER + """
  prefcli analyze examples/full-deals-sochi.yaml
  prefcli analyze game.yaml --deal 3 --table --discard best
  prefcli analyze season/ --jobs 2 -f json | jq '.deals[].mistakes[].text'
""")
@click.argument("files", nargs=-1, required=True, metavar="FILE... | DIR | -")
@click.option("--deal", "deal_no", type=Count(min=1), default=None, metavar="N",
              help="analyse only deal N (1-based)")
@click.option("--table", "table", is_flag=True,
              help="also the declarer's tricks in every strain and the misère (his hand after the discard)")
@click.option("--discard", "discard", type=click.Choice(["played", "best"]), default="played", show_default=True,
              help="best: also find the discard that does best in the played contract")
@click.option("-j", "--jobs", type=Count(1, 256), default=1, show_default=True,
              help="analyse deals in this many processes (same results as --jobs 1)")
@click.option("--executor", metavar="local|dask[:ADDRESS]", default=None, shell_complete=complete_executor,
              help='where to solve: local processes (--jobs), or a Dask cluster (pip install '
                   '"prefcli[dask]"); same results')
@format_option("analysis", help="table: the report for people; json/yaml: one pref-analysis/1 document")
@output_option
@rules_options
@quiet_option
def command(files: Sequence[str], deal_no: Optional[int], table: bool, discard: str, jobs: int,
            executor: Optional[str], fmt: str, output: str, variant: Optional[str], sets: Sequence[str],
            quiet: bool) -> None:
    """Double-dummy analysis of the full deals of FILE… (files, folders, - for stdin): what
    perfect play gives from the opening lead and after every recorded trick, and each card that
    cost a trick with the card that would have kept the result.

    Contracts count the declarer's tricks; a misère the declarer's, the catchers playing to
    catch; an all-pass gives each player's bound (the most he must take when the other two play
    against him). Summary deals are refused (exit 1) with what is needed.
    """
    from prefcli import render
    from prefcli.app.analyze import AnalysisOptions, analyze_inputs

    fmt = report_format("analysis", fmt, output)
    sources = expand_inputs(files)
    from prefcli.io.output import check_not_input
    check_not_input(output, sources)        # refused at once, before a long analysis
    options = AnalysisOptions(table=table, best_discard=discard == "best")
    ex = None
    if executor is not None:
        from prefcli.app.executors import ExecutorError, make_executor
        try:
            ex = make_executor(executor, jobs)
        except ExecutorError as exc:
            raise click.UsageError(exc.message) from None
    try:
        with progress_bar("analysing", quiet) as bar:
            report = analyze_inputs(sources, options, variant, parse_sets(sets), deal_no, jobs, ex, bar)
    finally:
        if ex is not None:
            ex.close()
    print_problems(report.problems)
    if report.items or fmt != "table":
        write_text(output, render.render("analysis", fmt, report), sources)
    if report.problems:
        raise CheckFailed("analyze refused some deals")
