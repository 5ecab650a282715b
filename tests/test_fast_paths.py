"""Every fast path gives the bytes of the slow path it skips (issue 18: outputs byte-identical).

Each command runs twice on every example and on bad inputs: as shipped, and with the fast paths
switched off (jsonschema always run, PyYAML always writing the YAML). Output, errors and exit
code must be the same.
"""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from conftest import EXAMPLES, ROOT


def _inputs() -> List[Path]:
    out = [p for p in sorted(EXAMPLES.rglob("*")) if p.suffix in (".yaml", ".json") and p.is_file()]
    neg = ROOT / "tests" / "examples" / "negative"
    out += sorted(p for p in neg.glob("*") if p.suffix in (".yaml", ".json"))[:25]
    return out


COMMANDS = [["validate", "-f", "json"], ["validate"], ["convert", "-f", "yaml"], ["convert", "-f", "json"],
            ["score", "-f", "json"]]


def _slow(monkeypatch) -> None:
    from prefcli.io import schema_fast, writer, writer_json, writer_stream, writer_text

    monkeypatch.setattr(schema_fast, "is_valid", lambda kind, data: False)

    def no_direct(self, marked):
        raise writer_text._NotDirect("switched off")
    monkeypatch.setattr(writer_text._DirectYaml, "document", no_direct)
    monkeypatch.setattr(writer_text._DirectYaml, "write", no_direct)
    monkeypatch.setattr(writer_json, "_json_line_fast", lambda value: None)

    def no_model_yaml(w, deal):      # each deal made plain, then written as plain data
        raise writer_text._NotDirect("switched off")
    monkeypatch.setattr(writer_stream, "deal_yaml", no_model_yaml)
    monkeypatch.setattr(writer_json, "deal_json", lambda deal: writer_json._json_text(
        writer.deal_to_data(deal, ("deals", deal.pos)), 4, 4, block=True))
    monkeypatch.setattr(writer_json.DealJson, "deal", lambda self, deal: None)    # (the one pass)


