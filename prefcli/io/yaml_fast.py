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
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

from prefcli.io.yaml_strict import resolve_plain

_FAST_SCALAR = r"-?[A-Za-z0-9_.(/+][A-Za-z0-9_.+/()=-]*(?: [A-Za-z0-9_.+/()=-]+)*"
_FAST_SCALAR_RE = re.compile(_FAST_SCALAR + r"\Z")
_FAST_KEY_RE = re.compile("(" + _FAST_SCALAR + r"):(?: +(.*))?\Z")
_FAST_FLOW_ITEM = re.compile(r" *(" + _FAST_SCALAR + r")? *")
# one-line flow collections of scalars in the canonical spacing PyYAML writes ("[a, b]",
# "{a: 1, b: 2}"): a scalar holds no ',' nor ':', so splitting on ", " and ": " is exact
_FAST_FLAT_SEQ = re.compile(r"\[(?:" + _FAST_SCALAR + "(?:, " + _FAST_SCALAR + r")*)?\]\Z")
_FAST_FLAT_MAP = re.compile(r"\{(?:" + _FAST_SCALAR + ": " + _FAST_SCALAR + "(?:, " + _FAST_SCALAR + ": "
                            + _FAST_SCALAR + r")*)?\}\Z")
_FAST_MAX_DEPTH = 32
# checked and resolved plain scalars by their text, shared by every document: the values (text,
# int, bool, None, Decimal) are immutable
_FAST_SCALARS: Dict[str, Any] = {}
_FAST_REFUSED = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")   # tabs, CR and other control characters
#: what libyaml also takes for a line break (or a byte-order mark), which could end a comment early
_FAST_REFUSED_WIDE = re.compile("[\x80-\x9f\u2028\u2029\ufeff]")
_FAST_MAX_KEY = 200


class _NotFast(Exception):
    """The text is outside the subset the fast reader is sure of."""


def fast_yaml(text: str) -> Any:
    """The data of `text` when it is in the plain subset, else None (use the strict path)."""
    ascii_only = text.isascii()
    if _FAST_REFUSED.search(text) or (not ascii_only and _FAST_REFUSED_WIDE.search(text)):
        return None
    if len(_FAST_SCALARS) > 20000:
        _FAST_SCALARS.clear()
    if len(_FAST_KEYS) > 20000:
        _FAST_KEYS.clear()
    try:
        reader = _FastReader(text, ascii_only, _FAST_SCALARS, _FAST_KEYS)
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


def _opened(text: str) -> int:
    """Flow collections opened and not closed in `text` (the subset's scalars hold no bracket)."""
    return text.count("[") + text.count("{") - text.count("]") - text.count("}")


class _FastReader:
    """Reads the text line by line, one line ahead (`cur`: the next line's (indent, body), None at
    the end): no list of every line is made, so the text and the data are all that is held."""

    __slots__ = ("text", "pos", "end", "ascii_only", "cur", "cache", "keys")

    def __init__(self, text: str, ascii_only: bool, cache: Dict[str, Any], keys: Dict[str, str]) -> None:
        self.text, self.pos, self.end, self.ascii_only = text, 0, len(text), ascii_only
        self.cache, self.keys = cache, keys
        self.cur: Any = None
        self.advance()

    def advance(self) -> None:
        """Move `cur` to the next line holding data (blank lines and comments are skipped)."""
        text, pos, end = self.text, self.pos, self.end
        while pos <= end:
            nl = text.find("\n", pos)
            if nl < 0:
                nl = end
            raw = text[pos:nl]
            pos = nl + 1
            body = raw.lstrip(" ")
            if not body or body[0] == "#":
                continue  # blank line or whole-line comment
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
            if not self.ascii_only and not body.isascii():
                raise _NotFast  # non-ASCII data (only comments may hold it here)
            self.pos = pos
            self.cur = (indent, body.rstrip(" "))
            return
        self.pos = pos
        self.cur = None

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

    def value(self, text: str, depth: int) -> Any:
        """An inline value after `key: ` or `- `: a one-line flow collection or a plain scalar."""
        c = text[0]
        if c == "[" or c == "{":
            if depth > _FAST_MAX_DEPTH:
                raise _NotFast
            if len(text) == 2:
                if text == "[]":
                    return []
                if text == "{}":
                    return {}
            elif c == "[":
                if _FAST_FLAT_SEQ.match(text):
                    scalar = self.scalar
                    return [scalar(x) for x in text[1:-1].split(", ")]
            elif _FAST_FLAT_MAP.match(text):
                scalar, keys = self.scalar, self.keys
                out: Dict[str, Any] = {}
                for item in text[1:-1].split(", "):
                    key, _, val = item.partition(": ")
                    if key in out or len(key) > _FAST_MAX_KEY:
                        raise _NotFast
                    out[keys.setdefault(key, key)] = scalar(val)
                return out
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
        body = self.cur[1]
        if body == "-" or body.startswith("- "):
            return self.sequence(indent, depth)
        if _FAST_KEY_RE.match(body):
            return self.mapping(indent, depth)
        # a lone scalar or flow collection as a node of its own (after `- `)
        self.advance()
        return self.value(body, depth)

    def child(self, indent: int, depth: int, indentless_ok: bool) -> Any:
        """The value of `key:` / `-` written on the following lines (None when there are none)."""
        cur = self.cur
        if cur is not None:
            col, body = cur
            if col > indent:
                return self.node(col, depth + 1)
            if indentless_ok and col == indent and (body == "-" or body.startswith("- ")):
                return self.sequence(indent, depth + 1)
        return None

    def mapping(self, indent: int, depth: int) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        keys, cache = self.keys, self.cache
        while self.cur is not None:
            col, body = self.cur
            if col != indent:
                if col < indent:
                    break
                raise _NotFast
            # `key: value` or `key:` (what _FAST_KEY_RE matches; a key holds no ':')
            c = body.find(":")
            if c <= 0:
                break  # not a key (e.g. `- ` at the mapping's column): the caller decides
            key = body[:c]
            known = keys.get(key)
            if known is None:
                if len(key) > _FAST_MAX_KEY or not _FAST_SCALAR_RE.match(key):
                    break
                keys[key] = key
            else:
                key = known
            rest = body[c + 1:]
            if rest and rest[0] != " ":
                break
            if key in out:
                raise _NotFast
            self.advance()
            if rest:
                rest = rest.lstrip(" ")
                if rest[0] in "[{" and _opened(rest) > 0:
                    rest = self.continued(rest, indent)
                v = cache.get(rest, _MISSING)
                out[key] = self.value(rest, depth + 1) if v is _MISSING else v
            else:
                out[key] = self.child(indent, depth, True)
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
            body = self.cur[1]
            parts.append(body)
            depth += _opened(body)
            self.advance()
        return " ".join(parts)

    def sequence(self, indent: int, depth: int) -> List[Any]:
        out: List[Any] = []
        while self.cur is not None:
            col, body = self.cur
            if col != indent or not (body == "-" or body.startswith("- ")):
                if col > indent:
                    raise _NotFast
                break
            if body == "-":
                self.advance()
                out.append(self.child(indent, depth, False))
                continue
            rest = body[1:].lstrip(" ")
            # the item's content starts a node at its own column, as if on a line of its own
            self.cur = (col + len(body) - len(rest), rest)
            out.append(self.node(col + len(body) - len(rest), depth + 1))
            if self.cur is not None and self.cur[0] > indent:
                raise _NotFast
        return out
