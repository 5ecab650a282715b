"""Rule checks of `validate` (issue 2 §5), each on a small hand-made record."""
import json

import pytest

from prefcli.io.parsing import parse_text
from prefcli.rules.checks import check_document

HEAD3 = "format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi, pool: 20}\n"
HEAD4 = "format: pref-record/1\nplayers: [Ann, Bob, Cid, Dan]\nrules: {variant: sochi, pool: 20}\n"


def problems(text):
    return check_document(parse_text("t.yaml", text, False))


def messages(text):
    return [p.message for p in problems(text)]


def test_valid_summary_record():
    assert problems(HEAD3 + """deals:
  - {contract: 6S, declarer: Bob, whist: {Cid: whist, Ann: whist}, tricks: {Bob: 6, Cid: 3, Ann: 1}}
  - {contract: 7H, declarer: Cid, whist: {Ann: pass, Bob: pass}}
  - {contract: misere, declarer: Ann, open: true, tricks: {Ann: 1, Bob: 5, Cid: 4}}
  - {contract: all-pass, tricks: {Ann: 2, Bob: 5, Cid: 3}}
  - adjust: {pool: {Ann: 2}, mountain: {Bob: -4}, whists: {Cid: {Ann: 10}}, note: agreed}
""") == []


def test_all_problems_of_a_file_are_reported_with_places():
    ps = problems(HEAD3 + """deals:
  - {contract: 6S, declarer: Bob, whist: {Cid: whist, Ann: whist}, tricks: {Bob: 6, Cid: 3, Ann: 2}}
  - {contract: 6S, declarer: Dan, whist: {Cid: whist, Ann: whist}, tricks: {Bob: 6, Cid: 3, Ann: 1}}
""")
    assert len(ps) == 2
    assert ps[0].line == 5 and "add up to 11" in ps[0].message
    assert ps[1].line == 6 and "'Dan' is not seated" in ps[1].message


def test_schema_problems_come_first_and_all_of_them():
    # six players: more than the format takes (2 to 5; two players were a schema error before the
    # format took the husar and five-player tables, and are now the preset's to refuse, below)
    ps = problems("format: pref-record/1\nplayers: [Ann, Bob, Cid, Dan, Eve, Fay]\nrules: {variant: sochi}\ndeals:\n"
                  "  - {contract: 6S, declarer: Bob, tricks: {Bob: -1}, colour: red}\n")
    kinds = {p.kind for p in ps}
    assert kinds == {"schema"}
    text = " | ".join(p.message for p in ps)
    assert "6 players" in text and "negative" in text and "unknown field 'colour'" in text


def test_a_count_the_format_takes_but_the_preset_does_not_is_a_rule_problem():
    ps = problems("format: pref-record/1\nplayers: [Ann, Bob]\nrules: {variant: sochi}\ndeals: []\n")
    from prefcli.model.records import counts_text
    from prefcli.rules.presets import get_preset
    sochi = get_preset("sochi").players
    if 2 not in sochi:
        assert [(p.kind, p.line, p.message) for p in ps] == [
            ("rule", 2, f"2 players listed; sochi is played by {counts_text(sochi)} players (two players play "
                        "the husar game with a dummy: variant sochi-husar or leningrad-husar or rostov-husar or "
                        "classic-husar)")]


def test_dealer_rotation():
    text = HEAD3 + """first_dealer: Bob
deals:
  - {dealer: Bob, contract: all-pass, tricks: {Ann: 2, Bob: 5, Cid: 3}}
  - {dealer: Ann, contract: all-pass, tricks: {Ann: 2, Bob: 5, Cid: 3}}
"""
    ms = messages(text)
    assert len(ms) == 1 and "should be Cid" in ms[0]


def test_same_dealer_after_all_pass_in_classic():
    """RUSSIAN-VARIANTS.md §5 [K 3.7.7]: in Classic the same dealer deals again after raspasy."""
    text = HEAD3.replace("sochi", "classic") + """deals:
  - {dealer: Ann, contract: all-pass, tricks: {Ann: 2, Bob: 5, Cid: 3}}
  - {dealer: Ann, contract: 7S, declarer: Bob, whist: {Cid: pass, Ann: pass}}
  - {dealer: Bob, contract: 7S, declarer: Cid, whist: {Ann: pass, Bob: pass}}
"""
    assert messages(text) == []


