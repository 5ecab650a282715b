"""The table: who sits where, who holds cards in a deal, and who deals each deal.

:class:`Table` is the seating as data: the players in clockwise order, how many hands are dealt
(three in every preset here), and an optional dummy hand (a seat that holds cards but is nobody:
the 2-player husar). Who sits out of a deal is a row of :data:`SITTING_OUT`, by the number of
seats: nobody with three, the dealer with four, the dealer and the one waiting his turn with five
(seed 004 l.107 "žaidžiant su penkiais žaidėjais žaidime nedalyvauja du: dalintojas ir laukiantys
eilėje"; which neighbour waits is :data:`WAITING`, the preset's ``seating.waiting``). The hands go
to the other seats clockwise from the dealer's left. So the first hand, the defenders of a
declarer, and who sits out come from one place, and a preset's player counts (``Preset.players``)
are checked when the table is set (:func:`table_for`).

The rotation is data-driven: ``allpass.same_dealer`` (Classic, Lithuanian mandatory eglė: the
dealer deals again after an all-pass), the leading general eglės / eglutės that rotate
(``general_egles`` / ``eglutes``: one per dealer at the start, seed 002 "Kiekvieną kartą dalija
kitas žaidėjas"; none when ``skip_eglute`` skips them), and an all-pass after a bomb that counts
as a general eglė (``bomb_allpass``). A deal's own ``dealer:`` is taken as the truth and the
rotation goes on from it (validate reports it when it differs from the rotation, once, at that
deal).

The scorers, the rules engine, validate and convert all ask here, so a rule about the table
is written once. Nothing here knows a variant's name: only option values are read.
"""
from __future__ import annotations

from prefcli.model.slots import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

from prefcli.model.diagnostics import PrefcliError
from prefcli.model.records import Deal, Record, counts_text
from prefcli.model.values import code_points, printed_form

GENERAL, BOMB, MANDATORY, CONTRACT = "general", "bomb", "mandatory", "contract"

#: The rule options the rotation reads (see :func:`options`).
OPTIONS: Tuple[str, ...] = ("allpass.same_dealer", "general_egles", "eglutes", "skip_eglute", "bomb_allpass")

#: The plain rotation (no eglės, the deal always passes on): what a rotation reads for an option
#: a plain mapping leaves out, and the whole rotation when no rules could be resolved.
PLAIN_ROTATION: Mapping[str, Any] = {"allpass.same_dealer": False, "general_egles": 0, "eglutes": 0,
                                     "skip_eglute": False, "bomb_allpass": "mandatory"}

#: Hands dealt in a deal (and so cards in play: 3 × 10 + the talon's 2).
HANDS = 3

#: Who holds no cards in a deal, by the number of seats at the table (a dummy's seat counts): the
#: roles that sit out. "dealer" is the dealer (four players: "Keturių žaidėjų žaidime dalintojas
#: žaidime nedalyvauja", seed 004 l.107); "waiting" the player waiting his turn, beside him (five
#: players, the same line: "nedalyvauja du: dalintojas ir laukiantys eilėje"). A count with no row
#: seats the first HANDS seats from the dealer's left and leaves the others out.
SITTING_OUT: Mapping[int, Tuple[str, ...]] = {2: (), 3: (), 4: ("dealer",), 5: ("dealer", "waiting")}

#: Where the one "waiting his turn" sits, as a step clockwise from the dealer, by the preset's
#: ``seating.waiting``: "next" (the next to deal, on the dealer's left: he waits for the deal to
#: come to him; the default) or "previous" (the one who dealt before, on the dealer's right).
WAITING: Mapping[str, int] = {"next": 1, "previous": -1}


class TableError(PrefcliError, ValueError):
    """A table the preset is not played at (a player count it does not allow)."""

    kind = "rule"

    def __init__(self, message: str, path: Tuple[Any, ...] = ("players",)) -> None:
        super().__init__(message, path)


