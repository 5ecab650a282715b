"""Canonical writing of records and sheets (what `convert` and other commands print): the model
as plain data, which :mod:`prefcli.io.writer_text` writes as YAML or JSON.

Canonical means: keys in the order FORMAT.md presents them, cards and contracts in ASCII
(`10H`, `6NT`), a hand/talon/discard/trick as one space-separated string, amounts as integers
or exact strings ("12.5", "40/3"), the `rules` block nested and in the preset's option order
with every value in the option's canonical form. Writing a canonical record again changes
nothing, and YAML → JSON → YAML gives the same data.
"""
from __future__ import annotations

import datetime as _dt
from collections import abc
import re
from decimal import Decimal
from fractions import Fraction
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.diagnostics import PrefcliError

from prefcli.model.cards import Call, Card, Contract, format_cards
from prefcli.model.records import (RECORD_FORMAT, SHEET_FORMAT, Adjust, Deal, LogEntry, Penalty, Record, Sheet,
                    SheetData)


#: isinstance(x, _MAPPING): a plain dict is told at once (typing.Mapping's check was a tenth of convert)
_MAPPING = (dict, abc.Mapping)

# ---------------------------------------------------------------------------------------------
# Model → plain data
# ---------------------------------------------------------------------------------------------

#: Top-level keys of a record, in FORMAT.md order (`start` before the deals it precedes).
RECORD_KEYS = ("format", "meta", "players", "rules", "first_dealer", "start", "deals", "end")
#: Keys of a deal: the full example's order (cards, auction, contract, defence, play), then the
#: summary fields and the variant events.
DEAL_KEYS = ("dealer", "hands", "talon", "auction", "bid", "discard", "contract", "declarer",
             "whist", "return", "open", "dark", "bomb", "takeover", "partner", "concede", "without_all", "position",
             "play", "claim", "tricks", "irregularities", "penalties", "note")


class UnwritableValue(PrefcliError):
    """A value the format cannot hold exactly (an amount beyond the schema's bounds): convert
    refuses (exit 1) rather than write a document prefcli would not read back."""

    kind = "schema"


@lru_cache(maxsize=None)
def _amount_bounds() -> Tuple[int, "re.Pattern[str]"]:
    """The schema's own bounds of an amount: the largest integer, and the pattern of a string
    amount (read from schemas/, so writer and schema cannot drift apart)."""
    from prefcli.io.schemas import schema

    branches = schema("record")["$defs"]["amount"]["anyOf"]
    int_max = next(int(b["maximum"]) for b in branches if b.get("type") == "integer")
    pattern = re.compile(next(b["pattern"] for b in branches if b.get("type") == "string"))
    return int_max, pattern


def amount(value: Any, path: Sequence[Any] = ()) -> Any:
    """An exact amount as an int when whole, else "12.5" (terminating) or "40/3", always within
    the schema's bounds: a whole number beyond the integer limit is written as a string, and an
    amount that fits neither form exactly (1E-300, 13 decimals) is an UnwritableValue."""
    from prefcli.model.ledger import format_amount

    if isinstance(value, bool):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            return str(value)
        value = Fraction(value)
    if not isinstance(value, (int, Fraction)):
        return value
    value = Fraction(value)
    int_max, pattern = _amount_bounds()
    if value.denominator == 1 and -int_max <= value.numerator <= int_max:
        return int(value.numerator)
    if value.denominator == 1 and len(str(abs(value.numerator))) <= 15:
        text = str(value.numerator)       # 15 digits at most: never a huge string to match
    else:
        text = str(format_amount(value)) if value.denominator < 10 ** 15 else ""
    if text and pattern.match(text):
        return text
    fraction = f"{value.numerator}/{value.denominator}"
    if len(fraction) <= 30 and pattern.match(fraction):
        return fraction
    shown = _short_number(value)
    raise UnwritableValue(f"the amount {shown} cannot be written exactly within the format's bounds "
                          "(an integer up to ±1000000000, or at most 12 digits before and after the "
                          "point, or a fraction of two 12-digit numbers)", tuple(path))


