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


def _both_ways(result: Any, upto: Optional[int] = None) -> tuple:
    """The table of `result` column by column (the shortcut for whole totals) and row by row
    (the long way it skips)."""
    from prefcli.render import sheet
    fast = "".join(sheet.table_chunks(result, upto))
    sheet._FAST_TABLE = False
    try:
        slow = "".join(sheet.table_chunks(result, upto))
    finally:
        sheet._FAST_TABLE = True
    return fast, slow


def _variants(tmp_path) -> List[str]:
    """The examples, plus sochi-3p with an opening sheet and a correction (rows without a deal
    number: "start" and "adjust"), with a start too big for the int32 rows, and with a
    fractional start (the totals become Fractions from the first row), and with a start whose
    numbers are whole but too long for the narrow cells' shortcut."""
    base = (ROOT / "examples" / "sochi-3p.yaml").read_text(encoding="utf-8")
    out = [str(p) for p in example_records()]
    sheet = ("start: {{pool: {{Ann: {a}, Bob: 0, Cid: 0}}, mountain: {{Ann: 0, Bob: 0, Cid: {m}}}, "
             "whists: {{Bob: {{Cid: {w}}}}}}}\ndeals:\n")
    extras = {
        "start": sheet.format(a=4, m=3, w=7)
        + "- adjust: {pool: {Ann: 2}, mountain: {Bob: -4}, whists: {Cid: {Ann: 10}}, note: fix}\n",
        "big": sheet.format(a=0, m="'3000000000'", w="'-2147483648'"),
        # whole, in an int32, but past the numbers whose bytes tell a narrow cell (_short)
        "wide": sheet.format(a=0, m=100000, w=70000),
        "half": sheet.format(a=2.5, m=0, w="'1/3'"),
    }
    for name, head in extras.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(base.replace("deals:\n", head, 1), encoding="utf-8")
        out.append(str(path))
    return out


def test_the_column_by_column_table_is_the_row_by_row_table(tmp_path):
    """The running rows of whole totals are made a block at a time, column by column (the
    cells by one map, the widths from each column's extremes): the same bytes as the row by
    row way, from the scorer's running totals and from the entries (after any deal), on every
    example, with start and adjust rows, numbers past an int32, and Fractions."""
    from prefcli.app.score import score_file
    checked = set()
    for path in _variants(tmp_path):
        try:
            full = score_file(path, None, ())
        except Exception:      # noqa: BLE001 - a record score refuses has no table
            continue
        running = score_file(path, None, (), entries=False, running=True)
        fast, slow = _both_ways(running)
        assert fast == slow == _whole_text_table(full), path
        checked.add("whole" if running.ledger.running.whole else "exact")
        total = len(full.record.deals)
        for upto in sorted({0, 1, total // 2, total}):
            fast, slow = _both_ways(full, upto)
            assert fast == slow == _whole_text_table(full, upto), (path, upto)
    assert checked == {"whole", "exact"}


@pytest.mark.parametrize("players", ["3", "4"])
def test_the_column_by_column_table_on_a_generated_record(tmp_path, players):
    """Many blocks of rows (5,000 deals, 1,024 rows a block), 3 and 4 players."""
    from prefcli.app.score import score_file
    path = tmp_path / "g.yaml"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "5000", "--seed", "11",
                    "--players", players, "-o", str(path)], check=True)
    running = score_file(str(path), None, (), entries=False, running=True)
    assert running.ledger.running.whole
    fast, slow = _both_ways(running)
    assert fast == slow


def test_the_running_totals_columns_are_its_rows():
    """RunningTotals.columns (slices of the arrays, net whists summed by map) gives the numbers
    rows() gives, in blocks of any size, with a start row (deal None) and the current row."""
    import random
    from prefcli.model.ledger import RunningTotals
    rng = random.Random(3)
    players = ("Ann", "Bob", "Cid", "Dan")
    rt = RunningTotals(players)
    for deal in [None] + list(range(1, 300)):
        for _ in range(rng.randint(1, 4)):
            p, q = rng.sample(players, 2)
            area = rng.choice(["pool", "mountain", "whists"])
            rt.add(deal, p, area, q if area == "whists" else None, rng.randint(-50, 50) or 1)
    assert rt.whole
    rows = list(rt.rows())
    for size in (1, 7, 1024):
        got = []
        for nums, cols in rt.columns(size):
            cols = [list(c) for c in cols]
            got += [(num, [c[i] for c in cols]) for i, num in enumerate(nums)]
        assert got == rows, size


