"""The record and sheet model (FORMAT.md): the dataclasses a record and a sheet are made of (built from
loaded data by :mod:`prefcli.model.build`)."""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from operator import attrgetter
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from prefcli.model.slots import slotted
from prefcli.model.cards import Call, CallKind, Card, Contract, Decision
from prefcli.model.diagnostics import Path
from prefcli.model.numbers import NumberError, exact, shown
from prefcli.model.values import type_name  # noqa: F401 - type_name is part of this module's API

_AMOUNT_LIMIT = 10 ** 40

from prefcli.model.formats import (RECORD_FORMAT, REPLAY_FORMAT, SETTLEMENT_FORMAT,  # noqa: E402,F401
                                   SHEET_FORMAT, TOURNAMENT_FORMAT, VALIDATION_FORMAT)

#: The player counts the format takes (``players:`` of a record or a sheet; the schemas' minItems /
#: maxItems say the same, tests/test_seats.py checks it). Which of them a game is played by is
#: its preset's (``Preset.players``), checked by the table (``prefcli.rules.table.table_for``):
#: the format carries a two-player husar or a five-player table, the preset decides.
PLAYER_COUNTS: Tuple[int, ...] = (2, 3, 4, 5)


def counts_text(counts: Sequence[int]) -> str:
    """``(3, 4)`` → "3 or 4", ``(2, 3, 4, 5)`` → "2 to 5", ``(2, 3, 5)`` → "2, 3 or 5": a list of
    counts as a person says it (the messages that refuse a table name what is allowed)."""
    cs = sorted(set(counts))
    if not cs:
        return "no"
    if len(cs) > 2 and cs == list(range(cs[0], cs[-1] + 1)):
        return f"{cs[0]} to {cs[-1]}"
    return str(cs[0]) if len(cs) == 1 else ", ".join(str(c) for c in cs[:-1]) + f" or {cs[-1]}"


def to_fraction(value: Any) -> Fraction:
    """Exact value of an amount: int, Decimal, float (as written), `"12.5"` or `"40/3"`, bounded
    (`prefcli.model.numbers`); a wrong value raises ValueError with a sentence."""
    if type(value) is int and -_AMOUNT_LIMIT < value < _AMOUNT_LIMIT:
        return Fraction(value)
    try:
        return exact(value)
    except NumberError as exc:
        if isinstance(value, str) and "out of range" not in exc.message:
            raise ValueError(f"'{shown(value)}' is not a number (write 12, \"12.5\" or \"40/3\")") from None
        if not isinstance(value, (str, int, Decimal, float)):
            raise ValueError(f"expected a number, found {type_name(value)}") from None
        raise ValueError(exc.message) from None


@dataclass(frozen=True)
class Penalty:
    """A penalty written during a deal (``penalties: [{player, mountain, pool, whists: {on, amount},
    reason}]``): on the player's mountain or pool, and whists he writes on another."""

    player: str
    mountain: Fraction = Fraction(0)
    pool: Fraction = Fraction(0)
    whists_on: Optional[str] = None
    whists: Fraction = Fraction(0)
    reason: Optional[str] = None


#: The irregularities a record names (seed 001 l.142): a misdeal, play without the discard, a revoke.
IRREGULARITY_KINDS = ("misdeal", "no-discard", "revoke")


@dataclass(frozen=True)
class Irregularity:
    """An irregularity of a deal and who committed it (``irregularities: [{kind, by}]``)."""

    kind: str
    by: str


@slotted
@dataclass(frozen=True)
class Deal:
    """One deal: a summary (enough to score) or full (cards too, so it can be replayed).

    Slotted: a record holds one per deal, and 26 fields in an instance dictionary were 830 bytes
    a deal (a 24 MB record has 260,000 deals; issue 11 item 1)."""

    pos: int                                   # index in the record's `deals` list
    contract: Contract
    declarer: Optional[str] = None
    whist: Tuple[Tuple[str, Decision], ...] = ()  # in the order written
    tricks: Optional[Tuple[Tuple[str, int], ...]] = None
    open: Optional[bool] = None
    dealer: Optional[str] = None
    hands: Optional[Tuple[Tuple[str, Tuple[Card, ...]], ...]] = None
    talon: Optional[Tuple[Card, ...]] = None
    auction: Optional[Tuple[Call, ...]] = None
    discard: Optional[Tuple[Card, ...]] = None
    play: Optional[Tuple[Tuple[Card, ...], ...]] = None
    claim: Optional[Tuple[Tuple[str, int], ...]] = None
    dark: bool = False
    bomb: Optional[str] = None
    takeover: Optional[str] = None
    concede: bool = False
    without_all: bool = False                  # be visų: a declaration kept against the rules (seed 004 l.200)
    returned_by: Optional[str] = None          # `return:` in the file
    penalties: Tuple[Penalty, ...] = ()
    irregularities: Tuple[Irregularity, ...] = ()
    note: Optional[str] = None
    bid: Optional[Contract] = None             # the winning bid, when given without an auction
    partner: Optional[str] = None              # misère half with the 4-player dealer (Кодекс 3.6.9)
    position: bool = False                     # a full deal kept without a result (a study): not scored

    @property
    def number(self) -> int:
        """1-based number used in messages (`deal 7`)."""
        return self.pos + 1

    @property
    def path(self) -> Path:
        return ("deals", self.pos)

    @property
    def is_full(self) -> bool:
        return self.hands is not None

    def whist_map(self) -> Dict[str, Decision]:
        return dict(self.whist)

    def tricks_map(self) -> Optional[Dict[str, int]]:
        return dict(self.tricks) if self.tricks is not None else None

    def hands_map(self) -> Optional[Dict[str, Tuple[Card, ...]]]:
        return dict(self.hands) if self.hands is not None else None

    def claim_map(self) -> Optional[Dict[str, int]]:
        return dict(self.claim) if self.claim is not None else None

    @property
    def is_dark_allpass(self) -> bool:
        """An all-pass that followed a dark pass (Кодекс 3.3.19а, 3.7.10): ``dark: true`` on the
        deal, or a ``dark pass`` in its auction. The scorer and the engine's exit levels share it."""
        if not self.contract.is_all_pass:
            return False
        if self.dark:
            return True
        if not self.auction or not any(map(_DARK, self.auction)):   # (no dark call: no generator)
            return False
        return any(c.dark and c.kind is CallKind.PASS for c in self.auction)

    def whisters(self) -> List[str]:
        return [p for p, d in self.whist if d is Decision.WHIST]


