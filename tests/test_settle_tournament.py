"""Tournament scoring (bands, cap, floor), standings, batches and --jobs (issue 6)."""
from decimal import Decimal
from fractions import Fraction as F
from pathlib import Path

import pytest

from conftest import EXAMPLES
from prefcli.app.settle import settle_many
from prefcli.settle import (Band, SettleOptions, SettlementError, Tournament, parse_band,
                            standings, summarize, tournament_from_data)

BANDS = (Band(F(50), F(1, 2)), Band(F(100), F(1, 10)))


def test_bands_as_online_tournaments_use_them():
    # "51–100 whists count ×0.5, above 100 ×0.1"
    t = Tournament(bands=BANDS)
    assert t.count(F(40)) == 40
    assert t.count(F(50)) == 50
    assert t.count(F(80)) == 50 + 15
    assert t.count(F(100)) == 75
    assert t.count(F(300)) == 75 + 20
    assert t.count(F(-300)) == -95            # losses scaled alike by default
    assert Tournament(bands=BANDS, losses="full").count(F(-300)) == -300
    assert Tournament(bands=BANDS, cap=F(60)).count(F(300)) == 60
    assert Tournament(cap=F(60)).count(F(-300)) == -60
    assert Tournament().count(F(123)) == 123


def test_standings_sorted_with_floor():
    rows = [("r1", {"A": F(-80), "B": F(30), "C": F(50)}),
            ("r2", {"A": F(-10), "B": F(-40), "D": F(50)}),
            ("r3", {"B": F(20), "C": F(-20), "D": F(0)})]
    table = standings(rows, Tournament(floor=F(-50)))
    assert [s.player for s in table] == ["D", "C", "B", "A"]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    d = table[0]
    assert (d.total, d.games, d.average) == (50, 2, 25)
    a = table[-1]
    assert a.eliminated_after == "r1" and a.total == -90
    # equal totals: the better average first
    table = standings([("r1", {"A": F(10), "B": F(10)}), ("r2", {"A": F(0)})], Tournament())
    assert [s.player for s in table] == ["B", "A"]


def test_tournament_file():
    t = tournament_from_data({"format": "pref-tournament/1", "name": "cup",
                              "bands": [{"above": 50, "factor": "0.5"}, {"above": 100, "factor": "0.1"}],
                              "floor": -200, "cap": 500, "inputs": ["a.yaml"], "price": "0.1"}, "dir")
    assert t.bands == BANDS and t.floor == -200 and t.cap == 500 and t.price == Decimal("0.1")
    assert t.inputs == (str(Path("dir") / "a.yaml"),)
    for bad in ({"format": "pref-tournament/1", "bands": [{"above": 50}]},
                {"format": "pref-tournament/1", "losses": "maybe"},
                {"format": "pref-tournament/1", "coefficient": 2},
                {"format": "pref-tournament/9"}, []):
        with pytest.raises(SettlementError):
            tournament_from_data(bad)
    assert parse_band("50:0.5") == Band(F(50), F(1, 2))
    with pytest.raises(SettlementError):
        parse_band("50")


def write_sheets(folder: Path, count: int) -> list:
    """Small closed Sochi sheets with varied numbers (and one bad file)."""
    out = []
    for i in range(count):
        m = [(i * 7) % 23, (i * 11) % 17, (i * 5) % 13]
        text = (
            "format: pref-sheet/1\n"
            "players: [Ann, Bob, Cid]\n"
            f"rules: {{variant: {'sochi' if i % 2 else 'lithuanian-kitty'}, price: \"0.1\"}}\n"
            "pool: {Ann: 20, Bob: 20, Cid: 20}\n"
            f"mountain: {{Ann: {m[0]}, Bob: {m[1]}, Cid: {m[2]}}}\n"
            f"whists: {{Ann: {{Bob: {i * 3}, Cid: {i % 5}}}, Bob: {{Ann: {i % 7}, Cid: 4}}, Cid: {{Ann: 10, Bob: {i}}}}}\n"
        )
        p = folder / f"s{i:03}.yaml"
        p.write_text(text)
        out.append(str(p))
    return out


def test_jobs_two_equals_jobs_one(tmp_path):
    sources = write_sheets(tmp_path, 24)
    bad = tmp_path / "s010.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [Ann, Bob]\nmountain: {Zed: 3}\n")
    one = settle_many(sources, SettleOptions(), jobs=1)
    two = settle_many(sources, SettleOptions(), jobs=2)
    assert one == two
    assert [r.source for r in two] == sources
    assert sum(r.failed for r in one) == 1 and one[10].failed
    assert "s010.yaml" in one[10].problems[0].text()
    s1, s2 = summarize(one), summarize(two)
    assert s1 == s2
    assert sum(s1.money.values()) == 0


