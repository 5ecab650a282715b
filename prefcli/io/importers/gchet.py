"""gchet/Preferans (Go; Windows and Android): ``<data dir>/saves/<id>.json``
(``internal/storage/store.go``, ``internal/app/app.go`` Saved, ``internal/game/types.go``).

The file is an envelope ``{"sha256": hex(sha256(data bytes)), "data": Saved}``; ``Saved.state``
holds the sheet (pool, mountain, whists) and ``history``, one ledger of score *deltas* per deal
with a localised contract label, but no deal facts (cards exist only for the deal in progress).
So it becomes a ``pref-sheet/1`` with the running log. The hash is checked over the exact bytes
of ``data`` as they stand in the file (Go's ``json.Marshal`` output is not reproducible from the
parsed values), and the rejoin ``keys`` are secrets: never copied.
"""
from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from prefcli.io.importers import (Cell, Imported, Importer, PeerSheet, Reader, Source, log_from_deltas, register,
                                  source_meta, unique_names)
from prefcli.model.records import SHEET_FORMAT

PROGRAM = "gchet/Preferans"
#: gchet's DefaultRules() (internal/game/rules.go), for saves whose state has no rules.
DEFAULT_RULES = {"hereConvention": "through", "whist": "gentleman", "responsibility": "half",
                 "passPrices": [2, 4, 8], "passExit": 7, "stalingrad": True, "tenCheck": True,
                 "misereTalon": True, "dealerBonus": True, "endCondition": "pool", "minutes": 60}
#: Rules fields with no prefcli option (they govern the auction and the play, not the sheet).
UNMAPPED = ("hereConvention", "talonPenalty", "finishAfterPassExit", "passExitWhistedOnly", "passExitSpecial")
#: gchet's ladder of the bids without the talon (``Contracts()``, no_talon_test.go: a misère, a 9,
#: then the misère without the talon over 9NT, and the one 9 without the talon over that): seed
#: 003's order, prefcli's ``misere_without_talon`` value; without them, ``no``.
NO_TALON_LADDER = "below-nine-without-talon"
#: Saved fields that are the program's session, not the game: left out (keys are secrets).
SESSION = ("joined", "table", "seat", "room", "playerIDs", "view", "pending")


def detect(source: Source) -> bool:
    data = source.json()
    if not (isinstance(data, dict) and isinstance(data.get("sha256"), str) and isinstance(data.get("data"), dict)):
        return False
    state = data["data"].get("state")
    return isinstance(state, dict) and "version" in state


