"""convert writes a record deal by deal (issue 11 item 1): the head, each deal's plain data made,
written and let go, the tail. The bytes must be those of the whole document written at once
(dump(record_to_data(record))), for every example, bad input and a generated record, both
formats, both directions, canonical and --variant."""
from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import BADINPUTS, ROOT, example_records, needs_shared


def _whole(record, kind: str) -> str:
    """The text convert wrote before it streamed: the whole plain document, then its text."""
    from prefcli.io.writer_json import dump
    from prefcli.rules.canonical import record_to_data
    return dump(record_to_data(record), kind)


def _streamed(record, kind: str) -> str:
    from prefcli.io.writer_json import dump_chunks
    from prefcli.rules.canonical import record_parts
    parts = record_parts(record)
    return "".join(dump_chunks(parts.head, parts.deals(), parts.tail, kind))


def _record(path: Path):
    from prefcli.io.documents import build_record, load_document
    return build_record(load_document(str(path)), check_schema=False)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gen")
    out = {}
    for name, extra in (("summary.yaml", []), ("summary.json", ["--json"]), ("full.yaml", ["--full"]),
                        ("four.json", ["--json", "--players", "4"])):
        path = folder / name
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "400", "--seed", "3",
                        *extra, "-o", str(path)], check=True)
        out[name] = path
    return out


@pytest.mark.parametrize("kind", ["json", "yaml"])
@pytest.mark.parametrize("path", example_records(), ids=lambda p: p.name)
def test_streamed_text_is_the_whole_text_for_every_example(path, kind):
    record = _record(path)
    assert _streamed(record, kind) == _whole(record, kind)


@pytest.mark.parametrize("kind", ["json", "yaml"])
@pytest.mark.parametrize("target", ["sochi", "leningrad", "rostov", "lithuanian"])
@pytest.mark.parametrize("path", example_records(), ids=lambda p: p.name)
def test_streamed_variant_text_is_the_whole_text(path, target, kind):
    from prefcli.app.convert import convert_record
    from prefcli.model.diagnostics import PrefcliError
    try:
        conv = convert_record(_record(path), target, check=False)
    except PrefcliError:
        pytest.skip("this record is not converted to that preset (refused with the reason)")
    assert _streamed(conv.record, kind) == _whole(conv.record, kind)


@pytest.mark.parametrize("kind", ["json", "yaml"])
@pytest.mark.parametrize("name", ["summary.yaml", "summary.json", "full.yaml", "four.json"])
def test_streamed_cli_output_of_a_generated_record_is_the_whole_text(generated, name, kind, run, tmp_path):
    from prefcli.app.convert import convert_source
    from prefcli.io.writer_json import dump
    src = generated[name]
    out = tmp_path / f"out.{kind}"
    assert run(["convert", str(src), "-f", kind, "-o", str(out)])[0] == 0
    whole = _whole(_record(src), kind)
    assert out.read_text(encoding="utf-8") == whole
    assert dump(convert_source(str(src)).data, kind) == whole
    code, stdout, _ = run(["convert", str(src), "-f", kind])
    assert code == 0 and stdout == whole


@pytest.mark.parametrize("kind", ["json", "yaml"])
def test_streamed_cli_output_with_variant_is_the_whole_text(generated, kind, run, tmp_path):
    from prefcli.app.convert import convert_record
    src = generated["summary.yaml"]
    out = tmp_path / f"out.{kind}"
    code, _, _ = run(["convert", str(src), "--variant", "leningrad", "-q", "-f", kind, "-o", str(out)])
    conv = convert_record(_record(src), "leningrad")
    if conv.invalid:
        assert code == 1 and not out.exists()
        return
    assert code == 0
    assert out.read_text(encoding="utf-8") == _whole(conv.record, kind)


@needs_shared
@pytest.mark.parametrize("kind", ["json", "yaml"])
@pytest.mark.parametrize("path", sorted(BADINPUTS.glob("*.*")) if BADINPUTS.is_dir() else [],
                         ids=lambda p: p.name)
def test_bad_input_is_refused_with_nothing_written_or_streamed_as_the_whole_text(path, kind, run, tmp_path):
    if path.suffix not in (".yaml", ".json"):
        pytest.skip("not a record")
    out = tmp_path / f"out.{kind}"
    code, _, err = run(["convert", str(path), "-f", kind, "-o", str(out)])
    if code != 0:
        assert not out.exists() and err
        return
    assert out.read_bytes().decode("utf-8") == _whole(_record(path), kind)


