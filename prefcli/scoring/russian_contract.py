"""The Russian scorer's contracts: a trick contract or a misère, made or failed, whisted, half-
whisted or not, with the talon bonus, the consolation, the defenders' shortfall, be visų and the
irregularities (see :mod:`prefcli.scoring.russian` for the rule keys)."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from prefcli.model.cards import Decision, Rank
from prefcli.rules.errors import TRICKS_PER_DEAL
from prefcli.model.records import Deal
from prefcli.rules.reading import (ALONE, CONCEDED, HALF as HALF_WHIST_MODE, JOINT, NO_DISCARD, OPEN, RETURNED,
                                   TAKEOVER, WITHOUT_ALL)
from prefcli.scoring import ScoringError
from prefcli.scoring.russian_sheet import F, HALF, Exact, SheetWriter, _half


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


class ContractScorer(SheetWriter):
    """A declared deal's entries."""

    def _contract(self, d: Deal, dealer: Optional[str], active: Tuple[str, ...]):
        """Score a trick contract or misère; returns falsy (failed), True (made) or "whisted"."""
        r = self.o
        reading = self.cur
        D = reading.declarer
        if D is None:
            raise ScoringError(f"deal {d.number}: a {d.contract} needs a declarer", d.path)
        defenders = list(reading.defenders)            # in the order they speak
        four_dealer = dealer if dealer in reading.sitting_out else None
        dark = r["dark"]
        if d.dark or dark:
            k, why = self._factor(d, D)
            tag = f" ({why})" if why else ""
        else:
            k, tag = 1, ""
        P = self.cur_price * k            # (the contract's price, found once per contract)
        name = self.cur_name

        partner = d.partner            # the reading checked it is the sitting-out dealer
        mode = reading.mode
        if mode == WITHOUT_ALL:
            made = self._without_all(d, D, defenders, four_dealer, k, tag)
        elif mode == NO_DISCARD:
            made = self._no_discard(d, D, P, tag)
        elif d.contract.is_misere:
            made = self._misere(d, D, defenders, four_dealer, P, tag, partner)
        else:
            made = self._tricks_contract(d, D, defenders, four_dealer, P, k, tag)
        if dark and self.bombs[D] and made:
            self.bombs[D].pop(0)
        # the 4-player dealer's talon bonus (Кодекс 3.4.11), made or not, played or not; not when
        # he shares the misère: "Прикупщик уже наказан за плохой прикуп" (Кодекс fn44)
        if r["talon_bonus"] and partner is None:
            self._talon_bonus(d, D, defenders, four_dealer, P, name)
        return made

    def _without_all(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                     k: Exact, tag: str) -> bool:
        """Be visų (seed 004 l.200 "jam įskaitoma «be visų» nuolaida žaidime, kurį jis pasiekė
        prekybos proceso metu"): a remise of the bid reached with none of its tricks taken; the
        declarer's own concession (seed 004 l.210, ``concede: true``) is the same remise of the
        contract he named. The
        declarer writes level × price × declarer_fail_multiplier to his mountain; nothing is
        played and nobody whisted, so no trick whists are written, and the consolation for the
        missing tricks goes to those who write it on any remise (consolation_to)."""
        # conceded (seed 004 l.210 "išskyrus pripažinimą, kad liko «be visų»"): the contract named
        bid = d.contract if self.cur.tricks_from == "conceded" else d.bid
        assert bid is not None and bid.is_tricks      # the reading checked it
        level = bid.level or 0
        bp = self.prices[bid.price_key] * k
        per = bp * self.o["declarer_fail_multiplier"]
        what = (f"{bid} conceded" if self.cur.tricks_from == "conceded"
                else f"{d.contract} kept against the rules after the bid {bid}")
        self._mount(D, per * level, "without-all", f"{what}: be visų, down {level} × {self._fmt(per)}{tag}")
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
        texts = self.texts
        if taken == 0:
            if not self._revoked(D, self.cur_name):
                for p in side:
                    self._pool(p, P * share, "misere.made", f"misère made: {self._fmt(P)}{half}{tag}" if texts else "")
            return True
        revoke = self.cur.revoked_by == D
        for p in side:
            self._mount(p, P * r["misere_fail"] * taken * share, "irregularity.revoke" if revoke else "misere.failed",
                        ("revoked, the remise stands: " if revoke else "")
                        + f"misère with {taken} trick(s) × {self._fmt(P * r['misere_fail'])}{half}{tag}"
                        if texts else "")
        k = F(P) / self.prices["misere"] if self.prices["misere"] else 1
        mw = r["misere_whists"] * k
        for p in defenders:
            for on in side:
                self._whists(p, on, mw * taken * share, "misere.whists",
                             f"caught the misère: {taken} × {self._fmt(mw)}{half}" if texts else "")
        if r["consolation_on_misere"]:
            c = self._consolation_per_trick(P, k)
            for p in self._consolation_writers(D, defenders, defenders, dealer):
                if p == partner:
                    continue
                for on in side:
                    self._whists(p, on, c * taken * share, "consolation",
                                 f"consolation {taken} × {self._fmt(c)}{half}" if texts else "")
        return False

    def _tricks_contract(self, d: Deal, D: str, defenders: List[str], dealer: Optional[str],
                         P: Exact, k: Exact, tag: str):
        r = self.o
        level = d.contract.level or 0
        name = self.cur_name
        reading = self.cur
        mode = reading.mode
        # -- "without three" (seed 003: "odejść bez trzech … bez wistów")
        if mode == CONCEDED:
            # at the game reached in the auction (seed 003 l.94): the reading's bid
            bid = reading.bid_reached
            if bid is None or not bid.is_tricks:
                bid = d.contract
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
        whisters = list(reading.whisters) if mode == JOINT or mode == ALONE or mode == OPEN else []
        if mode == HALF_WHIST_MODE or mode == RETURNED:
            # the family reads a contract written without decisions as passed by both
            dec = {p: reading.decisions.get(p, Decision.PASS) for p in defenders}
            return self._half_whist(d, D, defenders, dealer, dec, reading.half_whister or "", P, k, tag)
        if mode == TAKEOVER:
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
            self._pool(D, P, "contract.unplayed", f"{name}, {passed}: {self._fmt(P)}{tag}" if self.texts else "")
            return True
        holders = [D] + defenders
        t = self._tricks(d, holders, holders, "a whisted ", name)
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
        texts = self.texts
        self._pool(D, P, "contract.unplayed", f"{name}, half-whist: {self._fmt(P)}{tag}" if texts else "")
        self._whists(hw, D, half_tricks * P * self.wm, "whist.half",
                     f"half-whist: {self._fmt(half_tricks)} trick(s) × {self._fmt(P * self.wm)}" if texts else "")
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
        td = t[defenders[0]] + t[defenders[1]] if len(defenders) == 2 else sum(t[p] for p in defenders)
        made = taken >= level
        # seed 001 l.142: the declarer who revoked "не пишет ничего" when he made it, "при ремизе
        # ставит ремиз", and his opponents "освобождаются от ответственности"
        revoke = self.cur.revoked_by == D
        texts = self.texts         # (a ledger of totals only keeps no text: none is made)
        if made:
            if not revoke or not self._revoked(D, name):
                self._pool(D, P, "contract.made", f"{name} made: {self._fmt(P)}{tag}" if texts else "")
        else:
            u = level - taken
            per = P * r["declarer_fail_multiplier"]
            self._mount(D, per * u, "irregularity.revoke" if revoke else "contract.failed",
                        ("revoked, the remise stands: " if revoke else "") + f"{name} down {u} × {self._fmt(per)}{tag}"
                        if texts else "")
        # -- whists for the defenders' tricks (Кодекс fn53, 3.8.13, 3.8.14)
        if returner is not None:
            self._whists(returner, D, td * wp, "whist.tricks",
                         f"{returner_says}: {td} defenders' trick(s) × {self._fmt(wp)}" if texts else "")
        elif len(whisters) == 2:
            for p in whisters:
                self._whists(p, D, t[p] * wp, "whist.tricks", f"{t[p]} trick(s) × {self._fmt(wp)}" if texts else "")
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
                                 f"gentleman whist: half of {n_tr} trick(s) × {self._fmt(wp)}" if texts else "")
            else:
                self._whists(w, D, amount, "whist.tricks", f"{n_tr} trick(s) × {self._fmt(wp)}" if texts else "")
        # -- consolation on the declarer's remiz (Кодекс 3.8.1.2, fn36, fn54)
        if not made:
            u = level - taken
            c = self._consolation_per_trick(P, k)
            writers = whisters + ([returner] if returner else [])
            for p in self._consolation_writers(D, defenders, writers, dealer):
                if p not in silent:
                    self._whists(p, D, c * u, "consolation", f"consolation: {u} × {self._fmt(c)}" if texts else "")
        # -- the defenders' remiz (Кодекс 3.8.6, 3.8.11, 3.8.12)
        if responsible and whisters and not revoke and td < self.cur.quota:
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
                        f"whisted {name}: defenders {miss} short of {q}" if self.texts else "")
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
                        f"whisted {name}: {t[p]} of his half ({halfq})" if self.texts else "")
