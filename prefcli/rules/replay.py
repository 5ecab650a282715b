"""Replaying a deal step by step, on top of its reading: stop at the first illegal step.

Why an engine rather than a set of field checks: the legality of a card depends on every card
before it (what the player still holds, who leads), and the legality of a call depends on the
whole auction so far. So a deal is replayed as the table would play it: the auction call by
call, the talon and discard, the contract, then the tricks card by card. The first illegal step
raises (or records) a typed :class:`~prefcli.rules.errors.RulesError` naming the deal, the step,
the player, the card or call, and why.

Who sits where, the declarer's defenders and their decisions are the deal's
:class:`~prefcli.rules.reading.DealReading` (the replay does not read them again); the replay adds
what only the calls and cards tell: the auction's winner, the discard, the tricks won.

Library code: no click, no I/O.
"""
from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from prefcli.model.cards import DECK, Card
from prefcli.model.diagnostics import Problem
from prefcli.model.records import Record
from prefcli.rules.auction import Auction
from prefcli.rules.conventions import Conventions, all_pass_runs, exit_options
from prefcli.rules.errors import TRICKS_PER_DEAL, IllegalCall, IllegalDeal, IllegalPlay, RulesError
from prefcli.rules.play import PlayReplay, code_of
from prefcli.rules.replayed import DealReplay, new_replay

if TYPE_CHECKING:     # pragma: no cover
    from prefcli.rules.reading import DealReading
    from prefcli.rules.record_facts import RecordFacts

__all__ = ["replay_reading", "exit_levels", "deal_dealers"]


