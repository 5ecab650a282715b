"""The seeds' worked examples that had no test naming them: each with the seed's own numbers, the
seed and line named in its name and the sentence quoted beside it.

The other worked examples are tested where their rule is (tests/test_scoring_kitty.py for seed
000, tests/test_scoring_lithuanian.py and tests/test_settle.py for seed 002,
tests/test_scoring_russian.py for seeds 001 and 003, tests/test_fidelity*.py for the rest), each
naming its seed and line too.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from helpers import messages
from prefcli.rules.presets import get_preset
from russian_helpers import run, sheet_of

W, PS, HW = "whist", "pass", "half-whist"
RUSSIAN = ("sochi", "leningrad", "rostov", "classic")


# =============================================================================================
# seed 000 (the Lithuanian eglutė and kitty game)
# =============================================================================================

def test_seed000_l249_pairwise_money():
    # l.247 "žaidėjas A iš žaidėjo B pelnė 270 vistų, o žaidėjas B iš žaidėjo A pelnė 120 vistų.
    # Rezultatas - 150 vistų A žaidėjo naudai … 420 … 480 vistų žaidėjo D naudai"; l.249 "Jeigu
    # buvo sutarta, kad už kiekvieną vistą bus mokama po 0,1 cento, tai žaidėjas A iš žaidėjo B gaus
    # 15 centų, iš žaidėjo C - 42 centus, o žaidėjui D pats sumokės 48 centus."
    from prefcli.settle import settle_sheet
    from prefcli.settle.money import exact_money
    from test_settle import SEED000_WHISTS, sheet
    st = settle_sheet(sheet("ABCD", {}, SEED000_WHISTS), {"method": "lithuanian-kitty"})
    assert st.pairwise["A"] == {"B": 150, "C": 420, "D": -480}
    cents = {p: v * 100 for p, v in exact_money(st.pairwise["A"], Decimal("0.001")).items()}
    assert cents == {"B": 15, "C": 42, "D": -48}


# =============================================================================================
# seeds 001 and 003 (Russian Sochi; Polish): the defenders' quota
# =============================================================================================

@pytest.mark.parametrize("variant", RUSSIAN + ("lithuanian", "lithuanian-kitty"))
def test_seed001_l108_and_seed003_l134_the_defenders_quota(variant):
    # seed 001 l.108-122 "Вистующие в сумме обязаны взять … 6 | 4 | 7 | 2 | 8 | 1 | 9 | 1 | 10 | 1 |
    # Мизер | нет обязательств"; seed 003 l.134-140 the same table; seed 002 l.89-91 (4, 2, then 1);
    # seed 000's table (l.99-181: 2 a whister alone at 6 … "kai žaidžia abu" 4)
    values = get_preset(variant).values
    assert [values[f"quota.{k}"] for k in (6, 7, 8, 9, 10)] == [4, 2, 1, 1, 1]


def test_seed001_l108_the_quota_in_numbers():
    # sochi, both whist (seed 004 l.424 "jie turi susumuoti … reikalingą triukų skaičių"): a 6 with
    # 4 defenders' tricks writes no mountain for them, 3 writes one; a 7 with 2 none, 1 one
    both = {"B": W, "C": W}
    assert sheet_of([{"contract": "6S", "declarer": "A", "whist": both, "tricks": {"A": 6, "B": 2, "C": 2}}]) == {
        "pool.A": 2, "whists.B.A": 4, "whists.C.A": 4}
    assert sheet_of([{"contract": "7S", "declarer": "A", "whist": both, "tricks": {"A": 8, "B": 1, "C": 1}}]) == {
        "pool.A": 4, "whists.B.A": 4, "whists.C.A": 4}
    short = sheet_of([{"contract": "7S", "declarer": "A", "whist": both, "tricks": {"A": 9, "B": 1, "C": 0}}])
    assert short["mountain.C"] == 4


# =============================================================================================
# seed 002 (the Lithuanian classical game)
# =============================================================================================

def _lt(deals, egles, dealer="W", **kw):
    from test_scoring_lithuanian import rec
    from prefcli.scoring import score
    start = {"mountain": {"N": 30, "E": 30, "S": 30, "W": 30},
             "state": {"leading_egles": 0, "egles": egles, "dealer": dealer}}
    start.update(kw.pop("start", {}))
    return score(rec(deals, first_dealer=dealer, start=start, **kw))


def _plain(d):
    from test_scoring_lithuanian import plain
    return plain(d)


def _whists(sheet):
    from test_scoring_lithuanian import whists
    return whists(sheet)


NONE = {"N": 0, "E": 0, "S": 0, "W": 0}


def test_seed002_l93_both_pass_is_won_without_a_fight():
    # l.93 "Jeigu abu žaidėjai atsisako vistuoti, žaidžiantysis laimi padalijimą be kovos … ir
    # užsirašo įvertinimą pagal 3 lentelę": a 6 → 6 to the track, 6 hens struck (l.129)
    s = _lt([{"contract": "6D", "declarer": "E", "whist": {"S": PS, "N": PS}}], NONE).sheet()
    assert _plain(s.pool) == {"N": 0, "E": 6, "S": 0, "W": 0}
    assert _plain(s.mountain) == {"N": 30, "E": 24, "S": 30, "W": 30}
    assert _whists(s) == {}


def test_seed002_l61_only_the_declarers_egles_count():
    # l.61 "Žaidimo įvertinimas priklauso tik nuo žaidžiančiojo turimų nesužaistų eglių, ir visai
    # neturi įtakos įvertinimui vistuojančiųjų eglės": l.133's 6♦ (E takes 6, N 3, S 1) scores
    # E 6 and 6 hens, N 36, S 12, though both whisters still have eglės
    deal = {"contract": "6D", "declarer": "E", "whist": {"S": W, "N": W}, "tricks": {"E": 6, "N": 3, "S": 1}}
    s = _lt([deal], {"N": 2, "E": 0, "S": 2, "W": 2}).sheet()
    assert _plain(s.pool)["E"] == 6 and _plain(s.mountain)["E"] == 24
    assert _whists(s) == {"N": {"E": 36}, "S": {"E": 12}}
    # the declarer's own eglė doubles it all (l.57 "vertinamas dvigubai … dvigubai daugiau")
    s = _lt([deal], {"N": 0, "E": 1, "S": 0, "W": 0}).sheet()
    assert _plain(s.pool)["E"] == 12 and _plain(s.mountain)["E"] == 18
    assert _whists(s) == {"N": {"E": 72}, "S": {"E": 24}}


def test_seed002_l57_l63_a_made_game_strikes_an_egle_and_then_no_doubling():
    # l.57 "Kai tik kuris nors žaidžiantysis laimi įsipareigotą žaidimą, jis nusibraukia vieną
    # eglę"; l.63 "Kai kuris nors žaidėjas sužaidžia visas savo egles, tolesni padalijimai, kuriuose
    # jis tampa žaidžiančiuoju, dvigubai nevertinami": E with one eglė makes two 6♦ unwhisted:
    # 12 (doubled), then 6
    deals = [{"contract": "6D", "declarer": "E", "whist": {"S": PS, "N": PS}},
             {"contract": "6D", "declarer": "E", "whist": {"W": PS, "S": PS}}]
    r = _lt(deals, {"N": 0, "E": 1, "S": 0, "W": 0})
    assert _plain(r.sheet(1).pool)["E"] == 12
    assert _plain(r.sheet().pool)["E"] == 18 and _plain(r.sheet().mountain)["E"] == 30 - 12 - 6
    assert r.state["egles"]["E"] == 0


def test_seed002_l59_a_failed_game_is_doubled_and_keeps_the_egle():
    # l.59 "Jeigu žaidžiantysis netesi paskelbto žaidimo … eglės nenubraukia, bet netesėto žaidimo
    # įvertinimas – vis tiek dvigubas": 6♦ one down with an eglė: 2 × 12 hens (l.131)
    deal = {"contract": "6D", "declarer": "E", "whist": {"S": W, "N": W}, "tricks": {"E": 5, "N": 4, "S": 1}}
    r = _lt([deal], {"N": 0, "E": 1, "S": 0, "W": 0})
    assert _plain(r.sheet().mountain)["E"] == 30 + 2 * 12
    assert r.state["egles"]["E"] == 1


def test_seed002_l163_selling_twelve_points_for_120_whists():
    # l.161 "šiuos taškus užrašo tuo momentu daugiausiai taškų take turinčiajam žaidėjui (sakoma –
    # «parduoda»), o pats savo vistų skiltyje iš šio varžovo gauna dešimt kartų daugiau vistų";
    # l.163 "Žaidėjas S užrašė žaidėjui W į taką 12 taškų, tad pats užsirašo iš jo 120 vistų."
    # S, his track full (120), makes a 6♠ with an eglė: 12 points, sold to W, who has the most
    start = {"pool": {"N": 50, "E": 40, "S": 120, "W": 100}}
    s = _lt([{"contract": "6S", "declarer": "S", "whist": {"W": PS, "N": PS}}], {"N": 0, "E": 0, "S": 1, "W": 0},
            dealer="E", start=start).sheet()
    assert _plain(s.pool) == {"N": 50, "E": 40, "S": 120, "W": 112}
    assert _whists(s) == {"S": {"W": 120}}
    assert _plain(s.mountain)["S"] == 30 - 12       # the hens are still struck (l.119)


# =============================================================================================
# seeds 003 and 004: the all-pass
# =============================================================================================

def test_seed003_l116_and_seed004_l232_no_trick_writes_one_tricks_price():
    # seed 003 l.116 "W Preferansie Sochi i Leningrad za każdą wziętą na rozpaskach kartę gracz
    # zapisuje określoną liczbę punktów w górę. Gracz, który nie wziął żadnej wziętej karty,
    # zapisuje wartość jednej wziętej karty w puli"; seed 004 l.232 the same
    deal = [{"contract": "all-pass", "tricks": {"A": 0, "B": 4, "C": 6}}]
    assert sheet_of(deal) == {"pool.A": 1, "mountain.B": 4, "mountain.C": 6}
    assert sheet_of(deal, variant="leningrad") == {"pool.A": 2, "mountain.B": 8, "mountain.C": 12}


def test_seed004_l234_rostov_all_pass():
    # l.234 "žaidėjas, paėmęs mažiau kyšių … už kiekvieną paimtą kyšį savo partneriams parašo
    # sutartą švilpimų skaičių. Dažniausiai tai yra 5 švilpukai už kyšį. Žaidėjas, kuris nesiima nė
    # vieno triuko, į kulką įrašo vieną tašką. Jei du žaidėjai surinko mažiausią triukų skaičių,
    # trečiajam jie rašo švilpimus per pusę."
    assert sheet_of([{"contract": "all-pass", "tricks": {"A": 1, "B": 3, "C": 6}}], variant="rostov") == {
        "whists.A.B": 15, "whists.A.C": 30}
    assert sheet_of([{"contract": "all-pass", "tricks": {"A": 0, "B": 4, "C": 6}}], variant="rostov") == {
        "pool.A": 1, "whists.A.B": 20, "whists.A.C": 30}
    assert sheet_of([{"contract": "all-pass", "tricks": {"A": 6, "B": 2, "C": 2}}], variant="rostov") == {
        "whists.B.A": 15, "whists.C.A": 15}


def test_seed004_l238_l240_arithmetic_and_geometric_progressions():
    # l.238 "už kyšį pirmame pravažiavime jie rašo vieną į kalną, antroje - du taškus, trečioje -
    # tris taškus"; l.240 "… vieną į kalną, antroje - ant dviejų, ant trečio - keturis taškus"
    deals = [{"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3}}] * 3

    def prices(variant):
        return [e.amount for e in run(deals, variant=variant).ledger.entries if e.rule == "allpass.tricks"]
    assert list(get_preset("sochi").values["allpass.progression"]) == [1, 2, 3]
    assert prices("sochi") == [1, 2, 3]
    assert list(get_preset("classic").values["allpass.progression"]) == [1, 2, 4]
    assert prices("classic") == [1, 2, 4]


# =============================================================================================
# seed 004: the declaration and the whist
# =============================================================================================

@pytest.mark.parametrize("contract, legal", [("7S", False), ("7C", False), ("8S", True), ("8C", True),
                                             ("7D", True), ("7H", True), ("7NT", True), ("6NT", False)])
def test_seed004_l316_bought_for_seven_diamonds(contract, legal):
    # l.316 "Jei žaidėjui buvo suteiktas septynių deimantų pirkinys, jis negali žaisti septyniais
    # kastuvais ar lazdomis, bet turi žaisti aštuoniais šiais kostiumais. Deimantuose, širdyse ir be
    # kozirių jis turi teisę žaisti septynis."
    msgs = messages([{"bid": "7D", "contract": contract, "declarer": "Bob", "whist": {"Cid": PS, "Ann": PS}}])
    assert (msgs == []) is legal
    if not legal:
        assert msgs == [f"deal 1: contract {contract} is below the winning bid 7D"]


def test_seed004_l424_the_split_between_two_whisters_does_not_matter():
    # l.424 "Jei abu žaidėjai deklaruoja švilpimą, jie turi susumuoti tam tikram žaidimui reikalingą
    # triukų skaičių, o jų kiekybinis pasiskirstymas tarp švilpėjų neturi reikšmės. Pavyzdžiui,
    # šešių žaidėjų žaidime vienas gynėjas gali atlikti 3 triukus, o antrasis – 1; arba vienas - 4
    # kyšiai, o kitas - 0."
    both = {"B": W, "C": W}
    for variant in RUSSIAN:
        for b, c in ((3, 1), (4, 0)):
            s = sheet_of([{"contract": "6S", "declarer": "A", "whist": both, "tricks": {"A": 6, "B": b, "C": c}}],
                         variant=variant)
            assert not any(k.startswith("mountain.") for k in s), (variant, b, c)


def test_seed004_l426_l430_who_answers_for_the_missing_tricks():
    # l.426 "šešiose rungtynėse – žaidėjas, atlikęs mažiau nei 2 triukus"; l.428 "septynetų žaidime
    # – kas neėmė kyšio"; l.430 "aštuntoje natoje Ir devynis kartus – kuris paskelbė «wist» antras
    # (taisyklė vadinama «2nd whist atsakinga»)". B speaks first (on A's left), C second.
    both = {"B": W, "C": W}
    six = sheet_of([{"contract": "6S", "declarer": "A", "whist": both, "tricks": {"A": 7, "B": 2, "C": 1}}])
    assert six == {"pool.A": 2, "whists.B.A": 4, "whists.C.A": 2, "mountain.C": 2}
    seven = sheet_of([{"contract": "7S", "declarer": "A", "whist": both, "tricks": {"A": 9, "B": 1, "C": 0}}])
    assert seven == {"pool.A": 4, "whists.B.A": 4, "mountain.C": 4}
    seven_b = sheet_of([{"contract": "7S", "declarer": "A", "whist": both, "tricks": {"A": 9, "B": 0, "C": 1}}])
    assert seven_b == {"pool.A": 4, "whists.C.A": 4, "mountain.B": 4}
    for level, price in ((8, 6), (9, 8)):
        s = sheet_of([{"contract": f"{level}S", "declarer": "A", "whist": both, "tricks": {"A": 10, "B": 0, "C": 0}}])
        assert s == {"pool.A": price, "mountain.C": price}


def test_seed004_l432_the_half_whist():
    # l.432 "… gali «išeiti už pusę švilpimo», o tai reiškia atsisakyti žaisti ir atpažinti žaidimą.
    # kaip žaidžiama gavus pusę reikalingo triukų skaičiaus, tada yra 2 triukai ant šešių ir 1 ant
    # septynių": the half-whister writes 2 × 2 on a 6, 1 × 4 on a 7 (sochi), the game made
    assert sheet_of([{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": HW}}]) == {"pool.A": 2, "whists.C.A": 4}
    assert sheet_of([{"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": HW}}]) == {"pool.A": 4, "whists.C.A": 4}
    # "(ant aštuonių ir devynių tu negali išsisukti su pusšimčiu …)"
    msgs = messages([{"contract": "8S", "declarer": "Bob", "whist": {"Cid": PS, "Ann": HW}}])
    assert msgs and all("half-whist" in m for m in msgs)


def test_seed004_l436_both_pass_an_eight_or_a_nine():
    # l.436 "Jei abu žaidėjai perduoda aštuntuką ir devintuką, lygiosios netraukiamos. Žaidimas
    # laikomas sužaistu": the declarer writes the game's price, nobody else anything
    assert sheet_of([{"contract": "8S", "declarer": "A", "whist": {"B": PS, "C": PS}}]) == {"pool.A": 6}
    assert sheet_of([{"contract": "9S", "declarer": "A", "whist": {"B": PS, "C": PS}}]) == {"pool.A": 8}


# =============================================================================================
# seed 004: the settlement
# =============================================================================================

def test_seed004_l96_l98_unclosed_pools_then_the_mountains():
    # l.96 "Pirmiausia nustatomas žaidėjas, turintis maksimalų taškų skaičių baseine. Iš šio skaičiaus
    # atimamos visų kitų žaidėjų kulkos, po kurių skirtumai pridedami prie įrašų kalne." l.98 "…
    # nustatomas mažiausiai taškų kalne turintis žaidėjas. Šis skaičius atimamas iš visų kitų
    # žaidėjų kalnų. Gautas rezultatas kiekvieno žaidėjo padauginamas iš 10 ir dalinamas iš žaidėjų
    # skaičiaus … Partnerių švilpukai vienas prieš kitą panaikina vienas kitą".
    # Pools A 20, B 14, C 10 (sochi, target 20), mountains A 4, B 2, C 4: the mountains become
    # 4, 2 + 6, 4 + 10 = 4, 8, 14; less the smallest, 0, 4, 10; × 10 / 3 each other player writes
    # 0 on A, 40/3 on B, 100/3 on C.
    from fractions import Fraction as F
    from prefcli.rules.presets import resolve_rules
    from prefcli.settle import settle_sheet
    from test_settle import sheet
    st = settle_sheet(sheet("ABC", {"A": 4, "B": 2, "C": 4}, {}, {"A": 20, "B": 14, "C": 10}),
                      resolve_rules({"variant": "sochi"}))
    assert st.mountain == {"A": 0, "B": 4, "C": 10}
    assert st.shares == {"A": 0, "B": F(40, 3), "C": F(100, 3)}
    assert st.net == {"A": F(140, 3), "B": F(100, 3) - F(80, 3), "C": F(40, 3) - F(200, 3)}
    assert st.pairwise["A"] == {"B": F(40, 3), "C": F(100, 3)}
    assert st.pairwise["B"]["C"] == F(100, 3) - F(40, 3)
