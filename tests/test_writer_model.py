"""convert writes each deal from the model (issue 18: convert of full deals): `deal_items` stands
in for `deal_to_data`, and `deal_yaml` / `deal_json` for the direct writers' text of that plain
data, with a deal's card texts (hands, talon, discard, play) taken as canonical because they are
made from its cards. Each shortcut is held here to the long way it skips: the same items, the
same bytes, on every example, generated records, --variant conversions and odd made-up deals."""
from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, example_records

from prefcli.io import writer, writer_json, writer_stream
from prefcli.io.writer_stream import DealLines, deal_items, deal_yaml, deal_yaml_items
from prefcli.io.writer_text import _DirectYaml, _NotDirect
from prefcli.model.cards import DECK, Call, CallKind, Decision, format_cards, parse_call, parse_contract
from prefcli.model.records import Deal, Irregularity

# ODD_TEXTS: the texts the direct YAML writer is already held to PyYAML with
from test_writer_direct import ODD_TEXTS


def _long_yaml(deal: Deal):
    """What yaml_pieces writes for the deal's plain data (None: the direct writer declines)."""
    w = _DirectYaml()
    w.out = ["  - "]
    try:
        w.block_mapping(writer.deal_to_data(deal, ("deals", deal.pos)), 4, True, 4, True)
    except _NotDirect:
        return None
    return "".join(w.out)


def _short_yaml(deal: Deal):
    try:
        return deal_yaml(_DirectYaml(), deal)
    except _NotDirect:
        return None


def _items_yaml(deal: Deal):
    """deal_yaml field by field (what it falls back on where DealLines declines)."""
    try:
        return deal_yaml_items(_DirectYaml(), deal)
    except _NotDirect:
        return None


def _lines_yaml(deal: Deal):
    """DealLines' one pass (None where it declines, or where the direct writer would)."""
    try:
        return DealLines(_DirectYaml()).deal(deal)
    except _NotDirect:
        return None


def _long_json(deal: Deal) -> str:
    return writer_json._json_text(writer.deal_to_data(deal, ("deals", deal.pos)), 4, 4, block=True)


def _same(deal: Deal) -> None:
    plain = writer.deal_to_data(deal, ("deals", deal.pos))
    items = [(k, writer_stream.plain_of(k, v) if how == writer_stream.SMALL else v, how)
             for k, v, how in deal_items(deal)]
    assert [k for k, _, _ in items] == list(plain)
    assert {k: v for k, v, _ in items} == plain
    for k, v, how in items:         # the values' types too (True is 1, "1" is not)
        assert repr(v) == repr(plain[k]), k
    assert _short_yaml(deal) == _long_yaml(deal)
    assert _items_yaml(deal) == _long_yaml(deal)
    lines = _lines_yaml(deal)
    assert lines is None or lines == _long_yaml(deal)
    assert writer_json.deal_json(deal) == _long_json(deal)
    lines = writer_json.DealJson().deal(deal)
    assert lines is None or lines == _long_json(deal)


def _deals_of(path):
    from prefcli.io.documents import build_record, load_document
    return [e for e in build_record(load_document(str(path)), check_schema=False).deals if isinstance(e, Deal)]


@pytest.mark.parametrize("path", example_records(), ids=lambda p: p.name)
def test_every_deal_of_every_example_as_the_long_way(path):
    for deal in _deals_of(path):
        _same(deal)


@pytest.mark.parametrize("target", ["sochi", "leningrad", "rostov", "lithuanian", "sochi-husar"])
@pytest.mark.parametrize("path", example_records(), ids=lambda p: p.name)
def test_every_converted_deal_as_the_long_way(path, target):
    from prefcli.app.convert import convert_record
    from prefcli.io.documents import build_record, load_document
    from prefcli.model.diagnostics import PrefcliError
    try:
        conv = convert_record(build_record(load_document(str(path)), check_schema=False), target, check=False)
    except PrefcliError:
        pytest.skip("this record is not converted to that preset")
    for deal in conv.record.only_deals():
        _same(deal)


