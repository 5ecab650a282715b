"""Property tests of the rules engine (hypothesis).

Randomly dealt, randomly but legally bid and played deals always replay clean and their derived
tricks sum to ten; changing one card of a legal play to a revoke, a card not held or a card
already played is always caught at that very trick and card.
"""
from __future__ import annotations

import random
from typing import Any, Dict, List

from hypothesis import HealthCheck, given, settings, strategies as st

from prefcli.model.cards import DECK, Card
from prefcli.rules.engine import Auction, check_record, conventions, random_play, replay_record
from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules

PLAYERS3 = ["Ann", "Bob", "Cid"]
PLAYERS4 = ["Ann", "Bob", "Cid", "Dan"]


def _s(cards) -> str:
    return " ".join(str(c) for c in cards)


def random_deal(rng: random.Random, variant: str, players: List[str]) -> Dict[str, Any]:
    """A legal full deal: random cards, a random legal auction, discard, whists, random legal play."""
    rules = resolve_rules({"variant": variant})
    conv = conventions(rules)
    deck = list(DECK)
    rng.shuffle(deck)
    dealer = players[0]
    seats = players[1:4] if len(players) == 4 else players[1:] + players[:1]
    hands = {p: deck[10 * i:10 * i + 10] for i, p in enumerate(seats)}
    talon = deck[30:32]
    auc = Auction(conv, seats)
    calls = []
    while not auc.done:
        legal = auc.legal_calls()
        # mostly pass (the auction ends), sometimes the lowest bids (the auction climbs)
        call = legal[0] if rng.random() < 0.45 or len(legal) == 1 else rng.choice(legal[1:4])
        auc.apply(call)
        calls.append(str(call))
    res = auc.result()
    deal: Dict[str, Any] = {"dealer": dealer, "hands": {p: _s(hands[p]) for p in seats},
                            "talon": _s(talon), "auction": calls}
    trump = None
    play_hands = {p: list(hands[p]) for p in seats}
    talon_lead: List[Card] = []
    mode = "unused"
    if res.winner is None:
        deal["contract"] = "all-pass"
        mode = conv.allpass_talon
        if mode == "by-seats":
            mode = "dealer-plays" if len(players) == 4 else "lead-suit"
        if mode != "unused":
            talon_lead = list(talon)
    else:
        decl = res.winner
        contract = res.bid
        deal["declarer"] = decl
        deal["contract"] = str(contract)
        twelve = hands[decl] + talon
        # a bid without the talon (misere_without_talon) never takes it: the talon is "discarded"
        discard = list(talon) if contract.without_talon else rng.sample(twelve, 2)
        deal["discard"] = _s(discard)
        play_hands[decl] = [c for c in twelve if c not in discard]
        i = seats.index(decl)
        if not contract.is_misere:
            deal["whist"] = {seats[(i + 1) % 3]: "whist", seats[(i + 2) % 3]: "whist"}
            trump = contract.trump
    owner = dealer if mode == "dealer-plays" and len(players) == 4 else None
    played = random_play(rng, play_hands, seats, trump, talon_lead, owner, talon_wins=mode != "lead-suit")
    tricks = [_s(cards) for cards, _ in played]
    deal["play"] = tricks
    return deal


def build(deal: Dict[str, Any], variant: str, players: List[str]):
    data = {"format": "pref-record/1", "players": players, "rules": {"variant": variant}, "deals": [deal]}
    rec = record_from_data(data, strict=True)
    return rec, resolve_rules(rec.rules)


VARIANTS = st.sampled_from([("sochi", PLAYERS3), ("sochi", PLAYERS4), ("rostov", PLAYERS3),
                            ("lithuanian-kitty", PLAYERS3), ("classic", PLAYERS4),
                            ("lithuanian", PLAYERS4)])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), VARIANTS)
def test_random_legal_deals_replay_clean(rng, vp):
    variant, players = vp
    deal = random_deal(rng, variant, players)
    rec, rules = build(deal, variant, players)
    assert check_record(rec, rules) == []
    rep = replay_record(rec, rules)[0]
    assert rep.problems == []
    assert sum(rep.counts.values()) == 10
    assert len(rep.tricks) == 10


