"""`prefcli score FILE`: options → :func:`prefcli.app.score.score_source` → a renderer."""
from __future__ import annotations

from typing import Optional, Sequence

import click

from prefcli.cli.util import (Count, CheckFailed, EXAMPLES_HEADER, format_option, output_option, parse_sets,
                              print_problems, quiet_option, report_format, rules_options, write_text)


@click.command("score", epilog=EXAMPLES_HEADER + """
  prefcli score examples/sochi-3p.yaml
  prefcli score examples/sochi-3p.yaml --after 6 --explain
  prefcli score game.yaml -f json | prefcli settle -
  prefcli score game.yaml --variant leningrad -o sheet.csv
""")
@click.argument("file", metavar="FILE")
@rules_options
@format_option("sheet")
@click.option("--explain", is_flag=True,
              help="list every entry of the sheet with its deal and rule (json/yaml: status.entries)")
@click.option("--after", type=Count(min=0), default=None, metavar="N",
              help="the sheet after deal N")
@output_option
@quiet_option
def command(file: str, variant: Optional[str], sets: Sequence[str], fmt: str, explain: bool,
            after: Optional[int], output: str, quiet: bool) -> None:
    """Compute the score sheet of a game record (FILE, or - for stdin).

    The json and yaml forms are pref-sheet/1 documents that `prefcli settle` reads.
    --variant rescores the record under another preset; --set NAME=VALUE overrides one option
    (see `prefcli variants NAME`). Full deals without `tricks` are replayed to count them. Use
    `prefcli validate` for every check of a record; score refuses what it cannot score.
    """
    import gc

    # A record builds hundreds of thousands of small objects and almost no reference cycles:
    # the cyclic collector's passes cost about twice the parse itself on a 10,000-deal record.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        _run(file, variant, sets, fmt, explain, after, output)
    finally:
        if gc_was_enabled:
            gc.enable()


def _run(file: str, variant: Optional[str], sets: Sequence[str], fmt: str, explain: bool,
         after: Optional[int], output: str) -> None:
    from prefcli import render
    from prefcli.app.score import score_source
    from prefcli.io.output import check_not_input

    check_not_input(output, [file])
    fmt = report_format("sheet", fmt, output)
    # the json and yaml sheet after the last deal is the ledger's sums, and the table's rows its
    # running totals: its entries are kept only for what shows them (--explain, csv) or cuts
    # them (--after)
    kind = render.canonical("sheet", fmt)
    table = kind == "table"
    scored = score_source(file, variant, parse_sets(sets),
                          entries=not (kind in ("json", "yaml", "table") and not explain and after is None),
                          running=table)
    if not scored.ok:
        print_problems(scored.problems)
        raise CheckFailed("cannot score")
    if after is not None and after > scored.deals:
        raise click.UsageError(f"--after {after}: the record has {scored.deals} deal(s)")
    if table:           # written as its rows are made (prefcli.render.sheet.table_chunks)
        from prefcli.render.sheet import sheet_table_chunks
        write_text(output, sheet_table_chunks(scored, after, explain), [file])
        return
    write_text(output, render.render("sheet", fmt, scored, after=after, explain=explain), [file])
