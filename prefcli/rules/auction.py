"""The auction as a state machine: who calls next, whether a call is legal, and applying it.

The replay, the generator and the property tests drive the same machine (``legal_calls``), so
generated auctions are legal by construction. Every rule that differs between variants is a
:class:`~prefcli.rules.conventions.Conventions` field: the ladder (``misere_after``), jumps
(``bid_jumps``), who may say "here" (``here_rule``), the kabal'ny misère (``misere_binding``), what
beats a misère (``misere_beaten_by``), the opening bid (``opening_bid``), the contest order of
seed 000 (``auction_order: pairs``), the bomb floor (``bomb_min_level``), dark calls (``dark``)
and the exit levels after all-passes.
"""
from __future__ import annotations

from prefcli.model.slots import dataclass
from typing import Dict, List, Optional, Sequence, Set, Tuple

from prefcli.model.cards import Call, CallKind, Contract
from prefcli.model.diagnostics import Path
from prefcli.model.slots import plain_frozen
from prefcli.rules.conventions import Conventions, dark_exit_level, exit_options
from prefcli.rules.errors import IllegalCall

__all__ = ["Auction", "AuctionStep", "AuctionResult", "call_text"]


@dataclass(frozen=True)
class AuctionStep:
    index: int
    player: str
    call: Call
    high: Optional[Contract]      # the highest bid after this call
    holder: Optional[str]         # who holds it


def _fast_step(index: int, player: str, call: "Call", high: Optional[Contract], holder: Optional[str]) -> AuctionStep:
    obj = _new(AuctionStep)
    d = obj.__dict__
    d["index"] = index
    d["player"] = player
    d["call"] = call
    d["high"] = high
    d["holder"] = holder
    return obj


_new = object.__new__


#: ``AuctionStep(index, player, call, high, holder)``, the same object made faster
_auction_step = (_fast_step if plain_frozen(AuctionStep, ("index", "player", "call", "high", "holder"))
                 else AuctionStep)


@dataclass(frozen=True)
class AuctionResult:
    winner: Optional[str]         # None: everyone passed
    bid: Optional[Contract]
    dark: bool = False            # the winner's last bid was made in the dark
    without_talon: bool = False   # a 9 over a misère under misere_beaten_by: 9-without-talon


def call_text(call: Call) -> str:
    if call.kind is CallKind.BID:
        return f"bid {call}"
    if call.kind is CallKind.HERE:
        return "said here" if not call.dark else "said here in the dark"
    return "passed" if not call.dark else "passed in the dark"


