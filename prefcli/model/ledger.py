"""The score sheet as a ledger.

Every number on a sheet is the sum of :class:`Entry` rows (who writes what, where, for which
deal, under which rule). Scorers only append entries; the sheet is derived, so ``--explain`` can
always show why a number is what it is, and the sheet is by construction the sum of its entries.
"""
from __future__ import annotations

import struct
from array import array
from functools import lru_cache
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field, fields
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from prefcli.model.slots import slotted
from prefcli.model.records import SheetData

AREAS = ("pool", "mountain", "whists")
#: shared (immutable) Fractions of common amounts, each made when first written (a thousand
#: made at import were 0.35 ms of every start)
_SMALL: Dict[int, Fraction] = {}
_SMALL_MAX = 500
#: a ledger keeps each of its entries' texts once (Ledger.add): the table is the ledger's own,
#: since a process-wide one grew by every input of a batch whose players differ (their names are
#: in the texts) and held the texts after their ledgers were gone
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
_ON_WHISTS = "a whists entry names who it is written on; other areas do not"
_BATCH = 1024                  # RunningTotals: the rows put aside before they go into the arrays


@lru_cache(maxsize=16)
def _packer(code: str, count: int) -> Callable[..., bytes]:
    """``struct``'s packing of `count` numbers as the array of type `code` holds them (native
    size and order: the array's own bytes)."""
    return struct.Struct(f"@{count}{code}").pack
_NO_DEAL = -(1 << 62)          # RunningTotals.deals: the opening sheet's entries (deal None)
_EXACT = -(1 << 31)            # RunningTotals.cells: the value is in ``exact`` (a Fraction, a big int)


