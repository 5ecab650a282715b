"""The Lithuanian "eglutė and kitty" game (seed 000, RULES.md §4): scorer tests.

Every worked example of seed 000 is here, each quoting the sentence it checks. Seats: D deals
first, so A is the first hand ("kairysis dalytojo kaimynas (pavadinkime jį A)").
"""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules
from prefcli.scoring import ScoringError, score

PLAYERS = ["D", "A", "B", "C"]
HENS = {"D": 100, "A": 100, "B": 100, "C": 100}


def rec(deals, players=PLAYERS, start=None, end=None, first_dealer="D", **rules):
    data = {"format": "pref-record/1", "players": list(players), "first_dealer": first_dealer,
            "rules": {"variant": "lithuanian-kitty", **rules}, "deals": deals}
    if start is not None:
        data["start"] = start
    if end is not None:
        data["end"] = end
    return record_from_data(data, strict=True)


def plain(d):
    return {k: (int(v) if F(v).denominator == 1 else v) for k, v in d.items()}


def whists(sheet):
    return {w: {on: int(v) if F(v).denominator == 1 else v for on, v in row.items() if v}
            for w, row in sheet.whists.items() if any(row.values())}


def one_deal(deal, **kw):
    """A single contract after the eglutė was skipped with no hens (the table's numbers alone)."""
    kw.setdefault("start", {"mountain": HENS})
    return score(rec([deal], skip_eglute=True, skip_eglute_hens=0, **kw)).sheet()


def six(b, c):
    return {"contract": "6S", "declarer": "A", "whist": {"B": "whist", "C": "whist"},
            "tricks": {"A": 10 - b - c, "B": b, "C": c}}


# ---------------------------------------------------------------------------------------------
# The seven whist examples
# ---------------------------------------------------------------------------------------------

def test_seed000_example_1():
    # seed 000 l.193: "1. A lošikas žaidžia 6 kirčius. B ir C vistavo. B paėmė 2 kirčius ir pelno 48 vistus. C paėmė
    # 2 kirčius ir pelno taip pat 48 vistus."
    s = one_deal(six(2, 2))
    assert whists(s) == {"B": {"A": 48}, "C": {"A": 48}}
    assert plain(s.mountain) == {"D": 100, "A": 94, "B": 100, "C": 100}
    assert plain(s.pool) == {"D": 0, "A": 6, "B": 0, "C": 0}


def test_seed000_example_2():
    # seed 000 l.195: "2. Situacija ta pati. B paėmė 3 kirčius, C - 1 kirtį. B pelno 72 vistus, C - 24"
    s = one_deal(six(3, 1))
    assert whists(s) == {"B": {"A": 72}, "C": {"A": 24}}


def test_seed000_example_3():
    # seed 000 l.197: "3. Situacija ta pati. B paėmė 1 kirtį, C- taip pat 1 kirtį. Abu - B ir C už paimtus kirčius
    # pelno po 24 vistus, o už trūkstamus kirčius užsirašo po 12 vištų."
    s = one_deal(six(1, 1))
    assert whists(s) == {"B": {"A": 24}, "C": {"A": 24}}
    assert plain(s.mountain) == {"D": 100, "A": 94, "B": 112, "C": 112}


def test_seed000_example_4():
    # seed 000 l.199: "4. Situacija ta pati. B paėmė 2 kirčius, C - 1 kirtį. B pelno 48 vistus, C pelno 24 vistus, o
    # už trūkstamą kirtį užsirašo 12 vištų."
    s = one_deal(six(2, 1))
    assert whists(s) == {"B": {"A": 48}, "C": {"A": 24}}
    assert plain(s.mountain) == {"D": 100, "A": 94, "B": 100, "C": 112}


def test_seed000_example_5():
    # seed 000 l.201: "5. Situacija ta pati. B paėmė 3 kirčius, C - nei vieno. B pelno 72 vistus, C užsirašo 12 vištų."
    s = one_deal(six(3, 0))
    assert whists(s) == {"B": {"A": 72}}
    assert plain(s.mountain) == {"D": 100, "A": 94, "B": 100, "C": 112}


