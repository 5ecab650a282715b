"""Scoring the Lithuanian "eglutė and kitty" game (seed 000, RULES.md §4).

The sheet keys are the common ones (`pool` holds each player's kitty points, `mountain` his
hens, `whists` the whist triangles); the entry texts use the game's words (kitty, hens, eglutė).
Nothing is taken from seed 002 that seed 000 does not state: no starting hens, no write-up, no
talon bonus, no zero-trick bonus, no dark games or bombs.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from prefcli.model.records import Adjust, Deal, Record
from prefcli.rules.presets import Rules
from prefcli.rules.state import missing_note, per_player
from prefcli.rules.table import BOMB, CONTRACT, GENERAL, MANDATORY
from prefcli.scoring import ScoreResult, ScoringError, position_note
from prefcli.scoring.lt_common import (F, Game, _n, apply_adjust, apply_penalties, count_option, price,
                                       trick_counts, write_defence)

FAMILY = "lithuanian-kitty"

# prefcli.seating's kinds in this game's words: the leading eglutės, then any all-pass is an
# "extra eglutė" (the game has no bomb; an all-pass after one would be an extra eglutė too).
_KIND = {GENERAL: "eglute", MANDATORY: "extra", BOMB: "extra", CONTRACT: "contract"}


class _Game(Game):
    family = FAMILY

    def __init__(self, record: Record, rules: Rules, ctx=None) -> None:
        super().__init__(record, rules, ctx)
        self.size = F(rules["pool"])
        self.half_winner: Optional[str] = None
        self.full_winner: Optional[str] = None
        self.ended_at: Optional[int] = None
        end = record.end or {}
        self.by_time = str(end.get("reason", "")).strip().lower() == "time"
        half = F(rules["half_kitty_premium"])
        full = rules["full_kitty_premium"]
        self.half_premium = half
        self.full_premium = 2 * half if full == "double" else F(full)

    def premiums(self, deal: Optional[int]) -> None:
        """Seed 000: the first to reach half the kitty and the one who completes it write the
        agreed premium once on each other player ("užrašomas tris kartus (kai žaidžia trise - du
        kartus)"). The kitty completed ends the game (l.11), so its premium is written even in a
        record that says it stopped at the hour (``end: {reason: time}``): l.13 withholds it only
        from a game broken off unfinished, "(dar nei vienas žaidėjas nesurinko katilo)"."""
        book = self.book
        kitty = self.words["pool"]
        if self.half_winner is None:
            reached = [p for p in self.players if book.pool[p] * 2 >= self.size]
            if reached:
                self.half_winner = reached[0]
                if self.half_premium > 0:
                    for q in book.left_order(reached[0]):
                        book.write_whists(deal, reached[0], q, self.half_premium, "kitty.half",
                                          f"{reached[0]} reaches half the {kitty} first: premium")
        if self.full_winner is None:
            done = [p for p in self.players if book.pool[p] >= self.size]
            if done:
                self.full_winner = done[0]
                self.ended_at = deal
                if self.full_premium > 0:
                    for q in book.left_order(done[0]):
                        book.write_whists(deal, done[0], q, self.full_premium, "kitty.full",
                                          f"{done[0]} completes the {kitty}: premium")


def score_record(record: Record, rules: Rules, ctx=None) -> ScoreResult:
    g = _Game(record, rules, ctx)
    book = g.book
    players = g.players
    n = len(players)
    hens = g.words["mountain"]
    eglutes_n = count_option(rules, "eglutes", n, "players", n)
    skip = bool(rules["skip_eglute"])
    # each player's eglutė table (seed 000 l.33–41): his rights (the eglutės played) and the games
    # he declared at full value; a game continued from a sheet goes on with them (start.state)
    state = g.ctx.state
    fresh_rights = eglutes_n if skip and rules["skip_eglute_rights"] == "agreed" else 0
    rights: Dict[str, int] = per_player(state, "rights", players, fresh_rights)
    full_used: Dict[str, int] = per_player(state, "declared", players, 0)
    notes: List[str] = []
    if record.start is not None:
        book.load_start(record)
        # A carried-over sheet already past half the kitty has had its premium; one whose kitty
        # is complete is a game that has ended.
        g.half_winner = next((p for p in players if book.pool[p] * 2 >= g.size), None)
        g.full_winner = next((p for p in players if book.pool[p] >= g.size), None)
        if g.full_winner is not None:
            g.ended_at = 0
        note = missing_note(state, rules.family, ("rights", "declared"),
                            f"{fresh_rights} right(s) each, none used")
        if note:
            notes.append(note)
    elif skip:          # the skipped eglutė is written once, when the game starts
        sh = F(rules["skip_eglute_hens"])
        for p in players:
            book.write_mountain(None, p, sh, "eglute.skipped", f"eglutė skipped by agreement: {_n(sh)} {hens}")

    # The leading `eglutes` all-passes are eglutės (none when skip_eglute), any other all-pass an
    # extra eglutė, after which the same dealer deals again when allpass.same_dealer says so.
    kinds = {pos: _KIND[kind] for pos, kind in g.ctx.kinds.items()}
    dealer_of = g.ctx.dealers

    history: List[Dict[str, object]] = []
    for entry in record.deals:
        if isinstance(entry, Deal):
            reading = g.ctx.reading(entry)
            if reading.position and not reading.errors:
                notes.append(position_note(reading))
                continue
        if g.ended_at is not None:
            when = f"at deal {g.ended_at}, when" if g.ended_at else "before this record (start:):"
            raise ScoringError(f"deal {entry.number}: the game ended {when} "
                               f"{g.full_winner} completed the {g.words['pool']} (seed 000: \"Kai tik kuris nors "
                               "žaidėjas surenka sutartą katilą, partija yra baigta\")", entry.path)
        if isinstance(entry, Adjust):
            apply_adjust(book, entry)
            g.premiums(entry.number)
            continue
        deal = entry
        dealer = g.ctx.dealer_of(deal)
        kind = kinds[deal.pos]
        for key, flag in (("dark", deal.dark), ("bomb", deal.bomb is not None)):
            if flag:
                raise ScoringError(f"deal {deal.number}: {key} is not part of the eglutė-and-kitty game (seed 000)",
                                   deal.path + (key,))
        if dealer is None:      # the context refused a record that does not say who deals (never guessed)
            raise ScoringError(f"deal {deal.number}: who deals is not known: name the first dealer "
                               "(first_dealer: NAME) or this deal's dealer (dealer: NAME)", deal.path)
        if kind == "contract":
            info = _score_contract(g, deal, dealer, full_used, rights)
        else:
            info = _score_eglute(g, deal, dealer, kind)
            for p in players:        # every player's table gets the eglutė's column (0, S or tricks)
                rights[p] += 1
        apply_penalties(book, deal)
        g.premiums(deal.number)
        info.update({"deal": deal.number, "dealer": dealer, "kind": kind, "rights": max(rights.values()),
                     "declared": dict(full_used)})
        if not book.ledger.totals_only:           # the final sheet alone keeps no history
            history.append(info)

    if g.by_time and g.full_winner is None:
        notes.append("stopped at the agreed hour: no full-kitty premium (seed 000 l.13)")
    elif g.by_time:
        when = f"at deal {g.ended_at}" if g.ended_at else "before this record (start:)"
        notes.append(f"end: time: {g.full_winner} completed the {g.words['pool']} {when}, so the game was "
                     "finished, not broken off at the hour: the full-kitty premium stands (seed 000 l.13 "
                     "\"dar nei vienas žaidėjas nesurinko katilo\")")
    return ScoreResult(record=record, rules=rules, ledger=book.ledger, dealers=dealer_of,
                       finished=g.full_winner is not None or bool(record.end), notes=notes,
                       extra={"rights": max(rights.values()), "declared": dict(full_used), "deals": history,
                              "half_kitty": g.half_winner, "full_kitty": g.full_winner},
                       state={"dealer": g.ctx.next_dealer, "leading_egles": g.ctx.leading_left,
                              "rights": dict(rights), "declared": dict(full_used)})


def _score_eglute(g: _Game, deal: Deal, dealer: str, kind: str) -> Dict[str, object]:
    """An eglutė (seed 000): the talon stays untouched, "Už kiekvieną paimtą kirtį skiriami 3
    baudos taškai, vadinami vištomis"; the 4-player dealer sits out."""
    n = deal.number
    g.check_allpass(deal, "eglutė")
    reading = g.reading(deal)
    active = list(reading.active)
    tricks = trick_counts(deal, active, reading=reading)
    th = F(g.rules["eglute.trick_hens"])
    name = "eglutė" if kind == "eglute" else "extra eglutė"
    for p in active:
        if tricks[p]:
            g.book.write_mountain(n, p, th * tricks[p], "eglute.tricks",
                                  f"{name}: {tricks[p]} trick(s) × {_n(th)} {g.words['mountain']}")
    return {"tricks": tricks}


