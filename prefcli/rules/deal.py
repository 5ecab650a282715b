"""The reading of one deal: the only place a deal is interpreted.

A :class:`DealReading` is built once per deal from the record's
:class:`~prefcli.rules.context.RecordContext`: who deals and who holds cards, the declarer, the
defenders in the order they speak and their decisions (with a returned half-whist and a
take-over), how the contract is defended and the defenders' quota, whether the deal was played,
its tricks and where they come from (recorded, replayed from the play, claimed, or conceded), and
every problem of the deal, each a located :class:`Problem` with its data path.

validate reports the problems; replay shows the replay it holds; every scorer reads the facts and
writes arithmetic only (and refuses a deal whose reading has a problem, with the same message
validate gives); convert and quick entry ask it too. So a rule about a deal is written once.

Readings of "nothing written":

- a contract without whist decisions, tricks or play: both defenders passed where the family
  reads silence that way (``whist_unwritten: both-passed``, the Russian family), else refused;
  with tricks, a play or a claim the deal was played, so the decisions are needed;
- a full deal (hands) with a play but without decisions: the play is still replayed (its cards
  are checked), and the missing decisions are reported as incomplete, not illegal.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, List

from prefcli.model.records import Deal
from prefcli.rules.conventions import exit_options
from prefcli.rules.deal_cards import CardsReader
from prefcli.rules.defence import DefenceReader
from prefcli.model.values import not_seated
from prefcli.rules.reading import ALONE, INCOMPLETE, JOINT, NO_DISCARD, OPEN, DealReading

if TYPE_CHECKING:       # pragma: no cover
    from prefcli.rules.record_facts import RecordFacts

__all__ = ["read_deal"]


def read_deal(ctx: "RecordFacts", deal: Deal) -> DealReading:
    """Read `deal` in its record's context (use :meth:`RecordContext.reading`, which keeps it).

    The context keeps one reader for all its deals (``RecordFacts.reader``), taken while it reads
    (a reading that asks for another deal's, or one that fails half-way, leaves it to a new one)."""
    r = ctx.reader
    ctx.reader = None
    if r is None:
        r = _Reader(ctx)
    else:
        r.ctx = ctx
    r.start(deal)
    r.read()
    r.ctx = None        # kept by the context between deals, not keeping it: no reference cycle
    ctx.reader = r
    return r.out


class _Reader(DefenceReader, CardsReader):
    """One deal's reading: its own steps here, the defence and the cards in their parts."""

    # ------------------------------------------------------------------------------------
    def read(self) -> None:
        out, deal = self.out, self.deal      # its seat fields are its dealer's (reading.seating)
        self.declarer_checks()
        if deal.dealer is not None or out.sitting_out:      # (else dealer_checks has nothing to check)
            self.dealer_checks()
        self.defence()
        if deal.irregularities:
            self.irregularities()
        if self.dummy is not None and out.seats:
            self.husar()
        if (deal.position or deal.bomb is not None or deal.penalties or deal.partner is not None
                or deal.claim is not None):                  # (else other_fields has none to read)
            self.other_fields()
        self.tricks()
        if out.mode == ALONE and self.conv.whist_alone and not self.ctx.overridden:
            self.alone_checks()      # (rescored under other rules, the defence as played stands)
        if deal.hands is not None:
            before = len(out.problems)
            self.cards()
            malformed = len(out.problems) > before
            self.discard()
            if malformed:      # a discard checked against malformed hands says little more
                out.cards_problems = out.problems[before:]
        if self.ctx.overridden and deal.tricks is not None:
            return      # rescored under other rules: the recorded tricks stand, the calls and cards
            #             are not checked again under a table that did not play them
        if (deal.hands is not None or deal.auction is not None or deal.play is not None) and (
                not out.problems or not any(p.severity == "error" and p.kind != INCOMPLETE for p in out.problems)):
            self.replay()

    # -- who deals ------------------------------------------------------------------------
    def dealer_checks(self) -> None:
        deal, out, ctx = self.deal, self.out, self.ctx
        players = self.players
        if deal.dealer is not None:
            pos = deal.pos
            if 0 <= pos < self._n_deals and ctx.expected is self._expected_of:
                expected = self._expected[pos]      # (the rotation's list: ReaderBase)
                if expected is self._absent:
                    expected = None
            else:
                expected = ctx.expected.get(pos)
            if deal.dealer not in self.seated:
                self.add(self.path + ("dealer",), not_seated(deal.dealer, players))
            elif expected is not None and deal.dealer != expected and not ctx.overridden:
                # one reading: a dealer out of turn is refused, not taken as a new start of the
                # rotation (rescored under other rules, score --variant/--set, the dealers written
                # are the facts of the game as it was dealt under its own, not checked again)
                first = ctx.first_dealer or players[0]
                self.add(self.path + ("dealer",),
                         f"deal {self.n}: the dealer should be {expected} (rotating left from first_dealer {first}"
                         + (", the same dealer again after an all-pass" if self.conv.same_dealer else "")
                         + f"), not {deal.dealer}")
        dealer = out.dealer
        if out.sitting_out and dealer is not None and deal.dealer is None and (
                deal.declarer == dealer or dealer in deal.whist_map()):
            first = ctx.first_dealer or players[0]
            self.add(self.path, f"deal {self.n}: by the rotation from first_dealer {first}, {dealer} deals this deal "
                                "(add dealer: if the rotation was different)")

    # -- the two-player game ------------------------------------------------------------------
    def husar(self) -> None:
        """HUSAR.md H6 (who calls and holds), H9 (open defence), H10 (who leads and plays the dummy),
        H15 (the dummy and the talon on all-pass)."""
        out, conv, deal = self.out, self.conv, self.deal
        dummy = self.dummy
        assert dummy is not None
        first = out.seats[0]
        rule = conv.hold_right
        out.here_allowed = rule == "first-live-hand" or (rule == "first-hand-only" and first != dummy)
        if deal.contract.is_all_pass:
            if conv.allpass_dummy == "out":
                out.players_in_play = tuple(p for p in out.seats if p != dummy)
                if (deal.tricks_map() or {}).get(dummy):
                    self.add(self.path + ("tricks", dummy), f"deal {self.n}: on all-pass the dummy's cards are not "
                                                            "turned up and it takes no tricks (husar.allpass_dummy: "
                                                            "out, HUSAR.md H15)")
            else:
                out.controller = "robot"
            out.first_leader = next(p for p in out.seats if p != dummy)
            return
        if out.declarer is None:
            return
        out.controller = "robot" if conv.dummy_control == "robot" else next(
            (p for p in out.defenders if p != dummy), None)
        if out.mode in (OPEN, ALONE, JOINT):
            out.mode, out.open = OPEN, True
            out.whisters = tuple(p for p in out.whisters if p != dummy)
        if conv.first_lead == "always-dummy":
            out.first_leader = dummy
        elif conv.first_lead == "declarer":
            out.first_leader = out.declarer

    # -- the declarer ---------------------------------------------------------------------
    def declarer_checks(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        c = deal.contract
        players = self.players
        n = self.n
        if c.is_all_pass:
            if deal.without_all:
                self.add(self.path + ("without_all",), f"deal {n}: an all-pass deal has no declaration to keep "
                                                       "(without_all is for a declarer's contract)")
            if deal.declarer is not None:
                self.add(self.path + ("declarer",), f"deal {n}: an all-pass deal has no declarer")
            if deal.whist:
                self.add(self.path + ("whist",), f"deal {n}: an all-pass deal has no whist decisions")
            return
        declarer = deal.declarer
        if declarer is None:
            if deal.auction is None:
                self.add(self.path, f"deal {n}: {c} needs a declarer")
            return
        if declarer == self.dummy:
            self.add(self.path + ("declarer",), f"deal {n}: the dummy never bids or declares (HUSAR.md H6)")
        elif declarer not in self.seated:
            self.add(self.path + ("declarer",), not_seated(declarer, players))
        elif declarer in out.sitting_out:
            self.add(self.path + ("declarer",), f"deal {n}: {declarer} {self.why_out(declarer)} and sits out "
                                                f"with {len(players)} players, so cannot declare")
        else:
            out.declarer = declarer
        # the level: after all-passes (allpass.exit, allpass.dark_exit) and after a bomb
        if out.exit_level and deal.auction is None and c.is_tricks and (c.level or 0) < out.exit_level:
            # allpass.exit: "a lower contract is scored, with a note" (an auction is refused)
            self.warn(self.path + ("contract",), f"deal {n}: after an all-pass the game must be at least "
                                                f"{out.exit_level} ({exit_options(conv)}), not {c}")
        bid = deal.bid
        if c.without_talon or (bid is not None and bid.without_talon):
            for key, what in (("contract", c), ("bid", bid)):
                if what is not None and what.without_talon and what not in conv.rung:
                    self.add(self.path + (key,), f"deal {n}: {what} is not bid under these rules (option "
                                                 "misere_without_talon)")
        if deal.without_all:
            self.without_all_checks()
        elif deal.bid is not None:
            rungs = conv.rung
            if deal.bid.without_talon != c.without_talon and deal.auction is None:
                from prefcli.rules.replay import without_talon_mismatch
                self.add(self.path + ("contract",), without_talon_mismatch(n, deal.declarer, deal.bid, c))
            elif deal.bid.is_misere and not c.is_misere:
                self.add(self.path + ("contract",),
                         f"deal {n}: the misère was bid, so the contract must be the misère, not {c}")
            elif deal.bid.is_tricks and c.is_tricks and rungs.get(c, 0) < rungs.get(deal.bid, 0):
                self.add(self.path + ("contract",), f"deal {n}: contract {c} is below the winning bid {deal.bid}")

    def without_all_checks(self) -> None:
        """Seed 004 l.198–200: "Žaidėjas privalo užsisakyti ne žemesnę sutartį, nei ta, kurią jis
        pasiekė prekybos proceso metu. Jei žaidėjas pateikia pavedimą, kuris prieštarauja
        pagrindinėms taisyklėms (sutartis, mažesnė už prekyboje padarytą pavedimą; menka suma po
        dalyvavimo prekyboje su kitais pavedimais) … Jei žaidėjas nenori keisti pavedimo, jam
        įskaitoma «be visų» nuolaida žaidime, kurį jis pasiekė prekybos proceso metu": the record
        gives the bid reached (``bid:``) and the declaration kept (``contract:``); the reading checks
        that the declaration is indeed against the rules, so a typo is never scored as a penalty.

        With ``concede: true`` beside it, the same "be visų" is the one concession seed 004 l.210
        leaves a declarer who took the talon: a legal contract (with or without ``bid:``) given up
        without all its own tricks, marked ``tricks_from = "conceded"``; a conceded declaration
        that is against the rules is still the l.200 case, at the bid reached."""
        deal, conv, n = self.deal, self.conv, self.n
        c, bid = deal.contract, deal.bid
        wp = self.path + ("without_all",)
        if not conv.without_all:
            self.add(wp, f"deal {n}: \"be visų\" (a declaration kept against the rules) is not played under "
                         "these rules (option without_all)")
            return
        if deal.concede and bid is None and deal.auction is None:
            # seed 004 l.210 "Įpirką paėmęs žaidėjas negali «pasiduoti be kovos», išskyrus
            # pripažinimą, kad liko «be visų»": the declarer concedes the contract he named (a
            # legal one: there is no bid to keep it against) without all its tricks
            if not c.is_tricks:
                self.add(self.path + ("concede",), f"deal {n}: \"be visų\" gives up the tricks of a trick "
                                                   f"contract; a {c} is not conceded so (seed 004 l.210)")
                return
            self.out.tricks_from = "conceded"
            return
        if bid is None:
            self.add(wp, f"deal {n}: without_all is scored at the bid reached in the auction: give it as bid: "
                         "(e.g. bid: 7S)")
            return
        if not bid.is_tricks:
            self.add(self.path + ("bid",), f"deal {n}: without_all counts the tricks of the trick bid reached; "
                                           f"{bid} is not one")
            return
        rungs = conv.rung
        below = c.is_tricks and rungs.get(c, 0) < rungs.get(bid, 0)
        misere_after_bids = c.is_misere and conv.misere_binding
        if deal.concede and not (below or misere_after_bids):
            self.out.tricks_from = "conceded"       # seed 004 l.210: the contract named, conceded
            return
        if not (below or misere_after_bids):
            self.add(wp, f"deal {n}: {c} after the bid {bid} is a legal declaration, so there is nothing to keep "
                         "against the rules (without_all: a contract below the bid, or a misère after other bids; "
                         "seed 004 l.200)")

    # -- irregularities -------------------------------------------------------------------
    def irregularities(self) -> None:
        """Seed 001 l.142 "за неправильную сдачу – 2 в гору; за игру без сноса – без двух в гору;
        при неправильном сносе (фальшренонсе) карты, сыгранные после фальшренонса разбираются,
        разыгрывается снова, … противники освобождаются от ответственности (даже если бы по игре
        сделали ремиз), если виновный в ренонсе сыграл свою игру, он не пишет ничего, а при ремизе
        ставит ремиз": who may commit which, on which deal; the amounts are the preset's."""
        deal, out, conv, n = self.deal, self.out, self.conv, self.n
        base = self.path + ("irregularities",)
        if not conv.irregularities:
            self.add(base, f"deal {n}: irregularities are not scored by rule under these rules (option "
                           "irregularities; a hand-typed penalty is written penalties:)")
            return
        c = deal.contract
        seen = set()
        for i, irr in enumerate(deal.irregularities):
            ip = base + (i,)
            if irr.kind in seen:
                self.add(ip + ("kind",), f"deal {n}: the {irr.kind} is named twice")
                continue
            seen.add(irr.kind)
            if irr.by not in self.seated:
                self.add(ip + ("by",), not_seated(irr.by, self.players))
                continue
            if irr.kind == "misdeal":
                if irr.by != out.dealer:
                    self.add(ip + ("by",), f"deal {n}: a misdeal is the dealer's: {out.dealer} deals this deal, "
                                           f"not {irr.by} (seed 001 l.142 \"за неправильную сдачу\")")
                    continue
                out.misdealt_by = out.misdealt_by + (irr.by,)
            elif irr.kind == "no-discard":
                if c.is_all_pass or irr.by != out.declarer:
                    who = f"the declarer ({out.declarer})" if out.declarer else "the declarer"
                    self.add(ip + ("by",), f"deal {n}: only {who} discards, so only he plays without the discard "
                                           f"(seed 001 l.142 \"за игру без сноса\"), not {irr.by}")
                    continue
                for key, given in (("tricks", deal.tricks), ("play", deal.play), ("claim", deal.claim)):
                    if given:
                        self.add(self.path + (key,), f"deal {n}: a deal played without the discard is written down "
                                                     f"{self.ctx.rules.value('irregularity.no_discard')} whatever its "
                                                     f"tricks (option irregularity.no_discard): leave {key} out")
                out.mode, out.played = NO_DISCARD, False
            else:   # revoke
                if c.is_all_pass:
                    self.add(ip + ("kind",), f"deal {n}: seed 001 l.142 states the revoke of a game with a declarer; "
                                             "an all-pass is scored from its tricks")
                    continue
                if irr.by != out.declarer and irr.by not in out.defenders:
                    self.add(ip + ("by",), f"deal {n}: {irr.by} holds no cards in this deal, so cannot revoke")
                    continue
                if not out.played:
                    self.add(ip + ("kind",), f"deal {n}: a revoke needs a played deal (the corrected play's "
                                             "tricks), and this one was not played")
                    continue
                out.revoked_by = irr.by

    # -- the other fields -------------------------------------------------------------------
    def other_fields(self) -> None:
        deal = self.deal
        if deal.position:
            self.position_field()
        if deal.bomb is None and not deal.penalties and deal.partner is None and deal.claim is None:
            return
        out, conv, n = self.out, self.conv, self.n
        players = self.players
        if deal.bomb is not None:
            # the first hand to speak: at two the first live hand, the dummy never calls (HUSAR.md H6)
            first = out.callers[0] if out.callers else out.first_hand
            if deal.bomb not in self.seated:
                self.add(self.path + ("bomb",), not_seated(deal.bomb, players))
            elif conv.bomb and conv.bomb_min_level > 0 and first is not None and deal.bomb != first:
                self.add(self.path + ("bomb",), f"deal {n}: only the first hand ({first}) may call a bomb, "
                                                f"not {deal.bomb} (seed 002: \"skelbti gali tik žaidėjas, "
                                                "turintis Pirmojo teises\")")
            c = deal.contract
            if conv.bomb and conv.bomb_min_level and c.is_tricks and (c.level or 0) < conv.bomb_min_level:
                self.add(self.path + ("contract",), f"deal {n}: after a bomb the game must be at least "
                                                    f"{conv.bomb_min_level}: only {conv.bomb_min_level} or more "
                                                    f"may be played, not {c}")
        for i, pen in enumerate(deal.penalties):
            if pen.player not in self.seated:
                self.add(self.path + ("penalties", i, "player"), not_seated(pen.player, players))
            if pen.whists_on is not None and pen.whists_on not in self.seated:
                self.add(self.path + ("penalties", i, "whists", "on"), not_seated(pen.whists_on, players))
            elif pen.whists_on is not None and pen.whists_on == pen.player and pen.whists:
                self.add(self.path + ("penalties", i, "whists", "on"),
                         f"deal {n}: '{pen.player}' cannot write penalty whists on himself")
        if deal.partner is not None and deal.auction is None:
            why = self.ctx.partner_problem(deal, out.dealer)
            if why is not None:
                self.add(self.path + ("partner",), why)
        if deal.claim is not None:
            for name, _ in deal.claim:
                if name not in self.seated:
                    self.add(self.path + ("claim", name), not_seated(name, players))

    def position_field(self) -> None:
        """``position: true``: a full deal kept without a result, so it needs the hands and has no
        play, claim or tricks (a result makes it a played deal, scored like any other)."""
        deal, n = self.deal, self.n
        pp = self.path + ("position",)
        if deal.hands is None:
            self.add(pp, f"deal {n}: position: true marks a full deal kept for analysis, so it needs the "
                         "hands (hands:, talon:); a summary deal is not a position")
        given = [k for k, v in (("play", deal.play), ("claim", deal.claim), ("tricks", deal.tricks)) if v is not None]
        if given:
            self.add(pp, f"deal {n}: position: true marks a deal without a result, yet its {' and '.join(given)} "
                         f"{'is' if len(given) == 1 else 'are'} given (leave out position: to score it)")
        elif deal.hands is not None:
            self.out.position = True    # read, replayed and analysed; every scorer skips it, saying so

    # -- the replay -------------------------------------------------------------------------
    def replay(self) -> None:
        out = self.out
        ctx = self.ctx
        replay_reading = _REPLAY[0] if _REPLAY else _load_replay()
        # the hands by name the card check made (deal_cards.cards), when it found them dealt once
        rep = replay_reading(ctx, out, keep_tricks=ctx.keep_tricks,
                             hands=self._hands_talon[0] if out.dealt_once else None)
        out.replay = rep
        if rep.problems or rep.unplayable:
            out.problems.extend(rep.problems)
            out.problems.extend(rep.unplayable)
            return
        if out.tricks is None and rep.counts is not None:
            out.tricks = {**{p: 0 for p in out.active}, **rep.counts}
            out.tricks_from = "replayed"


#: the replay, imported at the first full deal (a summary record never loads the play)
_REPLAY: List[Any] = []


def _load_replay() -> Any:
    from prefcli.rules.replay import replay_reading
    _REPLAY.append(replay_reading)
    return replay_reading
