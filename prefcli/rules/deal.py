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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from prefcli.model.cards import DECK, Card, Decision
from prefcli.model.diagnostics import Path, Problem
from prefcli.model.records import Deal
from prefcli.rules.conventions import exit_options
from prefcli.rules.errors import TRICKS_PER_DEAL

if TYPE_CHECKING:       # pragma: no cover
    from prefcli.rules.context import RecordContext
    from prefcli.rules.replay import DealReplay

__all__ = ["DealReading", "read_deal", "INCOMPLETE"]

#: The kind of a problem that is not an illegal step but a fact the record leaves out (the
#: tricks of a played deal, the decisions of a whisted one): validate and score refuse it, the
#: replay's legality check (``engine.check_record``) does not.
INCOMPLETE = "incomplete"

# how a contract is defended (DealReading.mode)
ALLPASS, UNPLAYED, HALF, RETURNED, JOINT, ALONE, OPEN, BOTH_HANDS, TAKEOVER, CATCH, CHECKED, CONCEDED, UNKNOWN = (
    "all-pass", "unplayed", "half-whist", "returned", "joint", "alone", "open", "both-hands", "takeover",
    "misere", "checked", "conceded", "unknown")
#: be visų (seed 004 l.200): a declaration kept against the rules, written without all the tricks
#: of the bid reached, unplayed and unwhisted
WITHOUT_ALL = "without-all"
#: played without the discard (seed 001 l.142 "за игру без сноса – без двух в гору"): written
#: down irregularity.no_discard, whatever the tricks
NO_DISCARD = "no-discard"


@dataclass
class DealReading:
    """Everything the rules say about one deal (see the module docstring)."""

    deal: Deal
    kind: str                                   # contract | general | mandatory | bomb (the rotation's)
    dealer: Optional[str]
    seats: Tuple[str, ...] = ()                 # who holds cards, from the first hand
    active: Tuple[str, ...] = ()                # who holds cards, in seat order
    sitting_out: Tuple[str, ...] = ()
    exit_level: int = 0                         # the minimum contract after the all-passes before it
    allpass_run: int = 0                        # consecutive all-pass deals right before this one
    dark_run: int = 0                           # consecutive dark all-pass deals right before this one
    declarer: Optional[str] = None
    defenders: Tuple[str, ...] = ()             # in the order they speak (from the declarer's left)
    decisions: Dict[str, Decision] = field(default_factory=dict)   # as written
    unwritten: bool = False                     # a contract with no whist decision written at all
    whisters: Tuple[str, ...] = ()              # who writes the defenders' whists (mode decides how)
    half_whister: Optional[str] = None
    returned_by: Optional[str] = None
    takeover: Optional[str] = None
    revoked_by: Optional[str] = None            # who revoked (seed 001 l.142), the corrected play scored
    misdealt_by: Tuple[str, ...] = ()           # who misdealt before the deal was dealt again
    open: bool = False
    forced: bool = False                        # Stalingrad: both defenders whist a 6♠ whatever is written
    mode: str = UNKNOWN
    played: bool = False
    quota: int = 0                              # what the defenders must take together
    tricks: Optional[Dict[str, int]] = None     # every holder's tricks (the talon's owner too)
    tricks_from: Optional[str] = None           # recorded | replayed | claimed | conceded
    replay: Optional["DealReplay"] = None
    position: bool = False                      # a marked position: read, replayed, analysed, not scored
    problems: List[Problem] = field(default_factory=list)
    cards_problems: List[Problem] = field(default_factory=list)   # the hands and talon do not add up
    # the two-player game (HUSAR.md): the dummy's seat, who calls, who plays and leads, and who
    # plays the dummy's cards; for every other table `callers` and `players_in_play` are `seats`
    dummy: Optional[str] = None
    callers: Tuple[str, ...] = ()               # who calls in the auction, from the first (live) hand
    players_in_play: Tuple[str, ...] = ()       # who plays cards to the tricks, from the first hand
    first_leader: Optional[str] = None          # who leads the first trick (H10)
    controller: Optional[str] = None            # who chooses the dummy's cards (H9, H10)
    here_allowed: bool = True                   # may anyone say here in this deal (husar.hold_right, H6)

    @property
    def number(self) -> int:
        return self.deal.number

    @property
    def path(self) -> Path:
        return self.deal.path

    @property
    def first_hand(self) -> Optional[str]:
        return self.seats[0] if self.seats else None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def legal(self) -> List[Problem]:
        """The problems that make a step illegal (not the facts left out)."""
        return [p for p in self.problems if p.kind != INCOMPLETE]

    @property
    def rule_problems(self) -> List[Problem]:
        """The illegal steps of the deal, not counting a malformed deal of the cards (which the
        replay cannot start from): what the rules engine's own check reports."""
        skip = {id(p) for p in self.cards_problems}
        return [p for p in self.problems if p.kind != INCOMPLETE and id(p) not in skip]

    @property
    def scored_players(self) -> Tuple[str, ...]:
        """The active seats that are players (the dummy holds cards but has no sheet, H16)."""
        return tuple(p for p in self.active if p != self.dummy)

    @property
    def passers(self) -> Tuple[str, ...]:
        return tuple(p for p in self.defenders if self.decisions.get(p) is Decision.PASS)

    def quota_alone(self) -> int:
        """A lone whister's share of the quota: half, rounded up (6→2, 7→1, 8+→1)."""
        return (self.quota + 1) // 2

    @property
    def errors(self) -> List[Problem]:
        """The problems that refuse the deal (not the warnings: what the deal is scored past)."""
        if not self.problems:
            return []
        return [p for p in self.problems if p.severity == "error"]


