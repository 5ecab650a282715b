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

from typing import List, Optional

from prefcli.model.records import Adjust, Deal, Record
from prefcli.rules.presets import Rules
from prefcli.rules.reading import DealReading
from prefcli.scoring import ScoreResult, ScoringError, position_note, reading_of
from prefcli.scoring.russian_allpass import AllPassScorer
from prefcli.scoring.russian_contract import ContractScorer
from prefcli.scoring.russian_sheet import F, ZERO


def score_record(record: Record, rules: Rules, ctx=None) -> ScoreResult:
    """Score every deal of `record` under `rules`; raises :class:`ScoringError` naming the deal.

    Every deal is read once in the record's context (`ctx`, built here when not given): the
    declarer, the defenders and their decisions, the quota and the tricks are the reading's; this
    module writes the arithmetic."""
    return _Scorer(record, rules, ctx).run()


class _Scorer(ContractScorer, AllPassScorer):
    """The game: every deal and adjustment in order, until the pool closes."""

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
        ctx = self.ctx
        dealers = ctx.dealers                                      # one rotation for every layer
        after: List[int] = []
        read = ctx.reading
        for entry in rec.deals:
            number = self.deal_no = entry.pos + 1                  # (entry.number, without the call)
            if isinstance(entry, Adjust):
                self._adjust(entry)
                continue
            reading = read(entry)
            if reading.problems:         # reading_of's refusal (the common clean deal: no call)
                reading = reading_of(ctx, entry)
            if reading.position:
                self.notes.append(position_note(reading))
                continue
            if self.finished_at is not None:
                after.append(number)
            self._deal(entry, reading)
            if self.finished_at is None and self._finished():
                self.finished_at = number
        if after:
            span = f"deal {after[0]}" if len(after) == 1 else f"deals {after[0]}–{after[-1]}"
            when = f"at deal {self.finished_at}" if self.finished_at else "before this record (start:)"
            self.notes.append(f"{span}: played after the game ended {when}")
        self.deal_no = len(rec.deals)
        if rec.end is not None and not self._finished():
            self._early_stop(str(rec.end.get("reason", "agreement")))
        return ScoreResult(record=rec, rules=self.rules, ledger=self.ledger,
                           dealers=dealers,                  # the context's (read-only, one list)
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
        target = self.target
        for v in self.pool.values():     # (asked after every deal: a plain loop, not all())
            if v < target:
                return False
        return True

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
        got = self.names.get(id(d.contract))       # the record holds its contracts meanwhile
        if got is None:
            c = d.contract
            got = self.names[id(c)] = (str(c), 0 if c.is_all_pass else self.prices[c.price_key])
        self.cur_name, self.cur_price = got
        active = reading.active
        if d.contract.is_all_pass:
            self._all_pass(d, dealer, active)
        else:
            if reading.allpass_run:
                self._check_exit(d, reading)
            made = self._contract(d, dealer, active)
            # what the scorer decided, per deal, as the Lithuanian scorers keep it (statistics)
            if self.texts:                       # the final sheet alone (totals only) keeps no history
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
