"""`prefcli analyze` and its pipeline (prefcli.app.analyze): the double-dummy line after every
trick and the named mistakes agree with the plain minimax on small endgames; on full deals the
line, the mistakes, the table and the best discard hang together; refusals are located."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT, run_cli
from dd_reference import minimax
from prefcli.app.analyze import (ALL_PASS_BOUND, AnalysisOptions, DealTask, analyze_record, analyze_task,
                                 analyze_tasks, card_text)
from prefcli.io.documents import build_record_fast, load_document
from prefcli.model.cards import DECK, Suit, parse_card
from prefcli.rules.engine import legal_cards, trick_winner
from prefcli.rules.moves import card_code, mask_of
from prefcli.rules.presets import resolve_rules
from prefcli.rules.solver import Solver

EXAMPLE = ROOT / "examples" / "full-deals-sochi.yaml"


def _card(text: str):
    """A card written as the analysis writes it (7♥) back to a Card."""
    return parse_card(text)


# ---------------------------------------------------------------------------------------------
# Endgame tasks against the plain minimax
# ---------------------------------------------------------------------------------------------

def _random_endgame(rng: random.Random, kind: str):
    n = rng.randint(2, 4)
    cards = rng.sample(DECK, 3 * n + 2)
    hands = [cards[0:n], cards[n:2 * n], cards[2 * n:3 * n]]
    talon = cards[3 * n:] if kind == "all-pass" and rng.random() < 0.7 else []
    talon = talon[:min(len(talon), n - 1)]
    competes = rng.random() < 0.5
    trump = rng.choice([None, Suit.S, Suit.C, Suit.D, Suit.H]) if kind == "contract" else None
    decl = rng.randrange(3) if kind != "all-pass" else None
    # a random legal play of k tricks, with the talon's tricks as the engine plays them
    left = [list(h) for h in hands]
    leader = 0
    tricks, winners = [], []
    for t in range(rng.randint(0, n)):
        table = []
        talon_trick = t < len(talon)
        lead = 0 if talon_trick else leader
        led = talon[t].suit if talon_trick else None
        for j in range(3):
            p = (lead + j) % 3
            c = rng.choice(legal_cards(left[p], led, trump))
            led = led or c.suit
            left[p].remove(c)
            table.append(c)
        if talon_trick:
            if competes:
                w = trick_winner([talon[t]] + table, trump, talon[t].suit)
                win = -1 if w == 0 else (lead + w - 1) % 3
            else:
                w = trick_winner(table, trump, talon[t].suit)
                win = (lead + (w if w >= 0 else trick_winner(table, trump))) % 3
            leader = 0
        else:
            win = leader = (lead + trick_winner(table, trump)) % 3
        tricks.append((lead, tuple(card_code(c) for c in table)))
        winners.append(win)
    task = DealTask(
        pos=0, number=1, seats=("A", "B", "C"), contract="x", kind=kind,
        trump=trump.order if trump else -1, declarer=decl,
        hands=tuple(mask_of(h) for h in hands), tricks=tuple(tricks), winners=tuple(winners),
        talon=tuple(card_code(c) for c in talon), talon_competes=competes,
        discard=(0, 1) if decl is not None else (), options=AnalysisOptions())
    return task, hands, talon, trump


def _next_leader(task, ti):
    if ti < len(task.talon):
        return 0
    return task.winners[ti]


def _check_task(task, hands, talon, trump):
    a = analyze_task(task)
    targets = [(task.declarer, task.kind == "contract")] if task.kind != "all-pass" else [(s, False) for s in range(3)]
    for target, high in targets:
        left = [list(h) for h in hands]
        taken = 0
        want = [minimax(left, 0, trump, target, high, talon, task.talon_competes)]
        expected_mistakes = []
        for ti, (lead, codes) in enumerate(task.tricks):
            table = []
            for j, code in enumerate(codes):
                p = (lead + j) % 3
                card = DECK[code]
                before = minimax(left, lead, trump, target, high, talon[ti:], task.talon_competes, tuple(table))
                left[p].remove(card)
                after = minimax(left, lead, trump, target, high, talon[ti:], task.talon_competes, tuple(table) + (card,))
                mover_high = (p == target) == high
                if (after < before) if mover_high else (after > before):
                    if task.kind != "all-pass" or p == target:
                        expected_mistakes.append((ti + 1, task.seats[p], card_text(code), abs(after - before),
                                                  p, lead, tuple(table), [list(h) for h in left], card, before))
                table.append(card)
            taken += task.winners[ti] == target
            want.append(taken + minimax(left, _next_leader(task, ti), trump, target, high, talon[ti + 1:],
                                        task.talon_competes))
        if task.kind == "all-pass":
            got = [x[task.seats[target]] for x in a.tricks_dd]
            mistakes = [m for m in a.mistakes if m.player == task.seats[target]]
        else:
            got = a.tricks_dd
            mistakes = a.mistakes
        assert got == want
        assert [(m.trick, m.player, m.card, m.cost) for m in mistakes] == [e[:4] for e in expected_mistakes]
        for m, e in zip(mistakes, expected_mistakes):
            # the better card, played instead, keeps the value from before the mistake
            _, _, _, _, p, lead, table, left_after, card, before = e
            hands_then = [list(h) for h in left_after]
            hands_then[p].append(card)
            better = _card(m.better)
            assert better in legal_cards(hands_then[p], (table[0].suit if table else
                                                         (talon[m.trick - 1].suit if m.trick - 1 < len(talon) else None)), trump)
            hands_then[p].remove(better)
            kept = minimax(hands_then, lead, trump, target, high, talon[m.trick - 1:], task.talon_competes,
                           table + (better,))
            assert kept == before


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["contract", "misere", "all-pass"]), st.randoms(use_true_random=False))
def test_line_and_mistakes_equal_minimax_on_endgames(kind, rnd):
    task, hands, talon, trump = _random_endgame(rnd, kind)
    _check_task(task, hands, talon, trump)


# ---------------------------------------------------------------------------------------------
# Full deals
# ---------------------------------------------------------------------------------------------

def _analyse(path, **opts):
    doc = load_document(str(path))
    record = build_record_fast(doc)
    return analyze_record(record, resolve_rules(record.rules), AnalysisOptions(**opts))


def _generated(tmp_path, players=3, variant="sochi", deals=12, seed=11):
    out = tmp_path / f"g{players}.yaml"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", str(deals), "--full",
                    "--players", str(players), "--variant", variant, "--seed", str(seed), "-o", str(out)],
                   check=True)
    return out


def _sign(a, m):
    """+1 when a card of this mistake lowered the target's count (the high side erred)."""
    if a.kind == "contract":
        return 1 if m.player == a.declarer else -1
    return -1 if m.player == a.declarer else 1


