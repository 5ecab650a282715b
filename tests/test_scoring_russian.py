"""Worked examples of the Russian presets, each naming its source.

Sources: RUSSIAN-VARIANTS.md (the Кодекс преферанса 1996, [K n.n]; other sources as tagged
there), seed 001 (Russian, Sochi), seed 003 (Polish). Players are A, B, C (and D) in clockwise
order; the first defender is the one left of the declarer (A declares → B speaks first, then C).
"""
from __future__ import annotations

import pytest

from russian_helpers import P4, flat, rules_of, run, sheet_of

W, PS, HW = "whist", "pass", "half-whist"


def both(decl="A"):
    others = {"A": ("B", "C"), "B": ("C", "A"), "C": ("A", "B")}[decl]
    return {others[0]: W, others[1]: W}


# ---------------------------------------------------------------------------------------------
# RUSSIAN-VARIANTS.md §9.1 Sochi (Кодекс)
# ---------------------------------------------------------------------------------------------

def test_kodeks_3_8_6_ex1_second_whister_short_on_six():
    """[K 3.8.6 ex.1] 6♦, both whist, the first takes 2, the second 1 (declarer 7): "The second
    writes gora for «без одной» on the whist". Sochi (responsible): second G+2; declarer P+2;
    W1→D 4; W2→D 2."""
    s = sheet_of([{"contract": "6D", "declarer": "A", "whist": both(), "tricks": {"A": 7, "B": 2, "C": 1}}])
    assert s == {"pool.A": 2, "whists.B.A": 4, "whists.C.A": 2, "mountain.C": 2}


def test_kodeks_3_8_6_ex2_both_whisters_short():
    """[K 3.8.6 ex.2] 6♦, both whist, declarer takes 9: "The whister with 1 trick writes gora «без
    одной», the one with 0 «без двух»" → G+2 and G+4; declarer P+2; the 1-trick whister W→D 2."""
    s = sheet_of([{"contract": "6D", "declarer": "A", "whist": both(), "tricks": {"A": 9, "B": 1, "C": 0}}])
    assert s == {"pool.A": 2, "whists.B.A": 2, "mountain.B": 2, "mountain.C": 4}


def test_kodeks_3_8_6_ex3_eight_second_whister_answers():
    """[K 3.8.6 ex.3] 8♦, both whist, declarer takes 10: "the second whister writes gora «без
    одной»" (Sochi: G+6; declarer P+6). Seed 003 l.146: "W przypadku gry na ośmiu, dziewięciu i
    dziesięciu lewach odpowiedzialność za niewzięcie lewy spoczywa na drugim «wistującym»"."""
    s = sheet_of([{"contract": "8D", "declarer": "A", "whist": both(), "tricks": {"A": 10, "B": 0, "C": 0}}])
    assert s == {"pool.A": 6, "mountain.C": 6}


def test_kodeks_3_7_3_amnesty_4_3_3():
    """[K 3.7.3] Raspasy 4/3/3: amnesty 3; the first player writes 1 trick into gora, the other two
    nothing. Seed 001 l.133: "применяется амнистия, т.е. все игроки сокращают свои записи на одно и то
    же число"."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3}}])
    assert s == {"mountain.A": 1}


def test_kodeks_fn36_consolation_six_down_one():
    """[K fn36] "при подсаде на шестерной без одной каждый пишет за фактически взятые взятки плюс
    одну — за безвзятие": each whister writes his tricks × 2 plus 2 for the undertrick."""
    s = sheet_of([{"contract": "6S", "declarer": "A", "whist": both(), "tricks": {"A": 5, "B": 3, "C": 2}}])
    assert s == {"mountain.A": 2, "whists.B.A": 3 * 2 + 2, "whists.C.A": 2 * 2 + 2}


def test_kodeks_3_8_7_half_whist_sochi_amounts():
    """[K 3.8.7] half-whist writes for half the obligation: 6 → 2 tricks × 2 = 4 whists,
    7 → 1 trick × 4 = 4 whists; the contract counts as made without play. Seed 001 l.106-107: "признать
    игру сыгранной и без розыгрыша записать за половину от обязательного количества взяток"."""
    s6 = sheet_of([{"contract": "6H", "declarer": "A", "whist": {"B": PS, "C": HW}}])
    s7 = sheet_of([{"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": HW}}])
    assert s6 == {"pool.A": 2, "whists.C.A": 4}
    assert s7 == {"pool.A": 4, "whists.C.A": 4}


