"""Building the record model (:mod:`prefcli.model.records`) from loaded data (a score sheet's:
:mod:`prefcli.model.build_sheet`, on this module's parts).

Building never raises on bad content: it records a :class:`Problem` with the data path and
leaves the field empty, so ``validate`` can report every problem of a file at once. Library
users who want an exception call :func:`record_from_data` with ``strict=True``.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, overload

from prefcli.model.cards import Call, Card, Contract, Decision, NotationError, parse_call, parse_cards, parse_contract, parse_decision
from prefcli.model.cards import _CARD_CACHE as _CARD_TEXTS   # a card's plain spellings (parse_cards' own table)
from prefcli.model.diagnostics import InputError, Path, Problems
from prefcli.model.numbers import check_amount
from prefcli.model.formats import RECORD_FORMAT
from prefcli.model.records import (IRREGULARITY_KINDS, PLAYER_COUNTS, Adjust, Deal, Entry, Irregularity,
                                   Penalty, Record, SheetData, counts_text, to_fraction)
from prefcli.model.values import show, type_name
from prefcli.model.build_full import count_pairs, full_deal, read_block, whist_pairs

# Parsed notation by its text: a long record repeats the same few contracts, decisions and cards
# thousands of times. Contract, Decision and Card are immutable, so sharing them is safe. Only
# successful parses are kept (a bad token is parsed again, to raise its own message), and only a
# bounded number of spellings.
_CONTRACTS: Dict[str, Contract] = {}
_DECISIONS: Dict[str, Decision] = {}
_CARDS: Dict[str, Card] = {}
_CALLS: Dict[str, Call] = {}
_PARSED_MAX = 2000
#: a record's whist decisions and trick counts, each distinct one kept once (_Builder.shared, one
#: record's: a process-wide table grew ~1 KiB by each input of a batch whose players differ)
_SHARED_MAX = 20000
#: deals whose hands and tricks are read together (build_full.read_block): long enough for its
#: passes to run in C, short enough for the joined texts to stay in the processor's cache
_BLOCK = 512


def _shared(table: Dict[Any, Any], value: Any) -> Any:
    """`value`, or the equal one built before in this record (tuples of names and counts)."""
    got = table.get(value)
    if got is None:
        if len(table) >= _SHARED_MAX:
            table.clear()
        table[value] = value
        return value
    return got


class _Builder:
    full_tables = (_CONTRACTS, _CALLS, _DECISIONS, _shared, lambda: _DealSlots if _made_matches() else None)
    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        self.shared: Dict[Any, Any] = {}
        #: the hands of the block of deals being built, by their text (build_full.read_block)
        self.hands: Dict[str, Tuple[Card, ...]] = {}

    def err(self, path: Path, message: str) -> None:
        self.problems.add(path, message, kind="schema")

    def name(self, value: Any, path: Path) -> Optional[str]:
        if isinstance(value, str) and value.strip():
            return value
        self.err(path, f"expected a player name, found {type_name(value)}")
        return None

    def integer(self, value: Any, path: Path) -> Optional[int]:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, Decimal) and value == value.to_integral_value():
            return int(value)
        self.err(path, f"expected a whole number, found {type_name(value)}")
        return None

    def amount(self, value: Any, path: Path) -> Optional[Fraction]:
        try:
            # the format's bounds (model.numbers): a number, or text
            return check_amount(to_fraction(value), type(value) is not str)
        except ValueError as exc:
            self.err(path, str(exc))
            return None

    def mapping(self, value: Any, path: Path) -> Optional[Mapping[str, Any]]:
        if type(value) is dict or isinstance(value, Mapping):  # typing's isinstance is slow
            return value
        self.err(path, f"expected a mapping, found {type_name(value)}")
        return None

    def cards(self, value: Any, path: Path) -> Optional[Tuple[Card, ...]]:
        if type(value) is list:
            try:
                return tuple([_CARDS[t] for t in value])
            except (KeyError, TypeError):  # a card not seen yet (or not a text): parse them
                pass
        elif type(value) is str and "," not in value:
            # a hand or trick as one text ("7S 8S 9S", what prefcli writes): parse_cards' own
            # reading of it, every card written plainly, without the call (a full deal has 15)
            try:
                return tuple([_CARD_TEXTS[t] for t in value.split()])
            except KeyError:               # anything else: parse_cards reads it or says why not
                pass
        try:
            out = parse_cards(value)
            if type(value) is list and len(_CARDS) < _PARSED_MAX:
                for t, c in zip(value, out):
                    if type(t) is str:
                        _CARDS[t] = c
            return out
        except NotationError as exc:
            sub = path
            if isinstance(value, list) and exc.token in value:
                sub = path + (value.index(exc.token),)
            self.err(sub, exc.message)
            return None

    def amounts_by_player(self, value: Any, path: Path) -> Tuple[Tuple[str, Fraction], ...]:
        m = self.mapping(value, path) or {}
        out = []
        for k, v in m.items():
            a = self.amount(v, path + (k,))
            if a is not None:
                out.append((str(k), a))
        return tuple(out)

    def sheet_data(self, data: Mapping[str, Any], players: Tuple[str, ...], path: Path) -> SheetData:
        base = SheetData.empty(players)
        pool, mountain = dict(base.pool), dict(base.mountain)
        whists = {p: dict(v) for p, v in base.whists.items()}
        for area, target in (("pool", pool), ("mountain", mountain)):
            for name, amt in self.amounts_by_player(data.get(area, {}), path + (area,)):
                target[name] = amt
        w = data.get("whists", {})
        for writer, row in (self.mapping(w, path + ("whists",)) or {}).items():
            for on, amt in self.amounts_by_player(row, path + ("whists", writer)):
                whists.setdefault(str(writer), {})[on] = amt
        state: Mapping[str, Any] = {}
        if data.get("state") is not None:
            state = dict(self.mapping(data["state"], path + ("state",)) or {})
        return SheetData(players, pool, mountain, whists, state)

    def deal(self, raw: Any, pos: int) -> Optional[Entry]:
        if type(raw) is dict and raw.keys() <= _PLAIN_KEYS:
            made = _plain_deal(raw, pos, self.shared)
            if made is not None:
                return made
        elif type(raw) is dict and (full := full_deal(raw, pos, self, self.full_tables)) is not None:
            return full                     # a full deal of the common kind, in one pass (build_full)
        path: Path = ("deals", pos)
        m = self.mapping(raw, path)
        if m is None:
            return None
        if "adjust" in m:
            return self.adjust(m.get("adjust"), pos, path + ("adjust",))
        kw: Dict[str, Any] = {}
        token = m.get("contract")
        contract = _CONTRACTS.get(token) if type(token) is str else None
        if contract is None:
            try:
                contract = parse_contract(token)
            except NotationError as exc:
                if "contract" not in m:
                    self.err(path, "a deal needs a contract (6S … 10NT, misere or all-pass)")
                else:
                    self.err(path + ("contract",), exc.message)
                return None
            if type(token) is str and len(_CONTRACTS) < _PARSED_MAX:
                _CONTRACTS[token] = contract
        if "bid" in m:
            try:
                kw["bid"] = parse_contract(m["bid"])
            except NotationError as exc:
                self.err(path + ("bid",), exc.message)
        for key in ("declarer", "dealer", "bomb", "takeover", "partner"):
            v = m.get(key)
            if v is not None:
                kw[key] = v if type(v) is str and v.strip() else self.name(v, path + (key,))
        if m.get("return") is not None:
            kw["returned_by"] = self.name(m["return"], path + ("return",))
        if "whist" in m:
            wm = self.mapping(m["whist"], path + ("whist",)) or {}
            ws = []
            for k, v in wm.items():
                d = _DECISIONS.get(v) if type(v) is str else None
                if d is not None:
                    ws.append((str(k), d))
                    continue
                try:
                    d = parse_decision(v)
                except NotationError as exc:
                    self.err(path + ("whist", k), exc.message)
                    continue
                ws.append((str(k), d))
                if type(v) is str and len(_DECISIONS) < _PARSED_MAX:
                    _DECISIONS[v] = d
            kw["whist"] = _shared(self.shared, tuple(ws))
        for key in ("tricks", "claim"):
            if key in m and m[key] is not None:
                tm = self.mapping(m[key], path + (key,)) or {}
                ts = []
                for k, v in tm.items():
                    n = v if type(v) is int else self.integer(v, path + (key, k))
                    if n is not None:
                        ts.append((str(k), n))
                kw[key] = _shared(self.shared, tuple(ts))
        for key in ("open", "dark", "concede", "without_all", "position"):
            if key in m and m[key] is not None:
                if isinstance(m[key], bool):
                    kw[key] = m[key]
                else:
                    self.err(path + (key,), f"expected true or false, found {type_name(m[key])}")
        if "hands" in m:
            hm = self.mapping(m["hands"], path + ("hands",)) or {}
            hands = []
            for k, v in hm.items():
                cs = self.cards(v, path + ("hands", k))
                if cs is not None:
                    hands.append((str(k), cs))
            kw["hands"] = tuple(hands)
        for key in ("talon", "discard"):
            if key in m and m[key] is not None:
                cs = self.cards(m[key], path + (key,))
                if cs is not None:
                    kw[key] = cs
        if "auction" in m and m["auction"] is not None:
            calls = []
            raw_calls = m["auction"]
            if isinstance(raw_calls, str):
                raw_calls = [c.strip() for c in raw_calls.split(",")] if "," in raw_calls else raw_calls.split()
            if not isinstance(raw_calls, list):
                self.err(path + ("auction",), "expected a list of calls")
            else:
                for i, c in enumerate(raw_calls):
                    call = _CALLS.get(c) if type(c) is str else None
                    if call is None:
                        try:
                            call = parse_call(c)
                        except NotationError as exc:
                            self.err(path + ("auction", i), exc.message)
                            continue
                        if type(c) is str and len(_CALLS) < _PARSED_MAX:
                            _CALLS[c] = call
                    calls.append(call)
                kw["auction"] = tuple(calls)
        if "play" in m and m["play"] is not None:
            if not isinstance(m["play"], list):
                self.err(path + ("play",), "expected a list of tricks")
            else:
                tricks = (self.cards(t, path + ("play", i)) for i, t in enumerate(m["play"]))
                kw["play"] = tuple(cs for cs in tricks if cs is not None)
        if "penalties" in m and m["penalties"] is not None:
            pens = []
            for i, p in enumerate(m["penalties"] if isinstance(m["penalties"], list) else []):
                pp = path + ("penalties", i)
                pm = self.mapping(p, pp)
                if pm is None:
                    continue
                who = self.name(pm.get("player"), pp + ("player",))
                w = pm.get("whists")
                on, wamt = None, Fraction(0)
                if isinstance(w, Mapping):
                    on = self.name(w.get("on"), pp + ("whists", "on"))
                    wamt = self.amount(w.get("amount", 0), pp + ("whists", "amount")) or Fraction(0)
                pens.append(Penalty(
                    who or "?",
                    self.amount(pm.get("mountain", 0), pp + ("mountain",)) or Fraction(0),
                    self.amount(pm.get("pool", 0), pp + ("pool",)) or Fraction(0),
                    on, wamt, pm.get("reason"),
                ))
            kw["penalties"] = tuple(pens)
        if "irregularities" in m and m["irregularities"] is not None:
            raw_irr = m["irregularities"]
            irrs = []
            if not isinstance(raw_irr, list):
                self.err(path + ("irregularities",), "expected a list of {kind, by}")
                raw_irr = []
            for i, item in enumerate(raw_irr):
                ip = path + ("irregularities", i)
                im = self.mapping(item, ip)
                if im is None:
                    continue
                kind = im.get("kind")
                if kind not in IRREGULARITY_KINDS:
                    self.err(ip + ("kind",), f"{show(kind)} is not an irregularity: expected "
                                             f"{', '.join(IRREGULARITY_KINDS)}")
                    continue
                by = self.name(im.get("by"), ip + ("by",))
                if by is not None:
                    irrs.append(Irregularity(str(kind), by))
            kw["irregularities"] = tuple(irrs)
        if m.get("note") is not None:
            kw["note"] = str(m["note"])
        return _new_deal(pos, contract, kw)

    def adjust(self, raw: Any, pos: int, path: Path) -> Optional[Adjust]:
        m = self.mapping(raw, path)
        if m is None:
            return None
        whists = []
        for writer, row in (self.mapping(m.get("whists", {}), path + ("whists",)) or {}).items():
            for on, amt in self.amounts_by_player(row, path + ("whists", writer)):
                whists.append((str(writer), on, amt))
        return Adjust(
            pos=pos,
            pool=self.amounts_by_player(m.get("pool", {}), path + ("pool",)),
            mountain=self.amounts_by_player(m.get("mountain", {}), path + ("mountain",)),
            whists=tuple(whists),
            note=str(m["note"]) if m.get("note") is not None else None,
        )


def _deal_slots() -> Optional[Tuple[Tuple[str, Any, Any], ...]]:
    """(field, slot setter, default) for every field of the slotted Deal, in field order (None:
    build Deals the usual way, e.g. once a field needs a factory or a __post_init__)."""
    import dataclasses
    if hasattr(Deal, "__post_init__") or not hasattr(Deal, "__slots__"):
        return None
    out = []
    for f in dataclasses.fields(Deal):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.name in ("pos", "contract") and f.default_factory is dataclasses.MISSING:  # type: ignore[misc]
            default = None
        else:
            return None
        out.append((f.name, getattr(Deal, f.name).__set__, default))
    return tuple(out)


_DEAL_SLOTS = _deal_slots()
_DEAL_FIELDS = frozenset(name for name, _, _ in _DEAL_SLOTS or ())


#: Deal's fields and their defaults as :func:`_made_deal` writes them out
_MADE_FIELDS = (("pos", None), ("contract", None), ("declarer", None), ("whist", ()), ("tricks", None),
                ("open", None), ("dealer", None), ("hands", None), ("talon", None), ("auction", None),
                ("discard", None), ("play", None), ("claim", None), ("dark", False), ("bomb", None),
                ("takeover", None), ("concede", False), ("without_all", False), ("returned_by", None),
                ("penalties", ()), ("irregularities", ()), ("note", None), ("bid", None), ("partner", None),
                ("position", False))


class _DealSlots:
    """Deal's slots in an unfrozen class of the same layout: a deal is filled here, each field an
    attribute store, and then becomes a Deal (``__class__``), the frozen class's ``__setattr__``
    never asked (see :func:`_made_deal`)."""

    __slots__ = tuple(name for name, _ in _MADE_FIELDS)


def _made_deal(pos: int, contract: Contract, kw: Dict[str, Any]) -> Deal:
    """``Deal(pos=pos, contract=contract, **kw)``, filled in :class:`_DealSlots` (only when
    :data:`_MADE` says Deal's fields and defaults are those written here)."""
    d: Any = object.__new__(_DealSlots)
    g = kw.get
    d.pos = pos
    d.contract = contract
    d.declarer = g("declarer")
    d.whist = g("whist", ())
    d.tricks = g("tricks")
    d.open = g("open")
    d.dealer = g("dealer")
    d.hands = g("hands")
    d.talon = g("talon")
    d.auction = g("auction")
    d.discard = g("discard")
    d.play = g("play")
    d.claim = g("claim")
    d.dark = g("dark", False)
    d.bomb = g("bomb")
    d.takeover = g("takeover")
    d.concede = g("concede", False)
    d.without_all = g("without_all", False)
    d.returned_by = g("returned_by")
    d.penalties = g("penalties", ())
    d.irregularities = g("irregularities", ())
    d.note = g("note")
    d.bid = g("bid")
    d.partner = g("partner")
    d.position = g("position", False)
    d.__class__ = Deal
    return d


def _made_matches() -> bool:
    """Whether :func:`_made_deal` makes a Deal: the same fields, in order, with the same defaults,
    and a layout a _DealSlots may be turned into."""
    if _DEAL_SLOTS is None or tuple((n, d) for n, _, d in _DEAL_SLOTS) != _MADE_FIELDS:
        return False
    if tuple(getattr(Deal, "__slots__", ())) != _DealSlots.__slots__:
        return False
    try:
        probe: Any = object.__new__(_DealSlots)
        probe.__class__ = Deal
    except TypeError:
        return False
    return True


_MADE = _made_matches()


def _new_deal(pos: int, contract: Contract, kw: Dict[str, Any]) -> Deal:
    """``Deal(pos=pos, contract=contract, **kw)`` without the frozen dataclass's ``__init__``
    (26 ``object.__setattr__`` calls and the keyword parsing were half the cost of building a
    deal from a record): each slot is set directly (:func:`_made_deal`, or each slot's setter).
    The object is the same: every field, in field order, defaults included."""
    slots = _DEAL_SLOTS
    if slots is None or not _DEAL_FIELDS >= kw.keys():
        return Deal(pos=pos, contract=contract, **kw)
    if _MADE:
        return _made_deal(pos, contract, kw)
    deal = object.__new__(Deal)
    get = kw.get
    for name, put, default in slots:
        put(deal, get(name, default))
    slots[0][1](deal, pos)
    slots[1][1](deal, contract)
    return deal


#: the fields of a summary deal that :func:`_plain_deal` builds
_PLAIN_KEYS = frozenset(("contract", "declarer", "dealer", "whist", "tricks", "open", "dark"))


def _plain_deal(m: Dict[str, Any], pos: int, shared: Dict[Any, Any]) -> Optional[Deal]:
    """A summary deal of the common kind built in one pass over its fields, or None: anything
    this does not know to be well-formed (a contract, decision or spelling not parsed yet, a key
    that is not a text, a null, a number that is not an int…) takes :meth:`_Builder.deal`'s long
    way, which builds the same Deal or says what is wrong. The deal is the long way's, field for
    field (tests/test_fast_paths.py). The fields go straight into a :class:`_DealSlots` as they
    are read, every default first (with :data:`_MADE`; else :func:`_plain_kw`): no keyword
    dictionary, no lookups of absent fields."""
    if not _MADE:
        return _plain_kw(m, pos, shared)
    token = m.get("contract")
    contract = _CONTRACTS.get(token) if type(token) is str else None
    if contract is None:
        return None
    d: Any = object.__new__(_DealSlots)
    d.pos = pos
    d.contract = contract
    d.declarer = d.tricks = d.open = d.dealer = d.hands = d.talon = d.auction = d.discard = None
    d.play = d.claim = d.bomb = d.takeover = d.returned_by = d.note = d.bid = d.partner = None
    d.whist = d.penalties = d.irregularities = ()
    d.dark = d.concede = d.without_all = d.position = False
    decisions = _DECISIONS
    for key, v in m.items():
        if key == "contract":
            continue
        if key == "declarer" or key == "dealer":
            if type(v) is not str or not v.strip():
                return None
            if key == "declarer":
                d.declarer = v
            else:
                d.dealer = v
        elif key == "whist":
            ws_t = whist_pairs(v, decisions, _shared, shared)
            if ws_t is None:
                return None
            d.whist = ws_t
        elif key == "tricks":
            ts_t = count_pairs(v, _shared, shared)
            if ts_t is None:
                return None
            d.tricks = ts_t
        elif key == "open" or key == "dark":
            if type(v) is not bool:
                return None
            if key == "open":
                d.open = v
            else:
                d.dark = v
        else:                 # (the caller let only _PLAIN_KEYS through)
            return None
    d.__class__ = Deal
    return d


def _plain_kw(m: Dict[str, Any], pos: int, shared: Dict[Any, Any]) -> Optional[Deal]:
    """:func:`_plain_deal`'s pass through a keyword dictionary (when Deal's slots are not those
    :data:`_MADE` knows)."""
    token = m.get("contract")
    contract = _CONTRACTS.get(token) if type(token) is str else None
    if contract is None:
        return None
    kw: Dict[str, Any] = {}
    for key, v in m.items():
        if key == "contract":
            continue
        if key == "whist":
            kw["whist"] = whist_pairs(v, _DECISIONS, _shared, shared)
            if kw["whist"] is None:
                return None
        elif key == "tricks":
            kw["tricks"] = count_pairs(v, _shared, shared)
            if kw["tricks"] is None:
                return None
        elif key == "open" or key == "dark":
            if type(v) is not bool:
                return None
            kw[key] = v
        else:                                   # declarer, dealer: a name
            if type(v) is not str or not v.strip():
                return None
            kw[key] = v
    return _new_deal(pos, contract, kw)


def _players(b: _Builder, data: Mapping[str, Any]) -> Tuple[str, ...]:
    raw = data.get("players")
    if not isinstance(raw, list):
        b.err(("players",), f"expected the list of {counts_text(PLAYER_COUNTS)} players in clockwise seat order")
        return ()
    names = []
    for i, p in enumerate(raw):
        n = b.name(p, ("players", i))
        if n is not None:
            names.append(n)
    return tuple(names)


@overload
def record_from_data(data: Any, problems: Optional[Problems] = ..., *, strict: Literal[True],
                     consume: bool = ...) -> Record: ...
@overload
def record_from_data(data: Any, problems: Optional[Problems], strict: Literal[True], consume: bool = ...) -> Record: ...
@overload
def record_from_data(data: Any, problems: Optional[Problems] = ..., strict: bool = ...,
                     consume: bool = ...) -> Optional[Record]: ...


def record_from_data(data: Any, problems: Optional[Problems] = None, strict: bool = False,
                     consume: bool = False) -> Optional[Record]:
    """Build a :class:`Record`; problems go to `problems` (or raise with `strict`).

    With `consume`, each deal's data is let go (its place in ``data["deals"]`` set to None) as
    soon as its deal is built, so the parsed deals and the built ones are not all held at once:
    for a caller that needs the data no more (places come from the text)."""
    problems = problems if problems is not None else Problems()
    b = _Builder(problems)
    if not isinstance(data, Mapping):
        b.err((), f"a record must be a mapping with format: {RECORD_FORMAT}, found {type_name(data)}")
        if strict:
            raise InputError(problems.items)
        return None
    players = _players(b, data)
    raw_rules = data.get("rules")
    rules: Mapping[str, Any] = raw_rules if isinstance(raw_rules, Mapping) else {}
    deals: List[Entry] = []
    raw_deals = data.get("deals", [])
    if not isinstance(raw_deals, list):
        b.err(("deals",), "expected a list of deals")
        raw_deals = []
    shared = b.shared
    full_tables = b.full_tables
    block_at = 0                    # where the next block of deals starts (read_block)
    for pos, raw in enumerate(raw_deals):
        if pos == block_at:
            block_at += _BLOCK
            if type(raw) is dict and "hands" in raw:
                # the block's hands and tricks, read at once (build_full), when it starts with a
                # full deal (a summary record's blocks are not looked through for none)
                read_block(raw_deals[pos:block_at], b)
            elif b.hands:
                b.hands = {}            # (an earlier block's hands are not this one's)
        # a plain summary deal or a full deal in one pass (b.deal's own first steps, without its
        # call and its second look at the keys), else b.deal
        d: Optional[Entry] = None
        if type(raw) is dict:
            if raw.keys() <= _PLAIN_KEYS:
                d = _plain_deal(raw, pos, shared)
            else:
                d = full_deal(raw, pos, b, full_tables)
        if d is None:
            d = b.deal(raw, pos)
        if consume:
            raw_deals[pos] = None
        if d is not None:
            deals.append(d)
    start = None
    if isinstance(data.get("start"), Mapping):
        start = b.sheet_data(data["start"], players, ("start",))
    rec = Record(
        players=players, rules=dict(rules), deals=tuple(deals),
        first_dealer=data.get("first_dealer") if isinstance(data.get("first_dealer"), str) else None,
        meta=dict(data.get("meta") or {}) if isinstance(data.get("meta"), Mapping) else {},
        start=start, end=data.get("end") if isinstance(data.get("end"), Mapping) else None,
    )
    if strict and problems:
        raise InputError(problems.items)
    return rec

