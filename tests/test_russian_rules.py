"""The remaining rule gaps of the Russian presets and the rules engine, each a data-driven option
tested both ways, with its source quoted:

1. misère half with the sitting-out 4-player dealer (``misere_partner``, deal field ``partner``):
   Кодекс 3.6.9 / fn43 (RUSSIAN-VARIANTS.md §1.5);
2. the dealer's fine after the third all-pass in a row (``allpass.dealer_fine``): OPR p.7
   (RUSSIAN-VARIANTS.md §5, §9.4 item 3);
3. exit levels after dark passes (``allpass.dark_exit``): Кодекс 3.7.7 and 3.3.19а
   (RUSSIAN-VARIANTS.md §1.6, §5);
4. ``here_rule: first-or-second``: seed 004 (RULES.md §2.1);
5. checked tens (``tens: checked``) in the engine and the scorer: seed 003, Кодекс fn39;
6. every option of the Russian family is read somewhere.
"""
from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st

from prefcli.rules.engine import exit_levels, conventions, replay_deal
from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules
from prefcli.scoring import ScoringError
from prefcli.settle import settle_sheet
from prefcli.rules.canonical import record_to_data
from russian_helpers import P3, P4, flat, run
from helpers import PS, W, problems, rec


def one(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    probs = problems(deals, variant, players, **rules)
    assert len(probs) == 1, [p.message for p in probs]
    return probs[0]


def clean(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    probs = problems(deals, variant, players, **rules)
    assert probs == [], [p.message for p in probs]


# =============================================================================================
# 1. Misère half with the 4-player dealer (Кодекс 3.6.9)
# =============================================================================================
# Кодекс 3.6.9: "Игрок может пригласить сдающего (сидящего на прикупе и не участвующего в игре)
# играть с ним мизер пополам … выигрыш и проигрыш пишется пополам"; fn43: "Величина выигрыша и
# проигрыша для каждого уменьшается в 3 раза по сравнению с обычным мизером, заказанным в
# одиночку". RUSSIAN-VARIANTS.md §1.5: "results are written half each".
# With P4 the first dealer is A: B, C, D play; B declares, A shares.

MIS_MADE = {"contract": "misere", "declarer": "B", "partner": "A", "tricks": {"B": 0, "C": 5, "D": 5}}
MIS_DOWN = {"contract": "misere", "declarer": "B", "partner": "A", "tricks": {"B": 2, "C": 4, "D": 4}}


def _solo(deal):
    return {k: v for k, v in deal.items() if k != "partner"}


def test_misere_half_made_writes_half_each():
    assert flat(run([MIS_MADE], players=P4)) == {"pool.A": 5, "pool.B": 5}
    assert flat(run([_solo(MIS_MADE)], players=P4)) == {"pool.B": 10}


def test_misere_half_failed_writes_half_each():
    assert flat(run([MIS_DOWN], players=P4)) == {"mountain.A": 10, "mountain.B": 10}
    assert flat(run([_solo(MIS_DOWN)], players=P4)) == {"mountain.B": 20}


@pytest.mark.parametrize("deal", [MIS_MADE, MIS_DOWN], ids=["made", "failed"])
def test_misere_half_is_three_times_smaller_at_settlement(deal):
    """fn43: each partner's win or loss is 3 times smaller than a solo misère's."""
    half = run([deal], players=P4)
    solo = run([_solo(deal)], players=P4)
    net_half = settle_sheet(half.sheet(), half.rules).net
    net_solo = settle_sheet(solo.sheet(), solo.rules).net
    assert net_solo["B"] == 3 * net_half["B"] != 0
    assert net_half["A"] == net_half["B"]
    # the catchers lose (or win) the same in both
    assert net_half["C"] == net_solo["C"] and net_half["D"] == net_solo["D"]


def test_misere_half_splits_the_catchers_whists_and_consolation():
    """Whists written on the declarer are also a loss shared half each; the partner (the dealer)
    writes no consolation himself."""
    sets = [("misere_whists", 5), ("consolation_on_misere", True)]
    # solo: each catcher writes 2 × 5 whists, and the consolation 2 × 10 (the dealer A too)
    assert flat(run([_solo(MIS_DOWN)], players=P4, sets=sets)) == {
        "mountain.B": 20, "whists.C.B": 30, "whists.D.B": 30, "whists.A.B": 20}
    assert flat(run([MIS_DOWN], players=P4, sets=sets)) == {
        "mountain.A": 10, "mountain.B": 10,
        "whists.C.A": 15, "whists.C.B": 15, "whists.D.A": 15, "whists.D.B": 15}


def test_misere_half_no_talon_bonus_for_the_partner():
    """fn44: "Прикупщик уже наказан за плохой прикуп, так как несёт солидарную ответственность
    с мизерящим" — the dealer writes nothing on his own partner for the talon."""
    sets = [("talon_bonus", True), ("talon_bonus_misere", "sevens")]
    deal = dict(MIS_MADE, talon="7S 8S")
    assert flat(run([_solo(deal)], players=P4, sets=sets)) == {"pool.B": 10, "whists.A.B": 20}
    assert flat(run([deal], players=P4, sets=sets)) == {"pool.A": 5, "pool.B": 5}


def test_misere_half_with_help():
    """Each half goes through the pool's help like any pool entry (Кодекс 4.2.3)."""
    res = run([MIS_MADE], players=P4, start={"pool": {"A": 18}})
    # A's pool closes at 20; his other 3 points help the larger open pool: B (5) — 10 whists each
    assert flat(res) == {"pool.A": 20, "pool.B": 8, "whists.A.B": 30}


@pytest.mark.parametrize("deal,players,sets,why", [
    (MIS_MADE, P4, [("misere_partner", False)], "misere_partner"),
    (dict(MIS_MADE, partner="C"), P4, [], "C is not the dealer of this deal (A)"),
    ({"contract": "6S", "declarer": "B", "partner": "A", "whist": {"C": PS, "D": PS}}, P4, [],
     "only a misère is played half"),
    ({"contract": "misere", "declarer": "B", "partner": "A", "tricks": {"B": 0, "C": 5, "A": 5}}, P3, [],
     "needs four players"),
])
def test_misere_half_refused(deal, players, sets, why):
    with pytest.raises(ScoringError) as info:
        run([deal], players=players, sets=sets)
    assert info.value.message.startswith("deal 1: partner:")
    assert why in info.value.message
    assert info.value.path == ("deals", 0, "partner")


def test_engine_checks_the_partner():
    players = ("Ann", "Bob", "Cid", "Dan")          # Ann deals the first deal
    ok = {"contract": "misere", "declarer": "Bob", "partner": "Ann", "tricks": {"Bob": 0, "Cid": 5, "Dan": 5}}
    clean([ok], players=players)
    p = one([dict(ok, partner="Cid")], players=players)
    assert p.path == ("deals", 0, "partner") and "not the dealer" in p.message
    p = one([ok], players=players, misere_partner=False)
    assert "misere_partner" in p.message
    # on a full deal the replay checks it too
    full = dict(ok, auction=["misere", "pass", "pass"])
    clean([full], players=players)
    p = one([dict(full, partner="Dan")], players=players)
    assert p.path == ("deals", 0, "partner")


def test_partner_round_trips_through_the_writer_and_the_schema(tmp_path, run):
    r = rec([{"contract": "misere", "declarer": "Bob", "partner": "Ann",
              "tricks": {"Bob": 0, "Cid": 5, "Dan": 5}}], players=("Ann", "Bob", "Cid", "Dan"))
    data = record_to_data(r)
    assert data["deals"][0]["partner"] == "Ann"
    assert list(data["deals"][0]).index("partner") > list(data["deals"][0]).index("declarer")
    f = tmp_path / "half.yaml"
    import yaml
    f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    code, out, err = run(["validate", str(f)])
    assert code == 0, err
    code, out, err = run(["score", str(f), "--format", "json"])
    assert code == 0, err


def test_convert_keeps_or_drops_the_partner():
    from prefcli.app.convert import convert_record
    r = rec([{"contract": "misere", "declarer": "Bob", "partner": "Ann",
              "tricks": {"Bob": 0, "Cid": 5, "Dan": 5}}], "classic", players=("Ann", "Bob", "Cid", "Dan"))
    conv = convert_record(r, "sochi")
    assert conv.record.deals[0].partner == "Ann"
    assert not [i for i in conv.items if i.field == "partner"]
    conv = convert_record(r, "lithuanian")
    assert conv.record.deals[0].partner is None
    lost = [i for i in conv.items if i.field == "partner"]
    assert len(lost) == 1 and lost[0].loss and "Bob plays it alone" in lost[0].what


# =============================================================================================
# 2. The dealer's fine after the third all-pass in a row (OPR p.7)
# =============================================================================================
# RUSSIAN-VARIANTS.md §9.4 item 3 [OPR p.7]: "Repeated raspasy: the second costs ×2 per trick,
# the third ×4. Then the deal passes, and the dealer may be fined up to 10 into gora"; §5:
# "после третьей … сдатчика «могут наказать штрафом до 10 очков в гору»".

AP = {"contract": "all-pass", "tricks": {"A": 4, "B": 3, "C": 3}}
SEVEN = {"contract": "7S", "declarer": "A", "whist": {"B": PS, "C": PS}}


def test_dealer_fine_after_third_all_pass_classic():
    # Classic: the same dealer (A) deals again; trick prices 1, 2, 4 (amnesty 3): A 1+2+4
    deals = [AP, AP, AP, SEVEN]
    assert flat(run(deals, variant="classic")) == {"mountain.A": 7, "pool.A": 4}
    res = run(deals, variant="classic", sets=[("allpass.dealer_fine", 10)])
    assert flat(res) == {"mountain.A": 7 + 10, "pool.A": 4}
    fines = [e for e in res.ledger.entries if e.rule == "allpass.dealer-fine"]
    assert [(e.deal, e.player, e.amount) for e in fines] == [(3, "A", 10)]


def test_dealer_fine_not_before_the_third_and_again_at_the_sixth():
    assert flat(run([AP, AP], variant="classic", sets=[("allpass.dealer_fine", 10)])) == {"mountain.A": 3}
    res = run([AP] * 6, variant="classic", sets=[("allpass.dealer_fine", 5)])
    assert [e.deal for e in res.ledger.entries if e.rule == "allpass.dealer-fine"] == [3, 6]
    # a game in between starts the count again
    res = run([AP, AP, SEVEN, AP], variant="classic", sets=[("allpass.dealer_fine", 10)])
    assert not [e for e in res.ledger.entries if e.rule == "allpass.dealer-fine"]


def test_dealer_fine_four_players_sitting_out_dealer():
    ap4 = {"contract": "all-pass", "tricks": {"B": 4, "C": 3, "D": 3}}
    res = run([ap4] * 3, players=P4, variant="classic", sets=[("allpass.dealer_fine", 10)])
    fines = [(e.deal, e.player, e.amount) for e in res.ledger.entries if e.rule == "allpass.dealer-fine"]
    assert fines == [(3, "A", 10)]


def test_dealer_fine_default_is_off_in_every_preset():
    for name in ("sochi", "leningrad", "rostov", "classic"):
        assert resolve_rules({"variant": name})["allpass.dealer_fine"] == 0


# =============================================================================================
# 3. Exit levels after dark passes (Кодекс 3.7.7, 3.3.19а)
# =============================================================================================
# Кодекс 3.7.7: "Выйти из распасовки после паса втёмную можно семерной игрой, а из двойной
# распасовки – восьмерной и т. д."; 3.3.19а: "Перебить пас втёмную можно только семерной игрой
# … перебить повторный пас втёмную можно только восьмерной игрой."

APX = {"contract": "all-pass", "tricks": {"Ann": 3, "Bob": 3, "Cid": 4}}
DARK_APX = dict(APX, dark=True)


def game(contract):
    if contract == "misere":      # nobody whists a misère (seed 001 l.121-122 "Мизер | нет обязательств")
        return {"contract": contract, "declarer": "Cid", "tricks": {"Cid": 0, "Ann": 5, "Bob": 5}}
    return {"contract": contract, "declarer": "Cid", "whist": {"Ann": PS, "Bob": PS}}


def test_exit_after_one_dark_all_pass_is_seven_even_in_sochi_with_dark():
    clean([DARK_APX, game("6S")], allpass={"exit": [6, 6, 6]})      # dark = no: no dark floor
    p = one([DARK_APX, game("6S")], dark=True)
    assert p.path == ("deals", 1, "contract") and "at least 7" in p.message
    clean([DARK_APX, game("7S")], dark=True)
    # a plain all-pass ends the dark run
    clean([DARK_APX, APX, game("6S")], dark=True)
    # dark_exit [] = no dark floor
    clean([DARK_APX, game("6S")], dark=True, allpass={"dark_exit": []})


def test_exit_after_a_double_dark_all_pass_is_eight():
    p = one([DARK_APX, DARK_APX, game("7S")], variant="classic")
    assert p.path == ("deals", 2, "contract") and "at least 8" in p.message
    clean([DARK_APX, DARK_APX, game("8S")], variant="classic")
    clean([DARK_APX, DARK_APX, game("misere")], variant="classic")    # misère ranks above 8NT
    levels = exit_levels(rec([DARK_APX, DARK_APX, DARK_APX, game("9S")], "classic"),
                         conventions(resolve_rules({"variant": "classic"})))
    assert levels == {0: 0, 1: 7, 2: 8, 3: 9}


def test_dark_pass_in_the_auction_makes_a_dark_all_pass():
    """3.3.19а "пас втёмную. В случае, если после такой заявки произойдёт распасовка": an
    all-pass whose auction holds a dark pass is a dark all-pass (price doubled, exit 7 → 8 …)."""
    dark_auction = {"dealer": "Ann", "auction": ["dark pass", "pass", "pass"], "contract": "all-pass",
                    "tricks": {"Ann": 3, "Bob": 3, "Cid": 4}}
    p = one([dark_auction, dict(dark_auction, dealer="Ann"), game("7S")], variant="classic")
    assert "at least 8" in p.message
    # the scorer doubles the trick price just as for dark: true (Classic progression 1, 2, 4)
    res = run([{"auction": ["dark pass", "pass", "pass"], "contract": "all-pass",
                "tricks": {"A": 4, "B": 3, "C": 3}}], variant="classic")
    assert flat(res) == {"mountain.A": 2}


def test_dark_pass_in_the_auction_raises_the_floor():
    """3.3.19а: after a dark pass only a 7 outbids it; after a repeated one only an 8."""
    p = one([{"dealer": "Ann", "auction": ["dark pass", "6S", "pass"], "contract": "6S", "declarer": "Cid",
              "whist": {"Ann": PS, "Bob": PS}}], variant="classic")
    assert p.path == ("deals", 0, "auction", 1)
    assert "after a dark pass only a 7 or higher outbids it" in p.message
    clean([{"dealer": "Ann", "auction": ["dark pass", "7S", "pass"], "contract": "7S", "declarer": "Cid",
            "whist": {"Ann": PS, "Bob": PS}}], variant="classic")
    # the dealer deals again in Classic; a repeated dark pass: only an 8
    deals = [dict(DARK_APX, dealer="Ann"),
             {"dealer": "Ann", "auction": ["dark pass", "7S", "pass"], "contract": "7S", "declarer": "Cid",
              "whist": {"Ann": PS, "Bob": PS}}]
    p = one(deals, variant="classic")
    assert p.path == ("deals", 1, "auction", 1) and "only a 8 or higher" in p.message


def test_scorer_notes_the_dark_exit_level():
    dark = {"contract": "all-pass", "dark": True, "tricks": {"A": 4, "B": 3, "C": 3}}
    notes = run([dark, dark, SEVEN], variant="classic").notes
    assert notes == ["deal 3: 7S after 2 all-pass deal(s) is below the exit level 8 "
                     "(allpass.dark_exit, after 2 dark all-pass deal(s))"]
    assert run([dark, dark, SEVEN], variant="classic", sets=[("allpass.dark_exit", [])]).notes == []
    assert run([dark, AP, SEVEN], variant="classic").notes == []


def test_scorer_exit_counts_only_the_all_passes_right_before():
    """The engine's exit_levels resets after any deal; the scorer's note does the same, even
    when the progression series runs on (allpass.progression_reset: made-game)."""
    down = {"contract": "7S", "declarer": "A", "whist": {"B": W, "C": W}, "tricks": {"A": 5, "B": 3, "C": 2}}
    six = {"contract": "6S", "declarer": "A", "whist": {"B": PS, "C": PS}}
    res = run([AP, down, six], variant="classic", sets=[("allpass.progression_reset", "made-game")])
    assert res.notes == []


# =============================================================================================
# 4. here_rule: first-or-second (seed 004)
# =============================================================================================
# RULES.md §2.1: "in seed 004 the second player may say 'here' if the first did not use it";
# seed 004: "jei liks du derybininkai, jis gali pakartoti ankstesnio eilę žodžiu „ČIA“".
# Ann deals: Bob is the first hand, Cid the second, Ann the third.

def auc(calls, contract, declarer):
    order = ["Bob", "Cid", "Ann"]
    i = order.index(declarer)
    return {"dealer": "Ann", "auction": calls, "contract": contract, "declarer": declarer,
            "whist": {order[(i + 1) % 3]: PS, order[(i + 2) % 3]: PS}}


def test_second_hand_says_here_after_the_first_passed():
    deal = auc(["pass", "6S", "6C", "here", "pass"], "6C", "Cid")
    p = one([deal])                                             # first-hand (the Кодекс, seed 001)
    assert p.path == ("deals", 0, "auction", 3) and "only the first hand (Bob)" in p.message
    clean([deal], here_rule="first-or-second")
    clean([deal], here_rule="any")


def test_second_hand_may_not_say_here_while_the_first_is_in():
    deal = auc(["6S", "6C", "pass", "6D", "here", "pass"], "6D", "Cid")
    p = one([deal], here_rule="first-or-second")
    assert p.path == ("deals", 0, "auction", 4)
    assert "here_rule: first-or-second" in p.message
    clean([deal], here_rule="any")


def test_second_hand_may_not_say_here_once_the_first_used_it():
    deal = auc(["6S", "6C", "6D", "here", "6H", "7S", "pass", "here", "pass"], "7S", "Cid")
    # the auction jumps 6H → 7S: bid_jumps set explicitly (the Russian presets forbid jumps)
    p = one([deal], here_rule="first-or-second", bid_jumps=True)
    assert p.path == ("deals", 0, "auction", 7)
    clean([deal], here_rule="any", bid_jumps=True)


def test_third_hand_never_says_here_under_first_or_second():
    clean([auc(["pass", "6S", "6C", "here", "6D", "here", "pass"], "6D", "Cid")], here_rule="first-or-second")
    deal = auc(["pass", "6S", "6C", "7S", "here", "pass"], "7S", "Ann")
    # 6C → 7S is a jump: bid_jumps set explicitly (the Russian presets forbid jumps)
    p = one([deal], here_rule="first-or-second", bid_jumps=True)
    assert p.path == ("deals", 0, "auction", 4) and "Ann said here" in p.message
    clean([deal], here_rule="any", bid_jumps=True)


# =============================================================================================
# 5. Checked tens (seed 003 "gra dziesiątki jest sprawdzana"; Кодекс fn39 "десятерная
#    «проверяется»")
# =============================================================================================

TEN_HANDS = {
    "Bob": "AS KS QS JS 10S 9S 8S 7S AH KH",
    "Cid": "QH JH 10H 9H 8H 7H AD KD QD JD",
    "Ann": "10D 9D 8D 7D AC KC QC JC 10C 9C",
}
TEN_PLAY = ["AS QH 10D", "KS JH 9D", "QS AD 8D", "JS KD 7D", "10S QD AC", "9S JD KC",
            "8S 10H QC", "7S 9H JC", "AH 8H 10C", "KH 7H 9C"]
# Bob keeps QH instead of KH: Cid's KH wins the last trick
TEN_DOWN_HANDS = {
    "Bob": "AS KS QS JS 10S 9S 8S 7S AH QH",
    "Cid": "KH JH 10H 9H 8H 7H AD KD QD JD",
    "Ann": "10D 9D 8D 7D AC KC QC JC 10C 9C",
}
TEN_DOWN_PLAY = ["AS JD 10D", "KS QD 9D", "QS KD 8D", "JS AD 7D", "10S JH AC", "9S 10H KC",
                 "8S 9H QC", "7S 8H JC", "AH 7H 10C", "QH KH 9C"]


def ten(hands=TEN_HANDS, play=TEN_PLAY, **over):
    d = {"dealer": "Ann", "hands": dict(hands), "talon": "8C 7C", "auction": ["10S", "pass", "pass"],
         "discard": "8C 7C", "contract": "10S", "declarer": "Bob", "whist": {"Cid": PS, "Ann": PS},
         "play": list(play) if play is not None else None}
    d.update(over)
    return {k: v for k, v in d.items() if v is not None}


def test_checked_ten_needs_no_play_but_may_be_played_out():
    # whisted tens (the Кодекс, 3.5.3): both passed, so a play is an error
    p = one([ten()])
    assert "not played" in p.message
    # checked: no whist, so no play is needed; a play given to check it is replayed and fine
    clean([ten()], tens="checked")
    clean([ten(play=None)], tens="checked")
    r = rec([ten()], "sochi", tens="checked")
    rep = replay_deal(r, r.deals[0], resolve_rules(r.rules))
    assert rep.ok and rep.counts == {"Bob": 10, "Cid": 0, "Ann": 0}


def test_checked_ten_play_is_still_checked_for_legality():
    bad = list(TEN_PLAY)
    bad[1] = "KS QH 9D"          # QH went in trick 1
    p = one([ten(play=bad)], tens="checked")
    assert p.kind == "play" and p.path == ("deals", 0, "play", 1, 1)
    assert "Cid played QH, which was already played in trick 1" in p.message


def _score_ten(hands, play, **sets):
    players = ["Ann", "Bob", "Cid"]
    data = {"format": "pref-record/1", "players": players,
            "rules": {"variant": "sochi", "tens": "checked", **sets},
            "deals": [ten(hands, play)]}
    r = record_from_data(data, strict=True)
    from prefcli.scoring import score
    return flat(score(r, resolve_rules(r.rules)))


def test_checked_ten_scored_from_its_play_both_ways():
    """checked_ten_fail (PRESETS.md): "with tens: checked, a failed ten writes: mountain-only /
    usual"; the tricks come from the replayed play when no tricks are written."""
    assert _score_ten(TEN_HANDS, TEN_PLAY) == {"pool.Bob": 10}
    assert _score_ten(TEN_DOWN_HANDS, TEN_DOWN_PLAY) == {"mountain.Bob": 10}
    assert _score_ten(TEN_DOWN_HANDS, TEN_DOWN_PLAY, checked_ten_fail="usual") == {
        "mountain.Bob": 10, "whists.Cid.Bob": 10 + 10, "whists.Ann.Bob": 10}


@pytest.mark.parametrize("value,expected", [
    ("mountain-only", {"mountain.A": 20}),
    ("usual", {"mountain.A": 20, "whists.B.A": 10 + 20, "whists.C.A": 10 + 20}),
])
def test_checked_ten_fail_summary_both_ways(value, expected):
    deal = {"contract": "10S", "declarer": "A", "tricks": {"A": 8, "B": 1, "C": 1}}
    assert flat(run([deal], sets=[("tens", "checked"), ("checked_ten_fail", value)])) == expected


def test_validate_needs_no_tricks_for_a_checked_ten(tmp_path, run):
    def validate(tens):
        f = tmp_path / f"ten-{tens}.yaml"
        f.write_text("format: pref-record/1\nplayers: [A, B, C]\n"
                     f"rules: {{variant: sochi, tens: {tens}}}\n"
                     "deals:\n  - {contract: 10S, declarer: A, whist: {B: whist, C: pass}}\n",
                     encoding="utf-8")
        return run(["validate", str(f)])
    code, out, err = validate("whisted")                     # the Кодекс 3.5.3: a ten is whisted
    assert code == 1 and "tricks are needed" in err
    code, out, err = validate("checked")
    assert code == 0, err


def test_checked_ten_unplayed_is_made():
    deal = {"contract": "10NT", "declarer": "A", "whist": {"B": PS, "C": PS}}
    res = run([deal], sets=[("tens", "checked")])
    assert flat(res) == {"pool.A": 10}
    assert [e.rule for e in res.ledger.entries] == ["ten.checked"]


# =============================================================================================
# 6. Every option of the Russian family is read by the scorer, the engine, the seating or the
#    settlement (an option that is defined but never read would change nothing)
# =============================================================================================

# (Every option of every preset changing an outcome: tests/test_options_behaviour.py, which
# flips each one against records and auctions instead of searching the source for its name.)


# ---------------------------------------------------------------------------------------------
# Property: "выигрыш и проигрыш пишется пополам" (Кодекс 3.6.9) — the two halves add up to the
# solo misère's entries, whatever the misère's options
# ---------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(taken=st.integers(0, 10), c_tricks=st.integers(0, 10), misere_whists=st.integers(0, 10),
       consolation=st.booleans(), fail=st.integers(1, 3), dark=st.booleans())
def test_misere_halves_add_up_to_the_solo_misere(taken, c_tricks, misere_whists, consolation, fail, dark):
    c = min(c_tricks, 10 - taken)
    deal = {"contract": "misere", "declarer": "B", "partner": "A",
            "tricks": {"B": taken, "C": c, "D": 10 - taken - c}, "dark": dark}
    sets = [("misere_whists", misere_whists), ("consolation_on_misere", consolation),
            ("misere_fail", fail), ("consolation_to", "defenders"), ("dark", True), ("help", "none")]
    half = flat(run([deal], players=P4, sets=sets))
    solo = flat(run([_solo(deal)], players=P4, sets=sets))
    for area in ("pool", "mountain"):
        assert half.get(f"{area}.A", 0) == half.get(f"{area}.B", 0)
        assert half.get(f"{area}.A", 0) + half.get(f"{area}.B", 0) == solo.get(f"{area}.B", 0)
    for w in ("C", "D"):
        assert half.get(f"whists.{w}.A", 0) == half.get(f"whists.{w}.B", 0)
        assert half.get(f"whists.{w}.A", 0) + half.get(f"whists.{w}.B", 0) == solo.get(f"whists.{w}.B", 0)
    assert not any(k.startswith("whists.A.") for k in half)     # the partner writes nothing on B
