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

from itertools import accumulate, chain, count, filterfalse, repeat
from operator import add, itemgetter
from typing import Any, Dict, List, Optional, Sequence, Tuple

from prefcli.model.cards import DECK, Card
from prefcli.model.records import Deal
from prefcli.model.cards import _CARD_CACHE as _CARD_TEXTS

__all__ = ["FULL_KEYS", "full_deal", "read_block", "texts_cards"]

#: the fields of a deal that :func:`full_deal` builds
FULL_KEYS = frozenset(("contract", "declarer", "dealer", "whist", "tricks", "open", "dark",
                       "hands", "talon", "auction", "discard", "play", "claim", "return"))
#: a record's table of card texts (tricks, talons, discards) holds at most this many
_TEXTS_MAX = 50000

_card = _CARD_TEXTS.__getitem__
#: the builder's unfrozen twin of Deal's slots (None: Deal's layout is not the one it knows), asked once
_SLOTS: List[Any] = []


class _Texts(Dict[str, Tuple[Card, ...]]):
    """A record's card texts (tricks, talons, discards) by their text, each parsed the first
    time it is asked for (``__missing__``). Why a dict's own miss hook: the tricks of a deal are
    looked up in one C loop (``map(texts.__getitem__, play)``), and Python runs only for a text
    not seen before (about 30 % of the tricks of a record of 10,000 deals); a text that is not
    plainly written cards, or not a text, raises KeyError (the long way reads it)."""

    def __missing__(self, text: Any) -> Tuple[Card, ...]:
        if type(text) is not str:
            raise KeyError(text)
        got = tuple(map(_card, text.split()))       # KeyError: not a card
        if len(self) >= _TEXTS_MAX:
            self.clear()
        self[text] = got
        return got


#: a field not written (m.get's default: a written null is a value the long way reads)
_ABSENT: Any = object()


def full_deal(m: Dict[str, Any], pos: int, builder: Any, tables: Tuple[Any, ...]) -> Optional[Any]:
    """The Deal of `m` built in one pass, or None (see the module docstring). `builder` is the
    record's :class:`~prefcli.model.build._Builder` (its shared tuples; its card texts are kept
    beside them); `tables` the builder module's parsed contracts, calls and decisions (learned by
    its long way), its sharing of equal tuples, and (asked once) its unfrozen twin of Deal's slots
    (None when Deal's layout is not the one it knows: then the long way builds every deal). Its
    keys are checked at once (a set's test in C) and each field is asked for by its name, so a
    field costs one lookup, not a walk down a chain of key comparisons; each of the twin's slots
    is stored once, and the twin becomes the Deal."""
    contracts, calls, decisions, share, slots_of = tables
    token = m.get("contract")
    contract = contracts.get(token) if type(token) is str else None
    if contract is None or not m.keys() <= FULL_KEYS:
        return None
    if not _SLOTS:
        _SLOTS.append(slots_of())
    slots = _SLOTS[0]
    if slots is None:
        return None
    texts = getattr(builder, "texts", None)
    if texts is None:
        texts = builder.texts = _Texts()
    get = m.get
    v = get("hands", _ABSENT)
    hands = None
    if v is not _ABSENT:
        if type(v) is not dict:
            return None
        hs = []
        known = getattr(builder, "hands", _NONE).get
        for k, text in v.items():
            if type(k) is not str or type(text) is not str:
                return None
            cards = known(text)             # (the block's hands, parsed at once: read_block)
            if cards is None:
                if "," in text:
                    return None
                try:
                    cards = tuple(map(_card, text.split()))
                except KeyError:
                    return None
            hs.append((k, cards))
        hands = tuple(hs)
    v, t, d = get("play", _ABSENT), get("talon", _ABSENT), get("discard", _ABSENT)
    # the tricks, talon and discard looked up in the record's table (each text parsed the first
    # time the record has it): a text that is not cards, or not a text, leaves the deal to the long way
    try:
        if v is _ABSENT:
            play = None
        elif type(v) is list:
            play = tuple(map(texts.__getitem__, v))
        else:
            return None
        talon = None if t is _ABSENT else texts[t]
        discard = None if d is _ABSENT else texts[d]
    except (KeyError, TypeError):       # not cards; unhashable
        return None
    v = get("auction", _ABSENT)
    if v is _ABSENT:
        auction = None
    elif type(v) is not list:
        return None
    else:
        try:
            auction = tuple(map(calls.get, v))      # (keys are texts: anything else is not found)
        except TypeError:
            return None
        if not all(auction):                        # a call not read before: the long way
            return None
    shared = builder.shared
    v = get("whist", _ABSENT)
    if v is _ABSENT:
        whist: Any = ()
    elif (whist := whist_pairs(v, decisions, share, shared)) is None:
        return None
    v, c = get("tricks", _ABSENT), get("claim", _ABSENT)
    tricks = None if v is _ABSENT else count_pairs(v, share, shared)
    claim = None if c is _ABSENT else count_pairs(c, share, shared)
    if tricks is None and v is not _ABSENT or claim is None and c is not _ABSENT:
        return None
    opened, dark = get("open", _ABSENT), get("dark", False)
    if opened is not _ABSENT and type(opened) is not bool or type(dark) is not bool:
        return None
    # the names: each not written, or a text not blank
    declarer, dealer, returned = get("declarer", _ABSENT), get("dealer", _ABSENT), get("return", _ABSENT)
    if not ((declarer is _ABSENT or type(declarer) is str and declarer.strip())
            and (dealer is _ABSENT or type(dealer) is str and dealer.strip())
            and (returned is _ABSENT or type(returned) is str and returned.strip())):
        return None
    deal: Any = object.__new__(slots)
    deal.pos = pos
    deal.contract = contract
    deal.declarer = None if declarer is _ABSENT else declarer
    deal.dealer = None if dealer is _ABSENT else dealer
    deal.returned_by = None if returned is _ABSENT else returned
    deal.whist = whist
    deal.tricks = tricks
    deal.open = None if opened is _ABSENT else opened
    deal.hands = hands
    deal.talon = talon
    deal.auction = auction
    deal.discard = discard
    deal.play = play
    deal.claim = claim
    deal.dark = dark
    deal.bomb = deal.takeover = deal.note = deal.bid = deal.partner = None
    deal.penalties = deal.irregularities = ()
    deal.concede = deal.without_all = deal.position = False
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
    for k, n in v.items():      # (a deal's three or four counts: cheaper than sets of their types)
        if type(n) is not int or type(k) is not str:
            return None
        ts.append((k, n))
    return share(shared, tuple(ts))  # type: ignore[no-any-return]


