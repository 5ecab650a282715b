"""Rules fidelity, round 2 (issue 12), items 7, 9 and 10: misère without the talon, "be visų"
and irregularities as rules. Each rule as the seed's text states it, the seed and line named
beside its test, each choice a preset option (``prefcli variants NAME`` shows it)."""
from __future__ import annotations


import pytest

from prefcli.model.build import record_from_data
from prefcli.rules.presets import get_preset, resolve_rules
from prefcli.rules.conventions import conventions
from russian_helpers import run, sheet_of as _sheet_of
from helpers import PS, RUSSIAN, W, rec


def problems(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    r = rec(deals, variant, players, **rules)
    from prefcli.rules.context import RecordContext
    ctx = RecordContext(r, resolve_rules(r.rules))
    return [p for reading in ctx.readings() for p in reading.problems]


def messages(deals, variant="sochi", players=("Ann", "Bob", "Cid"), **rules):
    return [p.message for p in problems(deals, variant, players, **rules)]


def sheet_of(deals, players=("Ann", "Bob", "Cid"), **kw):
    return _sheet_of(deals, players=list(players), **kw)


def variants_line(variant: str, option: str, capsys) -> str:
    from prefcli.cli.main import main
    assert main(["variants", variant]) == 0
    out = capsys.readouterr().out
    return next(x for x in out.splitlines() if x.split() and x.split()[0] == option)


# =============================================================================================
# item 9: "be visų"
# seed 004 l.198 "Žaidėjas privalo užsisakyti ne žemesnę sutartį, nei ta, kurią jis pasiekė
# prekybos proceso metu." l.200 "Jei žaidėjas pateikia pavedimą, kuris prieštarauja pagrindinėms
# taisyklėms (sutartis, mažesnė už prekyboje padarytą pavedimą; menka suma po dalyvavimo
# prekyboje su kitais pavedimais) … Jei žaidėjas nenori keisti pavedimo, jam įskaitoma «be visų»
# nuolaida žaidime, kurį jis pasiekė prekybos proceso metu."
# Recorded: the bid reached (bid:), the declaration kept (contract:), without_all: true.
# Scored: a remise of the bid reached with none of its tricks: level × price × declarer_fail_multiplier
# to the mountain; unplayed and unwhisted, so no trick whists; the consolation for the missing
# tricks as on any remise.
# =============================================================================================

def _kept(contract="6S", bid="7S", **more):
    return {"bid": bid, "contract": contract, "declarer": "Bob", "without_all": True, **more}


@pytest.mark.parametrize("variant", RUSSIAN)
def test_seed004_l200_be_visu_is_played_in_every_russian_preset(variant):
    assert get_preset(variant).values["without_all"] is True
    assert messages([_kept()], variant) == []


def test_seed004_l200_be_visu_numbers():
    # sochi: 7♠ reached (price 4), 6♠ kept: down all 7 → Bob's mountain 7 × 4 = 28; nobody
    # whisted, so no trick whists; consolation 7 × 4 = 28 by each defender (consolation_to: all)
    assert sheet_of([_kept()]) == {"mountain.Bob": 28, "whists.Ann.Bob": 28, "whists.Cid.Bob": 28}
    # leningrad: declarer_fail_multiplier 2 → 7 × 4 × 2 = 56; consolation price × whist_multiplier
    # = 4 × 2 = 8 a trick → 56 each
    assert sheet_of([_kept()], variant="leningrad") == {
        "mountain.Bob": 56, "whists.Ann.Bob": 56, "whists.Cid.Bob": 56}
    # rostov: the fixed consolation 10 a trick → 70 each; the mountain 7 × 4 = 28
    assert sheet_of([_kept()], variant="rostov") == {
        "mountain.Bob": 28, "whists.Ann.Bob": 70, "whists.Cid.Bob": 70}
    # a misère after other bids (seed 004 l.200 "menka suma po dalyvavimo prekyboje su kitais
    # pavedimais"): 6♠ reached (price 2) → 6 × 2 = 12, consolation 6 × 2 = 12 each
    assert sheet_of([_kept("misere", "6S")]) == {"mountain.Bob": 12, "whists.Ann.Bob": 12, "whists.Cid.Bob": 12}
    # consolation_to: whisters → nobody whisted, nobody writes it
    assert sheet_of([_kept()], consolation_to="whisters") == {"mountain.Bob": 28}


def test_seed004_l200_be_visu_explained():
    res = run([_kept()], players=["Ann", "Bob", "Cid"])
    rules = [(e.player, e.rule, e.amount) for e in res.ledger.entries]
    assert ("Bob", "without-all", 28) in rules
    text = next(e.text for e in res.ledger.entries if e.rule == "without-all")
    assert "be visų" in text and "7S" in text


def test_seed004_l200_be_visu_only_for_a_declaration_against_the_rules():
    # a legal declaration (8♠ over the bid 7♠) has nothing to keep against the rules: refused
    msgs = messages([_kept("8S", "7S")])
    assert len(msgs) == 1 and "is a legal declaration" in msgs[0]
    # the level reached is needed
    probs = problems([{"contract": "6S", "declarer": "Bob", "without_all": True}])
    assert len(probs) == 1 and probs[0].path == ("deals", 0, "without_all") and "bid:" in probs[0].message
    # nothing is whisted or played
    probs = problems([_kept(whist={"Cid": W, "Ann": PS}, tricks={"Bob": 3, "Cid": 4, "Ann": 3})])
    assert sorted(p.path for p in probs) == [("deals", 0, "tricks"), ("deals", 0, "whist")]
    # an all-pass has no declaration
    msgs = messages([{"contract": "all-pass", "without_all": True, "tricks": {"Ann": 3, "Bob": 3, "Cid": 4}}])
    assert any("an all-pass deal has no declaration" in m for m in msgs)
    # without the option the same deal is refused
    msgs = messages([_kept()], without_all=False)
    assert len(msgs) == 1 and "option without_all" in msgs[0]
    # the Lithuanian families (seeds 000, 002) have no such rule
    msgs = messages([{"bid": "7S", "contract": "6S", "declarer": "E", "without_all": True}],
                    "lithuanian", ("N", "E", "S"))
    assert any("option without_all" in m for m in msgs)


def test_seed004_l200_be_visu_with_the_auction():
    # Bob (first hand, dealer Ann) 6♠ … 7♠ wins; he names 6♠ and keeps it
    deal = {"dealer": "Ann", "auction": ["6S", "pass", "6C", "here", "6D", "here", "6H", "here", "6NT", "7S", "pass"],
            "bid": "7S", "contract": "6S", "declarer": "Bob", "without_all": True}
    assert messages([deal]) == []
    assert sheet_of([deal])["mountain.Bob"] == 28


# seed 004 l.210 "Įpirką paėmęs žaidėjas negali «pasiduoti be kovos», išskyrus pripažinimą, kad
# liko «be visų» ir turi sužaisti pavydėtiną žaidimą iki galo." The one concession: the contract
# named, given up without all its tricks (concede: true beside without_all: true), scored as the
# l.200 "be visų" at the contract's own level; otherwise he plays it out (without_three: no).

def _conceded(contract="7H", **more):
    return {"contract": contract, "declarer": "Bob", "concede": True, "without_all": True, **more}


@pytest.mark.parametrize("variant", RUSSIAN)
def test_seed004_l210_conceding_be_visu_is_the_only_concession(variant):
    assert messages([_conceded()], variant) == []
    # "negali pasiduoti be kovos": no other concession ("without three" is seed 003's, off here)
    assert get_preset(variant).values["without_three"] is False
    msgs = messages([{"contract": "7H", "declarer": "Bob", "concede": True}], variant)
    assert len(msgs) == 1 and "option without_three" in msgs[0]


def test_seed004_l210_conceding_be_visu_numbers():
    # sochi: 7♥ (price 4) conceded without all its 7 tricks → Bob's mountain 7 × 4 = 28; the
    # consolation 7 × 4 = 28 from each defender (consolation_to: all); no trick whists
    assert sheet_of([_conceded()]) == {"mountain.Bob": 28, "whists.Ann.Bob": 28, "whists.Cid.Bob": 28}
    # 6♠ (price 2): 6 × 2 = 12; 8♠ (price 6) named over the bid 7♠ (a legal declaration): 8 × 6 = 48
    assert sheet_of([_conceded("6S")]) == {"mountain.Bob": 12, "whists.Ann.Bob": 12, "whists.Cid.Bob": 12}
    assert sheet_of([_conceded("8S", bid="7S")]) == {"mountain.Bob": 48, "whists.Ann.Bob": 48,
                                                      "whists.Cid.Bob": 48}
    # leningrad: declarer_fail_multiplier 2 and whist_multiplier 2 → 7 × 4 × 2 = 56 each
    assert sheet_of([_conceded()], variant="leningrad") == {
        "mountain.Bob": 56, "whists.Ann.Bob": 56, "whists.Cid.Bob": 56}
    # rostov: the fixed consolation 10 a trick → 70 each, the mountain 7 × 4 = 28
    assert sheet_of([_conceded()], variant="rostov") == {
        "mountain.Bob": 28, "whists.Ann.Bob": 70, "whists.Cid.Bob": 70}
    # a conceded declaration against the rules (6♠ after the bid 7♠) is l.200's, at the bid reached
    assert sheet_of([_conceded("6S", bid="7S")]) == sheet_of([_kept()])
    # 4 players: the sitting-out dealer writes the consolation too (consolation_to: all)
    assert sheet_of([dict(_conceded(), dealer="Dan")], players=("Ann", "Bob", "Cid", "Dan")) == {
        "mountain.Bob": 28, "whists.Ann.Bob": 28, "whists.Cid.Bob": 28, "whists.Dan.Bob": 28}
    # two players with a dummy (the husar presets keep the option): the one opponent writes it
    assert sheet_of([_conceded()], players=("Ann", "Bob"), variant="sochi-husar") == {
        "mountain.Bob": 28, "whists.Ann.Bob": 28}


def test_seed004_l210_conceding_be_visu_explained():
    res = run([_conceded()], players=["Ann", "Bob", "Cid"])
    (entry,) = [e for e in res.ledger.entries if e.rule == "without-all"]
    assert (entry.player, entry.amount) == ("Bob", 28)
    assert entry.text == "7H conceded: be visų, down 7 × 4"


def test_seed004_l210_conceding_be_visu_refusals():
    # an answer instead of playing the whisted game out ("turi sužaisti pavydėtiną žaidimą iki
    # galo"): the whist decisions may be written (and are checked), nothing is played or claimed,
    # and the sheet is the same: no trick whists
    assert messages([_conceded(whist={"Cid": W, "Ann": PS})]) == []
    assert sheet_of([_conceded(whist={"Cid": W, "Ann": PS})]) == sheet_of([_conceded()])
    probs = problems([_conceded(whist={"Cid": W, "Dan": PS})])
    assert [p.path for p in probs] == [("deals", 0, "whist", "Dan")]
    probs = problems([_conceded(whist={"Cid": W, "Ann": PS}, tricks={"Bob": 3, "Cid": 4, "Ann": 3})])
    assert [p.path for p in probs] == [("deals", 0, "tricks")]
    assert 'conceded "be visų" (concede, without_all) is not played' in probs[0].message
    probs = problems([_conceded(claim={"Bob": 0})])
    assert [p.path for p in probs] == [("deals", 0, "claim")]
    # a misère has no tricks to give up
    probs = problems([_conceded("misere")])
    assert len(probs) == 1 and probs[0].path == ("deals", 0, "concede") and "seed 004 l.210" in probs[0].message
    # beside an auction the bid reached is written, so a contract below it is never read as legal
    deal = {"dealer": "Ann", "auction": ["6S", "pass", "6C", "here", "6D", "here", "6H", "here", "6NT", "7S", "pass"],
            "contract": "6S", "declarer": "Bob", "concede": True, "without_all": True}
    msgs = messages([deal])
    assert len(msgs) == 1 and "bid:" in msgs[0]
    assert messages([dict(deal, bid="7S")]) == [] and sheet_of([dict(deal, bid="7S")])["mountain.Bob"] == 28
    assert messages([dict(deal, bid="7S", contract="7S")]) == []
    assert sheet_of([dict(deal, bid="7S", contract="7S")])["mountain.Bob"] == 28
    # the option off (and the Lithuanian families, which have no be visų): refused
    msgs = messages([_conceded()], without_all=False)
    assert len(msgs) == 1 and "option without_all" in msgs[0]
    msgs = messages([{"contract": "7H", "declarer": "E", "concede": True, "without_all": True}],
                    "lithuanian", ("N", "E", "S"))
    assert any("option without_all" in m for m in msgs)


def test_seed004_l210_conceding_be_visu_reads_back():
    from prefcli.io.writer import record_to_data
    r = rec([_conceded()], "sochi", ("Ann", "Bob", "Cid"))
    data = record_to_data(r)
    assert data["deals"][0]["concede"] is True and data["deals"][0]["without_all"] is True
    assert record_from_data(data, strict=True).deals[0] == r.deals[0]


def test_seed004_l210_conceding_be_visu_converts(tmp_path, capsys):
    from prefcli.cli.main import main
    src = tmp_path / "c.yaml"
    src.write_text("format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi}\n"
                   "deals:\n  - {contract: 7H, declarer: Bob, concede: true, without_all: true}\n", encoding="utf-8")
    # another Russian preset keeps the concession (without_all), though it has no "without three"
    assert main(["convert", str(src), "--variant", "leningrad", "-o", str(tmp_path / "l.yaml")]) == 0
    assert "concede: true" in (tmp_path / "l.yaml").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["convert", str(src), "--variant", "lithuanian", "-o", str(tmp_path / "t.yaml")]) == 1
    assert 'concede: dropped: lithuanian has no "be visų" concession (option without_all)' in capsys.readouterr().err


