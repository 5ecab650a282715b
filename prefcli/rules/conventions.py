"""The rule options the auction, the play and the deal reading need, read once per record.

Every value comes from the resolved :class:`~prefcli.rules.presets.Rules`: an option's value or
the family's fixed value for a rule it does not offer (``Rules.value``). There is no default
here: a family that leaves a rule out is refused when it is registered. No code here looks at the
variant's name.
"""
from __future__ import annotations

from prefcli.model.slots import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from prefcli.model.cards import Contract, ladder
from prefcli.model.records import Deal, Record
from prefcli.rules.presets import Rules
from prefcli.rules.table import filler, options as table_options, start_state

__all__ = ["Conventions", "conventions", "dark_exit_level", "exit_options"]


@dataclass(frozen=True)
class Conventions:
    """The auction, whist and play options of a record's rules (see ``presets/common.py``)."""

    ladder: Tuple[Contract, ...]
    rung: Mapping[Contract, int]
    bid_jumps: bool
    here_rule: str
    misere_binding: bool
    misere_beaten_by: str
    misere_without_talon: str                 # no | below-nine-without-talon | above-nine-without-talon
    opening_bid: str
    auction_order: str
    bomb_min_level: int
    dark: bool
    bomb: bool
    dark_defence: bool
    half_whist: bool
    half_whist_by: str
    half_whist_levels: Tuple[int, ...]
    return_whist: bool
    stalingrad: bool
    takeover: bool                            # a passer or the sitting-out dealer may take over
    takeover_by: str                          # passer-or-dealer | dealer-both-passed (seed 004 l.37)
    both_hands: bool                          # a whister may play both hands (open, or takeover: himself)
    whist_alone: bool
    without_three: bool
    without_all: bool                         # be visų (seed 004 l.200)
    irregularities: bool                      # misdeal, no-discard, revoke (seed 001 l.142)
    whist_unwritten: str                      # both-passed | refused
    misere_defence: str                       # both (always caught by both) | whisters
    quota: Mapping[int, int]                  # the defenders' quota by level (6…10)
    allpass_talon: str
    allpass_exit: Tuple[int, ...]
    allpass_dark_exit: Tuple[int, ...]        # after consecutive dark all-passes (Кодекс 3.7.7)
    tens_checked: bool                        # tens: checked (seed 003 "gra dziesiątki jest sprawdzana")
    misere_partner: bool                      # misère half with the 4-player dealer (Кодекс 3.6.9)
    same_dealer: bool
    seating: Tuple[Tuple[str, Any], ...] = ()   # what the dealer rotation reads (table.options)
    # the two-player game with a dummy (HUSAR.md), read only when the preset has a dummy hand
    dummy: Optional[str] = None               # the dummy's seat name (Preset.dummy)
    hold_right: str = ""                      # husar.hold_right (H6)
    husar_whist: str = ""                     # husar.whist: optional | compulsory (H8)
    dummy_control: str = ""                   # husar.dummy_control: whister | robot (H9)
    first_lead: str = ""                      # husar.first_lead (H10)
    passer_share: str = ""                    # husar.passer_share (H12)
    allpass_dummy: str = ""                   # husar.allpass_dummy: out | robot (H15)

    @property
    def own_takeover(self) -> bool:
        """Whether a lone whister's ``takeover:`` naming himself is read, as his whist from both
        hands, closed (seed 002 "uždaromis", seed 000 "Padėk!"): where the take-over is not only
        the sitting-out dealer's (``takeover_by``) and the family plays both hands
        (:meth:`~prefcli.rules.defence.DefenceReader.takeover_rules` reads it so; convert asks)."""
        return self.both_hands and self.takeover_by != "dealer-both-passed"

    def quota_of(self, contract: Contract, alone: bool = False) -> int:
        """What the defenders must take against `contract` (0 for a misère or an all-pass); a lone
        whister's share is half of it, rounded up."""
        if not contract.is_tricks:
            return 0
        q = self.quota[contract.level or 6]
        return (q + 1) // 2 if alone else q


