"""prefcli's SVG escaping is the standard library's (xml.sax.saxutils' escape and quoteattr,
kept beside the drawing so a drawing does not import urllib.request): the same text for every
kind of string, with and without extra entities."""
from __future__ import annotations

import random
import subprocess
import sys
import xml.sax.saxutils as sax

from conftest import ROOT


def _texts():
    rng = random.Random(18)
    alphabet = "ab &<>\"'\n\r\t;#–♠é"
    yield from ["", "&", "a&b<c>d", '"', "'", "\"'", "&amp;", "x\ny\rz\tw", "Bob's \"6S\""]
    for _ in range(2000):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


def test_escape_and_quoteattr_are_the_standard_librarys():
    from prefcli.render.xml_text import escape, quoteattr
    for text in _texts():
        assert escape(text) == sax.escape(text), text
        assert quoteattr(text) == sax.quoteattr(text), text
        for entities in ({'"': "&quot;"}, {"'": "&apos;", "é": "&#233;"}):
            assert escape(text, entities) == sax.escape(text, entities), (text, entities)
            assert quoteattr(text, entities) == sax.quoteattr(text, entities), (text, entities)


def test_a_drawing_does_not_import_urllib_request(tmp_path):
    run = ("import sys\nbefore = set(sys.modules)\nimport prefcli.cli.main as m\n"
           "code = m.main(sys.argv[1:])\n"
           "print(code, 'urllib.request' in sys.modules and 'urllib.request' not in before, file=sys.stderr)\n")
    example = str(ROOT / "examples" / "sochi-3p.yaml")
    for args in (["draw", example, "-o", str(tmp_path / "s.svg")], ["stats", example, "-f", "svg"],
                 ["report", example, "-o", str(tmp_path / "r.html")]):
        done = subprocess.run([sys.executable, "-c", run, *args], capture_output=True, text=True, cwd=str(tmp_path),
                              timeout=300)
        assert done.stderr.strip().splitlines()[-1] == "0 False", (args, done.stderr)


def test_characters_xml_cannot_hold_are_written_as_escapes():
    """A name with ESC or BEL (the standard library leaves them, and the drawing was not
    well-formed: a browser shows its parse error instead of the sheet)."""
    from prefcli.render.xml_text import escape, quoteattr
    assert escape("A\x1b[31m<nn\x07") == "A\\x1b[31m&lt;nn\\x07"
    assert quoteattr("a\x00b\ufffe") == '"a\\x00b\\ufffe"'
    assert escape("tab\tnewline\ncr\r") == "tab\tnewline\ncr\r"       # the three XML keeps


def _record_named(tmp_path, names):
    """A one-deal record whose names, event and note hold control characters."""
    import json
    record = {"format": "pref-record/1", "players": names, "rules": {"variant": "sochi"},
              "meta": {"event": "x\x1b]0;title\x07y"},
              "deals": [{"contract": "6S", "declarer": "Bob", "whist": {names[2]: "whist", names[0]: "pass"},
                         "tricks": {"Bob": 6, names[2]: 3, names[0]: 1}, "note": "n\x1b[2Jx"}]}
    src = tmp_path / "esc.json"
    src.write_text(json.dumps(record), encoding="utf-8")
    return src


def test_a_drawing_of_names_with_control_characters_is_well_formed(tmp_path):
    import xml.etree.ElementTree as ET
    from conftest import run_cli
    src = _record_named(tmp_path, ["A\x1b[31mnn", "Bob", "Cid\x07"])
    for args in (["draw", str(src), "-o", str(tmp_path / "s.svg")], ["stats", str(src), "-f", "svg", "-o",
                                                                        str(tmp_path / "st.svg")]):
        code, _, err = run_cli(args)
        assert code == 0, err
    for name in ("s.svg", "st.svg"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        ET.fromstring(text)                     # well-formed
        assert "\x1b" not in text and "A\\x1b[31mnn" in text


def test_the_report_page_shows_control_characters_as_escapes(tmp_path):
    """The HTML report wrote names' ESC, BEL and C1 controls raw (``html.escape`` passes them):
    HTML parse errors a browser shows as nothing or as boxes. They are written as in the SVG."""
    import re
    from conftest import run_cli
    from prefcli.render.xml_text import html_escape
    src = _record_named(tmp_path, ["A\x1b[31mnn", "Bob", "Cid\x85"])
    code, _, err = run_cli(["report", str(src), "-o", str(tmp_path / "r.html")])
    assert code == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert not re.search("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]", page)
    assert "A\\x1b[31mnn" in page and "Cid\\x85" in page
    # text without such characters is html.escape's, unchanged
    import html
    for text in _texts():
        assert html_escape(text) == html.escape(text) and html_escape(text, False) == html.escape(text, False)
    assert html_escape("a\x0cb\tc\n") == "a\x0cb\tc\n"          # HTML's whitespace stays
