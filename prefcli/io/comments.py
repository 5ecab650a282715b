"""Comments of a YAML record, carried through a canonical rewrite (`convert`, `--in-place`).

Why not a round-trip YAML library (ruamel.yaml): convert's output is the *canonical* form —
keys reordered, cards and contracts rewritten, small collections in flow style — so a
round-trip tree that keeps the source's layout would have to be rebuilt node by node anyway,
and ruamel's pure-Python round trip is several times slower than libyaml, which every
comment-free file would pay too. Instead a comment is tied to the data path it belongs to, and
put back beside that path in the canonical text:

- a comment on a line of its own belongs to the node that follows it (`# the Friday game`
  above `format:`, `# deal 7 was disputed` above a deal); it is written on its own line, with
  that node's indentation, above the line where the node is written;
- a comment after content on its line (`pool: 20  # agreed`) belongs to the node that ends
  last before it on that line; it is written at the end of that node's line when the node is
  written on one line, else above it;
- a comment after the last node stays at the end of the file.

A node the rewrite drops (an option the target preset lacks) hands its comments to its nearest
ancestor; a dotted rules key (`allpass.progression:`) finds its nested place. Speed: a file
without a `#` pays nothing; otherwise the source's node tree is the loader's own (composed
once), each comment is placed by one descent of it, and in the canonical text only the entry a
comment belongs to is composed. The property tests check that the comments never change the
data and that converting again changes nothing.
"""
from __future__ import annotations

import bisect
import re
from prefcli.model.slots import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from prefcli.model.diagnostics import PrefcliError

Path = Tuple[Any, ...]

_HASH = re.compile(r"(?:^|(?<=[ \t]))#", re.M)


@dataclass(frozen=True)
class Comment:
    """One comment: where it was (1-based line), its text (`# ...`), the data path it belongs to."""

    line: int
    text: str
    path: Path
    trailing: bool
    end: bool = False


class CommentError(PrefcliError):
    """Comments that cannot be kept (a JSON output, or a place they cannot go): exit 1 unless
    the user asks to drop them."""

    kind = "comments"


