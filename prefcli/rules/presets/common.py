"""Rule options the Russian and Lithuanian families define alike, written once.

The rules engine reads the auction options of every family under the same names, so where the
two families mean the same thing by an option it has one definition and its meaning cannot
drift. A family lists a shared option among its own rows (``auction_option("misere_after")``, in
its own order) and keeps its own :class:`Option` where its seeds word a rule differently (who
says "here" or "mine", which seed a default rests on).
"""
from __future__ import annotations

from typing import Dict, Tuple

from prefcli.rules.presets import Option

AUCTION_OPTIONS: Tuple[Option, ...] = (
    Option("misere_after", "choice", "the rung of the ladder the misère sits above", ("8NT", "9NT")),
    Option("opening_bid", "choice",
           "the first bid of an auction: any rung, or only the lowest (seed 000: the first hand may open only 6♠)",
           ("any", "lowest")),
)

_BY_NAME: Dict[str, Option] = {o.name: o for o in AUCTION_OPTIONS}


def auction_option(name: str) -> Option:
    """The shared definition of auction option `name` (KeyError: the families define it apart)."""
    return _BY_NAME[name]
