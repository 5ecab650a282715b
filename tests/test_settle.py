"""Settlement methods, money rounding and payments (issue 6), from the seeds' worked examples.

Every number below that a seed or the Кодекс prints is quoted next to its assertion.
"""
from decimal import Decimal
from fractions import Fraction as F

import pytest

from prefcli.model.records import SheetData
from prefcli.rules.presets import resolve_rules
from prefcli.settle import (METHODS, Payment, SettlementError, check_payments, money, payments,
                            round_hens, round_money, settle_sheet)


def sheet(players, mountain=None, whists=None, pool=None):
    players = tuple(players)
    base = SheetData.empty(players)
    for p, v in (mountain or {}).items():
        base.mountain[p] = F(v)
    for p, v in (pool or {}).items():
        base.pool[p] = F(v)
    for a, row in (whists or {}).items():
        for b, v in row.items():
            base.whists[a][b] = F(v)
    return base


# --- seed 000: the kitty game's table ---------------------------------------------------------

SEED000_WHISTS = {  # FORMAT.md §2 / RULES.md §4.4: whists[X][Y] = what X won from Y
    "A": {"B": 270, "C": 480, "D": 180},
    "B": {"A": 120, "C": 360, "D": 90},
    "C": {"A": 60, "B": 420, "D": 240},
    "D": {"A": 660, "B": 210, "C": 150},
}


def test_seed000_table_nets_and_money():
    # seed 000 l.255-317: "930 -840 +90 … 570 -900=-330 720 -990=-270 … 1020 -510 +510"
    # and "Šiuo atveju B sumoka 33 centus, o C-27 centus, A gauna 9 centus, o D-51 centą."
    s = sheet("ABCD", {p: 0 for p in "ABCD"}, SEED000_WHISTS, {p: 60 for p in "ABCD"})
    st = settle_sheet(s, resolve_rules({"variant": "lithuanian-kitty", "price": "0.001"}))
    assert st.net == {"A": 90, "B": -330, "C": -270, "D": 510}
    m = money(st.net, Decimal("0.001"), Decimal("0.01"), st.players)
    assert m == {"A": Decimal("0.09"), "B": Decimal("-0.33"), "C": Decimal("-0.27"), "D": Decimal("0.51")}


def test_seed000_pairwise_direct_settlement():
    # seed 000 l.247-249: "žaidėjas A iš žaidėjo B gaus 15 centų, iš žaidėjo C - 42 centus, o žaidėjui D pats
    # sumokės 48 centus" (150, 420 and -480 whists at 0.1 cent)
    s = sheet("ABCD", {}, SEED000_WHISTS)
    st = settle_sheet(s, {"method": "lithuanian-kitty"})
    assert st.pairwise["A"] == {"B": 150, "C": 420, "D": -480}
    for a in "ABCD":
        for b in "ABCD":
            if a != b:
                assert st.pairwise[a][b] == -st.pairwise[b][a]


def test_kitty_hens_split_among_the_others():
    # seed 000 l.247: "kiekvienas žaidėjas padalija po lygiai kitiems 3 žaidėjams … savo turimas vištas, o
    # pastarieji už kiekvieną jiems tenkančią vištą užsirašo … po 10 vistų"
    s = sheet("ABCD", {"A": 30, "B": 0, "C": 6, "D": 0})
    st = settle_sheet(s, resolve_rules({"variant": "lithuanian-kitty"}))
    assert st.shares == {"A": 100, "B": 0, "C": 20, "D": 0}
    assert st.net == {"A": -300 + 20, "B": 100 + 20, "C": 100 - 60, "D": 100 + 20}
    # three players: split between the other 2
    s3 = sheet("ABC", {"A": 9, "B": 0, "C": 0})
    st3 = settle_sheet(s3, resolve_rules({"variant": "lithuanian-kitty"}))
    assert st3.shares["A"] == 45 and st3.net == {"A": -90, "B": 45, "C": 45}


# --- seed 002: the classical game's hens and money --------------------------------------------

