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
