"""The quick-entry text form (issue 7): good lines, bad lines named by number, the CLI."""
from __future__ import annotations

import pytest

from conftest import EXAMPLES, run_cli
from prefcli.model.diagnostics import InputError
from prefcli.io.parsing import parse_text
from prefcli.model.build import record_from_data
from prefcli.app.notes import parse_quick_entry, parse_quick_entry_lines
from prefcli.rules.checks import check_record

P3 = ["Ann", "Bob", "Cid"]


def deals(text, players=P3, variant=None):
    return parse_quick_entry(text, "notes.txt", players, variant)["deals"]


def errors(text, players=P3):
    with pytest.raises(InputError) as exc:
        parse_quick_entry(text, "notes.txt", players)
    return [p.text() for p in exc.value.problems]


def test_issue_examples():
    # the three lines quoted in issue 7
    d = deals("Bob 6S  Cid:w Ann:w  6/3/1\npass 2/5/3\nAnn misere 1\n")
    assert d[0] == {"contract": "6S", "declarer": "Bob", "whist": {"Cid": "whist", "Ann": "whist"},
                    "tricks": {"Bob": 6, "Cid": 3, "Ann": 1}}
    assert d[1] == {"contract": "all-pass", "tricks": {"Ann": 2, "Bob": 5, "Cid": 3}}
    # the catchers' split of a misère changes no score; it is filled in evenly
    assert d[2] == {"contract": "misere", "declarer": "Ann", "tricks": {"Ann": 1, "Bob": 5, "Cid": 4}}


def test_passes_half_whist_return_open_and_flags():
    d = deals("\n".join([
        "Cid 7H Ann:p Bob:p",
        "Ann 6D Bob:p Cid:h",
        "Ann 6C Bob:p Cid:half return:Bob 7/2/1",
        "Bob 7S Cid:w Ann:p open 6/3/1 \"one down # not a comment\"  # a comment",
        "1. cid 8nt a:whist b:pass 8/2/0",
        "Bob 6♠ Cid:w Ann:w Bob=6 Cid=2 Ann=2",
        "Ann 7NT Bob:p Cid:p dark",
        "Bob 8H Cid:w Ann:w closed talon:AS,7D Cid:1 Ann:1 Bob:8",
    ]))
    assert d[0] == {"contract": "7H", "declarer": "Cid", "whist": {"Ann": "pass", "Bob": "pass"}}
    assert d[1]["whist"] == {"Bob": "pass", "Cid": "half-whist"} and "tricks" not in d[1]
    assert d[2]["return"] == "Bob" and d[2]["tricks"] == {"Ann": 7, "Bob": 2, "Cid": 1}
    assert d[3]["open"] is True and d[3]["note"] == "one down # not a comment"
    assert d[3]["tricks"] == {"Bob": 6, "Cid": 3, "Ann": 1}
    assert d[4] == {"contract": "8NT", "declarer": "Cid", "whist": {"Ann": "whist", "Bob": "pass"},
                    "tricks": {"Cid": 8, "Ann": 2, "Bob": 0}}
    assert d[5]["contract"] == "6S" and d[5]["tricks"] == {"Bob": 6, "Cid": 2, "Ann": 2}
    assert d[6]["dark"] is True
    assert d[7]["open"] is False and d[7]["talon"] == "AS 7D"
    assert d[7]["tricks"] == {"Cid": 1, "Ann": 1, "Bob": 8}


def test_positional_tricks_fill_defenders_clockwise():
    # no defence written: the defenders follow clockwise from the declarer's left
    assert deals("Cid 6S 6/3/1")[0]["tricks"] == {"Cid": 6, "Ann": 3, "Bob": 1}


def test_headers_and_meta():
    data = parse_quick_entry("# club\nplayers: Ann, Bob, Cid\nvariant: leningrad\nevent: Friday\n"
                             "date: 2026-11-29\nfirst dealer: Bob\nBob 6S Cid:w Ann:p 6/4/0\n", "n.txt")
    assert data["players"] == P3 and data["rules"] == {"variant": "leningrad"}
    assert data["first_dealer"] == "Bob"
    assert data["meta"] == {"event": "Friday", "date": "2026-11-29"}
    # the command line wins over the header
    data = parse_quick_entry("players: X, Y, Z\nvariant: leningrad\nAnn 6S Bob:p Cid:p\n", "n.txt",
                             P3, "rostov")
    assert data["players"] == P3 and data["rules"]["variant"] == "rostov"


def test_four_players_dealer_sits_out():
    # first dealer Ann sits out deal 1; Bob deals deal 2 (sochi: the deal passes on after all-pass)
    text = "pass 3/4/3\nCid 6S Dan:w Ann:w 6/3/1\n"
    d = deals(text, ["Ann", "Bob", "Cid", "Dan"])
    assert d[0]["tricks"] == {"Bob": 3, "Cid": 4, "Dan": 3}
    assert d[1]["tricks"] == {"Cid": 6, "Dan": 3, "Ann": 1}
    # lithuanian: the same dealer deals again after a mandatory eglė (seed 002: "Sužaidus eglę,
    # kortas dalija tas pats žaidėjas"), and all four seats may be listed in an eglė
    d = deals("pass 0/3/4/3\nCid 6S Dan:w Bob:w 6/3/1\n", ["Ann", "Bob", "Cid", "Dan"], "lithuanian")
    assert d[0]["tricks"] == {"Ann": 0, "Bob": 3, "Cid": 4, "Dan": 3}
    assert d[1]["tricks"] == {"Cid": 6, "Dan": 3, "Bob": 1}


