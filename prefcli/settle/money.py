"""Money and payments: exact net whists × a price, rounded once to the coin, zero-sum; and the
fewest transfers that clear the balances."""
from __future__ import annotations

import decimal
import heapq
import math
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, Generic, Iterable, List, Mapping, Optional, Sequence, TypeVar

from prefcli.settle.methods import SettlementError, round_half_away

# Balances are all exact (Fraction) or all in coins (Decimal): the two never mix in one sum.
N = TypeVar("N", Fraction, Decimal)

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
    return {p: _coins(units[p], coin) for p in names}


def _coins(units: int, coin: Decimal) -> Decimal:
    """`units` × `coin` exactly, in the coin's exponent (Decimal's own multiplication rounds
    to the context's 28 digits, which a large price times a large net outgrows)."""
    sign, digits, exp = coin.as_tuple()
    assert isinstance(exp, int)
    value = units * int("".join(map(str, digits)) or "0")
    return Decimal((1 if (value < 0) != bool(sign) and value != 0 else 0,
                    tuple(int(c) for c in str(abs(value))), exp))


def _exact_context() -> decimal.Context:
    """Additions and subtractions of money without rounding (at most MAX_PREC digits: every
    bounded price and coin fits with room to spare). Made once: ``decimal.localcontext``
    works on a copy of it."""
    return _EXACT_CONTEXT


_EXACT_CONTEXT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN,
                                 traps=[decimal.InvalidOperation, decimal.Overflow])


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
class Payment(Generic[N]):
    payer: str
    payee: str
    amount: N


def payments(balances: Mapping[str, N], order: Optional[Sequence[str]] = None) -> List[Payment[N]]:
    """Transfers that clear every balance (positive = receives), by the greedy method.

    The largest debtor pays the largest creditor as much as one of them needs, until everybody
    is square: at most n − 1 transfers, each amount a difference of balances (so whole coins
    when the balances are). Ties go to the earlier seat in `order`. The balances must sum to 0.
    """
    if not _has_decimal(balances):      # whists (Fractions): no Decimal is added
        return _payments(balances, order)
    with decimal.localcontext(_exact_context()):
        return _payments(balances, order)


def _has_decimal(balances: Mapping[str, Any]) -> bool:
    return not all(type(v) is Fraction for v in balances.values())


def _payments(balances: Mapping[str, N], order: Optional[Sequence[str]] = None) -> List[Payment[N]]:
    names = list(order) if order is not None else list(balances)
    zero = _zero_like(balances)
    if sum((balances[p] for p in names), zero) != 0:
        raise SettlementError("balances do not sum to zero; no payments can clear them")
    # The largest debtor and the largest creditor, each kept in a heap: (balance, seat) of the
    # debtors, (-balance, seat) of the creditors, so the least entry of each is the one a scan
    # of every name picks (ties to the earlier seat). Only the two that pay change, and the one
    # left unsquared goes back: n log n, where a scan of everybody at each transfer was the
    # square of the players (a season whose games each have their own players).
    seat = {p: i for i, p in enumerate(names)}
    debtors = [(balances[p], i, p) for p, i in seat.items() if balances[p] < 0]
    creditors = [(-balances[p], i, p, balances[p]) for p, i in seat.items() if balances[p] > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    out: List[Payment[N]] = []
    while debtors and creditors:
        owes, di, d = debtors[0]
        _, ci, c, due = creditors[0]
        amount = min(-owes, due)            # what d owes, what c is due: the lesser
        out.append(Payment(d, c, amount))
        rest_d = owes + amount
        rest_c = due - amount
        if rest_d < 0:
            heapq.heapreplace(debtors, (rest_d, di, d))
        else:
            heapq.heappop(debtors)
        if rest_c > 0:
            heapq.heapreplace(creditors, (-rest_c, ci, c, rest_c))
        else:
            heapq.heappop(creditors)
    check_payments(balances, out)
    return out


def _zero_like(balances: Mapping[str, N]) -> N:
    for v in balances.values():
        return Decimal(0) if isinstance(v, Decimal) else Fraction(0)
    return Fraction(0)  # type: ignore[return-value]  # no balances: nothing is added to it


def check_payments(balances: Mapping[str, N], pays: Iterable[Payment[N]]) -> None:
    """Raise unless the payments reproduce the balances exactly."""
    if not _has_decimal(balances):
        _check_payments(balances, pays)
        return
    with decimal.localcontext(_exact_context()):
        _check_payments(balances, pays)


def _check_payments(balances: Mapping[str, N], pays: Iterable[Payment[N]]) -> None:
    zero = _zero_like(balances)
    got: Dict[str, N] = {p: zero for p in balances}
    for pay in pays:
        if pay.amount <= 0:
            raise SettlementError(f"payment of {pay.amount} from {pay.payer} to {pay.payee} is not positive")
        got[pay.payer] = got.get(pay.payer, zero) - pay.amount
        got[pay.payee] = got.get(pay.payee, zero) + pay.amount
    for p in set(got) | set(balances):
        if got.get(p, zero) != balances.get(p, zero):
            raise SettlementError(f"payments give {p} {got.get(p, zero)}, the balance is {balances.get(p, zero)}")


