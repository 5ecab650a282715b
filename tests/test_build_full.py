"""The one-pass builder of full deals (prefcli.model.build_full) builds the long way's Deals.

Issue 18: a full deal's fields are read in one look and a trick's text parsed once a record;
whatever it is not sure of goes the long way (model.build._Builder.deal), which must then give
the same Deal, field for field, or the same problems.
"""
from __future__ import annotations

import copy
import dataclasses
import pickle
import sys

import pytest

from conftest import ROOT


def _generated():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    out = []
    for variant in ("sochi", "leningrad", "lithuanian"):
        for players in (3, 4):
            out.append(generate(30, full=True, players=players, variant=variant, seed=11))
    return out


def _odd(data):
    """The same record with its deals made almost plain, each in another way."""
    bad = copy.deepcopy(data)
    ways = [
        lambda d: d["hands"].update({next(iter(d["hands"])): next(iter(d["hands"].values())).split()}),
        lambda d: d["hands"].update({next(iter(d["hands"])): next(iter(d["hands"].values())).replace(" ", ", ")}),
        lambda d: d["hands"].update({next(iter(d["hands"])): next(iter(d["hands"].values())).lower()}),
        lambda d: d["hands"].update({next(iter(d["hands"])): "1S " + next(iter(d["hands"].values()))[3:]}),
        lambda d: d.update(talon=d["talon"].split()),
        lambda d: d.update(talon="AS, KS"),
        lambda d: d.update(talon=None),
        lambda d: d.update(auction=" ".join(d["auction"])),
        lambda d: d.update(auction=d["auction"] + ["7Z"]),
        lambda d: d.update(auction=[None]),
        lambda d: d.update(play=(d.get("play") or []) + [None]),
        lambda d: d.update(play="AS KS QS"),
        lambda d: d.update(play=[t.replace(" ", "  ") for t in d.get("play") or []]),
        lambda d: d.update(claim={"Ann": True}),
        lambda d: d.update(claim=None),
        lambda d: d.update({"return": None}),
        lambda d: d.update({"return": " "}),
        lambda d: d.update(note="a note"),
        lambda d: d.update(declarer=None),
        lambda d: d.update(dealer=""),
        lambda d: d.update(tricks={"Ann": 5.0}),
        lambda d: d.update(whist={"Bob": "wist"}),
        lambda d: d.update(open="yes"),
        lambda d: d.update(hands=[]),
        lambda d: d["hands"].update({1: "AS"}),
        lambda d: d.update(discard=""),
        lambda d: d.update(play=[]),
        lambda d: d.update(play=[["AS", "KS", "QS"]] + (d.get("play") or [])[1:]),
        lambda d: d.update(play=(d.get("play") or [])[:1] + [7]),
        lambda d: d.update(auction=[["pass"]]),
        lambda d: d.update(auction=["pass", 6]),
        lambda d: d.update(open=None),
        lambda d: d.update(dark=None),
        lambda d: d.update(dark=1),
        lambda d: d.update(whist=None),
        lambda d: d.update(tricks=None),
        lambda d: d.update(discard=None),
        lambda d: d.update(hands=None),
        lambda d: d.update(dealer=None),
        lambda d: d.update(declarer=5),
        lambda d: d.update({"return": "Ann"}),
        lambda d: d.update(dark=True, open=True),
        lambda d: None,
    ]
    for i, deal in enumerate(bad["deals"]):
        if "hands" in deal:
            ways[i % len(ways)](deal)
    return bad


def _build_all():
    from prefcli.model.build import record_from_data
    from prefcli.model.diagnostics import Problems
    out = []
    for data in _generated():
        for d in (data, _odd(data)):
            problems = Problems()
            record = record_from_data(copy.deepcopy(d), problems)
            out.append((record, [(p.path, p.message) for p in problems.items]))
    return out


def test_a_full_deal_built_in_one_pass_is_the_long_ways_deal(monkeypatch):
    from prefcli.model import build
    from prefcli.model.records import Deal
    _build_all()                                   # the long way's tables learn the spellings
    fast = _build_all()
    used = []
    real = build.full_deal
    monkeypatch.setattr(build, "full_deal", lambda m, pos, b, t: used.append(1) or real(m, pos, b, t))
    _build_all()
    monkeypatch.setattr(build, "full_deal", lambda m, pos, b, t: None)
    slow = _build_all()
    assert len(used) > 200, "the one-pass builder was not used"
    assert fast == slow
    from prefcli.model import build_full
    monkeypatch.setattr(build, "full_deal", real)
    monkeypatch.setattr(build_full, "_SLOTS", [None])     # Deal's layout not the one it knows
    assert _build_all() == slow
    deals = [d for rec, _ in fast if rec is not None for d in rec.deals if isinstance(d, Deal)]
    assert sum(1 for d in deals if d.play) > 100 and any(problems for _, problems in fast)
    for d in deals:
        ref = Deal(**{f.name: getattr(d, f.name) for f in dataclasses.fields(Deal)})
        assert type(d) is Deal and d == ref and hash(d) == hash(ref) and repr(d) == repr(ref)
        assert pickle.loads(pickle.dumps(d)) == ref