def test_seed004_l200_be_visu_in_variants_notes_and_writer(capsys):
    line = variants_line("sochi", "without_all", capsys)
    assert line.split()[1] == "yes"
    assert "seed 004 l.196" in get_preset("sochi").family.option("without_all").meaning
    from prefcli.app.notes import notes_to_record
    from prefcli.io.writer import record_to_data
    r = notes_to_record("Bob 6S bid:7S without-all\n", players=["Ann", "Bob", "Cid"])
    d = r.deals[0]
    assert d.without_all and str(d.bid) == "7S" and str(d.contract) == "6S"
    data = record_to_data(r)
    assert data["deals"][0]["without_all"] is True and data["deals"][0]["bid"] == "7S"
    assert record_from_data(data, strict=True).deals[0] == d


# =============================================================================================
# item 10: irregularities as rules, not hand-typed penalties
# seed 001 l.142 "за неправильную сдачу – 2 в гору; за игру без сноса – без двух в гору; при
# неправильном сносе (фальшренонсе) карты, сыгранные после фальшренонса разбираются, разыгрывается
# снова, при этом все разночтения толкуются в ущерб виноватому, противники освобождаются от
# ответственности (даже если бы по игре сделали ремиз), если виновный в ренонсе сыграл свою игру,
# он не пишет ничего, а при ремизе ставит ремиз."
# Dealer Ann (the first dealer): Bob is first hand, then Cid; Bob declares, Cid and Ann defend.
# =============================================================================================

