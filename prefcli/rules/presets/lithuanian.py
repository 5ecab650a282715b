"""The Lithuanian families: classical "kleboniškasis" (seed 002) and "eglutė and kitty" (seed 000).

Values the seeds state are defaults; rows the seeds leave out are marked (inferred) in their
meaning and stay overridable (RULES.md §3–§4).
"""
from __future__ import annotations

from fractions import Fraction as F

from prefcli.rules.presets.base import register_family, register_preset
from prefcli.rules.presets.options import Family, Option, Preset, Ref, StateField
from prefcli.rules.presets.common import DEALER_STATE, leading_state
from prefcli.rules.presets.common import ANY_TARGET_ANY_BOMB, NO_HALF_WHIST, TAKEOVER_BY_PASSER_OR_DEALER, QUOTA_DEFAULTS, SEATING_DEFAULTS, SEATING_OPTIONS, auction_option, quota_options

_AUCTION = (
    *SEATING_OPTIONS,
    auction_option("misere_after"),
    Option("bid_jumps", "bool", "a bid may skip rungs"),
    # auction and play rows used by the rules engine (prefcli.engine)
    Option("here_rule", "choice", "who may say \"Mine\" (hold the last bid): the first hand only (seed 002), or any player", ("first-hand", "any")),
    Option("misere_binding", "bool", "kabal'ny misère: only as a first call, binds the contract, not named after the talon (no: seed 002 names it after the talon)"),
    auction_option("opening_bid"),
    Option("auction_order", "choice", "clockwise (seed 002) or pairs: first and second hand contest, then the third contests the winner, the senior says \"mine\" (seed 000)", ("clockwise", "pairs")),
    Option("bomb_min_level", "int", "with a bomb only bids of this level or more are legal (seed 002: 7)"),
    Option("allpass.talon", "choice", "the talon in an eglė: dealer-plays (seed 002: the first two tricks led with the talon cards, played by the dealer when he sits out, with 4 or 5 players; when he holds cards, with 3, such tricks belong to nobody), lead-suit (each talon card names the suit of a first trick), by-seats (dealer-plays when the dealer sits out, with 4 or 5 players; lead-suit with 3), or unused (seed 000)", ("by-seats", "lead-suit", "dealer-plays", "unused")),
    Option("takeover", "bool", "a passer or the 4-player dealer may take over whisting from both hands (seed 002)"),
    Option("whist_alone", "bool", "a lone whister may play alone, the passer's cards put away (two cards a trick)"),
    Option("dark_defence", "bool", "a contract won in the dark: no open defence, and at 6 both defenders must whist (seed 002)"),
)

# --- scoring options (prefcli.scoring.lithuanian / .kitty) ---------------------------------------
# Every table value a seed does not print is marked (inferred) and stays overridable.

_KEYS = ("6", "7", "8", "9", "10", "misere")


#: Why the 8, 9 and 10 rows of seed 002's tables 3 and 4 are what they are: the seed prints the
#: 6 and 7 rows only (in its prose, l.129–131), and no other reading fits both seeds.
_UPPER_WHY = ("seed 002 states the 6 and 7 rows only (l.129–131: 6 → 6 points, 12 whists a trick, 12 hens a "
              "missing trick, 6 hens short; 7 → 9, 18, 18, 9); the step from 6 to 7 goes on (+3 points a level, "
              "the other tables in the same proportions), which is also seed 000's table halved; no other "
              "reading fits both seeds, so no other row is offered: a club with its own sets the numbers by "
              "name (points.8 …) or adds a row to this option")


def _table(prefix: str, what: str, stated: tuple, source: str) -> tuple:
    """One number option per contract; keys not in `stated` are marked (inferred): the 8–10 rows
    with the reason they are what they are, the misère's row set by ``misere_row``."""
    out = []
    for key in _KEYS:
        inferred = key not in stated
        label = "misère" if key == "misere" else key
        if not inferred:
            out.append(Option(f"{prefix}.{key}", "number", f"{what}, {label} ({source})"))
        elif key == "misere":
            out.append(Option(f"{prefix}.{key}", "number", f"{what}, {label} (inferred), the row misere_row names",
                              inferred=True, see="misere_row"))
        else:
            out.append(Option(f"{prefix}.{key}", "number", f"{what}, {label} (inferred), the row upper_rows names",
                              inferred=True, see="upper_rows"))
    return tuple(out)


