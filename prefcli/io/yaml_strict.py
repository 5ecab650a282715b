"""Strict, safe reading of YAML, with a position for every error.

Why not ``yaml.safe_load``: PyYAML's defaults read ``no`` as False (a player called ``No``
becomes a boolean), dates as ``datetime.date``, silently keep the last of two duplicate keys, and
expand aliases without bound (an "alias bomb" of a few lines expands to 10^12 nodes). Here:

* only libyaml's (or PyYAML's) *composer* runs; scalars are resolved by the YAML 1.2 core rules
  below, so ``yes/no/on/off`` and dates stay strings;
* every explicit tag except the standard scalar/collection ones is refused (never executed);
* a collection reached twice (an alias) is refused; duplicate keys are refused;
* floats are read as :class:`~decimal.Decimal` (exact as written), huge numbers are refused;
* absurd nesting is refused before parsing (`check_nesting`).

The composed node tree is what `located.Document` uses to map a data path back to a line and
column, lazily, only when a problem is reported.
"""
from __future__ import annotations

import re
from decimal import Decimal
from itertools import accumulate
from typing import Any, Dict, Optional, Tuple, Type

from prefcli.model.diagnostics import Path, PrefcliError
from prefcli.model.numbers import MAX_DIGITS, NumberError, check_decimal_text, check_int_text

MAX_DEPTH = 64

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


class LocatedError(PrefcliError):
    """A syntax error the YAML/JSON reader has placed itself."""

    kind = "syntax"

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None,
                 path: Path = ()) -> None:
        super().__init__(message, path, line=line, column=column)


def _yaml_loader_class():
    """A loader that composes only; plain scalars get a private tag so we resolve them."""
    import yaml

    parser: Optional[Type[Any]]
    try:
        from yaml._yaml import CParser as parser  # libyaml's C parser and composer
    except ImportError:  # PyYAML built without libyaml: the pure-Python parser, same results
        parser = None
    base = (parser,) if parser is not None else (yaml.reader.Reader, yaml.scanner.Scanner,
                                                 yaml.parser.Parser)
    composer = () if parser is not None else (yaml.composer.Composer,)

    scalar_node, sequence_node = yaml.ScalarNode, yaml.SequenceNode

    class _Resolver(yaml.resolver.BaseResolver):
        yaml_implicit_resolvers: Dict[Any, Any] = {}

        def resolve(self, kind, value, implicit):  # the composer asks this for every untagged node
            if kind is scalar_node:
                return _PLAIN_TAG if implicit[0] else _STD + "str"
            return _STD + ("seq" if kind is sequence_node else "map")

        def descend_resolver(self, current_node, current_index) -> None:
            return None

        def ascend_resolver(self) -> None:
            return None

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


def compose(text: str):
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


def resolve_plain(value: str, node) -> Any:
    if value in _NULLS:
        return None
    if value in _TRUES:
        return True
    if value in _FALSES:
        return False
    c = value[0]
    if c.isdigit() or c in "+-.":
        if _INT.match(value):
            if len(value) > MAX_DIGITS:
                _bounded(check_int_text, value, node)
            return int(value)
        if _FLOAT.match(value):
            _bounded(check_decimal_text, value, node)
            return Decimal(value)
    return value


def _bounded(check: Any, value: str, node: Any) -> None:
    """The bounded number reader's verdict, placed at the scalar (the fast reader passes no node)."""
    try:
        check(value)
    except NumberError as exc:
        if node is None:
            raise
        raise LocatedError(exc.message, node.start_mark.line + 1, node.start_mark.column + 1) from None


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
            out = resolve_plain(value, node)
            if not isinstance(out, (int, Decimal)) or isinstance(out, bool):
                raise ValueError
            return out
    except ValueError:
        pass
    raise LocatedError(f"'{value}' cannot be read as {tag.replace(_STD, '!!')}",
                   node.start_mark.line + 1, node.start_mark.column + 1)