def _entries(node, cache: Dict[int, Any]):
    """(starts, entries) of a collection node: entry = (start, end, path element, key, value),
    in document order; start is the key's for a mapping entry. Cached per node."""
    import yaml

    got = cache.get(id(node))
    if got is None:
        ents: List[Tuple[int, int, Union[str, int], Any, Any]]
        if isinstance(node, yaml.MappingNode):
            ents = [(k.start_mark.index, v.end_mark.index, str(k.value), k, v) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            ents = [(v.start_mark.index, v.end_mark.index, i, None, v) for i, v in enumerate(node.value)]
        else:
            ents = []
        got = cache[id(node)] = ([e[0] for e in ents], ents)
    return got


def _anchor(root, pos: int, line: int, cache: Dict[int, Any]) -> Optional[Tuple[Path, bool, bool]]:
    """Where the `#` at `pos` belongs: (path, trailing, end), or None when it is inside a scalar.

    One descent from the root (never a walk of the whole tree): at each level the entry that
    starts last before `pos` either contains it (go down), or has ended (on this line: the
    comment trails it), and the entry after it is the node a full-line comment stands above.
    """
    if root is None:
        return (), False, True
    if pos < root.start_mark.index:
        return (), False, False
    return _descend(root, pos, line, cache, (), None)


def _descend(node, pos: int, line: int, cache: Dict[int, Any], path: Path,
             following: Optional[Path]) -> Optional[Tuple[Path, bool, bool]]:
    """:func:`_anchor`'s descent from `node` (at `path`), `following` being the node after it
    (what a full-line comment past its end stands above; None: the document's end). The
    streamed scan starts it from one entry composed alone (:func:`scan_comments`)."""
    import yaml

    ended: Optional[Path] = None
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        starts, ents = _entries(node, cache)
        i = bisect.bisect_right(starts, pos)
        if i < len(ents):
            following = path + (ents[i][2],)
        if i == 0:
            break
        start, end, elem, key, value = ents[i - 1]
        if key is not None and key.start_mark.index <= pos < key.end_mark.index:
            return None
        if key is not None and key.end_mark.line == line and pos < value.start_mark.index:
            ended = path + (elem,)                      # `rules:  # house` above a block value
            break
        if pos < end:
            if isinstance(value, yaml.ScalarNode):
                if pos >= value.start_mark.index:
                    return None
                following = path + (elem,)              # between a key and its scalar
                break
            node, path = value, path + (elem,)          # inside, or above its first entry
            continue
        if value.end_mark.line == line:
            ended = path + (elem,)
        break
    if ended is not None:
        return ended, True, False
    if following is not None:
        return following, False, False
    return (), False, True


def find_comments(text: str, root: Any = None) -> List[Comment]:
    """Every comment of a YAML text and the path it belongs to (empty when there is none).

    `root` is the text's composed node tree when the caller has it (the loader's), so it is
    not composed twice."""
    if "#" not in text:
        return []
    candidates = list(_HASH.finditer(text))
    if not candidates:
        return []
    if root is None:
        from prefcli.io.yaml_strict import compose
        root = compose(text)
    cache: Dict[int, Any] = {}
    out: List[Comment] = []
    line_no, cursor = 0, 0
    inside = -1                                    # the end of the last comment's line
    for m in candidates:
        pos = m.start()
        if pos < inside:
            continue                               # `# a # b`: the second '#' is the comment's text
        line_no += text.count("\n", cursor, pos)
        cursor = pos
        line_start = text.rfind("\n", 0, pos) + 1
        full_line = text[line_start:pos].strip() == ""
        where = _anchor(root, pos, -1 if full_line else line_no, cache)
        if where is None:
            continue                               # inside a scalar ('#1', a note)
        path, trailing, end = where
        eol = text.find("\n", pos)
        inside = eol if eol >= 0 else len(text)
        body = text[pos:inside].rstrip()
        out.append(Comment(line_no + 1, body, path, trailing and not full_line, end))
    return out


@dataclass
class _Place:
    """Where a path is written in the canonical text (0-based lines)."""

    head: int          # the line of its key, or of its `- `
    end: int           # the line it ends on (meaningful when one_line)
    one_line: bool
    block_scalar: bool


class _Canonical:
    """Finds paths in prefcli's canonical YAML without composing all of it: top-level keys are
    at column 0 and the deals are `  - ` items, so only the one entry a comment needs is
    composed (a 10,000-deal record with a comment on deal 7 composes one deal)."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.top: Dict[str, int] = {}
        self.top_order: List[int] = []
        for i, line in enumerate(self.lines):
            if line and line[0] not in " #-" and ":" in line:
                key = line.split(":", 1)[0].strip("'\"")
                self.top.setdefault(key, i)
                self.top_order.append(i)
        self.top_order.append(len(self.lines))
        self._items: Dict[str, List[int]] = {}

    def _chunk_end(self, start: int) -> int:
        j = bisect.bisect_right(self.top_order, start)
        return self.top_order[j] if j < len(self.top_order) else len(self.lines)

    def _items_of(self, key: str) -> List[int]:
        got = self._items.get(key)
        if got is None:
            start = self.top[key]
            end = self._chunk_end(start)
            got = [i for i in range(start + 1, end) if self.lines[i].startswith("  - ")]
            self._items[key] = got
        return got

    def place(self, path: Path) -> Optional[_Place]:
        if not path:
            return _Place(0, 0, False, False)
        key = path[0]
        if key not in self.top:
            return None
        start = self.top[key]
        end = self._chunk_end(start)
        rest = path[1:]
        if rest and isinstance(rest[0], int):
            items = self._items_of(key)
            if not items or rest[0] >= len(items) or items[0] != start + 1 or \
                    len(items) != len([1 for i in range(start + 1, end) if self.lines[i].startswith("  -")]):
                return self._compose_place(start, end, path, 0)
            first = items[rest[0]]
            last = items[rest[0] + 1] if rest[0] + 1 < len(items) else end
            return self._compose_place(first, last, rest[1:], first, item=True)
        return self._compose_place(start, end, path, 0)

    def _compose_place(self, first: int, last: int, path: Path, offset: int, item: bool = False) -> Optional[_Place]:
        return _compose_lines(self.lines, first, last, path, item)


def _compose_lines(lines: List[str], first: int, last: int, path: Path, item: bool = False) -> Optional[_Place]:
    """Where `path` is written in lines[first:last] (composed alone; `item`: they are one item
    of a sequence, `  - ...`, and `path` starts inside it), in lines of the whole."""
    import yaml

    from prefcli.io.yaml_strict import compose

    chunk = "\n".join(lines[first:last]) + "\n"
    root = compose(chunk)
    if root is None:
        return None
    node, key = root, None
    if item:                         # the chunk is a one-item sequence: `  - ...`
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            return None
        node = node.value[0]
    for elem in path:
        if isinstance(node, yaml.MappingNode):
            found = [(k, v) for k, v in node.value if str(k.value) == elem]
            if not found:
                return None
            key, node = found[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(elem, int) and elem < len(node.value):
            key, node = None, node.value[elem]
        else:
            return None
    head = (key or node).start_mark.line
    end = node.end_mark.line
    flow = isinstance(node, yaml.ScalarNode) or bool(getattr(node, "flow_style", False))
    block_scalar = isinstance(node, yaml.ScalarNode) and node.style in ("|", ">")
    return _Place(head + first, end + first, flow and not block_scalar and head == end, block_scalar)


def place_comments(canonical: str, comments: List[Comment]) -> str:
    """The canonical YAML text with the comments put back beside their paths.

    Full-line comments go on their own line above the line their node is written on (with its
    indentation); a trailing comment ends the line of a one-line node, or of a `key:` whose
    block value follows; anything else goes above. Such a line never changes what the YAML
    says (the canonical text has no multi-line scalars but block ones, which are kept clear).

    This is the whole-text way (the text, then its comments); convert writes a record's
    comments as it writes each part instead (:class:`StreamPlacer`), with the same bytes.
    """
    if not comments:
        return canonical
    where = _Canonical(canonical)
    lines = where.lines
    above, after, tail = _targets(where.place, lines, [(c, c.path) for c in sorted(comments, key=lambda c: c.line)])
    out = _render(lines, above, after)
    if tail:
        if out and out[-1] == "":
            out.pop()
        out.extend(tail)
        out.append("")
    return "\n".join(out)


def _targets(place: Callable[[Path], Optional[_Place]], lines: List[str], items: List[Tuple[Comment, Path]]
             ) -> Tuple[Dict[int, List[str]], Dict[int, str], List[str]]:
    """Which line each comment goes above (`above`) or ends (`after`), found by `place` (its
    path given beside it, in the coordinates `place` takes), in source order; `tail`: those
    written at the end."""
    above: Dict[int, List[str]] = {}
    after: Dict[int, str] = {}
    tail: List[str] = []
    for c, path in items:
        if c.end:
            tail.append(c.text)
            continue
        where = place(path)
        if where is None:        # `allpass.progression:` is written nested
            dotted = tuple(part for e in path for part in (e.split(".") if isinstance(e, str) else [e]))
            where = place(dotted) if dotted != path else None
        while where is None and path:
            path = path[:-1]
            where = place(path)
        if where is None:
            tail.append(c.text)
            continue
        target = None
        if c.trailing and where.one_line:
            target = where.end
        elif c.trailing and not where.block_scalar and where.head != where.end and \
                lines[where.head].rstrip().endswith(":"):
            target = where.head                                # `rules:  # house`
        if target is not None and target not in after:
            after[target] = c.text                             # one comment ends a line
        else:                                                  # others go above it, each its own
            above.setdefault(target if target is not None else where.head, []).append(c.text)
    return above, after, tail


def _render(lines: List[str], above: Dict[int, List[str]], after: Dict[int, str]) -> List[str]:
    out: List[str] = []
    for i, line in enumerate(lines):
        if i in above:
            indent = line[:len(line) - len(line.lstrip(" "))]
            out.extend(indent + t for t in above[i])
        if i in after:
            line = line + "  " + after[i]
        out.append(line)
    return out


def describe(comments: List[Comment], name: str, limit: int = 10) -> List[str]:
    """`name:LINE: # text` for each comment (at most `limit`, then how many more)."""
    shown = [f"  {name}:{c.line}: {c.text}" for c in comments[:limit]]
    if len(comments) > limit:
        shown.append(f"  … and {len(comments) - limit} more")
    return shown


# ---------------------------------------------------------------------------------------------
# The streamed way: comments found by one pass over the source lines, written with each part
# ---------------------------------------------------------------------------------------------

#: a line at column 0 that holds a key (not an item `- `, a comment or a blank line)
_SOURCE_KEY = re.compile(r"\n(?![ \n#]|-[ \n]|-?\Z)")


def locate_comments(text: str, root: Any = None, fast: bool = False) -> List[Comment]:
    """:func:`find_comments`, without the whole node tree when the text is in the fast reader's
    subset (`fast`: :mod:`prefcli.io.yaml_fast` read it) and no tree is at hand (`root`):
    then only the entries that hold a comment are composed (:func:`scan_comments`)."""
    if "#" not in text:
        return []
    if root is None and fast:
        found = scan_comments(text)
        if found is not None:
            return found
    return find_comments(text, root)


def scan_comments(text: str) -> Optional[List[Comment]]:
    """The comments of a text in the fast reader's subset, as :func:`find_comments` finds them,
    in one pass over its lines; None when the text is not laid out as that subset is.

    In the subset a '#' is always a comment's (its scalars hold none, and are never quoted or
    broken over lines), every line at column 0 that is not an item, a comment or blank is a
    top-level key, and the deals are the lines of `deals:`'s items, each starting `- ` at one
    column. So a comment is placed by composing the one entry it is in (a top-level key's lines,
    or one deal's) and descending it exactly as :func:`_anchor` descends the whole tree: every
    position it compares is the same there, as a block collection composed alone ends at the
    end of its text, past any comment in it, as it ends at the next entry in the whole."""
    if "#" not in text:
        return []
    starts: List[Tuple[int, int, bool]] = []       # (position, 0-based line, on a line of its own)
    line_no, cursor = 0, 0
    pos = text.find("#")
    while pos >= 0:
        line_start = text.rfind("\n", 0, pos) + 1
        before = text[line_start:pos]
        if before and before[-1] != " ":
            return None                            # a '#' in data: not the subset
        line_no += text.count("\n", cursor, pos)
        cursor = pos
        starts.append((pos, line_no, before.strip(" ") == ""))
        eol = text.find("\n", pos)
        if eol < 0:
            break
        pos = text.find("#", eol)
    keys = ([0] if _key_at(text, 0) else []) + [m.start() + 1 for m in _SOURCE_KEY.finditer(text)]
    if not keys:
        return None
    names = [text[k:text.find(":", k)] if text.find(":", k) >= 0 else "" for k in keys]
    scanner = _Scanner(text, keys, names)
    out: List[Comment] = []
    for pos, line, own in starts:
        where = scanner.anchor(pos, line, own)
        if where is _UNSURE:
            return None
        if where is None:                          # pragma: no cover - the subset has no '#' in data
            return None
        path, trailing, end = where
        eol = text.find("\n", pos)
        body = text[pos:eol if eol >= 0 else len(text)].rstrip()
        out.append(Comment(line + 1, body, path, trailing and not own, end))
    return out


_UNSURE = object()


def _key_at(text: str, pos: int) -> bool:
    """Whether the line at `pos` (a line start) is a key at column 0 (the subset's test)."""
    c = text[pos:pos + 1]
    if c in ("", " ", "\n", "#"):
        return False
    return c != "-" or text[pos + 1:pos + 2] not in (" ", "\n", "")


class _Scanner:
    """The entries of a text in the fast subset: top-level keys at `keys` (positions, with their
    `names`) and, for `deals`, its items; each comment's entry composed alone."""

    def __init__(self, text: str, keys: List[int], names: List[str]) -> None:
        self.text, self.keys, self.names = text, keys, names
        self.deals = names.index("deals") if "deals" in names else -1
        self.items: Optional[Tuple[int, int, str]] = None      # (first item, region end, marker)
        self.count_at, self.count = -1, 0                      # items counted up to a position
        if self.deals >= 0:
            self.items = self._items_of(self.deals)

    def _end(self, j: int) -> int:
        return self.keys[j + 1] if j + 1 < len(self.keys) else len(self.text)

    def _following(self, j: int) -> Optional[Path]:
        return (self.names[j + 1],) if j + 1 < len(self.keys) else None

    def _items_of(self, j: int) -> Optional[Tuple[int, int, str]]:
        """Where the block sequence of `deals:` starts, ends, and the text before each item."""
        text, start, end = self.text, self.keys[j], self._end(j)
        eol = text.find("\n", start)
        if eol < 0 or eol >= end:
            return None
        line = text[start:eol]
        rest = line[line.find(":") + 1:]
        cut = rest.find(" #")
        if (rest[:cut] if cut >= 0 else rest).strip(" "):
            return None                            # `deals: [...]`: no items
        pos = eol + 1
        while pos < end:                           # the first line with data: the first item
            nl = text.find("\n", pos)
            nl = end if nl < 0 or nl > end else nl
            body = text[pos:nl].lstrip(" ")
            if body and body[0] != "#":
                if body == "-" or body.startswith("- "):
                    indent = nl - pos - len(body)
                    return pos, end, "\n" + " " * indent + "-"
                return None
            pos = nl + 1
        return None

    def _is_item(self, at: int) -> bool:
        """Whether the marker found at `at` starts an item (`- `, or `-` alone on its line)."""
        assert self.items is not None
        after = at + len(self.items[2])
        return self.text[after:after + 1] in (" ", "\n", "")

    def _next_item(self, pos: int) -> int:
        """The start of the first item after `pos` (the region's end when there is none)."""
        assert self.items is not None
        _first, end, marker = self.items
        at = self.text.find(marker, pos, end)
        while at >= 0 and not self._is_item(at):
            at = self.text.find(marker, at + 1, end)
        return at + 1 if at >= 0 else end

    def _item_bounds(self, pos: int) -> Tuple[int, int, int]:
        """(start, end, index) of the deal whose lines hold `pos` (at or after the first item)."""
        assert self.items is not None
        first, _end, marker = self.items
        text = self.text
        start = first
        at = text.rfind(marker, first, pos)
        while at >= first:
            if self._is_item(at):
                start = at + 1
                break
            at = text.rfind(marker, first, at)
        # its index: the item starts counted on from the last comment's (they come in order)
        if self.count_at < 0:
            self.count_at, self.count = first, 0
        at = text.find(marker, self.count_at, start - 1 + len(marker))
        while at >= 0:
            if self._is_item(at):
                self.count += 1
            at = text.find(marker, at + 1, start - 1 + len(marker))
        self.count_at = start
        return start, self._next_item(pos), self.count

    def anchor(self, pos: int, line: int, own: bool) -> Any:
        from prefcli.io.yaml_strict import compose
        import yaml

        keys, text = self.keys, self.text
        if pos < keys[0]:
            return (), False, False
        j = bisect.bisect_right(keys, pos) - 1
        start, end = keys[j], self._end(j)
        following = self._following(j)
        index = None
        if j == self.deals and self.items is not None and pos >= self.items[0]:
            start, end, index = self._item_bounds(pos)
            last = end >= self.items[1]
            following = following if last else ("deals", index + 1)
        elif j == self.deals and self.items is not None:
            end = self._next_item(self.items[0])    # before the first item: `deals:` and that item
        snippet = text[start:end]
        try:
            root = compose(snippet)
        except Exception:  # noqa: BLE001 - not composed alone: the whole tree decides
            return _UNSURE
        rel = pos - start
        rel_line = -1 if own else text.count("\n", start, pos)
        cache: Dict[int, Any] = {}
        if index is None:
            if not isinstance(root, yaml.MappingNode) or len(root.value) != 1 or \
                    str(root.value[0][0].value) != self.names[j]:
                return _UNSURE
            return _descend(root, rel, rel_line, cache, (), following)
        if not isinstance(root, yaml.SequenceNode) or len(root.value) != 1:
            return _UNSURE
        got = _descend(root, rel, rel_line, cache, ("deals",), following)
        if got is None or got[0] is following:
            return got
        path = got[0]
        if path[:2] == ("deals", 0):
            path = ("deals", index) + path[2:]
        return path, got[1], got[2]


class NotStreamable(Exception):
    """Comments whose place the streamed writer cannot know before the part they go into is
    written: the whole-text way writes them (:func:`plan_comments` says which)."""


@dataclass
class CommentPlan:
    """The comments of a record sorted by the part of the canonical text they go into: the
    head (every key before `deals`, and what goes above its first line), the `deals:` line,
    each deal (by index), the tail (every key after), and the end of the file."""

    head: List[Comment]
    deals_key: List[Comment]
    deals: Dict[int, List[Comment]]
    tail: List[Comment]
    end: List[Comment]


def plan_comments(comments: Sequence[Comment], head_keys: Iterable[str], tail_keys: Iterable[str],
                  deals: int) -> CommentPlan:
    """Each comment's part, decided before anything is written, as :func:`place_comments` would
    find it in the whole text: a path's first key is the top-level key it is written under (a
    path that names none goes where its nearest written ancestor is: the file's first line), a
    deal's index its item, one past the last deal the `deals:` line.

    Raises NotStreamable for the one layout whose part depends on text not yet written: a
    top-level key not in the record whose dotted form (`end.reason`) names a key written after
    the head (a record prefcli reads has no such key: its keys are the format's)."""
    head_set, tail_set = set(head_keys), set(tail_keys)
    plan = CommentPlan([], [], {}, [], [])
    for c in sorted(comments, key=lambda c: c.line):
        path = c.path
        if c.end:
            plan.end.append(c)
        elif not path or path[0] in head_set:
            plan.head.append(c)
        elif path[0] == "deals":
            if len(path) > 1 and isinstance(path[1], int) and 0 <= path[1] < deals:
                plan.deals.setdefault(path[1], []).append(c)
            else:
                plan.deals_key.append(c)
        elif path[0] in tail_set:
            plan.tail.append(c)
        else:
            first = str(path[0]).split(".")[0]
            if first != path[0] and (first == "deals" or first in tail_set):
                raise NotStreamable(f"the comment on line {c.line} names {path[0]!r}")
            plan.head.append(c)
    return plan


#: where a deal starts in the canonical text (an item of `deals:`, at column 2), and a line
#: that is a top-level key (what :class:`_Canonical` takes for one)
_ITEM = "\n  - "
_TOP_LINE = re.compile(r"\n[^ #\-\n][^\n]*:")


def _place_block(text: str, comments: List[Comment]) -> str:
    """`text` (whole top-level keys of the canonical text) with `comments` placed in it."""
    if not comments:
        return text
    where = _Canonical(text)
    above, after, tail = _targets(where.place, where.lines, [(c, c.path) for c in comments])
    if tail:      # pragma: no cover - a path always finds at least its top-level key
        raise NotStreamable("a comment without a place")
    return "\n".join(_render(where.lines, above, after))


def _place_deals_line(line: str, comments: List[Comment]) -> str:
    """The `deals:` line with its comments (above it, or ending it)."""
    if not comments:
        return line
    from_text = _Place(0, 1, False, False) if line == "deals:" else _compose_lines([line], 0, 1, ("deals",))
    lines = [line]
    above, after, _ = _targets(lambda p: from_text if p == ("deals",) else None, lines,
                               [(c, c.path) for c in comments])
    return "\n".join(_render(lines, above, after))


def _place_deal(text: str, comments: List[Comment]) -> str:
    """One deal's lines (`  - ...`, composed alone as the whole text's deal is) with its comments."""
    lines = text.split("\n")
    above, after, tail = _targets(lambda p: _compose_lines(lines, 0, len(lines), p, item=True), lines,
                                  [(c, c.path[2:]) for c in comments])
    if tail:      # pragma: no cover - a deal's own item always has a place
        raise NotStreamable("a comment without a place")
    return "\n".join(_render(lines, above, after))


def place_chunks(chunks: Iterable[str], plan: CommentPlan) -> Iterator[str]:
    """The canonical text of a record, given in chunks of any size, with the comments of `plan`
    placed as each part goes by: the bytes of :func:`place_comments` on the whole text.

    The parts are found as :class:`_Canonical` finds them in the whole text (top-level keys at
    column 0, deals as `  - ` items of `deals:`), and each is placed by the same code on the
    same lines, so only the head, one deal with a comment, or the tail is held at a time; a
    deal without one is passed on as it comes (counted, not split into lines)."""
    wanted = sorted(plan.deals)
    wi = 0
    buf = ""
    state = "head"
    k = -1                       # the deal at `pos` (-1: before the first)
    collecting: Optional[List[str]] = None
    for chunk in _then_end(chunks):
        final = chunk is None
        if chunk is not None:
            buf += chunk
        if state == "head":
            i = 0 if buf.startswith("deals:") else buf.find("\ndeals:") + 1
            j = buf.find("\n", i) if i > 0 or buf.startswith("deals:") else -1
            if j < 0:
                if final:        # pragma: no cover - a record always has deals
                    yield _place_block(buf, plan.head + plan.deals_key + plan.tail)
                continue
            yield _place_block(buf[:i], plan.head)
            line = buf[i:j]
            yield _place_deals_line(line, plan.deals_key)
            buf = buf[j:]                        # from the newline that ends `deals:`
            state = "deals" if line == "deals:" else "tail"
            scan_from = 0
        if state == "deals":
            last_nl = len(buf) if final else buf.rfind("\n")
            m = _TOP_LINE.search(buf, 0, last_nl) if last_nl > 0 else None
            lim = m.start() if m is not None else max(last_nl, 0)
            pos = 0
            while pos < lim:
                if collecting is not None:
                    q = buf.find(_ITEM, scan_from, lim)
                    if q < 0:
                        collecting.append(buf[pos:lim])
                        pos = lim
                        break
                    collecting.append(buf[pos:q])
                    yield _finish(collecting, plan.deals[k])
                    k, scan_from, pos = k + 1, q + 1, q
                    collecting = None
                    if wi < len(wanted) and wanted[wi] == k:
                        collecting, wi = [], wi + 1
                    continue
                if wi >= len(wanted):
                    yield buf[pos:lim]
                    pos = lim
                    break
                c = buf.count(_ITEM, scan_from, lim)
                if k + c < wanted[wi]:
                    yield buf[pos:lim]
                    k, pos = k + c, lim
                    break
                q = -1
                while k < wanted[wi]:
                    q = buf.find(_ITEM, scan_from, lim)
                    k, scan_from = k + 1, q + 1
                yield buf[pos:q]
                pos = q
                collecting, wi = [], wi + 1
            buf, scan_from = buf[lim:], 0
            if m is not None or final:
                if collecting is not None:
                    yield _finish(collecting, plan.deals[k])
                    collecting = None
                state = "tail"
        if state == "tail" and final:
            if buf.startswith("\n"):
                yield "\n" + _place_block(buf[1:], plan.tail)
            else:
                yield _place_block(buf, plan.tail)
            buf = ""
    for last in plan.end:
        yield last.text + "\n"


def _finish(collected: List[str], comments: List[Comment]) -> str:
    text = "".join(collected)               # "\n  - ..." (from the newline before the item)
    return "\n" + _place_deal(text[1:], comments)


def _then_end(chunks: Iterable[str]) -> Iterator[Optional[str]]:
    yield from chunks
    yield None
