"""Canonical JSON text: the layout rules of the YAML (io/writer_text.py) written as JSON.

Blocks for the document, its meta/rules/start and every deal; any other collection on one line
when it fits in FLOW_WIDTH columns. One-line forms come from the C encoder when it writes them as
:func:`_json_one_line` does, and a small collection's text is written once a place and content.
"""
from __future__ import annotations

import datetime as _dt
import json
from collections import abc
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from prefcli.io.writer import _MAPPING, amount
from prefcli.io.writer_stream import (CARDS, FIELD_MEMO, HANDS, SMALL, TRICKS, _calls, _holders_once, _keyed,
                                      _trick_texts, batched, deal_items, plain_of, yaml_pieces)
from prefcli.io.writer_text import (_MAX_SCALAR, BLOCK_KEYS, FLOW_WIDTH, LINE_KEYS, _SMALL_MEMO, _depth, _phrases,
                                    _small_key, decimal_text, dump_yaml)
from prefcli.model.cards import Decision
from prefcli.model.records import Deal


#: json.dumps(text, ensure_ascii=False) without building an encoder for every text
_json_str = json.encoder.encode_basestring  # type: ignore[attr-defined]


def _json_scalar(value: Any) -> str:
    if type(value) is str:
        return _json_str(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return _json_scalar(amount(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            return json.dumps(str(value))
        return decimal_text(value)
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, (_dt.date, _dt.datetime)):
        return json.dumps(value.isoformat())
    return _json_str(str(value))


class _NotPlainJson(Exception):
    """A value the C encoder would not write as _json_one_line does."""


def _refuse_json(value: Any) -> Any:
    raise _NotPlainJson()


#: _json_one_line's text for plain data (", " and ": " between items, as it writes them), in C
_json_c_line = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), check_circular=False,
                                default=_refuse_json).encode


def _json_line_fast(value: Any) -> Optional[str]:
    """_json_one_line(value) from the C encoder, or None when it might differ: a value it does
    not know (Decimal, Fraction, date: refused), or a key True, False or None (which it writes
    "true", "false", "null" where _json_one_line writes "True"...: any such key text declines)."""
    try:
        one = _json_c_line(value)
    except (_NotPlainJson, TypeError, ValueError):
        return None
    if '"true": ' in one or '"false": ' in one or '"null": ' in one:
        return None
    return one


def _json_one_line(value: Any) -> str:
    if isinstance(value, _MAPPING):
        return "{" + ", ".join(f"{_json_scalar(str(k))}: {_json_one_line(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_json_one_line(v) for v in value) + "]"
    return _json_scalar(value)


def _json_len(value: Any, limit: int) -> int:
    """len(_json_one_line(value)), counted without writing it; any figure above `limit` once the
    count passes it (the `deals` list is not written on one line to learn that it is too long)."""
    t = type(value)
    if t is str:
        return len(_json_str(value))
    if t is dict or (t is not list and t is not tuple and isinstance(value, _MAPPING)):
        total = 2 + 2 * max(len(value) - 1, 0)
        for k, v in value.items():
            total += len(_json_scalar(str(k))) + 2 + _json_len(v, limit)
            if total > limit:
                return total
        return total
    if t is list or t is tuple or isinstance(value, (list, tuple)):
        total = 2 + 2 * max(len(value) - 1, 0)
        for v in value:
            total += _json_len(v, limit)
            if total > limit:
                return total
        return total
    return len(_json_scalar(value))


#: _json_text of a small collection (_small_key) by place and content, for one dump_json
_JSON_SMALL: Dict[Any, str] = {}
#: a deal's SMALL field's text by key and model value (deal_json), for one json_pieces
_JSON_FIELDS: Dict[Any, str] = {}


