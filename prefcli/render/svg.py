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

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple
from xml.sax.saxutils import escape, quoteattr

from prefcli.model.diagnostics import PrefcliError
from prefcli.model.ledger import format_amount
from prefcli.app.sheet import SheetSource, source_of_result, source_of_sheet  # noqa: F401 - re-exported

if TYPE_CHECKING:
    from prefcli.model.cards import Contract
    from prefcli.model.records import Sheet
    from prefcli.rules.presets import Rules

Point = Tuple[float, float]
ZERO = Fraction(0)
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
# Layout tables
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Box:
    """A place to write, in the sheet's unit square: centre, length along the writing, depth
    across it, and the angle that turns the writing to face its player (0 bottom, 90 left, 180
    top, -90 right). `grow` -1 stacks new lines toward the centre (the mountain "grows up")."""

    cx: float
    cy: float
    w: float
    h: float
    angle: float = 0
    grow: int = 1


@dataclass(frozen=True)
class Layout:
    """One paper layout: `slots` seats, `lines` in the unit square (scaled to width × height),
    the `centre` boxes (role → box: ``pool`` the target, …) with their `captions`, each seat's
    boxes, and which slot the first player takes (`first_slot`)."""

    name: str
    title: str
    slots: int
    width: float
    height: float
    lines: Tuple[Tuple[Point, ...], ...]
    seats: Tuple[Mapping[str, Box], ...]
    centre: Mapping[str, Box] = field(default_factory=dict)
    captions: Mapping[str, str] = field(default_factory=dict)      # role → words written on the sheet
    first_slot: int = 0
    closed_mark: str = "»"                                         # the words for the closed mark
    margin: float = 34                                             # room around the drawing (names, tables)
    source: str = ""


def _turn(p: Point, k: int) -> Point:
    """`p` turned k quarter turns clockwise (SVG's y points down) about the centre."""
    x, y = p[0] - 0.5, p[1] - 0.5
    for _ in range(k % 4):
        x, y = -y, x
    return (x + 0.5, y + 0.5)


def square_seats(bottom: Mapping[str, Box], slots: int = 4) -> Tuple[Mapping[str, Box], ...]:
    """The bottom seat's boxes turned for each seat of a square sheet (clockwise: bottom, left, top, right)."""
    out = []
    for k in range(slots):
        seat = {}
        for role, b in bottom.items():
            cx, cy = _turn((b.cx, b.cy), k)
            seat[role] = Box(cx, cy, b.w, b.h, (b.angle + 90 * k + 180) % 360 - 180, b.grow)
        out.append(seat)
    return tuple(out)


def square_lines(bottom_lines: Iterable[Tuple[Point, ...]], slots: int = 4) -> Tuple[Tuple[Point, ...], ...]:
    return tuple(tuple(_turn(p, k) for p in line) for k in range(slots) for line in bottom_lines)


def _turn_by(p: Point, degrees: float) -> Point:
    """`p` turned `degrees` clockwise (SVG's y points down) about the centre."""
    a = math.radians(degrees)
    x, y = p[0] - 0.5, p[1] - 0.5
    return (x * math.cos(a) - y * math.sin(a) + 0.5, x * math.sin(a) + y * math.cos(a) + 0.5)


def turned_seats(bottom: Mapping[str, Box], slots: int) -> Tuple[Mapping[str, Box], ...]:
    """The bottom seat's boxes turned by a `slots`-th of a turn for each seat (clockwise): the
    seats of a regular polygon's sheet."""
    step = 360 / slots
    out = []
    for k in range(slots):
        seat = {}
        for role, b in bottom.items():
            cx, cy = _turn_by((b.cx, b.cy), step * k)
            seat[role] = Box(cx, cy, b.w, b.h, (b.angle + step * k + 180) % 360 - 180, b.grow)
        out.append(seat)
    return tuple(out)


def turned_lines(bottom_lines: Iterable[Tuple[Point, ...]], slots: int) -> Tuple[Tuple[Point, ...], ...]:
    step = 360 / slots
    return tuple(tuple(_turn_by(p, step * k) for p in line) for k in range(slots) for line in bottom_lines)