def _score_contract(g: _Game, deal: Deal, dealer: str, full_used: Dict[str, int],
                    rights_of: Dict[str, int]) -> Dict[str, object]:
    rules = g.rules
    book = g.book
    n = deal.number
    c = deal.contract
    play = g.read_play(deal, dealer)
    declarer, outcome = play.declarer, play.outcome
    rights = rights_of[declarer]

    # Seed 000: "Kiekvienas žaidėjas lošiku gali būti tiek kartų, kiek kartų buvo žaisti eglutės
    # žaidimai" — beyond that "visi taškai, vistai ir vištos ... mažinami pusiau". A halved turn
    # uses no right, so an extra eglutė lets him declare once more in full.
    if full_used[declarer] < rights:
        factor = F(1)
        full_used[declarer] += 1
    else:
        factor = F(rules["rights_factor"])
    label = f"{declarer} {c}" + (f" (beyond {declarer}'s {rights} right(s): ×{_n(factor)})" if factor != 1 else "")
    kitty, hens = g.words["pool"], g.words["mountain"]

    def declarer_writes() -> None:
        if outcome.made:
            pts = price(rules, "points", c) * factor
            room = max(F(0), g.size - book.pool[declarer])
            to_kitty = min(pts / 2, room)
            if to_kitty > 0:
                book.write_pool(n, declarer, to_kitty, "kitty",
                                f"{label} made: {_n(to_kitty)} of {_n(pts)} points to the {kitty}"
                                + (" (all that was missing)" if to_kitty < pts / 2 else ""))
            book.strike_hens(n, declarer, pts - to_kitty, rules["strike_other"], g.hen_whists, "hens.struck",
                             f"{label} made: {_n(pts - to_kitty)} of {_n(pts)} points strike {hens}")
        else:
            g.write_failed(deal, play, factor, label)

    def defence_writes() -> None:
        write_defence(book, deal, rules, outcome, declarer, play.defenders, factor, False, f"{label}: ")

    # strike_order (inferred): whose hens are written first within the deal
    steps = (declarer_writes, defence_writes)
    for step in (steps if rules["strike_order"] == "declarer-first" else steps[::-1]):
        step()
    return play.info(factor)
