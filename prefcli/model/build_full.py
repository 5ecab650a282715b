"""A full deal of the common kind (hands, talon, auction, discard, play as prefcli writes them)
built in one pass over its fields (:func:`full_deal`), for :class:`prefcli.model.build._Builder`.

Why: a full deal has about fifteen card texts; the builder's long way asks several questions of
each field before it parses it, and parses a trick's text anew each time the same trick comes
again (a record of 10,000 deals holds about 26,000 distinct tricks among 88,000). Here each
field is taken in one look, and a trick's or talon's text parsed once in the record is looked up
(each record's own table, bounded). Anything this does not know to be well-formed (a card, call
or contract not read before, a list where a text is usual, a null, a key that is not a text…)
answers None, and the long way builds the same Deal or says what is wrong
(tests/test_fast_paths.py compares the two)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from prefcli.model.cards import Card
from prefcli.model.records import Deal
from prefcli.model.cards import _CARD_CACHE as _CARD_TEXTS

__all__ = ["FULL_KEYS", "full_deal"]

#: the fields of a deal that :func:`full_deal` builds
FULL_KEYS = frozenset(("contract", "declarer", "dealer", "whist", "tricks", "open", "dark",
                       "hands", "talon", "auction", "discard", "play", "claim", "return"))
#: a record's table of card texts (tricks, talons, discards) holds at most this many
_TEXTS_MAX = 50000

_card = _CARD_TEXTS.__getitem__
#: the builder's unfrozen twin of Deal's slots (None: Deal's layout is not the one it knows), asked once
_SLOTS: List[Any] = []


def _cards(text: Any, texts: Dict[str, Tuple[Card, ...]]) -> Optional[Tuple[Card, ...]]:
    """The cards of a short text of plainly written cards ("7S 8S 9S"), looked up when the record
    had it before; None for anything else (the long way reads it)."""
    if type(text) is not str:
        return None
    got = texts.get(text)
    if got is None:
        try:
            got = tuple(map(_card, text.split()))
        except KeyError:
            return None
        if len(texts) >= _TEXTS_MAX:
            texts.clear()
        texts[text] = got
    return got


def full_deal(m: Dict[str, Any], pos: int, builder: Any, tables: Tuple[Any, ...]) -> Optional[Any]:
    """The Deal of `m` built in one pass, or None (see the module docstring). `builder` is the
    record's :class:`~prefcli.model.build._Builder` (its shared tuples; its card texts are kept
    beside them); `tables` the builder module's parsed contracts, calls and decisions (learned by
    its long way), its sharing of equal tuples, and (asked once) its unfrozen twin of Deal's slots
    (None when Deal's layout is not the one it knows: then the long way builds every deal). The
    fields go straight into the twin's slots, every default first, as the summary deals' pass
    fills them, and the twin becomes the Deal."""
    contracts, calls, decisions, share, slots_of = tables
    token = m.get("contract")
    contract = contracts.get(token) if type(token) is str else None
    if contract is None:
        return None
    if not _SLOTS:
        _SLOTS.append(slots_of())
    slots = _SLOTS[0]
    if slots is None:
        return None
    texts = getattr(builder, "texts", None)
    if texts is None:
        texts = builder.texts = {}
    shared = builder.shared
    deal: Any = object.__new__(slots)
    deal.pos = pos
    deal.contract = contract
    deal.declarer = deal.tricks = deal.open = deal.dealer = deal.hands = deal.talon = deal.auction = None
    deal.discard = deal.play = deal.claim = deal.bomb = deal.takeover = deal.returned_by = deal.note = None
    deal.bid = deal.partner = None
    deal.whist = deal.penalties = deal.irregularities = ()
    deal.dark = deal.concede = deal.without_all = deal.position = False
    for key, v in m.items():
        if key == "contract":
            continue
        if key == "hands":
            if type(v) is not dict:
                return None
            hands = []
            for k, text in v.items():
                if type(k) is not str or type(text) is not str or "," in text:
                    return None
                try:
                    hands.append((k, tuple(map(_card, text.split()))))
                except KeyError:
                    return None
            deal.hands = tuple(hands)
        elif key == "play":
            if type(v) is not list:
                return None
            tricks = []
            for t in v:
                cs = _cards(t, texts)
                if cs is None:
                    return None
                tricks.append(cs)
            deal.play = tuple(tricks)
        elif key == "talon" or key == "discard":
            cs = _cards(v, texts)
            if cs is None:
                return None
            if key == "talon":
                deal.talon = cs
            else:
                deal.discard = cs
        elif key == "auction":
            if type(v) is not list:
                return None
            out = []
            for c in v:
                call = calls.get(c) if type(c) is str else None
                if call is None:
                    return None
                out.append(call)
            deal.auction = tuple(out)
        elif key == "whist":
            ws = whist_pairs(v, decisions, share, shared)
            if ws is None:
                return None
            deal.whist = ws
        elif key == "tricks" or key == "claim":
            ts = count_pairs(v, share, shared)
            if ts is None:
                return None
            if key == "tricks":
                deal.tricks = ts
            else:
                deal.claim = ts
        elif key == "open" or key == "dark":
            if type(v) is not bool:
                return None
            if key == "open":
                deal.open = v
            else:
                deal.dark = v
        elif key == "declarer" or key == "dealer" or key == "return":     # a name
            if type(v) is not str or not v.strip():
                return None
            if key == "declarer":
                deal.declarer = v
            elif key == "dealer":
                deal.dealer = v
            else:
                deal.returned_by = v
        else:
            return None
    deal.__class__ = Deal
    return deal


def whist_pairs(v: Any, decisions: Dict[Any, Any], share: Any, shared: Dict[Any, Any]) -> Optional[Tuple[Any, ...]]:
    """A deal's `whist` mapping as the record's shared tuple of (name, Decision) pairs, or None
    when it is not a mapping of names to known decisions (the builder's long way then says why).
    One place for the summary and the full one-pass builders."""
    if type(v) is not dict:
        return None
    ws = []
    for k, d in v.items():
        dec = decisions.get(d) if type(d) is str else None
        if dec is None or type(k) is not str:
            return None
        ws.append((k, dec))
    return share(shared, tuple(ws))  # type: ignore[no-any-return]


def count_pairs(v: Any, share: Any, shared: Dict[Any, Any]) -> Optional[Tuple[Any, ...]]:
    """A deal's `tricks` or `claim` mapping as the record's shared tuple of (name, int) pairs, or
    None when it is not a mapping of names to plain ints."""
    if type(v) is not dict:
        return None
    ts = []
    for k, n in v.items():
        if type(n) is not int or type(k) is not str:
            return None
        ts.append((k, n))
    return share(shared, tuple(ts))  # type: ignore[no-any-return]
