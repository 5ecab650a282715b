"""`prefcli settle`: who pays whom, for one game or a whole tournament.

Only option parsing and rendering live here; the arithmetic is :mod:`prefcli.settle`.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

import click

from prefcli.model.ledger import format_amount
from prefcli.cli.util import (CheckFailed, dump, expand_inputs, format_option, output_option, parse_sets,
                       pick_format, print_problems, progress_enabled, rules_options, write_text)


def _decimal_option(value: Optional[str], name: str):
    if value is None:
        return None
    from prefcli.settle import SettlementError, to_decimal
    try:
        d = to_decimal(value, name)
    except SettlementError as exc:
        raise click.BadParameter(exc.message, param_hint=name) from None
    if name == "--coin" and d == 0:
        raise click.BadParameter("the coin must be positive", param_hint=name)
    return d


def _number_option(value: Optional[str], name: str):
    if value is None:
        return None
    from fractions import Fraction
    try:
        return Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"'{value}' is not a number", param_hint=name) from None


class _Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 2:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\rsettling [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


@click.command("settle")
@click.argument("inputs", nargs=-1, metavar="FILE... | DIR | -")
@click.option("--price", metavar="P", default=None,
              help="money per whist, e.g. 0.1 (overrides the inputs' rules)")
@click.option("--coin", metavar="C", default=None,
              help="smallest coin to round money to, e.g. 0.01 (overrides the inputs' rules)")
@format_option("table", "json", "yaml", "csv")
@rules_options
@click.option("-j", "--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="settle inputs in this many processes (same results as --jobs 1)")
@click.option("--strict", is_flag=True, help="stop at the first bad input")
@click.option("--executor", metavar="local|dask[:ADDRESS]", default=None,
              help='where to settle: local processes (--jobs), or a Dask cluster (pip install '
                   '"prefcli[dask]"; no address: a local cluster of --jobs workers); same results')
@click.option("--summary", "summary_only", is_flag=True,
              help="only the totals and payments, folded as inputs are settled: memory stays flat "
                   "however many inputs (JSON: exact totals that prefcli merge adds up)")
@click.option("--tournament", "tournament_file", metavar="FILE", default=None,
              help="a pref-tournament/1 file: bands, cap and floor for the standings (and inputs)")
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
def command(inputs: Tuple[str, ...], price: Optional[str], coin: Optional[str], fmt: str,
            variant: Optional[str], sets: Tuple[str, ...], jobs: int, strict: bool,
            executor: Optional[str], summary_only: bool, tournament_file: Optional[str], bands: Tuple[str, ...], losses: Optional[str],
            cap: Optional[str], floor: Optional[str], standings: bool, output: str) -> None:
    """Settle score sheets or game records: net whists, money, and who pays whom.

    Records are scored first (under --variant / --set when given). With one input: the pairwise
    matrix, each player's net and money, and the payments. With many (a tournament, a club's
    season; folders are searched): one row per input, the total per player name, and the
    payments on the totals. Money is rounded down to the coin and the missing coins go to the
    largest remainders (ties: seat order), so the amounts always sum to zero.

    Tournament standings (total, games, average) use a pref-tournament/1 file, found among the
    inputs or given with --tournament, or the --band/--cap/--floor options:

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
    from dataclasses import replace

    from prefcli.io.output import check_not_input
    from prefcli.settle import SettleOptions, SettlementError, Tournament, parse_band, settle_many, summarize

    options = SettleOptions(variant=variant, sets=tuple(parse_sets(sets)),
                            price=_decimal_option(price, "--price"), coin=_decimal_option(coin, "--coin"))
    tournament: Optional[Tournament] = None
    if tournament_file is not None:
        tournament = _load_tournament(tournament_file)
    if not inputs and tournament is not None and tournament.inputs:
        inputs = tournament.inputs
    if not inputs:
        raise click.UsageError("give one or more files, folders, or - for stdin")
    sources = expand_inputs(list(inputs))
    if tournament_file is not None:
        import os
        sources = [s for s in sources if s == "-" or not os.path.exists(s)
                   or not os.path.samefile(s, tournament_file)]
    read = list(sources) + ([tournament_file] if tournament_file is not None else [])
    check_not_input(output, read)
    fmt = pick_format(fmt, output, ("table", "json", "yaml", "csv"), "table")
    if tournament is not None and options.price is None and tournament.price is not None:
        options = replace(options, price=tournament.price)
    if tournament is not None and options.coin is None and tournament.coin is not None:
        options = replace(options, coin=tournament.coin)
    try:
        extra_bands = tuple(parse_band(b) for b in bands)
    except SettlementError as exc:
        raise click.BadParameter(exc.message, param_hint="--band") from None
    overrides: Dict[str, Any] = {}
    if extra_bands:
        overrides["bands"] = extra_bands
    if losses is not None:
        overrides["losses"] = losses
    if cap is not None:
        overrides["cap"] = abs(_number_option(cap, "--cap"))
    if floor is not None:
        overrides["floor"] = _number_option(floor, "--floor")

    if summary_only:
        if overrides or standings or strict:
            raise click.UsageError("--summary gives totals only: no standings (--band, --cap, --floor, "
                                   "--losses, --standings) and no --strict")
        from prefcli.cli.commands.settle_summary import run_summary
        return run_summary(sources, options, jobs, executor, fmt, output, read, tournament)
    bar = _Progress(progress_enabled())
    try:
        if executor is not None:
            from prefcli.cli.commands.settle_summary import collect
            results = collect(sources, options, jobs, executor, strict, bar)
        else:
            results = settle_many(sources, options, jobs=jobs, strict=strict, progress=bar)
    finally:
        bar.close()

    found = [r.tournament for r in results if r.tournament is not None]
    results = [r for r in results if r.kind != "tournament"]
    if tournament is None and found:
        if len(found) > 1:
            raise click.UsageError("more than one tournament file among the inputs; choose one with --tournament")
        tournament = found[0]
        # its price and coin apply where the command line gave none
        price_ = tournament.price if options.price is None else None
        coin_ = tournament.coin if options.coin is None else None
        if price_ is not None or coin_ is not None:
            from prefcli.settle import reprice
            results = [reprice(r, price_, coin_) for r in results]
            options = replace(options, price=options.price if options.price is not None else price_,
                              coin=options.coin if options.coin is not None else coin_)
    if overrides or standings:
        tournament = replace(tournament or Tournament(), **overrides)
    bad = [r for r in results if r.failed]
    good = [r for r in results if r.ok]
    for r in bad:
        print_problems(r.problems)
    if not good:
        if bad:
            raise CheckFailed("no input could be settled")
        raise click.UsageError("no records or sheets among the inputs")
    if strict and bad:
        raise CheckFailed("stopped at the first bad input (--strict)")
    summary = summarize(good, tournament if tournament is not None and (tournament.active or standings) else None,
                        coin=options.coin)
    if standings and summary.standings is None:
        from prefcli.settle import standings as make_standings
        summary = replace(summary, standings=make_standings(
            [(r.source, r.settlement.net) for r in good], tournament or Tournament(), summary.players))
    data = _as_data(good, summary, bad, tournament)
    if fmt == "json":
        # the data is plain already (ints, strings, lists, dicts); the same layout as dump()
        import json
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    elif fmt == "yaml":
        text = dump(data, fmt)
    elif fmt == "csv":
        text = _csv(good, summary)
    else:
        text = _table(good, summary)
    write_text(output, text, read)
    if bad:
        click.echo(f"prefcli: {len(bad)} of {len(bad) + len(good)} inputs could not be settled", err=True)
        raise CheckFailed("bad inputs")


