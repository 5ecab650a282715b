"""`merge`: add up partial results that shards wrote with `-f json` (settle or stats).

Every shard ran the same pure map over its own inputs; the merge is the exact one of
:mod:`prefcli.settle.totals` (settle) or :mod:`prefcli.settle.stats` (stats), so the merged
totals are the totals of one run over all the inputs, whatever the sharding.
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence

from prefcli.model.diagnostics import InputError, Problem
from prefcli.model.records import SETTLEMENT_FORMAT
from prefcli.model.values import show
from prefcli.settle.stats import STATS_FORMAT

FORMATS = (SETTLEMENT_FORMAT, STATS_FORMAT)
SCHEMA_KINDS = {SETTLEMENT_FORMAT: "settlement", STATS_FORMAT: "stats"}


@dataclass
class MergeResult:
    format: str
    data: Dict[str, Any]
    stats: Any = None                   # the merged Stats (pref-stats/1)
    notes: List[str] = field(default_factory=list)


def _load(source: str) -> Any:
    from prefcli.io.documents import load_document
    return load_document(source)


def _bad(doc: Any, source: str, path: Sequence[Any], message: str) -> InputError:
    try:
        p = doc.problem(tuple(path), message, "schema")
        return InputError([p if p.file else p.at(file=source)])
    except Exception:  # noqa: BLE001 - locating is best effort
        return InputError([Problem(message, tuple(path), source)])


def _check_schema(doc: Any, source: str, kind: str) -> None:
    """A part is checked against the schema of what settle or stats write, as any input is:
    a value of the wrong type anywhere is a located error, not a crash of the arithmetic."""
    from prefcli.io.documents import schema_problems
    problems = schema_problems(doc, kind)
    if problems:
        raise InputError([p if p.file else p.at(file=source) for p in problems])


def merge_parts(sources: Sequence[str], coin: Optional[Decimal] = None) -> MergeResult:
    """Merge shard documents (all pref-settlement/1, or all pref-stats/1). Raises InputError."""
    from prefcli.app.inputs import check_stdin_once
    check_stdin_once(sources)
    docs = [(s, _load(s)) for s in sources]
    kinds = set()
    for s, d in docs:
        fmt = d.data.get("format") if isinstance(d.data, dict) else None
        if fmt not in FORMATS:
            from prefcli.model.values import type_name
            found = type_name(d.data) if not isinstance(d.data, dict) else \
                "no format" if fmt is None else f"format {show(fmt)}"
            raise _bad(d, s, ("format",) if isinstance(d.data, dict) and fmt is not None else (),
                       f"expected a part written by settle or stats with -f json "
                       f"({' or '.join(FORMATS)}), found {found}")
        kinds.add(fmt)
        _check_schema(d, s, SCHEMA_KINDS[fmt])
    if len(kinds) > 1:
        raise InputError([Problem("cannot merge settle results with stats results", (), sources[0])])
    kind = kinds.pop()
    return _merge_stats(docs) if kind == STATS_FORMAT else _merge_settlements(docs, coin)


def _merge_stats(docs: Sequence[Any]) -> MergeResult:
    from prefcli.settle.stats import PartError, StatsFold, from_data, to_data
    fold: Optional[StatsFold] = None
    for s, d in docs:
        try:
            part = from_data(_plain(d.data))
        except PartError as exc:
            raise _bad(d, s, exc.path, str(exc)) from None
        except (ValueError, KeyError, TypeError) as exc:
            raise _bad(d, s, (), f"not a valid {STATS_FORMAT} part: {exc}") from None
        if fold is None:
            fold = StatsFold(part.by)
        fold.add(part)              # in place: merge() copied every part before it
    assert fold is not None    # merge_documents found a format, so there is at least one part
    total = fold.stats()
    return MergeResult(STATS_FORMAT, to_data(total), total)


def _plain(data: Any) -> Any:
    """Loaded data with exact decimals back as text (the loader reads 12.5 as a Decimal)."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    if isinstance(data, Decimal):
        return str(data)
    return data


