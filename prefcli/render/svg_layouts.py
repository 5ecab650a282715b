"""The paper layouts of the score sheet, as data: for each family and table size one
:class:`Layout` (its lines, the target's place, and for every seat the boxes its player writes
in); square sheets give the bottom seat and are turned for the others. Drawn by
:mod:`prefcli.render.svg`."""
from __future__ import annotations

import math
from dataclasses import field
from typing import Dict, Iterable, Mapping, Tuple

from prefcli.model.slots import dataclass
from prefcli.model.diagnostics import PrefcliError


Point = Tuple[float, float]


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