_ROW_TABLES = ("points", "whist_price", "remiz", "shortfall")


_SHORTFALL = quota_options("RULES.md §1") + (
    Option("shortfall_split", "choice",
           "two whisters short of their joint quota: pair-deficit (only the pair's deficit is paid, by whoever is "
           "below half the quota: seed 000 example 5) or own-half (each pays his own deficit against half the quota)",
           ("pair-deficit", "own-half")),
    Option("shortfall_8_10", "choice",
           "two whisters take nothing on 8–10 (quota 1): split (half a trick each, the pair-deficit reading), "
           "second (the second whister pays), both (each pays the whole trick) (inferred)",
           ("split", "second", "both"), inferred=True,
           why="the seeds give the pair's shortfall only where the quota can be halved (seed 000 examples 3–5: "
               "\"skaičiuojamas bendrai\"); a quota of one trick halved is half a trick each",
           alternatives=(("second", "the second whister answers for it, as the Russian presets read it"),
                         ("both", "each whister pays the whole missing trick"))),
    Option("misere_catchers", "choice",
           "a made misère: each catcher who whisted writes the whisters' hens (each), or the catchers share them "
           "(split) (inferred)", ("each", "split"), inferred=True,
           why="seed 000 example 7 (l.203) has one catcher: \"Vistavęs žaidėjas užsirašo 36 vištas\"; seed 002 "
               "says the catchers write \"pagal 3 lentelę\" (l.155): with two catchers, each writes the row",
           alternatives=(("split", "two catchers share the row's hens, half each"),)),
    Option("hen_whists", "number",
           "whists per track point or hen sold / per hen struck from another player / per hen at settlement (10)"),
    Option("hens_rounding", "choice",
           "settlement: how each player's hen share is rounded to a whole number (seed 002 \"suapvalina vieneto "
           "tikslumu\"): half-up (inferred), half-even, down, up, or exact (no rounding)",
           ("half-up", "half-even", "down", "up", "exact"), inferred=True,
           why="seed 002 rounds \"vieneto tikslumu\" (l.177) and its example never meets a half; a half goes up as "
               "in school rounding; seed 000 divides the hens evenly without rounding (l.247), so the kitty game "
               "keeps them exact",
           alternatives=(("half-even", "a half goes to the even number"), ("down", "every share rounded down"),
                         ("up", "every share rounded up"),
                         ("exact", "no rounding (the lithuanian-kitty default)"),
                         ("half-up", "a half goes up (the lithuanian default)"))),
    Option("strike_order", "choice",
           "within one deal, a made contract's hens struck (from the declarer, or sold to another player when he "
           "has too few) are written before the whisters' shortfall hens (declarer-first), or after them "
           "(defence-first) (inferred)", ("declarer-first", "defence-first"), inferred=True,
           why="the seeds write both but say nothing of their order; the declarer's result is read first, as "
               "the seeds describe a deal (the declarer's result, seed 002 l.119, seed 000 l.205; then the defenders', seed 002 l.131, seed 000 l.211)",
           alternatives=(("defence-first", "the shortfall hens are on the mountain before the declarer strikes, "
                                           "so a whister short of his quota may be the one struck"),)),
    Option("strike_beyond", "choice",
           "hens a player must strike when nobody has hens left: struck from his own mountain below zero "
           "(below-zero: they count for him at settlement) or lost (inferred)", ("below-zero", "lost"),
           inferred=True,
           why="the seeds strike another player's hens when one's own run out (seed 002 l.169, seed 000 l.239) "
               "and say nothing when nobody has any; below zero keeps what he earned",
           alternatives=(("lost", "the hens nobody has are not struck: what he earned beyond them is lost"),)),
)