def test_example_deals_line_up_with_the_mistakes():
    ra = _analyse(EXAMPLE)
    assert [a.number for a in ra.deals] == [1, 2, 3]
    for a in ra.deals:
        assert len(a.tricks_dd) == a.tricks_recorded + 1 == 11
        assert a.tricks_dd[-1] == a.taken[-1] == a.result[a.declarer]
        # every change of the double-dummy line is a named mistake's cost, and nothing else
        for i in range(a.tricks_recorded):
            costs = sum(_sign(a, m) * m.cost for m in a.mistakes if m.trick == i + 1)
            assert a.tricks_dd[i] - a.tricks_dd[i + 1] == costs
    deal2 = ra.deals[1]
    assert deal2.tricks_dd[0] == Solver(2, 0, True).value(
        [mask_of(x) for x in _hands_after_discard(deal2)], 0)
    assert "trick 1: Cid 10♦ — A♠ kept Cid at 5; cost 1" in [m.text for m in deal2.mistakes]


def _hands_after_discard(a):
    doc = load_document(str(EXAMPLE))
    deal = build_record_fast(doc).deals[a.pos]
    hands = dict(deal.hands)
    decl = a.declarer
    hands[decl] = [c for c in list(hands[decl]) + list(deal.talon) if c not in deal.discard]
    return [hands[p] for p in a.seats]


