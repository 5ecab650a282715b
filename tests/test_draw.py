"""`prefcli draw`: the sheet as SVG, checked as XML (the browser tests look at the pictures).

Every number in a cell is a running total of the scorer's ledger entries, so the tests compare
the drawing with the ledger and with the numbers the seeds and README state.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from conftest import EXAMPLES, run_cli
from prefcli.io.documents import load_record, load_sheet
from prefcli.model.ledger import format_amount
from prefcli.render import svg, svg_frames, svg_layouts
from prefcli.rules.presets import resolve_rules
from prefcli.scoring import score

NS = "{http://www.w3.org/2000/svg}"


def scored(name, **kw):
    record, _ = load_record(EXAMPLES / name)
    return score(record, **kw)


def source(name, **kw):
    return svg.source_of_result(scored(name, **kw))


def parse(text):
    return ET.fromstring(text)


def cell_texts(root):
    """{title: text} of every drawn cell (its <title> names player and area)."""
    out = {}
    for g in root.iter(NS + "g"):
        t = g.find(NS + "title")
        if t is None:
            continue
        out[t.text] = "".join("".join(x.itertext()) for x in g.findall(NS + "text"))
    return out


@pytest.mark.parametrize("name", ["sochi-3p.yaml", "leningrad-4p.yaml", "lithuanian-4p.yaml", "kitty-4p.yaml", "husar-sochi.yaml",
                                  "full-deals-sochi.yaml"])
@pytest.mark.parametrize("style", svg.STYLES)
def test_every_example_draws_well_formed_svg(name, style):
    text = svg.render(source(name), style=style)
    root = parse(text)
    assert root.tag == NS + "svg" and root.get("viewBox")
    # nothing external: no href, no font but generic families
    assert "href" not in text and "url(" not in text and "@import" not in text
    fams = set(re.findall(r"font-family:([^;}]+)", text))
    assert fams and fams <= {"serif", "sans-serif"}


def test_running_totals_are_the_ledgers_separated_by_dots():
    res = scored("sochi-3p.yaml")
    texts = cell_texts(parse(svg.render(svg.source_of_result(res))))
    # Bob's mountain, deal by deal, summed from the ledger's own entries
    run, total = [], Fraction(0)
    for deal in range(1, len(res.record.deals) + 1):
        es = [e for e in res.ledger.entries if e.deal == deal and e.player == "Bob" and e.area == "mountain"]
        if es:
            total += sum((e.amount for e in es), Fraction(0))
            run.append(str(format_amount(total)))
    title = "Bob: mountain " + " · ".join(run)
    assert title in texts
    assert texts[title].replace("…", "").endswith("·".join(run[-3:]))
    # the README's sheet after 6 deals: Bob 2/21, whists Cid on Bob 26 (deal 6 writes 12 and a
    # consolation of 6 in the same cell: one new total, as a hand writes it)
    after6 = cell_texts(parse(svg.render(svg.source_of_result(res), 6)))
    assert after6["Bob: mountain 3 · 15 · 21"] == "3·15·21"
    assert after6["Cid: whists on Bob 8 · 26"] == "8·26"
    assert after6["Ann: pool 2 · 12"] == "2·12"


def test_final_values_match_the_sheet():
    res = scored("lithuanian-4p.yaml")
    sheet = res.sheet()
    texts = cell_texts(parse(svg.render(svg.source_of_result(res))))
    for p in res.record.players:
        track = [t for t in texts if t.startswith(f"{p}: track ")]
        hens = [t for t in texts if t.startswith(f"{p}: hens ")]
        assert track and track[0].endswith(" " + str(format_amount(sheet.pool[p])))
        assert hens and hens[0].endswith(" " + str(format_amount(sheet.mountain[p])))
        for q in res.record.players:
            v = sheet.whists[p][q] if q != p else 0
            if v:
                assert any(t.startswith(f"{p}: whists on {q} ") and t.endswith(" " + str(format_amount(v)))
                           for t in texts)


def test_the_lithuanian_start_hens_are_the_first_value():
    # seed 002: "kiekvienas žaidėjas savo skiltyse N2, E2, S2, W2 (trikampiuose) užsirašo sumą, lygią
    # pusei rombe įrašytos sumos" — the track is 60 in the example, so every hill starts at 30
    texts = cell_texts(parse(svg.render(source("lithuanian-4p.yaml"), 0)))
    for p in "NESW":
        assert texts[f"{p}: hens 30"] == "30"
    assert texts["track target: 60"] == "60"


def test_closed_pool_and_track_are_marked():
    done = parse(svg.render(source("sochi-3p.yaml")))
    closed = [t.text for t in done.iter(NS + "title") if "is closed" in t.text]
    assert sorted(closed) == ["Ann's pool is closed (>>)", "Bob's pool is closed (>>)", "Cid's pool is closed (>>)"]
    start = parse(svg.render(source("sochi-3p.yaml"), 1))
    assert not [t for t in start.iter(NS + "title") if "is closed" in t.text]
    lt = parse(svg.render(source("lithuanian-4p.yaml")))
    res = scored("lithuanian-4p.yaml")
    full = sorted(p for p in res.record.players if res.sheet().pool[p] >= 60)
    marked = sorted(t.text.split("'")[0] for t in lt.iter(NS + "title") if "is closed (››)" in t.text)
    assert marked == full and full


def test_the_dealer_of_the_next_deal_is_marked():
    res = scored("sochi-3p.yaml")
    root = parse(svg.render(svg.source_of_result(res), 4))
    dealers = [t.text for t in root.iter(NS + "title") if " deals" in t.text]
    assert dealers == [f"{res.dealers[4]} deals deal 5"]
    assert len([g for g in root.iter(NS + "g") if "pf-dealer" in (g.get("class") or "")]) == 1


def test_egle_strokes_follow_the_scorer():
    res = scored("lithuanian-4p.yaml")
    root = parse(svg.render(svg.source_of_result(res)))
    left = {p: n for p, n in res.extra["egles"].items()}
    start = res.extra["egles_start"]
    titles = [t.text for t in root.iter(NS + "title") if "eglė(s) still to play" in t.text]
    assert len(titles) == 4
    for p in res.record.players:
        assert any(t.startswith(f"{p}: {left[p]} of ") for t in titles)
    assert start == 4


def test_kitty_sheet_has_the_seed000_cells_and_eglute_tables():
    res = scored("kitty-4p.yaml")
    text = svg.render(svg.source_of_result(res))
    root = parse(text)
    # seed 000's sheet words
    for words in ("KATILO TAŠKAI", "VIŠTOS", "IŠ BENAS PELNYTI VISTAI"):
        assert words in text
    tables = {t.text.split("'")[0]: t.text for t in root.iter(NS + "title") if "eglutė table" in t.text}
    assert set(tables) == set(res.record.players)
    # Aistė: 2 tricks, sat out (she dealt deal 2), 4, 7; then five games, the fifth beyond her four
    # rights ("Viršum viršeglutinio varžybų žaidimo žymima X"); M is the misère
    assert tables["Aistė"] == "Aistė's eglutė table: tricks 2 S 4 7 X; declared 6 M 6 7 6"
    centre = [t.text for t in root.iter(NS + "title") if "premium" in t.text or "target" in t.text]
    assert "kitty target: 60" in centre and "half-kitty premium: 60" in centre and "full-kitty premium: 120" in centre


def test_a_paper_sheet_draws_its_single_values():
    sheet, _ = load_sheet(EXAMPLES / "seed000-sheet.yaml")
    text = svg.render(svg.source_of_sheet(sheet, resolve_rules(sheet.rules)))
    texts = cell_texts(parse(text))
    # seed 000's settlement table: A won 270 from B, 480 from C, 180 from D
    assert texts["A: whists on B 270"] == "270"
    assert texts["A: whists on C 480"] == "480"
    assert texts["D: whists on A 660"] == "660"


def test_cyrillic_and_lithuanian_names_are_kept(tmp_path):
    p = tmp_path / "cyr.yaml"
    p.write_text((EXAMPLES / "sochi-3p.yaml").read_text(encoding="utf-8")
                 .replace("Ann", "Аня").replace("Bob", "Борис").replace("Cid", "Žydrūnas"), encoding="utf-8")
    code, out, err = run_cli(["draw", str(p)])
    assert code == 0, err
    root = parse(out)
    names = [("".join(t.itertext())) for t in root.iter(NS + "text") if "pf-nm" in (t.get("class") or "")]
    assert sorted(names) == sorted(["Аня", "Борис", "Žydrūnas"])


def test_steps_svg_shows_the_final_frame_by_default():
    src = source("sochi-3p.yaml")
    text, labels = svg.render_steps(src)
    root = parse(text)
    assert len(labels) == 25 and labels[0] == "start" and labels[6] == "6: 8D Bob"
    visible = [g for g in root.iter(NS + "g") if g.get("data-s") and "display:none" not in (g.get("style") or "")]
    ranges = [tuple(map(int, g.get("data-s").split("-"))) for g in visible]
    assert ranges and all(a <= 24 <= b for a, b in ranges)
    # the parts shown after deal 6 are exactly what --after 6 draws
    at6 = [g for g in root.iter(NS + "g") if g.get("data-s")
           and int(g.get("data-s").split("-")[0]) <= 6 <= int(g.get("data-s").split("-")[1])]
    drawn6 = cell_texts(parse(svg.render(src, 6)))
    steps6 = {}
    for g in at6:
        steps6.update(cell_texts(g))
    assert steps6 == drawn6 and len(drawn6) > 10


def test_long_runs_shrink_and_keep_the_newest():
    fs, lines, cut = svg._wrap([str(i) for i in range(100, 160)], 80, 30)
    assert cut and lines[-1][-1] == "159" and lines[0][0] == "…"
    fs2, lines2, cut2 = svg._wrap(["4", "6", "12"], 200, 30)
    assert not cut2 and lines2 == [["4", "6", "12"]] and fs2 > fs


def test_layouts_are_tables():
    # every layout: a seat per slot with the same roles, boxes inside the sheet or its margin
    for (family, n), lay in svg_layouts.LAYOUTS.items():
        assert lay.slots >= n and len(lay.seats) == lay.slots
        for seat in lay.seats:
            assert {"pool", "mountain", "name"} <= set(seat)
            assert {r for r in seat if r.startswith("whists+")} == {f"whists+{d}" for d in range(1, lay.slots)}
    # five players have their row now (tests/test_five_players.py); a count with none is refused
    with pytest.raises(svg_layouts.DrawError, match="no paper sheet layout for 6 players"):
        svg_layouts.layout_for("russian", 6)


def test_cli_draw_options_and_errors(tmp_path):
    out = tmp_path / "s.svg"
    code, _, err = run_cli(["draw", "examples/sochi-3p.yaml", "--after", "6", "--style", "plain", "-o", str(out)])
    assert code == 0, err
    root = parse(out.read_text(encoding="utf-8"))
    assert "pf-plain" in root.get("class") and "after deal 6 of 24" in root.get("aria-label")
    code, _, err = run_cli(["draw", "examples/sochi-3p.yaml", "--after", "25"])
    assert code == 2 and "--after 25: the record has 24 deal(s)" in err
    code, _, err = run_cli(["draw", "examples/sochi-3p.yaml", "--style", "ink"])
    assert code == 2
    code, _, err = run_cli(["draw", "examples/tournament/tournament.yaml"])
    assert code == 1 and "tournament.yaml" in err and "expected a game record" in err
    code, out_, err = run_cli(["draw", "-"], stdin=(EXAMPLES / "leningrad-4p.yaml").read_text(encoding="utf-8"))
    assert code == 0 and out_.startswith("<svg")


def test_a_long_cell_keeps_its_newest_totals_in_bounded_size():
    # a cell of many totals: only the newest are drawn and named, after an ellipsis
    src = source("sochi-3p.yaml")
    fr = svg_frames.frames(src)[-1]
    key = ("Bob", "mountain", None)
    fr.runs[key] = [Fraction(i) for i in range(1, 1001)]
    fr.lengths[key] = 1000
    layout = svg_layouts.layout_for("russian", 3)
    pieces = dict(svg._pieces(src, layout, fr, "paper"))
    g = parse(f'<svg xmlns="http://www.w3.org/2000/svg">{pieces["mountain:Bob"]}</svg>')
    title = g.find(f"{NS}g/{NS}title").text
    assert title.startswith("Bob: mountain … 961 · ") and title.endswith(" · 1000")
    drawn = "".join("".join(t.itertext()) for t in g.iter(NS + "text"))
    assert drawn.startswith("…") and drawn.endswith("·1000") and len(drawn) < 2000
    fs, lines, cut = svg._wrap(["…", "5", "6"], 200, 30)
    assert lines == [["…", "5", "6"]] and cut


def test_three_players_on_the_lithuanian_sheet_leave_one_seat_out(tmp_path):
    # seed 002: "Pradinė lentelė turi mažiau skilčių, nes dalis jų nereikalinga. Tarkim, žaidžia
    # tik N, E ir S" (10 lentelė): the 4-player sheet with the fourth seat's cells left empty
    lt3 = tmp_path / "lt3.yaml"
    code, _, err = run_cli(["convert", "examples/sochi-3p.yaml", "--variant", "lithuanian", "-o", str(lt3)])
    assert code == 0, err
    record, _ = load_record(lt3)
    res = score(record)
    root = parse(svg.render(svg.source_of_result(res)))
    names = sorted("".join(t.itertext()) for t in root.iter(NS + "text") if "pf-nm" in (t.get("class") or ""))
    assert names == ["Ann", "Bob", "Cid"]
    lay = svg_layouts.layout_for("lithuanian", 3)
    seat = svg._seat_of(lay, record.players)
    assert sorted(seat.values()) == [0, 2, 3] and seat["Ann"] == 2          # Ann (N) at the top
    texts = cell_texts(root)
    sheet = res.sheet()
    for p in record.players:
        for q in record.players:
            if q != p and sheet.whists[p][q]:
                assert any(t.startswith(f"{p}: whists on {q} ") for t in texts)
    # the eglė strokes: as many drawn as given (3 for 3 players, and one more per mandatory eglė)
    egles = [t.text for t in root.iter(NS + "title") if "still to play" in t.text]
    assert len(egles) == 3 and res.extra["egles_start"] == 3
