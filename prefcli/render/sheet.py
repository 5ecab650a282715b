"""Rendering a scored game (a :class:`~prefcli.scoring.ScoreResult`) for people and programs.

Family-neutral: the words for the areas come from ``rules.word`` (a Lithuanian sheet prints
"track"/"kitty" and "hens"), nothing here knows a variant. The JSON/YAML form is a
``pref-sheet/1`` document that ``settle`` reads back; its ``rules`` block is the *full* resolved
option mapping (variant first, then every option that has a value, dotted names nested), so a
sheet settles the same way whatever the presets' defaults become later.
"""
from __future__ import annotations

import sys
from array import array
from fractions import Fraction
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from prefcli.app.sheet import (ZERO, SheetSource, _amounts, deal_label, entries_upto, entry_plain,  # noqa: F401
                               finished_after, rules_document, sheet_after, sheet_document,
                               source_of_result, source_of_sheet)
from prefcli.model.records import Deal, SheetData
from prefcli.model.ledger import RunningTotals, format_amount
from prefcli.render.columns import cell_width, pad

if TYPE_CHECKING:
    from prefcli.rules.presets import Rules


# --------------------------------------------------------------------------------- text
def _fmt(x: Any) -> str:
    if type(x) is int:           # the running totals stay ints while every amount is whole
        return str(x)
    return str(format_amount(x))


def _grid(rows: List[List[str]], right: Iterable[int] = ()) -> List[str]:
    """Left-aligned first column(s), right-aligned numbers; two spaces between columns, each as
    wide on a screen as its widest cell (:func:`~prefcli.render.columns.cell_width`)."""
    right = set(right)
    widths = [max(map(cell_width, column)) for column in zip(*rows)]
    return ["  ".join(pad(c, widths[i], i in right) for i, c in enumerate(r)).rstrip() for r in rows]


def render_table(result: Any, upto: Optional[int] = None) -> str:
    """A readable sheet: the running totals deal by deal, then pool, mountain and whists."""
    return "".join(table_chunks(result, upto))


_LINES_PER_CHUNK = 2048


def table_chunks(result: Any, upto: Optional[int] = None) -> Iterator[str]:
    """:func:`render_table`'s text in chunks, each written as its rows are made.

    Why: a long record's table held every entry, every row, every line and the whole text (two
    bytes a character, for one "—") before writing: 20× the record's file. The running rows come
    from :class:`~prefcli.model.ledger.RunningTotals` (a few numbers a deal; the scorer keeps
    them with ``totals_only(running=True)``, or they are summed from the entries for ``--after``
    and ``--explain``), in two passes: the column widths (the same as padding to the widest
    cell), then the lines, a chunk at a time. The bytes are those of the whole-text table."""
    rules = result.rules
    players = list(result.ledger.players)
    w_pool, w_mount, w_whists = rules.word("pool"), rules.word("mountain"), rules.word("whists")
    total = len(result.record.deals)
    scored = total if upto is None else min(upto, total)
    head = f"{rules.variant}, {w_pool} {rules.get('pool')}, {len(players)} players: {', '.join(players)}"
    state = "finished" if finished_after(result, scored) else "not finished"
    yield f"{head}; {scored} of {total} deals, {state}\n\n"
    # running totals per deal: ints while the amounts are whole (most are: Fraction arithmetic
    # was a third of the table); a player's cell is formatted again only when a deal changed it
    running = running_totals(result, upto)
    if len(running):
        header = ["deal", "game"] + [f"{p}: {w_pool}/{w_mount}/{w_whists}" for p in players]
        if players and running.whole and _FAST_TABLE:
            yield from _whole_rows(result, running, total, header)
        else:
            yield from _rows_one_by_one(result, running, total, header)
    lines = []
    # the sheet itself
    sheet = sheet_after(result, upto)
    srows = [["", w_pool, w_mount] + [f"{w_whists} on {q}" for q in players] + ["net " + w_whists]]
    for p in players:
        row = [p, _fmt(sheet.pool.get(p, ZERO)), _fmt(sheet.mountain.get(p, ZERO))]
        for q in players:
            row.append("—" if q == p else _fmt(sheet.whists.get(p, {}).get(q, ZERO)))
        row.append(_signed(_net_whists(sheet, p)))
        srows.append(row)
    lines.extend(_grid(srows, right=range(1, len(srows[0]))))
    # whists per pair
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
    yield "\n".join(lines) + "\n"


_FAST_TABLE = True      # tests turn it off to compare with the row-by-row way


