"""The rules engine: replay a deal step by step and stop at the first illegal step.

Why an engine rather than a set of field checks: the legality of a card depends on every card
before it (what the player still holds, who leads), and the legality of a call depends on the
whole auction so far. So a deal is replayed as the table would play it: the auction call by
call, the talon and discard, the whist decisions in order from the declarer's left, then the
tricks card by card. The first illegal step raises (or records) a typed :class:`RulesError`
naming the deal, the step, the player, the card or call, and why.

Every rule that differs between variants is read from the resolved rules (``Rules.get`` with a
default, so both the Russian and the Lithuanian families work): the ladder (``misere_after``),
jumps (``bid_jumps``), who may say "here" (``here_rule``), the kabal'ny misère
(``misere_binding``), what beats a misère (``misere_beaten_by``), the opening bid
(``opening_bid``), the contest order of seed 000 (``auction_order: pairs``), the bomb floor
(``bomb_min_level``), dark calls (``dark``), half-whist and its return, the Stalingrad, the
take-over from both hands, the all-pass talon (``allpass.talon``), exit levels
(``allpass.exit``, and ``allpass.dark_exit`` after dark passes), checked tens (``tens``) and
the misère half with the 4-player dealer (``misere_partner``). No code here looks at the
variant's name.

Library code: no click, no I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from prefcli.model.cards import DECK, Call, CallKind, Card, Contract, Decision, Suit, ladder
from prefcli.model.diagnostics import Path, PrefcliError, Problem
from prefcli.model.records import Deal, Record
from prefcli.rules.moves import legal_mask, mask_of
from prefcli.rules.table import dealers as seating_dealers, options as seating_options

__all__ = [
    "RulesError", "IllegalCall", "IllegalPlay", "IllegalDeal", "Conventions", "conventions",
    "Auction", "AuctionStep", "AuctionResult", "TrickPlay", "DealReplay", "replay_deal",
    "replay_record", "check_record", "legal_cards", "trick_winner", "random_play", "exit_levels",
    "deal_dealers", "is_dark_allpass", "talon_leads",
]

SUIT_NAMES = {Suit.S: "spades", Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts"}
TRICKS_PER_DEAL = 10

# Cards as small integers (suit order × 8 + rank − 7, the index in DECK) and hands as bit masks:
# the play check runs once per card of every deal, so it avoids hashing Card objects.
_SUITS = tuple(Suit)
_SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
_ID_CODE = {id(c): i for i, c in enumerate(DECK)}


def _code(card: Card) -> int:
    code = _ID_CODE.get(id(card))
    if code is None:
        code = card.suit.order * 8 + int(card.rank) - 7
    return code


def _cards_of(mask: int) -> List[Card]:
    return [DECK[i] for i in range(32) if (mask >> i) & 1]


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

class RulesError(PrefcliError):
    """An illegal step in a deal; `path` locates it in the record (``deals[0].play[1][1]``)."""

    kind = "rule"


class IllegalCall(RulesError):
    """An auction call, contract, discard or whist decision the rules do not allow."""


class IllegalPlay(RulesError):
    """A card that may not be played: not held, already played, a revoke, a wrong trick."""

    kind = "play"


class IllegalDeal(RulesError):
    """A deal that cannot be replayed at all (hands, talon or players do not add up)."""


# ---------------------------------------------------------------------------------------------
# Conventions: the rule options the engine needs, read once per record
# ---------------------------------------------------------------------------------------------

def _get(rules: Any, name: str, default: Any) -> Any:
    if rules is None:
        return default
    try:
        value = rules.get(name, default)
    except AttributeError:
        return default
    return default if value is None else value


@dataclass(frozen=True)
class Conventions:
    """The auction, whist and play options of a preset (defaults: the Кодекс / Sochi)."""

    ladder: Tuple[Contract, ...]
    rung: Mapping[Contract, int]
    bid_jumps: bool = True
    here_rule: str = "first-hand"
    misere_binding: bool = True
    misere_beaten_by: str = "ladder"
    opening_bid: str = "any"
    auction_order: str = "clockwise"
    bomb_min_level: int = 0
    dark: bool = False
    bomb: bool = False
    dark_defence: bool = False
    half_whist: bool = False
    half_whist_by: str = "second"
    return_whist: bool = False
    stalingrad: bool = False
    takeover: bool = False
    whist_alone: bool = False
    allpass_talon: str = "unused"
    allpass_exit: Tuple[int, ...] = ()
    allpass_dark_exit: Tuple[int, ...] = ()   # after consecutive dark all-passes (Кодекс 3.7.7)
    tens_checked: bool = False                # tens: checked (seed 003 "gra dziesiątki jest sprawdzana")
    misere_partner: bool = False              # misère half with the 4-player dealer (Кодекс 3.6.9)
    same_dealer: bool = False
    seating: Tuple[Tuple[str, Any], ...] = ()   # what the dealer rotation reads (prefcli.seating.options)


def conventions(rules: Any) -> Conventions:
    """Read the options the engine needs from resolved rules (or any mapping, or None)."""
    misere_after = str(_get(rules, "misere_after", "8NT"))
    lad = ladder(misere_after)
    exits = _get(rules, "allpass.exit", ())
    try:
        exits_t = tuple(int(x) for x in exits)
    except (TypeError, ValueError):
        exits_t = ()
    try:
        dark_exits = tuple(int(x) for x in _get(rules, "allpass.dark_exit", ()))
    except (TypeError, ValueError):
        dark_exits = ()
    return Conventions(
        ladder=lad,
        rung={c: i for i, c in enumerate(lad)},
        bid_jumps=bool(_get(rules, "bid_jumps", True)),
        here_rule=str(_get(rules, "here_rule", "first-hand")),
        misere_binding=bool(_get(rules, "misere_binding", False)),
        misere_beaten_by=str(_get(rules, "misere_beaten_by", "ladder")),
        opening_bid=str(_get(rules, "opening_bid", "any")),
        auction_order=str(_get(rules, "auction_order", "clockwise")),
        bomb_min_level=int(_get(rules, "bomb_min_level", 0) or 0),
        dark=bool(_get(rules, "dark", False)),
        bomb=bool(_get(rules, "bomb", _get(rules, "dark", False))),
        dark_defence=bool(_get(rules, "dark_defence", False)),
        half_whist=bool(_get(rules, "half_whist", False)),
        half_whist_by=str(_get(rules, "half_whist_by", "second")),
        return_whist=bool(_get(rules, "return_whist", False)),
        stalingrad=bool(_get(rules, "stalingrad", False)),
        takeover=bool(_get(rules, "takeover", False)),
        whist_alone=bool(_get(rules, "whist_alone", False)),
        allpass_talon=str(_get(rules, "allpass.talon", "unused")),
        allpass_exit=exits_t,
        allpass_dark_exit=dark_exits,
        tens_checked=str(_get(rules, "tens", "whisted")) == "checked",
        misere_partner=bool(_get(rules, "misere_partner", False)),
        same_dealer=bool(_get(rules, "allpass.same_dealer", False)),
        seating=seating_options(rules),
    )


def deal_dealers(record: Record, conv: Conventions) -> Dict[int, str]:
    """The dealer of each deal (by pos): the one rotation of :mod:`prefcli.seating` (a deal's own
    ``dealer:`` wins; the leading general eglės rotate, seed 002 "Kiekvieną kartą dalija kitas
    žaidėjas"), read from the options the conventions keep, so replay and scoring agree."""
    return seating_dealers(record, dict(conv.seating))


def is_dark_allpass(deal: Deal) -> bool:
    """See :attr:`Deal.is_dark_allpass` (kept here for callers of the engine's API)."""
    return deal.is_dark_allpass


def dark_exit_level(conv: Conventions, dark_run: int) -> int:
    """The floor after `dark_run` consecutive dark all-passes (``allpass.dark_exit``, the last
    repeats); 0 when there is none or dark calls are not played."""
    steps = conv.allpass_dark_exit
    if not (conv.dark and steps and dark_run > 0):
        return 0
    return steps[min(dark_run, len(steps)) - 1]


def _exit_options(conv: Conventions) -> str:
    """The options an exit level comes from, for messages."""
    return "allpass.exit, allpass.dark_exit" if conv.dark and conv.allpass_dark_exit else "allpass.exit"


def exit_levels(record: Record, conv: Conventions) -> Dict[int, int]:
    """The minimum contract level of each deal (by pos) after consecutive all-pass deals.

    ``allpass.exit`` lists the minimum after the 1st, 2nd, 3rd… consecutive all-pass (the last
    repeats). A deal not preceded by an all-pass has no minimum (0). Adjustments are not deals.
    With dark calls, ``allpass.dark_exit`` raises it after consecutive dark all-passes (Кодекс
    3.7.7: "Выйти из распасовки после паса втёмную можно семерной игрой, а из двойной
    распасовки – восьмерной"); a plain all-pass ends the dark run.
    """
    out: Dict[int, int] = {}
    run = dark_run = 0
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        level = 0
        if run and conv.allpass_exit:
            level = conv.allpass_exit[min(run, len(conv.allpass_exit)) - 1]
        out[entry.pos] = max(level, dark_exit_level(conv, dark_run))
        if entry.contract.is_all_pass:
            run += 1
            dark_run = dark_run + 1 if is_dark_allpass(entry) else 0
        else:
            run = dark_run = 0
    return out


# ---------------------------------------------------------------------------------------------
# Auction
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AuctionStep:
    index: int
    player: str
    call: Call
    high: Optional[Contract]      # the highest bid after this call
    holder: Optional[str]         # who holds it


@dataclass(frozen=True)
class AuctionResult:
    winner: Optional[str]         # None: everyone passed
    bid: Optional[Contract]
    dark: bool = False            # the winner's last bid was made in the dark
    without_talon: bool = False   # a 9 over a misère under misere_beaten_by: 9-without-talon


def _call_text(call: Call) -> str:
    if call.kind is CallKind.BID:
        return f"bid {call}"
    if call.kind is CallKind.HERE:
        return "said here" if not call.dark else "said here in the dark"
    return "passed" if not call.dark else "passed in the dark"


class Auction:
    """The auction as a state machine: who calls next, is a call legal, apply it.

    The generator and the property tests drive the same machine (``legal_calls``), so the
    generated auctions are legal by construction.
    """

    def __init__(self, conv: Conventions, seats: Sequence[str], *, min_level: int = 0,
                 bomb: bool = False, dark_run: int = 0) -> None:
        self.conv = conv
        self.seats = tuple(seats)                 # from the first hand
        self.first_hand = self.seats[0]
        self.min_level = min_level                # after all-passes (allpass.exit)
        self.bomb_level = conv.bomb_min_level if bomb else 0
        # a dark pass in this auction: only the next dark exit step outbids it (Кодекс 3.3.19а
        # "Перебить пас втёмную можно только семерной игрой … повторный … только восьмерной")
        self.dark_run = dark_run                  # consecutive dark all-passes before this deal
        self.dark_level = 0
        self.first_said_here = False              # here_rule: first-or-second
        self.passed: Set[str] = set()
        self.calls: Dict[str, int] = {p: 0 for p in self.seats}
        self.high: Optional[Contract] = None
        self.holder: Optional[str] = None
        self.high_dark = False
        self.misere_bid = False
        self.nine_over_misere = False
        self.steps: List[AuctionStep] = []
        self.done = False
        # turn state
        self._turn = 0                                # clockwise: index into seats
        if conv.auction_order == "pairs":
            self._pair: Tuple[str, str] = (self.seats[0], self.seats[1])   # (senior, junior)
            self._phase = 1
            self._in_pair_calls: Dict[str, int] = {self.seats[0]: 0, self.seats[1]: 0}
            self._next: Optional[str] = self.seats[0]
        else:
            self._next = self.seats[0]

    # -- queries ---------------------------------------------------------------------------
    def next_player(self) -> Optional[str]:
        return None if self.done else self._next

    def result(self) -> AuctionResult:
        if self.holder is None:
            return AuctionResult(None, None)
        without = (self.conv.misere_beaten_by == "9-without-talon" and self.nine_over_misere
                   and self.high is not None and self.high.is_tricks and self.high.level == 9)
        return AuctionResult(self.holder, self.high, self.high_dark, without)

    def _floor_rung(self) -> int:
        """The lowest rung any bid may take (exit level, bomb)."""
        level = max(self.min_level, self.bomb_level, self.dark_level)
        if level <= 6:
            return 0
        for i, c in enumerate(self.conv.ladder):
            if c.is_tricks and (c.level or 0) >= level:
                return i
        return len(self.conv.ladder)

    def _next_rung(self) -> int:
        """The rung a one-step raise must take (no jumps)."""
        if self.high is None:
            return self._floor_rung()
        lad, i = self.conv.ladder, self.conv.rung[self.high] + 1
        floor = self._floor_rung()
        while i < len(lad):
            c = lad[i]
            if i >= floor and self._level_ok(c) is None:
                return i
            i += 1
        return i

    def _level_ok(self, c: Contract) -> Optional[str]:
        if c.is_tricks:
            lv = c.level or 0
            if self.min_level and lv < self.min_level:
                return (f"after an all-pass the game must be at least {self.min_level} "
                        f"({_exit_options(self.conv)})")
            if self.bomb_level and lv < self.bomb_level:
                return f"after a bomb only {self.bomb_level} or more may be bid"
            if self.dark_level and lv < self.dark_level:
                return (f"after a dark pass only a {self.dark_level} or higher outbids it "
                        "(allpass.dark_exit)")
            if self.misere_bid and self.conv.misere_beaten_by == "10" and lv < 10:
                return "only a 10 beats a misère (misere_beaten_by: 10)"
        return None

    def why_illegal(self, player: str, call: Call) -> Optional[str]:
        """None when `player` may make `call` now; otherwise the reason, in words."""
        if self.done:
            return "the auction is already over"
        if player != self._next:
            return f"it is {self._next}'s turn to call"
        if call.dark and not self.conv.dark:
            return "dark calls are not played under these rules (option dark)"
        pairs = self.conv.auction_order == "pairs"
        if call.kind is CallKind.PASS:
            return None
        if call.kind is CallKind.HERE:
            if self.high is None or self.holder is None:
                return "there is no bid to hold"
            if self.holder == player:
                return "he already holds the last bid"
            if pairs:
                senior, junior = self._pair
                if player != senior:
                    return f"only {senior}, the senior of this contest, may say mine; {player} must raise or pass"
            elif self.conv.here_rule == "first-hand" and player != self.first_hand:
                return f"only the first hand ({self.first_hand}) may say here (here_rule)"
            elif self.conv.here_rule == "first-or-second" and player != self.first_hand:
                second = self.seats[1] if len(self.seats) > 1 else None
                if player != second or self.first_hand not in self.passed or self.first_said_here:
                    return (f"only the first hand ({self.first_hand}), or the second hand ({second}) "
                            "after the first passed without saying here, may say here "
                            "(here_rule: first-or-second)")
            if self.high.is_misere and self.conv.misere_binding:
                return "a misère cannot be held: misère is only a player's first call (misere_binding)"
            return None
        c = call.contract
        assert c is not None
        if c not in self.conv.rung:
            return f"{c} is not on this preset's ladder"
        if pairs and self.holder is not None and player == self._pair[0] and self.holder == self._pair[1]:
            return f"{player} is the senior of this contest: he may only say mine or pass"
        r = self.conv.rung[c]
        if self.high is not None and r <= self.conv.rung[self.high]:
            return f"{c} is not higher than the current bid {self.high}"
        if c.is_misere and self.conv.misere_binding and self.calls[player] > 0:
            return "misère may only be a player's first call (kabal'ny misère, misere_binding)"
        bad = self._level_ok(c)
        if bad:
            return bad
        if r < self._floor_rung():
            return "the bid is below the lowest legal level"
        jump_free = c.is_misere and self.conv.misere_binding
        if self.high is None and self.conv.opening_bid == "lowest":
            want = self._floor_rung()
            if r != want:
                return f"the auction may only be opened with {self.conv.ladder[want]} (opening_bid: lowest)"
        elif self.high is not None and not self.conv.bid_jumps and not jump_free:
            want = self._next_rung()
            if r != want and want < len(self.conv.ladder):
                return (f"bids rise one rung at a time (bid_jumps: no): the next bid after "
                        f"{self.high} is {self.conv.ladder[want]}")
        return None

    def legal_calls(self) -> List[Call]:
        """Every call the player to call may make now (pass first)."""
        p = self.next_player()
        if p is None:
            return []
        out = [Call(CallKind.PASS)]
        here = Call(CallKind.HERE)
        if self.why_illegal(p, here) is None:
            out.append(here)
        for c in self.conv.ladder:
            call = Call(CallKind.BID, c)
            if self.why_illegal(p, call) is None:
                out.append(call)
        return out

    # -- steps -----------------------------------------------------------------------------
    def apply(self, call: Call) -> AuctionStep:
        """Apply a call already known to be legal."""
        player = self._next
        assert player is not None
        if call.kind is CallKind.PASS:
            self.passed.add(player)
            if call.dark:
                self.dark_level = max(self.dark_level, dark_exit_level(self.conv, self.dark_run + 1))
        elif call.kind is CallKind.HERE:
            if player == self.first_hand:
                self.first_said_here = True
            self.holder = player
            self.high_dark = call.dark
            self.calls[player] += 1
        else:
            c = call.contract
            if self.misere_bid and c is not None and c.is_tricks and c.level == 9:
                self.nine_over_misere = True
            if c is not None and c.is_misere:
                self.misere_bid = True
            self.high, self.holder, self.high_dark = c, player, call.dark
            self.calls[player] += 1
        step = AuctionStep(len(self.steps), player, call, self.high, self.holder)
        self.steps.append(step)
        if self.conv.auction_order == "pairs":
            self._advance_pairs(player, call)
        else:
            self._advance_clockwise(player)
        return step

    def _advance_clockwise(self, player: str) -> None:
        n = len(self.seats)
        if len(self.passed) == n or (len(self.passed) == n - 1 and self.holder is not None):
            self.done, self._next = True, None
            return
        i = self.seats.index(player)
        for k in range(1, n + 1):
            q = self.seats[(i + k) % n]
            if q not in self.passed:
                self._next = q
                return
        self.done, self._next = True, None

    def _advance_pairs(self, player: str, call: Call) -> None:
        senior, junior = self._pair
        self._in_pair_calls[player] = self._in_pair_calls.get(player, 0) + 1
        other = junior if player == senior else senior
        ended = False
        if senior == junior:
            ended = True           # the third hand alone: his one call settles it
        elif call.kind is CallKind.PASS:
            # the contest ends once the other has called (a bid, hold or pass) or passed
            if other in self.passed or self._in_pair_calls.get(other, 0) > 0:
                ended = True
            else:
                self._next = other
        elif other in self.passed:
            ended = True           # the only one left in this contest has bid
        else:
            self._next = other
        if not ended:
            return
        if self._phase == 1 and len(self.seats) > 2:
            third = self.seats[2]
            self._phase = 2
            winner = self.holder if self.holder in (senior, junior) and self.holder not in self.passed else None
            if winner is None:
                self._pair = (third, third)
                self._in_pair_calls = {third: 0}
            else:
                self._pair = (winner, third)
                self._in_pair_calls = {winner: 0, third: 0}
            self._next = third
            return
        self.done, self._next = True, None

    def run(self, calls: Sequence[Call], deal_no: int, path: Path) -> AuctionResult:
        """Replay `calls`; raise IllegalCall at the first illegal one or an unfinished auction."""
        for i, call in enumerate(calls):
            if self.done:
                raise IllegalCall(f"deal {deal_no}, auction call {i + 1}: the auction was over after "
                                  f"call {i} ({self._summary()}), yet '{call}' follows", path + (i,))
            player = self._next
            assert player is not None
            why = self.why_illegal(player, call)
            if why is not None:
                raise IllegalCall(f"deal {deal_no}, auction call {i + 1}: {player} {_call_text(call)} "
                                  f"but {why}", path + (i,))
            self.apply(call)
        if not self.done:
            raise IllegalCall(f"deal {deal_no}: the auction is not finished: {self._next} is still to "
                              f"call after {len(calls)} calls", path)
        return self.result()

    def _summary(self) -> str:
        r = self.result()
        return "everyone passed" if r.winner is None else f"{r.winner} won it with {r.bid}"


# ---------------------------------------------------------------------------------------------
# Play
# ---------------------------------------------------------------------------------------------

def talon_leads(conv: Conventions, contract: Contract, talon: Sequence[Card], four: bool) -> Tuple[str, int]:
    """How the talon plays in a deal, and how many first tricks it leads: ``("unused", 0)``, or
    for an all-pass with a two-card talon ``("lead-suit", 2)`` (the card names the suit, the best
    player's card takes the trick) or ``("dealer-plays", 2)`` (the card plays for the dealer who
    sits out, or for nobody); ``allpass.talon: by-seats`` is the second with four players."""
    if not (contract.is_all_pass and len(talon) == 2):
        return "unused", 0
    mode = conv.allpass_talon
    if mode == "by-seats":
        mode = "dealer-plays" if four else "lead-suit"
    return mode, (2 if mode in ("lead-suit", "dealer-plays") else 0)


def legal_cards(hand: Iterable[Card], led: Optional[Suit], trump: Optional[Suit]) -> List[Card]:
    """Cards of `hand` that may be played to a trick led in `led` (None: this is the lead), in
    the hand's order; the rule itself is :func:`prefcli.rules.moves.legal_mask`."""
    hand = list(hand)
    allowed = legal_mask(mask_of(hand), led.order if led is not None else -1,
                         trump.order if trump is not None else -1)
    return [c for c in hand if (allowed >> _code(c)) & 1]


def trick_winner(cards: Sequence[Card], trump: Optional[Suit], led: Optional[Suit] = None) -> int:
    """Index of the winning card: the highest trump, else the highest card of the led suit."""
    if led is None:
        led = cards[0].suit
    best = -1
    best_key = (-1, -1)
    for i, c in enumerate(cards):
        if trump is not None and c.suit is trump:
            key = (2, int(c.rank))
        elif c.suit is led:
            key = (1, int(c.rank))
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def random_play(rng: Any, hands: Mapping[str, Sequence[Card]], seats: Sequence[str], trump: Optional[Suit],
                talon_lead: Sequence[Card] = (), talon_owner: Optional[str] = None,
                talon_wins: bool = True) -> List[Tuple[List[Card], Optional[str]]]:
    """A random but legal play of a whole deal: ten (cards in playing order, winner) pairs.

    For generators and property tests. `seats` are the three active players from the first hand;
    the talon cards in `talon_lead` lead the first tricks (all-pass), owned by `talon_owner` (the
    4-player dealer) or nobody; with `talon_wins` false (3 players, lead-suit) a talon card only
    names the suit and the best player's card takes the trick. The first hand leads the trick
    after the talon tricks, then the winner of the last trick.
    """
    left = {p: list(hands[p]) for p in seats}
    out: List[Tuple[List[Card], Optional[str]]] = []
    leader = seats[0]
    for t in range(TRICKS_PER_DEAL):
        cards: List[Card] = []
        who: List[Optional[str]] = []
        led: Optional[Suit] = None
        talon_trick = t < len(talon_lead)
        if talon_trick:
            cards.append(talon_lead[t])
            who.append(talon_owner)
            led = talon_lead[t].suit
        k = seats.index(seats[0] if talon_trick else leader)
        for j in range(len(seats)):
            p = seats[(k + j) % len(seats)]
            card = rng.choice(legal_cards(left[p], led, trump))
            led = led or card.suit
            left[p].remove(card)
            cards.append(card)
            who.append(p)
        if talon_trick and not talon_wins:
            w = trick_winner(cards[1:], trump, led)
            if w < 0:   # nobody followed the talon card: the first hand's card leads in its place
                w = trick_winner(cards[1:], trump)
            winner = who[w + 1]
        else:
            winner = who[trick_winner(cards, trump, led)]
        out.append((cards, winner))
        leader = seats[0] if talon_trick else (winner or leader)
    return out


@dataclass(frozen=True)
class TrickPlay:
    """One trick: who led, the cards in order (``None`` = a talon card), and who won it."""

    number: int
    leader: Optional[str]
    cards: Tuple[Tuple[Optional[str], Card], ...]
    winner: Optional[str]                    # None: a talon trick that belongs to nobody


@dataclass
class DealReplay:
    """Everything a replay found out about one deal; `problems` empty when it is legal."""

    deal: Deal
    number: int
    dealer: Optional[str] = None
    first_hand: Optional[str] = None
    seats: Tuple[str, ...] = ()                  # active players from the first hand
    hands: Optional[Dict[str, Tuple[Card, ...]]] = None
    talon: Optional[Tuple[Card, ...]] = None
    auction: List[AuctionStep] = field(default_factory=list)
    auction_result: Optional[AuctionResult] = None
    bid: Optional[Contract] = None
    declarer: Optional[str] = None
    discard: Optional[Tuple[Card, ...]] = None
    contract: Optional[Contract] = None
    whist: List[Tuple[str, Decision]] = field(default_factory=list)  # from the declarer's left
    open: Optional[bool] = None
    takeover: Optional[str] = None
    returned_by: Optional[str] = None
    played: bool = False                         # the deal is played out (not passed/half-whist)
    tricks: List[TrickPlay] = field(default_factory=list)
    counts: Optional[Dict[str, int]] = None      # derived from play (+ claim)
    claim: Optional[Dict[str, int]] = None
    problems: List[Problem] = field(default_factory=list)
    error: Optional[RulesError] = None           # the first illegal step
    unplayable: List[Problem] = field(default_factory=list)   # structure that blocks a replay

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def checked(self) -> bool:
        """The play was replayed (hands known and valid)."""
        return self.hands is not None and not self.unplayable

    def as_dict(self) -> Dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "index": self.deal.pos,
            "number": self.number,
            "dealer": self.dealer,
            "first_hand": self.first_hand,
            "hands": ({p: [str(c) for c in cs] for p, cs in self.hands.items()}
                      if self.hands is not None else None),
            "talon": [str(c) for c in self.talon] if self.talon is not None else None,
            "auction": [{"player": s.player, "call": str(s.call)} for s in self.auction],
            "bid": str(self.bid) if self.bid is not None else None,
            "declarer": self.declarer,
            "discard": [str(c) for c in self.discard] if self.discard is not None else None,
            "contract": str(self.contract) if self.contract is not None else None,
            "whist": {p: str(d) for p, d in self.whist},
            "open": self.open,
            "takeover": self.takeover,
            "return": self.returned_by,
            "play": [{"leader": t.leader, "cards": [{"player": w, "card": str(c)} for w, c in t.cards],
                      "winner": t.winner} for t in self.tricks],
            "claim": self.claim,
            "tricks": self.counts,
            "problems": [p.as_dict() for p in self.problems],
        }