class _Replayer(PlayReplay):
    """One deal's replay; every check raises a RulesError caught by :func:`replay_reading`."""

    def __init__(self, ctx: RecordFacts, reading: "DealReading", keep_tricks: bool = True,
                 hands: Optional[Dict[str, Tuple[Card, ...]]] = None) -> None:
        self.ctx, self.reading = ctx, reading
        self.record, self.deal, self.conv = ctx.record, reading.deal, ctx.conv
        self.keep_tricks = keep_tricks
        pos = self.deal.pos
        self.n = n = pos + 1            # deal.number and deal.path, without the two property calls
        self.path = ("deals", pos)
        self.min_level = reading.exit_level
        self.out = new_replay(self.deal, n)
        self.dealer = dealer = reading.dealer
        self.four = dealer in reading.sitting_out
        self.dealt = hands

    # -- structure -------------------------------------------------------------------------
    def setup(self) -> None:
        out, reading, deal = self.out, self.reading, self.deal
        seats = reading.seats
        if self.dealer not in self.record.players or not seats:
            raise IllegalDeal(f"deal {self.n}: cannot tell who deals and who plays", self.path)
        out.dealer = self.dealer
        out.seats = seats
        out.dummy = dummy = reading.dummy
        if dummy is not None and dummy in reading.players_in_play:
            out.dummy_played_by = reading.controller
        out.first_hand = seats[0]
        out.talon = deal.talon
        if deal.hands is None:
            return
        # the common case, nothing to say: the reading found every card of the deck dealt once,
        # a hand to each seat (or, for a reading made otherwise, the same told here)
        if reading.dealt_once and TRUST_READING:
            # the hands by name as the reading's card check made them (its own, handed in by the
            # reader: deal.py), not made again
            hands = self.dealt if self.dealt is not None else dict(deal.hands)
            # (the reading found each hand a tuple of ten cards: in the seats' order already, as
            # prefcli writes them, the hands are taken as they are)
            out.hands = hands if tuple(hands) == seats else {p: hands[p] for p in seats}
            self.masks = reading.hand_masks     # the hands' masks, the reading's (None: made here)
            return
        hands = dict(deal.hands)
        if _dealt_once(hands, out.seats, self.deal.talon):
            out.hands = {p: tuple(hands[p]) for p in out.seats}
            return
        problems: List[Problem] = []
        rec = self.record
        holders = set(rec.players) | ({self.reading.dummy} if self.reading.dummy else set())
        for name in hands:
            if name in self.reading.sitting_out:
                why = self.ctx.table.why_out(self.dealer, name) if self.ctx.table is not None else "deals"
                problems.append(Problem(f"deal {self.n}: {name} {why} and holds no cards with {len(rec.players)} players",
                                        self.path + ("hands", name)))
            elif name not in holders:
                problems.append(Problem(f"deal {self.n}: '{name}' is not seated (players: "
                                        f"{', '.join(rec.players)})", self.path + ("hands", name)))
        for name in out.seats:
            if name not in hands:
                problems.append(Problem(f"deal {self.n}: no hand for {name}", self.path + ("hands",)))
            elif len(hands[name]) != TRICKS_PER_DEAL:
                problems.append(Problem(f"deal {self.n}: {name} holds {len(hands[name])} cards, not {TRICKS_PER_DEAL}",
                                        self.path + ("hands", name)))
        talon = self.deal.talon
        if talon is not None and len(talon) != 2:
            problems.append(Problem(f"deal {self.n}: the talon has {len(talon)} cards, not 2",
                                    self.path + ("talon",)))
        seen: Dict[int, str] = {}
        for name, cs in list(hands.items()) + [("the talon", talon or ())]:
            for c in cs:
                code = code_of(c)
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
        calls = deal.auction
        if calls is None:
            out.bid = deal.bid
            out.declarer = deal.declarer
            return
        reading = self.reading
        dark_run = reading.dark_run if conv.dark else 0
        callers = reading.callers or out.seats
        # the same calls from the same seats under the same rules and floors end the same way: a
        # legal auction replayed once is looked up for the next deal that repeats it (a record
        # holds a few hundred distinct ones); an illegal one is never kept, so it is replayed
        # each time and its message names its own deal
        key = (callers if type(callers) is tuple else tuple(callers), self.min_level, bomb, dark_run,
               reading.here_allowed, calls)
        if FAST_AUCTIONS and type(calls) is tuple:
            last = _LAST_MEMO
            memo = last[1] if last[0] is conv else _auction_memo(conv)
        else:
            memo = None
        got = memo.get(key) if memo is not None else None
        if got is not None:
            steps, res = got
            out.auction = list(steps)
        else:
            auc = Auction(conv, callers, min_level=self.min_level, bomb=bomb,
                          dark_run=dark_run, here_allowed=self.reading.here_allowed)
            try:
                res = auc.run(calls, self.n, self.path + ("auction",))
            finally:
                out.auction = list(auc.steps)
            if memo is not None and len(memo) < _AUCTIONS_MAX:
                memo[key] = (tuple(out.auction), res)
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
            why = self.ctx.partner_problem(deal, self.dealer)
            if why is not None:
                raise IllegalCall(why, self.path + ("partner",))
        if self.min_level and c.is_tricks and (c.level or 0) < self.min_level:
            raise IllegalCall(f"deal {self.n}: after an all-pass the game must be at least {self.min_level} "
                              f"({exit_options(conv)}), not {c}", self.path + ("contract",))
        bid = out.bid
        if bid is not None and not deal.without_all:      # be visų: the reading checks it
            if bid.without_talon != c.without_talon:
                raise IllegalCall(without_talon_mismatch(self.n, out.declarer, bid, c), self.path + ("contract",))
            if conv.misere_binding and bid.is_misere and not c.is_misere:
                raise IllegalCall(f"deal {self.n}: {out.declarer} won the auction with a misère and must "
                                  f"play it (kabal'ny misère), not {c}", self.path + ("contract",))
            if conv.misere_binding and c.is_misere and not bid.is_misere:
                raise IllegalCall(f"deal {self.n}: a misère must be bid in the auction (kabal'ny misère); "
                                  f"{out.declarer} won with {bid} and cannot name misère after the talon",
                                  self.path + ("contract",))
            # the two rungs by the contracts' identities (a record's contracts are a few objects,
            # each a Python hash and equality away from the ladder's own keys)
            got = _RUNGS.get(id(c))
            rung_c = got[2] if got is not None and got[0] is conv and got[1] is c else _rung(conv, c)
            got = _RUNGS.get(id(bid))
            rung_bid = got[2] if got is not None and got[0] is conv and got[1] is bid else _rung(conv, bid)
            if rung_c is not None and rung_bid is not None and rung_c < rung_bid:
                raise IllegalCall(f"deal {self.n}: the contract {c} is below the winning bid {bid}",
                                  self.path + ("contract",))
        res = out.auction_result
        discard = deal.discard
        if discard is not None and self.masks is not None and out.declarer == deal.declarer \
                and not self.reading.problems and not (res is not None and res.without_talon):
            # the reading found this discard two different cards of the declarer's twelve (its
            # discard check, on the same masks: deal_cards.discard), and nothing else wrong
            out.discard = discard
            return
        if discard is not None:
            if len(discard) != 2:
                raise IllegalCall(f"deal {self.n}: the discard has {len(discard)} cards; the declarer "
                                  "discards 2", self.path + ("discard",))
            if not _two_cards(discard):
                raise IllegalCall(f"deal {self.n}: the discard names {discard[0]} twice", self.path + ("discard",))
        if res is not None and res.without_talon and discard is not None and deal.talon is not None \
                and set(discard) != set(deal.talon):
            if c.without_talon:
                raise IllegalCall(f"deal {self.n}: {c} is played without the talon, so nothing but the talon "
                                  "itself is put away (discard: the two talon cards, or leave it out)",
                                  self.path + ("discard",))
            raise IllegalCall(f"deal {self.n}: a 9 that beats a misère is played without the talon "
                              "(misere_beaten_by: 9-without-talon)", self.path + ("discard",))
        if out.hands is not None and out.declarer is not None and discard is not None:
            try:        # the common case, by the cards' bits (setup found every card dealt once)
                masks = self.masks
                held_mask = (masks[out.declarer] if masks is not None else sum(map(_BIT, out.hands[out.declarer]))) \
                    + sum(map(_BIT, deal.talon or ()))
                if not (discard[0]._bit | discard[1]._bit) & ~held_mask:
                    out.discard = discard
                    return
            except AttributeError:
                pass
            held = set(map(id, out.hands[out.declarer]))     # the very cards held
            held.update(map(id, deal.talon or ()))
            twelve = None
            for card in discard:
                if id(card) in held:
                    continue
                if twelve is None:
                    twelve = set(out.hands[out.declarer]) | set(deal.talon or ())
                if card not in twelve:
                    raise IllegalCall(f"deal {self.n}: {out.declarer} discarded {card}, which is neither in "
                                      "his hand nor in the talon", self.path + ("discard",))
        out.discard = discard

    # -- whist -----------------------------------------------------------------------------

    # -- whist: the reading's ---------------------------------------------------------------
    def whist(self) -> None:
        deal, out, reading = self.deal, self.out, self.reading
        out.open, out.takeover, out.returned_by = deal.open, deal.takeover, deal.returned_by
        if deal.contract.is_all_pass:
            if deal.whist:
                raise IllegalCall(f"deal {self.n}: nobody whists in an all-pass deal", self.path + ("whist",))
            out.played = True
            return
        decisions, dummy = reading.decisions, reading.dummy
        defenders = reading.defenders
        if dummy is None and len(decisions) == len(defenders) and tuple(decisions) == defenders:
            out.whist = list(decisions.items())      # (the common case: written in the order they speak)
        else:
            out.whist = [(p, decisions[p]) for p in defenders
                         if p in decisions and p != dummy]    # the dummy never speaks (H8)
        out.played = reading.played or (out.declarer is None and bool(deal.play))

    def results(self) -> None:
        deal, out = self.deal, self.out
        if out.counts is None or deal.tricks is None:
            return
        derived = out.counts
        recorded = self.reading.tricks
        if recorded is not None and recorded == derived and TRUST_READING:
            # the counts the reading made of the recorded tricks (``tricks_from`` recorded: the
            # same counts, a scored player without one padded with 0, which the names' check
            # below reads as 0 too), the same as the play's: nothing to say
            return
        given = dict(deal.tricks)
        if given == derived:        # every count the same (the common case)
            return
        names = [p for p in self.out.seats if p in derived or p in given]
        names += [p for p in self.record.players if p not in names and (p in derived or p in given)]
        if all(given.get(p, 0) == derived.get(p, 0) for p in names):
            return
        # one defender playing both hands (open, a take-over, the husar's whister with the dummy,
        # HUSAR.md H11): the pair's total may be written to the one who played
        if (deal.takeover is not None or deal.open or self.reading.dummy is not None) and out.declarer is not None:
            d = out.declarer
            if given.get(d, 0) == derived.get(d, 0) and sum(given.values()) == sum(derived.values()):
                return
        got = ", ".join(f"{p} {derived.get(p, 0)}" for p in names)
        said = ", ".join(f"{p} {given.get(p, 0)}" for p in names)
        raise IllegalPlay(f"deal {self.n}: the play gives {got} tricks, but tricks says {said}",
                          self.path + ("tricks",))