@dataclass(frozen=True)
class Table:
    """The seats in clockwise order and how the hands go round them.

    `players` deal in turn; `dummy` (when set) is a seat that holds a hand but never deals, never
    speaks and is nobody's (the 2-player husar, HUSAR.md H1, H3). With ``dummy_seating`` `fixed`
    the seats are P1 → dummy → P2 (seed 004 l.39: the dummy is to the dealer's left in P1's deals
    and to his right in P2's); with `alternating` the dummy moves so that it is the dealer's left
    hand in every deal (the [CS] reading of HUSAR.md H3, inferred). `waiting` names which
    neighbour of the dealer waits his turn where a row of :data:`SITTING_OUT` has one sit out
    (:data:`WAITING`). Every query takes the deal's dealer."""

    players: Tuple[str, ...]
    hands: int = HANDS
    dummy: Optional[str] = None
    waiting: str = "next"
    dummy_seating: str = "fixed"

    def _ring(self, dealer: str) -> Tuple[str, ...]:
        """The seats round the table in the deal `dealer` deals, clockwise from the first player."""
        if self.dummy is None:
            return self.players
        if self.dummy_seating == "alternating" and dealer in self.players:
            i = self.players.index(dealer)
            rest = self.players[i + 1:] + self.players[:i]
            return (dealer, self.dummy) + rest
        return self.players[:1] + (self.dummy,) + self.players[1:]

    def __post_init__(self) -> None:
        # every question has a handful of answers (one per seat): computed once here, since
        # each deal of a record asks them (a frozen dataclass, so set through object)
        seats = self._ring(self.players[0]) if self.players else ()
        n = len(seats)
        around = {p: tuple(seats[(i + k) % n] for k in range(1, n + 1)) for i, p in enumerate(seats)}
        steps = {"dealer": 0, "waiting": WAITING[self.waiting]}
        roles = SITTING_OUT.get(n)
        first: Dict[str, Tuple[str, ...]] = {}
        rings: Dict[str, Tuple[str, ...]] = {}
        for p in seats:
            ring = self._ring(p)          # the seats as they are in the deals p deals
            rings[p] = ring
            i = ring.index(p)
            from_left = tuple(ring[(i + k) % n] for k in range(1, n + 1))
            if roles is None or p not in self.players:
                first[p] = from_left[:self.hands]
                continue
            idle = {ring[(i + steps[r]) % n] for r in roles}
            first[p] = tuple(q for q in from_left if q not in idle)[:self.hands]
        active = {p: tuple(q for q in rings[p] if q in first[p]) for p in seats}
        out = {p: tuple(q for q in rings[p] if q not in first[p]) for p in seats}
        left = {p: tuple(q for q in around[p][:-1] if q in self.players) for p in seats}
        for name, value in (("_seats", seats), ("_around", around), ("_rings", rings), ("_first", first),
                            ("_active", active),
                            ("_out", out), ("_left", left), ("_defenders", {})):
            object.__setattr__(self, name, value)

    @property
    def seats(self) -> Tuple[str, ...]:
        return self._seats                                    # type: ignore[attr-defined]

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def sits_out_every_deal(self) -> bool:
        """More seats than hands: the dealer (at least) holds no cards."""
        return len(self._seats) > self.hands                  # type: ignore[attr-defined]

    def from_first_hand(self, dealer: str) -> Tuple[str, ...]:
        """The seats that hold cards, clockwise from the first hand (the dealer's left)."""
        return self._first[dealer]                            # type: ignore[attr-defined]

    def active(self, dealer: Optional[str]) -> Tuple[str, ...]:
        """The seats that hold cards, in seat order (everyone when the dealer is unknown)."""
        return self._active.get(dealer, self._seats)          # type: ignore[attr-defined]

    def sitting_out(self, dealer: Optional[str]) -> Tuple[str, ...]:
        return self._out.get(dealer, ())                      # type: ignore[attr-defined]

    def why_out(self, dealer: Optional[str], player: str) -> str:
        """Why `player` holds no cards in a deal `dealer` deals, as a message says it: "deals",
        "waits his turn" (:data:`ROLE_WORDS`), or "holds no cards" when he is not out."""
        if player not in self.sitting_out(dealer):
            return "holds no cards"
        return ROLE_WORDS["dealer" if player == dealer else "waiting"]

    def first_hand(self, dealer: str) -> str:
        return self._first[dealer][0]                         # type: ignore[attr-defined]

    def callers(self, dealer: str) -> Tuple[str, ...]:
        """Who calls in the auction, from the first live hand: the players holding cards (the
        dummy never speaks, HUSAR.md H6)."""
        return tuple(p for p in self.from_first_hand(dealer) if p != self.dummy)

    def defenders(self, dealer: Optional[str], declarer: str) -> Tuple[str, ...]:
        """The declarer's opponents who hold cards, in the order they speak (from his left); the
        dummy, when there is one, is among them as the partner who has passed (HUSAR.md H8)."""
        key = (dealer, declarer)
        got = self._defenders.get(key)                        # type: ignore[attr-defined]
        if got is None:
            holding = set(self.active(dealer))
            ring = self._rings.get(dealer, self._seats)       # type: ignore[attr-defined]
            if declarer in ring:
                i = ring.index(declarer)
                around = tuple(ring[(i + k) % len(ring)] for k in range(1, len(ring)))
            else:
                around = ()
            got = tuple(p for p in around if p in holding)
            self._defenders[key] = got                        # type: ignore[attr-defined]
        return got

    def left_of(self, player: str) -> Tuple[str, ...]:
        """The other players, nearest to the left (clockwise) first."""
        return self._left[player]                             # type: ignore[attr-defined]


