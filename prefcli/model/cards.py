"""Cards, contracts, auction calls and whist decisions: the vocabulary of the game.

Pure values, no I/O. Every parser raises :class:`NotationError` naming the bad token, so a
caller that knows *where* the token came from (a file, a line, a field) can say so.
"""
from __future__ import annotations

import enum
import functools
from dataclasses import field
from prefcli.model.slots import dataclass
from typing import TYPE_CHECKING, ClassVar, Dict, Iterable, Optional, Sequence, Tuple, Union

from prefcli.model.diagnostics import PrefcliError
from prefcli.model.values import close_names, did_you_mean, show


class NotationError(PrefcliError, ValueError):
    """A card, contract, call or decision that cannot be read."""

    kind = "schema"

    def __init__(self, token: object, message: str, path: Iterable = ()) -> None:
        super().__init__(message, path)
        self.token = token


class Suit(enum.Enum):
    """Suits in auction order: spades < clubs < diamonds < hearts."""

    S = ("S", "♠", 0)
    C = ("C", "♣", 1)
    D = ("D", "♦", 2)
    H = ("H", "♥", 3)

    def __init__(self, letter: str, symbol: str, order: int) -> None:
        self.letter = letter
        self.symbol = symbol
        self.order = order

    # each member is its one object, equal only to itself: hashed by identity, in C (Enum's own
    # __hash__ is a Python call hashing the name, asked whenever a card, a contract or a deal's
    # decisions are looked up; every command asks it tens of thousands of times)
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.letter


class Strain(enum.Enum):
    """A contract's trump: a suit or no trump, in auction order."""

    S = ("S", 0)
    C = ("C", 1)
    D = ("D", 2)
    H = ("H", 3)
    NT = ("NT", 4)

    def __init__(self, letter: str, order: int) -> None:
        self.letter = letter
        self.order = order

    __hash__ = object.__hash__      # (as Suit's)

    @property
    def suit(self) -> Optional[Suit]:
        return None if self is Strain.NT else Suit[self.name]

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return _RANK_TEXT[self]

    def __str__(self) -> str:
        return self.letter


_RANK_TEXT = {
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
    Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}
_RANK_PARSE = {v: k for k, v in _RANK_TEXT.items()}
_RANK_PARSE["T"] = Rank.TEN
_SUIT_PARSE = {s.letter: s for s in Suit}
_SUIT_PARSE.update({s.symbol: s for s in Suit})
# Variation selectors and the white-suit glyphs people paste from chat programs.
_SUIT_PARSE.update({"♤": Suit.S, "♧": Suit.C, "♢": Suit.D, "♡": Suit.H})


@functools.total_ordering
@dataclass(frozen=True)
class Card:
    """One of the 32 cards. Ordered by suit then rank (only for stable sorting)."""

    suit: Suit
    rank: Rank
    if TYPE_CHECKING:       # set by __post_init__ (not fields): the index in DECK and its bit
        _code: ClassVar[int]
        _bit: ClassVar[int]

    def __str__(self) -> str:
        return f"{self.rank.letter}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"Card({self})"

    def __lt__(self, other: "Card") -> bool:  # enums are not orderable: order by value
        return (self.suit.order, self.rank) < (other.suit.order, other.rank)

    def __post_init__(self) -> None:
        # the hash is asked for in every set and dict of cards (the deal's check, the replay):
        # the generated one hashes two enums each time, so it is computed once per card
        object.__setattr__(self, "_hash", hash((self.suit.order, int(self.rank))))
        # and its text, read by format_cards for every card a writer writes (an attribute is read
        # in a third of the time a dict keyed by the card takes: no __hash__ call)
        object.__setattr__(self, "_text", f"{self.rank.letter}{self.suit.letter}")
        # and its index in DECK (suit order × 8 + rank − 7) and that index's bit: the replay checks
        # every card of every full deal on bit masks (prefcli.rules.moves), and an attribute is
        # read in half the time of a table looked up by the card's identity
        code = self.suit.order * 8 + int(self.rank) - 7
        object.__setattr__(self, "_code", code)
        object.__setattr__(self, "_bit", 1 << code)

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]


DECK: Tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank)
_CARD_CACHE = {}
for _c in DECK:
    for _rt in [k for k, v in _RANK_PARSE.items() if v is _c.rank]:
        for _st in [k for k, v in _SUIT_PARSE.items() if v is _c.suit]:
            _CARD_CACHE[_rt + _st] = _c
            _CARD_CACHE[(_rt + _st).lower()] = _c


