"""slovesnov/bridge (Bridge studio, a freeware double-dummy solver): preferans problem files
``.bts`` / ``.pts`` ("bts version 5.x", the same format since v5; ``src/problem/Problem.cpp``).

Each problem (``deal n <hands>``, ``contract``, ``play``, ``turns``, ``player``, ``absent``,
``comment``) becomes its own record with one full deal: the three hands (S.H.D.C, ranks
AKQJT987, in N E S W order skipping the empty seat), the two cards left over as the talon, the
contract and declarer, the first leader (``play W``) or the given line of cards (``play DA D9 DJ``:
suit letter first). The files have CRLF line ends and comments in the local code page (cp1251 in
the Russian library), both handled here.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from prefcli.io.importers import Imported, Importer, Source, register, source_meta
from prefcli.io.importers._positions import SEATS, full_deal, record
from prefcli.model.cards import Card, parse_card
from prefcli.model.diagnostics import InputError, Problem
from prefcli.model.values import show

PROGRAM = "slovesnov/bridge (Bridge studio)"
KEYWORDS = ("deal", "contract", "play", "turns", "player", "absent", "comment")
RANKS = "AKQJT987"
_CONTRACT = re.compile(r"^(?:(6|7|8|9|10)(S|C|D|H|NT)|misere)$", re.IGNORECASE)


def _text(source: Source) -> Tuple[Optional[str], Optional[str]]:
    """(text, code page): UTF-8 when it is, else Windows-1251 (what the program writes)."""
    if source.text is not None:
        return source.text, None
    try:
        return source.raw.decode("cp1251"), "cp1251"
    except UnicodeDecodeError:
        return None, None


def detect(source: Source) -> bool:
    text, _ = _text(source)
    if text is None or text.lstrip().startswith(("{", "[")):
        return False
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()][:40]
    if lines and lines[0].lower().startswith("% bts version"):
        return True
    return any(re.match(r"^deal \d+ \S+ \S+ \S+$", ln) for ln in lines) and any(
        ln.startswith("contract ") for ln in lines)


class _Error(Exception):
    def __init__(self, line: int, column: int, path: str, message: str) -> None:
        super().__init__(message)
        self.problem = (line, column, path, message)


def _hand(text: str, line: int, column: int, path: str) -> List[Card]:
    groups = text.split(".")
    if len(groups) != 4:
        raise _Error(line, column, path, f"{show(text)}: a hand is four suits S.H.D.C separated by dots")
    cards: List[Card] = []
    for suit, group in zip("SHDC", groups):
        for ch in group:
            if ch.upper() not in RANKS:
                raise _Error(line, column, path, f"{show(ch)} in {show(text)} is not a rank (A K Q J T 9 8 7)")
            cards.append(parse_card(("10" if ch.upper() == "T" else ch.upper()) + suit))
    return cards


def _card(token: str, line: int, column: int, path: str) -> Card:
    """A play card, suit letter first (`DA`, `CT`)."""
    if len(token) != 2 or token[0].upper() not in "SHDC" or token[1].upper() not in RANKS:
        raise _Error(line, column, path, f"{show(token)} is not a card (suit letter then rank, e.g. DA, CT)")
    rank = "10" if token[1].upper() == "T" else token[1].upper()
    return parse_card(rank + token[0].upper())


def _problems(text: str) -> Tuple[Optional[str], List[Dict[str, Any]]]:
    """The version line and the problems (field → (value, line, column))."""
    version = None
    problems: List[Dict[str, Any]] = []
    current: Optional[Dict[str, Any]] = None
    in_comment = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped:
            in_comment = False
            continue
        if stripped.startswith("%"):
            m = re.match(r"%\s*bts version\s+(\S+)", stripped, re.IGNORECASE)
            if m and version is None:
                version = f"bts version {m.group(1)}"
            continue
        word, _, rest = stripped.partition(" ")
        if word.lower() not in KEYWORDS:
            if in_comment and current is not None:
                value, ln, col = current["comment"]
                current["comment"] = (value + "\n" + stripped, ln, col)
                continue
            raise _Error(number, 1, "", f"unknown line {show(word)} (expected one of {', '.join(KEYWORDS)})")
        word = word.lower()
        column = len(line) - len(line.lstrip()) + len(word) + 2
        in_comment = word == "comment"
        if word == "deal":
            current = {"deal": (rest.strip(), number, column)}
            problems.append(current)
            continue
        if current is None:
            raise _Error(number, 1, "", f"'{word}' before the first 'deal' line")
        if word in current:
            raise _Error(number, 1, "", f"a second '{word}' line in problem {len(problems)}")
        current[word] = (rest.strip(), number, column)
    return version, problems


def parse(source: Source) -> Imported:
    text, codepage = _text(source)
    if text is None:
        raise InputError([Problem("neither UTF-8 nor Windows-1251 text: not a Bridge studio file", (),
                                  source.name, 1, 1, "syntax")])
    try:
        return _parse(source, text, codepage)
    except _Error as exc:
        line, column, path, message = exc.problem
        raise InputError([Problem(message, (path,) if path else (), source.name, line, column, "syntax")]) from None


def _parse(source: Source, text: str, codepage: Optional[str]) -> Imported:
    version, problems = _problems(text)
    for fields in problems:
        for key in ("contract", "player"):
            if key not in fields:
                _, line, _ = fields["deal"]
                raise _Error(line, 1, key, f"this problem has no '{key}' line")
    if not problems:
        raise _Error(1, 1, "", "no 'deal' line: not a Bridge studio problem file")
    return _build(source, version, problems, codepage)


def _build(source: Source, version: Optional[str], problems: List[Dict[str, Any]],
           codepage: Optional[str]) -> Imported:
    out = Imported(PROGRAM, version, [])
    if codepage:
        out.note(None, "comment", f"the file is not UTF-8: read as {codepage} (the program writes comments "
                                  "in the local code page)")
    seen = set()
    for fields in problems:
        deal_text, line, col = fields["deal"]
        parts = deal_text.split()
        if len(parts) != 4 or not parts[0].isdigit() or len(parts[0]) > 6:
            raise _Error(line, 1, "deal", "expected 'deal N <hand> <hand> <hand>'")
        label = str(int(parts[0]))
        if label in seen:
            raise _Error(line, 6, "deal", f"a second problem {label} in the file")
        seen.add(label)
        number = int(label)          # notes name the problem by its number in the file
        absent = "S"
        if "absent" in fields:
            value, aline, acol = fields["absent"]
            if value.upper() not in SEATS:
                raise _Error(aline, acol, "absent", f"{show(value)} is not a seat (N, E, S, W)")
            absent = value.upper()
        else:
            out.note(number, "absent", "no 'absent' line: the South seat is taken as empty (the program's default)")
        seated = [s for s in SEATS if s != absent]
        hands: Dict[str, List[Card]] = {}
        pos = len("deal ") + len(parts[0]) + 2
        for seat, hand_text in zip(seated, parts[1:]):
            hands[seat] = _hand(hand_text, line, pos, "deal")
            pos += len(hand_text) + 1
        every = [c for h in hands.values() for c in h]
        if len(set(every)) != len(every):
            dup = next(c for c in every if every.count(c) > 1)
            raise _Error(line, 1, "deal", f"{dup} is in two hands")
        sizes = {len(h) for h in hands.values()}
        if len(sizes) != 1:
            raise _Error(line, 1, "deal", "the hands hold different numbers of cards ("
                         + ", ".join(f"{s} {len(h)}" for s, h in hands.items()) + ")")
        size = sizes.pop()
        if size != 10:
            out.note(number, "deal", f"problem {label} is an end position of {size} cards a hand: a record holds "
                                     "whole deals (10 cards each), and the tricks played before are not in the "
                                     "file; left out", loss=True)
            continue
        from prefcli.model.cards import DECK
        held = set(every)
        rest = [c for c in DECK if c not in held]
        if "contract" not in fields:
            raise _Error(line, 1, "contract", f"problem {label} has no 'contract' line")
        ctext, cline, ccol = fields["contract"]
        m = _CONTRACT.match(ctext)
        if not m:
            raise _Error(cline, ccol, "contract", f"{show(ctext)} is not a contract (6S … 10NT or misere)")
        contract = "misere" if ctext.lower() == "misere" else f"{m.group(1)}{m.group(2).upper()}"
        if "player" not in fields:
            raise _Error(line, 1, "player", f"problem {label} has no 'player' line (the declarer)")
        ptext, pline, pcol = fields["player"]
        declarer = ptext.upper()
        if declarer not in seated:
            raise _Error(pline, pcol, "player", f"{show(ptext)} is not one of the seats {', '.join(seated)}")
        play: List[Card] = []
        leader = None
        if "play" in fields:
            ltext, lline, lcol = fields["play"]
            tokens = ltext.split()
            if len(tokens) == 1 and tokens[0].upper() in SEATS:
                leader = tokens[0].upper()
                if leader not in seated:
                    raise _Error(lline, lcol, "play", f"{leader} is the empty seat")
            else:
                c = lcol
                for tok in tokens:
                    play.append(_card(tok, lline, c, "play"))
                    c += len(tok) + 1
                if not play:
                    raise _Error(lline, lcol, "play", "expected the first seat or a line of cards")
                leader = next((s for s in seated if play[0] in hands[s]), None)
                if leader is None:
                    raise _Error(lline, lcol, "play", f"{play[0]} is in no hand")
        if leader is None:
            raise _Error(line, 1, "play", f"problem {label} has no 'play' line (who leads first)")
        turns = 0
        if "turns" in fields:
            ttext, tline, tcol = fields["turns"]
            if not ttext.isdigit() or int(ttext) > 30:
                raise _Error(tline, tcol, "turns", f"{show(ttext)} is not a number of cards played (0..30)")
            turns = int(ttext)
        comment = fields.get("comment", ("", 0, 0))[0].strip() or None
        whist = None
        if contract != "misere":
            whist = {s: "whist" for s in seated if s != declarer}
            out.note(number, "whist", "the file has no whist decisions: both defenders are written as whisting "
                                      "(a double-dummy problem is played by both)")
        deal, partial = full_deal(seated, hands, rest, contract, declarer, leader, whist, play, comment)
        if turns:
            deal["note"] = (comment + "\n" if comment else "") + f"Bridge studio: position after {turns} card(s)"
        if partial:
            deal["note"] = (deal.get("note", "") + "\n" if deal.get("note") else "") + \
                "given play: " + " ".join(str(c) for c in play)
            out.note(number, "play", f"the given play ({' '.join(str(c) for c in partial)}) stops before the end "
                                     "of the deal: a record's play is the whole deal, so it is kept in the note "
                                     f"only (the first lead, by {leader}, is the deal's first hand)", loss=True)
        out.note(number, "talon", f"the two cards in no hand ({' '.join(str(c) for c in rest)}) are written as the "
                                  "talon, taken and discarded again by the declarer, so the hands are the problem's")
        meta = {"event": f"Bridge studio problem {label}",
                "source": source_meta(PROGRAM, version, source.name, problem=number)}
        out.documents.append((label, record(seated, deal, meta)))
    if not out.documents:
        raise InputError([Problem("no problem of this file is a whole deal (10 cards a hand): nothing to import",
                                  (), source.name, 1, 1, "rule")])
    return out


register(Importer("bridge-studio", "slovesnov/bridge (Bridge studio problem files)",
                  "*.bts, *.pts (deal/contract/play/player/absent/comment lines)", "record", detect, parse))