def test_seed000_example_6():
    # seed 000 l.203: "6. A žaidžia mizerį ir paėmė 1 kirtį. Vistavęs žaidėjas pelno 72 vistus."
    s = one_deal({"contract": "misere", "declarer": "A", "whist": {"B": "whist", "C": "pass"}, "open": True,
                  "tricks": {"A": 1, "B": 5, "C": 4}})
    assert whists(s) == {"B": {"A": 72}}
    # seed 000 l.209: "Mizerį žaidęs lošikas vištas užsirašo už kiekvieną paimtą kirtį": 36 a trick
    assert plain(s.mountain)["A"] == 136


def test_seed000_example_7():
    # seed 000 l.203: "7. A žaidžia mizerį ir nepaėmė nei vieno kirčio. Vistavęs žaidėjas užsirašo 36 vištas."
    s = one_deal({"contract": "misere", "declarer": "A", "whist": {"B": "whist", "C": "pass"}, "open": True,
                  "tricks": {"A": 0, "B": 5, "C": 5}})
    assert whists(s) == {}
    assert plain(s.mountain) == {"D": 100, "A": 82, "B": 136, "C": 100}
    assert plain(s.pool)["A"] == 18


def test_misere_catchers_option():
    deal = {"contract": "misere", "declarer": "A", "whist": {"B": "whist", "C": "whist"},
            "tricks": {"A": 0, "B": 5, "C": 5}}
    assert plain(one_deal(deal).mountain) == {"D": 100, "A": 82, "B": 136, "C": 136}
    assert plain(one_deal(deal, misere_catchers="split").mountain) == {"D": 100, "A": 82, "B": 118, "C": 118}


# ---------------------------------------------------------------------------------------------
# The table (RULES.md §4.3) and the failed contract
# ---------------------------------------------------------------------------------------------

def test_seed000_nine_declared_six_taken():
    # seed 000 l.207: "loši- kas buvo paskelbęs 9 kirčius, o paėmė tik 6. Už 3 trūkstamus kirčius jis užsirašo po 30
    # vištų - iš viso 90."
    s = one_deal({"contract": "9H", "declarer": "A", "whist": {"B": "whist", "C": "pass"},
                  "tricks": {"A": 6, "B": 4, "C": 0}})
    assert plain(s.mountain)["A"] == 190
    assert whists(s) == {"B": {"A": 4 * 60}}       # whists for his own tricks only: no write-up


@pytest.mark.parametrize("contract,points,per_trick", [
    ("6D", 12, 24), ("7D", 18, 36), ("8D", 24, 48), ("9D", 30, 60), ("10D", 36, 72), ("misere", 36, 72)])
def test_table_values(contract, points, per_trick):
    # seed 000 l.99-181, the table: points, whists a trick, hens a missing trick
    rules = resolve_rules({"variant": "lithuanian-kitty"})
    key = "misere" if contract == "misere" else contract[:-1]
    assert rules[f"points.{key}"] == points and rules[f"whist_price.{key}"] == per_trick
    assert rules[f"shortfall.{key}"] == points and rules[f"remiz.{key}"] == points


def test_alone_help_and_open():
    # seed 000 l.89-93: "Vienas!" (the passer's cards put away), "Padėk!" (both play but "visa laimėjimo ar
    # pralaimėjimo rizika tenka vistavusiam žaidėjui"), "Verčiam!" (open, he plays both hands);
    # l.211 "Dviems žaidėjams privalomą kirčių skaičių turi paimti ir vienas vistuotojas, kuris žaidžia su
    # padėjėju ... arba atverstomis kortomis".
    alone = {"contract": "6C", "declarer": "A", "whist": {"B": "whist", "C": "pass"},
             "tricks": {"A": 7, "B": 3, "C": 0}}
    s = one_deal(alone)
    assert whists(s) == {"B": {"A": 72}} and plain(s.mountain)["B"] == 100
    help_ = dict(alone, takeover="B", tricks={"A": 7, "B": 2, "C": 1})
    s = one_deal(help_)
    assert whists(s) == {"B": {"A": 72}} and plain(s.mountain) == {"D": 100, "A": 94, "B": 112, "C": 100}
    open_ = dict(alone, open=True, tricks={"A": 7, "B": 2, "C": 1})
    s = one_deal(open_)
    assert whists(s) == {"B": {"A": 72}} and plain(s.mountain)["B"] == 112
    # a passer may not take over in the kitty game (option takeover: no)
    with pytest.raises(ScoringError, match="option takeover"):
        one_deal(dict(alone, takeover="C"))


