"""Settlement of a batch as map and merge: per-input :class:`Totals`, added exactly.

:func:`Totals.of` is a pure function of one settled input; ``+`` adds two totals (exact
fractions, counts and sets), so it is associative and commutative and a batch can be split
into shards anywhere (processes, a Dask cluster, xargs on many machines) and added back with the
same totals as one run. :meth:`Totals.summary` is :func:`prefcli.settle.summarize` computed
from the totals alone: money is rounded once, at the end.

Only the order players are listed in depends on the order of the parts (first appearance);
equality ignores it.
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Tuple

from prefcli.settle import InputResult, Payment, Summary, payments, round_money
from prefcli.settle.results import batch_notes


def _add(a: Mapping[str, Any], b: Mapping[str, Any]) -> Dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out[k] + v if k in out else v
    return out


@dataclass(frozen=True)
class Totals:
    net: Mapping[str, Fraction] = field(default_factory=dict)          # net whists per player name
    exact_money: Mapping[str, Fraction] = field(default_factory=dict)  # Σ net × price (priced inputs)
    games: Mapping[str, int] = field(default_factory=dict)
    inputs: int = 0
    priced: int = 0
    prices: FrozenSet[Decimal] = frozenset()
    coins: FrozenSet[Decimal] = frozenset()
    order: Tuple[str, ...] = field(default=(), compare=False)         # first appearance

    @staticmethod
    def of(net: Mapping[str, Fraction], price: Optional[Decimal], coin: Decimal,
           players: Optional[Sequence[str]] = None) -> "Totals":
        """The totals of one settled input (its net whists, its price and coin)."""
        names = tuple(players) if players is not None else tuple(net)
        nets = {p: Fraction(net[p]) for p in names}
        money = {p: v * Fraction(price) for p, v in nets.items()} if price is not None else {}
        return Totals(nets, money, {p: 1 for p in names}, 1, 1 if price is not None else 0,
                      frozenset({price}) if price is not None else frozenset(), frozenset({coin}), names)

    @staticmethod
    def of_result(r: InputResult) -> "Totals":
        """The totals of a settled :class:`~prefcli.settle.InputResult`."""
        assert r.settlement is not None    # a settled input (InputResult.ok)
        return Totals.of(r.settlement.net, r.price, r.coin, r.settlement.players)

    def __add__(self, o: "Totals") -> "Totals":
        seen = set(self.order)        # once, not once a name: a batch adds thousands of parts
        order = self.order + tuple(p for p in o.order if p not in seen)
        return Totals(_add(self.net, o.net), _add(self.exact_money, o.exact_money), _add(self.games, o.games),
                      self.inputs + o.inputs, self.priced + o.priced, self.prices | o.prices,
                      self.coins | o.coins, order)

    @staticmethod
    def total(parts: "Iterable[Totals]") -> "Totals":
        """``sum(parts, Totals())`` as ``+`` adds them, left to right, folded into one set of
        dicts: each ``+`` copies what came before, so a batch whose inputs have their own
        players (every name new) took time as the square of the inputs."""
        net: Dict[str, Any] = {}
        money: Dict[str, Any] = {}
        games: Dict[str, Any] = {}
        inputs = priced = 0
        prices: set = set()
        coins: set = set()
        order: List[str] = []
        seen: set = set()
        for o in parts:
            for acc, add in ((net, o.net), (money, o.exact_money), (games, o.games)):
                for k, v in add.items():
                    acc[k] = acc[k] + v if k in acc else v
            inputs += o.inputs
            priced += o.priced
            prices |= o.prices
            coins |= o.coins
            for p in o.order:
                if p not in seen:
                    seen.add(p)
                    order.append(p)
        return Totals(net, money, games, inputs, priced, frozenset(prices), frozenset(coins), tuple(order))

    def summary(self, coin: Optional[Decimal] = None) -> Summary:
        """The batch's totals and payments, as :func:`prefcli.settle.summarize` gives them."""
        names = _names(self)
        have_price = self.inputs > 0 and self.priced == self.inputs
        coins = set(self.coins)
        the_coin = coin if coin is not None else (
            next(iter(coins)) if len(coins) == 1 else min(coins, default=Decimal("0.01")))
        notes = batch_notes(coin is None and len(coins) > 1, the_coin,
                            bool(self.inputs and not have_price and self.priced), names)
        net = {p: self.net[p] for p in names}
        the_price = next(iter(self.prices)) if have_price and len(self.prices) == 1 else None
        amounts = round_money({p: self.exact_money[p] for p in names}, the_coin, names) if have_price else None
        pays: List[Payment] = []
        if amounts is not None:
            pays = payments(amounts, names)
        else:
            pays = payments(net, names)
        return Summary(tuple(names), net, amounts, pays, "money" if amounts is not None else "whists",
                       the_price, the_coin, None, notes)


def _names(t: Totals) -> List[str]:
    """The players in order of first appearance, then any others by name (a set looked in:
    ``in`` the order tuple was a scan of every player for each player)."""
    listed = set(t.order)
    return list(t.order) + sorted(p for p in t.net if p not in listed)


def totals_data(t: Totals) -> Dict[str, Any]:
    """The exact totals as plain data (`settle --summary -f json` writes them; `merge` reads them)."""
    from prefcli.model.ledger import format_amount
    names = _names(t)
    return {"players": names,
            "net": {p: format_amount(t.net[p]) for p in names},
            "exact_money": {p: format_amount(t.exact_money[p]) for p in names if p in t.exact_money},
            "games": {p: t.games.get(p, 0) for p in names},
            "inputs": t.inputs, "priced": t.priced,
            "prices": sorted(str(x) for x in t.prices), "coins": sorted(str(x) for x in t.coins)}


def totals_from_data(d: Mapping[str, Any]) -> Totals:
    from prefcli.model.records import to_fraction
    names = tuple(str(p) for p in d["players"])
    return Totals({p: to_fraction(d["net"][p]) for p in names},
                  {str(p): to_fraction(v) for p, v in (d.get("exact_money") or {}).items()},
                  {str(p): int(v) for p, v in (d.get("games") or {}).items()},
                  int(d["inputs"]), int(d["priced"]), frozenset(Decimal(str(x)) for x in d.get("prices") or ()),
                  frozenset(Decimal(str(x)) for x in d.get("coins") or ()), names)
