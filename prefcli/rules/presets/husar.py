"""The two-player game with a dummy (гусарик, гусарский преферанс; seed 001 l.2, l.144; seed 004
l.1, l.39 "husaro pirmenybė, su manekenu"): the Russian tables plus the husar options.

A husar preset is a Russian preset (`sochi-husar` is Sochi's tables, `leningrad-husar`
Leningrad's, …) played by two players and a dummy hand named ``dummy``. The rules are
``shared/spec/HUSAR.md`` (H1–H19); each option below is one of its §3 rows, with the default
HUSAR.md gives, and "(inferred)" where it marks the point INF. Nothing reads a preset's name:
the table reads ``Preset.dummy`` and the engine and scorer read these options.
"""
from __future__ import annotations

from prefcli.rules.presets.base import register_family, register_preset
from prefcli.rules.presets.options import Family, Option, Preset
import prefcli.rules.presets.russian as russian

HUSAR_OPTIONS = (
    Option("husar.seating", "choice", "HUSAR.md H3: fixed: seats P1 → dummy → P2, the dummy left of P1 when he "
           "deals and right of P2 when he deals (seed 004 l.39); alternating: the dummy moves so that it is left "
           "of every dealer ([CS] \"прикуп-болван чергуються\"; inferred)", ("fixed", "alternating")),
    Option("husar.dummy_in_auction", "choice", "HUSAR.md H5: the dummy's cards stay closed during the auction "
           "(EN-WIKI, ACC), or are open (PG); the record's hands are the same either way", ("closed", "open"),
           informational="HUSAR.md H5 states what the players saw while bidding and no rule that reads it: the "
                         "auction, the play and the sheet are the same either way, so it is kept with the record "
                         "and changes no check and no number"),
    Option("husar.hold_right", "choice", "HUSAR.md H6: who may say here (hold the last bid): the first live "
           "hand (the first player from the dealer's left); first-hand-only: only when the first hand is a "
           "player, so nobody holds in the deals where the dummy is first hand; none (inferred)",
           ("first-live-hand", "first-hand-only", "none"), inferred=True,
           why="HUSAR.md H6: no source speaks to holding a bid at two; the Кодекс (3.3.8) gives it to the first hand, "
               "and with the dummy skipped the first hand to speak is the first live hand",
           alternatives=(("first-hand-only", "only a player who is the first hand holds: nobody in the deals where "
                          "the dummy is the first hand"), ("none", "nobody may say here"))),
    Option("husar.whist", "choice", "HUSAR.md H8: the opponent may whist or pass (optional; EN-WIKI, Кодекс "
           "3.8.9), or every contract is played out (compulsory; GO): a written pass is refused and an "
           "unwritten decision is a whist", ("optional", "compulsory")),
    Option("husar.half_whist", "bool", "HUSAR.md H8: the opponent may half-whist a 6 or 7, the dummy being the "
           "partner who passed (with the Russian half_whist options); the dummy never returns it (inferred)",
           inferred=True,
           why="HUSAR.md H8: no source mentions the half-whist in гусарик; without an agreement there is none",
           alternatives=(("yes", "the opponent may half-whist a 6 or 7, the dummy being the partner who passed"),)),
    Option("husar.dummy_control", "choice", "HUSAR.md H9: the dummy's cards are chosen by its controller, the "
           "player who is not the declarer (whister, EN-WIKI), or by a robot: lowest card of the suit led, "
           "else lowest trump, else lowest card (GO), which validate then checks card by card",
           ("whister", "robot")),
    Option("husar.first_lead", "choice", "HUSAR.md H10: the first lead belongs to the first hand, the dummy in "
           "P1's deals (first-hand; seed 004 l.86, Кодекс 3.9.1), always to the dummy (always-dummy; seed 004 "
           "l.55 taken literally), or to the declarer (declarer; GO)", ("first-hand", "always-dummy", "declarer")),
    Option("husar.passer_share", "choice", "HUSAR.md H12: where the preset gives the passer a share (gentleman "
           "whist splitting the whists), the whister writes it all (whister-takes-all), or the dummy's half is "
           "not written (lost) (inferred)", ("whister-takes-all", "lost"), inferred=True,
           why="HUSAR.md H12: no source says what the passer's share becomes when the passer is the dummy, which "
               "has no sheet; the whister alone played the defence",
           alternatives=(("lost", "the dummy's half is not written: the whister writes only his own half"),)),
    Option("husar.allpass_talon", "choice", "HUSAR.md H15: on all-pass the talon is not opened (closed; Кодекс "
           "3.7.6.4 \"прикуп на распасовке не открывается во всех разновидностях\", fn48, seed 004 l.86), or "
           "is used as the preset's allpass.talon says (as-preset, by agreement as fn48 allows)",
           ("closed", "as-preset")),
    Option("husar.allpass_dummy", "choice", "HUSAR.md H15: on all-pass the dummy's cards are not turned up, so "
           "it sits out and the players play ten two-card tricks (out, from seed 004 l.86), or it plays "
           "as a robot (three-card tricks; its tricks are its own and nobody writes them: GO) (inferred)",
           ("out", "robot"), inferred=True,
           why="HUSAR.md H15: seed 004 l.86 says only that the dummy's cards are not turned up on all-pass; nobody "
               "can follow suit from unseen cards, so it sits out",
           alternatives=(("robot", "the dummy plays as GO's robot, three-card tricks; its tricks are written by nobody"),)),
    Option("husar.mountain", "choice", "HUSAR.md H18: divided: each mountain point × 10 ÷ 2 players = 5 whists "
           "written by the opponent (Кодекс 4.2.14, seed 004 l.96–98); undivided: 10 whists a point, and pool "
           "points nobody can take are written off the mountain at half (Кодекс 4.1.1(в); the meaning of "
           "\"неделимая гора\" is inferred)", ("divided", "undivided")),
)