def _irr(kind, by, **deal):
    base = {"contract": "6S", "declarer": "Bob", "whist": {"Cid": PS, "Ann": PS}}
    base.update(deal)
    return {**base, "irregularities": [{"kind": kind, "by": by}]}


@pytest.mark.parametrize("variant", RUSSIAN)
def test_seed001_l142_irregularities_are_preset_data(variant):
    values = get_preset(variant).values
    assert values["irregularities"] is True
    assert values["irregularity.misdeal"] == 2 and values["irregularity.no_discard"] == 2


def test_seed001_l142_misdeal_two_to_the_mountain():
    # "за неправильную сдачу – 2 в гору": the dealer Ann writes 2; the deal dealt again (6♠ by
    # Bob, both passed) is scored as usual: pool 2
    assert sheet_of([_irr("misdeal", "Ann")]) == {"mountain.Ann": 2, "pool.Bob": 2}
    # the same 2 in Leningrad (a fixed number, not a price)
    assert sheet_of([_irr("misdeal", "Ann")], variant="leningrad")["mountain.Ann"] == 2
    # a club that fines 4 says so once, in the preset's table
    assert sheet_of([_irr("misdeal", "Ann")], **{"irregularity": {"misdeal": 4}})["mountain.Ann"] == 4
    # only the dealer misdeals
    probs = problems([_irr("misdeal", "Bob")])
    assert [p.path for p in probs] == [("deals", 0, "irregularities", 0, "by")]
    assert "a misdeal is the dealer's: Ann deals this deal" in probs[0].message


