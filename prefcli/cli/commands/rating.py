"""`prefcli rating`: the season's rating table (the same as `prefcli stats --rating METHOD`)."""
from __future__ import annotations

from typing import Optional, Tuple

import click

from prefcli.cli.util import EXAMPLES_HEADER

from prefcli.cli.commands.stats import common_options, run
from prefcli.render import choices


@click.command("rating", epilog=EXAMPLES_HEADER + """
  prefcli rating examples/season-2019/
  prefcli rating examples/season-2019/ -m places
""")
@click.argument("inputs", nargs=-1, metavar="FILE... | DIR | -")
@click.option("-m", "--method", type=click.Choice(["whists", "places", "elo"]), default="elo", show_default=True,
              help="cumulative whists, place points, or pairwise Elo (games in date order)")
@click.option("-f", "--format", "fmt", type=click.Choice(choices("rating")), default=None,
              help="output format: table (default), json, yaml, csv")
@common_options
def command(inputs: Tuple[str, ...], method: str, fmt: str, variant: Optional[str], sets: Tuple[str, ...],
            jobs: int, executor: Optional[str], output: str, place_points: Tuple[str, ...],
            weights: Tuple[str, ...], elo_k: Optional[float], elo_start: Optional[float],
            tournament_file: Optional[str], quiet: bool) -> None:
    """Rate players over every input: `whists` (the sum of net whists, × --weight per variant),
    `places` (place points per game from a table: --place-points or the tournament file's
    place_points; ties share) or `elo` (pairwise Elo: each game is a match between every two
    players at the table, won by the one with more net whists; start 1500 and K 32 unless
    --elo-start / --elo-k; games in date order, then event and file name).
    """
    run(inputs, "player", fmt, method, None, variant, sets, jobs, executor, output,
        place_points, weights, elo_k, elo_start, tournament_file, rating_only=True, quiet=quiet)
