"""The quick-entry text form: deals as a score keeper jots them at the table, one per line.

Why a separate form: nobody types YAML between deals. A line such as ``Bob 6S Cid:w Ann:w
6/3/1`` carries everything a summary deal needs; :func:`parse_quick_entry` turns a file of such
lines into plain record data (``format: pref-record/1``), which the writer then makes canonical.

Grammar (one deal per line; blank lines and ``#`` comments are ignored)::

    file       := { header | deal | blank | comment }
    header     := ("players" | "variant" | "first_dealer" | "first dealer" | "dealer"
                   | "event" | "date" | "site") ":" VALUE
                  -- at the top of the file, before the first deal; players are separated by
                     commas or spaces; event, date and site go to `meta`
    deal       := [NUMBER ("." | ")")] (game | allpass) [NOTE] [COMMENT]
    game       := PLAYER CONTRACT { defence | flag } [tricks]
    allpass    := ("pass" | "all-pass" | "allpass" | "raspasy" | "egle" | "eglė") { flag } tricks
    CONTRACT   := 6S … 10NT (suit letters S C D H, or ♠ ♣ ♦ ♥; case-insensitive) | "misere" | "mis"
                | "mis-wt" | "misere-wt" | "9S-wt" …   (without the talon: option misere_without_talon)
    defence    := PLAYER ":" DECISION
    DECISION   := "w" | "whist" | "p" | "pass" | "h" | "half" | "half-whist"
    flag       := "open" | "closed" | "dark" | "concede" | "without-all" (be visų, with bid:)
                | "bid:" CONTRACT     -- the bid reached, when the contract is below it
                | "misdeal:" PLAYER | "revoke:" PLAYER | "no-discard" ["":" PLAYER]
                                      -- irregularities (seed 001 l.142), scored by the preset
                | "return:" PLAYER | "takeover:" PLAYER | "bomb:" PLAYER | "dealer:" PLAYER
                | "talon:" CARD "," CARD
    tricks     := N { "/" N }          -- positional: see below
                | PLAYER "=" N { PLAYER "=" N }   (PLAYER ":" N also accepted)
    NOTE       := '"' text '"'        -- becomes the deal's `note`
    COMMENT    := "#" text            -- ignored

    PLAYER: a seated name, case-insensitive; a unique beginning of a name is enough ("bo" for
    Bob).

Positional tricks: for a game, the declarer first, then the defenders in the order they were
written, then any active player not yet named, clockwise from the declarer's left; for an
all-pass, the players in seat order (with four players the three active hands, or every seat
with the dealer's talon tricks, or name them). The counts must add up to 10. A misère may give
the declarer's count alone (``Ann misere 1``): the rest is split evenly between the two catchers,
since no score depends on how they shared it. Leave the tricks out when the deal was not played
(both defenders passed, a half-whist, a concession). With four players the dealer rotates as in
a record (again after an all-pass where the preset's ``allpass.same_dealer`` says so).

Errors name the file and line (``notes.txt:7: the tricks add up to 11, not 10``); every bad line
is reported at once.

Examples::

    players: Ann, Bob, Cid
    Bob 6S  Cid:w Ann:w  6/3/1        # made, two whisters
    Cid 7H  Ann:p Bob:p               # both passed: made without play
    Ann 6D  Bob:p Cid:h               # half-whist
    Bob 7S  Cid:w Ann:p open 6/3/1    # open (light) whist, one trick short
    pass 2/5/3                        # all-pass, tricks in seat order
    Ann misere 1                      # failed misère: Ann took one trick
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple

from prefcli.model.cards import NotationError, parse_card, parse_contract, parse_decision
from prefcli.model.diagnostics import InputError, PrefcliError, Problem
from prefcli.model.records import PLAYER_COUNTS, RECORD_FORMAT, counts_text

ALLPASS_WORDS = ("pass", "all-pass", "allpass", "raspasy", "egle", "eglė")
MISERE_WORDS = ("misere", "mis", "misère", "mizer", "mizeris", "мизер")
#: a declaration kept against the rules, "be visų" (seed 004 l.200), "без всех"
WITHOUT_ALL_WORDS = ("without-all", "be-visu", "be-visų", "без-всех")
HEADER_KEYS = {"players": "players", "variant": "variant", "first_dealer": "first_dealer",
               "first dealer": "first_dealer", "dealer": "first_dealer",
               "event": "meta", "date": "meta", "site": "meta"}
_HEADER = re.compile(r"^\s*([A-Za-z_ ]+?)\s*:\s*(.*?)\s*$")
_NUMBER = re.compile(r"^\d+[.)]$")
_TRICKS_POS = re.compile(r"^\d+(/\d+)*$")
_TRICKS_NAMED = re.compile(r"^([^=:]+)[=:](\d+)$")


class _LineError(PrefcliError):
    """A note that cannot be read; the reader adds the line."""

    kind = "syntax"

    def __init__(self, message: str, column: Optional[int] = None) -> None:
        super().__init__(message, column=column)


def _split_players(text: str) -> List[str]:
    parts = [p.strip() for p in re.split(r"[,\s]+", text) if p.strip()]
    return parts


def _strip_comment(line: str) -> Tuple[str, Optional[str]]:
    """Remove a `# comment` and pull out a `"note"` (quotes protect a # inside the note)."""
    note = None
    out = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == '"':
            end = line.find('"', i + 1)
            if end < 0:
                raise _LineError("the note has no closing quote (\")", i + 1)
            if note is not None:
                raise _LineError("only one \"note\" per line", i + 1)
            note = line[i + 1:end]
            out += " "
            i = end + 1
            continue
        if ch == "#":
            break
        out += ch
        i += 1
    return out, note


class Seating(Protocol):
    """The table and its dealer rotation as the notes go, deal by deal: the rules layer's
    (:class:`prefcli.rules.table.Seating`, handed in by the caller, so io never imports the rules)."""

    counts: Tuple[int, ...]          # the player counts the preset is played by
    dummy: Optional[str]             # a husar table's dummy seat (after start), else None

    def start(self, first_dealer: Optional[str]) -> None:
        """Seat the players and start the rotation from `first_dealer` (None: the first seat)."""

    def active(self) -> Sequence[str]:
        """Who holds cards in the current deal (the 4-player dealer sits out)."""

    def deal(self, all_pass: bool, bomb: bool = False, dealer: Optional[str] = None) -> Any:
        """Record one deal (its own `dealer:` when given) and move the rotation on."""


#: players, variant → the seating (raises a PrefcliError for an unknown variant).
SeatingFor = Callable[[Sequence[str], str], Seating]


class _Parser:
    def __init__(self, name: str, players: Sequence[str], seating: Optional[Seating] = None) -> None:
        self.name = name
        self.players = list(players)
        self.seating = seating
        # the dummy hand's seat of a husar table (HUSAR.md H1, H3): the seating's, once seated
        self.dummy: Optional[str] = getattr(seating, "dummy", None)
        # the hands that take tricks in a game: three, or the two players (the dummy's tricks are
        # the opponent's, HUSAR.md H11)
        self.hands = 2 if self.dummy is not None else 3

    def active(self) -> List[str]:
        """Who holds cards in the current deal (the table's: the 4-player dealer sits out)."""
        assert self.seating is not None
        return list(self.seating.active())

    def next_deal(self, deal: Dict[str, Any]) -> None:
        """Move the dealer on as a record's rotation does (seating: the same dealer again after an
        all-pass where the preset says so, general eglės rotating)."""
        assert self.seating is not None
        self.seating.deal(deal.get("contract") == "all-pass", deal.get("bomb") is not None, deal.get("dealer"))

    def player(self, token: str) -> str:
        """A seated player from a name or a unique beginning of one (case-insensitive)."""
        low = token.strip().lower()
        if not low:
            raise _LineError("a player name is missing")
        exact = [p for p in self.players if p.lower() == low]
        if exact:
            return exact[0]
        starts = [p for p in self.players if p.lower().startswith(low)]
        if len(starts) == 1:
            return starts[0]
        if len(starts) > 1:
            raise _LineError(f"'{token}' could be {' or '.join(starts)}: write more of the name")
        raise _LineError(f"'{token}' is not a player (players: {', '.join(self.players)})")

    def is_player(self, token: str) -> bool:
        try:
            self.player(token)
            return True
        except _LineError:
            return False

    def deal(self, text: str, note: Optional[str]) -> Dict[str, Any]:
        tokens = text.split()
        if tokens and _NUMBER.match(tokens[0]):
            tokens = tokens[1:]
        if not tokens:
            raise _LineError("a deal number with no deal")
        first = tokens[0]
        deal: Dict[str, Any]
        exact_player = any(p.lower() == first.lower() for p in self.players)
        if first.lower() in ALLPASS_WORDS and not exact_player:
            deal = {"contract": "all-pass"}
            rest = tokens[1:]
            declarer = None
        else:
            try:
                declarer = self.player(first)
            except _LineError as exc:
                if "could be" in exc.message:
                    raise
                raise _LineError(
                    f"'{first}' is neither a player ({', '.join(self.players)}) nor 'pass' "
                    "(an all-pass deal): a line starts with the declarer, e.g. Bob 6S Cid:w Ann:w 6/3/1") from None
            if len(tokens) < 2:
                raise _LineError(f"the contract is missing after {declarer} (e.g. 6S, 7NT, misere)")
            word = tokens[1]
            try:
                low_word = word.lower()
                if low_word in MISERE_WORDS:
                    contract = "misere"
                elif low_word.endswith("-wt") and low_word[:-3] in MISERE_WORDS:
                    contract = "misere-without-talon"       # mis-wt: seed 003 l.108
                else:
                    contract = str(parse_contract(word))
            except NotationError as exc:
                raise _LineError(exc.message) from None
            if contract == "all-pass":
                raise _LineError("an all-pass line starts with 'pass' (e.g. pass 2/5/3), not a player")
            deal = {"contract": contract, "declarer": declarer}
            rest = tokens[2:]
        whist: Dict[str, str] = {}
        tricks_tokens: List[str] = []
        for tok in rest:
            low = tok.lower()
            if tricks_tokens or _TRICKS_POS.match(tok):
                tricks_tokens.append(tok)
                continue
            if low in ("open", "closed"):
                if "open" in deal:
                    raise _LineError("open/closed given twice")
                deal["open"] = low == "open"
                continue
            if low in ("dark", "concede"):
                deal[low] = True
                continue
            if low in WITHOUT_ALL_WORDS:
                deal["without_all"] = True
                continue
            if low == "no-discard":
                if declarer is None:
                    raise _LineError("no-discard: only a declarer discards, and an all-pass has none")
                deal.setdefault("irregularities", []).append({"kind": "no-discard", "by": declarer})
                continue
            key, sep, value = tok.partition(":")
            named = _TRICKS_NAMED.match(tok)
            if named and self.is_player(named.group(1)):
                tricks_tokens.append(tok)
                continue
            if sep and key.lower() in ("return", "takeover", "bomb", "dealer"):
                field = key.lower()
                if field in deal:
                    raise _LineError(f"{field} given twice")
                deal[field] = self.player(value)
                continue
            if sep and key.lower() in ("misdeal", "revoke", "no-discard"):
                deal.setdefault("irregularities", []).append({"kind": key.lower(), "by": self.player(value)})
                continue
            if sep and key.lower() == "bid":
                try:
                    deal["bid"] = str(parse_contract(value))
                except NotationError as exc:
                    raise _LineError(exc.message) from None
                continue
            if sep and key.lower() == "talon":
                try:
                    cards = [str(parse_card(c)) for c in value.split(",") if c]
                except NotationError as exc:
                    raise _LineError(exc.message) from None
                if len(cards) != 2:
                    raise _LineError("talon:C1,C2 names the two talon cards, e.g. talon:AS,7D")
                deal["talon"] = " ".join(cards)
                continue
            if sep and self.is_player(key):
                if declarer is None:
                    raise _LineError(f"'{tok}': nobody whists on an all-pass deal")
                who = self.player(key)
                if who == declarer:
                    raise _LineError(f"{who} is the declarer and cannot whist")
                if who in whist:
                    raise _LineError(f"{who}'s whist decision is given twice")
                try:
                    whist[who] = parse_decision({"h": "half"}.get(value.lower(), value)).value
                except NotationError:
                    raise _LineError(f"'{value}' is not a whist decision: write {key}:w (whist), "
                                     f"{key}:p (pass) or {key}:h (half-whist)") from None
                continue
            raise _LineError(f"'{tok}' is not understood here: expected a defence (Ann:w), a flag "
                             "(open, dark, return:NAME …) or the tricks (6/3/1)")
        if whist:
            ordered = dict(deal)
            deal = {}
            for k, v in ordered.items():
                deal[k] = v
                if k == "declarer":
                    deal["whist"] = whist
        tricks = self.tricks(tricks_tokens, declarer, list(whist), deal["contract"])
        if tricks is not None:
            deal["tricks"] = tricks
        if note is not None:
            deal["note"] = note.strip()
        return deal

    def tricks(self, tokens: List[str], declarer: Optional[str], defenders: List[str],
               contract: str) -> Optional[Dict[str, int]]:
        if not tokens:
            if contract == "all-pass":
                raise _LineError("an all-pass deal needs everyone's tricks, e.g. pass 2/5/3")
            return None
        active = self.active()
        if _TRICKS_POS.match(tokens[0]):
            if len(tokens) > 1:
                raise _LineError(f"'{tokens[1]}' after the tricks: the tricks come last on the line")
            counts = [int(n) for n in tokens[0].split("/")]
            if declarer is None:
                if len(counts) == len(self.players) and self.dummy is not None:
                    order = [p for p in active if p != self.dummy]      # the dummy sits out (H15)
                elif len(counts) == len(self.players):
                    order = list(self.players)
                elif len(counts) == len(active):
                    order = active
                else:
                    raise _LineError(
                        f"{len(counts)} trick counts: give one per active hand in seat order "
                        f"({'/'.join(active)}), or name them: " + " ".join(f"{p}=N" for p in active))
            else:
                seat = self.players.index(declarer)
                around = [self.players[(seat + i) % len(self.players)] for i in range(1, len(self.players))]
                order = [declarer] + defenders + [p for p in around if p in active and p not in defenders]
                h = self.hands
                if contract.startswith("misere") and len(counts) == 1:
                    catchers = order[1:h]
                    rest = 10 - counts[0]
                    if rest < 0:
                        raise _LineError(f"{counts[0]} tricks: a deal has 10")
                    # no score depends on how the catchers shared their tricks: split evenly
                    counts = [counts[0], rest] if len(catchers) == 1 else \
                        [counts[0], rest - rest // 2, rest // 2][:1 + len(catchers)]
                if len(counts) != len(order[:h]) or len(counts) != h:
                    what = "the three hands' tricks" if h == 3 else "the two players' tricks (the dummy's are the opponent's)"
                    raise _LineError(f"{len(counts)} trick counts: give {what}, the declarer "
                                     f"first ({'/'.join(order[:h])}), or name them: "
                                     + " ".join(f"{p}=N" for p in order[:h]))
            out = dict(zip(order, counts))
        else:
            out = {}
            for tok in tokens:
                m = _TRICKS_NAMED.match(tok)
                if not m:
                    raise _LineError(f"'{tok}' is not a trick count: write Ann=2 (or use 2/5/3 alone)")
                who = self.player(m.group(1))
                if who in out:
                    raise _LineError(f"{who}'s tricks are given twice")
                out[who] = int(m.group(2))
        total = sum(out.values())
        if total != 10:
            raise _LineError(f"the tricks add up to {total}, not 10")
        return out


def parse_quick_entry(text: str, name: str, players: Optional[Sequence[str]], variant: Optional[str],
                      seating_for: SeatingFor) -> Dict[str, Any]:
    """Quick-entry text → plain record data. Raises InputError naming each bad line (all of them).

    `players` and `variant` (from the command line) win over the file's header lines;
    `seating_for` gives the table's rotation under the variant (the rules layer's
    :func:`prefcli.rules.table.seating_for`; :func:`prefcli.app.notes.parse_quick_entry` passes it).
    """
    return parse_quick_entry_lines(text, name, players, variant, seating_for)[0]


def parse_quick_entry_lines(text: str, name: str, players: Optional[Sequence[str]], variant: Optional[str],
                            seating_for: SeatingFor) -> Tuple[Dict[str, Any], List[int]]:
    """As :func:`parse_quick_entry`, plus the 1-based line number of each deal (for messages)."""
    problems: List[Problem] = []
    header: Dict[str, Any] = {}
    meta: Dict[str, str] = {}
    lines = text.splitlines()
    body_start = len(lines)
    for i, raw in enumerate(lines):
        stripped = raw.split("#", 1)[0].strip()
        if not stripped:
            continue
        m = _HEADER.match(stripped)
        key = m.group(1).strip().lower() if m else None
        if m and key in HEADER_KEYS:
            field = HEADER_KEYS[key]
            if field == "meta":
                meta[key] = m.group(2)
            elif field == "players":
                header["players"] = _split_players(m.group(2))
            else:
                header[field] = m.group(2)
            continue
        body_start = i
        break
    seated = list(players) if players else list(header.get("players") or [])
    if not seated:
        raise InputError([Problem("name the players: --players Ann,Bob,Cid or a first line "
                                  "'players: Ann, Bob, Cid'", (), name, None, None, "syntax")])
    rules_variant = (variant or header.get("variant") or "sochi").strip().lower()
    try:
        seating = seating_for(seated, rules_variant)
    except PrefcliError as exc:
        raise InputError([Problem(exc.message, (), name, None, None, "schema")]) from None
    counts = seating.counts
    if len(seated) not in counts or len(set(p.lower() for p in seated)) != len(seated):
        hint = (" (two players play a husar preset: variant: sochi-husar, leningrad-husar …)"
                if len(seated) == 2 and 2 not in counts else "")
        raise InputError([Problem(f"{counts_text(counts)} different players are needed"
                                  f"{' for ' + rules_variant if len(seated) in PLAYER_COUNTS else ''}, "
                                  f"got {', '.join(seated)}{hint}", (), name, None, None, "syntax")])
    first = header.get("first_dealer")
    first_name = None
    parser = _Parser(name, seated)
    if first:
        try:
            first_name = parser.player(first)
        except _LineError as exc:
            raise InputError([Problem(f"first dealer: {exc.message}", (), name, None, None, "syntax")]) from None
    seating.start(first_name)
    parser = _Parser(name, seated, seating)
    deals: List[Dict[str, Any]] = []
    deal_lines: List[int] = []
    for i in range(body_start, len(lines)):
        raw = lines[i]
        try:
            body, note = _strip_comment(raw)
            if not body.strip():
                if note is not None:
                    raise _LineError("a note needs a deal on the same line")
                continue
            hm = _HEADER.match(body.strip())
            if hm and hm.group(1).strip().lower() in HEADER_KEYS:
                raise _LineError("header lines (players:, variant: …) go before the first deal")
            deal = parser.deal(body, note)
            deals.append(deal)
            deal_lines.append(i + 1)
            parser.next_deal(deal)
        except _LineError as exc:
            problems.append(Problem(exc.message, (), name, i + 1, exc.column, "syntax"))
    if not deals and not problems:
        problems.append(Problem("no deal lines: write one deal per line, e.g. Bob 6S Cid:w Ann:w 6/3/1",
                                (), name, None, None, "syntax"))
    if problems:
        raise InputError(problems)
    data: Dict[str, Any] = {"format": RECORD_FORMAT}
    if meta:
        data["meta"] = meta
    data["players"] = seated
    data["rules"] = {"variant": rules_variant}
    if first_name:
        data["first_dealer"] = first_name
    data["deals"] = deals
    return data, deal_lines


def looks_like_quick_entry(name: str, text: str) -> bool:
    """A `.txt` file, or text that is neither a YAML mapping nor JSON (for stdin)."""
    if name.lower().endswith((".txt", ".notes", ".pref")):
        return True
    if name.lower().endswith((".yaml", ".yml", ".json")):
        return False
    stripped = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(stripped) and not any(ln.startswith("format:") or ln.lstrip().startswith("{")
                                      for ln in stripped[:5])
