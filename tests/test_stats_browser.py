"""The season picture (stats --svg) and the tournament page's chart in a real headless Chromium.

Skips without Chromium outside CI, like tests/test_browser.py; under CI=true it must run.
"""
from __future__ import annotations


import pytest

from browser import browser_fixture, png_colours, png_size
from conftest import EXAMPLES, run_cli

browser = browser_fixture(800, 500)


def test_season_svg_in_the_browser(browser, tmp_path):
    pic = tmp_path / "season.svg"
    code, _, err = run_cli(["stats", str(EXAMPLES / "season-2019"), "--svg", str(pic)])
    assert code == 0, err
    browser.clear()
    browser.open(pic)
    png = browser.screenshot(tmp_path / "season.png", full_page=False)
    assert browser.errors() == []
    assert [u for u in browser.requests() if not u.startswith("file://")] == []
    assert png_size(png) == (800, 500) and png_colours(png) > 4
    # four series, each drawn with a length, and every legend entry inside the picture
    lengths = browser.eval("[].map.call(document.querySelectorAll('.pf-series'),function(p){return p.getTotalLength()})")
    assert len(lengths) == 4 and min(lengths) > 100
    legend = browser.eval("[].map.call(document.querySelectorAll('.pf-legend'),function(t){var r=t.getBoundingClientRect();"
                          "return [t.textContent, r.right <= 720 && r.left >= 0]})")
    assert sorted(t for t, _ in legend) == ["AA -2275", "AM 2351", "VK -463", "VS 387"]
    assert all(inside for _, inside in legend)


def test_tournament_page_has_the_running_totals(browser, tmp_path):
    page = tmp_path / "cup.html"
    code, _, err = run_cli(["report", str(EXAMPLES / "tournament"), "-o", str(page)])
    assert code == 0, err
    browser.clear()
    browser.open(page)
    players = browser.eval("[].map.call(document.querySelectorAll('#standings .pf-series'),"
                           "function(p){return p.getAttribute('data-player')})")
    assert sorted(players) == ["Ann", "Bob", "Cid", "Dan"]
    assert browser.errors() == []