def parse_card(token: object) -> Card:
    """Read `7S`, `10H`, `TH`, `A♠` (case-insensitive letters)."""
    card = _CARD_CACHE.get(token) if isinstance(token, str) else None
    if card is not None:        # the common case: a card written plainly
        return card
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise NotationError(token, f"{show(token)} is not a card (expected text like 10H or A♠)")
    text = token.strip().replace("\ufe0f", "")
    card = _CARD_CACHE.get(text) or _CARD_CACHE.get(text.upper())
    if card is None:
        raise NotationError(
            token,
            f"'{token}' is not a card: a card is a rank 7 8 9 10 J Q K A (T for 10) "
            "followed by a suit S C D H or ♠ ♣ ♦ ♥, e.g. 10H or A♠",
        )
    return card


def parse_cards(value: Union[str, Sequence[object], None]) -> Tuple[Card, ...]:
    """Read a hand, talon or trick: a list of cards or one space-separated string."""
    if value is None:
        return ()
    if isinstance(value, str):
        tokens: Iterable[object] = value.replace(",", " ").split()
    elif isinstance(value, (list, tuple)):
        tokens = value
    else:
        raise NotationError(value, f"{show(value)} is not a list of cards")
    try:
        # every card written plainly (anything else raises, and is read one by one below)
        return tuple([_CARD_CACHE[t] for t in tokens])      # type: ignore[index]
    except (KeyError, TypeError):
        return tuple(parse_card(t) for t in tokens)


def format_cards(cards: Iterable[Card]) -> str:
    # each card's text is kept on it (a 10k full record writes 600,000 cards)
    try:
        return " ".join([c._text for c in cards])      # type: ignore[attr-defined]
    except (AttributeError, TypeError):    # not only cards: each as it prints itself
        return " ".join(str(c) for c in cards)


class ContractKind(enum.Enum):
    TRICKS = "tricks"
    MISERE = "misere"
    ALL_PASS = "all-pass"

    __hash__ = object.__hash__      # (as Suit's)


_KIND_NO = {ContractKind.TRICKS: 0, ContractKind.MISERE: 1, ContractKind.ALL_PASS: 2}