_CLASSICAL_OPTIONS = (
    _table("points", "track points written and hens struck for a made contract", ("6", "7"), "seed 002")
    + _table("whist_price", "whists per trick for each whister (and the dealer's talon bonus and write-up)",
             ("6", "7"), "seed 002")
    + _table("remiz", "declarer's hens per missing trick (misère: per trick taken)", ("6", "7"), "seed 002")
    + _table("shortfall", "whisters' hens per trick missing from their quota (misère: catchers' hens when it is made)",
             ("6", "7"), "seed 002")
    + _SHORTFALL
    + (
        Option("start_hens", "number-or-choice",
               "hens each player writes on his mountain at the start: half (T/2, seed 002) or a number", ("half",)),
        Option("general_egles", "number-or-choice",
               "general eglės at the start (the leading all-pass deals of the record): one per player (4; 3 with "
               "3 players) or a number (6 with 3 players by agreement)", ("players",)),
        Option("egles", "number-or-choice",
               "eglė strokes each player draws at the start (unplayed eglės that double his deals): as many as "
               "the general eglės, or a number", ("general",)),
        Option("egle_multiplier", "number",
               "a deal whose declarer has an unplayed eglė is worth this many times (2, seed 002)"),
        Option("egle.trick_hens", "number", "hens per trick taken in a general or mandatory eglė (3)"),
        Option("egle.zero_points", "number", "track points for a player who takes no trick in an eglė (6)"),
        Option("egle.zero_hens", "number", "hens struck by a player who takes no trick in an eglė (6)"),
        Option("egle.dealer", "bool",
               "with 4 players the dealer owns the talon-led tricks of an eglė (3 hens each) and, with none, "
               "writes the trickless player's track points (seed 002)"),
        Option("allpass.same_dealer", "bool", "after a mandatory eglė the same dealer deals again (seed 002)"),
        Option("allpass.regain", "bool",
               "a mandatory eglė gives every player one eglė stroke back (seed 002 \"vėl jų gauna\"; every player, "
               "the 4-player dealer too) (inferred)", inferred=True,
               why="seed 002 l.151: \"būna, kad kuris nors žaidėjas, neturėdamas nesužaistų eglių, vėl jų gauna\" "
                   "(a player who had none gets them again): one stroke each, as each eglė deal gave one",
               alternatives=(("no", "a mandatory eglė gives no stroke back"),)),
        Option("writeup", "choice",
               "write-up (aprašymas) of a failed contract: whisters write whists for their tricks plus the "
               "declarer's missing tricks; with 4 players only (seed 002: none with 3), always, or never",
               ("4-players", "always", "never")),
        Option("writeup_dealer", "choice",
               "the 4-player dealer on a failed contract: add (whists for his talon's potential tricks plus the "
               "missing tricks, like a whister (inferred)), instead (the missing tricks only when the talon holds "
               "none), none", ("add", "instead", "none"), inferred=True,
               why="seed 002 l.141: the dealer \"pirkinyje neradęs potencialaus kirčio ... užsirašo už du kirčius\" "
                   "names only a talon without tricks; one with tricks adds them, like a whister's own tricks",
               alternatives=(("instead", "the missing tricks only when the talon holds none"),
                             ("none", "the dealer writes no write-up"))),
        Option("talon_bonus", "choice",
               "the 4-player dealer writes whists on the declarer for the talon's potential tricks (an ace 1; ace "
               "and king of a suit 2; king and queen of a suit 1): with 4 players (seed 002), never",
               ("4-players", "never")),
        Option("talon_bonus_misere", "choice",
               "talon bonus on a misère: sevens (a seven 1, a seven and eight of one suit 2; the counts are "
               "(inferred)) or none", ("sevens", "none"), inferred=True,
               why="seed 002 l.159 names the cards (\"septynakė ar tos pačios spalvos septynakė su aštuonake\") "
                   "but not their count: counted as the trick games' ace and king",
               alternatives=(("none", "no talon bonus on a misère"),)),
        Option("talon_two_aces", "int",
               "talon bonus: potential tricks of a talon of two aces (2: one an ace, as seed 002 counts an ace; "
               "3: the Кодекс's count) (inferred)", inferred=True,
               why="seed 002 l.137 counts \"tūzas\" (an ace) one potential trick and names no pair of aces",
               alternatives=(("3", "the Кодекс преферанса's count (3.4.11), as the Russian presets score it"),)),
        Option("upper_rows", "choice",
               "the 8, 9 and 10 rows of the four tables (points, whist_price, remiz, shortfall .8 .9 .10): step "
               "(the step from 6 to 7 continued: 12/15/18 points, 24/30/36 whists and hens a missing trick, "
               "12/15/18 hens short) (inferred)", ("step",), inferred=True, why=_UPPER_WHY,
               rows={"step": {**{f"points.{k}": v for k, v in (("8", 12), ("9", 15), ("10", 18))},
                              **{f"whist_price.{k}": v for k, v in (("8", 24), ("9", 30), ("10", 36))},
                              **{f"remiz.{k}": v for k, v in (("8", 24), ("9", 30), ("10", 36))},
                              **{f"shortfall.{k}": v for k, v in (("8", 12), ("9", 15), ("10", 18))}}}),
        Option("misere_row", "choice",
               "the misère's row of the four tables (points, whist_price, remiz, shortfall .misere): the 10's "
               "(ten) or the 9's (nine) (inferred)", ("ten", "nine"), inferred=True,
               why="seed 002 prints no misère row (its tables 3 and 4 are not in the text); seed 000's table "
                   "scores the misère as the 10, and so do the Russian tables",
               alternatives=(("nine", "the 9's row: the misère ranks just under the 10, above the 9 "
                                      "(seed 002 l.153)"),),
               rows={"ten": {f"{t}.misere": Ref(f"{t}.10") for t in _ROW_TABLES},
                     "nine": {f"{t}.misere": Ref(f"{t}.9") for t in _ROW_TABLES}}),
        Option("dark", "bool", "dark bidding (patamsiu, dark: true on a deal) is played"),
        Option("dark_multiplier", "number",
               "every entry of a dark deal is multiplied by this (2; with an eglė 2 × 2 = 4, seed 002)"),
        Option("bomb", "bool", "the bomb (bomb: NAME on a deal, called by the first hand) is played"),
        Option("bomb_calls", "choice",
               "how often each player calls the bomb in a game: once (seed 002 l.297 \"visi žaidėjai privalo po "
               "vieną kartą skelbti bombą\": a second call by the same player is refused; a bomb not yet called "
               "is not, since the record shows what was played) or any number of times", ("once", "any")),
        Option("pool_divisor", "int",
               "the target (pool) must divide by this (seed 002 l.27 \"šis skaičius turi dalintis iš trijų be "
               "liekanos\": 3; 1: any target)", minimum=F(1)),
        Option("bomb_multiplier", "number",
               "every entry of a bomb deal is multiplied by this (1: the seed names no doubling, the bomb only "
               "forces 7 or more) (inferred)", inferred=True,
               why="seed 002 l.297–299 says the bomb forces 7 or more and raises the value of one's later games, "
                   "and names no factor",
               alternatives=(("2", "a bomb deal counts double, like a dark one (dark_multiplier)"),)),
        Option("bomb_allpass", "choice",
               "an all-pass after a bomb is a general eglė: no stroke back, the next dealer deals (general, "
               "(inferred)) or scored like a mandatory eglė (mandatory)", ("general", "mandatory"), inferred=True,
               why="seed 002 l.297: \"Jei niekas neskelbia, žaidžiama bendroji eglė\" (a general eglė)",
               alternatives=(("mandatory", "scored like a mandatory eglė: a stroke back, the same dealer deals"),)),
        Option("sell_hens_to", "choice",
               "hens a player cannot strike from his own mountain are struck from the opponent with the fewest "
               "hens (seed 002; ties: the left one) or the most", ("fewest", "most")),
        Option("kitty_premium", "number",
               "\"su katilu\": premium to the first player whose track reaches the target (0: not played)"),
        Option("kitty_premium_form", "choice",
               "the kitty premium: hens struck from his mountain, or whists written once on each other player",
               ("hens", "whists")),
    )
)