HUSAR_DEFAULTS = {
    "husar.seating": "fixed", "husar.dummy_in_auction": "closed", "husar.hold_right": "first-live-hand",
    "husar.whist": "optional", "husar.half_whist": False, "husar.dummy_control": "whister",
    "husar.first_lead": "first-hand", "husar.passer_share": "whister-takes-all",
    "husar.allpass_talon": "closed", "husar.allpass_dummy": "out", "husar.mountain": "divided",
}

#: The rule (HUSAR.md H-number) behind each ledger rule key a husar sheet can hold: what
#: ``score --explain`` names beside the entry.
HUSAR_RULE_REFS = {
    "contract.made": "H12", "contract.unplayed": "H13", "contract.failed": "H12", "whist.tricks": "H11, H12",
    "whist.split": "H12", "whist.half": "H8", "consolation": "H12", "shortfall": "H8, H12",
    "misere.made": "H14", "misere.failed": "H14", "misere.whists": "H14", "without-three": "H12",
    "ten.checked": "H12", "allpass.tricks": "H15", "allpass.zero-bonus": "H15", "allpass.rostov": "H15",
    "allpass.dealer-fine": "H15", "penalty": "H16", "adjust": "H16", "start": "H16", "help": "H17",
    "help.own-mountain": "H17, H18", "close.early-stop": "H17",
}

#: Russian options a two-seat table never reaches, refused in a husar record (an unknown option)
#: rather than read nowhere: what the sitting-out 4-player dealer does (``takeover``,
#: ``takeover_shortfall``, ``misere_partner``, the talon bonus of Кодекс 3.4.11 and its 3-player
#: split, the all-pass bonus of a dealer who holds no cards) and the five-player table's one
#: waiting his turn (``seating.waiting``, ``consolation_waiting``): nobody sits out at two; what
#: two whisters or a passer with a sheet do (``shortfall_8_10``, ``shortfall_split``, the return
#: of a half-whist and its consolation, who may half-whist): the opponent is the only whister and
#: the dummy "cannot return the whist" (HUSAR.md H8); a lone whister's own tricks against the
#: defence's (``single_whist``): the dummy's tricks are the whister's (H11); who is helped when
#: two open pools tie (``help_tie``): the helper has one opponent (H17).
NOT_AT_TWO = ("takeover_shortfall", "seating.waiting", "consolation_waiting", "takeover", "misere_partner",
              "talon_bonus", "talon_bonus_3p", "talon_bonus_misere", "allpass.zero_trick_bonus_dealer",
              "shortfall_8_10", "shortfall_split", "return_whist", "half_whist_consolation", "half_whist_by",
              "single_whist", "help_tie")

#: What the rules engine and the scorer read for them at two: the value under which each is not
#: played, or (half_whist_by, single_whist, help_tie, the two-whister shortfalls) a value that
#: gives the same answer as every other when there is one whister and one opponent.
AT_TWO = {"seating.waiting": "next", "takeover": False, "misere_partner": False, "talon_bonus": False,
          "talon_bonus_3p": "none", "talon_bonus_misere": "none", "allpass.zero_trick_bonus_dealer": False,
          "shortfall_8_10": "second", "shortfall_split": "own-half", "return_whist": False,
          "half_whist_consolation": "none", "half_whist_by": "second", "single_whist": "all", "help_tie": "left"}

FAMILY = register_family(Family(
    name="russian-husar",
    options=tuple(o for o in russian.OPTIONS if o.name not in NOT_AT_TWO) + HUSAR_OPTIONS,
    scorer="prefcli.scoring.russian:score_record",
    words=dict(russian.FAMILY.words),
    # what a two-seat table never reaches, stated as data (AT_TWO)
    fixed={**russian.FAMILY.fixed, **AT_TWO},
    refs=HUSAR_RULE_REFS,
    state=russian.FAMILY.state,
))

for _base, _values in (("sochi", russian.SOCHI), ("leningrad", russian.LENINGRAD),
                       ("rostov", russian.ROSTOV), ("classic", russian.CLASSIC)):
    _preset = next(p for p in (russian.PRESETS or ()) if p.name == _base)
    register_preset(Preset(f"{_base}-husar", FAMILY, f"{_preset.title}, two players with a dummy (гусарик)",
                           f"{_preset.description}; two players and a dummy hand (HUSAR.md H1–H19)",
                           {**{k: v for k, v in _values.items() if k not in NOT_AT_TWO}, **HUSAR_DEFAULTS},
                           players=(2,), dummy="dummy"), check=False)
