"""`prefcli settle` end to end (issue 6): formats, batches, errors and exit codes."""
import csv
import io
import json

from conftest import EXAMPLES, run_cli


def settle_json(*args, stdin=None):
    code, out, err = run_cli(["settle", *args, "-f", "json"], stdin=stdin)
    assert code == 0, err
    return json.loads(out)


def test_seed000_sheet_json():
    # seed 000: "B sumoka 33 centus, o C-27 centus, A gauna 9 centus, o D-51 centą"
    data = settle_json(str(EXAMPLES / "seed000-sheet.yaml"))
    assert data["format"] == "pref-settlement/1"
    assert data["players"] == ["A", "B", "C", "D"]
    assert data["net"] == {"A": 90, "B": -330, "C": -270, "D": 510}
    assert data["money"] == {"A": "0.09", "B": "-0.33", "C": "-0.27", "D": "0.51"}
    pays = data["payments"]
    assert all(set(p) == {"from", "to", "amount"} for p in pays)
    got = {n: 0 for n in "ABCD"}
    for p in pays:
        got[p["from"]] -= float(p["amount"]) * 100
        got[p["to"]] += float(p["amount"]) * 100
    assert {k: round(v) for k, v in got.items()} == {"A": 9, "B": -33, "C": -27, "D": 51}
    (one,) = data["inputs"]
    assert one["pairwise"]["A"] == {"B": 150, "C": 420, "D": -480}
    assert one["method"] == "lithuanian-kitty"


def test_paper_sheet_table():
    code, out, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml")])
    assert code == 0, err
    assert "pairwise" in out and "payments" in out
    assert "Bob" in out and "→" in out


def test_price_and_coin_override_the_sheet():
    data = settle_json(str(EXAMPLES / "seed000-sheet.yaml"), "--price", "0.01", "--coin", "0.1")
    assert data["money"] == {"A": "0.9", "B": "-3.3", "C": "-2.7", "D": "5.1"}
    assert data["price"] == "0.01" and data["coin"] == "0.1"


def test_stdin_and_yaml_and_csv():
    text = (EXAMPLES / "seed000-sheet.yaml").read_text()
    data = settle_json("-", stdin=text)
    assert data["net"]["D"] == 510
    code, out, err = run_cli(["settle", "-", "-f", "yaml"], stdin=text)
    assert code == 0 and "pref-settlement/1" in out
    code, out, err = run_cli(["settle", str(EXAMPLES / "seed000-sheet.yaml"), "-f", "csv"])
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    totals = {r["player"]: r["money"] for r in rows if r["kind"] == "total"}
    assert totals == {"A": "0.09", "B": "-0.33", "C": "-0.27", "D": "0.51"}
    assert any(r["kind"] == "payment" for r in rows)


def test_many_inputs_rows_totals_and_standings():
    data = settle_json(str(EXAMPLES / "tournament"))
    assert [i["file"].split("/")[-1] for i in data["inputs"]] == ["round1.yaml", "round2.yaml", "round3.yaml"]
    assert data["players"] == ["Ann", "Bob", "Cid", "Dan"]
    for p in data["players"]:
        per = [i["net"][p] for i in data["inputs"] if p in i["net"]]
        assert sum(float(x) if isinstance(x, str) else x for x in per) == data["net"][p]
    from decimal import Decimal
    assert sum(Decimal(v) for v in data["money"].values()) == 0
    assert data["price"] == "0.1"                 # from the tournament file
    ranks = [s["rank"] for s in data["standings"]]
    assert ranks == sorted(ranks)
    assert data["standings"][-1].get("eliminated_after", "").endswith("round3.yaml")
    code, out, err = run_cli(["settle", str(EXAMPLES / "tournament")])
    assert code == 0 and "standings" in out and "total (whists)" in out


def test_band_options_without_a_file(tmp_path):
    data = settle_json(str(EXAMPLES / "tournament" / "round1.yaml"), str(EXAMPLES / "tournament" / "round2.yaml"),
                       "--band", "50:0.5", "--band", "100:0.1", "--floor", "-1000")
    assert {s["player"] for s in data["standings"]} == {"Ann", "Bob", "Cid", "Dan"}
    code, out, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), "--band", "oops"])
    assert code == 2 and "--band" in err