def _not_seated(name: str, players) -> str:
    return f"'{name}' is not seated at this table (players: {', '.join(players)})"


def _reading_template() -> Optional[Dict[str, object]]:
    """Every field of a DealReading with its default (None: build readings the usual way)."""
    import dataclasses
    out: Dict[str, object] = {}
    for f in dataclasses.fields(DealReading):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.name in ("deal", "kind", "dealer") or f.name in _FRESH:
            out[f.name] = None
        else:
            return None
    return out


#: The mutable defaults, made afresh for every reading.
_FRESH = ("decisions", "problems", "cards_problems")
_TEMPLATE = _reading_template()


def _new_reading(deal: Deal, kind: str, dealer: Optional[str], exit_level: int, allpass_run: int,
                 dark_run: int) -> DealReading:
    """``DealReading(deal, kind, dealer, exit_level=…, …)`` by copying its defaults: the dataclass's
    ``__init__`` sets its 30 fields one at a time, a third of a summary deal's reading."""
    if _TEMPLATE is None:
        return DealReading(deal, kind, dealer, exit_level=exit_level, allpass_run=allpass_run, dark_run=dark_run)
    state = _TEMPLATE.copy()
    state.update(deal=deal, kind=kind, dealer=dealer, exit_level=exit_level, allpass_run=allpass_run,
                 dark_run=dark_run, decisions={}, problems=[], cards_problems=[])
    out = object.__new__(DealReading)
    out.__dict__.update(state)
    return out


def read_deal(ctx: "RecordContext", deal: Deal) -> DealReading:
    """Read `deal` in its record's context (use :meth:`RecordContext.reading`, which keeps it)."""
    r = _Reader(ctx, deal)
    r.read()
    return r.out


