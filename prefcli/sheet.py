"""The score sheet as a ledger.

Every number on a sheet is the sum of :class:`Entry` rows (who writes what, where, for which
deal, under which rule). Scorers only append entries; the sheet is derived, so ``--explain`` can
always show why a number is what it is, and the sheet is by construction the sum of its entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, List, Optional, Sequence, Tuple

from .model import SheetData

AREAS = ("pool", "mountain", "whists")


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


@dataclass
class Ledger:
    """An append-only list of entries for a fixed set of players."""

    players: Tuple[str, ...]
    entries: List[Entry] = field(default_factory=list)

    def add(self, deal: Optional[int], player: str, area: str, amount: Fraction, rule: str,
            on: Optional[str] = None, text: str = "") -> None:
        if amount == 0:
            return
        self.entries.append(Entry(deal, player, area, Fraction(amount), rule, on, text))

    def pool(self, deal: Optional[int], player: str, amount: Fraction, rule: str, text: str = "") -> None:
        self.add(deal, player, "pool", amount, rule, None, text)

    def mountain(self, deal: Optional[int], player: str, amount: Fraction, rule: str, text: str = "") -> None:
        self.add(deal, player, "mountain", amount, rule, None, text)

    def whists(self, deal: Optional[int], player: str, on: str, amount: Fraction, rule: str,
               text: str = "") -> None:
        self.add(deal, player, "whists", amount, rule, on, text)

    def sheet(self, upto: Optional[int] = None) -> SheetData:
        """The sheet after deal `upto` (all deals when None)."""
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
    for e in entries:
        if upto is not None and e.deal is not None and e.deal > upto:
            continue
        if e.area == "pool":
            sheet.pool[e.player] = sheet.pool.get(e.player, Fraction(0)) + e.amount
        elif e.area == "mountain":
            sheet.mountain[e.player] = sheet.mountain.get(e.player, Fraction(0)) + e.amount
        else:
            row = sheet.whists.setdefault(e.player, {})
            row[e.on] = row.get(e.on, Fraction(0)) + e.amount  # type: ignore[index]
    return sheet


def format_amount(value: Fraction) -> object:
    """An exact amount for JSON/YAML output: an int when whole, else a string like "40/3"."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
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