def test_a_tricks_text_read_again_is_the_same_cards():
    """The record's table of card texts (what full_deal looks a deal's tricks, talon and
    discard up in) gives back what reading the text gives; a text that is not plainly cards, or
    not a text, is a KeyError or a TypeError (full_deal leaves the deal to the long way)."""
    import pytest
    from prefcli.model import build_full
    from prefcli.model.cards import parse_cards
    texts = build_full._Texts()
    for text in ("AS KS QS", "7h 8h 9h", "10D", "", "AS KS QS"):
        assert texts[text] == parse_cards(text)
    for bad in ("AS,KS", "AS XS", None, 7):
        with pytest.raises(KeyError):
            texts[bad]
    with pytest.raises(TypeError):
        texts[["AS"]]           # type: ignore[index]
    assert len(texts) == 4


def test_a_play_looked_up_at_once_is_its_tricks_read_one_by_one():
    """A deal's tricks looked up in one pass (``map(texts.__getitem__, play)``, full_deal's way)
    are each trick's cards as read alone, whether the record had them before or not; a trick
    that is not a card text stops the pass."""
    import pytest
    from prefcli.model import build_full
    from prefcli.model.cards import parse_cards
    texts = build_full._Texts()
    plays = [["AS KS QS", "7H 8H 9H"], ["7H 8H 9H", "10D JD QD", "AS KS QS"], ["7h 8h 9h 10h"], []]
    for play in plays + plays:
        assert tuple(map(texts.__getitem__, play)) == tuple(parse_cards(t) for t in play)
    for bad in (["AS KS", None], ["AS KS", ["AS"]], ["AS, KS"], ["AS XS"]):
        with pytest.raises((KeyError, TypeError)):
            tuple(map(texts.__getitem__, bad))
    assert len(texts) == 5          # ("AS KS" is cards, kept)


@pytest.mark.parametrize("i", range(32))
def test_a_cards_code_and_bit_are_its_place_in_the_deck(i):
    from prefcli.model.cards import DECK, Card
    c = DECK[i]
    other = Card(c.suit, c.rank)                  # another object of the same card
    assert c._code == other._code == i and c._bit == other._bit == 1 << i   # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(c))._code == i  # type: ignore[attr-defined]


def test_counts_equal_to_plain_ones_and_counts_as_whist_are_built_the_long_way():
    """Mappings equal to a plain one the record had before (a count of True or 1.0, equal to 1)
    and counts where whist decisions go are built, or refused, as the long way does."""
    from prefcli.model.build import record_from_data
    from prefcli.model.diagnostics import Problems
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    data = generate(12, full=True, players=3, variant="sochi", seed=5)
    played = [d for d in data["deals"] if "tricks" in d and "whist" in d]
    assert len(played) >= 3
    first = played[0]
    for i, d in enumerate(played[1:]):
        d["tricks"] = dict(first["tricks"])
        d["whist"] = dict(first["whist"])
        if i == 0:
            d["tricks"] = {k: (True if v == 1 else float(v)) for k, v in first["tricks"].items()}
        elif i == 1:
            d["whist"] = dict(first["tricks"])       # counts where decisions go
    problems_fast = Problems()
    fast = record_from_data(copy.deepcopy(data), problems_fast)
    from prefcli.model import build
    saved = build.full_deal
    try:
        build.full_deal = lambda m, pos, b, t: None
        problems_slow = Problems()
        slow = record_from_data(copy.deepcopy(data), problems_slow)
    finally:
        build.full_deal = saved
    assert fast == slow
    assert [(p.path, p.message) for p in problems_fast.items] == [(p.path, p.message) for p in problems_slow.items]
    assert problems_fast.items                      # the float counts and the counts as whist are refused


def _card_by_card(text):
    from prefcli.model.build_full import _card
    try:
        return tuple(map(_card, text.split()))
    except (KeyError, AttributeError):
        return None