_KITTY_OPTIONS = (
    _table("points", "kitty points for a made contract (half to the kitty, half strike hens)",
           _KEYS, "seed 000")
    + _table("whist_price", "whists per trick for each whister (misère: per trick the declarer takes)",
             _KEYS, "seed 000")
    + _table("remiz", "declarer's hens per missing trick (misère: per trick taken) (seed 000: the points)",
             _KEYS, "seed 000")
    + _table("shortfall", "whisters' hens per trick missing from their quota (misère: catchers' hens when it "
             "is made)", _KEYS, "seed 000")
    + _SHORTFALL
    + (
        Option("eglutes", "number-or-choice",
               "eglutė deals at the start: one per player (4; 3 with 3 players) or a number", ("players",)),
        Option("eglute.trick_hens", "number", "hens per trick taken in an eglutė (3)"),
        Option("skip_eglute", "bool",
               "the eglutė deals are skipped by agreement: every player writes skip_eglute_hens instead; his "
               "declarer's rights are skip_eglute_rights (inferred)", inferred=True, see="skip_eglute_rights"),
        Option("skip_eglute_rights", "choice",
               "with the eglutė skipped, each player's declarer's rights: as many as eglutė deals were agreed "
               "(agreed) or none (inferred)", ("agreed", "none"), inferred=True,
               why="seed 000 l.25 says only that they write 30 hens each; the rights count the eglutė deals "
                   "(l.29), and the agreed ones stand for them",
               alternatives=(("none", "no eglutė was played, so no right: every game is halved until an extra "
                                      "eglutė"),)),
        Option("skip_eglute_hens", "number", "hens each player writes when the eglutė is skipped (30)"),
        Option("allpass.same_dealer", "bool",
               "after an all-pass (extra eglutė) the same dealer deals again (no: the seed says nothing, the deal "
               "passes on) (inferred)", inferred=True,
               why="seed 000 l.17: \"kitą kartą dalija jo kairysis kaimynas\", with no exception for an extra eglutė",
               alternatives=(("yes", "the dealer deals again after an extra eglutė, as seed 002's mandatory "
                                     "eglė"),)),
        Option("rights_factor", "number",
               "every entry of a deal whose declarer has used up his rights (declarer's turns = eglutė deals "
               "played) is multiplied by this (1/2, seed 000)"),
        Option("half_kitty_premium", "number",
               "whists the first player to reach half the kitty writes once on each other player (60)"),
        Option("full_kitty_premium", "number-or-choice",
               "whists the player who completes the kitty writes once on each other player: double (twice the "
               "half-kitty premium) or a number; not given when the game is stopped by time", ("double",)),
        Option("strike_other", "choice",
               "a declarer with too few hens strikes another player's hens: the one with the most (seed 000 "
               "\"paprastai\"; ties: the left one) or the fewest", ("most", "fewest")),
    )
)

