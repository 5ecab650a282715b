"""Comments survive convert and convert --in-place (issue 11, item 2), or JSON output is
refused with the list of what would be lost unless --drop-comments says so."""
from __future__ import annotations

import json
import random

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, example_records, run_cli
from prefcli.io.comments import find_comments, place_comments
from prefcli.io.parsing import parse_text
from prefcli.io.writer_text import dump_yaml
from prefcli.rules.canonical import record_to_data, sheet_to_data
from prefcli.model.build import record_from_data
from test_writer_props import records

COMMENTED = """\
# Friday game
# typed from the paper sheet

format: pref-record/1
meta: {event: Club night}   # the club's own name
players: [Ann, Bob, Cid]
rules:
  # house rules
  variant: sochi
  pool: 20      # agreed before play
  allpass.progression: [1, 2, 3]   # dotted, nested on output
deals:
  # first deal
  - contract: 6S
    declarer: Bob
    # both whisted
    whist: {Cid: whist, Ann: whist}
    tricks: {Bob: 6, Cid: 3, Ann: 1}   # made exactly
  - {contract: all-pass, tricks: {Ann: 2, Bob: 5, Cid: 3}}  # raspasy
  - contract: 7H
    declarer: Cid
    whist: {Ann: pass, Bob: pass}
    note: "#1 of the night"   # a '#' inside a string is text
  - adjust:    # agreed at the table
      pool: {Ann: 2}
# the end
"""
COMMENTS = ["# Friday game", "# typed from the paper sheet", "# the club's own name", "# house rules",
            "# agreed before play", "# dotted, nested on output", "# first deal", "# both whisted",
            "# made exactly", "# raspasy", "# a '#' inside a string is text", "# agreed at the table",
            "# the end"]


def _data(text: str):
    return parse_text("<t>", text, False).data


def test_every_comment_survives_beside_its_data(tmp_path):
    src = tmp_path / "c.yaml"
    src.write_text(COMMENTED, encoding="utf-8")
    code, out, err = run_cli(["convert", str(src)])
    assert code == 0, err
    for c in COMMENTS:
        assert out.count(c) == 1, c
    lines = out.splitlines()
    assert lines[:3] == ["# Friday game", "# typed from the paper sheet", "format: pref-record/1"]
    assert "meta:  # the club's own name" in lines
    assert lines[lines.index("  variant: sochi") - 1] == "  # house rules"
    assert "  pool: 20  # agreed before play" in lines
    assert "  allpass: {progression: [1, 2, 3]}  # dotted, nested on output" in lines
    assert lines[lines.index("deals:") + 1] == "  # first deal"
    assert lines[lines.index("    whist: {Cid: whist, Ann: whist}") - 1] == "    # both whisted"
    assert "    tricks: {Bob: 6, Cid: 3, Ann: 1}  # made exactly" in lines
    assert "    note: '#1 of the night'  # a '#' inside a string is text" in lines
    assert "  - adjust: {pool: {Ann: 2}}  # agreed at the table" in lines
    assert lines[-1] == "# the end"
    # the data is exactly the comment-free conversion's
    code, bare, _ = run_cli(["convert", str(src), "--drop-comments"])
    assert code == 0 and "#" not in bare.replace("'#1", "")
    assert _data(out) == _data(bare)
    # converting again changes nothing
    again = tmp_path / "again.yaml"
    again.write_text(out, encoding="utf-8")
    assert run_cli(["convert", str(again)])[1] == out


def test_in_place_and_variant_keep_the_comments(tmp_path):
    src = tmp_path / "c.yaml"
    src.write_text(COMMENTED, encoding="utf-8")
    code, expected, _ = run_cli(["convert", str(src)])
    code, _, err = run_cli(["convert", str(src), "--in-place"])
    assert code == 0, err
    assert src.read_text(encoding="utf-8") == expected
    code, out, err = run_cli(["convert", str(src), "--variant", "leningrad"])
    assert code == 0, err
    assert all(out.count(c) == 1 for c in COMMENTS)
    assert "  variant: leningrad" in out


