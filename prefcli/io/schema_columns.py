"""The compiled schema check's look at a long list of objects a field at a time (for
:mod:`prefcli.io.schema_fast`'s compiler): a record's deals.

Why: deal by deal, the compiled check calls a test for each field of each deal and matches the
card pattern against each deal's texts, about 4 µs a deal of a full record, 40 ms of a 10,000-deal
one. Field by field, each field's values of every deal are gathered in C (``map(itemgetter)``)
and checked together: every hand's text and every trick's text joined and their cards counted at
once (:func:`cards_text`), each distinct name, contract or decision checked once, the whists'
and tricks' mappings as the column of their values. It answers only True (every deal surely
passes, exactly when the deal-by-deal check would) or None (it cannot say: then the deals are
checked one by one, as ever, and that answer stands): tests/test_schema_columns.py holds the
two side by side, and jsonschema beside them.
"""
from __future__ import annotations

import re
from operator import itemgetter
from typing import Any, Iterable, Iterator, List, Optional

__all__ = ["card_texts", "cards_text", "column", "distinct", "joined_cards", "rows"]

_SUITS = "SsCcDdHh\u2660\u2663\u2666\u2665"

#: every character as its class for :func:`cards_text`: a rank letter, a digit 7-9 or a "0" as
#: \x01, a suit as \x02, a "1" taken out; the class characters themselves as "x" (no class), a
#: space as itself, anything else as itself (none of those)
_CARD_CLASSES = {**{ord(c): "\x01" for c in "789TtJjQqKkAa0"}, **{ord(c): "\x02" for c in _SUITS},
                 ord("1"): None, 1: "x", 2: "x"}
#: what the classes of cards separated by single spaces are: the start of this text
_CARD_PAIRS = "\x01\x02 " * 20000
#: the same classes of an ASCII text's bytes, a "1" kept as itself (and then taken out)
_CARD_CLASS_BYTES = bytes(ord(_CARD_CLASSES.get(b) or chr(b)) for b in range(256))
_CARD_PAIR_BYTES = _CARD_PAIRS.encode("ascii")
#: each byte as "." but a "1" (_ONES) or a "0" (_ZEROS) as "!" (for ASCII texts)
_ONES = bytes(0x21 if b == 0x31 else 0x2e for b in range(256))
_ZEROS = bytes(0x21 if b == 0x30 else 0x2e for b in range(256))


