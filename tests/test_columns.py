"""Table columns line up on a screen whatever the names hold: a combining accent takes no
column, a wide letter or an emoji two, and a control character the four of the escape a terminal shows
(render.columns; the names come from other people's files)."""
import random
import string

from conftest import EXAMPLES
from prefcli.io.streams import TerminalText
from prefcli.render.columns import cell_width, grid, pad
from test_table_stream import _both_ways

#: a wide name, one with a combining dot above (e + U+0307: "Jonė" as macOS may write it) and
#: one with an escape sequence (shown by a terminal as the nine characters C\x1b[1mid)
ODD = {"Ann": "王芳", "Bob": "Jone\u0307", "Cid": "C\x1b[1mid"}


def test_cell_width():
    assert [cell_width(t) for t in ("Ann", "", "王芳", "Jone\u0307", "Jon\u0117", "C\x1b[1mid",
                                    "a\u200db", "\U0001F600", "é\u0301")] == [3, 0, 4, 4, 4, 10, 2, 2, 1]


def test_printable_ascii_is_padded_as_ljust_and_rjust_pad():
    rnd = random.Random(7)
    for _ in range(300):
        rows = [["".join(rnd.choices(string.printable[:95], k=rnd.randint(0, 9))) for _ in range(4)]
                for _ in range(rnd.randint(1, 5))]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        assert grid(rows, right_from=2) == ["  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i])
                                                      for i, c in enumerate(r)).rstrip() for r in rows]
    assert pad("abc", 2) == "abc" and pad("王", 4) == "王  " and pad("王", 4, right=True) == "  王"


def test_a_wide_name_is_padded_by_its_columns():
    assert grid([["王", "1"], ["Ann", "22"]]) == ["王    1", "Ann  22"]


def _shown(text: str) -> str:
    """What a terminal is given (control characters escaped), as prefcli writes to one."""
    class Sink:
        got = ""

        def write(self, t):
            Sink.got += t
            return len(t)
    TerminalText(Sink()).write(text)          # type: ignore[arg-type]
    return Sink.got


def _columns(text: str) -> int:
    """A shown line's width on a screen, counted apart from render.columns."""
    import unicodedata
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in _shown(text))


def _odd_record(tmp_path, example="sochi-3p.yaml"):
    import re
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    for old, new in ODD.items():
        quoted = '"' + new.replace("\x1b", "\\e") + '"'
        text = re.sub(rf"\b{old}\b", lambda m: quoted, text)
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _blocks(out: str):
    """The table's blocks (separated by blank lines) of two lines or more."""
    return [b.splitlines() for b in out.split("\n\n") if len(b.splitlines()) > 1]


def test_settle_and_stats_tables_line_up_with_odd_names(run, tmp_path):
    path = _odd_record(tmp_path)
    code, out, err = run(["settle", path])
    assert code == 0, err
    blocks = _blocks(out)
    pairwise, players = blocks[0][1:], blocks[1][:4]      # (the title; the lines under the rows)
    assert ODD["Ann"] in players[1] and ODD["Cid"] in players[3]
    for block in (pairwise, players):                       # right-aligned last column: one width
        assert len({_columns(line) for line in block}) == 1, block
    code, out, err = run(["settle", path, path, "--summary"])
    assert code == 0, err
    lines = out.splitlines()[:3]                            # the header and the total's row
    assert len({_columns(line) for line in lines}) == 1, lines
    code, out, err = run(["stats", path])
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.split(" ")[0] in ("player", *ODD.values())]
    assert len(rows) == 4 and len({_columns(line) for line in rows}) == 1, rows


def test_sheet_table_lines_up_with_odd_names_both_ways(tmp_path):
    from prefcli.app.score import score_file
    result = score_file(str(_odd_record(tmp_path)), None, ())
    fast, slow = _both_ways(result)
    assert fast == slow
    running, sheet = _blocks(fast)[:2]
    assert "王芳: pool/mountain/whists" in running[0] and "misere 王芳" in fast
    for block in (running, sheet):
        assert len({_columns(line) for line in block}) == 1, block


def test_replay_hands_and_analysis_rows_line_up_with_odd_names(run, tmp_path):
    code, out, err = run(["replay", _odd_record(tmp_path, "full-deals-sochi.yaml"), "--deal", "1"])
    assert code == 0, err
    hands = out.splitlines()[1:4]
    assert hands[0].startswith("  hands:   " + ODD["Bob"])
    starts = {_columns(line[:line.rindex("  ")]) for line in hands}     # (two spaces before the cards)
    assert len(starts) == 1, hands                          # every hand's cards from one column
    code, out, err = run(["analyze", _odd_record(tmp_path, "analysis-sochi.yaml"), "--deal", "1"])
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith("  after trick") or " at most  " in line]
    assert len(rows) == 4 and len({_columns(line) for line in rows}) == 1, rows
