"""One input settled (a record scored first, or a sheet), and many inputs summed per player name.

:func:`settle_document` works on a loaded record or sheet; reading files, batches and worker
processes are :mod:`prefcli.app.settle`.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import Problem

from prefcli.settle.methods import Settlement, SettlementError, settle_sheet, to_decimal
from prefcli.settle.money import Payment, money, payments, round_money
from prefcli.settle.tournament import Standing, Tournament, standings

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
        if sheet.state:          # the game's state a continued record takes up: the family's fields only
            from prefcli.rules.state import check_state
            family = rules.family if options.variant is None else resolve_rules(obj.rules).family
            check_state(sheet.state, family, obj.players, ("state",))
    settlement = settle_sheet(sheet, rules)
    price = options.price if options.price is not None else (
        to_decimal(rules.get("price"), "price") if rules.get("price") is not None else None)
    coin = options.coin if options.coin is not None else (
        to_decimal(rules.get("coin"), "coin") if rules.get("coin") is not None else Decimal("0.01"))
    if coin <= 0:
        raise SettlementError("coin must be positive", ("rules", "coin"))
    amounts = money(settlement.net, price, coin, settlement.players) if price is not None else None
    word = rules.word("mountain") if hasattr(rules, "word") else "mountain"
    pays = _clearing(amounts, settlement)
    return InputResult(source, kind, rules.variant if hasattr(rules, "variant") else None,
                       settlement, price, coin, amounts, finished, mountain_word=word, payments=pays)


def _clearing(amounts: Optional[Dict[str, Decimal]], settlement: Settlement) -> Tuple[Payment, ...]:
    """The transfers that clear one input: in money when it has a price, else in whists."""
    if amounts is not None:
        return tuple(payments(amounts, settlement.players))
    return tuple(payments(settlement.net, settlement.players))


def reprice(result: InputResult, price: Optional[Decimal], coin: Optional[Decimal]) -> InputResult:
    """The same result at another price and/or coin (None keeps the result's own)."""
    from dataclasses import replace
    if result.settlement is None or (price is None and coin is None):
        return result
    p = price if price is not None else result.price
    c = coin if coin is not None else result.coin
    amounts = money(result.settlement.net, p, c, result.settlement.players) if p is not None else None
    pays = _clearing(amounts, result.settlement)
    return replace(result, price=p, coin=c, money=amounts, payments=pays)


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
    pays: List[Payment] = []
    if amounts is not None:     # on the totals: in money when every input has a price
        pays = payments(amounts, names)
    else:
        pays = payments(net, names)
    return Summary(tuple(names), net, amounts, pays, "money" if amounts is not None else "whists",
                   the_price, the_coin, table, tuple(notes))
