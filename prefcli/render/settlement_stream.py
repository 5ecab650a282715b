"""The per-input settlement (table, csv, json, yaml) written as the inputs are settled.

Why: a batch's per-input output used to hold every settled input (its whole settlement, about
20 KiB each) until the end, because the totals come first in the document and the table's
column widths depend on every row. Here each input is rendered as it finishes into a spool (in
memory while small, then a temporary file: :class:`_Spill`) and forgotten; what is kept is per player name (the totals, a column's width),
never per input. At the end the totals are rendered around the spool, and the bytes are those
of :mod:`prefcli.render.settlement` and :func:`prefcli.settle.document.settlement_document`
(tests/test_settle_stream.py compares them).
"""
from __future__ import annotations

import io
import json
from typing import Any, Dict, Iterator, List, Sequence

from prefcli.render.columns import cell_width, pad
from prefcli.render.settlement import _table, _ws, csv_net_rows, csv_tail_rows, multi_tail_lines
from prefcli.settle.document import input_document, settlement_document
from prefcli.settle.results import Settled

#: stands for the inputs in the document rendered around the spool (never a real value)
_PLACEHOLDER = "prefcli-inputs-placeholder-7f3a9c"
_CHUNK = 1 << 16


def input_json(doc: Any, indent: str = "    ") -> str:
    """An input's document as it stands in the settlement's ``inputs`` list: the JSON text
    ``prefcli.io.emit.to_json`` writes (indented by two, non-ASCII kept), each line after the
    first indented by `indent` more, without its final newline.

    Why: json's indented encoder is pure Python (only the one-line form is C) and took a third
    of what a batch's per-input output costs; a document is a few small dicts and lists of
    texts and numbers, written here by one walk with json's own C string encoder and the
    number texts json writes. Anything else (a Fraction or Decimal left in, a key that is not
    text, a float that is not finite) goes the long way."""
    try:
        out: List[str] = []
        _json_walk(doc, indent, out)
        return "".join(out)
    except _NotPlain:
        from prefcli.io.emit import to_json
        return to_json(doc)[:-1].replace("\n", "\n" + indent)


class _NotPlain(Exception):
    pass


_STR = json.encoder.encode_basestring       # what json.dumps(ensure_ascii=False) uses (C)
_INT = int.__repr__
_FLOAT = float.__repr__