def test_seed001_l142_no_discard_down_two():
    # "за игру без сноса – без двух в гору": 7♥ (price 4) → 2 × 4 = 8 to Bob's mountain and
    # nothing else for the deal
    deal = _irr("no-discard", "Bob", contract="7H", whist={"Cid": W, "Ann": PS})
    assert sheet_of([deal]) == {"mountain.Bob": 8}
    # leningrad: declarer_fail_multiplier 2 → 2 × 4 × 2 = 16
    assert sheet_of([deal], variant="leningrad") == {"mountain.Bob": 16}
    # a misère without the discard: two tricks' worth, 2 × 10 = 20 (leningrad misere_fail 2: 40)
    mis = _irr("no-discard", "Bob", contract="misere", whist={})
    assert sheet_of([mis]) == {"mountain.Bob": 20}
    assert sheet_of([mis], variant="leningrad") == {"mountain.Bob": 40}
    # the tricks do not count, so they are refused; and only the declarer discards
    probs = problems([dict(deal, tricks={"Bob": 7, "Cid": 2, "Ann": 1})])
    assert [p.path for p in probs] == [("deals", 0, "tricks")]
    probs = problems([_irr("no-discard", "Cid")])
    assert [p.path for p in probs] == [("deals", 0, "irregularities", 0, "by")]


