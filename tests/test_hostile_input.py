"""Hostile input never hangs, crashes or blows up, and its messages say what to do (issue 11,
items 1 and 7). Each sample is a file in tests/examples/negative/, named for its case; every
reading command refuses it with exit 1 and the same located message."""
from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, run_cli
from prefcli.model.diagnostics import InputError

NEGATIVE = Path(__file__).parent / "examples" / "negative"
READERS = [["validate"], ["score"], ["replay", "--check"], ["settle"], ["convert", "--to", "json"]]

# file -> (line:col of the first problem, words its message must hold)
CASES = {
    "tiny-number-in-adjust.yaml": ("10:24", ["1.0e-999999999", "out of range", "40 digits"]),
    "tiny-number-in-sheet.yaml": ("5:31", ["1.0e-999999999", "out of range"]),
    "huge-price-text.yaml": ("4:42", ["rules.price", "1e999999999", "out of range"]),
    "huge-price.json": ("2:41", ["1e999999999", "out of range"]),
    "nan.json": ("2:41", ["NaN is not a number JSON allows"]),
    "infinity.json": ("2:40", ["-Infinity is not a number JSON allows"]),
    "number-41-digits.json": ("2:40", ["41 digits"]),
    "lone-surrogate.json": ("2:16", ["\\ud800", "surrogate", "valid Unicode"]),
    "format-list.yaml": ("2:9", ["format", "found a list"]),
    "cp1251.yaml": ("2:11", ["cp1251 (Windows Cyrillic)", "iconv -f cp1251 -t utf-8"]),
    "escaped-unknown-keys.json": ("4:4", ["unknown field '😀'"]),
    "whist-gentleman.yaml": ("3:25", ["unknown option 'whist'", "did you mean 'whist_style'"]),
    "misspelt-variant.yaml": ("3:18", ["unknown variant 'sochy'; did you mean 'sochi'?"]),
    "misspelt-contract.yaml": ("5:13", ["'mizere' is not a contract", "did you mean 'misere'?"]),
    "misspelt-field.yaml": ("7:3", ["deals[0].wist: unknown field 'wist'; did you mean 'whist'?"]),
}


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_reader_refuses_a_hostile_sample_with_its_place(name, command):
    path = NEGATIVE / name
    where, words = CASES[name]
    before = path.read_bytes()
    code, out, err = run_cli([*command, str(path)])
    assert code == 1, (command, err)
    assert "Traceback" not in err and "internal error" not in err
    assert f"{path}:{where}: " in err, err
    for w in words:
        assert w in err, (w, err)
    assert "Decimal(" not in err and "Fraction(" not in err      # never a Python repr
    assert path.read_bytes() == before


def test_a_message_names_its_path_once():
    code, _, err = run_cli(["validate", str(NEGATIVE / "huge-price-text.yaml")])
    assert code == 1
    assert "rules.price: '1e999999999' is not a valid price" in err
    assert "price: price" not in err and "rules.price: price:" not in err


def test_the_tournament_cap_is_bounded_and_placed():
    path = NEGATIVE / "huge-cap-tournament.yaml"
    for command in (["validate"], ["settle", "--tournament", str(path), str(EXAMPLES / "paper-sheet.yaml")]):
        code, _, err = run_cli(command if command[0] != "validate" else [*command, str(path)])
        assert code in (1, 2), err
        assert "out of range" in err and "Traceback" not in err


@pytest.mark.parametrize("option", ["--cap", "--price", "--coin", "--floor"])
@pytest.mark.parametrize("value", ["1e999999999", "-1e999999999", "1.0e-999999999"])
def test_command_line_numbers_are_bounded(option, value):
    code, _, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), f"{option}={value}"])
    assert code == 2, err
    assert "out of range" in err and option in err
    assert f"{option}: {option}" not in err          # the option is named once


def test_command_line_band_and_set_are_bounded():
    code, _, err = run_cli(["settle", str(EXAMPLES / "paper-sheet.yaml"), "--band", "1e999999999:0.5"])
    assert code == 2 and "out of range" in err
    for sets in (["--set", "price=1e999999999"], ["--set", "whist_multiplier=1e99999999"]):
        for command in ("score", "settle"):
            code, _, err = run_cli([command, str(EXAMPLES / "sochi-3p.yaml"), *sets])
            assert code in (1, 2) and "out of range" in err and "Traceback" not in err, err


