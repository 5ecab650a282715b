"""Every option of every preset does something (issue 10): flipping its value changes the outcome
of at least one record, or the auctions the rules allow.

The outcome of a record under a rules block is what the commands answer: validate's problems (so
an option that makes a record illegal shows), else the scored ledger, the settlement's net and
notes, who dealt each deal and what the scorer knows of the game's state (its eglutės, bombs…). The records are the examples, the regression cases, records the
benchmark generator makes under the preset (summary and full deals, every table size the preset
is played by; it deals no dummy hand), the Russian scoring cases of
``test_scoring_russian_options.py`` (each with its base rules), the few records below for what
none of those plays, and for the two-player husar presets the records of ``tests/examples/husar/``
(each written for the HUSAR.md rule its comments name, its own rules the base). The auctions are the call
sequences the auction machine allows from the first hand (plain, after an all-pass, after a bomb,
after a dark all-pass) up to five calls, each call of every kind and the two lowest bids, and the
calls allowed at every step of an auction where each bid is raised as low as it may go (or held:
"here").

An option flipped to each of its other values (a choice's other choices, a number ±1, a list
changed) that changes none of them is a failure: it is read nowhere that matters, or the corpus
misses what it governs, and either is worth knowing. This replaces a test that only searched the
source for the option's name. An option marked informational (kept with the record, read by no
rule: ``husar.dummy_in_auction``, HUSAR.md H5) must change nothing, and ``prefcli variants`` says
why.
"""
from __future__ import annotations

import dataclasses
import sys
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Tuple

import pytest

from prefcli.io.documents import build_record, load_document
from prefcli.model.records import Deal, Record
from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.rules.presets import OptionError, get_preset, preset_names, resolve_rules
from prefcli.scoring import score
from prefcli.settle import settle_sheet

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402
from test_scoring_russian_options import CASES as RUSSIAN_CASES  # noqa: E402

W, PS = "whist", "pass"
NESW = ["N", "E", "S", "W"]