def _rows_one_by_one(result: Any, running: RunningTotals, total: int, header: List[str]) -> Iterator[str]:
    """The running rows (and the blank line after them), a row at a time: the long way, for
    totals that are not all small ints (a Fraction, a big number)."""
    widths = [cell_width(h) for h in header]
    plain = True                    # every label printable ASCII (the numbers always are)
    for row in _running_cells(result, running, total):
        for i, cell in enumerate(row):
            if len(cell) > widths[i]:
                widths[i] = len(cell)
        if plain and not (row[1].isascii() and row[1].isprintable()):
            plain = False
    if not plain:                   # the labels' column as wide as they are on a screen
        widths[1] = max([cell_width(header[1])] + [cell_width(row[1]) for row in
                                                   _running_cells(result, running, total)])
    template = "  ".join(f"{{{i}:{'>' if i >= 2 else '<'}{w}}}" if plain or i != 1 else "{1}"
                         for i, w in enumerate(widths)).format
    lines = ["  ".join(pad(h, widths[i], i >= 2) for i, h in enumerate(header)).rstrip()]
    for row in _running_cells(result, running, total):
        if not plain:
            row = [row[0], pad(row[1], widths[1]), *row[2:]]
        lines.append(template(*row).rstrip())
        if len(lines) >= _LINES_PER_CHUNK:
            lines.append("")
            yield "\n".join(lines)
            lines = []
    lines.append("")
    lines.append("")
    yield "\n".join(lines)


class _Signed(dict):
    """A net whists number as the table writes it ("+3", "0", "-2"), made once per value."""

    def __missing__(self, c: int) -> str:
        text = self[c] = f"+{c}" if c > 0 else str(c)
        return text


def _whole_rows(result: Any, running: RunningTotals, total: int, header: List[str]) -> Iterator[str]:
    """:func:`_rows_one_by_one`'s text when every total is a small int (nearly always), a
    block of rows at a time, column by column: each player's cells made by one ``map`` over
    the block's columns (the three numbers' texts, each made once per value, joined by "/"), a
    part's lines (1,024 rows) by one ``%`` of the line's template repeated for each row (the
    fields put in place by slice assignments, a block of deals' numbers by its ``%d``),
    nothing held but a part's lines; the widths from each column's extremes (:func:`_widest`),
    or from its bytes when no cell can be wider than its column already (:func:`_short`); the
    labels, looked up by one ``map`` over the block's deals (:func:`_block_labels`) in the
    first pass (for their width), are kept for the second (a pointer a row: the texts are one
    per contract and declarer). The same text as :func:`_cell`, :func:`_label` and the padded
    template give (tests/test_table_stream.py compares the two)."""
    record = result.record
    deals = record.deals
    n = len(running.players)
    get = _Signed().__getitem__
    text = _Text().__getitem__
    join = "/".join
    labels: Dict[Any, str] = {}
    row_labels: List[str] = []
    widths = [cell_width(h) for h in header]
    size = _ROWS_PER_BLOCK

    def numbered(nums: List[Any]) -> int:       # every row a deal of the record (no start, close):
        try:                # its largest number, else 0 (a None, the start's or the close's row,
            hi = max(nums)  # cannot be compared with an int)
            return hi if min(nums) >= 1 and hi <= total else 0
        except TypeError:
            return 0

    def numbers(nums: List[Any]) -> List[str]:    # a block that is not numbered(): the texts
        return ["" if num is None or not 1 <= num <= total else str(num) for num in nums]

    def cells(cols: List[Any]) -> List[Iterator[str]]:
        return [map(join, zip(map(text, cols[k]), map(text, cols[k + 1]), map(get, cols[k + 2])))
                for k in range(0, 3 * n, 3)]

    # first pass: the widths (and the labels)
    flags: List[bool] = []                  # each block's numbered(), for the second pass
    for nums, cols in running.columns(size):
        # (the arrays themselves: each column is read once here, by _short() or set())
        hi = numbered(nums)
        flags.append(hi > 0)
        if hi:
            w = len(str(hi))
            row_labels += _block_labels(record, deals, nums, labels)    # type: ignore[arg-type]
        else:
            w = max(map(len, numbers(nums)))
            row_labels += [_label(record, deals, num, labels) if num is not None and 1 <= num <= total
                           else deal_label(record, num) for num in nums]
        if w > widths[0]:
            widths[0] = w
        if min(widths[2:]) >= _SHORT_CELL and all(map(_short, cols)):
            continue                        # no cell here is wider than its column already
        for j in range(n):
            w = _widest(cols[3 * j], cols[3 * j + 1], cols[3 * j + 2], get, widths[2 + j])
            if w > widths[2 + j]:
                widths[2 + j] = w
    distinct = set(row_labels)      # (one text per contract and declarer)
    plain = all(label.isascii() and label.isprintable() for label in distinct)
    w = max(map(len if plain else cell_width, distinct))
    if w > widths[1]:
        widths[1] = w
    # the lines: "%-4s  %-7s  %9s  ...", the same padding as the long way's; the last column is
    # a number, so there is nothing to strip. A label that is not printable ASCII (a name's
    # accent, a wide letter: not as wide on a screen as it is long) is padded before, by pad()
    template = "  ".join([f"%-{widths[0]}s", f"%-{widths[1]}s" if plain else "%s"] + [f"%{w}s" for w in widths[2:]])
    if not plain:
        padded = {label: pad(label, widths[1]) for label in distinct}
        row_labels = [padded[label] for label in row_labels]
    head = "  ".join(pad(h, widths[i], i >= 2) for i, h in enumerate(header))
    yield head.rstrip() + "\n"
    # a block of deals' numbers is written by the template's own %d (no text made for each)
    templates = {False: template, True: f"%-{widths[0]}d" + template[len(f"%-{widths[0]}s"):]}
    start = 0
    blocks: Dict[Tuple[int, bool], str] = {}    # a part's lines as one template (rows, plain → it)
    width = 2 + n                           # the fields of a line
    part = _ROWS_PER_PART
    for b, (nums, cols) in enumerate(running.columns(size)):
        # (the arrays themselves: a column is read once, by its texts' look-up)
        plain = flags[b]
        texts = nums if plain else numbers(nums)
        for at in range(0, len(nums), part):
            rows = len(texts[at:at + part])
            block = blocks.get((rows, plain))
            if block is None:
                block = blocks[rows, plain] = "\n".join([templates[plain]] * rows) + "\n"
            fields: List[Any] = [None] * (width * rows)       # the part's fields, row after row
            fields[0::width] = texts[at:at + part]
            fields[1::width] = row_labels[start + at:start + at + rows]
            for j, column in enumerate(cells([c[at:at + part] for c in cols])):
                fields[2 + j::width] = column
            yield block % tuple(fields)
        start += len(nums)
    yield "\n"


