"""Settlement methods: turning one score sheet into net whists per player.

Three methods (the preset's ``method`` option picks one through :data:`METHODS`, never the
variant's name):

* ``russian`` (seed 001, seed 004 method 1, Кодекс 4.2.14): every mountain × 10 ÷ the number of
  players is written as whists by every other player on its owner, then each pair nets. The
  "average mountain" presentation (seed 004 method 2) is the same computation, offered as
  :attr:`Settlement.mountain_balance`. Unclosed pools are first turned into mountain points at
  ``pool_point_whists`` a point (seed 004: "the largest pool minus each player's pool is added to
  that player's mountain"); with ``leningrad_overs`` the Кодекс 4.2.3.3 rule applies instead.
* ``lithuanian`` (seed 002): subtract the smallest hens, ÷ players, round to whole hens, × 10.
* ``lithuanian-kitty`` (seed 000): each player's hens are split among the other players, each of
  whom writes 10 whists per hen received.

Every method first subtracts the smallest mountain from all ("amnesty"): only differences of
mountains matter, so a uniform shift of all mountains can never change a result, whatever the
rounding. Whists are exact :class:`~fractions.Fraction` s; money is :class:`~decimal.Decimal`,
rounded once, to the coin, keeping a zero sum (:func:`round_money`).

Money and payments are :mod:`prefcli.settle.money`, tournament standings
:mod:`prefcli.settle.tournament`, a settled input and the totals of many
:mod:`prefcli.settle.results`; reading files and batches are the application layer's
(:mod:`prefcli.app.settle`). No click, no I/O.
"""
from __future__ import annotations

import math
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Dict, List, Mapping, Protocol, Sequence, Tuple, Union

from prefcli.io.tournament import SettlementError, _fraction, to_decimal  # noqa: F401 - re-exported

Number = Union[Fraction, Decimal]

#: Whists a mountain (hen) point is worth before it is shared out: "гора … умножается на 10"
#: (seed 001), "dešimt kartų daugiau" (seed 002), "po 10 vistų" (seed 000).
MOUNTAIN_POINT_WHISTS = Fraction(10)

#: Rounding modes of the ``rounding`` option (PRESETS.md, settlement options).
ROUNDINGS = ("exact", "mountain-shares", "every-share", "truncate")

#: Ways to round hens to whole hens in the seed 002 method ("suapvalina vieneto tikslumu").
HENS_ROUNDINGS = ("half-up", "half-even", "down", "up", "exact")


# ---------------------------------------------------------------------------------------------
# Small exact helpers
# ---------------------------------------------------------------------------------------------

def round_half_away(x: Fraction) -> int:
    """Nearest integer, halves away from zero: antisymmetric, so a pair's two views agree."""
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


def trunc(x: Fraction) -> int:
    return math.floor(x) if x >= 0 else -math.floor(-x)


def round_hens(x: Fraction, mode: str = "half-up") -> Fraction:
    """Whole hens (seed 002: "dalija iš keturių ir suapvalina vieneto tikslumu").

    The seed's example never hits a half; which way a half goes is an inferred option
    (``hens_rounding``, PRESETS.md: "half rounds up"); ``exact`` keeps the fraction.
    """
    if mode == "exact":
        return Fraction(x)
    if mode == "half-up":
        return Fraction(math.floor(x + Fraction(1, 2)))
    if mode == "half-even":
        return Fraction(round(x))
    if mode == "down":
        return Fraction(math.floor(x))
    if mode == "up":
        return Fraction(math.ceil(x))
    raise SettlementError(f"unknown hens rounding '{mode}'; valid: {', '.join(HENS_ROUNDINGS)}",
                          ("rules", "hens_rounding"))


def _frac(value: Any) -> Fraction:
    """A sheet amount as a Fraction (they almost always are already)."""
    return value if value.__class__ is Fraction else Fraction(value)


# ---------------------------------------------------------------------------------------------
# The methods
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MethodResult:
    """What a method decides: the mountains it divides and the share written on each owner."""

    mountain: Dict[str, Fraction]        # after pool valuation and amnesty
    shares: Dict[str, Fraction]          # whists every other player writes on this player
    notes: Tuple[str, ...] = ()


class OptionLookup(Protocol):
    """What settling reads of the rules: a resolved :class:`prefcli.rules.presets.Rules`."""

    def get(self, name: str, default: Any = None) -> Any: ...


#: The rules a method reads its options from: resolved rules, or a plain mapping (tests).
RulesLike = Union[OptionLookup, Mapping[str, Any]]


def _get(rules: RulesLike, name: str, default: Any = None) -> Any:
    try:
        value = rules.get(name, default)
    except AttributeError:
        return default
    return default if value is None else value


