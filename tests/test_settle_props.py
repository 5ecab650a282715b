"""Property tests of the settlement (issue 6): zero sums, payments, amnesty, presentations."""
from decimal import Decimal
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from prefcli.model.records import SheetData
from prefcli.rules.presets import resolve_rules
from prefcli.settle import check_payments, money, payments, round_money, settle_sheet

VARIANTS = ["sochi", "leningrad", "rostov", "classic", "lithuanian", "lithuanian-kitty"]
ROUNDINGS = ["exact", "mountain-shares", "every-share", "truncate"]
NAMES = ["Ann", "Bob", "Cid", "Dan"]

amount = st.one_of(st.integers(0, 400), st.fractions(0, 400, max_denominator=6))


@st.composite
def sheets(draw):
    n = draw(st.sampled_from([3, 4]))
    players = tuple(NAMES[:n])
    s = SheetData.empty(players)
    for p in players:
        s.pool[p] = F(draw(st.integers(0, 30)))
        s.mountain[p] = F(draw(amount))
        for q in players:
            if q != p:
                s.whists[p][q] = F(draw(amount))
    return s


@settings(max_examples=80, deadline=None)
@given(sheets(), st.sampled_from(VARIANTS), st.sampled_from(ROUNDINGS),
       st.sampled_from(["0.1", "0.001", "0.37", "1"]), st.sampled_from(["0.01", "0.05", "1"]))
def test_nets_money_and_payments(s, variant, rounding, price, coin):
    st_ = settle_sheet(s, resolve_rules({"variant": variant, "rounding": rounding}))
    assert sum(st_.net.values()) == 0
    for a in s.players:
        assert st_.net[a] == sum(st_.pairwise[a].values())
        assert st_.net[a] == st_.whist_balance[a] + st_.mountain_balance[a]
        for b in s.players:
            if a != b:
                assert st_.pairwise[a][b] == -st_.pairwise[b][a]
    m = money(st_.net, Decimal(price), Decimal(coin), s.players)
    assert sum(m.values()) == 0
    for p in s.players:
        exact = st_.net[p] * F(Decimal(price))
        assert abs(F(m[p]) - exact) < F(Decimal(coin))       # never off by a whole coin
        assert (F(m[p]) / F(Decimal(coin))).denominator == 1  # whole coins
    pays = payments(m, s.players)
    check_payments(m, pays)
    assert len(pays) <= len(s.players) - 1
    assert all(p.amount > 0 for p in pays)
    pays_w = payments(st_.net, s.players)
    check_payments(st_.net, pays_w)


@settings(max_examples=60, deadline=None)
@given(sheets(), st.sampled_from(VARIANTS), st.sampled_from(ROUNDINGS), st.integers(-300, 300))
def test_amnesty_never_changes_a_result(s, variant, rounding, shift):
    rules = resolve_rules({"variant": variant, "rounding": rounding})
    ref = settle_sheet(s, rules)
    shifted = SheetData(s.players, dict(s.pool), {p: v + shift for p, v in s.mountain.items()}, s.whists)
    other = settle_sheet(shifted, rules)
    assert other.net == ref.net and other.pairwise == ref.pairwise


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fractions(-10**4, 10**4, max_denominator=1000), min_size=2, max_size=8),
       st.sampled_from(["0.01", "0.05", "0.1", "1", "0.25"]))
def test_round_money_keeps_a_zero_sum(values, coin):
    values = values[:-1] + [-sum(values[:-1], F(0))]
    names = [f"P{i}" for i in range(len(values))]
    out = round_money(dict(zip(names, values)), Decimal(coin), names)
    assert sum(out.values()) == 0
    c = F(Decimal(coin))
    for n, v in zip(names, values):
        assert F(out[n]) - c < v < F(out[n]) + c or F(out[n]) == v