class _Text(dict):
    """An int's text (``str``), made once per value: a table's numbers repeat."""

    def __missing__(self, c: int) -> str:
        text = self[c] = str(c)
        return text


_CONTRACT, _DECLARER = attrgetter("contract"), attrgetter("declarer")


def _block_labels(record: Any, deals: Any, nums: List[int], labels: Dict[Any, str]) -> List[str]:
    """:func:`_label` of each deal of `nums` (each a deal of the record), by C loops: the
    deals' keys (the contract's identity and the declarer) read by ``map``, and looked up in
    `labels`; only a key not seen yet is made, by :func:`_label`'s own way."""
    first = nums[0]
    if nums[-1] - first == len(nums) - 1 and nums == list(range(first, first + len(nums))):
        block = deals[first - 1:first - 1 + len(nums)]        # the deals in order (nearly always)
    else:
        block = [deals[num - 1] for num in nums]
    try:        # every key seen (all but the first blocks): the keys made and dropped one by one
        return list(map(labels.__getitem__, zip(map(id, map(_CONTRACT, block)), map(_DECLARER, block))))
    except KeyError:
        pass
    except AttributeError:          # an adjust among them (it has no contract)
        return [_label(record, deals, num, labels) for num in nums]
    try:
        keys = list(zip(map(id, map(_CONTRACT, block)), map(_DECLARER, block)))
    except AttributeError:
        return [_label(record, deals, num, labels) for num in nums]
    out: List[str] = []
    for i, key in enumerate(keys):
        label = labels.get(key)
        out.append(label if label is not None else _label(record, deals, nums[i], labels))
    return out


_ROWS_PER_BLOCK = 1024
_ROWS_PER_PART = 1024      # the lines made at once: their cells are alive together


