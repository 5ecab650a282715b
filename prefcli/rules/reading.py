"""What the rules say about one deal (:class:`DealReading`, the result of
:func:`prefcli.rules.deal.read_deal`), its modes and problem kinds, and the reader's state that
the parts of the reading share (the defence in :mod:`prefcli.rules.defence`, the tricks and
cards in :mod:`prefcli.rules.deal_cards`, the rest in :mod:`prefcli.rules.deal`)."""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from prefcli.model.cards import Contract, Decision
from prefcli.model.diagnostics import Path, Problem
from prefcli.model.records import Deal

if TYPE_CHECKING:       # pragma: no cover
    from prefcli.rules.record_facts import RecordFacts
    from prefcli.rules.replayed import DealReplay

__all__ = ["DealReading", "INCOMPLETE"]

#: The kind of a problem that is not an illegal step but a fact the record leaves out (the
#: tricks of a played deal, the decisions of a whisted one): validate and score refuse it, the
#: replay's legality check (``engine.check_record``) does not.
INCOMPLETE = "incomplete"

# how a contract is defended (DealReading.mode)
ALLPASS, UNPLAYED, HALF, RETURNED, JOINT, ALONE, OPEN, BOTH_HANDS, TAKEOVER, CATCH, CHECKED, CONCEDED, UNKNOWN = (
    "all-pass", "unplayed", "half-whist", "returned", "joint", "alone", "open", "both-hands", "takeover",
    "misere", "checked", "conceded", "unknown")
#: be visų (seed 004 l.200): a declaration kept against the rules, written without all the tricks
#: of the bid reached, unplayed and unwhisted
WITHOUT_ALL = "without-all"
#: played without the discard (seed 001 l.142 "за игру без сноса – без двух в гору"): written
#: down irregularity.no_discard, whatever the tricks
NO_DISCARD = "no-discard"


