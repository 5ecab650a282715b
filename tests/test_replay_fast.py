"""The replay's fast makers and checks (issue 18) give what the plain ways give."""
from __future__ import annotations

import dataclasses
import pickle


def test_a_replay_made_without_the_dataclass_init_is_the_dataclass_object():
    from prefcli.model.cards import parse_contract
    from prefcli.model.records import Deal
    from prefcli.rules import replayed
    from prefcli.rules.replayed import DealReplay, new_replay
    assert replayed._TEMPLATE is not None, "DealReplay's fields changed: see replayed._template"
    deal = Deal(pos=3, contract=parse_contract("6S"))
    a, b = new_replay(deal, 4), DealReplay(deal=deal, number=4)
    assert type(a) is DealReplay and a == b and repr(a) == repr(b) and vars(a) == vars(b)
    assert list(vars(a)) == [f.name for f in dataclasses.fields(DealReplay)]
    assert pickle.loads(pickle.dumps(a)) == b
    c = new_replay(deal, 4)
    for name in replayed._TEMPLATE[1]:             # every list its own
        assert getattr(a, name) == [] and getattr(a, name) is not getattr(c, name)


def _discard_records():
    """Generated full deals, and the same deals with the discard changed: a card of another
    hand, one card twice, the talon's cards, a card of the declarer's own hand, three cards."""
    import copy
    import sys

    from conftest import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    out = []
    for players in (3, 4):
        data = generate(40, full=True, players=players, variant="sochi", seed=5)
        out.append(data)
        bad = copy.deepcopy(data)
        for i, deal in enumerate(bad["deals"]):
            if not deal.get("discard") or not deal.get("declarer"):
                continue
            own = deal["hands"][deal["declarer"]].split()
            other = next(h for p, h in deal["hands"].items() if p != deal["declarer"]).split()
            first = deal["discard"].split()[0]
            deal["discard"] = [f"{first} {other[0]}", f"{first} {first}", deal["talon"],
                               f"{own[0]} {own[1]}", f"{deal['discard']} {other[1]}"][i % 5]
        out.append(bad)
    return out


def test_the_discard_told_by_the_cards_bits_reads_and_replays_as_the_long_way(monkeypatch):
    """The reading's and the replay's discard checks on the cards' bits (deal_cards.discard,
    replay contract) give the same problems and replays as the long way by identity and equality."""
    from prefcli.model.build import record_from_data
    from prefcli.rules import deal_cards, replay
    from prefcli.rules.checks import check_record
    from prefcli.rules.presets import resolve_rules

    def run():
        got = []
        for data in _discard_records():
            record = record_from_data(data)
            got.append([(p.message, p.path) for p in check_record(record, resolve_rules(record.rules), warnings=True)])
        return got

    fast = run()

    def no_bits(card):
        raise AttributeError("_bit")
    monkeypatch.setattr(deal_cards, "_BIT", no_bits)
    monkeypatch.setattr(replay, "_BIT", no_bits)
    slow = run()
    assert fast == slow
    words = [m for r in fast for m, _ in r]
    assert any("neither in his hand nor in the talon" in m for m in words)
    assert any("discarded twice" in m for m in words)
