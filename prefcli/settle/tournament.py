"""Tournament scoring: the standings from each round's net whists (bands, cap, floor,
eliminations). The ``pref-tournament/1`` file that states them is read by
:mod:`prefcli.io.tournament` (re-exported here)."""
from __future__ import annotations

from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from prefcli.io.tournament import Band, Tournament, parse_band, tournament_from_data  # noqa: F401 - re-exported
from prefcli.settle.methods import SettlementError, _fraction, to_decimal  # noqa: F401

# ---------------------------------------------------------------------------------------------
# Tournament scoring
# ---------------------------------------------------------------------------------------------

from prefcli.model.records import TOURNAMENT_FORMAT  # noqa: E402 - one definition of the name


@dataclass(frozen=True)
class Standing:
    player: str
    total: Fraction
    games: int
    average: Fraction
    raw: Fraction                         # the sum of uncounted results
    eliminated_after: Optional[str] = None
    rank: int = 0


def standings(rows: Sequence[Tuple[str, Mapping[str, Fraction]]], tournament: Tournament,
              order: Optional[Sequence[str]] = None) -> List[Standing]:
    """Standings from (input name, {player: net whists}) rows in round order.

    Sorted by total (descending), then average, then seat order of first appearance; eliminated
    players come after everyone else.
    """
    names: List[str] = list(order) if order is not None else []
    listed = set(names)         # a list searched once a name was the square of the players
    for _, net in rows:
        for p in net:
            if p not in listed:
                listed.add(p)
                names.append(p)
    total = {p: Fraction(0) for p in names}
    raw = {p: Fraction(0) for p in names}
    games = {p: 0 for p in names}
    out_after: Dict[str, str] = {}
    for label, net in rows:
        for p, v in net.items():
            total[p] += tournament.count(v)
            raw[p] += Fraction(v)
            games[p] += 1
            if tournament.floor is not None and p not in out_after and total[p] < tournament.floor:
                out_after[p] = label
    seat = {p: i for i, p in enumerate(names)}
    table = [Standing(p, total[p], games[p], total[p] / games[p] if games[p] else Fraction(0), raw[p],
                      out_after.get(p)) for p in names]
    table.sort(key=lambda s: (s.eliminated_after is not None, -s.total, -s.average, seat[s.player]))
    return [Standing(s.player, s.total, s.games, s.average, s.raw, s.eliminated_after, i + 1)
            for i, s in enumerate(table)]


