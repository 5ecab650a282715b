"""`prefcli stats` (and `prefcli rating`): a season's statistics and ratings.

Only option parsing lives here: the pipeline is :mod:`prefcli.app.stats`, the arithmetic
:mod:`prefcli.settle.stats` and :mod:`prefcli.settle.rating`, the output :mod:`prefcli.render.stats`.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import click

from prefcli.cli.completion import complete_executor
from prefcli.cli.util import (Count, Real, EXAMPLES_HEADER, CheckFailed, note, output_option, parse_sets,
                              pick_format, print_problems, progress_bar, quiet_option, rules_options, write_text)
from prefcli.io.output import check_not_input
from prefcli.render import choices


def executor_option(func: Callable) -> Callable:
    return click.option("--executor", metavar="local|dask[:ADDRESS]", default=None, shell_complete=complete_executor,
                        help='where to run the batch: local processes (--jobs), or a Dask cluster '
                             '(pip install "prefcli[dask]"; no address: a local cluster of --jobs '
                             'workers); the results are the same')(func)


def rating_options(func: Callable) -> Callable:
    for opt in reversed([
        click.option("--place-points", "place_points", multiple=True, metavar="N:P1,P2,…",
                     help="places rating: the points of each place at a table of N players, e.g. "
                          "4:3,2,1,0 (repeatable; default one point per player beaten)"),
        click.option("--weight", "weights", multiple=True, metavar="VARIANT=W",
                     help="whists rating: a variant's games count × W, e.g. --weight rostov=4/3 (repeatable)"),
        click.option("--elo-k", type=Real(), default=None, help="Elo: the K-factor (default 32)"),
        click.option("--elo-start", type=Real(), default=None, help="Elo: everyone's first rating (default 1500)"),
        click.option("--tournament", "tournament_file", metavar="FILE", default=None,
                     help="a pref-tournament/1 file: its place_points and weights"),
    ]):
        func = opt(func)
    return func


def _fraction(text: str, name: str):
    """A place point or weight: exact and bounded, as every number prefcli reads (Fraction()
    alone took minutes over `1e999999999`)."""
    from prefcli.model.numbers import NumberError, parse_number
    try:
        return parse_number(text)
    except NumberError as exc:
        raise click.BadParameter(exc.message, param_hint=name) from None


def rating_from_options(method: str, place_points: Tuple[str, ...], weights: Tuple[str, ...],
                        elo_k: Optional[float], elo_start: Optional[float], tournament: Any):
    from prefcli.settle.rating import ELO_K, ELO_START, RatingOptions
    table: Dict[int, Tuple[Any, ...]] = dict(getattr(tournament, "place_points", None) or {})
    for text in place_points:
        n, sep, rest = text.partition(":")
        if not sep or not (n.strip().isascii() and n.strip().isdigit()) or len(n.strip()) > 3:
            raise click.BadParameter(f"expected N:P1,P2,… (e.g. 4:3,2,1,0), got '{text}'", param_hint="--place-points")
        pts = tuple(_fraction(x, "--place-points") for x in rest.split(","))
        if len(pts) != int(n):
            raise click.BadParameter(f"a table of {n} players needs {n} points, got {len(pts)}",
                                     param_hint="--place-points")
        table[int(n)] = pts
    w: Dict[str, Any] = dict(getattr(tournament, "weights", None) or {})
    for text in weights:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"expected VARIANT=W, got '{text}'", param_hint="--weight")
        w[name.strip()] = _fraction(value, "--weight")
    import math
    if elo_k is not None and not (math.isfinite(elo_k) and 0 < elo_k <= 1000):
        raise click.BadParameter("the K-factor must be a number in (0, 1000]", param_hint="--elo-k")
    if elo_start is not None and not (math.isfinite(elo_start) and abs(elo_start) <= 100000):
        raise click.BadParameter("the start rating must be a number within ±100000", param_hint="--elo-start")
    return RatingOptions(method, table or None, w, ELO_START if elo_start is None else elo_start,
                         ELO_K if elo_k is None else elo_k)


def _same_destination(a: str, b: Optional[str]) -> bool:
    """Whether two outputs of one run land in the same place (- is standard output)."""
    import os
    b = b or "-"
    if a == "-" or b == "-":
        return a == b
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def run(inputs: Tuple[str, ...], by: str, fmt: str, rating: Optional[str], svg_file: Optional[str],
        variant: Optional[str], sets: Tuple[str, ...], jobs: int, executor: Optional[str], output: str,
        place_points: Tuple[str, ...], weights: Tuple[str, ...], elo_k: Optional[float],
        elo_start: Optional[float], tournament_file: Optional[str], rating_only: bool = False,
        quiet: bool = False) -> None:
    from prefcli.app.executors import ExecutorError, make_executor
    from prefcli.app.stats import StatsOptions, run_stats
    from prefcli import render

    from prefcli.app.settle import plan_inputs
    # a tournament file's inputs: honoured wherever it is given, as settle reads them
    plan = plan_inputs(list(inputs), tournament_file)
    sources, tournament, read = plan.sources, plan.tournament, plan.read
    check_not_input(output, read)
    if svg_file is not None:
        check_not_input(svg_file, read)
        if _same_destination(svg_file, output):
            raise click.UsageError(f"--svg {svg_file} and -o {output or '-'} name the same destination: "
                                   "one would write over the other")
    from prefcli.render import formats
    fmt = pick_format(fmt, output, formats("rating" if rating_only else "stats"), "table")
    # the rating options are checked even when no rating is asked for: a bad value is a usage
    # error whether or not this run uses it (stats --weight sochi=nan exited 0)
    checked = rating_from_options(rating or "whists", place_points, weights, elo_k, elo_start, tournament)
    ropts = checked if rating else None
    # the time line only where something shows or keeps it: ratings, the picture, the documents
    timeline = ropts is not None or svg_file is not None or fmt in ("json", "yaml", "svg")
    options = StatsOptions(by, variant, tuple(parse_sets(sets)), timeline)
    try:
        ex = make_executor(executor, jobs)
    except ExecutorError as exc:
        raise click.UsageError(exc.message) from None
    with ex, progress_bar("reading", quiet) as bar:
        result = run_stats(sources, options, ex, progress=bar)
    print_problems(result.problems)
    for text in result.notes:
        note(f"prefcli: note: {text}", quiet)
    stats = result.stats
    if stats.inputs == 0:
        if result.failed:
            raise CheckFailed("no input could be read")
        raise click.UsageError("no records or sheets among the inputs")
    if ropts is not None:
        try:
            result.rate(ropts)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    if svg_file is not None:
        write_text(svg_file, render.render("stats", "svg", result), read)
    text = render.render("rating" if rating_only else "stats", fmt, result)
    write_text(output, text, read)
    if result.failed:
        note(f"prefcli: {result.failed} of {result.failed + stats.inputs} inputs could not be read", quiet)
        raise CheckFailed("bad inputs")


def common_options(func: Callable) -> Callable:
    func = quiet_option(func)
    func = output_option(func)
    func = executor_option(func)
    func = click.option("-j", "--jobs", type=Count(1, 256), default=1, show_default=True,
                        help="read inputs in this many processes (same results as --jobs 1)")(func)
    func = rules_options(func)
    func = rating_options(func)
    return func


@click.command("stats", epilog=EXAMPLES_HEADER + """
  prefcli stats examples/season-2019/
  prefcli stats examples/season-2019/ --rating elo
  prefcli stats season/ -f json -o season.json
