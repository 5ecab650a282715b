"""The score table written as its rows are made (issue 11 item 1: the table of a 24 MB record
peaked at 20× the file): the streamed table, from the ledger's running totals or from its
entries, is byte for byte the whole-text table it replaced, on every example and a generated
record, after any deal, with --explain, and with fractional amounts."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, List, Optional

import pytest

from conftest import ROOT, example_records, run_cli


def _whole_text_table(result: Any, upto: Optional[int] = None) -> str:
    """The table as it was rendered before it was streamed: every row, every line, then the
    text (kept here as the reference the streamed one is held to)."""
    from prefcli.app.sheet import ZERO, entries_upto, finished_after, sheet_after
    from prefcli.render.sheet import _fmt, _grid, _net_whists, _running_rows, _signed
    rules = result.rules
    players = list(result.ledger.players)
    w_pool, w_mount, w_whists = rules.word("pool"), rules.word("mountain"), rules.word("whists")
    total = len(result.record.deals)
    scored = total if upto is None else min(upto, total)
    lines: List[str] = []
    head = f"{rules.variant}, {w_pool} {rules.get('pool')}, {len(players)} players: {', '.join(players)}"
    state = "finished" if finished_after(result, scored) else "not finished"
    lines.append(f"{head}; {scored} of {total} deals, {state}")
    lines.append("")
    rows = _running_rows(result, players, total, entries_upto(result, upto))
    if rows:
        header = ["deal", "game"] + [f"{p}: {w_pool}/{w_mount}/{w_whists}" for p in players]
        lines.extend(_grid([header] + rows, right=range(2, 2 + len(players))))
        lines.append("")
    sheet = sheet_after(result, upto)
    srows = [["", w_pool, w_mount] + [f"{w_whists} on {q}" for q in players] + ["net " + w_whists]]
    for p in players:
        row = [p, _fmt(sheet.pool.get(p, ZERO)), _fmt(sheet.mountain.get(p, ZERO))]
        for q in players:
            row.append("—" if q == p else _fmt(sheet.whists.get(p, {}).get(q, ZERO)))
        row.append(_signed(_net_whists(sheet, p)))
        srows.append(row)
    lines.extend(_grid(srows, right=range(1, len(srows[0]))))
    lines.append("")
    prow = [["pair X–Y", "X on Y", "Y on X", f"net {w_whists}"]]
    for i, p in enumerate(players):
        for q in players[i + 1:]:
            a = sheet.whists.get(p, {}).get(q, ZERO)
            b = sheet.whists.get(q, {}).get(p, ZERO)
            pair_net = f"{p} {_signed(a - b)}" if a >= b else f"{q} {_signed(b - a)}"
            prow.append([f"{p}–{q}", _fmt(a), _fmt(b), pair_net])
    lines.extend(_grid(prow, right=(1, 2)))
    if result.notes:
        lines.append("")
        lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines) + "\n"


def _check_record(path: str) -> int:
    from prefcli.app.score import score_file
    from prefcli.render.sheet import render_table, table_chunks
    try:
        full = score_file(path, None, ())
    except Exception:          # noqa: BLE001 - a record score refuses has no table
        return 0
    running = score_file(path, None, (), entries=False, running=True)
    assert running.ledger.totals_only and running.ledger.entries == [] and running.ledger.running is not None
    reference = _whole_text_table(full)
    assert "".join(table_chunks(running)) == reference, path
    assert render_table(full) == reference, path
    total = len(full.record.deals)
    for upto in sorted({0, 1, total // 2, total}):
        assert render_table(full, upto) == _whole_text_table(full, upto), (path, upto)
    with pytest.raises(ValueError):
        "".join(table_chunks(running, 1))      # the running totals are the last deal's alone
    return 1


def test_the_streamed_table_is_the_whole_text_table_on_every_example():
    assert sum(_check_record(str(p)) for p in example_records()) > 5


@pytest.mark.parametrize("players", ["3", "4"])
def test_the_streamed_table_is_the_whole_text_table_on_a_generated_record(tmp_path, players):
    path = tmp_path / "g.yaml"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "5000", "--seed", "7",
                    "--players", players, "-o", str(path)], check=True)
    assert _check_record(str(path)) == 1
    from prefcli.app.score import score_file
    from prefcli.render.sheet import table_chunks
    chunks = list(table_chunks(score_file(str(path), None, (), entries=False, running=True)))
    assert len(chunks) > 2 and max(map(len, chunks)) < 1 << 20      # written a part at a time
    code, out, err = run_cli(["score", str(path)])
    assert code == 0 and out == "".join(chunks)


def test_the_running_totals_with_fractional_amounts_are_the_entries_sums():
    """Amounts that are not whole turn the int totals into Fractions mid-table (kept exactly, not
    in the int arrays): the rows are those the entries give."""
    from prefcli.app.score import score_source
    from prefcli.render.sheet import _running_cells, _running_rows, running_totals
    checked = 0
    for p in example_records()[:4]:
        scored = score_source(str(p))
        if not scored.ok:
            continue
        result = scored.result
        entries = [dataclasses.replace(e, amount=e.amount * Fraction(1, 3 if i % 2 else 2))
                   for i, e in enumerate(result.ledger.entries)]
        entries.append(dataclasses.replace(entries[-1], deal=None, amount=Fraction(10 ** 12)))
        fake = SimpleNamespace(record=result.record, ledger=SimpleNamespace(
            players=result.ledger.players, entries=entries, totals_only=False))
        total = len(result.record.deals)
        want = _running_rows(fake, list(result.ledger.players), total, entries)
        running = running_totals(fake)
        assert list(_running_cells(fake, running, total)) == want, p
        assert running.exact                       # the Fractions and the big int, as themselves
        checked += 1
    assert checked


def test_the_cli_table_and_explain_are_unchanged(tmp_path):
    """The command writes the streamed table (stdout and -o); --after and --explain keep the
    entries and print what they printed."""
    from prefcli.app.score import score_source
    from prefcli.render.sheet import render_explain
    path = str(ROOT / "examples" / "sochi-3p.yaml")
    result = score_source(path).result
    code, out, _ = run_cli(["score", path])
    assert code == 0 and out == _whole_text_table(result)
    code, out, _ = run_cli(["score", path, "-f", "text", "-o", str(tmp_path / "t.txt")])
    assert code == 0 and (tmp_path / "t.txt").read_text(encoding="utf-8") == _whole_text_table(result)
    code, out, _ = run_cli(["score", path, "--after", "6", "--explain"])
    assert code == 0 and out == render_explain(result, 6) + "\n" + _whole_text_table(result, 6)


def test_running_totals_keep_every_value_exactly():
    """Small ints go in the arrays; a number an int32 does not hold, and a Fraction (even a whole
    one, which the table prints its own way), are kept as themselves."""
    from prefcli.model.ledger import RunningTotals
    rt = RunningTotals(("Ann", "Bob"))
    rt.add(None, "Ann", "pool", None, 3)
    rt.add(1, "Ann", "whists", "Bob", -(1 << 31))
    rt.add(2, "Bob", "mountain", None, 1 << 40)
    rt.add(3, "Ann", "pool", None, Fraction(1, 2))
    rt.add(3, "Ann", "pool", None, Fraction(1, 2))
    rt.add(4, "Bob", "pool", None, 1)
    rows = list(rt.rows())
    assert len(rt) == len(rows) == 5
    assert rows == [(None, [3, 0, 0, 0, 0, 0]),
                    (1, [3, 0, -(1 << 31), 0, 0, 1 << 31]),
                    (2, [3, 0, -(1 << 31), 0, 1 << 40, 1 << 31]),
                    (3, [4, 0, -(1 << 31), 0, 1 << 40, 1 << 31]),
                    (4, [4, 0, -(1 << 31), 1, 1 << 40, 1 << 31])]
    assert type(rows[3][1][0]) is Fraction and type(rows[4][1][3]) is int
    assert list(rt.rows()) == rows                     # read twice: the widths, then the lines