def test_seed002_hens_to_whists():
    # seed 002 l.175: "N turi 42 vištas, E – 18, S – 54, W – 81 … lieka: N -24, E – 0, S – 36, W – 63."
    # l.177 "dalija iš keturių ir suapvalina vieneto tikslumu, tad žaidėjo N gautas skaičius – 6, E – 0,
    # S – 9, W – 16 … Iš žaidėjo N kiti trys … užsirašo po 60 vistų …, iš žaidėjo E neužsirašo
    # nieko, iš S – po 90 ir iš W – po 160."
    s = sheet("NESW", {"N": 42, "E": 18, "S": 54, "W": 81})
    st = settle_sheet(s, resolve_rules({"variant": "lithuanian"}))
    assert st.mountain == {"N": 24, "E": 0, "S": 36, "W": 63}
    assert st.shares == {"N": 60, "E": 0, "S": 90, "W": 160}
    # each player's net from the hens alone: the others' shares minus 3 × his own
    assert st.net == {"N": 250 - 180, "E": 310, "S": 220 - 270, "W": 150 - 480}


def seed002_sheet():
    """Seed 002's end of game. The seed prints the hens and S's whist columns *after* the hens
    were turned into whists ("SW 700, SN 888, SE 333 … W – 510, N – 630, E – 693"); Table 8 with the
    other columns is missing from the text, so the N–E, N–W and E–W columns are chosen to give the
    totals the seed prints (N −854, E +1375, W −609). The hen whists are taken back out of S's
    columns: SW 700 − 160, SN 888 − 60, W on S 510 − 90, N on S 630 − 90, E on S 693 − 90."""
    whists = {
        "S": {"W": 700 - 160, "N": 888 - 60, "E": 333 - 0},
        "W": {"S": 510 - 90, "N": 400 - 60, "E": 200 - 0},
        "N": {"S": 630 - 90, "E": 300 - 0, "W": 304 - 160},
        "E": {"S": 693 - 90, "N": 800 - 60, "W": 715 - 160},
    }
    return sheet("NESW", {"N": 42, "E": 18, "S": 54, "W": 81}, whists)


def test_seed002_totals_and_money():
    # seed 002 l.187: "S skiltyje SW turi iš viso 700 vistų … SN … 888 … SE 333" and
    # l.189 "Žaidėjas W – 510 vistų, žaidėjas N – 630, ir E – 693"; l.197-199 "- 854 ir – 609 … + 1375 ir + 88";
    # l.201 "N būtų pralaimėjęs 85 centus, W – 61 centą, o žaidėjai E ir S būtų laimėję atitinkamai 1,37
    # lito ir 9 centus" at "0,1 cento" a point.
    st = settle_sheet(seed002_sheet(), resolve_rules({"variant": "lithuanian"}))
    assert st.pairwise["S"] == {"W": 700 - 510, "N": 888 - 630, "E": 333 - 693}
    assert st.net == {"N": -854, "E": 1375, "S": 88, "W": -609}
    m = money(st.net, Decimal("0.001"), Decimal("0.01"), st.players)
    assert m == {"N": Decimal("-0.85"), "E": Decimal("1.37"), "S": Decimal("0.09"), "W": Decimal("-0.61")}
    assert sum(m.values()) == 0


def test_money_rounding_is_floor_then_largest_remainders():
    # FORMAT.md §3: floors −0.86, +1.37, +0.08, −0.61 sum to −0.02: two coins go to the largest
    # remainders, S (0.008) and N (0.006); E's remainder 0.005 gets none, so E stays at 1.37.
    exact = {"N": F(-854, 1000), "E": F(1375, 1000), "S": F(88, 1000), "W": F(-609, 1000)}
    assert round_money(exact, Decimal("0.01")) == {
        "N": Decimal("-0.85"), "E": Decimal("1.37"), "S": Decimal("0.09"), "W": Decimal("-0.61")}


def test_money_ties_go_to_the_earlier_seat():
    # three equal remainders and one coin missing: the first seat gets it
    exact = {"A": F(1, 3), "B": F(1, 3), "C": F(-2, 3)}
    out = round_money(exact, Decimal("1"), ["A", "B", "C"])
    assert out == {"A": 1, "B": 0, "C": -1}
    out = round_money(exact, Decimal("1"), ["B", "A", "C"])
    assert out == {"A": 0, "B": 1, "C": -1}
    assert round_money({"A": F(5, 1000), "B": F(-5, 1000)}, Decimal("0.01"), "AB") == {
        "A": Decimal("0.01"), "B": Decimal("-0.01")}


