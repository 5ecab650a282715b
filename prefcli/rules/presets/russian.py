"""The Russian family (Sochi, Leningrad, Rostov, Classic): options and preset defaults.

Defaults follow PRESETS.md; where sources disagree (RUSSIAN-VARIANTS.md §8) the other reading
is a value of the same option, and the Кодекс преферанса (1996) wins for Sochi, Rostov, Classic.
"""
from __future__ import annotations

from fractions import Fraction

from prefcli.rules.presets.base import register_family, register_preset
from prefcli.rules.presets.options import Family, Option, Preset, Same, StateField
from prefcli.rules.presets.common import (DEALER_STATE, QUOTA_DEFAULTS, SEATING_DEFAULTS, SEATING_OPTIONS,
                                         auction_option, quota_options)

F = Fraction

OPTIONS = (
    # --- prices (the contract price table) -------------------------------------------------
    Option("prices.6", "number", "price of a 6 (pool when made; base of whists and mountain)"),
    Option("prices.7", "number", "price of a 7"),
    Option("prices.8", "number", "price of an 8"),
    Option("prices.9", "number", "price of a 9"),
    Option("prices.10", "number", "price of a 10"),
    Option("prices.misere", "number", "price of the misère"),
    # --- whists and remises ----------------------------------------------------------------
    Option("whist_multiplier", "number", "whists per defender's trick = price × this"),
    Option("declarer_fail_multiplier", "number", "declarer's mountain per undertrick = price × this (0: only consolation)"),
    Option("single_whist", "choice", "a lone whister (the other passed) writes whists for all defenders' tricks (Кодекс 3.8.13) or only his own; he answers alone for the whole quota (seed 001)", ("all", "own")),
    Option("single_whist_quota", "choice", "what a lone whister must take with his partner's tricks: the full quota (6→4, 7→2, 8+→1: seed 001 \"один он и несёт ответственность за взятие обязательного количества взяток\", Кодекс 3.8.5) or half of it (6→2, 7→1: the RULES.md §1 table)", ("full", "half")),
    *quota_options("Кодекс 3.8.2, seed 001"),
    Option("responsibility", "choice", "defenders' mountain per missing trick = price × whist_multiplier × (full 1, half ½, none 0); half-until-closed: half while the whister's own pool is open, full once it is closed (Кодекс 3.8.11–12)", ("full", "half", "half-until-closed", "none")),
    Option("whist_style", "choice", "greedy: the whister alone writes whists; gentleman: on a one-whister remiz the whists for the defenders' tricks are split in half with the passer (Кодекс 3.8.13–14)", ("greedy", "gentleman")),
    Option("gentleman_split_when_made", "bool", "gentleman whist also splits the whists when the contract is made"),
    Option("half_whist", "bool", "half-whist allowed (on the levels of half_whist_levels)"),
    Option("half_whist_levels", "ints", "the contract levels a half-whist is allowed on (Кодекс 3.8.7: 6 and 7)"),
    Option("half_whist_7_tricks", "number", "tricks the half-whister writes on a 7 (1 = half the quota, Кодекс 3.8.7; 1.5 = (10−7)/2); on a 6 always 2"),
    Option("half_whist_by", "choice", "who may half-whist: only the second defender after the first passed (Кодекс) or either", ("second", "either")),
    Option("return_whist", "bool", "the passer (and the 4-player dealer) may return a half-whist (return: NAME); a returning passer whists alone and the former half-whister writes no trick whists even in gentleman whist (Кодекс 3.8.14); a returning dealer writes all the defenders' whists but answers for no shortfall (FSPR*)"),
    Option("half_whist_consolation", "choice", "on a returned half-whist the declarer fails: the player who left on the half-whist writes nothing, not even the consolation (none: seed 003 l.154 \"Odejście za połwistu w przypadku «remisu» rozgrywającego nie zapisuje wistów\", seed 004 l.258 \"tas, kuris paliko pusę švilpuko, nerašo švilpukų, kai taškas atsisako\"; the consolation is written in whists), or he writes the consolation like any defender (written)", ("none", "written")),
    Option("shortfall_8_10", "choice", "two whisters take nothing on 8–10: the second whister pays, or both", ("second", "both")),
    Option("shortfall_split", "choice", "two whisters short on 6/7: each pays his own deficit against half the quota (own-half) or only the pair's deficit is paid, by whoever is below half (pair-deficit)", ("own-half", "pair-deficit")),
    Option("consolation", "number-or-choice", "consolation whists per undertrick written on the declarer: price (= contract price × whist_multiplier), a fixed number (× dark/bomb factors only), or none", ("price", "none")),
    Option("consolation_to", "choice", "who writes the consolation: all (passer and 4-player dealer too), defenders (not the dealer), whisters", ("all", "defenders", "whisters")),
    Option("consolation_on_misere", "bool", "consolation is also written on a failed misère"),
    Option("misere_fail", "number", "mountain per trick the misère declarer takes = misère price × this"),
    Option("misere_whists", "number", "whists per trick the misère declarer takes, written by each catcher (a plain number, × dark/bomb factors)"),
    Option("tens", "choice", "10-trick contracts are whisted, or checked: no whist, made when unplayed or when the declarer takes 10", ("whisted", "checked")),
    Option("checked_ten_fail", "choice", "with tens checked, a failed ten writes only the declarer's mountain, or the usual remiz too (both defenders write their tricks and the consolation)", ("mountain-only", "usual")),
    Option("takeover", "bool", "the sitting-out 4-player dealer may take the cards of either defender when both refused to whist against a trick contract, and play on in his place (takeover: DEALER on the deal, scored from the recorded tricks; seed 004 l.37 \"ketvirtasis dalintojas turi teisę paimti bet kurio iš dviejų kortas ir, jei nori, tęsti vietoj kortų savininko\", l.72); he writes the whists for the defenders' tricks and the consolation; what he answers for: takeover_shortfall"),
    Option("takeover_shortfall", "choice", "the dealer who took over (takeover): answers for no shortfall (none, like the dealer who returns a whist, FSPR*) or for the defenders' quota like a lone whister (whister) (inferred)", ("none", "whister"), inferred=True,
           why="seed 004 l.37 and l.72 let him play on in the defender's place and say nothing of his responsibility; the dealer who returns a whist answers for none (FSPR*), and he too plays a deal nobody whisted",
           alternatives=(("whister", "he answers for the defenders' quota like a lone whister (single_whist_quota, responsibility)"),)),
    Option("stalingrad", "bool", "6♠ must be whisted by both defenders: a 6♠ is scored with both as whisters (their tricks are then needed); and the third hand may not say \"here\" after \"one\" (6♠): seed 004 l.57 \"žaidėjas iš trečios rankos po «VIENAS» neturi teisės pasakyti «ČIA»\""),
    Option("misere_partner", "bool", "the declarer may invite the sitting-out 4-player dealer to play a misère half each (partner: DEALER on the deal, Кодекс 3.6.9 \"выигрыш и проигрыш пишется пополам\"): pool, mountain and every whist written on the declarer are split half to each partner; the dealer writes no consolation and no talon bonus"),
    Option("without_three", "bool", "the declarer may concede (concede: true) three undertricks: 3 × the price of the bid reached (bid:, else the contract) to his mountain, no whists, no consolation"),
    Option("without_all", "bool", "\"be visų\" (seed 004 l.196–200): a declarer who names a contract against the rules (below the bid he reached, or a misère after other bids) and will not change it is written without all the tricks of the bid reached (without_all: true, bid: the bid reached): level × its price × declarer_fail_multiplier to his mountain, no play, nobody whists, and the consolation for those missing tricks is written as on any remise (consolation, consolation_to; seed 004 l.200 \"jam įskaitoma «be visų» nuolaida žaidime, kurį jis pasiekė prekybos proceso metu\"); and the one concession left to a declarer who took the talon (seed 004 l.210 \"negali «pasiduoti be kovos», išskyrus pripažinimą, kad liko «be visų»\"): concede: true with without_all: true gives up the contract he named, scored the same way at its level"),
    # --- irregularities (seed 001 l.142) ------------------------------------------------------
    Option("irregularities", "bool", "irregularities are scored by rule from the deal's irregularities: [{kind, by}] (seed 001 l.142 \"некоторые наказания за невнимательность всё же предусматриваются\"): misdeal (the dealer: irregularity.misdeal to his mountain), no-discard (the declarer played without the discard: irregularity.no_discard undertricks), revoke (the declarer who revoked writes nothing when he made it and the remise when he failed, and the defenders are freed of responsibility; a defender's revoke is scored from the corrected play, which the seed has \"толкуются в ущерб виноватому\")"),
    Option("irregularity.misdeal", "number", "mountain points written by the dealer who misdealt (seed 001 l.142 \"за неправильную сдачу – 2 в гору\"); the deal itself is the one dealt again"),
    Option("irregularity.no_discard", "int", "undertricks written to the mountain by a declarer who played without the discard, × the contract's price × declarer_fail_multiplier (misère: × misere_fail), and nothing else for the deal (seed 001 l.142 \"за игру без сноса – без двух в гору\")", minimum=F(0)),
    # --- auction -----------------------------------------------------------------------------
    auction_option("misere_after"),
    Option("misere_beaten_by", "choice", "what outbids a misère: 9 / 9-without-talon / 10", ("9", "9-without-talon", "10")),
    Option("misere_without_talon", "choice", "a misère bid and played without the talon (misere-without-talon) outbids a nine, and so do the nines without the talon (9S-without-talon …), both above 9NT and below 10♠; the talon is neither taken nor shown, and each is priced as the misère or the 9 it is (the seeds' price tables have one misère, seed 003 l.60, seed 004 l.156). below-nine-without-talon: the misère without the talon is outbid by a 9 without the talon (seed 003 l.108 \"dziewiątkowa gra - Mizerem bez przykładu, który jest przebijany dziewiątką bez przykładu lub dziesiątką\"); above-nine-without-talon: it outbids the nines without the talon (seed 004 l.53 \"Minor be įpirkos yra didesnis nei 9 be įpirkos, bet mažesnis už 10-ąją kastuvą\"); no: nothing is bid without the talon (Leningrad's default: the FSPR pulka tests say it \"does not exist\" there)", ("below-nine-without-talon", "above-nine-without-talon", "no")),
    Option("here_rule", "choice", "who may say \"here\" (hold the last bid): the first hand only; first-or-second: also the second hand once the first hand has passed without saying here (seed 004, RULES.md §2.1: the second player may say here if the first did not use it); or any player", ("first-hand", "first-or-second", "any")),
    Option("bid_jumps", "bool", "a bid may skip rungs (yes: by agreement, no seed plays it); no: one rung at a time (seed 001 l.100 \"последовательно, не прыгая … через ступеньки\"; seed 004 l.182 \"be šokinėjimo … per žingsnius\", l.310 \"griežta kostiumų tvarka\")"),
    Option("misere_binding", "bool", "kabal'ny misère (seed 001 \"мизер кабальный\"): misère only as a player's first call, a misère bid binds the contract, and misère cannot be named after the talon unless it was bid"),
    auction_option("opening_bid"),
    Option("auction_order", "choice", "clockwise: one call per turn round the table (seeds 001, 002); pairs: first and second hand contest, then the third hand contests the winner, the senior says \"here\" (seed 000)", ("clockwise", "pairs")),
    Option("bomb_min_level", "int", "with a bomb (bomb: NAME on a deal) only bids of this level or more are legal; 0: bombs put no floor on the auction"),
    # --- all-pass (raspasy) ------------------------------------------------------------------
    Option("allpass.scoring", "choice", "mountain: each trick to the mountain; rostov: the fewest-tricks player writes whists on the others (two tied for fewest write by half each)", ("mountain", "rostov")),
    Option("allpass.trick_price", "number", "mountain points per trick when there is no progression"),
    Option("allpass.progression", "numbers", "trick prices of the 1st, 2nd, 3rd… consecutive all-pass (the last repeats; [] = always trick_price); a dark pass (dark: true, with dark = yes) doubles it for each consecutive dark all-pass"),
    Option("allpass.progression_reset", "choice", "the series restarts after any non-all-pass deal, a made game, or a whisted made game", ("any-deal", "made-game", "whisted-made-game")),
    Option("allpass.amnesty", "bool", "subtract the smallest trick count (the 4-player dealer's talon tricks count)"),
    Option("allpass.zero_trick_bonus", "choice", "a player with no trick: the bonus points into the pool (helping when closed), twice the points off the mountain, or nothing", ("pool", "mountain", "none")),
    Option("allpass.zero_trick_points", "number-or-choice", "size of the zero-trick bonus: the current trick price, or a fixed number of points", ("price",)),
    Option("allpass.zero_trick_bonus_dealer", "bool", "the 4-player dealer also gets the zero-trick bonus"),
    Option("allpass.rostov_whists", "number", "Rostov: whists per trick written by the fewest-tricks player on each other player, × the current trick price (1 unless a progression is set)"),
    Option("allpass.exit", "ints", "minimum contract level after the 1st, 2nd, 3rd consecutive all-pass (a lower contract is scored, with a note)"),
    Option("allpass.dark_exit", "ints", "with dark = yes: minimum contract level after the 1st, 2nd, 3rd… consecutive dark all-pass (an all-pass after a dark pass: dark: true, or a dark pass in its auction), the last repeats; within an auction a dark pass raises the floor to the next step (Кодекс 3.7.7 \"после паса втёмную можно семерной игрой, а из двойной распасовки – восьмерной\", 3.3.19а \"перебить пас втёмную можно только семерной игрой\"); [] = no dark floor"),
    Option("allpass.dealer_fine_every", "int", "the dealer's fine (allpass.dealer_fine) falls on every this-many-th all-pass in a row (3: the 3rd, 6th, 9th…)", minimum=F(1)),
    Option("allpass.zero_trick_mountain_factor", "number", "with allpass.zero_trick_bonus = mountain: the bonus comes off the mountain this many times over (2: \"twice the points\")"),
    Option("allpass.dealer_fine", "number", "mountain points written by the dealer of the 3rd (6th, 9th…) all-pass in a row, after which the deal passes on (OPR p.7: the dealer \"могут наказать штрафом до 10 очков в гору\"); 0 = no fine"),
    Option("allpass.talon", "choice", "the talon in all-pass play: lead-suit (each talon card names the suit of one of the first two tricks, the best player's card takes it), dealer-plays (the talon cards are played to the first two tricks for the dealer when he sits out, with 4 or 5 players; when he holds cards, with 2 or 3, a trick a talon card takes is nobody's), by-seats (dealer-plays when the dealer sits out, with 4 or 5 players; lead-suit when he holds cards, with 2 or 3), unused; a husar preset reads it only with husar.allpass_talon = as-preset", ("by-seats", "lead-suit", "dealer-plays", "unused")),
    Option("allpass.same_dealer", "bool", "the dealer deals again after an all-pass"),
    # --- closing the pools -------------------------------------------------------------------
    Option("help", "choice", "a closed pool's extra points go to the larger open pool (larger), the next open player clockwise (next), or stay in one's own pool (none); when nobody can be helped, the rest is written off one's own mountain (Кодекс 4.1.1)", ("larger", "next", "none")),
    Option("help_tie", "choice", "who is helped when two open pools tie: the left neighbour (the first clockwise from the helper, Кодекс 4.2.3) or the first seat", ("left", "first-seat")),
    Option("help_whists", "number", "whists the helper writes per pool point given"),
    Option("pool_point_whists", "number", "value of a pool point in the settlement of an unclosed sheet"),
    Option("leningrad_overs", "bool", "at settlement, pool above/below the target moves to the mountain ×2 (then the pool is not valued again)"),
    Option("end", "choice", "the game ends when each pool is closed, or when the total of pools ≥ players × target; an early stop (end: {reason}) closes each pool with its shortfall written to the mountain (not with leningrad_overs, which settles the unders ×2 instead)", ("each", "total")),
    # --- four players, dark games ------------------------------------------------------------
    Option("talon_bonus", "bool", "the 4-player dealer writes on the declarer the whists of the talon's potential tricks × price × whist_multiplier (ace 1, A+K 2, two aces 3, marriage 1), made or failed, played or not"),
    *SEATING_OPTIONS,
    Option("consolation_waiting", "bool", "with 5 players and consolation_to = all, the one waiting his turn writes the consolation too (no: he takes no part in the deal, seed 004 l.107 \"nedalyvauja\"; the dealer's share is the 4-player dealer's) (inferred)", inferred=True,
           why="seed 004 l.107 says the two who sit out take no part (\"nedalyvauja\"); the consolation \"to all\" is the four-player table's (the passer and the dealer), and the dealer's part goes with the deal and the talon, not with sitting out",
           alternatives=(("yes", "the one waiting writes the consolation too, like the dealer: all but the declarer write it"),)),
    Option("talon_bonus_3p", "choice", "with 3 players: no talon bonus, or each opponent of the declarer writes half", ("none", "half-each")),
    Option("talon_bonus_misere", "choice", "talon bonus on a misère: none, or sevens (a suited 7-8 or two sevens = 2 tricks, one seven = 1)", ("none", "sevens")),
    Option("dark_multiplier", "number", "with dark = yes: a game bid in the dark is worth this many times; a dark all-pass multiplies its trick price by this once for each dark all-pass in a row (2: ×2, then ×4, Кодекс 3.3.19)"),
    Option("bomb_size", "number", "with dark = yes: the size of a bomb called on a game deal; on an all-pass it is this to the power of the dark all-passes in a row, at least once (2: Кодекс fn29–fn31)"),
    Option("dark", "bool", "dark calls and bombs (Classic): dark: true on a game doubles it; on an all-pass it doubles the trick price (×4 for a second dark all-pass in a row); bomb: NAME gives NAME a bomb of that size; the declarer's oldest bomb multiplies his next game and is used up only when it is made"),
)

