"""The rules layer's errors, in one place: an illegal step of a deal, typed by what was wrong.

Each carries the message and the data path of the step (``deals[0].play[1][1]``); the loader's
document turns the path into a line and column. The auction, the play and the replay raise them;
a :class:`~prefcli.rules.reading.DealReading` keeps them as :class:`Problem` s.
"""
from __future__ import annotations

from prefcli.model.diagnostics import PrefcliError

__all__ = ["RulesError", "IllegalCall", "IllegalPlay", "IllegalDeal", "TRICKS_PER_DEAL"]

#: Tricks in a deal (ten cards in each active hand).
TRICKS_PER_DEAL = 10


class RulesError(PrefcliError):
    """An illegal step in a deal; `path` locates it in the record (``deals[0].play[1][1]``)."""

    kind = "rule"


class IllegalCall(RulesError):
    """An auction call, contract, discard or whist decision the rules do not allow."""


class IllegalPlay(RulesError):
    """A card that may not be played: not held, already played, a revoke, a wrong trick."""

    kind = "play"


class IllegalDeal(RulesError):
    """A deal that cannot be replayed at all (hands, talon or players do not add up)."""
