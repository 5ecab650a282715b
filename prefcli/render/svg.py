"""The score sheet drawn as on paper (SVG 1.1): the pulka, the Lithuanian rhombus and kitty sheets.

Why it is built this way:

* **Layouts are data.** Each paper layout is one :class:`Layout` table (its lines, the target's
  place, and for every seat the boxes its player writes in, keyed by role: ``pool``,
  ``mountain``, ``whists+1`` … ``egles``, ``eglute``). The renderer knows no layout by name; a
  layout for 2 or 5 players is one more row in :data:`LAYOUTS`. Square sheets are symmetric, so
  their table gives the bottom seat and :func:`square_seats` turns it for the others.
* **Numbers come from the ledger.** A cell shows the running totals of the scorer's own entries
  (``ScoreResult.ledger``), separated by dots as a hand writes them; nothing is recomputed. The
  family-specific marks (eglė strokes, eglutė table) come from the scorer's ``extra`` state.
* **Frames.** :func:`frames` gives the sheet after each deal; :func:`render` draws one frame, and
  :func:`render_steps` all of them in one SVG whose changing parts carry ``data-s="FROM-TO"``
  (shown for those deal numbers), so a page can step deal by deal without a second renderer.
* **Fonts.** Only generic families (``serif``, ``sans-serif``): nothing external is loaded;
  Cyrillic and Lithuanian letters render with whatever fonts the viewer has.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Optional, Sequence, Tuple
from prefcli.render.xml_text import escape, quoteattr

from prefcli.model.ledger import format_amount
from prefcli.app.sheet import SheetSource, source_of_result, source_of_sheet  # noqa: F401 - re-exported

from prefcli.render.svg_frames import DRAWN, TITLED, Cell, Frame, frames
from prefcli.render.svg_layouts import Box, Layout, Point, layout_for

STYLES = ("paper", "plain")


# ---------------------------------------------------------------------------------------------
# Primitives (shared with other pictures, e.g. a season chart)
# ---------------------------------------------------------------------------------------------

def attrs(**kw: Any) -> str:
    """XML attributes from keywords (``class_`` → ``class``, ``data_s`` → ``data-s``); None is left out."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):
            v = num(v)
        out.append(f" {name}={quoteattr(str(v))}")
    return "".join(out)


def num(x: float) -> str:
    """A coordinate with at most one decimal: small files, no visible loss."""
    r = round(x, 1)
    return str(int(r)) if r == int(r) else str(r)


def tag(name: str, body: str = "", **kw: Any) -> str:
    a = attrs(**kw)
    return f"<{name}{a}>{body}</{name}>" if body else f"<{name}{a}/>"


def polyline(points: Sequence[Point], closed: bool = False, **kw: Any) -> str:
    d = "M" + " L".join(f"{num(x)} {num(y)}" for x, y in points) + (" Z" if closed else "")
    return tag("path", d=d, **kw)


def text(x: float, y: float, body: str, **kw: Any) -> str:
    return tag("text", escape(body), x=num(x), y=num(y), **kw)


# ---------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------


STYLE_CSS = {
    "paper": (".pf-bg{fill:#f7f4dd}.pf-ln{stroke:#c0574a;stroke-width:1.4;fill:none}"
              ".pf-t{fill:#1d2a5a;font-family:serif}.pf-m .pf-t{fill:#b3261e}"
              ".pf-nm{fill:#1d2a5a;font-family:serif;font-style:italic}"
              ".pf-new{font-weight:bold}.pf-old{opacity:.8}.pf-mk{stroke:#1d2a5a;stroke-width:1.6;fill:none}"
              ".pf-dl{fill:#b3261e}.pf-cap{fill:#c0574a;font-family:sans-serif;opacity:.55}"
              ".pf-ctr{fill:#1d2a5a;font-family:serif;font-weight:bold}.pf-tab{stroke:#c0574a;fill:none}"),
    "plain": (".pf-bg{fill:#fff}.pf-ln{stroke:#444;stroke-width:1;fill:none}"
              ".pf-t{fill:#111;font-family:sans-serif}.pf-m .pf-t{fill:#111}"
              ".pf-nm{fill:#111;font-family:sans-serif;font-weight:bold}"
              ".pf-new{font-weight:bold}.pf-old{fill:#555}.pf-mk{stroke:#111;stroke-width:1.4;fill:none}"
              ".pf-dl{fill:#111}.pf-cap{fill:#777;font-family:sans-serif}"
              ".pf-ctr{fill:#111;font-family:sans-serif;font-weight:bold}.pf-tab{stroke:#444;fill:none}"),
}