def table_for(players: Sequence[str], rules: Any = None) -> Table:
    """The table of a record's players under `rules` (TableError when the preset is not played by
    that many: ``Preset.players``)."""
    ps = tuple(players)
    if len(set(ps)) != len(ps):
        raise TableError("the same name is seated twice")
    seen: Dict[str, str] = {}
    for p in ps:
        other = seen.setdefault(printed_form(p), p)
        if other != p:
            raise TableError(f"'{p}' and '{other}' look the same printed ({code_points(p)}, and "
                             f"{code_points(other)}): two players must be told apart on the sheet")
    preset = getattr(rules, "preset", None)
    counts = tuple(getattr(preset, "players", ())) or DEFAULT_COUNTS
    if len(ps) not in counts:
        what = f"{preset.name} is played by" if preset is not None else "a game has"
        hint = ""
        if preset is not None and len(ps) == 2 and 2 not in counts:
            from prefcli.rules.presets import presets
            two = [p.name for p in presets() if 2 in p.players]
            if two:
                hint = f" (two players play the husar game with a dummy: variant {' or '.join(two)})"
        raise TableError(f"{len(ps)} players listed; {what} {counts_text(counts)} players{hint}")
    dummy: Optional[str] = getattr(preset, "dummy", None)
    if dummy is not None and dummy in ps:
        raise TableError(f"players: '{dummy}' names the dummy hand of {getattr(preset, 'name', '')}; "
                         "a player needs another name")
    seating = "fixed"
    if dummy is not None and rules is not None:
        seating = str(rules.value("husar.seating"))
    return Table(ps, HANDS, dummy, seating_waiting(rules), seating)


#: How a message says why a seat holds no cards, by its role (:data:`SITTING_OUT`).
ROLE_WORDS: Mapping[str, str] = {"dealer": "deals", "waiting": "waits his turn"}


#: The player counts of a game whose preset is unknown (a plain caller's table).
DEFAULT_COUNTS: Tuple[int, ...] = (3, 4)


def seating_waiting(rules: Any) -> str:
    """The rules' ``seating.waiting`` (:data:`WAITING`), "next" for rules that do not state it."""
    get = getattr(rules, "get", None)
    got = get("seating.waiting") if get is not None else None
    return str(got) if got in WAITING else "next"


@dataclass(frozen=True)
class Rotation:
    """One walk over the deals (by pos): the kind of each deal, who dealt it, and who the
    rotation says should have dealt it (before the deal's own ``dealer:`` is taken); and where
    the walk stands after the last deal (who deals next, the leading eglės still to come), which
    a sheet carries as its state (``dealer``, ``leading_egles``)."""

    kinds: Dict[int, str]
    dealers: Dict[int, str]
    expected: Dict[int, str]
    next_dealer: Optional[str] = None
    leading_left: int = 0


def start_state(record: Record) -> Mapping[str, Any]:
    """The record's ``start.state`` as written (checked against the family by the record's
    context, :mod:`prefcli.rules.state`), or an empty mapping."""
    start = getattr(record, "start", None)
    state = getattr(start, "state", None)
    return state if isinstance(state, Mapping) else {}


def _getter(rules: Any) -> Callable[[str], Any]:
    """How the rotation reads an option: the resolved rules' value (every family states each,
    ``Rules.value``), or a plain mapping's with :data:`PLAIN_ROTATION` for what it leaves out."""
    if rules is None:
        return PLAIN_ROTATION.__getitem__
    value = getattr(rules, "value", None)
    if value is not None:
        return value
    return lambda name: rules[name] if rules.get(name) is not None else PLAIN_ROTATION[name]


def _count(value: Any, players: int) -> int:
    if value in (None, False):
        return 0
    if isinstance(value, str):
        return players if value == "players" else 0
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def options(rules: Any) -> Tuple[Tuple[str, Any], ...]:
    """The options the rotation reads, as (name, value) pairs, for a caller that keeps a frozen
    digest of the rules (the engine's ``Conventions``): ``dict()`` of the pairs gives the same
    rotation as the rules themselves."""
    get = _getter(rules)
    return tuple((name, get(name)) for name in OPTIONS)


