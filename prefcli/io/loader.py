"""Strict, safe reading of YAML and JSON documents, with positions for every error.

Why not ``yaml.safe_load``: PyYAML's defaults read ``no`` as False (a player called ``No``
becomes a boolean), dates as ``datetime.date``, silently keep the last of two duplicate keys, and
expand aliases without bound (an "alias bomb" of a few lines expands to 10^12 nodes). Here:

* only libyaml's (or PyYAML's) *composer* runs; scalars are resolved by the YAML 1.2 core rules
  below, so ``yes/no/on/off`` and dates stay strings;
* every explicit tag except the standard scalar/collection ones is refused (never executed);
* a collection reached twice (an alias) is refused; duplicate keys are refused;
* floats are read as :class:`~decimal.Decimal` (exact as written), huge numbers are refused;
* absurd nesting and oversized input are refused before parsing.

Positions are found lazily: the composed node tree is kept, and a data path is mapped back to a
line and column only when a problem is reported.

Text in the plain subset most records are written in is read by a fast line reader instead of
composing a node tree (see `_fast_yaml`); it gives the same data or declines, never an error.
"""
from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from prefcli.model.diagnostics import InputError, Path, Problem, Problems

MAX_BYTES = int(os.environ.get("PREFCLI_MAX_BYTES", str(64 * 1024 * 1024)))
MAX_DEPTH = 64
MAX_DIGITS = 40

_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
# A float needs its dot (as in YAML 1.1), so what PyYAML writes unquoted (`1e5`) reads back as text.
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|(0|[1-9][0-9]*)\.[0-9]*)([eE][-+]?[0-9]+)?\Z")
_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUES = {"true", "True", "TRUE"}
_FALSES = {"false", "False", "FALSE"}
_PLAIN_TAG = "tag:prefcli,2026:plain"
_STD = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}
_BRACKETS = re.compile(r"[\[\]{}]")


class _Located(Exception):
    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None,
                 path: Path = ()) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.path = message, line, column, path