_AREA_LABEL = {"pool": "pool", "mountain": "mountain", "whists": "whists"}


class _Canvas:
    def __init__(self, layout: Layout) -> None:
        self.lay = layout
        self.sx = layout.width
        self.sy = layout.height
        self.m = layout.margin

    def pt(self, p: Point) -> Point:
        return (self.m + p[0] * self.sx, self.m + p[1] * self.sy)

    def box(self, b: Box) -> Tuple[float, float, float, float]:
        """Centre in pixels and the box's length/depth in pixels (along its own writing)."""
        cx, cy = self.pt((b.cx, b.cy))
        if abs(b.angle) % 180 == 90:
            return cx, cy, b.w * self.sy, b.h * self.sx
        return cx, cy, b.w * self.sx, b.h * self.sy


def _wrap(tokens: Sequence[str], w: float, h: float, max_fs: float = 14.0,
          min_fs: float = 6.0) -> Tuple[float, List[List[str]], bool]:
    """Lines of dot-separated tokens that fit a w × h box, shrinking "as a hand would"; at the
    smallest size the oldest values give way to an ellipsis (the newest always show). A leading
    "…" token says older values were left out already."""
    pre_cut = bool(tokens) and tokens[0] == "…"
    if pre_cut:
        tokens = tokens[1:]
    fs = min(max_fs, h * 0.8)
    while True:
        per = max(1, int(w / (fs * 0.6)))
        lines: List[List[str]] = [[]]
        used = 0
        for t in tokens:
            need = len(t) + (1 if lines[-1] else 0)
            if lines[-1] and used + need > per:
                lines.append([])
                used = 0
                need = len(t)
            lines[-1].append(t)
            used += need
        if len(lines) * fs * 1.18 <= h or fs <= min_fs:
            break
        fs = max(min_fs, fs - 0.5)
    cut = False
    fit = max(1, int(h / (fs * 1.18)))
    if len(lines) > fit:
        lines = lines[-fit:]
        cut = True
    if cut or pre_cut:
        lines[0] = ["…"] + lines[0]
    return fs, lines, cut or pre_cut


def _cell_text(canvas: _Canvas, b: Box, values: Sequence[str], cls: str, title: str,
               reserve: float = 0.0) -> str:
    """Running totals in a box; `reserve` keeps that much of the box's outer edge for a caption."""
    cx, cy, w, h = canvas.box(b)
    fs, lines, _ = _wrap(values, w * 0.94, (h - reserve) * 0.92)
    lh = fs * 1.18
    n = len(lines)
    rows = []
    for i, line in enumerate(lines):
        k = i if b.grow > 0 else (n - 1 - i)
        y = -lh * (n - 1) / 2 + k * lh + fs * 0.35 - reserve / 2
        parts = []
        for j, tok in enumerate(line):
            last = i == n - 1 and j == len(line) - 1
            sep = "·" if j else ""
            if tok == "…":
                parts.append(escape(tok))
                continue
            body = escape(tok)
            parts.append(escape(sep) + (f'<tspan class="pf-new">{body}</tspan>' if last else body))
        rows.append(f'<text x="0" y="{num(y)}" text-anchor="middle" font-size="{num(fs)}" class="pf-t">'
                    + "".join(parts) + "</text>")
    return (f'<g class="{cls}" transform="translate({num(cx)} {num(cy)}) rotate({num(b.angle)})">'
            f"<title>{escape(title)}</title>" + "".join(rows) + "</g>")


def caption_size(canvas: _Canvas, b: Box, words: str) -> float:
    cx, cy, w, h = canvas.box(b)
    return min(9.0, max(5.0, w / max(1, len(words)) / 0.62))


def _caption(canvas: _Canvas, b: Box, words: str) -> str:
    cx, cy, w, h = canvas.box(b)
    fs = caption_size(canvas, b, words)
    y = h / 2 - 2
    return (f'<g transform="translate({num(cx)} {num(cy)}) rotate({num(b.angle)})">'
            f'<text x="0" y="{num(y)}" text-anchor="middle" font-size="{num(fs)}" class="pf-cap">{escape(words)}</text></g>')


def _fmt_values(values: Sequence[Fraction]) -> List[str]:
    return [str(format_amount(v)) for v in values]


def _seat_of(layout: Layout, players: Sequence[str]) -> Dict[str, int]:
    return {p: (i + layout.first_slot) % layout.slots for i, p in enumerate(players)}


