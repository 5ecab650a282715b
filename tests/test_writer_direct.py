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

from prefcli.io import writer
from prefcli.io.writer_text import _DirectYaml, _mark, _NotDirect, _pyyaml_text, dump_yaml


def _both(data):
    marked = _mark(data, 0, 0)
    try:
        direct = _DirectYaml().document(marked)
    except _NotDirect:
        direct = None
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
