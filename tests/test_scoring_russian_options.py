"""Every scoring option of the Russian family changes a result somewhere: each case scores the
same deals under two values and asserts both sheets (PRESETS.md: "every one changes a score").

A case is (option, deals, base rules, [(value, expected sheet)…]); the expected sheet lists every
non-zero number as "pool.A", "mountain.B", "whists.B.A" (what B wrote on A). An expected value
of ``ScoringError`` means the deal is refused under that value.
"""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from prefcli.rules.presets import get_preset
from prefcli.scoring import ScoringError
from russian_helpers import P3, P4, flat, run

P5 = ["A", "B", "C", "D", "E"]

W, PS, HW = "whist", "pass", "half-whist"

SIX_UNPLAYED = {"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}
SEVEN_DOWN_ONE_GREEDY = {"contract": "7S", "declarer": "A", "whist": {"B": W, "C": PS},
                         "tricks": {"A": 6, "B": 3, "C": 1}}
SEVEN_DOWN_TWO_BOTH = {"contract": "7S", "declarer": "A", "whist": {"B": W, "C": W},
                       "tricks": {"A": 5, "B": 3, "C": 2}}
AP_433 = {"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3}}
AP_046 = {"contract": "all-pass", "tricks": {"A": 0, "B": 4, "C": 6}}

CASES: List[Dict[str, Any]] = [
    dict(option="prices.7", deals=[{"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": PS}}],
         values=[(4, {"pool.A": 4}), (5, {"pool.A": 5})]),
    dict(option="prices.misere", deals=[{"contract": "misere", "declarer": "A", "tricks": {"A": 0, "B": 5, "C": 5}}],
         values=[(10, {"pool.A": 10}), (12, {"pool.A": 12})]),
    dict(option="whist_multiplier",
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": W}, "tricks": {"A": 6, "B": 3, "C": 1}}],
         values=[(1, {"pool.A": 2, "whists.B.A": 6, "whists.C.A": 2}),
                 (2, {"pool.A": 2, "whists.B.A": 12, "whists.C.A": 4})]),
    dict(option="declarer_fail_multiplier", deals=[SEVEN_DOWN_TWO_BOTH],
         values=[(1, {"mountain.A": 8, "whists.B.A": 20, "whists.C.A": 16}),
                 (2, {"mountain.A": 16, "whists.B.A": 20, "whists.C.A": 16}),
                 (0, {"whists.B.A": 20, "whists.C.A": 16})]),
    dict(option="single_whist", deals=[SEVEN_DOWN_ONE_GREEDY],
         values=[("all", {"mountain.A": 4, "whists.B.A": 20, "whists.C.A": 4}),
                 ("own", {"mountain.A": 4, "whists.B.A": 16, "whists.C.A": 4})]),
    dict(option="single_whist_quota",
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 7, "B": 2, "C": 1}}],
         values=[("full", {"pool.A": 2, "whists.B.A": 6, "mountain.B": 2}),
                 ("half", {"pool.A": 2, "whists.B.A": 6})]),
    dict(option="responsibility",
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 8, "B": 1, "C": 1}}],
         values=[("full", {"pool.A": 2, "whists.B.A": 4, "mountain.B": 4}),
                 ("half", {"pool.A": 2, "whists.B.A": 4, "mountain.B": 2}),
                 ("none", {"pool.A": 2, "whists.B.A": 4})]),
    dict(option="responsibility", name="half-until-closed after closing",
         rules={"start": {"pool": {"B": 20}}},
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 8, "B": 1, "C": 1}}],
         values=[("half-until-closed", {"pool.A": 2, "pool.B": 20, "whists.B.A": 4, "mountain.B": 4}),
                 ("half", {"pool.A": 2, "pool.B": 20, "whists.B.A": 4, "mountain.B": 2})]),
    dict(option="whist_style", deals=[SEVEN_DOWN_ONE_GREEDY],
         values=[("greedy", {"mountain.A": 4, "whists.B.A": 20, "whists.C.A": 4}),
                 ("gentleman", {"mountain.A": 4, "whists.B.A": 12, "whists.C.A": 12})]),
    dict(option="gentleman_split_when_made", rules={"whist_style": "gentleman"},
         deals=[{"contract": "7S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 7, "B": 2, "C": 1}}],
         values=[(False, {"pool.A": 4, "whists.B.A": 12}),
                 (True, {"pool.A": 4, "whists.B.A": 6, "whists.C.A": 6})]),
    dict(option="half_whist", deals=[{"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": HW}}],
         values=[(True, {"pool.A": 4, "whists.C.A": 4}), (False, ScoringError)]),
    dict(option="half_whist_7_tricks", deals=[{"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": HW}}],
         values=[(1, {"pool.A": 4, "whists.C.A": 4}), ("1.5", {"pool.A": 4, "whists.C.A": 6})]),
    dict(option="half_whist_by", deals=[{"contract": "6H", "declarer": "A", "whist": {"B": HW, "C": PS}}],
         values=[("second", ScoringError), ("either", {"pool.A": 2, "whists.B.A": 4})]),
    dict(option="return_whist",
         deals=[{"contract": "6H", "declarer": "A", "whist": {"B": PS, "C": HW}, "return": "B",
                 "tricks": {"A": 6, "B": 3, "C": 1}}],
         values=[(True, {"pool.A": 2, "whists.B.A": 8}), (False, ScoringError)]),
    dict(option="half_whist_consolation",
         deals=[{"contract": "6H", "declarer": "A", "whist": {"B": PS, "C": HW}, "return": "B",
                 "tricks": {"A": 5, "B": 4, "C": 1}}],
         values=[("none", {"mountain.A": 2, "whists.B.A": 10 + 2}),
                 ("written", {"mountain.A": 2, "whists.B.A": 10 + 2, "whists.C.A": 2})]),
    dict(option="takeover", players=P4,
         deals=[{"dealer": "A", "contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}, "takeover": "A",
                 "tricks": {"B": 5, "C": 3, "D": 2}}],
         values=[(True, {"mountain.B": 2, "whists.A.B": 12, "whists.C.B": 2, "whists.D.B": 2}),
                 (False, ScoringError)]),
    # seed 004 l.37, l.72: the dealer took over; what he answers for is an inferred reading
    dict(option="takeover_shortfall", players=P4,
         deals=[{"dealer": "A", "contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}, "takeover": "A",
                 "tricks": {"B": 8, "C": 1, "D": 1}}],
         values=[("none", {"pool.B": 2, "whists.A.B": 4}),
                 ("whister", {"pool.B": 2, "whists.A.B": 4, "mountain.A": 4})]),   # 2 short of 4 × 2
    dict(option="shortfall_8_10",
         deals=[{"contract": "8S", "declarer": "A", "whist": {"B": W, "C": W}, "tricks": {"A": 10, "B": 0, "C": 0}}],
         values=[("second", {"pool.A": 6, "mountain.C": 6}),
                 ("both", {"pool.A": 6, "mountain.B": 6, "mountain.C": 6})]),
    dict(option="shortfall_split",
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": W}, "tricks": {"A": 7, "B": 3, "C": 0}}],
         values=[("own-half", {"pool.A": 2, "whists.B.A": 6, "mountain.C": 4}),
                 ("pair-deficit", {"pool.A": 2, "whists.B.A": 6, "mountain.C": 2})]),
    dict(option="consolation", deals=[SEVEN_DOWN_TWO_BOTH],
         values=[("price", {"mountain.A": 8, "whists.B.A": 12 + 8, "whists.C.A": 8 + 8}),
                 (10, {"mountain.A": 8, "whists.B.A": 12 + 20, "whists.C.A": 8 + 20}),
                 ("none", {"mountain.A": 8, "whists.B.A": 12, "whists.C.A": 8})]),
    dict(option="consolation_to", players=P4,
         deals=[{"contract": "7S", "declarer": "B", "whist": {"C": W, "D": PS}, "tricks": {"B": 6, "C": 3, "D": 1}}],
         values=[("all", {"mountain.B": 4, "whists.C.B": 20, "whists.D.B": 4, "whists.A.B": 4}),
                 ("defenders", {"mountain.B": 4, "whists.C.B": 20, "whists.D.B": 4}),
                 ("whisters", {"mountain.B": 4, "whists.C.B": 20})]),
    # five players (seed 004 l.107): A deals, B waits his turn; C, D, E hold the cards
    dict(option="consolation_waiting", players=P5,
         deals=[{"contract": "7S", "declarer": "C", "whist": {"D": W, "E": PS}, "tricks": {"C": 6, "D": 3, "E": 1}}],
         values=[(False, {"mountain.C": 4, "whists.D.C": 20, "whists.E.C": 4, "whists.A.C": 4}),
                 (True, {"mountain.C": 4, "whists.D.C": 20, "whists.E.C": 4, "whists.A.C": 4, "whists.B.C": 4})]),
    # next: B (on A's left) waits and C, D, E play; previous: E waits, so E holds no cards
    dict(option="seating.waiting", players=P5,
         deals=[{"contract": "6S", "declarer": "C", "whist": {"D": W, "E": PS}, "tricks": {"C": 6, "D": 3, "E": 1}}],
         values=[("next", {"pool.C": 2, "whists.D.C": 8}), ("previous", ScoringError)]),
    dict(option="consolation_on_misere",
         deals=[{"contract": "misere", "declarer": "A", "tricks": {"A": 2, "B": 4, "C": 4}}],
         values=[(False, {"mountain.A": 20}),
                 (True, {"mountain.A": 20, "whists.B.A": 20, "whists.C.A": 20})]),
    dict(option="misere_fail", deals=[{"contract": "misere", "declarer": "A", "tricks": {"A": 2, "B": 4, "C": 4}}],
         values=[(1, {"mountain.A": 20}), (2, {"mountain.A": 40})]),
    dict(option="misere_whists", deals=[{"contract": "misere", "declarer": "A", "tricks": {"A": 2, "B": 4, "C": 4}}],
         values=[(0, {"mountain.A": 20}), (5, {"mountain.A": 20, "whists.B.A": 10, "whists.C.A": 10})]),
    dict(option="tens",
         deals=[{"contract": "10S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 9, "B": 1, "C": 0}}],
         values=[("whisted", {"mountain.A": 10, "whists.B.A": 20, "whists.C.A": 10}),
                 ("checked", {"mountain.A": 10})]),
    dict(option="checked_ten_fail", rules={"tens": "checked"},
         deals=[{"contract": "10S", "declarer": "A", "tricks": {"A": 8, "B": 1, "C": 1}}],
         values=[("mountain-only", {"mountain.A": 20}),
                 ("usual", {"mountain.A": 20, "whists.B.A": 10 + 20, "whists.C.A": 10 + 20})]),
    dict(option="stalingrad",
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 7, "B": 3, "C": 0}}],
         values=[(False, {"pool.A": 2, "whists.B.A": 6, "mountain.B": 2}),
                 (True, {"pool.A": 2, "whists.B.A": 6, "mountain.C": 4})]),
    # --- the rule constants stated once in the preset tables (REVIEW §6) ---------------------
    # the defenders' quota (Кодекс 3.8.2): 6 → 4; two whisters with 3 tricks, C below his half (2)
    dict(option="quota.6",
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": W, "C": W}, "tricks": {"A": 7, "B": 2, "C": 1}}],
         values=[(4, {"pool.A": 2, "whists.B.A": 4, "whists.C.A": 2, "mountain.C": 2}),
                 (3, {"pool.A": 2, "whists.B.A": 4, "whists.C.A": 2})]),
    # 7 → 2: a lone whister (the full quota, single_whist_quota: full) with his partner's trick
    dict(option="quota.7",
         deals=[{"contract": "7S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 8, "B": 1, "C": 1}}],
         values=[(2, {"pool.A": 4, "whists.B.A": 8}), (3, {"pool.A": 4, "whists.B.A": 8, "mountain.B": 4})]),
    dict(option="quota.8",
         deals=[{"contract": "8S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 10, "B": 0, "C": 0}}],
         values=[(1, {"pool.A": 6, "mountain.B": 6}), (0, {"pool.A": 6})]),
    dict(option="quota.9",
         deals=[{"contract": "9S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 10, "B": 0, "C": 0}}],
         values=[(1, {"pool.A": 8, "mountain.B": 8}), (0, {"pool.A": 8})]),
    dict(option="quota.10",
         deals=[{"contract": "10S", "declarer": "A", "whist": {"B": W, "C": PS}, "tricks": {"A": 10, "B": 0, "C": 0}}],
         values=[(1, {"pool.A": 10, "mountain.B": 10}), (0, {"pool.A": 10})]),
    # Кодекс 3.8.7: the half-whist on a 7 writes 1 trick × 4; not allowed on a 7 with levels [6]
    dict(option="half_whist_levels", deals=[{"contract": "7H", "declarer": "A", "whist": {"B": PS, "C": HW}}],
         values=[([6, 7], {"pool.A": 4, "whists.C.A": 4}), ([6], ScoringError)]),
    # Кодекс 3.3.19: a game bid in the dark ×2
    dict(option="dark_multiplier", rules={"dark": True},
         deals=[{"contract": "6S", "declarer": "A", "dark": True, "whist": {"B": PS, "C": PS}}],
         values=[(2, {"pool.A": 4}), (3, {"pool.A": 6})]),
    # Кодекс fn29: the bomb won on deal 1 multiplies A's next game
    dict(option="bomb_size", rules={"dark": True},
         deals=[dict(SIX_UNPLAYED, bomb="A"), SIX_UNPLAYED],
         values=[(2, {"pool.A": 2 + 4}), (3, {"pool.A": 2 + 6})]),
    # OPR p.7: the dealer of the 3rd all-pass in a row (C) is fined; every 2nd: the 2nd dealer (B)
    dict(option="allpass.dealer_fine_every", rules={"allpass.dealer_fine": 10},
         deals=[AP_433, AP_433, AP_433],
         values=[(3, {"mountain.A": 1 + 2 + 3, "mountain.C": 10}), (2, {"mountain.A": 1 + 2 + 3, "mountain.B": 10})]),
    # "twice the points" off the mountain for a player without a trick
    dict(option="allpass.zero_trick_mountain_factor", rules={"allpass.zero_trick_bonus": "mountain"},
         deals=[{"contract": "all-pass", "tricks": {"A": 0, "B": 5, "C": 5}}],
         values=[(2, {"mountain.A": -2, "mountain.B": 5, "mountain.C": 5}),
                 (3, {"mountain.A": -3, "mountain.B": 5, "mountain.C": 5})]),
    dict(option="without_three", deals=[{"contract": "8S", "declarer": "A", "concede": True}],
         values=[(False, ScoringError), (True, {"mountain.A": 18})]),
    # seed 004 l.200 "be visų": 7♠ reached (price 4), 6♠ kept → 7 × 4 = 28, consolation 7 × 4 each
    # seed 001 l.142 "за неправильную сдачу – 2 в гору" (dealer A), "за игру без сноса – без двух в гору"
    dict(option="irregularities", deals=[{"contract": "6S", "declarer": "B", "irregularities": [{"kind": "misdeal", "by": "A"}]}],
         values=[(False, ScoringError), (True, {"mountain.A": 2, "pool.B": 2})]),
    dict(option="irregularity.misdeal", deals=[{"contract": "6S", "declarer": "B", "irregularities": [{"kind": "misdeal", "by": "A"}]}],
         values=[(2, {"mountain.A": 2, "pool.B": 2}), (5, {"mountain.A": 5, "pool.B": 2})]),
    dict(option="irregularity.no_discard", deals=[{"contract": "7H", "declarer": "B", "irregularities": [{"kind": "no-discard", "by": "B"}]}],
         values=[(2, {"mountain.B": 8}), (3, {"mountain.B": 12})]),
    dict(option="without_all", deals=[{"bid": "7S", "contract": "6S", "declarer": "A", "without_all": True}],
         values=[(False, ScoringError), (True, {"mountain.A": 28, "whists.B.A": 28, "whists.C.A": 28})]),
    dict(option="allpass.scoring", deals=[AP_433],
         values=[("mountain", {"mountain.A": 1}), ("rostov", {"whists.B.A": 10, "whists.C.A": 10})]),
    dict(option="allpass.trick_price", rules={"allpass.progression": []}, deals=[AP_433],
         values=[(1, {"mountain.A": 1}), (2, {"mountain.A": 2})]),
    dict(option="allpass.progression", deals=[AP_433, AP_433],
         values=[([1, 2, 3], {"mountain.A": 3}), ([], {"mountain.A": 2}), ("[2, 4]", {"mountain.A": 6})]),
    dict(option="allpass.progression_reset", deals=[AP_433, SEVEN_DOWN_TWO_BOTH, AP_433],
         values=[("any-deal", {"mountain.A": 1 + 8 + 1, "whists.B.A": 20, "whists.C.A": 16}),
                 ("made-game", {"mountain.A": 1 + 8 + 2, "whists.B.A": 20, "whists.C.A": 16})]),
    dict(option="allpass.progression_reset", name="whisted made game", deals=[AP_433, SIX_UNPLAYED, AP_433],
         values=[("made-game", {"mountain.A": 2, "pool.A": 2}),
                 ("whisted-made-game", {"mountain.A": 3, "pool.A": 2})]),
    dict(option="allpass.amnesty", deals=[AP_433],
         values=[(True, {"mountain.A": 1}), (False, {"mountain.A": 4, "mountain.B": 3, "mountain.C": 3})]),
    dict(option="allpass.zero_trick_bonus", deals=[AP_046],
         values=[("pool", {"pool.A": 1, "mountain.B": 4, "mountain.C": 6}),
                 ("mountain", {"mountain.A": -2, "mountain.B": 4, "mountain.C": 6}),
                 ("none", {"mountain.B": 4, "mountain.C": 6})]),
    dict(option="allpass.zero_trick_points", deals=[AP_046],
         values=[("price", {"pool.A": 1, "mountain.B": 4, "mountain.C": 6}),
                 (2, {"pool.A": 2, "mountain.B": 4, "mountain.C": 6})]),
    dict(option="allpass.zero_trick_bonus_dealer", players=P4,
         deals=[{"contract": "all-pass", "tricks": {"B": 4, "C": 3, "D": 3}}],
         values=[(True, {"pool.A": 1, "mountain.B": 4, "mountain.C": 3, "mountain.D": 3}),
                 (False, {"mountain.B": 4, "mountain.C": 3, "mountain.D": 3})]),
    dict(option="allpass.rostov_whists", rules={"allpass.scoring": "rostov"},
         deals=[{"contract": "all-pass", "tricks": {"A": 6, "B": 2, "C": 2}}],
         values=[(5, {"whists.B.A": 15, "whists.C.A": 15}), (10, {"whists.B.A": 30, "whists.C.A": 30})]),
    dict(option="allpass.talon", players=P4,
         deals=[{"contract": "all-pass", "tricks": {"B": 4, "C": 3, "D": 3}}],
         values=[("dealer-plays", {"pool.A": 1, "mountain.B": 4, "mountain.C": 3, "mountain.D": 3}),
                 ("lead-suit", {"pool.A": 1, "mountain.B": 1})]),
    # who deals deal 2 (A again, or B) shows in who writes the 4-player dealer's talon bonus
    # (A♠ K♠: 2 tricks × 2, Кодекс 3.4.11); deal 2 names only its declarer, so the record fits
    # both rotations (a deal that named every defender would decide the dealer itself)
    dict(option="allpass.same_dealer", players=P4, rules={"talon_bonus": True},
         deals=[{"contract": "all-pass", "tricks": {"B": 4, "C": 3, "D": 3}},
                {"contract": "6S", "declarer": "C", "talon": "AS KS"}],
         values=[(True, {"pool.A": 1, "mountain.B": 4, "mountain.C": 3, "mountain.D": 3,
                         "pool.C": 2, "whists.A.C": 4}),
                 (False, {"pool.A": 1, "mountain.B": 4, "mountain.C": 3, "mountain.D": 3,
                          "pool.C": 2, "whists.B.C": 4})]),
    dict(option="help", rules={"start": {"pool": {"A": 19, "B": 10, "C": 15}}},
         deals=[{"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": PS}}],
         values=[("larger", {"pool.A": 20, "pool.B": 10, "pool.C": 18, "whists.A.C": 30}),
                 ("next", {"pool.A": 20, "pool.B": 13, "pool.C": 15, "whists.A.B": 30}),
                 ("none", {"pool.A": 23, "pool.B": 10, "pool.C": 15})]),
    dict(option="help_tie", rules={"start": {"pool": {"A": 12, "B": 19, "C": 12}}},
         deals=[{"contract": "6S", "declarer": "B", "whist": {"C": PS, "A": PS}}],
         values=[("left", {"pool.A": 12, "pool.B": 20, "pool.C": 13, "whists.B.C": 10}),
                 ("first-seat", {"pool.A": 13, "pool.B": 20, "pool.C": 12, "whists.B.A": 10})]),
    dict(option="help_whists", rules={"start": {"pool": {"A": 19, "B": 10, "C": 15}}},
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}],
         values=[(10, {"pool.A": 20, "pool.B": 10, "pool.C": 16, "whists.A.C": 10}),
                 (20, {"pool.A": 20, "pool.B": 10, "pool.C": 16, "whists.A.C": 20})]),
    dict(option="pool", rules={"start": {"pool": {"A": 19}}},
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}],
         values=[(20, {"pool.A": 20, "pool.B": 1, "whists.A.B": 10}), (30, {"pool.A": 21})]),
    dict(option="leningrad_overs", rules={"end": {"reason": "time"}},
         deals=[SIX_UNPLAYED],
         values=[(False, {"pool.A": 20, "pool.B": 20, "pool.C": 20,
                          "mountain.A": 18, "mountain.B": 20, "mountain.C": 20}),
                 (True, {"pool.A": 2})]),
    dict(option="talon_bonus", players=P4,
         deals=[{"contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS}, "talon": "AS KS"}],
         values=[(False, {"pool.B": 2}), (True, {"pool.B": 2, "whists.A.B": 4})]),
    dict(option="talon_bonus_3p", rules={"talon_bonus": True},
         deals=[{"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}, "talon": "AS AH"}],
         values=[("none", {"pool.A": 2}), ("half-each", {"pool.A": 2, "whists.B.A": 3, "whists.C.A": 3})]),
    dict(option="talon_bonus_misere", players=P4, rules={"talon_bonus": True},
         deals=[{"contract": "misere", "declarer": "B", "tricks": {"B": 0, "C": 5, "D": 5}, "talon": "7S 8S"}],
         values=[("none", {"pool.B": 10}), ("sevens", {"pool.B": 10, "whists.A.B": 20})]),
    dict(option="dark", deals=[{"contract": "6S", "declarer": "A", "dark": True, "whist": {"B": PS, "C": PS}}],
         values=[(True, {"pool.A": 4}), (False, {"pool.A": 2})]),
    # Кодекс 3.6.9 "выигрыш и проигрыш пишется пополам" (more in test_russian_rules.py)
    dict(option="misere_partner", players=P4,
         deals=[{"contract": "misere", "declarer": "B", "partner": "A", "tricks": {"B": 0, "C": 5, "D": 5}}],
         values=[(True, {"pool.A": 5, "pool.B": 5}), (False, ScoringError)]),
    # OPR p.7: after the third all-pass the dealer "могут наказать штрафом до 10 очков в гору"
    dict(option="allpass.dealer_fine", rules={"allpass.progression": []}, deals=[AP_433, AP_433, AP_433],
         values=[(0, {"mountain.A": 3}), (10, {"mountain.A": 3, "mountain.C": 10})]),   # C dealt the 3rd
]


def _id(case: Dict[str, Any]) -> str:
    return case["option"] + (f" ({case['name']})" if "name" in case else "")


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_option_changes_the_result(case):
    results = []
    for value, expected in case["values"]:
        rules = dict(case.get("rules", {}))
        kwargs = {k: rules.pop(k) for k in ("start", "end") if k in rules}
        sets = [(k, v) for k, v in rules.items()] + [(case["option"], value)]
        if expected is ScoringError:
            with pytest.raises(ScoringError) as info:
                run(case["deals"], players=case.get("players", P3), sets=sets, **kwargs)
            assert "deal" in info.value.message
            results.append("error")
            continue
        res = run(case["deals"], players=case.get("players", P3), sets=sets, **kwargs)
        assert flat(res) == expected, f"{case['option']} = {value!r}"
        results.append(flat(res))
    assert len({repr(r) for r in results}) == len(results), "the option must change the result"


def test_exit_level_is_a_note():
    """allpass.exit: a contract below the exit level after an all-pass is scored with a note."""
    deals = [AP_433, SIX_UNPLAYED]
    assert run(deals, sets=[("allpass.exit", [6, 6, 6])]).notes == []
    notes = run(deals, sets=[("allpass.exit", [7, 7, 7])]).notes
    assert notes and "deal 2" in notes[0] and "exit level 7" in notes[0]


def test_dealer_talon_tricks_are_scored_as_recorded():
    """allpass.talon: the dealer's talon tricks count in the amnesty ([K 3.7.3] "amnesty counts
    the dealer's tricks"); under a preset without them the record's facts still win, with a note."""
    deals = [{"contract": "all-pass", "tricks": {"A": 1, "B": 3, "C": 3, "D": 3}}]
    res = run(deals, players=P4)
    assert flat(res) == {"mountain.B": 2, "mountain.C": 2, "mountain.D": 2}
    res = run(deals, players=P4, sets=[("allpass.talon", "unused")])
    assert flat(res) == {"mountain.B": 2, "mountain.C": 2, "mountain.D": 2}
    assert "scored as recorded" in res.notes[0]


def test_end_each_or_total():
    """end: Leningrad ends when the total reaches players × target ([K 4.2.3.3])."""
    kwargs = dict(pool=50, start={"pool": {"A": 48, "B": 48, "C": 48}})
    deals = [{"contract": "8S", "declarer": "A", "whist": {"B": PS, "C": PS}}]
    assert run(deals, variant="leningrad", **kwargs).finished
    assert not run(deals, variant="leningrad", sets=[("end", "each")], **kwargs).finished


def test_every_scoring_option_has_a_case():
    """Each option the scorer reads (not the auction or settlement ones) has a case above."""
    family = get_preset("sochi").family
    auction = {"misere_after", "misere_beaten_by", "misere_without_talon", "here_rule", "bid_jumps", "misere_binding",
               "opening_bid", "auction_order", "bomb_min_level"}
    settlement = {"pool_point_whists"}
    covered = {c["option"] for c in CASES} | {"allpass.exit", "allpass.dark_exit", "end"}
    needed = {o.name for o in family.options} - auction - settlement
    needed = {n for n in needed if not n.startswith("prices.") or n in covered}
    assert needed - covered == set()


@pytest.mark.parametrize("talon,misere,expected", [
    ("AS 7H", False, 1), ("AS KS", False, 2), ("AS AH", False, 3), ("KD QD", False, 1),
    ("KD QH", False, 0), ("AS KH", False, 1), ("9C 8D", False, 0),
    ("7S 8S", True, 2), ("7S 7D", True, 2), ("7S 8D", True, 1), ("AS KS", True, 0),
])
def test_talon_trick_count(talon, misere, expected):
    """[K 3.4.11] "Ace = 1 trick; ace+king of one suit = 2; two aces = 3; marriage = 1";
    PRESETS.md talon_bonus_misere sevens: "a suited 7-8 or two sevens = 2 tricks, one seven = 1"."""
    from prefcli.model.cards import parse_cards
    from prefcli.scoring.russian_contract import talon_tricks
    assert talon_tricks(parse_cards(talon), misere, "sevens") == expected
