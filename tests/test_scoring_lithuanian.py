"""The Lithuanian classical game "kleboniškasis" (seed 002, RULES.md §3): scorer tests.

Every worked example of seed 002 is here, each quoting the sentence it checks. Seats are
N, E, S, W clockwise as in the seed; "left" is the next seat clockwise.
"""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from prefcli.model.cards import parse_cards, parse_contract
from prefcli.model.records import Deal
from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules
from prefcli.scoring import ScoringError, score
from prefcli.scoring.lithuanian import _dealer_writes, _Game
from prefcli.scoring.lt_common import Defence, Outcome, talon_tricks, write_defence

NESW = ["N", "E", "S", "W"]


def rec(deals, players=NESW, first_dealer=None, start=None, end=None, **rules):
    data = {"format": "pref-record/1", "players": list(players),
            "rules": {"variant": "lithuanian", **rules}, "deals": deals}
    if first_dealer:
        data["first_dealer"] = first_dealer
    elif len(players) > 3 and not any("dealer" in d for d in deals[:1]):
        data["first_dealer"] = players[0]     # with a seat sitting out it is written, never guessed
    if start is not None:
        data["start"] = start
    if end is not None:
        data["end"] = end
    return record_from_data(data, strict=True)


def sheet_of(deals, **kw):
    return score(rec(deals, **kw)).sheet()


def plain(d):
    return {k: (int(v) if F(v).denominator == 1 else v) for k, v in d.items()}


def whists(sheet):
    return {w: {on: int(v) if F(v).denominator == 1 else v for on, v in row.items() if v}
            for w, row in sheet.whists.items() if any(row.values())}


NO_EGLES = {"general_egles": 0, "egles": 0}


# ---------------------------------------------------------------------------------------------
# Start of the game
# ---------------------------------------------------------------------------------------------

def test_start_half_the_target_in_hens():
    # seed 002 l.33: "kiekvienas žaidėjas ... užsirašo sumą, lygią pusei rombe įrašytos sumos, mūsų
    # atveju – po 60"
    s = sheet_of([])
    assert plain(s.mountain) == {"N": 60, "E": 60, "S": 60, "W": 60}
    s = sheet_of([], pool=150, players=["N", "E", "S"])
    assert plain(s.mountain) == {"N": 75, "E": 75, "S": 75}
    assert plain(sheet_of([], start_hens=40).mountain)["N"] == 40


def test_start_sheet_replaces_the_start_hens():
    s = sheet_of([], start={"pool": {"N": 6}, "mountain": {"N": 42, "E": 18, "S": 54, "W": 81}})
    assert plain(s.mountain) == {"N": 42, "E": 18, "S": 54, "W": 81}
    assert plain(s.pool)["N"] == 6


# ---------------------------------------------------------------------------------------------
# The 6♦ example with the talon ace (seed 002, 5 lentelė)
# ---------------------------------------------------------------------------------------------

def test_seed002_six_diamonds_with_talon_ace():
    # seed 002 l.133: "Tarkim, E žaidė „Šešis būgnus“ ir paėmė 6 kirčius, N paėmė 3, o S – 1. E
    # užsirašo į taką 6 ir nusibraukia 6 vištas; žaidėjas N skiltyje NE užsirašo 36 vistus ...
    # o žaidėjas S – skiltyje SE 12 vistų" and "dalijo W ir pirkinyje rado vieną tūzą. Tad W
    # užsirašo skiltyje WE 12 vistų". The example is "paprastam žaidimui": no eglės.
    s = sheet_of([{"contract": "6D", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 6, "N": 3, "S": 1}, "talon": "AC 8H"}], first_dealer="W", **NO_EGLES)
    assert plain(s.pool) == {"N": 0, "E": 6, "S": 0, "W": 0}
    assert plain(s.mountain) == {"N": 60, "E": 54, "S": 60, "W": 60}
    assert whists(s) == {"N": {"E": 36}, "S": {"E": 12}, "W": {"E": 12}}


def test_seed002_seven_pays_18_per_trick_and_9_points():
    # seed 002 l.129-131: "Jeigu žaidimas septintoje kategorijoje, žaidėjai užsirašo atitinkamai 9 į taką,
    # 9 nuo kalno ir po 18 už kiekvieną paimtą kirtį."
    s = sheet_of([{"contract": "7H", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 7, "N": 2, "S": 1}, "talon": "AC AH"}], first_dealer="W", **NO_EGLES)
    assert plain(s.pool)["E"] == 9 and plain(s.mountain)["E"] == 51
    # two aces in the talon: two potential tricks, 18 each for the dealer W
    assert whists(s) == {"N": {"E": 36}, "S": {"E": 18}, "W": {"E": 36}}