_TEXTS = ["AS KS QS", "10S 10C", "7H", "AS", "10S", "TS 9S", "7S 8S 9S 10S JS QS KS AS 7C 8C", "", "AS|KS", "QS|JS",
          "AS  KS", " AS", "AS ", "as KS", "A\u2660 KS", "1S0", "AS\tKS", "110S", "10", "0S", "10S10C", "AS KS\n",
          "JD 1 0D", "ts 9s", "10s", "7S 8S", "AS,KS", "KS\u00a0QS", "AS KS QS JS", "XS", "A", "AX",
          "AD KD QD JD 10D 9D 8D 7D AH KH", "7H 8H 9H TH JH QH KH 7C 9C 10C", "AS KS QS JS 10S 9S 8S 7S AC"]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 10])
def test_texts_read_at_once_are_each_texts_cards(k):
    """build_full.texts_cards reads a list of card texts at once (joined, in C) exactly as each
    text read card by card, or answers nothing when any of them is not plainly cards as prefcli
    writes them (with k, of k cards each): whatever it answers, the card-by-card reading agrees."""
    import itertools
    import random
    from prefcli.model.build_full import texts_cards
    rng = random.Random(k)
    groups = [[t] for t in _TEXTS] + [list(p) for p in itertools.combinations(_TEXTS, 2)]
    groups += [rng.sample(_TEXTS, rng.randint(1, 6)) for _ in range(400)]
    answered = 0
    for texts in groups:
        got = texts_cards(texts, k)
        if got:
            answered += 1
            assert set(got) == set(texts)
            for text in texts:
                assert got[text] == _card_by_card(text) is not None
                assert all(type(c).__name__ == "Card" for c in got[text])
            if k:
                assert all(len(got[t]) == k for t in texts)
        else:
            plain = all(type(t) is str and _card_by_card(t) and t == " ".join(t.split()) and t.isascii()
                        and t == t.upper() and (not k or len(t.split()) == k) for t in texts)
            assert not plain, texts     # plainly written cards are read at once
    assert answered >= 3
    assert texts_cards(["AS KS", 5], k) == {} and texts_cards([], k) == {}


def test_a_blocks_hands_and_tricks_read_at_once_are_the_card_by_card_ones():
    """Before each block of deals is built, its hands and its new trick, talon and discard texts
    are read at once (build_full.read_block): the same cards as each read alone, a block with
    one hand written otherwise left to the card-by-card reading (the same Deals either way)."""
    from prefcli.model import build, build_full
    from prefcli.model.build import record_from_data
    from prefcli.model.diagnostics import Problems
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    data = generate(40, full=True, players=3, variant="sochi", seed=8)

    class B:
        pass
    b = B()
    build_full.read_block(data["deals"], b)
    assert len(b.hands) == 120 and len(b.texts) > 100
    for text, cards in list(b.hands.items()) + list(b.texts.items()):
        assert cards == _card_by_card(text)
    odd = copy.deepcopy(data)
    first = odd["deals"][3]["hands"]
    name = next(iter(first))
    first[name] = first[name].lower()
    odd["deals"][5]["play"] = [t.replace(" ", "  ") for t in odd["deals"][5].get("play") or []] or ["AS  KS QS"]
    b = B()
    build_full.read_block(odd["deals"], b)
    assert b.hands == {} and all(cards == _card_by_card(text) for text, cards in b.texts.items())
    for d in (data, odd):
        fast_problems, slow_problems = Problems(), Problems()
        fast = record_from_data(copy.deepcopy(d), fast_problems)
        saved = build.read_block
        try:
            build.read_block = lambda block, builder: None
            slow = record_from_data(copy.deepcopy(d), slow_problems)
        finally:
            build.read_block = saved
        assert fast == slow and fast_problems.items == slow_problems.items
        assert [repr(x) for x in fast.deals] == [repr(x) for x in slow.deals]


def test_a_dark_all_pass_is_told_by_its_calls_as_before():
    """Deal.is_dark_allpass looks for a dark call in C first (no generator for the common
    auction without one): the same answer as the pass-by-pass look, for every mix of calls."""
    import itertools
    from prefcli.model.cards import ALL_PASS, Call, CallKind, parse_contract
    from prefcli.model.records import Deal
    calls = [Call(CallKind.PASS), Call(CallKind.PASS, dark=True), Call(CallKind.BID, parse_contract("6S")),
             Call(CallKind.BID, parse_contract("6S"), dark=True), Call(CallKind.HERE, dark=True)]
    for n in range(4):
        for auction in itertools.product(calls, repeat=n):
            for contract in (ALL_PASS, parse_contract("7H")):
                for dark in (False, True):
                    d = Deal(pos=0, contract=contract, auction=tuple(auction) if auction else None, dark=dark)
                    want = contract.is_all_pass and (dark or any(c.dark and c.kind is CallKind.PASS
                                                                 for c in auction))
                    assert d.is_dark_allpass is want
