"""Scoring a record into a ledger, under resolved rules.

One entry point for every family: the preset's family names its scorer (``module:function``),
imported only when needed, so the CLI starts fast and no code branches on the variant name.
"""
from __future__ import annotations

import importlib
from dataclasses import field
from prefcli.model.slots import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple, TypedDict

from prefcli.model.diagnostics import Path, PrefcliError
from prefcli.model.records import Record, SheetData
from prefcli.rules.presets import Rules, resolve_rules
from prefcli.model.ledger import Ledger

if TYPE_CHECKING:
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.reading import DealReading


class ScoringError(PrefcliError, ValueError):
    """A deal that cannot be scored under the rules (names the deal and the field)."""

    kind = "rule"


class ScoreExtra(TypedDict, total=False):
    """What a family's scorer knows of the game beyond the ledger (each family fills its keys)."""

    deals: List[Dict[str, Any]]        # per deal: number, declarer, made, … (the family's history)
    # Russian families
    allpass_streak: int                # consecutive all-passes at the end (the progression)
    bombs: Dict[str, List[Any]]        # each player's bombs still to play (sizes, exact)
    ended_at: Optional[int]            # the deal the game ended on
    # Lithuanian (seed 002)
    egles: Dict[str, int]              # eglės left per player
    egles_start: int
    egles_at_start: Dict[str, int]     # each player's strokes left when the record starts (start.state)
    kitty: Optional[str]               # who took the kitty
    # Lithuanian kitty (seed 000)
    rights: int                        # eglutės played
    declared: Dict[str, int]           # full games declared per player
    half_kitty: Optional[str]
    full_kitty: Optional[str]


@dataclass
class ScoreResult:
    """The ledger of a scored record, plus what the scorer knows about the game's state."""

    record: Record
    rules: Rules
    ledger: Ledger
    dealers: Mapping[int, str] = field(default_factory=dict)   # deal pos → who dealt it
    finished: bool = False                 # every pool closed / the end condition reached
    notes: List[str] = field(default_factory=list)
    extra: ScoreExtra = field(default_factory=lambda: ScoreExtra())   # family-specific state (eglės, rights…)
    #: the game's state after the last deal, by the family's declared fields (Family.state):
    #: what the sheet carries so the game can go on from it (a record's start.state)
    state: Dict[str, Any] = field(default_factory=dict)

    def sheet(self, upto: Optional[int] = None) -> SheetData:
        return self.ledger.sheet(upto)

    @property
    def positions(self) -> List[str]:
        """The notes of the positions the scorer skipped (``position: true``: a scored record's
        marked deals are exactly those), for the commands that show a sheet's outcome, not the
        sheet (settle)."""
        from prefcli.model.records import Deal
        return [position_note(e.number) for e in self.record.deals if isinstance(e, Deal) and e.position]


class Scorer(Protocol):
    """A family's scorer (named by ``Family.scorer``): the record under resolved rules, read in
    `ctx` when one is given."""

    def __call__(self, record: Record, rules: Rules, ctx: Optional[RecordContext] = None) -> ScoreResult: ...


def scorer_for(rules: Rules) -> Scorer:
    module, _, func = rules.family.scorer.partition(":")
    return getattr(importlib.import_module(module), func)


def score(record: Record, rules: Optional[Rules] = None, variant: Optional[str] = None,
          sets: Sequence[Tuple[str, Any]] = (), ctx: Optional[RecordContext] = None) -> ScoreResult:
    """Score `record` under its own rules, or under `variant` / `sets` overrides.

    Every deal is read once in the record's :class:`~prefcli.rules.context.RecordContext` (pass
    `ctx` to share the readings another step already made, as validate does); a deal whose
    reading has a problem is refused with that problem's message and path."""
    if ctx is not None:
        return score_context(ctx)
    overridden = bool(variant or sets)
    if rules is None:
        rules = resolve_rules(record.rules, variant=variant, sets=sets)
    elif not overridden:
        overridden = not _own_rules(record, rules)
    if overridden:
        from prefcli.rules.context import RecordContext
        return scorer_for(rules)(record, rules, ctx=RecordContext(record, rules, overridden=True,
                                                                          keep_tricks=False))
    return scorer_for(rules)(record, rules)


def _own_rules(record: Record, rules: Rules) -> bool:
    """Whether `rules` are the record's own (else it is rescored, like score --variant/--set: the
    facts recorded under its own rules, its tricks and dealers, are not checked again)."""
    from prefcli.rules.presets import OptionError
    try:
        own = resolve_rules(record.rules)
    except OptionError:
        return False
    return own.preset == rules.preset and dict(own.values) == dict(rules.values)


def score_context(ctx: RecordContext) -> ScoreResult:
    """Score the record of a :class:`~prefcli.rules.context.RecordContext` with its readings."""
    return scorer_for(ctx.rules)(ctx.record, ctx.rules, ctx=ctx)


def reading_of(ctx: RecordContext, deal: Deal) -> DealReading:
    """The deal's reading; ScoringError with its first problem when it has one. A marked position
    (``position: true``) reads clean: the scorer skips it (:func:`position_note`)."""
    r = ctx.reading(deal)
    if not r.problems:     # the common case: a clean deal
        return r
    errors = r.errors
    if errors:
        raise ScoringError(errors[0].message, errors[0].path)
    return r


def position_note(deal: "int | DealReading") -> str:
    """What the sheet says of a skipped position (every scorer skips it the same way)."""
    number = deal if isinstance(deal, int) else deal.number
    return f"deal {number}: a position (position: true, no result recorded): not scored; prefcli analyze solves it"


def context_for(record: Record, rules: Rules, ctx: Optional[RecordContext] = None) -> RecordContext:
    """`ctx`, or the record's context under `rules` (ScoringError when the table is wrong)."""
    if ctx is None:
        from prefcli.rules.context import RecordContext
        ctx = RecordContext(record, rules, keep_tricks=False)     # its own: the counts are enough
    if ctx.problems:
        p = ctx.problems[0]
        raise ScoringError(p.message, p.path)
    return ctx
