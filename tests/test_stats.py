"""`prefcli stats`, `rating` and `merge` (issue 15): statistics over many games, exact merge."""
import csv
import io
import json
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from conftest import EXAMPLES, SHARED, run_cli

SEASON = EXAMPLES / "season-2019"
SAMPLE = SHARED / "samples" / "vladstefanovich-preferans-db"
needs_sample = pytest.mark.skipif(not (SAMPLE / "data.sql").is_file(), reason="../shared samples not beside the checkout")


def stats_json(*args):
    code, out, err = run_cli(["stats", *map(str, args), "-f", "json"])
    assert code == 0, err
    return json.loads(out)


def players_of(data, key=""):
    (group,) = [g for g in data["groups"] if g["key"] == key]
    return {r["player"]: r for r in group["players"]}


# ------------------------------------------------------------------ the 2019 season (data.sql)

def _sample_totals():
    """Per game and player, from data.sql itself (the converter's own reading of it)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("convert_data_sql", SEASON / "convert_data_sql.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, mod.season((SAMPLE / "data.sql").read_text(encoding="utf-8"))


@needs_sample
def test_season_example_is_data_sql_converted(tmp_path):
    mod, (players, games) = _sample_totals()
    assert players == ["VS", "AA", "VK", "AM"] and len(games) == 13
    assert mod.main([str(SAMPLE / "data.sql"), str(tmp_path)]) == 0
    for n in range(1, 14):
        name = f"game-{n:02d}.yaml"
        assert (tmp_path / name).read_text() == (SEASON / name).read_text()


@needs_sample
def test_season_results_are_the_databases_totals():
    _, (_, games) = _sample_totals()
    data = stats_json(SEASON)
    rows = players_of(data)
    for p in ("VS", "AA", "VK", "AM"):
        assert rows[p]["result"] == sum(g[p] for g in games.values())
        assert rows[p]["games"] == 13
    # season-2019-derived.csv's total row: AA -2275, AM 2351, VK -463, VS 387
    text = (SAMPLE / "season-2019-derived.csv").read_text()
    total = next(r for r in csv.DictReader(io.StringIO(text)) if r["game"] == "total")
    assert {p: rows[p]["result"] for p in rows} == {p: int(total[p]) for p in ("AA", "AM", "VK", "VS")}
    assert [g["source"].rsplit("/", 1)[-1] for g in data["games"]] == [f"game-{n:02d}.yaml" for n in range(1, 14)]
    for g in data["games"]:
        n = int(g["source"][-7:-5])
        assert g["results"] == games[n]


def test_season_stats_from_the_committed_example():
    data = stats_json(SEASON)
    assert data["format"] == "pref-stats/1" and data["inputs"] == 13
    rows = players_of(data)
    # a zero-sum season: the results add to 0, and every player's average is result / 13
    assert sum(Fraction(str(r["result"])) for r in rows.values()) == 0
    for r in rows.values():
        assert Fraction(str(r["average"])) == Fraction(str(r["result"])) / 13
        assert r["deals"] == 0 and r["declared"] == 0      # per-game totals only
    # head to head is antisymmetric and sums to each player's result
    (group,) = data["groups"]
    for p, r in rows.items():
        mine = [Fraction(str(h["net"])) for h in group["head_to_head"] if h["player"] == p]
        assert sum(mine) == Fraction(str(r["result"]))


def _place_points_by_hand(games):
    pts = {}
    for g in games.values():
        order = sorted(g, key=lambda p: -g[p])
        for i, p in enumerate(order):
            tied = [q for q in order if g[q] == g[p]]
            first = order.index(tied[0])
            share = sum(3 - k for k in range(first, first + len(tied))) / Fraction(len(tied))
            pts[p] = pts.get(p, 0) + share
    return pts


@needs_sample
def test_season_ratings():
    _, (_, games) = _sample_totals()
    code, out, err = run_cli(["rating", str(SEASON), "-m", "places", "-f", "json"])
    assert code == 0, err
    table = {r["player"]: Fraction(str(r["value"])) for r in json.loads(out)["rating"]["table"]}
    assert table == _place_points_by_hand(games)
    code, out, err = run_cli(["rating", str(SEASON), "-m", "whists", "-f", "json"])
    table = {r["player"]: r["value"] for r in json.loads(out)["rating"]["table"]}
    assert table == {p: sum(g[p] for g in games.values()) for p in ("VS", "AA", "VK", "AM")}


def test_elo_is_deterministic_zero_sum_and_overridable():
    def elo(*extra):
        code, out, err = run_cli(["rating", str(SEASON), "-f", "json", *extra])
        assert code == 0, err
        return json.loads(out)["rating"]
    a, b = elo(), elo()
    assert a == b and a["k"] == 32 and a["start"] == 1500
    values = [r["value"] for r in a["table"]]
    assert abs(sum(values) - 4 * 1500) < 0.5          # pairwise updates cancel out
    assert a["table"][0]["player"] == "AM"            # AM won the most games and places
    shifted = elo("--elo-start", "1000")
    assert [round(r["value"] + 500, 1) for r in shifted["table"]] == values
    bigger = elo("--elo-k", "64")
    assert max(abs(r["value"] - 1500) for r in bigger["table"]) > max(abs(v - 1500) for v in values)


def test_elo_ignores_input_order(tmp_path):
    from prefcli.settle.rating import RatingOptions, rate
    from prefcli.settle.stats import GameRow
    games = [GameRow(f"2026-01-{d:02d}", "", f"g{d}", "sochi",
                     (("A", Fraction(d)), ("B", Fraction(-d)), ("C", Fraction(0)))) for d in range(1, 6)]
    one = rate(sorted(games), RatingOptions("elo"))
    assert rate(sorted(reversed(games)), RatingOptions("elo")) == one
    assert [r.player for r in one] == ["A", "C", "B"]


def test_place_points_share_ties_and_tournament_table(tmp_path):
    from prefcli.settle.rating import place_points
    assert place_points((("A", Fraction(5)), ("B", Fraction(5)), ("C", Fraction(-10)))) == {
        "A": Fraction(3, 2), "B": Fraction(3, 2), "C": 0}
    t = tmp_path / "t.yaml"
    t.write_text("format: pref-tournament/1\nplace_points: {4: [10, 5, 2, 0]}\nweights: {sochi: 2}\n")
    code, out, err = run_cli(["rating", str(SEASON), "-m", "places", "--tournament", str(t), "-f", "json"])
    assert code == 0, err
    table = {r["player"]: r["value"] for r in json.loads(out)["rating"]["table"]}
    assert table["AM"] > table["AA"] and sum(table.values()) == 13 * 17
    code, out, err = run_cli(["rating", str(SEASON), "-m", "whists", "--tournament", str(t), "-f", "json"])
    table = {r["player"]: r["value"] for r in json.loads(out)["rating"]["table"]}
    assert table["AM"] == 2 * 2351
    code, out, err = run_cli(["rating", str(SEASON), "-m", "places", "--place-points", "4:1,2"])
    assert code == 2 and "4 points" in err
    t.write_text("format: pref-tournament/1\nplace_points: {4: [1, 0]}\n")
    code, out, err = run_cli(["rating", str(SEASON), "--tournament", str(t)])
    assert code == 1 and "place_points" in err


# ------------------------------------------------------------------ records: the deal facts

def test_record_facts_come_from_the_scorer():
    data = stats_json(EXAMPLES / "sochi-3p.yaml")
    rows = players_of(data)
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.scoring import score
    from prefcli.settle import settle_sheet
    rec = build_record_fast(load_document(str(EXAMPLES / "sochi-3p.yaml")))
    res = score(rec)
    net = settle_sheet(res.sheet(), res.rules).net
    made = {row["deal"]: row["made"] for row in res.extra["deals"]}
    for p in rec.players:
        r = rows[p]
        mine = [d for d in rec.only_deals() if d.declarer == p]
        assert r["declared"] == len(mine)
        assert r["made"] == sum(made[d.number] for d in mine)
        assert r["deals"] == len(rec.only_deals())
        assert Fraction(str(r["result"])) == net[p]
        won = sum(e.amount for e in res.ledger.entries if e.area == "whists" and e.player == p)
        assert Fraction(str(r["whists"]["won"])) == won
        ap = [d for d in rec.only_deals() if d.contract.is_all_pass]
        assert r["allpass"]["tricks"] == sum(d.tricks_map()[p] for d in ap)
    # the README's --explain: deal 5 is Ann's misère, made (seed: misere.made 10)
    assert rows["Ann"]["misere"]["made"] >= 1 and rows["Ann"]["contracts"]["misere"]["made"] >= 1


def test_lithuanian_outcomes_from_the_scorers_history():
    data = stats_json(EXAMPLES / "lithuanian-4p.yaml")
    rows = players_of(data)
    assert sum(r["declared"] for r in rows.values()) > 0
    assert all(r["made"] <= r["declared"] for r in rows.values())


def test_by_event_variant_month_and_schema(tmp_path):
    from jsonschema import Draft202012Validator
    schema = json.loads((EXAMPLES.parent / "schemas" / "stats.schema.json").read_text())
    for by in ("player", "event", "month", "variant"):
        data = stats_json(EXAMPLES, "--by", by, "--rating", "elo")
        Draft202012Validator(schema).validate(data)
        assert data["by"] == by
    keys = {g["key"] for g in stats_json(EXAMPLES, "--by", "variant")["groups"]}
    assert {"sochi", "leningrad", "lithuanian"} <= keys
    keys = {g["key"] for g in stats_json(EXAMPLES, "--by", "month")["groups"]}
    assert "2026-11" in keys and "(no date)" in keys
    code, out, err = run_cli(["schema", "stats"])
    assert code == 0 and json.loads(out)["properties"]["format"]["const"] == "pref-stats/1"


def test_table_csv_and_svg(tmp_path):
    code, out, err = run_cli(["stats", str(SEASON)])
    assert code == 0, err
    assert "head to head" in out and "AM" in out.splitlines()[3]
    code, out, err = run_cli(["stats", str(EXAMPLES), "-f", "csv", "--rating", "places"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["kind"] for r in rows} == {"player", "contract", "head-to-head", "rating"}
    pic = tmp_path / "season.svg"
    code, out, err = run_cli(["stats", str(SEASON), "--svg", str(pic)])
    assert code == 0, err
    root = ET.fromstring(pic.read_text())                       # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    lines = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("class") == "pf-series"]
    assert sorted(p.get("data-player") for p in lines) == ["AA", "AM", "VK", "VS"]
    assert all(p.get("d").count("L") == 13 for p in lines)             # start + 13 games
    code, out, err = run_cli(["stats", str(SEASON), "-f", "svg"])
    assert ET.fromstring(out).tag.endswith("svg")


def test_csv_amounts_are_numbers_with_their_exact_values_beside():
    """A spreadsheet reads every amount of `stats -f csv` as a number (it used to get "180.85…"),
    and the `_exact` columns are the JSON document's exact values: nothing is lost by rounding."""
    code, out, err = run_cli(["stats", str(SEASON), "-f", "csv", "--rating", "elo"])
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    am = next(r for r in rows if r["kind"] == "player" and r["player"] == "AM")
    # the 2019 season's totals (season-2019-derived.csv): AM +2351 over 13 games
    assert (am["result"], am["average"], am["result_exact"], am["average_exact"]) == ("2351", "180.85", "2351", "2351/13")
    data = stats_json(SEASON)
    players = players_of(data)
    for r in rows:
        for col in ("result", "average", "whists_won", "whists_lost", "rating"):
            if r[col]:
                float(r[col])                                   # a plain number, never "…"
                assert r[col + "_exact"]
        if r["kind"] == "player":
            p = players[r["player"]]
            assert Fraction(r["result_exact"]) == Fraction(str(p["result"]))
            assert Fraction(r["average_exact"]) == Fraction(str(p["average"]))
            assert round(Fraction(r["average_exact"]), 2) == Fraction(r["average"])
            assert (Fraction(r["whists_won_exact"]), Fraction(r["whists_lost_exact"])) == (
                Fraction(str(p["whists"]["won"])), Fraction(str(p["whists"]["lost"])))
    h2h = {(h["player"], h["opponent"]): h for h in data["groups"][0]["head_to_head"]}
    for r in rows:
        if r["kind"] == "head-to-head":
            h = h2h[(r["player"], r["opponent"])]
            assert Fraction(r["result_exact"]) == Fraction(str(h["net"]))
    elo = [r for r in rows if r["kind"] == "rating"]
    assert len(elo) == 4 and all(float(r["rating_exact"]) == pytest.approx(float(r["rating"]), abs=0.05) for r in elo)


