"""Statistics and ratings as a table, CSV, JSON data and an SVG picture of the season."""
from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple
from prefcli.render.columns import grid
from prefcli.render.xml_text import escape

from prefcli.settle.stats import Stats, ranked, to_data


def _n(v: Any) -> str:
    """Table text of an exact amount: "12", "12.5", or "56.67…" when it does not terminate."""
    from prefcli.model.ledger import amount_text
    if isinstance(v, float):
        return f"{v:.1f}"
    return amount_text(v)


#: players a group's head-to-head is drawn as a grid for; more get a row a pair that met
GRID_MAX = 24


def _pct(made: int, declared: int) -> str:
    return f"{made}/{declared}" if declared else "—"


def table(stats: Stats, ratings: Optional[Sequence[Any]] = None, method: Optional[str] = None) -> str:
    lines: List[str] = [f"{stats.inputs} game(s)" + (f", by {stats.by}" if stats.by != "player" else "")]
    for key in sorted(stats.players):
        group = stats.players[key]
        lines.append("")
        if key:
            lines.append(f"{stats.by} {key}:")
        rows = [["player", "games", "deals", "result", "average", "declared", "made", "misère made/failed",
                 "whists won", "whists lost", "all-pass deals", "all-pass tricks"]]
        for p, s in ranked(group):
            rows.append([p, str(s.games), str(s.deals), _n(s.result), _n(s.average), str(s.declared), str(s.made),
                         f"{s.misere_made}/{s.misere_failed}", _n(s.whists_won), _n(s.whists_lost),
                         str(s.allpass_deals), str(s.allpass_tricks)])
        lines += grid(rows)
        contracts = sorted({c for s in group.values() for c in s.contracts}, key=_contract_order)
        if contracts:
            lines.append("")
            lines.append("contracts declared (made/declared):")
            rows = [["player"] + contracts]
            for p, s in ranked(group):
                rows.append([p] + [_pct(s.contracts[c][1], s.contracts[c][0]) if c in s.contracts else ""
                                   for c in contracts])
            lines += ["  " + x for x in grid(rows)]
        h2h = stats.h2h.get(key, {})
        if h2h and len(group) > GRID_MAX:
            # a grid of every player against every other grows as the square of the players
            # (12,000 players of 4,000 games: 144 million cells, 10 GB): the pairs that met instead
            lines.append("")
            lines.append("head to head (net whists the player won from the opponent over their games together):")
            rows = [["player", "opponent", "games", "net"]]
            rows += [[a, b, str(h.games), _n(h.net)] for (a, b), h in sorted(h2h.items())]
            lines += ["  " + x for x in grid(rows, right_from=2)]
        elif h2h:
            names = [p for p, _ in ranked(group)]
            lines.append("")
            lines.append("head to head (net whists the row won from the column over their games together):")
            rows = [[""] + names]
            for a in names:
                rows.append([a] + ["—" if a == b else (_n(h2h[(a, b)].net) if (a, b) in h2h else "")
                                   for b in names])
            lines += ["  " + x for x in grid(rows)]
    if ratings is not None:
        lines.append("")
        lines.append(f"rating ({method}):")
        rows = [["rank", "player", "rating", "games"]]
        for r in ratings:
            rows.append([str(r.rank), r.player, _n(r.value), str(r.games)])
        lines += ["  " + x for x in grid(rows, right_from=2)]
    return "\n".join(lines) + "\n"


def _contract_order(c: str) -> Any:
    if c == "misere":
        return (99, "")
    strains = {"S": 0, "C": 1, "D": 2, "H": 3, "NT": 4}
    return (int(c[:-2] if c.endswith("NT") else c[:-1]), strains.get(c[-2:] if c.endswith("NT") else c[-1], 9))


#: The CSV columns. Whist amounts and ratings are plain numbers a spreadsheet reads (whists
#: rounded to 0.01 as in the settlement's CSV, an Elo rating to 0.1); the `_exact` columns hold
#: the exact values ("688/3"), so nothing the table rounds is lost.
CSV_COLUMNS = ["kind", "group", "player", "opponent", "contract", "games", "deals", "result", "average",
               "declared", "made", "misere_made", "misere_failed", "whists_won", "whists_lost",
               "allpass_deals", "allpass_tricks", "rating",
               "result_exact", "average_exact", "whists_won_exact", "whists_lost_exact", "rating_exact"]

