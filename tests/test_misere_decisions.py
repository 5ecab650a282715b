"""Whist decisions on a misère: one reading per family, and every command agrees on it.

- Russian presets (and the husar game): nobody whists or passes a misère, both defenders (at two,
  the opponent) catch it. Seed 001 l.108-122, the whisting section's table of what the whisters
  must take: "Мизер | нет обязательств"; seed 003 l.102: once the misère is named "Jeśli ruch
  należy do przeciwników, oni odkrywają karty przed swoim pierwszym ruchem" (the opponents put
  their cards down, nobody is asked), l.138 "Mizer Brak zobowiązań"; seed 004 l.456 "Mizeris
  žaidžiamas ryškiai"; HUSAR.md H14 "The misère is always caught. The opponent catches". So any
  whist decision on a misère (all, some, or passes only) is refused where it is written.
- Lithuanian presets: "Vistuojantiesiems galioja tos pačios vistavimo taisyklės" (seed 002 l.155,
  the same whisting rules), "kartais būna, kad «mizerį gaudo» vienas" (l.157, one catches alone):
  each defender's decision is written (a partial record is refused), a lone whister catches it
  alone, and when both pass it is made without play.
validate exits 0 exactly when score, replay --check, settle and convert do.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from prefcli.app.convert import convert_record
from prefcli.model.build import record_from_data
from prefcli.rules.checks import check_record
from prefcli.scoring import score

P3 = ["Ann", "Bob", "Cid"]
MISERE = {"contract": "misere", "declarer": "Ann", "tricks": {"Ann": 1, "Bob": 5, "Cid": 4}}
RUSSIAN_WHY = "nobody whists or passes a misère: both defenders catch it"


def _data(deals, variant="sochi", players=P3):
    return {"format": "pref-record/1", "players": players, "rules": {"variant": variant}, "deals": deals}


def _messages(data):
    return [p.message for p in check_record(record_from_data(data, strict=True)) if p.severity == "error"]


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "rostov", "classic"])
@pytest.mark.parametrize("whist", [{"Bob": "whist"}, {"Cid": "pass"}, {"Bob": "pass", "Cid": "pass"},
                                   {"Bob": "whist", "Cid": "pass"}, {"Bob": "whist", "Cid": "whist"}])
def test_russian_misere_whist_decisions_are_refused(variant, whist):
    """Seed 001 l.121-122 "Мизер | нет обязательств": some defenders' decisions, passes only, or
    both whisting: refused, whatever they say; without them the misère is caught by both."""
    msgs = _messages(_data([{**MISERE, "whist": whist}], variant))
    assert len(msgs) == 1 and msgs[0].startswith(f"deal 1: {RUSSIAN_WHY}"), msgs
    assert "seed 001 l.121-122" in msgs[0] and "leave whist out" in msgs[0]
    assert _messages(_data([MISERE], variant)) == []
    result = score(record_from_data(_data([MISERE], variant), strict=True))
    assert {(e.player, e.area) for e in result.ledger.entries if e.amount} >= {("Ann", "mountain")}


def test_husar_misere_whist_decision_is_refused():
    """HUSAR.md H14: "The misère is always caught. The opponent catches" - no decision."""
    deal = {"contract": "misere", "declarer": "Anna", "whist": {"Boris": "whist"}, "tricks": {"Anna": 0, "Boris": 10}}
    msgs = _messages(_data([deal], "sochi-husar", ["Anna", "Boris"]))
    assert len(msgs) == 1 and msgs[0].startswith("deal 1: nobody whists or passes a misère: the opponent catches it"), msgs
    assert "HUSAR.md H14" in msgs[0]
    del deal["whist"]
    assert _messages(_data([deal], "sochi-husar", ["Anna", "Boris"])) == []


def test_lithuanian_misere_decisions_keep_their_meaning():
    """Seed 002 l.155, l.157: a lone catcher, or both passing (made without play); some
    defenders' decisions only: refused, never read as a pass."""
    lone = {**MISERE, "whist": {"Bob": "whist", "Cid": "pass"}}
    assert _messages(_data([lone], "lithuanian")) == []
    passed = {"contract": "misere", "declarer": "Ann", "whist": {"Bob": "pass", "Cid": "pass"}}
    assert _messages(_data([passed], "lithuanian")) == []
    partial = {**MISERE, "whist": {"Bob": "whist"}}
    msgs = _messages(_data([partial], "lithuanian"))
    assert msgs and "the decision of Cid is missing" in msgs[0]


def test_lithuanian_misere_converted_to_a_russian_preset_drops_its_decisions():
    """Under the Russian presets nobody whists a misère (seed 001 l.121-122), so convert leaves the
    decisions out and says so; a defender who passed now catches it too (a loss)."""
    rec = record_from_data(_data([{**MISERE, "whist": {"Bob": "whist", "Cid": "pass"}}], "lithuanian"), strict=True)
    conv = convert_record(rec, "sochi")
    assert "whist" not in conv.data["deals"][0]
    (item,) = [i for i in conv.items if i.field == "whist"]
    assert item.loss and "Cid passed and now catches it too" in item.what
    assert _messages(conv.data) == []


COMMANDS = [["validate"], ["score"], ["replay", "--check"], ["settle"], ["convert", "-f", "json"]]


@pytest.mark.parametrize("variant,players,deal", [
    ("sochi", P3, {**MISERE, "whist": {"Bob": "whist"}}),
    ("leningrad", P3, {**MISERE, "whist": {"Bob": "pass", "Cid": "pass"}}),
    ("sochi-husar", ["Anna", "Boris"], {"contract": "misere", "declarer": "Anna", "whist": {"Boris": "pass"},
                                        "tricks": {"Anna": 0, "Boris": 10}}),
])
def test_every_command_refuses_it_at_the_same_place(run, tmp_path, variant, players, deal):
    path = tmp_path / "misere.yaml"
    path.write_text(yaml.safe_dump(_data([deal], variant, players), allow_unicode=True, sort_keys=False,
                                   default_flow_style=None),
                    encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("whist:")) + 1
    located = None
    for args in COMMANDS:
        code, out, err = run(args + [str(path)])
        assert code == 1, (args, out, err)
        first = next(line for line in err.splitlines() if "misère" in line)
        where, _, message = first.partition(": deals[0].whist")
        assert where.startswith(f"{path}:{row}:"), first
        assert located in (None, message), (args, first)
        located = message
