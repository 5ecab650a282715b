"""The Russian scorer's all-pass deals (Кодекс 3.7; seed 001 §6; seeds 003, 004 for Rostov):
the tricks taken, the zero-trick bonus, the progression, the Rostov exit and the dealer's fine."""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from prefcli.model.records import Deal
from prefcli.scoring.russian_sheet import F, Exact, SheetWriter


class AllPassScorer(SheetWriter):
    """An all-pass deal's entries."""

    def _all_pass(self, d: Deal, dealer: Optional[str], active: Tuple[str, ...]) -> None:
        """All-pass (Кодекс 3.7; seed 001 §6; seeds 003, 004 for Rostov)."""
        r = self.o
        self.streak += 1
        prog = r["allpass.progression"]
        price = prog[min(self.streak, len(prog)) - 1] if prog else r["allpass.trick_price"]
        tag = ""
        dark_streak = 0            # this dark all-pass and the dark ones right before it
        if d.dark or (d.auction is not None and d.is_dark_allpass):     # (a summary deal: no call)
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
        t = self._tricks(d, participants if self.dummy is None else participants + [self.dummy], active,
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
            base = min([t[p] for p in participants]) if r["allpass.amnesty"] else 0
            for p in participants:
                n = t[p] - base
                if n > 0:
                    self._mount(p, n * price, "allpass.tricks",
                                f"all-pass #{self.streak}: {t[p]} trick(s)"
                                + (f" − {base} amnesty" if base else "") + f" × {self._fmt(price)}{tag}"
                                if self.texts else "")
        fine = r["allpass.dealer_fine"]
        ap_run = self.cur.allpass_run + 1          # this all-pass and those right before it
        if fine and dealer is not None and ap_run % r["allpass.dealer_fine_every"] == 0:
            # OPR p.7: after the third all-pass in a row "the dealer may be fined up to 10 into gora"
            self._mount(dealer, fine, "allpass.dealer-fine",
                        f"dealer after {ap_run} all-pass deals in a row: fine {self._fmt(fine)}")
        for p in (self.players if zero else ()):     # (most all-passes: everyone took a trick)
            if p not in zero:
                continue
            if bonus == "pool":
                self._pool(p, points, "allpass.zero-bonus",
                           f"all-pass without a trick: {self._fmt(points)}" if self.texts else "")
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
