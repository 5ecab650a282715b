"""rostiktc2-star/preferans-score (a React PWA, Italian): the "Esporta backup" file
``preferans-backup-YYYY-MM-DD.json``, ``SavedGame`` version 1 (``src/domain/types.ts``).

The file holds the deals as events (summary level: declarer, level, suit, each defender's
choice, tricks) but not the program's totals, which it computes; the rules are fixed by the
program ("Soči personalizzata") and not in the file.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Optional

from prefcli.io.importers import Imported, Importer, Reader, Source, register, source_meta, unique_names
from prefcli.model.records import RECORD_FORMAT
from prefcli.model.values import show

PROGRAM = "rostiktc2-star/preferans-score"
SUITS = {"picche": "S", "fiori": "C", "quadri": "D", "cuori": "H", "senza briscola": "NT"}
CHOICES = {"vist": "whist", "pass": "pass", "polvist": "half-whist"}
EVENT_TYPES = ("normal", "mizer", "raspasy", "manual")


def detect(source: Source) -> bool:
    data = source.json()
    return (isinstance(data, dict) and data.get("schemaVersion") == 1 and isinstance(data.get("config"), dict)
            and isinstance(data.get("events"), list) and "format" not in data)


def _split_misere(declarer: str, taken: int, others: List[str]) -> Dict[str, int]:
    """The catchers' share of a misère when only the declarer's count is known: no score
    depends on how they shared it (the quick-entry notes do the same)."""
    rest = 10 - taken
    out = {declarer: taken}
    out[others[0]] = rest - rest // 2
    out[others[1]] = rest // 2
    return out


def parse(source: Source) -> Imported:
    doc = source.document()
    r = Reader(doc)
    if r.integer(("schemaVersion",)) != 1:
        raise r.fail(("schemaVersion",), "only SavedGame schemaVersion 1 is known")
    r.mapping(("config",))
    raw_players = r.list(("config", "players"), max_items=10)
    if len(raw_players) not in (3, 4):
        raise r.fail(("config", "players"), f"{len(raw_players)} players; a Preferans game has 3 or 4")
    ids: List[str] = []
    names: List[str] = []
    for i in range(len(raw_players)):
        r.mapping(("config", "players", i))
        ids.append(r.text(("config", "players", i, "id")))
        names.append(r.text(("config", "players", i, "name"), max_len=100))
    if len(set(ids)) != len(ids):
        raise r.fail(("config", "players"), "two players share an id")
    names = unique_names(names)
    by_id = dict(zip(ids, names))
    n = len(names)

    def player(path) -> str:
        pid = r.text(path)
        if pid not in by_id:
            raise r.fail(path, f"no player has the id {show(pid)}")
        return by_id[pid]

    out = Imported(PROGRAM, "SavedGame v1", [])
    pool = r.integer(("config", "poolTarget"), lo=1, hi=100000)
    cents = r.number(("config", "euroCentsPerCredit"), required=False)
    rules: Dict[str, Any] = {"variant": "sochi", "pool": pool}
    if cents is not None:
        if cents < 0:
            raise r.fail(("config", "euroCentsPerCredit"), "a price cannot be negative")
        rules["price"] = _decimal(cents / 100)
    out.note(None, "rules", "the program's rules are fixed by the program (its 'Soči personalizzata') and "
                            "not in the file: mapped to preset sochi with the file's pool target"
                            + (f" and price {rules['price']} a whist (euroCentsPerCredit {_decimal(cents)})"
                               if cents is not None else ""))
    meta: Dict[str, Any] = {}
    created = r.text(("config", "createdAt"), required=False)
    if created:
        meta["date"] = created[:10]
    updated = r.text(("updatedAt",), required=False)
    meta["source"] = source_meta(PROGRAM, "SavedGame v1", source.name, created=created, updated=updated)
    data: Dict[str, Any] = {"format": RECORD_FORMAT, "meta": meta, "players": names, "rules": rules}
    if n == 4:
        first = r.at(("config", "firstRestPlayerId"))
        if first is not None:
            data["first_dealer"] = player(("config", "firstRestPlayerId"))
    deals: List[Dict[str, Any]] = []
    events = r.list(("events",))
    times = 0
    for i in range(len(events)):
        path = ("events", i)
        r.mapping(path)
        kind = r.choice(path + ("type",), EVENT_TYPES)
        number = i + 1
        deal: Dict[str, Any] = {}
        rest = r.at(path + ("restPlayerId",))
        if rest is not None:
            if n != 4:
                raise r.fail(path + ("restPlayerId",), "only a 4-player game has a player sitting out")
            deal["dealer"] = player(path + ("restPlayerId",))
        if r.at(path + ("createdAt",)) is not None:
            r.text(path + ("createdAt",))
            times += 1
        if kind == "normal":
            level = r.integer(path + ("level",), lo=6, hi=10)
            suit = r.choice(path + ("suit",), tuple(SUITS))
            deal["contract"] = f"{level}{SUITS[suit]}"
            deal["declarer"] = player(path + ("declarerId",))
            choices = r.mapping(path + ("defenderChoices",))
            whist = {}
            for pid in choices:
                if pid not in by_id:
                    raise r.fail(path + ("defenderChoices", pid), f"no player has the id {show(pid)}")
                choice = r.choice(path + ("defenderChoices", pid), tuple(CHOICES))
                whist[by_id[pid]] = CHOICES[choice]
            deal["whist"] = whist
            tricks = _tricks(r, path + ("tricks",), by_id, required=False)
            if tricks is not None:
                deal["tricks"] = tricks
        elif kind == "mizer":
            deal["contract"] = "misere"
            declarer = player(path + ("declarerId",))
            deal["declarer"] = declarer
            tricks = _tricks(r, path + ("tricks",), by_id, required=False)
            taken = r.integer(path + ("declarerTricks",), lo=0, hi=10)
            if tricks is None:
                dealer = deal.get("dealer")
                others = [p for p in names if p != declarer and p != dealer]
                if len(others) == 2:
                    tricks = _split_misere(declarer, taken, others)
                    out.note(number, "tricks", f"only the declarer's {taken} trick(s) are in the file: the rest "
                                               f"is split between {others[0]} and {others[1]} (no score depends on it)")
            if tricks is not None:
                deal["tricks"] = tricks
        elif kind == "raspasy":
            deal["contract"] = "all-pass"
            deal["tricks"] = _tricks(r, path + ("tricks",), by_id, required=True)
        else:
            deal = {"adjust": _adjust(r, path, player, out, number)}
        note = r.text(path + ("note",), required=False)
        if note is not None:
            if "adjust" in deal:
                deal["adjust"]["note"] = note
            else:
                deal["note"] = note
        deals.append(deal)
    data["deals"] = deals
    if times:
        out.note(None, "events.createdAt", f"the time of each event ({times}) is not carried: a record keeps "
                                           "no times", loss=True)
    undone = r.list(("undone",), required=False)
    if undone:
        out.note(None, "undone", f"{len(undone)} undone event(s) (the program's redo stack) left out: they are "
                                 "not part of the game")
    out.leftover(doc.data, (), ("schemaVersion", "config", "events", "undone", "updatedAt"))
    out.leftover(r.at(("config",)), ("config",), ("schemaVersion", "createdAt", "players", "poolTarget",
                                                  "euroCentsPerCredit", "firstRestPlayerId"), ("animations",))
    seen = set()
    for i, e in enumerate(events):
        extra = [k for k in e if k not in EVENT_KEYS]
        if extra and tuple(extra) not in seen:
            seen.add(tuple(extra))
            out.leftover(e, ("events", i), EVENT_KEYS, deal=i + 1)
    out.documents.append(("", data))
    return out


EVENT_KEYS = ("id", "createdAt", "restPlayerId", "note", "type", "declarerId", "level", "suit", "defenderChoices",
              "tricks", "declarerTricks", "adjustments", "raspasyLevel")


def _decimal(value: Fraction) -> str:
    from decimal import Decimal
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _tricks(r: Reader, path, by_id: Dict[str, str], required: bool) -> Optional[Dict[str, int]]:
    m = r.mapping(path, required=required)
    if m is None:
        return None
    out = {}
    for pid in m:
        if pid not in by_id:
            raise r.fail(path + (pid,), f"no player has the id {show(pid)}")
        out[by_id[pid]] = r.integer(path + (pid,), lo=0, hi=10)
    return out


def _adjust(r: Reader, path, player, out: Imported, number: int) -> Dict[str, Any]:
    """A manual event: pool points, penalty (mountain) and credits (whists) by hand."""
    adjust: Dict[str, Any] = {}
    items = r.list(path + ("adjustments",))
    for j in range(len(items)):
        ap = path + ("adjustments", j)
        r.mapping(ap)
        kind = r.choice(ap + ("kind",), ("pool", "penalty", "credit"))
        amount = r.number(ap + ("amount",))
        if kind == "credit":
            writer, on = player(ap + ("fromId",)), player(ap + ("againstId",))
            if writer == on:
                raise r.fail(ap + ("againstId",), "a player cannot write credits on himself")
            row = adjust.setdefault("whists", {}).setdefault(writer, {})
            row[on] = row.get(on, 0) + amount
        else:
            area = "pool" if kind == "pool" else "mountain"
            who = player(ap + ("playerId",))
            cell = adjust.setdefault(area, {})
            cell[who] = cell.get(who, 0) + amount
    out.note(number, "manual", "a manual adjustment, carried as an adjust entry (penalty → mountain, "
                               "credit → whists)")
    level = r.integer(path + ("raspasyLevel",), required=False, lo=1, hi=3)
    if level is not None:
        out.note(number, "raspasyLevel", f"the all-pass level set by hand ({level}) cannot be carried: prefcli "
                                         "derives the all-pass series from the deals", loss=True)
    return adjust


register(Importer("rostiktc2", "rostiktc2-star/preferans-score (PWA, Italian)",
                  "preferans-backup-*.json (Esporta backup)", "record", detect, parse))
