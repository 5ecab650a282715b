"""Strict loading: safe YAML, exact numbers, duplicate keys, positions (issue 2 §4)."""
import io
import json
from decimal import Decimal

import pytest
import yaml

from prefcli.model.diagnostics import InputError
from prefcli.io.documents import load_document
from prefcli.io.parsing import parse_text


def load(text, json_=False):
    return parse_text("t.json" if json_ else "t.yaml", text, json_).data


def error_of(text, json_=False):
    with pytest.raises(InputError) as exc:
        parse_text("t.json" if json_ else "t.yaml", text, json_)
    return exc.value.problems[0]


def test_yes_no_and_dates_stay_strings():
    data = load("players: [No, Yes, off]\nmeta: {date: 2026-11-29, time: 12:30}\n")
    assert data["players"] == ["No", "Yes", "off"]
    assert data["meta"] == {"date": "2026-11-29", "time": "12:30"}


def test_yaml_1_2_scalars():
    data = load("a: true\nb: False\nc: ~\nd: 12\ne: 12.5\nf: '12'\ng: 010\nh: .inf\n")
    assert data == {"a": True, "b": False, "c": None, "d": 12, "e": Decimal("12.5"), "f": "12",
                    "g": "010", "h": ".inf"}


def test_keys_are_strings_as_written():
    assert load("prices: {7: 5, 10: 12}\n") == {"prices": {"7": 5, "10": 12}}


def test_python_tags_are_refused_never_executed():
    p = error_of("a: !!python/object/apply:os.system ['echo pwned']\n")
    assert "tag" in p.message and p.line == 1
    p = error_of("a: !custom x\n")
    assert "tag" in p.message


def test_standard_tags_allowed():
    assert load("a: !!str 12\nb: !!int '7'\n") == {"a": "12", "b": 7}


def test_duplicate_key_is_an_error_with_its_line():
    p = error_of("players: [A, B, C]\nrules: {}\nplayers: [D]\n")
    assert "duplicate key 'players'" in p.message
    assert (p.line, p.column) == (3, 1)


def test_json_duplicate_key_located():
    p = error_of('{"a": 1,\n "a": 2}', json_=True)
    assert "duplicate key 'a'" in p.message and p.line == 2


def test_aliases_of_collections_refused():
    p = error_of("a: &x [1, 2]\nb: *x\n")
    assert "alias" in p.message


def test_merge_keys_refused():
    p = error_of("a: &x {k: 1}\nb: {<<: *x}\n")
    assert "merge" in p.message or "alias" in p.message


def test_huge_numbers_refused():
    p = error_of("pool: " + "9" * 500 + "\n")
    assert "500 digits" in p.message
    p = error_of('{"pool": ' + "9" * 500 + "}", json_=True)
    assert "500 digits" in p.message


def test_deep_nesting_refused_quickly():
    p = error_of("[" * 100000 + "]" * 100000, json_=True)
    assert "nesting" in p.message
    p = error_of("a: " + "[" * 100000 + "]" * 100000)
    assert "nesting" in p.message


def test_json_floats_are_exact():
    assert load('{"x": 0.1}', json_=True) == {"x": Decimal("0.1")}


def test_syntax_errors_carry_line_and_column():
    p = error_of("a: [1, 2\nb: 3\n")
    assert p.line is not None and "YAML" in p.message
    p = error_of('{"a": 1,}', json_=True)
    assert (p.line, p.column) == (1, 9) and "JSON" in p.message


def test_empty_and_comment_only(tmp_path):
    assert "empty" in error_of("  \n").message
    assert "no document" in error_of("# nothing\n").message


def test_binary_refused(tmp_path):
    f = tmp_path / "b.yaml"
    f.write_bytes(b"\x00\x01\xff\xfe")
    with pytest.raises(InputError) as exc:
        load_document(str(f))
    assert "binary" in exc.value.problems[0].message or "UTF-8" in exc.value.problems[0].message


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(InputError) as exc:
        load_document(str(tmp_path / "nope.yaml"))
    assert "no such file" in exc.value.problems[0].text()


def test_size_limit(tmp_path, monkeypatch):
    import prefcli.io.documents as loader
    monkeypatch.setattr(loader, "MAX_BYTES", 100)
    f = tmp_path / "big.yaml"
    f.write_text("a: " + "x" * 200)
    with pytest.raises(InputError) as exc:
        loader.load_document(str(f))
    assert "larger than the limit" in exc.value.problems[0].message


def test_locate_paths():
    doc = parse_text("t.yaml", "players: [A, B, C]\ndeals:\n  - contract: 6S\n    tricks: {A: 6, B: 4}\n", False)
    assert doc.locate(("deals", 0, "tricks", "B")) == (4, 23)
    assert doc.locate(("deals", 0, "nothere")) == (3, 5)
    jdoc = parse_text("t.json", '{"players": ["A", "B"],\n "deals": [{"contract": "6S"}]}', True)
    assert jdoc.locate(("deals", 0, "contract")) == (2, 25)


def test_utf8_bom_accepted():
    assert parse_text("t.yaml", "a: 1\n", False).data == {"a": 1}
    assert load_document("-", raw="\ufeffa: 1\n".encode()).data == {"a": 1}