@dataclass
class DealReading:
    """Everything the rules say about one deal (see the module docstring)."""

    deal: Deal
    kind: str                                   # contract | general | mandatory | bomb (the rotation's)
    dealer: Optional[str]
    seats: Tuple[str, ...] = ()                 # who holds cards, from the first hand
    active: Tuple[str, ...] = ()                # who holds cards, in seat order
    sitting_out: Tuple[str, ...] = ()
    exit_level: int = 0                         # the minimum contract after the all-passes before it
    allpass_run: int = 0                        # consecutive all-pass deals right before this one
    dark_run: int = 0                           # consecutive dark all-pass deals right before this one
    declarer: Optional[str] = None
    defenders: Tuple[str, ...] = ()             # in the order they speak (from the declarer's left)
    decisions: Dict[str, Decision] = field(default_factory=dict)   # as written
    unwritten: bool = False                     # a contract with no whist decision written at all
    whisters: Tuple[str, ...] = ()              # who writes the defenders' whists (mode decides how)
    half_whister: Optional[str] = None
    returned_by: Optional[str] = None
    takeover: Optional[str] = None
    revoked_by: Optional[str] = None            # who revoked (seed 001 l.142), the corrected play scored
    misdealt_by: Tuple[str, ...] = ()           # who misdealt before the deal was dealt again
    open: bool = False
    forced: bool = False                        # Stalingrad: both defenders whist a 6♠ whatever is written
    mode: str = UNKNOWN
    played: bool = False
    quota: int = 0                              # what the defenders must take together
    tricks: Optional[Dict[str, int]] = None     # every holder's tricks (the talon's owner too)
    tricks_from: Optional[str] = None           # recorded | replayed | claimed | conceded
    replay: Optional["DealReplay"] = None
    position: bool = False                      # a marked position: read, replayed, analysed, not scored
    problems: List[Problem] = field(default_factory=list)
    cards_problems: List[Problem] = field(default_factory=list)   # the hands and talon do not add up
    dealt_once: bool = False                    # every card of the deck dealt once, a hand a seat (the replay's start)
    hand_masks: Optional[Dict[str, int]] = None   # with dealt_once: each hand's cards as a mask (Card._bit)
    # the two-player game (HUSAR.md): the dummy's seat, who calls, who plays and leads, and who
    # plays the dummy's cards; for every other table `callers` and `players_in_play` are `seats`
    dummy: Optional[str] = None
    callers: Tuple[str, ...] = ()               # who calls in the auction, from the first (live) hand
    players_in_play: Tuple[str, ...] = ()       # who plays cards to the tricks, from the first hand
    first_leader: Optional[str] = None          # who leads the first trick (H10)
    controller: Optional[str] = None            # who chooses the dummy's cards (H9, H10)
    here_allowed: bool = True                   # may anyone say here in this deal (husar.hold_right, H6)

    @property
    def number(self) -> int:
        return self.deal.number

    @property
    def path(self) -> Path:
        return self.deal.path

    @property
    def bid_reached(self) -> Optional[Contract]:
        """The bid that won the auction: the replayed auction's when the deal records its calls,
        else the record's ``bid:`` (None when neither says). What a concession is priced at (seed
        003 l.94 "do której doszedł w licytacji"), so a full deal need not repeat its auction's
        last bid as ``bid:`` to be scored as it was played."""
        rep = self.replay
        if rep is not None and rep.bid is not None:
            return rep.bid
        return self.deal.bid

    @property
    def first_hand(self) -> Optional[str]:
        return self.seats[0] if self.seats else None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def legal(self) -> List[Problem]:
        """The problems that make a step illegal (not the facts left out)."""
        return [p for p in self.problems if p.kind != INCOMPLETE]

    @property
    def rule_problems(self) -> List[Problem]:
        """The illegal steps of the deal, not counting a malformed deal of the cards (which the
        replay cannot start from): what the rules engine's own check reports."""
        skip = {id(p) for p in self.cards_problems}
        return [p for p in self.problems if p.kind != INCOMPLETE and id(p) not in skip]

    @property
    def scored_players(self) -> Tuple[str, ...]:
        """The active seats that are players (the dummy holds cards but has no sheet, H16)."""
        if self.dummy is None:
            return self.active          # every seat holding cards is a player
        return tuple(p for p in self.active if p != self.dummy)

    @property
    def passers(self) -> Tuple[str, ...]:
        return tuple(p for p in self.defenders if self.decisions.get(p) is Decision.PASS)

    def quota_alone(self) -> int:
        """A lone whister's share of the quota: half, rounded up (6→2, 7→1, 8+→1)."""
        return (self.quota + 1) // 2

    @property
    def errors(self) -> List[Problem]:
        """The problems that refuse the deal (not the warnings: what the deal is scored past)."""
        if not self.problems:
            return []
        return [p for p in self.problems if p.severity == "error"]


def _reading_template() -> Optional[Dict[str, object]]:
    """Every field of a DealReading with its default (None: build readings the usual way)."""
    import dataclasses
    out: Dict[str, object] = {}
    for f in dataclasses.fields(DealReading):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.name in ("deal", "kind", "dealer") or f.name in _FRESH:
            out[f.name] = None
        else:
            return None
    return out


#: The mutable defaults, made afresh for every reading.
_FRESH = ("decisions", "problems", "cards_problems")
_TEMPLATE = _reading_template()



def seating(ctx: "RecordFacts", dealer: Optional[str]) -> Tuple[Dict[str, object], Tuple[str, ...]]:
    """Who holds cards, calls, plays and leads when `dealer` deals: the seat fields of a reading,
    the same for every deal that dealer deals (kept per dealer in the record's context,
    ``RecordFacts.seat_states``), and its scored players (:attr:`DealReading.scored_players`).
    The husar's reading changes who plays and leads afterwards, deal by deal."""
    table = ctx.table
    if table is not None and dealer is not None:
        seats = table.from_first_hand(dealer)
        out: Dict[str, object] = dict(seats=seats, active=table.active(dealer), sitting_out=table.sitting_out(dealer),
                                      callers=table.callers(dealer))
    else:
        seats = ()
        out = dict(seats=seats, active=tuple(ctx.record.players))
    dummy = table.dummy if table is not None else None
    out.update(dummy=dummy, players_in_play=seats, first_leader=seats[0] if seats else None)
    active: Tuple[str, ...] = out["active"]      # type: ignore[assignment]
    return out, tuple(p for p in active if p != dummy)