def _yaml_loader_class():
    """A loader that composes only; plain scalars get a private tag so we resolve them."""
    import yaml

    try:
        from yaml._yaml import CParser as parser  # libyaml's C parser and composer
    except ImportError:  # PyYAML built without libyaml: the pure-Python parser, same results
        parser = None
    base = (parser,) if parser is not None else (yaml.reader.Reader, yaml.scanner.Scanner,
                                                 yaml.parser.Parser)
    composer = () if parser is not None else (yaml.composer.Composer,)

    class _Resolver(yaml.resolver.BaseResolver):
        pass

    _Resolver.yaml_implicit_resolvers = {}
    scalar_node, sequence_node = yaml.ScalarNode, yaml.SequenceNode

    def resolve(self, kind, value, implicit):  # the composer asks this for every untagged node
        if kind is scalar_node:
            return _PLAIN_TAG if implicit[0] else _STD + "str"
        return _STD + ("seq" if kind is sequence_node else "map")

    def no_path(self, *args):
        return None

    _Resolver.resolve = resolve
    _Resolver.descend_resolver = no_path
    _Resolver.ascend_resolver = no_path

    class StrictComposeLoader(*base, *composer, _Resolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            if parser is not None:
                parser.__init__(self, stream)
            else:
                yaml.reader.Reader.__init__(self, stream)
                yaml.scanner.Scanner.__init__(self)
                yaml.parser.Parser.__init__(self)
                yaml.composer.Composer.__init__(self)
            _Resolver.__init__(self)

    return StrictComposeLoader


_LOADER = None


def _compose(text: str):
    global _LOADER
    if _LOADER is None:
        _LOADER = _yaml_loader_class()
    loader = _LOADER(text)
    try:
        return loader.get_single_node()
    finally:
        dispose = getattr(loader, "dispose", None)
        if dispose:
            dispose()


def _resolve_plain(value: str, node) -> Any:
    if value in _NULLS:
        return None
    if value in _TRUES:
        return True
    if value in _FALSES:
        return False
    c = value[0]
    if c.isdigit() or c in "+-.":
        if _INT.match(value):
            digits = len(value.lstrip("+-"))
            if digits > MAX_DIGITS:
                raise _Located(f"number with {digits} digits is too large to be meaningful here",
                               node.start_mark.line + 1, node.start_mark.column + 1)
            return int(value)
        if _FLOAT.match(value):
            if len(value) > MAX_DIGITS + 10:
                raise _Located(f"number '{value[:20]}…' is too long", node.start_mark.line + 1,
                               node.start_mark.column + 1)
            return Decimal(value)
    return value


def _tagged_scalar(tag: str, value: str, node) -> Any:
    if tag == _STD + "str":
        return value
    if tag == _STD + "null":
        return None
    try:
        if tag == _STD + "bool":
            low = value.lower()
            if low in ("true", "yes", "on"):
                return True
            if low in ("false", "no", "off"):
                return False
            raise ValueError
        if tag in (_STD + "int", _STD + "float"):
            out = _resolve_plain(value, node)
            if not isinstance(out, (int, Decimal)) or isinstance(out, bool):
                raise ValueError
            return out
    except ValueError:
        pass
    raise _Located(f"'{value}' cannot be read as {tag.replace(_STD, '!!')}",
                   node.start_mark.line + 1, node.start_mark.column + 1)


def _construct(root) -> Any:
    """Nodes → plain data, refusing aliases of collections, duplicate keys and foreign tags."""
    import yaml

    seen: set = set()
    ScalarNode, MappingNode = yaml.ScalarNode, yaml.MappingNode

    def pos(node) -> Tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def build(node, depth: int, path: Path) -> Any:
        tag = node.tag
        if isinstance(node, ScalarNode):
            if tag == _PLAIN_TAG:
                return _resolve_plain(node.value, node)  # only plain scalars carry this tag
            if tag not in _ALLOWED_TAGS:
                if tag.startswith("tag:yaml.org,2002:"):
                    what = "!!" + tag[len(_STD):]
                else:
                    what = tag
                raise _Located(f"the YAML tag {what} is not allowed in a prefcli document "
                               "(tags are never executed; remove it)", *pos(node), path)
            return _tagged_scalar(tag, node.value, node)
        if depth > MAX_DEPTH:
            raise _Located(f"nesting deeper than {MAX_DEPTH} levels", *pos(node), path)
        if id(node) in seen:
            raise _Located("YAML aliases of collections (*name) are not allowed in prefcli documents; "
                           "write the data out", *pos(node), path)
        seen.add(id(node))
        if tag not in _ALLOWED_TAGS and tag != _PLAIN_TAG and not tag.startswith("tag:yaml.org,2002:"):
            raise _Located(f"the YAML tag {tag} is not allowed in a prefcli document", *pos(node), path)
        if isinstance(node, MappingNode):
            if tag not in (_STD + "map", _PLAIN_TAG):
                raise _Located(f"the YAML tag {tag.replace(_STD, '!!')} is not allowed here", *pos(node), path)
            out: Dict[str, Any] = {}
            for knode, vnode in node.value:
                if knode.tag == _STD + "merge" or (isinstance(knode, ScalarNode) and knode.value == "<<"
                                                   and knode.tag == _PLAIN_TAG):
                    raise _Located("YAML merge keys (<<) are not allowed in prefcli documents",
                                   *pos(knode), path)
                if not isinstance(knode, ScalarNode):
                    raise _Located("a mapping key must be a plain name, not a list or mapping",
                                   *pos(knode), path)
                if knode.tag not in (_PLAIN_TAG, _STD + "str", _STD + "int"):
                    raise _Located(f"the YAML tag {knode.tag} is not allowed on a key", *pos(knode), path)
                key = knode.value
                if key in out:
                    raise _Located(f"duplicate key '{key}' (each key may appear once in a mapping)",
                                   *pos(knode), path)
                out[key] = build(vnode, depth + 1, path + (key,))
            return out
        if tag not in (_STD + "seq", _PLAIN_TAG):
            raise _Located(f"the YAML tag {tag.replace(_STD, '!!')} is not allowed here", *pos(node), path)
        return [build(v, depth + 1, path + (i,)) for i, v in enumerate(node.value)]

    return build(root, 0, ())


# ---------------------------------------------------------------------------------------------
# A fast reader for the plain subset of YAML that records are usually written in
# ---------------------------------------------------------------------------------------------
#
# Composing a node tree with libyaml and then walking it costs more than everything else a command
# does with a record. Most records (and everything PyYAML's dumper writes) use only block
# mappings and sequences, one-line flow collections and plain scalars made of letters, digits and
# a few safe marks; such text is read here line by line, straight into the same data. This reader
# never decides that something is wrong: at the first thing outside that subset (a quote, an
# anchor, a tag, a comment after a value, a multi-line scalar, a tab, a duplicate key, an odd
# indentation, any non-ASCII text…) it gives up and the strict libyaml path above reads the
# document instead, with its own messages and positions. Scalars are resolved by the same
# `_resolve_plain`, and keys stay the text as written, exactly as `_construct` does.

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
_FAST_MAX_KEY = 200


class _NotFast(Exception):
    """The text is outside the subset the fast reader is sure of."""


def _fast_yaml(text: str) -> Any:
    """The data of `text` when it is in the plain subset, else None (use the strict path)."""
    if not text.isascii() or _FAST_REFUSED.search(text):
        return None
    lines: List[Tuple[int, str]] = []
    for raw in text.split("\n"):
        body = raw.lstrip(" ")
        if not body or body[0] == "#":
            continue  # blank line or whole-line comment
        if body[:3] in ("---", "...") or body[0] == "%":
            return None  # document markers and directives
        lines.append((len(raw) - len(body), body.rstrip(" ")))
    if not lines or lines[0][0] != 0:
        return None
    if len(_FAST_SCALARS) > 20000:
        _FAST_SCALARS.clear()
    reader = _FastReader(lines, _FAST_SCALARS)
    try:
        data = reader.node(0, 0)
    except (_NotFast, RecursionError):
        return None
    if reader.i != len(lines) or not isinstance(data, dict):
        return None
    return data


_MISSING = object()


class _FastReader:
    __slots__ = ("lines", "i", "cache", "keys")

    def __init__(self, lines: List[Tuple[int, str]], cache: Dict[str, Any]) -> None:
        self.lines, self.i, self.cache = lines, 0, cache
        self.keys: set = set()   # keys already checked against _FAST_SCALAR_RE

    def scalar(self, text: str) -> Any:
        try:
            return self.cache[text]
        except KeyError:
            pass
        if not _FAST_SCALAR_RE.match(text):
            raise _NotFast
        try:
            value = _resolve_plain(text, None)
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
                scalar = self.scalar
                out: Dict[str, Any] = {}
                for item in text[1:-1].split(", "):
                    key, _, val = item.partition(": ")
                    if key in out or len(key) > _FAST_MAX_KEY:
                        raise _NotFast
                    out[key] = scalar(val)
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
                if m.group(1) is None:
                    raise _NotFast
                item = self.scalar(m.group(1))
                pos = m.end()
            if is_map:
                out[key] = item
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
        body = self.lines[self.i][1]
        if body == "-" or body.startswith("- "):
            return self.sequence(indent, depth)
        if _FAST_KEY_RE.match(body):
            return self.mapping(indent, depth)
        # a lone scalar or flow collection as a node of its own (after `- `)
        self.i += 1
        return self.value(body, depth)

    def child(self, indent: int, depth: int, indentless_ok: bool) -> Any:
        """The value of `key:` / `-` written on the following lines (None when there are none)."""
        lines, i = self.lines, self.i
        if i < len(lines):
            col, body = lines[i]
            if col > indent:
                return self.node(col, depth + 1)
            if indentless_ok and col == indent and (body == "-" or body.startswith("- ")):
                return self.sequence(indent, depth + 1)
        return None

    def mapping(self, indent: int, depth: int) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        lines, n, keys, cache = self.lines, len(self.lines), self.keys, self.cache
        while self.i < n:
            col, body = lines[self.i]
            if col != indent:
                if col < indent:
                    break
                raise _NotFast
            # `key: value` or `key:` (what _FAST_KEY_RE matches; a key holds no ':')
            c = body.find(":")
            if c <= 0:
                break  # not a key (e.g. `- ` at the mapping's column): the caller decides
            key = body[:c]
            if key not in keys:
                if len(key) > _FAST_MAX_KEY or not _FAST_SCALAR_RE.match(key):
                    break
                keys.add(key)
            rest = body[c + 1:]
            if rest and rest[0] != " ":
                break
            if key in out:
                raise _NotFast
            self.i += 1
            if rest:
                rest = rest.lstrip(" ")
                v = cache.get(rest, _MISSING)
                out[key] = self.value(rest, depth + 1) if v is _MISSING else v
            else:
                out[key] = self.child(indent, depth, True)
        return out

    def sequence(self, indent: int, depth: int) -> List[Any]:
        out: List[Any] = []
        lines, n = self.lines, len(self.lines)
        while self.i < n:
            col, body = lines[self.i]
            if col != indent or not (body == "-" or body.startswith("- ")):
                if col > indent:
                    raise _NotFast
                break
            if body == "-":
                self.i += 1
                out.append(self.child(indent, depth, False))
                continue
            rest = body[1:].lstrip(" ")
            # the item's content starts a node at its own column, as if on a line of its own
            lines[self.i] = (col + len(body) - len(rest), rest)
            out.append(self.node(col + len(body) - len(rest), depth + 1))
            if self.i < n and lines[self.i][0] > indent:
                raise _NotFast
        return out


def _check_nesting(text: str) -> Optional[Tuple[int, int]]:
    """Refuse absurd flow nesting before a recursive parser sees it; returns (line, col)."""
    if "[" not in text and "{" not in text:
        return None
    depth = 0
    limit = MAX_DEPTH * 4
    for m in _BRACKETS.finditer(text):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                start = m.start()
                line = text.count("\n", 0, start) + 1
                col = start - (text.rfind("\n", 0, start) + 1) + 1
                return line, col
        else:
            depth = max(0, depth - 1)
    return None


@dataclass
class Document:
    """A loaded document: plain data plus a way back from data paths to line and column."""

    name: str
    data: Any
    text: str = ""
    is_json: bool = False
    _root: Any = field(default=None, repr=False)
    _root_loaded: bool = field(default=False, repr=False)

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
                self._root = _compose(self.text) if self.text else None
            except Exception:  # positions are a courtesy: never fail because of them
                self._root = None
        return self._root

    def locate(self, path: Path) -> Tuple[Optional[int], Optional[int]]:
        """Line and column (1-based) of the value at `path`, or of its nearest parent."""
        import yaml

        node = self._node_root()
        if node is None:
            return None, None
        best = node
        for elem in path:
            nxt = None
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(elem):
                        nxt = v
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(elem, int):
                if 0 <= elem < len(node.value):
                    nxt = node.value[elem]
            if nxt is None:
                break
            node = best = nxt
        return best.start_mark.line + 1, best.start_mark.column + 1

    def problem(self, path: Path, message: str, kind: str = "rule") -> Problem:
        line, col = self.locate(path)
        return Problem(message, tuple(path), self.name, line, col, kind)

    def place(self, problem: Problem) -> Problem:
        """Fill in file, line and column of a problem found by code that knows only the path."""
        if problem.line is not None and problem.file is not None:
            return problem
        line, col = (problem.line, problem.column) if problem.line is not None else self.locate(problem.path)
        return problem.at(self.name, line, col)


def _fail(name: str, message: str, line: Optional[int] = None, column: Optional[int] = None,
          path: Path = (), kind: str = "syntax") -> InputError:
    return InputError([Problem(message, path, name, line, column, kind)])


def read_source(source: Union[str, os.PathLike]) -> Tuple[str, bytes]:
    """(display name, bytes) of a path or `-` (stdin), with the size limit applied."""
    name = "<stdin>" if str(source) == "-" else str(source)
    try:
        if str(source) == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(source, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise _fail(name, "no such file") from None
    except IsADirectoryError:
        raise _fail(name, "is a folder, not a file") from None
    except PermissionError:
        raise _fail(name, "permission denied") from None
    except OSError as exc:
        raise _fail(name, f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise _fail(name, f"file is larger than the limit of {MAX_BYTES // (1024 * 1024)} MiB "
                          "(set PREFCLI_MAX_BYTES to raise it)")
    return name, raw


def _decode(name: str, raw: bytes) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise _fail(name, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                          "is this a binary file?", line) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    if bad:
        start = bad.start()
        line = text.count("\n", 0, start) + 1
        raise _fail(name, f"control character 0x{ord(bad.group()):02x} in the text; is this a binary file?", line)
    return text


class _JsonDuplicate(Exception):
    pass


def _json_pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _JsonDuplicate(k)
        out[k] = v
    return out


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Located(f"number with {len(text.lstrip('-'))} digits is too large to be meaningful here")
    return int(text)


def _json_constant(text: str) -> Any:
    raise _Located(f"{text} is not a number JSON allows")


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cycle collector: building a large tree of fresh containers (or checking one with
    jsonschema) makes it run over and over for nothing, about a third of the time of a
    10,000-deal record. Nothing here creates cycles worth collecting."""
    import gc
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_text(name: str, text: str, is_json: bool) -> Document:
    with paused_gc():
        return _parse_text(name, text, is_json)


def _parse_text(name: str, text: str, is_json: bool) -> Document:
    if not is_json:
        data = _fast_yaml(text)  # depth-limited itself; declines empty and deeply nested text
        if data is not None:
            return Document(name, data, text, False)  # positions are composed if ever asked for
    where = _check_nesting(text)
    if where:
        raise _fail(name, f"nesting deeper than {MAX_DEPTH * 4} levels: not a prefcli document", *where)
    if not text.strip():
        raise _fail(name, "the file is empty: expected a record (format: pref-record/1) "
                          "or a sheet (format: pref-sheet/1)", 1, 1)
    if is_json:
        import json
        try:
            data = json.loads(text, object_pairs_hook=_json_pairs, parse_float=Decimal,
                              parse_int=_json_int, parse_constant=_json_constant)
        except json.JSONDecodeError as exc:
            raise _fail(name, f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
        except _JsonDuplicate as exc:
            doc = Document(name, None, text, True)
            line = col = None
            try:  # find the second occurrence with the YAML composer (JSON is YAML)
                _construct(_compose(text))
            except _Located as loc:
                line, col = loc.line, loc.column
            except Exception:
                pass
            del doc
            raise _fail(name, f"duplicate key '{exc.args[0]}' (each key may appear once in an object)",
                        line, col) from None
        except _Located as exc:
            raise _fail(name, exc.message) from None
        except RecursionError:
            raise _fail(name, "nesting too deep: not a prefcli document") from None
        return Document(name, data, text, True)
    import yaml
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or "cannot be read"
        if exc.context:
            what = f"{what} ({exc.context})"
        raise _fail(name, f"not valid YAML: {what}",
                    mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise _fail(name, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise _fail(name, "nesting too deep: not a prefcli document") from None
    if root is None:
        raise _fail(name, "the file holds no document: expected a record (format: pref-record/1) "
                          "or a sheet (format: pref-sheet/1)", 1, 1)
    try:
        data = _construct(root)
    except _Located as exc:
        raise _fail(name, exc.message, exc.line, exc.column, exc.path) from None
    except RecursionError:
        raise _fail(name, "nesting too deep: not a prefcli document") from None
    doc = Document(name, data, text, False)
    doc._root, doc._root_loaded = root, True
    return doc


def load_document(source: Union[str, os.PathLike], raw: Optional[bytes] = None) -> Document:
    """Read a YAML or JSON document (JSON by extension, or by a leading `{` on stdin)."""
    if raw is None:
        name, raw = read_source(source)
    else:
        name = "<stdin>" if str(source) == "-" else str(source)
    text = _decode(name, raw)
    lower = name.lower()
    is_json = lower.endswith(".json") or (name == "<stdin>" and text.lstrip().startswith("{"))
    return parse_text(name, text, is_json)


# ---------------------------------------------------------------------------------------------
# Records and sheets
# ---------------------------------------------------------------------------------------------

def schema_problems(doc: Document, kind: str) -> List[Problem]:
    """Every JSON Schema problem of the document, located, most specific first."""
    from prefcli.io.schemas import validator_for

    validator = validator_for(kind)
    out: List[Problem] = []
    for err in validator.iter_errors(doc.data):
        for leaf in _leaves(err):
            path = tuple(leaf.absolute_path)
            out.append(doc.problem(path, _schema_message(leaf), "schema"))
    out.sort(key=lambda p: (p.line or 0, p.column or 0))
    # one message per place is enough; the first is the most specific
    seen, unique = set(), []
    for p in out:
        key = (p.path, p.message)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def _leaves(err) -> List[Any]:
    """For oneOf/anyOf failures, report the branch that got furthest rather than a summary."""
    if err.context:
        best = max(err.context, key=lambda e: (len(e.absolute_path), -len(e.context or [])))
        deeper = [e for e in err.context if len(e.absolute_path) == len(best.absolute_path)]
        if len(best.absolute_path) > len(err.absolute_path):
            return _leaves(best)
        if len(deeper) == len(err.context):
            return [err]
        return _leaves(best)
    return [err]


def _schema_message(err) -> str:
    from prefcli.io.schemas import describe_error
    return describe_error(err)


def _format_check(doc: Document, expected_kind: Optional[str]) -> Optional[str]:
    data = doc.data
    if not isinstance(data, dict):
        from prefcli.model.records import type_name
        raise InputError([doc.problem((), f"expected a mapping with a format field "
                                          f"(pref-record/1 or pref-sheet/1), found {type_name(data)}",
                                      "schema")])
    fmt = data.get("format")
    known = {"pref-record/1": "record", "pref-sheet/1": "sheet", "pref-tournament/1": "tournament"}
    if fmt not in known:
        if isinstance(fmt, str) and (fmt.startswith("pref-record/") or fmt.startswith("pref-sheet/")):
            msg = f"unsupported format version '{fmt}': this prefcli reads pref-record/1 and pref-sheet/1"
        elif fmt is None:
            msg = "missing 'format': write format: pref-record/1 (a game record) or format: pref-sheet/1 (a score sheet)"
        else:
            msg = f"unknown format {fmt!r}: expected pref-record/1 or pref-sheet/1"
        raise InputError([doc.problem(("format",) if fmt is not None else (), msg, "schema")])
    kind = known[fmt]
    if expected_kind and kind != expected_kind:
        raise InputError([doc.problem(("format",), f"this is a {kind} (format: {fmt}); a {expected_kind} "
                                                    f"is needed here", "schema")])
    return kind


def _build(doc: Document, kind: str, builder: Any, check_schema: bool) -> Any:
    """Format check, the schema (unless told not to), then the model builder; every problem located."""
    _format_check(doc, kind)
    probs = schema_problems(doc, kind) if check_schema else []
    if probs:
        raise InputError(probs)
    problems = Problems()
    built = builder(doc.data, problems)
    if problems:
        raise InputError([doc.place(p) for p in problems])
    return built


def build_record(doc: Document, check_schema: bool = True):
    """Schema-check and build a record; raises InputError with every located problem."""
    from prefcli.model.records import record_from_data
    return _build(doc, "record", record_from_data, check_schema)


@lru_cache(maxsize=1)
def _record_keys() -> Optional[Tuple[frozenset, frozenset, frozenset, frozenset]]:
    """Field names the record schema allows (top level, deal, adjust entry, penalty), or None."""
    try:
        from prefcli.io.schemas import schema
        sch = schema("record")
        deal = sch["$defs"]["deal"]["properties"]
        return (frozenset(sch["properties"]), frozenset(deal), frozenset(sch["$defs"]["adjust"]["properties"]),
                frozenset(deal["penalties"]["items"]["properties"]))
    except Exception:  # noqa: BLE001 - a schema of another shape: always run the full check
        return None


def record_keys_known(data: Any) -> bool:
    """A cheap look for misspelt or unknown fields (the schema's `additionalProperties: false`),
    the one kind of mistake that building a record would not notice by itself."""
    keys = _record_keys()
    if keys is None or not isinstance(data, dict):
        return False
    top, deal, adjust, penalty = keys
    if not top.issuperset(data):
        return False
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        return False
    for d in deals:
        if not isinstance(d, dict):
            return False
        if "adjust" in d:
            if not adjust.issuperset(d):
                return False
        elif not deal.issuperset(d):
            return False
        pens = d.get("penalties")
        if pens is not None:
            if not isinstance(pens, list) or not all(isinstance(x, dict) and penalty.issuperset(x) for x in pens):
                return False
    return True


def build_record_fast(doc: Document):
    """Build a record for score, replay and settle without the JSON Schema pass when it is not needed.

    The schema pass costs about 1.5 times a bare libyaml parse on a long record, while the model
    builder already refuses every wrong value with a located message; only unknown field names
    would slip through, and those are looked for cheaply. Anything wrong → the full schema check
    runs, so the messages are exactly validate's. `prefcli validate` always runs the schema.
    """
    from prefcli.model.records import record_from_data

    _format_check(doc, "record")
    if record_keys_known(doc.data):
        problems = Problems()
        record = record_from_data(doc.data, problems)
        if not problems:
            return record
    return build_record(doc)


def build_sheet(doc: Document, check_schema: bool = True):
    """Schema-check and build a sheet, then check that every name on it is seated."""
    from prefcli.model.records import sheet_from_data
    sheet = _build(doc, "sheet", sheet_from_data, check_schema)
    seated = set(sheet.players)
    extra: List[Problem] = []
    for area in ("pool", "mountain"):
        for name in (doc.data.get(area) or {}):
            if name not in seated:
                extra.append(doc.problem((area, name), f"'{name}' is not seated (players: {', '.join(sheet.players)})"))
    for writer, row in (doc.data.get("whists") or {}).items():
        if writer not in seated:
            extra.append(doc.problem(("whists", writer), f"'{writer}' is not seated (players: {', '.join(sheet.players)})"))
        for on in (row or {}):
            if on not in seated:
                extra.append(doc.problem(("whists", writer, on), f"whists on '{on}', who is not seated (players: {', '.join(sheet.players)})"))
            elif on == writer:
                extra.append(doc.problem(("whists", writer, on), f"'{writer}' cannot write whists on himself"))
    if len(set(sheet.players)) != len(sheet.players):
        extra.append(doc.problem(("players",), "a player is listed twice"))
    if extra:
        raise InputError(extra)
    return sheet


def load_record(source: Union[str, os.PathLike]):
    """(Record, Document); raises InputError with located problems."""
    doc = load_document(source)
    return build_record(doc), doc


def load_sheet(source: Union[str, os.PathLike]):
    doc = load_document(source)
    return build_sheet(doc), doc


def load_any(source: Union[str, os.PathLike]):
    """A record or a sheet, whichever the document's `format` says."""
    doc = load_document(source)
    kind = _format_check(doc, None)
    return (build_record(doc) if kind == "record" else build_sheet(doc)), doc
