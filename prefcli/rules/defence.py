"""The defence of a deal: who the defenders are, what each decided (a half-whist, a returned
whist, a take-over, the husar's one opponent) and so how the contract is defended and the
defenders' quota. A part of the one reading (:mod:`prefcli.rules.deal`)."""
from __future__ import annotations

from typing import Dict, List

from prefcli.model.cards import Decision
from prefcli.model.diagnostics import Path
from prefcli.model.values import not_seated
from prefcli.rules.reading import (ALLPASS, ALONE, BOTH_HANDS, CATCH, CHECKED, CONCEDED, HALF, INCOMPLETE, JOINT,
                                   OPEN, RETURNED, TAKEOVER, UNKNOWN, UNPLAYED, WITHOUT_ALL, ReaderBase)


_WHIST, _HALF = Decision.WHIST, Decision.HALF_WHIST


class DefenceReader(ReaderBase):
    """The whist decisions of a deal, read into its :class:`~prefcli.rules.reading.DealReading`."""

    def husar_decisions(self, decisions: Dict[str, Decision], wpath: Path) -> None:
        """HUSAR.md H8: only the declarer's opponent decides; the dummy is the partner who has
        passed; with ``husar.whist: compulsory`` every contract is played out."""
        out, conv, n = self.out, self.conv, self.n
        dummy = self.dummy
        assert dummy is not None
        decisions[dummy] = Decision.PASS
        opponent = next(p for p in out.defenders if p != dummy)
        if conv.husar_whist == "compulsory" and not self.deal.contract.is_misere:
            got = decisions.get(opponent)
            if got is Decision.PASS:
                self.add(wpath + (opponent,), f"deal {n}: every contract is played out (husar.whist: compulsory, "
                                              f"HUSAR.md H8), so {opponent} cannot pass")
            elif got is None:
                decisions[opponent] = Decision.WHIST

    # -- the defence ----------------------------------------------------------------------
    def defence(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        c = deal.contract
        if c.is_all_pass:
            out.mode, out.played = ALLPASS, True
            return
        n, players = self.n, self.players
        decl = out.declarer
        if decl is not None and self.table is not None:
            # the table's defenders of each declarer, kept by dealer (no key tuple made a deal)
            of = self.defenders_of.get(out.dealer)
            if of is None:
                of = self.defenders_of[out.dealer] = {}
            got = of.get(decl)
            if got is None:
                got = of[decl] = self.table.defenders(out.dealer, decl)
            out.defenders = got
        if deal.without_all:
            # the partners refuse the declaration before anyone whists: nothing is played; a
            # declarer who concedes "be visų" (concede: true, seed 004 l.210 "turi sužaisti
            # pavydėtiną žaidimą iki galo") may do so once the game is whisted: the decisions are
            # read below, and still nothing is played
            for key, stated in (("whist", None if deal.concede else deal.whist), ("tricks", deal.tricks),
                                ("play", deal.play), ("claim", deal.claim)):
                if stated:
                    what = ("a contract conceded \"be visų\" (concede, without_all) is not played" if deal.concede
                            else "a declaration kept against the rules (without_all) is neither whisted nor played")
                    self.add(self.path + (key,), f"deal {n}: {what}: leave {key} out")
            # concede: true beside it is the declarer's own "be visų" (seed 004 l.210, deal.py)
            for key, value in (("open", deal.open), ("takeover", deal.takeover), ("return", deal.returned_by),
                               ("partner", deal.partner)):
                if value is not None:
                    self.add(self.path + (key,), f"deal {n}: {key} does not go with without_all (nothing is played)")
            out.mode, out.played = WITHOUT_ALL, False
            if not deal.concede:
                return
        if c.is_misere and deal.whist and conv.misere_defence == "both":
            # nobody whists or passes a misère where both defenders catch it (seed 001 l.108-122,
            # the whisters' table: "Мизер | нет обязательств"; seed 003 l.102, l.138; seed 004
            # l.456; the husar's opponent, HUSAR.md H14): a decision written there is refused, and
            # the deal is read as caught, as without it
            catchers = ("the opponent catches it with the dummy's cards open (HUSAR.md H14 \"The misère is "
                        "always caught\")" if self.dummy is not None else
                        "both defenders catch it (seed 001 l.121-122 \"Мизер | нет обязательств\"; seed 003 l.102)")
            self.add(self.wpath(), f"deal {n}: nobody whists or passes a misère: {catchers}, so no whist decision is "
                            "written on one: leave whist out")
            given: Dict[str, Decision] = {}
        else:
            given = dict(deal.whist)
        defenders = out.defenders
        bad = False
        dummy = self.dummy
        for name in given:
            if name in defenders and (dummy is None or name != dummy):
                continue                                  # the common case
            p = self.wpath() + (name,)
            if name == self.dummy:
                self.add(p, f"deal {n}: the dummy never speaks: only the declarer's opponent whists or passes "
                            "(HUSAR.md H8)")
                bad = True
            elif name not in self.seated:
                self.add(p, not_seated(name, players))
                bad = True
            elif name == deal.declarer:
                self.add(p, f"deal {n}: {name} is the declarer and cannot also whist or pass as a defender")
                bad = True
            elif name in out.sitting_out:
                self.add(p, f"deal {n}: {name} {self.why_out(name)} and sits out, so is not a defender"
                            + (f" (a take-over by the dealer is written takeover: {name})" if name == out.dealer else ""))
                bad = True
            elif decl is not None and name not in out.defenders:
                self.add(p, f"deal {n}: {name} is not a defender in this deal (defenders: "
                            f"{', '.join(out.defenders)})")
                bad = True
        out.decisions = given if not bad and len(given) <= 2 else {p: d for p, d in given.items() if p in defenders}
        if out.mode == WITHOUT_ALL:
            return                    # conceded "be visų": the decisions read, nothing played
        # (each left at its class default, False and None, unless the deal says otherwise)
        if deal.open:
            out.open = True
        if deal.takeover is not None or deal.returned_by is not None:
            out.takeover, out.returned_by = deal.takeover, deal.returned_by
            for key, who in (("takeover", deal.takeover), ("return", deal.returned_by)):
                if who is not None and who == self.dummy:
                    self.add(self.path + (key,), f"deal {n}: the dummy never speaks, so it neither takes over "
                                                 "nor returns a whist (HUSAR.md H8, Кодекс 3.8.8)")
                    bad = True
                elif who is not None and who not in self.seated:
                    self.add(self.path + (key,), not_seated(who, players))
                    bad = True
        if decl is None or len(defenders) != 2 or bad:
            out.played = bool(deal.tricks is not None or deal.play is not None or deal.claim is not None)
            return
        first, second = defenders
        decisions = out.decisions
        if self.dummy is not None:
            self.husar_decisions(decisions, self.wpath())
        d1, d2 = decisions.get(first), decisions.get(second)
        # who whists and who half-whists, in the order they speak
        whisting: List[str] = [first, second] if d1 is _WHIST and d2 is _WHIST else (
            [first] if d1 is _WHIST else [second] if d2 is _WHIST else [])
        halves: List[str] = [] if d1 is not _HALF and d2 is not _HALF else (
            [first, second] if d1 is _HALF and d2 is _HALF else [first] if d1 is _HALF else [second])
        if not deal.whist:
            out.unwritten = True
        gives_tricks = deal.tricks is not None or deal.play is not None or deal.claim is not None
        is_tricks = c.is_tricks
        out.quota = conv.quota[c.level or 6] if is_tricks else 0
        # a partial record of decisions
        missing = [p for p, d in ((first, d1), (second, d2)) if d is None] if d1 is None or d2 is None else ()
        if deal.whist and missing and (is_tricks or conv.whist_unwritten == "refused"):
            # a partial record of decisions is refused in every family (never read as a pass)
            self.add(self.wpath(), f"deal {n}: the decision of {' and '.join(missing)} is missing "
                            f"(the defenders are {', '.join(defenders)}: write "
                            + ", ".join(f"{p}: whist|pass" for p in missing) + ")")
            return
        if deal.concede:
            if not conv.without_three:
                self.add(self.path + ("concede",), f"deal {n}: conceding \"without three\" is not allowed under "
                                                   f"{self.ctx.rules.variant} (option without_three)")
                return
            out.mode, out.played, out.tricks_from = CONCEDED, False, "conceded"
            return
        if c.is_misere:
            if halves:
                self.add(self.wpath() + (halves[0],), f"deal {n}: there is no half-whist on a misère")
                return
            if out.unwritten and conv.whist_unwritten == "refused" and not gives_tricks:
                self.add(self.wpath() if deal.whist else self.path,
                         f"deal {n}: the whist decision of {' and '.join(defenders)} is missing "
                         f"(whist: {{{', '.join(f'{d}: whist|pass' for d in defenders)}}})")
                return
            out.whisters = tuple(whisting) if deal.whist and conv.misere_defence == "whisters" else tuple(defenders)
            out.mode, out.played = CATCH, bool(out.whisters)
            if deal.takeover is not None:
                self.takeover_rules(whisting)
            return
        # -- a trick contract
        if out.unwritten:
            if gives_tricks and not (c.level == 10 and conv.tens_checked):
                self.add(self.wpath() if deal.whist else self.path,
                         f"deal {n}: the whist decisions are missing, but the deal was played (its "
                         + ("play" if deal.play is not None or deal.claim is not None else "tricks")
                         + f" are given): write who whisted (whist: "
                         f"{{{', '.join(f'{d}: whist|pass' for d in defenders)}}})", INCOMPLETE)
                out.played = True
                if deal.play is not None and deal.hands is not None:
                    out.mode = UNKNOWN        # the play is still replayed and checked
                    self._unknown_play = True
                return
            if conv.whist_unwritten == "refused" and not (c.level == 10 and conv.tens_checked):
                self.add(self.path, f"deal {n}: the whist decision of {' and '.join(defenders)} is missing "
                                    f"(whist: {{{', '.join(f'{d}: whist|pass' for d in defenders)}}})")
                return
        if conv.stalingrad and c.level == 6 and c.strain is not None and c.strain.name == "S":
            # seed 001 §9, seed 003: 6♠ must be whisted by both. A summary deal is scored with both
            # as whisters whatever it says; a deal with its auction is checked call by call.
            if deal.auction is not None and not (d1 is Decision.WHIST and d2 is Decision.WHIST):
                who = first if d1 is not Decision.WHIST else second
                self.add(self.wpath() + (who,), f"deal {n}: 6S must be whisted by both defenders (stalingrad), "
                                         f"yet {who} did not whist")
                return
            out.forced = True
        dark_won = deal.dark
        if dark_won and conv.dark_defence:
            # seed 002: "Vistuojantieji negali žaisti atviromis kortomis, o jei žaidžiantysis žaidžia
            # šeštoje kategorijoje, jie abu privalo vistuoti"
            if c.level == 6 and not (d1 is Decision.WHIST and d2 is Decision.WHIST):
                who = first if d1 is not Decision.WHIST else second
                self.add(self.wpath() + (who,), f"deal {n}: a dark 6 must be whisted by both defenders (a contract "
                                         "won in the dark must be whisted by both at 6), yet "
                                         f"{who} did not whist (seed 002: \"jie abu privalo vistuoti\")")
                return
            if deal.open or deal.takeover is not None:
                self.add(self.path + ("open" if deal.open else "takeover",),
                         f"deal {n}: the contract was won in the dark, so the defence may not play open: "
                         "against a dark game the defenders whist closed, each for himself "
                         "(seed 002: \"privalo vistuoti uždaromis kortomis\")")
                return
        if halves:
            if not self.half_whist_rules(halves, first, second):
                return
        if deal.returned_by is not None:
            if not self.return_rules(halves, first, second):
                return
            out.mode, out.played = RETURNED, True
            out.whisters = (deal.returned_by,)
            return
        if c.level == 10 and conv.tens_checked:
            # a checked ten (seed 003 "gra dziesiątki jest sprawdzana"; Кодекс fn39): nobody
            # whists, so it needs no play; a play or tricks given to check it are read all the same
            out.mode, out.played = CHECKED, gives_tricks
            return
        if halves:
            out.mode, out.played, out.half_whister = HALF, False, halves[0]
            return
        if out.forced:
            out.whisters, out.mode, out.played = tuple(defenders), JOINT, True
            return
        if deal.takeover is not None:
            if not self.takeover_rules(whisting):
                return
            t = deal.takeover
            out.whisters = (t,)
            out.mode = BOTH_HANDS if t in whisting else TAKEOVER
            out.played = True
            return
        if len(whisting) == 2:
            if deal.open:
                self.add(self.path + ("open",), f"deal {n}: both defenders whist, so the defence is closed; "
                                                "open (light) defence needs one whister")
                return
            out.whisters, out.mode, out.played = tuple(whisting), JOINT, True
            return
        if len(whisting) == 1:
            out.whisters, out.played = tuple(whisting), True
            # closed: alone, or (a record rescored from rules whose passer plays his own cards,
            # under rules where alone puts them away) from both hands, as convert writes it
            out.mode = OPEN if deal.open else ALONE if self.ctx.alone_played_alone or not conv.whist_alone \
                else BOTH_HANDS
            return
        out.mode, out.played = UNPLAYED, False
        if gives_tricks and deal.tricks is not None and deal.hands is None:
            self.add(self.path + ("tricks",), f"deal {n}: both defenders passed, so {c} is not played, "
                                              "yet its tricks are given (leave them out)")

    def alone_checks(self) -> None:
        """A lone whister who plays alone (``whist_alone``, the Lithuanian games) plays with the
        passer's cards put away: seed 000 l.89 "«Vienas!» Tai reiškia, kad žaidimą žaidžia dviese -
        lošikas ir vistavęs jo varžovas. Pasavęs varžovas padeda užverstas kortas ir žaidime
        nedalyvauja"; seed 002 l.101 "pasavusiojo kortos paliekamos užverstos ant stalo". So the
        passer takes no trick and plays no card; a deal that says he did was defended from both
        hands, and is refused with how to write that (``takeover:`` the whister himself, closed;
        ``open: true``), not scored as alone (the lone quota) with the passer's tricks counted."""
        out, deal, n = self.out, self.deal, self.n
        if len(out.defenders) != 2 or len(out.whisters) != 1:
            return
        whister = out.whisters[0]
        passer = out.defenders[1] if whister == out.defenders[0] else out.defenders[0]
        why = (f"deal {n}: {passer} passed and {whister} whisted alone, so {passer}'s cards were put away "
               f"(whist_alone; seed 000 l.89, seed 002 l.101)")
        fix = (f"if {whister} whisted from both hands, write takeover: {whister} (closed cards) or open: true "
               "(open ones)")
        play = deal.play
        if play:
            for i, trick in enumerate(play):
                if len(trick) > 2:
                    self.add(self.path + ("play", i), f"{why} and each trick has two cards, the declarer's and "
                                                      f"{whister}'s, yet trick {i + 1} has {len(trick)}: {fix}")
                    return
        taken = (out.tricks or {}).get(passer, 0)
        if taken:
            key = "claim" if out.tricks_from == "claimed" else "tricks"
            self.add(self.path + (key, passer), f"{why} and he takes no trick, yet {key} gives him {taken}: {fix}")

    def half_whist_rules(self, halves: List[str], first: str, second: str) -> bool:
        deal, conv, n = self.deal, self.conv, self.n
        c = deal.contract
        name = halves[0]
        hp = self.path + ("whist", name)
        if len(halves) > 1:
            self.add(self.path + ("whist", halves[1]), f"deal {n}: only one defender can half-whist")
            return False
        if not conv.half_whist:
            opts = "half_whist, husar.half_whist" if self.dummy is not None else "half_whist"
            self.add(hp, f"deal {n}: half-whist is not played under {self.ctx.rules.variant} (option {opts})")
            return False
        if not c.is_tricks or (c.level or 0) not in conv.half_whist_levels:
            levels = " and ".join(str(x) for x in conv.half_whist_levels)
            where = f"only on {levels}" if levels else "on no level"
            self.add(hp, f"deal {n}: half-whist is allowed {where}, not on {c} (option half_whist_levels)")
            return False
        other = first if name == second else second
        if self.out.decisions.get(other) is not Decision.PASS:
            self.add(hp, f"deal {n}: {name} may half-whist only after {other} passed")
            return False
        if conv.half_whist_by == "second" and name != second and other != self.dummy:
            self.add(hp, f"deal {n}: only the second defender ({second}) may half-whist, "
                         f"after the first ({first}) passed (option half_whist_by)")
            return False
        return True

    def return_rules(self, halves: List[str], first: str, second: str) -> bool:
        deal, conv, n = self.deal, self.conv, self.n
        r = deal.returned_by
        rp = self.path + ("return",)
        if not halves:
            self.add(rp, f"deal {n}: nothing to return: no defender half-whisted")
            return False
        if not conv.return_whist:
            self.add(rp, f"deal {n}: these rules do not let a half-whist be returned (option return_whist)")
            return False
        h = halves[0]
        passer = second if h == first else first
        allowed = [passer] + ([self.out.dealer] if self.out.dealer in self.out.sitting_out else [])
        if r not in allowed:
            self.add(rp, f"deal {n}: the whist is returned by the passer (or the sitting-out dealer): "
                         f"only {' or '.join(allowed)} may return {h}'s half-whist, not {r}")
            return False
        return True

    def dealer_takeover_rules(self, whisting: List[str]) -> bool:
        """Seed 004 l.37: "Jei abu partneriai atsisako nušvilpti prieš tą, kuris užsakė žaidimą su
        kyšiais, ketvirtasis dalintojas turi teisę paimti bet kurio iš dviejų kortas ir … tęsti
        vietoj kortų savininko": only the sitting-out dealer, only when both refused, only
        against a trick contract."""
        deal, conv, n, out = self.deal, self.conv, self.n, self.out
        t = deal.takeover
        tp = self.path + ("takeover",)
        if not conv.takeover:
            self.add(tp, f"deal {n}: the dealer's take-over is not played under these rules (option takeover)")
            return False
        if not (t in out.sitting_out and t == out.dealer):
            self.add(tp, f"deal {n}: {t} may not take over: under these rules only the sitting-out 4-player "
                         "dealer's take-over is played (option takeover; seed 004: \"ketvirtasis dalintojas "
                         "turi teisę paimti bet kurio iš dviejų kortas\")")
            return False
        if not deal.contract.is_tricks:
            self.add(tp, f"deal {n}: the dealer takes over only against a trick contract, not a "
                         f"{deal.contract} (seed 004: \"prieš tą, kuris užsakė žaidimą su kyšiais\")")
            return False
        if whisting or any(d is not Decision.PASS for d in out.decisions.values()):
            self.add(tp, f"deal {n}: the dealer takes over only when both defenders refused to whist "
                         "(seed 004: \"Jei abu partneriai atsisako nušvilpti\")")
            return False
        return True

    def takeover_rules(self, whisting: List[str]) -> bool:
        deal, conv, n, out = self.deal, self.conv, self.n, self.out
        t = deal.takeover
        tp = self.path + ("takeover",)
        defenders = out.defenders
        if conv.takeover_by == "dealer-both-passed":
            return self.dealer_takeover_rules(whisting)
        if not conv.both_hands:
            self.add(tp, f"deal {n}: these rules have no take-over from both hands (option takeover)")
            return False
        if len(whisting) == 2:
            self.add(tp, f"deal {n}: both defenders whisted, so nobody whists from both hands (takeover: {t})")
            return False
        if t in whisting:
            return True                    # the whister plays from both hands, closed
        if not conv.takeover:
            self.add(tp, f"deal {n}: {t} may not take over whisting under these rules (option takeover)")
            return False
        if t in defenders:
            if not whisting:
                self.add(tp, f"deal {n}: {t} passed and so did the other defender; a passer takes over "
                             "only from a whister who wants to whist alone")
                return False
            return True
        if t in out.sitting_out and t == out.dealer:
            return True
        self.add(tp, f"deal {n}: {t} cannot take over the defence (a defender who passed or the "
                     "sitting-out dealer may)")
        return False