# ---------------------------------------------------------------------------------------------
# §9.2 Leningrad
# ---------------------------------------------------------------------------------------------

def test_sp_leningrad_unwhisted_six_writes_two_to_pool():
    """[SP] 3 players, unwhisted six: "the declarer writes 2 into pulya" (settled at 20 whists a
    point: pool_point_whists = 20 is carried on the sheet's rules)."""
    res = run([{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}], variant="leningrad")
    assert flat(res) == {"pool.A": 2}
    assert res.rules["pool_point_whists"] == 20


def test_kodeks_4_2_3_3_leningrad_ends_on_total_without_help():
    """[K 4.2.3.3] "Pulya to 50, three players all at 48. One makes an 8 → his pulya 54 and the
    game is over (Σ ≥ 150)": no help, the pool keeps 54 (the overs ×2 are the settlement's)."""
    res = run([{"contract": "8S", "declarer": "A", "whist": {"B": PS, "C": PS}}], variant="leningrad",
              pool=50, start={"pool": {"A": 48, "B": 48, "C": 48}})
    s = res.sheet()
    assert (s.pool["A"], s.pool["B"], s.pool["C"]) == (54, 48, 48)
    assert res.finished
    assert "help" not in rules_of(res)


def test_sh_l_leningrad_table():
    """[SH-L table] 7 made, defenders took 3 tricks: declarer P+4, whists 8 per trick (24 in
    total); 7 failed by 2: declarer G+16 and (FSPR*) 16 consolation whists each; defenders took 1
    of the 2 required on a 7: whister G+4."""
    made = sheet_of([{"contract": "7C", "declarer": "A", "whist": both(), "tricks": {"A": 7, "B": 2, "C": 1}}],
                    variant="leningrad")
    assert made == {"pool.A": 4, "whists.B.A": 16, "whists.C.A": 8}
    down = sheet_of([{"contract": "7C", "declarer": "A", "whist": both(), "tricks": {"A": 5, "B": 3, "C": 2}}],
                    variant="leningrad")
    assert down["mountain.A"] == 16
    assert down["whists.B.A"] == 3 * 8 + 16 and down["whists.C.A"] == 2 * 8 + 16
    short = sheet_of([{"contract": "7C", "declarer": "A", "whist": {"B": W, "C": PS},
                       "tricks": {"A": 9, "B": 1, "C": 0}}], variant="leningrad")
    assert short == {"pool.A": 4, "whists.B.A": 8, "mountain.B": 4}


# ---------------------------------------------------------------------------------------------
# §9.3 Rostov
# ---------------------------------------------------------------------------------------------

def test_kodeks_3_7_2_2_rostov_all_pass_6_2_2():
    """[K 3.7.2.2] Raspasy 6/2/2: both 2-trick players write 15 whists each on the first. Seed
    003: "Jeśli minimalną ilość wzięć uzyskali dwaj gracze, zapisują wisty na trzeciego po połowie"."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"A": 6, "B": 2, "C": 2}}], variant="rostov")
    assert s == {"whists.B.A": 15, "whists.C.A": 15}


def test_kodeks_3_9_14_3_rostov_all_pass_and_damage_penalty():
    """[K 3.9.14.3] A took 2, B 1, C 7: B "wins" the raspasovka and writes 10 on A and 35 on C
    (5 per trick); the damage ruling (A writes 50 on B) is a penalty on the record."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"A": 2, "B": 1, "C": 7},
                   "penalties": [{"player": "A", "whists": {"on": "B", "amount": 50}, "reason": "lead out of turn"}]}],
                 variant="rostov")
    assert s == {"whists.B.A": 10, "whists.B.C": 35, "whists.A.B": 50}


