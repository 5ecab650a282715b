"""Files of other programs that prefcli recognises but does not import, each with the reason.

A file no importer accepts is refused at 1:1 with the list of known programs; the formats here
are refused instead with what they hold and why no record or sheet can be made of it (and what
prefcli does with their numbers), at the line that shows the format. Each was met among the
published files of other Preferans programs:

* eshavlyugin/Preferans ``tests/*.tests``: deals of test cases (three hands of ten cards, and for
  the solver cases the declarer, the leader, the contract and the expected tricks). No players,
  no auction, no score: a problem, not a game.
* an SQL dump of a club's database (vladstefanovich/preferans-db ``data.sql``): one total per
  player per game, no deals and no sheet; and a CSV table of such totals (game by player).
  A sheet made of totals alone would have to invent who won what from whom.
"""
from __future__ import annotations

import re
from typing import Callable, List, Optional, Tuple

from prefcli.io.importers import Source

#: (line, column, reason)
Refusal = Tuple[int, int, str]

_CARD = re.compile(r"(?:[AKQJ]|10|[7-9])[scdh]")
_CONTRACT = re.compile(r"(?:(?:[6-9]|10)[scdhn]|misere)")
_SQL = re.compile(r"\s*(insert\s+into|create\s+table|drop\s+table|begin\s+transaction|pragma)\b", re.I)
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def _lines(source: Source) -> Optional[List[str]]:
    text = source.text
    if text is None or text.lstrip().startswith(("{", "[")):
        return None
    return text.splitlines()


def _eshavlyugin_tests(source: Source) -> Optional[Refusal]:
    lines = _lines(source)
    if not lines:
        return None
    hands = 0
    for line in lines:
        words = line.split()
        if not words:
            continue
        if len(words) == 10 and all(_CARD.fullmatch(w) for w in words):
            hands += 1
        elif len(words) == 1 and (words[0].isdigit() or _CONTRACT.fullmatch(words[0])):
            continue
        else:
            return None
    if hands < 3:
        return None
    first = next(i for i, line in enumerate(lines) if len(line.split()) == 10)
    return (first + 1, 1, f"test deals of eshavlyugin/Preferans (a .tests file: {hands} lines of ten cards, the hands; "
                          "a solver case adds the declarer, the leader, the contract and the expected tricks): "
                          "no players, auction or score, so there is no game to import; each deal is a "
                          "double-dummy problem: write it as a full deal with `position: true` and run "
                          "prefcli analyze")


def _sql_dump(source: Source) -> Optional[Refusal]:
    lines = _lines(source)
    if not lines:
        return None
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("--"):
            continue
        m = _SQL.match(line)
        if m is None:
            return None
        return (i + 1, m.start(1) + 1, "an SQL database dump (such as a club website's, vladstefanovich/"
                                       "preferans-db): rows of per-game totals, no deals and no sheet; "
                                       "prefcli makes no record of totals alone (who won what from whom is not "
                                       "there): write each game as a pref-sheet/1 and settle, stats or rate them")
    return None


def _totals_csv(source: Source) -> Optional[Refusal]:
    lines = [line for line in (_lines(source) or []) if line.strip()]
    if len(lines) < 2 or "," not in lines[0]:
        return None
    head = [c.strip() for c in lines[0].split(",")]
    if len(head) < 3 or any(not c for c in head):
        return None
    for line in lines[1:]:
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(head) or not all(_NUMBER.fullmatch(c) for c in cells[1:]):
            return None
    return (1, 1, f"a table of totals (CSV: {head[0]} by {', '.join(head[1:])}): numbers without deals or "
                  "sheets, so there is no game to import; prefcli makes no record of totals alone (who won "
                  "what from whom is not there): write each game as a pref-sheet/1 and settle, stats or "
                  "rate them")


KNOWN: Tuple[Callable[[Source], Optional[Refusal]], ...] = (_eshavlyugin_tests, _sql_dump, _totals_csv)


def recognise(source: Source) -> Optional[Refusal]:
    """Where and why a file of a recognised but unsupported format is refused (None: not one)."""
    for test in KNOWN:
        try:
            found = test(source)
        except Exception:  # noqa: BLE001 - a detector that trips over odd content says no
            continue
        if found is not None:
            return found
    return None