#: What a Russian sheet carries besides its numbers (a game continued from it: start.state).
STATE = (
    DEALER_STATE,
    StateField("allpass_run", "game", "count",
               "all-pass deals in a row at the end of the sheet: the next contract's exit level (allpass.exit) "
               "and the dealer's fine (allpass.dealer_fine_every) count on from it"),
    StateField("dark_run", "game", "count",
               "dark all-passes in a row at the end of the sheet (allpass.dark_exit; a dark all-pass's factor)"),
    StateField("allpass_streak", "game", "count",
               "all-passes counted by the progression: the next one is priced at the step after it "
               "(allpass.progression, restarted as allpass.progression_reset says)"),
    StateField("bombs", "player", "sizes",
               "each player's bombs still to play, oldest first (dark = yes: a bomb multiplies its owner's "
               "next game and is used up by a made one)"),
)

FAMILY = register_family(Family(
    name="russian",
    options=OPTIONS,
    scorer="prefcli.scoring.russian:score_record",
    words={"pool": "pool", "mountain": "mountain", "whists": "whists"},
    # what the Russian texts do not play, and the rotation without eglės (see Family.fixed)
    # both_hands: no whister plays both hands as his own (open whisting is the light defence,
    # scored as a lone whister); takeover_by: only the sitting-out dealer takes a defender's
    # cards, when both refused to whist (seed 004 l.37)
    fixed={"takeover_by": "dealer-both-passed", "both_hands": False, "whist_alone": False, "dark_defence": False, "bomb": Same("dark"),
           "general_egles": 0, "eglutes": 0, "skip_eglute": False, "bomb_allpass": "mandatory",
           # a contract written without whist decisions (and without tricks or play): both passed
           "whist_unwritten": "both-passed",
           # a misère is always played, both defenders catching it: nobody whists or passes it (seed
           # 001 l.121-122 "Мизер | нет обязательств"), so a decision written on one is refused
           "misere_defence": "both",
           # no Russian text fixes the target's divisor or limits the bombs a player calls
           "pool_divisor": 1, "bomb_calls": "any"},
    state=STATE,
))