""")
@click.argument("inputs", nargs=-1, metavar="FILE... | DIR | -")
@click.option("--by", type=click.Choice(["player", "event", "month", "variant"]), default="player",
              show_default=True, help="group the games by event, month (meta.date) or variant")
@click.option("-f", "--format", "fmt", type=click.Choice(choices("stats")), default=None,
              help="output format: table (default), json, yaml, csv, svg (the cumulative result picture)")
@click.option("--rating", type=click.Choice(["whists", "places", "elo"]), default=None,
              help="add a rating table: cumulative whists, place points or pairwise Elo")
@click.option("--svg", "svg_file", metavar="FILE", default=None,
              help="also write each player's cumulative result over the season as SVG")
@common_options
def command(inputs: Tuple[str, ...], by: str, fmt: str, rating: Optional[str], svg_file: Optional[str],
            variant: Optional[str], sets: Tuple[str, ...], jobs: int, executor: Optional[str], output: str,
            place_points: Tuple[str, ...], weights: Tuple[str, ...], elo_k: Optional[float],
            elo_start: Optional[float], tournament_file: Optional[str], quiet: bool) -> None:
    """Statistics per player over every input: games, deals, contracts declared (by level and
    strain) and made, misère made and failed, whists won and lost, all-pass tricks, the result
    (net whists) and its average per game, and head to head.

    Records are scored and settled first (under --variant / --set when given); sheets give the
    result and the whists only. `-f json` writes a pref-stats/1 document, which `prefcli merge`
    adds to other shards' documents with the same totals as one run.
    """
    run(inputs, by, fmt, rating, svg_file, variant, sets, jobs, executor, output,
        place_points, weights, elo_k, elo_start, tournament_file, quiet=quiet)
