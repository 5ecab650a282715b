"""SmaginStepan/PrefAndroid (Android, a port of a WP7 app): ``pulya_<time>_<players>_<limit>.json``
and ``lastcalc.json`` (``model/Calculation.kt``, kotlinx.serialization).

The file holds the deals (``gameLog``: declarer, level, tricks, whisters) **without the trump
suit**, the program's own sheet (``scores``: gora, pulya, visty) and its running log (``log``:
each write's running total), and the table's 12 rule knobs (``GameRules.kt``). So the deals
become a record, the knobs a preset with overrides, and the program's sheet is checked against
prefcli's rescoring.
"""
from __future__ import annotations

import datetime as _dt
from fractions import Fraction
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from prefcli.io.importers import (Cell, Imported, Importer, PeerSheet, Reader, Source, register, source_meta,
                                  unique_names)
from prefcli.model.records import RECORD_FORMAT
from prefcli.model.values import show

PROGRAM = "SmaginStepan/PrefAndroid"
GAME_TYPES = ("Normal", "Miser", "Raspasy", "Custom")
SCORE_AREAS = {"Gora": "mountain", "Pulya": "pool", "Visty": "whists"}
#: The suit written for a contract whose trump the file does not keep: one no rule of the mapped
#: presets treats specially (Stalingrad names spades; no-trumps change the ladder).
UNKNOWN_SUIT = "H"

#: GameRules knob → (prefcli option, {knob value: option value}); None: no prefcli option.
KNOBS: Dict[str, Tuple[Optional[str], Dict[Any, Any]]] = {
    "raspasyProgression": ("allpass.progression", {"NoProgression1": [], "Arifm1233": [1, 2, 3],
                                                   "Geom1244": [1, 2, 4]}),
    "raspasyExit": ("allpass.exit", {"Easy6": [6, 6, 6], "Med677": [6, 7, 7], "Hard678": [6, 7, 8]}),
    "vist": ("responsibility", {"HalfResponsibility": "half", "FullResponsibility": "full"}),
    "consolation": ("whist_style", {"Gentlemen": "gentleman", "Zlob": "greedy"}),
    "ending": ("end", {"Sum": "total", "Each": "each"}),
    "scoring": ("whist_multiplier", {"Normal": 1, "Leningrad": 2}),
    "consolationBonus": ("consolation", {"Normal": "price", "Max10": 10}),
    "stalindgrad": ("stalingrad", {True: True, False: False}),
    "vistTakeOnRaspas": ("allpass.rostov_whists", {}),
    "miserRaspExit": (None, {}),
    "prikupConsolation": (None, {}),
}
PRESETS = {"Sochy": "sochi", "Leningrad": "leningrad", "Rostov": "rostov"}


def detect(source: Source) -> bool:
    data = source.json()
    return (isinstance(data, dict) and "limit" in data and isinstance(data.get("gameLog"), list)
            and isinstance(data.get("log"), list) and isinstance(data.get("rules"), dict)
            and "gameType" in data["rules"])


