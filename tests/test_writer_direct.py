"""The direct YAML writer gives PyYAML's bytes (issue 18: convert's YAML output).

`writer_text.dump_yaml` writes plain documents itself and hands anything else to PyYAML; either way
the text must be exactly what PyYAML writes for the same marked tree, so `convert` output is
byte-identical to what it was.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, ROOT

from prefcli.io import writer, writer_json, writer_text
from prefcli.io.writer_text import _DirectYaml, _mark, _NotDirect, _pyyaml_text, dump_yaml


def _both(data):
    marked = _mark(data, 0, 0)
    try:
        direct = _DirectYaml().document(marked)
    except _NotDirect:
        direct = None
    try:                    # the one-walk writer (what dump_yaml runs) writes the same, or declines alike
        unmarked = _DirectYaml().write(data)
    except _NotDirect:
        unmarked = None
    assert unmarked == direct
    return direct, _pyyaml_text(marked)


def _documents():
    from prefcli.io.documents import load_document
    from prefcli.model.diagnostics import InputError
    for p in sorted(list(EXAMPLES.rglob("*")) + list((ROOT / "tests" / "examples").rglob("*"))):
        if p.suffix.lower() in (".yaml", ".yml", ".json") and p.is_file():
            try:
                yield p, load_document(str(p))
            except InputError:
                continue


def test_canonical_records_and_sheets_of_every_example_written_directly():
    from prefcli.io.documents import build_record, build_sheet
    from prefcli.model.diagnostics import InputError
    seen = 0
    for path, doc in _documents():
        try:
            if doc.kind == "record":
                data = writer.record_to_data(build_record(doc))
            elif doc.kind == "sheet":
                data = writer.sheet_to_data(build_sheet(doc))
            else:
                continue
        except InputError:
            continue
        direct, pyyaml = _both(data)
        assert direct is not None, f"{path}: left to PyYAML"
        assert direct == pyyaml, path
        seen += 1
    assert seen >= 8


def test_generated_full_and_summary_records(tmp_path):
    from prefcli.io.documents import build_record, load_document
    for extra in ([], ["--full"]):
        out = tmp_path / f"g{len(extra)}.yaml"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "300", "--seed", "3",
                        *extra, "-o", str(out)], check=True)
        data = writer.record_to_data(build_record(load_document(str(out))))
        direct, pyyaml = _both(data)
        assert direct == pyyaml


ODD_TEXTS = ["", " ", "a ", " a", "yes", "No", "on", "null", "~", "1", "1.5", "1e3", "0x1F", "2026-11-29",
             "12:30", "a: b", "a #b", "#x", "-", "- x", "-x", "?", "? x", ":x", "x:", "[x]", "{x}", "a,b",
             "it's", "'q'", '"q"', "&a", "*a", "!t", "|", ">", "%", "@", "`", "=", "<<", "---", "...", "--- x",
             "Пётр", "Ona ė", "♠", "10♥ 9♥", "tab\there", "a\u00a0b", "\ufeffbom", "\x07", "x" * 150,
             "AS KS QS", "6NT", "misère", "all-pass", "Ann's", "a/b", "(a)", "_x", "+1", ".5", "a  b"]


@pytest.mark.parametrize("text", ODD_TEXTS)
def test_odd_texts_as_keys_and_values(text):
    for data in ({"format": "pref-record/1", "meta": {"note": text}, "players": [text, "Bob", "Cid"]},
                 {"format": "pref-record/1", "meta": {text: 1}, "deals": [{"note": text, "whist": {text: "pass"}}]},
                 {"format": "x", "log": [{"note": text}], "deals": [{"play": [text, "AS KS", text]}]}):
        direct, pyyaml = _both(data)
        if direct is not None:
            assert direct == pyyaml, repr(text)
        assert dump_yaml(data) == pyyaml


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 12, 10 ** 12),
                    st.text(max_size=12), st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12),
                    st.sampled_from(ODD_TEXTS))
keys = st.one_of(st.text(max_size=8), st.sampled_from(["deals", "meta", "rules", "start", "log", "play",
                                                        "hands", "whist", "players"]))
trees = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                      st.dictionaries(keys, inner, max_size=5)), max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(keys, trees, min_size=1, max_size=6))
def test_random_documents_same_bytes(data):
    direct, pyyaml = _both(data)
    if direct is not None:
        assert direct == pyyaml


json_scalars = st.one_of(scalars, st.floats(allow_nan=True), st.decimals(allow_nan=False, places=3),
                         st.fractions(max_denominator=7), st.dates())
json_keys = st.one_of(keys, st.sampled_from(["true", "false", "null", "True"]), st.booleans(), st.none(),
                      st.integers(-3, 3))
json_trees = st.recursive(json_scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                                st.dictionaries(json_keys, inner, max_size=5)),
                          max_leaves=25)


@settings(max_examples=500, deadline=None)
@given(json_trees)
def test_json_one_line_from_the_c_encoder_or_not_at_all(value):
    """The C encoder's line is _json_one_line's, or declined (a Decimal, a date, a key True...);
    the counted length is the written one's, or past the limit once it passes it."""
    try:
        slow = writer_json._json_one_line(value)
    except Exception:          # noqa: BLE001 - a value neither writes (an amount out of bounds)
        return
    fast = writer_json._json_line_fast(value)
    assert fast is None or fast == slow
    assert writer_json._json_len(value, 10 ** 9) == len(slow)
    for limit in (0, 5, 40, 80):
        got = writer_json._json_len(value, limit)
        assert got == len(slow) if len(slow) <= limit else got > limit


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(json_keys, json_trees, min_size=1, max_size=6))
def test_json_documents_same_with_and_without_the_c_encoder(data):
    try:
        fast = writer_json.dump_json(data)
    except Exception:          # noqa: BLE001
        return
    saved = writer_json._json_line_fast
    writer_json._json_line_fast = lambda value: None
    try:
        assert writer_json.dump_json(data) == fast
    finally:
        writer_json._json_line_fast = saved