def test_seed001_l142_revoke_by_the_declarer():
    both = {"Cid": W, "Ann": W}
    # without the revoke: 6♠ made with 7, Cid 2, Ann 1: pool 2, whists 2 × 2 and 1 × 2, and Ann
    # below her half of the quota (2): (2 − 1) × 2 = 2 to her mountain
    plain = {"contract": "6S", "declarer": "Bob", "whist": both, "tricks": {"Bob": 7, "Cid": 2, "Ann": 1}}
    assert sheet_of([plain]) == {"pool.Bob": 2, "whists.Cid.Bob": 4, "whists.Ann.Bob": 2, "mountain.Ann": 2}
    # Bob revoked and made it: "он не пишет ничего" (no pool); the defenders "освобождаются от
    # ответственности" (no shortfall) and write their whists
    made = _irr("revoke", "Bob", whist=both, tricks={"Bob": 7, "Cid": 2, "Ann": 1})
    res = run([made], players=["Ann", "Bob", "Cid"])
    assert sheet_of([made]) == {"whists.Cid.Bob": 4, "whists.Ann.Bob": 2}
    assert any("Bob revoked and made 6S: he writes nothing" in n for n in res.notes)
    # Bob revoked and failed: "при ремизе ставит ремиз": down 1 × 2 = 2, the whists 3 × 2 and
    # 2 × 2 and the consolation 1 × 2 each, as on any remise
    down = _irr("revoke", "Bob", whist=both, tricks={"Bob": 5, "Cid": 3, "Ann": 2})
    assert sheet_of([down]) == {"mountain.Bob": 2, "whists.Cid.Bob": 6 + 2, "whists.Ann.Bob": 4 + 2}
    rules = [(e.player, e.rule) for e in run([down], players=["Ann", "Bob", "Cid"]).ledger.entries]
    assert ("Bob", "irregularity.revoke") in rules and ("Bob", "contract.failed") not in rules
    # a misère: made with a revoke writes nothing; failed with 2 tricks writes 2 × 10 = 20
    mis_made = _irr("revoke", "Bob", contract="misere", whist={}, tricks={"Bob": 0, "Cid": 5, "Ann": 5})
    assert sheet_of([mis_made]) == {}
    mis_down = _irr("revoke", "Bob", contract="misere", whist={}, tricks={"Bob": 2, "Cid": 4, "Ann": 4})
    assert sheet_of([mis_down]) == {"mountain.Bob": 20}


def test_seed001_l142_revoke_by_a_defender_is_the_corrected_play():
    # the seed states a defender's revoke only as "все разночтения толкуются в ущерб виноватому":
    # the recorded tricks are the corrected play's and score as usual
    deal = _irr("revoke", "Cid", whist={"Cid": W, "Ann": W}, tricks={"Bob": 7, "Cid": 2, "Ann": 1})
    assert sheet_of([deal]) == {"pool.Bob": 2, "whists.Cid.Bob": 4, "whists.Ann.Bob": 2, "mountain.Ann": 2}
    # an unplayed deal has no revoke; an all-pass has no declarer's game
    probs = problems([_irr("revoke", "Bob")])
    assert len(probs) == 1 and "a revoke needs a played deal" in probs[0].message
    ap = {"contract": "all-pass", "tricks": {"Ann": 3, "Bob": 3, "Cid": 4},
          "irregularities": [{"kind": "revoke", "by": "Ann"}]}
    assert any("all-pass" in m for m in messages([ap]))


def test_seed001_l142_irregularities_refused_where_not_stated():
    # the Lithuanian seeds (000, 002) state no irregularity: refused, a penalty stays hand-typed
    deal = {"contract": "all-pass", "tricks": {"N": 3, "E": 3, "S": 4},
            "irregularities": [{"kind": "misdeal", "by": "N"}]}
    msgs = messages([deal], "lithuanian", ("N", "E", "S"))
    assert any("option irregularities" in m for m in msgs)
    # an unknown kind is a located error
    with pytest.raises(Exception) as exc:
        rec([_irr("shuffle", "Ann")])
    assert "misdeal, no-discard, revoke" in str(exc.value)


def test_seed001_l142_explain_notes_writer_and_variants(tmp_path, capsys):
    from prefcli.app.notes import notes_to_record
    from prefcli.cli.main import main
    from prefcli.io.writer import record_to_data
    r = notes_to_record("Bob 6S Cid:p Ann:p misdeal:Ann\nCid 7H Ann:w Bob:p no-discard\n"
                        "Ann 6D Bob:w Cid:w revoke:Ann 5/3/2\n", players=["Ann", "Bob", "Cid"])
    kinds = [[(i.kind, i.by) for i in d.irregularities] for d in r.deals]
    assert kinds == [[("misdeal", "Ann")], [("no-discard", "Cid")], [("revoke", "Ann")]]
    data = record_to_data(r)
    assert data["deals"][0]["irregularities"] == [{"kind": "misdeal", "by": "Ann"}]
    assert record_from_data(data, strict=True).deals == r.deals
    import yaml
    path = tmp_path / "irr.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    assert main(["score", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    # deal 1: misdeal by Ann (dealer Ann); deal 2: Cid 7H without the discard: 2 × 4 = 8;
    # deal 3: Ann 6D revoked and failed with 5: down 1 × 2 = 2, by the revoke rule
    assert "irregularity.misdeal" in out and "misdeal by Ann: 2 to the mountain" in out
    assert "irregularity.no-discard" in out and "7H played without the discard: down 2 × 4" in out
    assert "irregularity.revoke" in out and "revoked, the remise stands: 6D down 1 × 2" in out
    assert variants_line("sochi", "irregularity.misdeal", capsys).split()[1] == "2"
    assert variants_line("sochi", "irregularity.no_discard", capsys).split()[1] == "2"


