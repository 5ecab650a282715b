"""Ratings over a season's games: cumulative whists, place points and pairwise Elo.

Each takes the time line of a :class:`~prefcli.settle.stats.Stats` (games sorted by date, then
event and source), so a rating never depends on the order the inputs were given in.

* ``whists``: the sum of each player's net whists, each game's result × its variant's weight
  (default 1; trellis-club weighs Piter 1, HardPiter 0.5, Sochi 2, Rostov 4/3: ``--weight``).
* ``places``: each game's places by net whists, worth the points of a table (by the number of
  players; a tie shares the points of the places it spans, exactly); a tournament file may set
  the table (``place_points``).
* ``elo``: pairwise Elo. Every game is, for each pair of players at the table, a match won by
  the one with more net whists (equal: a draw). Expected score ``1 / (1 + 10^((Rb − Ra)/400))``;
  a player's change is ``K / (n − 1) × Σ (score − expected)`` over his n − 1 opponents, all from
  the ratings before the game, so one game moves a rating by at most K. Defaults: start 1500,
  K 32 (``--elo-start``, ``--elo-k``). Floating point, in one fixed order: deterministic.
"""
from __future__ import annotations

from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

RATING_METHODS = ("whists", "places", "elo")
ELO_START = 1500.0
ELO_K = 32.0

#: Place points by the number of players at the table: one point for every player beaten.
DEFAULT_PLACE_POINTS: Dict[int, Tuple[Fraction, ...]] = {
    2: (Fraction(1), Fraction(0)),
    3: (Fraction(2), Fraction(1), Fraction(0)),
    4: (Fraction(3), Fraction(2), Fraction(1), Fraction(0)),
    5: (Fraction(4), Fraction(3), Fraction(2), Fraction(1), Fraction(0)),
}


@dataclass(frozen=True)
class Rating:
    rank: int
    player: str
    value: Any            # Fraction (whists, places) or float (elo)
    games: int


@dataclass(frozen=True)
class RatingOptions:
    method: str = "whists"
    place_points: Optional[Mapping[int, Sequence[Fraction]]] = None
    weights: Mapping[str, Fraction] = None  # type: ignore[assignment]  # variant → weight
    elo_start: float = ELO_START
    elo_k: float = ELO_K


def place_points(results: Sequence[Tuple[str, Fraction]], table: Optional[Mapping[int, Sequence[Fraction]]] = None
                 ) -> Dict[str, Fraction]:
    """Points of one game's places; tied players share the points of the places they span."""
    table = table or DEFAULT_PLACE_POINTS
    n = len(results)
    if n not in table:
        raise ValueError(f"no place points for a table of {n} players (set place_points for {n})")
    points = [Fraction(x) for x in table[n]]
    if len(points) != n:
        raise ValueError(f"place_points for {n} players needs {n} values, not {len(points)}")
    order = sorted(results, key=lambda pv: -pv[1])
    out: Dict[str, Fraction] = {}
    i = 0
    while i < n:
        j = i
        while j + 1 < n and order[j + 1][1] == order[i][1]:
            j += 1
        share = sum(points[i:j + 1], Fraction(0)) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k][0]] = share
        i = j + 1
    return out


def _ranked(values: Dict[str, Any], games: Dict[str, int]) -> List[Rating]:
    order = sorted(values, key=lambda p: (-values[p], p))
    return [Rating(i + 1, p, values[p], games[p]) for i, p in enumerate(order)]


def rate(games: Sequence[Any], options: RatingOptions) -> List[Rating]:
    """The rating table of `games` (:class:`~prefcli.settle.stats.GameRow`, in time-line order)."""
    method = options.method
    if method not in RATING_METHODS:
        raise ValueError(f"unknown rating method '{method}'; valid: {', '.join(RATING_METHODS)}")
    weights = options.weights or {}
    values: Dict[str, Any] = {}
    count: Dict[str, int] = {}
    for g in games:
        for p, _ in g.results:
            count[p] = count.get(p, 0) + 1
    if method == "whists":
        for g in games:
            w = Fraction(weights.get(g.variant, 1))
            for p, v in g.results:
                values[p] = values.get(p, Fraction(0)) + v * w
    elif method == "places":
        for g in games:
            for p, v in place_points(g.results, options.place_points).items():
                values[p] = values.get(p, Fraction(0)) + v
    else:
        k, start = float(options.elo_k), float(options.elo_start)
        for g in games:
            seated = [p for p, _ in g.results]
            for p in seated:
                values.setdefault(p, start)
            if len(seated) < 2:
                continue
            net = dict(g.results)
            before = {p: values[p] for p in seated}
            per = k / (len(seated) - 1)
            for a in seated:
                delta = 0.0
                for b in seated:
                    if a == b:
                        continue
                    s = 1.0 if net[a] > net[b] else 0.5 if net[a] == net[b] else 0.0
                    e = 1.0 / (1.0 + 10.0 ** ((before[b] - before[a]) / 400.0))
                    delta += s - e
                values[a] = before[a] + per * delta
    return _ranked(values, count)