def _title(what: str, vals: Sequence[Fraction], n: int) -> str:
    shown = _fmt_values(vals[-TITLED:])
    return what + " " + ("… " if n > len(shown) else "") + " · ".join(shown)


def _pieces(src: SheetSource, layout: Layout, fr: Frame, style: str,
            memo: Optional[Dict[str, Tuple[int, str]]] = None) -> List[Tuple[str, str]]:
    """The frame's changing parts as (key, svg) pairs, in drawing order. `memo` keeps each
    cell's drawing by its count of totals (a cell only grows), so stepping costs what changed."""
    memo = {} if memo is None else memo

    def cell(key: str, b: Optional[Box], ckey: Cell, what: str, cls: str) -> None:
        n = fr.lengths.get(ckey, 0)
        if b is None or not n:
            return
        hit = memo.get(key)
        if hit is None or hit[0] != n:
            vals, n = fr.values(ckey, DRAWN)
            hit = (n, _cell_text(canvas, b, (["…"] if n > len(vals) else []) + _fmt_values(vals), cls,
                                 _title(what, vals, n), reserve))
            memo[key] = hit
        out.append((key, hit[1]))

    canvas = _Canvas(layout)
    rules = src.rules
    words = {a: rules.word(a) if hasattr(rules, "word") else a for a in ("pool", "mountain", "whists")}
    seat = _seat_of(layout, src.players)
    reserve = 10.0 if (layout.captions or style == "plain") else 0.0
    out: List[Tuple[str, str]] = []
    for role, b in layout.centre.items():
        value = fr.centre.get(role, "")
        if value:
            cx, cy, w, h = canvas.box(b)
            fs = min(16.0, h * 0.75, w / max(1, len(value)) / 0.62)
            what = {"pool": f"{words['pool']} target", "half": "half-kitty premium",
                    "full": "full-kitty premium", "hour": "the agreed hour"}.get(role, role)
            out.append((f"c:{role}", f'<g transform="translate({num(cx)} {num(cy)}) rotate({num(b.angle)})">'
                        f"<title>{escape(what)}: {escape(value)}</title>"
                        f'<text x="0" y="{num(fs * 0.35)}" text-anchor="middle" font-size="{num(fs)}" '
                        f'class="pf-ctr">{escape(value)}</text></g>'))
    for p in src.players:
        cells = layout.seats[seat[p]]
        nb = cells.get("name")
        if nb is not None:
            out.append((f"n:{p}", _name(canvas, nb, p, fr.dealer == p, fr.dealer_of)))
        for area in ("pool", "mountain"):
            cell(f"{area}:{p}", cells.get(area), (p, area, None), f"{p}: {words[area]}",
                 "pf-p" if area == "pool" else "pf-m")
        pb = cells.get("pool")
        if pb is not None and fr.closed.get(p):
            out.append((f"x:{p}", _closed_mark(canvas, pb, p, words["pool"], layout.closed_mark)))
        for q in src.players:
            if q == p:
                continue
            d = (seat[q] - seat[p]) % layout.slots
            cell(f"w:{p}:{q}", cells.get(f"whists+{d}"), (p, "whists", q), f"{p}: {words['whists']} on {q}", "pf-w")
        eb = cells.get("egles")
        if eb is not None and p in fr.egles:
            out.append((f"e:{p}", _egles(canvas, eb, p, *fr.egles[p])))
        tb = cells.get("eglute")
        if tb is not None and p in fr.eglute:
            out.append((f"t:{p}", _eglute_table(canvas, tb, p, *fr.eglute[p])))
    return out


def _static(src: SheetSource, layout: Layout, style: str) -> str:
    canvas = _Canvas(layout)
    W, H = layout.width + 2 * layout.margin, layout.height + 2 * layout.margin
    parts = [tag("rect", x=0, y=0, width=num(W), height=num(H), class_="pf-bg")]
    x0, y0 = canvas.pt((0, 0))
    parts.append(tag("rect", x=num(x0), y=num(y0), width=num(layout.width), height=num(layout.height),
                     class_="pf-ln"))
    for line in layout.lines:
        parts.append(polyline([canvas.pt(p) for p in line], class_="pf-ln"))
    seat = _seat_of(layout, src.players)
    if layout.captions:
        for p in src.players:
            cells = layout.seats[seat[p]]
            for area in ("pool", "mountain"):
                if area in layout.captions and area in cells:
                    parts.append(_caption(canvas, cells[area], layout.captions[area]))
            for q in src.players:
                if q != p:
                    d = (seat[q] - seat[p]) % layout.slots
                    b = cells.get(f"whists+{d}")
                    if b is not None and "whists" in layout.captions:
                        parts.append(_caption(canvas, b, layout.captions["whists"].format(on=q.upper())))
    elif style == "plain":
        words = {a: src.rules.word(a) for a in ("pool", "mountain", "whists")}
        for p in src.players:
            cells = layout.seats[seat[p]]
            for area in ("pool", "mountain"):
                if area in cells:
                    parts.append(_caption(canvas, cells[area], words[area]))
            for q in src.players:
                if q != p:
                    b = cells.get(f"whists+{(seat[q] - seat[p]) % layout.slots}")
                    if b is not None:
                        parts.append(_caption(canvas, b, f"{words['whists']} on {q}"))
    return "".join(parts)