def test_the_bounded_number_reader():
    from prefcli.model.numbers import NumberError, check_decimal, exact, parse_decimal, parse_number
    assert parse_number("40/3") == Fraction(40, 3)
    assert parse_number("1.5e2") == 150 and parse_number("-0.25") == Fraction(-1, 4)
    assert parse_number("1e39") == 10 ** 39 and parse_number("0e9999") == 0
    assert parse_decimal("0.1") == Decimal("0.1")
    assert exact(Decimal("1.0E+30")) == 10 ** 30
    for bad in ("1e40", "1.0e-999999999", "1e999999999", "0." + "0" * 40 + "1", "9" * 41, "0e99999",
                "1/0", "abc", "NaN"):
        with pytest.raises(NumberError):
            parse_number(bad)
    for bad in (Decimal("1E+300"), Decimal("NaN"), Decimal("Infinity")):
        with pytest.raises(NumberError) as exc:
            check_decimal(bad)
        assert "Decimal(" not in exc.value.message


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_fifo_is_refused_at_once_not_read(tmp_path, command):
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "prefcli", *command, str(fifo)], capture_output=True,
                          text=True, cwd=str(ROOT), timeout=60)   # would block forever if opened
    assert proc.returncode == 1
    assert f"{fifo}: is a named pipe (FIFO), not a regular file" in proc.stderr
    # the way out names no other command than the one given: "- < FILE", whatever the command
    assert f"give - < {fifo} in its place" in proc.stderr and "prefcli validate -" not in proc.stderr


def test_a_device_is_refused():
    code, _, err = run_cli(["validate", "/dev/zero"])
    assert code == 1 and "/dev/zero: is a device, not a regular file" in err


def test_endless_standard_input_is_cut_at_the_limit_and_called_input():
    """``prefcli score - < /dev/zero``: the read stops at the limit; stdin is not "a file"."""
    proc = subprocess.run([sys.executable, "-m", "prefcli", "score", "-"], input=b"\0" * 1001, capture_output=True,
                          cwd=str(ROOT), timeout=60, env={**os.environ, "PREFCLI_MAX_BYTES": "1000"})
    assert proc.returncode == 1
    assert proc.stderr.decode() == ("<stdin>: input is larger than the limit of 1000 bytes "
                                    "(set PREFCLI_MAX_BYTES to raise it)\n")


@pytest.mark.parametrize("setting", ["abc", "-5", "0", "1e9", "5G", "1kb", "99999999999999999999999"])
def test_a_bad_read_limit_in_the_environment_is_a_usage_error(setting):
    """PREFCLI_MAX_BYTES=abc was an internal error (int()), =-5 called every file "not a valid
    file name" and =1e30 overflowed: now one line, 2, before any command, and no output."""
    proc = subprocess.run([sys.executable, "-m", "prefcli", "score", str(ROOT / "examples" / "sochi-3p.yaml")],
                          capture_output=True, text=True, cwd=str(ROOT), timeout=60,
                          env={**os.environ, "PREFCLI_MAX_BYTES": setting})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"prefcli: PREFCLI_MAX_BYTES={setting!r} is not a read limit: give a whole number of "
                           "bytes from 1 to 4294967296 (4 GiB), or of KiB, MiB or GiB (e.g. 128MiB)\n")


@pytest.mark.parametrize("setting, limit", [(None, 64 << 20), ("", 64 << 20), ("1000", 1000), (" 128MiB ", 128 << 20),
                                            ("2G", 2 << 30), ("4gib", 4 << 30), ("16k", 16 << 10)])
def test_the_read_limit_settings_that_are_taken(setting, limit):
    from prefcli.io.documents import max_bytes_setting
    assert max_bytes_setting(setting) == (limit, None)


