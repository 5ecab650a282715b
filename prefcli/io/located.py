"""A parsed :class:`Document`: its data and its text, so that a problem found later by code that
knows only a data path can still be given its line and column (YAML from the composed nodes,
JSON by a light scan of the text)."""
from __future__ import annotations

import re
from dataclasses import field
from prefcli.model.slots import dataclass
from typing import Any, Dict, Optional, Tuple, Union

from prefcli.io.yaml_strict import compose
from prefcli.model.diagnostics import Path, PrefcliError, Problem


@dataclass
class Document:
    """A loaded document: plain data plus a way back from data paths to line and column."""

    name: str
    data: Any
    text: str = ""
    is_json: bool = False
    _root: Any = field(default=None, repr=False)
    _root_loaded: bool = field(default=False, repr=False)
    _json: Any = field(default=None, repr=False)

    @property
    def kind(self) -> Optional[str]:
        """'record' or 'sheet' from the `format` field (None when it is neither)."""
        fmt = self.data.get("format") if isinstance(self.data, dict) else None
        if isinstance(fmt, str):
            if fmt.startswith("pref-record/"):
                return "record"
            if fmt.startswith("pref-sheet/"):
                return "sheet"
            if fmt.startswith("pref-tournament/"):
                return "tournament"
        return None

    def _node_root(self):
        if not self._root_loaded:
            self._root_loaded = True
            try:
                self._root = compose(self.text) if self.text else None
            except Exception:  # positions are a courtesy: never fail because of them
                self._root = None
        return self._root

    def locate(self, path: Path, key: bool = False) -> Tuple[Optional[int], Optional[int]]:
        """Line and column (1-based) of the value at `path`, or of its nearest parent; with `key`,
        of the last element's key itself (where an unknown field is written)."""
        if self.is_json and self.text:
            if self._json is None:
                self._json = _JsonLocator(self.text)
            return self._json.locate(path, key)
        import yaml

        node = self._node_root()
        if node is None:
            return None, None
        best = node
        last = len(path) - 1
        for i, elem in enumerate(path):
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(elem):
                        if key and i == last:
                            return k.start_mark.line + 1, k.start_mark.column + 1
                        nxt = v
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(elem, int):
                if 0 <= elem < len(node.value):
                    nxt = node.value[elem]
            if nxt is None:
                break
            node = best = nxt
        return best.start_mark.line + 1, best.start_mark.column + 1

    def problem(self, path: Path, message: str, kind: str = "rule", key: bool = False) -> Problem:
        line, col = self.locate(path, key or _about_key(message))
        return Problem(message, tuple(path), self.name, line, col, kind)

    def place(self, problem: Union[Problem, PrefcliError]) -> Problem:
        """Fill in file, line and column of a problem (or a library error) found by code that
        knows only the data path: the one place an error becomes a located problem."""
        if isinstance(problem, PrefcliError):
            problem = problem.problem()
        if problem.line is not None and problem.file is not None:
            return problem
        line, col = ((problem.line, problem.column) if problem.line is not None
                     else self.locate(problem.path, _about_key(problem.message)))
        return problem.at(self.name, line, col)


def _about_key(message: str) -> bool:
    """A problem with a name rather than a value (an unknown field or option) is shown at the key."""
    return message.startswith("unknown field") or message.startswith("unknown option") or \
        message.startswith("unknown state field") or " unknown option " in message[:40]


_WS = re.compile(r"[ \t\n\r]*")


def _ws_end(text: str, pos: int) -> int:
    """Where the JSON blanks from `pos` end (the pattern matches an empty run too)."""
    match = _WS.match(text, pos)
    assert match is not None
    return match.end()


class _JsonLocator:
    """Positions in JSON text, found by walking it with the standard library's own scanner.

    (The YAML composer would do for most JSON, but refuses escaped surrogate pairs and is slow on
    a big file.) Each object or array walked is indexed once, so many problems in one long
    `deals` list cost one pass over it, not one each."""

    def __init__(self, text: str) -> None:
        import json
        from json.decoder import scanstring  # type: ignore[attr-defined]  # public, not in typeshed
        self.text = text
        none = (lambda *_: None)
        self.skip = json.JSONDecoder(object_pairs_hook=none, parse_float=none, parse_int=none,
                                     parse_constant=none).raw_decode
        self.scanstring = scanstring
        self.ws = _ws_end
        self.index: Dict[int, Any] = {}

    def _children(self, pos: int) -> Any:
        """{key: (key offset, value offset)} of the object at `pos`, or [value offsets] of an array."""
        got = self.index.get(pos)
        if got is not None:
            return got
        text, ws, n = self.text, self.ws, len(self.text)
        out: Any
        if text[pos] == "{":
            out = {}
            p = ws(text, pos + 1)
            while p < n and text[p] == '"':
                kpos = p
                k, p = self.scanstring(text, p + 1)
                p = ws(text, p)
                if p >= n or text[p] != ":":
                    break
                p = ws(text, p + 1)
                out.setdefault(k, (kpos, p))
                _, p = self.skip(text, p)
                p = ws(text, p)
                if p < n and text[p] == ",":
                    p = ws(text, p + 1)
                else:
                    break
        else:
            out = []
            p = ws(text, pos + 1)
            while p < n and text[p] != "]":
                out.append(p)
                _, p = self.skip(text, p)
                p = ws(text, p)
                if p < n and text[p] == ",":
                    p = ws(text, p + 1)
                else:
                    break
        self.index[pos] = out
        return out

    def locate(self, path: Path, key: bool) -> Tuple[Optional[int], Optional[int]]:
        text = self.text
        try:
            pos = self.ws(text, 0)
            best = pos
            last = len(path) - 1
            for i, elem in enumerate(path):
                if pos >= len(text) or text[pos] not in "{[":
                    break
                kids = self._children(pos)
                if isinstance(kids, dict):
                    hit = kids.get(str(elem))
                    if hit is None:
                        break
                    if key and i == last:
                        best = hit[0]
                        break
                    pos = best = hit[1]
                else:
                    if not isinstance(elem, int) or not 0 <= elem < len(kids):
                        break
                    pos = best = kids[elem]
            return line_col(text, best)
        except (ValueError, IndexError):  # positions are a courtesy: never fail because of them
            return None, None


def line_col(text: str, offset: int) -> Tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1