#: where each amount's exact value goes: amount column -> its `_exact` column
_EXACT_OF = {CSV_COLUMNS.index(c[:-len("_exact")]): i for i, c in enumerate(CSV_COLUMNS) if c.endswith("_exact")}


def _number(v: Any) -> Any:
    """A CSV cell a spreadsheet reads as a number: whists rounded as the settlement rounds them,
    an Elo rating (a float) to one place, as the table prints it."""
    from prefcli.settle.document import rounded
    if isinstance(v, float):
        return round(v, 1)
    return rounded(Fraction(v))


def _exact_text(v: Any) -> str:
    """An amount exactly ("688/3"); an Elo rating is a float, written in full (its shortest
    text that reads back as the same float)."""
    from prefcli.settle.document import exact
    return repr(v) if isinstance(v, float) else exact(Fraction(v))


def _amounts(row: List[object], amounts: Dict[int, Any]) -> List[object]:
    """``row`` with each amount written twice: as a number, and exactly in its `_exact` column."""
    for i, v in amounts.items():
        row[i] = _number(v)
        row[_EXACT_OF[i]] = _exact_text(v)
    return row


def csv_text(stats: Stats, ratings: Optional[Sequence[Any]] = None, method: Optional[str] = None) -> str:
    """One table: kind (player | contract | head-to-head | rating), group, player, …"""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    col = {c: i for i, c in enumerate(CSV_COLUMNS)}
    blank: List[object] = [""] * len(CSV_COLUMNS)     # a CSV row: text and counts
    for key in sorted(stats.players):
        for p, s in ranked(stats.players[key]):
            row = list(blank)
            row[0:7] = ["player", key, p, "", "", s.games, s.deals]
            row[9:13] = [s.declared, s.made, s.misere_made, s.misere_failed]
            row[15:17] = [s.allpass_deals, s.allpass_tricks]
            out.writerow(_amounts(row, {col["result"]: s.result, col["average"]: s.average,
                                        col["whists_won"]: s.whists_won, col["whists_lost"]: s.whists_lost}))
            for c, (d, m) in sorted(s.contracts.items(), key=lambda kv: _contract_order(kv[0])):
                row = list(blank)
                row[0:5] = ["contract", key, p, "", c]
                row[9:11] = [d, m]
                out.writerow(row)
        for (a, b), h in sorted(stats.h2h.get(key, {}).items()):
            row = list(blank)
            row[0:6] = ["head-to-head", key, a, b, "", h.games]
            out.writerow(_amounts(row, {col["result"]: h.net, col["whists_won"]: h.whists_on,
                                        col["whists_lost"]: h.whists_by}))
    for r in ratings or ():
        row = list(blank)
        row[0:3] = ["rating", method or "", r.player]
        row[5] = r.games
        out.writerow(_amounts(row, {col["rating"]: r.value}))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# The season in one picture
# ---------------------------------------------------------------------------------------------

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
            "#7f7f7f", "#bcbd22")


def svg(stats: Stats, title: str = "Cumulative result over the season") -> str:
    """Each player's cumulative net whists after each game (games in date order): a line chart."""
    return season_svg([(g.source, g.results) for g in stats.games], title, "games (in date order)")