def test_bad_input_is_reported_and_the_rest_counted(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [A, B]\npool: {A: x}\nmountain: {}\nwhists: {}\n")
    code, out, err = run_cli(["stats", str(SEASON / "game-01.yaml"), str(bad), "-f", "json"])
    assert code == 1 and "bad.yaml" in err
    assert json.loads(out)["inputs"] == 1


# ------------------------------------------------------------------ map and merge

def _parts():
    from prefcli.app.stats import StatsOptions, stats_source
    files = sorted(str(p) for p in EXAMPLES.rglob("*.yaml"))
    parts = [stats_source(f, StatsOptions()).stats for f in files]
    return [p for p in parts if p is not None]


PARTS = None


def parts():
    global PARTS
    if PARTS is None:
        PARTS = _parts()
    return PARTS


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_merge_is_associative_and_commutative(data):
    from prefcli.settle.stats import Stats, merge, merge_all
    ps = parts()
    one = merge_all(ps)
    order = data.draw(st.permutations(range(len(ps))))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(ps)), max_size=4)))
    shuffled = [ps[i] for i in order]
    shards, start = [], 0
    for c in cuts + [len(ps)]:
        shards.append(merge_all(shuffled[start:c]))
        start = c
    # shards merged in any order and grouping
    total = Stats()
    for s in reversed(shards):
        total = merge(s, total)
    assert total == one