class RunningTotals:
    """Each player's running pool, mountain and net whists after each deal that wrote on the
    sheet, in the ledger's order (a row each time the deal changes): the score table's rows;
    and each cell's sum (:meth:`sums`: the sheet after the last deal).

    Why: the table needs these numbers alone, not the entries behind them. Kept in two arrays
    (a deal number, then three numbers a player), a row is 44 bytes for three players where the
    entries were about 300. An entry adds its amount to the current row, a list (:meth:`add`,
    or :meth:`Ledger.add` directly: pool or mountain one number; whists the writer's net, the
    other's and the pair's cell, ``pairs``), its places found by its names (``cell[area][player]``,
    ``pair[player][on]``: dicts of strings, whose hashes the strings keep, where a key's tuple
    is made, hashed and compared each time). The cells' sums are these numbers too
    (:meth:`sums`), so a ledger keeping running totals keeps no sums of its own (a dict's item
    read and stored again an entry, by the key's tuple). A row is put aside when
    the deal changes (its numbers added to a list, ``pending``), 1,024 rows at a time turned
    into the array by one ``struct`` pack (a tenth of what an array's ``fromlist`` costs a
    number, which parses each as an item store does); the table reads the rows a column at a
    time (:meth:`columns`). A value the array cannot hold (a Fraction, even a whole one: the
    table prints those its own way, or a number past an int32) is kept as itself in ``exact``
    (:meth:`_keep`). The values are those the entries add up to (ints while the amounts are
    whole)."""

    __slots__ = ("players", "seat", "deals", "cells", "exact", "cell", "pair", "fresh", "order", "values",
                 "pairs", "deal", "width", "pending", "pending_deals")

    def __init__(self, players: Sequence[str]) -> None:
        self.players = players = tuple(players)
        n = len(players)
        self.seat = seat = {p: i for i, p in enumerate(players)}
        #: a cell's key, as Ledger.add makes it (area, player, on) → its places: the pool or
        #: mountain in the row, or the pair's cell and the writer's net whists and the other's
        #: (subtracted). A cell moves from ``fresh`` to ``cell`` or ``pair`` with its first
        #: entry, its key then put in ``order`` (the cells in the order they first appear, as a
        #: ledger's sums are); whists on oneself are in neither (:meth:`other`)
        self.fresh: Dict[Tuple[str, str, Optional[str]], Any] = {}
        for p in players:
            self.fresh["pool", p, None] = 3 * seat[p]
            self.fresh["mountain", p, None] = 3 * seat[p] + 1
            for q in players:
                if q != p:
                    self.fresh["whists", p, q] = (n * seat[p] + seat[q], 3 * seat[p] + 2, 3 * seat[q] + 2)
        self.cell: Dict[str, Dict[str, int]] = {"pool": {}, "mountain": {}}
        self.pair: Dict[str, Dict[str, Tuple[int, int, int]]] = {p: {} for p in players}
        self.order: Dict[Tuple[str, str, Optional[str]], None] = {}
        self.width = 3 * n
        # the numbers now (the current deal's row), and the whists of each pair (who on whom)
        self.values: List[Any] = [0] * self.width
        self.pairs: List[Any] = [0] * (n * n)
        self.deal: Any = _UNSET                       # the current deal (its row not kept yet)
        self.deals = array("q")
        self.cells = array("i")
        self.exact: Dict[int, Any] = {}
        self.pending: List[Any] = []                  # the rows put aside, not in the arrays yet
        self.pending_deals: List[Optional[int]] = []

    def add(self, deal: Optional[int], player: str, area: str, on: Optional[str], value: Any) -> None:
        """One entry's amount (an int when whole) written by `player` in `area` (on `on`)."""
        if deal != self.deal:
            self.turn(deal)
        try:
            if area == "pool" or area == "mountain":
                self.values[self.cell[area][player]] += value
                return
            s, i, j = self.pair[player][on]         # type: ignore[index]
        except KeyError:
            self.other((area, player, None) if area == "pool" or area == "mountain" else ("whists", player, on), value)
            return
        self.pairs[s] += value
        values = self.values
        values[i] += value
        values[j] -= value

    def other(self, key: Tuple[str, str, Optional[str]], value: Any) -> None:
        """An entry whose places are not found by its names (``cell``, ``pair``): the cell's first
        (a few dozen a record), whists a player writes on himself (his cell alone: they change no
        net whists, and are in no row), or a player not at the table (an error, the entry written
        nowhere, so each such entry is refused)."""
        area, player, on = key
        seat = self.seat
        if area == "whists" and player == on and player in seat:
            self.order[key] = None
            self.pairs[(len(seat) + 1) * seat[player]] += value
            return
        places = self.fresh.pop(key, None)
        if places is None:
            raise KeyError(player if player not in seat else on) from None   # (Ledger.add's look-up missed)
        self.order[key] = None
        if area == "whists":
            assert on is not None
            self.pair[player][on] = places
        else:
            self.cell[area][player] = places
        self.add(self.deal, player, area, on, value)

    def sums(self) -> Dict[Tuple[str, str, Optional[str]], Any]:
        """Each cell's sum, by its key (area, player, on), the cells in the order they first
        appear: what a totals-only ledger adds up (``Ledger._sums``)."""
        seat, n, values, pairs = self.seat, len(self.players), self.values, self.pairs
        out: Dict[Tuple[str, str, Optional[str]], Any] = {}
        for key in self.order:
            area, player, on = key
            if area == "whists":
                assert on is not None
                out[key] = pairs[n * seat[player] + seat[on]]
            else:
                out[key] = values[3 * seat[player] + (area == "mountain")]
        return out

    def turn(self, deal: Optional[int]) -> None:
        """The entries of `deal` begin: the row of the deal before (if any) is kept."""
        last = self.deal
        if last is not _UNSET:
            self.pending_deals.append(last)       # (None: the opening sheet's, turned at flush)
            self.pending.extend(self.values)
            if len(self.pending_deals) >= _BATCH:
                self.flush()
        self.deal = deal

    def flush(self) -> None:
        """The rows put aside into the arrays: one pack of them all (ints in range, nearly
        always), else row by row, each value the array cannot hold kept as itself."""
        rows = self.pending_deals
        if not rows:
            return
        pending = self.pending
        try:
            self.cells.frombytes(_packer("i", len(pending))(*pending))
        except (struct.error, OverflowError, TypeError):
            w = self.width
            for at in range(0, len(pending), w):
                row = pending[at:at + w]
                try:
                    self.cells.fromlist(row)
                except (OverflowError, TypeError):   # (fromlist adds nothing then)
                    self._keep(row)
        if None in rows:
            rows = [_NO_DEAL if d is None else d for d in rows]
        self.deals.frombytes(_packer("q", len(rows))(*rows))
        self.pending = []
        self.pending_deals = []

    def _keep(self, values: List[Any]) -> None:
        cells = self.cells
        for v in values:
            if type(v) is int and _EXACT < v < -_EXACT:
                cells.append(v)
            else:
                self.exact[len(cells)] = v
                cells.append(_EXACT)

    def __len__(self) -> int:
        return len(self.deals) + len(self.pending_deals) + (self.deal is not _UNSET)

    @property
    def whole(self) -> bool:
        """Whether every value of every row is an int (what :meth:`columns` reads): none kept
        in ``exact``, none in the current row."""
        self.flush()
        return not self.exact and all(type(v) is int for v in self.values)

    def rows(self) -> Iterator[Tuple[Optional[int], List[Any]]]:
        """(deal, values) for each row: the values are three per player (pool, mountain, net
        whists), a new list each row. The row of the last deal is the current one."""
        self.flush()
        n = self.width
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
        if self.deal is not _UNSET:
            yield self.deal, list(self.values)

    def columns(self, size: int) -> Iterator[Tuple[List[Optional[int]], List[Any]]]:
        """The rows, up to `size` at a time, as columns: the deal numbers, then each player's
        pool, mountain and net whists (3 sequences a player: slices of the array, made in C,
        not row by row). Only when :attr:`whole`."""
        if not self.whole:          # (the rows put aside are in the arrays then)
            raise ValueError("the running totals hold values that are not small ints: read rows()")
        w = self.width
        kept = len(self.deals)
        for start in range(0, kept, size):
            numbers: List[Optional[int]] = list(self.deals[start:start + size])
            block = self.cells[start * w:(start + len(numbers)) * w]
            if _NO_DEAL in numbers:
                numbers = [None if d == _NO_DEAL else d for d in numbers]
            yield numbers, [block[k::w] for k in range(w)]
        if self.deal is not _UNSET:
            yield [self.deal], [[v] for v in self.values]


