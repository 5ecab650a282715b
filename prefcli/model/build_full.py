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

from typing import Any, Callable, Dict, Optional, Tuple

from prefcli.model.cards import Card
from prefcli.model.cards import _CARD_CACHE as _CARD_TEXTS

__all__ = ["FULL_KEYS", "full_deal"]

#: the fields of a deal that :func:`full_deal` builds
FULL_KEYS = frozenset(("contract", "declarer", "dealer", "whist", "tricks", "open", "dark",
                       "hands", "talon", "auction", "discard", "play", "claim", "return"))
_NAMES = frozenset(("declarer", "dealer", "return"))
#: a record's table of card texts (tricks, talons, discards) holds at most this many
_TEXTS_MAX = 50000

_card = _CARD_TEXTS.__getitem__


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


def full_deal(m: Dict[str, Any], builder: Any,
              tables: Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any], Callable[[Dict[Any, Any], Any], Any]]
              ) -> Optional[Tuple[Any, Dict[str, Any]]]:
    """The contract and the other fields of `m` read in one pass, or None (see the module
    docstring). `builder` is the record's :class:`~prefcli.model.build._Builder` (its shared
    tuples; its card texts are kept beside them); `tables` the builder module's parsed
    contracts, calls and decisions (learned by its long way) and its sharing of equal tuples."""
    contracts, calls, decisions, share = tables
    token = m.get("contract")
    contract = contracts.get(token) if type(token) is str else None
    if contract is None:
        return None
    texts = getattr(builder, "texts", None)
    if texts is None:
        texts = builder.texts = {}
    shared = builder.shared
    kw: Dict[str, Any] = {}
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
            kw["hands"] = tuple(hands)
        elif key == "play":
            if type(v) is not list:
                return None
            tricks = []
            for t in v:
                cs = _cards(t, texts)
                if cs is None:
                    return None
                tricks.append(cs)
            kw["play"] = tuple(tricks)
        elif key == "talon" or key == "discard":
            cs = _cards(v, texts)
            if cs is None:
                return None
            kw[key] = cs
        elif key == "auction":
            if type(v) is not list:
                return None
            out = []
            for c in v:
                call = calls.get(c) if type(c) is str else None
                if call is None:
                    return None
                out.append(call)
            kw["auction"] = tuple(out)
        elif key == "whist":
            if type(v) is not dict:
                return None
            ws = []
            for k, d in v.items():
                dec = decisions.get(d) if type(d) is str else None
                if dec is None or type(k) is not str:
                    return None
                ws.append((k, dec))
            kw["whist"] = share(shared, tuple(ws))
        elif key == "tricks" or key == "claim":
            if type(v) is not dict:
                return None
            ts = []
            for k, n in v.items():
                if type(n) is not int or type(k) is not str:
                    return None
                ts.append((k, n))
            kw[key] = share(shared, tuple(ts))
        elif key == "open" or key == "dark":
            if type(v) is not bool:
                return None
            kw[key] = v
        else:                                   # declarer, dealer, return: a name
            if key not in _NAMES or type(v) is not str or not v.strip():
                return None
            kw["returned_by" if key == "return" else key] = v
    return contract, kw