#: replayed legal auctions by their rules (held by identity, so an id is never reused while its
#: entry lives): each rules' own table of (seats, floors, calls) -> (steps, result)
_AUCTIONS: Dict[int, Tuple[Conventions, Dict[Any, Any]]] = {}
_AUCTIONS_MAX = 4096
#: False replays every auction call by call (tests compare the two)
FAST_AUCTIONS = True
#: False checks the dealt cards here even when the reading found them dealt once (tests)
TRUST_READING = True


#: each contract's rung on a ladder, by the contract's identity: (rules, contract, rung), the two
#: held so that the id is not reused while its entry lives
_RUNGS: Dict[int, Tuple[Conventions, Any, Optional[int]]] = {}


def _rung(conv: Conventions, c: Any) -> Optional[int]:
    """``conv.rung.get(c)``, kept for the next deal that names the same contract object."""
    rung = conv.rung.get(c)
    if len(_RUNGS) >= 256:
        _RUNGS.clear()
    _RUNGS[id(c)] = (conv, c, rung)
    return rung


#: the rules and table asked for last (a record's deals ask for the same one in turn)
_LAST_MEMO: List[Any] = [None, None]


def _auction_memo(conv: Conventions) -> Dict[Any, Any]:
    got = _AUCTIONS.get(id(conv))
    if got is None or got[0] is not conv:
        if len(_AUCTIONS) >= 16:
            _AUCTIONS.clear()
        got = _AUCTIONS[id(conv)] = (conv, {})
    _LAST_MEMO[:] = got
    return got[1]


