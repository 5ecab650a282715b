"""Rule options the Russian and Lithuanian families define alike, written once.

The rules engine reads the auction options of every family under the same names, so where the
two families mean the same thing by an option it has one definition and its meaning cannot
drift. A family lists a shared option among its own rows (``auction_option("misere_after")``, in
its own order) and keeps its own :class:`Option` where its seeds word a rule differently (who
says "here" or "mine", which seed a default rests on).
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

from prefcli.rules.presets.options import Option, StateField

AUCTION_OPTIONS: Tuple[Option, ...] = (
    Option("misere_after", "choice", "the rung of the ladder the misère sits above", ("8NT", "9NT")),
    Option("opening_bid", "choice",
           "the first bid of an auction: any rung, or only the lowest (seed 000: the first hand may open only 6♠)",
           ("any", "lowest")),
)

#: The table's options, alike in every family: which neighbour of the dealer is "the one waiting
#: his turn" who sits out with him at five (seed 004 l.107 "žaidžiant su penkiais žaidėjais
#: žaidime nedalyvauja du: dalintojas ir laukiantys eilėje"; the seed does not say which side
#: he sits on: prefcli.rules.table.WAITING).
SEATING_OPTIONS: Tuple[Option, ...] = (
    Option("seating.waiting", "choice",
           "with 5 players the dealer and the one waiting his turn sit out (seed 004 l.107 \"dalintojas ir "
           "laukiantys eilėje\"): the one waiting is the next to deal, on the dealer's left (next), or the one "
           "who dealt before, on his right (previous) (inferred)", ("next", "previous"), inferred=True,
           why="seed 004 l.107 names the two who sit out, \"dalintojas ir laukiantys eilėje\" (the dealer and the "
               "one waiting his turn), not the side; the deal passes to the left, so the one waiting for it is the "
               "next dealer, on the dealer's left (issue 13: \"the dealer and the next player\")",
           alternatives=(("previous", "the one who dealt before, on the dealer's right, sits out with him; the "
                                      "hands go to the three on the dealer's left"),)),
)

#: Every preset's value of the seating options (a club's other reading is a --set or a rules row).
SEATING_DEFAULTS: Dict[str, Any] = {"seating.waiting": "next"}

_BY_NAME: Dict[str, Option] = {o.name: o for o in AUCTION_OPTIONS + SEATING_OPTIONS}


def auction_option(name: str) -> Option:
    """The shared definition of auction (or seating) option `name` (KeyError: the families define
    it apart)."""
    return _BY_NAME[name]


#: The rules the rules engine, the table (dealer rotation) and the deal reading read under these
#: names in every family. A family offers each as an option or states its value in
#: :attr:`Family.fixed` (``register_family`` checks it), so no reader keeps a default of its own.
READ_BY_ENGINE: Tuple[str, ...] = (
    # auction
    "misere_after", "bid_jumps", "here_rule", "misere_binding", "misere_beaten_by", "misere_without_talon", "opening_bid",
    "auction_order", "bomb_min_level", "dark", "bomb",
    # whist and defence
    "dark_defence", "half_whist", "half_whist_by", "half_whist_levels", "return_whist", "stalingrad",
    "takeover", "takeover_by", "both_hands", "whist_alone", "without_three", "without_all", "irregularities", "whist_unwritten", "misere_defence", "quota.6", "quota.7", "quota.8",
    "quota.9", "quota.10",
    # play and all-pass
    "allpass.talon", "allpass.exit", "allpass.dark_exit", "tens", "misere_partner",
    # the table's rotation and who sits out
    "seating.waiting", "allpass.same_dealer", "general_egles", "eglutes", "skip_eglute", "bomb_allpass",
    # the record as a whole: the target's divisor, how often each player calls the bomb
    "pool_divisor", "bomb_calls",
)

#: The defenders' quota (Кодекс 3.8.2; seed 001 table; RULES.md §1): the tricks the defenders
#: must take together, by the contract's level. A lone whister's quota is half of it, rounded up
#: (6→2, 7→1, 8+→1), in every family.
QUOTA_DEFAULTS: Dict[str, int] = {"quota.6": 4, "quota.7": 2, "quota.8": 1, "quota.9": 1, "quota.10": 1}


def quota_options(source: str) -> Tuple[Option, ...]:
    """The defenders' quota, one option per level (`source` names where the table is printed)."""
    return tuple(Option(f"quota.{k}", "int", f"tricks the defenders must take together against a {k} ({source}); "
                        "a lone whister answers for half of it, rounded up (6→2, 7→1)")
                 for k in ("6", "7", "8", "9", "10"))


#: What the rules engine reads for a family with no take-over, open play alone, dark defence
#: (the Russian family), and for one without half-whists, Stalingrad, checked tens or exit
#: levels (the Lithuanian families): the value that means "not played".
NO_HALF_WHIST: Dict[str, Any] = {
    "half_whist": False, "half_whist_by": "second", "half_whist_levels": (), "return_whist": False,
    "stalingrad": False, "tens": "whisted", "misere_partner": False, "without_three": False,
    "without_all": False,
    # the seeds of the Lithuanian families state no irregularity (a misdeal, a revoke): refused
    "irregularities": False,
    "allpass.exit": (), "allpass.dark_exit": (),
    # nothing but the ladder (misere_after) outbids a misère
    "misere_beaten_by": "ladder",
    # the seeds of the Lithuanian families bid nothing without the talon
    "misere_without_talon": "no",
    # a contract's whist decisions must be written: there is no "both passed" by silence
    "whist_unwritten": "refused",
    # a misère is caught by those who say whist; when nobody does, it is made without play
    "misere_defence": "whisters",
}

#: Who may take over whisting in the Lithuanian families (seed 002 "Perimu"): a passer from a
#: whister, or the sitting-out 4-player dealer.
TAKEOVER_BY_PASSER_OR_DEALER: Dict[str, Any] = {"takeover_by": "passer-or-dealer"}

#: What a family with no rule on the target's divisor or on how often the bomb is called reads.
ANY_TARGET_ANY_BOMB: Dict[str, Any] = {"pool_divisor": 1, "bomb_calls": "any"}


#: Who deals next: every family's sheet carries it, so a game continued from the sheet goes on
#: round the table where it stopped (the rotation reads it as the first dealer).
DEALER_STATE = StateField(
    "dealer", "game", "seat",
    "who deals the next deal: a record continued from this sheet deals from him (its first_dealer, "
    "when given, must be the same player)")


def leading_state(what: str, option: str) -> StateField:
    """The leading all-passes still to be dealt (general eglės, eglutės): the rotation reads it."""
    return StateField("leading_egles", "game", "count",
                      f"{what} still to be dealt at the start of the game ({option}; 0 once a contract "
                      "has been played)")
