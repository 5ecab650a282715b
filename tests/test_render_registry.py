"""One registry of renderers (issue 10.5): it is the list of formats, and the commands' --format
choices come from it."""
from __future__ import annotations

import importlib

import pytest

from prefcli import render
from conftest import run_cli


@pytest.mark.parametrize("report,fmt,target", render.rows())
def test_every_registered_renderer_exists(report, fmt, target):
    module, _, func = target.partition(":")
    assert callable(getattr(importlib.import_module(module), func))


def test_aliases_resolve_to_registered_formats():
    assert render.canonical("check", "text") == "table"
    assert "text" in render.choices("check") and render.formats("check")[0] == "table"
    with pytest.raises(KeyError):
        render.canonical("check", "svg")


def test_a_registered_format_becomes_a_choice(monkeypatch):
    monkeypatch.setitem(render.REGISTRY, "check", {**render.REGISTRY["check"],
                                                     "lines": "prefcli.render.check:summary_line"})
    from prefcli.app.check import check
    report = check(["examples/sochi-3p.yaml"])
    assert render.render("check", "lines", report) == "1 valid, 0 invalid"
    assert "lines" in render.choices("check")


def test_validate_offers_the_registry_choices():
    code, out, err = run_cli(["validate", "--help"])
    assert code == 0
    for name in render.formats("check"):
        assert name in out
    code, out, err = run_cli(["validate", "-f", "svg", "examples/sochi-3p.yaml"])
    assert code == 2 and "svg" in err