def _name(canvas: _Canvas, b: Box, player: str, dealer: bool, deal: Optional[int]) -> str:
    cx, cy, w, h = canvas.box(b)
    fs = min(15.0, h * 0.8, w / max(1, len(player) + 2) / 0.62)
    arrow = ""
    title = player
    if dealer:
        # an arrow pointing at the dealer's name, as the paper sheet marks it
        tw = len(player) * fs * 0.6
        ax = -tw / 2 - fs * 0.5
        head, shaft = fs * 0.5, fs * 0.16
        tip = ax
        arrow = (f'<path class="pf-dl" d="M{num(tip - fs * 2)} {num(-shaft)} L{num(tip - head)} {num(-shaft)} '
                 f'L{num(tip - head)} {num(-head)} L{num(tip)} 0 L{num(tip - head)} {num(head)} '
                 f'L{num(tip - head)} {num(shaft)} L{num(tip - fs * 2)} {num(shaft)} Z"/>')
        title = f"{player} deals" + (f" deal {deal}" if deal else "")
    return (f'<g class="pf-name{" pf-dealer" if dealer else ""}" transform="translate({num(cx)} {num(cy)}) '
            f'rotate({num(b.angle)})"><title>{escape(title)}</title>{arrow}'
            f'<text x="0" y="{num(fs * 0.35)}" text-anchor="middle" font-size="{num(fs)}" class="pf-nm">'
            f"{escape(player)}</text></g>")


def _closed_mark(canvas: _Canvas, b: Box, player: str, word: str, mark: str) -> str:
    """The closed pool / complete track: two chevrons pointing to the centre at the box's inner edge."""
    cx, cy, w, h = canvas.box(b)
    s = min(7.0, h * 0.18)
    y = -h / 2 + s * 1.2
    x = w / 2 - s * 3.2
    d = "".join(f"M{num(x + dx - s)} {num(y + s)} L{num(x + dx)} {num(y - s * 0.2)} L{num(x + dx + s)} {num(y + s)}"
                for dx in (0, s * 1.3))
    # "pointing to the centre": in the box's own frame the centre is up (-y)
    return (f'<g class="pf-closed" transform="translate({num(cx)} {num(cy)}) rotate({num(b.angle)})">'
            f"<title>{escape(player)}'s {escape(word)} is closed ({escape(mark)})</title>"
            f'<path class="pf-mk" d="{d}"/></g>')


def _egles(canvas: _Canvas, b: Box, player: str, drawn: int, played: int) -> str:
    """Seed 002's eglė marks: a vertical stroke with one oblique stroke per eglė drawn, and a
    stroke the other way for each eglė played (a little fir tree)."""
    cx, cy, w, h = canvas.box(b)
    n = max(drawn, 1)
    top, bot = -h / 2 + 2, h / 2 - 2
    step = (bot - top) / (n + 1)
    arm = min(w * 0.4, step * 1.6)
    d = [f"M0 {num(top)} L0 {num(bot)}"]
    for i in range(drawn):
        y = top + step * (i + 1)
        d.append(f"M0 {num(y)} L{num(-arm)} {num(y + arm * 0.7)}")
    for i in range(played):
        y = top + step * (i + 1)
        d.append(f"M0 {num(y)} L{num(arm)} {num(y + arm * 0.7)}")
    return (f'<g class="pf-egles" transform="translate({num(cx)} {num(cy)}) rotate({num(b.angle)})">'
            f"<title>{escape(player)}: {drawn - played} of {drawn} eglė(s) still to play</title>"
            f'<path class="pf-mk" d="{" ".join(d)}"/></g>')