def _seat_order(record: Record, dealer: str) -> Tuple[str, ...]:
    """Active players clockwise from the first hand (left of the dealer)."""
    players = record.players
    n = len(players)
    d = players.index(dealer)
    order = [players[(d + k) % n] for k in range(1, n + 1)]
    if n == 4:
        order = order[:3]
    return tuple(order)


def _fmt(cards: Iterable[Card]) -> str:
    return ", ".join(str(c) for c in cards)


class _Replayer:
    """One deal's replay; every check raises a RulesError caught by :func:`replay_deal`."""

    def __init__(self, record: Record, deal: Deal, conv: Conventions, dealer: Optional[str],
                 min_level: int, keep_tricks: bool = True) -> None:
        self.record, self.deal, self.conv = record, deal, conv
        self.keep_tricks = keep_tricks
        self.n = deal.number
        self.path: Path = ("deals", deal.pos)
        self.min_level = min_level
        self.out = DealReplay(deal=deal, number=deal.number)
        self.dealer = deal.dealer if deal.dealer in record.players else dealer

    # -- structure -------------------------------------------------------------------------
    def setup(self) -> None:
        out, rec = self.out, self.record
        if self.dealer not in rec.players or len(rec.players) not in (3, 4) \
                or len(set(rec.players)) != len(rec.players):
            raise IllegalDeal(f"deal {self.n}: cannot tell who deals and who plays", self.path)
        out.dealer = self.dealer
        out.seats = _seat_order(rec, self.dealer)
        out.first_hand = out.seats[0]
        out.talon = self.deal.talon
        if self.deal.hands is None:
            return
        problems: List[Problem] = []
        hands = dict(self.deal.hands)
        for name in hands:
            if name == self.dealer and len(rec.players) == 4:
                problems.append(Problem(f"deal {self.n}: {name} deals and holds no cards with four players",
                                        self.path + ("hands", name)))
            elif name not in rec.players:
                problems.append(Problem(f"deal {self.n}: '{name}' is not seated (players: "
                                        f"{', '.join(rec.players)})", self.path + ("hands", name)))
        for name in out.seats:
            if name not in hands:
                problems.append(Problem(f"deal {self.n}: no hand for {name}", self.path + ("hands",)))
            elif len(hands[name]) != 10:
                problems.append(Problem(f"deal {self.n}: {name} holds {len(hands[name])} cards, not 10",
                                        self.path + ("hands", name)))
        talon = self.deal.talon
        if talon is not None and len(talon) != 2:
            problems.append(Problem(f"deal {self.n}: the talon has {len(talon)} cards, not 2",
                                    self.path + ("talon",)))
        seen: Dict[int, str] = {}
        for name, cs in list(hands.items()) + [("the talon", talon or ())]:
            for c in cs:
                code = _code(c)
                if code in seen:
                    problems.append(Problem(
                        f"deal {self.n}: {c} is dealt twice ({seen[code]} and {name})",
                        self.path + (("talon",) if name == "the talon" else ("hands", name))))
                seen[code] = name
        if problems:
            out.unplayable = problems
            return
        out.hands = {p: tuple(hands[p]) for p in out.seats}

    # -- auction ---------------------------------------------------------------------------
    def auction(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        bomb = deal.bomb is not None
        if bomb:
            if not conv.bomb:
                raise IllegalCall(f"deal {self.n}: these rules have no bomb (option bomb)", self.path + ("bomb",))
            if conv.bomb_min_level > 0 and deal.bomb != out.first_hand:
                raise IllegalCall(f"deal {self.n}: only the first hand ({out.first_hand}) may call a bomb, "
                                  f"not {deal.bomb}", self.path + ("bomb",))
        if deal.auction is None:
            out.bid = deal.bid
            out.declarer = deal.declarer
            return
        dark_run = 0
        if conv.dark and any(c.dark and c.kind is CallKind.PASS for c in deal.auction):
            dark_run = self._dark_run_before()
        auc = Auction(conv, out.seats, min_level=self.min_level, bomb=bomb, dark_run=dark_run)
        try:
            res = auc.run(deal.auction, self.n, self.path + ("auction",))
        finally:
            out.auction = list(auc.steps)
        out.auction_result = res
        out.bid = res.bid
        if res.winner is None:
            if not deal.contract.is_all_pass:
                raise IllegalCall(f"deal {self.n}: everyone passed, so the deal is an all-pass, not "
                                  f"{deal.contract}", self.path + ("contract",))
            return
        if deal.contract.is_all_pass:
            raise IllegalCall(f"deal {self.n}: {res.winner} won the auction with {res.bid}, so the deal "
                              "is not an all-pass", self.path + ("contract",))
        if deal.declarer is not None and deal.declarer != res.winner:
            raise IllegalCall(f"deal {self.n}: {res.winner} won the auction with {res.bid}, yet the "
                              f"declarer is {deal.declarer}", self.path + ("declarer",))
        out.declarer = res.winner
        if deal.bid is not None and deal.bid != res.bid:
            raise IllegalCall(f"deal {self.n}: the auction was won with {res.bid}, yet bid says {deal.bid}",
                              self.path + ("bid",))

    def _dark_run_before(self) -> int:
        """Consecutive dark all-passes right before this deal (adjustments are skipped)."""
        run = 0
        for entry in reversed(self.record.deals[:self.deal.pos]):
            if not isinstance(entry, Deal):
                continue
            if not is_dark_allpass(entry):
                break
            run += 1
        return run

    # -- contract, talon and discard -------------------------------------------------------
    def contract(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        c = deal.contract
        out.contract = c
        if c.is_all_pass:
            if deal.discard:
                raise IllegalCall(f"deal {self.n}: nobody takes the talon in an all-pass deal, yet a "
                                  "discard is given", self.path + ("discard",))
            return
        if out.declarer is None:
            out.declarer = deal.declarer
        if out.declarer is not None and out.declarer not in out.seats:
            raise IllegalDeal(f"deal {self.n}: the declarer {out.declarer} does not hold cards in this deal",
                              self.path + ("declarer",))
        if deal.partner is not None:
            why = partner_problem(self.record, deal, conv, self.dealer)
            if why is not None:
                raise IllegalCall(why, self.path + ("partner",))
        if self.min_level and c.is_tricks and (c.level or 0) < self.min_level:
            raise IllegalCall(f"deal {self.n}: after an all-pass the game must be at least {self.min_level} "
                              f"({_exit_options(conv)}), not {c}", self.path + ("contract",))
        if deal.bomb is not None and conv.bomb_min_level and c.is_tricks and (c.level or 0) < conv.bomb_min_level:
            raise IllegalCall(f"deal {self.n}: after a bomb the game must be at least {conv.bomb_min_level}, "
                              f"not {c}", self.path + ("contract",))
        bid = out.bid
        if bid is not None:
            if conv.misere_binding and bid.is_misere and not c.is_misere:
                raise IllegalCall(f"deal {self.n}: {out.declarer} won the auction with a misère and must "
                                  f"play it (kabal'ny misère), not {c}", self.path + ("contract",))
            if conv.misere_binding and c.is_misere and not bid.is_misere:
                raise IllegalCall(f"deal {self.n}: a misère must be bid in the auction (kabal'ny misère); "
                                  f"{out.declarer} won with {bid} and cannot name misère after the talon",
                                  self.path + ("contract",))
            if c in conv.rung and bid in conv.rung and conv.rung[c] < conv.rung[bid]:
                raise IllegalCall(f"deal {self.n}: the contract {c} is below the winning bid {bid}",
                                  self.path + ("contract",))
        res = out.auction_result
        discard = deal.discard
        if discard is not None:
            if len(discard) != 2:
                raise IllegalCall(f"deal {self.n}: the discard has {len(discard)} cards; the declarer "
                                  "discards 2", self.path + ("discard",))
            if len(set(discard)) != 2:
                raise IllegalCall(f"deal {self.n}: the discard names {discard[0]} twice", self.path + ("discard",))
        if res is not None and res.without_talon and discard is not None and deal.talon is not None \
                and set(discard) != set(deal.talon):
            raise IllegalCall(f"deal {self.n}: a 9 that beats a misère is played without the talon "
                              "(misere_beaten_by: 9-without-talon)", self.path + ("discard",))
        if out.hands is not None and out.declarer is not None and discard is not None:
            twelve = set(out.hands[out.declarer]) | set(deal.talon or ())
            for card in discard:
                if card not in twelve:
                    raise IllegalCall(f"deal {self.n}: {out.declarer} discarded {card}, which is neither in "
                                      "his hand nor in the talon", self.path + ("discard",))
        out.discard = discard

    # -- whist -----------------------------------------------------------------------------
    def whist(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        c = out.contract
        assert c is not None
        out.open, out.takeover, out.returned_by = deal.open, deal.takeover, deal.returned_by
        if c.is_all_pass:
            if deal.whist:
                raise IllegalCall(f"deal {self.n}: nobody whists in an all-pass deal",
                                  self.path + ("whist",))
            out.played = True
            return
        decl = out.declarer
        if decl is None:
            out.played = c.is_misere or bool(deal.play)
            return
        i = out.seats.index(decl)
        defenders = [out.seats[(i + k) % 3] for k in (1, 2)]
        given = dict(deal.whist)
        for name in given:
            if name == decl:
                raise IllegalCall(f"deal {self.n}: {name} declares and cannot whist", self.path + ("whist", name))
            if name not in defenders:
                raise IllegalCall(f"deal {self.n}: {name} is not a defender in this deal (defenders: "
                                  f"{', '.join(defenders)})", self.path + ("whist", name))
        out.whist = [(p, given[p]) for p in defenders if p in given]
        first, second = defenders
        d1, d2 = given.get(first), given.get(second)
        halves = [p for p, d in out.whist if d is Decision.HALF_WHIST]
        if c.is_misere:
            if halves:
                raise IllegalCall(f"deal {self.n}: there is no half-whist on a misère",
                                  self.path + ("whist", halves[0]))
            out.played = True
            if deal.takeover is not None:
                self._check_takeover(defenders, given)
            return
        if c.is_tricks and conv.stalingrad and c.level == 6 and c.strain is not None and c.strain.name == "S":
            if not (d1 is Decision.WHIST and d2 is Decision.WHIST):
                who = first if d1 is not Decision.WHIST else second
                raise IllegalCall(f"deal {self.n}: 6S must be whisted by both defenders (stalingrad), "
                                  f"yet {who} did not whist", self.path + ("whist", who))
        dark_won = deal.dark or bool(out.auction_result is not None and out.auction_result.dark)
        if dark_won and conv.dark_defence and c.is_tricks:
            # seed 002: "Vistuojantieji negali žaisti atviromis kortomis, o jei žaidžiantysis žaidžia
            # šeštoje kategorijoje, jie abu privalo vistuoti"
            if deal.open:
                raise IllegalCall(f"deal {self.n}: the contract was won in the dark, so the defence may not "
                                  "play open", self.path + ("open",))
            if c.level == 6 and not (d1 is Decision.WHIST and d2 is Decision.WHIST):
                who = first if d1 is not Decision.WHIST else second
                raise IllegalCall(f"deal {self.n}: a 6 won in the dark must be whisted by both defenders, yet "
                                  f"{who} did not whist", self.path + ("whist", who))
        if halves:
            h = halves[0]
            if not conv.half_whist:
                raise IllegalCall(f"deal {self.n}: these rules have no half-whist (option half_whist)",
                                  self.path + ("whist", h))
            if len(halves) > 1:
                raise IllegalCall(f"deal {self.n}: only one defender may half-whist", self.path + ("whist", halves[1]))
            if not (c.is_tricks and c.level in (6, 7)):
                raise IllegalCall(f"deal {self.n}: {h} half-whisted on {c}; a half-whist is only allowed on a "
                                  "6 or a 7", self.path + ("whist", h))
            other = second if h == first else first
            if given.get(other) is not Decision.PASS:
                raise IllegalCall(f"deal {self.n}: {h} half-whisted but {other} did not pass; a half-whist "
                                  "follows a pass", self.path + ("whist", h))
            if conv.half_whist_by == "second" and h != second:
                raise IllegalCall(f"deal {self.n}: only the second defender ({second}) may half-whist, after "
                                  f"{first} passed (half_whist_by: second)", self.path + ("whist", h))
        if deal.returned_by is not None:
            r = deal.returned_by
            if not halves:
                raise IllegalCall(f"deal {self.n}: {r} returned a whist but nobody half-whisted",
                                  self.path + ("return",))
            if not conv.return_whist:
                raise IllegalCall(f"deal {self.n}: these rules do not let a half-whist be returned "
                                  "(option return_whist)", self.path + ("return",))
            h = halves[0]
            passer = second if h == first else first
            allowed = [passer] + ([self.dealer] if len(self.record.players) == 4 else [])
            if r not in allowed:
                raise IllegalCall(f"deal {self.n}: only {' or '.join(allowed)} may return {h}'s half-whist, "
                                  f"not {r}", self.path + ("return",))
            out.played = True
            return
        if c.is_tricks and c.level == 10 and conv.tens_checked:
            # a checked ten (seed 003 "gra dziesiątki jest sprawdzana"; Кодекс fn39): nobody
            # whists, so it needs no play; a play given to check it is replayed all the same
            out.played = deal.play is not None or deal.claim is not None
            return
        if halves:
            out.played = False
            return
        whisters = [p for p, d in out.whist if d is Decision.WHIST]
        if deal.takeover is not None:
            self._check_takeover(defenders, given)
            out.played = True
        else:
            # no decisions written at all: they are unknown, not "both passed"
            out.played = (bool(whisters) or not deal.whist) and not deal.concede
        if len(whisters) == 2 and deal.open:
            raise IllegalCall(f"deal {self.n}: both defenders whist, so the defence is closed; open "
                              "(light) defence needs one whister", self.path + ("open",))

    def _check_takeover(self, defenders: List[str], given: Mapping[str, Decision]) -> None:
        t = self.deal.takeover
        if not self.conv.takeover:
            raise IllegalCall(f"deal {self.n}: these rules have no take-over from both hands (option takeover)",
                              self.path + ("takeover",))
        dealer_ok = len(self.record.players) == 4 and t == self.dealer
        if t in defenders:
            if given.get(t) is not Decision.PASS:
                raise IllegalCall(f"deal {self.n}: {t} whisted; only a defender who passed takes over the "
                                  "other's whist from both hands", self.path + ("takeover",))
            other = defenders[1] if t == defenders[0] else defenders[0]
            if given.get(other) is not Decision.WHIST:
                raise IllegalCall(f"deal {self.n}: {t} can only take over a whist, and {other} did not whist",
                                  self.path + ("takeover",))
        elif not dealer_ok:
            raise IllegalCall(f"deal {self.n}: {t} cannot take over the defence (a defender who passed or the "
                              "4-player dealer may)", self.path + ("takeover",))

    # -- play ------------------------------------------------------------------------------
    def play(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        if deal.play is None and deal.claim is None:
            return
        if not out.played:
            raise IllegalPlay(f"deal {self.n}: the deal is not played (the defenders passed or "
                              "half-whisted), yet its play is given", self.path + ("play",))
        if out.hands is None:
            return
        c = out.contract
        assert c is not None
        trump = c.trump.order if (c.is_tricks and c.trump is not None) else -1
        seats = list(out.seats)
        hands: Dict[str, int] = {}
        for p in seats:
            m = 0
            for card in out.hands[p]:
                m |= 1 << _code(card)
            hands[p] = m
        talon = tuple(deal.talon or ())
        talon_mask = 0
        for card in talon:
            talon_mask |= 1 << _code(card)
        discard_mask = 0
        for card in deal.discard or ():
            discard_mask |= 1 << _code(card)
        decl = out.declarer
        if decl is not None and not c.is_all_pass:
            if not (deal.discard is not None and out.auction_result is not None
                    and out.auction_result.without_talon):
                hands[decl] |= talon_mask
            hands[decl] &= ~discard_mask      # no discard given: he may play any of his 12
        play = deal.play or ()
        # who sits out: the passer when a lone whister plays alone (two cards a trick)
        if c.is_tricks and conv.whist_alone and play and all(len(t) == 2 for t in play):
            ws = [p for p, d in out.whist if d is Decision.WHIST]
            ps = [p for p, d in out.whist if d is Decision.PASS]
            if len(ws) == 1 and len(ps) == 1 and deal.takeover is None and deal.returned_by is None:
                seats.remove(ps[0])
        nseat = len(seats)
        four = len(self.record.players) == 4
        talon_mode, talon_tricks = talon_leads(conv, c, talon, four)
        talon_owner = self.dealer if (talon_mode == "dealer-plays" and four) else None
        won: Dict[str, int] = {p: 0 for p in out.seats}
        if talon_owner is not None and play:
            won[talon_owner] = 0          # the 4-player dealer's talon tricks, listed even when none
        played_at: Dict[int, int] = {}
        leader = out.first_hand
        keep = self.keep_tricks
        first_hand = out.first_hand
        for ti, trick in enumerate(play):
            tn = ti + 1
            if ti >= TRICKS_PER_DEAL:
                raise IllegalPlay(f"deal {self.n}: the play has {len(play)} tricks; a deal has ten",
                                  self.path + ("play", ti))
            offset = 0
            talon_code = -1
            if ti < talon_tricks:
                talon_code = _code(talon[ti])
                if len(trick) == nseat + 1:
                    if _code(trick[0]) != talon_code:
                        raise IllegalPlay(f"deal {self.n}, trick {tn}: the trick is led with the talon card "
                                          f"{talon[ti]}, not {trick[0]}", self.path + ("play", ti, 0))
                    offset = 1
                lead_seat = first_hand
            else:
                lead_seat = leader
            if len(trick) - offset != nseat:
                want = nseat + (1 if talon_code >= 0 else 0)
                raise IllegalPlay(f"deal {self.n}, trick {tn}: {len(trick)} cards; a trick here has {want}",
                                  self.path + ("play", ti))
            if lead_seat not in seats:      # a sitting-out passer never leads; the next seat does
                lead_seat = _next_in(seats, out.seats, lead_seat)
            k = seats.index(lead_seat)
            led = (talon_code >> 3) if talon_code >= 0 else -1
            best_key = -1
            best_who: Optional[str] = talon_owner
            if talon_code >= 0 and talon_mode == "dealer-plays":
                best_key = 16 + (talon_code & 7) if (talon_code >> 3) == trump else 8 + (talon_code & 7)
            codes = []
            for j in range(nseat):
                p = seats[(k + j) % nseat]
                card = trick[j + offset]
                code = _code(card)
                hand = hands[p]
                if not (hand >> code) & 1:
                    self._not_held(p, card, code, tn, played_at, ti, j + offset, hands)
                suit = code >> 3
                if led < 0:
                    led = suit
                elif suit != led and not (legal_mask(hand, led, trump) >> code) & 1:
                    if hand & _SUIT_MASK[led]:
                        held = _cards_of(hand & _SUIT_MASK[led])
                        raise IllegalPlay(f"deal {self.n}, trick {tn}: {p} played {card} but holds "
                                          f"{_fmt(held)} and must follow {SUIT_NAMES[_SUITS[led]]}",
                                          self.path + ("play", ti, j + offset))
                    else:
                        held = _cards_of(hand & _SUIT_MASK[trump])
                        raise IllegalPlay(f"deal {self.n}, trick {tn}: {p} played {card} but, having no "
                                          f"{SUIT_NAMES[_SUITS[led]]}, must trump with {_fmt(held)}",
                                          self.path + ("play", ti, j + offset))
                hands[p] = hand & ~(1 << code)
                played_at[code] = tn
                key = 16 + (code & 7) if suit == trump else (8 + (code & 7) if suit == led else -1)
                if key > best_key:
                    best_key, best_who = key, p
                codes.append((p, card))
            if best_key < 0:
                # lead-suit and nobody could follow the talon card: the first hand's card leads
                # in its place (inferred; the seeds are silent)
                s0 = _code(codes[0][1]) >> 3
                best_who = max((x for x in codes if _code(x[1]) >> 3 == s0), key=lambda x: _code(x[1]))[0]
            winner = best_who
            if winner is not None:
                won[winner] = won.get(winner, 0) + 1
            if keep:
                entries: List[Tuple[Optional[str], Card]] = []
                if talon_code >= 0:
                    entries.append((talon_owner, talon[ti]))
                entries.extend(codes)
                out.tricks.append(TrickPlay(tn, entries[0][0], tuple(entries), winner))
            if talon_code >= 0:
                leader = first_hand          # the first hand leads the trick after the talon tricks
            elif winner is not None:
                leader = winner
        done = len(play)
        claim = deal.claim_map()
        if claim is not None:
            out.claim = claim
            for name in claim:
                if name not in out.seats:
                    raise IllegalPlay(f"deal {self.n}: the claim names {name}, who does not play this deal",
                                      self.path + ("claim", name))
                if claim[name] < 0:
                    raise IllegalPlay(f"deal {self.n}: a claim of {claim[name]} tricks for {name}",
                                      self.path + ("claim", name))
            rest = TRICKS_PER_DEAL - done
            if sum(claim.values()) != rest:
                raise IllegalPlay(f"deal {self.n}: after {done} tricks the claim must share the remaining "
                                  f"{rest}, but it gives {sum(claim.values())}", self.path + ("claim",))
            for name, k in claim.items():
                won[name] = won.get(name, 0) + k
        elif done < TRICKS_PER_DEAL:
            raise IllegalPlay(f"deal {self.n}: the play stops after {done} tricks without a claim "
                              "(claim: {NAME: tricks} agrees the rest)", self.path + ("play",))
        out.counts = won

    def _not_held(self, p: str, card: Card, code: int, tn: int, played_at: Mapping[int, int],
                  ti: int, j: int, hands: Mapping[str, int]) -> None:
        cpath = self.path + ("play", ti, j)
        if code in played_at:
            raise IllegalPlay(f"deal {self.n}, trick {tn}: {p} played {card}, which was already played in "
                              f"trick {played_at[code]}", cpath)
        out, deal = self.out, self.deal
        holder = next((q for q, m in hands.items() if (m >> code) & 1), None)
        if holder is not None:
            why = f"which {holder} holds"
        elif any(_code(x) == code for x in deal.discard or ()) and out.declarer is not None:
            why = f"which {out.declarer} discarded"
        elif any(_code(x) == code for x in deal.talon or ()):
            why = "which is in the talon"
        else:
            why = "which was not dealt"
        raise IllegalPlay(f"deal {self.n}, trick {tn}: {p} played {card}, {why}", cpath)

    # -- results ---------------------------------------------------------------------------
    def results(self) -> None:
        deal, out = self.deal, self.out
        if out.counts is None or deal.tricks is None:
            return
        given = dict(deal.tricks)
        derived = out.counts
        names = [p for p in self.out.seats if p in derived or p in given]
        names += [p for p in self.record.players if p not in names and (p in derived or p in given)]
        if all(given.get(p, 0) == derived.get(p, 0) for p in names):
            return
        # one defender playing both hands: the pair's total may be written to the one who played
        if (deal.takeover is not None or deal.open) and out.declarer is not None:
            d = out.declarer
            if given.get(d, 0) == derived.get(d, 0) and sum(given.values()) == sum(derived.values()):
                return
        got = ", ".join(f"{p} {derived.get(p, 0)}" for p in names)
        said = ", ".join(f"{p} {given.get(p, 0)}" for p in names)
        raise IllegalPlay(f"deal {self.n}: the play gives {got} tricks, but tricks says {said}",
                          self.path + ("tricks",))


def partner_problem(record: Record, deal: Deal, conv: Conventions, dealer: Optional[str]) -> Optional[str]:
    """Why a deal's ``partner:`` is wrong, or None (Кодекс 3.6.9: "Игрок может пригласить
    сдающего (сидящего на прикупе и не участвующего в игре) играть с ним мизер пополам")."""
    n, who = deal.number, deal.partner
    if who is None:
        return None
    if not conv.misere_partner:
        return f"deal {n}: partner: a misère half with the dealer is not played under these rules (option misere_partner)"
    if not deal.contract.is_misere:
        return f"deal {n}: partner: only a misère is played half with the dealer, not {deal.contract}"
    if len(record.players) != 4:
        return f"deal {n}: partner: the misère partner is the dealer who sits out, so it needs four players"
    if who != dealer:
        return f"deal {n}: partner: {who} is not the dealer of this deal ({dealer}), who alone may share the misère"
    return None


def _next_in(seats: List[str], all_seats: Sequence[str], who: str) -> str:
    """The next seat clockwise from `who` that takes part in the play."""
    i = list(all_seats).index(who)
    n = len(all_seats)
    for k in range(1, n + 1):
        q = all_seats[(i + k) % n]
        if q in seats:
            return q
    return seats[0]


def _dealers(record: Record, rules: Any, conv: Conventions) -> Dict[int, str]:
    """The shared seating answer (prefcli.seating), as :func:`deal_dealers` gives it."""
    return deal_dealers(record, conv)


def replay_deal(record: Record, deal: Deal, rules: Any, dealer: Optional[str] = None, *,
                raise_errors: bool = False, min_level: Optional[int] = None,
                conv: Optional[Conventions] = None, keep_tricks: bool = True) -> DealReplay:
    """Replay one deal; the first illegal step is recorded (or raised with `raise_errors`).

    `dealer` is the computed dealer of the deal (``seating.dealers(record, rules)[deal.pos]``); a deal's
    own ``dealer:`` field wins. `min_level` is the all-pass exit level for this deal (computed
    from the record when not given).
    """
    conv = conv or conventions(rules)
    if dealer is None:
        dealer = _dealers(record, rules, conv).get(deal.pos)
    if min_level is None:
        min_level = exit_levels(record, conv).get(deal.pos, 0)
    r = _Replayer(record, deal, conv, dealer, min_level, keep_tricks)
    try:
        r.setup()
        r.auction()
        r.contract()
        r.whist()
        if r.out.hands is not None:
            r.play()
            r.results()
        elif deal.play is not None and not r.out.unplayable and not r.out.played:
            r.play()
    except RulesError as exc:
        r.out.error = exc
        r.out.problems.append(exc.problem())
        if raise_errors:
            raise
    if raise_errors and r.out.unplayable:
        p = r.out.unplayable[0]
        raise IllegalDeal(p.message, p.path)
    return r.out


def replay_record(record: Record, rules: Any, only: Optional[Iterable[int]] = None) -> List[DealReplay]:
    """Replay every deal of a record (or the deals whose pos is in `only`)."""
    conv = conventions(rules)
    dealers = _dealers(record, rules, conv)
    levels = exit_levels(record, conv)
    wanted = set(only) if only is not None else None
    out = []
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        if wanted is not None and entry.pos not in wanted:
            continue
        out.append(replay_deal(record, entry, rules, dealers.get(entry.pos),
                               min_level=levels.get(entry.pos, 0), conv=conv))
    return out


def check_record(record: Record, rules: Any) -> List[Problem]:
    """Rule and play problems of a record, for ``validate``: never raises on malformed deals.

    Replays every full deal and every deal with an auction, and checks the all-pass exit level
    of every deal. Structural faults (card counts, duplicate cards) are left to validate's own
    checks: such a deal is skipped here.
    """
    try:
        conv = conventions(rules)
        dealers = _dealers(record, rules, conv)
        levels = exit_levels(record, conv)
    except Exception:    # rules or players too broken to say anything: validate reports them
        return []
    problems: List[Problem] = []
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        level = levels.get(entry.pos, 0)
        if entry.hands is not None or entry.auction is not None or entry.play is not None:
            try:
                rep = replay_deal(record, entry, rules, dealers.get(entry.pos), min_level=level, conv=conv,
                                  keep_tricks=False)
            except Exception as exc:   # never let one odd deal stop validate
                problems.append(Problem(f"deal {entry.number}: cannot be replayed ({exc})",
                                        ("deals", entry.pos), kind="rule"))
                continue
            problems.extend(rep.problems)
        else:
            if level and entry.contract.is_tricks and (entry.contract.level or 0) < level:
                problems.append(Problem(f"deal {entry.number}: after an all-pass the game must be at least "
                                        f"{level} ({_exit_options(conv)}), not {entry.contract}",
                                        ("deals", entry.pos, "contract"), kind="rule"))
            if entry.partner is not None:
                dealer = entry.dealer if entry.dealer in record.players else dealers.get(entry.pos)
                why = partner_problem(record, entry, conv, dealer)
                if why is not None:
                    problems.append(Problem(why, ("deals", entry.pos, "partner"), kind="rule"))
    return problems
