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