class Dealing:
    """The rotation as it goes, one deal at a time (for readers that build a record line by line,
    like the quick-entry notes); :func:`rotation` walks a whole record with it."""

    def __init__(self, players: Sequence[str], first_dealer: Optional[str], rules: Any,
                 same_dealer: Optional[bool] = None, leading_left: Optional[int] = None) -> None:
        get = _getter(rules)
        self.players = list(players)
        n = len(self.players)
        self.same = bool(get("allpass.same_dealer")) if same_dealer is None else same_dealer
        self.leading_count = max(_count(get("general_egles"), n), _count(get("eglutes"), n))
        if get("skip_eglute"):
            self.leading_count = 0
        self.bomb_general = get("bomb_allpass") == "general"
        self.seat = self.players.index(first_dealer) if first_dealer in self.players else 0
        self.leading, self.seen = True, 0
        if leading_left is not None:          # a game continued from a sheet (state.leading_egles)
            self.seen = max(0, self.leading_count - leading_left)
            self.leading = leading_left > 0

    @property
    def leading_left(self) -> int:
        """The leading all-passes (general eglės, eglutės) still to come."""
        return max(0, self.leading_count - self.seen) if self.leading else 0

    @property
    def dealer(self) -> Optional[str]:
        """Who the rotation says deals the next deal."""
        return self.players[self.seat] if self.players else None

    def kind(self, all_pass: bool, bomb: bool) -> str:
        if not all_pass:
            return CONTRACT
        if self.leading and self.seen < self.leading_count:
            return GENERAL
        return BOMB if bomb and self.bomb_general else MANDATORY

    def deal(self, all_pass: bool, bomb: bool = False, dealer: Optional[str] = None) -> Tuple[str, Optional[str]]:
        """Record one deal (its own `dealer:` when given); returns its kind and who dealt it."""
        if not all_pass:                    # self.kind(…), without the call a deal
            kind = CONTRACT
            self.leading = False
        else:
            kind = self.kind(all_pass, bomb)
            if kind == GENERAL:
                self.seen += 1
        players = self.players
        if not players:
            return kind, None
        seat = self.seat
        if dealer is not None and dealer in players:
            seat = players.index(dealer)
        # the same dealer again after a mandatory all-pass (allpass.same_dealer), else the next
        self.seat = seat if (kind == MANDATORY and self.same) else (seat + 1) % len(players)
        return kind, players[seat]


def rotation(record: Record, rules: Any, explicit: bool = True,
             same_dealer: Optional[bool] = None, new: Callable[[], Any] = dict) -> Rotation:
    """The kinds, dealers and expected dealers of every deal, in one walk.

    Kinds: `general` (a leading general eglė / eglutė), `bomb` (an all-pass after a bomb that
    counts as a general eglė), `mandatory` (any other all-pass: the seed 000 "extra eglutė" too)
    or `contract`. After a `mandatory` all-pass the dealer deals again when the rules'
    ``allpass.same_dealer`` (or `same_dealer`, to compare both rotations) says so. With
    `explicit`, a deal's `dealer:` resets the rotation. `new` makes each of the three mappings
    (a dict; the record's facts give a list by position, filled as it walks).
    """
    state = start_state(record)
    left = state.get("leading_egles")
    try:
        table: Optional[Table] = table_for(record.players, rules)
    except TableError:
        table = None
    walk = Dealing(record.players, first_dealer_of(record, table)[0], rules, same_dealer,
                   left if isinstance(left, int) and not isinstance(left, bool) and left >= 0 else None)
    kinds: Dict[int, str] = new()
    dealt: Dict[int, str] = new()
    expected: Dict[int, str] = new()
    put_kind, put_dealt, put_expected = filler(kinds), filler(dealt), filler(expected)
    players = walk.players
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        pos = entry.pos
        if players:                        # walk.dealer, without the property
            put_expected(pos, players[walk.seat])
        kind, by = walk.deal(entry.contract.is_all_pass, entry.bomb is not None,
                             entry.dealer if explicit else None)
        put_kind(pos, kind)
        if by is not None:
            put_dealt(pos, by)
    return Rotation(kinds, dealt, expected, walk.dealer, walk.leading_left)