def conventions(rules: Rules) -> Conventions:
    """Read the options the engine needs from resolved rules."""
    v = rules.value
    lad = ladder(str(v("misere_after")), str(v("misere_without_talon")))
    dummy = getattr(rules.preset, "dummy", None)
    husar: Dict[str, Any] = {}
    allpass_talon = str(v("allpass.talon"))
    half_whist = bool(v("half_whist"))
    if dummy is not None:
        # HUSAR.md H8 (half-whist as an agreement), H15 (the talon stays closed on all-pass)
        half_whist = half_whist and bool(v("husar.half_whist"))
        if v("husar.allpass_talon") == "closed":
            allpass_talon = "unused"
        husar = dict(dummy=dummy, hold_right=str(v("husar.hold_right")), husar_whist=str(v("husar.whist")),
                     dummy_control=str(v("husar.dummy_control")), first_lead=str(v("husar.first_lead")),
                     passer_share=str(v("husar.passer_share")), allpass_dummy=str(v("husar.allpass_dummy")))
    return Conventions(
        ladder=lad,
        rung={c: i for i, c in enumerate(lad)},
        bid_jumps=bool(v("bid_jumps")),
        here_rule=str(v("here_rule")),
        misere_binding=bool(v("misere_binding")),
        misere_beaten_by=str(v("misere_beaten_by")),
        misere_without_talon=str(v("misere_without_talon")),
        opening_bid=str(v("opening_bid")),
        auction_order=str(v("auction_order")),
        bomb_min_level=int(v("bomb_min_level")),
        dark=bool(v("dark")),
        bomb=bool(v("bomb")),
        dark_defence=bool(v("dark_defence")),
        half_whist=half_whist,
        half_whist_by=str(v("half_whist_by")),
        half_whist_levels=tuple(int(x) for x in v("half_whist_levels")),
        return_whist=bool(v("return_whist")),
        stalingrad=bool(v("stalingrad")),
        takeover=bool(v("takeover")),
        takeover_by=str(v("takeover_by")),
        both_hands=bool(v("both_hands")),
        whist_alone=bool(v("whist_alone")),
        without_three=bool(v("without_three")),
        without_all=bool(v("without_all")),
        irregularities=bool(v("irregularities")),
        whist_unwritten=str(v("whist_unwritten")),
        misere_defence=str(v("misere_defence")),
        quota={6: int(v("quota.6")), 7: int(v("quota.7")), 8: int(v("quota.8")), 9: int(v("quota.9")),
               10: int(v("quota.10"))},
        allpass_talon=allpass_talon,
        allpass_exit=tuple(int(x) for x in v("allpass.exit")),
        allpass_dark_exit=tuple(int(x) for x in v("allpass.dark_exit")),
        tens_checked=str(v("tens")) == "checked",
        misere_partner=bool(v("misere_partner")),
        same_dealer=bool(v("allpass.same_dealer")),
        seating=table_options(rules),
        **husar,
    )


def dark_exit_level(conv: Conventions, dark_run: int) -> int:
    """The floor after `dark_run` consecutive dark all-passes (``allpass.dark_exit``, the last
    repeats); 0 when there is none or dark calls are not played."""
    steps = conv.allpass_dark_exit
    if not (conv.dark and steps and dark_run > 0):
        return 0
    return steps[min(dark_run, len(steps)) - 1]


def exit_options(conv: Conventions) -> str:
    """The options an exit level comes from, for messages."""
    return "allpass.exit, allpass.dark_exit" if conv.dark and conv.allpass_dark_exit else "allpass.exit"


def all_pass_runs(record: Record, conv: Conventions) -> Tuple[Dict[int, int], Dict[int, int], Dict[int, int]]:
    """Per deal: the all-passes right before it, the dark ones, its exit level (see :func:`runs`)."""
    return runs(record, conv)[:3]


def runs(record: Record, conv: Conventions,
         new: Callable[[], Any] = dict) -> Tuple[Dict[int, int], Dict[int, int], Dict[int, int], int, int]:
    """Per deal (by pos): the all-pass deals right before it, the dark all-passes right before it
    (a plain all-pass ends a dark run), and so its exit level: ``allpass.exit`` by the first, the
    last step repeating, raised by ``allpass.dark_exit`` by the second (Кодекс 3.7.7: "Выйти из
    распасовки после паса втёмную можно семерной игрой, а из двойной распасовки – восьмерной").
    Adjustments are not deals. A record continued from a sheet starts with the sheet's runs
    (``start.state``: ``allpass_run``, ``dark_run``); the last two values are the runs after the
    record's last deal (what its sheet carries). `new` makes each of the three mappings (a dict;
    the record's facts give a list by position)."""
    before: Dict[int, int] = new()
    darks: Dict[int, int] = new()
    levels: Dict[int, int] = new()
    exits = conv.allpass_exit
    state = start_state(record)                # a game continued from a sheet: the run goes on
    run, dark = (v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0
                 for v in (state.get("allpass_run", 0), state.get("dark_run", 0)))
    put_before, put_dark, put_level = filler(before), filler(darks), filler(levels)
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        pos = entry.pos
        put_before(pos, run)
        put_dark(pos, dark)
        level = exits[min(run, len(exits)) - 1] if run and exits else 0
        put_level(pos, max(level, dark_exit_level(conv, dark)) if dark else level)
        if entry.contract.is_all_pass:
            run += 1
            # (a summary deal's dark all-pass is its dark flag: no call for the auction it has not)
            dark = dark + 1 if entry.dark or (entry.auction is not None and entry.is_dark_allpass) else 0
        else:
            run = dark = 0
    return before, darks, levels, run, dark