def test_talon_bonus_counts():
    # seed 002 l.137: "tūzas, vienos spalvos tūzas ir karalius, vienos spalvos karalius ir dama"
    assert talon_tricks(parse_cards("AS 7H"), False, "sevens") == 1
    assert talon_tricks(parse_cards("AS KS"), False, "sevens") == 2
    assert talon_tricks(parse_cards("KS QS"), False, "sevens") == 1
    assert talon_tricks(parse_cards("AS AH"), False, "sevens") == 2
    assert talon_tricks(parse_cards("KS QH"), False, "sevens") == 0
    assert talon_tricks(parse_cards("AS QS"), False, "sevens") == 1
    # misère: "septynakė ar tos pačios spalvos septynakė su aštuonake" (counts inferred)
    assert talon_tricks(parse_cards("7S AH"), True, "sevens") == 1
    assert talon_tricks(parse_cards("7S 8S"), True, "sevens") == 2
    assert talon_tricks(parse_cards("AS KS"), True, "sevens") == 0
    assert talon_tricks(parse_cards("7S 8S"), True, "none") == 0


def test_talon_bonus_on_an_unplayed_deal_and_not_with_three_players():
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"},
                   "talon": "AD 9C"}], first_dealer="W", **NO_EGLES)
    assert whists(s) == {"W": {"E": 12}}
    # "4. Pirkinio premijos dalijančiajam nėra." (three players)
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"},
                   "talon": "AD 9C"}], players=["N", "E", "S"], first_dealer="S", **NO_EGLES)
    assert whists(s) == {}


def test_talon_bonus_on_a_misere_is_for_sevens():
    # seed 002 l.159: "Jeigu, paskelbus mizerį, pirkinyje yra kortų, už kurias dalijantysis būtų gavęs
    # vistų ... šių vistų jis negauna. Tokiu atveju jis gauna vistus, jei pirkinyje yra žemos
    # kortos – septynakė"
    s = sheet_of([{"contract": "misere", "declarer": "E", "whist": {"S": "pass", "N": "pass"},
                   "talon": "7D AH"}], first_dealer="W", **NO_EGLES)
    assert whists(s) == {"W": {"E": 36}}
    s = sheet_of([{"contract": "misere", "declarer": "E", "whist": {"S": "pass", "N": "pass"},
                   "talon": "AD AH"}], first_dealer="W", **NO_EGLES)
    assert whists(s) == {}


# ---------------------------------------------------------------------------------------------
# The 7♠ write-up (aprašymas)
# ---------------------------------------------------------------------------------------------

def test_seed002_seven_spades_writeup_as_printed():
    # seed 002 l.139-141: "žaidėjas skelbė „Septynis vynus“, o paėmė tik 5 kirčius; už du trūkstamus kirčius
    # gauna po 18 vištų, t. y. padidina savo vištų skaičių ant kalno 36 taškais ... tris kirčius
    # paėmęs vistuojantysis užsirašo ... ne už tris, o už penkis kirčius; vistuojantysis, paėmęs
    # vieną kirtį, užsirašo už tris, o, sakykim, pirkinyje neradęs potencialaus kirčio dalijantysis
    # žaidėjas užsirašo už du kirčius".
    # The printed counts (5 + 3 + 1) leave a trick out, so no record can carry them; the arithmetic
    # is checked here on the scorer's own writing functions with exactly those counts.
    record = rec([], first_dealer="W", **NO_EGLES)
    rules = resolve_rules(record.rules)
    g = _Game(record, rules)
    deal = Deal(pos=0, contract=parse_contract("7S"), declarer="E")
    defence = Defence("joint", ["S", "N"], {"S": 3, "N": 1}, 2)
    outcome = Outcome(False, 2, defence, 5)
    g.book.write_mountain(1, "E", F(18) * 2, "contract.failed", "7S failed")
    write_defence(g.book, deal, rules, outcome, "E", ["S", "N"], F(1), True, "")
    _dealer_writes(g, deal, "W", "E", outcome, F(1), True, "")
    s = g.book.ledger.sheet()
    assert s.mountain["E"] == 36
    assert whists(s) == {"S": {"E": 90}, "N": {"E": 54}, "W": {"E": 36}}


def test_seven_spades_writeup_in_a_record():
    # The same rule on a consistent deal (5 + 3 + 2): the whisters write their tricks plus the two
    # missing ones, the dealer the two missing ones; "Atsisakęs vistuoti žaidėjas vistų negauna."
    s = sheet_of([{"contract": "7S", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 5, "S": 3, "N": 2}, "talon": "9C 8H"}], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain)["E"] == 60 + 36
    assert whists(s) == {"S": {"E": 90}, "N": {"E": 72}, "W": {"E": 36}}
    # one whister (alone), the other passed: the passer writes nothing
    s = sheet_of([{"contract": "7S", "declarer": "E", "whist": {"S": "whist", "N": "pass"},
                   "tricks": {"E": 5, "S": 5, "N": 0}}], first_dealer="W", **NO_EGLES)
    assert whists(s) == {"S": {"E": 7 * 18}, "W": {"E": 36}}


