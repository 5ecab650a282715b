"""What the drawn sheet shows after each deal (:class:`Frame`): every cell's running totals from
the scorer's ledger, the family's marks, the dealer to come. Drawn by :mod:`prefcli.render.svg`."""
from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.slots import dataclass
from prefcli.model.ledger import format_amount
from prefcli.app.sheet import SheetSource


ZERO = Fraction(0)

Cell = Tuple[str, str, Optional[str]]        # (player, area, on)


@dataclass
class Frame:
    """The sheet after `deal` deals: every cell's running totals, the marks, the dealer to come."""

    deal: int
    runs: Dict[Cell, List[Fraction]]         # every cell's running totals (shared by all frames)
    lengths: Dict[Cell, int]                 # how many of them are written by this frame
    closed: Dict[str, bool]
    dealer: Optional[str] = None
    dealer_of: Optional[int] = None          # the deal the marked dealer deals
    egles: Dict[str, Tuple[int, int]] = field(default_factory=dict)   # player → (drawn, played)
    eglute: Dict[str, Tuple[List[str], List[str]]] = field(default_factory=dict)  # top row, bottom row
    centre: Dict[str, str] = field(default_factory=dict)
    label: str = ""

    def values(self, key: Cell, last: int = 0) -> Tuple[List[Fraction], int]:
        """The cell's running totals in this frame (only the `last` ones when given) and their count."""
        n = self.lengths.get(key, 0)
        run = self.runs.get(key, [])
        return (run[max(0, n - last):n] if last else run[:n]), n


#: at most this many of a cell's newest totals are drawn (the smallest hand fits fewer) and
#: named in its title, so a long record draws in linear time and size
DRAWN, TITLED = 240, 40


def frames(src: SheetSource, upto: Optional[int] = None, every: bool = True) -> List[Frame]:
    """The sheet before the first deal (frame 0) and after each deal up to `upto`; with
    `every` false only the last one (a long record is then drawn in linear time)."""
    last = src.deals if upto is None else min(upto, src.deals)
    target = src.rules.get("pool")
    totals: Dict[Cell, Fraction] = {}
    runs: Dict[Cell, List[Fraction]] = {}
    by_deal: Dict[Optional[int], List[Any]] = {}
    order: List[Optional[int]] = []
    for e in src.entries:
        if e.deal not in by_deal:
            by_deal[e.deal] = []
            order.append(e.deal)
        by_deal[e.deal].append(e)
    history = {h.get("deal"): h for h in src.history}
    egles_start = src.extra.get("egles_start")
    drawn = {p: egles_start for p in src.players} if isinstance(egles_start, int) else None
    left = dict(drawn) if drawn else None
    at_start = src.extra.get("egles_at_start")
    if drawn is not None and isinstance(at_start, dict):
        # a game continued from a sheet: each player's strokes left then (state.egles); the ones
        # he had played before are drawn as played
        left = {p: int(at_start.get(p, drawn[p])) for p in src.players}
        drawn = {p: max(drawn[p], left[p]) for p in src.players}
    top: Dict[str, List[str]] = {p: [] for p in src.players}
    bottom: Dict[str, List[str]] = {p: [] for p in src.players}

    def frame(n: int) -> Frame:
        closed = {p: target is not None and totals.get((p, "pool", None), ZERO) >= target for p in src.players}
        lengths = {k: len(v) for k, v in runs.items()}
        dealer = src.dealers.get(n) if n < src.deals else src.dealers.get(n - 1)
        dealer_of = (n + 1 if n < src.deals else n) if dealer is not None else None
        f = Frame(n, runs, lengths, closed, dealer, dealer_of,
                  label=src.labels.get(n, "start" if n == 0 else ""))
        if drawn is not None and left is not None:
            f.egles = {p: (drawn[p], drawn[p] - left[p]) for p in src.players}
        if src.family == "lithuanian-kitty":
            f.eglute = {p: (list(top[p]), list(bottom[p])) for p in src.players}
        f.centre = centre_values(src)
        return f

    out: List[Frame] = []
    # entries before the first deal (an opening sheet, the starting hens)
    pre = [d for d in order if d is None]
    for d in pre:
        _apply_group(by_deal[d], totals, runs)
    if every or last == 0:
        out.append(frame(0))
    for n in range(1, last + 1):
        _apply_group(by_deal.get(n, []), totals, runs)
        h = history.get(n)
        if h is not None:
            if left is not None and drawn is not None and isinstance(h.get("egles"), dict):
                for p, k in h["egles"].items():
                    if k > left[p]:
                        drawn[p] += k - left[p]
                    left[p] = k
            if src.family == "lithuanian-kitty":
                _eglute_row(src, h, top, bottom)
        if every or n == last:
            out.append(frame(n))
    # entries after the last deal (closing writes past the record's deals)
    tail = [d for d in order if d is not None and d > src.deals]
    if tail and (upto is None or upto >= src.deals):
        for d in tail:
            _apply_group(by_deal[d], totals, runs)
        out[-1] = frame(last)
    return out


def _apply_group(group: Sequence[Any], totals: Dict[Cell, Fraction], runs: Dict[Cell, List[Fraction]]) -> None:
    """Add one deal's entries; each cell written in the deal gets one new running total."""
    touched: List[Cell] = []
    for e in group:
        key = (e.player, e.area, e.on)
        totals[key] = totals.get(key, ZERO) + e.amount
        if key not in touched:
            touched.append(key)
    for key in touched:
        runs.setdefault(key, []).append(totals[key])


def _eglute_row(src: SheetSource, h: Mapping[str, Any], top: Dict[str, List[str]],
                bottom: Dict[str, List[str]]) -> None:
    """Seed 000's eglutė table: tricks in eglutė deals on top (0, or S for the sitting-out
    dealer), levels declared below (M misère), X over a game beyond one's rights."""
    if h.get("kind") == "contract":
        p = h.get("declarer")
        if p not in bottom:
            return
        deal_no = h.get("deal")
        c = src.contracts.get(deal_no) if isinstance(deal_no, int) else None
        level = "M" if c is not None and c.is_misere else str(getattr(c, "level", "") or "")
        if h.get("factor", 1) != 1:
            while len(top[p]) < len(bottom[p]):
                top[p].append("")
            top[p].append("X")
        bottom[p].append(level)
    else:
        tricks = h.get("tricks") or {}
        for p in src.players:
            top[p].append(str(tricks[p]) if p in tricks else "S")


def centre_values(src: SheetSource) -> Dict[str, str]:
    r = src.rules
    out = {"pool": _fmt(r.get("pool"))}
    if src.family == "lithuanian-kitty":
        half = r.get("half_kitty_premium")
        full = r.get("full_kitty_premium")
        out["half"] = _fmt(half)
        out["full"] = _fmt(2 * Fraction(half) if full == "double" and half is not None else full)
        out["hour"] = ""
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (int, Fraction)):
        return str(format_amount(Fraction(v)))
    return str(v)

