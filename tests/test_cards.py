"""Cards, contracts, calls and decisions in every accepted notation (FORMAT.md §1)."""
import pytest
from hypothesis import given, strategies as st

from prefcli.model.cards import (DECK, MISERE, ALL_PASS, Call, CallKind, Card, Contract, ContractKind, Decision,
                           NotationError, Rank, Strain, Suit, defenders_quota, format_cards, ladder,
                           parse_call, parse_card, parse_cards, parse_contract, parse_decision)


@pytest.mark.parametrize("text, expected", [
    ("7S", Card(Suit.S, Rank.SEVEN)), ("10H", Card(Suit.H, Rank.TEN)), ("TH", Card(Suit.H, Rank.TEN)),
    ("A♠", Card(Suit.S, Rank.ACE)), ("k♥", Card(Suit.H, Rank.KING)), ("qd", Card(Suit.D, Rank.QUEEN)),
    ("J♣", Card(Suit.C, Rank.JACK)), (" 9C ", Card(Suit.C, Rank.NINE)), ("A♠\ufe0f", Card(Suit.S, Rank.ACE)),
])
def test_card_notations(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("bad", ["1C", "6S", "11H", "AX", "", "A", "SA", 10, None, "10"])
def test_bad_cards_name_the_token(bad):
    with pytest.raises(NotationError) as exc:
        parse_card(bad)
    assert str(bad) in exc.value.message or bad in ("", None) or isinstance(bad, int)


def test_canonical_output_is_ascii():
    assert str(parse_card("T♥")) == "10H"
    assert format_cards(parse_cards("A♠ T♦ 7c")) == "AS 10D 7C"


def test_deck_has_32_distinct_cards():
    assert len(DECK) == len(set(DECK)) == 32


@given(st.sampled_from(DECK))
def test_every_card_round_trips(card):
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


def test_hands_as_string_or_list():
    assert parse_cards("AS KS, QS") == parse_cards(["AS", "KS", "QS"])
    with pytest.raises(NotationError) as exc:
        parse_cards("AS KS 1C")
    assert exc.value.token == "1C"


@pytest.mark.parametrize("text, level, strain", [
    ("6S", 6, Strain.S), ("6♠", 6, Strain.S), ("7nt", 7, Strain.NT), ("10NT", 10, Strain.NT),
    ("9♥", 9, Strain.H), ("8 D", 8, Strain.D), ("6БК", 6, Strain.NT),
])
def test_contracts(text, level, strain):
    c = parse_contract(text)
    assert (c.kind, c.level, c.strain) == (ContractKind.TRICKS, level, strain)


@pytest.mark.parametrize("text", ["misere", "Misère", "мизер", "mizeris"])
def test_misere_words(text):
    assert parse_contract(text) == MISERE


@pytest.mark.parametrize("text", ["all-pass", "allpass", "распасы"])
def test_all_pass_words(text):
    assert parse_contract(text) == ALL_PASS


@pytest.mark.parametrize("bad", ["11NT", "5S", "6X", "NT", "6", 6, "", None])
def test_bad_contracts(bad):
    with pytest.raises(NotationError):
        parse_contract(bad)


def test_contract_canonical_and_price_key():
    assert str(parse_contract("10♥")) == "10H"
    assert parse_contract("7NT").price_key == "7"
    assert MISERE.price_key == "misere"


def test_ladder_order_and_misere_place():
    """RULES.md §1: 6♠ 6♣ 6♦ 6♥ 6NT 7♠ … ; the misère's rung is the preset's (Russian: above 8NT)."""
    russian = ladder("8NT")
    assert [str(c) for c in russian[:6]] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert russian.index(MISERE) == russian.index(parse_contract("8NT")) + 1
    assert russian[russian.index(MISERE) + 1] == parse_contract("9S")
    kitty = ladder("9NT")   # seed 000: misère is rank 21, after 9NT
    assert kitty.index(MISERE) == 20
    assert len(kitty) == 26


def test_calls():
    assert parse_call("pass").kind is CallKind.PASS
    assert parse_call("here").kind is CallKind.HERE
    assert parse_call("mine").kind is CallKind.HERE
    assert parse_call("6S") == Call(CallKind.BID, parse_contract("6S"))
    assert parse_call("misere").contract == MISERE
    dark = parse_call("dark 6S")
    assert dark.dark and str(dark) == "dark 6S"
    with pytest.raises(NotationError):
        parse_call("all-pass")
    with pytest.raises(NotationError):
        parse_call("double")


def test_decisions():
    assert parse_decision("whist") is Decision.WHIST
    assert parse_decision("half-whist") is Decision.HALF_WHIST
    assert parse_decision("pass") is Decision.PASS
    with pytest.raises(NotationError):
        parse_decision("maybe")


def test_quota_table():
    """RULES.md §1 obligations: 6 → 4 (both) / 2 (one), 7 → 2 / 1, 8-10 → 1."""
    six, seven, eight = parse_contract("6S"), parse_contract("7H"), parse_contract("8NT")
    assert (defenders_quota(six, True), defenders_quota(six, False)) == (4, 2)
    assert (defenders_quota(seven, True), defenders_quota(seven, False)) == (2, 1)
    assert (defenders_quota(eight, True), defenders_quota(eight, False)) == (1, 1)
    assert defenders_quota(MISERE, True) == 0


def test_format_cards_writes_each_card_as_it_prints_itself():
    """format_cards looks each card's text up (issue 18: convert writes 600,000 cards of a 10k
    full record); the text is the card's own, and anything else is printed as it prints itself."""
    assert format_cards(DECK) == " ".join(str(c) for c in DECK)
    assert format_cards([Card(Suit.H, Rank.TEN), Card(Suit.S, Rank.ACE)]) == "10H AS"
    assert format_cards([]) == ""
    assert format_cards([DECK[0], "7S", 3]) == f"{DECK[0]} 7S 3"


def test_the_cached_ladder_is_the_ladder_made_afresh():
    """ladder() is cached (every record asks for it): for every misère place and without-talon
    option the cached tuple equals the one made afresh, and is the same object each time."""
    made = 0
    for after in ("8NT", "9NT", "7NT", "10S", None):
        for without in ("no", "below-nine-without-talon", "above-nine-without-talon"):
            fresh = ladder.__wrapped__(after, without)
            assert ladder(after, without) == fresh and ladder(after, without) is ladder(after, without)
            made += 1
    assert made == 15
    with pytest.raises(NotationError):
        ladder("11NT")
    with pytest.raises(NotationError):
        ladder("11NT")          # an error is not cached: raised each time
