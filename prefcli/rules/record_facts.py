"""The facts of one record under one set of rules that every deal's reading and replay read: the
resolved rules and their conventions, the table, the game's state carried over from a sheet, the
rotation (each deal's kind, dealer and expected dealer), and per deal the all-pass and dark
all-pass runs right before it and so its exit level. The reading of each deal, kept once built,
is :class:`~prefcli.rules.context.RecordContext`'s, which adds it to these facts; the reading
(:mod:`prefcli.rules.deal`) and the replay (:mod:`prefcli.rules.replay`) read only the facts, so
they import this module and not the context."""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Set, Tuple

from prefcli.model.diagnostics import Problem
from prefcli.model.records import Deal, Record
from prefcli.model.values import not_seated
from prefcli.rules.conventions import Conventions, conventions, runs
from prefcli.rules.presets import OptionError, Rules, resolve_rules
from prefcli.rules.table import Table, TableError, first_dealer_of, rotation, table_for

__all__ = ["RecordFacts", "PosMap", "record_rule_problems"]


_ABSENT: Any = object()


class PosMap(Mapping):
    """A mapping from deal positions (``Deal.pos``, 0 … n-1) to values, kept as one list: a
    dictionary costs five times as much a deal, and the facts keep six of them. Filled by
    position as the rotation walks the deals (``m[pos] = value``), then only read."""

    __slots__ = ("_values", "_len")
    #: what the list holds at a position without a value (a reader reads the list as it is:
    #: rules.reading.ReaderBase)
    ABSENT: Any = _ABSENT

    def __init__(self, n: int, items: Optional[Mapping[int, Any]] = None) -> None:
        self._values: List[Any] = [_ABSENT] * n
        self._len = 0
        for pos, value in (items or {}).items():
            self[pos] = value

    def __setitem__(self, pos: int, value: Any) -> None:
        if self._len >= 0 and self._values[pos] is _ABSENT:
            self._len += 1
        self._values[pos] = value

    def filler(self) -> Callable[[int, Any], None]:
        """The list's own item setter, for the walk that fills the map (``put(pos, value)``, in C:
        the rotation fills six maps a deal); the number of values is then counted when asked."""
        self._len = -1
        return self._values.__setitem__

    def get(self, pos: Any, default: Any = None) -> Any:
        try:
            value = self._values[pos] if pos >= 0 else _ABSENT
        except (IndexError, TypeError):
            return default
        return default if value is _ABSENT else value

    def __getitem__(self, pos: Any) -> Any:
        value = self.get(pos, _ABSENT)
        if value is _ABSENT:
            raise KeyError(pos)
        return value

    def __contains__(self, pos: object) -> bool:
        return self.get(pos, _ABSENT) is not _ABSENT

    def __iter__(self) -> Iterator[int]:
        return (pos for pos, value in enumerate(self._values) if value is not _ABSENT)

    def __len__(self) -> int:
        if self._len < 0:
            self._len = sum(1 for value in self._values if value is not _ABSENT)
        return self._len

    def __repr__(self) -> str:
        return f"PosMap({dict(self.items())!r})"