# =============================================================================================
# item 7: misère without the talon, a bid that outbids a nine
# seed 003 l.108 "Mizer jest przebijany dziewiątką, dziewiątkowa gra - Mizerem bez przykładu,
# który jest przebijany dziewiątką bez przykładu lub dziesiątką. Taką konwencję można zmienić"
# seed 004 l.53 "Minusas yra senesnis už … 8 be kozirio, bet jaunesnis už … 9. Žaidėjas gali
# žaisti minusą arba 9 nenaudodamas [įpirkos], o tai šiuo atveju neatskleidžiama. Minor be įpirkos
# yra didesnis nei 9 be įpirkos, bet mažesnis už 10-ąją kastuvą."
# The seeds differ on the order of the misère and the nines without the talon: option
# misere_without_talon, default seed 003's. Dealer Ann: Bob first hand, Cid second, Ann third.
# =============================================================================================

MWT = "misere-without-talon"


def _auction(calls, contract, declarer, **more):
    others = [p for p in ("Bob", "Cid", "Ann") if p != declarer]
    deal = {"dealer": "Ann", "auction": calls, "contract": contract, "declarer": declarer, **more}
    if not contract.startswith("misere"):
        deal.setdefault("whist", {others[0]: PS, others[1]: PS})
    elif "hands" not in deal:
        deal.setdefault("tricks", {declarer: 0, others[0]: 5, others[1]: 5})    # a misère is played
    return deal


def _ladder_tail(**rules):
    from prefcli.rules.conventions import conventions
    lad = conventions(resolve_rules({"variant": "sochi", **rules})).ladder
    i = [str(c) for c in lad].index("9NT")
    return [str(c) for c in lad[i:i + 8]]


@pytest.mark.parametrize("variant", [v for v in RUSSIAN if v != "leningrad"])
def test_seed003_l108_misere_without_the_talon_in_the_russian_presets(variant):
    assert get_preset(variant).values["misere_without_talon"] == "below-nine-without-talon"


def test_leningrad_has_no_misere_without_the_talon():
    # RUSSIAN-VARIANTS.md §3.2, row "Уход без трёх / мизер без прикупа": [FSPR*] "does not exist"
    assert get_preset("leningrad").values["misere_without_talon"] == "no"
    lad = [str(c) for c in conventions(resolve_rules({"variant": "leningrad"})).ladder]
    assert MWT not in lad and "9S-without-talon" not in lad
    i = lad.index("9NT")
    assert lad[i + 1] == "10S"


def test_seed003_l108_and_seed004_l53_the_ladder():
    # seed 003: 9 < misère without the talon < 9 without the talon (and 10)
    assert _ladder_tail() == ["9NT", MWT, "9S-without-talon", "9C-without-talon", "9D-without-talon",
                              "9H-without-talon", "9NT-without-talon", "10S"]
    # seed 004: 9 without the talon < misère without the talon < 10♠
    assert _ladder_tail(misere_without_talon="above-nine-without-talon") == [
        "9NT", "9S-without-talon", "9C-without-talon", "9D-without-talon", "9H-without-talon",
        "9NT-without-talon", MWT, "10S"]
    assert _ladder_tail(misere_without_talon="no")[:2] == ["9NT", "10S"]


def test_seed003_l108_the_chain_misere_nine_misere_without_talon_nine_without_talon():
    # "Mizer jest przebijany dziewiątką, dziewiątkowa gra - Mizerem bez przykładu, który jest
    # przebijany dziewiątką bez przykładu": Bob misère, Cid 9♠, Ann misère without the talon,
    # Bob passes, Cid 9♠ without the talon, Ann passes: Cid plays 9♠ without the talon
    calls = ["misere", "9S", MWT, "pass", "9S-without-talon", "pass"]
    deal = _auction(calls, "9S-without-talon", "Cid")
    assert messages([deal]) == []
    # seed 004's order: the 9 without the talon does not outbid the misère without it
    msgs = messages([deal], misere_without_talon="above-nine-without-talon")
    assert len(msgs) == 1 and "is not higher than the current bid misere-without-talon" in msgs[0]


