"""The per-record context: what every deal's reading needs from the rest of the record.

Built once per record and rules (:func:`context`): the resolved rules and their conventions, the
table (seats, who holds cards), the rotation (each deal's kind, dealer and expected dealer), and
per deal the all-pass deals right before it, the dark all-passes right before it and so its exit
level. Each deal's :class:`~prefcli.rules.deal.DealReading` is then built once, on first asking,
and kept: validate, replay and the scorers of one command share them, so every deal is read and
replayed once whatever the length of the record.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from prefcli.model.diagnostics import Problem
from prefcli.model.records import Deal, Record
from prefcli.rules.conventions import Conventions, conventions, dark_exit_level
from prefcli.rules.presets import Rules
from prefcli.rules.table import Table, TableError, rotation, table_for

__all__ = ["RecordContext", "context"]


class RecordContext:
    """One record under one set of rules, read once (see the module docstring)."""

    def __init__(self, record: Record, rules: Rules, overridden: bool = False) -> None:
        from prefcli.rules.deal import read_deal
        self._read = read_deal
        self.record = record
        self.rules = rules
        # rules other than the record's own (score --variant / --set): a recorded play checked
        # under another table's talon or card rules says nothing about the recorded tricks
        self.overridden = overridden
        self.conv: Conventions = conventions(rules)
        self.seated = frozenset(record.players)
        self.problems: List[Problem] = []          # record-level: the table
        self.table: Optional[Table]
        try:
            self.table = table_for(record.players, rules)
        except TableError as exc:
            self.table = None
            self.problems.append(Problem(exc.message, exc.path))
        if record.first_dealer is not None and record.first_dealer not in self.seated:
            self.problems.append(Problem(f"'{record.first_dealer}' is not seated at this table (players: "
                                         f"{', '.join(record.players)})", ("first_dealer",)))
        rot = rotation(record, rules)
        self.kinds, self.dealers, self.expected = rot.kinds, rot.dealers, rot.expected
        self.allpass_runs, self.dark_runs, self.exit_levels = all_pass_runs(record, self.conv)
        self._readings: Dict[int, object] = {}

    def dealer_of(self, deal: Deal) -> Optional[str]:
        """Who deals `deal`: its own `dealer:` when seated, else the rotation's."""
        return deal.dealer if deal.dealer in self.seated else self.dealers.get(deal.pos)

    def reading(self, deal: Deal):
        """The deal's :class:`~prefcli.rules.deal.DealReading` (built on first asking, then kept)."""
        got = self._readings.get(deal.pos)
        if got is None or got.deal is not deal:          # type: ignore[attr-defined]
            got = self._read(self, deal)
            self._readings[deal.pos] = got
        return got

    def readings(self) -> list:
        return [self.reading(e) for e in self.record.deals if isinstance(e, Deal)]

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
            return "deal %d: partner: the misère partner is the dealer who sits out, so it needs four players" % n
        if who != dealer:
            return f"deal {n}: partner: {who} is not the dealer of this deal ({dealer}), who alone may share the misère"
        return None


def all_pass_runs(record: Record, conv: Conventions) -> Tuple[Dict[int, int], Dict[int, int], Dict[int, int]]:
    """Per deal (by pos): the all-pass deals right before it, the dark all-passes right before it
    (a plain all-pass ends a dark run), and so its exit level: ``allpass.exit`` by the first, the
    last step repeating, raised by ``allpass.dark_exit`` by the second (Кодекс 3.7.7: "Выйти из
    распасовки после паса втёмную можно семерной игрой, а из двойной распасовки – восьмерной").
    Adjustments are not deals."""
    runs: Dict[int, int] = {}
    darks: Dict[int, int] = {}
    levels: Dict[int, int] = {}
    exits = conv.allpass_exit
    run = dark = 0
    for entry in record.deals:
        if not isinstance(entry, Deal):
            continue
        runs[entry.pos] = run
        darks[entry.pos] = dark
        level = exits[min(run, len(exits)) - 1] if run and exits else 0
        levels[entry.pos] = max(level, dark_exit_level(conv, dark))
        if entry.contract.is_all_pass:
            run += 1
            dark = dark + 1 if entry.is_dark_allpass else 0
        else:
            run = dark = 0
    return runs, darks, levels


def context(record: Record, rules: Rules) -> RecordContext:
    """The context of `record` under `rules` (build it once per command and pass it on)."""
    return RecordContext(record, rules)