def _json_text(value: Any, indent: int = 0, column: int = 0, block: bool = True) -> str:
    """Same layout rules as the YAML: blocks for the document, its meta/rules/start and deals."""
    t = type(value)
    if t is str:
        return _json_str(value)
    if not block and (t is dict or t is list):
        # whist, tricks, an auction: thousands of deals share a few, each written once a place
        small = _small_key(value, t)
        if small is not None:
            memo = (indent, column, t is dict, small)
            got = _JSON_SMALL.get(memo)
            if got is None:
                got = _json_text_of(value, indent, column, block)
                if len(_JSON_SMALL) < _SMALL_MEMO:
                    _JSON_SMALL[memo] = got
            return got
    return _json_text_of(value, indent, column, block)


def _json_text_of(value: Any, indent: int, column: int, block: bool) -> str:
    t = type(value)
    if t is str or t is int or t is bool or value is None or \
            not isinstance(value, (dict, abc.Mapping, list, tuple)):
        return _json_scalar(value)
    if not value:
        return "{}" if isinstance(value, _MAPPING) else "[]"
    top = indent == 0 and block
    items_are_blocks = (isinstance(value, (list, tuple)) and indent == 2
                        and all(isinstance(v, _MAPPING) for v in value))
    if not block and not items_are_blocks and not _phrases(value):
        one = _json_line_fast(value)
        if one is not None:
            if column + len(one) <= FLOW_WIDTH and _depth(value) <= 3:
                return one
        elif column + _json_len(value, FLOW_WIDTH - column) <= FLOW_WIDTH and _depth(value) <= 3:
            return _json_one_line(value)
    pad = " " * (indent + 2)
    if isinstance(value, _MAPPING):
        parts = []
        for k, v in value.items():
            key = _json_str(k) if type(k) is str else _json_scalar(str(k))
            if type(v) is str:                          # (what _json_text gives a text)
                parts.append(f"{pad}{key}: " + _json_str(v))
                continue
            if top and k in LINE_KEYS and isinstance(v, list) and v:
                inner = " " * (indent + 4)
                lines = ",\n".join(inner + _json_one_line(x) for x in v)
                parts.append(f"{pad}{key}: [\n{lines}\n{pad}]")
                continue
            parts.append(f"{pad}{key}: " + _json_text(v, indent + 2, indent + 4 + len(key),
                                                       block=top and k in BLOCK_KEYS))
        return "{\n" + ",\n".join(parts) + "\n" + " " * indent + "}"
    parts = [pad + (_json_str(v) if type(v) is str else _json_text(v, indent + 2, indent + 2, block=items_are_blocks))
             for v in value]
    return "[\n" + ",\n".join(parts) + "\n" + " " * indent + "]"


def dump_json(data: Any) -> str:
    """Canonical JSON text: indented, with small inner collections on one line."""
    _JSON_SMALL.clear()
    try:
        return _json_text(data) + "\n"
    finally:
        _JSON_SMALL.clear()


def dump(data: Any, kind: str) -> str:
    """`kind` is json or yaml."""
    return dump_json(data) if kind == "json" else dump_yaml(data)


def deal_json(deal: Deal) -> str:
    """``_json_text(deal_to_data(deal), 4, 4, block=True)``, written from the model: each field is
    what _json_text_of writes for it, the card texts (canonical, so a JSON string without
    escapes) as they are, the hands a block when their one-line form passes FLOW_WIDTH (else the
    long way decides), the play a block list whenever a trick has two cards (`_phrases`)."""
    parts: List[str] = []
    add = parts.append
    for k, v, how in deal_items(deal):
        key = '      "' + k + '": '               # _json_str(k): the keys are plain words
        if how == SMALL:
            got = _JSON_FIELDS.get((k, v))
            if got is None:
                got = _json_text(plain_of(k, v), 6, 10 + len(k), block=False)
                if len(_JSON_FIELDS) < FIELD_MEMO:
                    _JSON_FIELDS[(k, v)] = got
            add(key + got)
        elif how == CARDS:
            add(key + '"' + v + '"')
        elif how == TRICKS:
            add(key + "[\n" + ",\n".join(['        "' + t + '"' for t in v]) + "\n      ]")
        elif type(v) is str:
            add(key + _json_str(v))
        elif how == HANDS:
            rows = [(_json_str(n), t) for n, t in v.items()]
            if 10 + len(k) + sum(len(n) + len(t) + 6 for n, t in rows) <= FLOW_WIDTH:
                add(key + _json_text(v, 6, 10 + len(k), block=False))
            else:
                add(key + "{\n" + ",\n".join(['        ' + n + ': "' + t + '"' for n, t in rows]) + "\n      }")
        else:
            add(key + _json_text(v, 6, 10 + len(k), block=False))
    return "{\n" + ",\n".join(parts) + "\n    }"


