"""Unisay/preferanser (a web app for Preferans études): its deal JSON
(``backend-client/.../deal/N.json``): name, description, firstTurn, one contract per seat
(``SIX_SPADE`` …, ``MISER``, ``WHIST``, ``PASS``), the widow (talon) and three hands
(``SPADE_7`` … ``HEART_ACE``). Each étude becomes a record with one full deal.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List

from prefcli.io.importers import Imported, Importer, Reader, Source, register, source_meta
from prefcli.io.importers._positions import SEATS, full_deal, record
from prefcli.model.cards import Card, parse_card
from prefcli.model.values import show

PROGRAM = "Unisay/preferanser"
SEAT_WORDS = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}
LEVELS = {"SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10}
SUITS = {"SPADE": "S", "CLUB": "C", "DIAMOND": "D", "HEART": "H", "NO_TRUMP": "NT", "NOTRUMP": "NT"}
RANKS = {"7": "7", "8": "8", "9": "9", "10": "10", "JACK": "J", "QUEEN": "Q", "KING": "K", "ACE": "A"}
DEFENCE = {"WHIST": "whist", "PASS": "pass", "HALF_WHIST": "half-whist"}
_CARD = re.compile(r"^(SPADE|CLUB|DIAMOND|HEART)_(7|8|9|10|JACK|QUEEN|KING|ACE)$")
_GAME = re.compile(r"^(SIX|SEVEN|EIGHT|NINE|TEN)_(SPADE|CLUB|DIAMOND|HEART|NO_TRUMP|NOTRUMP)$")


def detect(source: Source) -> bool:
    data = source.json()
    return (isinstance(data, dict) and "widow" in data and "firstTurn" in data
            and any(f"{w.lower()}Cards" in data for w in SEAT_WORDS))


def _card(r: Reader, path) -> Card:
    text = r.text(path, max_len=20)
    m = _CARD.match(text)
    if not m:
        raise r.fail(path, f"{show(text)} is not a card (SUIT_RANK, e.g. SPADE_7, HEART_ACE)")
    return parse_card(RANKS[m.group(2)] + SUITS[m.group(1)])


def parse(source: Source) -> Imported:
    doc = source.document()
    r = Reader(doc)
    out = Imported(PROGRAM, "deal JSON", [])
    players = r.text(("players",), required=False)
    if players is not None and players != "THREE":
        raise r.fail(("players",), f"{show(players)}: only three-player études are known")
    seated = [SEAT_WORDS[w] for w in SEAT_WORDS if r.at((f"{w.lower()}Cards",)) is not None]
    if len(seated) != 3:
        raise r.fail((), f"{len(seated)} hands (…Cards); an étude has three")
    seated = [s for s in SEATS if s in seated]
    word = {v: k for k, v in SEAT_WORDS.items()}
    hands: Dict[str, List[Card]] = {}
    for s in seated:
        path = (f"{word[s].lower()}Cards",)
        items = r.list(path, max_items=12)
        if len(items) != 10:
            raise r.fail(path, f"{len(items)} cards; a hand has 10")
        hands[s] = [_card(r, path + (i,)) for i in range(len(items))]
    r.mapping(("widow",))
    rest = [_card(r, ("widow", "card1")), _card(r, ("widow", "card2"))]
    every = [c for h in hands.values() for c in h] + rest
    if len(set(every)) != 32:
        dup = next((c for c in every if every.count(c) > 1), None)
        raise r.fail((), f"{dup} is dealt twice" if dup else "the hands and the widow are not the 32 cards")
    first = r.choice(("firstTurn",), tuple(SEAT_WORDS))
    leader = SEAT_WORDS[first]
    if leader not in seated:
        raise r.fail(("firstTurn",), f"{first} holds no cards")
    declarer, contract = None, None
    whist: Dict[str, str] = {}
    for s in seated:
        path = (f"{word[s].lower()}Contract",)
        text = r.text(path, max_len=40)
        m = _GAME.match(text)
        if m or text in ("MISER", "MISERE"):
            if declarer is not None:
                raise r.fail(path, f"two declarers ({declarer} and {s})")
            declarer = s
            contract = "misere" if not m else f"{LEVELS[m.group(1)]}{SUITS[m.group(2)]}"
        elif text in DEFENCE:
            whist[s] = DEFENCE[text]
        else:
            raise r.fail(path, f"{show(text)} is not a contract (SIX_SPADE …, MISER) or WHIST / PASS")
    if declarer is None or contract is None:
        raise r.fail((), "no seat has a contract (SIX_SPADE …, MISER): no declarer")
    if contract == "misere":
        whist = {}
    name = r.text(("name",), required=False, max_len=1000)
    description = r.text(("description",), required=False, max_len=100000)
    r.boolean(("shared",), required=False)
    deal, _ = full_deal(seated, hands, rest, contract, declarer, leader, whist or None, [], description)
    out.note(1, "talon", f"the widow ({' '.join(str(c) for c in rest)}) is written as the talon, taken and "
                         "discarded again by the declarer, so the hands are the étude's")
    meta: Dict[str, Any] = {}
    if name:
        meta["event"] = name
    meta["source"] = source_meta(PROGRAM, "deal JSON", source.name)
    out.documents.append(("", record(seated, deal, meta)))
    return out


register(Importer("preferanser", "Unisay/preferanser (études)",
                  "deal/N.json (firstTurn, widow, eastCards …)", "record", detect, parse))