#: The defence and hen rows both Lithuanian families play alike (the _SHORTFALL options).
_SHORTFALL_DEFAULTS = {
    **QUOTA_DEFAULTS,
    "shortfall_split": "pair-deficit", "shortfall_8_10": "split", "misere_catchers": "each",
    "hen_whists": 10, "strike_order": "declarer-first", "strike_beyond": "below-zero",
}

_CLASSICAL_DEFAULTS = {
    "points.6": 6, "points.7": 9, "whist_price.6": 12, "whist_price.7": 18, "remiz.6": 12, "remiz.7": 18,
    "shortfall.6": 6, "shortfall.7": 9,
    "upper_rows": "step", "misere_row": "ten",   # the 8–10 rows and the misère's (the options' rows)
    **_SHORTFALL_DEFAULTS, "hens_rounding": "half-up",
    "talon_two_aces": 2,
    "start_hens": "half", "general_egles": "players", "egles": "general", "egle_multiplier": 2,
    "egle.trick_hens": 3, "egle.zero_points": 6, "egle.zero_hens": 6, "egle.dealer": True,
    "allpass.same_dealer": True, "allpass.regain": True,
    "writeup": "4-players", "writeup_dealer": "add", "talon_bonus": "4-players", "talon_bonus_misere": "sevens",
    "dark": True, "dark_multiplier": 2, "bomb": True, "bomb_multiplier": 1, "bomb_allpass": "general",
    "bomb_calls": "once", "pool_divisor": 3,
    "sell_hens_to": "fewest", "kitty_premium": 0, "kitty_premium_form": "hens",
}

_KITTY_DEFAULTS = {
    "points.6": 12, "points.7": 18, "points.8": 24, "points.9": 30, "points.10": 36, "points.misere": 36,
    "whist_price.6": 24, "whist_price.7": 36, "whist_price.8": 48, "whist_price.9": 60, "whist_price.10": 72,
    "whist_price.misere": 72,
    "remiz.6": 12, "remiz.7": 18, "remiz.8": 24, "remiz.9": 30, "remiz.10": 36, "remiz.misere": 36,
    "shortfall.6": 12, "shortfall.7": 18, "shortfall.8": 24, "shortfall.9": 30, "shortfall.10": 36,
    "shortfall.misere": 36,
    **_SHORTFALL_DEFAULTS, "hens_rounding": "exact",
    "eglutes": "players", "eglute.trick_hens": 3, "skip_eglute": False, "skip_eglute_rights": "agreed",
    "skip_eglute_hens": 30,
    "allpass.same_dealer": False, "rights_factor": "1/2",
    "half_kitty_premium": 60, "full_kitty_premium": "double", "strike_other": "most",
}