def season_svg(games: Sequence[Tuple[str, Sequence[Tuple[str, Fraction]]]],
               title: str = "Cumulative result over the season", axis: str = "games",
               standalone: bool = True) -> str:
    """A line per player: his running total of net whists after each of `games` ((label, results)).

    Drawn with the sheet pictures' primitives (prefcli.render.svg); every series is a path with
    class ``pf-series`` and its player's name in ``data-player``, its final total in the legend.
    `standalone` adds the XML namespace for a file of its own (inline in HTML it is the same).
    """
    from prefcli.render.svg import attrs, num, polyline, tag, text
    players: List[str] = []
    for _, results in games:
        for p, _ in results:
            if p not in players:
                players.append(p)
    totals = {p: Fraction(0) for p in players}
    series: Dict[str, List[Tuple[int, Fraction]]] = {p: [(0, Fraction(0))] for p in players}
    for i, (_, results) in enumerate(games, start=1):
        for p, v in results:
            totals[p] += v
            series[p].append((i, totals[p]))
    values = [v for pts in series.values() for _, v in pts] + [Fraction(0)]
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    width, height = 720, 420
    left, right, top, bottom = 70, 150, 40, 50
    pw, ph = width - left - right, height - top - bottom
    n = max(1, len(games))

    def x(i: int) -> float:
        return left + pw * i / n

    def y(v: Fraction) -> float:
        return top + ph * float((hi - v) / (hi - lo))

    body: List[str] = [tag("title", escape(title)),
                       tag("rect", x=0, y=0, width=width, height=height, fill="white"),
                       text(left, 22, title, font_size=15),
                       tag("rect", x=left, y=top, width=pw, height=ph, fill="none", stroke="#999")]
    for t in _ticks(lo, hi):
        body.append(tag("line", x1=left, y1=num(y(t)), x2=left + pw, y2=num(y(t)), stroke="#eee"))
        body.append(text(left - 6, y(t) + 4, _n(t), text_anchor="end"))
    body.append(tag("line", x1=left, y1=num(y(Fraction(0))), x2=left + pw, y2=num(y(Fraction(0))),
                    stroke="#444", stroke_dasharray="4 3"))
    step = max(1, -(-n // 12))
    for i in range(0, n + 1, step):
        body.append(text(x(i), top + ph + 18, str(i), text_anchor="middle"))
    body.append(text(left + pw / 2, height - 10, axis, text_anchor="middle"))
    body.append(text(16, top + ph / 2, "net whists, cumulative", text_anchor="middle",
                     transform=f"rotate(-90 16 {num(top + ph / 2)})"))
    for k, p in enumerate(players):
        colour = _COLOURS[k % len(_COLOURS)]
        line = polyline([(x(i), y(v)) for i, v in series[p]], fill="none", stroke=colour, stroke_width=2,
                        class_="pf-series", data_player=p)
        body.append(tag("g", tag("title", escape(f"{p}: {_n(totals[p])}")) + line))
        ly = top + 16 + 18 * k
        body.append(tag("line", x1=left + pw + 12, y1=ly - 4, x2=left + pw + 32, y2=ly - 4, stroke=colour,
                        stroke_width=2))
        body.append(text(left + pw + 38, ly, f"{p} {_n(totals[p])}", class_="pf-legend"))
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    head = (f"<svg{ns}" + attrs(width=width, height=height, viewBox=f"0 0 {width} {height}",
                                font_family="sans-serif", font_size=12, role="img", aria_label=title) + ">")
    return head + "\n" + "\n".join(body) + "\n</svg>\n"


def _ticks(lo: Fraction, hi: Fraction) -> List[Fraction]:
    span = float(hi - lo)
    raw = span / 6
    mag = 10 ** max(0, len(str(int(raw))) - 1) if raw >= 1 else 1
    step = next(s * mag for s in (1, 2, 5, 10) if s * mag >= raw)
    import math
    first = math.ceil(float(lo) / step) * step
    out = []
    v = first
    while v <= float(hi) + 1e-9:
        out.append(Fraction(v))
        v += step
    return out


__all__ = ["table", "csv_text", "svg", "stats_json_data", "rating_data"]


def rating_table(ratings: Sequence[Any], method: str) -> str:
    rows = [["rank", "player", method if method != "elo" else "Elo", "games"]]
    for r in ratings:
        rows.append([str(r.rank), r.player, _n(r.value), str(r.games)])
    return "\n".join(grid(rows, right_from=2)) + "\n"


# ---------------------------------------------------------------------------------------------
# The registry's renderers (prefcli.render.REGISTRY: "stats" and "rating")
# ---------------------------------------------------------------------------------------------

def _method(report: Any) -> Optional[str]:
    return report.rating_options.method if report.rating_options is not None else None


def render_table(report: Any, **_options: Any) -> str:
    return table(report.stats, report.ratings, _method(report))


def render_csv(report: Any, **_options: Any) -> str:
    return csv_text(report.stats, report.ratings, _method(report))


def render_svg(report: Any, **_options: Any) -> str:
    return svg(report.stats)


def render_rating_table(report: Any, **_options: Any) -> str:
    return rating_table(report.ratings or [], _method(report) or "")


def render_rating_csv(report: Any, **_options: Any) -> str:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["rank", "player", "rating", "games", "method", "rating_exact"])
    for r in report.ratings or ():
        out.writerow([r.rank, r.player, _number(r.value), r.games, _method(report),
                      _exact_text(r.value)])
    return buf.getvalue()
