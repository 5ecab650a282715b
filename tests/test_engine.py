"""Rules engine: hand-made legal and illegal deals, one rule each, citing the seed or RULES.md.

Seeds: 000 (Lithuanian eglutė and kitty), 001 (Russian, Sochi), 002 (Lithuanian classical),
004 (Lithuanian translation of a Russian text). RULES.md sections are named as §n.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

import pytest

from prefcli.rules.engine import (Auction, IllegalPlay, RulesError, check_record, conventions, replay_deal,
                            replay_record)
from prefcli.model.cards import parse_call
from prefcli.rules.presets import resolve_rules

from conftest import BADINPUTS, needs_shared
from helpers import problems, rec as record

HANDS = {
    "Bob": "AS KS QS JS 10S 9S AH KH 7D 7C",
    "Cid": "8S 7S QH JH 10H 9H AD KD QD JD",
    "Ann": "8H 7H 10D 9D 8D AC KC QC JC 10C",
}
PLAY = ["AS 8S 8H", "KS 7S 7H", "QS 9H 10D", "JS JD 9D", "10S QD 8D", "9S KD JC",
        "AH 10H 10C", "KH JH QC", "9C AD AC", "KC 8C QH"]


def full_deal(**over: Any) -> Dict[str, Any]:
    """FORMAT.md's full deal, played out: Bob's 7♠, Cid whists, Ann passes (legal)."""
    d: Dict[str, Any] = {
        "dealer": "Ann", "hands": dict(HANDS), "talon": "9C 8C",
        "auction": ["6S", "pass", "6C", "here", "pass"], "discard": "7D 7C",
        "contract": "7S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "pass"},
        "play": list(PLAY), "tricks": {"Bob": 8, "Cid": 0, "Ann": 2},
    }
    for k, v in over.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def one(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    probs = problems(deals, variant, players, **rules)
    assert len(probs) == 1, probs
    return probs[0]


def clean(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    probs = problems(deals, variant, players, **rules)
    assert probs == [], [p.message for p in probs]


# ---------------------------------------------------------------------------------------------
# The shared bad input and the basic legal deal
# ---------------------------------------------------------------------------------------------

@needs_shared
def test_revoke_badinput_names_cid_qh_spades():
    from prefcli.io.documents import load_record
    rec, doc = load_record(str(BADINPUTS / "revoke.yaml"))
    probs = check_record(rec, resolve_rules(rec.rules))
    assert len(probs) == 1
    p = probs[0]
    assert p.path[:4] == ("deals", 0, "play", 1)
    assert p.path == ("deals", 0, "play", 1, 1)
    assert p.kind == "play"
    assert p.message == "deal 1, trick 2: Cid played QH but holds 7S and must follow spades"


def test_full_legal_deal_replays_clean_and_derives_tricks():
    clean([full_deal()])
    rec = record([full_deal()])
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.counts == {"Bob": 8, "Cid": 0, "Ann": 2}
    assert [t.winner for t in rep.tricks] == ["Bob"] * 8 + ["Ann"] * 2
    assert rep.tricks[0].leader == "Bob"
    assert rep.auction_result.winner == "Bob" and str(rep.auction_result.bid) == "6C"


def test_replay_deal_raises_typed_error():
    bad = full_deal(play=["AS 8S 8H", "KS QH 7H"] + PLAY[2:])
    rec = record([bad])
    with pytest.raises(IllegalPlay) as info:
        replay_deal(rec, rec.deals[0], resolve_rules(rec.rules), "Ann", raise_errors=True)
    assert isinstance(info.value, RulesError)
    assert info.value.path == ("deals", 0, "play", 1, 1)


# ---------------------------------------------------------------------------------------------
# Play (RULES.md §1; seed 001 l.126 "На ход в масть игрок обязан класть масть. Если масти нет, нужно
# бить козырем. Если нет ни масти, ни козыря, можно сносить любую карту.")
# ---------------------------------------------------------------------------------------------

def test_must_trump_when_void():
    # 7♣ (not below the winning 6♣): Ann has no spade and must trump with a club
    p = one([full_deal(contract="7C", play=["AS 8S 8H"], claim={"Bob": 9}, tricks=None)])
    assert p.path == ("deals", 0, "play", 0, 2)
    assert "Ann played 8H but, having no spades, must trump with" in p.message
    assert "AC" in p.message


def test_void_without_trump_may_discard_anything():
    # 7♠: Ann has neither spades nor trumps (spades are trumps) - any card
    clean([full_deal(play=["AS 8S 8H"], claim={"Bob": 7, "Ann": 2}, tricks=None)])


def test_card_not_held():
    p = one([full_deal(play=["AS 8S 9C"] + PLAY[1:])])
    assert p.message == "deal 1, trick 1: Ann played 9C, which Bob holds"
    assert p.path == ("deals", 0, "play", 0, 2)


def test_discarded_card_cannot_be_played():
    p = one([full_deal(play=["7D AD 8D"], claim={"Bob": 9}, tricks=None)])
    assert "Bob played 7D, which Bob discarded" in p.message


def test_card_already_played():
    p = one([full_deal(play=["AS 8S 8H", "AS 7S 7H"] + PLAY[2:])])
    assert p.message == "deal 1, trick 2: Bob played AS, which was already played in trick 1"


def test_first_hand_leads_whoever_declares():
    # seed 002 l.19: "Pirmą ėjimą visada daro Pirmasis"; seed 001: "Первый ход принадлежит игроку,
    # сидящему слева от сдатчика". Ann declares 6♣; Bob (first hand) still leads.
    deal = full_deal(auction=["pass", "pass", "6C"], declarer="Ann", contract="6C",
                     discard="8H 7H", whist={"Bob": "whist", "Cid": "whist"},
                     play=["AS 8S 8C"], claim={"Ann": 6, "Bob": 3}, tricks=None)
    clean([deal])
    rec = record([deal])
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.tricks[0].leader == "Bob" and rep.tricks[0].winner == "Ann"   # Ann trumps
    assert rep.counts == {"Bob": 3, "Cid": 0, "Ann": 7}


def test_winner_of_a_trick_leads_the_next():
    # trick 9 is Ann's (AC); trick 10 written as if Bob led is read from Ann: Ann "plays" 8C
    p = one([full_deal(play=PLAY[:9] + ["8C KC QH"])])
    assert "trick 10: Ann played 8C, which Bob holds" in p.message


def test_trick_with_wrong_number_of_cards():
    p = one([full_deal(play=["AS 8S"] + PLAY[1:])])
    assert p.path == ("deals", 0, "play", 0)
    assert "a trick here has 3" in p.message


def test_claim_shares_the_remaining_tricks():
    clean([full_deal(play=PLAY[:7], claim={"Bob": 1, "Ann": 2})])
    p = one([full_deal(play=PLAY[:7], claim={"Bob": 1, "Ann": 1}, tricks=None)])
    assert "remaining 3" in p.message and p.path == ("deals", 0, "claim")


def test_partial_play_without_claim():
    p = one([full_deal(play=PLAY[:7], tricks=None)])
    assert "stops after 7 tricks without a claim" in p.message


def test_claim_result_recorded():
    rec = record([full_deal(play=PLAY[:7], claim={"Bob": 1, "Ann": 2})])
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.claim == {"Bob": 1, "Ann": 2}
    assert rep.counts == {"Bob": 8, "Cid": 0, "Ann": 2}


def test_tricks_must_agree_with_play():
    # FORMAT.md: "When both play and tricks are given they must agree"
    p = one([full_deal(tricks={"Bob": 7, "Cid": 1, "Ann": 2})])
    assert p.path == ("deals", 0, "tricks")
    assert "the play gives Bob 8, Cid 0, Ann 2" in p.message


def test_play_on_an_unplayed_deal():
    # both defenders passed: "scored as made, no play" (FORMAT.md)
    p = one([full_deal(whist={"Cid": "pass", "Ann": "pass"}, tricks=None)])
    assert "not played" in p.message


def test_misere_played_without_trump():
    # misère (RULES.md §1: declarer takes no trick); no trump: Ann may discard on a spade lead
    deal = full_deal(auction=["misere", "pass", "pass"], contract="misere", whist=None,
                     play=["AS 8S 8H"], claim={"Ann": 3, "Cid": 6}, tricks=None, open=True)
    deal["claim"] = {"Cid": 4, "Ann": 5}
    clean([deal])


def test_misere_no_trump_lets_void_player_discard():
    # same misère, Ann on a spade lead discards a club: legal because there is no trump
    deal = full_deal(auction=["misere", "pass", "pass"], contract="misere", whist=None,
                     play=["AS 8S AC"], claim={"Cid": 4, "Ann": 5}, tricks=None)
    clean([deal])


# ---------------------------------------------------------------------------------------------
# Auction, Russian (seed 001, RULES.md §2.1, Кодекс via RUSSIAN-VARIANTS.md §1.1)
# ---------------------------------------------------------------------------------------------

def auction_only(calls, contract="6S", declarer: Optional[str] = "Bob", **extra):
    d = {"dealer": "Ann", "auction": calls, "contract": contract}
    if declarer:
        d["declarer"] = declarer
        order = ["Bob", "Cid", "Ann"]
        i = order.index(declarer)
        d["whist"] = {order[(i + 1) % 3]: "pass", order[(i + 2) % 3]: "pass"}
    for k, v in extra.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def test_auction_format_example_is_legal():
    clean([auction_only(["6S", "pass", "6C", "here", "pass"], contract="7S")])


def test_here_only_by_first_hand():
    # seed 001 l.100: "игрок, находящийся на первой руке, может не увеличивать назначение, а сказать «здесь»"
    p = one([auction_only(["6S", "6C", "pass", "pass", "here"], contract="6C", declarer="Cid")])
    assert p.path[:3] == ("deals", 0, "auction")
    p = one([auction_only(["pass", "6S", "here"], contract="6S", declarer="Cid")])
    assert p.path == ("deals", 0, "auction", 2)
    assert "only the first hand (Bob) may say here" in p.message


def test_here_any_player_option():
    clean([auction_only(["pass", "6S", "here", "pass"], contract="6S", declarer="Ann")],
          here_rule="any")


def test_bid_must_rise():
    p = one([auction_only(["6C", "6S"], contract="6S")])
    assert p.path == ("deals", 0, "auction", 1)
    assert "Cid bid 6S but 6S is not higher than the current bid 6C" in p.message


def test_passer_is_out_and_auction_ends():
    # seed 004 l.186: "Nenorintis ... žaidėjas sako „pass“ ir jam atimama teisė ... dalyvauti tolesnėje prekyboje"
    p = one([auction_only(["6S", "pass", "6C", "pass", "7S"], contract="6C", declarer="Ann")])
    assert "the auction was over" in p.message and p.path == ("deals", 0, "auction", 4)


def test_auction_not_finished():
    p = one([auction_only(["6S", "6C"], contract="6C", declarer="Cid")])
    assert "not finished" in p.message and "Ann is still to call" in p.message


def test_all_pass_auction_means_all_pass_deal():
    p = one([auction_only(["pass", "pass", "pass"], contract="6S")])
    assert "everyone passed" in p.message
    clean([auction_only(["pass", "pass", "pass"], contract="all-pass", declarer=None,
                        tricks={"Ann": 3, "Bob": 3, "Cid": 4})])


def test_winner_is_the_declarer():
    p = one([auction_only(["6S", "pass", "pass"], contract="6S", declarer="Cid",
                          whist={"Ann": "pass", "Bob": "pass"})])
    assert "Bob won the auction with 6S, yet the declarer is Cid" in p.message


def test_kabalny_misere_only_as_first_call():
    # seed 001 l.99: "Исключение составляет игра мизер, которую можно заказать только сразу
    # (правило называется кабальный мизер)"; seed 004 l.184 "Mizeris pavergtas"
    p = one([auction_only(["6S", "pass", "6C", "misere"], contract="misere", declarer="Bob",
                          whist=None)])
    assert "misère may only be a player's first call" in p.message
    assert p.path == ("deals", 0, "auction", 3)
    clean([auction_only(["6S", "misere", "pass", "pass"], contract="misere", declarer="Cid",
                        whist=None, tricks={"Cid": 0, "Ann": 5, "Bob": 5})])


def test_misere_beaten_by_nine_not_eight():
    # RUSSIAN-VARIANTS §1.1: "Only a 9 outbids a misère [K 3.6.4]"; misère sits above 8NT
    p = one([auction_only(["misere", "8NT"], contract="8NT", declarer="Cid")])
    assert "not higher than the current bid misere" in p.message
    clean([auction_only(["misere", "9S", "pass", "pass"], contract="9S", declarer="Cid",
                        whist={"Ann": "pass", "Bob": "pass"})])


def test_misere_beaten_by_ten_option():
    # seed 001 l.146: options "чем перебивается мизер: 9-ю с прикупом, или 9-ю без прикупа, или 10-ю"
    p = one([auction_only(["misere", "9S"], contract="9S", declarer="Cid")], misere_beaten_by="10")
    assert "only a 10 beats a misère" in p.message


def test_misere_binds_the_contract():
    p = one([auction_only(["misere", "pass", "pass"], contract="9S", declarer="Bob")])
    assert "must play it" in p.message


def test_misere_not_named_after_talon_in_russian():
    p = one([auction_only(["6S", "pass", "pass"], contract="misere", declarer="Bob", whist=None)])
    assert "cannot name misère after the talon" in p.message


def test_jumps_option():
    # seed 001 l.100 "не прыгая через ступеньки" and seed 004 l.182 (bid_jumps: no) vs a club
    # that allows jumps (bid_jumps: yes, set explicitly)
    clean([auction_only(["6S", "7H", "pass", "pass"], contract="7H", declarer="Cid")], bid_jumps=True)
    p = one([auction_only(["6S", "7H", "pass", "pass"], contract="7H", declarer="Cid")], bid_jumps=False)
    assert "one rung at a time" in p.message and "the next bid after 6S is 6C" in p.message
    # a (kabal'ny) misère is declared straight away, not climbed to
    clean([auction_only(["6S", "misere", "pass", "pass"], contract="misere", declarer="Cid", whist=None,
                        tricks={"Cid": 0, "Ann": 5, "Bob": 5})], bid_jumps=False)


def test_contract_not_below_winning_bid():
    # seed 001 l.99: "может назначить ту игру, до которой он доторговался, или любую другую, которая
    # находится на воображаемой лестнице выше"
    p = one([auction_only(["6S", "pass", "6C", "here", "pass"], contract="6S")])
    assert "the contract 6S is below the winning bid 6C" in p.message


def test_dark_calls_only_where_the_preset_has_them():
    p = one([auction_only(["dark 6S", "pass", "pass"], contract="6S")])
    assert "dark calls are not played" in p.message
    clean([auction_only(["dark 6S", "pass", "pass"], contract="7S", dark=True)], variant="classic")


def test_discard_from_hand_and_talon():
    p = one([full_deal(discard="AD 7C")])
    assert "Bob discarded AD, which is neither in his hand nor in the talon" in p.message


# ---------------------------------------------------------------------------------------------
# All-pass exit levels (allpass.exit; RUSSIAN-VARIANTS §1.6 "«Не ниже семерной» existed in Classic")
# ---------------------------------------------------------------------------------------------

ALLPASS = {"contract": "all-pass", "tricks": {"Ann": 3, "Bob": 3, "Cid": 4}}


def test_exit_level_after_all_pass_classic():
    p = one([ALLPASS, {"contract": "6S", "declarer": "Cid", "whist": {"Ann": "pass", "Bob": "pass"}}],
            variant="classic")
    assert p.path == ("deals", 1, "contract")
    assert "at least 7" in p.message
    clean([ALLPASS, {"contract": "7S", "declarer": "Cid", "whist": {"Ann": "pass", "Bob": "pass"}}],
          variant="classic")
    # Sochi: exit with a 6 ([6, 6, 6])
    clean([ALLPASS, {"contract": "6S", "declarer": "Cid", "whist": {"Ann": "pass", "Bob": "pass"}}])


def test_exit_levels_rise_with_consecutive_all_passes():
    # seed 001 l.151: "выход из распасовки шестерной игрой (иногда – семерной, а из двойной распасовки –
    # восьмерной, из тройной – девятерной)"
    deals = [ALLPASS, ALLPASS, {"contract": "7S", "declarer": "Cid", "whist": {"Ann": "pass", "Bob": "pass"}}]
    p = one(deals, **{"allpass": {"exit": [7, 8, 9]}})
    assert "at least 8" in p.message


def test_exit_level_checked_in_auction():
    deals = [ALLPASS, {"auction": ["6S", "pass", "pass"], "contract": "7S", "declarer": "Cid",
                       "whist": {"Ann": "pass", "Bob": "pass"}}]
    p = one(deals, variant="classic")
    assert p.path == ("deals", 1, "auction", 0)
    assert "at least 7" in p.message


# ---------------------------------------------------------------------------------------------
# Whisting (seed 001 §4, RULES.md §2.1, §3.2)
# ---------------------------------------------------------------------------------------------

def whist_deal(contract="6S", **extra):
    """Bob wins the auction with `contract` (Ann deals, Bob is first hand)."""
    d = {"dealer": "Ann", "auction": [contract, "pass", "pass"], "contract": contract, "declarer": "Bob"}
    d.update(extra)
    return d


def test_half_whist_legal_and_not_played():
    # seed 001 l.106: "Если сидящий следующим за играющим сказал «пас», то второй может «уйти за полвиста»"
    clean([whist_deal(whist={"Cid": "pass", "Ann": "half-whist"})])


def test_half_whist_only_on_6_and_7():
    # seed 001 l.107: "Это правило действует только для игр 6 и 7"
    p = one([whist_deal("8S", whist={"Cid": "pass", "Ann": "half-whist"})])
    assert "only" in p.message and "6" in p.message and "7" in p.message


def test_half_whist_by_second_defender_only():
    p = one([whist_deal(whist={"Cid": "half-whist", "Ann": "pass"})])
    assert "second defender" in p.message


def test_returned_half_whist_is_played():
    # seed 001 l.107: "После того, как второй сказал «полвиста», первый имеет право вернуть вист"
    clean([whist_deal(whist={"Cid": "pass", "Ann": "half-whist"}, **{"return": "Cid"},
                      tricks={"Bob": 6, "Cid": 3, "Ann": 1})])
    p = one([whist_deal(whist={"Cid": "pass", "Ann": "half-whist"}, **{"return": "Bob"})])
    assert "return" in p.message


def test_stalingrad_option():
    # seed 001 l.145: "шесть пик – обязательная для вистования игра ... «сталинградом»"
    p = one([whist_deal("6S", whist={"Cid": "whist", "Ann": "pass"}, tricks={"Bob": 6, "Cid": 3, "Ann": 1})],
            stalingrad=True)
    assert "stalingrad" in p.message


def test_open_defence_needs_one_whister():
    # seed 001 l.106: "Если завистовали оба противника играющего, игра происходит втёмную"
    deal = full_deal(whist={"Cid": "whist", "Ann": "whist"}, open=True)
    p = one([deal])
    assert "open" in p.message


def test_engine_whist_checks_in_a_full_deal():
    # the engine checks whists itself in full deals too (validate may or may not)
    rec = record([full_deal(whist={"Cid": "half-whist", "Ann": "pass"}, play=None, tricks=None)])
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.problems and "second defender" in rep.problems[0].message


# ---------------------------------------------------------------------------------------------
# All-pass play: the talon (allpass.talon; seed 004, RULES.md §2.2 and §3.1)
# ---------------------------------------------------------------------------------------------

AP_HANDS = {
    "Bob": "AS 10S 8S AC 10C 8C AD 10D 8D AH",
    "Cid": "KS 9S 7S KC 9C 7C KD 9D 7D KH",
    "Ann": "QS JS QC JC QD JD QH JH 10H 9H",
}


def allpass_deal(play, talon="8H 7H", **extra):
    d = {"dealer": "Ann", "hands": dict(AP_HANDS), "talon": talon, "auction": ["pass", "pass", "pass"],
         "contract": "all-pass", "play": play}
    d.update(extra)
    return d


def test_allpass_3p_talon_names_suit_and_never_wins():
    # seed 004 l.86: "žaidžiant su trimis žaidėjais, traukimo korta rodo tik triuko kostiumą, tačiau į ją
    # neatsižvelgiama nustatant aukščiausią kortą"; "žaidėjas, esantis pirmoje rankoje, eina toliau"
    deal = allpass_deal(["8H AH KH 9H", "7H 8S 7S 10H", "AS KS QS"], claim={"Bob": 2, "Cid": 2, "Ann": 3})
    clean([deal])
    rec = record([deal])
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.tricks[0].winner == "Bob"           # AH beats the talon's 8H, which never wins
    assert rep.tricks[1].winner == "Ann"           # Ann's 10H; Bob and Cid were void
    assert rep.tricks[2].leader == "Bob"           # the first hand leads the third trick
    assert rep.tricks[0].cards[0] == (None, rec.deals[0].talon[0])


def test_allpass_talon_suit_must_be_followed():
    p = one([allpass_deal(["8H 8S KH 9H", "7H 10S 7S 10H", "AS KS QS"],
                          claim={"Bob": 2, "Cid": 2, "Ann": 3})])
    assert p.message == "deal 1, trick 1: Bob played 8S but holds AH and must follow hearts"
    assert p.path == ("deals", 0, "play", 0, 1)


def test_allpass_talon_card_may_be_implicit():
    # the three players' cards only: the talon card is understood to lead
    clean([allpass_deal(["AH KH 9H", "8S 7S 10H", "AS KS QS"], claim={"Bob": 2, "Cid": 2, "Ann": 3})])


def test_allpass_unused_talon_rostov():
    # RUSSIAN-VARIANTS §1.6: "Rostov: the talon is not used at all"
    clean([allpass_deal(["AS KS QS", "AC KC QC"], claim={"Bob": 2, "Cid": 3, "Ann": 3})], variant="rostov")
    p = one([allpass_deal(["8H AH KH 9H"], claim={"Bob": 2, "Cid": 3, "Ann": 4})], variant="rostov")
    assert "trick" in p.message


FOUR = ("Ann", "Bob", "Cid", "Dan")
AP4_HANDS = {
    "Bob": "AS 10S 8S AC 10C 8C AD 10D 8D KH",
    "Cid": "KS 9S 7S KC 9C 7C KD 9D 7D 7H",
    "Dan": "QS JS QC JC QD JD QH JH 10H 9H",
}


def test_allpass_4p_dealer_plays_talon_and_may_win():
    # RUSSIAN-VARIANTS §1.6 [K 3.7.6]: "4 players: the dealer leads from the talon and the highest
    # card of the suit wins, so the dealer can take tricks"
    deal = {"dealer": "Ann", "hands": dict(AP4_HANDS), "talon": "AH 8H", "auction": ["pass", "pass", "pass"],
            "contract": "all-pass", "play": ["AH KH 7H 9H", "8H 8S 9S 10H"],
            "claim": {"Bob": 3, "Cid": 2, "Dan": 3}}
    clean([deal], players=FOUR)
    rec = record([deal], players=FOUR)
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.tricks[0].winner == "Ann" and rep.tricks[0].cards[0][0] == "Ann"
    assert rep.tricks[1].winner == "Dan"
    assert rep.counts["Ann"] == 1


def test_lithuanian_3p_talon_tricks_belong_to_nobody():
    # seed 002 l.47: "Jeigu žaidžiama trise, kirčiai, kuriuos paima pirkinio kortos, neatitenka niekam"
    deal = allpass_deal(["AH KH 7D 9H", "8H 8S 7S 10H", "AS KS QS"], talon="AH 8H",
                        claim={"Bob": 2, "Cid": 2, "Ann": 3})
    deal["hands"] = {"Bob": "KH 10S 8S AC 10C 8C AD 10D 8D AS",
                     "Cid": "KS 9S 7S KC 9C 7C KD 9D 7D 7H",
                     "Ann": "QS JS QC JC QD JD QH JH 10H 9H"}
    deal["play"] = ["AH KH 7H 9H", "8H 8S 7S 10H", "AS KS QS"]
    deal.pop("auction")
    rec = record([deal], variant="lithuanian")
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.problems == []
    assert rep.tricks[0].winner is None      # the talon's ace took it: nobody's
    assert rep.tricks[1].winner == "Ann"
    assert sum(rep.counts.values()) == 9


# ---------------------------------------------------------------------------------------------
# Lithuanian classical auction (seed 002)
# ---------------------------------------------------------------------------------------------

def test_lithuanian_jumps_and_mine():
    # seed 002 l.79: "skelbti galutinį žaidimą aukštesnės spalvos toje pačioje kategorijoje arba bet kurios
    # spalvos aukštesnėje kategorijoje"; "pradėjęs varžymąsi žaidėjas ... turi teisę pakartoti
    # paskutinįjį varžovo skelbimą, sakydamas „Mano!“"
    clean([auction_only(["6C", "7D", "pass", "mine", "pass"], contract="7D", declarer="Bob")],
          variant="lithuanian")
    p = one([auction_only(["6C", "7D", "mine"], contract="7D", declarer="Ann")], variant="lithuanian")
    assert "only the first hand (Bob)" in p.message


def test_lithuanian_misere_beaten_only_by_ten():
    # seed 002 l.153: "Jeigu mizeris skelbiamas varžymosi metu, už tokį skelbimą aukštesnis yra tik dešimtos
    # kategorijos skelbimas – totusas"
    p = one([auction_only(["misere", "9NT"], contract="9NT", declarer="Cid")], variant="lithuanian")
    assert "not higher than the current bid misere" in p.message
    clean([auction_only(["misere", "10S", "pass", "pass"], contract="10S", declarer="Cid",
                        whist={"Ann": "pass", "Bob": "pass"})], variant="lithuanian")


def test_lithuanian_misere_named_after_talon():
    # seed 002 l.153: "Mizerį galima skelbti iškart arba vėliau, laimėjus varžymąsi ir paėmus pirkinį"
    clean([auction_only(["6S", "pass", "pass"], contract="misere", declarer="Bob", whist=None,
                        tricks={"Bob": 0, "Cid": 5, "Ann": 5})], variant="lithuanian")


def test_lithuanian_bomb_seven_or_more():
    # seed 002 l.297: "Ją skelbti gali tik žaidėjas, turintis Pirmojo teises ... tapti žaidžiančiuoju galima
    # tik paskelbus septynis kirčius ar daugiau"
    p = one([auction_only(["6S", "pass", "pass"], contract="7S", bomb="Bob")], variant="lithuanian")
    assert "after a bomb only 7 or more may be bid" in p.message
    clean([auction_only(["7S", "pass", "pass"], contract="7S", bomb="Bob")], variant="lithuanian")
    p = one([auction_only(["7S", "pass", "pass"], contract="7S", bomb="Cid")], variant="lithuanian")
    assert "only the first hand (Bob) may call a bomb" in p.message
    p = one([auction_only(["7S", "pass", "pass"], contract="7S", bomb="Bob")])
    assert "no bomb" in p.message


def test_lithuanian_takeover_from_both_hands():
    # seed 002 l.97: "vistuoti atsisakęs žaidėjas turi teisę perimti vistavimą"; the 4-player dealer
    # "gali vistuoti ir tuo atveju, kai apskritai niekas nenori vistuoti"
    clean([whist_deal("6D", whist={"Cid": "pass", "Ann": "whist"}, takeover="Cid",
                      tricks={"Bob": 6, "Cid": 4, "Ann": 0})], variant="lithuanian")
    p = one([whist_deal("6D", whist={"Cid": "pass", "Ann": "whist"}, takeover="Cid",
                        tricks={"Bob": 6, "Cid": 4, "Ann": 0})])
    assert "take-over" in p.message
    deal = {"contract": "6D", "declarer": "Bob", "dealer": "Ann", "auction": ["6D", "pass", "pass"],
            "whist": {"Cid": "pass", "Dan": "pass"},
            "takeover": "Ann", "tricks": {"Bob": 6, "Cid": 2, "Dan": 2}}
    clean([deal], variant="lithuanian", players=FOUR)
    p = one([dict(deal, takeover="Bob")], variant="lithuanian", players=FOUR)
    assert "cannot take over" in p.message


# ---------------------------------------------------------------------------------------------
# Lithuanian kitty auction (seed 000): strictly one rung, 6♠ opening, the contest order
# ---------------------------------------------------------------------------------------------

KITTY_OK = ["6S", "6C", "mine", "6D", "pass", "6H", "mine", "pass"]


def test_kitty_contest_order_legal():
    # seed 000 l.77: A "gali skelbti tik žemiausio rango žaidimą - šeši pikai - arba pas"; B "vienu rangu
    # aukštesnį"; A "mano" or "pas"; "Tada į varžybas stoja trečiasis žaidėjas C, kuris gali pasuoti
    # arba skelbti vienu rangu aukštesnį žaidimą už A ir B varžybų laimėtoją"
    clean([auction_only(KITTY_OK, contract="6H", declarer="Cid", whist={"Ann": "pass", "Bob": "pass"})],
          variant="lithuanian-kitty")
    rec = record([auction_only(KITTY_OK, contract="6H", declarer="Cid", whist={"Ann": "pass", "Bob": "pass"})],
                 variant="lithuanian-kitty")
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert [s.player for s in rep.auction] == ["Bob", "Cid", "Bob", "Cid", "Bob", "Ann", "Cid", "Ann"]


@pytest.mark.parametrize("calls, index, words", [
    (["6C"], 0, "may only be opened with 6S"),
    (["6S", "6D"], 1, "one rung at a time"),
    (["6S", "6C", "6D"], 2, "senior of this contest"),
    (["6S", "6C", "pass", "here"], 3, "only Cid, the senior"),
    (["6S", "pass", "6D"], 2, "one rung at a time"),
])
def test_kitty_illegal_calls(calls, index, words):
    p = one([auction_only(calls, contract="6H", declarer="Cid")], variant="lithuanian-kitty")
    assert p.path == ("deals", 0, "auction", index)
    assert words in p.message


def test_kitty_all_pass_and_lone_third_hand():
    # seed 000 l.79: "Tuo atveju, kai visi trys žaidėjai pasuoja, žaidžiamas dar vienas neeilinis eglutės žaidimas"
    clean([auction_only(["pass", "pass", "pass"], contract="all-pass", declarer=None,
                        tricks={"Ann": 3, "Bob": 3, "Cid": 4})], variant="lithuanian-kitty")
    clean([auction_only(["pass", "pass", "6S"], contract="6S", declarer="Ann",
                        whist={"Bob": "pass", "Cid": "pass"})], variant="lithuanian-kitty")


def test_kitty_auction_machine_legal_calls():
    conv = conventions(resolve_rules({"variant": "lithuanian-kitty"}))
    a = Auction(conv, ["A", "B", "C"])
    assert [str(c) for c in a.legal_calls()] == ["pass", "6S"]
    a.apply(parse_call("6S"))
    assert [str(c) for c in a.legal_calls()] == ["pass", "6C"]
    a.apply(parse_call("6C"))
    assert [str(c) for c in a.legal_calls()] == ["pass", "here"]


# ---------------------------------------------------------------------------------------------
# Robustness: check_record never raises on malformed deals
# ---------------------------------------------------------------------------------------------

def test_check_record_skips_malformed_full_deals():
    bad = full_deal()
    bad["hands"] = {"Bob": "AS KS", "Cid": "8S", "Ann": "8H"}
    assert problems([bad]) == []          # card counts are validate's to report
    bad2 = full_deal()
    bad2["hands"] = dict(HANDS, Zed="7D")
    problems([bad2])                       # no exception


def test_dealer_of_four_sits_out_of_the_play():
    # RULES.md §1: "With 4 the dealer takes no part in the deal's play"
    deal = full_deal()
    deal["hands"] = {"Bob": HANDS["Bob"], "Cid": HANDS["Cid"], "Dan": HANDS["Ann"]}
    deal["whist"] = {"Cid": "whist", "Dan": "pass"}
    deal["tricks"] = {"Bob": 8, "Cid": 0, "Dan": 2}
    clean([deal], players=FOUR)


# ---------------------------------------------------------------------------------------------
# Dark bids, playing alone, a 9 without the talon
# ---------------------------------------------------------------------------------------------

def test_dark_won_contract_defence_lithuanian():
    # seed 002 l.147: "Vistuojantieji negali žaisti atviromis kortomis, o jei žaidžiantysis žaidžia šeštoje
    # kategorijoje, jie abu privalo vistuoti"
    p = one([auction_only(["dark 6S", "pass", "pass"], contract="6S", dark=True,
                          whist={"Cid": "pass", "Ann": "whist"}, tricks={"Bob": 6, "Cid": 2, "Ann": 2})],
            variant="lithuanian")
    assert "won in the dark must be whisted by both" in p.message
    p = one([auction_only(["dark 6S", "pass", "pass"], contract="7S", dark=True, open=True,
                          whist={"Cid": "pass", "Ann": "whist"}, tricks={"Bob": 7, "Cid": 2, "Ann": 1})],
            variant="lithuanian")
    assert "may not play open" in p.message
    # the kitty game (seed 000) has no dark bidding
    p = one([auction_only(["dark 6S", "pass", "pass"], contract="6S")], variant="lithuanian-kitty")
    assert "dark calls are not played" in p.message


def test_lone_whister_plays_alone_with_two_cards_a_trick():
    # seed 000 l.89: "Vienas! ... Pasavęs varžovas padeda užverstas kortas ir žaidime nedalyvauja"
    deal = full_deal(auction=["6S", "pass", "6C", "mine", "pass"], play=["AS 8S", "KS 7S"],
                     claim={"Bob": 6, "Cid": 2}, tricks=None)
    clean([deal], variant="lithuanian")
    rec = record([deal], variant="lithuanian")
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.counts == {"Bob": 8, "Cid": 2, "Ann": 0}
    p = one([deal])          # Sochi: the passer's cards stay in play (three a trick)
    assert "a trick here has 3" in p.message


def test_nine_over_misere_without_talon():
    # seed 001 options: "чем перебивается мизер: 9-ю с прикупом, или 9-ю без прикупа, или 10-ю"
    calls = ["misere", "9S", "pass", "pass"]
    base = dict(contract="9S", declarer="Cid", whist={"Ann": "pass", "Bob": "pass"}, talon="9C 8C")
    clean([auction_only(calls, **base, discard="9C 8C")], misere_beaten_by="9-without-talon")
    p = one([auction_only(calls, **base, discard="8S 7S")], misere_beaten_by="9-without-talon")
    assert "without the talon" in p.message
    clean([auction_only(calls, **base, discard="8S 7S")])


def test_lithuanian_general_egle_4p_talon_tricks_are_the_dealers():
    # seed 002: "Jeigu kuri nors šių kortų ima kirtį, dalijantysis užsirašo atitinkamą vištų sumą";
    # a general eglė has no auction
    deal = {"dealer": "Ann", "hands": dict(AP4_HANDS), "talon": "AH 8H", "contract": "all-pass",
            "play": ["AH KH 7H 9H", "8H 8S 9S 10H"], "claim": {"Bob": 3, "Cid": 2, "Dan": 3}}
    rec = record([deal], variant="lithuanian", players=FOUR)
    rep = replay_record(rec, resolve_rules(rec.rules))[0]
    assert rep.problems == []
    assert rep.counts == {"Bob": 3, "Cid": 2, "Dan": 4, "Ann": 1}


def test_four_player_dealer_may_return_a_half_whist():
    # seed 001: "При игре вчетвером право вернуть вист принадлежит также и сдатчику ... в последнюю очередь"
    deal = {"dealer": "Ann", "auction": ["6S", "pass", "pass"], "contract": "6S", "declarer": "Bob",
            "whist": {"Cid": "pass", "Dan": "half-whist"}, "return": "Ann",
            "tricks": {"Bob": 6, "Cid": 2, "Dan": 2}}
    clean([deal], players=FOUR)
    p = one([dict(deal, **{"return": "Dan"})], players=FOUR)
    assert "only Cid or Ann may return Dan's half-whist" in p.message


def test_no_whist_decisions_written_means_unknown_not_passed():
    # a full deal may leave the whist decisions out; its play is still checked
    clean([full_deal(whist=None)])
    p = one([full_deal(whist=None, play=["AS 8S 9C"] + PLAY[1:])])
    assert "which Bob holds" in p.message
