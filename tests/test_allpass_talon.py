"""The talon in an all-pass at every table size (``allpass.talon``): its option texts say what it
does with 2, 3, 4 and 5 players, and a trick a talon card takes when nobody sits out (seed 002:
"with 3 players such tricks belong to nobody") is scored, not refused, by every family."""
from __future__ import annotations

import pytest

from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.rules.presets import get_preset, preset_names
from prefcli.scoring import score


def _record(players, rules, tricks):
    return record_from_data({"format": "pref-record/1", "players": players, "rules": rules,
                             "deals": [{"contract": "all-pass", "tricks": tricks}]}, strict=True)


@pytest.mark.parametrize("variant", preset_names())
def test_the_option_text_names_every_table_size(variant):
    opt = get_preset(variant).family.option("allpass.talon")
    text = opt.meaning
    assert "4 or 5" in text and ("2 or 3" in text or "with 3" in text), text
    assert "3 players lead-suit, 4 players dealer-plays" not in text


def _mountain(record):
    result = score(record)
    return {e.player: e.amount for e in result.ledger.entries if e.area == "mountain"}


def test_three_players_dealer_plays_the_talon_tricks_are_nobodys():
    """Seed 002 (via the Lithuanian text of allpass.talon): the two talon-led tricks a talon card
    takes belong to nobody with three players: 3 + 3 + 2 of 10, amnesty 2 (Кодекс 3.7.3)."""
    rec = _record(["A", "B", "C"], {"variant": "sochi", "allpass": {"talon": "dealer-plays"}},
                  {"A": 3, "B": 3, "C": 2})
    assert check_record(rec) == []
    assert _mountain(rec) == {"A": 1, "B": 1}
    # lead-suit (by-seats with 3): the players take all ten, so 8 is refused
    rec = _record(["A", "B", "C"], {"variant": "sochi"}, {"A": 3, "B": 3, "C": 2})
    msgs = [p.message for p in check_record(rec)]
    assert msgs == ["deal 1: the tricks add up to 8, not 10 (A 3, B 3, C 2)"]


def test_two_players_with_the_talon_agreed_dealer_plays():
    """HUSAR.md H15 (husar.allpass_talon = as-preset, K fn48) with allpass.talon = dealer-plays:
    nobody sits out at two, so a trick a talon card takes is nobody's: Anna 3, Boris 5."""
    rec = _record(["Anna", "Boris"], {"variant": "sochi-husar", "husar": {"allpass_talon": "as-preset"},
                                      "allpass": {"talon": "dealer-plays"}}, {"Anna": 3, "Boris": 5})
    assert check_record(rec) == []
    assert _mountain(rec) == {"Boris": 2}
    # closed (the default, K 3.7.6.4): the talon is not used, the players take all ten
    rec = _record(["Anna", "Boris"], {"variant": "sochi-husar", "allpass": {"talon": "dealer-plays"}},
                  {"Anna": 3, "Boris": 5})
    assert [p.message for p in check_record(rec)] == ["deal 1: the tricks add up to 8, not 10 (Anna 3, Boris 5)"]