class Auction:
    """The auction as a state machine: who calls next, is a call legal, apply it.

    The generator and the property tests drive the same machine (``legal_calls``), so the
    generated auctions are legal by construction.
    """

    def __init__(self, conv: Conventions, seats: Sequence[str], *, min_level: int = 0,
                 bomb: bool = False, dark_run: int = 0, here_allowed: bool = True) -> None:
        self.conv = conv
        self.here_allowed = here_allowed          # husar.hold_right (HUSAR.md H6)
        self.seats = tuple(seats)                 # from the first hand
        self.first_hand = self.seats[0]
        self.min_level = min_level                # after all-passes (allpass.exit)
        self.bomb_level = conv.bomb_min_level if bomb else 0
        # a dark pass in this auction: only the next dark exit step outbids it (Кодекс 3.3.19а
        # "Перебить пас втёмную можно только семерной игрой … повторный … только восьмерной")
        self.dark_run = dark_run                  # consecutive dark all-passes before this deal
        self.dark_level = 0
        self.first_said_here = False              # here_rule: first-or-second
        self.passed: Set[str] = set()
        self.calls: Dict[str, int] = {p: 0 for p in self.seats}
        self.high: Optional[Contract] = None
        self.holder: Optional[str] = None
        self.high_dark = False
        self.misere_bid = False
        self.nine_over_misere = False
        self.steps: List[AuctionStep] = []
        self.done = False
        # turn state
        self._turn = 0                                # clockwise: index into seats
        if conv.auction_order == "pairs":
            self._pair: Tuple[str, str] = (self.seats[0], self.seats[1])   # (senior, junior)
            self._phase = 1
            self._in_pair_calls: Dict[str, int] = {self.seats[0]: 0, self.seats[1]: 0}
            self._next: Optional[str] = self.seats[0]
        else:
            self._next = self.seats[0]

    # -- queries ---------------------------------------------------------------------------
    def next_player(self) -> Optional[str]:
        return None if self.done else self._next

    def result(self) -> AuctionResult:
        if self.holder is None:
            return AuctionResult(None, None)
        without = (self.conv.misere_beaten_by == "9-without-talon" and self.nine_over_misere
                   and self.high is not None and self.high.is_tricks and self.high.level == 9)
        without = without or (self.high is not None and self.high.without_talon)
        return AuctionResult(self.holder, self.high, self.high_dark, without)

    def _floor_rung(self) -> int:
        """The lowest rung any bid may take (exit level, bomb)."""
        level = max(self.min_level, self.bomb_level, self.dark_level)
        if level <= 6:
            return 0
        for i, c in enumerate(self.conv.ladder):
            if c.is_tricks and (c.level or 0) >= level:
                return i
        return len(self.conv.ladder)

    def _next_rung(self) -> int:
        """The rung a one-step raise must take (no jumps)."""
        if self.high is None:
            return self._floor_rung()
        lad, i = self.conv.ladder, self.conv.rung[self.high] + 1
        floor = self._floor_rung()
        while i < len(lad):
            c = lad[i]
            if i >= floor and self._level_ok(c) is None and not self._jump_free(c):
                return i
            i += 1
        return i

    def _jump_free(self, c: Contract) -> bool:
        """A bid outside the one-rung climb: a kabal'ny misère (only a first call) and the bids
        without the talon (misere_without_talon), legal over any lower bid and never the rung a
        raise must take (so 8NT is followed by 9♠, 9NT by 10♠)."""
        return c.without_talon or (c.is_misere and self.conv.misere_binding)

    def _level_ok(self, c: Contract) -> Optional[str]:
        if c.is_tricks:
            lv = c.level or 0
            if self.min_level and lv < self.min_level:
                return (f"after an all-pass the game must be at least {self.min_level} "
                        f"({exit_options(self.conv)})")
            if self.bomb_level and lv < self.bomb_level:
                return f"after a bomb only {self.bomb_level} or more may be bid"
            if self.dark_level and lv < self.dark_level:
                return (f"after a dark pass only a {self.dark_level} or higher outbids it "
                        "(allpass.dark_exit)")
            if self.misere_bid and self.conv.misere_beaten_by == "10" and lv < 10:
                return "only a 10 beats a misère (misere_beaten_by: 10)"
        return None

    def why_illegal(self, player: str, call: Call) -> Optional[str]:
        """None when `player` may make `call` now; otherwise the reason, in words."""
        if self.done:
            return "the auction is already over"
        if player != self._next:
            return f"it is {self._next}'s turn to call"
        if call.dark and not self.conv.dark:
            return "dark calls are not played under these rules (option dark)"
        pairs = self.conv.auction_order == "pairs"
        if call.kind is CallKind.PASS:
            return None
        if call.kind is CallKind.HERE:
            if self.high is None or self.holder is None:
                return "there is no bid to hold"
            if self.holder == player:
                return "he already holds the last bid"
            if not self.here_allowed:
                return "nobody may say here in this deal (husar.hold_right, HUSAR.md H6)"
            if pairs:
                senior, junior = self._pair
                if player != senior:
                    return f"only {senior}, the senior of this contest, may say mine; {player} must raise or pass"
            elif self.conv.here_rule == "first-hand" and player != self.first_hand:
                return f"only the first hand ({self.first_hand}) may say here (here_rule)"
            elif self.conv.here_rule == "first-or-second" and player != self.first_hand:
                second = self.seats[1] if len(self.seats) > 1 else None
                if player != second or self.first_hand not in self.passed or self.first_said_here:
                    return (f"only the first hand ({self.first_hand}), or the second hand ({second}) "
                            "after the first passed without saying here, may say here "
                            "(here_rule: first-or-second)")
            if self.high.is_misere and self.conv.misere_binding:
                return "a misère cannot be held: misère is only a player's first call (misere_binding)"
            if self.conv.stalingrad and len(self.seats) > 2 and player == self.seats[2] \
                    and self.conv.rung[self.high] == 0:
                # seed 004 l.57: "Tose pirmenybių sistemose, kur užsakant šešis kastuvus, abu
                # partneriai privalo švilpti, žaidėjas iš trečios rankos po «VIENAS» neturi teisės
                # pasakyti «ČIA»"
                return (f"with stalingrad the third hand ({player}) may not say here after {self.high} "
                        "(seed 004: \"iš trečios rankos po «VIENAS» neturi teisės pasakyti «ČIA»\")")
            return None
        c = call.contract
        assert c is not None
        if c not in self.conv.rung:
            if c.without_talon:
                return f"{c} is not bid under these rules (option misere_without_talon)"
            return f"{c} is not on this preset's ladder"
        if pairs and self.holder is not None and player == self._pair[0] and self.holder == self._pair[1]:
            return f"{player} is the senior of this contest: he may only say mine or pass"
        if pairs and self.holder == player:
            # seed 000 l.77: only the challenger raises ("skelbti vienu rangu aukštesnį žaidimą už
            # A ir B varžybų laimėtoją"); the winner holds his standing bid or passes
            return f"{player} holds the standing bid {self.high}: only his challenger may raise it"
        r = self.conv.rung[c]
        if self.high is not None and r <= self.conv.rung[self.high]:
            return f"{c} is not higher than the current bid {self.high}"
        if c.is_misere and self.conv.misere_binding and self.calls[player] > 0:
            return "misère may only be a player's first call (kabal'ny misère, misere_binding)"
        bad = self._level_ok(c)
        if bad:
            return bad
        if r < self._floor_rung():
            return "the bid is below the lowest legal level"
        jump_free = self._jump_free(c)
        if self.high is None and self.conv.opening_bid == "lowest":
            want = self._floor_rung()
            if r != want:
                return f"the auction may only be opened with {self.conv.ladder[want]} (opening_bid: lowest)"
        elif self.high is not None and not self.conv.bid_jumps and not jump_free:
            want = self._next_rung()
            if r != want and want < len(self.conv.ladder):
                return (f"bids rise one rung at a time (bid_jumps: no): the next bid after "
                        f"{self.high} is {self.conv.ladder[want]}")
        return None

    def legal_calls(self) -> List[Call]:
        """Every call the player to call may make now (pass first)."""
        p = self.next_player()
        if p is None:
            return []
        out = [Call(CallKind.PASS)]
        here = Call(CallKind.HERE)
        if self.why_illegal(p, here) is None:
            out.append(here)
        for c in self.conv.ladder:
            call = Call(CallKind.BID, c)
            if self.why_illegal(p, call) is None:
                out.append(call)
        return out

    # -- steps -----------------------------------------------------------------------------
    def apply(self, call: Call) -> AuctionStep:
        """Apply a call already known to be legal."""
        player = self._next
        assert player is not None
        if call.kind is CallKind.PASS:
            self.passed.add(player)
            if call.dark:
                self.dark_level = max(self.dark_level, dark_exit_level(self.conv, self.dark_run + 1))
        elif call.kind is CallKind.HERE:
            if player == self.first_hand:
                self.first_said_here = True
            self.holder = player
            self.high_dark = call.dark
            self.calls[player] += 1
        else:
            c = call.contract
            if self.misere_bid and c is not None and c.is_tricks and c.level == 9:
                self.nine_over_misere = True
            if c is not None and c.is_misere:
                self.misere_bid = True
            self.high, self.holder, self.high_dark = c, player, call.dark
            self.calls[player] += 1
        step = _auction_step(len(self.steps), player, call, self.high, self.holder)
        self.steps.append(step)
        if self.conv.auction_order == "pairs":
            self._advance_pairs(player, call)
        else:
            self._advance_clockwise(player)
        return step

    def _advance_clockwise(self, player: str) -> None:
        n = len(self.seats)
        if len(self.passed) == n or (len(self.passed) == n - 1 and self.holder is not None):
            self.done, self._next = True, None
            return
        i = self.seats.index(player)
        for k in range(1, n + 1):
            q = self.seats[(i + k) % n]
            if q not in self.passed:
                self._next = q
                return
        self.done, self._next = True, None

    def _advance_pairs(self, player: str, call: Call) -> None:
        senior, junior = self._pair
        self._in_pair_calls[player] = self._in_pair_calls.get(player, 0) + 1
        other = junior if player == senior else senior
        ended = False
        if senior == junior:
            ended = True           # the third hand alone: his one call settles it
        elif call.kind is CallKind.PASS:
            # the contest ends once the other has called (a bid, hold or pass) or passed, or when
            # the other holds the standing bid: seed 000 l.77, the third hand who passes at once
            # leaves the talon to the first contest's winner with his bid ("6♠ – pas – pas")
            if other in self.passed or self._in_pair_calls.get(other, 0) > 0 or self.holder == other:
                ended = True
            else:
                self._next = other
        elif other in self.passed:
            ended = True           # the only one left in this contest has bid
        else:
            self._next = other
        if not ended:
            return
        if self._phase == 1 and len(self.seats) > 2:
            third = self.seats[2]
            self._phase = 2
            winner = self.holder if self.holder in (senior, junior) and self.holder not in self.passed else None
            if winner is None:
                self._pair = (third, third)
                self._in_pair_calls = {third: 0}
            else:
                self._pair = (winner, third)
                self._in_pair_calls = {winner: 0, third: 0}
            self._next = third
            return
        self.done, self._next = True, None

    def run(self, calls: Sequence[Call], deal_no: int, path: Path) -> AuctionResult:
        """Replay `calls`; raise IllegalCall at the first illegal one or an unfinished auction."""
        for i, call in enumerate(calls):
            if self.done:
                raise IllegalCall(f"deal {deal_no}, auction call {i + 1}: the auction was over after "
                                  f"call {i} ({self._summary()}), yet '{call}' follows", path + (i,))
            player = self._next
            assert player is not None
            why = self.why_illegal(player, call)
            if why is not None:
                raise IllegalCall(f"deal {deal_no}, auction call {i + 1}: {player} {call_text(call)} "
                                  f"but {why}", path + (i,))
            self.apply(call)
        if not self.done:
            why = ""
            if len(self.seats) == 2 and self.passed and self._next not in self.passed:
                # HUSAR.md H6 (inferred, by analogy with Кодекс 3.3.15): "if the first live hand
                # passes, the other player may take the talon without a call" - not played
                why = (f" (with two players the talon is taken by a call only: taking it without one after the "
                       f"other's pass, HUSAR.md H6's inferred reading, is not played; write {self._next}'s call, "
                       "e.g. 6S)")
            raise IllegalCall(f"deal {deal_no}: the auction is not finished: {self._next} is still to "
                              f"call after {len(calls)} calls{why}", path)
        return self.result()

    def _summary(self) -> str:
        r = self.result()
        return "everyone passed" if r.winner is None else f"{r.winner} won it with {r.bid}"

