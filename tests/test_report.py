"""`prefcli report`: the page's content, checked as HTML (test_browser.py renders it)."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from conftest import EXAMPLES, run_cli
from prefcli.app.report import build_report, option_diffs
from prefcli.render.html import render_report, replay_data
from prefcli.rules.presets import resolve_rules


class Walk(HTMLParser):
    """Collects the tags, attributes and text of a page; checks every tag closes in order."""

    VOID = {"meta", "input", "br", "img", "link", "hr", "path", "rect"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.text = []
        self.stack = []
        self.bad = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.bad.append(tag)
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def walk(html):
    w = Walk()
    w.feed(html)
    w.close()
    return w


def page(name):
    return render_report(build_report(str(EXAMPLES / name)))


def test_game_page_is_self_contained_and_balanced():
    html = page("sochi-3p.yaml")
    w = walk(html)
    assert not w.bad and not w.stack
    # no external asset of any kind, and a policy that forbids loading one
    for tag, a in w.tags:
        for k in ("src", "href", "action", "data", "poster"):
            v = a.get(k)
            assert v is None or v.startswith("#"), (tag, k, v)
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", html)
    assert "@import" not in html and "url(" not in html


def test_game_page_has_the_facts():
    report = build_report(str(EXAMPLES / "sochi-3p.yaml"))
    html = render_report(report)
    text = " ".join(walk(html).text)
    g = report.games[0]
    for p in ("Ann", "Bob", "Cid"):
        assert p in text
        assert str(g.settled.money[p]) in text
    # the README's settle of this game: Cid → Ann 11.67, Bob → Ann 11.27
    assert "Cid → Ann: 11.67" in text and "Bob → Ann: 11.27" in text
    # the preset and the options the record changed (pool 12 instead of Sochi's 20, a price)
    assert "sochi" in text and [(o.name, o.value, o.default) for o in g.options] == [("pool", 12, 20), ("price", "0.1", None)]
    # every ledger entry's explanation is in the deals table
    for e in g.loaded.result.ledger.entries:
        assert e.text in text
    # the slider, labelled, stepping 0…24
    assert re.search(r'<label for="(sheet\d+)-r">Deal</label>', html)
    assert 'type="range"' in html and 'max="24"' in html


def test_options_that_differ_from_the_preset():
    rules = resolve_rules({"variant": "leningrad", "pool": 30}, sets=[("allpass.amnesty", "no")])
    diffs = {o.name: (o.value, o.default) for o in option_diffs(rules)}
    assert diffs == {"pool": (30, 20), "allpass.amnesty": (False, True)}


def test_full_deals_give_a_replay_from_the_engine():
    report = build_report(str(EXAMPLES / "full-deals-sochi.yaml"))
    g = report.games[0]
    data = replay_data(g.replays)
    assert [d["n"] for d in data] == [r.number for r in g.replays] and data
    d1 = data[0]
    # README's replay of deal 1: Bob 7S, talon 9C 8C, discard 7D 7C, trick 1 AS 8S 7H → Bob
    assert d1["contract"] == "7S by Bob" and d1["talon"] == ["9C", "8C"] and d1["discard"] == ["7D", "7C"]
    assert d1["tricks"][0] == {"cards": [["Bob", "AS"], ["Cid", "8S"], ["Ann", "7H"]], "winner": "Bob"}
    assert len(d1["tricks"]) == 10 and d1["result"] == "Bob 8, Cid 1, Ann 1"
    # the declarer plays with the talon taken and the discard put away
    assert "9C" in d1["playing"]["Bob"] and "7D" not in d1["playing"]["Bob"] and len(d1["playing"]["Bob"]) == 10
    html = render_report(report)
    assert 'class="replay"' in html and "next ▶" in html


def test_tournament_page_has_standings_rounds_and_games():
    report = build_report(str(EXAMPLES / "tournament"))
    html = render_report(report)
    text = " ".join(walk(html).text)
    assert report.title == "Club autumn cup"
    assert [g.name.split("/")[-1] for g in report.games] == ["round1.yaml", "round2.yaml", "round3.yaml"]
    # README's settle of the folder: totals 54, -34, 144, -164 whists; Dan eliminated after round 3
    for v in ("+54", "-34", "+144", "-164", "5.40", "-16.40"):
        assert v in text
    assert "eliminated after round3.yaml" in text
    assert [s.player for s in report.standings] == ["Bob", "Cid", "Ann", "Dan"]
    assert html.count('<section id="game') == 3


def test_cli_report(tmp_path):
    out = tmp_path / "game.html"
    code, _, err = run_cli(["report", "examples/lithuanian-4p.yaml", "-o", str(out)])
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Kleboniškiai evening" in html
    code, _, err = run_cli(["report", "examples/tournament/tournament.yaml"])
    assert code == 1 and "lists no rounds" in err
    code, _, err = run_cli(["report", "examples/nope.yaml"])
    assert code == 1
