"""`prefcli import`: another program's saved file → canonical prefcli documents, a loss report,
and a check of the program's own numbers against prefcli's.

Steps, each in one place: detect the format (the registry's detectors, by content), parse it
(the importer: plain data plus notes), make it canonical (the model builder and the writer, so
what import writes is what every other command reads), validate it (the same checks as
``prefcli validate``: a problem is reported, never hidden), and, where the file holds the
program's own totals, compare them with prefcli's sheet deal by deal (:mod:`prefcli.scoring`),
naming the rule option whose other value would explain each difference.
"""
from __future__ import annotations

import os
from dataclasses import field
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from prefcli.io.importers import (Cell, Imported, Importer, Note, PeerSheet, RulesAccess, Source, detect, get,
                                  importers)
from prefcli.model.diagnostics import InputError, PrefcliError, Problem


@dataclass
class Difference:
    """One deal where prefcli's sheet and the program's differ: the cells and both deltas, and
    the option values under which prefcli would write what the program wrote."""

    deal: Optional[int]                    # None: the totals (no deal-by-deal log to align)
    cells: List[Tuple[Cell, Fraction, Fraction]]   # (cell, prefcli's delta, the program's delta)
    explained_by: List[str] = field(default_factory=list)
    what: str = ""

    def as_dict(self) -> Dict[str, Any]:
        from prefcli.model.ledger import format_amount
        return {"deal": self.deal, "what": self.what,
                "cells": [{"cell": cell_name(c), "prefcli": format_amount(a), "program": format_amount(b)}
                          for c, a, b in self.cells],
                "explained_by": self.explained_by}

    def text(self) -> str:
        where = f"deal {self.deal}" if self.deal is not None else "totals"
        cells = "; ".join(f"{cell_name(c)}: prefcli {_signed(a)}, program {_signed(b)}" for c, a, b in self.cells)
        out = f"{where}: {self.what + ': ' if self.what else ''}{cells}"
        if self.explained_by:
            out += f" (would match with {' or '.join(self.explained_by)})"
        elif self.deal is not None:
            out += " (no single option explains it)"
        return out


def _signed(v: Fraction) -> str:
    from prefcli.model.ledger import format_amount
    text = str(format_amount(v))
    return text if v < 0 else f"+{text}"


def cell_name(cell: Cell) -> str:
    area, player, on = cell
    return f"whists {player} on {on}" if area == "whists" else f"{area} {player}"


@dataclass
class Check:
    """The program's numbers against prefcli's: `compared` says what was compared (None: the file
    holds nothing to compare), `differences` deal by deal."""

    compared: Optional[str] = None
    differences: List[Difference] = field(default_factory=list)

    def as_dict(self) -> Dict[str, Any]:
        return {"compared": self.compared, "agree": not self.differences,
                "differences": [d.as_dict() for d in self.differences]}


@dataclass
class Output:
    label: str            # "" for a file's only document, else a suffix such as "3"
    kind: str             # record | sheet
    data: Dict[str, Any]  # canonical


@dataclass
class ImportResult:
    """One input file imported: its format, the documents, the notes and the check."""

    file: str
    importer: Importer
    version: Optional[str]
    outputs: List[Output]
    notes: List[Note]
    check: Check
    problems: List[Problem] = field(default_factory=list)   # the outputs' validate problems

    @property
    def losses(self) -> List[Note]:
        return [n for n in self.notes if n.loss]

    def report_data(self) -> Dict[str, Any]:
        from prefcli.model.values import display_name
        return {"file": display_name(self.file), "from": self.importer.name, "program": self.importer.program,
                "version": self.version,
                "documents": [{"label": o.label, "kind": o.kind,
                               "deals": len(o.data.get("deals", [])) if o.kind == "record" else None}
                              for o in self.outputs],
                "losses": len(self.losses), "notes": [n.as_dict() for n in self.notes],
                "check": self.check.as_dict(), "problems": [p.as_dict() for p in self.problems]}


IMPORT_REPORT_FORMAT = "pref-import-report/1"