def test_one_comment_that_json_would_lose_is_named_in_the_singular(tmp_path):
    src = tmp_path / "c.yaml"
    src.write_text("# Friday\nformat: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi}\n"
                   "deals:\n- contract: all-pass\n  tricks: {Ann: 4, Bob: 3, Cid: 3}\n", encoding="utf-8")
    code, out, err = run_cli(["convert", str(src), "--to", "json"])
    assert code == 1 and out == ""
    assert f"prefcli: {src}: JSON has no comments, so this comment would be lost (" in err, err


def test_json_output_of_a_commented_file_is_refused_with_the_list(tmp_path):
    src = tmp_path / "c.yaml"
    src.write_text(COMMENTED, encoding="utf-8")
    for args in (["--to", "json"], ["-o", str(tmp_path / "out.json")]):
        code, out, err = run_cli(["convert", str(src), *args])
        assert code == 1 and out == ""
        assert "--drop-comments" in err and f"{src}:1: # Friday game" in err
        assert f"{src}:10: # agreed before play" in err
        assert "these 13 comments would be lost" in err
        assert not (tmp_path / "out.json").exists()
    code, out, err = run_cli(["convert", str(src), "--to", "json", "--drop-comments"])
    assert code == 0, err
    assert json.loads(out)["rules"]["pool"] == 20


def test_examples_keep_their_comments_and_are_fixed_points():
    for path in sorted(EXAMPLES.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        doc = parse_text(str(path), text, False)
        if doc.kind not in ("record", "sheet"):
            continue
        comments = find_comments(text, doc._node_root())
        canonical = dump_yaml(record_to_data(record_from_data(doc.data, strict=True)) if doc.kind == "record"
                              else sheet_to_data(_sheet(doc)))
        out = place_comments(canonical, comments)
        assert _data(out) == _data(canonical), path
        assert [c.text for c in comments] == [c.text for c in find_comments(out)], path
        assert place_comments(canonical, find_comments(out)) == out, path


def _sheet(doc):
    from prefcli.io.documents import build_sheet
    return build_sheet(doc)


def test_hash_inside_scalars_is_not_a_comment():
    text = ("format: pref-record/1\nmeta: {event: 'a # b', site: \"c # d\", note: |\n    e # f\n    g\n  }\n"
            "players: [A, B, C]\nrules: {variant: sochi}\ndeals: []\n")
    text = ("format: pref-record/1\nmeta:\n  event: 'a # b'\n  site: \"c # d\"\n  note: |\n    e # f\n"
            "    # g\nplayers: [A, B, C]  # seats\nrules: {variant: sochi}\ndeals: []\n")
    assert [(c.text, c.path, c.trailing) for c in find_comments(text)] == [("# seats", ("players",), True)]


@st.composite
def commented(draw):
    """A generated record as block YAML with comments on random lines (own line or trailing)."""
    data = draw(records())
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10 ** 6)
    seed = draw(st.integers(0, 10 ** 6))
    rnd = random.Random(seed)
    lines = text.splitlines()
    out, n = [], 0
    for line in lines:
        if rnd.random() < 0.25:
            indent = " " * rnd.choice([0, 2, 4, len(line) - len(line.lstrip(" "))])
            out.append(f"{indent}# c{n} own")
            n += 1
        if rnd.random() < 0.25:
            line = f"{line}  # c{n} trailing"
            n += 1
        out.append(line)
    if rnd.random() < 0.5:
        out.append(f"# c{n} end")
    return data, "\n".join(out) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commented())
def test_generated_comments_survive_never_change_the_data_and_are_stable(case):
    data, text = case
    doc = parse_text("<g>", text, False)
    assert doc.data == parse_text("<g0>", yaml.safe_dump(data, allow_unicode=True, sort_keys=False,
                                                          width=10 ** 6), False).data
    comments = find_comments(text, doc._node_root())
    written = [line.strip() for line in text.splitlines()]
    expected = sorted(w[w.index("# c"):] for w in written if "# c" in w)
    assert sorted(c.text for c in comments) == expected
    canonical = dump_yaml(record_to_data(record_from_data(doc.data, strict=True)))
    out = place_comments(canonical, comments)
    assert _data(out) == _data(canonical)                    # comments never change the data
    assert sorted(c.text for c in find_comments(out)) == expected   # every one is still there
    assert place_comments(canonical, find_comments(out)) == out     # and converting again is stable