class DealJson:
    """:func:`deal_json` of a deal of the usual fields, in one pass over the model: what
    :class:`prefcli.io.writer_stream.DealLines` is to the YAML (the same fields and the same
    declines, the names' and contracts' texts made once, the small fields' memo shared with
    deal_json). :meth:`deal` gives None where deal_json is to write the deal field by field
    (tests/test_writer_model.py compares both)."""

    def __init__(self) -> None:
        #: a name's hand row prefix ('        "Bob": "') and its JSON text's length, by name
        self.rows: Dict[str, Tuple[str, int]] = {}
        #: '      "dealer": "Ann"', '      "declarer": …', '      "contract": "6S"', by the value
        self.dealers: Dict[str, str] = {}
        self.declarers: Dict[str, str] = {}
        self.returns: Dict[str, str] = {}
        self.contracts: Dict[Any, str] = {}

    @staticmethod
    def _line(table: Dict[Any, str], key: str, value: Any, text: str) -> str:
        got = table[value] = '      "' + key + '": ' + _json_str(text)
        return got

    @staticmethod
    def _small(key: str, value: Any) -> str:
        got = _JSON_FIELDS.get((key, value))
        if got is None:
            got = _json_text(plain_of(key, value), 6, 10 + len(key), block=False)
            if len(_JSON_FIELDS) < FIELD_MEMO:
                _JSON_FIELDS[(key, value)] = got
        return '      "' + key + '": ' + got

    def deal(self, deal: Deal) -> Optional[str]:
        """The deal's text, or None when it has a field or value this does not write."""
        if (deal.bid is not None or deal.dark or deal.bomb is not None or deal.takeover is not None
                or deal.partner is not None or deal.concede or deal.without_all or deal.position
                or deal.irregularities or deal.penalties or deal.note is not None):
            return None
        # the model's values, each asked for what it is (a text, cards with their texts...)
        name: Any
        cards: Any
        pairs: Any
        parts: List[str] = []
        add = parts.append
        name = deal.dealer
        if name is not None:
            if type(name) is not str:
                return None
            add(self.dealers.get(name) or self._line(self.dealers, "dealer", name, name))
        hands: Any = deal.hands
        if hands is not None:
            if not hands or not _holders_once(hands):
                return None
            rows = self.rows
            width = 15
            lines = []
            for name, cards in hands:
                if type(name) is not str:
                    return None
                try:
                    text = " ".join([c._text for c in cards])
                except (AttributeError, TypeError):
                    return None
                if not text or len(text) > _MAX_SCALAR:
                    return None
                row = rows.get(name)
                if row is None:
                    key = _json_str(name)
                    row = rows[name] = ("        " + key + ': "', len(key))
                width += row[1] + len(text) + 6
                lines.append(row[0] + text + '"')
            if width <= FLOW_WIDTH:         # one line, maybe: deal_json decides
                return None
            add('      "hands": {\n' + ",\n".join(lines) + "\n      }")
        cards = deal.talon
        if cards is not None:
            try:
                text = " ".join([c._text for c in cards])
            except (AttributeError, TypeError):
                return None
            if not text or len(text) > _MAX_SCALAR:
                return None
            add('      "talon": "' + text + '"')
        calls = deal.auction
        if calls is not None:
            if ("auction", calls) not in _JSON_FIELDS and not _calls(calls):
                return None
            add(self._small("auction", calls))
        cards = deal.discard
        if cards is not None:
            try:
                text = " ".join([c._text for c in cards])
            except (AttributeError, TypeError):
                return None
            if not text or len(text) > _MAX_SCALAR:
                return None
            add('      "discard": "' + text + '"')
        contract = deal.contract
        add(self.contracts.get(contract) or self._line(self.contracts, "contract", contract, str(contract)))
        name = deal.declarer
        if name is not None:
            if type(name) is not str:
                return None
            add(self.declarers.get(name) or self._line(self.declarers, "declarer", name, name))
        pairs = deal.whist
        if pairs:
            if not _keyed(pairs, Decision):
                return None
            add(self._small("whist", pairs))
        name = deal.returned_by
        if name is not None:
            if type(name) is not str:
                return None
            add(self.returns.get(name) or self._line(self.returns, "return", name, name))
        flag = deal.open
        if flag is not None:
            if flag is True:
                add('      "open": true')
            elif flag is False:
                add('      "open": false')
            else:
                return None
        play: Any = deal.play
        if play is not None:
            try:        # tricks of three cards (every trick but an all-pass's talon-led ones)
                texts: Optional[List[str]] = [a._text + " " + b._text + " " + c._text for a, b, c in play]
            except (ValueError, TypeError, AttributeError):
                texts = _trick_texts(play)
            if not texts:
                return None
            add('      "play": [\n        "' + '",\n        "'.join(texts) + '"\n      ]')
        pairs = deal.claim
        if pairs is not None:
            if not _keyed(pairs, int):
                return None
            add(self._small("claim", pairs))
        pairs = deal.tricks
        if pairs is not None:
            if not _keyed(pairs, int):
                return None
            add(self._small("tricks", pairs))
        return "{\n" + ",\n".join(parts) + "\n    }"