def test_kodeks_fn54_rostov_fixed_consolation():
    """[K fn54] 7 failed by 2 with consolation 10: declarer G+8; every other player writes
    2 × 10 = 20 consolation whists, plus the whisters' trick whists."""
    s = sheet_of([{"contract": "7H", "declarer": "A", "whist": both(), "tricks": {"A": 5, "B": 3, "C": 2}}],
                 variant="rostov")
    assert s == {"mountain.A": 8, "whists.B.A": 3 * 4 + 20, "whists.C.A": 2 * 4 + 20}


def test_seed003_rostov_one_point_for_no_trick():
    """Seed 003 l.118: "Gracz, który nie wziął żadnej wziętej karty, zapisuje jedno punkt w puli"."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"A": 0, "B": 4, "C": 6}}], variant="rostov")
    assert s == {"pool.A": 1, "whists.A.B": 20, "whists.A.C": 30}


def test_kodeks_3_7_6_2_rostov_four_player_dealer_writes_one():
    """[K 3.7.6.2] Rostov, 4 players: "Сдающий пишет себе единичку в пульку за ноль взяток"."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"B": 3, "C": 3, "D": 4}}], players=P4, variant="rostov")
    assert s["pool.A"] == 1          # A deals the first deal and sits out


# ---------------------------------------------------------------------------------------------
# §9.4 Classic
# ---------------------------------------------------------------------------------------------

def test_kodeks_fn31_double_bomb_and_dark_eight():
    """[K fn31] "Double bomb (×4) and «раз втёмную» (×2), 8 made: 48 in pulya; the whisters also
    write 48 per trick". The ×4 bomb comes from a second dark all-pass in a row."""
    deals = [{"contract": "all-pass", "dark": True, "tricks": {"A": 3, "B": 3, "C": 4}},
             {"contract": "all-pass", "dark": True, "bomb": "A", "tricks": {"A": 3, "B": 3, "C": 4}},
             {"contract": "8S", "declarer": "A", "dark": True, "whist": both(), "tricks": {"A": 8, "B": 1, "C": 1}}]
    res = run(deals, variant="classic", pool=100)
    entries = [e for e in res.ledger.entries if e.deal == 3]
    assert [(e.player, e.area, e.amount) for e in entries if e.area == "pool"] == [("A", "pool", 48)]
    assert {(e.player, e.amount) for e in entries if e.rule == "whist.tricks"} == {("B", 48), ("C", 48)}
    assert res.extra["bombs"] == {}          # used up by the made game


def test_kodeks_fn30_bombs_in_order_kept_on_a_lost_game():
    """[K fn30] Three bombs from raspasy. "Fails a 6: writes ×2 (whists on him also ×2). Makes a
    7: ×2, since the first bomb survived the failed game. Fails a misère: ×4, since the first
    bomb was used up by the made 7 and the second is now active"."""
    deals = [{"contract": "all-pass", "dark": True, "bomb": "A", "tricks": {"A": 3, "B": 3, "C": 4}},
             {"contract": "all-pass", "dark": True, "bomb": "A", "tricks": {"A": 3, "B": 3, "C": 4}},
             {"contract": "all-pass", "dark": True, "bomb": "A", "tricks": {"A": 3, "B": 3, "C": 4}},
             {"contract": "6S", "declarer": "A", "whist": both(), "tricks": {"A": 5, "B": 3, "C": 2}},
             {"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": PS}},
             {"contract": "misere", "declarer": "A", "tricks": {"A": 1, "B": 5, "C": 4}}]
    res = run(deals, variant="classic", pool=100)
    by = lambda n, rule: [e.amount for e in res.ledger.entries if e.deal == n and e.rule == rule]  # noqa: E731
    assert by(4, "contract.failed") == [2 * 1 * 2]                    # 6 down one, ×2
    assert by(4, "whist.tricks") == [3 * 2 * 2, 2 * 2 * 2]            # whists on him ×2 too
    assert by(5, "contract.unplayed") == [4 * 2]                      # made 7, still ×2
    assert by(6, "misere.failed") == [10 * 4]                         # misère down one, ×4