def _as_written(data: Any) -> Any:
    """A settled input as settle wrote it: the loader reads its rounded numbers (16.33) as
    Decimals, which go back out as the same JSON numbers (the schema's type), not as text."""
    if isinstance(data, dict):
        return {k: _as_written(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_as_written(v) for v in data]
    if isinstance(data, Decimal):
        return float(data)
    return data


def _merge_settlements(docs: Sequence[Any], coin: Optional[Decimal]) -> MergeResult:
    from prefcli.model.records import to_fraction
    from prefcli.settle.document import exact_net, summary_document
    from prefcli.settle.totals import Totals
    total = Totals()
    summary_only = False
    inputs: List[Any] = []
    notes: List[str] = []
    for s, d in docs:
        data = d.data
        if isinstance(data.get("totals"), dict):        # written by settle --summary
            from prefcli.settle.totals import totals_from_data
            try:
                total = total + totals_from_data(data["totals"])
            except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
                raise _bad(d, s, ("totals",), f"not settlement totals: {exc}") from None
            summary_only = True
            continue
        if data.get("standings") is not None:
            notes.append(f"{s}: its standings are not merged (settle all the inputs with the tournament for them)")
        part = Totals()
        for i, inp in enumerate(data.get("inputs") or []):
            try:
                players = [str(p) for p in inp["players"]]
                net = {p: to_fraction(exact_net(inp, p)) for p in players}
                price = Decimal(str(inp["price"])) if inp.get("price") is not None else None
                c = Decimal(str(inp.get("coin") or "0.01"))
            except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
                raise _bad(d, s, ("inputs", i), f"not a settled input: {exc}") from None
            _check_written(d, s, ("inputs", i), inp, net, "the input's")
            part = part + Totals.of(net, price, c, players)
            inputs.append(_as_written(inp))
        if data.get("inputs"):
            _check_written(d, s, (), data, part.net, "its inputs'")
        total = total + part
    summary = total.summary(coin)

    out: Dict[str, Any] = summary_document(summary)
    out["inputs"] = inputs
    if summary_only:
        from prefcli.settle.totals import totals_data
        del out["inputs"]
        out["totals"] = totals_data(total)
    if summary.notes:
        out["notes"] = list(summary.notes)
    return MergeResult(SETTLEMENT_FORMAT, out, None, notes)


def _check_written(doc: Any, source: str, where: Sequence[Any], item: Any, net: Mapping[str, Fraction],
                   whose: str) -> None:
    """The nets `item` states (``exact.net``, else ``net``) and shows (``net``, rounded) are
    `net`, the ones it is merged by: an input's own, or for a part (`where` ()) the sum of its
    inputs. Why: merge adds up each input's exact net, not its rounded ``net`` nor the part's
    totals, so a figure changed by hand where it is seen would be dropped without a word; it is
    refused instead."""
    from prefcli.model.ledger import format_amount
    from prefcli.model.records import to_fraction
    from prefcli.settle.document import rounded
    shown = item.get("net")
    exact = item.get("exact", {}).get("net") if isinstance(item.get("exact"), dict) else None
    for p, value in net.items():
        try:
            stated = exact.get(p) if isinstance(exact, dict) else None
            if stated is not None and to_fraction(stated) != value:      # only a part's can differ
                raise _bad(doc, source, (*where, "exact", "net", p), f"{show(stated)} is not the sum of {whose} "
                           f"nets ({format_amount(value)}): a part edited by hand is not merged; settle its inputs "
                           "again")
            if isinstance(shown, dict) and p in shown and Decimal(str(shown[p])) != Decimal(str(rounded(value))):
                raise _bad(doc, source, (*where, "net", p), f"{show(shown[p])} is not {whose} exact net "
                           f"{format_amount(value)} rounded ({rounded(value)}): a part edited by hand is not "
                           "merged; settle its inputs again")
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise _bad(doc, source, (*where, "net", p), f"not a net: {exc}") from None