def _without_small_memo(fn, *args):
    saved = writer_text._small_key
    writer_text._small_key = writer_json._small_key = lambda value, t: None
    try:
        return fn(*args)
    finally:
        writer_text._small_key = writer_json._small_key = saved


REPEATS = {"format": "x", "deals": [{"whist": {"a": 1}}, {"whist": {"a": True}}, {"whist": {"a": "1"}},
                                    {"whist": {"a": 1}, "tricks": [1, True, "1"]}, {"tricks": [1, 1, 1]},
                                    {"tricks": [True, 1, 1]}, {"long": {"a": "x" * 70}}, {"long": {"a": "x" * 70}},
                                    {"n": {"whist": {"a": 1}}}, {"whist": {"a": 1.0}}],
           "meta": {"whist": {"a": 1}}, "whist": {"a": 1}}


def test_small_collections_written_once_per_place_and_content():
    """A small collection's text is remembered by where it stands and what it holds (1, True and
    "1" apart); the texts are those written without remembering."""
    assert dump_yaml(REPEATS) == _without_small_memo(dump_yaml, REPEATS) == _pyyaml_text(_mark(REPEATS, 0, 0))
    assert writer_json.dump_json(REPEATS) == _without_small_memo(writer_json.dump_json, REPEATS)
    assert '"whist": {"a": true}' in writer_json.dump_json(REPEATS)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, trees, min_size=1, max_size=6))
def test_json_documents_same_without_the_small_memo(data):
    assert writer_json.dump_json(data) == _without_small_memo(writer_json.dump_json, data)


def _resolver_says_text(value: str) -> bool:
    import yaml
    import yaml.resolver
    return yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str"


def test_the_resolvers_first_characters_and_words_are_pyyamls():
    """The direct writer asks PyYAML's resolver only under the first characters it lists
    patterns for; under a letter those are the booleans' and null's words alone."""
    import yaml.resolver
    table = yaml.resolver.Resolver.yaml_implicit_resolvers
    assert None not in table
    assert set(table) == set(writer_text._RESOLVER_FIRST)
    tags = {tag for first in writer_text._WORD_FIRST for tag, _ in table[first]}
    assert tags == {"tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}
    for word in writer_text._RESOLVER_WORDS:
        assert not _resolver_says_text(word)
    for level in range(0, 12):
        for strain in ("S", "C", "D", "H", "NT", "X", "s", "nt"):
            text = f"{level}{strain}"
            if writer_text._CONTRACT_TEXT.match(text):
                assert _resolver_says_text(text), text


WORDISH = st.one_of(st.sampled_from(ODD_TEXTS + sorted(writer_text._RESOLVER_WORDS)),
                    st.builds(lambda a, b: a + b, st.sampled_from([chr(c) for c in range(32, 127)]),
                              st.one_of(st.just(""), st.text(st.characters(min_codepoint=32, max_codepoint=126),
                                                             max_size=6))),
                    st.builds(lambda w, t: w + t, st.sampled_from(sorted(writer_text._RESOLVER_WORDS)),
                              st.sampled_from(["", " ", "s", "!", "_", "0"])),
                    st.text(max_size=8))


@settings(max_examples=1500, deadline=None)
@given(WORDISH)
def test_a_text_is_taken_for_a_text_as_pyyamls_resolver_takes_it(value):
    if not value or any(b in value for b in writer_text._BREAKS):
        return                  # never asked: the empty text is quoted, a line break declined
    assert _DirectYaml()._resolves_to_text(value) == _resolver_says_text(value), repr(value)


def test_convert_of_a_json_record_to_yaml_loads_yaml_only_when_a_text_asks(tmp_path):
    """JSON → YAML of a generated record (names, cards, contracts, plain words) never imports
    PyYAML; a text the shortcuts cannot place (a date) still reads PyYAML's resolver."""
    src = tmp_path / "g.json"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "50", "--seed", "3",
                    "--full", "--json", "-o", str(src)], check=True)
    probe = ("import sys\nfrom prefcli.cli.main import main\nmain(['convert', '-f', 'yaml', sys.argv[1], '-o', "
             "sys.argv[2]])\nprint('yaml' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe, str(src), str(tmp_path / "o.yaml")], capture_output=True,
                         text=True, cwd=str(tmp_path), check=True)
    assert out.stdout.strip() == "False"
    assert _DirectYaml().text("2026-11-29", False, False) == "'2026-11-29'"
    w = _DirectYaml()
    assert w.text("1_000", False, False) == "'1_000'" and w._resolver is not None


def test_every_short_ascii_text_is_taken_for_a_text_as_pyyamls_resolver_takes_it():
    chars = [chr(c) for c in range(32, 127)]
    w = _DirectYaml()
    for a in chars:
        for b in [""] + chars:
            assert w._resolves_to_text(a + b) == _resolver_says_text(a + b), repr(a + b)