def test_dealer_writeup_adds_the_talon_tricks():
    # PRESETS.md fixed reading: the dealer writes his talon's potential tricks plus the missing ones.
    deal = {"contract": "6H", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
            "tricks": {"E": 4, "S": 3, "N": 3}, "talon": "AS 7H"}
    assert whists(sheet_of([deal], first_dealer="W", **NO_EGLES))["W"] == {"E": 12 * 3}
    assert whists(sheet_of([deal], first_dealer="W", writeup_dealer="instead", **NO_EGLES))["W"] == {"E": 12}
    assert whists(sheet_of([deal], first_dealer="W", writeup_dealer="none", **NO_EGLES))["W"] == {"E": 12}
    assert "W" not in whists(sheet_of([dict(deal, talon="9S 7H")], first_dealer="W", writeup_dealer="none",
                                      **NO_EGLES))


def test_three_players_no_writeup():
    # seed 002 l.285, three players: "5. Nėra žaidžiančiojo aprašymo ... vistuojantieji gauna vistus tik
    # už paimtus kirčius"
    s = sheet_of([{"contract": "7S", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 5, "S": 3, "N": 2}}], players=["N", "E", "S"], first_dealer="N", **NO_EGLES)
    assert whists(s) == {"S": {"E": 54}, "N": {"E": 36}}
    assert plain(s.mountain)["E"] == 60 + 36


# ---------------------------------------------------------------------------------------------
# Defenders' quotas
# ---------------------------------------------------------------------------------------------

def test_quota_two_whisters_short():
    # seed 002 l.89, l.131: "Jeigu vistuoja abu, jie privalo paimti keturis kirčius ... už kiekvieną trūkstamą
    # užsirašo po 6 vištas"; shared by how they took the tricks (pair-deficit, PRESETS.md).
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 8, "S": 1, "N": 1}}], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain) == {"N": 66, "E": 54, "S": 66, "W": 60}
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 7, "S": 3, "N": 0}}], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain) == {"N": 66, "E": 54, "S": 60, "W": 60}
    # own-half: each pays his own deficit against half the quota
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "whist"},
                   "tricks": {"E": 7, "S": 3, "N": 0}}], first_dealer="W", shortfall_split="own-half", **NO_EGLES)
    assert plain(s.mountain)["N"] == 72


def test_quota_alone_and_from_both_hands():
    # seed 002 l.101: "Tokiu atveju jam pakanka paimti du kirčius, kai galutinis skelbimas yra šeštoje
    # kategorijoje" (alone) versus "vistuojantis žaidėjas privalo paimti 4 kirčius, kai žaidžiama
    # šeštoje kategorijoje" (from both hands).
    alone = {"contract": "6C", "declarer": "E", "whist": {"S": "whist", "N": "pass"},
             "tricks": {"E": 7, "S": 3, "N": 0}}
    s = sheet_of([alone], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain)["S"] == 60 and whists(s) == {"S": {"E": 36}}
    both_open = dict(alone, open=True, tricks={"E": 7, "S": 2, "N": 1})
    s = sheet_of([both_open], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain)["S"] == 66 and whists(s) == {"S": {"E": 36}}
    closed = dict(alone, takeover="S", tricks={"E": 7, "S": 2, "N": 1})
    s = sheet_of([closed], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain)["S"] == 66 and whists(s) == {"S": {"E": 36}}


def test_takeover_by_the_passer():
    # seed 002 l.97: "vistuoti atsisakęs žaidėjas turi teisę perimti vistavimą ... Tokiu atveju visa
    # atsakomybė laimėjus ar pralaimėjus padalijimą atitenka jam."
    s = sheet_of([{"contract": "6D", "declarer": "B", "whist": {"C": "pass", "D": "whist"}, "takeover": "C",
                   "tricks": {"B": 7, "C": 1, "D": 2}}], players=["A", "B", "C", "D"], first_dealer="A", **NO_EGLES)
    assert whists(s) == {"C": {"B": 36}}
    assert plain(s.mountain) == {"A": 60, "B": 54, "C": 66, "D": 60}


