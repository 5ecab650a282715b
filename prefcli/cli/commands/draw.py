"""`prefcli draw FILE`: the score sheet drawn as on paper, as SVG (the pipeline: prefcli.render.draw)."""
from __future__ import annotations

from typing import Optional, Sequence

import click

from prefcli.cli.util import Count, EXAMPLES_HEADER, format_option, parse_sets, quiet_option, rules_options


@click.command("draw", epilog=EXAMPLES_HEADER + """
  prefcli draw examples/sochi-3p.yaml -o sheet.svg
  prefcli draw examples/sochi-3p.yaml --after 12 -o after12.svg
""")
@click.argument("file", metavar="FILE")
@rules_options
@click.option("--after", type=Count(min=0), default=None, metavar="N",
              help="the sheet after deal N (0: before the first deal)")
@click.option("--style", type=click.Choice(["paper", "plain"]), default="paper", show_default=True,
              help="paper: the paper sheet's colours and hand; plain: black on white with area labels")
@format_option("draw")
@click.option("-o", "--output", default="-", metavar="PATH", help="write the SVG here instead of stdout")
@quiet_option
def command(file: str, variant: Optional[str], sets: Sequence[str], after: Optional[int], style: str,
            fmt: Optional[str], output: str, quiet: bool) -> None:
    """Draw the score sheet of FILE (a game record or a score sheet, - for stdin) as SVG.

    The layout is the paper one for the game and table size: the Russian pulka for 3 players
    (three sectors: mountain, pool, whists per opponent, each facing its player) or 4 (a square
    cut by its diagonals); the Lithuanian classical sheet (seed 002: the rhombus with the
    target, tracks, hills of hens, pair columns, eglė strokes); the eglutė-and-kitty sheet (seed
    000: the kitty triangles, kitty points, hens, "won from" triangles, eglutė tables). Every
    cell shows its running totals separated by dots, newest in bold; a closed pool or track is
    marked, and so is the dealer of the next deal.
    """
    from prefcli import render
    from prefcli.render.draw import draw
    from prefcli.cli.util import report_format, write_text
    from prefcli.io.output import check_not_input

    check_not_input(output, [file])
    fmt = report_format("draw", fmt, output)
    result = draw(file, after, variant, parse_sets(sets))
    write_text(output, render.render("draw", fmt, result, style=style), [file])