@pytest.mark.parametrize("extra", [["--full"], ["--full", "--players", "4"], [], ["--players", "4"]])
def test_generated_deals_as_the_long_way(tmp_path, extra):
    out = tmp_path / "g.yaml"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "300", "--seed", "5",
                    *extra, "-o", str(out)], check=True)
    deals = _deals_of(out)
    assert deals
    for deal in deals:
        _same(deal)


@pytest.mark.parametrize("extra", [["--full"], ["--full", "--players", "4"], [], ["--players", "4"]])
def test_generated_deals_are_written_in_one_pass_as_field_by_field(tmp_path, extra):
    """Every generated deal (full: claims, returns, talon-led all-pass tricks of four cards;
    summary) is written by DealLines, by one writer as convert writes them, with the bytes of
    the field-by-field way."""
    out = tmp_path / "g.yaml"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "300", "--seed", "7",
                    *extra, "-o", str(out)], check=True)
    deals_ = _deals_of(out)
    lines, items, whole = DealLines(_DirectYaml()), _DirectYaml(), _DirectYaml()
    json_lines = writer_json.DealJson()
    writer_json._JSON_FIELDS.clear()
    for deal in deals_:
        text = lines.deal(deal)
        assert text is not None, deal
        assert text == deal_yaml_items(items, deal) == deal_yaml(whole, deal) == _long_yaml(deal)
        text = json_lines.deal(deal)
        assert text is not None, deal
        assert text == writer_json.deal_json(deal) == _long_json(deal)
    assert whole._lines is not None and whole._lines.contracts      # deal_yaml took the one pass
    if "--full" in extra:
        assert any(d.claim for d in deals_) and any(d.returned_by for d in deals_)
        assert any(len(t) == 4 for d in deals_ for t in d.play or ())


def test_one_pass_declines_what_it_does_not_write():
    """A field DealLines leaves to the field-by-field way, and values it does not take as they
    are (hands that fit on one line, a trick without cards, a text name of another type)."""
    six = parse_contract("6S")
    for deal in (Deal(pos=0, contract=six, note="n"), Deal(pos=0, contract=six, bid=six),
                 Deal(pos=0, contract=six, dark=True), Deal(pos=0, contract=six, bomb="Ann"),
                 Deal(pos=0, contract=six, hands=(("Ann", DECK[:3]),)),
                 Deal(pos=0, contract=six, play=((DECK[0], DECK[1]), ())),
                 Deal(pos=0, contract=six, play=()), Deal(pos=0, contract=six, dealer=7),
                 Deal(pos=0, contract=six, tricks=(("Ann", True),)),
                 Deal(pos=0, contract=six, irregularities=(Irregularity("revoke", "Ann"),))):
        assert _lines_yaml(deal) is None, deal
        assert writer_json.DealJson().deal(deal) is None, deal
        assert _short_yaml(deal) == _long_yaml(deal)


def test_the_card_shortcut_is_taken_for_a_full_deal_and_its_texts_are_format_cards():
    deal = _deals_of(ROOT / "examples" / "full-deals-sochi.yaml")[0]
    hows = {k: how for k, _, how in deal_items(deal)}
    assert hows["hands"] == writer_stream.HANDS and hows["talon"] == writer_stream.CARDS
    assert hows["play"] == writer_stream.TRICKS
    for c in DECK:          # each card's kept text is the text it prints
        assert c._text == str(c) == format_cards((c,))
    assert writer_stream._card_text(DECK) == " ".join(str(c) for c in DECK)
    assert writer_stream._card_text(()) is None and writer_stream._card_text(["AS"]) is None
    assert format_cards(["AS", DECK[0]]) == "AS " + str(DECK[0])


def test_the_deals_keys_are_plain_in_both_writers():
    """The model writers write the keys as they are: the direct writer and JSON agree."""
    w = _DirectYaml()
    for key in writer.DEAL_KEYS + ("return",):
        assert w.key(key, False) == key
        assert writer_json._json_str(key) == f'"{key}"'


