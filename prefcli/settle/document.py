"""The ``pref-settlement/1`` document: what ``prefcli settle -f json|yaml`` writes.

One JSON type per field, everywhere (``schemas/settlement.schema.json`` says each):

* whist amounts (``net``, ``pairwise``, ``shares``, standings ``total``…) are JSON **numbers**,
  rounded to 0.01 (half to even) — exact whenever the value has at most two decimals, which a
  sheet of whole whists always gives; the exact value of every one of them is in the ``exact``
  object beside it, as a string (``"29"``, ``"61.6"``, ``"308/15"``), so nothing is lost;
* money, ``price`` and ``coin`` are **strings** holding exact decimals (``"-2.05"``): money is
  rounded to the coin by the settlement itself (zero-sum), never by the emitter;
* payment ``amount`` is a **string**: money when the payments are in money, else exact whists.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Union

from prefcli.model.ledger import format_amount
from prefcli.model.numbers import money_text
from prefcli.model.values import display_name
from prefcli.model.records import SETTLEMENT_FORMAT

if TYPE_CHECKING:
    from prefcli.settle.money import Payment
    from prefcli.settle.results import InputResult, Summary
    from prefcli.settle.tournament import Standing, Tournament

#: Whist amounts are rounded to this many decimals in the numbers (the exact forms keep all).
ROUND_PLACES = 2


def rounded(v: Fraction) -> Union[int, float]:
    """A whist amount as a JSON number: an int when whole, else rounded to 0.01 (half to even)."""
    if v.denominator == 1:
        return int(v.numerator)
    q, r = divmod(v.numerator * 100, v.denominator)     # integer arithmetic: exact, and fast
    if 2 * r > v.denominator or (2 * r == v.denominator and q % 2):
        q += 1
    return q // 100 if q % 100 == 0 else q / 100


def exact(v: Fraction) -> str:
    """A whist amount exactly, as text: "29", "61.6", "308/15"."""
    return str(format_amount(v))


def _numbers(values: Mapping[str, Fraction]) -> Dict[str, Union[int, float]]:
    return {p: rounded(v) for p, v in values.items()}


def _exacts(values: Mapping[str, Fraction]) -> Dict[str, str]:
    return {p: exact(v) for p, v in values.items()}


def _payments(pays: Sequence[Payment], unit: str) -> List[Dict[str, str]]:
    return [{"from": p.payer, "to": p.payee,
             "amount": money_text(p.amount) if unit == "money" else exact(p.amount)} for p in pays]


def input_document(r: InputResult) -> Dict[str, Any]:
    """One settled input (an InputResult)."""
    s = r.settlement
    assert s is not None    # a settled input (InputResult.ok)
    unit = "money" if r.money is not None else "whists"
    amounts = {
        "mountain": s.sheet_mountain, "mountain_after_amnesty": s.mountain, "shares": s.shares,
        "whist_balance": s.whist_balance, "mountain_balance": s.mountain_balance,
    }
    out: Dict[str, Any] = {
        "file": display_name(r.source), "kind": r.kind, "variant": r.variant, "method": s.method,
        "rounding": s.rounding, "players": list(s.players),
        **({"finished": r.finished} if r.finished is not None else {}),
    }
    average = s.average_mountain          # a sum and a division: made once for both forms
    for key, values in amounts.items():
        out[key] = _numbers(values)
        if key == "mountain_after_amnesty":
            out["average_mountain"] = rounded(average)
    out["pairwise"] = {a: _numbers(row) for a, row in s.pairwise.items()}
    out["net"] = _numbers(s.net)
    out.update({
        "price": money_text(r.price) if r.price is not None else None,
        "coin": money_text(r.coin),
        "money": {p: money_text(v) for p, v in r.money.items()} if r.money is not None else None,
        "payments": _payments(r.payments, unit),
        "notes": list(s.notes),
    })
    ex: Dict[str, Any] = {k: _exacts(v) for k, v in amounts.items()}
    ex["average_mountain"] = exact(average)
    ex["pairwise"] = {a: _exacts(row) for a, row in s.pairwise.items()}
    ex["net"] = _exacts(s.net)
    out["exact"] = ex
    return out


def tournament_document(t: Optional[Tournament]) -> Dict[str, Any]:
    if t is None:
        return {}
    return {"name": t.name,
            "bands": [{"above": rounded(b.above), "factor": exact(b.factor)} for b in t.bands],
            "losses": t.losses, "cap": rounded(t.cap) if t.cap is not None else None,
            "floor": rounded(t.floor) if t.floor is not None else None}


def standing_document(s: Standing) -> Dict[str, Any]:
    return {"rank": s.rank, "player": s.player, "total": rounded(s.total), "games": s.games,
            "average": rounded(s.average), "whists": rounded(s.raw),
            "eliminated_after": s.eliminated_after or None,
            "exact": {"total": exact(s.total), "average": exact(s.average), "whists": exact(s.raw)}}


def summary_document(summary: Summary) -> Dict[str, Any]:
    """The totals part of a settlement document (also what ``settle --summary`` and ``merge``
    write): players, net, money, price, coin, unit, payments, and the exact nets."""
    return {
        "format": SETTLEMENT_FORMAT,
        "players": list(summary.players),
        "net": _numbers(summary.net),
        "money": {p: money_text(v) for p, v in summary.money.items()} if summary.money is not None else None,
        "price": money_text(summary.price) if summary.price is not None else None,
        "coin": money_text(summary.coin),
        "unit": summary.unit,
        "payments": _payments(summary.payments, summary.unit),
        "exact": {"net": _exacts(summary.net)},
    }


def exact_net(item: Mapping[str, Any], player: str) -> Any:
    """A player's net of a settlement document or input, exactly: from ``exact`` when the
    document has it (this version), else the ``net`` itself (documents written before)."""
    ex = item.get("exact")
    if isinstance(ex, Mapping) and isinstance(ex.get("net"), Mapping) and player in ex["net"]:
        return ex["net"][player]
    return item["net"][player]


def settlement_document(good: Sequence[InputResult], summary: Summary, bad: Sequence[InputResult] = (),
                        tournament: Optional[Tournament] = None) -> Dict[str, Any]:
    """The whole ``pref-settlement/1`` document: totals, payments, every input, the standings."""
    data = summary_document(summary)
    data["inputs"] = [input_document(r) for r in good]
    if summary.standings is not None:
        data["tournament"] = tournament_document(tournament)
        data["standings"] = [standing_document(s) for s in summary.standings]
    if summary.notes:
        data["notes"] = list(summary.notes)
    if bad:
        data["errors"] = [{"file": display_name(r.source), "problems": [p.as_dict() for p in r.problems]} for r in bad]
    return data
