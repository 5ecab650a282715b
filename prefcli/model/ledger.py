"""The score sheet as a ledger.

Every number on a sheet is the sum of :class:`Entry` rows (who writes what, where, for which
deal, under which rule). Scorers only append entries; the sheet is derived, so ``--explain`` can
always show why a number is what it is, and the sheet is by construction the sum of its entries.
"""
from __future__ import annotations

from array import array
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field, fields
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from prefcli.model.slots import slotted
from prefcli.model.records import SheetData

AREAS = ("pool", "mountain", "whists")
_SMALL = {i: Fraction(i) for i in range(-500, 501)}   # shared (immutable) Fractions of common amounts
_TEXTS: Dict[str, str] = {}      # the entries' texts, each kept once (Ledger.add)
_TEXTS_MAX = 50000


@slotted
@dataclass(frozen=True)
class Entry:
    """One write on the sheet.

    `player` writes `amount` in `area`; for whists, `on` is the player written on
    (whists[player][on] grows). `rule` is a stable key (e.g. ``contract.made``) and `text` a
    short human explanation in the preset's own words.
    """

    deal: Optional[int]          # 1-based deal number; None for the opening sheet / closing
    player: str
    area: str                    # pool | mountain | whists
    amount: Fraction
    rule: str
    on: Optional[str] = None
    text: str = ""

    def __post_init__(self) -> None:
        if self.area not in AREAS:
            raise ValueError(f"unknown sheet area {self.area!r}")
        if (self.area == "whists") != (self.on is not None):
            raise ValueError("a whists entry names who it is written on; other areas do not")


# Entry's fields as Ledger.add fills them in directly (checked once: a new field → the usual way);
# slotted, an entry is 120 bytes instead of 330 (a record writes 2.4 a deal; issue 11 item 1)
_ENTRY_PLAIN = (tuple(f.name for f in fields(Entry)) == ("deal", "player", "area", "amount", "rule", "on", "text")
                and hasattr(Entry, "__slots__"))
_new = object.__new__
_ENTRY_SET = tuple(getattr(Entry, name).__set__ for name in ("deal", "player", "area", "amount", "rule", "on",
                                                             "text")) if _ENTRY_PLAIN else ()


_TOTALS_ONLY: ContextVar[bool] = ContextVar("prefcli_ledger_totals_only", default=False)
_RUNNING: ContextVar[bool] = ContextVar("prefcli_ledger_running", default=False)


@contextmanager
def totals_only(running: bool = False) -> Iterator[None]:
    """Ledgers made inside keep each cell's running sum instead of their entries: for a command
    whose output is the final sheet alone (settle, ``score -f json`` without ``--explain``,
    validate's scoring check), so a record's memory is not two or three entries a deal. The sums
    are those :func:`sheet_from_entries` makes, in the same order: the sheet is the same. A
    scorer writing into such a ledger keeps no per-deal history either (``extra["deals"]``).

    With `running`, the ledger also keeps :class:`RunningTotals` (``ledger.running``): what the
    score table shows deal by deal, a few numbers a deal instead of two or three entries."""
    token = _TOTALS_ONLY.set(True)
    token_running = _RUNNING.set(running)
    try:
        yield
    finally:
        _RUNNING.reset(token_running)
        _TOTALS_ONLY.reset(token)


_UNSET: Any = object()
_NO_DEAL = -(1 << 62)          # RunningTotals.deals: the opening sheet's entries (deal None)
_EXACT = -(1 << 31)            # RunningTotals.cells: the value is in ``exact`` (a Fraction, a big int)