def test_a_library_caller_gets_the_bad_setting_as_a_read_error(monkeypatch):
    """Without the CLI in front, the bad setting is the reader's refusal, not the default."""
    import prefcli.io.documents as documents
    monkeypatch.setattr(documents, "MAX_BYTES_PROBLEM", documents.max_bytes_setting("abc")[1])
    with pytest.raises(InputError) as exc:
        documents.read_source(str(ROOT / "examples" / "sochi-3p.yaml"))
    assert "PREFCLI_MAX_BYTES='abc' is not a read limit" in exc.value.problems[0].message


def _record_text() -> str:
    return ("# Сочи, три игрока\nformat: pref-record/1\nplayers: [Аня, Bob, Cid]\n"
            "rules: {variant: sochi, pool: 12, price: '0.1'}\ndeals:\n- contract: 6S\n  declarer: Bob\n"
            "  whist: {Cid: whist, Аня: pass}\n  tricks: {Bob: 6, Cid: 3, Аня: 1}\n")


@pytest.mark.parametrize("encoding,bom", [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"),
                                          ("utf-16-be", b"\xfe\xff")])
@pytest.mark.parametrize("command", [["validate"], ["score", "-f", "json"], ["settle"]], ids=lambda c: c[0])
def test_utf8_and_utf16_with_a_bom_are_read(tmp_path, encoding, bom, command):
    f = tmp_path / "game.yaml"
    f.write_bytes(bom + _record_text().encode(encoding))
    code, out, err = run_cli([*command, str(f)])
    assert code == 0, err
    if command[0] == "score":
        assert "Аня" in out


@pytest.mark.parametrize("codec,named", [("cp1251", "cp1251 (Windows Cyrillic)"), ("koi8-r", "KOI8-R"),
                                         ("utf-16-le", "UTF-16 (little-endian) without a byte-order mark")])
def test_another_encoding_is_refused_naming_it_and_the_conversion(tmp_path, codec, named):
    f = tmp_path / "game.yaml"
    f.write_bytes(_record_text().encode(codec))
    code, _, err = run_cli(["validate", str(f)])
    assert code == 1
    assert named in err and f"iconv -f {codec.replace('-le', 'le').replace('utf-16le', 'utf-16le')}" in err.replace("utf-16-le", "utf-16le")
    assert "binary" not in err


def test_latin1_is_named_western_not_cyrillic(tmp_path):
    f = tmp_path / "game.yaml"
    f.write_bytes(_record_text().replace("Аня", "Jörg").replace("# Сочи, три игрока", "# Zoë").encode("latin-1"))
    code, _, err = run_cli(["validate", str(f)])
    assert code == 1 and "cp1252 or latin-1" in err and "iconv -f cp1252 -t utf-8" in err


def test_did_you_mean_lists_at_most_three_names():
    code, _, err = run_cli(["score", str(EXAMPLES / "sochi-3p.yaml"), "--set", "whist_multiplyer=2"])
    assert code == 2
    assert "did you mean 'whist_multiplier'" in err
    assert err.count("'") <= 2 * 4 + 2          # the option and at most three suggestions
    assert "valid options: " not in err


def test_unknown_field_is_placed_at_its_own_key(tmp_path):
    text = ("format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi}\ndeals:\n"
            "- contract: 6S\n  declarer: Bob\n  whist: {Cid: whist, Ann: pass}\n  tricks: {Bob: 6, Cid: 3, Ann: 1}\n"
            "  colour: red\n")
    f = tmp_path / "g.yaml"
    f.write_text(text)
    code, _, err = run_cli(["validate", str(f)])
    assert code == 1 and f"{f}:9:3: deals[0].colour: unknown field 'colour'" in err
    import json
    import yaml
    j = tmp_path / "g.json"
    j.write_text(json.dumps(yaml.safe_load(text), indent=2))
    code, _, err = run_cli(["validate", str(j)])
    line = next(i for i, t in enumerate(j.read_text().splitlines(), 1) if '"colour"' in t)
    assert code == 1 and f"{j}:{line}:7: deals[0].colour: unknown field 'colour'" in err


