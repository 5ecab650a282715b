"""A compiled yes/no check of a document against a shipped JSON Schema (the fast path of validate).

jsonschema walks the schema for every value and builds an error object for each keyword it
tries; on a 10,000-deal record that is three quarters of ``validate``. Most records are valid,
and for a valid one the only answer needed is "no problems". :func:`is_valid` answers exactly
that question with plain Python compiled once from the schema (one small function per schema
node, the leaf checks inlined), about 20 times faster.

It never produces a message. When it says False — or meets anything it cannot decide exactly as
jsonschema would (a keyword it does not know, a value whose comparison it is not sure of) — the
caller runs jsonschema, which then finds and words every problem as before. So the fast path
only ever skips work that is proven to find nothing: ``is_valid(kind, data)`` is True only when
``Draft202012Validator(schema).iter_errors(data)`` yields nothing (tests/test_schema_fast.py
checks this on every example, bad input and thousands of mutated records).

The keyword semantics copied here are jsonschema's (4.x, draft 2020-12): ``integer`` accepts an
integral float, ``number`` is any ``numbers.Number`` but a bool, ``pattern`` is ``re.search``,
``enum``/``const`` compare strings by ``==``, ``uniqueItems`` is decided here only for lists of
texts.
"""
from __future__ import annotations

import numbers
import re
from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional

from prefcli.io import schema_columns
from prefcli.io.schema_columns import cards_text

#: Keywords that change nothing about validity.
_ANNOTATIONS = {"description", "title", "$schema", "$id", "$comment", "default", "examples", "$defs",
                "deprecated", "readOnly", "writeOnly"}
_KNOWN = _ANNOTATIONS | {"type", "enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum",
                         "exclusiveMinimum", "exclusiveMaximum",
                         "required", "properties", "additionalProperties", "items", "minItems", "maxItems",
                         "uniqueItems", "oneOf", "anyOf", "allOf", "if", "then", "else", "$ref"}


class Unsure(Exception):
    """A value the compiled check will not decide: the caller runs jsonschema instead."""


class _Unsupported(Exception):
    """The schema uses something the compiler does not know: no fast path for it."""