#: Records for what the examples, the generator and the Russian cases do not play: (players,
#: base rules, deals). Each names the option it was written for.
EXTRA: List[Tuple[str, List[str], Dict[str, Any], List[Dict[str, Any]]]] = [
    # a lone whister plays alone or with the passer's cards (seed 002)
    ("whist_alone", NESW[:3], {}, [{"contract": "7S", "declarer": "N", "whist": {"E": W, "S": PS},
                                   "open": True, "tricks": {"N": 7, "E": 2, "S": 1}}]),
    # a misère made against two catchers: each writes the row, or they share it (seed 000 l.203, seed 002 l.155)
    ("misere_catchers", NESW[:3], {}, [{"contract": "misere", "declarer": "N", "whist": {"E": W, "S": W},
                                       "tricks": {"N": 0, "E": 5, "S": 5}}]),
    # a dark 6 must be whisted by both (seed 002)
    ("dark_defence", NESW[:3], {}, [{"contract": "6S", "declarer": "N", "dark": True,
                                    "whist": {"E": W, "S": PS}, "tricks": {"N": 6, "E": 3, "S": 1}}]),
    # 8–10 whisted by both who take nothing: the shortfall (quota 1)
    ("shortfall_8_10", NESW[:3], {}, [{"contract": "8S", "declarer": "N", "whist": {"E": W, "S": W},
                                      "tricks": {"N": 10, "E": 0, "S": 0}}]),
    ("shortfall.9", NESW[:3], {}, [{"contract": "9S", "declarer": "N", "whist": {"E": W, "S": PS},
                                   "tricks": {"N": 10, "E": 0, "S": 0}}]),
    ("shortfall.10", NESW[:3], {}, [{"contract": "10S", "declarer": "N", "whist": {"E": W, "S": PS},
                                    "tricks": {"N": 10, "E": 0, "S": 0}}]),
    ("quota.10", NESW[:3], {}, [{"contract": "10S", "declarer": "N", "whist": {"E": W, "S": PS},
                                "tricks": {"N": 9, "E": 1, "S": 0}}]),
    ("quota.9", NESW[:3], {}, [{"contract": "9S", "declarer": "N", "whist": {"E": W, "S": PS},
                               "tricks": {"N": 9, "E": 1, "S": 0}}]),
    # a second bomb by the same player (seed 002 l.297), and the eglė after a bomb
    ("bomb_calls", NESW[:3], {"pool": 150}, [
        {"contract": "all-pass", "bomb": "E", "tricks": {"N": 3, "E": 3, "S": 4}},
        {"contract": "7S", "declarer": "E", "whist": {"S": PS, "N": PS}},
        {"contract": "all-pass", "bomb": "E", "tricks": {"N": 3, "E": 3, "S": 4}}]),
    # a target that does not divide by three (seed 002 l.27)
    ("pool_divisor", NESW[:3], {"pool": 100}, [{"contract": "6S", "declarer": "N", "whist": {"E": PS, "S": PS}}]),
    # a lone whister, closed (seed 002: he plays alone, the passer's cards put away, or not at all)
    ("whist_alone", NESW[:3], {}, [{"contract": "7S", "declarer": "N", "whist": {"E": W, "S": PS},
                                   "tricks": {"N": 7, "E": 2, "S": 1}}]),
    # an all-pass with a bomb after the leading general eglės: a general eglė or a mandatory one
    ("bomb_allpass", NESW[:3], {"pool": 150}, [
        {"contract": "all-pass", "tricks": {"N": 3, "E": 3, "S": 4}},
        {"contract": "all-pass", "tricks": {"N": 3, "E": 3, "S": 4}},
        {"contract": "all-pass", "tricks": {"N": 3, "E": 3, "S": 4}},
        {"contract": "6S", "declarer": "N", "whist": {"E": PS, "S": PS}},
        {"contract": "all-pass", "bomb": "S", "tricks": {"N": 3, "E": 3, "S": 4}},
        {"contract": "7S", "declarer": "S", "whist": {"N": PS, "E": PS}}]),
    # a track completed: the kitty premium (agreed: 10), in hens or in whists
    ("kitty_premium_form", NESW[:3], {"pool": 6, "kitty_premium": 10},
     [{"contract": "6S", "declarer": "N", "whist": {"E": PS, "S": PS}}]),
    # a lone whister playing alone: two cards a trick, the passer's hand put away (seed 002)
    ("whist_alone", NESW[:3], {"first_dealer": "S"}, [{
        "hands": {"N": "AS KS QS JS 10S 9S 8S 7S AH KH", "E": "AC KC QC JC 10C 9C 8C 7C AD KD",
                  "S": "QD JD 10D 9D 8D 7D QH JH 10H 9H"},
        "talon": "8H 7H", "discard": "8H 7H", "contract": "7S", "declarer": "N", "whist": {"E": W, "S": PS},
        "play": ["AS 7C", "KS 8C", "QS 9C", "JS 10C", "10S JC", "9S QC", "8S KC", "7S AC", "AH KD", "KH AD"]}]),
    # the leading eglutės (seed 000): as many as players, or another number; skipped for hens
    ("eglutes", NESW[:3], {}, [{"contract": "all-pass", "tricks": {"N": 3, "E": 3, "S": 4}}] * 4
     + [{"contract": "6S", "declarer": "N", "whist": {"E": PS, "S": PS}}]),
    ("skip_eglute_hens", NESW[:3], {"skip_eglute": True}, [{"contract": "6S", "declarer": "N",
                                                           "whist": {"E": PS, "S": PS}}]),
    # Russian rules that matter only beside another value: dark all-passes (dark: yes), help
    # (help: larger), the pools' value at settlement (no Leningrad overs), the all-pass progression
    # and amnesty (scored on the mountain)
    ("allpass.dark_exit", ["A", "B", "C"], {"dark": True}, [
        {"contract": "all-pass", "dark": True, "tricks": {"A": 3, "B": 3, "C": 4}},
        {"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": PS}}]),
    ("help_tie", ["A", "B", "C"], {"help": "larger", "start": {"pool": {"A": 12, "B": 19, "C": 12}}},
     [{"contract": "6S", "declarer": "B", "whist": {"C": PS, "A": PS}}]),
    ("help_whists", ["A", "B", "C"], {"help": "larger", "start": {"pool": {"A": 19, "B": 10, "C": 15}}},
     [{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}]),
    ("pool_point_whists", ["A", "B", "C"], {"leningrad_overs": False},
     [{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}]),
    # the 4-player dealer's talon bonus for a talon of two aces (seed 002 l.137 or the Кодекс)
    ("talon_two_aces", NESW, {"first_dealer": "W"}, [{"contract": "6S", "declarer": "N", "whist": {"E": PS, "S": PS},
                                                     "talon": "AS AH"}]),
    ("allpass.amnesty", ["A", "B", "C"], {"allpass.scoring": "mountain", "allpass.progression": [1, 2, 3]}, [
        {"contract": "all-pass", "tricks": {"A": 2, "B": 3, "C": 5}},
        {"contract": "6S", "declarer": "A", "whist": {"B": W, "C": W}, "tricks": {"A": 6, "B": 2, "C": 2}},
        {"contract": "all-pass", "tricks": {"A": 2, "B": 3, "C": 5}}]),
    ("end", ["A", "B", "C"], {"pool": 10, "start": {"pool": {"A": 12, "B": 12, "C": 4}}},
     [{"contract": "6S", "declarer": "C", "whist": {"A": PS, "B": PS}}]),
]