def test_takeover_by_the_dealer_when_both_passed():
    # seed 002 l.99, l.115: "dalijantysis ... pažiūrėjęs vieno kurio nors vistuojančiojo kortas, turi teisę
    # skelbti „Aš perimu“ ... Perėmęs vistavimą žaidėjas ir šiuo atveju privalo paimti keturis kirčius."
    s = sheet_of([{"contract": "6D", "declarer": "B", "whist": {"C": "pass", "D": "pass"}, "takeover": "A",
                   "tricks": {"B": 5, "C": 3, "D": 2}}], players=["A", "B", "C", "D"], first_dealer="A", **NO_EGLES)
    # failed by one: A whists 5 + 1 write-up; no separate dealer write-up for him
    assert whists(s) == {"A": {"B": 72}}
    assert plain(s.mountain)["B"] == 72


def test_takeover_errors():
    with pytest.raises(ScoringError, match="both defenders whisted"):
        sheet_of([{"contract": "6D", "declarer": "E", "whist": {"S": "whist", "N": "whist"}, "takeover": "W",
                   "tricks": {"E": 6, "S": 2, "N": 2}}], first_dealer="W", **NO_EGLES)
    with pytest.raises(ScoringError, match="half-whist"):
        sheet_of([{"contract": "6D", "declarer": "E", "whist": {"S": "pass", "N": "half-whist"}}],
                 first_dealer="W", **NO_EGLES)


def test_misere_made_and_failed():
    # seed 002 l.155: "jeigu žaidžiant mizerį vistuojantys nesugeba priversti žaidžiantįjį paimti bent
    # vieną kirtį, užsirašo ant kalno pagal 3 lentelę" (values inferred: 18)
    s = sheet_of([{"contract": "misere", "declarer": "E", "whist": {"S": "whist", "N": "pass"}, "open": True,
                   "tricks": {"E": 0, "S": 6, "N": 4}, "talon": "9S 9H"}], first_dealer="W", **NO_EGLES)
    assert plain(s.pool)["E"] == 18 and plain(s.mountain) == {"N": 60, "E": 42, "S": 78, "W": 60}
    s = sheet_of([{"contract": "misere", "declarer": "E", "whist": {"S": "whist", "N": "pass"}, "open": True,
                   "tricks": {"E": 2, "S": 4, "N": 4}, "talon": "9S 9H"}], first_dealer="W", **NO_EGLES)
    assert plain(s.mountain)["E"] == 60 + 72
    assert whists(s) == {"S": {"E": 72}, "W": {"E": 72}}


# ---------------------------------------------------------------------------------------------
# General and mandatory eglės
# ---------------------------------------------------------------------------------------------

def test_seed002_general_egle():
    # seed 002 l.51: "žaidėjas S, bendrosios eglės padalijime paėmęs tris kirčius ir gavęs 9 vištas,
    # užbraukia ... 60 ir šalia parašo naują – 69"; "Jeigu bendrosios eglės padalijime žaidėjas
    # ... W, nepaima nė vieno kirčio, jis užsirašo į taką 6 taškus ir nubraukia sau 6 vištas";
    # "Jeigu kuri nors šių kortų ima kirtį, dalijantysis užsirašo atitinkamą vištų sumą".
    s = sheet_of([{"contract": "all-pass", "tricks": {"N": 1, "E": 6, "S": 3, "W": 0}}])
    assert plain(s.mountain) == {"N": 63, "E": 78, "S": 69, "W": 54}
    assert plain(s.pool) == {"N": 0, "E": 0, "S": 0, "W": 6}


def test_general_egle_dealer_without_trick_writes_to_his_track():
    # seed 002 l.53: "Jeigu nė vieno kirčio nepaima dalijantysis, jis taip pat įsirašo į taką ir
    # nusibraukia po 6 vištas."
    s = sheet_of([{"contract": "all-pass", "tricks": {"N": 0, "E": 4, "S": 3, "W": 3}}])
    assert plain(s.pool) == {"N": 6, "E": 0, "S": 0, "W": 0}
    assert plain(s.mountain) == {"N": 54, "E": 72, "S": 69, "W": 69}


def test_egle_four_players_lists_the_dealer():
    with pytest.raises(ScoringError, match="list the dealer N"):
        sheet_of([{"contract": "all-pass", "tricks": {"E": 4, "S": 3, "W": 3}}])
    with pytest.raises(ScoringError, match="at most the two talon-led"):
        sheet_of([{"contract": "all-pass", "tricks": {"N": 3, "E": 4, "S": 3, "W": 0}}])


def test_egle_three_players_talon_tricks_belong_to_nobody():
    # seed 002 l.47: "Jeigu žaidžiama trise, kirčiai, kuriuos paima pirkinio kortos, neatitenka niekam"
    s = sheet_of([{"contract": "all-pass", "tricks": {"N": 4, "E": 5, "S": 0}}], players=["N", "E", "S"])
    assert plain(s.mountain) == {"N": 60 + 12, "E": 60 + 15, "S": 54}
    assert plain(s.pool) == {"N": 0, "E": 0, "S": 6}


