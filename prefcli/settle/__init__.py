"""Settlement: turning score sheets into who pays whom.

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

This module has no click and does no output; the batch helpers read files only through
:mod:`prefcli.io.documents`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import (Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence,
                    Tuple, Union)

from prefcli.model.diagnostics import Path, PrefcliError, Problem

Number = Union[Fraction, Decimal]

#: Whists a mountain (hen) point is worth before it is shared out: "гора … умножается на 10"
#: (seed 001), "dešimt kartų daugiau" (seed 002), "po 10 vistų" (seed 000).
MOUNTAIN_POINT_WHISTS = Fraction(10)

#: Rounding modes of the ``rounding`` option (PRESETS.md, settlement options).
ROUNDINGS = ("exact", "mountain-shares", "every-share", "truncate")

#: Ways to round hens to whole hens in the seed 002 method ("suapvalina vieneto tikslumu").
HENS_ROUNDINGS = ("half-up", "half-even", "down", "up", "exact")


class SettlementError(PrefcliError, ValueError):
    """A sheet or option that cannot be settled; `path` locates it in the input."""

    kind = "rule"


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


def _fraction(value: Any, what: str) -> Fraction:
    try:
        if isinstance(value, Fraction):
            return value
        if isinstance(value, bool):
            raise ValueError
        return Fraction(str(value).strip()) if isinstance(value, (str, Decimal, float)) else Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise SettlementError(f"{what}: {value!r} is not a number") from None


def to_decimal(value: Any, what: str) -> Decimal:
    """A money amount or coin from an option or the command line (exact decimal text)."""
    from decimal import InvalidOperation
    if isinstance(value, bool):
        raise SettlementError(f"{what}: {value!r} is not a decimal amount")
    try:
        d = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise SettlementError(f"{what}: {value!r} is not a decimal amount such as \"0.01\"") from None
    if not d.is_finite() or d < 0:
        raise SettlementError(f"{what}: {value!r} must be a non-negative decimal amount")
    return d


# ---------------------------------------------------------------------------------------------
# The methods
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MethodResult:
    """What a method decides: the mountains it divides and the share written on each owner."""

    mountain: Dict[str, Fraction]        # after pool valuation and amnesty
    shares: Dict[str, Fraction]          # whists every other player writes on this player
    notes: Tuple[str, ...] = ()


RulesLike = Any   # a resolved :class:`prefcli.presets.Rules` or any mapping with .get()


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

class SheetLike:   # documentation only: SheetData / Sheet both fit
    players: Tuple[str, ...]
    pool: Mapping[str, Fraction]
    mountain: Mapping[str, Fraction]
    whists: Mapping[str, Mapping[str, Fraction]]


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
    pairwise: Dict[str, Dict[str, Fraction]] = {p: {} for p in players}
    whist_balance: Dict[str, Fraction] = {p: zero for p in players}
    empty: Mapping[str, Fraction] = {}
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


# ---------------------------------------------------------------------------------------------
# Money
# ---------------------------------------------------------------------------------------------

def round_money(amounts: Mapping[str, Fraction], coin: Decimal,
                order: Optional[Sequence[str]] = None) -> Dict[str, Decimal]:
    """Exact amounts → amounts in whole coins with the same total (FORMAT.md §3).

    Round every amount down to the coin, then give the missing coins one each to the largest
    remainders; ties go to the earlier seat in `order` (default: the mapping's order). When the
    exact total is itself not a whole number of coins (tournament coefficients), the number of
    coins handed out is the total rounded half away from zero.
    """
    names = list(order) if order is not None else list(amounts)
    coin = Decimal(coin)
    if coin <= 0:
        raise SettlementError(f"coin must be positive, got {coin}")
    c = Fraction(coin)
    units: Dict[str, int] = {}
    rema: Dict[str, Fraction] = {}
    for p in names:
        q = Fraction(amounts[p]) / c
        units[p] = math.floor(q)
        rema[p] = q - units[p]
    total = sum((Fraction(amounts[p]) for p in names), Fraction(0)) / c
    missing = round_half_away(total) - sum(units.values())
    missing = max(0, min(missing, len(names)))
    ranked = sorted(range(len(names)), key=lambda i: (-rema[names[i]], i))
    for i in ranked[:missing]:
        units[names[i]] += 1
    return {p: Decimal(units[p]) * coin for p in names}


def money(net: Mapping[str, Fraction], price: Decimal, coin: Decimal,
          order: Optional[Sequence[str]] = None) -> Dict[str, Decimal]:
    """Net whists × price, rounded to the coin keeping the exact total."""
    p = Fraction(Decimal(price))
    return round_money({k: Fraction(v) * p for k, v in net.items()}, coin, order)


def exact_money(net: Mapping[str, Fraction], price: Decimal) -> Dict[str, Fraction]:
    p = Fraction(Decimal(price))
    return {k: Fraction(v) * p for k, v in net.items()}


# ---------------------------------------------------------------------------------------------
# Payments
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Number


def payments(balances: Mapping[str, Number], order: Optional[Sequence[str]] = None) -> List[Payment]:
    """Transfers that clear every balance (positive = receives), by the greedy method.

    The largest debtor pays the largest creditor as much as one of them needs, until everybody
    is square: at most n − 1 transfers, each amount a difference of balances (so whole coins
    when the balances are). Ties go to the earlier seat in `order`. The balances must sum to 0.
    """
    names = list(order) if order is not None else list(balances)
    zero = _zero_like(balances)
    if sum((balances[p] for p in names), zero) != 0:
        raise SettlementError("balances do not sum to zero; no payments can clear them")
    seat = {p: i for i, p in enumerate(names)}
    left = {p: balances[p] for p in names}
    out: List[Payment] = []
    while True:
        debtors = [p for p in names if left[p] < 0]
        creditors = [p for p in names if left[p] > 0]
        if not debtors or not creditors:
            break
        d = min(debtors, key=lambda p: (left[p], seat[p]))
        c = max(creditors, key=lambda p: (left[p], -seat[p]))
        amount = min(-left[d], left[c])
        out.append(Payment(d, c, amount))
        left[d] += amount
        left[c] -= amount
    check_payments(balances, out)
    return out


def _zero_like(balances: Mapping[str, Number]) -> Number:
    for v in balances.values():
        return Decimal(0) if isinstance(v, Decimal) else Fraction(0)
    return Fraction(0)


def check_payments(balances: Mapping[str, Number], pays: Iterable[Payment]) -> None:
    """Raise unless the payments reproduce the balances exactly."""
    zero = _zero_like(balances)
    got: Dict[str, Number] = {p: zero for p in balances}
    for pay in pays:
        if pay.amount <= 0:
            raise SettlementError(f"payment of {pay.amount} from {pay.payer} to {pay.payee} is not positive")
        got[pay.payer] = got.get(pay.payer, zero) - pay.amount
        got[pay.payee] = got.get(pay.payee, zero) + pay.amount
    for p in set(got) | set(balances):
        if got.get(p, zero) != balances.get(p, zero):
            raise SettlementError(f"payments give {p} {got.get(p, zero)}, the balance is {balances.get(p, zero)}")


# ---------------------------------------------------------------------------------------------
# Tournament scoring
# ---------------------------------------------------------------------------------------------

TOURNAMENT_FORMAT = "pref-tournament/1"


@dataclass(frozen=True)
class Band:
    """Whists of a round's result above `above` count × `factor` (up to the next band)."""

    above: Fraction
    factor: Fraction


@dataclass(frozen=True)
class Tournament:
    """How a round's (one input's) net whists count in the standings.

    `bands` apply to the size of a result ("51–100 whists count ×0.5, above 100 ×0.1": bands
    (50, ½), (100, 1/10)); `losses` says whether losses are scaled the same way (`scaled`) or count
    in full (`full`); `cap` limits a round's counted result either way; a player whose running
    total falls below `floor` is eliminated (kept in the standings, ranked after the others).
    """

    name: Optional[str] = None
    bands: Tuple[Band, ...] = ()
    losses: str = "scaled"
    cap: Optional[Fraction] = None
    floor: Optional[Fraction] = None
    inputs: Tuple[str, ...] = ()
    price: Optional[Decimal] = None
    coin: Optional[Decimal] = None
    #: ratings (prefcli.settle.rating): place points by table size, and a weight per variant
    place_points: Optional[Mapping[int, Tuple[Fraction, ...]]] = None
    weights: Optional[Mapping[str, Fraction]] = None

    @property
    def active(self) -> bool:
        return bool(self.bands or self.cap is not None or self.floor is not None)

    def count(self, result: Fraction) -> Fraction:
        """A round's result as it counts in the standings."""
        result = Fraction(result)
        if result < 0 and self.losses == "full":
            counted = result
        else:
            size = abs(result)
            counted_size = Fraction(0)
            edges = sorted(self.bands, key=lambda b: b.above)
            lower, factor = Fraction(0), Fraction(1)
            for band in edges:
                if size <= band.above:
                    break
                counted_size += (band.above - lower) * factor
                lower, factor = band.above, band.factor
            counted_size += (size - lower) * factor
            counted = counted_size if result >= 0 else -counted_size
        if self.cap is not None:
            counted = max(-self.cap, min(self.cap, counted))
        return counted


def tournament_from_data(data: Any, base: str = "") -> Tournament:
    """A `pref-tournament/1` document:

    ``{format: pref-tournament/1, name: …, bands: [{above: 50, factor: "0.5"}, …],
    losses: scaled|full, cap: N, floor: -N, inputs: [files…], price: "0.1", coin: "0.01"}``.
    `inputs` are relative to `base` (the tournament file's folder).
    """
    import os
    if not isinstance(data, Mapping):
        raise SettlementError(f"a tournament file must be a mapping with format: {TOURNAMENT_FORMAT}")
    if data.get("format") != TOURNAMENT_FORMAT:
        raise SettlementError(f"expected format: {TOURNAMENT_FORMAT}", ("format",))
    known = {"format", "name", "bands", "losses", "cap", "floor", "inputs", "price", "coin", "meta",
             "place_points", "weights"}
    for k in data:
        if k not in known:
            raise SettlementError(f"unknown field '{k}'; valid: {', '.join(sorted(known))}", (k,))
    bands = []
    raw_bands = data.get("bands") or []
    if not isinstance(raw_bands, list):
        raise SettlementError("expected a list of {above: N, factor: F}", ("bands",))
    for i, b in enumerate(raw_bands):
        if not isinstance(b, Mapping) or set(b) != {"above", "factor"}:
            raise SettlementError("a band is {above: N, factor: F}", ("bands", i))
        above = _fraction(b["above"], "above")
        factor = _fraction(b["factor"], "factor")
        if above < 0 or factor < 0:
            raise SettlementError("band values must not be negative", ("bands", i))
        bands.append(Band(above, factor))
    if len({b.above for b in bands}) != len(bands):
        raise SettlementError("two bands start at the same amount", ("bands",))
    losses = data.get("losses", "scaled")
    if losses not in ("scaled", "full"):
        raise SettlementError("losses: expected scaled or full", ("losses",))
    cap = _fraction(data["cap"], "cap") if data.get("cap") is not None else None
    if cap is not None and cap < 0:
        raise SettlementError("cap must not be negative", ("cap",))
    floor = _fraction(data["floor"], "floor") if data.get("floor") is not None else None
    inputs = data.get("inputs") or []
    if not isinstance(inputs, list) or not all(isinstance(x, str) for x in inputs):
        raise SettlementError("expected a list of file names", ("inputs",))
    inputs = [x if os.path.isabs(x) or not base else os.path.join(base, x) for x in inputs]
    price = to_decimal(data["price"], "price") if data.get("price") is not None else None
    coin = to_decimal(data["coin"], "coin") if data.get("coin") is not None else None
    name = data.get("name")
    return Tournament(str(name) if name is not None else None, tuple(bands), losses, cap, floor,
                      tuple(inputs), price, coin, _place_points(data.get("place_points")),
                      _weights(data.get("weights")))


def _place_points(raw: Any) -> Optional[Dict[int, Tuple[Fraction, ...]]]:
    """`place_points: {3: [2, 1, 0], 4: [3, 2, 1, 0]}`: the points of each place, by table size."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise SettlementError("expected {PLAYERS: [points of 1st, 2nd, …]}", ("place_points",))
    out: Dict[int, Tuple[Fraction, ...]] = {}
    for k, v in raw.items():
        try:
            n = int(str(k))
        except ValueError:
            raise SettlementError(f"'{k}' is not a number of players", ("place_points", k)) from None
        if not isinstance(v, list) or len(v) != n or not 2 <= n <= 6:
            raise SettlementError(f"a table of {n} players needs a list of {n} points", ("place_points", k))
        out[n] = tuple(_fraction(x, f"place_points.{k}") for x in v)
    return out


def _weights(raw: Any) -> Optional[Dict[str, Fraction]]:
    """`weights: {sochi: 2, leningrad: 1, rostov: "4/3"}`: a variant's games count × its weight."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise SettlementError("expected {VARIANT: weight}", ("weights",))
    out = {str(k): _fraction(v, f"weights.{k}") for k, v in raw.items()}
    if any(w < 0 for w in out.values()):
        raise SettlementError("weights must not be negative", ("weights",))
    return out


def parse_band(text: str) -> Band:
    """`50:0.5` → whists above 50 count × 0.5 (the command line form of a band)."""
    if ":" not in text:
        raise SettlementError(f"--band takes ABOVE:FACTOR (e.g. 50:0.5), got '{text}'")
    a, f = text.split(":", 1)
    above, factor = _fraction(a, "--band"), _fraction(f, "--band")
    if above < 0 or factor < 0:
        raise SettlementError(f"--band values must not be negative, got '{text}'")
    return Band(above, factor)


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
    for _, net in rows:
        for p in net:
            if p not in names:
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


# ---------------------------------------------------------------------------------------------
# Inputs and batches
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class InputResult:
    """One input settled, or the problems that stopped it."""

    source: str
    kind: str = ""                              # record | sheet
    variant: Optional[str] = None
    settlement: Optional[Settlement] = None
    price: Optional[Decimal] = None
    coin: Decimal = Decimal("0.01")
    money: Optional[Dict[str, Decimal]] = None
    finished: Optional[bool] = None
    problems: Tuple[Problem, ...] = ()
    tournament: Optional[Tournament] = None      # the input was a tournament file, not a game
    mountain_word: str = "mountain"              # the family's word: mountain / hens
    payments: Tuple["Payment", ...] = ()         # clearing this input alone (money, else whists)

    @property
    def ok(self) -> bool:
        return self.settlement is not None and not self.problems

    @property
    def failed(self) -> bool:
        return bool(self.problems)

    @property
    def players(self) -> Tuple[str, ...]:
        return self.settlement.players if self.settlement else ()


@dataclass(frozen=True)
class SettleOptions:
    """Command-line overrides that apply to every input."""

    variant: Optional[str] = None
    sets: Tuple[Tuple[str, Any], ...] = ()
    price: Optional[Decimal] = None
    coin: Optional[Decimal] = None


def settle_document(obj: Any, options: SettleOptions, source: str = "<input>") -> InputResult:
    """Settle a loaded :class:`~prefcli.model.Record` (scored first) or :class:`~prefcli.model.Sheet`.

    Raises InputError / OptionError / ScoringError / SettlementError; :func:`settle_source`
    turns them into problems.
    """
    from prefcli.model.records import Record
    from prefcli.rules.presets import resolve_rules
    finished: Optional[bool] = None
    if isinstance(obj, Record):
        from prefcli.scoring import score
        result = score(obj, variant=options.variant, sets=list(options.sets))
        rules = result.rules
        sheet = result.sheet()
        kind = "record"
        finished = bool(result.finished)
    else:
        rules = resolve_rules(obj.rules, variant=options.variant, sets=list(options.sets))
        sheet = obj.data
        kind = "sheet"
    settlement = settle_sheet(sheet, rules)
    price = options.price if options.price is not None else (
        to_decimal(rules.get("price"), "price") if rules.get("price") is not None else None)
    coin = options.coin if options.coin is not None else (
        to_decimal(rules.get("coin"), "coin") if rules.get("coin") is not None else Decimal("0.01"))
    if coin <= 0:
        raise SettlementError("coin must be positive", ("rules", "coin"))
    amounts = money(settlement.net, price, coin, settlement.players) if price is not None else None
    word = rules.word("mountain") if hasattr(rules, "word") else "mountain"
    pays = tuple(payments(amounts if amounts is not None else settlement.net, settlement.players))
    return InputResult(source, kind, rules.variant if hasattr(rules, "variant") else None,
                       settlement, price, coin, amounts, finished, mountain_word=word, payments=pays)


def reprice(result: InputResult, price: Optional[Decimal], coin: Optional[Decimal]) -> InputResult:
    """The same result at another price and/or coin (None keeps the result's own)."""
    from dataclasses import replace
    if result.settlement is None or (price is None and coin is None):
        return result
    p = price if price is not None else result.price
    c = coin if coin is not None else result.coin
    amounts = money(result.settlement.net, p, c, result.settlement.players) if p is not None else None
    pays = tuple(payments(amounts if amounts is not None else result.settlement.net, result.settlement.players))
    return replace(result, price=p, coin=c, money=amounts, payments=pays)


def settle_source(source: str, options: SettleOptions) -> InputResult:
    """Load and settle one file ("-" = stdin); every failure becomes located problems."""
    from prefcli.model.diagnostics import InputError
    doc = None
    try:
        from prefcli.io.documents import build_record_fast, build_sheet, load_document
        doc = load_document(source)
        if isinstance(doc.data, dict) and doc.data.get("format") == TOURNAMENT_FORMAT:
            import os
            base = os.path.dirname(source) if source != "-" else ""
            return InputResult(source, kind="tournament", tournament=tournament_from_data(doc.data, base))
        obj = build_record_fast(doc) if doc.kind == "record" else build_sheet(doc)
        return settle_document(obj, options, doc.name)
    except InputError as exc:
        return InputResult(source, problems=tuple(p if p.file else p.at(file=source) for p in exc.problems))
    except PrefcliError as exc:
        if exc.is_usage:    # a bad --set or --variant is the command line's fault, not the file's
            raise
        return InputResult(source, problems=(_locate(doc, source, exc),))
    except (OSError, UnicodeError) as exc:
        return InputResult(source, problems=(Problem(f"cannot read: {exc}", (), source),))
    except Exception as exc:  # noqa: BLE001 - one bad input must not stop a batch
        return InputResult(source, problems=(Problem(f"internal error: {type(exc).__name__}: {exc}",
                                                     (), source, kind="internal"),))


def _locate(doc: Any, source: str, exc: PrefcliError) -> Problem:
    """The error placed in its document (when it was loaded), else at least in its file."""
    if doc is not None and hasattr(doc, "place"):
        try:
            p = doc.place(exc)
            return p if p.file else p.at(file=source)
        except Exception:  # noqa: BLE001 - locating is best effort
            pass
    return exc.problem().at(file=source)


def _settle_worker(args: Tuple[str, SettleOptions]) -> InputResult:
    return settle_source(*args)


def settle_many(sources: Sequence[str], options: SettleOptions, jobs: int = 1, strict: bool = False,
                progress: Optional[Callable[[int, int], None]] = None) -> List[InputResult]:
    """Settle every source, in input order; `jobs` > 1 uses worker processes.

    The results are the same whatever `jobs` is (each input is settled on its own, exactly).
    With `strict` the batch stops at the first bad input (in input order) and returns the results
    up to and including it.
    """
    sources = list(sources)
    total = len(sources)
    out: List[InputResult] = []

    def step(r: InputResult) -> bool:
        out.append(r)
        if progress is not None:
            progress(len(out), total)
        return strict and r.failed

    import gc
    # A batch allocates millions of short-lived objects (YAML nodes, Fractions) while the results
    # pile up; the cyclic collector would rescan those results again and again (~10% of the
    # time). Reference counting frees everything that matters; collect once at the end.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        if jobs <= 1 or total <= 1 or "-" in sources:
            for s in sources:
                if step(settle_source(s, options)):
                    break
            return out
        import multiprocessing
        from prefcli.io import documents  # noqa: F401 - imported once, shared by the forks
        from prefcli.model import records as model
        from prefcli.rules import presets
        from prefcli import scoring
        presets.presets()
        ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() \
            else multiprocessing.get_context()
        chunk = max(1, min(16, total // (jobs * 8) or 1))
        with ctx.Pool(processes=min(jobs, total), initializer=gc.disable) as pool:
            for r in pool.imap(_settle_worker, [(s, options) for s in sources], chunksize=chunk):
                if step(r):
                    pool.terminate()
                    break
        return out
    finally:
        if was_enabled:
            gc.enable()


# ---------------------------------------------------------------------------------------------
# Many inputs: totals per player name
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """A batch (a tournament, a club's season) summed per player name."""

    players: Tuple[str, ...]
    net: Dict[str, Fraction]
    money: Optional[Dict[str, Decimal]]
    payments: List[Payment]
    unit: str                                 # money | whists
    price: Optional[Decimal]
    coin: Decimal
    standings: Optional[List[Standing]] = None
    notes: Tuple[str, ...] = ()


def summarize(results: Sequence[InputResult], tournament: Optional[Tournament] = None,
              coin: Optional[Decimal] = None) -> Summary:
    """Totals per player name over the inputs that settled, and the payments on the totals.

    Money is summed exactly (each input at its own price) and rounded once, so the total money
    can differ by a coin from the sum of the per-input rounded rows; it is given only when every
    input has a price. Payments are in money when it is given, else in whists.
    """
    good = [r for r in results if r.ok]
    names: List[str] = []
    for r in good:
        for p in r.players:
            if p not in names:
                names.append(p)
    net = {p: Fraction(0) for p in names}
    exact: Dict[str, Fraction] = {p: Fraction(0) for p in names}
    have_price = bool(good) and all(r.price is not None for r in good)
    coins = {r.coin for r in good}
    the_coin = coin if coin is not None else (coins.pop() if len(coins) == 1 else min(coins, default=Decimal("0.01")))
    notes: List[str] = []
    if coin is None and len({r.coin for r in good}) > 1:
        notes.append(f"inputs use different coins; totals rounded to {the_coin}")
    if good and not have_price and any(r.price is not None for r in good):
        notes.append("some inputs have no price: totals are in whists only")
    for r in good:
        assert r.settlement is not None
        for p, v in r.settlement.net.items():
            net[p] += v
            if have_price:
                exact[p] += v * Fraction(r.price)  # type: ignore[arg-type]
    prices = {r.price for r in good}
    the_price = prices.pop() if have_price and len(prices) == 1 else None
    amounts = round_money(exact, the_coin, names) if have_price else None
    table = None
    if tournament is not None and tournament.active:
        table = standings([(r.source, r.settlement.net) for r in good if r.settlement], tournament, names)
    pays = payments(amounts, names) if amounts is not None else payments(net, names)
    return Summary(tuple(names), net, amounts, pays, "money" if amounts is not None else "whists",
                   the_price, the_coin, table, tuple(notes))


def _plain(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{float(v):.2f}"