def test_a_streamed_record_written_from_the_model_is_the_whole_text():
    """RecordParts.entries (what convert writes) gives the bytes of the plain deals, a deal
    with penalties and an adjust made plain."""
    from prefcli.io.writer_json import dump, dump_chunks
    from prefcli.rules.canonical import record_parts, record_to_data
    for path in example_records():
        from prefcli.io.documents import build_record, load_document
        record = build_record(load_document(str(path)), check_schema=False)
        parts = record_parts(record)
        for kind in ("json", "yaml"):
            assert "".join(dump_chunks(parts.head, parts.entries(), parts.tail, kind)) == \
                dump(record_to_data(record), kind), (path, kind)


# made-up deals: what a record never holds after validate, and what it may -------------------------

names = st.sampled_from(["Ann", "Bob", "Cid", "Dan"] + ODD_TEXTS)
card_lists = st.lists(st.sampled_from(DECK), max_size=12)
calls = st.sampled_from([parse_call(t) for t in ("pass", "here", "6S", "7NT", "misere", "dark pass", "dark 6H",
                                                  "10NT")] + [Call(CallKind.PASS)])
contracts = st.sampled_from([parse_contract(t) for t in ("6S", "7NT", "misere", "all-pass", "10H")])
cards_or_odd = st.one_of(card_lists, st.lists(st.sampled_from(["AS", "x", 7]), max_size=3))


@st.composite
def deals(draw):
    fields = {}
    if draw(st.booleans()):
        fields["dealer"] = draw(names)
    if draw(st.booleans()):
        fields["hands"] = tuple((draw(names), tuple(draw(cards_or_odd)))
                                for _ in range(draw(st.integers(0, 4))))
    if draw(st.booleans()):
        fields["talon"] = tuple(draw(cards_or_odd))
    if draw(st.booleans()):
        fields["auction"] = tuple(draw(st.lists(calls, max_size=12)))
    if draw(st.booleans()):
        fields["discard"] = tuple(draw(card_lists))
    if draw(st.booleans()):
        fields["declarer"] = draw(names)
    if draw(st.booleans()):
        fields["whist"] = tuple((draw(names), draw(st.sampled_from(list(Decision))))
                                for _ in range(draw(st.integers(0, 3))))
    if draw(st.booleans()):
        fields["open"] = draw(st.sampled_from([True, False]))
    for flag in ("dark", "concede", "without_all", "position"):
        if draw(st.integers(0, 4)) == 0:
            fields[flag] = True
    for name in ("bomb", "takeover", "partner", "returned_by"):
        if draw(st.integers(0, 4)) == 0:
            fields[name] = draw(names)
    if draw(st.booleans()):
        fields["play"] = tuple(tuple(draw(cards_or_odd)) for _ in range(draw(st.integers(0, 12))))
    if draw(st.booleans()):
        fields["tricks"] = tuple((draw(names), draw(st.integers(0, 10))) for _ in range(draw(st.integers(0, 4))))
    if draw(st.integers(0, 3)) == 0:
        fields["claim"] = tuple((draw(names), draw(st.integers(0, 10))) for _ in range(draw(st.integers(0, 2))))
    if draw(st.integers(0, 3)) == 0:
        fields["irregularities"] = (Irregularity(draw(st.sampled_from(["revoke", "lead"])), draw(names)),)
    if draw(st.integers(0, 3)) == 0:
        fields["note"] = draw(st.one_of(st.sampled_from(ODD_TEXTS), st.text(max_size=30)))
    if draw(st.integers(0, 3)) == 0:
        fields["bid"] = draw(contracts)
    return Deal(pos=draw(st.integers(0, 3)), contract=draw(contracts), **fields)


@settings(max_examples=600, deadline=None)
@given(deals())
def test_made_up_deals_as_the_long_way(deal):
    _same(deal)