def test_general_egles_rotate_the_dealer_mandatory_ones_do_not():
    # seed 002 l.49, l.151: "Kiekvieną kartą dalija kitas žaidėjas" (general) and "Sužaidus eglę, kortas
    # dalija tas pats žaidėjas" (mandatory).
    def eg(d):
        others = iter([3, 3, 4])
        return {"contract": "all-pass", "tricks": {p: (0 if p == d else next(others)) for p in NESW}}

    deals = [eg("N"), eg("E"), eg("S"), eg("W"), eg("N"), eg("N")]
    r = score(rec(deals))
    assert [r.dealers[i] for i in range(6)] == ["N", "E", "S", "W", "N", "N"]
    assert r.extra["deals"][3]["kind"] == "general" and r.extra["deals"][4]["kind"] == "mandatory"


def test_mandatory_egle_gives_a_stroke_back_and_egle_doubling():
    # seed 002 l.57-59: "toks padalijimas vertinamas dvigubai ... Kai tik kuris nors žaidžiantysis laimi
    # įsipareigotą žaidimą, jis nusibraukia vieną eglę"; "Jeigu žaidžiantysis netesi ... eglės
    # nenubraukia, bet netesėto žaidimo įvertinimas – vis tiek dvigubas"; "būna, kad kuris nors
    # žaidėjas, neturėdamas nesužaistų eglių, vėl jų gauna".
    made = {"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "pass"},
            "tricks": {"E": 6, "S": 4, "N": 0}}
    failed = {"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "pass"},
              "tricks": {"E": 5, "S": 5, "N": 0}}
    r = score(rec([made, dict(made, declarer="S", whist={"W": "whist", "E": "pass"},
                              tricks={"S": 6, "W": 4, "E": 0})], general_egles=0, egles=1, first_dealer="W"))
    s = r.sheet(1)
    assert plain(s.pool)["E"] == 12 and plain(s.mountain)["E"] == 48
    assert whists(s) == {"S": {"E": 4 * 24}}
    assert r.extra["deals"][0]["egles"]["E"] == 0
    # one stroke: after a made contract the next deal of E is single
    r = score(rec([made, {"contract": "all-pass", "dealer": "N", "tricks": {"N": 0, "E": 4, "S": 3, "W": 3}},
                   dict(made, whist={"S": "whist", "W": "pass"}, tricks={"E": 6, "S": 4, "W": 0})],
                  general_egles=0, egles=1, first_dealer="W"))
    s1, s3 = r.sheet(1), r.sheet(3)
    # deal 1 (dealer W) doubled, stroke struck; mandatory eglė (dealer N) gives the stroke back:
    assert r.extra["deals"][1]["egles"] == {"N": 2, "E": 1, "S": 2, "W": 2}
    assert s3.pool["E"] - s1.pool["E"] == 12  # deal 3 doubled again
    # a failed contract keeps the stroke and is still doubled
    r = score(rec([failed, dict(made, whist={"S": "whist", "W": "pass"}, tricks={"E": 6, "S": 4, "W": 0})],
                  general_egles=0, egles=1, first_dealer="W"))
    assert plain(r.sheet(1).mountain)["E"] == 60 + 24
    assert r.extra["deals"][0]["egles"]["E"] == 1
    assert plain(r.sheet(2).pool)["E"] == 12


def test_only_the_declarers_egles_count():
    # seed 002 l.61: "Žaidimo įvertinimas priklauso tik nuo žaidžiančiojo turimų nesužaistų eglių"
    made = {"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "pass"},
            "tricks": {"E": 6, "S": 4, "N": 0}}
    r = score(rec([made] * 5, players=["N", "E", "S"], general_egles=0, egles=4, pool=240))
    pools = [r.sheet(i).pool["E"] for i in range(1, 6)]
    assert pools == [12, 24, 36, 48, 54]


# ---------------------------------------------------------------------------------------------
# Dark games and the bomb
# ---------------------------------------------------------------------------------------------