def test_money_keeps_the_coin_exponent_and_odd_coins():
    out = round_money({"A": F(1234, 100), "B": F(-1234, 100)}, Decimal("0.05"), "AB")
    assert out == {"A": Decimal("12.35"), "B": Decimal("-12.35")}
    assert sum(out.values()) == 0
    with pytest.raises(SettlementError):
        round_money({"A": F(0)}, Decimal("0"))


def test_round_hens_modes():
    assert round_hens(F(63, 4)) == 16 and round_hens(F(24, 4)) == 6
    assert round_hens(F(10, 4)) == 3                      # half up (inferred default)
    assert round_hens(F(10, 4), "half-even") == 2
    assert round_hens(F(10, 4), "down") == 2
    assert round_hens(F(10, 4), "exact") == F(5, 2)
    with pytest.raises(SettlementError):
        round_hens(F(1), "sideways")


def test_lithuanian_hens_rounding_option():
    s = sheet("NESW", {"N": 10, "E": 0, "S": 0, "W": 0})
    assert settle_sheet(s, resolve_rules({"variant": "lithuanian"})).shares["N"] == 30
    st = settle_sheet(s, resolve_rules({"variant": "lithuanian", "hens_rounding": "down"}))
    assert st.shares["N"] == 20
    st = settle_sheet(s, resolve_rules({"variant": "lithuanian", "hens_rounding": "exact"}))
    assert st.shares["N"] == 25
    # 3 players: "dalijamas ne iš 4, bet iš 3" (seed 002 l.287)
    s3 = sheet("NES", {"N": 9, "E": 0, "S": 0})
    assert settle_sheet(s3, resolve_rules({"variant": "lithuanian"})).shares["N"] == 30


# --- the Russian method (seed 001, seed 004, Кодекс) -------------------------------------------

def test_russian_mountain_times_ten_over_players():
    # seed 001 l.139: "гора каждого игрока умножается на 10 и делится на количество участников игры.
    # Частное … записывается каждому игроку в графу висты на того из противников, чью гору …"
    s = sheet("ABC", {"A": 12, "B": 30, "C": 0}, pool={p: 20 for p in "ABC"})
    st = settle_sheet(s, resolve_rules({"variant": "sochi"}))
    assert st.shares == {"A": 40, "B": 100, "C": 0}
    assert st.pairwise["A"] == {"B": 60, "C": -40}
    assert st.net == {"A": 100 - 80, "B": 40 - 200, "C": 140}


def test_average_mountain_presentation_gives_the_same_numbers():
    # seed 004 l.99 (method 2): "kalnai sumuojami, o suma padalijama iš žaidėjų skaičiaus. Kiekvienas
    # žaidėjas iš gauto vidutinio skaičiaus atima kalną … padauginamas iš 10"
    s = sheet("ABCD", {"A": 7, "B": 30, "C": 0, "D": 11},
              {"A": {"B": 8, "C": 4}, "B": {"D": 12}, "C": {"A": 6, "D": 2}, "D": {"A": 20}},
              {p: 20 for p in "ABCD"})
    st = settle_sheet(s, resolve_rules({"variant": "sochi"}))
    avg = st.average_mountain
    assert avg == F(7 + 30 + 0 + 11 - 0, 4)
    for p in "ABCD":
        assert st.mountain_balance[p] == 10 * (avg - st.mountain[p])
        assert st.net[p] == st.whist_balance[p] + st.mountain_balance[p]
        assert st.net[p] == sum(st.pairwise[p].values())


def test_kodeks_s3_pairwise_check():
    # RUSSIAN-VARIANTS.md §7.3 S-3 [RP] "Таблица 8": A–B: 114 − 70 = 44 (B wins 44 from A);
    # B–C: 180 − 96 = 84 (C from B); C–A: 140 − 100 = 40 (C from A).
    # Stage 2: A = (−44) + (−40) = −84; B = (−84) + 44 = −40; C = 40 + 84 = 124.
    s = sheet("ABC", {}, {"B": {"A": 114, "C": 96}, "A": {"B": 70, "C": 100}, "C": {"B": 180, "A": 140}},
              {p: 20 for p in "ABC"})
    st = settle_sheet(s, resolve_rules({"variant": "sochi"}))
    assert st.pairwise["B"]["A"] == 44 and st.pairwise["C"]["B"] == 84 and st.pairwise["C"]["A"] == 40
    assert st.net == {"A": -84, "B": -40, "C": 124}