def _short_number(value: Fraction) -> str:
    """A readable form of any amount, however many digits it has (1E-300, 123456…/7)."""
    try:
        d = Decimal(value.numerator) / Decimal(value.denominator)
    except ArithmeticError:
        return f"{value.numerator}/{value.denominator}"
    text = format(d, "f")
    return text if len(text) <= DECIMAL_WIDTH else format(d, ".6g")


def _plain(value: Any) -> Any:
    """Free data (meta, end, unknown options) in a form both YAML and JSON can carry."""
    if isinstance(value, _MAPPING):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        from prefcli.model.ledger import format_amount
        return format_amount(value) if value.denominator < 10 ** 15 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, (Card, Contract, Call)):
        return str(value)
    return value


#: What the writer asks of the rules layer to write a `rules` block canonically: the options of a
#: block's variant, in the preset's order, each with its name and ``coerce`` (``None``: the block is
#: written as given). The rules layer hands it in (:mod:`prefcli.rules.canonical`), so io never
#: imports the rules.
OptionCatalogue = Callable[[Mapping[str, Any]], Sequence[Any]]


def _flatten(mapping: Mapping[str, Any], prefix: str = "") -> List[Tuple[str, Any]]:
    out: List[Tuple[str, Any]] = []
    for k, v in mapping.items():
        if isinstance(v, Mapping):
            out.extend(_flatten(v, f"{prefix}{k}."))
        else:
            out.append((f"{prefix}{k}", v))
    return out


def rules_to_data(rules: Mapping[str, Any], catalogue: Optional[OptionCatalogue] = None) -> Dict[str, Any]:
    """The `rules` block, nested, variant first, options in the preset's order (from `catalogue`;
    without one, as written), values canonical.

    Values that do not fit their option (or options the variant does not know) are kept as
    written: refusing them is `validate`'s job, and a converter must not silently change them.
    """
    flat = _flatten(rules)
    options: Dict[str, Any] = {o.name: o for o in (catalogue(rules) if catalogue is not None else ())}
    order = {name: i for i, name in enumerate(options)}
    values: Dict[str, Any] = {}
    for name, value in flat:
        opt = options.get(name)
        if name == "variant" and isinstance(value, str):
            values[name] = value.strip().lower()
            continue
        if opt is not None and value is not None:
            try:
                value = _plain(opt.coerce(value))
            except ValueError:
                pass
        values[name] = _plain(value)
    names = sorted(values, key=lambda n: (n != "variant", order.get(n, len(order)), ))
    out: Dict[str, Any] = {}
    for name in names:
        parts = name.split(".")
        node = out
        for part in parts[:-1]:
            nxt = node.get(part)
            if not isinstance(nxt, dict):
                nxt = node[part] = {}
            node = nxt
        node[parts[-1]] = values[name]
    return out


def _pairs(items: Optional[Sequence[Tuple[str, Any]]], conv=lambda v: v) -> Dict[str, Any]:
    return {name: conv(v) for name, v in (items or ())}


def penalty_to_data(p: Penalty, path: Tuple[Any, ...] = ()) -> Dict[str, Any]:
    out: Dict[str, Any] = {"player": p.player}
    if p.mountain:
        out["mountain"] = amount(p.mountain, path + ("mountain",))
    if p.pool:
        out["pool"] = amount(p.pool, path + ("pool",))
    if p.whists_on is not None or p.whists:
        out["whists"] = {"on": p.whists_on, "amount": amount(p.whists, path + ("whists", "amount"))}
    if p.reason is not None:
        out["reason"] = _plain(p.reason)
    return out