@settings(max_examples=20, deadline=None)
@given(st.permutations(list(range(6))), st.integers(1, 5))
def test_settlement_totals_merge_like_summarize(order, cut):
    from prefcli.app.settle import settle_source
    from prefcli.settle import SettleOptions, summarize
    from prefcli.settle.totals import Totals
    files = sorted(str(p) for p in EXAMPLES.rglob("*.yaml") if "expected" not in p.name)[:6]
    results = [r for r in (settle_source(f, SettleOptions()) for f in files) if r.ok]
    ref = summarize(results)
    rs = [results[i] for i in order if i < len(results)]
    a = sum((Totals.of_result(r) for r in rs[:cut]), Totals())
    b = sum((Totals.of_result(r) for r in rs[cut:]), Totals())
    s = (b + a).summary()
    assert s.net == ref.net and s.money == ref.money and s.unit == ref.unit
    assert set(s.players) == set(ref.players)


def test_merge_command_settle_and_stats(tmp_path):
    files = sorted(str(p) for p in SEASON.glob("*.yaml"))
    def out(args, name):
        code, text, err = run_cli(args)
        assert code == 0, err
        (tmp_path / name).write_text(text)
        return str(tmp_path / name)
    p1 = out(["settle", *files[:5], "-f", "json"], "s1.json")
    p2 = out(["settle", *files[5:], "-f", "json"], "s2.json")
    code, one, _ = run_cli(["settle", *files, "-f", "json"])
    code, merged, err = run_cli(["merge", p1, p2])
    assert code == 0, err
    assert json.loads(merged) == json.loads(one)
    code, merged_rev, err = run_cli(["merge", p2, p1])
    assert json.loads(merged_rev)["net"] == json.loads(one)["net"]
    q1 = out(["stats", *files[7:], str(EXAMPLES / "sochi-3p.yaml"), "-f", "json"], "t1.json")
    q2 = out(["stats", *files[:7], "-f", "json"], "t2.json")
    code, one, _ = run_cli(["stats", *files, str(EXAMPLES / "sochi-3p.yaml"), "-f", "json"])
    code, merged, err = run_cli(["merge", q1, q2])
    assert code == 0, err
    assert json.loads(merged) == json.loads(one)
    code, _, err = run_cli(["merge", p1, q1])
    assert code == 1 and "cannot merge" in err
    code, _, err = run_cli(["merge", files[0]])
    assert code == 1 and "pref-stats/1" in err


@pytest.mark.parametrize("command", ["prefcli stats examples/season-2019/ --rating elo",
                                     "prefcli rating examples/season-2019/ -m places"])
def test_readme_shows_the_real_output(command):
    import re
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\$ " + re.escape(command) + r"\n(.*?)```", readme, re.S)
    assert block, command
    code, out, err = run_cli(command.split()[1:])
    assert code == 0, err
    assert out == block.group(1)


def test_summary_with_a_tournament(tmp_path):
    t = str(EXAMPLES / "tournament")
    # the tournament file in the folder is found before settling (issue 11.9), so --summary
    # applies its price and coin as --tournament does
    code, out_in_folder, err = run_cli(["settle", t, "--summary", "-f", "json"])
    assert code == 0 and "standings" in err, err
    code, out, err = run_cli(["settle", t, "--summary", "--tournament", t + "/tournament.yaml", "-f", "json"])
    assert code == 0, err
    assert "standings" in err                      # a note: --summary gives no standings
    code, full, _ = run_cli(["settle", t, "-f", "json"])
    assert json.loads(out)["money"] == json.loads(full)["money"] == json.loads(out_in_folder)["money"]
    code, out, err = run_cli(["settle", t, "--summary", "--standings"])
    assert code == 2