def _mutations(deal: Dict[str, Any], rng: random.Random, variant: str, players: List[str]):
    """(trick index, card index, new card, what) for one random card of the play."""
    rec, rules = build(deal, variant, players)
    rep = replay_record(rec, rules)[0]
    t = rng.randrange(10)
    trick = rep.tricks[t]
    choices = [j for j, (who, _) in enumerate(trick.cards) if who is not None and
               not (j == 0 and t < 2 and rec.deals[0].contract.is_all_pass and len(trick.cards) == 4)]
    choices = [j for j in choices if trick.cards[j][0] in rep.seats]
    j = rng.choice(choices)
    player, card = trick.cards[j]
    # what the player holds at this point: his cards not played before trick t
    talon_led = set(rec.deals[0].talon) if rec.deals[0].contract.is_all_pass else set()
    played_before = {c for tr in rep.tricks[:t] for _, c in tr.cards if c not in talon_led}
    played_in_trick = {c for _, c in trick.cards[:j]}
    dealt = set(rec.deals[0].hands_map()[player])
    if player == rep.declarer and not rec.deals[0].contract.is_all_pass:
        dealt = (dealt | set(rec.deals[0].talon)) - set(rec.deals[0].discard)
    holding = dealt - played_before
    led_card = trick.cards[0][1]
    led = led_card.suit
    out = []
    if j > 0:
        others = [c for c in holding if c.suit is not led and c != card]
        if any(c.suit is led for c in holding) and others:
            out.append((t, j, rng.choice(sorted(others)), "revoke"))
    not_held = [c for c in DECK if c not in holding and c not in played_before and c not in played_in_trick]
    if not_held:
        out.append((t, j, rng.choice(not_held), "not held"))
    if played_before:
        out.append((t, j, rng.choice(sorted(played_before)), "already played"))
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), VARIANTS)
def test_one_changed_card_is_caught_at_that_trick(rng, vp):
    variant, players = vp
    deal = random_deal(rng, variant, players)
    for t, j, new, what in _mutations(deal, rng, variant, players):
        bad = dict(deal)
        cards = bad["play"][t].split()
        cards[j] = str(new)
        bad["play"] = list(deal["play"])
        bad["play"][t] = " ".join(cards)
        rec, rules = build(bad, variant, players)
        probs = check_record(rec, rules)
        assert probs, (what, t, j, new)
        p = probs[0]
        assert p.kind == "play"
        assert p.path == ("deals", 0, "play", t, j), (what, p.message)
        assert f"trick {t + 1}:" in p.message
        if what == "already played":
            assert "already played" in p.message
        if what == "revoke":
            assert "must follow" in p.message


CALLS = st.sampled_from(["pass", "here", "misere", "6S", "6C", "6NT", "7D", "8NT", "9S", "9NT", "10S", "dark 7S"])
CONTRACTS = st.sampled_from(["6S", "6C", "7H", "8NT", "9S", "10NT", "misere", "all-pass"])
NAMES = st.sampled_from(["Ann", "Bob", "Cid", "Dan", "Zed"])


@settings(max_examples=150, deadline=None)
@given(st.lists(CALLS, max_size=12), CONTRACTS, st.one_of(st.none(), NAMES), VARIANTS,
       st.dictionaries(NAMES, st.sampled_from(["whist", "pass", "half-whist"]), max_size=3),
       st.randoms(use_true_random=False))
def test_any_auction_or_play_never_crashes(calls, contract, declarer, vp, whist, rng):
    variant, players = vp
    deck = list(DECK)
    rng.shuffle(deck)
    deal: Dict[str, Any] = {"auction": calls, "contract": contract, "whist": whist}
    if declarer:
        deal["declarer"] = declarer
    if rng.random() < 0.5:
        names = players[1:4] if len(players) == 4 else players
        deal["hands"] = {p: _s(deck[10 * i:10 * i + 10]) for i, p in enumerate(names)}
        deal["talon"] = _s(deck[30:32])
        deal["play"] = [_s(rng.sample(deck, rng.choice([2, 3, 4]))) for _ in range(rng.randrange(12))]
        if rng.random() < 0.3:
            deal["claim"] = {rng.choice(players): rng.randrange(-1, 11)}
    rec, rules = build(deal, variant, players)
    probs = check_record(rec, rules)           # never raises
    assert all(p.path[:2] == ("deals", 0) for p in probs)
    assert not any("cannot be replayed (" in p.message for p in probs)   # no internal error
    replay_record(rec, rules)
