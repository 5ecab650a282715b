"""What the two Lithuanian scorers share: the running sheet, the defence, tricks, hens struck.

Seed 002 (classical "kleboniškasis") and seed 000 ("eglutė and kitty") differ in their tables
and in what a made contract writes, but read a deal the same way: who whisted and for which
hands, what the defenders had to take together, and who pays the shortfall. Those readings live
here so that both families agree on them, with the steps both scorers take alike (:class:`Game`:
reading a contract's play, writing a failed contract). Who deals and which all-passes are eglės
or eglutės is prefcli.seating's answer.
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Set, Tuple

from prefcli.model.cards import Card, Contract, Rank
from prefcli.model.records import Adjust, Deal, Record
from prefcli.rules.presets import Rules
from prefcli.model.ledger import Ledger
from prefcli.rules.reading import (BOTH_HANDS, CATCH, JOINT, OPEN, TAKEOVER, UNPLAYED, DealReading)
from prefcli.scoring import ScoringError, context_for, reading_of

F = Fraction


class Book:
    """The ledger plus running totals, so the scorers can ask "how many hens has he now?"."""

    def __init__(self, players: Sequence[str], words: Dict[str, str]) -> None:
        self.players: Tuple[str, ...] = tuple(players)
        self.ledger = Ledger(self.players)
        self.pool: Dict[str, Fraction] = {p: F(0) for p in self.players}
        self.mountain: Dict[str, Fraction] = {p: F(0) for p in self.players}
        self.words = words
        #: hens to strike when nobody has any left: below-zero (own mountain) or lost (strike_beyond)
        self.beyond = "below-zero"

    def write_pool(self, deal: Optional[int], player: str, amount: Fraction, rule: str, text: str) -> None:
        self.ledger.pool(deal, player, F(amount), rule, text)
        self.pool[player] += F(amount)

    def write_mountain(self, deal: Optional[int], player: str, amount: Fraction, rule: str, text: str) -> None:
        self.ledger.mountain(deal, player, F(amount), rule, text)
        self.mountain[player] += F(amount)

    def write_whists(self, deal: Optional[int], writer: str, on: str, amount: Fraction, rule: str,
                     text: str) -> None:
        self.ledger.whists(deal, writer, on, F(amount), rule, text)

    def load_start(self, record: Record) -> None:
        if record.start is None:
            return
        self.ledger.load_start(record.start)
        for p, v in record.start.pool.items():
            if p in self.pool:
                self.pool[p] += v
        for p, v in record.start.mountain.items():
            if p in self.mountain:
                self.mountain[p] += v

    def left_order(self, player: str) -> List[str]:
        """The other players, nearest to the left (clockwise) first: seed 002's tie-break."""
        i = self.players.index(player)
        n = len(self.players)
        return [self.players[(i + k) % n] for k in range(1, n)]

    def strike_hens(self, deal: Optional[int], player: str, amount: Fraction, prefer: str,
                    hen_whists: Fraction, rule: str, why: str) -> None:
        """Strike `amount` hens for `player`; what his mountain cannot cover is struck from others.

        Seed 002: "Parduodamos ir vištos, kai žaidžiantysis gali ... nusirašyti daugiau vištų, negu
        turi ant kalno. Parduodama žaidėjui, turinčiam mažiausiai vištų, ar kairiajam varžovui";
        seed 000: "nubraukia ... kito kurio nors žaidėjo vištų skaičių (paprastai to, kuris jų turi
        daugiausia) ir užsirašo ... už 1 vištą skaičiuojant 10 vistų". Each hen struck from another
        player is paid with `hen_whists` whists written on him. When nobody has hens left the rest
        is struck from the player's own mountain, below zero (it then counts for him at settlement,
        as the hens he would have sold), or lost: option ``strike_beyond`` (inferred).
        """
        amount = F(amount)
        if amount <= 0:
            return
        own = min(amount, max(self.mountain[player], F(0)))
        hens = self.words.get("mountain", "hens")
        if own > 0:
            self.write_mountain(deal, player, -own, rule, f"{why}: strikes {_n(own)} {hens}")
        rest = amount - own
        while rest > 0:
            others = [q for q in self.left_order(player) if self.mountain[q] > 0]
            if not others:
                if self.beyond == "below-zero":
                    self.write_mountain(deal, player, -rest, rule,
                                        f"{why}: nobody has {hens} left to strike; {_n(rest)} below zero")
                return
            order = {q: i for i, q in enumerate(self.left_order(player))}
            if prefer == "most":
                victim = min(others, key=lambda q: (-self.mountain[q], order[q]))
            else:
                victim = min(others, key=lambda q: (self.mountain[q], order[q]))
            take = min(rest, self.mountain[victim])
            self.write_mountain(deal, victim, -take, rule + ".sold",
                                f"{player} strikes {_n(take)} of {victim}'s {hens} ({why})")
            self.write_whists(deal, player, victim, take * hen_whists, rule + ".sold",
                              f"{player} strikes {_n(take)} of {victim}'s {hens}: {_n(hen_whists)} whists each")
            rest -= take