@pytest.mark.parametrize("n", range(1, 12))
def test_hands_near_the_flow_width_as_the_long_way(n):
    """Hands of n cards a player, names of any length: the one-line form on both sides of the
    width (the model writer makes the block itself only past it)."""
    for name_len in range(1, 14):
        names = [c * name_len for c in "ABC"]
        hands = tuple((p, DECK[i * n:(i + 1) * n]) for i, p in enumerate(names) if (i + 1) * n <= len(DECK))
        for play in ((), (DECK[:1],), (DECK[:1], DECK[1:3]), tuple((c,) for c in DECK[:9])):
            _same(Deal(pos=0, contract=parse_contract("6S"), hands=hands, talon=DECK[-2:], play=play or None))


def test_the_model_writers_decline_alike_where_the_direct_writer_does():
    """A multi-line note or a long name: the direct writer declines (PyYAML writes the part) for
    the model as for the plain data."""
    for note in ("two\nlines", "x" * 3000):
        deal = Deal(pos=0, contract=parse_contract("6S"), hands=(("Ann", DECK[:10]),), note=note)
        assert _short_yaml(deal) is None and _long_yaml(deal) is None
        assert writer_json.deal_json(deal) == _long_json(deal)


def _one_writer(deals_):
    """Each deal's text from one YAML writer and one JSON run, as convert writes a record (the
    fields' memo shared by every deal)."""
    w = _DirectYaml()
    writer_json._JSON_FIELDS.clear()
    lines = writer_json.DealJson()
    out = []
    for deal in deals_:
        try:
            y = deal_yaml(w, deal)
        except _NotDirect:
            y = None
        out.append((y, lines.deal(deal) or writer_json.deal_json(deal)))
    return out


def _alike(deals_):
    for deal, (y, j) in zip(deals_, _one_writer(deals_)):
        assert y == _long_yaml(deal)
        assert j == _long_json(deal)


@settings(max_examples=200, deadline=None)
@given(st.lists(deals(), min_size=2, max_size=12))
def test_made_up_deals_written_by_one_writer_as_the_long_way(deals_):
    _alike(deals_ + deals_)


def test_hands_naming_a_holder_twice_are_written_as_the_long_way():
    """A made-up deal whose hands name Ann three times (hypothesis found it): the one-pass
    writers wrote every row, as a block of three `Ann:` keys, where the long way writes its
    mapping (one Ann, in one line); they now leave such hands to the long way, in YAML and JSON."""
    seven = DECK[0]
    hands = (("Ann", (seven,) * 2), ("Ann", (seven,) * 4), ("Ann", (seven,) * 11))
    deal = Deal(pos=0, contract=parse_contract("6S"), hands=hands, returned_by="Ann")
    other = Deal(pos=0, contract=parse_contract("6S"), dark=True, bomb="Ann", note="")
    _alike([other, deal, other, deal])
    _same(deal)


def test_equal_values_of_other_types_never_share_a_remembered_text():
    """1, 1.0 and True are equal and hash alike: a field holding any but texts and integers (or
    calls, decisions) is written the long way, so each keeps its own text."""
    six = parse_contract("6S")
    base = dict(pos=0, contract=six, declarer="Ann")
    made = [Deal(tricks=(("Ann", 1), ("Bob", 0)), **base), Deal(tricks=(("Ann", True), ("Bob", False)), **base),
            Deal(tricks=(("Ann", 1.0), ("Bob", 0)), **base), Deal(claim=(("Ann", 1),), **base),
            Deal(claim=(("Ann", True),), **base), Deal(whist=((1, Decision.PASS),), **base),
            Deal(whist=((True, Decision.PASS),), **base), Deal(whist=(("1", Decision.PASS),), **base),
            Deal(auction=(parse_call("pass"), 1), **base), Deal(auction=(parse_call("pass"), True), **base),
            Deal(auction=(parse_call("pass"), parse_call("6S")), **base)]
    _alike(made + made[::-1])
    hows = [dict((k, h) for k, _, h in deal_items(d)) for d in made]
    assert hows[0]["tricks"] == writer_stream.SMALL and hows[1]["tricks"] == writer_stream.GENERIC
    assert hows[5]["whist"] == writer_stream.GENERIC and hows[7]["whist"] == writer_stream.SMALL
    assert hows[8]["auction"] == writer_stream.GENERIC and hows[10]["auction"] == writer_stream.SMALL
