"""The Russian scorer's sheet: how an amount is written on it (pool with help, mountain, whists,
each with its rule key and text) and what every part of the scorer reads of a deal (its tricks,
its dark and bomb factor). The parts: contracts (:mod:`prefcli.scoring.russian_contract`),
all-passes (:mod:`prefcli.scoring.russian_allpass`), the game (:mod:`prefcli.scoring.russian`)."""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple, Union

from prefcli.rules.errors import TRICKS_PER_DEAL
from prefcli.model.records import Deal, Record
from prefcli.rules.presets import Rules
from prefcli.model.ledger import Ledger, format_amount
from prefcli.rules.reading import DealReading
from prefcli.scoring import ScoringError, context_for

F = Fraction
ZERO = Fraction(0)
HALF = Fraction(1, 2)
#: An exact amount: whole amounts are kept as ints (int arithmetic is much faster), others as
#: Fractions; the ledger takes both.
Exact = Union[int, Fraction]


def _half(x):
    """Half of an amount, staying an int when it can (ints are fast; the result is exact)."""
    if type(x) is int and not x % 2:
        return x // 2
    return Fraction(x) / 2


def _plain(v):
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else v
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    return v


class SheetWriter:
    """The state of one record's scoring and the writing of its entries (see the module docstring)."""

    #: the reading of the deal being scored (set by the game loop, read by every part)
    cur: DealReading
    cur_name: str

    def __init__(self, record: Record, rules: Rules, ctx=None) -> None:
        self.record = record
        self.rules = rules
        self.ctx = context_for(record, rules, ctx)
        table = self.ctx.table
        assert table is not None     # context_for refused a record without a table
        self.table = table
        self.players: Tuple[str, ...] = tuple(record.players)
        self.n = len(self.players)
        self.ledger = Ledger(self.players)
        self.ledger_players = frozenset(self.players)
        #: whether an entry's text is kept: a ledger of totals only drops it, so the hot paths
        #: skip making it (``text if self.texts else ""``; the sums are the same)
        self.texts = not self.ledger.totals_only
        self.dummy = table.dummy
        self.refs = rules.family.refs
        # plain values (whole Fractions as ints: int arithmetic is much faster, and exact)
        self.o = {k: _plain(v) for k, v in rules.values.items()}
        # what the family states instead of offering it (Family.fixed; a husar table's AT_TWO)
        self.o.update((k, _plain(rules.value(k))) for k in rules.family.fixed if k not in self.o)
        self.pool: Dict[str, Exact] = {p: 0 for p in self.players}
        self.mountain: Dict[str, Exact] = {p: 0 for p in self.players}
        self.notes: List[str] = []
        self.target = self.o["pool"]
        self.no_help = self.o["help"] == "none"
        # the husar's undivided mountain (HUSAR.md H18, Кодекс 4.1.1(в)): pool points nobody can
        # take come off the mountain at half, a mountain point being worth twice as much
        self.off_mountain: Exact = HALF if self.o.get("husar.mountain") == "undivided" else 1
        self.prices = {k: self.o[f"prices.{k}"] for k in ("6", "7", "8", "9", "10", "misere")}
        self.wm = self.o["whist_multiplier"]
        # a game continued from a sheet goes on with its state (start.state, Family.state)
        state = self.ctx.state
        self.streak = state.get("allpass_streak", 0)    # all-passes counted by the progression
        self.bombs: Dict[str, List[Exact]] = {p: [_plain(b) for b in (state.get("bombs") or {}).get(p, ())]
                                              for p in self.players}
        self.finished_at: Optional[int] = None
        self.deal_no = 0
        self.history: List[Dict[str, object]] = []   # per declared deal: made or not
        #: a contract's text and price (0 for an all-pass, which has none), by the contract's identity
        self.names: Dict[int, Tuple[str, Exact]] = {}
        self.cur_price: Exact = 0

    # ------------------------------------------------------------------ writing on the sheet
    def _ref(self, rule: str, text: str) -> str:
        """The entry's text with the rule text behind it (the family's refs: HUSAR.md H-numbers)."""
        ref = self.refs.get(rule)
        return f"{text} [HUSAR.md {ref}]" if ref else text

    # (each writes through Ledger.add itself, the rule's reference looked up only when the family
    # has any: a scorer writes two or three entries a deal)
    def _mount(self, player: str, amount: Exact, rule: str, text: str) -> None:
        if amount:
            self.mountain[player] += amount
            self.ledger.add(self.deal_no, player, "mountain", amount, rule, None,
                            self._ref(rule, text) if self.refs else text)

    def _whists(self, writer: str, on: str, amount: Exact, rule: str, text: str) -> None:
        # the husar's dummy has no sector and writes nothing (HUSAR.md H12, H16): what the preset
        # gives a passer is the whister's or lost (husar.passer_share, read where it is split)
        if amount and writer in self.ledger_players:
            self.ledger.add(self.deal_no, writer, "whists", amount, rule, on,
                            self._ref(rule, text) if self.refs else text)

    def _pool_direct(self, player: str, amount: Exact, rule: str, text: str) -> None:
        if amount:
            self.pool[player] += amount
            self.ledger.add(self.deal_no, player, "pool", amount, rule, None,
                            self._ref(rule, text) if self.refs else text)

    def _pool(self, player: str, amount: Exact, rule: str, text: str) -> None:
        """Write pool points, helping once the pool is closed (Кодекс 4.2.3; seed 001 §7)."""
        if amount <= 0 or self.no_help:
            self._pool_direct(player, amount, rule, text)
            return
        pool = self.pool
        room = self.target - pool[player]
        if amount <= room:        # the common case: all of it his own (_pool_direct, inline)
            pool[player] += amount
            self.ledger.add(self.deal_no, player, "pool", amount, rule, None,
                            self._ref(rule, text) if self.refs else text)
            return
        if room > 0:
            self._pool_direct(player, room, rule, text)      # his own, up to the target
            rest = amount - room
        else:
            rest = amount                                    # his pool is closed: all of it helps
        per_point = self.o["help_whists"]
        target, players = self.target, self.players
        while rest > 0:
            for p in players:
                if pool[p] < target:
                    helped = self._help_recipient(player)
                    break
            else:
                helped = None     # every pool closed (most of a long game): nobody to help
            if helped is None:
                off = rest * self.off_mountain
                text = (f"{self._fmt(rest)} pool points nobody can take: off own mountain"
                        + (f" at {self._fmt(self.off_mountain)} (undivided mountain, Кодекс 4.1.1(в))"
                           if self.off_mountain != 1 else "") if self.texts else "")
                if off:                                  # _mount, inline
                    self.mountain[player] -= off
                    self.ledger.add(self.deal_no, player, "mountain", -off, "help.own-mountain", None,
                                    self._ref("help.own-mountain", text) if self.refs else text)
                return
            give = min(rest, self.target - self.pool[helped])
            texts = self.texts
            self._pool_direct(helped, give, "help", f"help from {player} ({text})" if texts else "")
            self._whists(player, helped, give * per_point, "help",
                         f"{self._fmt(give)} points of help × {self._fmt(per_point)}" if texts else "")
            rest -= give

    def _help_recipient(self, donor: str) -> Optional[str]:
        pool, target = self.pool, self.target
        for p in self.players:
            if pool[p] < target:
                break
        else:
            return None          # every pool closed (most of a long game): nobody to help
        clockwise = list(self.table.left_of(donor))
        open_ = [p for p in clockwise if pool[p] < target]
        if not open_:
            return None
        if self.o["help"] == "next":
            return open_[0]
        best = max(self.pool[p] for p in open_)
        tied = [p for p in open_ if self.pool[p] == best]
        if self.o["help_tie"] == "first-seat":
            return min(tied, key=self.players.index)
        return tied[0]       # the left neighbour: the first clockwise from the donor

    @staticmethod
    def _fmt(x: Exact) -> str:
        if type(x) is int:
            return str(x)
        x = F(x)
        # a half as a decimal ("1234567.5", where the float's :g wrote 1.23457e+06), else 40/3
        return str(x.numerator) if x.denominator == 1 else str(format_amount(x)) if x.denominator == 2 else str(x)


    # ------------------------------------------------------------------ what a deal gives
    def _gain_bomb(self, d: Deal, factor: int) -> None:
        if not self.o["dark"]:
            self.notes.append(f"deal {d.number}: bomb ignored (dark = no)")
            return
        self.bombs[d.bomb].append(factor)  # type: ignore[index]

    def _factor(self, d: Deal, declarer: str) -> Tuple[Exact, Optional[str]]:
        """Classic doublings (Кодекс 3.3.19, fn29–fn31): a dark bid ×2 and the declarer's
        oldest bomb (kept on a lost game, used up by a won one)."""
        k: Exact = 1
        why = []
        if d.dark:
            if self.o["dark"]:
                k *= self.o["dark_multiplier"]
                why.append(f"dark ×{self._fmt(self.o['dark_multiplier'])}")
            else:
                self.notes.append(f"deal {d.number}: dark ignored (dark = no)")
        if self.o["dark"] and self.bombs[declarer]:
            b = self.bombs[declarer][0]
            k *= b
            why.append(f"bomb ×{b}")
        return k, (", ".join(why) or None)

    def _tricks(self, d: Deal, allowed: Sequence[str], required: Sequence[str],
                what: str, name: str = "") -> Dict[str, int]:
        """The deal's tricks, as its reading has them (recorded, replayed or claimed), for the
        players `allowed` to take them (a left-out player took none). `what` and `name` (the
        contract's, after it) say what needs them, joined only for the message."""
        t = self.cur.tricks
        if t is None:
            raise ScoringError(f"deal {d.number}: tricks: {what}{name} needs everyone's tricks", d.path + ("tricks",))
        if not d.contract.is_all_pass and len(t) == len(allowed):
            # a contract's tricks as the reading checked them: every active player's count (0 for
            # one the play or claim left out), nobody else's, adding up to 10; read only here (a
            # husar's dummy, who takes no tricks of his own, goes the long way)
            for p in allowed:
                if p not in t:
                    break
            else:
                return t
        for p, v in t.items():
            if v and p not in allowed:
                raise ScoringError(f"deal {d.number}: tricks: {p} does not take tricks in this deal "
                                   f"(active: {', '.join(allowed)})", d.path + ("tricks", p))
        total = sum(t.values())
        # seed 002: a trick a talon card takes (allpass.talon: dealer-plays) is the dealer's when
        # he sits out, else nobody's, so the players may take 8 or 9 (the reading's bounds)
        if total != TRICKS_PER_DEAL and not TRICKS_PER_DEAL - (
                2 if (d.contract.is_all_pass and self.ctx.conv.allpass_talon == "dealer-plays"
                      and not self.cur.sitting_out) else 0) <= total <= TRICKS_PER_DEAL:
            raise ScoringError(f"deal {d.number}: tricks: they add up to {total}, not {TRICKS_PER_DEAL}",
                               d.path + ("tricks",))
        out = dict.fromkeys(allowed, 0)
        for p, v in t.items():
            if p in allowed:
                out[p] = v
        return out