def _load_tournament(path: str):
    import os

    from prefcli.model.diagnostics import InputError
    from prefcli.io.documents import load_document
    from prefcli.settle import SettlementError, tournament_from_data
    doc = load_document(path)
    try:
        return tournament_from_data(doc.data, os.path.dirname(path))
    except SettlementError as exc:
        raise InputError([doc.problem(exc.path, exc.message, "schema")]) from None


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------

def _w(v) -> Any:
    """An exact amount for JSON/YAML: int when whole (the common case, kept fast), else text."""
    if v.denominator == 1:
        return int(v.numerator)
    return format_amount(v)


def _ws(v) -> str:
    """Table text of an exact amount: "12", "12.5", or "56.67…" when it does not terminate."""
    w = _w(v)
    if isinstance(w, str) and "/" in w:
        return f"{float(v):.2f}…"
    return str(w)


def _pay(pays, unit: str) -> List[Dict[str, str]]:
    return [{"from": p.payer, "to": p.payee,
             "amount": str(p.amount) if unit == "money" else str(_w(p.amount))} for p in pays]


def _input_data(r) -> Dict[str, Any]:
    s = r.settlement
    unit = "money" if r.money is not None else "whists"
    pays = r.payments
    return {
        "file": r.source, "kind": r.kind, "variant": r.variant, "method": s.method,
        "rounding": s.rounding, "players": list(s.players),
        **({"finished": r.finished} if r.finished is not None else {}),
        "mountain": {p: _w(v) for p, v in s.sheet_mountain.items()},
        "mountain_after_amnesty": {p: _w(v) for p, v in s.mountain.items()},
        "average_mountain": _w(s.average_mountain),
        "shares": {p: _w(v) for p, v in s.shares.items()},
        "whist_balance": {p: _w(v) for p, v in s.whist_balance.items()},
        "mountain_balance": {p: _w(v) for p, v in s.mountain_balance.items()},
        "pairwise": {a: {b: _w(v) for b, v in row.items()} for a, row in s.pairwise.items()},
        "net": {p: _w(v) for p, v in s.net.items()},
        "price": str(r.price) if r.price is not None else None,
        "coin": str(r.coin),
        "money": {p: str(v) for p, v in r.money.items()} if r.money is not None else None,
        "payments": _pay(pays, unit),
        "notes": list(s.notes),
    }