def test_an_amount_it_cannot_write_is_refused_before_anything_is_written(run, tmp_path):
    """The amounts are checked before the first deal is written, so stdout gets nothing."""
    src = tmp_path / "r.yaml"
    src.write_text("format: pref-record/1\nplayers: [A, B, C]\nrules: {variant: sochi}\ndeals:\n"
                   "  - contract: pass\n    tricks: {A: 4, B: 3, C: 3}\n"
                   "  - adjust: {pool: {A: 0.1234567890123}}\n")
    if run(["validate", "-q", str(src)])[0] != 0:
        pytest.skip("the reader refuses this number already")
    code, out, err = run(["convert", str(src), "-f", "json"])
    assert code == 1 and out == "" and "deals[1].adjust.pool.A" in err


def _pieces(head, deals, tail, kind):
    from prefcli.io.writer_json import json_pieces
    from prefcli.io.writer_stream import yaml_pieces
    return "".join((json_pieces if kind == "json" else yaml_pieces)(head, iter(deals), tail))


@pytest.mark.parametrize("kind", ["json", "yaml"])
@pytest.mark.parametrize("case", ["plain", "multi-line note", "kept newlines last", "kept newlines inside",
                                  "decimal rules", "no deals", "odd texts"])
def test_pieces_are_the_whole_dump_where_pyyaml_writes_some_parts(case, kind):
    """Parts the direct YAML writer leaves to PyYAML (a multi-line text, a Decimal, double
    quotes) are PyYAML's text of that part; its `...` end marker only at the document's end."""
    from prefcli.io.writer_json import dump
    head = {"format": "pref-record/1", "meta": {"event": "club night", "tags": ["a", "b"]},
            "players": ["Ann", "Bob", "Cid"], "rules": {"variant": "sochi", "pool": 20}}
    deals = [{"contract": "6S", "declarer": "Ann", "whist": {"Bob": "pass", "Cid": "whist"},
              "tricks": {"Ann": 6, "Bob": 2, "Cid": 2}} for _ in range(5)]
    deals.append({"adjust": {"pool": {"Ann": 2}, "note": "fix"}})
    tail = {"end": {"reason": "time"}}
    if case == "multi-line note":
        deals[2] = dict(deals[2], note="first line\nsecond line")
    elif case == "kept newlines last":
        tail = {}
        deals[-1] = dict(deals[0], note="ends\n\n")
    elif case == "kept newlines inside":
        deals[1] = dict(deals[1], note="ends\n\n")
        tail = {"end": {"reason": "kept\n\n"}}
    elif case == "decimal rules":
        head["rules"] = {"variant": "sochi", "price": Decimal("0.25")}
    elif case == "no deals":
        deals = []
    elif case == "odd texts":
        deals[3] = dict(deals[3], note="say \"hi\"\tnow", declarer="yes")
        head["meta"] = {"no": "010", "date": "2026-11-29", "é": "ė"}
    whole = dict(head, deals=deals, **tail)
    assert _pieces(head, deals, tail, kind) == dump(whole, kind)


def test_pieces_come_in_chunks_not_a_write_per_deal(generated):
    from prefcli.io.writer_json import dump_chunks
    from prefcli.rules.canonical import record_parts
    parts = record_parts(_record(generated["full.yaml"]))
    chunks = list(dump_chunks(parts.head, parts.deals(), parts.tail, "yaml"))
    assert 1 < len(chunks) < 400


def test_convert_keeps_the_collector_paused_from_the_reading_to_the_last_write(run, monkeypatch, tmp_path):
    """A pass of the cycle collector between the check and the writing walked the whole record
    (nothing in it is cyclic garbage): the convert command keeps it paused until its last write,
    as score does, and on again after, whatever the outcome."""
    import gc

    from prefcli.app import convert as app_convert
    seen = []
    real = app_convert.Converted.chunks

    def chunks(self, kind, comments=()):
        seen.append(gc.isenabled())
        for chunk in real(self, kind, comments):
            seen.append(gc.isenabled())
            yield chunk

    monkeypatch.setattr(app_convert.Converted, "chunks", chunks)
    assert gc.isenabled()
    for kind in ("json", "yaml"):
        code, out, _ = run(["convert", "examples/full-deals-sochi.yaml", "-f", kind])
        assert code == 0 and out
        assert seen and not any(seen)
        assert gc.isenabled()
        seen.clear()
    code, _, err = run(["convert", str(tmp_path / "missing.yaml"), "-f", "json"])
    assert code == 1 and "missing.yaml" in err
    assert gc.isenabled()