def test_seed004_l53_misere_without_talon_over_nine_without_talon():
    # "Minor be įpirkos yra didesnis nei 9 be įpirkos": Bob misère, Cid 9♠ without the talon, Ann
    # misère without the talon (her first call), both pass: Ann plays it
    calls = ["misere", "9S-without-talon", MWT, "pass", "pass"]
    deal = _auction(calls, MWT, "Ann")
    assert messages([deal], misere_without_talon="above-nine-without-talon") == []
    msgs = messages([deal])           # seed 003's order: it is below the nines without the talon
    assert len(msgs) == 1 and "not higher than the current bid 9S-without-talon" in msgs[0]


def test_misere_without_talon_outbids_a_nine_in_both_orders():
    # both seeds: a nine is outbid by the misère without the talon
    calls = ["misere", "9S", MWT, "pass", "pass"]
    for order in ("below-nine-without-talon", "above-nine-without-talon"):
        assert messages([_auction(calls, MWT, "Ann")], misere_without_talon=order) == []
    # without the option it is no bid at all
    msgs = messages([_auction(calls, MWT, "Ann")], misere_without_talon="no")
    assert len(msgs) == 1 and "option misere_without_talon" in msgs[0]
    # a nine cannot be outbid by the plain misère (it is below the nine on the ladder)
    msgs = messages([_auction(["misere", "9S", "misere", "pass", "pass"], "misere", "Ann")])
    assert len(msgs) == 1 and "not higher" in msgs[0]


def test_misere_without_talon_priced_as_the_misere():
    # the seeds' price tables have one misère (seed 003 l.60, seed 004 l.156: 10)
    made = {"contract": MWT, "declarer": "Ann", "tricks": {"Ann": 0, "Bob": 5, "Cid": 5}}
    assert sheet_of([made]) == {"pool.Ann": 10}
    down = {"contract": MWT, "declarer": "Ann", "tricks": {"Ann": 1, "Bob": 5, "Cid": 4}}
    assert sheet_of([down]) == {"mountain.Ann": 10}
    # a Leningrad club that plays it (not the preset's default, see below): misere_fail 2
    assert sheet_of([down], variant="leningrad",
                    misere_without_talon="below-nine-without-talon") == {"mountain.Ann": 20}
    # a 9 without the talon is priced as the 9 (8): made without play, both passed
    nine = {"contract": "9H-without-talon", "declarer": "Ann", "whist": {"Bob": PS, "Cid": PS}}
    assert sheet_of([nine]) == {"pool.Ann": 8}


def test_without_talon_is_played_without_the_talon():
    # the declarer neither takes nor shows the talon (seed 004 l.53 "o tai šiuo atveju
    # neatskleidžiama"): a discard other than the talon itself is refused
    hands = {"Bob": "AS KS QS JS 10S 9S 8S 7S AC KC", "Cid": "QC JC 10C 9C AD KD QD JD 10D 9D",
             "Ann": "8C 7C 8D 7D AH KH QH JH 10H 9H"}
    base = {"hands": hands, "talon": "8H 7H", "position": True}     # the deal as dealt, no result (issue 10)
    calls = ["misere", "9S", MWT, "pass", "pass"]
    ok = _auction(calls, MWT, "Ann", discard="8H 7H", **base)
    assert messages([ok]) == []
    bad = _auction(calls, MWT, "Ann", discard="AH KH", **base)
    msgs = messages([bad])
    assert len(msgs) == 1 and "played without the talon" in msgs[0]
    # the bid without the talon binds the contract: a plain misère after it is refused, and a
    # contract without the talon needs the bid without it
    probs = problems([{"bid": MWT, "contract": "misere", "declarer": "Ann", "tricks": {"Ann": 0, "Bob": 5, "Cid": 5}}])
    assert len(probs) == 1 and "plays without the talon" in probs[0].message
    probs = problems([{"bid": "9S", "contract": "9S-without-talon", "declarer": "Ann",
                       "whist": {"Bob": PS, "Cid": PS}}])
    assert len(probs) == 1 and "took it" in probs[0].message