_PRICES = {"prices.6": 2, "prices.7": 4, "prices.8": 6, "prices.9": 8, "prices.10": 10, "prices.misere": 10}

SOCHI = {
    **SEATING_DEFAULTS, "consolation_waiting": False,
    "pool": 20, "price": None, "coin": "0.01", "method": "russian", "rounding": "exact",
    **_PRICES,
    "whist_multiplier": 1, "declarer_fail_multiplier": 1, "single_whist": "all",
    "single_whist_quota": "full", "responsibility": "full", "whist_style": "greedy", "gentleman_split_when_made": False,
    **QUOTA_DEFAULTS,
    "half_whist": True, "half_whist_levels": [6, 7], "half_whist_7_tricks": 1, "half_whist_by": "second", "return_whist": True,
    "half_whist_consolation": "none",
    "shortfall_8_10": "second", "shortfall_split": "own-half",
    "consolation": "price", "consolation_to": "all", "consolation_on_misere": False,
    "misere_fail": 1, "misere_whists": 0, "tens": "whisted", "checked_ten_fail": "mountain-only",
    "stalingrad": False, "without_three": False, "without_all": True,
    "irregularities": True, "irregularity.misdeal": 2, "irregularity.no_discard": 2,
    "takeover": True, "takeover_shortfall": "none", "misere_partner": True,
    "misere_after": "8NT", "misere_beaten_by": "9", "misere_without_talon": "below-nine-without-talon",
    "here_rule": "first-hand", "bid_jumps": False,
    "misere_binding": True, "opening_bid": "any", "auction_order": "clockwise", "bomb_min_level": 0,
    "allpass.scoring": "mountain", "allpass.trick_price": 1, "allpass.progression": [1, 2, 3],
    "allpass.progression_reset": "any-deal", "allpass.amnesty": True,
    "allpass.zero_trick_bonus": "pool", "allpass.zero_trick_points": "price",
    "allpass.zero_trick_bonus_dealer": True, "allpass.rostov_whists": 5,
    "allpass.exit": [6, 6, 6], "allpass.talon": "by-seats", "allpass.same_dealer": False,
    "allpass.dark_exit": [7, 8, 9, 10], "allpass.dealer_fine": 0, "allpass.dealer_fine_every": 3,
    "allpass.zero_trick_mountain_factor": 2,
    "help": "larger", "help_tie": "left", "help_whists": 10, "pool_point_whists": 10,
    "leningrad_overs": False, "end": "each",
    "talon_bonus": False, "talon_bonus_3p": "none", "talon_bonus_misere": "none", "dark": False,
    "dark_multiplier": 2, "bomb_size": 2,
}