def test_kodeks_s4_six_mountain_points_are_fifteen_whists_to_each_of_three():
    # §7.3 S-4 [K 4.1.1]: "Those 6 gora points are worth 15 whists to each of his three partners
    # (6 × 10 / 4), not 20."
    before = sheet("ABCD", {"A": 20, "B": 10, "C": 4, "D": 8}, pool={p: 20 for p in "ABCD"})
    after = sheet("ABCD", {"A": 14, "B": 10, "C": 4, "D": 8}, pool={p: 20 for p in "ABCD"})
    r = resolve_rules({"variant": "sochi"})
    s0, s1 = settle_sheet(before, r), settle_sheet(after, r)
    for p in "BCD":
        assert s1.pairwise[p]["A"] - s0.pairwise[p]["A"] == -15
    assert s1.net["A"] - s0.net["A"] == 45


def test_kodeks_s1_mountain_shares_rounding():
    # §7.3 S-1 [K 4.2.12]: "To make a gora divisible by 3, one player has 1 point removed from his
    # gora. The other two each write 3 whists on him, 'losing 0.33 whist each'."
    s = sheet("ABC", {"A": 10, "B": 0, "C": 0}, pool={p: 20 for p in "ABC"})
    exact = settle_sheet(s, resolve_rules({"variant": "sochi"}))
    assert exact.shares["A"] == F(100, 3)
    rounded = settle_sheet(s, resolve_rules({"variant": "sochi", "rounding": "mountain-shares"}))
    assert rounded.shares["A"] == 33          # 30 for the 9 points + 3 whists each
    for p in "BC":
        assert exact.net[p] - rounded.net[p] == F(1, 3)
    assert rounded.net == {"A": -66, "B": 33, "C": 33}


def test_every_share_and_truncate_roundings_keep_a_zero_sum():
    s = sheet("ABC", {"A": 10, "B": 4, "C": 0}, {"A": {"B": F(7, 3)}}, {p: 20 for p in "ABC"})
    for mode in ("every-share", "truncate"):
        st = settle_sheet(s, resolve_rules({"variant": "sochi", "rounding": mode}))
        assert sum(st.net.values()) == 0
        for p in "ABC":
            assert st.net[p] == sum(st.pairwise[p].values())
    st = settle_sheet(s, resolve_rules({"variant": "sochi", "rounding": "every-share"}))
    assert all(v.denominator == 1 for row in st.pairwise.values() for v in row.values())
    st = settle_sheet(s, resolve_rules({"variant": "sochi", "rounding": "truncate"}))
    assert all(st.mountain_balance[p].denominator == 1 for p in "AB")
    # exact: average 14/3, so A −160/3 → −53, B +20/3 → 6, and C (last seat) takes 47
    assert (st.mountain_balance["A"], st.mountain_balance["B"], st.mountain_balance["C"]) == (-53, 6, 47)


def test_leningrad_unwhisted_six_unclosed():
    # §9.2.1 [SP]: "3 players, unwhisted six: the declarer writes 2 into pulya. Net: 2 × 20 −
    # (2 × 20)/3 = 26.66 whists for him (13.33 from each opponent)."
    s = sheet("ABC", pool={"A": 2, "B": 0, "C": 0})
    st = settle_sheet(s, resolve_rules({"variant": "leningrad"}))
    assert st.net["A"] == 2 * 20 - F(40, 3)
    assert st.pairwise["A"] == {"B": F(40, 3), "C": F(40, 3)}