class RunningTotals:
    """Each player's running pool, mountain and net whists after each deal that wrote on the
    sheet, in the ledger's order (a row each time the deal changes): the score table's rows.

    Why: the table needs these numbers alone, not the entries behind them; kept in two arrays
    (a deal number, then three numbers a player) a row is 44 bytes for three players where the
    entries were about 300. An amount that is not a small int (a Fraction, even a whole one: the
    table prints those its own way) is kept as itself in ``exact``. The values are those the
    entries add up to (ints while the amounts are whole)."""

    __slots__ = ("players", "deals", "cells", "exact", "_index", "_values", "_deal", "_whole")

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)
        self.deals = array("q")
        self.cells = array("i")
        self.exact: Dict[int, Any] = {}
        self._index = {p: 3 * i for i, p in enumerate(self.players)}
        self._values: List[Any] = [0] * (3 * len(self.players))
        self._deal: Any = _UNSET
        self._whole = True                    # every value an int so far (a Fraction stays one)

    def add(self, deal: Optional[int], player: str, area: str, on: Optional[str], value: Any) -> None:
        """One entry's amount (an int when whole) written by `player` in `area` (on `on`)."""
        if deal != self._deal:
            if self._deal is not _UNSET:
                self._keep()
            self._deal = deal
        if type(value) is not int:
            self._whole = False
        values = self._values
        i = self._index[player]
        if area == "pool":
            values[i] += value
        elif area == "mountain":
            values[i + 1] += value
        else:
            values[i + 2] += value
            values[self._index[on] + 2] -= value     # type: ignore[index]

    def _keep(self) -> None:
        deal = self._deal
        self.deals.append(_NO_DEAL if deal is None else deal)
        cells = self.cells
        if self._whole:                       # ints alone, nearly always: one call
            start = len(cells)
            try:
                cells.extend(self._values)
                return
            except OverflowError:             # a number an int32 does not hold
                del cells[start:]
        for v in self._values:
            if type(v) is int and _EXACT < v < -_EXACT:
                cells.append(v)
            else:
                self.exact[len(cells)] = v
                cells.append(_EXACT)

    def __len__(self) -> int:
        return len(self.deals) + (self._deal is not _UNSET)

    def rows(self) -> Iterator[Tuple[Optional[int], List[Any]]]:
        """(deal, values) for each row: the values are three per player (pool, mountain, net
        whists), a new list each row. The row of the last deal is the current one."""
        n = len(self._values)
        cells, exact = self.cells, self.exact
        base = 0
        for deal in self.deals:
            values = cells[base:base + n].tolist()
            if exact:
                for j in range(n):
                    if base + j in exact:
                        values[j] = exact[base + j]
            yield (None if deal == _NO_DEAL else deal), values
            base += n
        if self._deal is not _UNSET:
            yield self._deal, list(self._values)


@dataclass
class Ledger:
    """An append-only list of entries for a fixed set of players (or, made inside
    :func:`totals_only`, the running sum of each cell and no entries)."""

    players: Tuple[str, ...]
    entries: List[Entry] = field(default_factory=list)
    _sums: Optional[Dict[Tuple[str, str, Optional[str]], Any]] = field(default=None, repr=False, compare=False)
    running: Optional[RunningTotals] = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self._sums is None and _TOTALS_ONLY.get():
            self._sums = {}
            if _RUNNING.get():
                self.running = RunningTotals(self.players)

    @property
    def totals_only(self) -> bool:
        """Whether the ledger keeps sums, not entries (the sheet after the last deal only)."""
        return self._sums is not None

    def add(self, deal: Optional[int], player: str, area: str, amount: Fraction | int, rule: str,
            on: Optional[str] = None, text: str = "") -> None:
        if amount == 0:
            return
        sums = self._sums
        if sums is not None:
            # what an Entry checks, then the cell's sum as sheet_from_entries adds it up
            if area not in AREAS:
                raise ValueError(f"unknown sheet area {area!r}")
            if (area == "whists") != (on is not None):
                raise ValueError("a whists entry names who it is written on; other areas do not")
            if type(amount) is int:
                value: Any = amount
            else:
                if type(amount) is not Fraction:
                    amount = Fraction(amount)
                value = amount.numerator if amount.denominator == 1 else amount
            key = (area, player, None) if area == "pool" or area == "mountain" else ("whists", player, on)
            sums[key] = sums.get(key, 0) + value
            if self.running is not None:
                self.running.add(deal, player, area, on, value)
            return
        if text:
            # one string for each explanation however many entries give it ("3 trick(s) × 2"
            # recurs all through a record): a record's ledger holds its entries, not their texts
            kept = _TEXTS.get(text)
            if kept is None:
                if len(_TEXTS) >= _TEXTS_MAX:
                    _TEXTS.clear()
                _TEXTS[text] = text
            else:
                text = kept
        if type(amount) is int:           # a Fraction is immutable: the caller's own one can be kept
            shared = _SMALL.get(amount)       # (not `or`: a Fraction's truth is a Python call)
            amount = shared if shared is not None else Fraction(amount)
        elif type(amount) is not Fraction:
            amount = Fraction(amount)
        if _ENTRY_PLAIN and ((on is None and (area == "pool" or area == "mountain"))
                             or (area == "whists" and on is not None)):
            # what Entry.__post_init__ checks holds: skip the frozen dataclass's __init__ (a
            # scorer writes tens of thousands of entries); the object is the same
            entry = _new(Entry)
            s_deal, s_player, s_area, s_amount, s_rule, s_on, s_text = _ENTRY_SET
            s_deal(entry, deal)
            s_player(entry, player)
            s_area(entry, area)
            s_amount(entry, amount)
            s_rule(entry, rule)
            s_on(entry, on)
            s_text(entry, text)
            self.entries.append(entry)
        else:
            self.entries.append(Entry(deal, player, area, amount, rule, on, text))

    def pool(self, deal: Optional[int], player: str, amount: Fraction | int, rule: str, text: str = "") -> None:
        self.add(deal, player, "pool", amount, rule, None, text)

    def mountain(self, deal: Optional[int], player: str, amount: Fraction | int, rule: str, text: str = "") -> None:
        self.add(deal, player, "mountain", amount, rule, None, text)

    def whists(self, deal: Optional[int], player: str, on: str, amount: Fraction | int, rule: str,
               text: str = "") -> None:
        self.add(deal, player, "whists", amount, rule, on, text)

    def sheet(self, upto: Optional[int] = None) -> SheetData:
        """The sheet after deal `upto` (all deals when None; a totals-only ledger has only that)."""
        if self._sums is not None:
            if upto is not None:
                raise ValueError("a ledger of totals only has the sheet after the last deal alone")
            return _sheet_from_sums(self.players, self._sums)
        return sheet_from_entries(self.players, self.entries, upto)

    def load_start(self, start: Optional[SheetData]) -> None:
        """Turn an opening sheet into entries, so it is explained like everything else."""
        if start is None:
            return
        for p, v in start.pool.items():
            self.pool(None, p, v, "start", "carried over from an earlier session")
        for p, v in start.mountain.items():
            self.mountain(None, p, v, "start", "carried over from an earlier session")
        for p, row in start.whists.items():
            for q, v in row.items():
                self.whists(None, p, q, v, "start", "carried over from an earlier session")