class RecordFacts:
    """One record under one set of rules: the record-level facts (see the module docstring)."""

    def __init__(self, record: Record, rules: Rules, overridden: bool = False, keep_tricks: bool = True) -> None:
        self.record = record
        self.rules = rules
        # rules other than the record's own (score --variant / --set): a recorded play checked
        # under another table's talon or card rules says nothing about the recorded tricks
        self.overridden = overridden
        # whether each deal's replay keeps its tricks card by card (replay's report, analyze, the
        # drawings show them); a context built only to check or score counts them and drops the rest
        self.keep_tricks = keep_tricks
        #: a reading's seat fields per dealer, made on first asking (rules.reading.seating: who
        #: holds cards, calls, plays and leads, and the scored players), with every other field's
        #: default: what each reading of a deal that dealer deals starts from; and the trick counts
        #: found plainly fine in his contracts and all-passes (rules.deal_cards)
        self.seat_states: Dict[Optional[str],
                               Tuple[Dict[str, object], Tuple[str, ...], Tuple[Set[Any], Set[Any]]]] = {}
        #: the reader of this record's deals (rules.deal.read_deal), made at the first reading
        self.reader: Any = None
        self.conv: Conventions = conventions(rules)
        #: a lone whister's closed defence was played with the passer's cards put away: under
        #: these rules when they play so (whist_alone); rescored under other rules, as the
        #: record's own played it (a Russian game's passer plays his cards: from both hands there)
        self.alone_played_alone = self.conv.whist_alone and (not overridden or _own_whist_alone(record))
        self.seated = frozenset(record.players)
        self.problems: List[Problem] = []          # record-level: the table
        self.table: Optional[Table]
        try:
            self.table = table_for(record.players, rules)
        except TableError as exc:
            self.table = None
            self.problems.append(Problem(exc.message, exc.path))
        if record.first_dealer is not None and record.first_dealer not in self.seated:
            self.problems.append(Problem(not_seated(record.first_dealer, record.players), ("first_dealer",)))
        # the game's state carried over from a sheet (start.state), read against the family
        from prefcli.rules.state import read_state
        raw_state = record.start.state if record.start is not None else None
        self.state, state_problems = read_state(raw_state, rules.family, record.players, ("start", "state"))
        self.problems.extend(state_problems)
        dealer = self.state.get("dealer")
        if dealer is not None and record.first_dealer is not None and record.first_dealer != dealer:
            self.problems.append(Problem(
                f"first_dealer is {record.first_dealer}, but the sheet this game continues from says {dealer} "
                "deals next (start.state.dealer): write one of them", ("first_dealer",)))
        # who deals first: written, or derived from the first deal where a seat sits out (never
        # guessed: unknown is a problem of the record)
        self.first_dealer, unknown = first_dealer_of(record, self.table)
        if unknown is not None:
            first = next(e for e in record.deals if isinstance(e, Deal))
            self.problems.append(Problem(unknown, first.path))
        self.problems.extend(record_rule_problems(record, rules, overridden, self.state))
        n = len(record.deals)
        rot = rotation(record, rules, new=lambda: PosMap(n))
        self.kinds: Mapping[int, str] = rot.kinds
        self.dealers: Mapping[int, str] = rot.dealers
        self.expected: Mapping[int, str] = rot.expected
        #: after the last deal: who deals next and the leading eglės still to come (the sheet's state)
        self.next_dealer, self.leading_left = rot.next_dealer, rot.leading_left
        self.allpass_runs: Mapping[int, int]
        self.dark_runs: Mapping[int, int]
        self.exit_levels: Mapping[int, int]
        (self.allpass_runs, self.dark_runs, self.exit_levels,
         self.final_allpass_run, self.final_dark_run) = runs(record, self.conv, new=lambda: PosMap(n))

    def dealer_of(self, deal: Deal) -> Optional[str]:
        """Who deals `deal`: its own `dealer:` when seated, else the rotation's."""
        return deal.dealer if deal.dealer in self.seated else self.dealers.get(deal.pos)

    def partner_problem(self, deal: Deal, dealer: Optional[str]) -> Optional[str]:
        """Why a deal's ``partner:`` is wrong, or None (Кодекс 3.6.9: "Игрок может пригласить
        сдающего (сидящего на прикупе и не участвующего в игре) играть с ним мизер пополам")."""
        n, who = deal.number, deal.partner
        if who is None:
            return None
        if not self.conv.misere_partner:
            return (f"deal {n}: partner: a misère half with the dealer is not played under these rules "
                    "(option misere_partner)")
        if not deal.contract.is_misere:
            return f"deal {n}: partner: only a misère is played half with the dealer, not {deal.contract}"
        if self.table is None or dealer not in self.table.sitting_out(dealer):
            return "deal %d: partner: the misère partner is the dealer who sits out, so it needs four players (or five)" % n
        if who != dealer:
            return f"deal {n}: partner: {who} is not the dealer of this deal ({dealer}), who alone may share the misère"
        return None


def _own_whist_alone(record: Record) -> bool:
    """Whether the record's own rules play a lone whister alone (True when they do not resolve:
    the rules it is rescored under are then all there is to read it by)."""
    try:
        return conventions(resolve_rules(record.rules)).whist_alone
    except OptionError:
        return True


def record_rule_problems(record: Record, rules: Rules, overridden: bool = False,
                         state: Optional[Dict[str, Any]] = None) -> List[Problem]:
    """The rules a record keeps as a whole, not deal by deal: the target's divisor
    (``pool_divisor``; seed 002 l.27 "šis skaičius turi dalintis iš trijų be liekanos") and each
    player's one bomb (``bomb_calls: once``; seed 002 l.297 "visi žaidėjai privalo po vieną kartą
    skelbti bombą"): a second bomb by the same player is refused where it is written. The target
    is an agreement of the table that played the record: rescoring under other rules (`overridden`,
    score --variant/--set) keeps the record's target without asking it to divide. A game continued
    from a sheet counts the bombs its `state` says were called (``bombs_called``)."""
    out: List[Problem] = []
    divisor = rules.value("pool_divisor")
    pool = rules.get("pool")
    if not overridden and divisor and divisor > 1 and pool is not None and pool % divisor:
        out.append(Problem(f"the target {pool} does not divide by {divisor} (option pool_divisor; seed 002: "
                           f"\"šis skaičius turi dalintis iš trijų be liekanos\")", ("rules", "pool")))
    if rules.value("bomb") and rules.value("bomb_calls") == "once":
        first: Dict[str, int] = {}
        called = (state or {}).get("bombs_called") or {}
        for entry in record.deals:
            if not isinstance(entry, Deal) or entry.bomb is None or entry.bomb not in record.players:
                continue
            if entry.bomb in first or called.get(entry.bomb, 0) > 0:
                when = (f"in deal {first[entry.bomb]}" if entry.bomb in first
                        else "before this record (start.state.bombs_called)")
                out.append(Problem(f"deal {entry.number}: {entry.bomb} already called his bomb {when}; "
                                   "every player calls it once (option bomb_calls; "
                                   "seed 002: \"visi žaidėjai privalo po vieną kartą skelbti bombą\")",
                                   entry.path + ("bomb",)))
            else:
                first[entry.bomb] = entry.number
    return out