#: no hands parsed before (a builder without a block's table)
_NONE: Dict[str, Tuple[Card, ...]] = {}
#: each byte as its card's part: a rank (7 8 9 T J Q K A) as its place among the ranks (0 … 7),
#: a suit letter (S C D H) as its order × 8, anything else as 0xFF (not written as prefcli writes)
_RANK_BYTES = bytes(b"789TJQKA".find(bytes([b])) if bytes([b]) in b"789TJQKA" else 0xFF for b in range(256))
_SUIT_BYTES = bytes(8 * b"SCDH".find(bytes([b])) if bytes([b]) in b"SCDH" else 0xFF for b in range(256))
#: the cards of a hand
_HAND = 10


def read_block(block: Sequence[Any], builder: Any) -> None:
    """Before a block of deals' data is built: its hands read at once (``builder.hands``, by
    their text) and the card texts of its tricks, talons and discards the record has not had yet
    put in its table (``builder.texts``), each as :func:`texts_cards` reads them.

    Why: card by card, a hand's text costs a new text for each card and its lookup, and each
    new trick's text a call of the table's miss hook (together about a sixth of building a full
    deal); a block's texts read together cost a few passes in C. Anything the block holds that
    is not plainly those texts is left to the deal-by-deal reading."""
    try:        # (gathered in C: a summary record's block has none, found at once)
        hands = list(filter(None, map(dict.get, block, repeat("hands"))))
        plays = list(filter(None, map(dict.get, block, repeat("play"))))
        more = list(filter(None, chain(map(dict.get, block, repeat("talon")), map(dict.get, block, repeat("discard")))))
    except TypeError:                           # a deal that is not a mapping
        builder.hands = _NONE
        return
    if hands and set(map(type, hands)) != {dict}:
        hands = [h for h in hands if type(h) is dict]
    builder.hands = texts_cards(list(chain.from_iterable(map(dict.values, hands))), _HAND) if hands else _NONE
    known = getattr(builder, "texts", None)
    if known is None:
        known = builder.texts = _Texts()
    if plays and set(map(type, plays)) != {list}:
        plays = [p for p in plays if type(p) is list]
    try:
        new = list(filterfalse(known.__contains__, set(chain(chain.from_iterable(plays), more))))
    except TypeError:                           # (a trick that is a list: the long way)
        return
    if new and len(known) + len(new) <= _TEXTS_MAX:     # (the table's own bound: its miss hook's)
        known.update(texts_cards(new))


def texts_cards(texts: List[Any], k: int = 0) -> Dict[str, Tuple[Card, ...]]:
    """`texts` by their text, each the cards ``tuple(map(_card, text.split()))`` makes of it,
    all read at once; empty when they are not all written as prefcli writes cards (upper case,
    one space between; with `k`, `k` cards each).

    How: the texts joined by a "|", a ten's "10" as a "T" (the same card, both spellings being
    cards), so that each card is two characters and every third character a space or the "|"
    between two texts (a "|" or a space anywhere else is no card); the ranks' and the suits'
    characters then as bytes of their numbers, added as two long numbers into each card's place
    in DECK, and each text's cards are as many as the spaces between its "|"s, plus one. Anything
    else (a lower-case card, a suit's symbol, two spaces) leaves the texts to the card-by-card
    reading, which then says what it says of them."""
    n = len(texts)
    try:
        t = "|".join(texts).replace("10", "T")
    except TypeError:                           # not a text
        return {}
    seps = t[2::3]
    if k:       # (each text's place known: its "|" every k cards)
        if len(t) != 3 * k * n - 1 or seps != ((" " * (k - 1) + "|") * n)[:-1]:
            return {}
    elif not t or len(t) % 3 != 2 or seps.count(" ") + seps.count("|") != len(seps):
        return {}
    try:
        ranks = t[0::3].encode("ascii").translate(_RANK_BYTES)
        suits = t[1::3].encode("ascii").translate(_SUIT_BYTES)
    except UnicodeEncodeError:                  # not ASCII
        return {}
    if 0xFF in ranks or 0xFF in suits:
        return {}
    codes = (int.from_bytes(ranks, "big") + int.from_bytes(suits, "big")).to_bytes(len(ranks), "big")
    cards = itemgetter(*codes)(DECK) if len(codes) > 1 else (DECK[codes[0]],)
    if k:       # (each text's k cards: k at a time from one iterator of them all)
        return dict(zip(texts, zip(*[iter(cards)] * k)))
    parts = seps.split("|")
    if len(parts) != n:
        return {}
    ends = list(map(add, accumulate(map(len, parts)), count(1)))     # (a text's cards: its spaces + 1)
    return dict(zip(texts, map(cards.__getitem__, map(slice, chain((0,), ends), ends))))
