"""Per-input settle output, streamed (issue 15, flat memory): each input is rendered as it is
settled and forgotten; the bytes are those of the whole report, and memory does not grow with
the number of inputs (tracemalloc's peak, not time)."""
from __future__ import annotations

import io
import shutil
import tracemalloc
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT

FORMATS = ["table", "csv", "json", "yaml"]


@pytest.fixture(autouse=True)
def forked_workers(monkeypatch):
    """-j 2 forks its worker here whatever the machine's load: `settle --jobs N` forks only when
    a core is measured idle (executors.IdleProbe), and these tests are about the worker's path."""
    from prefcli.app import executors
    monkeypatch.setattr(executors.IdleProbe, "idle_cores", lambda self: float("inf"))

BATCHES = {
    "tournament": ["examples/tournament/"],
    "season": ["examples/season-2019/"],
    "one sheet": ["examples/paper-sheet.yaml"],
    "records and sheets": ["examples/sochi-3p.yaml", "examples/paper-sheet.yaml", "examples/leningrad-4p.yaml"],
    "priced": ["examples/season-2019/", "--price", "0.25", "--coin", "0.05"],
    "standings": ["examples/season-2019/", "--standings", "--cap", "100", "--floor", "-150"],
    "mixed families": ["examples/lithuanian-4p.yaml", "examples/kitty-4p.yaml", "examples/sochi-3p.yaml"],
}


def _whole(args, fmt):
    """What the whole report renders (the path every batch took before streaming)."""
    from prefcli import render
    from prefcli.app.settle import plan_inputs, settle
    from prefcli.settle import SettleOptions
    from prefcli.app.settle import StandingsRequest
    from prefcli.cli.util import decimal_option
    from prefcli.model.numbers import parse_number
    inputs = [a for a in args if not a.startswith("--") and a not in _values(args)]
    kw = dict(zip(args[::1], args[1::1]))
    options = SettleOptions(price=decimal_option(kw.get("--price"), "--price"),
                            coin=decimal_option(kw.get("--coin"), "--coin"))
    request = StandingsRequest(cap=parse_number(kw["--cap"]) if "--cap" in kw else None,
                               floor=parse_number(kw["--floor"]) if "--floor" in kw else None,
                               always="--standings" in args)
    report = settle(inputs, options, standings=request, plan=plan_inputs(inputs))
    return render.render("settlement", fmt, report)


def _values(args):
    return {args[i + 1] for i, a in enumerate(args) if a in ("--price", "--coin", "--cap", "--floor")}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", sorted(BATCHES))
def test_streamed_output_is_byte_identical_to_the_whole_report(run, monkeypatch, name, fmt):
    monkeypatch.chdir(ROOT)
    args = BATCHES[name]
    expected = _whole(args, fmt)
    code, out, err = run(["settle", *args, "-f", fmt])
    assert code == 0, err
    assert out == expected
    code, out2, err = run(["settle", *args, "-f", fmt, "-j", "2"])
    assert code == 0 and out2 == expected, err


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("spill", [0, 1 << 40])
def test_the_spool_in_memory_or_in_a_file_gives_the_same_bytes(run, monkeypatch, fmt, spill):
    """The spool keeps its text in memory until it is large (settle of one file imports no
    tempfile): spilled at the first write, or never, the output is the whole report's."""
    from prefcli.render import settlement_stream
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(settlement_stream, "_SPILL", spill)
    for name in ("season", "mixed families", "one sheet"):
        args = BATCHES[name]
        code, out, err = run(["settle", *args, "-f", fmt])
        assert code == 0, err
        assert out == _whole(args, fmt), name


def test_the_spool_moves_to_a_file_past_its_limit(monkeypatch):
    from prefcli.render import settlement_stream
    monkeypatch.setattr(settlement_stream, "_SPILL", 10)
    spill = settlement_stream._Spill()
    spill.write("a\udcff1\n")
    assert isinstance(spill.buffer, io.StringIO)
    spill.write("b2\nc3\nd4\n")
    assert not isinstance(spill.buffer, io.StringIO)     # a temporary file now
    spill.flush()
    spill.seek(0)
    assert list(spill) == ["a\udcff1\n", "b2\n", "c3\n", "d4\n"]
    spill.close()