@dataclass
class Ledger:
    """An append-only list of entries for a fixed set of players (or, made inside
    :func:`totals_only`, the running sum of each cell and no entries)."""

    players: Tuple[str, ...]
    entries: List[Entry] = field(default_factory=list)
    _sums: Optional[Dict[Tuple[str, str, Optional[str]], Any]] = field(default=None, repr=False, compare=False)
    running: Optional[RunningTotals] = field(default=None, repr=False, compare=False)
    _texts: Dict[str, str] = field(default_factory=dict, repr=False, compare=False)

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
            # what an Entry checks (as it makes the cell's key), then the amount as
            # sheet_from_entries adds it up (an int while whole)
            if area == "whists":
                if on is None:
                    raise ValueError(_ON_WHISTS)
            elif area == "pool" or area == "mountain":
                if on is not None:
                    raise ValueError(_ON_WHISTS)
            else:
                raise ValueError(f"unknown sheet area {area!r}")
            if type(amount) is int:
                value: Any = amount
            else:
                if type(amount) is not Fraction:
                    amount = Fraction(amount)
                value = amount.numerator if amount.denominator == 1 else amount
            running = self.running
            if running is not None:
                # RunningTotals.add inline: the cell found by its names (two dicts of strings,
                # no key's tuple made, hashed and compared), the running row being the cells'
                # sums too (the sheet)
                if deal != running.deal:        # RunningTotals.turn, inline
                    last = running.deal
                    if last is not _UNSET:
                        running.pending_deals.append(last)
                        running.pending.extend(running.values)
                        if len(running.pending_deals) >= _BATCH:
                            running.flush()
                    running.deal = deal
                try:
                    if on is None:              # (pool and mountain alone: checked above)
                        running.values[running.cell[area][player]] += value
                        return
                    s, i, j = running.pair[player][on]
                except KeyError:                # (the cell's first entry, whists on oneself, an error)
                    running.other((area, player, on), value)
                    return
                running.pairs[s] += value
                values = running.values
                values[i] += value
                values[j] -= value
                return
            key = (area, player, on)            # (on is None but for whists)
            try:
                sums[key] += value
            except KeyError:            # (the cell's first entry: a few dozen a record)
                sums[key] = value
            return
        if text:
            # one string for each explanation however many entries give it ("3 trick(s) × 2"
            # recurs all through a record): a record's ledger holds its entries, not their texts
            texts = self._texts
            kept = texts.get(text)
            if kept is None:
                if len(texts) >= _TEXTS_MAX:
                    texts.clear()
                texts[text] = text
            else:
                text = kept
        if type(amount) is int:           # a Fraction is immutable: the caller's own one can be kept
            shared = _SMALL.get(amount)       # (not `or`: a Fraction's truth is a Python call)
            if shared is None:
                shared = Fraction(amount)
                if -_SMALL_MAX <= amount <= _SMALL_MAX:
                    _SMALL[amount] = shared
            amount = shared
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
            running = self.running      # (which keeps the sums then: Ledger.add)
            return _sheet_from_sums(self.players, self._sums if running is None else running.sums())
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


def rounded_text(value: Fraction, places: int = 2) -> str:
    """`value` rounded to `places` decimals (half to even), as text, in integer arithmetic.

    Why not ``f"{float(value):.2f}"``: a float keeps about 16 digits, so a tournament total of
    32 digits printed its third of a whist as ``16666666666666666810427096170496.00``; here every
    digit is the value's own. A negative value that rounds to nothing keeps its sign
    (``-0.00``), as the float formatting did."""
    if type(value) is not Fraction:
        value = Fraction(value)
    num, den = value.numerator, value.denominator
    scale = 10 ** places
    q, r = divmod(abs(num) * scale, den)
    if 2 * r > den or (2 * r == den and q % 2):
        q += 1
    whole, part = divmod(q, scale)
    sign = "-" if num < 0 else ""
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def amount_text(value: Fraction) -> str:
    """Table text of an exact amount: "12", "12.5", or "56.67…" when it never terminates (the
    exact value is in the JSON and CSV forms)."""
    w = format_amount(value)
    if isinstance(w, str) and "/" in w:
        return rounded_text(Fraction(value)) + "…"
    return str(w)