@dataclass
class ImportReport:
    """Every input of one `prefcli import`: the files imported and those that could not be
    (file, located problems)."""

    results: List[ImportResult]
    errors: List[Tuple[str, List[Problem]]] = field(default_factory=list)

    def document(self) -> Dict[str, Any]:
        """The ``pref-import-report/1`` document (schemas/import.schema.json)."""
        from prefcli.model.values import display_name
        return {"format": IMPORT_REPORT_FORMAT, "imports": [r.report_data() for r in self.results],
                "errors": [{"file": display_name(f), "problems": [p.as_dict() for p in probs]} for f, probs in self.errors]}


def _preset_values(rules: Mapping[str, Any]) -> Mapping[str, Any]:
    from prefcli.rules.presets import resolve_rules
    return resolve_rules(rules).values


def rules_access() -> RulesAccess:
    """The rules' answers the importers ask for (io never imports the rules)."""
    from prefcli.rules.table import seating_for
    return RulesAccess(_preset_values, seating_for)


def read(path: str) -> Source:
    from prefcli.io.documents import read_source
    name, raw = read_source(path)
    return Source(name, raw, rules=rules_access())


def choose(source: Source, name: str = "auto") -> Importer:
    """The importer for `source`: the named one, or the only one whose detector accepts it."""
    if name != "auto":
        try:
            return get(name)
        except KeyError as exc:
            raise InputError([Problem(str(exc.args[0]), (), source.name, None, None, "syntax")]) from None
    found = detect(source)
    if len(found) == 1:
        return found[0]
    if not found:
        from prefcli.io.importers._unsupported import recognise
        refused = recognise(source)
        if refused is not None:
            line, col, why = refused
            raise InputError([Problem(f"not imported: {why}", (), source.name, line, col, "syntax")])
        names = ", ".join(i.name for i in importers())
        raise InputError([Problem(f"not a saved file of any known program (known: {names}; "
                                  "see prefcli import --list, or name one with --from)",
                                  (), source.name, 1, 1, "syntax")])
    raise InputError([Problem(f"looks like more than one format ({', '.join(i.name for i in found)}): "
                              "name one with --from", (), source.name, 1, 1, "syntax")])


def import_source(source: Source, name: str = "auto", check: bool = True) -> ImportResult:
    """Parse, canonicalise, validate and check one file. Raises InputError (located) for a file
    the importer cannot read."""
    importer = choose(source, name)
    if source.rules is None:
        source.rules = rules_access()
    imported = importer.parse(source)
    outputs = [_canonical(source, label, data) for label, data in imported.documents]
    problems: List[Problem] = []
    for out in outputs:
        problems.extend(validate_output(source.name, out))
    result = ImportResult(source.name, importer, imported.version, outputs, list(imported.notes), Check(),
                          problems)
    if check:
        result.check = check_peer(outputs, imported)
    return result


def import_file(path: str, name: str = "auto", check: bool = True) -> ImportResult:
    return import_source(read(path), name, check)


def _canonical(source: Source, label: str, data: Dict[str, Any]) -> Output:
    from prefcli.rules.canonical import record_to_data, sheet_to_data
    from prefcli.model.records import RECORD_FORMAT
    from prefcli.model.build import record_from_data
    from prefcli.model.build_sheet import sheet_from_data

    kind = "record" if data.get("format") == RECORD_FORMAT else "sheet"
    try:
        if kind == "record":
            canonical = record_to_data(record_from_data(data, strict=True))
        else:
            canonical = sheet_to_data(sheet_from_data(data, strict=True))
    except InputError as exc:
        # the importer made data the model refuses: the file's own values were out of place
        raise InputError([p.at(source.name) for p in exc.problems]) from None
    return Output(label, kind, canonical)


def validate_output(name: str, out: Output) -> List[Problem]:
    """`prefcli validate`'s problems of a written document (JSON text), as if read back."""
    from prefcli.io.parsing import parse_text
    from prefcli.io.writer_json import dump
    from prefcli.rules.checks import check_document

    label = f"{name} (imported{' ' + out.label if out.label else ''})"
    doc = parse_text(label, dump(out.data, "json"), True)
    return check_document(doc)


# ---------------------------------------------------------------------------------------------
# The program's numbers against prefcli's
# ---------------------------------------------------------------------------------------------

def _cells_of(data: Dict[str, Any]) -> Dict[Cell, Fraction]:
    from prefcli.model.records import to_fraction
    out: Dict[Cell, Fraction] = {}
    for area in ("pool", "mountain"):
        for p, v in (data.get(area) or {}).items():
            out[(area, p, None)] = to_fraction(v)
    for w, row in (data.get("whists") or {}).items():
        for q, v in row.items():
            out[("whists", w, q)] = to_fraction(v)
    return out