def test_four_players_dealer_sits_out():
    ms = messages(HEAD4 + """first_dealer: Ann
deals:
  - {contract: 6S, declarer: Ann, whist: {Cid: whist, Dan: whist}, tricks: {Ann: 6, Cid: 2, Dan: 2}}
  - {contract: 6S, declarer: Cid, whist: {Bob: whist, Dan: whist}, tricks: {Cid: 6, Bob: 2, Dan: 2}}
""")
    assert any("Ann deals and sits out" in m and "cannot declare" in m for m in ms)
    assert any("Bob deals and sits out" in m and "not a defender" in m for m in ms)
    assert sum("sits out" in m for m in ms) == 2


def test_four_player_all_pass_may_list_the_dealer():
    """RULES.md §2.2 / PRESETS.md: with 4 players the dealer may own talon-led all-pass tricks."""
    assert messages(HEAD4 + "first_dealer: Ann\ndeals:\n  - {contract: all-pass, tricks: {Ann: 1, Bob: 3, Cid: 3, Dan: 3}}\n") == []


def test_declarer_and_whisters():
    ms = messages(HEAD3 + "deals:\n  - {contract: 6S, declarer: Bob, whist: {Bob: whist, Cid: whist}, tricks: {Bob: 6, Cid: 3, Ann: 1}}\n")
    assert any("declarer and cannot also whist" in m for m in ms)
    ms = messages(HEAD3 + "deals:\n  - {contract: 6S, whist: {Ann: whist, Cid: whist}, tricks: {Bob: 6, Cid: 3, Ann: 1}}\n")
    assert any("needs a declarer" in m for m in ms)
    ms = messages(HEAD3 + "deals:\n  - {contract: all-pass, declarer: Ann, tricks: {Bob: 6, Cid: 3, Ann: 1}}\n")
    assert any("no declarer" in m for m in ms)


def test_half_whist_rules():
    """Кодекс 3.8.7 (RUSSIAN-VARIANTS.md §1.4): half-whist only on 6 and 7, by the second defender after a pass."""
    ok = HEAD3 + "deals:\n  - {contract: 6S, declarer: Ann, whist: {Bob: pass, Cid: half-whist}}\n"
    assert messages(ok) == []
    on8 = HEAD3 + "deals:\n  - {contract: 8S, declarer: Ann, whist: {Bob: pass, Cid: half-whist}}\n"
    assert any("only on 6 and 7" in m for m in messages(on8))
    first = HEAD3 + "deals:\n  - {contract: 6S, declarer: Ann, whist: {Bob: half-whist, Cid: pass}}\n"
    assert any("only the second defender (Cid)" in m for m in messages(first))
    after_whist = HEAD3 + "deals:\n  - {contract: 6S, declarer: Ann, whist: {Bob: whist, Cid: half-whist}}\n"
    assert any("only after Bob passed" in m for m in messages(after_whist))
    either = first.replace("pool: 20}", "pool: 20, half_whist_by: either}")
    assert messages(either) == []


def test_returned_half_whist():
    ok = HEAD3 + "deals:\n  - {contract: 6S, declarer: Ann, whist: {Bob: pass, Cid: half-whist}, return: Bob, tricks: {Ann: 6, Bob: 3, Cid: 1}}\n"
    assert messages(ok) == []
    bad = HEAD3 + "deals:\n  - {contract: 6S, declarer: Ann, whist: {Bob: pass, Cid: pass}, return: Bob}\n"
    assert any("nothing to return" in m for m in messages(bad))


def test_tricks_needed_when_played_and_complete():
    ms = messages(HEAD3 + "deals:\n  - {contract: 6S, declarer: Bob, whist: {Cid: whist, Ann: pass}}\n")
    assert any("tricks are needed" in m for m in ms)
    ms = messages(HEAD3 + "deals:\n  - {contract: 6S, declarer: Bob, whist: {Cid: whist, Ann: pass}, tricks: {Bob: 7, Cid: 3}}\n")
    assert any("no trick count for Ann" in m for m in ms)


def test_contract_not_below_bid():
    ms = messages(HEAD3 + "deals:\n  - {contract: 6S, bid: 6H, declarer: Bob, whist: {Cid: pass, Ann: pass}}\n")
    assert any("below the winning bid 6H" in m for m in ms)


def test_options_checked_against_preset():
    ms = messages(HEAD3.replace("pool: 20}", "pool: 20, whist_style: polite}") + "deals: []\n")
    assert any("whist_style" in m and "greedy" in m for m in ms)
    ms = messages(HEAD3.replace("pool: 20}", "pool: 20, colour: red}") + "deals: []\n")
    assert any("unknown option 'colour'" in m for m in ms)
    ms = messages(HEAD3.replace("pool: 20}", "pool: 20, allpass: {amnesty: maybe}}") + "deals: []\n")
    assert any("allpass.amnesty" in m for m in ms)