def test_leningrad_overs_and_unders():
    # §9.2.2 [K 4.2.3.3]: "Pulya to 50, three players all at 48. One makes an 8 → his pulya 54 …
    # At settlement he writes 8 off his gora (2 × 4 overplayed), and each of the other two adds 4 to
    # gora (2 × 2 underplayed)."
    s = sheet("ABC", {"A": 10, "B": 10, "C": 10}, pool={"A": 54, "B": 48, "C": 48})
    r = resolve_rules({"variant": "leningrad", "pool": 50})
    st = settle_sheet(s, r)
    # mountains 2, 14, 14 → amnesty 0, 12, 12
    assert st.mountain == {"A": 0, "B": 12, "C": 12}
    assert st.net == {"A": 80, "B": -40, "C": -40}
    # the same numbers as valuing a pool point at 20 whists (pool_point_whists)
    no_overs = settle_sheet(s, resolve_rules({"variant": "leningrad", "pool": 50, "leningrad_overs": False}))
    assert no_overs.net == st.net


def test_unclosed_pools_valued_by_pool_point_whists():
    # §9.5.1 [K 3.8.5.1]: a made misère with 4 players, "B and the dealer each 'lose 25 whists'
    # (INF: 10 × 10 / 4)"; the declarer gains 75.
    s = sheet("ABCD", pool={"A": 10})
    st = settle_sheet(s, resolve_rules({"variant": "sochi"}))
    assert st.net == {"A": 75, "B": -25, "C": -25, "D": -25}
    st = settle_sheet(s, resolve_rules({"variant": "sochi", "pool_point_whists": 20}))
    assert st.net == {"A": 150, "B": -50, "C": -50, "D": -50}


def test_al_four_player_remiz_mountain_shares():
    # §9.5.3 [AL]: "A: gora 8 = 80 whists; 80 : 4 = 20 to each of B, C, D (60 in total)."
    s = sheet("ABCD", {"A": 8}, pool={p: 20 for p in "ABCD"})
    st = settle_sheet(s, resolve_rules({"variant": "sochi"}))
    assert st.shares["A"] == 20
    assert st.net == {"A": -60, "B": 20, "C": 20, "D": 20}


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "rostov", "classic", "lithuanian", "lithuanian-kitty"])
@pytest.mark.parametrize("rounding", ["exact", "mountain-shares", "every-share", "truncate"])
def test_amnesty_never_changes_a_result(variant, rounding):
    # seed 001 l.139: "гора каждого может быть уменьшена на одинаковое количество очков"; seed 002:
    # l.175 "visiems nubraukiama tiek vištų, kiek jų liko mažiausiai turinčiam žaidėjui".
    base = {"A": 17, "B": 42, "C": 5, "D": 23}
    w = {"A": {"B": 13, "D": 7}, "C": {"A": 22}, "D": {"B": 5, "C": 1}}
    rules = resolve_rules({"variant": variant, "rounding": rounding})
    ref = settle_sheet(sheet("ABCD", base, w, {"A": 20, "B": 14, "C": 20, "D": 9}), rules)
    for shift in (-5, -17, 3, 100):
        other = settle_sheet(sheet("ABCD", {p: v + shift for p, v in base.items()}, w,
                                   {"A": 20, "B": 14, "C": 20, "D": 9}), rules)
        assert other.net == ref.net
        assert other.pairwise == ref.pairwise


def test_methods_are_a_table():
    assert set(METHODS) == {"russian", "lithuanian", "lithuanian-kitty"}
    with pytest.raises(SettlementError):
        settle_sheet(sheet("ABC"), {"method": "italian"})


def test_bad_sheets_are_refused():
    bad = SheetData(("A", "B", "C"), {}, {"Z": F(1)}, {})
    with pytest.raises(SettlementError) as e:
        settle_sheet(bad, {"method": "russian"})
    assert "Z" in e.value.message and e.value.path == ("mountain", "Z")


# --- payments ------------------------------------------------------------------------------

def test_payments_seed000():
    m = {"A": Decimal("0.09"), "B": Decimal("-0.33"), "C": Decimal("-0.27"), "D": Decimal("0.51")}
    pays = payments(m, "ABCD")
    assert pays == [Payment("B", "D", Decimal("0.33")), Payment("C", "D", Decimal("0.18")),
                    Payment("C", "A", Decimal("0.09"))]
    check_payments(m, pays)