@pytest.mark.parametrize("path", _inputs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_same_output_with_and_without_fast_paths(path, run, monkeypatch):
    fast = [run(cmd + [str(path)]) for cmd in COMMANDS]
    _slow(monkeypatch)
    slow = [run(cmd + [str(path)]) for cmd in COMMANDS]
    for cmd, a, b in zip(COMMANDS, fast, slow):
        assert a == b, " ".join(cmd)


def test_a_broken_record_is_reported_by_jsonschema_with_its_place(run, tmp_path):
    text = (EXAMPLES / "full-deals-sochi.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("talon: ", "talon: 11X ", 1), encoding="utf-8")
    code, out, err = run(["validate", str(bad)])
    assert code == 1
    line = next(i for i, l in enumerate(text.split("\n"), 1) if "talon: " in l)
    assert f"bad.yaml:{line}:" in out + err


def _reference_running_rows(result, upto=None):
    """The table's running totals the plain way: Fraction sums, every cell formatted every deal."""
    from fractions import Fraction

    from prefcli.app.sheet import deal_label, entries_upto
    from prefcli.render.sheet import _fmt, _signed
    players = list(result.ledger.players)
    total = len(result.record.deals)
    pool = {p: Fraction(0) for p in players}
    mount = {p: Fraction(0) for p in players}
    net = {p: Fraction(0) for p in players}
    rows = []

    def snapshot(num):
        rows.append([str(num) if num is not None and 1 <= num <= total else "", deal_label(result.record, num)]
                    + [f"{_fmt(pool[p])}/{_fmt(mount[p])}/{_signed(net[p])}" for p in players])
    current = "unset"
    for e in entries_upto(result, upto):
        if e.deal != current and current != "unset":
            snapshot(current)
        current = e.deal
        if e.area == "pool":
            pool[e.player] += e.amount
        elif e.area == "mountain":
            mount[e.player] += e.amount
        else:
            net[e.player] += e.amount
            net[e.on] -= e.amount
    if current != "unset":
        snapshot(current)
    return rows


def _scored_examples():
    from conftest import example_records
    from prefcli.app.score import score_source
    out = []
    for p in example_records():
        scored = score_source(str(p))
        if scored.ok:
            out.append((p, scored.result))
    return out


def test_the_tables_running_totals_are_the_plain_fraction_sums():
    """render_table keeps int totals and formats a cell only when its deal changed it: the rows are
    those of Fraction sums formatted every deal, on every example (whole and fractional amounts),
    after every deal as well as at the end."""
    from prefcli.render.sheet import _running_rows
    checked = 0
    for path, result in _scored_examples():
        players = list(result.ledger.players)
        total = len(result.record.deals)
        for upto in [None] + sorted({0, 1, total // 2, total}):
            from prefcli.app.sheet import entries_upto
            got = _running_rows(result, players, total, entries_upto(result, upto))
            assert got == _reference_running_rows(result, upto), (path, upto)
            checked += 1
    assert checked > 10


def test_the_tables_running_totals_with_fractional_amounts():
    """Amounts that are not whole (a split whist, a Lithuanian share) turn the int totals into
    Fractions mid-table: the cells are still the Fraction sums' ("40/3", "12.5")."""
    import dataclasses
    from fractions import Fraction
    from types import SimpleNamespace

    from prefcli.app.sheet import entries_upto
    from prefcli.render.sheet import _running_rows
    for path, result in _scored_examples()[:3]:
        entries = [dataclasses.replace(e, amount=e.amount * Fraction(1, 3 if i % 2 else 2))
                   for i, e in enumerate(result.ledger.entries)]
        fake = SimpleNamespace(record=result.record, ledger=SimpleNamespace(players=result.ledger.players,
                                                                             entries=entries))
        players = list(result.ledger.players)
        got = _running_rows(fake, players, len(result.record.deals), entries_upto(fake))
        assert got == _reference_running_rows(fake), path
        assert any(c.count("/") > 2 or "." in c for row in got for c in row[2:]), path


def _replays_of_examples(monkeypatch=None):
    from conftest import example_records
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.replay import replay_reading
    out = []
    for p in example_records():
        record = build_record_fast(load_document(str(p)))
        ctx = RecordContext(record, resolve_rules(record.rules))
        for e in record.deals:
            if isinstance(e, Deal) and e.hands is not None:
                out.append(replay_reading(ctx, ctx.reading(e)).as_dict())
    return out


def test_the_replays_card_check_skipped_for_a_clean_deal_is_the_same_replay(monkeypatch):
    """replay's setup says nothing of a deal whose cards are dealt once (the common case, told by
    the cards' identities): every example's replay is the same with that shortcut off."""
    from prefcli.rules import replay
    fast = _replays_of_examples()
    monkeypatch.setattr(replay, "_dealt_once", lambda hands, seats, talon: False)
    monkeypatch.setattr(replay, "TRUST_READING", False)
    assert fast and fast == _replays_of_examples()


def test_a_reading_that_found_the_cards_dealt_once_starts_a_replay_that_would_find_the_same():
    """The replay trusts the reading's "every card of the deck once, a hand a seat" (the reading
    checked it first): on every example and generated full deal, clean or broken, whenever the
    reading says so the replay's own check says so too."""
    from prefcli.model.build import record_from_data
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.moves import mask_of
    from prefcli.rules.replay import _dealt_once
    from conftest import example_records
    from prefcli.io.documents import build_record_fast, load_document
    records = [record_from_data(d) for d in _mutated_full_records()]
    records += [build_record_fast(load_document(str(p))) for p in example_records()]
    trusted = 0
    for record in records:
        ctx = RecordContext(record, resolve_rules(record.rules))
        for e in record.deals:
            if isinstance(e, Deal) and e.hands is not None:
                reading = ctx.reading(e)
                if reading.dealt_once:
                    trusted += 1
                    assert _dealt_once(dict(e.hands), reading.seats, e.talon)
                    # and the masks it keeps for the replay are the hands' (moves.mask_of)
                    assert reading.hand_masks == {p: mask_of(cs) for p, cs in e.hands}
                else:
                    assert reading.hand_masks is None
    assert trusted > 100


def test_the_dealt_once_shortcut_refuses_every_malformed_deal():
    """Each way setup finds a problem (a card twice, a short hand, a hand too many or missing, a
    talon of one, a card that is not the deck's own object) keeps the long way."""
    from prefcli.model.cards import DECK, Card
    from prefcli.rules.replay import _dealt_once
    seats = ("A", "B", "C")
    hands = {"A": DECK[0:10], "B": DECK[10:20], "C": DECK[20:30]}
    talon = DECK[30:32]
    assert _dealt_once(hands, seats, talon)
    assert _dealt_once(hands, seats, None)
    assert not _dealt_once({**hands, "C": DECK[19:29]}, seats, talon)          # DECK[19] twice
    assert not _dealt_once({**hands, "C": DECK[20:29]}, seats, talon)          # nine cards
    assert not _dealt_once({**hands, "D": DECK[20:30]}, seats, talon)          # a fourth hand
    assert not _dealt_once({"A": hands["A"], "B": hands["B"], "D": hands["C"]}, seats, talon)
    assert not _dealt_once(hands, seats, DECK[30:31])
    assert not _dealt_once(hands, seats, (DECK[30], DECK[0]))                  # the talon's card twice
    other = Card(DECK[31].suit, DECK[31].rank)
    if other is not DECK[31]:
        assert not _dealt_once(hands, seats, (DECK[30], other))


def test_the_fast_makers_of_tricks_and_auction_steps_make_the_dataclass_objects():
    """A replay makes its tricks and auction steps without the frozen dataclasses' __init__:
    the objects are the same (fields, equality, hash, repr, pickling), and a class that gains a
    field, slots or a __post_init__ falls back to its own __init__."""
    import dataclasses
    import pickle

    from prefcli.model.cards import Call, CallKind, DECK
    from prefcli.model.slots import plain_frozen
    from prefcli.rules.auction import AuctionStep, _auction_step
    from prefcli.rules.play import TrickPlay, trick_play
    cards = (("Ann", DECK[0]), ("Bob", DECK[1]), ("Cid", DECK[2]))
    for fast, slow in ((trick_play(3, "Ann", cards, "Cid"), TrickPlay(3, "Ann", cards, "Cid")),
                       (_auction_step(0, "Ann", Call(CallKind.PASS), None, None),
                        AuctionStep(0, "Ann", Call(CallKind.PASS), None, None))):
        assert type(fast) is type(slow)
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert dataclasses.astuple(fast) == dataclasses.astuple(slow)
        assert vars(fast) == vars(slow)
        assert pickle.loads(pickle.dumps(fast)) == slow
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.winner = "Bob"        # type: ignore[misc]

    @dataclasses.dataclass(frozen=True)
    class Later:
        a: int
        b: int = 0

        def __post_init__(self) -> None:
            pass
    assert plain_frozen(TrickPlay, ("number", "leader", "cards", "winner"))
    assert not plain_frozen(TrickPlay, ("number", "leader", "cards"))
    assert not plain_frozen(Later, ("a", "b"))


def test_the_readings_card_checks_by_identity_fall_back_for_other_card_objects():
    """The reading tells "every card of the deck once" and a discard's cards by the cards'
    identities (parsing gives the deck's own objects); an equal card made anew goes the long way
    and reads the same, and two equal card objects in a discard are still the same card twice."""
    import copy
    import dataclasses

    from conftest import EXAMPLES
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.cards import Card
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.deal import read_deal
    from prefcli.rules.deal_cards import _distinct
    from prefcli.rules.presets import resolve_rules

    def anew(card):
        return Card(card.suit, card.rank)

    record = build_record_fast(load_document(str(EXAMPLES / "full-deals-sochi.yaml")))
    ctx = RecordContext(record, resolve_rules(record.rules))
    compared = 0
    for deal in record.deals:
        if not isinstance(deal, Deal) or deal.hands is None:
            continue
        other = dataclasses.replace(
            deal, hands=tuple((p, tuple(anew(c) for c in cs)) for p, cs in deal.hands),
            talon=tuple(anew(c) for c in deal.talon) if deal.talon is not None else None,
            discard=tuple(anew(c) for c in deal.discard) if deal.discard is not None else None)
        a, b = read_deal(ctx, deal), read_deal(ctx, other)
        assert [p.message for p in a.problems] == [p.message for p in b.problems]
        assert (a.tricks, a.mode, a.declarer) == (b.tricks, b.mode, b.declarer)
        compared += 1
    assert compared
    some = next(e for e in record.deals if isinstance(e, Deal) and e.hands is not None).hands[0][1]
    assert _distinct(some[:2]) and not _distinct((some[0], some[0]))
    assert not _distinct((some[0], anew(some[0]))) and not _distinct((anew(some[0]), copy.copy(some[0])))


def test_a_context_that_only_checks_or_scores_reads_the_same_without_the_tricks_card_by_card():
    """check_record and score build their own context with keep_tricks=False: every reading has
    the same problems, tricks and replayed counts as with the tricks kept (replay's report and
    analyze keep them)."""
    from conftest import example_records
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    played = 0
    for p in example_records():
        record = build_record_fast(load_document(str(p)))
        rules = resolve_rules(record.rules)
        kept, lean = RecordContext(record, rules), RecordContext(record, rules, keep_tricks=False)
        for e in record.deals:
            if not isinstance(e, Deal):
                continue
            a, b = kept.reading(e), lean.reading(e)
            assert [x.message for x in a.problems] == [x.message for x in b.problems]
            assert (a.tricks, a.tricks_from, a.mode) == (b.tricks, b.tricks_from, b.mode)
            if a.replay is not None:
                assert a.replay.counts == b.replay.counts and not b.replay.tricks
                played += bool(a.replay.tricks)
    assert played


def _mutated_full_records():
    """Generated full deals under several presets (3 and 4 players), each record also with its
    plays and auctions broken in the ways a hand-written record goes wrong: two cards of a trick
    swapped, a card of one trick played again in another, two tricks swapped, a card dropped, the
    last trick missing, two calls swapped, a call added."""
    import copy
    import random
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate

    rng = random.Random(18)
    out = []
    for variant in ("sochi", "leningrad", "rostov", "classic", "lithuanian"):
        for players in (3, 4):
            data = generate(24, full=True, players=players, variant=variant, seed=7)
            out.append(data)
            bad = copy.deepcopy(data)
            for i, deal in enumerate(bad["deals"]):
                play, auction = deal.get("play"), deal.get("auction")
                how = i % 8
                if play and len(play) > 3:
                    tricks = [t.split() for t in play]
                    a, b = rng.sample(range(len(tricks)), 2)
                    if how == 0:
                        tricks[a][0], tricks[a][-1] = tricks[a][-1], tricks[a][0]
                    elif how == 1:
                        tricks[b][1] = tricks[a][1]
                    elif how == 2:
                        tricks[a], tricks[b] = tricks[b], tricks[a]
                    elif how == 3:
                        tricks[a] = tricks[a][:-1]
                    elif how == 4:
                        tricks = tricks[:-1]
                    elif how == 5:
                        tricks[a][1], tricks[b][1] = tricks[b][1], tricks[a][1]
                    deal["play"] = [" ".join(t) for t in tricks]
                if auction and len(auction) > 1 and how in (6, 7):
                    calls = list(auction)
                    if how == 6:
                        calls[0], calls[1] = calls[1], calls[0]
                    else:
                        calls.append("pass")
                    deal["auction"] = calls
            out.append(bad)
    return out


def _replays(data):
    from prefcli.model.build import record_from_data
    from prefcli.model.records import Deal
    from prefcli.rules.checks import check_record
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.replay import replay_reading
    record = record_from_data(data)
    rules = resolve_rules(record.rules)
    out = []
    for keep in (True, False):
        ctx = RecordContext(record, rules, keep_tricks=keep)
        for e in record.deals:
            if isinstance(e, Deal):
                reading = ctx.reading(e)
                out.append(([(p.message, p.path) for p in reading.problems], reading.tricks,
                            replay_reading(ctx, reading).as_dict()))
    out.append([(p.message, p.path) for p in check_record(record, rules, warnings=True)])
    return out


def test_the_fast_trick_check_and_the_auctions_looked_up_replay_as_the_long_way(monkeypatch):
    """The trick check that only says "every card legal" (play._tricks_fast, the long way when
    not) and the legal auctions looked up by their calls (replay._auction_memo) give the same
    readings, replays (tricks kept or not) and validate problems as every card and call checked
    one by one, on generated full deals and on the same deals broken in the usual ways; an illegal
    play or auction is found at the same place with the same message."""
    from prefcli.rules import play, replay
    records = _mutated_full_records()
    fast = [_replays(d) for d in records]
    monkeypatch.setattr(play, "FAST_TRICKS", False)
    monkeypatch.setattr(replay, "FAST_AUCTIONS", False)
    slow = [_replays(d) for d in records]
    assert fast == slow
    found = [m for r in fast for m, _ in r[-1]]
    for words in ("must follow", "already played", "cards; a trick here has", "auction call",
                  "without a claim", "which"):
        assert any(words in m for m in found), words


def test_an_illegal_auction_is_never_looked_up_for_another_deal():
    """Two deals with the same illegal calls: each is replayed and its message names its deal;
    a legal one repeated is replayed once and looked up (the same steps and result)."""
    from helpers import rec
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    from prefcli.rules.replay import _auction_memo
    bad = {"contract": "6S", "declarer": "Ann", "auction": ["6S", "6S", "pass"],
           "whist": {"Bob": "pass", "Cid": "pass"}}
    good = {**bad, "auction": ["pass", "6S", "pass"]}
    record = rec([dict(bad), dict(good), dict(bad), dict(bad), dict(good)])    # dealers Ann Bob Cid Ann Bob
    ctx = RecordContext(record, resolve_rules(record.rules))
    readings = [ctx.reading(d) for d in record.deals]
    said = [[p.message for p in r.problems if "auction call" in p.message] for r in readings]
    assert said[0] == ["deal 1, auction call 2: Cid bid 6S but 6S is not higher than the current bid 6S"]
    assert said[3] == [said[0][0].replace("deal 1,", "deal 4,")] and not said[1] and not said[4]
    memo = _auction_memo(ctx.conv)
    assert not any(k[-1] == record.deals[0].auction for k in memo)
    assert any(k[-1] == record.deals[1].auction for k in memo)
    one, three = readings[1].replay, readings[4].replay
    assert one.auction == three.auction and one.auction is not three.auction
    assert one.auction_result == three.auction_result and one.declarer == three.declarer == "Ann"


def _sheet_state(result):
    sheet = result.sheet()
    return ({k: list(v.items()) for k, v in (("pool", sheet.pool), ("mountain", sheet.mountain))},
            [(w, list(row.items())) for w, row in sheet.whists.items()], result.notes, result.state,
            result.finished)


def test_a_ledger_of_totals_only_skips_the_texts_and_gives_the_same_sheet():
    """Scoring into a ledger of totals only (score -f json, settle, validate) makes no entry text
    (the Russian scorer's ``texts``): every example, under its own preset and rescored under every
    other preset of its player count, gives the same sheet, notes and state as the ledger that
    keeps every entry and its text."""
    from conftest import example_records
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.ledger import totals_only
    from prefcli.rules.presets import OptionError, preset_names, resolve_rules
    from prefcli.scoring import ScoringError, score
    compared = 0
    for p in example_records():
        try:
            record = build_record_fast(load_document(str(p)))
        except Exception:          # noqa: BLE001 - a record that does not build has no sheet
            continue
        for variant in [None] + list(preset_names()):
            try:
                rules = resolve_rules(record.rules, variant=variant)
                full = score(record, rules)
            except (OptionError, ScoringError, ValueError):
                continue
            with totals_only():
                sums = score(record, rules)
            assert sums.ledger.totals_only and full.ledger.entries
            assert all(e.text for e in full.ledger.entries if e.rule != "start")
            assert _sheet_state(full) == _sheet_state(sums), (p, variant)
            compared += 1
    assert compared > 20


def _built_records(monkeypatch=None):
    from conftest import example_records
    from prefcli.io.documents import load_document
    from prefcli.model.build import record_from_data
    from prefcli.model.diagnostics import Problems
    out = []
    for p in example_records():
        problems = Problems()
        record = record_from_data(load_document(str(p)).data, problems)
        out.append((p, record, [(x.path, x.message) for x in problems.items]))
    return out


def test_a_plain_summary_deal_built_in_one_pass_is_the_long_ways_deal(monkeypatch):
    """model.build builds a summary deal of the common kind (contract, declarer, dealer, whist,
    tricks, open, dark, each well-formed) in one pass (_plain_deal) and fills a Deal's slots in an
    unfrozen twin (_made_deal): every example record, and deals that are almost plain (a null, a
    blank name, a bool for a count, a key that is not a text, an unknown decision), build the same
    Deals and problems as the long way and the frozen dataclass's own __init__."""
    import dataclasses
    import pickle

    from prefcli.model import build
    from prefcli.model.diagnostics import Problems
    from prefcli.model.records import Deal
    assert build._MADE, "Deal's fields changed: update build._MADE_FIELDS and _made_deal"
    odd = [{"contract": "6S", "declarer": "Ann", "whist": {"Bob": "whist", "Cid": "pass"},
            "tricks": {"Ann": 6, "Bob": 3, "Cid": 1}, "open": True, "dark": False, "dealer": "Cid"},
           {"contract": "6S", "declarer": " "}, {"contract": "6S", "declarer": None},
           {"contract": "6S", "tricks": {"Ann": True}}, {"contract": "6S", "tricks": {1: 5}},
           {"contract": "6S", "whist": {"Bob": "wist"}}, {"contract": "6S", "whist": None},
           {"contract": "6S", "open": None}, {"contract": "6S", "open": "yes"}, {"contract": "6S", "tricks": {}},
           {"contract": "7X"}, {"contract": None}, {"contract": "misere", "declarer": "Bob", "dark": True}]

    def build_all():
        out = _built_records()
        for i, raw in enumerate(odd):
            problems = Problems()
            b = build._Builder(problems)
            b.deal(dict(raw), 0)                   # the caches learn the spellings
            got = b.deal(dict(raw), i)
            out.append((raw, got, [(x.path, x.message) for x in problems.items]))
        return out
    fast = build_all()
    plain = build._plain_deal
    made = []
    monkeypatch.setattr(build, "_plain_deal", lambda m, pos, *shared: made.append(pos) or plain(m, pos, *shared))
    build_all()
    assert made, "the one-pass builder was not used"
    monkeypatch.setattr(build, "_plain_deal", lambda m, pos, *shared: None)
    monkeypatch.setattr(build, "_MADE", False)
    slow = build_all()
    assert fast == slow
    deals = [d for _, rec, _ in fast if rec is not None and hasattr(rec, "deals") for d in rec.deals]
    deals += [d for _, d, _ in fast if isinstance(d, Deal)]
    assert len(deals) > 100
    for d in deals:
        if not isinstance(d, Deal):
            continue
        ref = Deal(**{f.name: getattr(d, f.name) for f in dataclasses.fields(Deal)})
        assert type(d) is Deal and d == ref and hash(d) == hash(ref) and repr(d) == repr(ref)
        assert pickle.loads(pickle.dumps(d)) == ref
        with pytest.raises(dataclasses.FrozenInstanceError):
            d.declarer = "Zed"          # type: ignore[misc]


def test_the_reader_reads_the_contexts_lists_as_the_mappings_they_are():
    """A context's reader reads the per-deal facts (kinds, exit levels, all-pass and dark runs)
    from their lists (PosMap's own) and makes each reading's fields in one dictionary: every
    example reads the same (fields, problems) with the facts as plain dictionaries and with each
    reading made by the dataclass's __init__."""
    import dataclasses

    from conftest import example_records
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.records import Deal
    from prefcli.rules import reading as reading_module
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules

    def fields(r):
        return {f.name: getattr(r, f.name) for f in dataclasses.fields(r) if f.name != "replay"}
    compared = 0
    for p in example_records():
        try:
            record = build_record_fast(load_document(str(p)))
        except Exception:          # noqa: BLE001
            continue
        rules = resolve_rules(record.rules)
        fast = RecordContext(record, rules)
        plain = RecordContext(record, rules)
        for name in ("kinds", "exit_levels", "allpass_runs", "dark_runs", "dealers"):
            setattr(plain, name, dict(getattr(plain, name)))
        for e in record.deals:
            if not isinstance(e, Deal):
                continue
            a = fast.reading(e)
            real = reading_module._TEMPLATE
            try:
                reading_module._TEMPLATE = None
                plain.seat_states.clear()
                b = plain.reading(e)
            finally:
                reading_module._TEMPLATE = real
                plain.seat_states.clear()
            assert type(a) is type(b) and fields(a) == fields(b), (p, e.number)
            compared += 1
    assert compared > 100


def test_a_posmap_filled_by_its_list_setter_reads_as_one_filled_by_position():
    """The rotation and the all-pass runs fill the context's PosMaps through the list's own setter
    (PosMap.filler, table.filler): the same mapping, its length counted when asked, and a dict
    still filled by __setitem__."""
    from prefcli.rules.record_facts import PosMap
    from prefcli.rules.table import filler
    a, b = PosMap(6), PosMap(6)
    put = filler(a)
    for pos, value in ((0, "Ann"), (2, "Bob"), (5, 0)):
        put(pos, value)
        b[pos] = value
    assert a == b == {0: "Ann", 2: "Bob", 5: 0} and len(a) == len(b) == 3 and list(a) == [0, 2, 5]
    a[3] = "Cid"
    assert len(a) == 4 and a.get(3) == "Cid" and 1 not in a
    d: dict = {}
    filler(d)(4, "x")
    assert d == {4: "x"}


def test_a_hand_written_as_one_text_is_read_as_parse_cards_reads_it():
    """model.build reads a hand, talon or trick written as one text ("7S 8S 9S", as prefcli writes
    full deals) from the cards' table without the parse_cards call: the same cards, and anything
    else (a comma, an unknown card, other spacing) parse_cards' own reading or message."""
    from prefcli.model.build import _Builder
    from prefcli.model.cards import NotationError, parse_cards
    from prefcli.model.diagnostics import Problems
    for text in ["7S 8S 9S", "10H AS", "", "   ", "7s  8s\t9s", "TH A♠ 10♥", "7S,8S", "7S 8X", "AS AS", "7S\n8S"]:
        problems = Problems()
        got = _Builder(problems).cards(text, ("hands", "Ann"))
        try:
            want = parse_cards(text)
        except NotationError as exc:
            assert got is None and [p.message for p in problems.items] == [exc.message], text
        else:
            assert got == want and all(a is b for a, b in zip(got, want)) and not problems, text


def test_recorded_trick_counts_seen_fine_before_read_as_when_each_is_checked(monkeypatch):
    """A reader asks once whether a repeated set of trick counts is plainly fine for the same
    players (deal_cards._tricks_fine): generated summary records of 3, 4 and 5 players under
    several presets, with counts broken (negative, not adding up, a name that is not seated or sits
    out, a player left out) among the good ones, read the same deal by deal with that off."""
    import copy
    import random
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    from prefcli.model.build import record_from_data
    from prefcli.model.records import Deal
    from prefcli.rules import deal_cards
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules

    rng = random.Random(18)
    records = []
    for variant, players in (("sochi", 3), ("sochi", 4), ("leningrad", 4), ("lithuanian", 3), ("lithuanian", 5),
                             ("rostov", 3)):
        try:
            data = generate(150, players=players, variant=variant, seed=11)
        except Exception:       # noqa: BLE001 - a preset the generator does not seat this way
            continue
        bad = copy.deepcopy(data)
        names = list(data["players"]) + ["Zed"]
        for i, deal in enumerate(bad["deals"]):
            tricks = deal.get("tricks")
            if not tricks or i % 3:
                continue
            who = rng.choice(sorted(tricks))
            how = (i // 3) % 4
            if how == 0:
                tricks[who] = -1
            elif how == 1:
                tricks[who] += 1
            elif how == 2:
                tricks[rng.choice(names)] = tricks.pop(who)
            else:
                del tricks[who]
        records += [data, bad]

    def read():
        out = []
        for data in records:
            record = record_from_data(data)
            ctx = RecordContext(record, resolve_rules(record.rules))
            for e in record.deals:
                if isinstance(e, Deal):
                    r = ctx.reading(e)
                    out.append(([(p.message, p.path) for p in r.problems], r.tricks, r.tricks_from))
        return out
    fast = read()
    monkeypatch.setattr(deal_cards, "FAST_TRICK_COUNTS", False)
    assert len(records) >= 8 and fast == read()
    assert any("tricks" in m for r in fast for m, _ in r[0])


def test_the_reader_a_context_keeps_between_deals_does_not_keep_the_context():
    """The context keeps one reader for all its deals; the reader lets go of the context between
    them, so a read record is freed by reference counts alone (batches run with the cyclic
    collector paused): no cycle context -> reader -> context, and a second deal read by the same
    reader still reads as a fresh reader reads it."""
    import gc

    from conftest import EXAMPLES
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules

    record = build_record_fast(load_document(str(EXAMPLES / "sochi-3p.yaml")))
    rules = resolve_rules(record.rules)
    ctx = RecordContext(record, rules)
    deals = [e for e in record.deals if isinstance(e, Deal)]
    first = [ctx.reading(e) for e in deals]
    assert ctx.reader is not None and ctx.reader.ctx is None
    assert not any(r is ctx for r in gc.get_referents(ctx.reader))
    fresh = RecordContext(record, rules)
    for e, a in zip(deals, first):
        fresh.reader = None
        b = fresh.reading(e)
        assert a.problems == b.problems and a.declarer == b.declarer and a.tricks == b.tricks, e.number


def test_the_reader_follows_a_rotation_replaced_under_it():
    """The reader reads each deal's dealer from the rotation's list (rules.reading.ReaderBase.start),
    kept while the context's ``dealers`` is the same mapping: a context whose rotation is replaced
    after a reading (rules.context.replay_deal with a dealer) reads the new dealer, and the seat
    fields that go with him, as a context made with that rotation does."""
    from prefcli.model.build import record_from_data
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    record = record_from_data({"format": "pref-record/1", "players": ["Ann", "Bob", "Cid", "Dan"],
                               "rules": {"variant": "sochi"},
                               "deals": [{"contract": "6S", "declarer": "Bob",
                                          "whist": {"Cid": "pass", "Dan": "pass"}},
                                         {"contract": "7H", "declarer": "Cid",
                                          "whist": {"Dan": "whist", "Ann": "pass"},
                                          "tricks": {"Cid": 7, "Dan": 2, "Ann": 1}}]}, strict=True)
    rules = resolve_rules(record.rules)
    ctx = RecordContext(record, rules)
    first, second = record.deals
    assert ctx.reading(second).dealer == "Bob" and ctx.reading(second).sitting_out == ("Bob",)
    ctx.dealers = {**ctx.dealers, 1: "Ann"}
    ctx.forget()
    got = ctx.reading(second)
    assert got.dealer == "Ann" and got.sitting_out == ("Ann",) and got.defenders == ("Dan", "Bob")
    assert ctx.reading(first).dealer == "Ann"          # deal 1 is the rotation's, as before


def test_the_plain_deal_through_keywords_is_the_slot_filled_one():
    """model.build's one-pass summary deal fills a Deal's slots as it reads (_plain_deal); where
    Deal's layout is not the one it knows it goes through a keyword dictionary (_plain_kw): both
    give the same Deal, or both None, for the same data."""
    from prefcli.model import build
    from prefcli.model.diagnostics import Problems
    deals = [{"contract": "6S", "declarer": "Ann", "whist": {"Bob": "whist", "Cid": "pass"},
              "tricks": {"Ann": 6, "Bob": 3, "Cid": 1}, "open": True, "dark": False, "dealer": "Cid"},
             {"contract": "all-pass", "tricks": {"Ann": 2, "Bob": 4, "Cid": 4}},
             {"contract": "misere", "declarer": "Bob", "dark": True, "tricks": {"Bob": 0, "Ann": 5, "Cid": 5}},
             {"contract": "6S", "declarer": " "}, {"contract": "6S", "tricks": {"Ann": True}},
             {"contract": "6S", "whist": {"Bob": "wist"}}, {"contract": "6S", "open": None}, {"contract": "7X"}]
    b = build._Builder(Problems())
    for i, raw in enumerate(deals):
        b.deal(dict(raw), i)                        # the caches learn the spellings
    for i, raw in enumerate(deals):
        slot, kw = build._plain_deal(dict(raw), i, {}), build._plain_kw(dict(raw), i, {})
        assert slot == kw and (slot is None) == (kw is None)
    assert sum(build._plain_deal(dict(raw), i, {}) is not None for i, raw in enumerate(deals)) == 3
