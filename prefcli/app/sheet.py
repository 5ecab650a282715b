"""A scored game as data: the ``pref-sheet/1`` document of its sheet after any deal, the ledger
entries behind it, and the :class:`SheetSource` a drawing is made from. Building documents is
the application layer's; :mod:`prefcli.render.sheet` and :mod:`prefcli.render.svg` only lay them
out (and re-export these names)."""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from prefcli.model.records import SHEET_FORMAT, Adjust, Deal, SheetData
from prefcli.model.ledger import Entry, format_amount

if TYPE_CHECKING:
    from prefcli.model.cards import Contract
    from prefcli.model.records import Sheet
    from prefcli.rules.presets import Rules

ZERO = Fraction(0)


def rules_document(rules: Rules) -> Dict[str, Any]:
    """Every resolved option as nested plain data (the rules' own nesting, :meth:`Rules.as_mapping`)."""
    return rules.as_mapping()


def entries_upto(result: Any, upto: Optional[int] = None) -> List[Entry]:
    if upto is None:
        return list(result.ledger.entries)
    return [e for e in result.ledger.entries if e.deal is None or e.deal <= upto]


def sheet_after(result: Any, upto: Optional[int] = None) -> SheetData:
    """The sheet after deal `upto`: the sum of the ledger's entries (``Ledger.sheet``)."""
    return result.ledger.sheet(upto)


def _amounts(values: Dict[str, Fraction], players: Sequence[str]) -> Dict[str, Any]:
    return {p: format_amount(values.get(p, ZERO)) for p in players}


def sheet_document(result: Any, upto: Optional[int] = None, explain: bool = False) -> Dict[str, Any]:
    """The ``pref-sheet/1`` document of the sheet after deal `upto` (all deals when None)."""
    sheet: SheetData = sheet_after(result, upto)
    players = list(result.ledger.players)
    doc: Dict[str, Any] = {"format": SHEET_FORMAT, "players": players}
    meta = dict(getattr(result.record, "meta", {}) or {})
    if meta:
        doc["meta"] = {str(k): v for k, v in meta.items()}
    doc["rules"] = rules_document(result.rules)
    doc["pool"] = _amounts(sheet.pool, players)
    doc["mountain"] = _amounts(sheet.mountain, players)
    doc["whists"] = {p: {q: format_amount(sheet.whists.get(p, {}).get(q, ZERO)) for q in players if q != p}
                     for p in players}
    state = state_after(result, upto)
    if state:
        from prefcli.rules.state import state_document
        doc["state"] = state_document(state, result.rules.family, players)
    total = len(result.record.deals)
    scored = total if upto is None else min(upto, total)
    status: Dict[str, Any] = {"deals": scored, "of": total, "finished": finished_after(result, scored)}
    if result.notes:
        status["notes"] = list(result.notes)
    if explain:
        status["entries"] = [entry_plain(e) for e in entries_upto(result, upto)]
    doc["status"] = status
    return doc


def state_after(result: Any, upto: Optional[int] = None) -> Dict[str, Any]:
    """The game's state after deal `upto` (the family's fields, :attr:`ScoreResult.state`).

    A scorer keeps the state after its last deal; the state after an earlier deal is the state of
    the record cut after that deal, scored under the same rules (scoring reads the deals in order
    and looks at none ahead, so the cut record's state is the whole record's at that point)."""
    state = dict(getattr(result, "state", None) or {})
    record = result.record
    if upto is None or upto >= len(record.deals) or not state:
        return state
    import dataclasses
    from prefcli.scoring import score
    cut = dataclasses.replace(record, deals=record.deals[:max(upto, 0)], end=None)
    return dict(score(cut, result.rules).state)


def finished_after(result: Any, scored: int) -> bool:
    """Whether the game had ended after `scored` deals (a scorer may say where: extra.ended_at)."""
    if scored >= len(result.record.deals):
        return bool(result.finished)
    ended = (getattr(result, "extra", None) or {}).get("ended_at")
    return isinstance(ended, int) and ended <= scored


def entry_plain(e: Entry) -> Dict[str, Any]:
    out: Dict[str, Any] = {"deal": e.deal, "player": e.player, "area": e.area}
    if e.on is not None:
        out["on"] = e.on
    out["amount"] = format_amount(e.amount)
    out["rule"] = e.rule
    if e.text:
        out["text"] = e.text
    return out


def deal_label(record: Any, number: Optional[int]) -> str:
    """A short description of deal `number` (1-based) for tables: `7H Bob`, `all-pass`, `adjust`."""
    if number is None:
        return "start"
    if not 1 <= number <= len(record.deals):
        return "close"
    d = record.deals[number - 1]
    if isinstance(d, Adjust):
        return "adjust"
    assert isinstance(d, Deal)
    text = str(d.contract)
    if d.declarer:
        text += f" {d.declarer}"
    return text


@dataclass
class SheetSource:
    """What a drawing needs, from a scored record or a paper sheet."""

    players: Tuple[str, ...]
    rules: Rules
    entries: List[Entry]                     # ledger entries (a paper sheet: one per cell)
    deals: int                               # deals in the record (0 for a sheet)
    dealers: Dict[int, str] = field(default_factory=dict)
    history: List[Dict[str, Any]] = field(default_factory=list)
    extra: Dict[str, Any] = field(default_factory=dict)
    contracts: Dict[int, Contract] = field(default_factory=dict)   # deal number → contract
    title: str = ""
    labels: Dict[int, str] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return self.rules.family.name


def source_of_result(result: Any) -> SheetSource:
    """A scored record (:class:`~prefcli.scoring.ScoreResult`) as a drawing source."""
    from prefcli.model.records import Deal
    record = result.record
    contracts = {d.number: d.contract for d in record.deals if isinstance(d, Deal)}
    labels = {n: deal_label(record, n) for n in range(1, len(record.deals) + 1)}
    meta = dict(getattr(record, "meta", {}) or {})
    title = " · ".join(str(meta[k]) for k in ("event", "date", "site") if meta.get(k))
    return SheetSource(tuple(result.ledger.players), result.rules, list(result.ledger.entries),
                       len(record.deals), dict(result.dealers), list((result.extra or {}).get("deals", [])),
                       dict(result.extra or {}), contracts, title, labels)


def source_of_sheet(sheet: Sheet, rules: Rules) -> SheetSource:
    """A paper sheet (pref-sheet/1): one value per cell, no history."""
    from prefcli.model.ledger import Ledger
    ledger = Ledger(tuple(sheet.players))
    ledger.load_start(sheet.data)
    meta = dict(getattr(sheet, "meta", {}) or {})
    title = " · ".join(str(meta[k]) for k in ("event", "date", "site") if meta.get(k))
    return SheetSource(tuple(sheet.players), rules, list(ledger.entries), 0, title=title)