def test_a_ledger_row_keeps_a_fraction_or_a_big_number_as_itself():
    """Ledger.add adds to the running row (a list) itself, and a row is kept in the int32 array
    when its deal ends; a Fraction or a sum an int32 does not hold is kept as itself (``exact``)
    from the row that holds it: the rows are those RunningTotals.add gives for the same entries,
    and those of plain Fraction sums."""
    from prefcli.model.ledger import _EXACT, Ledger, RunningTotals, totals_only
    players = ("Ann", "Bob", "Cid")
    entries = [(None, "Ann", "pool", 4, None), (1, "Bob", "whists", 6, "Ann"), (1, "Cid", "mountain", 2, None),
               (2, "Ann", "whists", (1 << 31) - 1, "Cid"), (2, "Ann", "whists", 5, "Cid"),
               (3, "Bob", "pool", Fraction(1, 2), None), (4, "Bob", "pool", Fraction(1, 2), None),
               (5, "Cid", "whists", 3, "Bob"), (5, "Cid", "whists", 2, "Cid")]
    for cut in range(len(entries) + 1):
        with totals_only(running=True):
            ledger = Ledger(players)
        direct = RunningTotals(players)
        plain = {p: [Fraction(0)] * 3 for p in players}
        want = []
        last: Any = "unset"
        for deal, player, area, amount, on in entries[:cut]:
            if deal != last and last != "unset":
                want.append((last, [x for p in players for x in plain[p]]))
            last = deal
            ledger.add(deal, player, area, amount, "r", on)
            direct.add(deal, player, area, on, amount)
            if area == "whists":
                plain[player][2] += amount
                plain[on][2] -= amount
            else:
                plain[player][0 if area == "pool" else 1] += amount
        if last != "unset":
            want.append((last, [x for p in players for x in plain[p]]))
        assert list(ledger.running.rows()) == list(direct.rows()) == want, cut
        # the arrays hold every kept value until the row with the sum past 2**31 is kept (entry
        # 6 begins deal 3), and from then on the values they cannot hold are in ``exact``, as
        # themselves, their places marked; whole (every value an int) until then
        for rt in (ledger.running, direct):
            assert bool(rt.exact) == (cut >= 6), cut
            assert all(rt.cells[k] == _EXACT for k in rt.exact), cut
            assert all(type(v) is Fraction or not -(1 << 31) < v < 1 << 31 for v in rt.exact.values()), cut
        assert ledger.running.whole == direct.whole == (cut < 6), cut


def test_the_widest_cell_of_a_block_is_the_widest_made():
    """_widest finds a block's widest cell from its columns' extremes when a row reaches the
    bound, else by making every cell: the width of the widest made cell either way (or 0 when
    the bound is no wider than the width already known)."""
    import random
    from array import array
    from prefcli.render.sheet import _CELL, _Signed, _widest
    rng = random.Random(5)
    signed = _Signed().__getitem__
    for _ in range(300):
        n = rng.randint(1, 40)
        span = rng.choice([9, 99, 10 ** 4, 10 ** 8])
        pool, mountain, net = ([rng.randint(-span, span) for _ in range(n)] for _ in range(3))
        want = max(len(_CELL % (a, b, signed(c))) for a, b, c in zip(pool, mountain, net))
        for known in (0, want - 1, want, want + 3):
            got = _widest(array("i", pool), array("i", mountain), net, signed, known)
            # the widest made, or 0 when the bound says none is wider than `known`
            assert got == want or (got == 0 and want <= known), (pool, mountain, net, known)


def test_a_column_is_short_when_its_numbers_bytes_say_so():
    """_short tells an int32 column whose numbers are all between -65536 and 65535 from its
    bytes: the same answer as comparing each number, at both ends of the range and past them;
    no cell of such numbers is wider than _SHORT_CELL."""
    import random
    from array import array
    from prefcli.render.sheet import _CELL, _SHORT_CELL, _Signed, _short
    rng = random.Random(11)
    edges = [-65537, -65536, -65535, -32769, -32768, -256, -1, 0, 1, 255, 256, 32767, 32768, 65535, 65536,
             -(1 << 31), (1 << 31) - 1]
    for _ in range(500):
        values = [rng.choice(edges) if rng.random() < 0.3 else rng.randint(-70000, 70000)
                  for _ in range(rng.randint(1, 40))]
        assert _short(array("i", values)) == all(-65536 <= v <= 65535 for v in values), values
    assert not _short([1, 2, 3]) and not _short(array("q", [1]))     # a list, another item size: the long way
    assert max(len(_CELL % (a, b, _Signed()[c])) for a in (-65536, 65535) for b in (-65536, 65535)
               for c in (-65536, 65535)) == _SHORT_CELL


@pytest.mark.parametrize("batch", [1, 7, 1024])
def test_rows_put_aside_reach_the_arrays_as_they_were(monkeypatch, batch):
    """A row is put aside when its deal ends and the rows go into the arrays a batch at a time
    (one pack), or row by row when one holds a value the array cannot (a Fraction, a number past
    an int32): the rows are the plain sums of the entries, through the ledger and directly,
    whatever the batch."""
    import random
    from prefcli.model import ledger as ledger_module
    from prefcli.model.ledger import Ledger, RunningTotals, totals_only
    monkeypatch.setattr(ledger_module, "_BATCH", batch)
    rng = random.Random(batch)
    players = ("Ann", "Bob", "Cid")
    with totals_only(running=True):
        ledger = Ledger(players)
    direct = RunningTotals(players)
    plain = {p: [Fraction(0)] * 3 for p in players}
    want = []
    for deal in [None] + list(range(1, 60)):
        for _ in range(rng.randint(1, 3)):
            p, q = rng.sample(players, 2)
            area = rng.choice(["pool", "mountain", "whists"])
            amount: Any = rng.choice([rng.randint(-50, 50) or 1, Fraction(1, 3), (1 << 31) + 5, -(1 << 33)])
            ledger.add(deal, p, area, amount, "r", q if area == "whists" else None)
            direct.add(deal, p, area, q if area == "whists" else None, amount)
            if area == "whists":
                plain[p][2] += amount
                plain[q][2] -= amount
            else:
                plain[p][0 if area == "pool" else 1] += amount
        want.append((deal, [x for p in players for x in plain[p]]))
        assert len(ledger.running) == len(direct) == len(want)
    assert list(ledger.running.rows()) == list(direct.rows()) == want
    assert ledger.running.exact and not ledger.running.whole
