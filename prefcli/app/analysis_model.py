"""What `prefcli analyze` works on and answers (the picklable :class:`DealTask`, the options,
the :class:`DealAnalysis` of a deal and the ``pref-analysis/1`` document); the search is
:mod:`prefcli.app.analysis_search`, the pipeline :mod:`prefcli.app.analyze`."""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from typing import Any, Dict, List, Optional, Tuple

from prefcli.model.cards import DECK, Strain
from prefcli.model.diagnostics import PrefcliError, Problem

ALL_PASS_BOUND = ("each number is the most tricks that player must take when he plays his best "
                  "and the other two play together against him (his worst case, not a forecast)")
#: The bound of a husar all-pass, two players and the dummy sitting out (HUSAR.md H15): a game
#: of two sides, so the two numbers are the one result perfect play gives.
ALL_PASS_BOUND_TWO = ("each number is the most tricks that player must take when he plays his best "
                      "and the other plays against him (two players, the dummy sitting out: the result "
                      "of perfect play)")
STRAINS = (Strain.S, Strain.C, Strain.D, Strain.H, Strain.NT)


class AnalysisError(PrefcliError):
    """A deal that cannot be analysed (a summary deal, an unknown discard, a two-handed play)."""

    kind = "rule"


class SummaryDeal(AnalysisError):
    """A deal recorded as its result only (no cards)."""


@dataclass(frozen=True)
class AnalysisOptions:
    table: bool = False             # the declarer's tricks in every strain and the misère
    best_discard: bool = False      # also find the discard that does best in the played contract
    mistakes: bool = True


def card_text(code: int) -> str:
    """A card as players write it in an analysis: rank and suit symbol (7♥, 10♠)."""
    c = DECK[code]
    return f"{c.rank.letter}{c.suit.symbol}"


@dataclass
class DealTask:
    """One deal ready for the solver: seats in playing order from the first hand, hands as
    masks (the declarer's after his discard), the recorded tricks as (leader seat, codes)."""

    pos: int
    number: int
    seats: Tuple[str, ...]
    contract: str
    kind: str                                   # "contract" | "misere" | "all-pass"
    trump: int
    declarer: Optional[int]                     # seat index; None in an all-pass
    hands: Tuple[int, int, int]
    tricks: Tuple[Tuple[int, Tuple[int, ...]], ...]
    winners: Tuple[int, ...]                    # seat index of each recorded trick's winner (−1 nobody)
    talon: Tuple[int, ...] = ()                 # all-pass: the cards that lead the first tricks
    talon_competes: bool = False
    talon_mode: str = "unused"
    twelve: int = 0                             # the declarer's hand and the talon (for discards)
    discard: Tuple[int, ...] = ()
    discard_known: bool = True
    fixed_discard: bool = False                 # without the talon: the "discard" is the talon itself
    played: bool = True
    claim: Optional[Dict[str, int]] = None
    counts: Optional[Dict[str, int]] = None       # the recorded result (play and claim)
    level: int = 0
    options: AnalysisOptions = AnalysisOptions()


@dataclass
class Mistake:
    trick: int                                  # 1-based
    player: str
    card: str
    better: str
    kept: int                                   # the result the better card kept (see `side`)
    cost: int
    side: str                                   # whose result: "declarer", "defence", or a name
    text: str = ""

    def as_dict(self) -> Dict[str, Any]:
        return {"trick": self.trick, "player": self.player, "card": self.card, "better": self.better,
                "kept": self.kept, "side": self.side, "cost": self.cost, "text": self.text}


@dataclass
class DealAnalysis:
    pos: int
    number: int
    contract: str
    kind: str
    seats: Tuple[str, ...]
    declarer: Optional[str]
    tricks_recorded: int
    tricks_dd: List[Any] = field(default_factory=list)      # ints, or {player: bound} in an all-pass
    taken: List[Any] = field(default_factory=list)
    mistakes: List[Mistake] = field(default_factory=list)
    table: Optional[Dict[str, int]] = None
    discard: Optional[Dict[str, Any]] = None
    talon_mode: str = "unused"
    played: bool = True
    level: int = 0
    result: Optional[Dict[str, int]] = None
    claim: Optional[Dict[str, int]] = None
    solves: int = 0
    seconds: float = 0.0

    @property
    def bound(self) -> str:
        """What an all-pass's numbers are: three players' worst cases, or two players' result."""
        return ALL_PASS_BOUND_TWO if len(self.seats) == 2 else ALL_PASS_BOUND

    def as_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "index": self.pos, "number": self.number, "contract": self.contract, "kind": self.kind,
            "seats": list(self.seats), "declarer": self.declarer, "tricks_recorded": self.tricks_recorded,
            "tricks_dd": self.tricks_dd, "taken": self.taken,
            "mistakes": [m.as_dict() for m in self.mistakes],
        }
        if self.result is not None:
            out["result"] = self.result
        if self.kind == "all-pass":
            out["bound"] = self.bound
            out["talon"] = self.talon_mode
        if not self.played:
            out["played"] = False
        if self.table is not None:
            out["table"] = self.table
        if self.discard is not None:
            out["discard"] = self.discard
        return out


@dataclass
class RecordAnalysis:
    deals: List[DealAnalysis] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)


ANALYSIS_FORMAT = "pref-analysis/1"


@dataclass
class Analysis:
    """The report of ``prefcli analyze``: each analysed deal with the file it came from (None
    when one file was read), and the deals refused, as located problems."""

    items: List[Tuple[Optional[str], DealAnalysis]] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)

    def document(self, **_options: Any) -> Dict[str, Any]:
        """The ``pref-analysis/1`` document (schemas/analysis.schema.json)."""
        deals = []
        for name, a in self.items:
            d = a.as_dict()
            if name is not None:
                from prefcli.model.values import display_name
                d = {"file": display_name(name), **d}
            deals.append(d)
        return {"format": ANALYSIS_FORMAT, "deals": deals, "problems": [p.as_dict() for p in self.problems]}


