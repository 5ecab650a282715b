"""`prefcli settle`: options → :func:`prefcli.app.settle.settle` → a renderer.

The pipeline is :mod:`prefcli.app.settle`, the arithmetic :mod:`prefcli.settle`, the document
:mod:`prefcli.settle.document`, the table and CSV :mod:`prefcli.render.settlement`.
"""
from __future__ import annotations

from typing import Optional, Tuple

import click

from prefcli.cli.completion import complete_executor
from prefcli.cli.util import (Count, CheckFailed, decimal_option, EXAMPLES_HEADER, format_option, output_option, parse_sets,
                              note, print_problems, progress_bar, quiet_option, report_format, rules_options,
                              write_text)


def _number_option(value: Optional[str], name: str):
    if value is None:
        return None
    from prefcli.model.numbers import NumberError, parse_number
    try:
        return parse_number(value)
    except NumberError as exc:
        raise click.BadParameter(exc.message, param_hint=name) from None


@click.command("settle", epilog=EXAMPLES_HEADER + """
  prefcli settle examples/sochi-3p.yaml
  prefcli settle examples/tournament/ -f json | jq .standings
  prefcli score game.yaml -f json | prefcli settle - --price 0.1
  prefcli settle season/ -j 2 -f csv -o season.csv
""")
@click.argument("inputs", nargs=-1, metavar="FILE... | DIR | -")
@click.option("--price", metavar="P", default=None,
              help="money per whist, e.g. 0.1 (overrides the inputs' rules)")
@click.option("--coin", metavar="C", default=None,
              help="smallest coin to round money to, e.g. 0.01 (overrides the inputs' rules)")
@format_option("settlement")
@rules_options
@click.option("-j", "--jobs", type=Count(1, 256), default=1, show_default=True,
              help="settle inputs in this many processes (same results as --jobs 1)")
@click.option("--strict", is_flag=True, help="fail at the first bad input (exit 1, nothing written) instead "
                                             "of leaving it out of the totals")
@click.option("--executor", metavar="local|dask[:ADDRESS]", default=None, shell_complete=complete_executor,
              help='where to settle: local processes (--jobs), or a Dask cluster (pip install '
                   '"prefcli[dask]"; no address: a local cluster of --jobs workers); same results')
@click.option("--summary", "summary_only", is_flag=True,
              help="only the totals and payments, folded as inputs are settled: memory stays flat "
                   "however many inputs (JSON: exact totals that prefcli merge adds up)")
@click.option("--tournament", "tournament_file", metavar="FILE", default=None,
              help="a pref-tournament/1 file: bands, cap and floor for the standings, and the inputs it "
                   "lists (as when the file is given among the inputs)")
@click.option("--band", "bands", multiple=True, metavar="ABOVE:FACTOR",
              help="tournament scoring: a round's whists above ABOVE count × FACTOR (repeatable), "
                   "e.g. --band 50:0.5 --band 100:0.1")
@click.option("--losses", type=click.Choice(["scaled", "full"]), default=None,
              help="tournament scoring: losses are scaled by the bands too, or count in full")
@click.option("--cap", metavar="N", default=None, help="tournament scoring: a round counts at most ±N")
@click.option("--floor", metavar="N", default=None,
              help="tournament scoring: a player whose total falls below N is eliminated")
@click.option("--standings", is_flag=True, help="show the standings (total, games, average) even "
                                                "without bands, cap or floor")
@output_option
@quiet_option
def command(inputs: Tuple[str, ...], price: Optional[str], coin: Optional[str], fmt: str,
            variant: Optional[str], sets: Tuple[str, ...], jobs: int, strict: bool,
            executor: Optional[str], summary_only: bool, tournament_file: Optional[str], bands: Tuple[str, ...], losses: Optional[str],
            cap: Optional[str], floor: Optional[str], standings: bool, output: str, quiet: bool) -> None:
    """Settle score sheets or game records: net whists, money, and who pays whom.

    Records are scored first (under --variant / --set when given). With one input: the pairwise
    matrix, each player's net and money, and the payments. With many (a tournament, a club's
    season; folders are searched): one row per input, the total per player name, and the
    payments on the totals. Money is rounded down to the coin and the missing coins go to the
    largest remainders (ties: seat order), so the amounts always sum to zero.

    Tournament standings (total, games, average) use a pref-tournament/1 file, found among the
    inputs (alone, or in a folder) or given with --tournament, or the --band/--cap/--floor
    options. When the file lists inputs, those are settled: a folder settles what its
    tournament lists.

    \b
      format: pref-tournament/1
      name: Club autumn cup
      bands: [{above: 50, factor: "0.5"}, {above: 100, factor: "0.1"}]
      losses: scaled          # or full: losses are not scaled
      cap: 200                # a round counts at most ±200 (optional)
      floor: -300             # below this total a player is eliminated (optional)
      price: "0.1"            # optional, like --price; also coin
      inputs: [round1.yaml, round2.yaml]   # optional, relative to this file

    One bad input does not stop the batch: it is reported with its file and the exit status
    is 1 at the end (--strict stops at the first).
    """
    from prefcli import render
    from prefcli.app.settle import StandingsRequest, plan_inputs, settle
    from prefcli.io.output import check_not_input
    from prefcli.settle import SettleOptions, SettlementError, parse_band

    options = SettleOptions(variant=variant, sets=tuple(parse_sets(sets)),
                            price=decimal_option(price, "--price"), coin=decimal_option(coin, "--coin"))
    try:
        extra_bands = tuple(parse_band(b) for b in bands)
    except SettlementError as exc:
        raise click.BadParameter(exc.message, param_hint="--band") from None
    request = StandingsRequest(extra_bands, losses, _number_option(cap, "--cap"),
                               _number_option(floor, "--floor"), standings)
    plan = plan_inputs(list(inputs), tournament_file)
    check_not_input(output, plan.read)
    fmt = report_format("settlement", fmt, output)

    if summary_only:
        if request.overrides() or standings or strict:
            raise click.UsageError("--summary gives totals only: no standings (--band, --cap, --floor, "
                                   "--losses, --standings) and no --strict")
        from dataclasses import replace
        t = plan.tournament
        if t is not None:
            options = replace(options, price=options.price if options.price is not None else t.price,
                              coin=options.coin if options.coin is not None else t.coin)
        from prefcli.cli.commands.settle_summary import run_summary
        return run_summary(plan.sources, options, jobs, executor, fmt, output, plan.read, t, quiet)
    from prefcli.cli.commands.settle_stream import can_stream, run_streamed
    if can_stream(plan) and run_streamed(plan, options, request, jobs, strict, executor, fmt, output, quiet):
        return          # every input rendered as it was settled: memory flat in their number
    with progress_bar("settling", quiet) as bar:
        report = settle(list(inputs), options, standings=request, jobs=jobs, strict=strict,
                        progress=bar, executor=executor, plan=plan)
    print_problems(report.problems)
    if report.summary is None:
        raise CheckFailed("no input could be settled")
    if report.stopped:
        raise CheckFailed("stopped at the first bad input (--strict)")
    write_text(output, render.render("settlement", fmt, report), plan.read)
    if report.bad:
        note(f"prefcli: {len(report.bad)} of {len(report.results)} inputs could not be settled", quiet)
        raise CheckFailed("bad inputs")