def _is_int(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_num(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, numbers.Number)


#: A text's `pattern` answers are remembered (texts only, at most this many a pattern): contracts,
#: calls and tricks repeat thousands of times in a long record.
_MEMO_SIZE = 4096


def _searcher(pattern: str, ok: set) -> Callable[[Any], bool]:
    """`pattern`'s answer (``re.search``) for a text not in `ok` (the texts known to match),
    remembered; the pattern is compiled when first asked (most texts never reach it)."""
    compiled: List[Callable[[str], Any]] = []

    def matches(v: Any) -> bool:
        if not compiled:
            compiled.append(re.compile(pattern).search)
        if compiled[0](v) is None:
            return False
        if type(v) is str and len(ok) < _MEMO_SIZE:
            ok.add(v)
        return True
    return matches


#: The cards of the notation, as the schemas' card patterns spell one (rank, then suit).
_RANKS = ("7", "8", "9", "10", "T", "t", "J", "j", "Q", "q", "K", "k", "A", "a")
_SUITS = "SsCcDdHh\u2660\u2663\u2666\u2665"
CARD_TOKENS = frozenset(r + s for r in _RANKS for s in _SUITS)
#: Patterns with a cheaper test that is enough for a match (never a refusal: when it does not
#: hold, the pattern itself decides). "cards": the text split at single spaces gives only cards
#: (what every written hand, talon and trick is); "card": the text is one card.
SHORTCUTS = {
    "^\\s*((7|8|9|10|[TtJjQqKkAa])([SsCcDdHh]|\u2660|\u2663|\u2666|\u2665)[\\s,]*)*$": "cards",
    "^(7|8|9|10|[TtJjQqKkAa])([SsCcDdHh]|\u2660|\u2663|\u2666|\u2665)$": "card",
}


#: the "cards" shortcut in C: a text of card tokens (CARD_TOKENS) separated by single spaces,
#: what ``CARD_TOKENS.issuperset(text.split(" "))`` says, without making a string a token
CARDS_TEXT = re.compile("(?:10|[789TtJjQqKkAa])[SsCcDdHh\u2660\u2663\u2666\u2665]"
                        "(?: (?:10|[789TtJjQqKkAa])[SsCcDdHh\u2660\u2663\u2666\u2665])*").fullmatch


def _unique_texts(v: List[Any]) -> bool:
    if not all(type(i) is str for i in v):
        raise Unsure("uniqueItems on values other than text")
    return len(set(v)) == len(v)


_TYPE_EXPR = {
    "string": "isinstance({v}, str)",
    "integer": "(type({v}) is int or _is_int({v}))",
    "number": "(type({v}) is int or _is_num({v}))",
    "boolean": "isinstance({v}, bool)",
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "null": "({v} is None)",
}
_LEAF = {"type", "enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum",
         "exclusiveMinimum", "exclusiveMaximum"}


#: A closed object with more fields than this is checked field by field of those it has.
_DISPATCH = 8


class _Compiler:
    def __init__(self, root: Dict[str, Any], columns: bool = True) -> None:
        self.root = root
        #: whether a list of many-field objects is first checked a field at a time (:meth:`rows`)
        self.use_columns = columns
        self.lines: List[str] = []
        self.consts: Dict[str, Any] = {"_is_int": _is_int, "_is_num": _is_num, "_unique_texts": _unique_texts,
                                       "_MISSING": _MISSING, "chain": chain,
                                       "itemgetter": itemgetter, "card_texts": schema_columns.card_texts,
                                       "joined_cards": schema_columns.joined_cards,
                                       "distinct": schema_columns.distinct, "blocks": schema_columns.blocks}
        #: each constant as Python source (what a shipped module assigns: :func:`module_source`)
        self.sources: Dict[str, str] = {}
        self.done: Dict[int, str] = {}
        self.tables: List[str] = []
        self.n = 0
        #: the column checks made (schema id → function name), as `done` for the value checks
        self.columns: Dict[int, Optional[str]] = {}
        #: the field tests of the closed objects checked field by field (schema id → function)
        self.tests: Dict[int, str] = {}
        self.column_bodies: Dict[str, str] = {}

    def const(self, value: Any, source: Optional[str] = None) -> str:
        self.n += 1
        name = f"_c{self.n}"
        self.consts[name] = value
        if source is None:
            if isinstance(value, frozenset) and all(type(e) is str for e in value):
                source = f"frozenset({sorted(value)!r})"
            elif type(value) in (int, float, str, bool):
                source = repr(value)
            else:
                raise _Unsupported(f"a constant {type(value).__name__}")
        self.sources[name] = source
        return name

    def resolve(self, ref: str) -> Dict[str, Any]:
        if not ref.startswith("#/"):
            raise _Unsupported(ref)
        node: Any = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    # -- expressions for leaf schemas ----------------------------------------------------------

    def is_leaf(self, s: Any) -> bool:
        return isinstance(s, dict) and set(s) - _ANNOTATIONS <= _LEAF

    def expr(self, s: Any, v: str) -> str:
        """A boolean expression: `v` satisfies schema `s`."""
        if s is True or (isinstance(s, dict) and set(s) <= _ANNOTATIONS):
            return "True"
        if s is False:
            return "False"
        if isinstance(s, dict) and set(s) - _ANNOTATIONS == {"$ref"}:
            return self.expr(self.resolve(s["$ref"]), v)
        if self.is_leaf(s):
            return self.leaf(s, v)
        keys = set(s) - _ANNOTATIONS if isinstance(s, dict) else set()
        if keys and keys <= {"if", "then", "else"} and "if" in keys:
            return (f"(({self.expr(s.get('then', True), v)}) if {self.expr(s['if'], v)} "
                    f"else ({self.expr(s.get('else', True), v)}))")
        if keys == {"type", "required"} and s["type"] == "object" and isinstance(s["required"], list):
            return f"(isinstance({v}, dict) and {self.const(frozenset(s['required']))} <= {v}.keys())"
        if isinstance(s, dict) and set(s) - _ANNOTATIONS in ({"oneOf"}, {"anyOf"}):
            branches = s.get("oneOf", s.get("anyOf"))
            if isinstance(branches, list) and branches and ("anyOf" in s or self.exclusive(branches)):
                return "(" + " or ".join(self.expr(b, v) for b in branches) + ")"
        return f"{self.function(s)}({v})"

    def leaf(self, s: Dict[str, Any], v: str) -> str:
        parts: List[str] = []
        types = s.get("type")
        if isinstance(types, str):
            types = [types]
        if types is not None:
            for t in types:
                if t not in _TYPE_EXPR:
                    raise _Unsupported(t)
            parts.append("(" + " or ".join(_TYPE_EXPR[t].format(v=v) for t in types) + ")")
        single = types[0] if types and len(types) == 1 else None
        for key in ("enum", "const"):
            if key in s:
                values = s[key] if key == "enum" else [s[key]]
                if not all(isinstance(e, str) for e in values):
                    raise _Unsupported(key)
                parts.append(f"(isinstance({v}, str) and {v} in {self.const(frozenset(values))})")
        text = [c for c in (self._text_checks(s, v)) if c]
        if text:
            guard = "" if single == "string" else f"not isinstance({v}, str) or "
            parts.append(f"({guard}({' and '.join(text)}))")
        num = []
        if "minimum" in s:
            num.append(f"{v} >= {self.const(s['minimum'])}")
        if "maximum" in s:
            num.append(f"{v} <= {self.const(s['maximum'])}")
        if "exclusiveMinimum" in s:
            num.append(f"{v} > {self.const(s['exclusiveMinimum'])}")
        if "exclusiveMaximum" in s:
            num.append(f"{v} < {self.const(s['exclusiveMaximum'])}")
        if num:
            if single in ("integer", "number"):
                parts.append(f"({' and '.join(num)})")
            else:
                parts.append(f"(not (type({v}) is int or _is_num({v})) or ({' and '.join(num)}))")
        return "(" + " and ".join(parts) + ")" if parts else "True"

    def _text_checks(self, s: Dict[str, Any], v: str) -> List[str]:
        out = []
        if "pattern" in s:
            out.append(self.pattern(s["pattern"], v))
        if "minLength" in s:
            out.append(f"len({v}) >= {int(s['minLength'])}")
        if "maxLength" in s:
            out.append(f"len({v}) <= {int(s['maxLength'])}")
        return out

    def pattern(self, pattern: str, v: str) -> str:
        """`v` (a text) matches `pattern` (re.search): a text seen to match before, or one the
        pattern's shortcut accepts, or the regular expression's own answer."""
        re.compile(pattern)                 # a pattern that is not one refuses the schema here
        ok: set = set()
        known = self.const(ok, "set()")
        short = SHORTCUTS.get(pattern)
        if short == "cards":
            first = f"{self.const(CARDS_TEXT, 'CARDS_TEXT')}({v}) is not None"
        elif short == "card":
            first = f"{v} in {self.const(CARD_TOKENS, 'CARD_TOKENS')}"
        else:
            first = f"{v} in {known}"
        search = self.const(_searcher(pattern, ok), f"_searcher({pattern!r}, {known})")
        return f"({first} or {search}({v}))"

    def types_of(self, s: Any) -> Optional[frozenset]:
        """The JSON types a schema can accept at most (integer and number as one), or None: any."""
        while isinstance(s, dict) and set(s) - _ANNOTATIONS == {"$ref"}:
            s = self.resolve(s["$ref"])
        if not isinstance(s, dict) or "type" not in s:
            return None
        types = [s["type"]] if isinstance(s["type"], str) else list(s["type"])
        return frozenset("number" if t == "integer" else t for t in types)

    def exclusive(self, branches: List[Any]) -> bool:
        """No value can satisfy two of the branches: each accepts only types no other accepts
        (then `oneOf` is `anyOf`, and the first branch that holds decides)."""
        seen: set = set()
        for b in branches:
            types = self.types_of(b)
            if types is None or types & seen:
                return False
            seen |= types
        return True

    # -- functions for the other schemas -------------------------------------------------------

    def function(self, s: Dict[str, Any]) -> str:
        if not isinstance(s, dict):
            raise _Unsupported(type(s).__name__)
        key = id(s)
        if key in self.done:
            return self.done[key]
        unknown = set(s) - _KNOWN
        if unknown:
            raise _Unsupported(", ".join(sorted(unknown)))
        self.n += 1
        name = f"_v{self.n}"
        self.done[key] = name
        body: List[str] = []
        leafy = {k: s[k] for k in s if k in _LEAF}
        if leafy:
            body.append(f"if not {self.leaf(leafy, 'x')}: return False")
        types = s.get("type")
        types = [types] if isinstance(types, str) else types
        obj_keys = {"required", "properties", "additionalProperties"} & set(s)
        if obj_keys:
            body += self.object_body(s, sure=types == ["object"])
        arr_keys = {"items", "minItems", "maxItems", "uniqueItems"} & set(s)
        if arr_keys:
            body += self.array_body(s, sure=types == ["array"])
        if "$ref" in s:
            body.append(f"if not {self.expr(self.resolve(s['$ref']), 'x')}: return False")
        for sub in s.get("allOf", ()):
            body.append(f"if not {self.expr(sub, 'x')}: return False")
        if "anyOf" in s:
            body.append("if not (" + " or ".join(self.expr(b, "x") for b in s["anyOf"]) + "): return False")
        if "oneOf" in s:
            if self.exclusive(s["oneOf"]):
                body.append("if not (" + " or ".join(self.expr(b, "x") for b in s["oneOf"]) + "): return False")
            else:
                calls = ", ".join(self.expr(b, "x") for b in s["oneOf"])
                body.append(f"if [{calls}].count(True) != 1: return False")
        if "if" in s:
            cond = self.expr(s["if"], "x")
            then = self.expr(s.get("then", True), "x")
            other = self.expr(s.get("else", True), "x")
            body.append(f"if not (({then}) if {cond} else ({other})): return False")
        self.lines.append(f"def {name}(x):")
        self.lines += ["    " + line for line in body] + ["    return True", ""]
        return name

    def object_body(self, s: Dict[str, Any], sure: bool) -> List[str]:
        out: List[str] = []
        ind = "" if sure else "    "
        if not sure:
            out.append("if isinstance(x, dict):")
        req = s.get("required", [])
        if req:
            out.append(f"{ind}if not {self.const(frozenset(req))} <= x.keys(): return False")
        props = s.get("properties", {})
        extra = s.get("additionalProperties", True)
        if extra is False:
            out.append(f"{ind}if not x.keys() <= {self.const(frozenset(props))}: return False")
        if extra is False and len(props) > _DISPATCH:
            # a closed object with many optional fields (a deal has 24, and carries a few): the
            # fields it has are checked, each by its field's test, rather than every name looked up
            tests: Dict[str, str] = {}
            table: Dict[str, str] = {}
            for k, sub in props.items():
                cond = self.expr(sub, "v")
                if cond == "True":
                    continue
                call = re.fullmatch(r"(_v[0-9]+)\(v\)", cond)
                if call:                    # a function already: no wrapper
                    table[k] = self.tests[id(sub)] = self.tests[id(self.deref(sub))] = call.group(1)
                    continue
                if cond not in tests:
                    self.n += 1
                    tests[cond] = f"_t{self.n}"
                    self.lines += [f"def {tests[cond]}(v):", f"    return {cond}", ""]
                table[k] = self.tests[id(sub)] = self.tests[id(self.deref(sub))] = tests[cond]
            self.n += 1
            fields = f"_f{self.n}"
            # after every function (a field's test may be a function not yet written: recursion)
            self.tables.append(f"{fields} = {{" + ", ".join(f"{k!r}: {t}" for k, t in table.items()) + "}")
            out.append(f"{ind}for k, v in x.items():")
            out.append(f"{ind}    t = {fields}.get(k)")
            out.append(f"{ind}    if t is not None and not t(v): return False")
            return out
        for k, sub in props.items():
            cond = self.expr(sub, "v")
            if cond == "True":
                continue
            out.append(f"{ind}v = x.get({k!r}, _MISSING)")
            out.append(f"{ind}if v is not _MISSING and not {cond}: return False")
        cond = "True" if extra is False else self.expr(extra, "v")
        if cond != "True":
            if props:
                out.append(f"{ind}for k, v in x.items():")
                out.append(f"{ind}    if k not in {self.const(frozenset(props))} and not {cond}: return False")
            else:
                out += self.each(extra, cond, "x.values()", ind)
        if len(out) == (0 if sure else 1):
            out.append(f"{ind}pass")
        return out

    def each(self, item: Any, cond: str, values: str, ind: str) -> List[str]:
        """Lines that check `cond` of every one of `values`. When the item schema takes any text
        of cards (:meth:`takes_card_texts`), the texts are first tried all at once: their tokens
        are those of the texts joined by one space, so one test of the joined text's tokens is
        every text's shortcut (a trick's cards, a deal's ten tricks and three hands): ``"a b" + " " +
        "c"`` is a text of cards exactly when both are; a value that is not a text, or a token that
        is not a card, checks them one by one."""
        loop = [f"{ind}for v in {values}:", f"{ind}    if not {cond}: return False"]
        if not self.takes_card_texts(item):
            return loop
        cards = self.const(CARDS_TEXT, "CARDS_TEXT")
        return [f"{ind}try:",
                f"{ind}    whole = {cards}(' '.join({values})) is not None",
                f"{ind}except TypeError:",
                f"{ind}    whole = False",
                f"{ind}if not whole:"] + ["    " + line for line in loop]

    def takes_card_texts(self, s: Any) -> bool:
        """Whether schema `s` accepts every text whose tokens (split at single spaces) are cards
        of the deck: a text with the "cards" pattern and nothing else, or a choice with such a
        branch (a `oneOf` whose branches take different types)."""
        while isinstance(s, dict) and set(s) - _ANNOTATIONS == {"$ref"}:
            s = self.resolve(s["$ref"])
        if not isinstance(s, dict):
            return False
        keys = set(s) - _ANNOTATIONS
        if keys == {"type", "pattern"}:
            return s["type"] == "string" and SHORTCUTS.get(s["pattern"]) == "cards"
        if keys in ({"anyOf"}, {"oneOf"}):
            branches = s.get("anyOf", s.get("oneOf"))
            return (isinstance(branches, list) and ("anyOf" in s or self.exclusive(branches))
                    and any(self.takes_card_texts(b) for b in branches))
        return False

    # -- many objects at once: a list of deals checked field by field (schema_columns) ---------

    def keywords(self, s: Any) -> set:
        return set(s) - _ANNOTATIONS if isinstance(s, dict) else set()

    def deref(self, s: Any) -> Any:
        while isinstance(s, dict) and set(s) - _ANNOTATIONS == {"$ref"}:
            s = self.resolve(s["$ref"])
        return s

    def rows(self, item: Any) -> Optional[str]:
        return schema_columns.rows(self, item, _DISPATCH) if self.use_columns else None

    def array_body(self, s: Dict[str, Any], sure: bool) -> List[str]:
        out: List[str] = []
        ind = "" if sure else "    "
        if not sure:
            out.append("if isinstance(x, list):")
        if "minItems" in s:
            out.append(f"{ind}if len(x) < {int(s['minItems'])}: return False")
        if "maxItems" in s:
            out.append(f"{ind}if len(x) > {int(s['maxItems'])}: return False")
        if s.get("uniqueItems") is True:
            out.append(f"{ind}if not _unique_texts(x): return False")
        if "items" in s:
            if not isinstance(s["items"], (dict, bool)):
                raise _Unsupported("items as a list")
            cond = self.expr(s["items"], "v")
            if cond != "True":
                rows = self.rows(s["items"])
                if rows is not None:
                    out.append(f"{ind}if {rows}(x): return True")
                out += self.each(s["items"], cond, "x", ind)
        if len(out) == (0 if sure else 1):
            out.append(f"{ind}pass")
        return out


#: what a document's field holds when it is absent (the compiled checks' own marker)
_MISSING = object()


def compile_schema(schema: Dict[str, Any], columns: bool = True) -> Optional[Callable[[Any], bool]]:
    """A function data → bool (True: the schema finds nothing), or None if the schema uses a
    keyword this compiler does not know (then every document takes jsonschema's path). Without
    `columns`, lists of objects are checked item by item only (the long way, for the tests)."""
    try:
        c = _Compiler(schema, columns)
        top = c.function(schema)
    except (_Unsupported, KeyError, TypeError, re.error):
        return None
    namespace = dict(c.consts)
    exec(compile("\n".join(c.lines + c.tables), f"<schema check {schema.get('$id', '')}>", "exec"), namespace)  # noqa: S102
    return namespace[top]


def module_source(kind: str, text: str) -> str:
    """The compiled check of the schema `text` of `kind` as a module of its own (shipped for the
    record, so a command does not compile it at every start: about 4 ms of each run). The module
    keeps the schema text it was made from, and is used only while the schema is that text."""
    import json
    schema = json.loads(text)
    c = _Compiler(schema)
    top = c.function(schema)
    head = [f'"""The compiled check of schemas/{kind}.schema.json (generated by prefcli.io.schema_fast:',
            f'``python -m prefcli.io.schema_fast``; tests/test_schema_fast.py says when it is stale)."""',
            "# flake8: noqa",
            "# mypy: ignore-errors",
            "from itertools import chain",
            "from operator import itemgetter",
            "",
            "from prefcli.io.schema_columns import blocks, card_texts, distinct, joined_cards",
            "",
            "from prefcli.io.schema_fast import CARD_TOKENS, CARDS_TEXT, _MISSING, _is_int, _is_num, _searcher, "
            "_unique_texts, cards_text",
            "",
            f"SCHEMA_TEXT = {text!r}",
            ""]
    consts = [f"{name} = {source}" for name, source in c.sources.items()]
    return "\n".join(head + consts + [""] + c.lines + c.tables + ["", f"CHECK = {top}", ""])


#: the kinds whose compiled check is shipped as a module (prefcli/io/NAME.py)
SHIPPED = {"record": "schema_record_check"}


@lru_cache(maxsize=None)
def checker(kind: str) -> Optional[Callable[[Any], bool]]:
    from prefcli.io.schemas import schema, schema_text
    name = SHIPPED.get(kind)
    if name is not None:
        try:
            import importlib
            shipped = importlib.import_module(f"prefcli.io.{name}")
            if shipped.SCHEMA_TEXT == schema_text(kind):
                return shipped.CHECK
        except ImportError:
            pass
    return compile_schema(schema(kind))


def _write_shipped() -> None:
    """Write the shipped checks beside this module from the schemas (after a schema changes)."""
    from pathlib import Path
    from prefcli.io.schemas import schema_text
    for kind, name in SHIPPED.items():
        (Path(__file__).resolve().parent / f"{name}.py").write_text(module_source(kind, schema_text(kind)),
                                                                      encoding="utf-8")


if __name__ == "__main__":      # pragma: no cover
    _write_shipped()


def is_valid(kind: str, data: Any) -> bool:
    """True only when the JSON Schema of `kind` finds no problem in `data` (False: look closer)."""
    check = checker(kind)
    if check is None:
        return False
    try:
        return check(data)
    except Exception:  # noqa: BLE001 - Unsure, or a value that would not compare: jsonschema decides
        return False