def construct(root) -> Any:
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
                return resolve_plain(node.value, node)  # only plain scalars carry this tag
            if tag not in _ALLOWED_TAGS:
                if tag.startswith("tag:yaml.org,2002:"):
                    what = "!!" + tag[len(_STD):]
                else:
                    what = tag
                raise LocatedError(f"the YAML tag {what} is not allowed in a prefcli document "
                               "(tags are never executed; remove it)", *pos(node), path)
            return _tagged_scalar(tag, node.value, node)
        if depth > MAX_DEPTH:
            raise LocatedError(f"nesting deeper than {MAX_DEPTH} levels", *pos(node), path)
        if id(node) in seen:
            raise LocatedError("YAML aliases of collections (*name) are not allowed in prefcli documents; "
                           "write the data out", *pos(node), path)
        seen.add(id(node))
        if tag not in _ALLOWED_TAGS and tag != _PLAIN_TAG and not tag.startswith("tag:yaml.org,2002:"):
            raise LocatedError(f"the YAML tag {tag} is not allowed in a prefcli document", *pos(node), path)
        if isinstance(node, MappingNode):
            if tag not in (_STD + "map", _PLAIN_TAG):
                raise LocatedError(f"the YAML tag {tag.replace(_STD, '!!')} is not allowed here", *pos(node), path)
            out: Dict[str, Any] = {}
            for knode, vnode in node.value:
                if knode.tag == _STD + "merge" or (isinstance(knode, ScalarNode) and knode.value == "<<"
                                                   and knode.tag == _PLAIN_TAG):
                    raise LocatedError("YAML merge keys (<<) are not allowed in prefcli documents",
                                   *pos(knode), path)
                if not isinstance(knode, ScalarNode):
                    raise LocatedError("a mapping key must be a plain name, not a list or mapping",
                                   *pos(knode), path)
                if knode.tag not in (_PLAIN_TAG, _STD + "str", _STD + "int"):
                    raise LocatedError(f"the YAML tag {knode.tag} is not allowed on a key", *pos(knode), path)
                key = knode.value
                if key in out:
                    raise LocatedError(f"duplicate key '{key}' (each key may appear once in a mapping)",
                                   *pos(knode), path)
                out[key] = build(vnode, depth + 1, path + (key,))
            return out
        if tag not in (_STD + "seq", _PLAIN_TAG):
            raise LocatedError(f"the YAML tag {tag.replace(_STD, '!!')} is not allowed here", *pos(node), path)
        return [build(v, depth + 1, path + (i,)) for i, v in enumerate(node.value)]

    return build(root, 0, ())



#: bytes that are not a bracket (deleted, so only the brackets are left to count)
_NOT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")
_DEPTH_STEP = [1 if b in b"[{" else -1 if b in b"]}" else 0 for b in range(256)]


def check_nesting(text: str, raw: Optional[bytes] = None,
                  brackets: Optional[bytes] = None) -> Optional[Tuple[int, int]]:
    """Refuse absurd flow nesting before a recursive parser sees it; returns (line, col). `raw`:
    the text's bytes (UTF-8, surrogates passed), when the caller has them already; `brackets`:
    the text's brackets as below, when the caller has those (the decoder's pass over the bytes)."""
    if brackets is None:
        if "[" not in text and "{" not in text:
            return None
        # The brackets alone, in C: openers as "(", closers as ")". (A bracket is one byte in
        # UTF-8, never part of another character's bytes.)
        brackets = (raw if raw is not None else text.encode("utf-8", "surrogatepass")).translate(_AS_PARENS, _NOT_BRACKETS)
    if _well_nested(brackets):
        return None
    # when the running depth never goes below 0 (no closer without its opener, where the walk
    # below stays at 0) nor above the limit, nothing is too deep
    steps = list(accumulate(map(_DEPTH_STEP.__getitem__, brackets)))
    if not steps or (min(steps) >= 0 and max(steps) <= MAX_DEPTH * 4):
        return None
    del steps
    return _nesting_walk(text)


#: openers as "(", closers as ")" (for the brackets' bytes of check_nesting)
_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")
_DEPTH_STEP[ord("(")], _DEPTH_STEP[ord(")")] = 1, -1
#: rounds of _well_nested before it leaves the question to the count (a record is 5 or 6 deep)
_ROUNDS = 12


def _well_nested(brackets: bytes) -> bool:
    """Whether the brackets ("(" and ")") close every one they open, at most _ROUNDS deep (then
    the running depth never goes below 0 nor above MAX_DEPTH * 4): each round takes out every
    "()" in C, which is every innermost pair, so a text nested d deep is empty after d rounds
    and one that closes what it never opened is never empty. False: count them (check_nesting)."""
    for _ in range(min(_ROUNDS, MAX_DEPTH * 4)):
        if not brackets:
            return True
        inner = brackets.replace(b"()", b"")
        if len(inner) == len(brackets):
            return False
        brackets = inner
    return not brackets


def _nesting_walk(text: str) -> Optional[Tuple[int, int]]:
    """check_nesting's answer bracket by bracket: where the depth first passes the limit."""
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