def deal_to_data(deal: Deal, path: Tuple[Any, ...] = ()) -> Dict[str, Any]:
    """One deal in canonical key order; only the fields it carries."""
    d: Dict[str, Any] = {}
    if deal.dealer is not None:
        d["dealer"] = deal.dealer
    if deal.hands is not None:
        d["hands"] = _pairs(deal.hands, format_cards)
    if deal.talon is not None:
        d["talon"] = format_cards(deal.talon)
    if deal.auction is not None:
        d["auction"] = [str(c) for c in deal.auction]
    if deal.bid is not None:
        d["bid"] = str(deal.bid)
    if deal.discard is not None:
        d["discard"] = format_cards(deal.discard)
    d["contract"] = str(deal.contract)
    if deal.declarer is not None:
        d["declarer"] = deal.declarer
    if deal.whist:
        d["whist"] = _pairs(deal.whist, str)
    if deal.returned_by is not None:
        d["return"] = deal.returned_by
    if deal.open is not None:
        d["open"] = deal.open
    if deal.dark:
        d["dark"] = True
    if deal.bomb is not None:
        d["bomb"] = deal.bomb
    if deal.takeover is not None:
        d["takeover"] = deal.takeover
    if deal.partner is not None:
        d["partner"] = deal.partner
    if deal.concede:
        d["concede"] = True
    if deal.without_all:
        d["without_all"] = True
    if deal.position:
        d["position"] = True
    if deal.play is not None:
        d["play"] = [format_cards(t) for t in deal.play]
    if deal.claim is not None:
        d["claim"] = _pairs(deal.claim)
    if deal.tricks is not None:
        d["tricks"] = _pairs(deal.tricks)
    if deal.irregularities:
        d["irregularities"] = [{"kind": i.kind, "by": i.by} for i in deal.irregularities]
    if deal.penalties:
        d["penalties"] = [penalty_to_data(p, path + ("penalties", i)) for i, p in enumerate(deal.penalties)]
    if deal.note is not None:
        d["note"] = deal.note
    return d


def adjust_to_data(adj: Adjust, path: Tuple[Any, ...] = ()) -> Dict[str, Any]:
    inner: Dict[str, Any] = {}
    here = path + ("adjust",)
    if adj.pool:
        inner["pool"] = {name: amount(v, here + ("pool", name)) for name, v in adj.pool}
    if adj.mountain:
        inner["mountain"] = {name: amount(v, here + ("mountain", name)) for name, v in adj.mountain}
    if adj.whists:
        rows: Dict[str, Dict[str, Any]] = {}
        for writer, on, amt in adj.whists:
            rows.setdefault(writer, {})[on] = amount(amt, here + ("whists", writer, on))
        inner["whists"] = rows
    if adj.note is not None:
        inner["note"] = adj.note
    return {"adjust": inner}


def sheet_data_to_data(sheet: SheetData, players: Sequence[str], path: Tuple[Any, ...] = ()) -> Dict[str, Any]:
    """pool, mountain (every player) and whists (rows without their zero entries)."""
    order = list(players) + [p for p in sheet.pool if p not in players]
    out: Dict[str, Any] = {
        "pool": {p: amount(sheet.pool.get(p, 0), path + ("pool", p)) for p in order
                 if p in sheet.pool or p in players},
        "mountain": {p: amount(sheet.mountain.get(p, 0), path + ("mountain", p)) for p in order
                     if p in sheet.mountain or p in players},
    }
    whists: Dict[str, Dict[str, Any]] = {}
    writers = list(players) + [w for w in sheet.whists if w not in players]
    for w in writers:
        row = sheet.whists.get(w) or {}
        ons = [q for q in players if q in row] + [q for q in row if q not in players]
        kept = {q: amount(row[q], path + ("whists", w, q)) for q in ons if row[q] != 0}
        if kept:
            whists[w] = kept
    out["whists"] = whists
    if sheet.state:
        out["state"] = _plain(dict(sheet.state))
    return out


def record_to_data(record: Record, catalogue: Optional[OptionCatalogue] = None) -> Dict[str, Any]:
    """A record as plain data in canonical form (FORMAT.md key order; the rules block in the
    preset's order given `catalogue`: :func:`prefcli.rules.canonical.record_to_data` gives it)."""
    out = _record_head(record, catalogue)
    out["deals"] = [entry_to_data(e, i) for i, e in enumerate(record.deals)]
    out.update(_record_tail(record))
    return out