def _widest(pool: Any, mountain: Any, net: Any, signed: Any, known: int) -> int:
    """The widest of a block's cells "pool/mountain/net" (0 when none is wider than `known`).

    A cell's width is the sum of its three numbers' widths plus two, and a number's width is
    greatest at its column's largest or smallest value (its sign included), so their sum is a
    bound found by C loops (min, max); it is the width when a row where one of the three
    reaches its widest reaches the bound too, and only otherwise is every cell made."""
    def digits(column: Any, sign: bool = False) -> Tuple[int, Any]:
        values = set(column)            # (a column's values repeat: fewer to compare)
        hi, lo = max(values), min(values)
        a, b = len(str(hi)) + (sign and hi > 0), len(str(lo)) + (sign and lo > 0)
        return (a, hi) if a >= b else (b, lo)
    (wa, va), (wb, vb), (wc, vc) = digits(pool), digits(mountain), digits(net, True)
    bound = wa + wb + wc + 2
    if bound <= known:
        return 0
    for i in (pool.index(va), mountain.index(vb), net.index(vc)):
        if len(_CELL % (pool[i], mountain[i], signed(net[i]))) == bound:
            return bound
    return max(map(len, map(_CELL.__mod__, zip(pool, mountain, map(signed, net)))))


_CELL = "%d/%d/%s"      # a player's running cell of ints, as _cell writes it
_SHORT_CELL = 20        # the widest cell of numbers _short() passes: "-65536/-65536/-65536"
# an int32's two high bytes in an array's bytes: 2 and 3 of its 0-3 (little-endian), or 1 and 0
_HIGH = slice(2, None, 4) if sys.byteorder == "little" else slice(1, None, 4)
_TOP = slice(3, None, 4) if sys.byteorder == "little" else slice(0, None, 4)


def _short(column: Any) -> bool:
    """Whether every number of an int32 array is between -65536 and 65535 (6 characters at
    most, its sign included), told from its bytes: its two high bytes both 0 or both 255. Why:
    the table's column is nearly always wider than such a cell (its header, "Ann: pool/
    mountain/whists", is), and its bytes are read by C loops, where each number's comparisons
    with a column's extremes took a hundred instructions and more."""
    if type(column) is not array or column.typecode != "i" or column.itemsize != 4:
        return False
    data = column.tobytes()
    high = data[_HIGH]
    return high == data[_TOP] and not high.translate(None, b"\x00\xff")


def running_totals(result: Any, upto: Optional[int] = None) -> RunningTotals:
    """The table's running totals: the ledger's own (``totals_only(running=True)``), or summed
    from its entries up to deal `upto`."""
    ledger = result.ledger
    running = getattr(ledger, "running", None)
    if running is not None and upto is None:
        return running
    if ledger.totals_only:
        raise ValueError("a ledger of totals only has no rows for a table"
                         + (" after an earlier deal" if running is not None else ""))
    running = RunningTotals(ledger.players)
    add = running.add
    for e in entries_upto(result, upto):
        amount: Any = e.amount
        if amount.denominator == 1:
            amount = amount.numerator
        add(e.deal, e.player, e.area, e.on, amount)
    return running


def _running_cells(result: Any, running: RunningTotals, total: int) -> Iterator[List[str]]:
    """The table's rows of `running`: the deal's number, its label, each player's cell."""
    deals = result.record.deals
    record = result.record
    n = len(running.players)
    labels: Dict[Any, str] = {}
    cells = [""] * n
    last: List[Any] = [None] * (3 * n)
    first = True
    for num, values in running.rows():
        for j in range(n):
            k = 3 * j
            a, b, c = values[k], values[k + 1], values[k + 2]
            if first or a != last[k] or b != last[k + 1] or c != last[k + 2] or not (
                    type(a) is int and type(b) is int and type(c) is int):
                cells[j] = _cell(a, b, c)
        first = False
        last = values
        if num is not None and 1 <= num <= total:
            yield [str(num), _label(record, deals, num, labels), *cells]
        else:
            yield ["", deal_label(record, num), *cells]


def _cell(a: Any, b: Any, c: Any) -> str:
    """A player's running pool/mountain/net whists as the table writes it."""
    if type(a) is int and type(b) is int and type(c) is int:
        return f"{a}/{b}/+{c}" if c > 0 else f"{a}/{b}/{c}"
    return f"{_fmt(a)}/{_fmt(b)}/{_signed(c)}"


def _label(record: Any, deals: Any, num: int, labels: Dict[Any, str]) -> str:
    """Deal `num`'s label, made once per contract and declarer (the record holds its contracts
    meanwhile, so their identities are stable)."""
    d = deals[num - 1]
    if not isinstance(d, Deal):
        return deal_label(record, num)
    key = (id(d.contract), d.declarer)
    label = labels.get(key)
    if label is None:
        label = labels[key] = deal_label(record, num)
    return label