LENINGRAD = {
    **SOCHI,
    "whist_multiplier": 2, "declarer_fail_multiplier": 2, "responsibility": "half",
    "whist_style": "gentleman", "shortfall_split": "pair-deficit", "misere_fail": 2,
    "allpass.trick_price": 2, "allpass.progression": [2, 4, 6],
    "help": "none", "pool_point_whists": 20, "leningrad_overs": True, "end": "total",
    # RUSSIAN-VARIANTS.md §3.2 (FSPR* pulka tests): in Leningrad the misère without the talon
    # "does not exist", so nothing is bid without the talon there.
    "misere_without_talon": "no",
}

ROSTOV = {
    **SOCHI,
    "responsibility": "half", "whist_style": "gentleman", "consolation": 10,
    "allpass.scoring": "rostov", "allpass.progression": [], "allpass.amnesty": False,
    "allpass.zero_trick_points": 1, "allpass.talon": "unused",
}

CLASSIC = {
    **SOCHI,
    "responsibility": "half-until-closed", "allpass.progression": [1, 2, 4],
    "allpass.exit": [7, 7, 7], "allpass.same_dealer": True, "dark": True,
}

#: The player counts of every Russian preset: three, four (the dealer sits out: seed 001 l.6), five
#: (the dealer and the one waiting his turn sit out: seed 004 l.107).
FIVE = (3, 4, 5)

PRESETS = (register_preset(Preset("sochi", FAMILY, "Sochi (Сочинка)",
                       "Кодекс преферанса: greedy, responsible whist, help to the larger pool", SOCHI,
                       players=FIVE), check=False),
           register_preset(Preset("leningrad", FAMILY, "Leningrad (Ленинградка, «Питер»)",
                       "doubled whists and remises, gentleman half-responsible whist, no help, overs ×2 at settlement",
                       LENINGRAD, players=FIVE), check=False),
           register_preset(Preset("rostov", FAMILY, "Rostov (Ростовка)",
                       "half-responsible gentleman whist, fixed consolation 10, all-pass on whists (5 per trick)",
                       ROSTOV, players=FIVE), check=False),
           register_preset(Preset("classic", FAMILY, "Classic (Классика)",
                       "Sochi scoring with dark calls and bombs, exit 7 after all-pass, the dealer deals again",
                       CLASSIC, players=FIVE), check=False))
