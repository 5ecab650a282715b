"""A fast reader for the plain subset of YAML that records are usually written in.

Composing a node tree with libyaml and then walking it costs more than everything else a command
does with a record. Most records (and everything PyYAML's dumper writes) use only block
mappings and sequences, one-line flow collections and plain scalars made of letters, digits and
a few safe marks, with comments anywhere; such text is read here line by line, straight into
the same data. This reader never decides that something is wrong: at the first thing outside
that subset (a quote, an anchor, a tag, a multi-line scalar, a tab, a duplicate key, an odd
indentation, any non-ASCII text outside a comment…) it gives up and the strict libyaml path
(`yaml_strict`) reads the document instead, with its own messages and positions. Scalars are
resolved by the same `resolve_plain`, and keys stay the text as written, exactly as `construct`
does.

Each line is read once into what it holds (`_FastReader.classify`: its column, and a key with its
scalar, its one-line collection, or nothing yet), and a short line's reading is kept by its text:
a record writes the same few hundred lines over and over, so most lines cost one dictionary
lookup, and the block structure is then walked over these readings. A reading never depends on
where its line stands, and only what no context could read (a document marker, non-ASCII data)
is refused by it; the rest is judged where the line is used, as before. A long line of words (a
deal's hands, its play: never kept, as they never repeat) is read by one character-class pattern
(`_FastReader.words_line`) into what the general steps would give it, or left to them.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple, cast

from prefcli.io.yaml_strict import resolve_plain

_FAST_SCALAR = r"-?[A-Za-z0-9_.(/+][A-Za-z0-9_.+/()=-]*(?: [A-Za-z0-9_.+/()=-]+)*"
_FAST_SCALAR_RE = re.compile(_FAST_SCALAR + r"\Z")
_FAST_FLOW_ITEM = re.compile(r" *(" + _FAST_SCALAR + r")? *")
# one-line flow collections of scalars in the canonical spacing PyYAML writes ("[a, b]",
# "{a: 1, b: 2}"): a scalar holds no ',' nor ':', so splitting on ", " and ": " is exact
_FAST_FLAT_SEQ = re.compile(r"\[(?:" + _FAST_SCALAR + "(?:, " + _FAST_SCALAR + r")*)?\]\Z")
_FAST_FLAT_MAP = re.compile(r"\{(?:" + _FAST_SCALAR + ": " + _FAST_SCALAR + "(?:, " + _FAST_SCALAR + ": "
                            + _FAST_SCALAR + r")*)?\}\Z")
_FAST_MAX_DEPTH = 32
#: a long line `key: [w, w w, ...]` / `key: {k: w w, ...}` of letters and digits (a deal's play,
#: its hands), each word and item between single spaces: read by `_FastReader.words_line`
_WORDS_SEQ = re.compile(r"( *)([A-Za-z0-9]{1,200}): \[([A-Za-z0-9][A-Za-z0-9 ,]*[A-Za-z0-9])\]\Z")
_WORD_ITEM = "[A-Za-z0-9](?:[A-Za-z0-9 ]*[A-Za-z0-9])?"
_WORDS_MAP = re.compile(r"( *)([A-Za-z0-9]{1,200}): \{([A-Za-z0-9]+: " + _WORD_ITEM + "(?:, [A-Za-z0-9]+: "
                        + _WORD_ITEM + r")*)\}\Z")
#: the same of three pairs (a deal's hands), each key and value a group of its own; a value may
#: end in a space here (one scan less): words_line looks for " ," and " }"
_WORDS_PAIR = "([A-Za-z0-9]{1,200}): ([A-Za-z0-9][A-Za-z0-9 ]*)"
_WORDS_MAP3 = re.compile(r"( *)([A-Za-z0-9]{1,200}): \{" + ", ".join([_WORDS_PAIR] * 3) + r"\}\Z")
# checked and resolved plain scalars by their text, shared by every document: the values (text,
# int, bool, None, Decimal) are immutable
_FAST_SCALARS: Dict[str, Any] = {}
#: tabs, CR and other control characters (looked for in each line the first time it is read)
_FAST_REFUSED = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
#: what libyaml also takes for a line break (or a byte-order mark), which could end a comment early
_FAST_REFUSED_WIDE = re.compile("[\x80-\x9f\u2028\u2029\ufeff]")
_FAST_MAX_KEY = 200
#: the lines read so far, each as what it says (see _FastReader.classify), by its text: a
#: record's lines repeat (`  declarer: Ann`, `  whist: {Bob: pass, Cid: whist}`, `- contract:
#: 6S`), and a line seen before costs one lookup, in this text or the next (a folder of records
#: of the same players: a 30-deal record's lines are mostly its neighbours'). Long lines (a deal's
#: hands, its play) are seldom written twice and are not kept, nor are lines past the bound (a
#: 10,000-deal record of full deals has about 2,800 short lines, a summary one 250), and the
#: cache is emptied when full, as the scalars' is; every flow collection kept here is copied for
#: each use, so no two places in the data share one.
_FAST_LINES: Dict[str, Any] = {}
_FAST_MAX_LINES = 4096
_FAST_MAX_LINE = 100
#: the text is split into lines a part of about this many characters at a time: one list of the
#: lines of a whole record would hold several times the text at once. A part's lines and their
#: readings are alive together: at 32 KiB they added 0.6x a 3,000-deal file to convert's peak on
#: Python 3.9 (tests/test_memory.py's bound), at 4 KiB nothing measurable, and the reading costs
#: the same (in one process, 10k deals: summary 11.2 -> 11.3 ms, full 93 -> 94 ms)
_FAST_CHUNK = 1 << 12


class _NotFast(Exception):
    """The text is outside the subset the fast reader is sure of."""


def fast_yaml(text: str) -> Any:
    """The data of `text` when it is in the plain subset, else None (use the strict path)."""
    if len(_FAST_SCALARS) > 20000:
        _FAST_SCALARS.clear()
    if len(_FAST_KEYS) > 20000:
        _FAST_KEYS.clear()
        _FAST_LINES.clear()   # the keys of its lines are the texts of _FAST_KEYS: never one without the other
    if len(_FAST_LINES) >= _FAST_MAX_LINES:
        _FAST_LINES.clear()
    try:
        reader = _FastReader(text, _FAST_SCALARS, _FAST_KEYS, _FAST_LINES)
        if reader.cur is None or reader.cur[0] != 0:
            return None
        data = reader.node(0, 0)
    except (_NotFast, RecursionError):
        return None
    if reader.cur is not None or not isinstance(data, dict):
        return None
    return data


_MISSING = object()
#: the keys of block and flow mappings already checked against _FAST_SCALAR_RE, each kept as one
#: text shared by every mapping that uses it (a record names its players and fields in every
#: deal: one string each, not one per line)
_FAST_KEYS: Dict[str, str] = {}

# What a line holds, as read by _FastReader.classify: a tuple (column, kind, key, value, body),
# body being the line's data (its comment cut off). Kinds below _DASH are `key: ...` lines (key:
# the key's shared text):
_SCALAR = 0   # `key: scalar`; value: the resolved scalar (immutable, shared)
_DICT = 1     # `key: {a: 1, b: x}` of scalars (or `{}`); value: a dict to copy for each use
_LIST = 2     # `key: [a, b]` of scalars (or `[]`); value: a list to copy for each use
_OWN = 3      # a flat collection of a line not kept in _FAST_LINES: value used once, as it is
_EMPTY = 4    # `key:`; the value is on the following lines, or None
_FLOW = 5     # `key: ` another one-line flow collection; value: its text, read where it is used
_CONT = 6     # `key: ` a flow collection left open, continued on the following lines; value: its text
_BAD = 7      # `key: ` something outside the subset (as a value, the strict path must judge)
_DASH = 8     # `-` or `- ...`; key: what follows the `- ` as a line of its own at its column (or None)
_OTHER = 9    # anything else (a scalar or flow collection as a node of its own, a flow's later line)
#: a blank line or a whole-line comment
_SKIP = (-1, -1, None, None, "")


def _opened(text: str) -> int:
    """Flow collections opened and not closed in `text` (the subset's scalars hold no bracket)."""
    return text.count("[") + text.count("{") - text.count("]") - text.count("}")


class _FastReader:
    """Reads the text line by line, one line ahead (`cur`: what the next line holds, a tuple from
    `classify`, None at the end). The lines come from splitting the text a part at a time
    (`lines`, ended by None; `i`: the index of the current line's text in it), so the text and the
    data are all that is held, and each line is looked up in the cache of lines read before."""

    __slots__ = ("text", "pos", "end", "cur", "lines", "i", "cache", "keys", "known")

    def __init__(self, text: str, cache: Dict[str, Any], keys: Dict[str, str], known: Dict[str, Any]) -> None:
        self.text, self.pos, self.end = text, 0, len(text)
        self.cache, self.keys, self.known = cache, keys, known
        self.lines: List[Any] = [None]
        self.i = -1
        self.cur: Any = None
        self.advance()

    def refill(self) -> bool:
        """Split the next part of the text (whole lines) into `lines`; False at the end."""
        text, pos, end = self.text, self.pos, self.end
        if pos > end:
            return False
        nl = text.find("\n", pos + _FAST_CHUNK) if pos + _FAST_CHUNK < end else -1
        if nl < 0:
            lines = cast(List[Any], text[pos:].split("\n"))
            self.pos = end + 1
        else:
            lines = cast(List[Any], text[pos:nl].split("\n"))
            self.pos = nl + 1
        lines.append(None)   # the end of the part
        self.lines, self.i = lines, -1
        return True

    def advance(self) -> None:
        """Move `cur` to the next line holding data (blank lines and comments are skipped)."""
        lines, i, known = self.lines, self.i, self.known
        while True:
            i += 1
            raw = lines[i]
            if raw is None:
                if not self.refill():
                    self.cur = None
                    return
                lines, i = self.lines, -1
                continue
            info = known.get(raw)
            if info is None:
                info = self.classify(raw)
            if info is not _SKIP:
                self.i, self.cur = i, info
                return

    def classify(self, raw: str) -> Any:
        """What the line `raw` holds (see _SCALAR...), kept in the cache of lines when it is short.
        Only what no context could read refuses the text here; the rest is judged where used."""
        if len(raw) > _FAST_MAX_LINE:
            words = self.words_line(raw)   # a deal's hands or play, most likely
            if words is not None:
                return words
        if not raw.isprintable() and (_FAST_REFUSED.search(raw)
                                      or (not raw.isascii() and _FAST_REFUSED_WIDE.search(raw))):
            raise _NotFast  # (each character refused here is one that str.isprintable refuses)
        keep = len(raw) <= _FAST_MAX_LINE and len(self.known) < _FAST_MAX_LINES
        body = raw.lstrip(" ")
        if not body or body[0] == "#":
            info: Any = _SKIP  # blank line or whole-line comment
        else:
            if body[:3] in ("---", "...") or body[0] == "%":
                raise _NotFast  # document markers and directives
            indent = len(raw) - len(body)
            if "#" in body:
                # a comment after a value: ` #` starts one wherever a plain scalar of the subset
                # may stand (the subset has no quotes, no '#' in scalars and no multi-line
                # scalars), so what is left is the line's data; any other '#' makes the line
                # unreadable here
                cut = body.find(" #")
                if cut > 0:
                    body = body[:cut]
            if not body.isascii():
                raise _NotFast  # non-ASCII data (only comments may hold it here)
            info = self.classify_body(indent, body.rstrip(" "), keep, 0)
        if keep:
            self.known[raw] = info
        return info

    def classify_body(self, col: int, body: str, keep: bool, nested: int) -> Any:
        if body == "-":
            return (col, _DASH, None, None, body)
        if body.startswith("- "):
            if nested > _FAST_MAX_DEPTH:
                raise _NotFast  # as many `- ` in one line as no node may be deep
            rest = body[1:].lstrip(" ")
            # the item's content starts a node at its own column, as if on a line of its own
            return (col, _DASH, self.classify_body(col + len(body) - len(rest), rest, keep, nested + 1), None, body)
        # `key: value` or `key:` (a key holds no ':')
        c = body.find(":")
        if c > 0 and (c + 1 == len(body) or body[c + 1] == " ") and c <= _FAST_MAX_KEY:
            key = body[:c]
            known = self.keys.get(key)
            if known is None and _FAST_SCALAR_RE.match(key):
                known = self.keys[key] = key
            if known is not None:
                rest = body[c + 1:].lstrip(" ")
                if not rest:
                    return (col, _EMPTY, known, None, body)
                if rest[0] != "[" and rest[0] != "{":
                    value = self.cache.get(rest, _MISSING)
                    if value is _MISSING:
                        try:
                            value = self.scalar(rest)
                        except _NotFast:
                            return (col, _BAD, known, None, body)
                    return (col, _SCALAR, known, value, body)
                try:
                    value = self.flat(rest)
                except _NotFast:
                    return (col, _BAD, known, None, body)
                if value is not None:
                    return (col, (_DICT if rest[0] == "{" else _LIST) if keep else _OWN, known, value, body)
                return (col, _CONT if _opened(rest) > 0 else _FLOW, known, rest, body)
        return (col, _OTHER, None, None, body)

    def words_line(self, raw: str) -> Any:
        """What a long line `key: [..]` or `key: {k: .., ..}` of words holds (a deal's hands, its
        play: lines seen once, as many as the deals), read without the general steps, or None
        when it is not plainly one (the general path reads it then, its refusals included).

        It is one when `_WORDS_SEQ`, `_WORDS_MAP3` or `_WORDS_MAP` matches it and no two spaces,
        no space before a ',' (or the '}') and no ',' without a space after it are in it: then
        every character is printable ASCII, there is no comment, the key and every item start and
        end with a letter or a digit with single spaces between, so each is a scalar of the
        subset (`_FAST_SCALAR`), and the collection is one `_FAST_FLAT_SEQ` or `_FAST_FLAT_MAP`
        matches. What it holds is then what `classify` gives it: the same column, key text and
        data, an `_OWN` collection of the same `items`/`pairs` (three values with a space, the
        hands, are text as they are). Character classes scanned in C instead of a regular
        expression's group a word (issue 18, callgrind: a hand line 51,000 -> 18,000
        instructions, a play line 44,000 -> 20,000)."""
        last = raw[-1]
        value: Any
        try:
            if last == "]":
                m = _WORDS_SEQ.match(raw)
                if m is None:
                    return None
                inner = m.group(3)
                if "  " in inner or " ," in inner:
                    return None
                texts = inner.split(", ")
                if inner.count(",") != len(texts) - 1:
                    return None   # a ',' with no space after it
                value = self.items(texts)
            elif last == "}":
                m = _WORDS_MAP3.match(raw)
                if m is not None:
                    col = m.end(1)
                    body = raw[col:]
                    _, key, a, x, b, y, c, z = m.groups()
                    if "  " not in body and " ," not in body and raw[-2] != " " \
                            and " " in x and " " in y and " " in z:
                        setdefault = self.keys.setdefault
                        value = {setdefault(a, a): x, setdefault(b, b): y, setdefault(c, c): z}
                        if len(value) == 3:   # else a duplicate key: the general path's _BAD
                            return (col, _OWN, setdefault(key, key), value, body)
                m = _WORDS_MAP.match(raw)
                if m is None:
                    return None
                inner = m.group(3)
                if "  " in inner:
                    return None
                parts = inner.replace(": ", ", ").split(", ")
                value = self.pairs(parts[::2], parts[1::2], len(inner) + 2)
            else:
                return None
        except _NotFast:
            return None   # too large a number, a duplicate or too long a key: the general path's _BAD
        key = m.group(2)
        col = m.end(1)
        return (col, _OWN, self.keys.setdefault(key, key), value, raw[col:])

    def scalar(self, text: str) -> Any:
        try:
            return self.cache[text]
        except KeyError:
            pass
        if not _FAST_SCALAR_RE.match(text):
            raise _NotFast
        try:
            value = resolve_plain(text, None)
        except Exception:  # noqa: BLE001 - too large a number: the strict path says so, located
            raise _NotFast from None
        self.cache[text] = value
        return value

    def items(self, texts: List[str]) -> List[Any]:
        """The values of scalars already matched by _FAST_SCALAR (a fresh list). One with a space
        in it is text (no number, boolean or null has one): not kept in the cache, as a hand or
        a trick seldom comes twice."""
        for x in texts:
            if " " not in x:
                break
        else:
            return texts
        cache = self.cache
        out = []
        for x in texts:
            if " " in x:
                out.append(x)
                continue
            v = cache.get(x, _MISSING)
            if v is _MISSING:
                try:
                    v = resolve_plain(x, None)
                except Exception:  # noqa: BLE001 - too large a number: the strict path says so
                    raise _NotFast from None
                cache[x] = v
            out.append(v)
        return out

    def flat(self, text: str) -> Any:
        """A one-line flow collection of scalars in the canonical spacing PyYAML writes, as data
        (fresh); None when it is not one (nested, other spacing); _NotFast when it is one that
        cannot be read here (a duplicate key, too large a number)."""
        if len(text) == 2:
            if text == "[]":
                return []
            if text == "{}":
                return {}
        elif text[0] == "[":
            if _FAST_FLAT_SEQ.match(text):
                return self.items(text[1:-1].split(", "))
        elif _FAST_FLAT_MAP.match(text):
            # no scalar of the subset holds ', ' or ': ': the texts are key, value, key, value...
            parts = text[1:-1].replace(": ", ", ").split(", ")
            return self.pairs(parts[::2], parts[1::2], len(text))
        return None

    def pairs(self, names: List[str], values: List[str], length: int) -> Dict[str, Any]:
        """A flat flow mapping of scalars already matched, `length` characters long, as data."""
        if length > _FAST_MAX_KEY and max(map(len, names)) > _FAST_MAX_KEY:
            raise _NotFast
        keys = self.keys
        out = dict(zip(map(keys.setdefault, names, names), self.items(values)))
        if len(out) != len(names):
            raise _NotFast  # a duplicate key
        return out

    def value(self, text: str, depth: int) -> Any:
        """An inline value after `key: ` or `- `: a one-line flow collection or a plain scalar."""
        c = text[0]
        if c == "[" or c == "{":
            if depth > _FAST_MAX_DEPTH:
                raise _NotFast
            flat = self.flat(text)
            if flat is not None:
                return flat
            data, end = self.flow(text, 0, depth)
            if end != len(text):
                raise _NotFast
            return data
        return self.scalar(text)

    def flow(self, text: str, pos: int, depth: int) -> Tuple[Any, int]:
        """A flow collection starting at text[pos] ('[' or '{'); (data, index after it)."""
        if depth > _FAST_MAX_DEPTH:
            raise _NotFast
        is_map = text[pos] == "{"
        close = "}" if is_map else "]"
        out: Any = {} if is_map else []
        pos += 1
        n = len(text)
        while pos < n and text[pos] == " ":
            pos += 1
        if pos < n and text[pos] == close:
            return out, pos + 1
        while True:
            if pos >= n:
                raise _NotFast
            if is_map:
                m = _FAST_FLOW_ITEM.match(text, pos)
                assert m is not None    # every part of the pattern is optional: it always matches
                key = m.group(1)
                if key is None or len(key) > _FAST_MAX_KEY or key in out:
                    raise _NotFast
                pos = m.end(1)
                if not text.startswith(": ", pos):
                    raise _NotFast
                pos += 2
            while pos < n and text[pos] == " ":
                pos += 1
            if pos < n and (text[pos] == "[" or text[pos] == "{"):
                item, pos = self.flow(text, pos, depth + 1)
                while pos < n and text[pos] == " ":
                    pos += 1
            else:
                m = _FAST_FLOW_ITEM.match(text, pos)
                assert m is not None
                if m.group(1) is None:
                    raise _NotFast
                item = self.scalar(m.group(1))
                pos = m.end()
            if is_map:
                out[self.keys.setdefault(key, key)] = item
            else:
                out.append(item)
            if pos >= n:
                raise _NotFast
            c = text[pos]
            if c == close:
                return out, pos + 1
            if c != ",":
                raise _NotFast
            pos += 1
            while pos < n and text[pos] == " ":
                pos += 1
            if pos < n and text[pos] in ",]}":
                raise _NotFast  # an empty entry or a trailing comma: let libyaml judge

    def node(self, indent: int, depth: int) -> Any:
        """The block node whose first line is the current one, at column `indent`."""
        if depth > _FAST_MAX_DEPTH:
            raise _NotFast
        cur = self.cur
        kind = cur[1]
        if kind < _DASH:
            return self.mapping(indent, depth)
        if kind == _DASH:
            return self.sequence(indent, depth)
        # a lone scalar or flow collection as a node of its own (after `- `)
        self.advance()
        return self.value(cur[4], depth)

    def child(self, indent: int, depth: int, indentless_ok: bool) -> Any:
        """The value of `key:` / `-` written on the following lines (None when there are none)."""
        cur = self.cur
        if cur is not None:
            col = cur[0]
            if col > indent:
                return self.node(col, depth + 1)
            if indentless_ok and col == indent and cur[1] == _DASH:
                return self.sequence(indent, depth + 1)
        return None

    def mapping(self, indent: int, depth: int) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        flows = depth < _FAST_MAX_DEPTH     # a flow collection as a value is a node at depth + 1
        known_get = self.known.get
        lines, i, cur = self.lines, self.i, self.cur
        while cur is not None:
            col, kind, key, value, _ = cur
            if col != indent:
                if col < indent:
                    break
                raise _NotFast
            if kind >= _DASH:
                break  # not a key (e.g. `- ` at the mapping's column): the caller decides
            if key in out:
                raise _NotFast
            if kind > _EMPTY and kind != _CONT:
                # judged before the next line is read, as nothing after it is needed: a text
                # that stops here reads (and caches) nothing further
                if kind == _BAD:
                    raise _NotFast
                value, kind = self.value(value, depth + 1), _OWN
            # the next line: one read before at once, anything else (a new line, a blank or a
            # comment, the end of the part split) by advance()
            i += 1
            cur = known_get(lines[i])
            if cur is None or cur is _SKIP:
                raw = lines[i]
                if cur is None and raw is not None and len(raw) > _FAST_MAX_LINE:
                    cur = self.words_line(raw)   # a hand or play line, most likely: never kept
                if cur is None or cur is _SKIP:
                    self.i = i - 1
                    self.advance()
                    lines, i, cur = self.lines, self.i, self.cur
            if kind == _SCALAR:
                out[key] = value
            elif kind <= _OWN:
                if not flows:
                    raise _NotFast
                out[key] = value.copy() if kind != _OWN else value
            else:
                self.i, self.cur = i, cur
                if kind == _EMPTY:
                    out[key] = self.child(indent, depth, True)
                else:
                    out[key] = self.value(self.continued(value, indent), depth + 1)
                lines, i, cur = self.lines, self.i, self.cur
        self.i, self.cur = i, cur
        return out

    def continued(self, text: str, indent: int) -> str:
        """A flow collection broken over lines, as PyYAML writes a long one (an auction of many
        calls): its lines joined by one space. YAML folds a line break between two items of a
        flow collection into white space, so this is exact when every break falls after a `,`,
        `[` or `{` and each further line is indented past the key; anything else (a break inside
        a scalar, a line back at the key's column) is left to the strict path."""
        parts = [text]
        depth = _opened(text)
        while depth > 0:
            if self.cur is None or self.cur[0] <= indent or parts[-1][-1] not in ",[{":
                raise _NotFast
            body = self.cur[4]
            parts.append(body)
            depth += _opened(body)
            self.advance()
        return " ".join(parts)

    def sequence(self, indent: int, depth: int) -> List[Any]:
        out: List[Any] = []
        cur = self.cur
        while cur is not None:
            col, kind, item, _, _ = cur
            if col != indent or kind != _DASH:
                if col > indent:
                    raise _NotFast
                break
            if item is None:
                self.advance()
                out.append(self.child(indent, depth, False))
            else:
                self.cur = item
                out.append(self.node(item[0], depth + 1))
            cur = self.cur
            if cur is not None and cur[0] > indent:
                raise _NotFast
        return out
