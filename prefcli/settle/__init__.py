"""Settlement: turning score sheets into who pays whom.

Three methods (the preset's ``method`` option picks one through :data:`METHODS`, never the
variant's name):

* ``russian`` (seed 001, seed 004 method 1, Кодекс 4.2.14): every mountain × 10 ÷ the number of
  players is written as whists by every other player on its owner, then each pair nets. The
  "average mountain" presentation (seed 004 method 2) is the same computation, offered as
  :attr:`Settlement.mountain_balance`. Unclosed pools are first turned into mountain points at
  ``pool_point_whists`` a point (seed 004: "the largest pool minus each player's pool is added to
  that player's mountain"); with ``leningrad_overs`` the Кодекс 4.2.3.3 rule applies instead.
* ``lithuanian`` (seed 002): subtract the smallest hens, ÷ players, round to whole hens, × 10.
* ``lithuanian-kitty`` (seed 000): each player's hens are split among the other players, each of
  whom writes 10 whists per hen received.

Every method first subtracts the smallest mountain from all ("amnesty"): only differences of
mountains matter, so a uniform shift of all mountains can never change a result, whatever the
rounding. Whists are exact :class:`~fractions.Fraction` s; money is :class:`~decimal.Decimal`,
rounded once, to the coin, keeping a zero sum (:func:`round_money`).

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