#: a call's dark flag (Deal.is_dark_allpass)
_DARK = attrgetter("dark")


@dataclass(frozen=True)
class Adjust:
    """A manual correction agreed at the table (a `deals` entry that is not a deal)."""

    pos: int
    pool: Tuple[Tuple[str, Fraction], ...] = ()
    mountain: Tuple[Tuple[str, Fraction], ...] = ()
    whists: Tuple[Tuple[str, str, Fraction], ...] = ()   # (writer, on, amount)
    note: Optional[str] = None

    @property
    def number(self) -> int:
        return self.pos + 1

    @property
    def path(self) -> Path:
        return ("deals", self.pos)


@dataclass(frozen=True)
class SheetData:
    """Pool, mountain and whists (whists[X][Y]: what X has written on Y), and the game's state
    beyond the numbers as written (`state`: the family's fields, read and checked against the
    family by :mod:`prefcli.rules.state`; empty when the sheet carries none)."""

    players: Tuple[str, ...]
    pool: Dict[str, Fraction]
    mountain: Dict[str, Fraction]
    whists: Dict[str, Dict[str, Fraction]]
    state: Mapping[str, Any] = field(default_factory=dict)

    @staticmethod
    def empty(players: Sequence[str]) -> "SheetData":
        ps = tuple(players)
        return SheetData(ps, {p: Fraction(0) for p in ps}, {p: Fraction(0) for p in ps},
                         {p: {q: Fraction(0) for q in ps if q != p} for p in ps})


LOG_AREAS = ("pool", "mountain", "whists")


@dataclass(frozen=True)
class LogEntry:
    """One number written on a paper sheet, as score keepers write it: the cell's new running
    value (not a delta), so a log read top to bottom is the sheet as it grew. Score-keeping apps
    keep exactly this (PrefAndroid's `log`, mathfewmatthews' `scoreLog`, gchet's `history`), and
    it is what an imported sheet without deal facts can still show, deal by deal."""

    area: str                    # pool | mountain | whists
    player: str                  # whose cell (for whists: the writer)
    value: Fraction              # the running value now written in the cell
    on: Optional[str] = None     # whists only: written on whom
    deal: Optional[int] = None   # 1-based deal number, when the source knows it
    note: Optional[str] = None   # what the source says about the write (a contract label, a time)

    def cell(self) -> Tuple[str, str, Optional[str]]:
        return (self.area, self.player, self.on)


@dataclass(frozen=True)
class Sheet:
    """A `pref-sheet/1` document: a sheet plus the rules it was kept under, and optionally the
    running log it was written from."""

    players: Tuple[str, ...]
    rules: Mapping[str, Any]
    data: SheetData
    meta: Mapping[str, Any] = field(default_factory=dict)
    log: Tuple[LogEntry, ...] = ()

    @property
    def pool(self) -> Dict[str, Fraction]:
        return self.data.pool

    @property
    def mountain(self) -> Dict[str, Fraction]:
        return self.data.mountain

    @property
    def whists(self) -> Dict[str, Dict[str, Fraction]]:
        return self.data.whists


Entry = Union[Deal, Adjust]


@dataclass(frozen=True)
class Record:
    """A `pref-record/1` document."""

    players: Tuple[str, ...]
    rules: Mapping[str, Any]
    deals: Tuple[Entry, ...]
    first_dealer: Optional[str] = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    start: Optional[SheetData] = None
    end: Optional[Mapping[str, Any]] = None

    @property
    def variant(self) -> Optional[str]:
        v = self.rules.get("variant")
        return v if isinstance(v, str) else None

    def only_deals(self) -> List[Deal]:
        return [d for d in self.deals if isinstance(d, Deal)]