def _record_head(record: Record, catalogue: Optional[OptionCatalogue]) -> Dict[str, Any]:
    """Every key of a record's plain data before `deals`, in FORMAT.md's order."""
    out: Dict[str, Any] = {"format": RECORD_FORMAT}
    if record.meta:
        out["meta"] = _plain(record.meta)
    out["players"] = list(record.players)
    out["rules"] = rules_to_data(record.rules, catalogue)
    if record.first_dealer is not None:
        out["first_dealer"] = record.first_dealer
    if record.start is not None:
        out["start"] = sheet_data_to_data(record.start, record.players, ("start",))
    return out


def _record_tail(record: Record) -> Dict[str, Any]:
    """Every key after `deals`."""
    return {"end": _plain(record.end)} if record.end is not None else {}


def entry_to_data(entry: Any, index: int) -> Dict[str, Any]:
    """One entry of `deals` (a deal or an adjust) as plain data; `index` places its errors."""
    if isinstance(entry, Deal):
        return deal_to_data(entry, ("deals", index))
    return adjust_to_data(entry, ("deals", index))


@dataclass
class RecordParts:
    """A record's plain data in three parts, for a writer that writes the deals one at a time
    (convert of a large record): `head` (every key before `deals`), the deals made one by one
    (:meth:`deals`), and `tail` (every key after). Joined, they are :func:`record_to_data`."""

    head: Dict[str, Any]
    record: Record
    tail: Dict[str, Any]

    def deals(self) -> Iterator[Dict[str, Any]]:
        for i, e in enumerate(self.record.deals):
            yield entry_to_data(e, i)

    def entries(self) -> Iterator[Any]:
        """The `deals` entries as the streamed writers take them: a deal as the model's Deal,
        written from it (its card texts made canonical from its cards), a deal with penalties
        and an adjust as their plain data (their amounts)."""
        for i, e in enumerate(self.record.deals):
            yield e if isinstance(e, Deal) and not e.penalties else entry_to_data(e, i)

    def check(self) -> None:
        """Raise UnwritableValue now, before anything is written, for an amount a deal cannot
        hold: only penalties and adjusts carry amounts, so only those are made here."""
        for i, e in enumerate(self.record.deals):
            if not isinstance(e, Deal) or e.penalties:
                entry_to_data(e, i)

    def data(self) -> Dict[str, Any]:
        out = dict(self.head)
        out["deals"] = list(self.deals())
        out.update(self.tail)
        return out


def record_parts(record: Record, catalogue: Optional[OptionCatalogue] = None) -> RecordParts:
    """:func:`record_to_data` as a head, the deals made on demand, and a tail: what the streamed
    writers (:func:`prefcli.io.writer_json.dump_chunks`) take, so the plain data of one deal at a
    time is alive. Amounts are checked at once (:meth:`RecordParts.check`)."""
    parts = RecordParts(_record_head(record, catalogue), record, _record_tail(record))
    parts.check()
    return parts


def sheet_to_data(sheet: Sheet, catalogue: Optional[OptionCatalogue] = None) -> Dict[str, Any]:
    """A `pref-sheet/1` document in canonical form (the rules block as in :func:`record_to_data`)."""
    out: Dict[str, Any] = {"format": SHEET_FORMAT}
    if sheet.meta:
        out["meta"] = _plain(sheet.meta)
    out["players"] = list(sheet.players)
    out["rules"] = rules_to_data(sheet.rules, catalogue)
    out.update(sheet_data_to_data(sheet.data, sheet.players))
    if sheet.log:
        out["log"] = [log_entry_to_data(e) for e in sheet.log]
    return out


def log_entry_to_data(entry: LogEntry) -> Dict[str, Any]:
    """One write of a sheet's running log: deal, area, player, on, value, note."""
    out: Dict[str, Any] = {}
    if entry.deal is not None:
        out["deal"] = entry.deal
    out["area"] = entry.area
    out["player"] = entry.player
    if entry.on is not None:
        out["on"] = entry.on
    out["value"] = amount(entry.value)
    if entry.note is not None:
        out["note"] = entry.note
    return out


#: a decimal is written out in full up to this many characters, else in exponent form
DECIMAL_WIDTH = 40