def json_pieces(head: Dict[str, Any], deals: Iterable[Any], tail: Dict[str, Any]) -> Iterator[str]:
    """dump_json(head + deals + tail) in pieces, a deal at a time: the bytes are the same.

    The document is a block whose keys are written one by one, `deals` a block list (its items
    blocks at indent 4, since every deal is a mapping), so each deal's text is the one it has in
    the whole document, and the small collections' memo is shared by all of them as it is there."""
    _JSON_SMALL.clear()
    _JSON_FIELDS.clear()
    try:
        whole = _json_text(head)                     # "{\n" + the head's keys + "\n}"
        yield whole[:-2]
        count = 0
        lines = DealJson()
        for deal in deals:
            if isinstance(deal, Deal):               # the model (RecordParts.entries)
                text = lines.deal(deal) or deal_json(deal)
            elif isinstance(deal, _MAPPING):
                text = _json_text(deal, 4, 4, block=True)
            else:                                    # pragma: no cover - a deal is a mapping
                raise TypeError("a deal that is not a mapping")
            yield (',\n  "deals": [\n    ' if count == 0 else ",\n    ") + text
            count += 1
        yield ',\n  "deals": []' if count == 0 else "\n  ]"
        if tail:
            yield ",\n" + _json_text(tail)[2:-2]
        yield "\n}\n"
    finally:
        _JSON_SMALL.clear()
        _JSON_FIELDS.clear()


def dump_chunks(head: Dict[str, Any], deals: Iterable[Any], tail: Dict[str, Any], kind: str) -> Iterator[str]:
    """dump(head + deals + tail, kind) as chunks of text (about CHUNK characters each), the plain
    data of one deal at a time alive: what convert writes a large record with."""
    return batched(json_pieces(head, deals, tail) if kind == "json" else yaml_pieces(head, deals, tail))