def _differ(a: Dict[Cell, Fraction], b: Dict[Cell, Fraction]) -> List[Tuple[Cell, Fraction, Fraction]]:
    keys = list(a) + [k for k in b if k not in a]
    return [(k, a.get(k, Fraction(0)), b.get(k, Fraction(0))) for k in keys
            if a.get(k, Fraction(0)) != b.get(k, Fraction(0))]


def check_peer(outputs: Sequence[Output], imported: Imported) -> Check:
    peer = imported.peer
    if peer is None:
        return Check()
    record = next((o for o in outputs if o.kind == "record"), None)
    sheet = next((o for o in outputs if o.kind == "sheet"), None)
    if record is not None:
        return _check_record(record.data, peer)
    if sheet is not None:
        return _check_log(peer)
    return Check()


def _check_log(peer: PeerSheet) -> Check:
    """A sheet without deal facts: its own log must add up to its own totals."""
    check = Check("the program's running log against its own totals")
    summed: Dict[Cell, Fraction] = {}
    steps = peer.per_deal if peer.per_deal is not None else [{c: d} for c, d in peer.writes]
    for deltas in steps:
        for c, d in deltas.items():
            summed[c] = summed.get(c, Fraction(0)) + d
    diff = _differ(summed, {c: v for c, v in peer.totals.items()})
    if diff:
        check.differences.append(Difference(None, diff, [], "the log adds up to (prefcli), the totals say (program)"))
    return check


def _deal_deltas(result, deal_numbers: Sequence[int]) -> Dict[int, Dict[Cell, Fraction]]:
    out: Dict[int, Dict[Cell, Fraction]] = {n: {} for n in deal_numbers}
    for e in result.ledger.entries:
        if e.deal is None or e.deal not in out:
            continue
        cell = (e.area, e.player, e.on)
        row = out[e.deal]
        row[cell] = row.get(cell, Fraction(0)) + e.amount
    return {n: {c: v for c, v in row.items() if v != 0} for n, row in out.items()}


#: How far ahead a deal's writes are looked for after a deal that differs (bounds the work on a
#: long log that has gone its own way).
ALIGN_WINDOW = 200


def _align(writes: List[Tuple[Cell, Fraction]], ours: List[Dict[Cell, Fraction]]) -> List[Optional[Dict[Cell, Fraction]]]:
    """The program's writes cut into deals: a deal whose deltas are the next writes (in any order)
    takes them; otherwise it takes every write up to where the next deal's deltas begin."""

    def take(pos: int, want: Dict[Cell, Fraction]) -> Optional[int]:
        k = len(want)
        if k == 0:
            return pos
        chunk = writes[pos:pos + k]
        got: Dict[Cell, Fraction] = {}
        for c, d in chunk:
            got[c] = got.get(c, Fraction(0)) + d
        return pos + k if len(chunk) == k and got == want else None

    out: List[Optional[Dict[Cell, Fraction]]] = []
    pos = 0
    for i, want in enumerate(ours):
        end = take(pos, want)
        if end is None:
            end = len(writes)
            for nxt in ours[i + 1:i + 2]:
                if not nxt:
                    continue
                for j in range(pos, min(len(writes), pos + ALIGN_WINDOW)):
                    if take(j, nxt) is not None:
                        end = j
                        break
        seg: Dict[Cell, Fraction] = {}
        for c, d in writes[pos:end]:
            seg[c] = seg.get(c, Fraction(0)) + d
        out.append({c: v for c, v in seg.items() if v != 0})
        pos = end
    return out


#: Option values tried to explain a difference (besides every choice of every choice option).
_TRY_NUMBERS = {
    "whist_multiplier": (1, 2), "allpass.progression": ((), (1, 2, 3), (2, 4, 6), (1, 2, 4), (2, 4, 8)),
    "allpass.zero_trick_points": ("price", 1, 2), "consolation": ("price", 10, "none"),
    "allpass.trick_price": (1, 2), "allpass.rostov_whists": (5, 10), "half_whist_7_tricks": (1, "1.5"),
}


