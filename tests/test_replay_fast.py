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


def test_the_replays_whist_is_the_defenders_in_the_order_they_speak_however_written():
    """The replay's whist decisions taken as written when they are written in the order the
    defenders speak (replay.whist): the same pairs as the defenders' order gives, and the same
    when the record writes them the other way round."""
    import sys

    from conftest import ROOT
    from prefcli.model.build import record_from_data
    from prefcli.model.records import Deal
    from prefcli.rules.context import RecordContext
    from prefcli.rules.presets import resolve_rules
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    for players in (3, 4):
        data = generate(60, full=True, players=players, variant="sochi", seed=3)
        turned = {**data, "deals": [{**d, "whist": dict(reversed(list(d["whist"].items())))} if d.get("whist") else d
                                    for d in data["deals"]]}
        seen = []
        for one in (data, turned):
            record = record_from_data(one)
            ctx = RecordContext(record, resolve_rules(record.rules), keep_tricks=False)
            got = []
            for e in record.deals:
                if isinstance(e, Deal):
                    r = ctx.reading(e)
                    if r.replay is not None and not r.deal.contract.is_all_pass:
                        want = [(p, r.decisions[p]) for p in r.defenders if p in r.decisions and p != r.dummy]
                        assert r.replay.whist == want
                        got.append(r.replay.whist)
            seen.append(got)
        assert seen[0] == seen[1] and len(seen[0]) > 20


def test_the_rungs_kept_by_the_contracts_identity_are_the_ladders():
    """replay._rung keeps each contract's rung by the object's identity, with its rules: asked
    under two rules in turn (one with rungs the other has not), every answer is the ladder's."""
    from prefcli.model.cards import parse_contract
    from prefcli.rules import replay
    from prefcli.rules.conventions import conventions
    from prefcli.rules.presets import resolve_rules
    convs = [conventions(resolve_rules({"variant": v})) for v in ("sochi", "lithuanian")]
    texts = ["6S", "7NT", "misere", "9H", "10D", "misere-without-talon", "9S-without-talon"]
    contracts = []
    for text in texts:
        try:
            contracts.append(parse_contract(text))
        except Exception:       # noqa: BLE001 - a contract these rules do not write
            pass
    assert len(contracts) >= 5
    for _ in range(3):
        for conv in convs:
            for c in contracts:
                got = replay._RUNGS.get(id(c))
                kept = got[2] if got is not None and got[0] is conv and got[1] is c else replay._rung(conv, c)
                assert kept == conv.rung.get(c)