def new_reading(deal: Deal, kind: str, dealer: Optional[str], exit_level: int, allpass_run: int,
                dark_run: int, seats: Dict[str, object]) -> DealReading:
    """``DealReading(deal, kind, dealer, exit_level=…, …)`` with its dealer's seat fields `seats`
    (:func:`seating`), by copying its defaults: the dataclass's ``__init__`` sets its 30 fields one
    at a time, a third of a summary deal's reading."""
    if _TEMPLATE is None:
        reading = DealReading(deal, kind, dealer, exit_level=exit_level, allpass_run=allpass_run, dark_run=dark_run)
        for name, value in seats.items():
            setattr(reading, name, value)
        return reading
    return _from_state({**_TEMPLATE, **seats}, deal, kind, dealer, exit_level, allpass_run, dark_run)


def _from_state(base: Dict[str, object], deal: Deal, kind: str, dealer: Optional[str], exit_level: int,
                allpass_run: int, dark_run: int) -> DealReading:
    """The reading whose fields are `base` (every default and a dealer's seat fields, made once per
    dealer) and the deal's own: one dictionary made and given to the object as its own."""
    out = object.__new__(DealReading)
    out.__dict__ = {**base, "deal": deal, "kind": kind, "dealer": dealer, "exit_level": exit_level,
                    "allpass_run": allpass_run, "dark_run": dark_run, "decisions": {}, "problems": [],
                    "cards_problems": []}
    return out


def _by_pos(facts: Any, n: int, absent: Any) -> List[Any]:
    """A per-deal fact of the record (``RecordFacts.kinds`` …) as a list by deal position, `absent`
    where it has none: a PosMap's own list (``_values``, ``ABSENT``: the facts import this module,
    not the other way round), or one made from another mapping."""
    values = getattr(facts, "_values", None)
    if type(values) is list and len(values) == n and getattr(facts, "ABSENT", None) is absent:
        return values
    return [facts.get(pos, absent) for pos in range(n)]