#: Options read only beside another value of another option: there the flip is tried (the
#: auctions and every record under these values too).
BESIDE: Dict[str, Dict[str, Any]] = {
    # a pairs auction (lithuanian-kitty, seed 000) names the senior of each contest, who alone
    # says "mine"; here_rule says who may in a clockwise one
    "here_rule": {"auction_order": "clockwise"},
}


# ---------------------------------------------------------------------------------------------
# The corpus
# ---------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Item:
    name: str
    record: Record
    base: Tuple[Tuple[str, Any], ...] = ()          # rules under every preset (a case's own)
    family: Optional[str] = None                    # only under this family's presets

    def rules(self, variant: str, extra: Dict[str, Any]) -> Dict[str, Any]:
        return {**dict(self.base), "variant": variant, **extra}


def _files() -> List[Item]:
    out = []
    paths = sorted((ROOT / "examples").rglob("*.yaml")) + sorted((HERE / "examples" / "regressions").glob("*.yaml"))
    for p in paths:
        doc = load_document(str(p))
        if doc.kind != "record":
            continue
        try:
            rec = build_record(doc)
        except Exception:          # a regression case that is refused as it is read
            continue
        pool = rec.rules.get("pool")
        out.append(Item(p.name, rec, (("pool", pool),) if pool is not None else ()))
    return out


#: Two-player records (husar, HUSAR.md) written for the options the example does not play, each
#: with the rule it shows named in its comments; their own rules are the base rules.
HUSAR_RECORDS = HERE / "examples" / "husar"


def _husar_files() -> List[Item]:
    out = []
    for p in sorted(HUSAR_RECORDS.glob("*.yaml")):
        rec = build_record(load_document(str(p)))
        base = tuple((k, v) for k, v in rec.rules.items() if k != "variant")
        out.append(Item(f"husar {p.name}", rec, base, "russian-husar"))
    return out


def _record(players: Sequence[str], deals: List[Dict[str, Any]], first_dealer: Optional[str] = None,
            **top: Any) -> Record:
    data: Dict[str, Any] = {"format": "pref-record/1", "players": list(players), "rules": {"variant": "sochi"},
                            "deals": deals, **top}
    if first_dealer or len(players) > 3:
        data["first_dealer"] = first_dealer or players[0]
    return record_from_data(data, strict=True)


def _cases() -> List[Item]:
    out = []
    for case in RUSSIAN_CASES:
        rules = dict(case.get("rules", {}))
        top = {k: rules.pop(k) for k in ("start", "end") if k in rules}
        players = case.get("players", ["A", "B", "C"])
        out.append(Item(f"case {case['option']}", _record(players, case["deals"], **top),
                        tuple(rules.items()), "russian"))
    for option, players, rules, deals in EXTRA:
        rules = dict(rules)
        top = {k: rules.pop(k) for k in ("start", "end", "first_dealer") if k in rules}
        out.append(Item(f"extra {option}", _record(players, deals, **top), tuple(rules.items())))
    return out


@lru_cache(maxsize=None)
def corpus(variant: str) -> Tuple[Item, ...]:
    preset = get_preset(variant)
    items = [i for i in _files() + _cases() + _husar_files() if len(i.record.players) in preset.players
             and (i.family is None or i.family == preset.family.name)]
    for n in preset.players if preset.dummy is None else ():   # the generator deals no dummy hand
        for full, deals in ((False, 60), (True, 4)):
            data = generate(deals, full=full, players=n, variant=variant, seed=7)
            items.append(Item(f"generated {n}p {'full' if full else 'summary'}",
                              record_from_data(data, strict=True), tuple(data["rules"].items())))
    # the cheap ones first: a summary record is scored in a millisecond, a full one replayed
    return tuple(sorted(items, key=lambda i: any(isinstance(d, Deal) and d.hands is not None
                                                 for d in i.record.deals)))


def outcome(item: Item, rules: Dict[str, Any]) -> Any:
    record = dataclasses.replace(item.record, rules=rules)
    problems = check_record(record)
    if problems:
        return ("refused", tuple(p.message for p in problems))
    result = score(record)
    settled = settle_sheet(result.sheet(), result.rules)
    return ("scored", tuple((e.deal, e.player, e.area, e.on, e.amount, e.rule) for e in result.ledger.entries),
            tuple(sorted(settled.net.items())), settled.notes, tuple(sorted(result.dealers.items())),
            tuple(result.notes), result.finished, repr(result.extra))


# ---------------------------------------------------------------------------------------------
# The auctions the rules allow
# ---------------------------------------------------------------------------------------------

DEPTH = 5