def _as_data(good, summary, bad, tournament) -> Dict[str, Any]:
    from prefcli.model.records import SETTLEMENT_FORMAT
    data: Dict[str, Any] = {
        "format": SETTLEMENT_FORMAT,
        "players": list(summary.players),
        "net": {p: _w(v) for p, v in summary.net.items()},
        "money": {p: str(v) for p, v in summary.money.items()} if summary.money is not None else None,
        "price": str(summary.price) if summary.price is not None else None,
        "coin": str(summary.coin),
        "unit": summary.unit,
        "payments": _pay(summary.payments, summary.unit),
        "inputs": [_input_data(r) for r in good],
    }
    if summary.standings is not None:
        data["tournament"] = _tournament_data(tournament)
        data["standings"] = [
            {"rank": s.rank, "player": s.player, "total": _w(s.total), "games": s.games,
             "average": _w(s.average), "whists": _w(s.raw),
             **({"eliminated_after": s.eliminated_after} if s.eliminated_after else {})}
            for s in summary.standings]
    if summary.notes:
        data["notes"] = list(summary.notes)
    if bad:
        data["errors"] = [{"file": r.source, "problems": [p.as_dict() for p in r.problems]} for r in bad]
    return data


def _tournament_data(t) -> Dict[str, Any]:
    if t is None:
        return {}
    return {"name": t.name, "bands": [{"above": _w(b.above), "factor": _w(b.factor)} for b in t.bands],
            "losses": t.losses, "cap": _w(t.cap) if t.cap is not None else None,
            "floor": _w(t.floor) if t.floor is not None else None}


def _grid(rows: Sequence[Sequence[str]], right_from: int = 1) -> List[str]:
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [str(c).ljust(widths[i]) if i < right_from else str(c).rjust(widths[i])
                 for i, c in enumerate(r)]
        out.append("  ".join(cells).rstrip())
    return out


def _money_text(m, p) -> str:
    return str(m[p]) if m is not None else "—"


def _payments_lines(pays, unit: str) -> List[str]:
    if not pays:
        return ["  nobody owes anything"]
    rows = [[f"  {p.payer}", "→", p.payee, str(p.amount) if unit == "money" else _ws(p.amount)] for p in pays]
    return _grid(rows, right_from=3)