def test_one_rung_raises_skip_the_bids_outside_the_climb():
    # bid_jumps: no; the one-rung raise over 8NT is 9♠ (the kabal'ny misère is a first call, not
    # a rung of the climb) and over 9NT it is 10♠ (the bids without the talon are outside it)
    from prefcli.model.cards import parse_call
    from prefcli.rules.auction import Auction
    from prefcli.rules.conventions import conventions
    conv = conventions(resolve_rules({"variant": "sochi"}))
    a = Auction(conv, ["Bob", "Cid", "Ann"])
    a.apply(parse_call("8NT"))
    assert "9S" in [str(c) for c in a.legal_calls()]
    b = Auction(conv, ["Bob", "Cid", "Ann"])
    b.apply(parse_call("9NT"))
    legal = [str(c) for c in b.legal_calls()]
    assert "10S" in legal and "10C" not in legal and MWT in legal


def test_misere_without_talon_notes_writer_convert_and_variants(capsys):
    from prefcli.app.convert import convert_record
    from prefcli.app.notes import notes_to_record
    from prefcli.io.writer import record_to_data
    r = notes_to_record("Ann mis-wt 0\nBob 9H-wt Cid:p Ann:p\n", players=["Ann", "Bob", "Cid"])
    assert [str(d.contract) for d in r.deals] == [MWT, "9H-without-talon"]
    data = record_to_data(r)
    assert data["deals"][0]["contract"] == MWT
    assert record_from_data(data, strict=True).deals == r.deals
    # the Lithuanian families bid nothing without the talon: written as the plain misère, a loss
    conv = convert_record(rec([{"contract": MWT, "declarer": "Ann", "tricks": {"Ann": 0, "Bob": 5, "Cid": 5}}]),
                          "lithuanian")
    assert conv.data["deals"][0]["contract"] == "misere"
    assert any("without the talon" in item.what and item.loss for item in conv.items)
    line = variants_line("sochi", "misere_without_talon", capsys)
    assert line.split()[1] == "below-nine-without-talon"
    meaning = get_preset("sochi").family.option("misere_without_talon").meaning
    assert "seed 003 l.108" in meaning and "seed 004 l.53" in meaning


def test_misere_without_talon_analysed_with_the_ten_dealt(tmp_path, capsys):
    # the double-dummy analysis plays the declarer's ten cards (the talon is never taken):
    # Ann's ♥ A K Q J 10 9 with 8♥ 7♥ in the talon, and nobody else holds a heart, so she is
    # never made to take a trick; with the talon's 8♥ 7♥ in her hand (and a discard chosen) she
    # would be a different deal. No discard is chosen: the talon is what she "put away".
    import json
    from prefcli.cli.main import main
    import yaml
    hands = {"Bob": "AS KS QS JS 10S 9S 8S 7S AC KC", "Cid": "QC JC 10C 9C AD KD QD JD 10D 9D",
             "Ann": "8C 7C 8D 7D AH KH QH JH 10H 9H"}
    deal = _auction(["misere", "9S", MWT, "pass", "pass"], MWT, "Ann", hands=hands, talon="8H 7H",
                    position=True)      # the deal as dealt, no result: a position (issue 10)
    data = {"format": "pref-record/1", "players": ["Ann", "Bob", "Cid"], "rules": {"variant": "sochi"},
            "deals": [deal]}
    path = tmp_path / "mwt.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["analyze", str(path), "--discard", "best", "-f", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    d = out["deals"][0]
    assert d["tricks_dd"] == [0]
    assert d["discard"]["best"] == ["8♥", "7♥"] and d["discard"]["discards_tried"] == 0


def test_irregularities_with_four_players_and_without_talon_refused_in_lithuanian():
    # four players, dealer A sits out: his misdeal is his (2 to his mountain); B declares 6♠,
    # both pass (pool 2); the deal after, dealt by B, B misdealing too
    four = ("A", "B", "C", "D")
    deals = [{"contract": "6S", "declarer": "B", "whist": {"C": PS, "D": PS},
              "irregularities": [{"kind": "misdeal", "by": "A"}]},
             {"contract": "6S", "declarer": "C", "whist": {"D": PS, "A": PS},
              "irregularities": [{"kind": "misdeal", "by": "B"}]}]
    assert sheet_of(deals, players=four) == {"mountain.A": 2, "pool.B": 2, "mountain.B": 2, "pool.C": 2}
    # the sitting-out dealer is not the misdealer of the next deal
    bad = [deals[0], dict(deals[1], irregularities=[{"kind": "misdeal", "by": "A"}])]
    msgs = messages(bad, "sochi", four)
    assert len(msgs) == 1 and "B deals this deal, not A" in msgs[0]
    # the Lithuanian families bid nothing without the talon
    lt = {"contract": MWT, "declarer": "E", "whist": {"S": W, "N": W}, "tricks": {"E": 0, "S": 5, "N": 5}}
    msgs = messages([lt], "lithuanian", ("N", "E", "S"))
    assert any("option misere_without_talon" in m for m in msgs)