class _Reader:
    def __init__(self, ctx: "RecordContext", deal: Deal) -> None:
        self.ctx, self.deal, self.conv = ctx, deal, ctx.conv
        self.players = ctx.record.players
        self.seated = ctx.seated
        self.table = ctx.table
        self.dummy = ctx.table.dummy if ctx.table is not None else None
        # who may hold cards, take tricks and be named in hands: the players and the dummy
        self.holders = ctx.seated | {self.dummy} if self.dummy is not None else ctx.seated
        dealer = deal.dealer if deal.dealer in self.seated else ctx.dealers.get(deal.pos)
        pos = deal.pos
        self.out = _new_reading(deal, ctx.kinds.get(pos, "contract"), dealer, ctx.exit_levels.get(pos, 0),
                                ctx.allpass_runs.get(pos, 0), ctx.dark_runs.get(pos, 0))
        self.n = deal.number
        self.path = deal.path

    def add(self, path: Path, message: str, kind: str = "rule") -> None:
        self.out.problems.append(Problem(message, path, kind=kind))

    def why_out(self, name: str) -> str:
        """How a message says why `name` holds no cards in this deal: "deals" or "waits his turn"
        (with five, seed 004 l.107; the table's ROLE_WORDS)."""
        return self.table.why_out(self.out.dealer, name) if self.table is not None else "deals"

    def warn(self, path: Path, message: str) -> None:
        """A fact the record states oddly but that has one reading, which scoring follows: validate
        reports it and still passes the record."""
        self.out.problems.append(Problem(message, path, kind="rule", severity="warning"))

    # ------------------------------------------------------------------------------------
    def read(self) -> None:
        out, deal = self.out, self.deal
        table = self.table
        if table is not None and out.dealer is not None:
            out.seats = table.from_first_hand(out.dealer)
            out.active = table.active(out.dealer)
            out.sitting_out = table.sitting_out(out.dealer)
            out.callers = table.callers(out.dealer)
        else:
            out.active = tuple(self.players)
        out.dummy = self.dummy
        out.players_in_play = out.seats
        out.first_leader = out.first_hand
        self.declarer_checks()
        self.dealer_checks()
        self.defence()
        if deal.irregularities:
            self.irregularities()
        if self.dummy is not None and out.seats:
            self.husar()
        self.other_fields()
        self.tricks()
        if deal.hands is not None:
            before = len(out.problems)
            self.cards()
            malformed = bool(out.problems[before:])
            self.discard()
            if malformed:      # a discard checked against malformed hands says little more
                out.cards_problems = out.problems[before:]
        if self.ctx.overridden and deal.tricks is not None:
            return      # rescored under other rules: the recorded tricks stand, the calls and cards
            #             are not checked again under a table that did not play them
        if (deal.hands is not None or deal.auction is not None or deal.play is not None) and not any(
                p.severity == "error" and p.kind != INCOMPLETE for p in out.problems):
            self.replay()

    # -- who deals ------------------------------------------------------------------------
    def dealer_checks(self) -> None:
        deal, out, ctx = self.deal, self.out, self.ctx
        players = self.players
        if deal.dealer is not None:
            expected = ctx.expected.get(deal.pos)
            if deal.dealer not in self.seated:
                self.add(self.path + ("dealer",), _not_seated(deal.dealer, players))
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
        if deal.declarer is None:
            if deal.auction is None:
                self.add(self.path, f"deal {n}: {c} needs a declarer")
            return
        if deal.declarer is not None and deal.declarer == self.dummy:
            self.add(self.path + ("declarer",), f"deal {n}: the dummy never bids or declares (HUSAR.md H6)")
        elif deal.declarer not in self.seated:
            self.add(self.path + ("declarer",), _not_seated(deal.declarer, players))
        elif deal.declarer in out.sitting_out:
            self.add(self.path + ("declarer",), f"deal {n}: {deal.declarer} {self.why_out(deal.declarer)} and sits out "
                                                f"with {len(players)} players, so cannot declare")
        else:
            out.declarer = deal.declarer
        # the level: after all-passes (allpass.exit, allpass.dark_exit) and after a bomb
        if deal.auction is None and out.exit_level and c.is_tricks and (c.level or 0) < out.exit_level:
            # allpass.exit: "a lower contract is scored, with a note" (an auction is refused)
            self.warn(self.path + ("contract",), f"deal {n}: after an all-pass the game must be at least "
                                                f"{out.exit_level} ({exit_options(conv)}), not {c}")
        for key, what in (("contract", c), ("bid", deal.bid)):
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
        that the declaration is indeed against the rules, so a typo is never scored as a penalty."""
        deal, conv, n = self.deal, self.conv, self.n
        c, bid = deal.contract, deal.bid
        wp = self.path + ("without_all",)
        if not conv.without_all:
            self.add(wp, f"deal {n}: \"be visų\" (a declaration kept against the rules) is not played under "
                         "these rules (option without_all)")
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
        if not (below or misere_after_bids):
            self.add(wp, f"deal {n}: {c} after the bid {bid} is a legal declaration, so there is nothing to keep "
                         "against the rules (without_all: a contract below the bid, or a misère after other bids; "
                         "seed 004 l.200)")

    # -- the defence ----------------------------------------------------------------------
    def defence(self) -> None:
        deal, out, conv = self.deal, self.out, self.conv
        c = deal.contract
        n = self.n
        players = self.players
        wpath = self.path + ("whist",)
        if c.is_all_pass:
            out.mode, out.played = ALLPASS, True
            return
        decl = out.declarer
        if decl is not None and self.table is not None:
            out.defenders = self.table.defenders(out.dealer, decl)
        if deal.without_all:
            # the partners refuse the declaration before anyone whists: nothing is played
            for key, stated in (("whist", deal.whist), ("tricks", deal.tricks), ("play", deal.play),
                                ("claim", deal.claim)):
                if stated:
                    self.add(self.path + (key,), f"deal {n}: a declaration kept against the rules (without_all) "
                                                 f"is neither whisted nor played: leave {key} out")
            for key, value in (("open", deal.open), ("takeover", deal.takeover), ("return", deal.returned_by),
                               ("concede", deal.concede or None), ("partner", deal.partner)):
                if value is not None:
                    self.add(self.path + (key,), f"deal {n}: {key} does not go with without_all (nothing is played)")
            out.mode, out.played = WITHOUT_ALL, False
            return
        given = dict(deal.whist)
        defenders = out.defenders
        bad = False
        for name in given:
            if name in defenders and name != self.dummy:
                continue                                  # the common case
            p = wpath + (name,)
            if name == self.dummy:
                self.add(p, f"deal {n}: the dummy never speaks: only the declarer's opponent whists or passes "
                            "(HUSAR.md H8)")
                bad = True
            elif name not in self.seated:
                self.add(p, _not_seated(name, players))
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
        out.open = bool(deal.open)
        out.takeover, out.returned_by = deal.takeover, deal.returned_by
        if deal.takeover is not None or deal.returned_by is not None:
            for key, who in (("takeover", deal.takeover), ("return", deal.returned_by)):
                if who is not None and who == self.dummy:
                    self.add(self.path + (key,), f"deal {n}: the dummy never speaks, so it neither takes over "
                                                 "nor returns a whist (HUSAR.md H8, Кодекс 3.8.8)")
                    bad = True
                elif who is not None and who not in self.seated:
                    self.add(self.path + (key,), _not_seated(who, players))
                    bad = True
        if decl is None or len(defenders) != 2 or bad:
            out.played = bool(deal.tricks is not None or deal.play is not None or deal.claim is not None)
            return
        first, second = defenders
        decisions = out.decisions
        if self.dummy is not None:
            self.husar_decisions(decisions, wpath)
        d1, d2 = decisions.get(first), decisions.get(second)
        halves: List[str] = []
        whisting: List[str] = []
        for who, d in ((first, d1), (second, d2)):
            if d is Decision.WHIST:
                whisting.append(who)
            elif d is Decision.HALF_WHIST:
                halves.append(who)
        out.unwritten = not deal.whist
        gives_tricks = deal.tricks is not None or deal.play is not None or deal.claim is not None
        is_tricks = c.is_tricks
        out.quota = conv.quota[c.level or 6] if is_tricks else 0
        # a partial record of decisions
        missing = [p for p, d in ((first, d1), (second, d2)) if d is None] if d1 is None or d2 is None else ()
        if deal.whist and missing and (is_tricks or conv.whist_unwritten == "refused"):
            # a partial record of decisions is refused in every family (never read as a pass)
            self.add(wpath, f"deal {n}: the decision of {' and '.join(missing)} is missing "
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
                self.add(wpath + (halves[0],), f"deal {n}: there is no half-whist on a misère")
                return
            if out.unwritten and conv.whist_unwritten == "refused" and not gives_tricks:
                self.add(wpath if deal.whist else self.path,
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
                self.add(wpath if deal.whist else self.path,
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
                self.add(wpath + (who,), f"deal {n}: 6S must be whisted by both defenders (stalingrad), "
                                         f"yet {who} did not whist")
                return
            out.forced = True
        dark_won = deal.dark
        if dark_won and conv.dark_defence:
            # seed 002: "Vistuojantieji negali žaisti atviromis kortomis, o jei žaidžiantysis žaidžia
            # šeštoje kategorijoje, jie abu privalo vistuoti"
            if c.level == 6 and not (d1 is Decision.WHIST and d2 is Decision.WHIST):
                who = first if d1 is not Decision.WHIST else second
                self.add(wpath + (who,), f"deal {n}: a dark 6 must be whisted by both defenders (a contract "
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
            out.mode = OPEN if deal.open else ALONE
            return
        out.mode, out.played = UNPLAYED, False
        if gives_tricks and deal.tricks is not None and deal.hands is None:
            self.add(self.path + ("tricks",), f"deal {n}: both defenders passed, so {c} is not played, "
                                              "yet its tricks are given (leave them out)")

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
            self.add(hp, f"deal {n}: half-whist is allowed only on {levels}, not on {c} (option half_whist_levels)")
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
                self.add(ip + ("by",), _not_seated(irr.by, self.players))
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
            if deal.bomb not in self.seated:
                self.add(self.path + ("bomb",), _not_seated(deal.bomb, players))
            elif conv.bomb and conv.bomb_min_level > 0 and out.first_hand is not None \
                    and deal.bomb != out.first_hand:
                self.add(self.path + ("bomb",), f"deal {n}: only the first hand ({out.first_hand}) may call a bomb, "
                                                f"not {deal.bomb} (seed 002: \"skelbti gali tik žaidėjas, "
                                                "turintis Pirmojo teises\")")
            c = deal.contract
            if conv.bomb and conv.bomb_min_level and c.is_tricks and (c.level or 0) < conv.bomb_min_level:
                self.add(self.path + ("contract",), f"deal {n}: after a bomb the game must be at least "
                                                    f"{conv.bomb_min_level}: only {conv.bomb_min_level} or more "
                                                    f"may be played, not {c}")
        for i, pen in enumerate(deal.penalties):
            if pen.player not in self.seated:
                self.add(self.path + ("penalties", i, "player"), _not_seated(pen.player, players))
            if pen.whists_on is not None and pen.whists_on not in self.seated:
                self.add(self.path + ("penalties", i, "whists", "on"), _not_seated(pen.whists_on, players))
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
                    self.add(self.path + ("claim", name), _not_seated(name, players))

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

    # -- tricks -----------------------------------------------------------------------------
    def tricks(self) -> None:
        deal, out, conv, n = self.deal, self.out, self.conv, self.n
        c = deal.contract
        if deal.tricks is not None:
            # Seed 002: in a 3-player eglė the two talon-led tricks "played by the dealer" that a
            # talon card wins belong to nobody, so the players' tricks may add up to 8 or 9.
            unowned = 2 if (c.is_all_pass and not out.sitting_out and conv.allpass_talon == "dealer-plays") else 0
            given = dict(deal.tricks)
            if self._check_tricks(given, unowned):
                if len(given) != len(out.active) or any(p not in given for p in out.active):
                    given = {**{p: 0 for p in out.active}, **given}     # a husar's dummy takes none
                out.tricks = given
                out.tricks_from = "recorded"
            return
        if deal.hands is None and deal.play is None and deal.claim is not None and out.played:
            claim = deal.claim_map() or {}
            if self._check_tricks(claim, 0, key="claim"):
                out.tricks = {**{p: 0 for p in out.active}, **claim}
                out.tricks_from = "claimed"
            return
        if deal.play is None and deal.claim is None and out.played and out.mode != CHECKED:
            if out.position:
                return                      # a study kept without a result, on purpose
            if deal.hands is not None:
                # a full deal without a result: a position only when the record says so
                self.add(self.path, f"deal {n}: {c} was played, so its result is needed: record the play "
                                    "or the tricks (tricks: {name: count, …} for every active player), or "
                                    "mark it as a position (position: true) to keep it for analysis only",
                         INCOMPLETE)
            else:
                self.add(self.path, f"deal {n}: {c} was played, so the tricks are needed "
                                    "(tricks: {name: count, …} for every active player)", INCOMPLETE)

    def _check_tricks(self, tricks: Dict[str, int], unowned: int, key: str = "tricks") -> bool:
        out, deal, n = self.out, self.deal, self.n
        seated = self.holders
        sitting = out.sitting_out if not deal.contract.is_all_pass else ()
        total = 0
        for name, count in tricks.items():     # the common case first: every name fine
            if name not in seated or name in sitting or count < 0:
                break
            total += count
        else:
            active = out.scored_players
            if total == TRICKS_PER_DEAL and len(tricks) >= len(active):
                for p in active:
                    if p not in tricks:
                        break
                else:
                    return True
        path = self.path + (key,)
        players = self.players
        ok = True
        for name, count in tricks.items():
            if name not in self.holders:
                self.add(path + (name,), _not_seated(name, players))
                ok = False
            elif name in out.sitting_out and not (deal.contract.is_all_pass and name == out.dealer):
                if name == deal.declarer or name in deal.whist_map():
                    ok = False
                    continue  # already reported as the one sitting out
                # only the dealer's talon cards take tricks in an all-pass; the one waiting his turn
                # (five players) holds nothing at all
                self.add(path + (name,), f"deal {n}: {name} {self.why_out(name)} and sits out with {len(players)} "
                                         f"players, so takes no tricks in a{'n' if deal.contract.is_all_pass else ''} "
                                         f"{deal.contract} deal")
                ok = False
            if count < 0:
                self.add(path + (name,), f"deal {n}: trick count {count} is negative")
                ok = False
        if not ok:
            return False
        missing = [p for p in out.scored_players if p not in tricks]
        total = sum(tricks.values())
        if missing and key == "tricks":
            # refused even when the others add up to 10 (never read as 0)
            self.add(path, f"deal {n}: no trick count for {', '.join(missing)} (every active player's count "
                           "is needed: write " + ", ".join(f"{p}: 0" if total == TRICKS_PER_DEAL else f"{p}: N"
                                                           for p in missing) + ")")
            ok = False
        if not TRICKS_PER_DEAL - unowned <= total <= TRICKS_PER_DEAL:
            expected = (str(TRICKS_PER_DEAL) if not unowned else
                        f"{TRICKS_PER_DEAL - unowned} to {TRICKS_PER_DEAL} (talon-led tricks may belong to nobody)")
            self.add(path, f"deal {n}: the tricks add up to {total}, not {expected} "
                           f"({', '.join(f'{k} {v}' for k, v in tricks.items())})")
            ok = False
        return ok

    # -- the cards --------------------------------------------------------------------------
    def cards(self) -> None:
        deal, out, n = self.deal, self.out, self.n
        path = self.path
        players = self.players
        active = out.active
        hands = deal.hands_map() or {}
        talon = deal.talon
        if talon is not None and len(talon) == 2 and len(hands) == len(active) \
                and all(name in active and len(cards) == TRICKS_PER_DEAL for name, cards in hands.items()):
            dealt = set(talon)
            for cards in hands.values():
                dealt.update(cards)
            if len(dealt) == len(DECK):      # the common case: every card once, nothing to say
                self._hands_talon = (hands, tuple(talon))
                return
        for name, cards in hands.items():
            hp = path + ("hands", name)
            if name not in self.holders:
                self.add(hp, _not_seated(name, players))
            elif name not in active:
                self.add(hp, f"deal {n}: {name} {self.why_out(name)} and sits out with {len(players)} players, "
                             "so holds no cards")
            if len(cards) != TRICKS_PER_DEAL:
                self.add(hp, f"deal {n}: {name} holds {len(cards)} cards; each active hand holds {TRICKS_PER_DEAL}")
        for name in active:
            if name not in hands:
                self.add(path + ("hands",), f"deal {n}: the hand of {name} is missing")
        if talon is None:
            self.add(path, f"deal {n}: a full deal needs the two talon cards (talon:)")
            talon = ()
        elif len(talon) != 2:
            self.add(path + ("talon",), f"deal {n}: the talon holds {len(talon)} cards; it holds 2")
        where: Dict[Card, List[Tuple[str, ...]]] = {}
        for name, cards in hands.items():
            for card in cards:
                where.setdefault(card, []).append(("hands", name))
        for card in talon:
            where.setdefault(card, []).append(("talon",))
        for card, places in where.items():
            if len(places) > 1:
                names = [p[1] if len(p) > 1 else "the talon" for p in places]
                self.add(path + places[1], f"deal {n}: {card} is dealt twice ({' and '.join(names)})")
        if len(hands) == len(active) and all(len(c) == TRICKS_PER_DEAL for c in hands.values()) and len(talon) == 2:
            missing = [c for c in DECK if c not in where]
            if missing:
                self.add(path + ("hands",), f"deal {n}: cards missing from the deal: {' '.join(map(str, missing))}")
        self._hands_talon = (hands, talon)

    def discard(self) -> None:
        deal, n, path = self.deal, self.n, self.path
        hands, talon = self._hands_talon
        if deal.discard is not None:
            dp = path + ("discard",)
            if len(deal.discard) != 2:
                self.add(dp, f"deal {n}: the discard is {len(deal.discard)} cards; the declarer discards 2")
            if deal.declarer in hands:
                pool = set(hands[deal.declarer]) | set(talon)
                for card in deal.discard:
                    if card not in pool:
                        self.add(dp, f"deal {n}: {deal.declarer} discarded {card}, which is neither in his hand "
                                     "nor in the talon")
            if len(set(deal.discard)) != len(deal.discard):
                self.add(dp, f"deal {n}: the same card is discarded twice")

    # -- the replay -------------------------------------------------------------------------
    def replay(self) -> None:
        from prefcli.rules.replay import replay_reading
        out = self.out
        rep = replay_reading(self.ctx, out)
        out.replay = rep
        out.problems.extend(rep.problems)
        out.problems.extend(rep.unplayable)
        if rep.problems or rep.unplayable:
            return
        if out.tricks is None and rep.counts is not None:
            out.tricks = {**{p: 0 for p in out.active}, **rep.counts}
            out.tricks_from = "replayed"