def data_span(text: str) -> Optional[Tuple[int, int]]:
    """Start and end of the top-level `data` value in the text (None if the text is not one JSON
    object with such a member)."""
    dec = json.JSONDecoder()

    def ws(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    try:
        i = ws(0)
        if text[i] != "{":
            return None
        i += 1
        while True:
            i = ws(i)
            if text[i] == "}":
                return None
            key, i = dec.raw_decode(text, i)
            i = ws(i)
            if text[i] != ":":
                return None
            start = ws(i + 1)
            _, end = dec.raw_decode(text, start)
            if key == "data":
                return start, end
            i = ws(end)
            if text[i] == ",":
                i += 1
    except (ValueError, IndexError, RecursionError):
        return None


def _integrity(source: Source, claimed: str, out: Imported) -> None:
    text = source.text or ""
    span = data_span(text)
    if span is None:
        out.note(None, "sha256", "not checked: the exact bytes of data could not be found in the file")
        return
    digest = hashlib.sha256(text[span[0]:span[1]].encode("utf-8")).hexdigest()
    if digest == claimed.strip().lower():
        out.note(None, "sha256", "verified over the exact bytes of data")
    else:
        out.note(None, "sha256", f"does NOT match the data (file says {claimed[:12]}…, the bytes give "
                                 f"{digest[:12]}…): the file was changed or damaged after gchet wrote it",
                 loss=True)


def _rules(r: Reader, out: Imported, target: int,
           preset_values: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    path = ("data", "state", "rules")
    raw = r.mapping(path, required=False)
    if raw is None:
        out.note(None, "rules", "no rules in the state: gchet's defaults (DefaultRules) assumed")
        raw = DEFAULT_RULES
        rd = Reader.__new__(Reader)
        rd.doc = _Fixed(raw, r.doc)
        base: Tuple[Any, ...] = ()
    else:
        rd, base = r, path
    rules: Dict[str, Any] = {"variant": "leningrad", "pool": target}
    preset = preset_values({"variant": "leningrad"})

    def put(option: str, value: Any) -> None:
        current = preset.get(option)
        same = list(current) == list(value) if isinstance(current, tuple) and isinstance(value, list) else current == value
        if not same:
            rules[option] = value

    for key in raw:
        kp = base + (key,)
        if key == "whist":
            put("whist_style", rd.choice(kp, ("gentleman", "greedy")))
        elif key == "responsibility":
            put("responsibility", rd.choice(kp, ("half", "full")))
        elif key == "passPrices":
            items = rd.list(kp, max_items=10)
            put("allpass.progression", [rd.integer(kp + (i,), lo=0, hi=1000) for i in range(len(items))])
        elif key == "passExit":
            put("allpass.exit", [rd.integer(kp, lo=6, hi=10)])
        elif key == "stalingrad":
            put("stalingrad", rd.boolean(kp))
        elif key == "tenCheck":
            put("tens", "checked" if rd.boolean(kp) else "whisted")
        elif key == "dealerBonus":
            put("talon_bonus", rd.boolean(kp))
        elif key == "endCondition":
            end = rd.choice(kp, ("pool", "time"))
            if end == "pool":
                put("end", "total")
            else:
                out.note(None, "rules.endCondition", "a game played to a time limit: prefcli has no such "
                                                     "end condition; not carried", loss=True)
        elif key == "minutes":
            rd.integer(kp, lo=0, hi=100000)
        elif key in ("misereTalon", "allowNoTalon"):
            rd.boolean(kp)            # read together below: allowNoTalon, when written, decides
        elif key in UNMAPPED:
            out.note(None, f"rules.{key}", f"{_show(raw[key])}: no prefcli option (it governs the auction or the "
                                           "play, not the sheet); not carried", loss=True)
        else:
            out.note(None, f"rules.{key}", f"unknown rule knob ({_show(raw[key])}): not carried", loss=True)
    # rules.go AllowsNoTalonBids: allowNoTalon when written, else the legacy !misereTalon (a Go bool
    # left out of the JSON reads false); the misère with the talon is bid either way
    allow = raw["allowNoTalon"] if "allowNoTalon" in raw else not raw.get("misereTalon", False)
    put("misere_without_talon", NO_TALON_LADDER if allow else "no")
    return rules, dict(raw)


class _Fixed:
    """A stand-in document for gchet's built-in default rules (never wrong, so never located)."""

    text = ""

    def __init__(self, data: Any, doc) -> None:
        self.data = data
        self._doc = doc
        self.name = doc.name

    def locate(self, path):
        return self._doc.locate(("data", "state"))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def parse(source: Source) -> Imported:
    doc = source.document()
    r = Reader(doc)
    claimed = r.text(("sha256",), max_len=200)
    r.mapping(("data",))
    st = ("data", "state")
    r.mapping(st)
    version = r.text(st + ("version",), max_len=100)
    out = Imported(PROGRAM, version, [])
    _integrity(source, claimed, out)
    raw_players = r.list(st + ("players",), max_items=10)
    if len(raw_players) not in (3, 4):
        raise r.fail(st + ("players",), f"{len(raw_players)} players; a Preferans game has 3 or 4")
    n = len(raw_players)
    names = unique_names([r.text(st + ("players", i, "name"), max_len=100) for i in range(n)])
    bots = [names[i] for i in range(n) if r.boolean(st + ("players", i, "bot"), required=False)]
    target = r.integer(st + ("target",), lo=1, hi=100000)
    rules, knobs = _rules(r, out, target, source.rules_access().preset_values)

    def vector(path) -> List[Fraction]:
        items = r.list(path, max_items=10)
        if len(items) != n:
            raise r.fail(path, f"{len(items)} values for {n} players")
        return [r.number(path + (i,)) for i in range(n)]

    def cells(path) -> Dict[Cell, Fraction]:
        out_: Dict[Cell, Fraction] = {}
        for area in ("pool", "mountain"):
            for i, v in enumerate(vector(path + (area,))):
                out_[(area, names[i], None)] = v
        rows = r.list(path + ("whists",), max_items=10)
        if len(rows) != n:
            raise r.fail(path + ("whists",), f"{len(rows)} rows for {n} players")
        for i in range(n):
            for j, v in enumerate(vector(path + ("whists", i))):
                if i == j:
                    if v != 0:
                        raise r.fail(path + ("whists", i, j), f"{names[i]} has whists written on himself")
                    continue
                out_[("whists", names[i], names[j])] = v
        return out_

    totals = cells(st)
    history = r.list(st + ("history",), required=False) or []
    steps: List[Tuple[Optional[int], Optional[str], Dict[Cell, Fraction]]] = []
    per_deal: List[Dict[Cell, Fraction]] = []
    for k in range(len(history)):
        hp = st + ("history", k)
        r.mapping(hp)
        label = r.text(hp + ("label",), required=False, max_len=200)
        r.integer(hp + ("round",), required=False, lo=0, hi=10**6)
        amnesty = r.integer(hp + ("amnesty",), required=False, lo=-10**6, hi=10**6)
        if amnesty:
            label = f"{label or ''} (amnesty {amnesty})".strip()
        deltas = {c: v for c, v in cells(hp).items() if v != 0}
        steps.append((k + 1, label, deltas))
        per_deal.append(deltas)

    keys = r.list(("data", "keys"), required=False) or []
    if keys:
        out.note(None, "keys", f"{len(keys)} rejoin key(s) left out: secrets are never copied")
    session = [k for k in SESSION if r.at(("data", k)) is not None]
    if session:
        out.note(None, "data", f"the program's session ({', '.join(session)}) is not part of the game: left out")
    hands = r.list(st + ("hands",), required=False) or []
    stage = r.text(st + ("stage",), required=False, max_len=100)
    if any(isinstance(h, list) and h for h in hands):
        out.note(None, "state.hands", f"the deal in progress (stage {stage or '?'}: hands, talon, auction) is not "
                                      "carried: a sheet keeps finished deals only", loss=True)
    out.note(None, "history", f"{len(history)} deal(s) of score deltas carried as the running log (the labels "
                              "as notes); the deals themselves are not in the file, so they cannot be rescored")

    ident = r.text(st + ("id",), required=False, max_len=200)
    meta = {"source": source_meta(PROGRAM, version, source.name, id=ident, rules=knobs if knobs else None,
                                  bots=bots or None)}
    sheet: Dict[str, Any] = {"format": SHEET_FORMAT, "meta": meta, "players": names, "rules": rules}
    sheet["pool"] = {p: totals[("pool", p, None)] for p in names}
    sheet["mountain"] = {p: totals[("mountain", p, None)] for p in names}
    whists = {a: {b: totals[("whists", a, b)] for b in names if b != a and totals[("whists", a, b)]} for a in names}
    sheet["whists"] = {a: row for a, row in whists.items() if row}
    log = log_from_deltas(steps)
    if log:
        sheet["log"] = log
    out.peer = PeerSheet(totals, per_deal=per_deal)
    out.documents.append(("", sheet))
    return out


register(Importer("gchet", "gchet/Preferans (Go; Windows, Android)",
                  "saves/<id>.json (sha256 envelope)", "sheet", detect, parse))
