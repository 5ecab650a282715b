"""`prefcli replay`: options → :func:`prefcli.app.replay.replay` → a renderer."""
from __future__ import annotations

from typing import Optional, Sequence

import click

from prefcli.cli.util import (Count, CheckFailed, EXAMPLES_HEADER, expand_inputs, format_option, output_option,
                              parse_sets, print_problems, progress_bar, quiet_option, report_format,
                              rules_options, write_text)


@click.command("replay", epilog=EXAMPLES_HEADER + """
  prefcli replay examples/full-deals-sochi.yaml --deal 1
  prefcli replay --check games/ && echo "every card is legal"
  prefcli replay game.yaml -f json | jq '.deals[0].tricks'
""")
@click.argument("files", nargs=-1, required=True)
@click.option("--deal", "deal_no", type=Count(min=1), default=None, metavar="N",
              help="replay only deal N (1-based)")
@format_option("replay")
@click.option("--check", is_flag=True, help="print nothing but problems; exit 1 if any deal is illegal")
@quiet_option
@rules_options
@output_option
def command(files: Sequence[str], deal_no: Optional[int], fmt: str, check: bool, quiet: bool,
            variant: Optional[str], sets: Sequence[str], output: str) -> None:
    """Replay the deals of FILE… (files, folders, - for stdin): hands, auction, talon, discard,
    contract, whists, then trick by trick, and check every step under the record's preset.

    -q is --check: nothing but the problems.
    """
    from prefcli import render
    from prefcli.app.replay import replay
    from prefcli.io.output import check_not_input

    check = check or quiet
    inputs = expand_inputs(files)
    check_not_input(output, inputs)
    fmt = report_format("replay", fmt, output)
    with progress_bar("replaying", quiet) as bar:
        report = replay(inputs, deal_no, variant, parse_sets(sets), check, progress=bar)
    print_problems(report.problems)
    if not check:
        text = render.render("replay", fmt, report)
        if text or output != "-":
            write_text(output, text, inputs)
    if not report.ok:
        raise CheckFailed("replay found problems")