def test_full_deal_cards():
    base = HEAD3 + """deals:
  - dealer: Ann
    hands:
      Bob: AS KS QS JS 10S 9S AH KH 7D 7C
      Cid: [8S, 7S, QH, JH, 10H, 9H, AD, KD, QD, JD]
      Ann: 8H 7H 10D 9D 8D AC KC QC JC 10C
    talon: 9C 8C
    discard: 7D 7C
    contract: 7S
    declarer: Bob
    whist: {Cid: whist, Ann: pass}
    tricks: {Bob: 7, Cid: 2, Ann: 1}
"""
    assert messages(base) == []
    assert any("holds 9 cards" in m for m in messages(base.replace(" 7D 7C\n      Cid", " 7D\n      Cid")))
    assert any("neither in his hand nor in the talon" in m for m in messages(base.replace("discard: 7D 7C", "discard: 7D 8H")))
    assert any("talon holds 3 cards" in m for m in messages(base.replace("talon: 9C 8C", "talon: 9C 8C 7C")))


def test_sheet_validation():
    ok = "format: pref-sheet/1\nplayers: [A, B, C]\nrules: {variant: sochi}\npool: {A: 20, B: 20, C: 20}\n" \
         "mountain: {A: 4, B: 0, C: '10.5'}\nwhists: {A: {B: 10, C: '40/3'}}\n"
    assert problems(ok) == []
    bad = ok.replace("variant: sochi", "variant: nope")
    assert any("unknown variant" in p.message for p in problems(bad))


def test_json_record_is_checked_the_same():
    data = {"format": "pref-record/1", "players": ["Ann", "Bob", "Cid"], "rules": {"variant": "sochi"},
            "deals": [{"contract": "6S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "whist"},
                       "tricks": {"Bob": 6, "Cid": 3, "Ann": 2}}]}
    ps = check_document(parse_text("t.json", json.dumps(data, indent=1), True))
    assert len(ps) == 1 and ps[0].line is not None and "11" in ps[0].message


def test_lithuanian_general_egles_rotate_the_dealer():
    """Seed 002: the general eglės at the start are dealt by each player in turn; after a later
    all-pass (mandatory eglė) the same dealer deals again."""
    text = """format: pref-record/1
players: [N, E, S, W]
rules: {variant: lithuanian, pool: 120}
deals:
  - {dealer: N, contract: all-pass, tricks: {N: 0, E: 3, S: 3, W: 4}}
  - {dealer: E, contract: all-pass, tricks: {E: 0, N: 3, S: 3, W: 4}}
  - {dealer: S, contract: all-pass, tricks: {S: 0, N: 3, E: 3, W: 4}}
  - {dealer: W, contract: all-pass, tricks: {W: 0, N: 3, E: 3, S: 4}}
  - {dealer: N, contract: all-pass, tricks: {N: 0, E: 3, S: 3, W: 4}}
  - {dealer: N, contract: 6S, declarer: E, whist: {S: pass, W: pass}}
  - {dealer: E, contract: 6S, declarer: S, whist: {W: pass, N: pass}}
"""
    assert messages(text) == []
    assert any("should be N" in m for m in messages(text.replace("{dealer: N, contract: 6S", "{dealer: E, contract: 6S")))


def test_three_player_egle_talon_tricks_may_belong_to_nobody():
    """Seed 002: with 3 players a trick won by a talon card in an eglė belongs to nobody."""
    text = """format: pref-record/1
players: [N, E, S]
rules: {variant: lithuanian, pool: 150}
deals:
  - {contract: all-pass, tricks: {N: 3, E: 3, S: 2}}
"""
    assert messages(text) == []
    assert any("add up to 7" in m for m in messages(text.replace("S: 2", "S: 1")))
    sochi = text.replace("lithuanian, pool: 150", "sochi, pool: 20")
    assert any("add up to 8, not 10" in m for m in messages(sochi))


def test_tournament_files_are_checked():
    """settle's pref-tournament/1 files (bands, cap, floor) are checked by validate with settle's parser."""
    ok = "format: pref-tournament/1\nbands: [{above: 50, factor: '0.5'}]\nfloor: -65\n"
    assert problems(ok) == []
    bad = problems(ok.replace("floor: -65", "colour: red"))
    assert len(bad) == 1 and "unknown field 'colour'" in bad[0].message and bad[0].line == 3