def test_jobs_two_equals_jobs_one(tmp_path):
    for i in range(6):
        (tmp_path / f"g{i}.yaml").write_text(
            "format: pref-sheet/1\nplayers: [A, B, C]\nrules: {variant: sochi, price: \"0.1\"}\n"
            "pool: {A: 20, B: 20, C: 20}\n"
            f"mountain: {{A: {i * 3 + 1}, B: {7 - i}, C: 2}}\nwhists: {{A: {{B: {i * 4}}}, C: {{A: 6}}}}\n")
    one = run_cli(["settle", str(tmp_path), "-f", "json", "--jobs", "1"])
    two = run_cli(["settle", str(tmp_path), "-f", "json", "--jobs", "2"])
    assert one[0] == two[0] == 0
    assert one[1] == two[1]


def test_one_bad_input_does_not_stop_the_batch(tmp_path):
    good = tmp_path / "a.yaml"
    good.write_text((EXAMPLES / "seed000-sheet.yaml").read_text())
    bad = tmp_path / "b.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [A, B, C]\npool: {A: 0, B: 0, C: 0}\nmountain: {Z: 4}\n"
                   "whists: {A: {B: 2}}\n")
    code, out, err = run_cli(["settle", str(tmp_path), "-f", "json"])
    assert code == 1
    assert "b.yaml" in err and "Z" in err and "Traceback" not in err
    data = json.loads(out)
    assert data["net"] == {"A": 90, "B": -330, "C": -270, "D": 510}
    assert data["errors"][0]["file"].endswith("b.yaml")
    code, out, err = run_cli(["settle", str(bad), str(good), "--strict"])
    assert code == 1 and "b.yaml" in err and out == ""


def test_records_are_scored_first(tmp_path):
    rec = tmp_path / "game.yaml"
    rec.write_text(
        "format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi, pool: 10}\n"
        "deals:\n"
        "  - {contract: 6S, declarer: Bob, whist: {Cid: whist, Ann: whist}, tricks: {Bob: 6, Cid: 3, Ann: 1}}\n"
        "  - {contract: 7H, declarer: Cid, whist: {Ann: pass, Bob: pass}}\n")
    data = settle_json(str(rec))
    assert data["inputs"][0]["kind"] == "record"
    nets = data["net"]
    from fractions import Fraction
    assert sum(Fraction(str(v)) for v in nets.values()) == 0
    # the same record under Leningrad: pool points are worth 20 whists, not 10
    lenin = settle_json(str(rec), "--variant", "leningrad")
    assert lenin["inputs"][0]["variant"] == "leningrad"


def test_usage_errors():
    code, out, err = run_cli(["settle"])
    assert code == 2
    code, out, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), "--price", "abc"])
    assert code == 2 and "--price" in err
    code, out, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), "--coin", "0"])
    assert code == 2
    code, out, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), "--set", "rounding=sideways"])
    assert code == 2 and "--set rounding" in err and "Traceback" not in err
    code, out, err = run_cli(["settle", "/nonexistent/file.yaml"])
    assert code == 1 and "file.yaml" in err and "Traceback" not in err


def test_rounding_option_from_the_command_line():
    data = settle_json(str(EXAMPLES / "paper-sheet.yaml"), "--set", "rounding=mountain-shares")
    assert data["inputs"][0]["rounding"] == "mountain-shares"


def test_misspelt_field_in_a_record_is_refused(tmp_path):
    # settle builds valid records without the (slow) schema pass; an unknown field must still
    # be caught, with the schema's message
    rec = tmp_path / "typo.yaml"
    rec.write_text(
        "format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi}\n"
        "deals:\n  - {contract: 7H, declarer: Cid, whist: {Ann: pass, Bob: pass}, opne: true}\n")
    code, out, err = run_cli(["settle", str(rec)])
    assert code == 1 and "opne" in err and "Traceback" not in err
