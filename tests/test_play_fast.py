"""The replay's shortcuts for full deals (issue 18) give what the long way gives.

The shortcuts: the reading's masks of the dealt hands taken by the replay (DealReading.hand_masks),
the discard the reading found right not checked again, the three-seat trick check
(moves.three_seats, with its table of what a card that does not follow says, moves._VOID), and the
legal auctions looked up. The long way: every card and call checked one by one, the cards dealt
checked by the replay itself (FAST_TRICKS, FAST_AUCTIONS, TRUST_READING off)."""
from __future__ import annotations

import copy
import random
import sys
from typing import Any, Dict, List

from conftest import ROOT

#: the presets the generator deals for three and four players (the husar's two are the examples')
_PRESETS = ("sochi", "leningrad", "rostov", "classic", "lithuanian", "lithuanian-kitty")


def _generated() -> List[Dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    return [generate(30, full=True, players=players, variant=variant, seed=11)
            for variant in _PRESETS for players in (3, 4)]


def _broken(data: Dict[str, Any], rng: random.Random) -> Dict[str, Any]:
    """The same deals with their plays made wrong in the ways a hand-written record goes wrong:
    a revoke (a follower's card swapped with one of his from a later trick), a card not held (one
    of another player's), the wrong leader (a trick's cards turned round), an eleventh trick, a
    trick of two cards, a claim for the last tricks (right, and one trick short), a talon card
    that is not the talon's, the tricks written that the play does not give."""
    bad = copy.deepcopy(data)
    for i, deal in enumerate(bad["deals"]):
        play = deal.get("play")
        if not play or len(play) < 4:
            continue
        tricks = [t.split() for t in play]
        how = i % 10
        a = rng.randrange(len(tricks) - 1)
        b = rng.randrange(a + 1, len(tricks))
        if how == 0:            # revoke, or a card played before it is reached
            k = rng.randrange(1, min(len(tricks[a]), len(tricks[b])))
            tricks[a][k], tricks[b][k] = tricks[b][k], tricks[a][k]
        elif how == 1:          # a card another player holds
            tricks[a][-1], tricks[a][0] = tricks[b][0], tricks[a][-1]
        elif how == 2:          # the wrong player leads
            tricks[a] = tricks[a][1:] + tricks[a][:1]
        elif how == 3:          # too many tricks
            tricks.append(list(tricks[-1]))
        elif how == 4:          # a trick of one card fewer
            tricks[b] = tricks[b][:-1]
        elif how == 5:          # the last two tricks claimed by one player (right or not, by the counts)
            tricks = tricks[:-2]
            deal["claim"] = {next(iter(deal["hands"])): 2}
        elif how == 6:          # a claim one trick short
            tricks = tricks[:-2]
            first = next(iter(deal.get("tricks") or {"x": 0}))
            deal["claim"] = {first: 1}
        elif how == 7 and len(tricks[0]) == 4:      # a talon-led trick led with another card
            tricks[0][0], tricks[0][1] = tricks[0][1], tricks[0][0]
        elif how == 8 and "tricks" in deal:         # counts the play does not give
            names = list(deal["tricks"])
            deal["tricks"] = {**deal["tricks"], names[0]: deal["tricks"][names[0]] + 1,
                              names[1]: deal["tricks"][names[1]] - 1}
        elif how == 9:          # the last trick left out, and no claim
            tricks = tricks[:-1]
        else:                   # two cards of a trick swapped (a revoke, or who played which)
            tricks[a][0], tricks[a][-1] = tricks[a][-1], tricks[a][0]
        deal["play"] = [" ".join(t) for t in tricks]
    return bad


def _outcome(data: Dict[str, Any]) -> List[Any]:
    """Every reading's problems and tricks, every replay (tricks kept and not), validate's problems."""
    from prefcli.model.build import record_from_data
    from prefcli.model.records import Deal
    from prefcli.rules.checks import check_record
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.replay import replay_reading
    record = record_from_data(data)
    rules = resolve_rules(record.rules)
    out: List[Any] = []
    for keep in (True, False):
        ctx = RecordContext(record, rules, keep_tricks=keep)
        for e in record.deals:
            if isinstance(e, Deal):
                reading = ctx.reading(e)
                rep = reading.replay
                out.append(([(p.message, p.path) for p in reading.problems], reading.tricks, reading.tricks_from,
                            rep.as_dict() if rep is not None else None,
                            replay_reading(ctx, reading, keep_tricks=keep).as_dict()))
    out.append([(p.message, p.path) for p in check_record(record, rules, warnings=True)])
    return out


def _long_way(monkeypatch) -> None:
    from prefcli.rules import play, replay
    monkeypatch.setattr(play, "FAST_TRICKS", False)
    monkeypatch.setattr(replay, "FAST_AUCTIONS", False)
    monkeypatch.setattr(replay, "TRUST_READING", False)
    monkeypatch.setattr(replay, "_dealt_once", lambda hands, seats, talon: False)


def test_the_shortcuts_read_and_replay_every_preset_as_the_long_way(monkeypatch):
    """Generated full deals of every preset the generator deals, three and four players (trick
    contracts, misères, all-passes with their talon tricks, deals whisted by one or nobody), and
    the same deals with their plays broken: the same readings, replays and validate problems, each
    wrong card found at the same place with the same message."""
    rng = random.Random(18)
    records = []
    for data in _generated():
        records.append(data)
        records.append(_broken(data, rng))
    fast = [_outcome(d) for d in records]
    _long_way(monkeypatch)
    slow = [_outcome(d) for d in records]
    assert fast == slow
    said = [m for r in fast for m, _ in r[-1]]
    for words in ("must follow", "already played", "which", "holds", "; a deal has ten", "cards; a trick here has",
                  "without a claim", "the claim must share", "is led with the talon card", "but tricks says"):
        assert any(words in m for m in said), words
    contracts = {d["contract"] for data in records for d in data["deals"]}
    assert {"all-pass", "misere"} <= contracts
    assert any(set(d.get("whist", {}).values()) == {"pass"} for data in records for d in data["deals"])


def _long_replayer(seats: List[str]) -> Any:
    """A replayer of the long way (PlayReplay._tricks, card by card) for three seats, no deal."""
    from prefcli.rules import play as P

    class Long(P.PlayReplay):
        def __init__(self) -> None:
            self.n, self.path, self.keep_tricks = 1, ("deals", 0), False
            self.out = type("Out", (), {"seats": seats, "tricks": [], "declarer": None})()
            self.deal = type("Deal", (), {"discard": None, "talon": ()})()
    return Long()


def test_the_three_seat_check_counts_as_the_long_way_or_declines():
    """moves.three_seats against the card-by-card long way (PlayReplay._tricks) on random legal
    plays in every strain and from every leader, and on each play made wrong card by card (a card
    swapped with any later card of the play): whenever it says "every card legal" the long way
    agrees with the same counts; whenever the long way finds nothing wrong it says so too."""
    from prefcli.model.cards import DECK, Suit
    from prefcli.rules import moves
    from prefcli.rules import play as P
    from prefcli.rules.errors import IllegalPlay

    rng = random.Random(5)
    seats = ["Ann", "Bob", "Cid"]
    compared = declined = 0
    for t in range(60):
        cards = list(DECK)
        rng.shuffle(cards)
        hands = {p: cards[10 * k:10 * k + 10] for k, p in enumerate(seats)}
        trump = rng.choice([None] + list(Suit))
        tcode = trump.order if trump is not None else -1
        order = seats[t % 3:] + seats[:t % 3]
        legal = P.random_play(rng, {p: hands[p] for p in order}, order, trump)
        plays = [tuple(tuple(cs) for cs, _ in legal)]
        flat = [c for cs, _ in legal for c in cs]
        for _ in range(6):      # wrong plays: two cards of the play swapped
            i, j = sorted(rng.sample(range(len(flat)), 2))
            w = list(flat)
            w[i], w[j] = w[j], w[i]
            plays.append(tuple(tuple(w[k:k + 3]) for k in range(0, 30, 3)))
        masks = {p: sum(c._bit for c in hands[p]) for p in seats}
        for play in plays:
            won_fast = dict.fromkeys(seats, 0)
            fine = moves.three_seats(play, dict(masks), seats, order[0], won_fast, tcode)
            won_long = dict.fromkeys(seats, 0)
            try:
                _long_replayer(seats)._tricks(
                    play, dict(masks), list(seats), tcode, order[0], won_long, None, (), "unused", 0, None, None)
                long_fine = True
            except IllegalPlay:
                long_fine = False
            assert fine == long_fine
            if fine:
                assert won_fast == won_long
                compared += 1
            else:
                declined += 1
    assert compared >= 60 and declined >= 100
    # a leader who does not play: declined (the long way finds who leads)
    assert not moves.three_seats(plays[0], dict(masks), seats, "Dan", dict.fromkeys(seats, 0), -1)


def test_the_three_seat_check_of_what_was_held_at_the_end_is_the_card_by_card_one():
    """moves.three_seats asks whether every card was held once, at the end (each seat's cards
    played, by XOR, are that many different cards of its hand): against the long way on plays cut
    short (a claim's first tricks), a first hand of twelve cards (no discard given), a card played
    twice, a talon card or another seat's card played, the same card played by two seats."""
    from prefcli.model.cards import DECK
    from prefcli.rules import moves
    from prefcli.rules import play as P
    from prefcli.rules.errors import IllegalPlay
    seats, rng = ["Ann", "Bob", "Cid"], random.Random(23)
    compared = declined = 0
    for t in range(120):
        cards = rng.sample(DECK, len(DECK))         # a deck shuffled: three hands, then the talon
        hands = dict(zip(seats, (cards[:10], cards[10:20], cards[20:30])))
        trump = rng.randrange(-1, 4)
        legal = P.random_play(rng, hands, seats, P._SUITS[trump] if trump >= 0 else None)
        play = [list(cs) for cs, _ in legal]
        masks = {p: sum(c._bit for c in hands[p]) for p in seats}
        if t % 4 == 1:
            masks["Ann"] |= cards[30]._bit | cards[31]._bit      # twelve cards: no discard given
        how = t % 6
        i, j = rng.randrange(10), rng.randrange(10)
        k = rng.randrange(3)
        if how == 1:
            play[i][k] = play[j][k]                 # a card played twice (or the same card again)
        elif how == 2:
            play[i][k] = cards[30 + t % 2]          # a talon card (held only by a hand of twelve)
        elif how == 3:
            play[i][k] = play[j][(k + 1) % 3]       # a card another seat plays too
        elif how == 4:
            play[i][0], play[j][1] = play[j][1], play[i][0]
        cut = rng.randrange(11) if t % 3 == 0 else 10
        one = tuple(tuple(x) for x in play[:cut])
        won_fast: Dict[str, int] = dict.fromkeys(seats, 0)
        fine = moves.three_seats(one, dict(masks), seats, "Ann", won_fast, trump)
        won_long: Dict[str, int] = dict.fromkeys(seats, 0)
        try:
            _long_replayer(seats)._tricks(
                one, dict(masks), list(seats), trump, "Ann", won_long, None, (), "unused", 0, None, None)
            long_fine = True
        except IllegalPlay:
            long_fine = False
        assert fine == long_fine, (t, how, cut)
        if fine:
            assert won_fast == won_long
            compared += 1
        else:
            assert won_fast == dict.fromkeys(seats, 0)      # nothing counted when it declines
            declined += 1
    assert compared >= 30 and declined >= 30


def test_the_void_table_is_the_follow_rule():
    """moves._VOID: a card that does not follow says its player holds no card of the suit led, and
    none of the trumps unless it is one; moves.legal_mask says the same of every hand."""
    from prefcli.rules.moves import _VOID, legal_mask
    rng = random.Random(3)
    for _ in range(3000):
        hand = rng.getrandbits(32)
        if not hand:
            continue
        code = rng.choice([i for i in range(32) if (hand >> i) & 1])
        led = rng.randrange(4)
        trump = rng.randrange(-1, 4)
        allowed = (legal_mask(hand, led, trump) >> code) & 1
        rest = hand & ~(1 << code)
        assert bool(allowed) == (not rest & _VOID[trump + 1][led][code])


def test_the_talon_tricks_check_counts_as_the_long_way_or_declines():
    """moves.talon_tricks then moves.three_seats (an all-pass's talon-led tricks, three seats)
    against the long way on random legal plays, the talon card written in its trick or left out,
    the talon card playing (for the dealer, or for nobody) or only naming the suit, and on the
    same plays made wrong (two cards swapped, the talon card changed)."""
    from prefcli.model.cards import DECK
    from prefcli.rules import moves
    from prefcli.rules import play as P
    from prefcli.rules.errors import IllegalPlay
    seats = ["Ann", "Bob", "Cid"]

    rng = random.Random(9)
    compared = declined = 0
    for t in range(80):
        cards = list(DECK)
        rng.shuffle(cards)
        hands = {p: cards[10 * k:10 * k + 10] for k, p in enumerate(seats)}
        talon = tuple(cards[30:32])
        plays_for, owner = [(False, None), (True, None), (True, "Dan")][t % 3]
        legal = P.random_play(rng, hands, seats, None, talon_lead=talon, talon_owner=owner,
                              talon_wins=plays_for)
        written = t % 2 == 0          # the talon card written first in its trick, or left out
        play = [tuple(cs) if (i < 2 and written) else tuple(cs[1:]) if i < 2 else tuple(cs)
                for i, (cs, _) in enumerate(legal)]
        plays = [play]
        for _ in range(4):
            w = [list(x) for x in play]
            i, j = rng.sample(range(10), 2)
            a, b = rng.randrange(len(w[i])), rng.randrange(len(w[j]))
            w[i][a], w[j][b] = w[j][b], w[i][a]
            plays.append([tuple(x) for x in w])
        masks = {p: sum(c._bit for c in hands[p]) for p in seats}
        mode = "dealer-plays" if plays_for else "lead-suit"
        for one in plays:
            won_fast: Dict[str, int] = dict.fromkeys(seats, 0)
            h = dict(masks)
            try:
                fine = (moves.talon_tricks(one, h, seats, "Ann", won_fast, -1, talon, plays_for, owner)
                        and moves.three_seats(one[2:], h, seats, "Ann", won_fast, -1))
            except (ValueError, AttributeError, KeyError):
                fine = False
            won_long: Dict[str, int] = dict.fromkeys(seats, 0)
            try:
                _long_replayer(seats)._tricks(
                    one, dict(masks), list(seats), -1, "Ann", won_long, None, talon, mode, 2, owner, None)
                long_fine = True
            except IllegalPlay:
                long_fine = False
            if fine:
                assert long_fine and won_fast == won_long
                compared += 1
            else:
                declined += 1
                if long_fine:       # declined a legal play: only when nobody followed a talon card
                    assert not plays_for
    assert compared >= 80 and declined >= 100


def test_the_shortcuts_replay_every_example_as_the_long_way(monkeypatch):
    """Every example record (the husar's two players with the dummy among them, four and five
    players, the analysis studies) reads and replays the same with the shortcuts and the long way."""
    from conftest import example_records
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.records import Deal
    from prefcli.rules.checks import check_record
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules

    def outcome() -> List[Any]:
        got: List[Any] = []
        for p in example_records():
            try:
                record = build_record_fast(load_document(str(p)))
            except Exception:          # noqa: BLE001 - not a record (a sheet): nothing to replay
                continue
            rules = resolve_rules(record.rules)
            for keep in (True, False):
                ctx = RecordContext(record, rules, keep_tricks=keep)
                for e in record.deals:
                    if isinstance(e, Deal) and e.hands is not None:
                        r = ctx.reading(e)
                        got.append((str(p), [(x.message, x.path) for x in r.problems], r.tricks,
                                    r.replay.as_dict() if r.replay is not None else None))
            got.append([(x.message, x.path) for x in check_record(record, rules, warnings=True)])
        return got

    fast = outcome()
    _long_way(monkeypatch)
    slow = outcome()
    assert fast == slow
    assert any("husar" in g[0] for g in fast if isinstance(g, tuple))
