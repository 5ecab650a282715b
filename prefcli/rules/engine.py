"""The rules engine's public face: the auction, the play and the replay, in one import.

The engine is split along its seams: :mod:`prefcli.rules.conventions` (the options it reads),
:mod:`prefcli.rules.auction` (the auction machine), :mod:`prefcli.rules.play` (legal cards, trick
winners, the trick-by-trick replay), :mod:`prefcli.rules.replay` (a deal replayed on top of its
:class:`~prefcli.rules.reading.DealReading`) and :mod:`prefcli.rules.errors`. This module only
gathers their names for callers of the engine's API.
"""
from __future__ import annotations

from prefcli.rules.auction import Auction, AuctionResult, AuctionStep
from prefcli.rules.conventions import Conventions, conventions, dark_exit_level
from prefcli.rules.errors import TRICKS_PER_DEAL, IllegalCall, IllegalDeal, IllegalPlay, RulesError
from prefcli.rules.play import SUIT_NAMES, TrickPlay, legal_cards, random_play, talon_leads, trick_winner
from prefcli.rules.context import check_record, replay_deal, replay_record
from prefcli.rules.replay import deal_dealers, exit_levels
from prefcli.rules.replayed import DealReplay

__all__ = [
    "RulesError", "IllegalCall", "IllegalPlay", "IllegalDeal", "Conventions", "conventions",
    "Auction", "AuctionStep", "AuctionResult", "TrickPlay", "DealReplay", "replay_deal",
    "replay_record", "check_record", "legal_cards", "trick_winner", "random_play", "exit_levels",
    "deal_dealers", "dark_exit_level", "TRICKS_PER_DEAL", "SUIT_NAMES", "talon_leads",
]