def _rules(r: Reader, out: Imported, pool: int,
           preset_values: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    raw = r.mapping(("rules",))
    game = r.choice(("rules", "gameType"), tuple(PRESETS))
    variant = PRESETS[game]
    rules: Dict[str, Any] = {"variant": variant, "pool": pool}
    base = preset_values({"variant": variant})
    for knob in raw:
        if knob == "gameType":
            continue
        value = raw[knob]
        path = ("rules", knob)
        if knob not in KNOBS:
            out.note(None, f"rules.{knob}", f"unknown rule knob ({show(value)}): not carried", loss=True)
            continue
        option, table = KNOBS[knob]
        if option is None:
            out.note(None, f"rules.{knob}", f"{_show(value)}: prefcli has no such option; not carried", loss=True)
            continue
        if knob == "vistTakeOnRaspas":
            mapped: Any = r.integer(path, lo=0, hi=1000)
            if base.get("allpass.scoring") != "rostov" and mapped == base.get(option):
                continue
            if base.get("allpass.scoring") != "rostov":
                out.note(None, f"rules.{knob}", f"{mapped} whists a trick on an all-pass: used only by Rostov "
                                                f"scoring; kept as {option}")
        else:
            if (not isinstance(value, (str, bool)) or isinstance(value, bool) != (True in table)
                    or value not in table):
                raise r.fail(path, f"{show(value)} is not one of {', '.join(_show(k) for k in table)}")
            mapped = table[value]
        current = base.get(option)
        if _same(current, mapped):
            continue
        rules[option] = mapped
    return rules, dict(raw)


def _same(current: Any, mapped: Any) -> bool:
    if isinstance(current, tuple):
        return list(current) == list(mapped) if isinstance(mapped, list) else False
    try:
        return current == mapped
    except TypeError:
        return False


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse(source: Source) -> Imported:
    doc = source.document()
    r = Reader(doc)
    out = Imported(PROGRAM, "Calculation (pulya_*.json)", [])
    limit = r.integer(("limit",), lo=1, hi=100000)
    scores = r.list(("scores",), max_items=10)
    if len(scores) not in (3, 4):
        raise r.fail(("scores",), f"{len(scores)} players; a Preferans game has 3 or 4")
    n = len(scores)
    names = unique_names([r.text(("scores", i, "name"), max_len=100) for i in range(n)])

    def seat(path) -> str:
        i = r.integer(path, lo=0, hi=n - 1)
        return names[i]

    def seat_key(path, key: str) -> str:
        try:
            i = int(key)
        except ValueError:
            raise r.fail(path, f"{show(key)} is not a player number (0..{n - 1})") from None
        if not 0 <= i < n or str(i) != key:
            raise r.fail(path, f"{show(key)} is not a player number (0..{n - 1})")
        return names[i]

    rules, knobs = _rules(r, out, limit, source.rules_access().preset_values)
    meta: Dict[str, Any] = {}
    created = r.integer(("created",), required=False, lo=0, hi=10**14)
    if created is not None:
        meta["date"] = _dt.datetime.fromtimestamp(created / 1000, _dt.timezone.utc).date().isoformat()
    meta["source"] = source_meta(PROGRAM, "Calculation", source.name, rules=knobs)

    totals: Dict[Cell, Fraction] = {}
    for i in range(n):
        p = names[i]
        totals[("mountain", p, None)] = r.number(("scores", i, "gora"))
        totals[("pool", p, None)] = r.number(("scores", i, "pulya"))
        visty = r.mapping(("scores", i, "visty"), required=False) or {}
        for key in visty:
            q = seat_key(("scores", i, "visty", key), key)
            if q != p:
                totals[("whists", p, q)] = r.number(("scores", i, "visty", key))
        r.number(("scores", i, "score"), required=False)
    if any(r.at(("scores", i, "score")) not in (None, 0) for i in range(n)):
        out.note(None, "scores.score", "the program's money result per player is not carried: prefcli settle "
                                       "computes it from the sheet")

    deals: List[Dict[str, Any]] = []
    games = r.list(("gameLog",))
    first_dealer = None
    unknown_suit = 0
    for k in range(len(games)):
        path = ("gameLog", k)
        r.mapping(path)
        number = k + 1
        kind = r.choice(path + ("gameType",), GAME_TYPES)
        dealer = seat(path + ("dealer",))
        if first_dealer is None:
            first_dealer = dealer
        active = [p for p in names if n == 3 or p != dealer]
        taken_raw = r.mapping(path + ("taken",), required=False) or {}
        taken = {seat_key(path + ("taken", key), key): r.integer(path + ("taken", key), lo=0, hi=10)
                 for key in taken_raw}
        deal: Dict[str, Any] = {"dealer": dealer}
        r.integer(path + ("multiplier",), required=False, lo=0, hi=1000)
        half = r.boolean(path + ("halfWithDealer",), required=False)
        if kind == "Custom":
            deals.append({"adjust": _custom(r, path, names, seat, out, number)})
            continue
        if kind == "Raspasy":
            deal["contract"] = "all-pass"
            tricks = {p: taken.get(p, 0) for p in active}
            if dealer not in active and taken.get(dealer):
                tricks[dealer] = taken[dealer]       # the 4-player dealer's talon tricks
            deal["tricks"] = tricks
        else:
            declarer = seat(path + ("contractor",))
            if declarer not in active:
                raise r.fail(path + ("contractor",), f"{declarer} deals this 4-player deal and cannot declare")
            deal["declarer"] = declarer
            defenders = [p for p in active if p != declarer]
            visters = r.list(path + ("visters",), required=False) or []
            whisting = [seat(path + ("visters", j)) for j in range(len(visters))]
            for w in whisting:
                if w not in defenders:
                    raise r.fail(path + ("visters",), f"{w} is not a defender of this deal")
            if kind == "Miser":
                deal["contract"] = "misere"
                if half:
                    if n == 4:
                        deal["partner"] = dealer
                    else:
                        out.note(number, "halfWithDealer", "a misère half with the dealer needs 4 players: "
                                                           "not carried", loss=True)
            else:
                level = r.integer(path + ("contract",), lo=6, hi=10)
                deal["contract"] = f"{level}{UNKNOWN_SUIT}"
                unknown_suit += 1
                deal["whist"] = {p: ("whist" if p in whisting else "pass") for p in defenders}
                if half:
                    out.note(number, "halfWithDealer", "a half with the dealer on a game is not known to prefcli: "
                                                       "not carried", loss=True)
            played = bool(whisting) or kind == "Miser"
            if played:
                deal["tricks"] = {p: taken.get(p, 0) for p in active}
            elif any(taken.values()):
                out.note(number, "taken", "both defenders passed, so the game counts as made without play: the "
                                          "trick counts in the file are not carried", loss=True)
        deals.append(deal)
    if unknown_suit:
        stalingrad = bool(source.rules_access().preset_values(rules).get("stalingrad"))
        why = ("with stalingrad on, prefcli would score a 6S as whisted by both, and the file does not say "
               "which 6s were in spades" if stalingrad else "no rule of the mapped preset depends on the suit")
        out.note(None, "contract", f"the trump suit is not in the file ({unknown_suit} game(s)): written as "
                                   f"{UNKNOWN_SUIT} ({why}; the deals cannot be shown with their trump)", loss=True)
    data: Dict[str, Any] = {"format": RECORD_FORMAT, "meta": meta, "players": names, "rules": rules}
    if first_dealer is not None:
        data["first_dealer"] = first_dealer
    data["deals"] = deals
    r.integer(("dealer",), required=False, lo=0, hi=n - 1)

    writes: List[Tuple[Cell, Fraction]] = []
    running: Dict[Cell, Fraction] = {}
    log = r.list(("log",))
    for j in range(len(log)):
        lp = ("log", j)
        r.mapping(lp)
        area = SCORE_AREAS[r.choice(lp + ("scoreType",), tuple(SCORE_AREAS))]
        p = seat(lp + ("playerNum",))
        on = None
        if area == "whists":
            on = seat(lp + ("refPlayerNum",))
            if on == p:
                raise r.fail(lp + ("refPlayerNum",), "a player cannot write whists on himself")
        cell = (area, p, on)
        value = r.number(lp + ("value",))
        writes.append((cell, value - running.get(cell, Fraction(0))))
        running[cell] = value
    out.peer = PeerSheet(totals, writes)
    out.leftover(doc.data, (), ("limit", "scores", "created", "gameLog", "log", "dealer", "rules"))
    for i in range(n):
        out.leftover(r.at(("scores", i)), ("scores", i), ("name", "gora", "pulya", "visty", "score"))
    for k in range(len(games)):
        out.leftover(r.at(("gameLog", k)), ("gameLog", k), ("gameType", "dealer", "contractor", "contract", "taken",
                                                             "visters", "multiplier", "halfWithDealer",
                                                             "customScore"), deal=k + 1)
    out.documents.append(("", data))
    return out


def _custom(r: Reader, path, names, seat, out: Imported, number: int) -> Dict[str, Any]:
    """A hand edit (gameType Custom): one number added to one cell."""
    cp = path + ("customScore",)
    r.mapping(cp)
    area = SCORE_AREAS[r.choice(cp + ("scoreType",), tuple(SCORE_AREAS))]
    p = seat(cp + ("playerNum",))
    value = r.number(cp + ("value",))
    out.note(number, "customScore", "a score edited by hand, carried as an adjust entry")
    if area == "whists":
        on = seat(cp + ("refPlayerNum",))
        if on == p:
            raise r.fail(cp + ("refPlayerNum",), "a player cannot write whists on himself")
        return {"whists": {p: {on: value}}}
    return {area: {p: value}}


register(Importer("prefandroid", "SmaginStepan/PrefAndroid (Android)",
                  "pulya_*.json, lastcalc.json (app files; adb backup)", "record", detect, parse))