def _candidates(rules) -> List[Tuple[str, Any]]:
    out: List[Tuple[str, Any]] = []
    for opt in rules.family.options:
        current = rules.get(opt.name)
        values: Sequence[Any] = ()
        if opt.kind == "choice":
            values = opt.choices
        elif opt.kind == "bool":
            values = (True, False)
        elif opt.name in _TRY_NUMBERS:
            values = _TRY_NUMBERS[opt.name]
        for v in values:
            try:
                if opt.coerce(v) == current:
                    continue
            except ValueError:
                continue
            out.append((opt.name, v))
    return out


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _check_record(data: Dict[str, Any], peer: PeerSheet) -> Check:
    from prefcli.model.records import Deal
    from prefcli.model.build import record_from_data
    from prefcli.rules.presets import resolve_rules
    from prefcli.scoring import score

    check = Check("the program's sheet against prefcli's rescoring under the mapped preset")
    record = record_from_data(data, strict=True)
    try:
        rules = resolve_rules(record.rules)
        result = score(record, rules)
    except (PrefcliError, ValueError) as exc:
        check.compared = f"nothing: prefcli cannot score the imported record ({getattr(exc, 'message', exc)})"
        return check
    numbers = [e.number for e in record.deals]
    ours_by = _deal_deltas(result, numbers)
    ours = [ours_by[n] for n in numbers]
    if peer.per_deal is not None and len(peer.per_deal) == len(numbers):
        theirs: List[Optional[Dict[Cell, Fraction]]] = list(peer.per_deal)
    elif peer.writes:
        theirs = _align(peer.writes, ours)
    else:
        theirs = []
    diffs: List[Tuple[int, Dict[Cell, Fraction]]] = []
    for n, mine, other in zip(numbers, ours, theirs):
        if other is not None and mine != other:
            diffs.append((n, other))
    cache: Dict[Tuple[str, Any], Optional[Dict[int, Dict[Cell, Fraction]]]] = {}

    def rescored(name: str, value: Any) -> Optional[Dict[int, Dict[Cell, Fraction]]]:
        key = (name, repr(value))
        if key not in cache:
            try:
                alt = score(record, resolve_rules(record.rules, sets=[(name, list(value) if isinstance(value, tuple) else value)]))
                cache[key] = _deal_deltas(alt, numbers)
            except (PrefcliError, ValueError):
                cache[key] = None
        return cache[key]

    candidates = _candidates(rules) if diffs else []
    for n, other in diffs[:20]:
        explained = []
        for name, value in candidates:
            alt = rescored(name, value)
            if alt is not None and alt.get(n) == other:
                explained.append(f"{name} = {_show(value)}")
        mine = ours_by[n]
        deal = record.deals[n - 1]
        what = _deal_label(deal) if isinstance(deal, Deal) else "adjust"
        check.differences.append(Difference(n, _differ(mine, other), explained[:5], what))
    if len(diffs) > 20:
        check.differences.append(Difference(None, [], [], f"… and {len(diffs) - 20} more deals differ"))
    final = result.sheet()
    ours_total: Dict[Cell, Fraction] = {}
    for p in record.players:
        ours_total[("pool", p, None)] = final.pool.get(p, Fraction(0))
        ours_total[("mountain", p, None)] = final.mountain.get(p, Fraction(0))
        for q, v in (final.whists.get(p) or {}).items():
            ours_total[("whists", p, q)] = v
    start = {c: v for c, v in ours_total.items() if v != 0}
    total_diff = _differ(start, {c: v for c, v in peer.totals.items() if v != 0})
    if total_diff and not check.differences:
        check.differences.append(Difference(None, total_diff, [], "the final sheet"))
    return check


def _deal_label(deal) -> str:
    text = str(deal.contract)
    if deal.declarer:
        text += f" {deal.declarer}"
    return text


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def output_names(result: ImportResult, folder: str, ext: str) -> List[Tuple[Output, str]]:
    """Where each document of a result goes in `folder`: the input's base name, `-LABEL` for one of
    several, and the extension of the output format."""
    stem = "stdin" if result.file == "<stdin>" else os.path.splitext(os.path.basename(result.file))[0] or "imported"
    out = []
    for o in result.outputs:
        name = f"{stem}-{o.label}" if o.label else stem
        out.append((o, os.path.join(folder, f"{name}.{ext}")))
    return out