def test_both_pass_made_without_play():
    # seed 000 l.85: "1. Abu gali tarti "pas" ... lošikas iš karto laikomas laimėjusiu paskelbtą žaidimą"
    s = one_deal({"contract": "8NT", "declarer": "A", "whist": {"B": "pass", "C": "pass"}})
    assert plain(s.pool)["A"] == 12 and plain(s.mountain)["A"] == 88 and whists(s) == {}


# ---------------------------------------------------------------------------------------------
# Half to the kitty, half striking hens; striking another player's hens; the near end
# ---------------------------------------------------------------------------------------------

def test_half_to_the_kitty_half_strikes_hens():
    # seed 000 l.205: "Pusė šių taškų eina į lošiko katilą, kita pusė - vištoms sumažinti."
    s = one_deal({"contract": "7S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}})
    assert plain(s.pool)["A"] == 9 and plain(s.mountain)["A"] == 91


def test_striking_another_players_hens():
    # seed 000 l.239: "Kai lošikas vištų turi mažiau, negu joms padengti teko taškų ... nubraukia atitinkamą kito
    # kurio nors žaidėjo vištų skaičių (paprastai to, kuris jų turi daugiausia) ir užsirašo iš to
    # žaidėjo priklausančius vistus, už 1 vištą skaičiuojant 10 vistų."
    start = {"mountain": {"D": 20, "A": 3, "B": 40, "C": 30}}
    s = one_deal({"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}, start=start)
    assert plain(s.mountain) == {"D": 20, "A": 0, "B": 37, "C": 30}
    assert whists(s) == {"A": {"B": 30}}
    s = one_deal({"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}, start=start,
                 strike_other="fewest")
    assert plain(s.mountain) == {"D": 17, "A": 0, "B": 40, "C": 30}


def test_seed000_near_end_split():
    # seed 000 l.241: "sutartas 60 taškų katilas. Lošikas turi 54 taškus, o už sėkmingą žaidimą pelnė 18 taškų.
    # Tokiu atveju į katilą užrašo ne 9, o 6 taškus. Kiti 12 taškų skiriami vištų skaičiui sumažinti."
    start = {"pool": {"A": 54}, "mountain": HENS}
    s = one_deal({"contract": "7S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}, start=start)
    assert plain(s.pool)["A"] == 60
    assert plain(s.mountain)["A"] == 88
    # and he completes the kitty: the full-kitty premium (twice 60) once on each other player;
    # the half-kitty premium was had before this sheet was carried over
    assert whists(s) == {"A": {"B": 120, "C": 120, "D": 120}}


# ---------------------------------------------------------------------------------------------
# Premiums, the hour, the end
# ---------------------------------------------------------------------------------------------

def test_half_kitty_premium_written_once_on_each_other_player():
    # seed 000 l.235: "Nustatytas premijos vistų skaičius užrašomas tris kartus (kai žaidžia trise - du kartus)"
    start = {"pool": {"A": 24, "B": 27}, "mountain": HENS}
    s = one_deal({"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}, start=start)
    assert plain(s.pool)["A"] == 30
    assert whists(s) == {"A": {"B": 60, "C": 60, "D": 60}}
    s = score(rec([{"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}],
                  players=["C", "A", "B"], first_dealer="C",
                  start={"pool": {"A": 24}, "mountain": {"C": 100, "A": 100, "B": 100}},
                  skip_eglute=True)).sheet()
    assert whists(s) == {"A": {"B": 60, "C": 60}}


def test_stopped_by_the_hour_no_full_kitty_premium():
    # seed 000 l.13: "Jeigu, suėjus sutartai valandai, partija dar būna nebaigta (dar nei vienas
    # žaidėjas nesurinko katilo) … Nutraukus nebaigtą partiją, premija už visą katilą neskiriama."
    start = {"pool": {"A": 36}, "mountain": HENS}
    r = score(rec([{"contract": "6S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}], start=start,
                  end={"reason": "time"}, skip_eglute=True, skip_eglute_hens=0))
    assert r.sheet().pool["A"] == 36 + 6          # 12 points: half to the kitty, half strike hens
    assert whists(r.sheet()) == {}                # the kitty of 60 not completed: no premium
    assert r.finished
    assert "stopped at the agreed hour: no full-kitty premium (seed 000 l.13)" in r.notes


def test_the_kitty_completed_keeps_its_premium_in_a_game_marked_stopped_at_the_hour():
    # seed 000 l.11 "Kai tik kuris nors žaidėjas surenka sutartą katilą, partija yra baigta", and
    # l.13 withholds the premium only from an unfinished game "(dar nei vienas žaidėjas nesurinko
    # katilo)": A completes the kitty of 60 at deal 1 (54 + 6, seed 000 l.241), so the record's
    # end: time does not take the premium away (it was withheld)
    start = {"pool": {"A": 54}, "mountain": HENS}
    deal = {"contract": "7S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}
    kw = dict(start=start, skip_eglute=True, skip_eglute_hens=0)
    timed = score(rec([deal], end={"reason": "time"}, **kw))
    assert whists(timed.sheet()) == {"A": {"B": 120, "C": 120, "D": 120}}     # 2 × the half premium of 60
    assert whists(timed.sheet()) == whists(score(rec([deal], **kw)).sheet())
    assert timed.finished
    assert any("the full-kitty premium stands" in n for n in timed.notes)


def test_no_deal_after_the_kitty_is_complete():
    # seed 000 l.11: "Kai tik kuris nors žaidėjas surenka sutartą katilą, partija yra baigta."
    start = {"pool": {"A": 54}, "mountain": HENS}
    deal = {"contract": "7S", "declarer": "A", "whist": {"B": "pass", "C": "pass"}}
    with pytest.raises(ScoringError, match="deal 2: the game ended at deal 1"):
        score(rec([deal, dict(deal, declarer="B", whist={"C": "pass", "D": "pass"})], start=start,
                  skip_eglute=True))


# ---------------------------------------------------------------------------------------------
# Eglutė deals and the declarer's rights
# ---------------------------------------------------------------------------------------------

def eglute(dealer, players=PLAYERS):
    active = [p for p in players if p != dealer] if len(players) == 4 else list(players)
    counts = iter([2, 3, 5])
    return {"contract": "all-pass", "tricks": {p: next(counts) for p in active}}


def test_eglute_three_hens_a_trick():
    # seed 000 l.23: "Už kiekvieną paimtą kirtį skiriami 3 baudos taškai, vadinami vištomis."
    s = score(rec([eglute("D")])).sheet()
    assert plain(s.mountain) == {"D": 0, "A": 6, "B": 9, "C": 15}
    assert plain(s.pool) == {"D": 0, "A": 0, "B": 0, "C": 0}     # no zero-trick bonus in seed 000


def test_skipped_eglute_thirty_hens_each():
    # seed 000 l.25: "Kartais žaidėjai, taupydami laiką, susitaria eglutės žaidimo nežaisti. Tokiu atveju visi jie
    # užsirašo po 30 vištų."
    s = score(rec([], skip_eglute=True)).sheet()
    assert plain(s.mountain) == {"D": 30, "A": 30, "B": 30, "C": 30}


def test_rights_halving_and_the_extra_eglute():
    # seed 000 l.29: "Kiekvienas žaidėjas lošiku gali būti tiek kartų, kiek kartų buvo žaisti eglutės žaidimai";
    # beyond that (l.31) "visi taškai, vistai ir vištos tiek už laimėjimą, tiek ir už pralaimėjimą, tiek
    # lošikui, tiek ir jo varžovams, mažinami pusiau"; after an extra eglutė (l.41) "žaidėjas įgyja teisę
    # ateityje dar kartą būti lošiku su nesumažintais rezultatais".
    players = ["D", "A", "B"]          # three players: everyone is active, 3 eglutė deals
    deals = [eglute(None, players) for _ in range(3)]

    def made(n):
        return {"contract": "6S", "declarer": "A", "whist": {"B": "whist", "D": "whist"},
                "tricks": {"A": 6, "B": 2, "D": 2}}
    deals += [made(i) for i in range(4)]
    deals += [eglute(None, players), made(5)]
    r = score(rec(deals, players=players, pool=300))
    pool = [r.sheet(k).pool["A"] for k in range(3, 10)]
    assert [pool[i + 1] - pool[i] for i in range(6)] == [6, 6, 6, 3, 0, 6]
    s3, s7 = r.sheet(6), r.sheet(7)
    assert s7.whists["B"]["A"] - s3.whists["B"]["A"] == 24      # halved whists for the defenders too
    assert r.extra["deals"][6]["factor"] == F(1, 2)
    assert r.extra["deals"][8]["factor"] == 1


def test_failed_contract_beyond_rights_is_halved_too():
    deals = [{"contract": "6S", "declarer": "A", "whist": {"B": "whist", "C": "whist"},
              "tricks": {"A": 5, "B": 3, "C": 2}}]
    r = score(rec(deals, skip_eglute=True, eglutes=0, skip_eglute_hens=0, start={"mountain": HENS}))
    s = r.sheet()
    assert plain(s.mountain)["A"] == 106
    assert whists(s) == {"B": {"A": 36}, "C": {"A": 24}}


def test_dark_and_bomb_refused():
    with pytest.raises(ScoringError, match="dark is not part"):
        one_deal(dict(six(2, 2), dark=True))


# ---------------------------------------------------------------------------------------------
# Seed 000's settlement table: the final sheet of FORMAT.md §2
# ---------------------------------------------------------------------------------------------

FINAL = {"pool": {"A": 60, "B": 60, "C": 60, "D": 60}, "mountain": {"A": 0, "B": 0, "C": 0, "D": 0},
         "whists": {"A": {"B": 270, "C": 480, "D": 180}, "B": {"A": 120, "C": 360, "D": 90},
                    "C": {"A": 60, "B": 420, "D": 240}, "D": {"A": 660, "B": 210, "C": 150}}}


def test_seed000_settlement_table():
    # seed 000's table (l.255-317): "930 -840 +90 ... 570 -900=-330 720 -990=-270 ... 1020 -510 +510";
    # l.317 "B sumoka 33 centus, o C-27 centus, A gauna 9 centus, o D-51"
    r = score(rec([], players=["A", "B", "C", "D"], first_dealer="A", start=FINAL))
    s = r.sheet()
    won = {p: sum(s.whists[p].values()) for p in s.players}
    lost = {p: sum(s.whists[q][p] for q in s.players if q != p) for p in s.players}
    assert won == {"A": 930, "B": 570, "C": 720, "D": 1020}
    assert lost == {"A": 840, "B": 900, "C": 990, "D": 510}
    assert {p: won[p] - lost[p] for p in s.players} == {"A": 90, "B": -330, "C": -270, "D": 510}
    from prefcli.settle import settle_sheet
    st = settle_sheet(s, r.rules)
    assert plain(st.net) == {"A": 90, "B": -330, "C": -270, "D": 510}
    # l.249 "žaidėjas A iš žaidėjo B gaus 15 centų, iš žaidėjo C - 42 centus, o žaidėjui D pats sumokės 48"
    assert plain(st.pairwise["A"]) == {"B": 150, "C": 420, "D": -480}


def test_kitty_words():
    rules = resolve_rules({"variant": "lithuanian-kitty"})
    assert rules.word("pool") == "kitty" and rules.word("mountain") == "hens"
    for name in ("misere_catchers", "skip_eglute", "allpass.same_dealer", "shortfall_8_10"):
        assert "(inferred)" in rules.family.option(name).meaning