def test_summary_deal_refused_with_a_located_message():
    ra = _analyse(EXAMPLE)
    assert len(ra.problems) == 1
    p = ra.problems[0]
    assert p.path == ("deals", 3)
    assert "summary deal" in p.message and "needs the full deal" in p.message
    code, out, err = run_cli(["analyze", str(EXAMPLE)])
    assert code == 1
    assert "full-deals-sochi.yaml:39:5: deals[3]: deal 4: a summary deal (all-pass) cannot be analysed" in err
    assert "deal 2: 6D by Cid" in out


def test_table_and_best_discard_agree_with_the_line(tmp_path):
    path = _generated(tmp_path)
    ra = _analyse(path, table=True, best_discard=True)
    kinds = {a.kind for a in ra.deals}
    assert {"contract", "all-pass"} <= kinds
    for a in ra.deals:
        if a.kind == "all-pass":
            assert a.table is None and a.discard is None
            continue
        strain = "misere" if a.kind == "misere" else a.contract.lstrip("0123456789")
        assert a.table[strain] == a.tricks_dd[0]
        d = a.discard
        assert d["played_tricks"] == a.tricks_dd[0]
        if a.kind == "misere":
            assert d["best_tricks"] <= d["played_tricks"]
        else:
            assert d["best_tricks"] >= d["played_tricks"]


def test_all_pass_bounds_four_players_dealer_plays(tmp_path):
    path = _generated(tmp_path, players=4, variant="leningrad", deals=12, seed=5)
    ra = _analyse(path)
    allpass = [a for a in ra.deals if a.kind == "all-pass"]
    assert allpass and all(a.talon_mode == "dealer-plays" for a in allpass)
    for a in allpass:
        assert set(a.tricks_dd[0]) == set(a.seats)
        # a player's bound moves only with his own mistakes (up) or the others' help (down)
        for m in a.mistakes:
            assert m.side == m.player
        final = a.tricks_dd[-1]
        assert final == a.taken[-1]


def test_json_document_matches_the_schema_and_jobs_change_nothing(tmp_path):
    from prefcli.io.schemas import validator_for
    path = _generated(tmp_path, deals=8, seed=2)
    code1, out1, _ = run_cli(["analyze", str(path), "-f", "json", "--table"])
    code2, out2, _ = run_cli(["analyze", str(path), "-f", "json", "--table", "--jobs", "2"])
    assert code1 == code2
    doc = json.loads(out1)
    assert doc["format"] == "pref-analysis/1"
    errors = list(validator_for("analysis").iter_errors(doc))
    assert not errors, errors[:3]
    assert json.loads(out2) == doc
    for d in doc["deals"]:
        assert len(d["tricks_dd"]) == d["tricks_recorded"] + 1
        if d["kind"] == "all-pass":
            assert d["bound"] == ALL_PASS_BOUND


def test_discard_not_recorded(tmp_path):
    text = EXAMPLE.read_text("utf-8").replace("    discard: 7D 7C\n", "", 1)
    src = tmp_path / "nodiscard.yaml"
    # a play that stops early with a claim does not show the discard
    lines = text.splitlines()
    cut = [ln.replace("play: [AS 8S 7H, AH QH 8H, KS 7S AC, KH JH KC, QS 9H QC, JS 10H 8D, 10S AD 9D, 9S JD JC, 9C KD 10C, 10D 8C QD]",
                      "play: [AS 8S 7H, AH QH 8H]\n    claim: {Bob: 6, Cid: 1, Ann: 1}") for ln in lines]
    src.write_text("\n".join(cut) + "\n", "utf-8")
    ra = _analyse(src)
    assert ra.problems and "discard is not recorded" in ra.problems[0].message
    assert ra.problems[0].path == ("deals", 0, "discard")
    ra = _analyse(src, best_discard=True)
    a = ra.deals[0]
    assert a.discard["assumed"] is True and a.tricks_recorded == 2
    code, out, err = run_cli(["analyze", str(src), "--deal", "1", "--discard", "best"])
    assert code == 0, err
    dd_rest = a.tricks_dd[-1] - a.taken[-1]
    want = "as claimed" if dd_rest == 6 else f"double dummy {dd_rest}"
    assert f"  claim: Bob 6 of the last 8; {want}" in out


