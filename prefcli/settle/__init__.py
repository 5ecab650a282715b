"""Settlement: turning score sheets into who pays whom.

The methods (russian, lithuanian, lithuanian-kitty), exact whists and the amnesty are
described once, in :mod:`~prefcli.settle.methods`.

The package is split along its seams: :mod:`~prefcli.settle.methods` (one sheet → net whists),
:mod:`~prefcli.settle.money` (money and payments), :mod:`~prefcli.settle.tournament` (standings),
:mod:`~prefcli.settle.results` (one input settled, many summed), :mod:`~prefcli.settle.document`
(the ``pref-settlement/1`` document). Every public name stays importable from here. Reading
files, batches and worker processes are the application layer's: import ``settle_source`` and
``settle_many`` from :mod:`prefcli.app.settle` (this package never imports upward).
No click, no I/O.
"""
from __future__ import annotations

from prefcli.settle.methods import (HENS_ROUNDINGS, METHODS, MOUNTAIN_POINT_WHISTS, ROUNDINGS,
                                    MethodResult, Number, Settlement, SettlementError, SheetLike,
                                    method_lithuanian, method_lithuanian_kitty, method_russian,
                                    round_half_away, round_hens, settle_sheet, to_decimal, trunc)
from prefcli.settle.money import Payment, check_payments, exact_money, money, payments, round_money
from prefcli.settle.results import InputResult, SettleOptions, Summary, reprice, settle_document, summarize
from prefcli.settle.tournament import (TOURNAMENT_FORMAT, Band, Standing, Tournament, parse_band,
                                       standings, tournament_from_data)
from prefcli.settle.methods import _fraction, _plain  # noqa: F401 - used by sibling modules

__all__ = ["HENS_ROUNDINGS", "METHODS", "MOUNTAIN_POINT_WHISTS", "ROUNDINGS", "MethodResult", "Number",
           "Settlement", "SettlementError", "SheetLike", "method_lithuanian", "method_lithuanian_kitty",
           "method_russian", "round_half_away", "round_hens", "settle_sheet", "to_decimal", "trunc",
           "Payment", "check_payments", "exact_money", "money", "payments", "round_money", "InputResult",
           "SettleOptions", "Summary", "reprice", "settle_document", "summarize", "TOURNAMENT_FORMAT",
           "Band", "Standing", "Tournament", "parse_band", "standings", "tournament_from_data"]