def test_strict_stops_at_the_first_bad_input(tmp_path):
    sources = write_sheets(tmp_path, 12)
    (tmp_path / "s004.yaml").write_text("not: [a sheet\n")
    for jobs in (1, 2):
        out = settle_many(sources, SettleOptions(), jobs=jobs, strict=True)
        assert len(out) == 5 and out[-1].failed and not any(r.failed for r in out[:-1])


def test_progress_is_reported(tmp_path):
    sources = write_sheets(tmp_path, 5)
    seen = []
    settle_many(sources, SettleOptions(), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 5) for i in range(1, 6)]


def test_totals_per_player_name_across_inputs():
    folder = EXAMPLES / "tournament"
    sources = sorted(str(p) for p in folder.glob("round*.yaml"))
    results = settle_many(sources, SettleOptions(price=Decimal("0.1")))
    assert all(r.ok for r in results), [r.problems for r in results]
    summary = summarize(results)
    assert summary.players == ("Ann", "Bob", "Cid", "Dan")
    for p in summary.players:
        assert summary.net[p] == sum(r.settlement.net.get(p, 0) for r in results)
    assert sum(summary.money.values()) == 0
    assert summary.unit == "money"
    from prefcli.settle import check_payments
    check_payments(summary.money, summary.payments)


def test_summary_without_price_is_in_whists(tmp_path):
    sources = write_sheets(tmp_path, 3)
    results = settle_many(sources, SettleOptions())
    results = [r.__class__(**{**r.__dict__, "price": None, "money": None}) for r in results]
    summary = summarize(results)
    assert summary.money is None and summary.unit == "whists"
    assert sum(summary.net.values()) == 0


def test_reprice_keeps_nets_and_recomputes_money_and_payments(tmp_path):
    from prefcli.settle import check_payments, reprice
    (src,) = write_sheets(tmp_path, 1)
    (r,) = settle_many([src], SettleOptions())
    r2 = reprice(r, Decimal("0.01"), Decimal("0.05"))
    assert r2.settlement == r.settlement and r2.price == Decimal("0.01") and r2.coin == Decimal("0.05")
    assert sum(r2.money.values()) == 0
    assert all((v / Decimal("0.05")) == int(v / Decimal("0.05")) for v in r2.money.values())
    check_payments(r2.money, r2.payments)
    assert reprice(r, None, None) is r


def test_a_long_average_is_printed_with_its_own_digits(tmp_path, run):
    """A band factor of 10**30 makes totals of 32 digits: the standings' average of a third of
    such a total was printed through a float (16666666666666666810427096170496.00…); every
    digit is now the value's own, rounded at the second decimal."""
    import shutil
    folder = tmp_path / "cup"
    shutil.copytree(EXAMPLES / "tournament", folder)
    t = folder / "tournament.yaml"
    t.write_text(t.read_text(encoding="utf-8").replace('factor: "0.5"', "factor: 1000000000000000000000000000000"),
                 encoding="utf-8")
    code, out, err = run(["settle", str(folder)])
    assert code == 0, err
    bob = next(line for line in out.splitlines() if line.split()[1:2] == ["Bob"])
    assert bob.split()[2:5] == ["50000000000000000000000000000036.6", "3", "16666666666666666666666666666678.87…"]


@pytest.mark.parametrize("value, text, table", [
    (F(1, 3), "0.33", "0.33…"), (F(-170, 3), "-56.67", "-56.67…"), (F(-1, 300), "-0.00", "-0.00…"),
    (F(1, 8), "0.12", "0.125"), (F(3, 8), "0.38", "0.375"), (F(203, 200), "1.02", "1.015"),
    (F(10 ** 30 + 2, 3), "333333333333333333333333333334.00", "333333333333333333333333333334"),
    (F(10 ** 30 + 1, 3), "333333333333333333333333333333.67", "333333333333333333333333333333.67…"),
])
def test_amounts_rounded_for_the_eye_are_exact(value, text, table):
    """Two decimals, half to even, in integer arithmetic (1.015 is 1.02, where its float 1.01)."""
    from prefcli.model.ledger import amount_text, rounded_text
    assert (rounded_text(value), amount_text(value)) == (text, table)


def test_a_half_in_an_explanation_is_a_decimal():
    """The scorer's notes wrote a half through the float's :g: 1234567.5 was 1.23457e+06."""
    from prefcli.scoring.russian_sheet import SheetWriter
    assert [SheetWriter._fmt(v) for v in (F(2469135, 2), F(-1, 2), F(40, 3), 7)] == ["1234567.5", "-0.5", "40/3", "7"]