def test_cli_text_report(tmp_path):
    code, out, err = run_cli(["analyze", str(EXAMPLE), "--deal", "3", "--table"])
    assert code == 0, err
    assert out.startswith("deal 3: 6H by Ann (first hand Ann)")
    assert "table (Ann's hand after the discard, first hand leading):" in out
    code, out, err = run_cli(["analyze", str(EXAMPLE), "--deal", "9"])
    assert code == 1 and "no deal 9 (the record has 4 entries)" in err
    # placed at the record's deals, with their path, as replay places it (not at line 1)
    line = next(i for i, t in enumerate(EXAMPLE.read_text().splitlines(), 1) if t.startswith("deals:"))
    assert f"{EXAMPLE}:{line + 1}:" in err and ": deals: no deal 9" in err


def test_jobs_give_the_same_analyses():
    ra = _analyse(EXAMPLE)
    from prefcli.app.analyze import prepare_tasks
    doc = load_document(str(EXAMPLE))
    record = build_record_fast(doc)
    tasks, _ = prepare_tasks(record, resolve_rules(record.rules), AnalysisOptions())
    par = analyze_tasks(tasks, jobs=2)
    assert [a.as_dict() for a in par] == [a.as_dict() for a in ra.deals]


def test_record_of_results_only_is_one_message():
    code, out, err = run_cli(["analyze", str(ROOT / "examples" / "sochi-3p.yaml")])
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "sochi-3p.yaml:14:3: deals[0]: no full deal to analyse (24 summary deals)" in lines[0]


def test_output_file_and_yaml(tmp_path):
    out = tmp_path / "a.yaml"
    code, _, err = run_cli(["analyze", str(EXAMPLE), "--deal", "1", "-o", str(out)])
    assert code == 0, err
    import yaml
    doc = yaml.safe_load(out.read_text("utf-8"))
    assert doc["format"] == "pref-analysis/1" and doc["deals"][0]["tricks_dd"][0] == 8


def test_a_talon_card_still_to_lead_separates_equivalent_cards():
    """8♣ and K♣ touch among the hands, but the talon's 9♣ leads trick 2 (and can win it when
    the talon card plays for the dealer): they are different cards, so K♣ is an alternative."""
    from prefcli.app.analysis_search import _Pos, _alternatives
    from prefcli.model.cards import parse_cards
    hands = [parse_cards("7S 8C KC KD"), parse_cards("JH KH 8S 9S"), parse_cards("10S AC 7D JS")]
    talon = parse_cards("7C 9C")
    task = DealTask(pos=0, number=1, seats=("A", "B", "C"), contract="all-pass", kind="all-pass", trump=-1,
                    declarer=None, hands=tuple(mask_of(h) for h in hands), tricks=(), winners=(),
                    talon=tuple(card_code(c) for c in talon), talon_competes=True)
    pos = _Pos([mask_of(h) for h in hands], 0, (), 0)
    assert _alternatives(task, pos, card_code(parse_card("8C"))) == [card_code(parse_card("KC"))]


def test_report_page_with_analyze(tmp_path):
    """prefcli report --analyze adds each full deal's line and mistakes to the page."""
    page = tmp_path / "game.html"
    code, _, err = run_cli(["report", str(EXAMPLE), "--analyze", "-o", str(page)])
    assert code == 0, err
    html = page.read_text("utf-8")
    assert '<section class="analysis"' in html
    assert "deal 2: Cid takes 5 from the opening lead (6D needs 6: down 1)" in html
    assert "<li>trick 1: Cid 10♦ — A♠ kept Cid at 5; cost 1</li>" in html
    plain = tmp_path / "plain.html"
    code, _, err = run_cli(["report", str(EXAMPLE), "-o", str(plain)])
    assert code == 0 and '<section class="analysis"' not in plain.read_text("utf-8")


UNISAY = __import__("conftest").SHARED / "samples" / "unisay-preferanser"