def test_json_positions_survive_escapes():
    from prefcli.io.parsing import parse_text
    doc = parse_text("t.json", '{"a\\u0062": {"\\ud83d\\ude00": [1,\n  {"k\\/": 2}]}}', True)
    assert doc.data == {"ab": {"😀": [1, {"k/": 2}]}}
    assert doc.locate(("ab", "😀", 1, "k/")) == (2, 11)
    assert doc.locate(("ab", "😀", 1, "k/"), key=True) == (2, 4)
    assert doc.locate(("ab", "nothere")) == (1, 13)


SYNTAX = {  # file -> (line:col, the explanation in words)
    "tab-indentation.yaml": ("4:1", "a tab character: YAML indents with spaces only"),
    "bad-indentation.yaml": ("5:3", "indentation does not match the lines above"),
    "deeper-indentation.yaml": ("5:8", "indented deeper than the key above it"),
    "trailing-comma-in-list.json": ("1:55", "a trailing comma: JSON allows no ',' after the last item of a list"),
    "trailing-comma-in-object.json": ("2:31", "a trailing comma: JSON allows no ',' after the last field"),
    "unclosed-quote.yaml": ("4:1", "a quoted text is not closed: its closing quote is missing (opened at line 2"),
}


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
@pytest.mark.parametrize("name", sorted(SYNTAX))
def test_syntax_errors_are_explained_in_words_with_the_place(name, command):
    path = NEGATIVE / name
    where, words = SYNTAX[name]
    code, _, err = run_cli([*command, str(path)])
    assert code == 1, err
    assert f"{path}:{where}: " in err and words in err, err
    for raw in ("Expecting", "while parsing", "while scanning", "cannot start any token", "delimiter"):
        assert raw not in err                       # no raw parser text


@pytest.mark.parametrize("command", [["validate"], ["settle"], ["convert", "--to", "json"]], ids=lambda c: c[0])
@pytest.mark.parametrize("name,where,words", [
    ("sheet-player-missing-from-pool.yaml", "5:7", "pool: Cid has no pool entry: every seated player needs one (write Cid: 0"),
    ("start-player-missing-from-mountain.yaml", "7:13", "start.mountain: Cid has no mountain entry"),
])
def test_a_sheet_must_name_every_seated_player_in_pool_and_mountain(name, where, words, command):
    path = NEGATIVE / name
    code, _, err = run_cli([*command, str(path)])
    assert code == 1 and f"{path}:{where}: {words}" in err, err


def test_a_start_sheet_leaving_a_player_out_is_refused_by_score_and_replay():
    path = NEGATIVE / "start-player-missing-from-mountain.yaml"
    for command in (["score"], ["replay", "--check"]):
        code, _, err = run_cli([*command, str(path)])
        assert code == 1 and "Cid has no mountain entry" in err, err


def test_a_sheet_with_every_player_and_explicit_zeros_settles(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text((NEGATIVE / "sheet-player-missing-from-pool.yaml").read_text().replace(
        "pool: {Ann: 20, Bob: 20}", "pool: {Ann: 20, Bob: 20, Cid: 0}"))
    code, out, err = run_cli(["settle", str(f)])
    assert code == 0, err


def test_validate_checks_quick_entry_notes(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("players: Ann Bob Cid\nvariant: sochi\nBob 6S Cid:w Ann:w 6/3/1\n")
    code, out, err = run_cli(["validate", str(good)])
    assert code == 0 and f"ok: {good} (notes, 1 deals)" in out, err
    bad = tmp_path / "bad.txt"
    bad.write_text("players: Ann Bob Cid\nvariant: sochi\nBob 6S Cid:w Ann:w 6/3/1\nzz Bob\nCid 7X\n")
    code, out, err = run_cli(["validate", str(bad)])
    assert code == 1
    assert f"{bad}:4: 'zz' is neither a player" in err and f"{bad}:5: '7X' is not a contract" in err  # one round
    assert "YAML" not in err


def test_validate_of_notes_without_players_says_to_use_convert():
    code, _, err = run_cli(["validate", str(EXAMPLES / "notes.txt")])
    assert code == 1
    assert "prefcli convert" in err and "--players" in err and "YAML" not in err
