"""`prefcli draw FILE`: the score sheet drawn as on paper, as SVG."""
from __future__ import annotations

from typing import Optional, Sequence

import click

from prefcli.cli.util import parse_sets, rules_options


@click.command("draw")
@click.argument("file", metavar="FILE")
@rules_options
@click.option("--after", type=click.IntRange(min=0), default=None, metavar="N",
              help="the sheet after deal N (0: before the first deal)")
@click.option("--style", type=click.Choice(["paper", "plain"]), default="paper", show_default=True,
              help="paper: the paper sheet's colours and hand; plain: black on white with area labels")
@click.option("-o", "--output", default="-", metavar="PATH", help="write the SVG here instead of stdout")
def command(file: str, variant: Optional[str], sets: Sequence[str], after: Optional[int], style: str,
            output: str) -> None:
    """Draw the score sheet of FILE (a game record or a score sheet, - for stdin) as SVG.

    The layout is the paper one for the game and table size: the Russian pulka for 3 players
    (three sectors: mountain, pool, whists per opponent, each facing its player) or 4 (a square
    cut by its diagonals); the Lithuanian classical sheet (seed 002: the rhombus with the
    target, tracks, hills of hens, pair columns, eglė strokes); the eglutė-and-kitty sheet (seed
    000: the kitty triangles, kitty points, hens, "won from" triangles, eglutė tables). Every
    cell shows its running totals separated by dots, newest in bold; a closed pool or track is
    marked, and so is the dealer of the next deal.
    """
    from prefcli.app.draw import AfterError, check_after, load_game
    from prefcli.cli.util import write_text
    from prefcli.model.diagnostics import InputError
    from prefcli.render import svg

    loaded = load_game(file, variant, parse_sets(sets))
    try:
        check_after(loaded, after)
    except AfterError as exc:
        raise click.UsageError(exc.message) from None
    try:
        text = svg.render(loaded.source, after, style)
    except svg.DrawError as exc:
        raise InputError([loaded.doc.problem(("players",), exc.message)]) from None
    write_text(output, text)
