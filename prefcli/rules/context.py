"""The per-record context: what every deal's reading needs from the rest of the record.

Built once per record and rules (:func:`context`): the resolved rules and their conventions, the
table (seats, who holds cards), the rotation (each deal's kind, dealer and expected dealer), and
per deal the all-pass deals right before it, the dark all-passes right before it and so its exit
level. Each deal's :class:`~prefcli.rules.reading.DealReading` is then built when asked for, and
only the last one is kept: the deals stream through the reading one at a time (validate takes
each deal's problems from the reading the scorer made), so every deal is read and replayed once
and memory holds one reading, whatever the length of the record.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional

from prefcli.model.diagnostics import Problem
from prefcli.model.records import Deal, Record
from prefcli.rules.conventions import Conventions, all_pass_runs  # noqa: F401 - all_pass_runs re-exported
from prefcli.rules.presets import Rules
from prefcli.rules.record_facts import RecordFacts
if TYPE_CHECKING:     # the replay (auction, play) loads when a deal is replayed, not at start-up
    from prefcli.rules.replayed import DealReplay

__all__ = ["RecordContext", "context"]


class RecordContext(RecordFacts):
    """One record under one set of rules, read once (see the module docstring): the record's
    facts (:class:`~prefcli.rules.record_facts.RecordFacts`) and each deal's reading in turn."""

    def __init__(self, record: Record, rules: Rules, overridden: bool = False, keep_tricks: bool = True) -> None:
        from prefcli.rules.deal import read_deal
        self._read = read_deal
        super().__init__(record, rules, overridden, keep_tricks)
        #: the reading asked for last (a scorer asks for the same deal several times in a row);
        #: no other is kept, so a command holds one deal's reading at a time, not the record's
        self._last: Any = None
        #: while a checker collects (:meth:`collect`), each deal's problems by pos as it is read
        self._seen: Optional[Dict[int, List[Problem]]] = None
        self._read_flags: Optional[bytearray] = None

    def reading(self, deal: Deal):
        """The deal's :class:`~prefcli.rules.reading.DealReading`. Only the last one asked for is
        kept: the deals stream through the reading one at a time (memory in proportion to one
        deal, not the record), and the consumers ask for each deal in turn."""
        got = self._last
        if got is None or got.deal is not deal:
            got = self._last = self._read(self, deal)
            if self._read_flags is not None:
                self._read_flags[deal.pos] = 1
                if got.problems:
                    self._seen[deal.pos] = got.problems   # type: ignore[index]
        return got

    def forget(self) -> None:
        """Drop the kept reading (the context's rotation was changed under it)."""
        self._last = None

    def collect(self) -> None:
        """From now on remember which deals were read and their problems (:meth:`read_problems`):
        validate runs the scorer first and takes every deal's problems from the readings the
        scorer made, so each deal is read once."""
        self._seen, self._read_flags = {}, bytearray(len(self.record.deals))
        self._last = None

    def read_problems(self, deal: Deal) -> List[Problem]:
        """The problems of `deal`'s reading: those remembered when the deal was read while
        collecting, else read now."""
        flags = self._read_flags
        if flags is not None and flags[deal.pos]:
            return self._seen.get(deal.pos, [])                # type: ignore[union-attr]
        return self.reading(deal).problems

    def readings(self) -> list:
        """Every deal's reading, all held at once (for library callers; a command iterates
        :meth:`each_reading`)."""
        return list(self.each_reading())

    def each_reading(self) -> Iterator[Any]:
        """Every deal's reading in turn, each let go when the next is read."""
        return (self.reading(e) for e in self.record.deals if isinstance(e, Deal))


def context(record: Record, rules: Rules) -> RecordContext:
    """The context of `record` under `rules` (build it once per command and pass it on)."""
    return RecordContext(record, rules)


# The record-level replays (library callers, tests, the engine's names): they build a context, so
# they live here, above the deal reading and the replay (which never import this module).

def replay_deal(record: Record, deal: Deal, rules: Rules, dealer: Optional[str] = None, *,
                raise_errors: bool = False, min_level: Optional[int] = None,
                conv: Optional[Conventions] = None, keep_tricks: bool = True) -> DealReplay:
    """Replay one deal of `record` (for library callers and tests; a command replays through its
    :class:`~prefcli.rules.context.RecordContext`). `dealer` and `min_level`, when given, stand
    for the rotation's dealer and the exit level; the first illegal step is recorded (or raised
    with `raise_errors`)."""
    import dataclasses
    from prefcli.rules.replay import replay_reading
    ctx = RecordContext(record, rules)
    reading = ctx.reading(deal)
    if dealer is not None and deal.dealer is None and dealer != reading.dealer:
        ctx.dealers = {**ctx.dealers, deal.pos: dealer}
        ctx.forget()
        reading = ctx.reading(deal)
    if min_level is not None and min_level != reading.exit_level:
        reading = dataclasses.replace(reading, exit_level=min_level)
    return replay_reading(ctx, reading, raise_errors=raise_errors, keep_tricks=keep_tricks)


def replay_record(record: Record, rules: Rules, only: Optional[Iterable[int]] = None) -> List[DealReplay]:
    """Replay every deal of a record (or the deals whose pos is in `only`)."""
    ctx = RecordContext(record, rules)
    wanted = set(only) if only is not None else None
    return [deal_replay(ctx, e) for e in record.deals
            if isinstance(e, Deal) and (wanted is None or e.pos in wanted)]


def deal_replay(ctx: RecordContext, deal: Deal) -> DealReplay:
    """The replay of `deal`: the one its reading holds, or (when the reading stopped before the
    replay) a replay carrying the reading's problems."""
    reading = ctx.reading(deal)
    if reading.replay is not None:
        rep = reading.replay
        extra = [p for p in reading.problems if p not in rep.problems and p not in rep.unplayable]
        if extra:
            rep.problems = extra + rep.problems
        return rep
    from prefcli.rules.replayed import DealReplay
    rep = DealReplay(deal=deal, number=deal.number, dealer=reading.dealer, first_hand=reading.first_hand,
                     seats=reading.seats, talon=deal.talon, declarer=reading.declarer,
                     contract=deal.contract, played=reading.played)
    rep.problems = list(reading.problems)
    if reading.tricks is not None:
        rep.counts = dict(reading.tricks)
    return rep


def check_record(record: Record, rules: Rules) -> List[Problem]:
    """The rule and play problems of a record's deals (its readings, without the facts a record
    leaves out: see :data:`~prefcli.rules.reading.INCOMPLETE`)."""
    ctx = RecordContext(record, rules)
    out: List[Problem] = []
    for reading in ctx.each_reading():
        out.extend(reading.rule_problems)
    return out
