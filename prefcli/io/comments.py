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
ancestor; a dotted rules key (`allpass.progression:`) finds its nested place. The property
tests check that the comments never change the data and that converting again changes nothing.

Speed and memory (issue 11 item 1, issue 18): a file without a `#` pays nothing. convert writes
a commented record deal by deal as it writes one without: each comment's place in the source is
found in one pass over its lines when the fast reader read it (:func:`scan_comments`: only the
entry that holds a comment, a top-level key or one deal, is composed; a text the loader composed
has its tree used instead), the part of the canonical text it goes into is decided before the
first write (:func:`plan_comments`: the head, the `deals:` line, a deal, the tail, the end), and
each part is placed as it goes by (:func:`place_chunks`), by the same code on the same lines as
:func:`place_comments` on the whole text, which tests/test_comments_stream.py keeps as the
reference (those three are :mod:`prefcli.io.comments_stream`'s). The whole text is made only
for a sheet (small) and for the one layout :func:`plan_comments` names.
"""
from __future__ import annotations

import bisect
import re
from prefcli.model.slots import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

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
    streamed scan starts it from one entry composed alone
    (:func:`prefcli.io.comments_stream.scan_comments`)."""
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
    comments as it writes each part instead
    (:func:`prefcli.io.comments_stream.place_chunks`), with the same bytes.
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

