"""The tricks and the cards of a deal: recorded or claimed trick counts checked against the
table, the hands and talon dealt once each, the discard. A part of the one reading
(:mod:`prefcli.rules.deal`)."""
from __future__ import annotations

from operator import attrgetter
from typing import Any, Dict, List, Optional, Set, Tuple

from prefcli.model.cards import DECK, Card
from prefcli.rules.errors import TRICKS_PER_DEAL
from prefcli.model.values import not_seated
from prefcli.rules.reading import CHECKED, INCOMPLETE, ReaderBase


class CardsReader(ReaderBase):
    """The tricks, hands, talon and discard of a deal, read into its reading."""

    #: the recorded counts found plainly fine (:meth:`_plainly_fine`) in the deals of this deal's
    #: dealer, of contracts and of all-passes (his seat state's: ``ReaderBase.start``), so checked
    #: against the same players each time (who sits out, the scored players; who may hold cards
    #: is the reader's own)
    fine_counts: Tuple[Set[Any], Set[Any]]
    #: the deal's hands by name (None: not made, the cards found dealt once) and its talon, for
    #: the discard's check
    _hands_talon: Tuple[Optional[Dict[str, Tuple[Card, ...]]], Tuple[Card, ...]]

    # -- tricks -----------------------------------------------------------------------------
    def tricks(self) -> None:
        deal, out, conv, n = self.deal, self.out, self.conv, self.n
        c = deal.contract
        if deal.tricks is not None:
            given = dict(deal.tricks)
            # Seed 002: in a 3-player eglė the two talon-led tricks "played by the dealer" that a
            # talon card wins belong to nobody, so the players' tricks may add up to 8 or 9.
            if c.is_all_pass:
                sitting: Tuple[str, ...] = ()
                known = self.fine_counts[1]
            else:
                sitting, known = out.sitting_out, self.fine_counts[0]
            if deal.tricks in known:    # counts seen plainly fine with the same players: fine again
                fine = True
            elif self._plainly_fine(given, sitting):
                fine = True
                if len(known) < 4096 and type(deal.tricks) is tuple and FAST_TRICK_COUNTS:
                    known.add(deal.tricks)
            else:
                unowned = 2 if (c.is_all_pass and not out.sitting_out and conv.allpass_talon == "dealer-plays") else 0
                fine = self._check_tricks(given, unowned)
            if fine:
                # checked: every scored player has a count, so only a husar's dummy (or a player
                # left out where the counts are fewer) is padded
                if len(given) != len(out.active) or (self.dummy is not None
                                                     and any(p not in given for p in out.active)):
                    given = {**{p: 0 for p in out.active}, **given}     # a husar's dummy takes none
                out.tricks = given
                out.tricks_from = "recorded"
            return
        if deal.hands is None and deal.play is None and deal.claim is not None and out.played:
            claim = deal.claim_map() or {}
            if self._check_tricks(claim, 0, key="claim"):
                out.tricks = {**{p: 0 for p in out.active}, **claim}
                out.tricks_from = "claimed"
            return
        if deal.play is None and deal.claim is None and out.played and out.mode != CHECKED:
            if out.position:
                return                      # a study kept without a result, on purpose
            if deal.hands is not None:
                # a full deal without a result: a position only when the record says so
                self.add(self.path, f"deal {n}: {c} was played, so its result is needed: record the play "
                                    "or the tricks (tricks: {name: count, …} for every active player), or "
                                    "mark it as a position (position: true) to keep it for analysis only",
                         INCOMPLETE)
            else:
                self.add(self.path, f"deal {n}: {c} was played, so the tricks are needed "
                                    "(tricks: {name: count, …} for every active player)", INCOMPLETE)

    def _plainly_fine(self, tricks: Dict[str, int], sitting: Tuple[str, ...]) -> bool:
        """The common case, nothing to say: every name may hold cards and does not sit out
        (`sitting`), no count is negative, they add up to ten and every scored player has one.
        Its answer depends on these alone (so a record's repeated counts are asked once)."""
        seated = self.holders
        total = 0
        for name, count in tricks.items():
            if name not in seated or name in sitting or count < 0:
                return False
            total += count
        active = self.scored
        if total == TRICKS_PER_DEAL and len(tricks) >= len(active):
            for p in active:
                if p not in tricks:
                    return False
            return True
        return False

    def _check_tricks(self, tricks: Dict[str, int], unowned: int, key: str = "tricks") -> bool:
        out, deal, n = self.out, self.deal, self.n
        if self._plainly_fine(tricks, out.sitting_out if not deal.contract.is_all_pass else ()):
            return True
        path = self.path + (key,)
        players = self.players
        ok = True
        for name, count in tricks.items():
            if name not in self.holders:
                self.add(path + (name,), not_seated(name, players))
                ok = False
            elif name in out.sitting_out and not (deal.contract.is_all_pass and name == out.dealer):
                if name == deal.declarer or name in deal.whist_map():
                    ok = False
                    continue  # already reported as the one sitting out
                # only the dealer's talon cards take tricks in an all-pass; the one waiting his turn
                # (five players) holds nothing at all
                self.add(path + (name,), f"deal {n}: {name} {self.why_out(name)} and sits out with {len(players)} "
                                         f"players, so takes no tricks in a{'n' if deal.contract.is_all_pass else ''} "
                                         f"{deal.contract} deal")
                ok = False
            if count < 0:
                self.add(path + (name,), f"deal {n}: trick count {count} is negative")
                ok = False
        if not ok:
            return False
        missing = [p for p in out.scored_players if p not in tricks]
        total = sum(tricks.values())
        if missing and key == "tricks":
            # refused even when the others add up to 10 (never read as 0)
            self.add(path, f"deal {n}: no trick count for {', '.join(missing)} (every active player's count "
                           "is needed: write " + ", ".join(f"{p}: 0" if total == TRICKS_PER_DEAL else f"{p}: N"
                                                           for p in missing) + ")")
            ok = False
        if not TRICKS_PER_DEAL - unowned <= total <= TRICKS_PER_DEAL:
            expected = (str(TRICKS_PER_DEAL) if not unowned else
                        f"{TRICKS_PER_DEAL - unowned} to {TRICKS_PER_DEAL} (talon-led tricks may belong to nobody)")
            self.add(path, f"deal {n}: the tricks add up to {total}, not {expected} "
                           f"({', '.join(f'{k} {v}' for k, v in tricks.items())})")
            ok = False
        return ok

    # -- the cards --------------------------------------------------------------------------
    def cards(self) -> None:
        deal, out = self.deal, self.out
        active = out.active
        pairs = deal.hands
        talon = deal.talon
        if (pairs is not None and talon is not None and len(talon) == 2 and len(pairs) == len(active)
                and 2 + TRICKS_PER_DEAL * len(pairs) == 32):
            # the common case: every card of the deck once, nothing to say (told by the cards'
            # own bits: 32 cards whose bits add up to the whole deck are 32 different cards, since
            # a card twice would carry into a bit already counted; anything else: the long way).
            # Read from the deal's own pairs, no mapping made: the discard asks the masks, and the
            # replay makes its own
            masks: Dict[str, int] = {}
            try:
                for name, cards in pairs:
                    if name not in active or len(cards) != TRICKS_PER_DEAL or type(cards) is not tuple:
                        break
                    # each hand's bits added up: its mask once the whole deck is found (no card twice)
                    masks[name] = sum(map(_BIT, cards))
                else:
                    if (len(masks) == len(pairs)       # (a name twice: the long way, on the mapping)
                            and sum(masks.values()) + talon[0]._bit + talon[1]._bit == _WHOLE_DECK):
                        self._hands_talon = (None, tuple(talon))    # (the mapping made if asked)
                        out.dealt_once = True   # the replay starts from these hands without checking again
                        out.hand_masks = masks  # (and from their masks: Card._bit, as here)
                        return
            except AttributeError:          # not a card: the long way says what it is
                pass
        n, path, players = self.n, self.path, self.players
        hands = deal.hands_map() or {}
        for name, cards in hands.items():
            hp = path + ("hands", name)
            if name not in self.holders:
                self.add(hp, not_seated(name, players))
            elif name not in active:
                self.add(hp, f"deal {n}: {name} {self.why_out(name)} and sits out with {len(players)} players, "
                             "so holds no cards")
            if len(cards) != TRICKS_PER_DEAL:
                self.add(hp, f"deal {n}: {name} holds {len(cards)} cards; each active hand holds {TRICKS_PER_DEAL}")
        for name in active:
            if name not in hands:
                self.add(path + ("hands",), f"deal {n}: the hand of {name} is missing")
        if talon is None:
            self.add(path, f"deal {n}: a full deal needs the two talon cards (talon:)")
            talon = ()
        elif len(talon) != 2:
            self.add(path + ("talon",), f"deal {n}: the talon holds {len(talon)} cards; it holds 2")
        where: Dict[Card, List[Tuple[str, ...]]] = {}
        for name, cards in hands.items():
            for card in cards:
                where.setdefault(card, []).append(("hands", name))
        for card in talon:
            where.setdefault(card, []).append(("talon",))
        for card, places in where.items():
            if len(places) > 1:
                names = [p[1] if len(p) > 1 else "the talon" for p in places]
                self.add(path + places[1], f"deal {n}: {card} is dealt twice ({' and '.join(names)})")
        if len(hands) == len(active) and all(len(c) == TRICKS_PER_DEAL for c in hands.values()) and len(talon) == 2:
            missing = [c for c in DECK if c not in where]
            if missing:
                self.add(path + ("hands",), f"deal {n}: cards missing from the deal: {' '.join(map(str, missing))}")
        self._hands_talon = (hands, talon)

    def discard(self) -> None:
        deal, n, path = self.deal, self.n, self.path
        hands_made, talon = self._hands_talon
        discard = deal.discard
        if discard is not None:
            masks = self.out.hand_masks
            if self.out.dealt_once and len(discard) == 2 and deal.declarer in masks:  # type: ignore[operator]
                # the common case, told by the cards' bits: the twelve cards the declarer held
                # are different cards (dealt once), so their bits add up to their mask
                try:
                    a, b = discard[0]._bit, discard[1]._bit
                    if a != b and not (a | b) & ~(masks[deal.declarer]     # type: ignore[index]
                                                  | talon[0]._bit | talon[1]._bit):
                        return
                except AttributeError:
                    pass
            hands = hands_made if hands_made is not None else deal.hands_map() or {}
            dp = path + ("discard",)
            if len(discard) != 2:
                self.add(dp, f"deal {n}: the discard is {len(discard)} cards; the declarer discards 2")
            if deal.declarer in hands:
                held = set(map(id, hands[deal.declarer]))
                held.update(map(id, talon))
                pool = None
                for card in discard:
                    if id(card) in held:
                        continue                      # the very card held (the common case)
                    if pool is None:
                        pool = set(hands[deal.declarer]) | set(talon)
                    if card not in pool:
                        self.add(dp, f"deal {n}: {deal.declarer} discarded {card}, which is neither in his hand "
                                     "nor in the talon")
            if not _distinct(discard):
                self.add(dp, f"deal {n}: the same card is discarded twice")


#: False checks every deal's recorded counts (tests compare the two)
FAST_TRICK_COUNTS = True

#: the identities of the deck's cards (one object a card: what parsing a card gives)
_DECK_IDS = frozenset(id(c) for c in DECK)
#: a card's bit (model.cards: 1 << its index in DECK), and the bits of the whole deck
_BIT = attrgetter("_bit")
_WHOLE_DECK = (1 << len(DECK)) - 1


def _distinct(cards: Tuple[Card, ...]) -> bool:
    """No card twice, told by identity when every card is one of the deck's own objects."""
    ids = set(map(id, cards))
    if ids <= _DECK_IDS:
        return len(ids) == len(cards)
    return len(set(cards)) == len(cards)