def auctions(rules: Dict[str, Any]) -> Tuple[FrozenSet[Tuple[str, ...]], ...]:
    from prefcli.rules.engine import Auction, conventions
    conv = conventions(resolve_rules(rules))
    seats = ["A", "B", "C"]
    out = []
    for kw in ({}, {"min_level": 7}, {"bomb": True}, {"dark_run": 1}):
        seen = set()

        def walk(calls: List[Any]) -> None:
            a = Auction(conv, seats, **kw)
            for c in calls:
                a.apply(c)
            seen.add(tuple(str(c) for c in calls) + (("end", str(a.result().bid)) if a.done else ()))
            if a.done or len(calls) >= DEPTH:
                return
            bids = 0
            for c in a.legal_calls():        # every kind of call, and the two lowest bids
                if str(c).split()[-1][:1].isdigit():
                    bids += 1
                    if bids > 2:
                        continue
                walk(calls + [c])
        walk([])
        # and higher: every bid raised as low as it may go (or held), the calls allowed at each
        # step, from the first hand and after he passed
        for opening in ((), ("pass",)):
            a = Auction(conv, seats, **kw)
            for call in opening:
                a.apply(next(c for c in a.legal_calls() if str(c) == call))
            for _ in range(60):
                calls = a.legal_calls()
                seen.add(("climb", *opening, a.next_player() or "") + tuple(str(c) for c in calls))
                up = [c for c in calls if str(c).split()[-1][:1].isdigit()] or [c for c in calls if str(c) == "here"]
                if a.done or not up:
                    break
                a.apply(up[0])
        out.append(frozenset(seen))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Flipping every option
# ---------------------------------------------------------------------------------------------

def alternatives(opt: Any, value: Any) -> List[Any]:
    k = opt.kind
    if k == "bool":
        return [not value]
    if k == "choice":
        return [c for c in opt.choices if c != value]
    if k == "number-or-choice":
        alts: List[Any] = [c for c in opt.choices if c != value]
        return alts + ([value + 1] if isinstance(value, (int, Fraction)) and not isinstance(value, bool) else [2])
    if k in ("int", "number"):
        if value is None:
            return [1, 2]
        return [value + 1] + ([value - 1] if opt.minimum is None or value - 1 >= opt.minimum else [])
    if k == "decimal":
        return ["0.37" if value != "0.37" else "0.5"]
    if k in ("ints", "numbers"):
        v = list(value or ())
        return [[x + 1 for x in v] or [3], v[:-1] if v else [1, 2]]
    return []


def _options() -> List[Tuple[str, str]]:
    return [(variant, o.name) for variant in preset_names() for o in get_preset(variant).family.options
            if o.name != "variant"]


@lru_cache(maxsize=None)
def _baseline(variant: str, index: int) -> Any:
    item = corpus(variant)[index]
    try:
        return outcome(item, item.rules(variant, {}))
    except OptionError:         # a case's base rules that this family has no option for
        return None


@lru_cache(maxsize=None)
def _auctions(variant: str, beside: Tuple[Tuple[str, Any], ...] = ()) -> Any:
    return auctions({"variant": variant, **dict(beside)})


def changes(variant: str, name: str) -> Optional[str]:
    """What flipping option `name` of `variant` changes (None: nothing)."""
    preset = get_preset(variant)
    opt = preset.family.option(name)
    raw = preset.values.get(name)
    value = opt.coerce(raw) if raw is not None else None
    if opt.kind == "choice" and len(opt.choices) == 1:
        return "nothing to flip: a reading stated as its one value (the option names it)"
    items = corpus(variant)
    own = sorted(range(len(items)), key=lambda i: not items[i].name.endswith(f" {name}"))   # its own case first
    for alt in alternatives(opt, value):
        try:
            resolve_rules({"variant": variant, name: alt})
        except OptionError:
            continue
        beside = BESIDE.get(name, {})
        if auctions({"variant": variant, **beside, name: alt}) != _auctions(variant, tuple(beside.items())):
            return f"{name} = {alt!r}: the auctions allowed" + (f" (beside {beside})" if beside else "")
        for i in own:
            item = items[i]
            base = _baseline(variant, i) if not beside else outcome(item, item.rules(variant, dict(beside)))
            if base is None:
                continue
            try:
                flipped = outcome(item, item.rules(variant, {**beside, name: alt}))
            except OptionError:
                continue
            if flipped != base:
                return f"{name} = {alt!r}: {item.name}"
    return None


@pytest.mark.parametrize("variant,name", _options(), ids=lambda x: x)
def test_flipping_the_option_changes_an_outcome(variant, name):
    opt = get_preset(variant).family.option(name)
    if opt.informational:
        # kept with the record, read by no rule, and saying so (prefcli variants shows why)
        assert changes(variant, name) is None, f"{variant}: {name} is marked informational, yet it changes an outcome"
        return
    assert changes(variant, name) is not None, (
        f"{variant}: flipping {name} changes no record of the corpus and no auction: write a record "
        "that shows what it governs (EXTRA above), or find why it is read nowhere")