def cards_text(text: str) -> bool:
    """What ``schema_fast.CARDS_TEXT(text) is not None`` says (cards of the deck separated by
    single spaces), for a long text: many hands' or tricks' texts joined by a space, where the
    regular expression costs about 40 ns a card. The text's characters become their classes (in
    C, a "1" taken out and a "0" as a rank): cards separated by single spaces are exactly the
    texts whose classes are "\x01\x02" pairs separated by single spaces (compared with the
    start of a text of those, in C) and whose every "1" stands right before a "0" and every "0"
    right after a "1" (a 10); for an ASCII text (what a record holds) that is two more
    translations of its bytes, the "1"s shifted one place onto the "0"s, else two counts. The
    counts of patterns this replaced took longer (about 1.5 ns a character each, where a
    translation and a comparison take less)."""
    if text.isascii():      # (what a record holds: its bytes, a copy, translate faster than a text)
        raw = text.encode("ascii")
        b = raw.translate(_CARD_CLASS_BYTES).replace(b"1", b"")   # (a deleting translation is slower)
        n = len(b)
        if n % 3 != 2 or not (_CARD_PAIR_BYTES if n <= len(_CARD_PAIR_BYTES) else b"\x01\x02 " * (n // 3 + 1)).startswith(b):
            return False
        if n == len(raw):                    # no ten: a "0" is no card
            return b"0" not in raw
        return raw[0] != 0x30 and raw.translate(_ONES) == raw.translate(_ZEROS)[1:] + b"."
    c = text.translate(_CARD_CLASSES)
    n = len(c)
    pairs = _CARD_PAIRS if n <= len(_CARD_PAIRS) else "\x01\x02 " * (n // 3 + 1)
    if n % 3 != 2 or not pairs.startswith(c):
        return False
    ones = len(text) - n
    if not ones:                             # no ten: a "0" is no card
        return "0" not in text
    return text.count("10") == ones == text.count("0")


def distinct(vals: List[Any]) -> Any:
    """`vals`, or (when they are all of one plain type: text, int or bool) the distinct ones:
    equal values of one of those types are the same value (a set never keeps a 1 for a True),
    so a test of each distinct one is a test of each. Texts are told from the distinct values
    alone (no text equals a value of another type, so when those are all texts, every value is
    one): one pass over the column, not two, for the names, contracts and calls."""
    try:
        seen = set(vals)
    except TypeError:                        # a list or a mapping among them
        return vals
    if set(map(type, seen)) <= {str}:
        return seen
    kinds = set(map(type, vals))
    if len(kinds) == 1 and (str in kinds or int in kinds or bool in kinds):
        return seen
    return vals


def card_texts(vals: List[Any]) -> bool:
    """Whether `vals` are texts of cards separated by single spaces (each one, not empty), all
    of them at once: their text joined by a space is, exactly when each one is."""
    if not vals:
        return False
    try:   # a few hundred at a time: the joined text and its classes stay in the processor's cache
        return all(map(cards_text, map(" ".join, map(vals.__getitem__, map(slice, range(0, len(vals), _CHUNK),
                                                                           range(_CHUNK, len(vals) + _CHUNK, _CHUNK))))))
    except TypeError:                        # a value that is not a text: one by one
        return False


def joined_cards(texts: Iterable[Any]) -> bool:
    """Whether `texts` joined by a space are cards separated by single spaces: each text is,
    exactly when the joined text is (an empty text, or none, leaves two spaces or a space at an
    end). False for a value that is not a text. A column's texts joined straight from the
    iterator that gathers them (a block of deals' hands, or each deal's tricks joined first),
    without the list of every text card_texts takes."""
    try:
        return cards_text(" ".join(texts))
    except TypeError:
        return False


#: texts joined at a time by :func:`card_texts`
_CHUNK = 512
#: items of a list checked together by a rows check (:func:`rows`): each field's column of a
#: block, not of the whole record, is alive at once (the columns of 3,000 deals added 0.3x the
#: file to convert's peak on Python 3.9: tests/test_memory.py), and a block is still long enough
#: for the column checks to run in C
_ROWS = 512


def blocks(x: List[Any]) -> Iterator[List[Any]]:
    """The list `x` in blocks of :data:`_ROWS` items, in order."""
    return map(x.__getitem__, map(slice, range(0, len(x), _ROWS), range(_ROWS, len(x) + _ROWS, _ROWS)))


def value_test(c: Any, s: Any) -> str:
    """The name of a function v → bool: `v` satisfies `s` (the value checks' own test: a closed
    object's field test when there is one)."""
    if id(s) in c.tests:
        return c.tests[id(s)]                # type: ignore[no-any-return]
    cond = c.expr(s, "v")
    call = re.fullmatch(r"(_v[0-9]+)\(v\)", cond)
    if call:
        return call.group(1)
    c.n += 1
    name = f"_t{c.n}"
    c.lines += [f"def {name}(v):", f"    return {cond}", ""]
    return name


def rows(c: Any, item: Any, many: int) -> Optional[str]:
    """For a list whose items are closed objects of more than `many` fields (a record's deals;
    also such objects behind an ``if`` that asks for a field none of them has: the adjust
    entries), the name of a function x → True when every item surely satisfies `item`, None
    when it cannot say; None here when `item` is not of that kind. `c` is the compiler. It
    checks the items' keys all at once (only fields the object allows, the required ones in
    every item) and each field's values of every item together (:func:`column`)."""
    item = c.deref(item)
    if not isinstance(item, dict):
        return None
    keys = c.keywords(item)
    avoid: Optional[str] = None
    if keys <= {"if", "then", "else"} and "if" in keys:
        cond = c.deref(item["if"])
        if not (isinstance(cond, dict) and c.keywords(cond) == {"type", "required"} and cond["type"] == "object"
                and isinstance(cond["required"], list) and len(cond["required"]) == 1):
            return None
        avoid = cond["required"][0]          # no item has it: every item takes the else branch
        item = c.deref(item.get("else", True))
        if not isinstance(item, dict):
            return None
        keys = c.keywords(item)
    props = item.get("properties", {})
    if not (keys <= {"type", "required", "properties", "additionalProperties"} and item.get("type") == "object"
            and item.get("additionalProperties", True) is False and isinstance(props, dict)
            and len(props) > many and all(type(k) is str for k in props)):
        return None
    required = item.get("required", [])
    if not (isinstance(required, list) and set(required) <= set(props)):
        return None
    fields = []
    for k, sub in props.items():
        if c.expr(sub, "v") != "True" or k in required:
            fields.append(f"({k!r}, itemgetter({k!r}), {column(c, sub)}, {k in required})")
    c.n += 1
    name = f"_r{c.n}"
    table = f"_rf{c.n}"
    c.tables.append(f"{table} = (" + ", ".join(fields) + ")")
    body = ["if type(x) is not list or not x or set(map(type, x)) != {dict}: return None",
            f"if len(x) > {_ROWS}: return True if all(map({name}, blocks(x))) else None",
            "keys = set(chain.from_iterable(x))",
            f"if not keys <= {c.const(frozenset(props))}: return None"]
    if avoid is not None:
        body.append(f"if {avoid!r} in keys: return None")
    body += [f"for k, get, check, required in {table}:",
             "    if k not in keys:",
             "        if required: return None",
             "        continue",
             "    try:",
             "        col = list(map(get, x))",          # in C when every item has the field
             "    except KeyError:",
             "        if required: return None",
             "        col = [d[k] for d in x if k in d]",
             "    if not check(col): return None",
             "return True"]
    c.lines += [f"def {name}(x):"] + ["    " + line for line in body] + [""]
    return name


def column(c: Any, s: Any) -> str:
    """The name of a function vals → bool: every value of the list `vals` satisfies `s`, exactly
    (``all(map(test, vals))`` with the value check's test, which it falls back to). Its
    shortcuts: texts of cards joined and counted once (:func:`cards_text`); values all of one
    plain type (text, int or bool) checked once each distinct value (equal values of one of
    those types are the same value: a set never keeps a 1 for a True); mappings whose values all
    take one schema, and lists whose items do, as the column of those values."""
    s = c.deref(s)
    key = id(s)
    if key in c.columns:
        made = c.columns[key]
        if made is None:                     # a schema within itself: its values one by one
            return _function(c, [f"return all(map({value_test(c, s)}, vals))"])
        return made                          # type: ignore[no-any-return]
    c.columns[key] = None
    test = value_test(c, s)
    keys = c.keywords(s)
    each = f"all(map({test}, vals))"
    if c.takes_card_texts(s):
        body = [f"return card_texts(vals) or {each}"]
    elif isinstance(s, dict) and c.is_leaf(s):
        body = [f"return all(map({test}, distinct(vals)))"]
    elif keys and keys <= {"type", "additionalProperties"} and s.get("type") == "object" \
            and isinstance(s.get("additionalProperties", True), (dict, bool)):
        inner = column(c, s.get("additionalProperties", True))
        values = "chain.from_iterable(map(dict.values, vals))"
        joined = f"joined_cards({values}) or " if c.takes_card_texts(s.get("additionalProperties", True)) else ""
        body = [f"if set(map(type, vals)) <= {{dict}}: return {joined}{inner}(list({values}))",
                f"return {each}"]
    elif keys and keys <= {"type", "items", "maxItems", "minItems"} and s.get("type") == "array" \
            and isinstance(s.get("items", True), (dict, bool)):
        inner = column(c, s.get("items", True))
        size = []
        if "maxItems" in s:
            size.append(f"max(map(len, vals)) <= {int(s['maxItems'])}")
        if "minItems" in s:
            size.append(f"min(map(len, vals)) >= {int(s['minItems'])}")
        # each list's texts joined, then those (a deal's tricks, then a block's deals)
        joined = "joined_cards(map(' '.join, vals)) or " if c.takes_card_texts(s.get("items", True)) else ""
        body = [f"if vals and set(map(type, vals)) <= {{list}}{''.join(' and ' + x for x in size)}: "
                f"return {joined}{inner}(list(chain.from_iterable(vals)))",
                f"return {each}"]
    else:
        body = [f"return {each}"]
    c.columns[key] = name = _function(c, body)
    return name


def _function(c: Any, body: List[str]) -> str:
    """The name of the column check of this `body`, made once (names, counts: the same check)."""
    text = "\n".join(body)
    name = c.column_bodies.get(text)
    if name is None:
        c.n += 1
        name = c.column_bodies[text] = f"_k{c.n}"
        c.lines += [f"def {name}(vals):"] + ["    " + line for line in body] + [""]
    return name  # type: ignore[no-any-return]