def _n(x: Fraction) -> str:
    x = F(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------------------------------------
# Tables and small helpers
# ---------------------------------------------------------------------------------------------

def price(rules: Rules, table: str, contract: Contract) -> Fraction:
    return F(rules[f"{table}.{contract.price_key}"])


def count_option(rules: Rules, name: str, players: int, auto: str, auto_value: int) -> int:
    v = rules[name]
    if v == auto:
        return auto_value
    f = F(v)
    if f.denominator != 1:
        raise ScoringError(f"rules: {name} must be a whole number, not {_n(f)}", ("rules", name))
    return int(f)


def apply_adjust(book: Book, entry: Adjust) -> None:
    note = f" ({entry.note})" if entry.note else ""
    for p, v in entry.pool:
        book.write_pool(entry.number, _seated(book, p, entry, "pool"), v, "adjust", "adjust" + note)
    for p, v in entry.mountain:
        book.write_mountain(entry.number, _seated(book, p, entry, "mountain"), v, "adjust", "adjust" + note)
    for w, on, v in entry.whists:
        book.write_whists(entry.number, _seated(book, w, entry, "whists"), _seated(book, on, entry, "whists"),
                          v, "adjust", "adjust" + note)


def apply_penalties(book: Book, deal: Deal) -> None:
    """A deal's penalties (the reading checked the names). Penalty whists are written by the
    penalised player on the other (FORMAT.md `penalties`), as in the Russian family."""
    for pen in deal.penalties:
        who = pen.player
        why = f"penalty{': ' + pen.reason if pen.reason else ''}"
        if pen.mountain:
            book.write_mountain(deal.number, who, pen.mountain, "penalty", why)
        if pen.pool:
            book.write_pool(deal.number, who, pen.pool, "penalty", why)
        if pen.whists and pen.whists_on is not None:
            book.write_whists(deal.number, who, pen.whists_on, pen.whists, "penalty", why)


def _seated(book: Book, name: str, entry: Adjust, area: str) -> str:
    if name not in book.players:
        raise ScoringError(f"deal {entry.number}: adjust names '{name}', who is not seated",
                           entry.path + ("adjust", area, name))
    return name


# ---------------------------------------------------------------------------------------------
# Tricks
# ---------------------------------------------------------------------------------------------

def trick_counts(deal: Deal, takers: Sequence[str], allowed_missing: int = 0,
                 reading: Optional[DealReading] = None) -> Dict[str, int]:
    """Each taker's trick count, from `tricks` or the reading's replay of `play` (+ `claim`).

    `takers` must all be listed (a 4-player dealer in an eglė too); the counts sum to 10, or to
    10 − up to `allowed_missing` (seed 002: with 3 players a talon-led trick won by the talon
    card belongs to nobody).
    """
    n = deal.number
    if reading is not None and reading.tricks is not None and not deal.contract.is_all_pass \
            and not reading.problems and len(reading.tricks) == len(takers) \
            and all(p in reading.tricks for p in takers):
        # a contract's tricks as its reading checked them (every active player's, nobody else's,
        # adding up to 10): read, not checked again
        return {p: reading.tricks[p] for p in takers}
    tricks: Optional[Dict[str, int]] = None
    if deal.tricks is not None:
        tricks = deal.tricks_map() or {}
        path = deal.path + ("tricks",)
    elif reading is not None and reading.tricks is not None:
        tricks = {p: v for p, v in reading.tricks.items() if v or p in takers}
        path = deal.path + ("play",)
        if tricks is not None:          # the replay lists only who won something
            tricks = {**{p: 0 for p in takers}, **tricks}
    if tricks is None:
        raise ScoringError(f"deal {n}: {deal.contract} was played, so the tricks are needed "
                           "(tricks: {name: count, …})", deal.path)
    tricks = {k: v for k, v in tricks.items() if k in takers or v != 0}   # a sitting dealer's 0 is harmless
    for name, count in tricks.items():
        if name not in takers:
            raise ScoringError(f"deal {n}: {name} holds no cards in this deal and takes no tricks "
                               f"(the players are {', '.join(takers)})", path + (name,))
        if count < 0 or count > 10:
            raise ScoringError(f"deal {n}: trick count {count} for {name} is impossible", path + (name,))
    missing = [p for p in takers if p not in tricks]
    if missing:
        raise ScoringError(f"deal {n}: no trick count for {', '.join(missing)}", path)
    total = sum(tricks.values())
    if not (10 - allowed_missing <= total <= 10):
        raise ScoringError(f"deal {n}: the tricks add up to {total}, not 10", path)
    return {p: tricks[p] for p in takers}


def talon_tricks(talon: Optional[Sequence[Card]], misere: bool, misere_form: str, two_aces: int = 2) -> int:
    """Potential tricks in the talon (seed 002's talon bonus).

    Trick games: an ace 1; the king beside the ace of its suit 1 more; a king and queen of one
    suit 1 ("tūzas, vienos spalvos tūzas ir karalius, vienos spalvos karalius ir dama").
    Misère (`sevens`): a seven 1, the eight beside the seven of its suit 1 more ("septynakė ar
    tos pačios spalvos septynakė su aštuonake"; counts inferred). A talon of two aces counts
    `two_aces` (option ``talon_two_aces``: 2, an ace each, inferred; 3 the Кодекс's count).
    """
    if not talon or (misere and misere_form == "none"):
        return 0
    cards = set(talon)
    if not misere and len(cards) == 2 and all(c.rank is Rank.ACE for c in cards):
        return two_aces
    count = 0
    for s in {c.suit for c in cards}:
        ranks = {c.rank for c in cards if c.suit is s}
        if misere:
            count += _head_and_next(ranks, Rank.SEVEN, Rank.EIGHT)
        else:
            count += _head_and_next(ranks, Rank.ACE, Rank.KING) or int(Rank.KING in ranks and Rank.QUEEN in ranks)
    return count


def _head_and_next(ranks: Set[Rank], head: Rank, beside: Rank) -> int:
    """1 for `head` in a suit, 1 more for `beside` with it (ace and king; seven and eight)."""
    return (1 + (beside in ranks)) if head in ranks else 0


# ---------------------------------------------------------------------------------------------
# The defence
# ---------------------------------------------------------------------------------------------

@dataclass
class Defence:
    """Who defends, for which hands, and what they owe.

    `whisters` write whists; `credited` is the tricks each is credited with (a whister from both
    hands is credited with both defenders' tricks); `quota` is what they must take together.
    """

    mode: str                         # none | joint | alone | both-hands | takeover
    whisters: List[str] = field(default_factory=list)
    credited: Dict[str, int] = field(default_factory=dict)
    quota: int = 0
    played: bool = True


def defence_of(reading: DealReading) -> Defence:
    """The reading's defence in the Lithuanian scorers' terms (seeds 000, 002):

    - both pass, nobody takes over: the contract counts as made without play;
    - both whist: each for himself, their quota counted together;
    - one whists alone (the passer's cards put away): the single quota (2 at 6, else 1);
    - one whists from both hands: `open: true` (seed 002 "atviromis", seed 000 "Verčiam!") or
      `takeover:` naming himself (seed 002 "uždaromis", seed 000 "Padėk!"): the both-hands quota;
    - `takeover:` naming the passer, or with 4 players the dealer (seed 002 "Perimu"): he whists
      from both hands with all the responsibility; the one who said whist writes nothing.
    """
    mode = reading.mode
    whisters = list(reading.whisters)
    if mode == CATCH:                  # a misère: the whisters catch it
        if not whisters:
            return Defence("none", [], {}, 0, played=False)
        if len(whisters) == 2:
            return Defence("joint", whisters, {}, 0)
        return Defence("both-hands" if reading.open else "alone", whisters, {}, 0)
    if mode == JOINT:
        return Defence("joint", whisters, {}, reading.quota)
    if mode in (OPEN, BOTH_HANDS):
        return Defence("both-hands", whisters, {}, reading.quota)
    if mode == TAKEOVER:
        return Defence("takeover", whisters, {}, reading.quota)
    if mode == UNPLAYED:
        return Defence("none", [], {}, 0, played=False)
    return Defence("alone", whisters, {}, reading.quota_alone())


def credit_tricks(defence: Defence, tricks: Dict[str, int], defenders: Sequence[str]) -> None:
    """Fill `defence.credited` from the deal's trick counts."""
    if defence.mode == "joint":
        defence.credited = {w: tricks.get(w, 0) for w in defence.whisters}
    elif defence.whisters:
        defence.credited = {defence.whisters[0]: sum(tricks.get(d, 0) for d in defenders)}


def shortfalls(defence: Defence, rules: Rules, defenders: Sequence[str]) -> Dict[str, Fraction]:
    """Tricks each whister is charged for when the defenders take fewer than their quota.

    Two whisters (seed 000: "paimtų kirčių skaičius ... skaičiuojamas bendrai"): nothing is owed
    while their total meets the quota. `pair-deficit` (seed 000 examples 3–5): the pair's deficit
    is paid by whoever is below half the quota, each his own deficit when both are; `own-half`:
    each pays his own deficit against half the quota. On 8–10 (quota 1) when both take nothing,
    `shortfall_8_10` decides: split (½ each), second (the second whister), both (1 each).
    """
    q = defence.quota
    out: Dict[str, Fraction] = {}
    if q <= 0 or not defence.whisters:
        return out
    if defence.mode != "joint":
        w = defence.whisters[0]
        missing = q - defence.credited.get(w, 0)
        if missing > 0:
            out[w] = F(missing)
        return out
    a, b = defence.whisters
    ta, tb = defence.credited.get(a, 0), defence.credited.get(b, 0)
    deficit = q - ta - tb
    if q == 1:
        if deficit <= 0:
            return out
        mode = rules["shortfall_8_10"]
        if mode == "both":
            return {a: F(1), b: F(1)}
        if mode == "second":
            second = [d for d in defenders if d in (a, b)][-1]
            return {second: F(1)}
        return {a: F(1, 2), b: F(1, 2)}
    half = F(q, 2)
    own = {a: max(F(0), half - ta), b: max(F(0), half - tb)}
    if rules["shortfall_split"] == "own-half":
        return {w: v for w, v in own.items() if v > 0}
    if deficit <= 0:
        return out
    below = [w for w in (a, b) if own[w] > 0]
    if len(below) == 2:
        return {w: own[w] for w in below}
    return {below[0]: F(deficit)} if below else out


# ---------------------------------------------------------------------------------------------
# A contract's entries common to both families
# ---------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    """The result of a trick game or misère, before any family-specific writing."""

    made: bool
    missing: int                      # undertricks (misère: tricks the declarer took)
    defence: Defence
    declarer_tricks: Optional[int]


def read_outcome(deal: Deal, defence: Defence, tricks: Optional[Dict[str, int]], declarer: str) -> Outcome:
    c = deal.contract
    if not defence.played or tricks is None:
        return Outcome(True, 0, defence, None)
    t = tricks[declarer]
    if c.is_misere:
        return Outcome(t == 0, t, defence, t)
    level = c.level or 6
    return Outcome(t >= level, max(0, level - t), defence, t)


def write_defence(book: Book, deal: Deal, rules: Rules, outcome: Outcome, declarer: str,
                  defenders: Sequence[str], factor: Fraction, writeup: bool, why: str) -> None:
    """Whisters' whists, the write-up, the shortfall hens and the misère catchers' hens.

    Whists per trick go in the whister's column on the declarer (seed 002: "už paimtus kirčius
    ... užsirašo vistus"; seed 000: "pelno lentelėje nurodytą vistų skaičių"). On a misère they
    are written per trick the declarer took. With `writeup` (seed 002's aprašymas) a whister of a
    failed contract also writes the declarer's missing tricks.
    """
    c = deal.contract
    d = outcome.defence
    n = deal.number
    wp = price(rules, "whist_price", c)
    hens = book.words.get("mountain", "hens")
    if c.is_misere:
        if not d.whisters:
            return
        if outcome.made:
            each = price(rules, "shortfall", c) * factor
            share = each if rules["misere_catchers"] == "each" else each / len(d.whisters)
            for w in d.whisters:
                book.write_mountain(n, w, share, "misere.caught-nothing",
                                    f"{why}the misère was made: {w} writes {_n(share)} {hens}")
        else:
            for w in d.whisters:
                amt = wp * outcome.missing * factor
                book.write_whists(n, w, declarer, amt, "whists.misere",
                                  f"{why}{outcome.missing} trick(s) the misère declarer took × {_n(wp)}"
                                  + _times(factor))
        return
    hands = {"both-hands": " (from both hands)", "takeover": " (taken over, both hands)"}.get(d.mode, "")
    for w in d.whisters:
        t = d.credited.get(w, 0)
        extra = outcome.missing if (writeup and not outcome.made) else 0
        if t + extra:
            text = f"{why}{t} trick(s){hands} × {_n(wp)}"
            if extra:
                text = f"{why}{t} trick(s){hands} + {extra} missing (write-up) × {_n(wp)}"
            book.write_whists(n, w, declarer, wp * (t + extra) * factor,
                              "whists.tricks" if not extra else "whists.writeup", text + _times(factor))
    short = shortfalls(d, rules, defenders)
    sp = price(rules, "shortfall", c)
    for w, missing in short.items():
        book.write_mountain(n, w, sp * missing * factor, "whist.shortfall",
                            f"{why}{_n(missing)} trick(s) short of the defenders' quota {d.quota} × {_n(sp)}"
                            + _times(factor))


def _times(factor: Fraction) -> str:
    return "" if factor == 1 else f" × {_n(factor)}"


# ---------------------------------------------------------------------------------------------
# The game: what both scorers keep per record, and the steps they take alike
# ---------------------------------------------------------------------------------------------

@dataclass
class Play:
    """A trick game or misère as read from the deal: seats, defence, tricks and outcome."""

    declarer: str
    active: List[str]
    defenders: List[str]
    defence: Defence
    tricks: Optional[Dict[str, int]]
    outcome: Outcome

    def info(self, factor: Fraction) -> Dict[str, object]:
        """The deal's row in the scorer's history (``ScoreResult.extra['deals']``)."""
        return {"declarer": self.declarer, "made": self.outcome.made, "factor": factor, "tricks": self.tricks,
                "defence": self.defence.mode}


class Game:
    """The running state both Lithuanian scorers share: the record, its rules and seats, the
    book and the game's words. A family adds its own state and its own defence rules."""

    family = ""                       # the family's name, for error messages

    def __init__(self, record: Record, rules: Rules, ctx=None) -> None:
        self.record = record
        self.rules = rules
        self.ctx = context_for(record, rules, ctx)
        table = self.ctx.table
        assert table is not None     # context_for refused a record without a table
        self.table = table
        self.players = record.players
        self.words = dict(rules.family.words)
        self.book = Book(self.players, self.words)
        self.book.beyond = rules["strike_beyond"]
        self.hen_whists = F(rules["hen_whists"])

    def check_defence(self, deal: Deal, defence: Defence) -> None:
        """A family's own rules on how a contract may be defended (checked before the tricks)."""

    def check_allpass(self, deal: Deal, name: str) -> None:
        """An eglė / eglutė (all-pass) is nobody's contract."""
        if deal.declarer is not None or deal.whist:
            raise ScoringError(f"deal {deal.number}: an {name} (all-pass) has no declarer and no whist decisions",
                               deal.path)

    def reading(self, deal: Deal) -> DealReading:
        """The deal's reading (ScoringError with its first problem when it has one)."""
        return reading_of(self.ctx, deal)

    def read_play(self, deal: Deal, dealer: str) -> Play:
        """Declarer, defence, tricks and outcome of a trick game or misère, from the reading.

        With 4 players the dealer sits out and cannot declare; the tricks are needed only when
        the contract was played (both defenders passing and nobody taking over: made unplayed).
        """
        reading = self.reading(deal)
        declarer = reading.declarer
        if declarer is None:
            raise ScoringError(f"deal {deal.number}: {deal.contract} needs a declarer", deal.path)
        active = list(reading.active)
        defenders = list(reading.defenders)
        defence = defence_of(reading)
        self.check_defence(deal, defence)
        tricks = trick_counts(deal, active, reading=reading) if defence.played else None
        if tricks is not None:
            credit_tricks(defence, tricks, defenders)
        return Play(declarer, active, defenders, defence, tricks, read_outcome(deal, defence, tricks, declarer))

    def write_failed(self, deal: Deal, play: Play, factor: Fraction, label: str) -> None:
        """The declarer's hens for a failed contract: per missing trick (misère: per trick taken)."""
        c = deal.contract
        rz = price(self.rules, "remiz", c)
        what = "trick(s) taken" if c.is_misere else "missing trick(s)"
        missing = play.outcome.missing
        self.book.write_mountain(deal.number, play.declarer, rz * missing * factor, "contract.failed",
                                 f"{label} failed: {missing} {what} × {_n(rz)} {self.words['mountain']}"
                                 + _times(factor))
