"""A settlement for people (``table``) and spreadsheets (``csv``); the JSON/YAML form is the
``pref-settlement/1`` document (:mod:`prefcli.settle.document`).

Renderers take a :class:`~prefcli.app.settle.SettleReport`.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, List, Sequence

from prefcli.model.numbers import money_text
from prefcli.model.values import display_name
from prefcli.model.ledger import amount_text
from prefcli.render.columns import grid
from prefcli.settle.document import ROUND_PLACES, exact, rounded


def _ws(v: Fraction) -> str:
    """Table text of an exact amount: "12", "12.5", or "56.67…" when it does not terminate."""
    return amount_text(v)


def render_table(report: Any) -> str:
    return _table(report.good, report.summary)


def render_csv(report: Any) -> str:
    return _csv(report.good, report.summary)


def _money_text(m, p) -> str:
    return money_text(m[p]) if m is not None else "—"


def _payments_lines(pays, unit: str) -> List[str]:
    if not pays:
        return ["  nobody owes anything"]
    rows = [[f"  {p.payer}", "→", p.payee, money_text(p.amount) if unit == "money" else _ws(p.amount)] for p in pays]
    return grid(rows, right_from=3)


def _table(good: Sequence[Any], summary: Any) -> str:
    lines: List[str] = []
    if len(good) == 1:
        r = good[0]
        s = r.settlement
        head = f"{display_name(r.source)}: {r.kind}, {r.variant}, method {s.method}"
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
        lines += ["  " + x for x in grid(rows)]
        lines.append("")
        unit = "money" if r.money is not None else "whists"
        word = r.mountain_word
        rows = [["player", word, "after amnesty", "share", "whists", f"from {word}", "net", "money"]]
        for p in s.players:
            rows.append([p, _ws(s.sheet_mountain[p]), _ws(s.mountain[p]), _ws(s.shares[p]),
                         _ws(s.whist_balance[p]), _ws(s.mountain_balance[p]), _ws(s.net[p]),
                         _money_text(r.money, p)])
        lines += grid(rows)
        lines.append(f"average {word} {_ws(s.average_mountain)}; share = whists each other player "
                     f"writes on the owner of the {word}")
        if r.price is not None:
            lines.append(f"price {money_text(r.price)} a whist, rounded to {money_text(r.coin)}")
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
            rows.append(["total (money)"] + [money_text(summary.money[p]) for p in names])
        lines += grid(rows)
        lines += multi_tail_lines(summary)
        return "\n".join(lines) + "\n"
    lines += _standings_lines(summary)
    return "\n".join(lines) + "\n"


def multi_tail_lines(summary: Any) -> List[str]:
    """What a batch's table has below its grid of inputs and totals (also the stream's end)."""
    lines: List[str] = []
    if summary.price is not None:
        lines.append(f"price {money_text(summary.price)} a whist, rounded to {money_text(summary.coin)}")
    elif summary.money is not None:
        lines.append(f"each input at its own price, rounded to {money_text(summary.coin)}")
    for note in summary.notes:
        lines.append(f"note: {note}")
    lines.append("")
    lines.append("payments on the totals:")
    lines += _payments_lines(summary.payments, summary.unit)
    return lines + _standings_lines(summary)


def _standings_lines(summary: Any) -> List[str]:
    if summary.standings is None:
        return []
    lines = ["", "standings:"]
    rows = [["rank", "player", "total", "games", "average", "whists", ""]]
    for st in summary.standings:
        rows.append([str(st.rank), st.player, _ws(st.total), str(st.games), _ws(st.average),
                     _ws(st.raw), f"eliminated after {st.eliminated_after}" if st.eliminated_after else ""])
    return lines + ["  " + x for x in grid(rows, right_from=2)]



#: The CSV columns. Whist amounts are numbers rounded to 0.01 (ROUND_PLACES) that a spreadsheet
#: reads as numbers; `whists_exact` and `average_exact` hold the exact values ("308/15").
CSV_COLUMNS = ["kind", "input", "player", "to", "whists", "money", "games", "average", "rank",
               "eliminated_after", "whists_exact", "average_exact"]


def _csv(good: Sequence[Any], summary: Any) -> str:
    """One table: kind (net | total | payment | standing), input, player, to, whists, money, …"""
    import csv
    import io
    assert ROUND_PLACES == 2
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for r in good:
        csv_net_rows(out, r)
    csv_tail_rows(out, summary)
    return buf.getvalue()


def csv_net_rows(out: Any, r: Any) -> None:
    """One input's `net` rows (also written by the stream as each input is settled)."""
    for p in r.settlement.players:
        v = r.settlement.net[p]
        out.writerow(["net", r.source, p, "", rounded(v),
                      money_text(r.money[p]) if r.money is not None else "", "", "", "", "", exact(v), ""])


def csv_tail_rows(out: Any, summary: Any) -> None:
    """The totals, payments and standings rows below the inputs'."""
    for p in summary.players:
        v = summary.net[p]
        out.writerow(["total", "", p, "", rounded(v),
                      money_text(summary.money[p]) if summary.money is not None else "", "", "", "", "", exact(v), ""])
    for pay in summary.payments:
        if summary.unit == "money":
            out.writerow(["payment", "", pay.payer, pay.payee, "", money_text(pay.amount), "", "", "", "", "", ""])
        else:
            out.writerow(["payment", "", pay.payer, pay.payee, rounded(pay.amount), "", "", "", "", "",
                          exact(pay.amount), ""])
    for st in summary.standings or []:
        out.writerow(["standing", "", st.player, "", rounded(st.total), "", st.games, rounded(st.average),
                      st.rank, st.eliminated_after or "", exact(st.total), exact(st.average)])