# Russian 3 players (SHEET-DRAWING.md: PrefAndroid's 3-player lines, eschava's bands): a rectangle,
# the target box in the middle, a spoke up to the top edge and two down to the bottom corners;
# nested U bands: whists outermost (0–.15), pool (.15–.30), mountain (.30–.45) nearest the centre.
_B1, _B2, _C = 0.15, 0.30, 0.45
RUSSIAN_3 = Layout(
    name="russian-3", title="Russian sheet, 3 players", slots=3, width=600, height=480,
    lines=(
        ((0.5, 0.0), (0.5, _C)), ((0.0, 1.0), (_C, 1 - _C)), ((1.0, 1.0), (1 - _C, 1 - _C)),
        ((_B1, 0.0), (_B1, 1 - _B1), (1 - _B1, 1 - _B1), (1 - _B1, 0.0)),
        ((_B2, 0.0), (_B2, 1 - _B2), (1 - _B2, 1 - _B2), (1 - _B2, 0.0)),
        ((0.0, 0.5), (_B1, 0.5)), ((1.0, 0.5), (1 - _B1, 0.5)), ((0.5, 1.0), (0.5, 1 - _B1)),
        ((_C, _C), (1 - _C, _C), (1 - _C, 1 - _C), (_C, 1 - _C), (_C, _C)),
    ),
    seats=(
        {   # bottom: the first player
            "name": Box(0.5, 1.035, 0.6, 0.05),
            "whists+1": Box(0.325, 0.925, 0.33, 0.13), "whists+2": Box(0.675, 0.925, 0.33, 0.13),
            "pool": Box(0.5, 0.775, 0.48, 0.13),
            "mountain": Box(0.5, 0.625, 0.24, 0.13, grow=-1),
        },
        {   # left: the second (clockwise), writing turned +90°
            "name": Box(-0.045, 0.5, 0.6, 0.065, 90),
            "whists+1": Box(0.075, 0.25, 0.46, 0.13, 90), "whists+2": Box(0.075, 0.675, 0.33, 0.13, 90),
            "pool": Box(0.225, 0.36, 0.66, 0.13, 90),
            "mountain": Box(0.4, 0.3, 0.54, 0.16, 90, grow=-1),
        },
        {   # right: the third, writing turned -90°
            "name": Box(1.045, 0.5, 0.6, 0.065, -90),
            "whists+1": Box(0.925, 0.675, 0.33, 0.13, -90), "whists+2": Box(0.925, 0.25, 0.46, 0.13, -90),
            "pool": Box(0.775, 0.36, 0.66, 0.13, -90),
            "mountain": Box(0.6, 0.3, 0.54, 0.16, -90, grow=-1),
        },
    ),
    centre={"pool": Box(0.5, 0.5, 0.09, 0.08)},
    closed_mark=">>",
    margin=40,
    source="SHEET-DRAWING.md (PrefAndroid's 3-player lines, eschava's bands)",
)

# Russian 4 players: a square cut by its diagonals, the target square in the middle; bands
# whists 0–.15 (three boxes), pool .15–.25, mountain .25–.45.
_RU4_BOTTOM = {
    "name": Box(0.5, 1.035, 0.6, 0.05),
    "whists+1": Box(0.25, 0.925, 0.3, 0.13), "whists+2": Box(0.5, 0.925, 0.2, 0.13),
    "whists+3": Box(0.75, 0.925, 0.3, 0.13),
    "pool": Box(0.5, 0.8, 0.56, 0.085),
    "mountain": Box(0.5, 0.655, 0.4, 0.17, grow=-1),
}
RUSSIAN_4 = Layout(
    name="russian-4", title="Russian sheet, 4 players", slots=4, width=560, height=560,
    lines=square_lines([((0.0, 1.0), (0.45, 0.55)),
                        ((0.15, 0.85), (0.85, 0.85)), ((0.25, 0.75), (0.75, 0.75)),
                        ((0.45, 0.55), (0.55, 0.55)),
                        ((1 / 3, 1.0), (1 / 3, 0.85)), ((2 / 3, 1.0), (2 / 3, 0.85))]),
    seats=square_seats(_RU4_BOTTOM),
    centre={"pool": Box(0.5, 0.5, 0.09, 0.08)},
    closed_mark=">>",
    source="SHEET-DRAWING.md (PrefAndroid's 4-player lines)",
)

