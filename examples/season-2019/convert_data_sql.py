"""Turn vladstefanovich/preferans-db's data.sql (season 11, 2019) into pref-sheet/1 files.

The database keeps one 'Total' per player per game and nothing else (no deals, no pools, no
dates: every game's date is CURRENT_TIMESTAMP), so each game becomes a closed sheet whose
whists carry exactly those totals: the totals are cleared by the fewest transfers
(prefcli.settle.payments, the largest loser pays the largest winner first) and each transfer is
written as whists of the winner on the loser. Settling the sheet gives back each player's total
(`prefcli settle` net whists), which is all the source says.

    python examples/season-2019/convert_data_sql.py PATH/TO/data.sql examples/season-2019
"""
from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Dict, List, Tuple

ROW = re.compile(r"\(([^()]*)\)")


def _rows(sql: str, table: str) -> List[List[str]]:
    m = re.search(rf"insert into {table} \(([^)]*)\) values(.*?);", sql, re.S)
    if m is None:
        raise ValueError(f"no rows for {table}")
    cols = [c.strip() for c in m.group(1).split(",")]
    out = []
    for r in ROW.findall(m.group(2)):
        vals = [v.strip().strip("'") for v in r.split(",")]
        out.append(dict(zip(cols, vals)))
    return out


def season(sql: str) -> Tuple[List[str], Dict[int, Dict[str, int]]]:
    """(players in the database's order, {game number: {player: total}})."""
    players = {r["id"]: r["fname"] + r["lname"] for r in _rows(sql, "Players")}
    games = {r["id"]: int(r["number"]) for r in _rows(sql, "Games")}
    scores = {r["id"]: (r["playerId"], int(r["score"])) for r in _rows(sql, "Scores")}
    out: Dict[int, Dict[str, int]] = {}
    for r in _rows(sql, "GameScores"):
        player, total = scores[r["scoreId"]]
        out.setdefault(games[r["gameId"]], {})[players[player]] = total
    for n, totals in out.items():
        if sum(totals.values()) != 0:
            raise ValueError(f"game {n}: the totals do not sum to zero")
    return list(players.values()), dict(sorted(out.items()))


def sheet_text(number: int, players: List[str], totals: Dict[str, int]) -> str:
    from prefcli.settle import payments
    whists: Dict[str, Dict[str, int]] = {p: {} for p in players}
    for pay in payments({p: Fraction(totals[p]) for p in players}, players):
        whists[pay.payee][pay.payer] = int(pay.amount)
    lines = [
        f"# Season 11 (2019), game {number} of vladstefanovich/preferans-db data.sql: only each",
        "# player's total is known; the whists carry it (see README.md here).",
        "format: pref-sheet/1",
        f"meta: {{event: Season 11 (2019), game: {number}}}",
        f"players: [{', '.join(players)}]",
        "rules: {variant: sochi}",
        f"pool: {{{', '.join(f'{p}: 0' for p in players)}}}",
        f"mountain: {{{', '.join(f'{p}: 0' for p in players)}}}",
        "whists:",
    ]
    for p in players:
        if whists[p]:
            row = ", ".join(f"{q}: {v}" for q, v in whists[p].items())
            lines.append(f"  {p}: {{{row}}}")
    return "\n".join(lines) + "\n"


def main(argv: List[str]) -> int:
    sql = Path(argv[0]).read_text(encoding="utf-8")
    out = Path(argv[1])
    players, games = season(sql)
    for n, totals in games.items():
        (out / f"game-{n:02d}.yaml").write_text(sheet_text(n, players, totals), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