def _eglute_table(canvas: _Canvas, b: Box, player: str, top: Sequence[str], bottom: Sequence[str]) -> str:
    """Seed 000's eglutė table: a column per eglutė / declared game, two rows."""
    cx, cy, w, h = canvas.box(b)
    cols = max(4, len(top), len(bottom))
    cw = w / cols
    rh = h / 2
    fs = min(10.0, rh * 0.8, cw * 1.1)
    x0, y0 = -w / 2, -h / 2
    parts = [f'<path class="pf-tab" d="M{num(x0)} {num(y0)} h{num(w)} v{num(h)} h{num(-w)} Z '
             f'M{num(x0)} {num(y0 + rh)} h{num(w)}'
             + "".join(f" M{num(x0 + cw * i)} {num(y0)} v{num(h)}" for i in range(1, cols)) + '"/>']
    for row, vals in ((0, top), (1, bottom)):
        for i, v in enumerate(vals):
            if v:
                parts.append(f'<text x="{num(x0 + cw * (i + 0.5))}" y="{num(y0 + rh * row + rh / 2 + fs * 0.35)}" '
                             f'text-anchor="middle" font-size="{num(fs)}" class="pf-t">{escape(v)}</text>')
    title = (f"{player}'s eglutė table: tricks {' '.join(v or '·' for v in top) or '—'}; "
             f"declared {' '.join(bottom) or '—'}")
    return (f'<g class="pf-eglute" transform="translate({num(cx)} {num(cy)}) rotate({num(b.angle)})">'
            f"<title>{escape(title)}</title>" + "".join(parts) + "</g>")


def _header(layout: Layout, style: str, embed_style: bool, label: str) -> str:
    W, H = layout.width + 2 * layout.margin, layout.height + 2 * layout.margin
    css = f"<style>{STYLE_CSS[style]}</style>" if embed_style else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {num(W)} {num(H)}" '
            f'width="{num(W)}" height="{num(H)}" class="pf-sheet pf-{style}" role="img" '
            f'aria-label={quoteattr(label)}>{css}')


def _label(src: SheetSource, layout: Layout, fr: Frame) -> str:
    what = layout.title
    if src.deals:
        state = f"after deal {fr.deal} of {src.deals}" if fr.deal else "before the first deal"
    else:
        state = "a paper sheet"
    head = f"{src.title}: " if src.title else ""
    return f"{head}{what}, {', '.join(src.players)}, {state}"


def render(src: SheetSource, upto: Optional[int] = None, style: str = "paper", embed_style: bool = True) -> str:
    """The SVG of the sheet after deal `upto` (all deals when None)."""
    layout = layout_for(src.family, len(src.players))
    fr = frames(src, upto, every=False)[-1]
    label = _label(src, layout, fr)
    body = _static(src, layout, style) + "".join(s for _, s in _pieces(src, layout, fr, style))
    return _header(layout, style, embed_style, label) + f"<title>{escape(label)}</title>" + body + "</svg>\n"


def render_drawing(result: Any, style: str = "paper") -> str:
    """The registry's renderer of ``prefcli draw``: an :class:`~prefcli.app.draw.DrawResult` as SVG."""
    return render(result.loaded.source, result.after, style)


def render_steps(src: SheetSource, style: str = "paper", embed_style: bool = True) -> Tuple[str, List[str]]:
    """One SVG for every step 0…N: each changing part is drawn once per run of deals it stays the
    same for, marked ``data-s="FROM-TO"``; parts not shown after the last deal start hidden.
    Returns the SVG and each step's label."""
    layout = layout_for(src.family, len(src.players))
    all_frames = frames(src)
    last = len(all_frames) - 1
    runs: Dict[str, List[List[Any]]] = {}
    order: List[str] = []
    memo: Dict[str, Tuple[int, str]] = {}
    for i, fr in enumerate(all_frames):
        for key, svg in _pieces(src, layout, fr, style, memo):
            if key not in runs:
                runs[key] = []
                order.append(key)
            r = runs[key]
            if r and r[-1][0] == svg and r[-1][2] == i - 1:
                r[-1][2] = i
            else:
                r.append([svg, i, i])
    body = [_static(src, layout, style)]
    for key in order:
        for svg, a, b in runs[key]:
            hidden = "" if a <= last <= b else ' style="display:none"'
            body.append(f'<g data-s="{a}-{b}"{hidden}>{svg}</g>')
    label = _label(src, layout, all_frames[-1])
    labels = [f"{fr.deal}: {fr.label}" if fr.deal else "start" for fr in all_frames]
    return _header(layout, style, embed_style, label) + "".join(body) + "</svg>\n", labels