def sheet_from_entries(players: Sequence[str], entries: Iterable[Entry],
                       upto: Optional[int] = None) -> SheetData:
    sheet = SheetData.empty(players)
    # Sum per cell first, as an int while the amounts are whole (nearly all are: Fraction
    # additions cost ten times more), then add each cell's exact sum to the sheet once, cells in
    # the order they first appear, so the result is the same Fractions in the same order.
    sums: Dict[Tuple[str, str, Optional[str]], Any] = {}
    get = sums.get
    for e in entries:
        if upto is not None and e.deal is not None and e.deal > upto:
            continue
        area = e.area
        key = (area, e.player, None) if area == "pool" or area == "mountain" else ("whists", e.player, e.on)
        a = e.amount
        if type(a) is Fraction and a.denominator == 1:
            sums[key] = get(key, 0) + a.numerator
        else:
            sums[key] = get(key, 0) + a
    return _sheet_from_sums(players, sums, sheet)


def _sheet_from_sums(players: Sequence[str], sums: Dict[Tuple[str, str, Optional[str]], Any],
                     sheet: Optional[SheetData] = None) -> SheetData:
    """The sheet of each cell's sum (in the order the cells first appear)."""
    if sheet is None:
        sheet = SheetData.empty(players)
    pool, mountain, whists = sheet.pool, sheet.mountain, sheet.whists
    for (area, player, on), total in sums.items():
        if area == "pool":
            pool[player] = pool.get(player, Fraction(0)) + total
        elif area == "mountain":
            mountain[player] = mountain.get(player, Fraction(0)) + total
        else:
            assert on is not None  # a whists entry names who it is written on (Entry)
            row = whists.setdefault(player, {})
            row[on] = row.get(on, Fraction(0)) + total
    return sheet


def format_amount(value: Fraction) -> object:
    """An exact amount for JSON/YAML output: an int when whole, else a string like "40/3"."""
    if type(value) is not Fraction:
        value = Fraction(value)
    if value.denominator == 1:
        return int(value.numerator)
    # Terminating decimals read better than fractions ("12.5" rather than "25/2").
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        from decimal import Decimal, localcontext
        with localcontext() as ctx:
            ctx.prec = 60
            text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
        return text
    return f"{value.numerator}/{value.denominator}"