def _amnesty(mountain: Mapping[str, Fraction], players: Sequence[str]) -> Dict[str, Fraction]:
    """Subtract the smallest mountain from every mountain (seed 001 "амнистия", seed 002
    "visiems nubraukiama tiek vištų, kiek jų liko mažiausiai turinčiam žaidėjui")."""
    low = min(mountain[p] for p in players)
    return {p: mountain[p] - low for p in players}


def _pool_to_mountain(sheet: "SheetLike", rules: RulesLike, notes: List[str]) -> Dict[str, Fraction]:
    """Mountains with the pools valued, in mountain points (one mountain point = 10 whists).

    * ``leningrad_overs`` (Кодекс 4.2.3.3): "(own pulya − target) is written off gora ×2 if
      positive, or added to gora ×2 if negative"; the pool is then not valued again.
    * otherwise each pool point short of the target is worth ``pool_point_whists`` whists, i.e.
      ``pool_point_whists / 10`` mountain points (Кодекс 4.2.3 early stop: "each writes into gora
      what he lacks to the target"; seed 004 measures from the largest pool instead, which is the
      same after amnesty).
    """
    players = sheet.players
    target = _fraction(_get(rules, "pool", 0), "pool")
    mountain = {p: _frac(sheet.mountain.get(p, 0)) for p in players}
    pools = {p: _frac(sheet.pool.get(p, 0)) for p in players}
    if _get(rules, "leningrad_overs", False):
        for p in players:
            if pools[p] != target:
                mountain[p] += 2 * (target - pools[p])
        if any(pools[p] != target for p in players):
            notes.append("pools moved to the mountains ×2 against the target (Leningrad overs and unders)")
        return mountain
    ppw = _get(rules, "pool_point_whists", None)
    if ppw is None:
        return mountain
    factor = _fraction(ppw, "pool_point_whists") / MOUNTAIN_POINT_WHISTS
    short = {p: target - pools[p] for p in players}
    if len(set(short.values())) > 1:
        notes.append(f"unclosed pools valued at {_plain(factor * MOUNTAIN_POINT_WHISTS)} whists a point "
                     "(each pool's shortfall added to its mountain)")
        for p in players:
            mountain[p] += factor * short[p]
    return mountain


def method_russian(sheet: "SheetLike", rules: RulesLike) -> MethodResult:
    """Seed 001: "гора каждого игрока умножается на 10 и делится на количество участников игры.
    Частное … записывается каждому игроку в графу висты на того из противников, чью гору …"."""
    notes: List[str] = []
    players = sheet.players
    mountain = _amnesty(_pool_to_mountain(sheet, rules, notes), players)
    n = len(players)
    if _get(rules, "husar.mountain", "divided") == "undivided":
        # HUSAR.md H18 (Кодекс 4.1.1(в) "с неделимой горой", read as inferred there): the mountain
        # is not divided by the players, each point costs its owner 10 whists to the opponent
        n = 1
        notes.append("undivided mountain: each mountain point is 10 whists to the opponent (HUSAR.md H18)")
    shares = {p: mountain[p] * MOUNTAIN_POINT_WHISTS / n for p in players}
    return MethodResult(mountain, shares, tuple(notes))


def _hen_whists(rules: RulesLike) -> Fraction:
    return _fraction(_get(rules, "hen_whists", MOUNTAIN_POINT_WHISTS), "hen_whists")


def _hens_split(sheet: "SheetLike", rules: RulesLike, divisor: int, default_rounding: str) -> MethodResult:
    """Each player's hens (after subtracting the least) ÷ `divisor`, rounded by the
    ``hens_rounding`` option, × ``hen_whists``: the share every other player writes on him."""
    players = sheet.players
    mode = str(_get(rules, "hens_rounding", default_rounding))
    mountain = _amnesty({p: Fraction(sheet.mountain.get(p, 0)) for p in players}, players)
    each = {p: round_hens(mountain[p] / divisor, mode) for p in players}
    shares = {p: each[p] * _hen_whists(rules) for p in players}
    notes = []
    if any(each[p] != mountain[p] / divisor for p in players):
        notes.append(f"hens ÷ {divisor} rounded to whole hens ({mode})")
    return MethodResult(mountain, shares, tuple(notes))


def method_lithuanian(sheet: "SheetLike", rules: RulesLike) -> MethodResult:
    """Seed 002: subtract the least hens, "dalija iš keturių ir suapvalina vieneto tikslumu",
    then "kiti trys … užsirašo po 60 vistų (dešimt kartų daugiau!)": ÷ the number of players."""
    return _hens_split(sheet, rules, len(sheet.players), "half-up")


