"""One input settled (a record scored first, or a sheet), and many inputs summed per player name.

:func:`settle_document` works on a loaded record or sheet; reading files, batches and worker
processes are :mod:`prefcli.app.settle`.
"""
from __future__ import annotations

from prefcli.model.values import lookalike_notes
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

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


class Settled(NamedTuple):
    """One input of a streamed batch as its parent process needs it: what the totals fold
    (:meth:`SummaryFold.add`) and the output (`piece`, that input's part of the output, made
    by the render step the batch was given) read, or the problems that stopped it.

    Why: a worker that sent back the whole :class:`InputResult` (a settlement of Fractions
    and dicts) left the parent to unpickle it and to build and render its document, a sixth
    of the batch's CPU in one process while the two workers waited for it (``settle --jobs
    2``). The worker renders its inputs now; a plain tuple of texts and a few numbers
    crosses the pipe."""

    source: str
    kind: str = ""
    problems: Tuple[Problem, ...] = ()
    tournament: Optional[Tournament] = None
    players: Tuple[str, ...] = ()
    net: Optional[Dict[str, Fraction]] = None
    price: Optional[Decimal] = None
    coin: Decimal = Decimal("0.01")
    piece: Any = None

    @property
    def ok(self) -> bool:
        return self.net is not None and not self.problems

    @property
    def failed(self) -> bool:
        return bool(self.problems)

    @classmethod
    def of(cls, r: InputResult, render: Callable[[InputResult], Any]) -> "Settled":
        """`r` with its piece rendered (a settled input) or its problems (any other)."""
        if r.ok:
            s = r.settlement
            assert s is not None
            return cls(r.source, r.kind, (), None, s.players, s.net, r.price, r.coin, render(r))
        return cls(r.source, r.kind, r.problems, r.tournament)


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
    skipped: List[str] = []
    if isinstance(obj, Record):
        from prefcli.model.ledger import totals_only
        from prefcli.scoring import score
        with totals_only():            # settling reads the final sheet, not the entries
            result = score(obj, variant=options.variant, sets=list(options.sets))
        rules = result.rules
        sheet = result.sheet()
        kind = "record"
        finished = bool(result.finished)
        skipped = result.positions
    else:
        rules = resolve_rules(obj.rules, variant=options.variant, sets=list(options.sets))
        sheet = obj.data
        kind = "sheet"
        if sheet.state:          # the game's state a continued record takes up: the family's fields only
            from prefcli.rules.state import check_state
            family = rules.family if options.variant is None else resolve_rules(obj.rules).family
            check_state(sheet.state, family, obj.players, ("state",))
    settlement = settle_sheet(sheet, rules)
    if skipped:         # the positions the scorer skipped, said so
        from dataclasses import replace
        settlement = replace(settlement, notes=tuple(skipped) + tuple(settlement.notes))
    price = options.price if options.price is not None else (
        _decimal(rules.get("price"), "price") if rules.get("price") is not None else None)
    coin = options.coin if options.coin is not None else (
        _decimal(rules.get("coin"), "coin") if rules.get("coin") is not None else Decimal("0.01"))
    if coin <= 0:
        raise SettlementError("coin must be positive", ("rules", "coin"))
    amounts = money(settlement.net, price, coin, settlement.players) if price is not None else None
    word = rules.word("mountain") if hasattr(rules, "word") else "mountain"
    pays = _clearing(amounts, settlement)
    return InputResult(source, kind, rules.variant if hasattr(rules, "variant") else None,
                       settlement, price, coin, amounts, finished, mountain_word=word, payments=pays)


_DECIMALS: Dict[Tuple[type, Any, str], Decimal] = {}


def _decimal(value: Any, what: str) -> Decimal:
    """:func:`to_decimal` of a rules option, each text or int read once per batch (every input
    of a club's batch names the same price and coin); a bad one raises each time."""
    if type(value) is not str and type(value) is not int:
        return to_decimal(value, what)
    key = (type(value), value, what)
    got = _DECIMALS.get(key)
    if got is None:
        got = to_decimal(value, what)
        if len(_DECIMALS) >= 256:
            _DECIMALS.clear()
        _DECIMALS[key] = got
    return got


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