@pytest.mark.skipif(not UNISAY.is_dir(), reason="../shared/samples is not beside the checkout")
@pytest.mark.parametrize("number", range(1, 8))
def test_imported_etudes_analyse_as_transcribed(number):
    """`prefcli import` of the original étude file, piped into `prefcli analyze -`, gives the
    solver's value on the transcription in problems.yaml (the import and the copy agree)."""
    import yaml
    problems = yaml.safe_load((ROOT / "tests" / "examples" / "analysis" / "problems.yaml").read_text("utf-8"))
    p = next(x for x in problems["etudes"] if x["source"] == f"{number}.json")
    code, record, err = run_cli(["import", str(UNISAY / f"{number}.json")])
    assert code == 0, err
    code, out, err = run_cli(["analyze", "-", "-f", "json"], stdin=record)
    assert code == 0, err
    deal = json.loads(out)["deals"][0]
    from test_solver import _problem
    assert deal["tricks_dd"][0] == _problem(p)
    if "answer" in p and not str(p["answer"]).startswith("at least"):
        assert deal["tricks_dd"][0] == int(p["answer"])


def test_two_handed_play_is_refused_located(tmp_path):
    """A lone whister playing alone (Lithuanian whist_alone: two cards a trick) is no three-hand
    double-dummy problem: refused at the first trick, saying why."""
    src = tmp_path / "alone.yaml"
    src.write_text("""format: pref-record/1
players: [Ann, Bob, Cid]
rules: {variant: lithuanian}
first_dealer: Ann
deals:
  - dealer: Ann
    hands: {Bob: AS QS 7S AD QD 9D AH 8H 7H 7C, Cid: KS JS 8S AC QC 9C 7D KH QH 9H, Ann: 9S 10S 8C 10C 8D 10D JD KD 10H JH}
    talon: KC JC
    discard: 7H 7C
    contract: 6S
    declarer: Bob
    whist: {Cid: whist, Ann: pass}
    play: [7S 8S, JS QS, AD 7D, JC QC, KH 8H, AC KC, 9H AH, QD KS, 9C AS, 9D QH]
""", "utf-8")
    code, out, err = run_cli(["analyze", str(src)])
    assert code == 1 and out == ""
    assert "alone.yaml:13:12: deals[0].play[0]: deal 1: trick 1 is played by 2 players (the lone whister" in err


def test_dask_executor_gives_the_same_document():
    pytest.importorskip("distributed")
    example = str(ROOT / "examples" / "analysis-sochi.yaml")
    code0, out0, err0 = run_cli(["analyze", example, "-f", "json"])
    code1, out1, err1 = run_cli(["analyze", example, "-f", "json", "--executor", "dask", "-j", "2"])
    assert (code0, code1) == (0, 0), err0 + err1
    assert json.loads(out1) == json.loads(out0)


# Bridge studio's problem file states each problem's task in its comment (the sample's README:
# "double-dummy test positions with known answers"); the imported deals, analysed, answer them.
BRIDGE_STUDIO_TASKS = {
    1: ("Take all ten tricks for whist players.", "E", 0),
    3: ("Barbakaru problem. West bid seven of clubs, help him to realize contract.", "W", 7),
    4: ("Galaktionov problem. West bids 6 of spades. Play for whist players to take six tricks.", "W", 4),
    5: ("Misere of Kovalevskaya. North want to play misere. Break him plan!", "N", None),
    6: ("Misere of Lasker. North want to play misere. Break him plan!", "N", None),
}


@pytest.mark.parametrize("number", sorted(BRIDGE_STUDIO_TASKS))
def test_bridge_studio_problems_answer_their_stated_task(number, tmp_path, run):
    task, declarer, tricks = BRIDGE_STUDIO_TASKS[number]
    src = ROOT / "tests" / "examples" / "imports" / "bridge-studio" / "preferansEn.bts"
    out = tmp_path / "p.yaml"
    code, _, err = run(["import", str(src), "--deal", str(number), "-o", str(out)])
    assert code == 0, err
    assert task in out.read_text("utf-8")
    code, text, err = run(["analyze", str(out), "-f", "json"])
    assert code == 0, err
    deal = json.loads(text)["deals"][0]
    assert deal["declarer"] == declarer
    got = deal["tricks_dd"][0]             # the declarer's tricks from the opening lead
    if tricks is None:                      # "break his plan": the misère is caught
        assert got >= 1
    else:
        assert got == tricks