def test_payments_in_whists_and_nobody_owing():
    assert payments({"A": F(0), "B": F(0)}) == []
    pays = payments({"A": F(40, 3), "B": F(-40, 3)})
    assert pays == [Payment("B", "A", F(40, 3))]
    with pytest.raises(SettlementError):
        payments({"A": F(1), "B": F(0)})
    with pytest.raises(SettlementError):
        check_payments({"A": F(1), "B": F(-1)}, [Payment("B", "A", F(2))])


def _ordered(value):
    """A settlement's fields with every dict as its items in order (dict equality ignores it)."""
    import dataclasses
    if dataclasses.is_dataclass(value):
        return [(f.name, _ordered(getattr(value, f.name))) for f in dataclasses.fields(value)]
    if isinstance(value, dict):
        return [(k, type(v).__name__, _ordered(v)) for k, v in value.items()]
    return value


def test_the_pairs_in_whole_units_are_the_pairs_fraction_by_fraction(monkeypatch):
    """settle_sheet counts the pairs and balances in integer units of the least common
    denominator (roundings that keep them exact): the same Settlement, every dict in the same
    order and every value the same Fraction, as the Fraction by Fraction way, for random sheets
    of 2 to 5 players with whole, half, third and decimal amounts, under every method and both
    roundings it takes, with pools to value."""
    import random
    from prefcli.settle import methods
    rng = random.Random(8)
    names = ["Ann", "Bob", "Cid", "Dan", "Eve"]
    amounts = [0, 0, 3, 10, 27, -4, F(1, 2), F(7, 3), F(25, 10), 1000, F(-5, 6)]
    checked = 0
    for _ in range(150):
        players = names[:rng.randint(2, 5)]
        s = sheet(players, mountain={p: rng.choice(amounts) for p in players},
                  whists={p: {q: rng.choice(amounts) for q in players if q != p and rng.random() < 0.7}
                          for p in players},
                  pool={p: rng.choice([0, 4, 10, F(3, 2)]) for p in players})
        for opts in ({"variant": "sochi"}, {"variant": "sochi", "rounding": "mountain-shares"},
                     {"variant": "lithuanian"}, {"variant": "sochi", "pool_point_whists": 5}):
            rules = resolve_rules(opts)
            fast = settle_sheet(s, rules)
            monkeypatch.setattr(methods, "_WHOLE_PATH", False)
            slow = settle_sheet(s, rules)
            monkeypatch.setattr(methods, "_WHOLE_PATH", True)
            assert _ordered(fast) == _ordered(slow), (players, opts)
            checked += 1
    assert checked == 600


def test_payments_of_whists_without_the_decimal_context_are_the_same():
    """payments() and check_payments() of whists (Fractions: no Decimal added) skip the exact
    Decimal context: the same transfers as inside it, for random zero-sum balances; money
    balances still go through it."""
    import decimal
    import random
    import importlib
    M = importlib.import_module("prefcli.settle.money")     # the package names a function money
    rng = random.Random(4)
    for _ in range(200):
        names = ["Ann", "Bob", "Cid", "Dan"][:rng.randint(2, 4)]
        vals = [F(rng.randint(-300, 300), rng.choice([1, 2, 3, 10])) for _ in names[:-1]]
        balances = dict(zip(names, vals + [-sum(vals, F(0))]))
        with decimal.localcontext(M._exact_context()):
            want = M._payments(balances, names)
        got = payments(balances, names)
        assert got == want and all(type(p.amount) is F for p in got)
        check_payments(balances, got)
    cash = {"Ann": Decimal("1.10"), "Bob": Decimal("-1.10")}
    assert payments(cash) == [Payment("Bob", "Ann", Decimal("1.10"))]


def test_a_rules_price_read_once_per_batch_is_the_price_read_afresh():
    """settle_document reads a rules price or coin once per text (every input of a batch names
    the same): the same Decimal as to_decimal, exponent and all; a bad one raises every time."""
    from prefcli.io.tournament import to_decimal
    from prefcli.settle.results import _decimal
    for value in ["0.1", "0.10", " 2.50 ", 1, 0, "1e-2", Decimal("0.100")]:
        for _ in range(2):
            got, want = _decimal(value, "price"), to_decimal(value, "price")
            assert got == want and str(got) == str(want), value
    for bad in ["x", "-1", True]:
        for _ in range(2):
            with pytest.raises(SettlementError):
                _decimal(bad, "coin")
