"""The benchmark generator's records replay clean under the engine (benchmarks/generate.py).

Other benchmarks (validate, score, settle) rely on these records being legal, so the generator
is checked here with a small corpus per preset.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from prefcli.rules.engine import check_record, replay_record
from prefcli.model.build import record_from_data
from prefcli.rules.presets import resolve_rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import dump, generate  # noqa: E402


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "rostov", "classic", "lithuanian", "lithuanian-kitty"])
@pytest.mark.parametrize("players", [3, 4])
def test_generated_full_deals_are_legal(variant, players):
    data = generate(40, full=True, players=players, variant=variant, seed=3)
    rec = record_from_data(yaml.load(dump(data, False), Loader=yaml.SafeLoader), strict=True)
    rules = resolve_rules(rec.rules)
    assert check_record(rec, rules) == []
    for rep in replay_record(rec, rules):
        if rep.counts is not None and rep.deal.tricks is not None:
            assert rep.counts == rep.deal.tricks_map() or rep.counts == {**rep.deal.tricks_map()}


def test_generator_is_deterministic_and_summary_deals_add_up():
    a = generate(200, players=3, variant="sochi", seed=5)
    b = generate(200, players=3, variant="sochi", seed=5)
    assert a == b
    kinds = {d["contract"] for d in a["deals"]}
    assert "all-pass" in kinds and "misere" in kinds
    assert any(v == "half-whist" for d in a["deals"] for v in d.get("whist", {}).values())
    for d in a["deals"]:
        if "tricks" in d:
            assert sum(d["tricks"].values()) == 10


def test_generator_cli_records_mode(tmp_path):
    out = tmp_path / "many"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--records", "3",
                    "--deals-per-record", "5", "--json", "-o", str(out)], check=True)
    files = sorted(out.glob("*.json"))
    assert len(files) == 3
    assert all(len(json.loads(f.read_text())["deals"]) == 5 for f in files)
