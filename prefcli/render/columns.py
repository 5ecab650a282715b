"""The columns of the plain-text tables: how wide a cell is on a screen, and the one padding of
the settlement, statistics and summary tables (:func:`grid`).

Why not ``len()``: names come from other people's files. A combining accent takes no column of
its own ("Jone" + U+0307 is four columns, five characters), a wide letter or an emoji takes
two ("王", "🂡"), and a control character is shown by a terminal as its four-character escape
``\\x1b`` (:class:`prefcli.io.streams.TerminalText`). Padded by ``len()``, every column to the
right of such a name is out of line. A table of printable ASCII is padded exactly as before.
"""
from __future__ import annotations

import unicodedata
from typing import List, Sequence

#: the columns a terminal gives the escape of a control character (``\\x1b``; tab and
#: newline are not escaped)
_ESCAPED = 4


def cell_width(text: str) -> int:
    """The columns `text` takes on a terminal (see the module docstring)."""
    if text.isascii() and text.isprintable():
        return len(text)
    width = 0
    for c in text:
        o = ord(c)
        if o < 0x20 or 0x7f <= o < 0xa0:
            width += 1 if c in "\t\n" else _ESCAPED
        elif unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue                                    # drawn on the letter before it
        elif unicodedata.east_asian_width(c) in ("W", "F"):
            width += 2
        else:
            width += 1
    return width


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` padded with spaces to `width` columns on a screen: after it, or before it (`right`,
    numbers); a text as wide or wider is left as it is (as ``str.ljust`` does)."""
    fill = " " * (width - cell_width(text))
    return fill + text if right else text + fill


def grid(rows: Sequence[Sequence[object]], right_from: int = 1) -> List[str]:
    """Rows as lines: the first `right_from` columns padded on the right, the rest (numbers) on
    the left, two spaces between, each column as wide on a screen as its widest cell."""
    texts = [[str(c) for c in r] for r in rows]
    widths = [max(cell_width(r[i]) for r in texts) for i in range(len(texts[0]))]
    return ["  ".join(pad(c, widths[i], i >= right_from) for i, c in enumerate(r)).rstrip() for r in texts]