class ReaderBase:
    """The state of one deal's reading and how a problem is written down (every part adds to it).

    One reader serves every deal of its record in turn (:meth:`start` begins a deal): what is the
    same for every deal (the context, its conventions and table, who may hold cards, the per-deal
    facts as lists) is set once, not once a deal."""

    def __init__(self, ctx: "RecordFacts") -> None:
        self.ctx, self.conv = ctx, ctx.conv
        self.players = ctx.record.players
        self.seated = ctx.seated
        self.table = ctx.table
        self.dummy = ctx.table.dummy if ctx.table is not None else None
        # who may hold cards, take tricks and be named in hands: the players and the dummy
        self.holders = ctx.seated | {self.dummy} if self.dummy is not None else ctx.seated
        n = len(ctx.record.deals)
        self._n_deals = n
        self._absent = absent = getattr(ctx.kinds, "ABSENT", None) or object()
        self._kinds, self._exits = _by_pos(ctx.kinds, n, absent), _by_pos(ctx.exit_levels, n, absent)
        self._runs, self._darks = _by_pos(ctx.allpass_runs, n, absent), _by_pos(ctx.dark_runs, n, absent)
        #: the dealer each deal should have (ctx.expected) as a list, read without a call a deal
        self._expected_of: Any = ctx.expected
        self._expected = _by_pos(ctx.expected, n, absent)
        self._dealers_of: Any = None        # the rotation's dealers (ctx.dealers) as a list …
        self._dealers: List[Any] = []      # … read from it (start), made again if it is replaced
        #: the defenders of each dealer and declarer, the table's own (Table.defenders), read here
        #: without the call a deal
        self.defenders_of: Dict[Optional[str], Dict[str, Tuple[str, ...]]] = {}

    def start(self, deal: Deal) -> None:
        """Begin the reading of `deal` (``self.out``, its dealer's seat fields in place)."""
        ctx = self.ctx
        self.deal = deal
        pos = deal.pos
        inside = 0 <= pos < self._n_deals
        dealer = deal.dealer
        if dealer is None or dealer not in self.seated:
            dealers = ctx.dealers
            if dealers is not self._dealers_of:        # (a context whose rotation was changed)
                self._dealers_of, self._dealers = dealers, _by_pos(dealers, self._n_deals, self._absent)
            if inside:
                dealer = self._dealers[pos]
                if dealer is self._absent:
                    dealer = None
            else:
                dealer = dealers.get(pos)
        got = ctx.seat_states.get(dealer)
        if got is None:
            seats, scored = seating(ctx, dealer)
            # with every default and the dealer (what each of his deals' readings starts from)
            # and the trick counts found plainly fine in his deals (contracts, all-passes:
            # deal_cards.CardsReader.tricks), checked against the same players each time
            got = ctx.seat_states[dealer] = ({**_TEMPLATE, **seats, "dealer": dealer} if _TEMPLATE is not None
                                             else seats, scored, (set(), set()))
        base, self.scored, self.fine_counts = got
        if inside:
            kind, exit_level, run, dark = self._kinds[pos], self._exits[pos], self._runs[pos], self._darks[pos]
            absent = self._absent
            kind = "contract" if kind is absent else kind
            exit_level = 0 if exit_level is absent else exit_level
            run = 0 if run is absent else run
            dark = 0 if dark is absent else dark
        else:           # a deal made outside the record: the facts' own lookups
            kind, exit_level = ctx.kinds.get(pos, "contract"), ctx.exit_levels.get(pos, 0)
            run, dark = ctx.allpass_runs.get(pos, 0), ctx.dark_runs.get(pos, 0)
        if _TEMPLATE is not None:     # _from_state, written out (one call less a deal)
            out = self.out = object.__new__(DealReading)
            # the dealer's fields copied (a dictionary's copy, made in C, not merged key by key),
            # then the deal's own
            state = base.copy()
            state["deal"] = deal
            state["kind"] = kind
            state["exit_level"] = exit_level
            state["allpass_run"] = run
            state["dark_run"] = dark
            state["decisions"] = {}
            state["problems"] = []
            state["cards_problems"] = []
            out.__dict__ = state
        else:
            self.out = new_reading(deal, kind, dealer, exit_level, run, dark, base)
        self.n = pos + 1            # deal.number, without the property call
        # the deal's data path (deal.path): a plain attribute, since the card check reads it at
        # every full deal (a property was a Python call each time, dearer than the tuple)
        self.path: Path = ("deals", pos)

    def wpath(self) -> Path:
        """The deal's whist decisions' path (made only for a message, not once a deal)."""
        return self.path + ("whist",)

    def add(self, path: Path, message: str, kind: str = "rule") -> None:
        self.out.problems.append(Problem(message, path, kind=kind))

    def why_out(self, name: str) -> str:
        """How a message says why `name` holds no cards in this deal: "deals" or "waits his turn"
        (with five, seed 004 l.107; the table's ROLE_WORDS)."""
        return self.table.why_out(self.out.dealer, name) if self.table is not None else "deals"

    def warn(self, path: Path, message: str) -> None:
        """A fact the record states oddly but that has one reading, which scoring follows: validate
        reports it and still passes the record."""
        self.out.problems.append(Problem(message, path, kind="rule", severity="warning"))
