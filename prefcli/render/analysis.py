"""Rendering a double-dummy analysis (:mod:`prefcli.app.analyze`) for people and programs.

The text report reads like a post-mortem at the table: the result with perfect play from the
opening lead against what was taken, the double-dummy line after every trick, the cards that
cost a trick with the card that would have kept it, then the table and the best discard when
asked. The JSON and YAML forms are the report's ``pref-analysis/1`` document
(:meth:`prefcli.app.analysis_model.Analysis.document`, schemas/analysis.schema.json).
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from prefcli.app.analysis_model import Analysis, DealAnalysis
from prefcli.render.columns import cell_width, pad

_STRAIN_LABEL = (("S", "♠"), ("C", "♣"), ("D", "♦"), ("H", "♥"), ("NT", "NT"), ("misere", "misère"))


def render_table(report: Analysis, **_options: Any) -> str:
    """The text report of every analysed deal (the registry's ``table`` format)."""
    text = report_text(report.items)
    return text + "\n" if text else ""


def _row(label: str, values: Sequence[Any], width: int) -> str:
    return "  " + pad(label, width) + "".join(f"{v:>3}" for v in values)


def _verdict(a: DealAnalysis) -> str:
    """"Cid takes 5 from the opening lead (6D needs 6: down 1)"."""
    d = a.declarer or "?"
    v0 = a.tricks_dd[0]
    if a.kind == "misere":
        verdict = "made" if v0 == 0 else f"caught, {v0} trick{'s' if v0 != 1 else ''}"
        return f"{d} takes {v0} from the opening lead (misère {verdict})"
    need = a.level
    verdict = "made" if v0 >= need else f"down {need - v0}"
    return f"{d} takes {v0} from the opening lead ({a.contract} needs {need}: {verdict})"


def analysis_rows(a: DealAnalysis) -> Tuple[str, List[str], List[List[str]], List[str]]:
    """One deal for a table: its caption, the header, the rows (the double-dummy line and what
    was taken; in an all-pass each player's bound) and the mistakes' words."""
    head = ["after trick"] + [str(i) for i in range(a.tricks_recorded + 1)]
    if a.kind == "all-pass":
        start = a.tricks_dd[0]
        caption = (f"deal {a.number}: all-pass; from the opening lead "
                   + ", ".join(f"{p} at most {start[p]}" for p in a.seats))
        rows = [[f"{p} at most"] + [str(x[p]) for x in a.tricks_dd] for p in a.seats]
    else:
        caption = f"deal {a.number}: {_verdict(a)}"
        if not a.played:
            caption += "; not played out (the defenders did not whist)"
        d = a.declarer or "?"
        rows = [[f"{d} dd"] + [str(x) for x in a.tricks_dd], [f"{d} took"] + [str(x) for x in a.taken]]
    if not a.tricks_recorded:
        rows = []       # no recorded play: the result from the opening lead says it all
    return caption, head, rows, [m.text for m in a.mistakes]


def deal_text(a: DealAnalysis) -> List[str]:
    """The report of one deal, line by line."""
    lines: List[str] = []
    first = a.seats[0]
    if a.kind == "all-pass":
        head = f"deal {a.number}: all-pass (first hand {first})"
        if a.talon_mode in ("lead-suit", "dealer-plays"):
            head += f"; the talon leads tricks 1-2 ({a.talon_mode})"
        lines.append(head)
        lines.append(f"  bound: {a.bound}")
        start = a.tricks_dd[0]
        lines.append("  from the opening lead: " + ", ".join(f"{p} at most {start[p]}" for p in a.seats))
        if a.result:
            lines.append("  recorded: " + ", ".join(f"{p} {a.result.get(p, 0)}" for p in a.seats))
        width = max(cell_width(p) for p in a.seats) + len(" at most") + 2
        if a.tricks_recorded:
            lines.append(_row("after trick", range(a.tricks_recorded + 1), width))
            for p in a.seats:
                lines.append(_row(f"{p} at most", [x[p] for x in a.tricks_dd], width))
    else:
        d = a.declarer or "?"
        head = f"deal {a.number}: {a.contract} by {d} (first hand {first})"
        lines.append(head)
        lines.append(f"  double dummy: {_verdict(a)}")
        rec = []
        if a.result is not None and d in a.result:
            rec.append(f"{d} took {a.result[d]}")
        if a.claim:
            rec.append("the last tricks by claim (" + ", ".join(f"{p} {k}" for p, k in a.claim.items()) + ")")
        if not a.played:
            rec.append("not played out (the defenders did not whist)")
        if rec:
            lines.append("  recorded: " + "; ".join(rec))
        if a.claim and d in a.claim:
            rest = 10 - a.tricks_recorded
            dd = a.tricks_dd[-1] - a.taken[-1]
            verdict = "as claimed" if dd == a.claim[d] else f"double dummy {dd}"
            lines.append(f"  claim: {d} {a.claim[d]} of the last {rest}; {verdict}")
        width = max(len("after trick"), cell_width(d) + 5) + 2
        if a.tricks_recorded:
            lines.append(_row("after trick", range(a.tricks_recorded + 1), width))
            lines.append(_row(f"{d} dd", a.tricks_dd, width))
            lines.append(_row(f"{d} took", a.taken, width))
    if a.mistakes:
        lines.append("  mistakes:")
        for m in a.mistakes:
            lines.append(f"    {m.text}")
    elif a.tricks_recorded:
        lines.append("  mistakes: none (every card kept its side's double-dummy result)")
    if a.table is not None:
        cells = "  ".join(f"{label} {a.table[key]}" for key, label in _STRAIN_LABEL)
        lines.append(f"  table ({a.declarer}'s hand after the discard, first hand leading): {cells}")
    if a.discard is not None:
        x = a.discard
        bits = []
        if "played" in x:
            bits.append(f"played {' '.join(x['played'])} → {x['played_tricks']}")
        bits.append(f"best {' '.join(x['best'])} → {x['best_tricks']}")
        text = "; ".join(bits) + f" ({x['discards_tried']} distinct discards solved)"
        if x.get("assumed"):
            text += "; the record gives no discard, so the best one that keeps the cards played is assumed"
        lines.append(f"  discard: {text}")
    return lines


def report_text(items: Sequence[Tuple[Optional[str], DealAnalysis]]) -> str:
    out: List[str] = []
    last: Optional[str] = None
    for name, a in items:
        if name is not None and name != last:
            out.append(f"# {name}")
            last = name
        out.extend(deal_text(a))
        out.append("")
    return "\n".join(out).rstrip("\n")