# Lithuanian classical (seed 002, "1 lentelė"; 3 players: "10 lentelė" is the same sheet with one
# seat's cells left out): the rhombus with the target in the centre; the diagonals crossing there
# are the tracks (N1…); outside each track the player's hill of hens (N2, a triangle cut by the
# diagonals), the eglė strokes under it, and the pair columns (NE, NS, NW) along the edge.
# N sits at the top, as in the seed's figure.
_LT_BOTTOM = {
    "name": Box(0.5, 1.035, 0.6, 0.05),
    "whists+1": Box(0.23, 0.93, 0.25, 0.12), "whists+2": Box(0.5, 0.93, 0.25, 0.12),
    "whists+3": Box(0.77, 0.93, 0.25, 0.12),
    "mountain": Box(0.46, 0.79, 0.4, 0.13, grow=-1),
    "egles": Box(0.71, 0.79, 0.07, 0.12),
    "pool": Box(0.5, 0.655, 0.24, 0.12),
}
LITHUANIAN_4 = Layout(
    name="lithuanian-4", title="Lithuanian sheet (seed 002, 1 lentelė)", slots=4, width=560, height=560,
    lines=square_lines([((0.0, 1.0), (0.5, 0.5)),
                        ((0.14, 0.86), (0.86, 0.86)), ((0.28, 0.72), (0.72, 0.72)),
                        ((0.5, 0.41), (0.59, 0.5)),
                        ((0.365, 1.0), (0.365, 0.86)), ((0.635, 1.0), (0.635, 0.86))]),
    seats=square_seats(_LT_BOTTOM),
    centre={"pool": Box(0.5, 0.5, 0.1, 0.07)},
    first_slot=2,
    closed_mark="››",
    source="seed 002 (1 lentelė, 2 lentelė, 10 lentelė)",
)

# Lithuanian eglutė and kitty (seed 000's sheet): four triangles in the centre (the kitty, the
# half- and full-kitty premiums, the agreed hour), then per player the "katilo taškai" trapezoid,
# the "vištos" trapezoid and the "iš X pelnyti vistai" triangles along the edge; each player's
# eglutė table sits in a corner, outside the drawing.
_KT_BOTTOM = {
    "name": Box(0.5, 1.035, 0.6, 0.05),
    "eglute": Box(0.15, 1.075, 0.27, 0.07),
    "whists+1": Box(0.23, 0.925, 0.25, 0.13), "whists+2": Box(0.5, 0.925, 0.22, 0.13),
    "whists+3": Box(0.77, 0.925, 0.25, 0.13),
    "mountain": Box(0.5, 0.78, 0.46, 0.12, grow=-1),
    "pool": Box(0.5, 0.655, 0.24, 0.11),
}
KITTY_4 = Layout(
    name="kitty-4", title="Lithuanian eglutė and kitty sheet (seed 000)", slots=4, width=560, height=560,
    lines=square_lines([((0.0, 1.0), (0.5, 0.5)),
                        ((0.15, 0.85), (0.85, 0.85)), ((0.29, 0.71), (0.71, 0.71)),
                        ((0.4, 0.6), (0.6, 0.6)),
                        ((0.375, 1.0), (0.375, 0.85)), ((0.625, 1.0), (0.625, 0.85))]),
    seats=square_seats(_KT_BOTTOM),
    centre={"pool": Box(0.5, 0.555, 0.1, 0.05), "half": Box(0.445, 0.5, 0.1, 0.05, 90),
            "full": Box(0.555, 0.5, 0.1, 0.05, -90), "hour": Box(0.5, 0.445, 0.1, 0.05, 180)},
    captions={"pool": "KATILO TAŠKAI", "mountain": "VIŠTOS", "whists": "IŠ {on} PELNYTI VISTAI"},
    first_slot=2,
    closed_mark="››",
    margin=72,
    source="seed 000 (the sheet's figure and the eglutė table)",
)

# Russian 5 players (no paper source draws one: SHEET-DRAWING.md's recipe, "one table per n",
# carried to n = 5): the 4-player square's plan on a regular pentagon, flat edge at the bottom,
# cut by spokes from its corners to the target pentagon in the middle; per seat, from the edge
# in, the whists band (four boxes, one per opponent, clockwise from the left), the pool band and
# the mountain band. The seats are the bottom seat's boxes turned by 72° clockwise each.
_P5_R = 0.5                                              # the corners' distance from the centre
_P5_A = _P5_R * math.cos(math.pi / 5)                    # the edges' distance (apothem)
_P5_T = math.tan(math.pi / 5)                            # half an edge per unit of distance in
_P5_W, _P5_P, _P5_C = 0.285, 0.17, 0.05                  # band edges: whists | pool | mountain | centre


def _p5(d: float, x: float = 0.0) -> Point:
    """The point `d` from the centre towards the bottom edge, `x` across (the bottom seat's side)."""
    return (0.5 + x, 0.5 + d)