def _json_walk(value: Any, indent: str, out: List[str]) -> None:
    t = type(value)
    if t is str:
        out.append(_STR(value))
    elif t is int:
        out.append(_INT(value))
    elif t is float:
        if value - value != 0:             # nan, inf: json's own words for them
            raise _NotPlain
        out.append(_FLOAT(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif t is dict:
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        sep = "{\n" + inner
        for k, v in value.items():
            if type(k) is not str:
                raise _NotPlain
            out.append(sep)
            out.append(_STR(k))
            out.append(": ")
            _json_walk(v, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "}")
    elif t is list or t is tuple:
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        sep = "[\n" + inner
        for v in value:
            out.append(sep)
            _json_walk(v, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "]")
    else:
        raise _NotPlain


def input_piece(fmt: str, r: Any) -> Any:
    """One settled input's part of the output in `fmt`, as :meth:`SettlementSpool.add` writes
    it: the batch's render step, run where the input was settled (a worker, or this process)
    and handed down through :class:`~prefcli.settle.results.Settled`.

    The table's piece is the row's cells and the whole result, sealed
    (:class:`~prefcli.app.workers.Sealed`): a batch where one input alone settles prints
    that input's own detailed table, and only then is the result opened."""
    if fmt == "json":
        return input_json(input_document(r))
    if fmt == "csv":
        import csv
        buf = io.StringIO()
        csv_net_rows(csv.writer(buf, lineterminator="\n"), r)
        return buf.getvalue()
    if fmt == "table":
        from prefcli.app.workers import Sealed
        return {p: _ws(v) for p, v in r.settlement.net.items()}, Sealed(r)
    from prefcli.io.emit import to_yaml
    return to_yaml([input_document(r)])


class SettlementSpool:
    """Per-input pieces of one format, rendered as the results arrive (:meth:`add`), then the
    whole output as text chunks (:meth:`chunks`)."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.file: Any = _Spill()
        self.count = 0
        self.first: Any = None            # the table of a single input is that input's own (sealed)
        self._first_row: Any = None
        self.width_input = 0
        self.widths: Dict[str, int] = {}

    def close(self) -> None:
        self.file.close()

    def add(self, r: Any) -> None:
        """One settled input: an InputResult (ok), or a Settled whose piece is
        :func:`input_piece` of this format (rendered where the input was settled)."""
        piece = r.piece if type(r) is Settled else input_piece(self.fmt, r)
        self.count += 1
        if self.fmt == "table":
            if self.count == 1:
                self.first = piece[1]       # kept until a second input shows it is a batch
                self._first_row = (r.source, piece[0])
                return
            if self.first is not None:
                self._table_row(*self._first_row)
                self.first = None
            self._table_row(r.source, piece[0])
        elif self.fmt == "json":
            self.file.write(("" if self.count == 1 else ",\n") + "    " + piece)
        else:
            self.file.write(piece)

    def _table_row(self, source: str, cells: Dict[str, str]) -> None:
        self.width_input = max(self.width_input, cell_width(source))
        for p, c in cells.items():
            self.widths[p] = max(self.widths.get(p, 0), len(c))
        self.file.write(json.dumps([source, cells], ensure_ascii=False) + "\n")

    def _spooled(self) -> Iterator[str]:
        self.file.flush()
        self.file.seek(0)
        while True:
            chunk = self.file.read(_CHUNK)
            if not chunk:
                return
            yield chunk

    def chunks(self, summary: Any, bad: Sequence[Any] = (), tournament: Any = None) -> Iterator[str]:
        """The whole output, the totals around the spooled inputs."""
        if self.fmt == "table":
            yield from self._table_chunks(summary)
        elif self.fmt == "csv":
            import csv
            from prefcli.render.settlement import CSV_COLUMNS
            buf = io.StringIO()
            out = csv.writer(buf, lineterminator="\n")
            out.writerow(CSV_COLUMNS)
            yield buf.getvalue()
            yield from self._spooled()
            buf = io.StringIO()
            csv_tail_rows(csv.writer(buf, lineterminator="\n"), summary)
            yield buf.getvalue()
        else:
            from prefcli.io.emit import dump
            data = settlement_document([], summary, bad, tournament)
            data["inputs"] = [_PLACEHOLDER]
            text = dump(data, self.fmt)
            at = text.index(_PLACEHOLDER)
            start = text.rindex("\n", 0, at) + 1
            end = text.index("\n", at) + 1
            yield text[:start]
            yield from self._spooled()
            yield ("\n" if self.fmt == "json" else "") + text[end:]

    def _table_chunks(self, summary: Any) -> Iterator[str]:
        if self.first is not None:          # one input: its own detailed table
            yield _table([self.first.open()], summary)
            return
        names: List[str] = list(summary.players)
        totals = [["total (whists)"] + [_ws(summary.net[p]) for p in names]]
        if summary.money is not None:
            from prefcli.model.numbers import money_text
            totals.append(["total (money)"] + [money_text(summary.money[p]) for p in names])
        widths = [max([len("input"), self.width_input] + [len(r[0]) for r in totals])]
        for i, p in enumerate(names, start=1):
            widths.append(max([cell_width(p), self.widths.get(p, 0)] + [len(r[i]) for r in totals]))

        def line(cells: Sequence[str]) -> str:
            return "  ".join(pad(c, widths[i], i > 0) for i, c in enumerate(cells)).rstrip() + "\n"

        # An input's row has cells only for its own players: it is written from those, each
        # right-justified at its column's place (the columns before it blank), as `line` lays
        # out the whole row; a row of every player's cell cost the inputs times the players.
        col: Dict[str, int] = {}
        at = [0] * (len(names) + 1)
        for i, p in enumerate(names, start=1):
            col[p] = i
            at[i] = at[i - 1] + widths[i - 1] + 2
        w0 = widths[0]

        def row(source: str, cells: Dict[str, str]) -> str:
            width = cell_width(source)
            parts = [source + " " * (w0 - width)]
            end = max(w0, width)
            shift = end - w0                # a cell wider than its column moves the rest on
            for i, c in sorted((col[p], c) for p, c in cells.items() if p in col and c):
                cell = c.rjust(widths[i])
                parts.append(" " * (at[i] + shift - end))
                parts.append(cell)
                shift += len(cell) - widths[i]
                end = at[i] + widths[i] + shift
            return "".join(parts).rstrip() + "\n"

        yield line(["input"] + names)
        self.file.flush()
        self.file.seek(0)
        batch: List[str] = []
        size = 0
        for raw in self.file:
            source, cells = json.loads(raw)
            text = row(source, cells)
            batch.append(text)
            size += len(text)
            if len(batch) >= 512 or size >= _CHUNK * 16:     # rows as wide as many players
                yield "".join(batch)
                batch = []
                size = 0
        if batch:
            yield "".join(batch)
        for r in totals:
            yield line(r)
        yield "".join(x + "\n" for x in multi_tail_lines(summary))


class _Spill:
    """The spool's text: in memory while it is small (one input, a few), in a temporary file
    once it passes :data:`_SPILL` characters (a batch of thousands stays out of memory).

    Why: ``tempfile`` and what it imports (shutil, random, the compression modules) were
    2 ms of every ``settle`` of one file. Both hold the text as written, lines untranslated
    (``newline=""``); the file keeps a file name that is not UTF-8 by surrogateescape."""

    def __init__(self) -> None:
        self.size = 0
        self.buffer: Any = io.StringIO(newline="")

    def write(self, text: str) -> None:
        self.size += len(text)
        if self.size > _SPILL and isinstance(self.buffer, io.StringIO):
            import tempfile
            spilled = tempfile.TemporaryFile("w+", encoding="utf-8", errors="surrogateescape", newline="")
            spilled.write(self.buffer.getvalue())
            self.buffer.close()
            self.buffer = spilled
        self.buffer.write(text)

    def flush(self) -> None:
        self.buffer.flush()

    def seek(self, at: int) -> None:
        self.buffer.seek(at)

    def read(self, size: int) -> str:
        text: str = self.buffer.read(size)
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self.buffer)

    def close(self) -> None:
        self.buffer.close()


#: the characters the spool keeps in memory before it moves to a temporary file
_SPILL = 1 << 18


def stream_document_parts(results: Sequence[Any], fmt: str, summary: Any, bad: Sequence[Any] = (),
                          tournament: Any = None) -> str:
    """All at once (for tests and small batches): what the spool writes for these results."""
    spool = SettlementSpool(fmt)
    try:
        for r in results:
            spool.add(r)
        return "".join(spool.chunks(summary, bad, tournament))
    finally:
        spool.close()