def test_dark_doubles_and_with_an_egle_quadruples():
    # seed 002 l.149: "Žaidžiant patamsiu, visi padalijimo įvertinimo užrašai dvigubinami. O jei
    # žaidžiantysis žaidžia patamsiu ir su egle, visi užrašai keturgubinami. Dalijantysis negauna
    # vistų už potencialius kirčius pirkinyje."
    dark = {"contract": "6S", "declarer": "E", "dark": True, "whist": {"S": "whist", "N": "whist"},
            "tricks": {"E": 6, "S": 3, "N": 1}, "talon": "AS KS"}
    s = sheet_of([dark], first_dealer="W", **NO_EGLES)
    assert plain(s.pool)["E"] == 12 and plain(s.mountain)["E"] == 48
    assert whists(s) == {"S": {"E": 72}, "N": {"E": 24}}
    s = sheet_of([dark], first_dealer="W", general_egles=0, egles=2)
    assert plain(s.pool)["E"] == 24 and plain(s.mountain)["E"] == 36
    assert whists(s) == {"S": {"E": 144}, "N": {"E": 48}}
    failed = dict(dark, tricks={"E": 5, "S": 3, "N": 2})
    s = sheet_of([failed], first_dealer="W", general_egles=0, egles=2)
    assert plain(s.mountain)["E"] == 60 + 12 * 4
    # the dealer: no talon bonus in the dark, but his write-up of the missing trick, ×4
    assert whists(s) == {"S": {"E": 4 * 12 * 4}, "N": {"E": 3 * 12 * 4}, "W": {"E": 12 * 4}}


def test_dark_six_must_be_whisted_by_both():
    # seed 002 l.147: "jei žaidžiantysis žaidžia šeštoje kategorijoje, jie abu privalo vistuoti"
    with pytest.raises(ScoringError, match="dark 6 must be whisted by both"):
        sheet_of([{"contract": "6S", "declarer": "E", "dark": True, "whist": {"S": "whist", "N": "pass"},
                   "tricks": {"E": 6, "S": 4, "N": 0}}], first_dealer="W", **NO_EGLES)
    with pytest.raises(ScoringError, match="closed, each for himself"):
        sheet_of([{"contract": "7S", "declarer": "E", "dark": True, "whist": {"S": "whist", "N": "pass"},
                   "open": True, "tricks": {"E": 7, "S": 3, "N": 0}}], first_dealer="W", **NO_EGLES)


def test_bomb():
    # seed 002 l.297: "Ją skelbti gali tik žaidėjas, turintis Pirmojo teises ... tapti žaidžiančiuoju
    # galima tik paskelbus septynis kirčius ar daugiau. Jei niekas neskelbia, žaidžiama bendroji eglė."
    ok = {"contract": "7S", "declarer": "E", "bomb": "N", "whist": {"S": "whist", "N": "pass"},
          "tricks": {"E": 7, "S": 3, "N": 0}}
    s = sheet_of([ok], first_dealer="W", **NO_EGLES)
    assert plain(s.pool)["E"] == 9          # bomb_multiplier 1 (inferred)
    assert plain(sheet_of([ok], first_dealer="W", bomb_multiplier=2, **NO_EGLES).pool)["E"] == 18
    with pytest.raises(ScoringError, match="only the first hand"):
        sheet_of([dict(ok, bomb="S")], first_dealer="W", **NO_EGLES)
    with pytest.raises(ScoringError, match="only 7 or more"):
        sheet_of([dict(ok, contract="6S")], first_dealer="W", **NO_EGLES)
    # nobody bids after a bomb: a general eglė, no stroke back, the next player deals
    plain_ok = {k: v for k, v in ok.items() if k != "bomb"}
    r = score(rec([{"contract": "all-pass", "bomb": "N", "tricks": {"W": 0, "N": 4, "E": 3, "S": 3}},
                   dict(plain_ok, whist={"S": "whist", "W": "pass"}, tricks={"E": 7, "S": 3, "W": 0})],
                  first_dealer="W", **NO_EGLES))
    assert r.extra["deals"][0]["kind"] == "bomb" and r.extra["deals"][0]["egles"]["E"] == 0
    assert r.dealers[1] == "N"


# ---------------------------------------------------------------------------------------------
# Reaching the target, selling points and hens
# ---------------------------------------------------------------------------------------------

