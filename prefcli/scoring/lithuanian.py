"""Scoring the Lithuanian classical game "kleboniškasis" (seed 002, RULES.md §3).

The sheet: each player's track (the `pool` key), mountain of hens (`mountain`) and a whist
column per opponent (`whists`). Every write is a ledger entry whose text uses the game's own
words (track, hens, eglė), so ``score --explain`` reads like the seed.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, List, Optional

from prefcli.model.records import Adjust, Deal, Record
from prefcli.rules.presets import Rules
from prefcli.rules.state import missing_note, per_player
from prefcli.scoring import ScoreResult, ScoringError, position_note
from prefcli.scoring.lt_common import (F, Defence, Game, _n, _times, apply_adjust, apply_penalties,
                                       count_option, price, talon_tricks, trick_counts, write_defence)

FAMILY = "lithuanian"


class _Game(Game):
    """The running state of one classical game: the book, eglė strokes, the target."""

    family = FAMILY

    def __init__(self, record: Record, rules: Rules, ctx=None) -> None:
        super().__init__(record, rules, ctx)
        self.four = self.table.sits_out_every_deal        # the dealer holds no cards
        self.target = F(rules["pool"])
        self.sell_to = rules["sell_hens_to"]
        self.kitty_taken: Optional[str] = None
        self.notes: List[str] = []
        self.notes_after = False

    def check_defence(self, deal: Deal, defence: Defence) -> None:
        """Against a dark game (dark_defence): closed cards, and a dark 6 whisted by both."""
        if not (deal.dark and self.rules["dark_defence"]):
            return
        n = deal.number
        c = deal.contract
        if c.is_tricks and c.level == 6 and defence.mode != "joint":
            raise ScoringError(f"deal {n}: a dark 6 must be whisted by both defenders "
                               "(seed 002: \"jie abu privalo vistuoti\")", deal.path + ("whist",))
        if deal.open or defence.mode in ("both-hands", "takeover"):
            raise ScoringError(f"deal {n}: against a dark game the defenders whist closed, each for himself "
                               "(seed 002: \"privalo vistuoti uždaromis kortomis\")",
                               deal.path + ("open" if deal.open else "takeover",))

    # --- the track and selling ------------------------------------------------------------

    def credit(self, deal: Optional[int], player: str, points: Fraction, strike: Fraction, why: str) -> None:
        """Write `points` to the player's track and strike `strike` of his hens.

        Seed 002: points beyond the target are sold to "daugiausiai taškų take turinčiajam"
        (the unfinished player with the most track points; ties: "artimiausiajam kairiajam"),
        the seller writing ten whists per point on him; when every track is complete, "žaidėjas
        nusibraukia atitinkamą vištų skaičių" (strikes his own hens, or sells hens).
        """
        book = self.book
        track = self.words["pool"]
        points = F(points)
        room = max(F(0), self.target - book.pool[player])
        own = min(points, room)
        if own > 0:
            book.write_pool(deal, player, own, "track", f"{why}: {_n(own)} to {player}'s {track}")
        rest = points - own
        if rest > 0 and own < points:
            self.notes.append(f"deal {deal}: {player}'s {track} is complete; {_n(rest)} point(s) sold")
        while rest > 0:
            order = book.left_order(player)
            buyers = [q for q in order if book.pool[q] < self.target]
            if not buyers:
                break
            best = max(book.pool[q] for q in buyers)
            buyer = next(q for q in buyers if book.pool[q] == best)
            take = min(rest, self.target - book.pool[buyer])
            book.write_pool(deal, buyer, take, "track.sold",
                            f"{why}: {player} sells {_n(take)} {track} point(s) to {buyer}")
            book.write_whists(deal, player, buyer, take * self.hen_whists, "track.sold",
                              f"{player} sells {_n(take)} {track} point(s) to {buyer}: "
                              f"{_n(self.hen_whists)} whists each")
            rest -= take
        self._kitty_check(deal)
        if rest > 0:
            book.strike_hens(deal, player, rest, self.sell_to, self.hen_whists, "track.over",
                             f"{why}: every {track} is complete, {_n(rest)} point(s) strike hens")
        if strike > 0:
            book.strike_hens(deal, player, F(strike), self.sell_to, self.hen_whists, "hens.struck", why)

    def _kitty_check(self, deal: Optional[int]) -> None:
        """"Su katilu": the first to complete his track takes the kitty premium (by agreement)."""
        premium = F(self.rules["kitty_premium"])
        if self.kitty_taken is not None:
            return
        done = [p for p in self.players if self.book.pool[p] >= self.target]
        if not done:
            return
        self.kitty_taken = done[0]
        if premium <= 0:
            return
        p = self.kitty_taken
        if self.rules["kitty_premium_form"] == "whists":
            for q in self.book.left_order(p):
                self.book.write_whists(deal, p, q, premium, "kitty.premium",
                                       f"{p} completes the {self.words['pool']} first: kitty premium")
        else:
            self.book.strike_hens(deal, p, premium, self.sell_to, self.hen_whists, "kitty.premium",
                                  f"{p} completes the {self.words['pool']} first: kitty premium")


def score_record(record: Record, rules: Rules, ctx=None) -> ScoreResult:
    g = _Game(record, rules, ctx)
    book = g.book
    players = g.players
    n = len(players)
    hens = g.words["mountain"]
    if record.start is not None:
        book.load_start(record)
        # su katilu: a carried-over sheet whose track is already complete has had its premium
        g.kitty_taken = next((p for p in players if book.pool[p] >= g.target), None)
    else:
        sh = rules["start_hens"]
        start = g.target / 2 if sh == "half" else F(sh)
        for p in players:
            book.write_mountain(None, p, start, "start.hens",
                                f"start: {_n(start)} {hens} (half the target {_n(g.target)})" if sh == "half"
                                else f"start: {_n(start)} {hens}")
    general_n = count_option(rules, "general_egles", n, "players", n)
    strokes0 = count_option(rules, "egles", n, "general", general_n)
    # a game continued from a sheet keeps each player's strokes (seed 002 l.41, l.265–269)
    state = g.ctx.state
    strokes: Dict[str, int] = per_player(state, "egles", players, strokes0)
    strokes_at_start = dict(strokes)
    if record.start is not None:
        note = missing_note(state, rules.family, ("egles",), f"{strokes0} eglė stroke(s) each")
        if note:
            g.notes.append(note)
    bombs_called: Dict[str, int] = per_player(state, "bombs_called", players, 0)

    # The leading general_egles all-passes are general eglės, an all-pass after a bomb one too
    # (bomb_allpass), any other a mandatory eglė, after which the same dealer deals again
    # (allpass.same_dealer): prefcli.seating's kinds are this game's words.
    kinds, dealer_of = g.ctx.kinds, g.ctx.dealers

    history: List[Dict[str, object]] = []
    for entry in record.deals:
        if isinstance(entry, Adjust):
            apply_adjust(book, entry)
            continue
        deal = entry
        reading = g.reading(deal)
        if reading.position:
            g.notes.append(position_note(reading))
            continue
        dealer = reading.dealer
        kind = kinds[deal.pos]
        if all(book.pool[p] >= g.target for p in players) and not g.notes_after:
            g.notes_after = True
            g.notes.append(f"deal {deal.number} is played after every {g.words['pool']} was complete "
                           "(seed 002: play goes on only when so agreed)")
        _check_events(g, deal)
        if deal.bomb in bombs_called:
            bombs_called[deal.bomb] += 1
        if dealer is None:      # the context refused a record that does not say who deals (never guessed)
            raise ScoringError(f"deal {deal.number}: who deals is not known: name the first dealer "
                               "(first_dealer: NAME) or this deal's dealer (dealer: NAME)", deal.path)
        if kind == "contract":
            info = _score_contract(g, deal, dealer, strokes)
        else:
            info = _score_egle(g, deal, dealer, kind)
            if kind == "mandatory" and rules["allpass.regain"]:
                for p in players:
                    strokes[p] += 1
        apply_penalties(book, deal)
        info.update({"deal": deal.number, "dealer": dealer, "kind": kind, "egles": dict(strokes)})
        if not book.ledger.totals_only:           # the final sheet alone keeps no history
            history.append(info)

    complete = all(book.pool[p] >= g.target for p in players)
    if record.end:
        g.notes.append(f"the game was stopped early ({record.end.get('reason', 'by agreement')}); "
                       f"the sheet is settled as it stands (seed 002)")
    finished = complete or bool(record.end)
    result = ScoreResult(record=record, rules=rules, ledger=book.ledger, dealers=dealer_of,
                         finished=finished, notes=g.notes,
                         extra={"egles": dict(strokes), "egles_start": strokes0, "egles_at_start": strokes_at_start,
                                "deals": history,
                                "kitty": g.kitty_taken},
                         state={"dealer": g.ctx.next_dealer, "leading_egles": g.ctx.leading_left,
                                "egles": dict(strokes), "bombs_called": bombs_called})
    return result


def _check_events(g: _Game, deal: Deal) -> None:
    """Dark bidding and the bomb are refused where the rules do not play them (who may call a
    bomb and the level after it are the reading's)."""
    n = deal.number
    if deal.dark and not g.rules["dark"]:
        raise ScoringError(f"deal {n}: dark bidding is not played under these rules (option dark)",
                           deal.path + ("dark",))
    if deal.bomb is not None and not g.rules["bomb"]:
        raise ScoringError(f"deal {n}: the bomb is not played under these rules (option bomb)",
                           deal.path + ("bomb",))


def _score_egle(g: _Game, deal: Deal, dealer: str, kind: str) -> Dict[str, object]:
    """A general or mandatory eglė (seed 002): 3 hens a trick, 6 track points and 6 hens struck
    for a player with no trick; the talon-led tricks are the 4-player dealer's, with 3 players
    nobody's ("neatitenka niekam")."""
    rules = g.rules
    n = deal.number
    g.check_allpass(deal, "eglė")
    reading = g.reading(deal)
    active = list(reading.active)
    with_dealer = g.four and bool(rules["egle.dealer"])
    takers = list(active) + ([dealer] if with_dealer else [])
    if with_dealer and deal.tricks is not None and dealer not in (deal.tricks_map() or {}):
        raise ScoringError(f"deal {n}: in an eglė with {len(g.players)} players list the dealer {dealer} in tricks too "
                           "(the tricks his talon cards won; 0 when they won none)", deal.path + ("tricks",))
    # With 3 players (or a 4-player dealer who is not listed) a talon card that wins its trick
    # gives it to nobody, so the counts may add up to 8 or 9 (allpass.talon: dealer-plays).
    nobody = 0 if with_dealer or rules["allpass.talon"] != "dealer-plays" else 2
    tricks = trick_counts(deal, takers, allowed_missing=nobody, reading=reading)
    if g.four and tricks.get(dealer, 0) > 2:
        raise ScoringError(f"deal {n}: the dealer {dealer} can win at most the two talon-led tricks, "
                           f"not {tricks[dealer]}", deal.path + ("tricks", dealer))
    name = {"general": "general eglė", "mandatory": "mandatory eglė", "bomb": "general eglė (bomb)"}[kind]
    th = F(rules["egle.trick_hens"])
    zp, zh = F(rules["egle.zero_points"]), F(rules["egle.zero_hens"])
    hens = g.words["mountain"]
    for p in takers:
        t = tricks[p]
        if t:
            talon = " (talon cards)" if p == dealer and g.four else ""
            g.book.write_mountain(n, p, th * t, "egle.tricks", f"{name}: {t} trick(s) × {_n(th)} {hens}{talon}")
        else:
            g.credit(n, p, zp, zh, f"{name}: {p} took no trick")
    return {"tricks": tricks}


def _score_contract(g: _Game, deal: Deal, dealer: str, strokes: Dict[str, int]) -> Dict[str, object]:
    rules = g.rules
    book = g.book
    n = deal.number
    c = deal.contract
    play = g.read_play(deal, dealer)
    declarer, defenders, outcome = play.declarer, play.defenders, play.outcome

    has_egle = strokes[declarer] > 0
    factor = F(1)
    parts = []
    if has_egle:
        factor *= F(rules["egle_multiplier"])
        parts.append("eglė")
    if deal.dark:
        factor *= F(rules["dark_multiplier"])
        parts.append("dark")
    if deal.bomb is not None:
        factor *= F(rules["bomb_multiplier"])
        if F(rules["bomb_multiplier"]) != 1:
            parts.append("bomb")
    label = f"{declarer} {c}" + (f" ({', '.join(parts)} ×{_n(factor)})" if factor != 1 else "")

    writeup = rules["writeup"] == "always" or (rules["writeup"] == "4-players" and g.four)

    def declarer_writes() -> None:
        if outcome.made:
            pts = price(rules, "points", c) * factor
            g.credit(n, declarer, pts, pts, f"{label} made")
            if has_egle:
                strokes[declarer] -= 1
        else:
            g.write_failed(deal, play, factor, label)

    def defence_writes() -> None:
        write_defence(book, deal, rules, outcome, declarer, defenders, factor, writeup, f"{label}: ")

    # strike_order (inferred): whose hens are written first within the deal
    steps = (declarer_writes, defence_writes)
    for step in (steps if rules["strike_order"] == "declarer-first" else steps[::-1]):
        step()

    if g.four:
        _dealer_writes(g, deal, dealer, declarer, outcome, factor, writeup, label)
    return play.info(factor)


def _dealer_writes(g: _Game, deal: Deal, dealer: str, declarer: str, outcome, factor: Fraction,
                   writeup: bool, label: str) -> None:
    """The 4-player dealer's talon bonus and write-up (seed 002).

    Talon bonus: "dalijantysis gauna vistus iš žaidžiančiojo, lyg būtų vistuodamas paėmęs tomis
    kortomis kirtį ar du" (not in the dark: "Dalijantysis negauna vistų už potencialius kirčius
    pirkinyje"). Write-up: "pirkinyje neradęs potencialaus kirčio dalijantysis žaidėjas
    užsirašo už du kirčius (nes dviejų pritrūko žaidžiančiajam!)".
    """
    rules = g.rules
    c = deal.contract
    n = deal.number
    wp = price(rules, "whist_price", c)
    tt = 0
    if rules["talon_bonus"] == "4-players" and not deal.dark and deal.talon:
        tt = talon_tricks(deal.talon, c.is_misere, rules["talon_bonus_misere"], int(rules["talon_two_aces"]))
        if tt:
            g.book.write_whists(n, dealer, declarer, wp * tt * factor, "talon.bonus",
                                f"{label}: talon bonus, {tt} potential trick(s) in the talon × {_n(wp)}"
                                + _times(factor))
    if outcome.made or not writeup or outcome.defence.whisters == [dealer]:
        return
    mode = rules["writeup_dealer"]
    if mode == "none" or (mode == "instead" and tt):
        return
    g.book.write_whists(n, dealer, declarer, wp * outcome.missing * factor, "whists.writeup",
                        f"{label}: write-up by the dealer, {outcome.missing} "
                        + ("trick(s) the misère declarer took" if c.is_misere else "missing trick(s)")
                        + f" × {_n(wp)}" + _times(factor))
