"""Comments of a YAML record written deal by deal (issue 11 items 1 and 2, issue 18).

:mod:`prefcli.io.comments` says where a comment belongs and places comments in a whole text;
here the same places are found and used without the whole of either: each comment's place in
the source by one pass over its lines (:func:`scan_comments`), the part of the canonical text
it goes into decided before the first write (:func:`plan_comments`), and each part placed as the
writer hands it on (:func:`place_chunks`), by the same code on the same lines as
:func:`prefcli.io.comments.place_comments`, so the bytes are the same
(tests/test_comments_stream.py keeps the whole-text way as the reference).
"""
from __future__ import annotations

import bisect
import re
from prefcli.model.slots import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from prefcli.io.comments import (Comment, Path, _Canonical, _compose_lines, _descend, _Place, _render,
                                 _targets, find_comments)

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
