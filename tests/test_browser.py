"""The pictures and the page in a real headless Chromium (tests/browser.py drives it).

Without Chromium these tests skip and say why; under CI=true they must run (.ci/run installs
Debian's chromium), so a missing browser fails CI instead of passing silently.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from browser import browser_fixture, png_colours, png_size
from conftest import EXAMPLES, run_cli

browser = browser_fixture(1000, 800)


def only_local(requests):
    return [u for u in requests if not u.startswith("file://")]


def make(tmp_path: Path, args, name: str) -> Path:
    out = tmp_path / name
    code, _, err = run_cli([*args, "-o", str(out)])
    assert code == 0, err
    return out


@pytest.mark.parametrize("example", ["sochi-3p.yaml", "leningrad-4p.yaml", "lithuanian-4p.yaml", "kitty-4p.yaml",
                                     "husar-sochi.yaml"])
def test_sheet_svg_renders(browser, tmp_path, example):
    svg = make(tmp_path, ["draw", f"examples/{example}"], "sheet.svg")
    browser.clear()
    browser.open(svg)
    png = browser.screenshot(tmp_path / "sheet.png", full_page=False)
    assert browser.errors() == []
    assert only_local(browser.requests()) == []
    assert png_size(png) == (1000, 800)
    assert png_colours(png) > 3, "the screenshot is blank"
    # the drawing has its size and every player's name drawn in it
    box = browser.eval("(function(){var r=document.documentElement.getBoundingClientRect();return [r.width,r.height]})()")
    assert box[0] > 300 and box[1] > 300
    names = browser.eval("[].map.call(document.querySelectorAll('.pf-nm'),function(t){return t.textContent})")
    from prefcli.io.documents import load_record
    record, _ = load_record(EXAMPLES / example)
    assert sorted(names) == sorted(record.players)
    # the text really has room: every name's box lies inside the picture
    inside = browser.eval("(function(){var s=document.documentElement.getBBox?document.documentElement:null;"
                          "var W=+document.documentElement.getAttribute('width'),H=+document.documentElement.getAttribute('height');"
                          "return [].every.call(document.querySelectorAll('.pf-nm'),function(t){var r=t.getBoundingClientRect();"
                          "return r.left>=-1&&r.top>=-1&&r.right<=W+1&&r.bottom<=H+1;});})()")
    assert inside


def test_report_page_in_the_browser(browser, tmp_path):
    page = make(tmp_path, ["report", "examples/sochi-3p.yaml"], "game.html")
    browser.clear()
    browser.open(page)
    png = browser.screenshot(tmp_path / "page.png", full_page=False)
    assert browser.errors() == []
    assert only_local(browser.requests()) == [], "the page asked for something outside itself"
    assert png_colours(png) > 3
    text = browser.eval("document.body.innerText")
    from prefcli.app.report import build_report
    g = build_report(str(EXAMPLES / "sochi-3p.yaml")).games[0]
    for p in g.loaded.source.players:
        assert p in text
        assert str(g.settled.money[p]) in text            # the final money
        sheet = g.loaded.result.sheet()
        row = browser.eval(f"(function(){{var rows=document.querySelectorAll('table.final tbody tr');"
                           f"for(var i=0;i<rows.length;i++){{if(rows[i].cells[0].textContent==={p!r})"
                           f"return [].map.call(rows[i].cells,function(c){{return c.textContent}});}}}})()")
        assert row[1] == str(sheet.pool[p]) and row[2] == str(sheet.mountain[p])
    # the slider steps the sheet: after deal 6 Bob's mountain reads 3·15·21
    shown = browser.eval("""(function(){var r=document.querySelector('figure.sheet input[type=range]');
        r.value=6;r.dispatchEvent(new Event('input'));
        return [].filter.call(document.querySelectorAll('figure.sheet [data-s]'),function(g){return g.style.display!=='none'})
          .map(function(g){return g.textContent}).join('|');})()""")
    assert "3·15·21" in shown and "45" not in shown.split("Bob: mountain")[1].split("|")[0]
    assert browser.eval("document.querySelector('figure.sheet output').textContent") == "6: 8D Bob"
    # the keyboard steps it too (the slider has the focus)
    browser.eval("document.querySelector('figure.sheet input[type=range]').focus()")
    browser.key("ArrowRight", "ArrowRight", 39)
    from prefcli.render.sheet import deal_label
    assert browser.eval("document.querySelector('figure.sheet output').textContent") == "7: " + deal_label(g.loaded.result.record, 7)
    # a deal's number in the deals table shows the sheet after that deal
    browser.eval("document.querySelector('button.goto[data-step=\"3\"]').click()")
    assert browser.eval("document.querySelector('figure.sheet output').textContent") == "3: " + deal_label(g.loaded.result.record, 3)
    assert browser.errors() == []


def test_replay_steps_trick_by_trick(browser, tmp_path):
    page = make(tmp_path, ["report", "examples/full-deals-sochi.yaml"], "full.html")
    browser.clear()
    browser.open(page)
    view = "document.querySelector('.replay .view').innerText"
    trick = "(document.querySelector('.replay .trick')||{innerText:''}).innerText"
    before = browser.eval(view)
    assert "Auction: Bob 6S, Cid pass, Ann 6C, Bob here, Ann pass" in before
    assert browser.eval(trick) == ""
    browser.eval("document.querySelector('.replay .next').click()")
    t1 = browser.eval(trick)
    assert "A♠" in t1 and "8♠" in t1 and "7♥" in t1            # README: trick 1 AS 8S 7H → Bob
    browser.eval("document.querySelector('.replay').focus()")
    browser.key("ArrowRight", "ArrowRight", 39)
    t2 = browser.eval(trick)
    assert t2 != t1 and "A♥" in t2 and "Q♥" in t2                # trick 2: AH QH 8H
    browser.key("ArrowLeft", "ArrowLeft", 37)
    assert browser.eval(trick) == t1
    browser.key("End", "End", 35)
    assert "Result: Bob 8, Cid 1, Ann 1" in browser.eval(view)
    browser.eval("document.querySelector('.replay').scrollIntoView()")
    png = browser.screenshot(tmp_path / "replay.png", full_page=False)
    assert png_colours(png) > 3
    assert browser.errors() == [] and only_local(browser.requests()) == []


def test_tournament_page_and_dark_mode(browser, tmp_path):
    page = make(tmp_path, ["report", "examples/tournament/"], "cup.html")
    browser.clear()
    browser.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
    try:
        browser.open(page)
        bg = browser.eval("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(23, 24, 26)"
        text = browser.eval("document.body.innerText")
        for name in ("Ann", "Bob", "Cid", "Dan", "Standings", "round1.yaml", "round3.yaml", "14.40"):
            assert name in text
        png = browser.screenshot(tmp_path / "dark.png", full_page=False)
        assert png_colours(png) > 3
    finally:
        browser.call("Emulation.setEmulatedMedia", features=[])
    assert browser.errors() == [] and only_local(browser.requests()) == []


def test_print_puts_the_sheet_and_settlement_on_one_a4_page(browser, tmp_path):
    page = make(tmp_path, ["report", "examples/lithuanian-4p.yaml"], "lt.html")
    browser.clear()
    browser.open(page)
    # A4 at 96 px/in with 12 mm margins: 186 mm × 273 mm of printable area
    width, height = 186 / 25.4 * 96, 273 / 25.4 * 96
    browser.call("Emulation.setDeviceMetricsOverride", width=int(width), height=int(height), deviceScaleFactor=1,
                 mobile=False)
    browser.call("Emulation.setEmulatedMedia", media="print")
    try:
        box = browser.eval("(function(){var r=document.querySelector('.summary').getBoundingClientRect();"
                           "return [r.width,r.height];})()")
        hidden = browser.eval("getComputedStyle(document.querySelector('.controls')).display")
    finally:
        browser.call("Emulation.setEmulatedMedia", media="")
        browser.call("Emulation.setDeviceMetricsOverride", width=1000, height=800, deviceScaleFactor=1, mobile=False)
    assert box[0] <= width + 1 and 100 < box[1] <= height
    assert hidden == "none"
    pdf = browser.pdf()
    assert pdf.startswith(b"%PDF")


def test_cyrillic_and_lithuanian_names_render(browser, tmp_path):
    rec = tmp_path / "names.yaml"
    rec.write_text((EXAMPLES / "sochi-3p.yaml").read_text(encoding="utf-8")
                   .replace("Ann", "Аня").replace("Bob", "Щукин").replace("Cid", "Žydrūnė"), encoding="utf-8")
    svg = make(tmp_path, ["draw", str(rec)], "names.svg")
    browser.clear()
    browser.open(svg)
    widths = browser.eval("(function(){var o={};[].forEach.call(document.querySelectorAll('.pf-nm'),function(t){"
                          "o[t.textContent]=t.getComputedTextLength();});return o;})()")
    assert set(widths) == {"Аня", "Щукин", "Žydrūnė"}
    assert all(w > 10 for w in widths.values())
    page = make(tmp_path, ["report", str(rec)], "names.html")
    browser.clear()
    browser.open(page)
    text = browser.eval("document.body.innerText")
    assert "Аня" in text and "Щукин" in text and "Žydrūnė" in text
    assert browser.errors() == [] and only_local(browser.requests()) == []