def _dealt_once(hands: Dict[str, Any], seats: Tuple[str, ...], talon: Optional[Tuple[Card, ...]]) -> bool:
    """Whether :meth:`_Replayer.setup` has nothing to say of the cards: a hand of ten for each
    seat and nobody else, a talon of two (or none) and no card twice, told by the cards'
    identities (the deck's own cards, one object each; any other card: the long way)."""
    if len(hands) != len(seats) or (talon is not None and len(talon) != 2):
        return False
    dealt: List[Card] = list(talon or ())
    for name in seats:
        cards = hands.get(name)
        if cards is None or len(cards) != TRICKS_PER_DEAL:
            return False
        dealt.extend(cards)
    ids = set(map(id, dealt))
    return len(ids) == len(dealt) and ids <= _DECK_IDS


_DECK_IDS = frozenset(id(c) for c in DECK)
_BIT = attrgetter("_bit")                  # a Card's bit (model.cards: 1 << its index in DECK)


def _two_cards(cards: Tuple[Card, ...]) -> bool:
    """Two different cards, told by their bits (or by identity when both are the deck's own
    objects)."""
    try:
        return cards[0]._bit != cards[1]._bit    # type: ignore[attr-defined]
    except AttributeError:
        pass
    ids = set(map(id, cards))
    if len(ids) == 2 and ids <= _DECK_IDS:
        return True
    return len(set(cards)) == 2


def without_talon_mismatch(n: int, declarer: Optional[str], bid: Any, c: Any) -> str:
    """Why a contract and the bid it was won with disagree on the talon (one message for the
    reading of a summary deal and the replay of an auction)."""
    if bid.without_talon:
        return (f"deal {n}: {declarer} won the auction with {bid} and so plays without the talon: the "
                f"contract is one without the talon too (e.g. {bid}), not {c}")
    return (f"deal {n}: {c} is played without the talon, but {declarer} won the auction with {bid} and took it "
            "(a bid without the talon is made in the auction)")


def replay_reading(ctx: RecordFacts, reading: "DealReading", *, raise_errors: bool = False,
                   keep_tricks: bool = True, hands: Optional[Dict[str, Tuple[Card, ...]]] = None) -> DealReplay:
    """Replay the deal of `reading`; the first illegal step is recorded (or raised). `hands`: the
    deal's hands by name as its reading's card check made them (``dict(deal.hands)``), when the
    reader hands them in."""
    deal = reading.deal
    r = _Replayer(ctx, reading, keep_tricks, hands)
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


def exit_levels(record: Record, conv: Conventions) -> Dict[int, int]:
    """The minimum contract level of each deal (by pos) after consecutive all-pass deals
    (``allpass.exit``, and ``allpass.dark_exit`` after dark ones, Кодекс 3.7.7): the context's."""
    return all_pass_runs(record, conv)[2]


def deal_dealers(record: Record, conv: Conventions) -> Dict[int, str]:
    """The dealer of each deal (by pos): the table's rotation, read from the conventions."""
    from prefcli.rules.table import dealers
    return dealers(record, dict(conv.seating))
