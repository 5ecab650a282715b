"""A replay for people: the hands, the auction, the talon, then trick by trick.

The JSON/YAML form is the ``pref-replay/1`` report (:meth:`prefcli.app.replay.ReplayReport.document`).
"""
from __future__ import annotations

from typing import Any, List, Sequence

from prefcli.render.columns import cell_width, pad


def render_table(report: Any) -> str:
    """Every replayed deal, a blank line between deals; a `# file` heading per file when many."""
    lines: List[str] = []
    many = len(report.files) > 1
    for f in report.files:
        for k, (rep, problems) in enumerate(f.deals):
            if many and k == 0:
                lines.append(f"# {f.file}")
            lines.extend(_render_text(rep, problems))
            lines.append("")
    return ("\n".join(lines).rstrip("\n") + "\n") if lines else ""


def _sorted_hand(cards: Sequence[Any]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit.order, -int(c.rank))))


def _render_text(rep: Any, problems: Sequence[Any]) -> List[str]:
    lines: List[str] = []
    d = rep.deal
    head = f"deal {rep.number}"
    if rep.dealer:
        head += f" (dealer {rep.dealer}, first hand {rep.first_hand})"
    lines.append(head)
    if rep.hands is not None:
        width = max(cell_width(p) for p in rep.hands) if rep.hands else 0
        for i, (p, cs) in enumerate(rep.hands.items()):
            label = "hands:" if i == 0 else ""
            lines.append(f"  {label:<9}{pad(p, width)}  {_sorted_hand(cs)}")
    elif d.hands is not None:
        for p, cs in d.hands:
            lines.append(f"  hand:    {p}  {_sorted_hand(cs)}")
    if rep.talon is not None:
        lines.append(f"  talon:   {' '.join(str(c) for c in rep.talon)}")
    if rep.auction:
        calls = ", ".join(f"{s.player} {s.call}" for s in rep.auction)
        res = rep.auction_result
        if res is not None:
            calls += " → all pass" if res.winner is None else f" → {res.winner} with {res.bid}"
        lines.append(f"  auction: {calls}")
    if rep.discard is not None:
        lines.append(f"  discard: {' '.join(str(c) for c in rep.discard)}")
    c = rep.contract or d.contract
    if c is not None:
        text = str(c)
        if not c.is_all_pass and (rep.declarer or d.declarer):
            text += f" by {rep.declarer or d.declarer}"
        lines.append(f"  contract: {text}")
    if rep.whist:
        w = ", ".join(f"{p} {dec}" for p, dec in rep.whist)
        extra = []
        if rep.open is not None:
            extra.append("open" if rep.open else "closed")
        if rep.takeover:
            extra.append(f"{rep.takeover} takes over")
        if rep.returned_by:
            extra.append(f"{rep.returned_by} returns the whist")
        lines.append(f"  whist:   {w}" + (f" ({', '.join(extra)})" if extra else ""))
    if getattr(rep, "dummy", None) is not None and rep.hands is not None and rep.played:
        by = rep.dummy_played_by
        lines.append("  " + pad(rep.dummy + ":", 9) + ("sits out (its cards stay closed on all-pass)" if by is None else
                                                      "played by the robot" if by == "robot" else
                                                      f"open, played by {by}"))
    for t in rep.tricks:
        cards = ", ".join(f"{who if who is not None else 'talon'} {card}" for who, card in t.cards)
        won = t.winner if t.winner is not None else "nobody"
        lines.append(f"  trick {t.number:>2}: {cards} → {won}")
    if rep.claim:
        lines.append("  claim:   " + ", ".join(f"{p} {k}" for p, k in rep.claim.items()))
    if rep.counts is not None:
        lines.append("  result:  " + ", ".join(f"{p} {k}" for p, k in rep.counts.items()))
    elif d.tricks is not None:
        lines.append("  tricks:  " + ", ".join(f"{p} {k}" for p, k in d.tricks))
    elif d.position:
        lines.append("  result:  none recorded (a position: prefcli analyze solves it)")
    for p in problems:
        lines.append(f"  problem: {p.message}")
    return lines