def method_lithuanian_kitty(sheet: "SheetLike", rules: RulesLike) -> MethodResult:
    """Seed 000: "kiekvienas žaidėjas padalija po lygiai kitiems 3 žaidėjams … savo turimas
    vištas, o pastarieji už kiekvieną jiems tenkančią vištą užsirašo … po 10 vistų": ÷ the others."""
    return _hens_split(sheet, rules, len(sheet.players) - 1, "exact")


Method = Callable[["SheetLike", RulesLike], MethodResult]

#: The settlement methods by the ``method`` option's value.
METHODS: Dict[str, Method] = {
    "russian": method_russian,
    "lithuanian": method_lithuanian,
    "lithuanian-kitty": method_lithuanian_kitty,
}


# ---------------------------------------------------------------------------------------------
# Settling one sheet
# ---------------------------------------------------------------------------------------------

class SheetLike(Protocol):
    """What settling reads of a sheet (read-only): :class:`prefcli.model.records.SheetData` fits."""

    @property
    def players(self) -> Tuple[str, ...]: ...

    @property
    def pool(self) -> Mapping[str, Fraction]: ...

    @property
    def mountain(self) -> Mapping[str, Fraction]: ...

    @property
    def whists(self) -> Mapping[str, Mapping[str, Fraction]]: ...


@dataclass(frozen=True)
class Settlement:
    """One sheet settled, in whists. Both Кодекс presentations are here:

    * variant 1: `shares` (written by every other player on the owner) and the `pairwise` nets;
    * variant 2 ("средняя гора"): `average_mountain` and `mountain_balance` added to
      `whist_balance`.

    `net[p] == whist_balance[p] + mountain_balance[p] == sum(pairwise[p].values())`.
    """

    players: Tuple[str, ...]
    method: str
    rounding: str
    sheet_mountain: Dict[str, Fraction]
    mountain: Dict[str, Fraction]              # what the method divided (after amnesty)
    shares: Dict[str, Fraction]
    pairwise: Dict[str, Dict[str, Fraction]]   # pairwise[a][b]: what a wins from b, net
    whist_balance: Dict[str, Fraction]         # from the written whists alone
    mountain_balance: Dict[str, Fraction]      # from the mountains alone
    net: Dict[str, Fraction]
    notes: Tuple[str, ...] = ()

    @property
    def average_mountain(self) -> Fraction:
        return sum(self.mountain.values(), Fraction(0)) / len(self.players)


def _check_sheet(sheet: SheetLike) -> None:
    players = tuple(sheet.players)
    if len(players) < 2:
        raise SettlementError("a sheet needs at least two players", ("players",))
    if len(set(players)) != len(players):
        raise SettlementError("player names must be unique", ("players",))
    for area in ("pool", "mountain"):
        for p in getattr(sheet, area):
            if p not in players:
                raise SettlementError(f"'{p}' is not one of the players ({', '.join(players)})", (area, p))
    for writer, row in sheet.whists.items():
        if writer not in players:
            raise SettlementError(f"'{writer}' is not one of the players ({', '.join(players)})",
                                  ("whists", writer))
        for on in row:
            if on not in players:
                raise SettlementError(f"'{on}' is not one of the players ({', '.join(players)})",
                                      ("whists", writer, on))
            if on == writer and row[on]:
                raise SettlementError("a player cannot write whists on himself", ("whists", writer, on))