def test_selling_track_points_to_the_most_and_ties_to_the_left():
    # seed 002 l.161: "šiuos taškus užrašo tuo momentu daugiausiai taškų take turinčiajam žaidėjui ...
    # o pats savo vistų skiltyje iš šio varžovo gauna dešimt kartų daugiau vistų. Jeigu taškus
    # parduoti būtų galima dviem žaidėjams, turintiems po lygiai taškų ... artimiausiajam kairiajam".
    start = {"pool": {"N": 100, "E": 118, "S": 100, "W": 90}, "mountain": {"N": 30, "E": 30, "S": 30, "W": 30}}
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}],
                 first_dealer="W", start=start, **NO_EGLES)
    assert plain(s.pool) == {"N": 100, "E": 120, "S": 104, "W": 90}
    assert whists(s) == {"E": {"S": 40}}
    assert plain(s.mountain)["E"] == 24
    # a buyer whose track fills passes the rest on: "likusią dalį galima parduoti kitam žaidėjui"
    start = {"pool": {"N": 118, "E": 120, "S": 100, "W": 90}, "mountain": {"N": 30, "E": 30, "S": 30, "W": 30}}
    s = sheet_of([{"contract": "7S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}],
                 first_dealer="W", start=start, **NO_EGLES)
    assert plain(s.pool) == {"N": 120, "E": 120, "S": 107, "W": 90}
    assert whists(s) == {"E": {"N": 20, "S": 70}}


def test_every_track_complete_strikes_hens_then_sells_hens():
    # seed 002 l.169: "jei lieka 6 taškai, kurių jau niekam negalima parduoti, žaidėjas nusibraukia 6
    # vištas. Jei tuo momentu jis vištų jau neturi, irgi gali parduoti, nubraukdamas atitinkamą
    # vištų kiekį tuo momentu mažiausiai vištų turinčiam varžovui ir gaudamas nuo jo dešimt kartų
    # daugiau vistų."
    full = {p: 120 for p in NESW}
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}], first_dealer="W",
                 start={"pool": full, "mountain": {"N": 30, "E": 20, "S": 30, "W": 30}}, **NO_EGLES)
    assert plain(s.mountain)["E"] == 8 and whists(s) == {}
    s = sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}], first_dealer="W",
                 start={"pool": full, "mountain": {"N": 30, "E": 0, "S": 9, "W": 9}}, **NO_EGLES)
    # 12 hens to strike, none of his own: from the fewest (S and W tie at 9: S is nearer left)
    assert plain(s.mountain) == {"N": 30, "E": 0, "S": 0, "W": 6}
    assert whists(s) == {"E": {"S": 90, "W": 30}}


def test_made_contract_striking_more_hens_than_he_has():
    # seed 002 l.171: "Parduodamos ir vištos, kai žaidžiantysis gali už tesėtą žaidimą nusirašyti
    # daugiau vištų, negu turi ant kalno. Parduodama žaidėjui, turinčiam mažiausiai vištų"
    s = sheet_of([{"contract": "7S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}], first_dealer="W",
                 start={"mountain": {"N": 40, "E": 5, "S": 30, "W": 20}}, **NO_EGLES)
    assert plain(s.mountain) == {"N": 40, "E": 0, "S": 30, "W": 16}
    assert whists(s) == {"E": {"W": 40}}


def test_kitty_premium_in_the_classical_game():
    # seed 002 l.293, "Preferansas su katilu": "Paėmusiam katilą žaidėjui skiriama premija: pagal
    # susitarimą, nubraukiama tam tikra vištų suma arba kiti žaidėjai užmoka"
    start = {"pool": {"E": 114}, "mountain": {"N": 30, "E": 30, "S": 30, "W": 30}}
    deal = {"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}
    s = sheet_of([deal], first_dealer="W", start=start, kitty_premium=10, **NO_EGLES)
    assert plain(s.mountain)["E"] == 30 - 6 - 10
    s = sheet_of([deal], first_dealer="W", start=start, kitty_premium=10, kitty_premium_form="whists",
                 **NO_EGLES)
    assert whists(s) == {"E": {"S": 10, "W": 10, "N": 10}}
    assert plain(sheet_of([deal], first_dealer="W", start=start, **NO_EGLES).mountain)["E"] == 24


def test_finished_when_every_track_is_complete():
    start = {"pool": {"N": 120, "E": 114, "S": 120, "W": 120}}
    r = score(rec([{"contract": "6S", "declarer": "E", "whist": {"S": "pass", "N": "pass"}}],
                  first_dealer="W", start=start, **NO_EGLES))
    assert r.finished
    assert not score(rec([], start=start)).finished


# ---------------------------------------------------------------------------------------------
# The settlement example (seed 002): data for prefcli.settle
# ---------------------------------------------------------------------------------------------

def test_seed002_settlement_example_through_settle():
    # seed 002 l.175: "N turi 42 vištas, E – 18, S – 54, W – 81 ... lieka: N -24, E – 0, S – 36, W – 63
    # ... N gautas skaičius – 6, E – 0, S – 9, W – 16 ... Iš žaidėjo N kiti trys ... užsirašo po 60
    # vistų ... iš žaidėjo E neužsirašo nieko, iš S – po 90 ir iš W – po 160."
    from prefcli.settle import settle_sheet
    r = score(rec([], start={"mountain": {"N": 42, "E": 18, "S": 54, "W": 81}}))
    st = settle_sheet(r.sheet(), r.rules)
    assert plain(st.mountain) == {"N": 24, "E": 0, "S": 36, "W": 63}
    assert plain(st.shares) == {"N": 60, "E": 0, "S": 90, "W": 160}


def test_variants_lists_every_option_with_inferred_marks():
    rules = resolve_rules({"variant": "lithuanian"})
    fam = rules.family
    for name in ("points.8", "whist_price.10", "remiz.misere", "shortfall.9", "writeup_dealer",
                 "talon_bonus_misere", "bomb_multiplier", "hens_rounding", "allpass.regain"):
        opt = fam.option(name)
        assert opt is not None and "(inferred)" in opt.meaning and opt.inferred, name
    for name in ("points.6", "whist_price.7", "remiz.6", "shortfall.7", "egle_multiplier"):
        assert "(inferred)" not in fam.option(name).meaning, name
    assert rules.word("pool") == "track" and rules.word("mountain") == "hens"


def test_errors_name_the_deal():
    with pytest.raises(ScoringError, match="deal 1: .*tricks"):
        sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "pass"}}],
                 first_dealer="W", **NO_EGLES)
    with pytest.raises(ScoringError, match="deal 1: the tricks add up to 9"):
        sheet_of([{"contract": "6S", "declarer": "E", "whist": {"S": "whist", "N": "pass"},
                   "tricks": {"E": 6, "S": 3, "N": 0}}], first_dealer="W", **NO_EGLES)
    with pytest.raises(ScoringError, match="deal 1: W deals and sits out"):
        sheet_of([{"contract": "6S", "declarer": "W", "whist": {"S": "pass", "N": "pass"}}],
                 first_dealer="W", **NO_EGLES)


