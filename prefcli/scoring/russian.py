"""The Russian scorer (Sochi, Leningrad, Rostov, Classic): a record → ledger entries.

Nothing here branches on the preset's name: every behaviour hangs off an option value
(PRESETS.md), so rescoring a record under another preset is changing a table. Sources for the
readings are RUSSIAN-VARIANTS.md (the Кодекс преферанса, 1996, first), RULES.md §2 and seeds 001,
003, 004; the option meanings in ``prefcli/presets/russian.py`` say which reading each value is.

Rule keys written on entries (what ``score --explain`` shows):
``contract.made``, ``contract.unplayed`` (both defenders passed), ``contract.failed``,
``whist.tricks``, ``whist.split`` (gentleman), ``whist.half`` (half-whist), ``consolation``,
``shortfall`` (defenders' remiz), ``misere.made``, ``misere.failed``, ``misere.whists``,
``without-three``, ``without-all``, ``ten.checked``, ``allpass.tricks``, ``allpass.zero-bonus``,
``allpass.rostov``, ``allpass.dealer-fine``, ``talon-bonus``, ``irregularity.misdeal``,
``irregularity.no-discard``, ``irregularity.revoke``, ``penalty``, ``adjust``, ``start``, ``help``,
``help.own-mountain``, ``close.early-stop``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple, Union

from prefcli.model.cards import Decision, Rank
from prefcli.rules.errors import TRICKS_PER_DEAL
from prefcli.model.records import Adjust, Deal, Record
from prefcli.rules.presets import Rules
from prefcli.model.ledger import Ledger
from prefcli.rules.reading import (ALONE, CONCEDED, HALF as HALF_WHIST_MODE, JOINT, NO_DISCARD, OPEN, RETURNED, TAKEOVER,
                                  WITHOUT_ALL, DealReading)
from prefcli.scoring import ScoreResult, ScoringError, context_for, position_note, reading_of

F = Fraction
ZERO = Fraction(0)
HALF = Fraction(1, 2)
#: An exact amount: whole amounts are kept as ints (int arithmetic is much faster), others as
#: Fractions; the ledger takes both.
Exact = Union[int, Fraction]


def score_record(record: Record, rules: Rules, ctx=None) -> ScoreResult:
    """Score every deal of `record` under `rules`; raises :class:`ScoringError` naming the deal.

    Every deal is read once in the record's context (`ctx`, built here when not given): the
    declarer, the defenders and their decisions, the quota and the tricks are the reading's; this
    module writes the arithmetic."""
    return _Scorer(record, rules, ctx).run()


def talon_tricks(talon: Sequence, misere: bool, misere_rule: str) -> int:
    """Potential tricks in the talon for the 4-player dealer's bonus (Кодекс 3.4.11).

    Ace 1, ace+king of one suit 2, two aces 3, marriage (K+Q of one suit) 1; on a misère with
    ``talon_bonus_misere: sevens``: a suited 7-8 or two sevens 2, one seven 1.
    """
    cards = list(talon)
    if len(cards) != 2:
        return 0
    a, b = cards
    if misere:
        if misere_rule != "sevens":
            return 0
        sevens = [c for c in cards if c.rank == Rank.SEVEN]
        if len(sevens) == 2:
            return 2
        if len(sevens) == 1:
            other = b if a.rank == Rank.SEVEN else a
            if other.rank == Rank.EIGHT and other.suit == (a if a.rank == Rank.SEVEN else b).suit:
                return 2
            return 1
        return 0
    aces = [c for c in cards if c.rank == Rank.ACE]
    if len(aces) == 2:
        return 3
    same_suit = a.suit == b.suit
    ranks = {a.rank, b.rank}
    if same_suit and ranks == {Rank.ACE, Rank.KING}:
        return 2
    if aces:
        return 1
    if same_suit and ranks == {Rank.KING, Rank.QUEEN}:
        return 1
    return 0


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


class _Scorer:
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
        self.dummy = table.dummy
        self.refs = rules.family.refs
        # plain values (whole Fractions as ints: int arithmetic is much faster, and exact)
        self.o = {k: _plain(v) for k, v in rules.values.items()}
        self.pool: Dict[str, Exact] = {p: 0 for p in self.players}
        self.mountain: Dict[str, Exact] = {p: 0 for p in self.players}
        self.notes: List[str] = []
        self.target = self.o["pool"]
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

    # ------------------------------------------------------------------ writing on the sheet
    def _ref(self, rule: str, text: str) -> str:
        """The entry's text with the rule text behind it (the family's refs: HUSAR.md H-numbers)."""
        ref = self.refs.get(rule)
        return f"{text} [HUSAR.md {ref}]" if ref else text

    def _mount(self, player: str, amount: Exact, rule: str, text: str) -> None:
        if amount:
            self.mountain[player] += amount
            self.ledger.mountain(self.deal_no, player, amount, rule, self._ref(rule, text))

    def _whists(self, writer: str, on: str, amount: Exact, rule: str, text: str) -> None:
        # the husar's dummy has no sector and writes nothing (HUSAR.md H12, H16): what the preset
        # gives a passer is the whister's or lost (husar.passer_share, read where it is split)
        if amount and writer in self.ledger_players:
            self.ledger.whists(self.deal_no, writer, on, amount, rule, self._ref(rule, text))

    def _pool_direct(self, player: str, amount: Exact, rule: str, text: str) -> None:
        if amount:
            self.pool[player] += amount
            self.ledger.pool(self.deal_no, player, amount, rule, self._ref(rule, text))

    def _pool(self, player: str, amount: Exact, rule: str, text: str) -> None:
        """Write pool points, helping once the pool is closed (Кодекс 4.2.3; seed 001 §7)."""
        if amount <= 0 or self.o["help"] == "none":
            self._pool_direct(player, amount, rule, text)
            return
        room = self.target - self.pool[player]
        own = min(amount, room) if room > 0 else 0
        self._pool_direct(player, own, rule, text)
        rest = amount - own
        per_point = self.o["help_whists"]
        while rest > 0:
            helped = self._help_recipient(player)
            if helped is None:
                off = rest * self.off_mountain
                self._mount(player, -off, "help.own-mountain",
                            f"{self._fmt(rest)} pool points nobody can take: off own mountain"
                            + (f" at {self._fmt(self.off_mountain)} (undivided mountain, Кодекс 4.1.1(в))"
                               if self.off_mountain != 1 else ""))
                return
            give = min(rest, self.target - self.pool[helped])
            self._pool_direct(helped, give, "help", f"help from {player} ({text})")
            self._whists(player, helped, give * per_point, "help",
                         f"{self._fmt(give)} points of help × {self._fmt(per_point)}")
            rest -= give

    def _help_recipient(self, donor: str) -> Optional[str]:
        clockwise = list(self.table.left_of(donor))
        open_ = [p for p in clockwise if self.pool[p] < self.target]
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
        return str(x.numerator) if x.denominator == 1 else f"{float(x):g}" if (x * 2).denominator == 1 else str(x)

    # ------------------------------------------------------------------ the game
    def run(self) -> ScoreResult:
        rec = self.record
        self.ledger.load_start(rec.start)
        if rec.start is not None:
            for p in self.players:
                self.pool[p] += rec.start.pool.get(p, ZERO)
                self.mountain[p] += rec.start.mountain.get(p, ZERO)
            if self._finished():        # the opening sheet is of a game that has ended
                self.finished_at = 0
        dealers = self.ctx.dealers                                 # one rotation for every layer
        after: List[int] = []
        for entry in rec.deals:
            self.deal_no = entry.number
            if isinstance(entry, Adjust):
                self._adjust(entry)
                continue
            reading = reading_of(self.ctx, entry)
            if reading.position:
                self.notes.append(position_note(reading))
                continue
            if self.finished_at is not None:
                after.append(entry.number)
            self._deal(entry, reading)
            if self.finished_at is None and self._finished():
                self.finished_at = entry.number
        if after:
            span = f"deal {after[0]}" if len(after) == 1 else f"deals {after[0]}–{after[-1]}"
            when = f"at deal {self.finished_at}" if self.finished_at else "before this record (start:)"
            self.notes.append(f"{span}: played after the game ended {when}")
        self.deal_no = len(rec.deals)
        if rec.end is not None and not self._finished():
            self._early_stop(str(rec.end.get("reason", "agreement")))
        return ScoreResult(record=rec, rules=self.rules, ledger=self.ledger,
                           dealers={k: v for k, v in dealers.items()},
                           finished=self._finished(), notes=self.notes,
                           extra={"allpass_streak": self.streak, "deals": self.history,
                                  "bombs": {p: list(b) for p, b in self.bombs.items() if b},
                                  "ended_at": self.finished_at},
                           state={"dealer": self.ctx.next_dealer, "allpass_run": self.ctx.final_allpass_run,
                                  "dark_run": self.ctx.final_dark_run, "allpass_streak": self.streak,
                                  "bombs": {p: tuple(F(b) for b in self.bombs[p]) for p in self.players}})

    def _finished(self) -> bool:
        if self.o["end"] == "total":
            return sum(self.pool.values()) >= self.n * self.target
        return all(v >= self.target for v in self.pool.values())

    def _early_stop(self, reason: str) -> None:
        """Early stop (Кодекс 4.2.3; seed 001 §7): each writes his shortfall to the mountain.

        The pool is written up to the target at the same time, so the closed sheet is not
        valued again at settlement. With ``leningrad_overs`` the settlement moves the
        under-played points (×2) itself, so nothing is written here.
        """
        if self.o["leningrad_overs"]:
            self.notes.append(f"ended early ({reason}): the pools are settled with leningrad_overs")
            return
        for p in self.players:
            short = self.target - self.pool[p]
            if short > 0:
                self._pool_direct(p, short, "close.early-stop", f"ended early ({reason}): pool closed")
                self._mount(p, short, "close.early-stop", f"ended early ({reason}): shortfall to the mountain")

    def _adjust(self, a: Adjust) -> None:
        text = a.note or "manual correction"
        for p, v in a.pool:
            self._check_player(p, a.path + ("adjust", "pool", p))
            self._pool_direct(p, v, "adjust", text)
        for p, v in a.mountain:
            self._check_player(p, a.path + ("adjust", "mountain", p))
            self._mount(p, v, "adjust", text)
        for w, on, v in a.whists:
            self._check_player(w, a.path + ("adjust", "whists", w))
            self._check_player(on, a.path + ("adjust", "whists", w, on))
            self._whists(w, on, v, "adjust", text)

    def _check_player(self, name: Optional[str], path) -> str:
        if name not in self.players:
            raise ScoringError(f"deal {self.deal_no}: {name} is not a player "
                               f"(players: {', '.join(self.players)})", path)
        return name  # type: ignore[return-value]

    # ------------------------------------------------------------------ one deal
    def _deal(self, d: Deal, reading: DealReading) -> None:
        dealer = reading.dealer
        self.cur = reading
        for who in reading.misdealt_by:
            # seed 001 l.142 "за неправильную сдачу – 2 в гору"; the deal is the one dealt again
            amount = self.o["irregularity.misdeal"]
            self._mount(who, amount, "irregularity.misdeal",
                        f"misdeal by {who}: {self._fmt(amount)} to the mountain (irregularity.misdeal)")
        self.cur_dealer = dealer
        self.cur_name = str(d.contract)
        active = reading.active
        if d.contract.is_all_pass:
            self._all_pass(d, dealer, active)
        else:
            if reading.allpass_run:
                self._check_exit(d, reading)
            made = self._contract(d, dealer, active)
            # what the scorer decided, per deal, as the Lithuanian scorers keep it (statistics)
            self.history.append({"deal": d.number, "declarer": d.declarer, "made": bool(made)})
            reset = self.o["allpass.progression_reset"]
            if reset == "any-deal" or (made and (reset == "made-game" or made == "whisted")):
                self.streak = 0
            if d.bomb is not None:
                self._gain_bomb(d, self.o["bomb_size"])
        for pen in d.penalties:
            # the penalised player writes the whists on the other (FORMAT.md, `penalties`)
            why = f"penalty ({pen.reason})" if pen.reason else "penalty"
            self._mount(pen.player, pen.mountain, "penalty", why)
            self._pool_direct(pen.player, pen.pool, "penalty", why)
            if pen.whists_on is not None:
                self._whists(pen.player, pen.whists_on, pen.whists, "penalty", why)

    def _check_exit(self, d: Deal, reading: DealReading) -> None:
        """A summary contract below the exit level after the all-passes before it (the reading's
        level: ``allpass.exit`` by their number, ``allpass.dark_exit`` by the dark ones, Кодекс
        3.7.7) is scored, with a note (the option's meaning; an auction below it is refused)."""
        if not d.contract.is_tricks or (d.contract.level or 0) >= reading.exit_level:
            return
        exits = self.o["allpass.exit"]
        plain = exits[min(reading.allpass_run, len(exits)) - 1] if exits else 0
        which = "allpass.exit"
        if reading.exit_level > plain:
            which = f"allpass.dark_exit, after {reading.dark_run} dark all-pass deal(s)"
        self.notes.append(f"deal {d.number}: {d.contract} after {reading.allpass_run} all-pass deal(s) "
                          f"is below the exit level {reading.exit_level} ({which})")

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
                what: str) -> Dict[str, int]:
        """The deal's tricks, as its reading has them (recorded, replayed or claimed), for the
        players `allowed` to take them (a left-out player took none)."""
        t = self.cur.tricks
        if t is None:
            raise ScoringError(f"deal {d.number}: tricks: {what} needs everyone's tricks", d.path + ("tricks",))
        if not d.contract.is_all_pass and len(t) == len(allowed) and all(p in t for p in allowed):
            # a contract's tricks as the reading checked them: every active player's count (0 for
            # one the play or claim left out), nobody else's, adding up to 10; read only here (a
            # husar's dummy, who takes no tricks of his own, goes the long way)
            return t
        for p, v in t.items():
            if v and p not in allowed:
                raise ScoringError(f"deal {d.number}: tricks: {p} does not take tricks in this deal "
                                   f"(active: {', '.join(allowed)})", d.path + ("tricks", p))
        if sum(t.values()) != TRICKS_PER_DEAL:
            raise ScoringError(f"deal {d.number}: tricks: they add up to {sum(t.values())}, not {TRICKS_PER_DEAL}",
                               d.path + ("tricks",))
        out = {p: 0 for p in allowed}
        out.update({p: v for p, v in t.items() if p in allowed})
        return out

    # ------------------------------------------------------------------ contracts
    def _contract(self, d: Deal, dealer: Optional[str], active: Tuple[str, ...]):
        """Score a trick contract or misère; returns falsy (failed), True (made) or "whisted"."""
        r = self.o
        reading = self.cur
        D = reading.declarer
        if D is None:
            raise ScoringError(f"deal {d.number}: a {d.contract} needs a declarer", d.path)
        defenders = list(reading.defenders)            # in the order they speak
        four_dealer = dealer if dealer in reading.sitting_out else None
        # the family reads a contract written without decisions as passed by both
        dec = {p: reading.decisions.get(p, Decision.PASS) for p in defenders}
        k, why = self._factor(d, D)
        tag = f" ({why})" if why else ""
        key = d.contract.price_key
        P = self.prices[key] * k
        name = self.cur_name

        partner = d.partner            # the reading checked it is the sitting-out dealer
        if reading.mode == WITHOUT_ALL:
            made = self._without_all(d, D, defenders, four_dealer, k, tag)
        elif reading.mode == NO_DISCARD:
            made = self._no_discard(d, D, P, tag)
        elif d.contract.is_misere:
            made = self._misere(d, D, defenders, four_dealer, P, tag, partner)
        else:
            made = self._tricks_contract(d, D, defenders, four_dealer, dec, P, k, tag)
        if self.o["dark"] and self.bombs[D] and made:
            self.bombs[D].pop(0)
        # the 4-player dealer's talon bonus (Кодекс 3.4.11), made or not, played or not; not when
        # he shares the misère: "Прикупщик уже наказан за плохой прикуп" (Кодекс fn44)
        if r["talon_bonus"] and partner is None:
            self._talon_bonus(d, D, defenders, four_dealer, P, name)
        return made

    def _without_all(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                     k: Exact, tag: str) -> bool:
        """Be visų (seed 004 l.200 "jam įskaitoma «be visų» nuolaida žaidime, kurį jis pasiekė
        prekybos proceso metu"): a remise of the bid reached with none of its tricks taken. The
        declarer writes level × price × declarer_fail_multiplier to his mountain; nothing is
        played and nobody whisted, so no trick whists are written, and the consolation for the
        missing tricks goes to those who write it on any remise (consolation_to)."""
        bid = d.bid
        assert bid is not None and bid.is_tricks      # the reading checked it
        level = bid.level or 0
        bp = self.prices[bid.price_key] * k
        per = bp * self.o["declarer_fail_multiplier"]
        self._mount(D, per * level, "without-all",
                    f"{d.contract} kept against the rules after the bid {bid}: be visų, "
                    f"down {level} × {self._fmt(per)}{tag}")
        c = self._consolation_per_trick(bp, k)
        for p in self._consolation_writers(D, defenders, [], dealer):
            self._whists(p, D, c * level, "consolation", f"consolation: {level} × {self._fmt(c)} (be visų)")
        return False

    def _no_discard(self, d: Deal, D: str, P: Exact, tag: str) -> bool:
        """Seed 001 l.142 "за игру без сноса – без двух в гору": the declarer writes
        irregularity.no_discard undertricks of his contract to his mountain, and nothing else is
        written for the deal (its tricks do not count)."""
        n = self.o["irregularity.no_discard"]
        per = P * (self.o["misere_fail"] if d.contract.is_misere else self.o["declarer_fail_multiplier"])
        self._mount(D, per * n, "irregularity.no-discard",
                    f"{self.cur_name} played without the discard: down {n} × {self._fmt(per)}{tag}")
        return False

    def _revoked(self, D: str, name: str) -> bool:
        """The declarer revoked and still made his game: "если виновный в ренонсе сыграл свою игру,
        он не пишет ничего" (seed 001 l.142); noted, since nothing is written."""
        if self.cur.revoked_by != D:
            return False
        self.notes.append(f"deal {self.deal_no}: {D} revoked and made {name}: he writes nothing "
                          "(seed 001 l.142 \"он не пишет ничего\")")
        return True

    def _talon_bonus(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                     P: Exact, name: str) -> None:
        r = self.o
        if dealer is None and r["talon_bonus_3p"] == "none":
            return
        if d.talon is None:
            raise ScoringError(f"deal {d.number}: talon: the talon bonus (talon_bonus = yes) needs "
                               "the deal's talon", d.path + ("talon",))
        n = talon_tricks(d.talon, d.contract.is_misere, r["talon_bonus_misere"])
        amount = n * P * self.wm
        if not amount:
            return
        text = f"talon bonus: {n} trick(s) in the talon × {self._fmt(P * self.wm)}"
        if dealer is not None:
            self._whists(dealer, D, amount, "talon-bonus", text)
        else:
            for p in defenders:
                self._whists(p, D, _half(amount), "talon-bonus", text + ", half each")

    def _consolation_writers(self, D: str, defenders: List[str], whisters: Sequence[str],
                             dealer: Optional[str]) -> List[str]:
        to = self.o["consolation_to"]
        out = list(whisters)
        if to in ("all", "defenders"):
            out += [p for p in defenders if p not in out]
        if to == "all" and dealer is not None and dealer not in out:
            out.append(dealer)
        if to == "all" and self.o.get("consolation_waiting"):      # (no such seat at a husar table)
            # five players: the one waiting his turn, who also sits out (consolation_waiting, inferred)
            out += [p for p in self.cur.sitting_out if p != self.cur.dealer and p not in out]
        return [p for p in self.players if p in out]

    def _consolation_per_trick(self, P: Exact, k: Exact) -> Exact:
        c = self.o["consolation"]
        if c == "none":
            return 0
        if c == "price":
            return P * self.wm
        return c * k

    def _misere(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                P: Exact, tag: str, partner: Optional[str] = None):
        """A misère; with a `partner` (the 4-player dealer, Кодекс 3.6.9) "выигрыш и проигрыш
        пишется пополам": each result written on or by the declarer is split between the two
        (fn43: each one's win or loss is three times smaller than a solo misère's)."""
        r = self.o
        t = self._tricks(d, [D] + defenders, [D], "a misère")
        taken = t[D]
        side = [D] if partner is None else [D, partner]
        share = 1 if partner is None else HALF
        half = "" if partner is None else f", half with {partner}"
        if taken == 0:
            if not self._revoked(D, self.cur_name):
                for p in side:
                    self._pool(p, P * share, "misere.made", f"misère made: {self._fmt(P)}{half}{tag}")
            return True
        revoke = self.cur.revoked_by == D
        for p in side:
            self._mount(p, P * r["misere_fail"] * taken * share, "irregularity.revoke" if revoke else "misere.failed",
                        ("revoked, the remise stands: " if revoke else "")
                        + f"misère with {taken} trick(s) × {self._fmt(P * r['misere_fail'])}{half}{tag}")
        k = F(P) / self.prices["misere"] if self.prices["misere"] else 1
        mw = r["misere_whists"] * k
        for p in defenders:
            for on in side:
                self._whists(p, on, mw * taken * share, "misere.whists",
                             f"caught the misère: {taken} × {self._fmt(mw)}{half}")
        if r["consolation_on_misere"]:
            c = self._consolation_per_trick(P, k)
            for p in self._consolation_writers(D, defenders, defenders, dealer):
                if p == partner:
                    continue
                for on in side:
                    self._whists(p, on, c * taken * share, "consolation",
                                 f"consolation {taken} × {self._fmt(c)}{half}")
        return False

    def _tricks_contract(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                         dec: Dict[str, Decision], P: Exact, k: Exact, tag: str):
        r = self.o
        level = d.contract.level or 0
        name = self.cur_name
        reading = self.cur
        # -- "without three" (seed 003: "odejść bez trzech … bez wistów")
        if reading.mode == CONCEDED:
            bid = d.bid if d.bid is not None and d.bid.is_tricks else d.contract
            bp = self.prices[bid.price_key] * k
            self._mount(D, 3 * bp, "without-three", f"{bid} conceded without three: 3 × {self._fmt(bp)}{tag}")
            return False
        # -- a checked ten (Кодекс fn39; seeds 003, 004): no whist, the declarer only checks it
        if level == 10 and r["tens"] == "checked":
            t = reading.tricks                    # recorded, or the ten played out to check it
            if t is None or t.get(D, 10) >= 10:
                if t is not None:
                    self._tricks(d, [D] + defenders, [D], "a checked ten")
                if not self._revoked(D, name):
                    self._pool(D, P, "ten.checked", f"{name} checked: {self._fmt(P)}{tag}")
                return True
            t = self._tricks(d, [D] + defenders, [D], "a checked ten")
            if r["checked_ten_fail"] == "mountain-only":
                u = TRICKS_PER_DEAL - t[D]
                self._mount(D, P * r["declarer_fail_multiplier"] * u, "contract.failed",
                            f"{name} checked, down {u}{tag}")
                return False
            return self._played(d, D, defenders, dealer, list(defenders), None, P, k, tag, t,
                                responsible=False)
        # who whists is the reading's (both for a Stalingrad 6♠, seed 001 §9, seed 003)
        whisters = list(reading.whisters) if reading.mode in (JOINT, ALONE, OPEN) else []
        if reading.mode in (HALF_WHIST_MODE, RETURNED):
            return self._half_whist(d, D, defenders, dealer, dec, reading.half_whister or "", P, k, tag)
        if reading.mode == TAKEOVER:
            # seed 004 l.37: both refused, the sitting-out dealer plays on in a defender's place;
            # scored from the recorded tricks like the dealer's returned whist (FSPR*)
            t = self._tricks(d, [D] + defenders, [D] + defenders, f"a {name} taken over by the dealer")
            made = self._played(d, D, defenders, dealer, [], reading.takeover, P, k, tag, t, responsible=False,
                                returner_says="took over the defence")
            # (a husar preset has no take-over, so no takeover_shortfall either)
            if self.o.get("takeover_shortfall") == "whister" and reading.takeover is not None:
                # takeover_shortfall: he answers for the defenders' quota like a lone whister
                self._shortfall(d, d.contract.level or 0, defenders, [reading.takeover], t,
                                sum(t[p] for p in defenders), P)
            return "whisted" if made else False
        if not whisters:
            passed = "the opponent passed" if self.dummy is not None else "both passed"
            self._pool(D, P, "contract.unplayed", f"{name}, {passed}: {self._fmt(P)}{tag}")
            return True
        t = self._tricks(d, [D] + defenders, [D] + defenders, f"a whisted {name}")
        made = self._played(d, D, defenders, dealer, whisters, None, P, k, tag, t, responsible=True)
        return "whisted" if made else False

    def _half_whist(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                    dec: Dict[str, Decision], hw: str, P: Exact, k: Exact, tag: str):
        """Half-whist (Кодекс 3.8.7–3.8.8; seed 001 §4): made without play, the half-whister
        writes for half the quota; a returned whist is played by the returner."""
        r = self.o
        level = d.contract.level or 0
        name = self.cur_name
        hw = next(p for p in defenders if dec[p] is Decision.HALF_WHIST)
        other = defenders[1] if hw == defenders[0] else defenders[0]
        if d.returned_by is not None:          # the reading checked who may return it
            ret = d.returned_by
            # seed 003 l.154, seed 004 l.258: who left on the half-whist writes no whists on a
            # remise, and the consolation is written in whists (half_whist_consolation: none)
            silent = (hw,) if r["half_whist_consolation"] == "none" else ()
            if ret == other:
                t = self._tricks(d, [D] + defenders, [D] + defenders, f"a returned {name}")
                # "уходивший за полвиста вистов при ремизе разыгрывающего не пишет" (Кодекс 3.8.14)
                made = self._played(d, D, defenders, dealer, [ret], None, P, k, tag, t, responsible=True,
                                    split=False, silent=silent)
                return "whisted" if made else False
            # FSPR*: the sitting-out dealer writes all the whists but answers for no shortfall
            t = self._tricks(d, [D] + defenders, [D] + defenders, f"a returned {name}")
            made = self._played(d, D, defenders, dealer, [], ret, P, k, tag, t, responsible=False,
                                silent=silent)
            return "whisted" if made else False
        half_tricks = F(self.cur.quota, 2) if level == 6 else r["half_whist_7_tricks"]
        self._pool(D, P, "contract.unplayed", f"{name}, half-whist: {self._fmt(P)}{tag}")
        self._whists(hw, D, half_tricks * P * self.wm, "whist.half",
                     f"half-whist: {self._fmt(half_tricks)} trick(s) × {self._fmt(P * self.wm)}")
        return True

    def _played(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                whisters: List[str], returner: Optional[str], P: Exact, k: Exact, tag: str,
                t: Dict[str, int], responsible: bool, split: bool = True,
                silent: Sequence[str] = (), returner_says: str = "returned the whist") -> bool:
        """A played trick contract: pool or mountain, trick whists, consolation, shortfall;
        the players in `silent` write no consolation (half_whist_consolation)."""
        r = self.o
        level = d.contract.level or 0
        name = self.cur_name
        wp = P * self.wm
        taken = t[D]
        td = sum(t[p] for p in defenders)
        made = taken >= level
        # seed 001 l.142: the declarer who revoked "не пишет ничего" when he made it, "при ремизе
        # ставит ремиз", and his opponents "освобождаются от ответственности"
        revoke = self.cur.revoked_by == D
        if made:
            if not self._revoked(D, name):
                self._pool(D, P, "contract.made", f"{name} made: {self._fmt(P)}{tag}")
        else:
            u = level - taken
            per = P * r["declarer_fail_multiplier"]
            self._mount(D, per * u, "irregularity.revoke" if revoke else "contract.failed",
                        ("revoked, the remise stands: " if revoke else "") + f"{name} down {u} × {self._fmt(per)}{tag}")
        # -- whists for the defenders' tricks (Кодекс fn53, 3.8.13, 3.8.14)
        if returner is not None:
            self._whists(returner, D, td * wp, "whist.tricks",
                         f"{returner_says}: {td} defenders' trick(s) × {self._fmt(wp)}")
        elif len(whisters) == 2:
            for p in whisters:
                self._whists(p, D, t[p] * wp, "whist.tricks", f"{t[p]} trick(s) × {self._fmt(wp)}")
        else:
            w = whisters[0]
            q = defenders[1] if w == defenders[0] else defenders[0]
            n_tr = td if r["single_whist"] == "all" else t[w]
            amount = n_tr * wp
            split = split and r["whist_style"] == "gentleman" and (not made or r["gentleman_split_when_made"])
            if q == self.dummy and r.get("husar.passer_share") == "whister-takes-all":
                split = False          # HUSAR.md H12: the whister writes what would be split
            if split:
                for p in (w, q):
                    self._whists(p, D, _half(amount), "whist.split",
                                 f"gentleman whist: half of {n_tr} trick(s) × {self._fmt(wp)}")
            else:
                self._whists(w, D, amount, "whist.tricks", f"{n_tr} trick(s) × {self._fmt(wp)}")
        # -- consolation on the declarer's remiz (Кодекс 3.8.1.2, fn36, fn54)
        if not made:
            u = level - taken
            c = self._consolation_per_trick(P, k)
            writers = whisters + ([returner] if returner else [])
            for p in self._consolation_writers(D, defenders, writers, dealer):
                if p not in silent:
                    self._whists(p, D, c * u, "consolation", f"consolation: {u} × {self._fmt(c)}")
        # -- the defenders' remiz (Кодекс 3.8.6, 3.8.11, 3.8.12)
        if responsible and whisters and not revoke:
            self._shortfall(d, level, defenders, whisters, t, td, P)
        return made

    def _rate(self, whister: str, P: Exact) -> Exact:
        resp = self.o["responsibility"]
        if resp == "none":
            return 0
        if resp == "full" or (resp == "half-until-closed" and self.pool[whister] >= self.target):
            return P * self.wm
        return _half(P * self.wm)

    def _shortfall(self, d: Deal, level: int, defenders: List[str], whisters: List[str],
                   t: Dict[str, int], td: int, P: Exact) -> None:
        r = self.o
        q = self.cur.quota
        if td >= q:
            return
        name = self.cur_name
        if len(whisters) == 1:
            w = whisters[0]
            if r["single_whist_quota"] == "half":
                q = self.cur.quota_alone()
                if td >= q:
                    return
            miss = q - td
            self._mount(w, miss * self._rate(w, P), "shortfall",
                        f"whisted {name}: defenders {miss} short of {q}")
            return
        if q == 1:       # 8, 9, 10: both took nothing
            payers = whisters if r["shortfall_8_10"] == "both" else [defenders[1]]
            for p in payers:
                self._mount(p, self._rate(p, P), "shortfall",
                            f"whisted {name}: defenders took nothing"
                            + (" (second whister answers)" if len(payers) == 1 else " (both answer)"))
            return
        halfq = q // 2
        below = [p for p in whisters if t[p] < halfq]
        if r["shortfall_split"] == "pair-deficit" and len(below) == 1:
            p = below[0]
            miss = q - td
            self._mount(p, miss * self._rate(p, P), "shortfall",
                        f"whisted {name}: the pair {miss} short of {q}, {p} below half")
            return
        for p in below:
            miss = halfq - t[p]
            self._mount(p, miss * self._rate(p, P), "shortfall",
                        f"whisted {name}: {t[p]} of his half ({halfq})")

    # ------------------------------------------------------------------ all-pass
    def _all_pass(self, d: Deal, dealer: Optional[str], active: Tuple[str, ...]) -> None:
        """All-pass (Кодекс 3.7; seed 001 §6; seeds 003, 004 for Rostov)."""
        r = self.o
        self.streak += 1
        prog = r["allpass.progression"]
        price = prog[min(self.streak, len(prog)) - 1] if prog else r["allpass.trick_price"]
        tag = ""
        dark_streak = 0            # this dark all-pass and the dark ones right before it
        if d.is_dark_allpass:
            if r["dark"]:
                dark_streak = self.cur.dark_run + 1
                factor = r["dark_multiplier"] ** dark_streak
                price *= factor
                tag = f" (dark pass ×{self._fmt(factor)})"
            else:
                self.notes.append(f"deal {d.number}: dark ignored (dark = no)")
        if d.bomb is not None:
            self._gain_bomb(d, r["bomb_size"] ** max(dark_streak, 1))
        talon = r["allpass.talon"]
        if talon == "by-seats":
            talon = "dealer-plays" if self.table.sits_out_every_deal else "lead-suit"
        four_dealer = dealer if dealer in self.cur.sitting_out else None
        # the husar's dummy sits out the all-pass, or plays as a robot whose tricks nobody
        # writes (HUSAR.md H15): only the players are scored
        active = self.cur.scored_players
        participants = list(active)
        if four_dealer is not None and talon == "dealer-plays":
            participants.append(four_dealer)
        elif four_dealer is not None and (d.tricks_map() or {}).get(four_dealer):
            # the record says the dealer won talon tricks: the facts win over the option
            participants.append(four_dealer)
            self.notes.append(f"deal {d.number}: the dealer {four_dealer} took talon tricks although "
                              f"allpass.talon = {r['allpass.talon']}; scored as recorded")
        t = self._tricks(d, participants + ([self.dummy] if self.dummy is not None else []), list(active),
                         "an all-pass deal")
        # the zero-trick bonus
        zt = r["allpass.zero_trick_points"]
        points = price if zt == "price" else F(zt)
        bonus = r["allpass.zero_trick_bonus"]
        zero = [p for p in participants if t[p] == 0]
        if four_dealer is not None:
            if four_dealer in zero:
                zero.remove(four_dealer)
            if r["allpass.zero_trick_bonus_dealer"] and t.get(four_dealer, 0) == 0:
                zero.append(four_dealer)
        if r["allpass.scoring"] == "rostov":
            self._rostov(d, active, t, price)
        else:
            base = min(t[p] for p in participants) if r["allpass.amnesty"] else 0
            for p in participants:
                n = t[p] - base
                if n > 0:
                    self._mount(p, n * price, "allpass.tricks",
                                f"all-pass #{self.streak}: {t[p]} trick(s)"
                                + (f" − {base} amnesty" if base else "") + f" × {self._fmt(price)}{tag}")
        fine = r["allpass.dealer_fine"]
        ap_run = self.cur.allpass_run + 1          # this all-pass and those right before it
        if fine and dealer is not None and ap_run % r["allpass.dealer_fine_every"] == 0:
            # OPR p.7: after the third all-pass in a row "the dealer may be fined up to 10 into gora"
            self._mount(dealer, fine, "allpass.dealer-fine",
                        f"dealer after {ap_run} all-pass deals in a row: fine {self._fmt(fine)}")
        for p in self.players:
            if p not in zero:
                continue
            if bonus == "pool":
                self._pool(p, points, "allpass.zero-bonus", f"all-pass without a trick: {self._fmt(points)}")
            elif bonus == "mountain":
                zf = r["allpass.zero_trick_mountain_factor"]
                self._mount(p, -zf * points, "allpass.zero-bonus",
                            f"all-pass without a trick: {self._fmt(zf)} × {self._fmt(points)} off the mountain")

    def _rostov(self, d: Deal, active: Tuple[str, ...], t: Dict[str, int], price: Exact) -> None:
        """Rostov: the fewest-tricks player writes whists on the others per trick; two tied for
        fewest write on the third by half each (Кодекс 3.7.2.2; seeds 003, 004)."""
        per = self.o["allpass.rostov_whists"] * price
        fewest = min(t[p] for p in active)
        writers = [p for p in active if t[p] == fewest]
        others = [p for p in active if p not in writers]
        share = F(1, len(writers))
        for w in writers:
            for q in others:
                self._whists(w, q, t[q] * per * share, "allpass.rostov",
                             f"all-pass: {q} took {t[q]} × {self._fmt(per)}"
                             + (f" ÷ {len(writers)}" if len(writers) > 1 else ""))