def test_a_bad_input_is_reported_and_left_out_as_before(run, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [A, B]\n", encoding="utf-8")
    for fmt in FORMATS:
        code, out, err = run(["settle", "examples/tournament/round1.yaml", str(bad),
                              "examples/tournament/round2.yaml", "-f", fmt])
        assert code == 1
        assert err.splitlines()[0].startswith(f"{bad}:") and "1 of 3 inputs could not be settled" in err
        from prefcli import render
        from prefcli.app.settle import settle
        report = settle(["examples/tournament/round1.yaml", str(bad), "examples/tournament/round2.yaml"])
        assert out == render.render("settlement", fmt, report)
    code, out, err = run(["settle", "examples/tournament/round1.yaml", str(bad), "--strict"])
    assert code == 1 and out == "" and "--strict" not in out


def _folder(tmp_path: Path, n: int) -> Path:
    folder = tmp_path / f"n{n}"
    folder.mkdir()
    src = EXAMPLES / "paper-sheet.yaml"
    for i in range(n):
        shutil.copyfile(src, folder / f"game-{i:05d}.yaml")
    return folder


@pytest.fixture
def small_reads(monkeypatch):
    """The reader asks for MAX_BYTES + 1 bytes at once (64 MiB, a transient buffer that
    tracemalloc counts for every file): a small limit keeps the peak about what is kept."""
    from prefcli.io import documents
    monkeypatch.setattr(documents, "MAX_BYTES", 1 << 20)


def _peak(run, args) -> int:
    tracemalloc.start()
    try:
        code, _, err = run(args)
        assert code == 0, err
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", FORMATS)
def test_memory_does_not_grow_with_the_number_of_inputs(run, tmp_path, fmt, small_reads):
    small, large = _folder(tmp_path, 40), _folder(tmp_path, 160)
    out = tmp_path / "settled.out"
    run(["settle", str(small), "-f", fmt, "-o", str(out)])         # warm-up: imports, caches
    peak_small = _peak(run, ["settle", str(small), "-f", fmt, "-o", str(out)])
    peak_large = _peak(run, ["settle", str(large), "-f", fmt, "-o", str(out)])
    assert peak_large < 1.25 * peak_small, (fmt, peak_small, peak_large)


def test_the_memory_test_sees_a_batch_that_holds_its_rows(run, tmp_path, small_reads):
    """The same measure on the whole report (every result kept) grows with the inputs: the test
    above would notice a stream that kept them."""
    from prefcli.app.settle import settle
    small, large = _folder(tmp_path, 40), _folder(tmp_path, 160)
    settle([str(small)])

    def peak(folder):
        tracemalloc.start()
        try:
            settle([str(folder)])
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    small_peak, large_peak = peak(small), peak(large)
    assert large_peak > 1.35 * small_peak, (small_peak, large_peak)


def _json_docs():
    """Every input document of the example settlements, and made-up ones with every JSON type,
    texts json escapes, non-ASCII, and what the short walk leaves to json (a Fraction, a
    Decimal, a key that is not text, a float that is not finite)."""
    from decimal import Decimal
    from fractions import Fraction

    from prefcli.app.settle_input import settle_source
    from prefcli.settle.document import input_document
    from prefcli.settle.results import SettleOptions
    docs = []
    for p in sorted(EXAMPLES.rglob("*")):
        if p.suffix in (".yaml", ".json"):
            r = settle_source(str(p), SettleOptions())
            if r.ok:
                docs.append(input_document(r))
            r = settle_source(str(p), SettleOptions(price=Decimal("0.25")))
            if r.ok:
                docs.append(input_document(r))
    made = [{}, [], {"a": []}, {"a": {}}, [[], {}], {"t": 'q"\\\n\t\x01é\u2028—'}, {"n": None, "b": [True, False]},
            {"i": [0, -1, 10 ** 30], "f": [0.1, -2.5, 1e300, 12.34]}, [{"x": {"y": [1, {"z": "w"}]}}],
            {"f": Fraction(1, 3)}, {"d": Decimal("1.5")}, {1: "one"}, {"nan": float("nan")}, {"inf": [float("inf")]}]
    return docs, made


def test_the_input_json_walk_writes_what_json_writes():
    """The spool writes each input's document by one walk (input_json), not json's indented
    encoder (pure Python): the same text, indented the same, on every example's input (with and
    without a price) and on documents with every JSON type and what the walk leaves to json."""
    from prefcli.io.emit import to_json
    from prefcli.render.settlement_stream import input_json
    docs, made = _json_docs()
    assert len(docs) > 10
    for doc in docs + made:
        for indent in ("    ", ""):
            assert input_json(doc, indent) == to_json(doc)[:-1].replace("\n", "\n" + indent), doc


def test_a_settle_worker_keeps_no_input_past_a_collection():
    """Workers settle with the cyclic collector off; a record's context and its reader refer to
    each other, so _settle_worker collects the young objects every 64 inputs: after 192 inputs
    no more is left for the collector than 64 inputs leave (before, all 192 records were)."""
    import gc
    from prefcli.app import settle_input
    from prefcli.settle.results import SettleOptions
    path = str(EXAMPLES / "sochi-3p.yaml")
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        settle_input._SETTLED[0] = 0
        for _ in range(64):
            settle_input.settle_source(path, SettleOptions())
        per_64 = gc.collect()              # what 64 inputs leave to the collector
        for _ in range(192):
            assert settle_input._settle_worker((path, SettleOptions())).ok
        left = gc.collect()
    finally:
        if was:
            gc.enable()
    assert left <= per_64, (left, per_64)


def test_workers_render_each_input_as_this_process_does(run, monkeypatch, tmp_path):
    """With -j 2 each worker sends back its inputs rendered (settle.results.Settled): a bad
    input among them is reported in its place, and a batch where only one input settles prints
    that input's own table (its whole result sealed by the worker, opened only then)."""
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [A, B]\n", encoding="utf-8")
    for inputs in (["examples/tournament/round1.yaml", str(bad), "examples/tournament/round2.yaml"],
                   [str(bad), "examples/sochi-3p.yaml", str(bad)]):
        for fmt in FORMATS:
            one = run(["settle", *inputs, "-f", fmt])
            assert one[0] == 1 and one[2].splitlines()[0].startswith(f"{bad}:")
            assert run(["settle", *inputs, "-f", fmt, "-j", "2"]) == one
    code, out, _ = run(["settle", str(bad), "examples/sochi-3p.yaml", "-j", "2"])
    assert out.startswith("examples/sochi-3p.yaml: record, sochi")


def test_a_settled_piece_is_the_input_rendered():
    """Settled.of keeps what the totals and the output read; the pieces are the spool's text."""
    import pickle
    from functools import partial

    from prefcli.app.settle import settle_source
    from prefcli.render.settlement_stream import input_piece, stream_document_parts
    from prefcli.settle import SettleOptions
    from prefcli.settle.results import Settled, summarize
    r = settle_source(str(EXAMPLES / "sochi-3p.yaml"), SettleOptions())
    two = [r, settle_source(str(EXAMPLES / "leningrad-4p.yaml"), SettleOptions())]
    summary = summarize(two)
    for fmt in FORMATS:
        s = pickle.loads(pickle.dumps(Settled.of(r, partial(input_piece, fmt))))
        assert s.ok and not s.failed and s.net == r.settlement.net and s.players == r.players
        assert (s.source, s.price, s.coin) == (r.source, r.price, r.coin)
        pieces = [pickle.loads(pickle.dumps(Settled.of(x, partial(input_piece, fmt)))) for x in two]
        assert stream_document_parts(pieces, fmt, summary) == stream_document_parts(two, fmt, summary)
    table = pickle.loads(pickle.dumps(Settled.of(r, partial(input_piece, "table"))))
    assert table.piece[1].open() == r          # the sealed whole result
    failed = Settled.of(settle_source(str(EXAMPLES / "missing.yaml"), SettleOptions()), partial(input_piece, "json"))
    assert failed.failed and not failed.ok and failed.piece is None and failed.problems[0].text().endswith("missing.yaml: no such file")


def test_jobs_2_on_a_machine_without_an_idle_core_is_jobs_1(run, monkeypatch, tmp_path):
    """No core measured idle: -j 2 settles in this process alone (no fork), the same bytes and
    status in every format, a bad input reported in its place; a core idle later forks then."""
    from prefcli.app import executors
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pref-sheet/1\nplayers: [A, B]\n", encoding="utf-8")
    inputs = ["examples/tournament/round1.yaml", str(bad), "examples/tournament/round2.yaml",
              *BATCHES["season"]]
    forks = []
    real = executors.LocalProcesses._grow
    monkeypatch.setattr(executors.LocalProcesses, "_grow", lambda self, k: (forks.append(k), real(self, k)))
    for readings in ([], [0.0, None, 0.3, 2.0]):
        for fmt in FORMATS:
            one = run(["settle", *inputs, "-f", fmt])
            assert one[0] == 1
            left = list(readings)
            monkeypatch.setattr(executors.IdleProbe, "idle_cores", lambda self: left.pop(0) if left else 0.0)
            forks.clear()
            assert run(["settle", *inputs, "-f", fmt, "-j", "2"]) == one
            assert forks == ([1] if readings else [])