def filler(mapping: Any) -> Callable[[int, Any], None]:
    """How a walk over the deals puts a value at a deal's position: a PosMap's own list setter
    (``PosMap.filler``), or the mapping's ``__setitem__``."""
    fill = getattr(mapping, "filler", None)
    return fill() if fill is not None else mapping.__setitem__


def deal_kinds(record: Record, rules: Any) -> Dict[int, str]:
    """`general` (a leading general eglė / eglutė), `bomb`, `mandatory` (any other all-pass) or `contract`."""
    return rotation(record, rules).kinds


def dealers(record: Record, rules: Any, explicit: bool = True,
            same_dealer: Optional[bool] = None) -> Dict[int, str]:
    """The dealer of each deal (by pos). With `explicit`, a deal's `dealer:` resets the rotation;
    `same_dealer` overrides the rules' ``allpass.same_dealer`` (to compare both rotations)."""
    return rotation(record, rules, explicit, same_dealer).dealers


def expected_dealers(record: Record, rules: Any) -> Dict[int, str]:
    """The dealer the rotation gives each deal, continuing from the previous deal's actual dealer
    (its `dealer:` when written), so one wrong `dealer:` is reported once, at that deal."""
    return rotation(record, rules).expected


class Seating:
    """A table and its rotation for a reader that builds a record deal by deal (the quick-entry
    notes, :mod:`prefcli.io.quickentry`, which is handed one so that io never imports the rules):
    the player counts the preset is played by, who holds cards in the current deal, and the dealer
    moving on as a record's rotation does."""

    def __init__(self, players: Sequence[str], rules: Any) -> None:
        self.players = tuple(players)
        self.rules = rules
        preset = getattr(rules, "preset", None)
        self.counts: Tuple[int, ...] = tuple(getattr(preset, "players", ())) or (3, 4)
        self.table = Table(self.players)
        self.dummy: Optional[str] = None
        self.dealing = Dealing(self.players, None, rules)

    def start(self, first_dealer: Optional[str]) -> None:
        """The preset's table (who sits out, a husar's dummy) and the rotation from `first_dealer`."""
        try:
            self.table = table_for(self.players, self.rules)
        except TableError:
            self.table = Table(self.players)
        self.dummy = self.table.dummy
        self.dealing = Dealing(self.players, first_dealer, self.rules)

    @property
    def dealer(self) -> Optional[str]:
        return self.dealing.dealer

    def active(self) -> Tuple[str, ...]:
        return self.table.active(self.dealing.dealer)

    def deal(self, all_pass: bool, bomb: bool = False, dealer: Optional[str] = None) -> Tuple[str, Optional[str]]:
        return self.dealing.deal(all_pass, bomb, dealer)


def seating_for(players: Sequence[str], variant: str) -> Seating:
    """The seating of `players` under the preset `variant` (OptionError for an unknown one)."""
    from prefcli.rules.presets import resolve_rules
    return Seating(players, resolve_rules({"variant": variant}))


def _named_holders(deal: Deal) -> Tuple[set, Optional[str]]:
    """Who a deal names as holding cards (declarer, defenders, hands, a contract's tricks and a
    claim), and whom it names as its dealer (a misère partner is the dealer). An all-pass's
    tricks may list the dealer (his talon-led tricks), so they count only when they leave someone
    out."""
    named = set()
    if deal.declarer is not None:
        named.add(deal.declarer)
    named.update(p for p, _ in deal.whist)
    named.update(p for p, _ in deal.hands or ())
    named.update(p for p, _ in deal.claim or ())
    if deal.tricks is not None:
        takers = {p for p, _ in deal.tricks}
        if not deal.contract.is_all_pass or len(takers) < HANDS + 1:
            named.update(takers)
    return named, deal.partner


def first_dealer_of(record: Record, table: Optional[Table]) -> Tuple[Optional[str], Optional[str]]:
    """Who deals first, and why it cannot be known (None when it can).

    The record's ``first_dealer``, the sheet's it continues (``start.state.dealer``), the first
    deal's own ``dealer:``, or else FORMAT.md's stated default, the first player. That default is
    the format's rule, not a guess: with 4 or 5 players it decides who sits out, so a record whose
    first deal names cards or tricks for a seat that then sits out is refused by the reading
    (never re-seated to fit the names).
    """
    players = record.players
    if record.first_dealer is not None:
        return record.first_dealer, None
    carried = start_state(record).get("dealer")
    if carried in players:
        return carried, None                     # a game continued from a sheet: who deals next
    first = next((e for e in record.deals if isinstance(e, Deal)), None)
    if first is not None and first.dealer is not None:
        return first.dealer, None
    return (players[0] if players else None), None