def batch_notes(mixed_coins: bool, the_coin: Decimal, some_unpriced: bool, names: Sequence[str]) -> Tuple[str, ...]:
    """What a batch's totals say beside them, the same from each way of summing (this fold, and
    :meth:`prefcli.settle.totals.Totals.summary` for ``--summary`` and ``merge``)."""
    notes: List[str] = []
    if mixed_coins:
        notes.append(f"inputs use different coins; totals rounded to {the_coin}")
    if some_unpriced:
        notes.append("some inputs have no price: totals are in whists only")
    return tuple(notes + lookalike_notes(names))


class SummaryFold:
    """:func:`summarize`, one result at a time: what it keeps is per player name (and the
    distinct prices and coins), never per input, except each input's net when the standings
    need it (`rounds`). The streamed settle output folds its results here."""

    def __init__(self, rounds: bool = False) -> None:
        self.names: List[str] = []
        self.net: Dict[str, Fraction] = {}
        self.exact: Dict[str, Fraction] = {}
        self.count = 0
        self.priced = 0
        self.coins: Set[Decimal] = set()
        self.prices: Set[Optional[Decimal]] = set()
        self.rounds: Optional[List[Tuple[str, Dict[str, Fraction]]]] = [] if rounds else None

    def add(self, r: Any) -> None:
        """One result: an :class:`InputResult` or a :class:`Settled` (a failed one adds nothing)."""
        if not r.ok:
            return
        net: Optional[Dict[str, Fraction]] = r.net if type(r) is Settled else r.settlement.net
        assert net is not None
        self.count += 1
        for p in r.players:
            if p not in self.net:
                self.names.append(p)
                self.net[p] = Fraction(0)
                self.exact[p] = Fraction(0)
        self.coins.add(r.coin)
        self.prices.add(r.price)
        if r.price is not None:
            self.priced += 1
        for p, v in net.items():
            self.net[p] += v
            if r.price is not None:
                self.exact[p] += v * Fraction(r.price)
        if self.rounds is not None:
            self.rounds.append((r.source, dict(net)))

    def summary(self, tournament: Optional[Tournament] = None, coin: Optional[Decimal] = None) -> Summary:
        """Totals, money and payments of what was added (as :func:`summarize` says)."""
        names = self.names
        net = dict(self.net)
        have_price = self.count > 0 and self.priced == self.count
        coins = set(self.coins)
        the_coin = coin if coin is not None else (coins.pop() if len(coins) == 1 else min(coins, default=Decimal("0.01")))
        notes = batch_notes(coin is None and len(self.coins) > 1, the_coin,
                            bool(self.count and not have_price and self.priced), names)
        prices = set(self.prices)
        the_price = prices.pop() if have_price and len(prices) == 1 else None
        amounts = round_money(self.exact, the_coin, names) if have_price else None
        table = None
        if tournament is not None and tournament.active:
            assert self.rounds is not None, "the standings need SummaryFold(rounds=True)"
            table = standings(self.rounds, tournament, names)
        pays: List[Payment] = []
        if amounts is not None:     # on the totals: in money when every input has a price
            pays = payments(amounts, names)
        else:
            pays = payments(net, names)
        return Summary(tuple(names), net, amounts, pays, "money" if amounts is not None else "whists",
                       the_price, the_coin, table, notes)


def summarize(results: Sequence[InputResult], tournament: Optional[Tournament] = None,
              coin: Optional[Decimal] = None) -> Summary:
    """Totals per player name over the inputs that settled, and the payments on the totals.

    Money is summed exactly (each input at its own price) and rounded once, so the total money
    can differ by a coin from the sum of the per-input rounded rows; it is given only when every
    input has a price. Payments are in money when it is given, else in whists.
    """
    fold = SummaryFold(rounds=tournament is not None and tournament.active)
    for r in results:
        fold.add(r)
    return fold.summary(tournament, coin)
