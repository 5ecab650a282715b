"""The Lithuanian families: classical "kleboniškasis" (seed 002) and "eglutė and kitty" (seed 000).

Values the seeds state are defaults; rows the seeds leave out are marked (inferred) in their
meaning and stay overridable (RULES.md §3–§4).
"""
from __future__ import annotations

from . import Family, Option, Preset, register_family, register_preset

_AUCTION = (
    Option("misere_after", "choice", "the rung of the ladder the misère sits above", ("8NT", "9NT")),
    Option("bid_jumps", "bool", "a bid may skip rungs"),
)

CLASSICAL = register_family(Family(
    name="lithuanian",
    options=_AUCTION,
    scorer="prefcli.scoring.lithuanian:score_record",
    words={"pool": "track", "mountain": "hens", "whists": "whists"},
))

KITTY = register_family(Family(
    name="lithuanian-kitty",
    options=_AUCTION,
    scorer="prefcli.scoring.kitty:score_record",
    words={"pool": "kitty", "mountain": "hens", "whists": "whists"},
))

_COMMON = {"price": None, "coin": "0.01", "rounding": "exact"}

register_preset(Preset("lithuanian", CLASSICAL, "Lithuanian classical (kleboniškasis, seed 002)",
                       "track, mountain of hens, eglės, write-up, talon bonus",
                       {**_COMMON, "pool": 120, "method": "lithuanian", "misere_after": "9NT", "bid_jumps": True}))
register_preset(Preset("lithuanian-kitty", KITTY, "Lithuanian eglutė and kitty (seed 000)",
                       "kitty, eglutė deals, halving beyond one's rights, strict one-rung auction",
                       {**_COMMON, "pool": 60, "method": "lithuanian-kitty", "misere_after": "9NT", "bid_jumps": False}))