def test_bad_lines_are_named_all_at_once():
    text = "\n".join([
        "Bob 6S Cid:w Ann:w 6/3/1",       # 1 ok
        "Bob 6S Cid:w Ann:w 6/3/2",       # 2 eleven tricks
        "Zed 6S Cid:w Ann:w 6/3/1",       # 3 unknown player
        "Bob 11NT Cid:w Ann:w 6/3/1",     # 4 bad contract
        "pass 1/2",                       # 5 too few counts
        "Bob 6S Cid:q Ann:w 6/3/1",       # 6 bad decision
        "Bob 6S Bob:w Ann:w 6/3/1",       # 7 declarer whists
        "Bob 6S Cid:w Ann:w 6/3/1 extra", # 8 junk after the tricks
        "Bob 6S Cid:w \"no end",          # 9 unterminated note
        "Bob",                            # 10 no contract
        "A 6S",                           # 11 ambiguous? no: Ann is the only A
        "players: Ann, Bob, Cid",         # 12 header after the first deal
    ])
    msgs = errors(text)
    lines = [m.split(":")[1] for m in msgs]
    assert lines == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "12"]
    assert all(m.startswith("notes.txt:") for m in msgs)
    assert "add up to 11" in msgs[0]
    assert "'Zed'" in msgs[1]
    assert "11NT" in msgs[2]
    assert "Cid:w (whist)" in msgs[4]
    assert "declarer" in msgs[5]
    assert "extra" in msgs[6]
    assert "quote" in msgs[7]
    assert "contract is missing" in msgs[8]
    assert "before the first deal" in msgs[9]


def test_ambiguous_prefix_and_missing_players():
    assert "could be" in errors("A 6S B:w C:w 6/3/1", ["Ann", "Al", "Bob"])[0]
    with pytest.raises(InputError) as exc:
        parse_quick_entry("Bob 6S\n", "notes.txt", None)
    assert "--players" in exc.value.problems[0].text()


def test_deal_lines_are_reported():
    data, lines = parse_quick_entry_lines("# head\n\nBob 6S Cid:w Ann:w 6/3/1\n\n# x\npass 2/5/3\n", "n", P3)
    assert lines == [3, 6]


def test_example_notes_give_a_valid_record():
    text = (EXAMPLES / "notes.txt").read_text(encoding="utf-8")
    data = parse_quick_entry(text, "notes.txt", P3, "sochi")
    record = record_from_data(data, strict=True)
    assert check_record(record) == []
    assert len(record.deals) >= 6


def test_cli_converts_example_notes(tmp_path, run):
    out = tmp_path / "game.yaml"
    code, _, err = run(["convert", str(EXAMPLES / "notes.txt"), "--players", "Ann,Bob,Cid",
                            "--variant", "sochi", "-o", str(out)])
    assert code == 0, err
    doc = parse_text("game.yaml", out.read_text(encoding="utf-8"), False)
    assert doc.data["rules"] == {"variant": "sochi"}
    assert doc.data["deals"][0]["whist"] == {"Cid": "whist", "Ann": "whist"}
    code, _, err = run(["validate", str(out)])
    assert code == 0, err


def test_cli_names_the_line_of_a_bad_note(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Bob 6S Cid:w Ann:w 6/3/1\n\nCid 7H Ann:p Bob:p\nAnn 6S Bob:w Cid:w 6/3/2\n",
                     encoding="utf-8")
    code, out, err = run_cli(["convert", str(notes), "--players", "Ann,Bob,Cid"])
    assert code == 1 and out == ""
    assert f"{notes}:4: the tricks add up to 11, not 10" in err
    assert "Traceback" not in err


def test_cli_rule_problems_name_the_line(tmp_path, run):
    # grammatical, but leningrad... every Russian preset allows half-whist; lithuanian does not
    notes = tmp_path / "notes.txt"
    notes.write_text("Bob 6S Cid:w Ann:w 6/3/1\nAnn 6D Bob:p Cid:h\n", encoding="utf-8")
    code, _, err = run(["convert", str(notes), "--players", "Ann,Bob,Cid", "--variant", "lithuanian"])
    assert code == 1
    assert f"{notes}:2:" in err and "half-whist" in err


def test_cli_notes_from_stdin_with_header(run):
    code, out, err = run(["convert", "-", "--to", "json"],
                             stdin="players: Ann, Bob, Cid\nBob 6S Cid:w Ann:w 6/3/1\n")
    assert code == 0, err
    assert '"tricks": {"Bob": 6, "Cid": 3, "Ann": 1}' in out


def test_no_deals_and_wrong_player_count():
    assert "no deal lines" in errors("# only a comment\nplayers: Ann, Bob, Cid\n")[0]
    # the preset's counts (sochi: 3 or 4 before the five-player table, 3 to 5 since, seed 004 l.107)
    from prefcli.model.records import counts_text
    from prefcli.rules.presets import get_preset
    counts = counts_text(get_preset("sochi").players)
    assert f"{counts} different players" in errors("Bob 6S\n", ["Ann", "Bob"])[0]
    assert f"{counts} different players" in errors("Bob 6S\n", ["Ann", "ann", "Bob"])[0]


def test_names_with_spaces_by_their_beginning():
    d = deals("Ann 6S Bob:w Cid:p 6/4/0", ["Ann Marie", "Bob", "Cid"])
    assert d[0]["declarer"] == "Ann Marie" and d[0]["tricks"] == {"Ann Marie": 6, "Bob": 4, "Cid": 0}
