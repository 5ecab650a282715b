"""Card play: which cards may be played, who wins a trick, and the trick-by-trick replay.

The play check runs once per card of every deal, so cards are small integers (suit order × 8 +
rank − 7, the index in DECK) and hands are bit masks; it avoids hashing Card objects.
"""
from __future__ import annotations

from prefcli.model.slots import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.cards import DECK, Card, Decision, Strain, Suit
from prefcli.model.slots import plain_frozen
from prefcli.rules.errors import TRICKS_PER_DEAL, IllegalPlay
from prefcli.rules.moves import TRICK_KEYS as _TRICK_KEYS, legal_mask, mask_of, three_seats as _three_seats
from prefcli.rules.moves import talon_tricks as _talon_tricks

__all__ = ["legal_cards", "trick_winner", "random_play", "TrickPlay", "SUIT_NAMES", "talon_leads", "opening_hands"]

SUIT_NAMES = {Suit.S: "spades", Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts"}
# Cards as small integers (suit order × 8 + rank − 7, the index in DECK) and hands as bit masks:
# the play check runs once per card of every deal, so it avoids hashing Card objects.
_SUITS = tuple(Suit)
_SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
_ID_CODE = {id(c): i for i, c in enumerate(DECK)}
#: a contract's trump suit order (-1: no trump), by its strain (None: none)
_TRUMP_OF = {id(st): (st.suit.order if st.suit is not None else -1) for st in Strain}
_TRUMP_OF[id(None)] = -1
#: the trick-by-trick check that answers only "every card legal" (:meth:`PlayReplay._tricks_fast`);
#: False plays every deal the long way (tests compare the two)
FAST_TRICKS = True


def _code(card: Card) -> int:
    try:
        return card._code           # type: ignore[attr-defined]   # a Card's own (model.cards)
    except AttributeError:
        return card.suit.order * 8 + int(card.rank) - 7


code_of = _code


def _cards_of(mask: int) -> List[Card]:
    return [DECK[i] for i in range(32) if (mask >> i) & 1]


def opening_hands(out: Any, deal: Any, masks: Optional[Dict[str, int]] = None) -> Dict[str, int]:
    """Each active seat's cards at the first lead, as masks (``out`` a replay with its hands):
    the dealt hands, the declarer's with the talon taken (not when a 9 over a misère is played
    without it) and his discard put away; no discard given, he may play any of his twelve.
    The replay checks the play against these, and the double-dummy analysis solves them.
    `masks`: the dealt hands' masks when the deal's reading made them (every card dealt once, a
    hand a seat: ``DealReading.hand_masks``), not made again here."""
    hands: Dict[str, int]
    if masks is not None:
        hands = dict(masks)
    else:
        hands = {}
        for p in out.seats:
            m = 0
            try:
                for card in out.hands[p]:
                    m |= card._bit              # a Card's own bit (model.cards)
            except AttributeError:              # something else: by its suit and rank
                m = 0
                for card in out.hands[p]:
                    m |= 1 << _code(card)
            hands[p] = m
    c = out.contract
    decl = out.declarer
    if decl is not None and c is not None and not c.is_all_pass and decl in hands:
        # a misère or a 9 bid without the talon never takes it (seed 004 l.53 "nenaudodamas …
        # o tai šiuo atveju neatskleidžiama"); a 9 over a misère (misere_beaten_by) with a discard
        m = hands[decl]
        talon = deal.talon
        discard = deal.discard
        take = not (c.without_talon or (discard is not None and out.auction_result is not None
                                        and out.auction_result.without_talon))
        if take and talon is not None and discard is not None and len(talon) == 2 == len(discard):
            try:        # the common case, by the cards' own bits
                hands[decl] = (m | talon[0]._bit | talon[1]._bit) & ~(discard[0]._bit | discard[1]._bit)
                return hands
            except AttributeError:
                pass
        if take:
            for card in talon or ():
                m |= 1 << _code(card)
        for card in discard or ():
            m &= ~(1 << _code(card))
        hands[decl] = m
    return hands


def talon_leads(conv: Any, contract: Any, talon: Sequence[Card], four: bool) -> Tuple[str, int]:
    """How the talon plays in a deal, and how many first tricks it leads: ``("unused", 0)``, or
    for an all-pass with a two-card talon ``("lead-suit", 2)`` (the card names the suit, the best
    player's card takes the trick) or ``("dealer-plays", 2)`` (the card plays for the dealer who
    sits out, or for nobody); ``allpass.talon: by-seats`` is the second when the dealer sits out
    (four or five players), the first when he holds cards (two or three)."""
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






_new = object.__new__


def _trick_play(number: int, leader: Optional[str], cards: Tuple[Tuple[Optional[str], Card], ...],
                winner: Optional[str]) -> TrickPlay:
    obj = _new(TrickPlay)
    d = obj.__dict__
    d["number"] = number
    d["leader"] = leader
    d["cards"] = cards
    d["winner"] = winner
    return obj


#: ``TrickPlay(number, leader, cards, winner)``, the same object made faster (:func:`plain_frozen`)
trick_play = _trick_play if plain_frozen(TrickPlay, ("number", "leader", "cards", "winner")) else TrickPlay


#: who plays to a trick from each leader, by the seats in play (a record has a few seatings; a
#: handful kept, so a batch of inputs with other players holds no more)
_ORDERS: Dict[Tuple[str, ...], Dict[str, Tuple[str, ...]]] = {}


def _orders(seats: Sequence[str]) -> Dict[str, Tuple[str, ...]]:
    key = tuple(seats)
    got = _ORDERS.get(key)
    if got is None:
        if len(_ORDERS) >= 16:
            _ORDERS.clear()
        got = _ORDERS[key] = {p: key[k:] + key[:k] for k, p in enumerate(key)}
    return got


def fmt_cards(cards: Iterable[Card]) -> str:
    return ", ".join(str(c) for c in cards)


def next_in(seats: Sequence[str], all_seats: Sequence[str], who: str) -> str:
    """The next seat clockwise from `who` that takes part in the play."""
    i = list(all_seats).index(who)
    n = len(all_seats)
    for k in range(1, n + 1):
        q = all_seats[(i + k) % n]
        if q in seats:
            return q
    return seats[0]


class PlayReplay:
    """The trick-by-trick half of a deal's replay (mixed into the replayer, which holds the deal,
    its reading and what the replay found so far)."""

    deal: Any
    out: Any
    conv: Any
    n: int
    path: Any
    dealer: Optional[str]
    keep_tricks: bool
    four: bool
    #: the deal's reading (None: a replay without one)
    reading: Any = None
    #: the dealt hands' masks, when the replay starts from the reading's (every card dealt once)
    masks: Optional[Dict[str, int]] = None

    def play(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        play = deal.play
        if play is None and deal.claim is None:
            return
        if not out.played:
            raise IllegalPlay(f"deal {self.n}: the deal is not played (the defenders passed or "
                              "half-whisted), yet its play is given", self.path + ("play",))
        if out.hands is None:
            return
        c = out.contract
        assert c is not None
        trump = _TRUMP_OF.get(id(c.strain)) if c.is_tricks else -1
        if trump is None:           # a strain that is not one of the enum's own members
            trump = c.trump.order if c.trump is not None else -1
        reading = self.reading
        # who plays to the tricks: the husar's dummy sits out an all-pass (HUSAR.md H15); who
        # leads first: the first hand, or the husar's first_lead (HUSAR.md H10)
        seats: Sequence[str]
        if reading is not None:
            seats = reading.players_in_play or out.seats
            dummy = reading.dummy
            robot = dummy if dummy is not None and reading.controller == "robot" else None
            leader = reading.first_leader or out.first_hand
        else:
            seats, dummy, robot, leader = out.seats, None, None, out.first_hand
        hands = opening_hands(out, deal, self.masks)
        talon = deal.talon or ()
        if type(talon) is not tuple:
            talon = tuple(talon)
        if play is None:
            play = ()
        # who sits out: the passer when a lone whister plays alone (two cards a trick)
        if c.is_tricks and conv.whist_alone and play and len(play[0]) == 2 and all(len(t) == 2 for t in play):
            ws = [p for p, d in out.whist if d is Decision.WHIST]
            ps = [p for p, d in out.whist if d is Decision.PASS]
            if len(ws) == 1 and len(ps) == 1 and deal.takeover is None and deal.returned_by is None:
                seats = [p for p in seats if p != ps[0]]
        four = self.four
        if c.is_all_pass:
            talon_mode, talon_tricks = talon_leads(conv, c, talon, four)
        else:
            talon_mode, talon_tricks = "unused", 0      # (talon_leads': only an all-pass's talon leads)
        talon_owner = self.dealer if (talon_mode == "dealer-plays" and four) else None
        sitting_dummy = dummy if dummy is not None and dummy not in seats else None
        won: Dict[str, int] = (dict.fromkeys(out.seats, 0) if sitting_dummy is None
                               else {p: 0 for p in out.seats if p != sitting_dummy})
        if talon_owner is not None and play:
            won[talon_owner] = 0          # the 4-player dealer's talon tricks, listed even when none
        if robot is None and FAST_TRICKS and len(seats) == 3 and not self.keep_tricks and len(play) <= TRICKS_PER_DEAL:
            try:    # the common table: _tricks_fast's three-seat checks, without its other steps
                if talon_tricks:
                    fine = (_talon_tricks(play, hands, seats, leader, won, trump, talon[:talon_tricks],
                                          talon_mode == "dealer-plays", talon_owner)
                            and _three_seats(play[talon_tricks:], hands, seats, leader, won, trump))
                else:
                    fine = _three_seats(play, hands, seats, leader, won, trump)
            except (KeyError, ValueError, AttributeError):  # (as _tricks_fast's)
                fine = False
        else:
            fine = robot is None and FAST_TRICKS and self._tricks_fast(play, hands, seats, trump, leader, won, talon,
                                                                       talon_mode, talon_tricks, talon_owner)
        if not fine:
            if robot is None and FAST_TRICKS:     # declined: the long way, from the start
                hands = opening_hands(out, deal, self.masks)
                won = {p: 0 for p in out.seats if p != sitting_dummy}
            self._tricks(play, hands, seats, trump, leader, won, robot, talon, talon_mode, talon_tricks,
                         talon_owner, reading)
        done = len(play)
        claim = dict(deal.claim) if deal.claim is not None else None
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

    def _tricks_fast(self, play: Sequence[Sequence[Card]], hands: Dict[str, int], seats: Sequence[str], trump: int,
                     leader: Optional[str], won: Dict[str, int], talon: Tuple[Card, ...], talon_mode: str,
                     talon_tricks: int, talon_owner: Optional[str]) -> bool:
        """The tricks of a play whose every card is legal (no robot's dummy): True with `won`
        counted (and the tricks kept when asked), as :meth:`_tricks` would. False as soon as
        anything is off (not a Card, a card not held or not following, a trick of
        another size, a leader who does not play, a talon card nobody followed): the caller then
        plays the deal the long way from the start, which finds the first wrong step and words it.
        Nothing is written on the replay before the whole play is checked, and what only a
        message needs (where each card was played) is not kept."""
        nseat = len(seats)
        if len(play) > TRICKS_PER_DEAL:
            return False
        keys = _TRICK_KEYS[trump + 1]
        trump_mask = _SUIT_MASK[trump] if trump >= 0 else 0
        orders = _orders(seats)
        if nseat == 3 and not talon_tricks and not self.keep_tricks:
            try:            # the common table (three cards a trick, none the talon's): unrolled
                return _three_seats(play, hands, seats, leader, won, trump)
            except (KeyError, ValueError, AttributeError):      # (as below)
                return False
        kept: Optional[List[TrickPlay]] = [] if self.keep_tricks else None
        try:
            # three cards a trick (the common table): the talon's tricks here, the rest unrolled
            three = nseat == 3 and kept is None
            for ti, trick in enumerate(play[:talon_tricks] if three else play):
                order = orders[leader]          # type: ignore[index]
                if ti < talon_tricks:           # the talon card names the suit (and may take the trick)
                    code = talon[ti]._code
                    first = 0
                    if len(trick) == nseat + 1:
                        if trick[0]._code != code:
                            return False
                        first = 1
                    elif len(trick) != nseat:
                        return False
                    led = code >> 3
                    row = keys[led]
                    best = row[code] if talon_mode == "dealer-plays" else -1
                    who = talon_owner
                    start = 0
                else:
                    if len(trick) != nseat:
                        return False
                    first = 0
                    who = order[0]
                    code = trick[0]._code
                    hand = hands[who]
                    if not (hand >> code) & 1:
                        return False
                    hands[who] = hand ^ (1 << code)
                    led = code >> 3
                    row = keys[led]             # each card's standing in this trick (-1: neither suit)
                    best = row[code]
                    start = 1
                led_mask = _SUIT_MASK[led]
                for k in range(start, nseat):
                    p = order[k]
                    code = trick[k + first]._code
                    hand = hands[p]
                    if not (hand >> code) & 1:
                        return False
                    if (code >> 3) != led and (hand & led_mask or ((code >> 3) != trump and hand & trump_mask)):
                        return False
                    hands[p] = hand ^ (1 << code)
                    if row[code] > best:
                        best, who = row[code], p
                if best < 0:                    # nobody followed the talon card: the long way says who won
                    return False
                if who is not None:
                    won[who] = won.get(who, 0) + 1
                if ti < talon_tricks:
                    if kept is not None:
                        kept.append(trick_play(ti + 1, talon_owner, ((talon_owner, talon[ti]),)
                                               + tuple(zip(order, trick[first:])), who))
                else:
                    if kept is not None:
                        kept.append(trick_play(ti + 1, order[0], tuple(zip(order, trick)), who))
                    leader = who
            if three:
                return _three_seats(play[talon_tricks:] if talon_tricks else play, hands, seats, leader, won, trump)
        except (KeyError, ValueError, AttributeError):  # a card not the deck's own object (not a Card),
            return False                # a leader who does not play, a trick of another size
        if kept:
            self.out.tricks.extend(kept)
        return True

    def _tricks(self, play: Sequence[Sequence[Card]], hands: Dict[str, int], seats: Sequence[str], trump: int,
                leader: Any, won: Dict[str, int], robot: Optional[str], talon: Tuple[Card, ...],
                talon_mode: str, talon_tricks: int, talon_owner: Optional[str], reading: Any) -> None:
        """The tricks card by card (the long way: every card's checks, each with its message)."""
        out = self.out
        nseat = len(seats)
        played_at: Dict[int, int] = {}
        keep = self.keep_tricks
        first_hand = leader
        code_get = _ID_CODE.get      # a dealt card's code by its identity (the DECK's own cards)
        orders = _orders(seats)
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
                why = ""
                if reading is not None and reading.dummy is not None and reading.dummy not in seats:
                    why = " (the dummy's cards are not turned up on all-pass: two cards a trick, HUSAR.md H15)"
                raise IllegalPlay(f"deal {self.n}, trick {tn}: {len(trick)} cards; a trick here has {want}{why}",
                                  self.path + ("play", ti))
            order = orders.get(lead_seat)   # who plays to the trick, from its leader
            if order is None:               # a sitting-out passer never leads; the next seat does
                order = orders[next_in(seats, out.seats, lead_seat)]
            led = (talon_code >> 3) if talon_code >= 0 else -1
            best_key = -1
            best_who: Optional[str] = talon_owner
            if talon_code >= 0 and talon_mode == "dealer-plays":
                best_key = 16 + (talon_code & 7) if (talon_code >> 3) == trump else 8 + (talon_code & 7)
            codes: List[Tuple[Optional[str], Card]] = []
            for j, p in enumerate(order):
                card = trick[j + offset]
                code = code_get(id(card))
                if code is None:
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
                                          f"{fmt_cards(held)} and must follow {SUIT_NAMES[_SUITS[led]]}",
                                          self.path + ("play", ti, j + offset))
                    else:
                        held = _cards_of(hand & _SUIT_MASK[trump])
                        raise IllegalPlay(f"deal {self.n}, trick {tn}: {p} played {card} but, having no "
                                          f"{SUIT_NAMES[_SUITS[led]]}, must trump with {fmt_cards(held)}",
                                          self.path + ("play", ti, j + offset))
                if p == robot:
                    self._robot(p, card, code, hand, led if j or talon_code >= 0 else -1, trump, tn, ti, j + offset)
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
                if talon_code >= 0:
                    codes.insert(0, (talon_owner, talon[ti]))
                out.tricks.append(trick_play(tn, codes[0][0], tuple(codes), winner))
            if talon_code >= 0:
                leader = first_hand          # the first hand leads the trick after the talon tricks
            elif winner is not None:
                leader = winner

    def _robot(self, p: str, card: Card, code: int, hand: int, led: int, trump: int, tn: int,
               ti: int, j: int) -> None:
        """``husar.dummy_control: robot`` (HUSAR.md H9, GO ``ARCHITECTURE.md`` §1.7): the dummy plays
        the lowest card of the suit led, else the lowest trump, else its lowest card."""
        pool = hand & _SUIT_MASK[led] if led >= 0 else 0
        if not pool and led >= 0 and trump >= 0:
            pool = hand & _SUIT_MASK[trump]
        if not pool:
            pool = hand
        want = min((i for i in range(32) if (pool >> i) & 1), key=lambda i: (i & 7, i >> 3))
        if want != code:
            raise IllegalPlay(f"deal {self.n}, trick {tn}: the dummy ({p}) is played by the robot, which plays "
                              f"{DECK[want]} here, not {card} (husar.dummy_control: robot, HUSAR.md H9)",
                              self.path + ("play", ti, j))

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