def settle_sheet(sheet: SheetLike, rules: RulesLike) -> Settlement:
    """Settle one sheet under resolved rules (``method`` and ``rounding`` options).

    `rules` is a :class:`prefcli.presets.Rules` or any mapping (tests pass plain dicts).
    """
    _check_sheet(sheet)
    players = tuple(sheet.players)
    method_name = str(_get(rules, "method", "russian"))
    try:
        method = METHODS[method_name]
    except KeyError:
        raise SettlementError(f"unknown settlement method '{method_name}'; valid: {', '.join(METHODS)}",
                              ("rules", "method")) from None
    rounding = str(_get(rules, "rounding", "exact"))
    if rounding not in ROUNDINGS:
        raise SettlementError(f"unknown settlement rounding '{rounding}'; valid: {', '.join(ROUNDINGS)}",
                              ("rules", "rounding"))
    result = method(sheet, rules)
    shares = dict(result.shares)
    notes = list(result.notes)
    if rounding == "mountain-shares":
        # Кодекс 4.2.12: add or remove a mountain point so the division is exact, the others
        # compensating in whists; i.e. every share rounded to the nearest whole whist.
        rounded = {p: Fraction(round_half_away(shares[p])) for p in players}
        if rounded != shares:
            notes.append("mountain shares rounded to whole whists (Кодекс 4.2.12)")
        shares = rounded

    zero = Fraction(0)
    empty: Mapping[str, Fraction] = {}
    if rounding in ("exact", "mountain-shares") and _WHOLE_PATH:
        return _settled_in_units(sheet, players, method_name, rounding, result.mountain, shares, notes)
    pairwise: Dict[str, Dict[str, Fraction]] = {p: {} for p in players}
    whist_balance: Dict[str, Fraction] = {p: zero for p in players}
    for i, a in enumerate(players):
        row_a = sheet.whists.get(a, empty)
        for b in players[i + 1:]:
            d = _frac(row_a.get(b, 0)) - _frac(sheet.whists.get(b, empty).get(a, 0))
            whist_balance[a] += d
            whist_balance[b] -= d
            v = d + shares[b] - shares[a]
            if rounding == "every-share":
                v = Fraction(round_half_away(v))
            pairwise[a][b] = v
            pairwise[b][a] = -v
    n = len(players)
    total_shares = sum(shares.values(), zero)
    mountain_balance = {a: total_shares - n * shares[a] for a in players}
    if rounding == "every-share":
        # the rounding sits in the pairs; attribute it to the mountain part of the presentation
        for a in players:
            mountain_balance[a] = sum(pairwise[a].values(), Fraction(0)) - whist_balance[a]
    if rounding == "truncate":
        # Shares truncated in the "average mountain" form, the last seat taking the remainder so
        # that the sum stays zero; the difference is carried by each pair with the last seat.
        last = players[-1]
        for a in players[:-1]:
            t = Fraction(trunc(mountain_balance[a]))
            diff = t - mountain_balance[a]
            if diff:
                pairwise[a][last] += diff
                pairwise[last][a] -= diff
            mountain_balance[a] = t
        mountain_balance[last] = -sum((mountain_balance[a] for a in players[:-1]), Fraction(0))
        if any(v.denominator != 1 for v in result.shares.values()):
            notes.append(f"mountain results truncated to whole whists; {last} (last seat) takes the remainder")
    net = {a: sum(pairwise[a].values(), zero) for a in players}
    assert sum(net.values(), zero) == 0, "settlement does not sum to zero"
    return Settlement(players, method_name, rounding,
                      {p: _frac(sheet.mountain.get(p, 0)) for p in players},
                      result.mountain, shares, pairwise, whist_balance, mountain_balance, net,
                      tuple(notes))


_WHOLE_PATH = True      # tests turn it off to compare with the Fraction by Fraction way


def _settled_in_units(sheet: SheetLike, players: Tuple[str, ...], method_name: str, rounding: str,
                      mountain: Dict[str, Fraction], shares: Dict[str, Fraction], notes: List[str]) -> Settlement:
    """:func:`settle_sheet`'s pairs and balances (roundings that leave them exact) in integers:
    every whist and share counted in units of 1/d, d the least common denominator, and each
    result made a Fraction once at the end (reduced, so the same Fraction as the long way's).

    Why: the pairs, the balances and the nets are some sixty Fraction additions a sheet, each
    a Python call with a gcd; in a batch of 1,000 three-player records that was a twentieth of
    settling them. The order of every dict is the long way's."""
    whists = sheet.whists
    empty: Mapping[str, Any] = {}
    cells = [_frac(v) for row in whists.values() for v in row.values()]
    d = 1
    for amount in list(shares.values()) + cells:
        q = amount.denominator
        if q != 1 and d % q:
            d = d * q // math.gcd(d, q)
    unit = {p: shares[p].numerator * (d // shares[p].denominator) for p in players}

    def units(v: Any) -> int:
        f = _frac(v)
        return f.numerator * (d // f.denominator)

    pair: Dict[str, Dict[str, int]] = {p: {} for p in players}
    balance = {p: 0 for p in players}
    for i, a in enumerate(players):
        row_a = whists.get(a, empty)
        for b in players[i + 1:]:
            w = units(row_a.get(b, 0)) - units(whists.get(b, empty).get(a, 0))
            balance[a] += w
            balance[b] -= w
            v = w + unit[b] - unit[a]
            pair[a][b] = v
            pair[b][a] = -v
    n = len(players)
    total = sum(unit.values())

    def f(x: int) -> Fraction:
        return Fraction(x, d) if d != 1 else Fraction(x)
    pairwise = {a: {b: f(v) for b, v in row.items()} for a, row in pair.items()}
    net_units = {a: sum(row.values()) for a, row in pair.items()}
    assert sum(net_units.values()) == 0, "settlement does not sum to zero"
    return Settlement(players, method_name, rounding,
                      {p: _frac(sheet.mountain.get(p, 0)) for p in players},
                      mountain, shares, pairwise, {p: f(balance[p]) for p in players},
                      {a: f(total - n * unit[a]) for a in players}, {a: f(net_units[a]) for a in players},
                      tuple(notes))


def _plain(v: Fraction) -> str:
    from prefcli.model.ledger import rounded_text
    return str(v.numerator) if v.denominator == 1 else rounded_text(v)