def _band(d: float) -> Tuple[Point, ...]:
    """The bottom seat's line across its wedge, `d` from the centre, spoke to spoke."""
    return (_p5(d, -d * _P5_T), _p5(d, d * _P5_T))


_RU5_BOTTOM = {
    "name": Box(0.5, 0.5 + _P5_A + 0.035, 0.5, 0.05),
    "whists+1": Box(0.5 - 0.19, 0.5 + (_P5_A + _P5_W) / 2, 0.11, 0.1),
    "whists+2": Box(0.5 - 0.0625, 0.5 + (_P5_A + _P5_W) / 2, 0.115, 0.1),
    "whists+3": Box(0.5 + 0.0625, 0.5 + (_P5_A + _P5_W) / 2, 0.115, 0.1),
    "whists+4": Box(0.5 + 0.19, 0.5 + (_P5_A + _P5_W) / 2, 0.11, 0.1),
    "pool": Box(0.5, 0.5 + (_P5_W + _P5_P) / 2, 0.26, 0.09),
    "mountain": Box(0.5, 0.5 + (_P5_P + _P5_C) / 2 + 0.005, 0.16, 0.1, grow=-1),
}
RUSSIAN_5 = Layout(
    name="russian-5", title="Russian sheet, 5 players", slots=5, width=600, height=600,
    lines=turned_lines([(_p5(_P5_A, -_P5_A * _P5_T), _p5(_P5_A, _P5_A * _P5_T)),     # the edge
                        (_p5(_P5_A, -_P5_A * _P5_T), _p5(_P5_C, -_P5_C * _P5_T)),     # the spoke
                        _band(_P5_W), _band(_P5_P), _band(_P5_C),
                        (_p5(_P5_A, -0.125), _p5(_P5_W, -0.125)), (_p5(_P5_A, 0.0), _p5(_P5_W, 0.0)),
                        (_p5(_P5_A, 0.125), _p5(_P5_W, 0.125))], 5),
    seats=turned_seats(_RU5_BOTTOM, 5),
    centre={"pool": Box(0.5, 0.5, 0.08, 0.06)},
    closed_mark=">>",
    source="SHEET-DRAWING.md (the recipe: one table per n; the 4-player sheet's bands on a pentagon)",
)

# Lithuanian classical, 5 players: seed 002's sheet carried to a pentagon as the Russian one is
# (no seed draws five): per seat from the edge in, the pair columns (one per opponent), the hill
# of hens with the eglė strokes beside it, the track nearest the target.
_LT5_BOTTOM = {
    "name": _RU5_BOTTOM["name"],
    **{k: v for k, v in _RU5_BOTTOM.items() if k.startswith("whists+")},
    "mountain": Box(0.5 - 0.035, 0.5 + (_P5_W + _P5_P) / 2, 0.2, 0.09, grow=-1),
    "egles": Box(0.5 + 0.115, 0.5 + (_P5_W + _P5_P) / 2, 0.05, 0.08),
    "pool": Box(0.5, 0.5 + (_P5_P + _P5_C) / 2 + 0.005, 0.16, 0.09),
}
LITHUANIAN_5 = Layout(
    name="lithuanian-5", title="Lithuanian sheet, 5 players (seed 002's cells on a pentagon)", slots=5,
    width=600, height=600, lines=RUSSIAN_5.lines, seats=turned_seats(_LT5_BOTTOM, 5),
    centre={"pool": Box(0.5, 0.5, 0.08, 0.06)},
    closed_mark="››",
    source="seed 002 (1 lentelė's cells), SHEET-DRAWING.md's recipe on a pentagon",
)