@dataclass(frozen=True)
class Contract:
    """A trick contract (level 6-10 and a strain), the misère, or an all-pass deal.

    `without_talon`: a misère or a 9 bid and played without taking the talon (seed 003 l.108
    "Mizerem bez przykładu, który jest przebijany dziewiątką bez przykładu", seed 004 l.53 "Minor
    be įpirkos yra didesnis nei 9 be įpirkos"): its own rung on the ladder, priced as the misère
    or the 9 it is."""

    kind: ContractKind
    level: Optional[int] = None
    strain: Optional[Strain] = None
    without_talon: bool = False

    # what kind it is, asked several times of every deal by its reading, replay and scorer:
    # plain attributes set once (not fields: equality, hashing and the repr stay the four fields)
    is_misere: bool = field(init=False, repr=False, compare=False)
    is_all_pass: bool = field(init=False, repr=False, compare=False)
    is_tricks: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kind = self.kind
        object.__setattr__(self, "is_misere", kind is ContractKind.MISERE)
        object.__setattr__(self, "is_all_pass", kind is ContractKind.ALL_PASS)
        object.__setattr__(self, "is_tricks", kind is ContractKind.TRICKS)
        # a contract is a key of the ladder's rungs and the price tables, asked for at every bid
        # and deal: the generated hash hashes two enums each time (by their names), so it is
        # computed once, from numbers (the same in every process, as pickling needs)
        strain = self.strain
        object.__setattr__(self, "_hash", hash((_KIND_NO.get(kind, -1), self.level,
                                                strain.order if isinstance(strain, Strain) else strain,
                                                self.without_talon)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    @property
    def trump(self) -> Optional[Suit]:
        return self.strain.suit if self.strain is not None else None

    @property
    def price_key(self) -> str:
        """The key of this contract in a preset's price tables: '6'..'10' or 'misere'."""
        if self.kind is ContractKind.TRICKS:
            return str(self.level)
        return self.kind.value

    def __str__(self) -> str:
        if self.kind is ContractKind.TRICKS:
            text = f"{self.level}{self.strain.letter}"  # type: ignore[union-attr]
        else:
            text = self.kind.value
        return text + WITHOUT_TALON_SUFFIX if self.without_talon else text

    @property
    def with_talon(self) -> "Contract":
        """The same contract played with the talon (what a table without the rung plays)."""
        return Contract(self.kind, self.level, self.strain) if self.without_talon else self


#: how a contract without the talon is written: ``misere-without-talon``, ``9S-without-talon``
WITHOUT_TALON_SUFFIX = "-without-talon"
_WITHOUT_TALON_SPELLINGS = ("-without-talon", " without talon", " without the talon", "-wt", " wt",
                            " без прикупа", "-без-прикупа", " bez przykupu", " bez przykładu", " be įpirkos")
MISERE = Contract(ContractKind.MISERE)
MISERE_WITHOUT_TALON = Contract(ContractKind.MISERE, without_talon=True)
ALL_PASS = Contract(ContractKind.ALL_PASS)
_STRAIN_PARSE = {"S": Strain.S, "C": Strain.C, "D": Strain.D, "H": Strain.H, "NT": Strain.NT,
                 "♠": Strain.S, "♣": Strain.C, "♦": Strain.D, "♥": Strain.H,
                 "♤": Strain.S, "♧": Strain.C, "♢": Strain.D, "♡": Strain.H,
                 "БК": Strain.NT, "BK": Strain.NT, "N": Strain.NT}
_MISERE_WORDS = {"misere", "misère", "мизер", "mizeris", "mizer"}
_ALLPASS_WORDS = {"all-pass", "allpass", "all_pass", "raspasy", "распасы", "egle", "eglė"}


def parse_contract(token: object) -> Contract:
    """Read `6S` … `10NT` (suit symbols accepted), `misere`, `all-pass`."""
    if isinstance(token, Contract):
        return token
    if isinstance(token, int) and not isinstance(token, bool):
        raise NotationError(token, f"'{token}' is not a contract: give a strain too, e.g. {token}S or {token}NT")
    if not isinstance(token, str):
        raise NotationError(token, f"{show(token)} is not a contract")
    text = token.strip().replace("\ufe0f", "")
    low = text.lower()
    for suffix in _WITHOUT_TALON_SPELLINGS:
        if low.endswith(suffix) and len(low) > len(suffix):
            base = parse_contract(text[:len(text) - len(suffix)])
            if base.is_misere or (base.is_tricks and base.level == 9):
                return Contract(base.kind, base.level, base.strain, True)
            raise NotationError(token, f"{show(token)}: only a misère or a 9 is bid without the talon "
                                       "(seed 003 l.108, seed 004 l.53)")
    if low in _MISERE_WORDS:
        return MISERE
    if low in _ALLPASS_WORDS:
        return ALL_PASS
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            break
    rest = text[len(digits):].strip().upper()
    if digits and rest in _STRAIN_PARSE:
        level = int(digits)
        if 6 <= level <= 10:
            return Contract(ContractKind.TRICKS, level, _STRAIN_PARSE[rest])
    spellings = {w: "misere" for w in _MISERE_WORDS}
    spellings.update({w: "all-pass" for w in _ALLPASS_WORDS})
    spellings.update({f"{n}{s}".lower(): f"{n}{s}" for n in range(6, 11) for s in ("S", "C", "D", "H", "NT")})
    close = [spellings[w] for w in close_names(low.replace(" ", ""), spellings)]
    raise NotationError(
        token,
        f"{show(token)} is not a contract: expected 6S 6C 6D 6H 6NT … 10NT (levels 6 to 10), "
        f"misere or all-pass{did_you_mean(low, (), close)}",
    )


def trick_contracts() -> Tuple[Contract, ...]:
    return tuple(Contract(ContractKind.TRICKS, lv, st) for lv in range(6, 11) for st in Strain)


@functools.lru_cache(maxsize=64)     # every record of a batch asks for its preset's ladder again
def ladder(misere_after: Optional[str] = "8NT", without_talon: str = "no") -> Tuple[Contract, ...]:
    """The auction ladder, lowest first, with the misère placed after `misere_after`.

    The misère's rung differs by variant (Russian: above 8NT; Lithuanian: above 9NT), so
    the place is a preset value, not a constant. `None` leaves the misère off the ladder.
    `without_talon` (option ``misere_without_talon``) adds the bids without the talon above
    9NT: ``below-nine-without-talon`` misère without the talon, then the nines without it
    (seed 003 l.108: "dziewiątkowa gra - Mizerem bez przykładu, który jest przebijany dziewiątką
    bez przykładu lub dziesiątką"); ``above-nine-without-talon`` the nines without it, then the
    misère without it (seed 004 l.53: "Minor be įpirkos yra didesnis nei 9 be įpirkos, bet mažesnis
    už 10-ąją kastuvą"); ``no``: neither.

    Cached: making the ladder (its contracts, the misère's place) cost about 0.1 ms, asked by
    every record's conventions, 0.1 s of a 1,000-file settle; the tuple and its contracts are
    immutable, so every record shares one.
    """
    rungs = list(trick_contracts())
    if misere_after is not None:
        anchor = parse_contract(misere_after)
        rungs.insert(rungs.index(anchor) + 1, MISERE)
    if without_talon != "no":
        nines = [Contract(ContractKind.TRICKS, 9, st, True) for st in Strain]
        extra = ([MISERE_WITHOUT_TALON] + nines if without_talon == "below-nine-without-talon"
                 else nines + [MISERE_WITHOUT_TALON])
        at = rungs.index(Contract(ContractKind.TRICKS, 9, Strain.NT)) + 1
        if at < len(rungs) and rungs[at] == MISERE:      # a misère above 9NT stays right above it
            at += 1
        rungs[at:at] = extra
    return tuple(rungs)


class CallKind(enum.Enum):
    PASS = "pass"
    HERE = "here"
    BID = "bid"

    __hash__ = object.__hash__      # (as Suit's)


_CALL_KIND_NO = {CallKind.PASS: 0, CallKind.HERE: 1, CallKind.BID: 2}


@dataclass(frozen=True)
class Call:
    """One auction call: pass, here (hold the last bid), or a bid (a contract or misère)."""

    kind: CallKind
    contract: Optional[Contract] = None
    dark: bool = False

    def __post_init__(self) -> None:
        # a deal's calls are a key of the replay's auctions (a record repeats a few hundred):
        # hashed once, from numbers (the same in every process), not through the enum's name
        object.__setattr__(self, "_hash", hash((_CALL_KIND_NO.get(self.kind, -1), self.contract, self.dark)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            return ("dark " if self.dark else "") + str(self.contract)
        return ("dark " if self.dark else "") + self.kind.value


_PASS_WORDS = {"pass", "pas", "пас", "p"}
_HERE_WORDS = {"here", "mine", "mano", "здесь", "мои", "hold"}


def parse_call(token: object) -> Call:
    """Read an auction call: `pass`, `here` (also `mine`), a contract, `misere`.

    A `dark ` prefix marks a call made without looking at one's cards (Classic, seed 002).
    """
    if isinstance(token, Call):
        return token
    if not isinstance(token, str):
        raise NotationError(token, f"{show(token)} is not an auction call (pass, here, misere or a contract)")
    text = token.strip()
    dark = False
    if text.lower().startswith("dark "):
        dark, text = True, text[5:].strip()
    low = text.lower()
    if low in _PASS_WORDS:
        return Call(CallKind.PASS, dark=dark)
    if low in _HERE_WORDS:
        return Call(CallKind.HERE, dark=dark)
    try:
        contract = parse_contract(text)
    except NotationError:
        raise NotationError(
            token, f"'{token}' is not an auction call: expected pass, here, misere or a contract like 6S"
        ) from None
    if contract.is_all_pass:
        raise NotationError(token, "'all-pass' is not a call: write pass for each player instead")
    return Call(CallKind.BID, contract, dark)


class Decision(enum.Enum):
    """A defender's whist decision."""

    WHIST = "whist"
    PASS = "pass"
    HALF_WHIST = "half-whist"

    __hash__ = object.__hash__      # (as Suit's)

    def __str__(self) -> str:
        return self.value


_DECISION_PARSE = {
    "whist": Decision.WHIST, "w": Decision.WHIST, "vist": Decision.WHIST, "вист": Decision.WHIST,
    "pass": Decision.PASS, "p": Decision.PASS, "pas": Decision.PASS, "пас": Decision.PASS,
    "half-whist": Decision.HALF_WHIST, "half": Decision.HALF_WHIST, "halfwhist": Decision.HALF_WHIST,
    "half_whist": Decision.HALF_WHIST, "полвиста": Decision.HALF_WHIST,
}


def parse_decision(token: object) -> Decision:
    if isinstance(token, Decision):
        return token
    if isinstance(token, str) and token.strip().lower() in _DECISION_PARSE:
        return _DECISION_PARSE[token.strip().lower()]
    raise NotationError(token, f"{show(token)} is not a whist decision: expected whist, pass or half-whist")


def defenders_quota(contract: Contract, both_whist: bool) -> int:
    """Tricks the defenders must take together (RULES.md §1 table); 0 for misère/all-pass."""
    if not contract.is_tricks:
        return 0
    level = contract.level or 0
    if both_whist:
        return {6: 4, 7: 2}.get(level, 1)
    return {6: 2}.get(level, 1)