def _running_rows(result: Any, players: List[str], total: int, entries: Iterable[Any]) -> List[List[str]]:
    """One row per deal that wrote on the sheet (in the ledger's order): its number, its label and
    each player's running pool/mountain/net whists."""
    deals = result.record.deals
    record = result.record
    values: Dict[str, List[Any]] = {p: [0, 0, 0] for p in players}    # pool, mountain, net whists
    cells: Dict[str, str] = {}
    labels: Dict[Any, str] = {}
    rows: List[List[str]] = []
    touched: set = set(players)

    def snapshot(num: Optional[int]) -> None:
        for p in touched:
            cells[p] = _cell(*values[p])
        touched.clear()
        if num is not None and 1 <= num <= total:
            label = _label(record, deals, num, labels)
            rows.append([str(num), label] + [cells[p] for p in players])
        else:
            rows.append(["", deal_label(record, num)] + [cells[p] for p in players])

    current: Any = _UNSET
    for e in entries:
        if e.deal != current:
            if current is not _UNSET:
                snapshot(current)
            current = e.deal
        amount: Any = e.amount
        if amount.denominator == 1:
            amount = amount.numerator
        player = e.player
        area = e.area
        if area == "pool":
            values[player][0] += amount
        elif area == "mountain":
            values[player][1] += amount
        else:
            values[player][2] += amount
            values[e.on][2] -= amount
            touched.add(e.on)
        touched.add(player)
    if current is not _UNSET:
        snapshot(current)
    return rows


_UNSET = object()


def _signed(x: Any) -> str:
    s = _fmt(x)
    return s if x <= 0 else "+" + s


def _net_whists(sheet: SheetData, p: str) -> Fraction:
    won = sum(sheet.whists.get(p, {}).values(), ZERO)
    lost = sum((row.get(p, ZERO) for q, row in sheet.whists.items() if q != p), ZERO)
    return won - lost


def render_explain(result: Any, upto: Optional[int] = None) -> str:
    """Every entry with its deal and rule, grouped by deal: why each number is what it is."""
    rules = result.rules
    words = {"pool": rules.word("pool"), "mountain": rules.word("mountain"), "whists": rules.word("whists")}
    rows: List[List[str]] = [["deal", "game", "player", "area", "amount", "rule", "why"]]
    last: Any = "unset"
    for e in entries_upto(result, upto):
        first = e.deal != last
        last = e.deal
        area = words[e.area] + (f" on {e.on}" if e.on is not None else "")
        rows.append([str(e.deal) if first and e.deal is not None else "",
                     deal_label(result.record, e.deal) if first else "",
                     e.player, area, _fmt(e.amount), e.rule, e.text])
    if len(rows) == 1:
        return "(no entries)\n"
    return "\n".join(_grid(rows, right=(4,))) + "\n"


def render_csv(result: Any, upto: Optional[int] = None, explain: bool = False) -> str:
    """CSV: one row per player (pool, mountain, whists on each opponent), or with `explain`
    one row per ledger entry."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    players = list(result.ledger.players)
    if explain:
        w.writerow(["deal", "player", "area", "on", "amount", "rule", "text"])
        for e in entries_upto(result, upto):
            w.writerow(["" if e.deal is None else e.deal, e.player, e.area, e.on or "",
                        _fmt(e.amount), e.rule, e.text])
        return buf.getvalue()
    sheet = sheet_after(result, upto)
    w.writerow(["player", "pool", "mountain"] + [f"whists_on_{q}" for q in players])
    for p in players:
        w.writerow([p, _fmt(sheet.pool.get(p, ZERO)), _fmt(sheet.mountain.get(p, ZERO))]
                   + ["" if q == p else _fmt(sheet.whists.get(p, {}).get(q, ZERO)) for q in players])
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# The registry's entries (prefcli.render.REGISTRY["sheet"]): they take an app.score.Scored
# ---------------------------------------------------------------------------------------------

def render_sheet_table(scored: Any, after: Optional[int] = None, explain: bool = False) -> str:
    return "".join(sheet_table_chunks(scored, after, explain))


def sheet_table_chunks(scored: Any, after: Optional[int] = None, explain: bool = False) -> Iterator[str]:
    """:func:`render_sheet_table` in chunks, for a writer that takes them (``score``)."""
    if explain:
        yield render_explain(scored.result, after) + "\n"
    yield from table_chunks(scored.result, after)


def render_sheet_csv(scored: Any, after: Optional[int] = None, explain: bool = False) -> str:
    return render_csv(scored.result, after, explain=explain)