def test_opr_classic_repeated_raspasy_doubles():
    """[OPR p.7] "Repeated raspasy: the second costs ×2 per trick, the third ×4" (Classic
    progression 1-2-4, [K 3.7.4] "или геометрической 1–2–4")."""
    deals = [{"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3}}] * 3
    res = run(deals, variant="classic")
    assert [e.amount for e in res.ledger.entries if e.rule == "allpass.tricks"] == [1, 2, 4]


# ---------------------------------------------------------------------------------------------
# §9.5 four players, §6 closing the pool
# ---------------------------------------------------------------------------------------------

def test_kodeks_3_8_5_1_four_player_misere_made():
    """[K 3.8.5.1] Misère made: the declarer P+10; nothing else is written (the 25 whists each
    are the settlement of those 10 points)."""
    s = sheet_of([{"contract": "misere", "declarer": "B", "tricks": {"B": 0, "C": 6, "D": 4}}], players=P4)
    assert s == {"pool.B": 10}


def test_al_four_player_gentleman_remiz():
    """[AL] 7♠, A down 2; B whists; gentleman whist; full consolation; C passive; D deals.
    "A: gora 8"; whisters write for the 5 tricks split in half plus each 2 × 4 for A's
    undertricks; "The dealer also writes for 2 tricks": B→A 10 + 8, C→A 10 + 8, D→A 8."""
    s = sheet_of([{"contract": "7S", "declarer": "A", "whist": {"B": W, "C": PS},
                   "tricks": {"A": 5, "B": 3, "C": 2}}],
                 players=P4, whist_style="gentleman", first_dealer="D")
    assert s == {"mountain.A": 8, "whists.B.A": 18, "whists.C.A": 18, "whists.D.A": 8}


def test_kodeks_3_3_16_3_penalty_whists():
    """[K 3.3.16.3] the 2nd hand writes 52 whists on the offender and the dealer 7: penalties
    are written from the record as given."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3},
                   "penalties": [{"player": "B", "whists": {"on": "A", "amount": 52}},
                                 {"player": "C", "whists": {"on": "A", "amount": 7}}]}])
    assert s["whists.B.A"] == 52 and s["whists.C.A"] == 7


def test_kodeks_4_1_1_four_player_nine_closes_and_writes_off_mountain():
    """[K 4.1.1] "A player needs 2 points to close and makes a 9 (8 points): 2 go to pulya and 6
    are written off his gora" (everyone else closed)."""
    res = run([{"contract": "9S", "declarer": "B", "whist": {"C": PS, "D": PS}}], players=P4,
              pool=20, start={"pool": {"A": 20, "B": 18, "C": 20, "D": 20}, "mountain": {"B": 10}})
    s = res.sheet()
    assert s.pool["B"] == 20 and s.mountain["B"] == 4
    assert [e.rule for e in res.ledger.entries if e.deal == 1] == ["contract.unplayed", "help.own-mountain"]
    assert res.finished


def test_kodeks_4_2_3_help_larger_pool_ten_whists_a_point():
    """[K 4.2.3] "помогает тому из противников, чья запись в пульке больше", 10 whists per point
    given; seed 001 l.137: "За каждое очко, записанное противнику «в помощь», игрок пишет на него 10
    очков в графе «висты»"."""
    res = run([{"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": PS}}],
              pool=20, start={"pool": {"A": 19, "B": 10, "C": 15}})
    s = flat(res)
    assert s["pool.A"] == 20 and s["pool.C"] == 15 + 3 and s["whists.A.C"] == 30
    assert s["pool.B"] == 10 and "whists.A.B" not in s


def test_kodeks_4_2_3_help_tie_goes_left():
    """[K 4.2.3] "On a tie, help the one on the left" (the next seat clockwise)."""
    s = sheet_of([{"contract": "6S", "declarer": "B", "whist": {"C": PS, "A": PS}}],
                 pool=20, start={"pool": {"A": 12, "B": 20, "C": 12}})
    assert s["pool.C"] == 14 and s["whists.B.C"] == 20 and s["pool.A"] == 12


# ---------------------------------------------------------------------------------------------
# Seed 001 (Sochi) and seed 003 (Polish)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("contract,price", [("6S", 2), ("7C", 4), ("8D", 6), ("9H", 8), ("10NT", 10)])
def test_seed001_price_table(contract, price):
    """Seed 001 l.9-90 "Старшинство игр": 6 → 2, 7 → 4, 8 → 6, 9 → 8, 10 → 10; "За сыгранную игру
    пишется стоимость игры в графу «пуля»"."""
    s = sheet_of([{"contract": contract, "declarer": "A", "whist": {"B": PS, "C": PS}}], pool=50)
    assert s == {"pool.A": price}


def test_seed001_misere_price_and_remiz():
    """Seed 001 l.58-60: "Мизер (ни одной) … 10"; a failed misère 10 per trick taken to the mountain
    (RULES.md §2.2)."""
    assert sheet_of([{"contract": "misere", "declarer": "A", "tricks": {"A": 0, "B": 5, "C": 5}}]) == {"pool.A": 10}
    assert sheet_of([{"contract": "misere", "declarer": "A", "tricks": {"A": 2, "B": 4, "C": 4}}]) == {"mountain.A": 20}


def test_seed001_remiz_price_times_undertricks():
    """Seed 001 l.131: "За несыгранную игру (ремиз) запись делается в «гору» – стоимость игры умножается
    на количество недобранных взяток"."""
    s = sheet_of([{"contract": "8S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 5, "B": 3, "C": 2}}])
    assert s["mountain.A"] == 3 * 6


def test_seed001_all_pass_progression_1_2_3_then_3():
    """Seed 001 l.133: "первая распасовка ценится по 1 очку за взятку, вторая – по 2, третья по 3. Все
    дальнейшие распасовки играются по 3 очка за взятку"."""
    deals = [{"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3}}] * 4
    res = run(deals)
    assert [e.amount for e in res.ledger.entries if e.rule == "allpass.tricks"] == [1, 2, 3, 3]


def test_seed001_early_stop_shortfall_to_mountain():
    """Seed 001 l.137: "Если игроки сообща решили прекратить игру, каждый пишет на гору недоигранное до
    50-ти количество очков"."""
    res = run([{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}], pool=50,
              end={"reason": "agreement"}, start={"pool": {"A": 40, "B": 30, "C": 50}})
    s = res.sheet()
    assert (s.mountain["A"], s.mountain["B"], s.mountain["C"]) == (8, 20, 0)
    assert {e.rule for e in res.ledger.entries if e.area == "mountain"} == {"close.early-stop"}


def test_seed001_game_over_when_all_pools_reach_target():
    """Seed 001 l.138: "Как только запись в пуле у всех игроков достигнет 50-ти, игра окончена"."""
    res = run([{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}], pool=50,
              start={"pool": {"A": 48, "B": 50, "C": 50}})
    assert res.finished
    res2 = run([{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}], pool=50,
               start={"pool": {"A": 47, "B": 50, "C": 49}})
    assert not res2.finished


def test_seed001_misdeal_penalty():
    """Seed 001 l.142: "за неправильную сдачу – 2 в гору"."""
    s = sheet_of([{"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3},
                   "penalties": [{"player": "B", "mountain": 2, "reason": "misdeal"}]}])
    assert s == {"mountain.A": 1, "mountain.B": 2}


def test_seed001_lone_whister_answers_for_the_whole_quota():
    """Seed 001 l.106: "Если завистовал только один … один он и несёт ответственность за взятие
    обязательного количества взяток" (a six: 4 tricks)."""
    s = sheet_of([{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 7, "B": 2, "C": 1}}])
    assert s == {"pool.A": 2, "whists.B.A": 6, "mountain.B": 2}


def test_seed003_greedy_passer_writes_only_consolation():
    """Seed 003 l.152: "W przypadku chciwego wista w przypadku «remisu» wisty zapisują się tylko dla
    wistującego, a pasujący zapisuje tylko za remis"."""
    s = sheet_of([{"contract": "7S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 6, "B": 3, "C": 1}}])
    assert s == {"mountain.A": 4, "whists.B.A": 4 * 4 + 4, "whists.C.A": 4}


def test_seed003_gentleman_split_and_half_whister_writes_nothing_on_remiz():
    """Seed 003 l.154: "W przypadku dżentelmeńskiego wista: w przypadku «remisu» wisty … zapisują się na
    pół … Odejście za połwistu w przypadku «remisu» rozgrywającego nie zapisuje wistów"."""
    split = sheet_of([{"contract": "7S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 6, "B": 3, "C": 1}}],
                     variant="rostov", consolation="price")
    assert split == {"mountain.A": 4, "whists.B.A": 8 + 4, "whists.C.A": 8 + 4}
    returned = sheet_of([{"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": HW}, "return": "B",
                          "tricks": {"A": 6, "B": 3, "C": 1}}], variant="rostov", consolation="price",
                        half_whist_consolation="written")
    assert returned == {"mountain.A": 4, "whists.B.A": 16 + 4, "whists.C.A": 4}


def test_seed003_without_three():
    """Seed 003 l.94: "Gracz ma prawo odejść «bez trzech», biorąc trzy wzięcia w górę bez wistów w tej
    grze, do której doszedł w licytacji"."""
    s = sheet_of([{"contract": "7H", "bid": "7S", "declarer": "A", "concede": True, "whist": {"B": W, "C": W}}],
                 without_three=True)
    assert s == {"mountain.A": 3 * 4}


#: a full deal: A deals, B opens 6S and wins the auction, takes the talon and names 7H
_CONCEDED_FULL = {"dealer": "A", "declarer": "B", "contract": "7H", "concede": True,
                  "hands": {"B": "AS KS QS JS 10S 9S AH KH 7D 7C", "C": "8S 7S QH JH 10H 9H AD KD QD JD",
                            "A": "8H 7H 10D 9D 8D AC KC QC JC 10C"},
                  "talon": "9C 8C", "auction": ["6S", "pass", "pass"], "discard": "7D 7C"}


def test_seed003_without_three_at_the_auctions_bid():
    """Seed 003 l.94: "… w tej grze, do której doszedł w licytacji": a full deal's auction says the
    game reached (6S), so its concession is 3 × 2 whether or not ``bid:`` repeats it (it was priced
    at the named 7H, 3 × 4)."""
    assert sheet_of([_CONCEDED_FULL], without_three=True) == {"mountain.B": 3 * 2}
    assert sheet_of([dict(_CONCEDED_FULL, bid="6S")], without_three=True) == {"mountain.B": 3 * 2}
    # rescored under other options, the same reading of the same auction
    assert sheet_of([_CONCEDED_FULL], variant="rostov", without_three=True) == {"mountain.B": 3 * 2}


def test_seed003_half_responsible_writes_half():
    """Seed 003 l.150: "Półodpowiedzialny - za ucieczkę na wist w górę zapisuje się połowę wartości gry"."""
    deal = [{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 8, "B": 1, "C": 1}}]
    assert sheet_of(deal)["mountain.B"] == 2 * 2
    assert sheet_of(deal, responsibility="half")["mountain.B"] == 2


def test_seed003_stalingrad_both_whist_six_spades():
    """Seed 003 l.144: "«Stalingrad» - obowiązek obu partnerów do wistowania przy zamówieniu kontraktu
    «szóstka pik»"."""
    deal = [{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 6, "B": 3, "C": 1}}]
    assert sheet_of(deal) == {"pool.A": 2, "whists.B.A": 8}
    # both count as whisters: each writes his own tricks; together they met the quota of 4
    assert sheet_of(deal, stalingrad=True) == {"pool.A": 2, "whists.B.A": 6, "whists.C.A": 2}


def test_fspr_dealer_returns_the_half_whist():
    """[FSPR*] (RUSSIAN-VARIANTS.md §1.7): "The dealer may whist after «пас – полвиста – пас» and
    then writes all the whists on a remise, but is not responsible for a shortfall"; seed 001:
    "При игре вчетвером право вернуть вист принадлежит также и сдатчику"."""
    deal = {"contract": "6D", "declarer": "B", "whist": {"C": PS, "D": HW}, "return": "A", "dealer": "A"}
    down = sheet_of([dict(deal, tricks={"B": 5, "C": 3, "D": 2})], players=P4, variant="leningrad",
                    half_whist_consolation="written")
    # 5 defenders' tricks × 4 by the dealer; consolation 4 by everyone (dealer, C, D)
    assert down == {"mountain.B": 4, "whists.A.B": 20 + 4, "whists.C.B": 4, "whists.D.B": 4}
    short = sheet_of([dict(deal, tricks={"B": 8, "C": 1, "D": 1})], players=P4, variant="leningrad")
    assert short == {"pool.B": 2, "whists.A.B": 8}            # nobody answers for the shortfall


def test_start_and_adjust_entries_are_explained():
    """FORMAT.md: `start:` is the opening sheet and `adjust:` a manual correction; both are
    ledger entries with their own rule keys."""
    res = run([{"adjust": {"pool": {"A": 2}, "mountain": {"B": -4}, "whists": {"C": {"A": 10}}, "note": "fix"}},
               {"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}],
              start={"pool": {"A": 4}, "mountain": {"C": 3}, "whists": {"B": {"C": 7}}})
    assert flat(res) == {"pool.A": 8, "mountain.B": -4, "mountain.C": 3, "whists.B.C": 7, "whists.C.A": 10}
    assert [e.rule for e in res.ledger.entries] == ["start"] * 3 + ["adjust"] * 3 + ["contract.unplayed"]
    assert flat(res, 1) == {"pool.A": 6, "mountain.B": -4, "mountain.C": 3, "whists.B.C": 7, "whists.C.A": 10}


def test_dark_and_bombs_ignored_without_the_dark_option():
    """Rescoring a Classic record under Sochi: dark and bomb are noted, not applied."""
    deals = [{"contract": "all-pass", "dark": True, "bomb": "A", "tricks": {"A": 4, "B": 3, "C": 3}},
             {"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}]
    classic = run(deals, variant="classic", pool=50)
    sochi = run(deals, variant="sochi", pool=50)
    assert flat(classic) == {"mountain.A": 2, "pool.A": 4}
    assert flat(sochi) == {"mountain.A": 1, "pool.A": 2}
    assert any("ignored" in n for n in sochi.notes)


def test_game_after_the_end_is_noted_once():
    deals = [{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}] * 3
    res = run(deals, pool=2, start={"pool": {"B": 2, "C": 2}})
    assert res.finished and res.notes == ["deals 2–3: played after the game ended at deal 1"]


def test_par_both_whist_six_two_and_nothing():
    """[PAR] (RUSSIAN-VARIANTS.md §1.4): "both whist a six and take 2 and 0 tricks; the one who
    took none pays for both undertricks"."""
    s = sheet_of([{"contract": "6S", "declarer": "A", "whist": both(), "tricks": {"A": 8, "B": 2, "C": 0}}])
    assert s == {"pool.A": 2, "whists.B.A": 4, "mountain.C": 4}


def test_kodeks_3_7_3_four_players_amnesty_counts_the_dealer():
    """[K 3.7.3] "4 players: amnesty counts the dealer's tricks (won from talon cards). If the
    dealer took 0, the reduction is 0"."""
    took = sheet_of([{"contract": "all-pass", "tricks": {"A": 2, "B": 2, "C": 3, "D": 3}}], players=P4)
    assert took == {"mountain.C": 1, "mountain.D": 1}
    none = sheet_of([{"contract": "all-pass", "tricks": {"B": 2, "C": 4, "D": 4}}], players=P4)
    assert none == {"mountain.B": 2, "mountain.C": 4, "mountain.D": 4, "pool.A": 1}


def test_seed004_consolation_by_everyone_including_the_dealer():
    """Seed 004 l.250: "Konsolidaciją paprastai rašo visi žaidėjai, įskaitant dalintoją" (the
    consolation is usually written by every player, the dealer included); [K 3.8.1.2]."""
    s = sheet_of([{"contract": "6S", "declarer": "B", "whist": {"C": W, "D": W},
                   "tricks": {"B": 5, "C": 3, "D": 2}}], players=P4)
    assert s == {"mountain.B": 2, "whists.C.B": 6 + 2, "whists.D.B": 4 + 2, "whists.A.B": 2}