def test_three_players_settle_by_three():
    # seed 002 l.287, three players: "6. Žaidimo pabaigoje apskaičiuojant kiekvieno žaidėjo vištų skaičius
    # dalijamas ne iš 4, bet iš 3."
    from prefcli.settle import settle_sheet
    r = score(rec([], players=["N", "E", "S"], start={"mountain": {"N": 30, "E": 12, "S": 21}}))
    st = settle_sheet(r.sheet(), r.rules)
    assert plain(st.shares) == {"N": 60, "E": 0, "S": 30}


def _lowest_legal_play(hands, order, talon=None):
    """A legal no-trump play (everyone plays his lowest legal card), talon cards leading the first
    two tricks when given; returns the play and the winners worked out here, independently."""
    from prefcli.model.cards import parse_cards
    hands = {p: sorted(parse_cards(h), key=lambda c: (c.suit.order, c.rank)) for p, h in hands.items()}
    talon = list(parse_cards(talon)) if talon else []
    play, winners = [], []
    leader = order[0]
    for t in range(10):
        trick, owners = [], []
        if t < len(talon):
            trick.append(talon[t])
            owners.append("talon")
            seats = order
        else:
            i = order.index(leader)
            seats = order[i:] + order[:i]
        for p in seats:
            led = trick[0].suit if trick else None
            follow = [c for c in hands[p] if c.suit is led]
            card = (follow or hands[p])[0]
            hands[p].remove(card)
            trick.append(card)
            owners.append(p)
        best = max((k for k in range(len(trick)) if trick[k].suit is trick[0].suit), key=lambda k: trick[k].rank)
        winners.append(owners[best])
        leader = order[0] if t < len(talon) else owners[best]
        play.append(" ".join(str(c) for c in trick))
    return play, winners


def test_full_egle_deal_is_scored_from_its_play():
    # A general eglė given with cards: the tricks come from the replay; the talon-led tricks are the
    # dealer's (seed 002 l.45: "laikoma, jog šiuos ėjimus daro dalijantysis").
    hands = {"E": "AH AD 9D JS JC QD 7C 10D JH 10S", "S": "9S 8S 7H 9H KC 10C 8D 7S AS 10H",
             "W": "QH QS 7D 8H KS AC 8C JD KH KD"}
    talon = "QC 9C"
    play, winners = _lowest_legal_play(hands, ["E", "S", "W"], talon)
    expected = {p: winners.count(p) for p in ("E", "S", "W")}
    dealer_tricks = winners.count("talon")
    assert expected == {"E": 4, "S": 0, "W": 5} and dealer_tricks == 1   # worked out above, not by prefcli
    r = score(rec([{"dealer": "N", "contract": "all-pass", "hands": hands, "talon": talon, "play": play}]))
    s = r.sheet()
    for p in ("E", "S", "W"):
        assert s.mountain[p] == 30 * 2 + 3 * expected[p] - (6 if expected[p] == 0 else 0)
    assert s.mountain["N"] == 60 + 3 * dealer_tricks - (6 if dealer_tricks == 0 else 0)
    assert s.pool["N"] == (6 if dealer_tricks == 0 else 0)
    assert s.pool["S"] == 6 and s.mountain["S"] == 54 and s.mountain["N"] == 63