# Lithuanian eglutė and kitty, 5 players: seed 000's cells on a pentagon; a larger centre holds
# its four triangles' numbers (kitty, half and full premiums, the hour); each player's eglutė
# table sits outside his edge, by its left corner.
_KT5_C = 0.12
_KT5_BOTTOM = {
    "name": Box(0.5 + 0.1, 0.5 + _P5_A + 0.035, 0.3, 0.05),
    "eglute": Box(0.5 - 0.17, 0.5 + _P5_A + 0.05, 0.22, 0.07),
    **{k: v for k, v in _RU5_BOTTOM.items() if k.startswith("whists+")},
    "mountain": Box(0.5, 0.5 + (_P5_W + 0.2) / 2, 0.27, 0.075, grow=-1),
    "pool": Box(0.5, 0.5 + (0.2 + _KT5_C) / 2, 0.2, 0.07),
}
KITTY_5 = Layout(
    name="kitty-5", title="Lithuanian eglutė and kitty sheet, 5 players (seed 000's cells on a pentagon)", slots=5,
    width=600, height=600,
    lines=turned_lines([(_p5(_P5_A, -_P5_A * _P5_T), _p5(_P5_A, _P5_A * _P5_T)),
                        (_p5(_P5_A, -_P5_A * _P5_T), _p5(_KT5_C, -_KT5_C * _P5_T)),
                        _band(_P5_W), _band(0.2), _band(_KT5_C),
                        (_p5(_P5_A, -0.125), _p5(_P5_W, -0.125)), (_p5(_P5_A, 0.0), _p5(_P5_W, 0.0)),
                        (_p5(_P5_A, 0.125), _p5(_P5_W, 0.125))], 5),
    seats=turned_seats(_KT5_BOTTOM, 5),
    centre={"pool": Box(0.5, 0.55, 0.09, 0.04), "half": Box(0.45, 0.5, 0.08, 0.04, 90),
            "full": Box(0.55, 0.5, 0.08, 0.04, -90), "hour": Box(0.5, 0.45, 0.09, 0.04, 180)},
    captions=KITTY_4.captions,
    closed_mark="››",
    margin=72,
    source="seed 000 (the sheet's cells and the eglutė table), SHEET-DRAWING.md's recipe on a pentagon",
)

# Russian 2 players (the husar, HUSAR.md H16, inferred: no source draws it): a rectangle split in
# two halves, each player's bands from the edge inwards, whists (one column, on the opponent),
# pool, mountain, the target box in the middle; the second player's half is the first's turned
# half a turn. The dummy has no sector.
_RU2_BOTTOM = {
    "name": Box(0.5, 1.045, 0.6, 0.06),
    "whists+1": Box(0.5, 0.925, 0.9, 0.13),
    "pool": Box(0.5, 0.775, 0.9, 0.13),
    "mountain": Box(0.5, 0.625, 0.8, 0.13, grow=-1),
}


def _half_turned(seat: Mapping[str, Box]) -> Mapping[str, Box]:
    out = {}
    for role, b in seat.items():
        cx, cy = _turn((b.cx, b.cy), 2)
        out[role] = Box(cx, cy, b.w, b.h, (b.angle + 180 + 180) % 360 - 180, b.grow)
    return out


RUSSIAN_2 = Layout(
    name="russian-2", title="Russian sheet, 2 players (husar)", slots=2, width=560, height=420,
    lines=(
        ((0.0, 0.5), (0.45, 0.5)), ((0.55, 0.5), (1.0, 0.5)),
        ((0.0, 0.85), (1.0, 0.85)), ((0.0, 0.7), (1.0, 0.7)),
        ((0.0, 0.15), (1.0, 0.15)), ((0.0, 0.3), (1.0, 0.3)),
        ((0.45, 0.45), (0.55, 0.45), (0.55, 0.55), (0.45, 0.55), (0.45, 0.45)),
    ),
    seats=(_RU2_BOTTOM, _half_turned(_RU2_BOTTOM)),
    centre={"pool": Box(0.5, 0.5, 0.09, 0.08)},
    closed_mark=">>",
    margin=40,
    source="HUSAR.md H16 (two sectors, one whist column; inferred: no source draws the sheet)",
)

#: (family, players) → layout.
LAYOUTS: Dict[Tuple[str, int], Layout] = {
    ("russian", 3): RUSSIAN_3,
    ("russian", 4): RUSSIAN_4,
    ("russian", 5): RUSSIAN_5,
    ("russian-husar", 2): RUSSIAN_2,
    ("lithuanian", 3): LITHUANIAN_4,
    ("lithuanian", 4): LITHUANIAN_4,
    ("lithuanian", 5): LITHUANIAN_5,
    ("lithuanian-kitty", 3): KITTY_4,
    ("lithuanian-kitty", 4): KITTY_4,
    ("lithuanian-kitty", 5): KITTY_5,
}


class DrawError(PrefcliError):
    """Nothing to draw the sheet with (no layout for this family and table size)."""


def layout_for(family: str, players: int) -> Layout:
    try:
        return LAYOUTS[(family, players)]
    except KeyError:
        sizes = sorted(n for f, n in LAYOUTS if f == family)
        have = f" (this family has layouts for {', '.join(map(str, sizes))} players)" if sizes else ""
        raise DrawError(f"no paper sheet layout for {players} players of the {family} family{have}",
                        ("players",)) from None


# ---------------------------------------------------------------------------------------------
# What the sheet shows after a deal
# ---------------------------------------------------------------------------------------------

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