def _table(good, summary) -> str:
    lines: List[str] = []
    if len(good) == 1:
        r = good[0]
        s = r.settlement
        head = f"{r.source}: {r.kind}, {r.variant}, method {s.method}"
        if s.rounding != "exact":
            head += f", rounding {s.rounding}"
        if r.finished is False:
            head += " (game not finished)"
        lines.append(head)
        lines.append("")
        lines.append("pairwise (whists the row wins from the column):")
        rows = [[""] + list(s.players)]
        for a in s.players:
            rows.append([a] + ["—" if a == b else _ws(s.pairwise[a][b]) for b in s.players])
        lines += ["  " + x for x in _grid(rows)]
        lines.append("")
        unit = "money" if r.money is not None else "whists"
        word = r.mountain_word
        rows = [["player", word, "after amnesty", "share", "whists", f"from {word}", "net", "money"]]
        for p in s.players:
            rows.append([p, _ws(s.sheet_mountain[p]), _ws(s.mountain[p]), _ws(s.shares[p]),
                         _ws(s.whist_balance[p]), _ws(s.mountain_balance[p]), _ws(s.net[p]),
                         _money_text(r.money, p)])
        lines += _grid(rows)
        lines.append(f"average {word} {_ws(s.average_mountain)}; share = whists each other player "
                     f"writes on the owner of the {word}")
        if r.price is not None:
            lines.append(f"price {r.price} a whist, rounded to {r.coin}")
        for note in s.notes:
            lines.append(f"note: {note}")
        lines.append("")
        lines.append("payments:")
        lines += _payments_lines(r.payments, unit)
    else:
        names = list(summary.players)
        rows = [["input"] + names]
        for r in good:
            net = r.settlement.net
            rows.append([r.source] + [_ws(net[p]) if p in net else "" for p in names])
        rows.append(["total (whists)"] + [_ws(summary.net[p]) for p in names])
        if summary.money is not None:
            rows.append(["total (money)"] + [str(summary.money[p]) for p in names])
        lines += _grid(rows)
        if summary.price is not None:
            lines.append(f"price {summary.price} a whist, rounded to {summary.coin}")
        elif summary.money is not None:
            lines.append(f"each input at its own price, rounded to {summary.coin}")
        for note in summary.notes:
            lines.append(f"note: {note}")
        lines.append("")
        lines.append("payments on the totals:")
        lines += _payments_lines(summary.payments, summary.unit)
    if summary.standings is not None:
        lines.append("")
        lines.append("standings:")
        rows = [["rank", "player", "total", "games", "average", "whists", ""]]
        for st in summary.standings:
            rows.append([str(st.rank), st.player, _ws(st.total), str(st.games), _ws(st.average),
                         _ws(st.raw), f"eliminated after {st.eliminated_after}" if st.eliminated_after else ""])
        lines += ["  " + x for x in _grid(rows, right_from=2)]
    return "\n".join(lines) + "\n"


def _avg(v) -> str:
    return _ws(v)


def _csv(good, summary) -> str:
    """One table: kind (net | total | payment | standing), input, player, to, whists, money."""
    import csv
    import io
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["kind", "input", "player", "to", "whists", "money", "games", "average", "rank"])
    for r in good:
        for p in r.settlement.players:
            out.writerow(["net", r.source, p, "", _w(r.settlement.net[p]),
                          str(r.money[p]) if r.money is not None else "", "", "", ""])
    for p in summary.players:
        out.writerow(["total", "", p, "", _w(summary.net[p]),
                      str(summary.money[p]) if summary.money is not None else "", "", "", ""])
    for pay in summary.payments:
        amount = str(pay.amount) if summary.unit == "money" else str(_w(pay.amount))
        out.writerow(["payment", "", pay.payer, pay.payee, amount if summary.unit == "whists" else "",
                      amount if summary.unit == "money" else "", "", "", ""])
    for st in summary.standings or []:
        out.writerow(["standing", "", st.player, "", _w(st.total), "", st.games, _w(st.average), st.rank])
    return buf.getvalue()
