"""The double-dummy solver is exact: it agrees with a plain exhaustive minimax (tests/dd_reference.py)
on random endgames of up to 4 cards a hand in every strain, misère and all-pass (with the
talon-led tricks of both kinds), also from the middle of a trick; and on published problems
(tests/examples/analysis/problems.yaml, sources named there)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from dd_reference import minimax
from prefcli.model.cards import DECK, Suit, parse_cards, parse_contract
from prefcli.rules.moves import card_code, legal_mask, mask_of, trick_winner_codes
from prefcli.rules.solver import Solver, runs

PROBLEMS = yaml.safe_load((Path(__file__).parent / "examples" / "analysis" / "problems.yaml").read_text("utf-8"))
SUITS = [None, Suit.S, Suit.C, Suit.D, Suit.H]


@st.composite
def endgames(draw, max_cards: int = 4):
    n = draw(st.integers(1, max_cards))
    perm = draw(st.permutations(range(32)))
    cards = [DECK[i] for i in perm[:3 * n + 2]]
    hands = [cards[0:n], cards[n:2 * n], cards[2 * n:3 * n]]
    return hands, cards[3 * n:]


def _solve(hands, leader, trump, target, high, talon=(), competes=False, table=()):
    s = Solver(trump.order if trump else -1, target, high, [card_code(c) for c in talon], competes)
    return s.value([mask_of(h) for h in hands], leader, [card_code(c) for c in table])


@settings(max_examples=300, deadline=None)
@given(endgames(), st.sampled_from(SUITS), st.integers(0, 2), st.integers(0, 2))
def test_trick_contract_equals_minimax(game, trump, target, leader):
    hands, _ = game
    assert _solve(hands, leader, trump, target, True) == minimax(hands, leader, trump, target, True)


@settings(max_examples=200, deadline=None)
@given(endgames(), st.integers(0, 2), st.integers(0, 2))
def test_misere_equals_minimax(game, target, leader):
    hands, _ = game
    assert _solve(hands, leader, None, target, False) == minimax(hands, leader, None, target, False)


@settings(max_examples=200, deadline=None)
@given(endgames(), st.integers(0, 2), st.integers(1, 2), st.booleans())
def test_all_pass_with_talon_leads_equals_minimax(game, target, talon_tricks, competes):
    """Each player's paranoid bound, the first tricks led from the talon (the first hand plays
    first; the talon card wins for nobody when it competes, else only names the suit)."""
    hands, rest = game
    talon = rest[:min(talon_tricks, len(hands[0]))]
    got = _solve(hands, 0, None, target, False, talon, competes)
    assert got == minimax(hands, 0, None, target, False, talon, competes)


@settings(max_examples=200, deadline=None)
@given(endgames(), st.sampled_from(SUITS), st.integers(0, 2), st.integers(0, 2), st.booleans(),
       st.integers(1, 2), st.randoms(use_true_random=False))
def test_mid_trick_positions_equal_minimax(game, trump, target, leader, high, played, rnd):
    """A position with cards already on the table (the analysis asks after every card)."""
    hands, _ = game
    table = []
    for k in range(played):
        p = (leader + k) % 3
        led = table[0].suit if table else None
        from prefcli.rules.engine import legal_cards
        card = rnd.choice(legal_cards(hands[p], led, trump))
        hands[p] = [c for c in hands[p] if c != card]
        table.append(card)
    got = _solve(hands, leader, trump, target, high, table=tuple(table))
    assert got == minimax(hands, leader, trump, target, high, table=tuple(table))


def test_runs_merge_touching_cards_only():
    # hand K Q 9 of spades (codes 6 5 2), the jack (4) and 10 (3) out elsewhere: K-Q touch
    hand = (1 << 6) | (1 << 5) | (1 << 2)
    live = hand | (1 << 4)
    assert runs(hand, hand, live) == [6, 2]
    assert runs(hand, hand, hand) == [6]           # nothing between them: one card


def test_legal_mask_follow_then_trump_then_any():
    hand = mask_of(parse_cards("AS 7C 8D"))
    assert legal_mask(hand, 0, 3) == mask_of(parse_cards("AS"))
    assert legal_mask(hand, 3, 2) == mask_of(parse_cards("8D"))      # no hearts: must trump
    assert legal_mask(hand, 3, -1) == hand                          # no hearts, no trump: anything
    assert trick_winner_codes([card_code(c) for c in parse_cards("10H 7D AH")], 2) == 1


def _problem(p):
    hands = [mask_of(parse_cards(h)) for h in p["hands"]]
    c = parse_contract(str(p["contract"]))
    trump = c.trump.order if c.is_tricks and c.trump is not None else -1
    return Solver(trump, p["declarer"], not c.is_misere).value(hands, p["lead"])


@pytest.mark.parametrize("p", PROBLEMS["solvers"], ids=lambda p: f"case{p['case']}-{p['contract']}")
def test_eshavlyugin_solver_expectations(p):
    got = _problem(p)
    assert got == p.get("exact", p["expected"])


@pytest.mark.parametrize("p", [p for p in PROBLEMS["etudes"] if "answer" in p], ids=lambda p: p["name"])
def test_etudes_with_a_published_answer(p):
    got = _problem(p)
    answer = str(p["answer"])
    if answer.startswith("at least"):
        assert got >= int(answer.split()[-1])
    else:
        assert got == int(answer)


def test_values_are_stable_across_guesses_and_table_reuse():
    """MTD from any guess, and a table reused for another position, give the same value."""
    p = PROBLEMS["solvers"][4]
    hands = [mask_of(parse_cards(h)) for h in p["hands"]]
    c = parse_contract(str(p["contract"]))
    s = Solver(c.trump.order, p["declarer"], True)
    values = {s.value(hands, p["lead"], guess=g) for g in range(11)}
    assert values == {p["expected"]}
    # after any legal opening card the value can only stay or drop for the leader's opponents
    lead = p["lead"]
    for code in range(32):
        if (hands[lead] >> code) & 1:
            h2 = list(hands)
            h2[lead] &= ~(1 << code)
            fresh = Solver(c.trump.order, p["declarer"], True).value(h2, lead, [code])
            assert s.value(h2, lead, [code]) == fresh