#: What a seed 002 sheet carries besides its numbers: each player's eglė strokes (l.41 "prie
#: kurio nors savo vertikalaus brūkšnio po kalnu nubrėžia po 4 įstrižus brūkšnelius"; l.57 a made
#: game "nusibraukia vieną eglę"; the eglė table, l.265–269) and who has called his bomb (l.297).
CLASSICAL_STATE = (
    DEALER_STATE,
    leading_state("general eglės", "general_egles"),
    StateField("egles", "player", "count",
               "eglė strokes not yet played: a deal he declares while he has one is worth egle_multiplier times, "
               "and a made one strikes a stroke (seed 002 l.41, l.57; the eglė table, l.265–269)"),
    StateField("bombs_called", "player", "count",
               "times the player has called the bomb (bomb_calls = once: a second call is refused; seed 002 l.297)"),
)

#: What a seed 000 sheet carries besides its numbers: each player's eglutė table ("Žaidimų lapo
#: kamputyje kiekvienas žaidėjas nusibraižo tokią eglutės žaidimų lentelę", l.33–41).
KITTY_STATE = (
    DEALER_STATE,
    leading_state("eglutės", "eglutes"),
    StateField("rights", "player", "count",
               "declarer's turns at full value: the eglutė deals played, the top row of his eglutė table "
               "(seed 000 l.29 \"tiek kartų, kiek kartų buvo žaisti eglutės žaidimai\", l.37)"),
    StateField("declared", "player", "count",
               "full-value turns used: the games in the bottom row of his eglutė table (seed 000 l.39); a turn "
               "beyond his rights (X, halved) uses none (l.41)"),
)

CLASSICAL = register_family(Family(
    name="lithuanian",
    options=_AUCTION + _CLASSICAL_OPTIONS,
    scorer="prefcli.scoring.lithuanian:score_record",
    words={"pool": "track", "mountain": "hens", "whists": "whists"},
    fixed={**NO_HALF_WHIST, **TAKEOVER_BY_PASSER_OR_DEALER, "eglutes": 0, "skip_eglute": False, "both_hands": True},
    state=CLASSICAL_STATE,
))

KITTY = register_family(Family(
    name="lithuanian-kitty",
    options=_AUCTION + _KITTY_OPTIONS,
    scorer="prefcli.scoring.kitty:score_record",
    words={"pool": "kitty", "mountain": "hens", "whists": "whists"},
    # seed 000 has no dark games, bombs or general eglės (its leading all-passes are eglutės)
    fixed={**NO_HALF_WHIST, **ANY_TARGET_ANY_BOMB, **TAKEOVER_BY_PASSER_OR_DEALER, "dark": False, "bomb": False, "general_egles": 0,
           "bomb_allpass": "mandatory", "both_hands": True},
    state=KITTY_STATE,
))

_COMMON = {"price": None, "coin": "0.01", "rounding": "exact", **SEATING_DEFAULTS}
#: The auction rows both Lithuanian presets play alike (seeds 002 and 000).
_AUCTION_DEFAULTS = {"misere_after": "9NT", "here_rule": "first-hand", "misere_binding": False, "bomb_min_level": 7,
                     "whist_alone": True}

#: Three or four players (seed 002 l.19 "trims ar keturiems žaidėjams", seed 000 l.19), and five
#: (seed 004 l.107): the dealer's part of a four-player deal (his talon-led tricks of an eglė, the
#: talon bonus, the write-up, the take-over) stays the dealer's; the one waiting his turn sits out.
FIVE = (3, 4, 5)

register_preset(Preset("lithuanian", CLASSICAL, "Lithuanian classical (kleboniškasis, seed 002)",
                       "track, mountain of hens, eglės, write-up, talon bonus",
                       {**_COMMON, **_AUCTION_DEFAULTS, **_CLASSICAL_DEFAULTS, "pool": 120, "method": "lithuanian",
                        "bid_jumps": True, "opening_bid": "any", "auction_order": "clockwise",
                        "allpass.talon": "dealer-plays", "takeover": True, "dark_defence": True}, players=FIVE), check=False)
register_preset(Preset("lithuanian-kitty", KITTY, "Lithuanian eglutė and kitty (seed 000)",
                       "kitty, eglutė deals, halving beyond one's rights, strict one-rung auction",
                       {**_COMMON, **_AUCTION_DEFAULTS, **_KITTY_DEFAULTS, "pool": 60, "method": "lithuanian-kitty",
                        "bid_jumps": False, "opening_bid": "lowest", "auction_order": "pairs",
                        "allpass.talon": "unused", "takeover": False, "dark_defence": False}, players=FIVE), check=False)
