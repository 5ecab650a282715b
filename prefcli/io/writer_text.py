"""The canonical writer's text: records, sheets and other plain data (what
:mod:`prefcli.io.writer` makes of the model) as YAML and JSON.

The YAML written here must read back to the same data with two different readers: the project's
loader (YAML 1.2 core scalars: `no` and dates are strings) and plain ``yaml.safe_load`` (YAML
1.1: `no` is False, `010` is 8, `2026-11-29` a date). So any string that *either* reader would
take for something else is quoted.
"""
from __future__ import annotations

import datetime as _dt
import re
from collections import abc
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Sequence

from prefcli.io.writer import _MAPPING, DECIMAL_WIDTH, amount


#: A flow collection is used only when its one-line form fits in this many columns.
FLOW_WIDTH = 80

# Scalars the project's loader (YAML 1.2 core) would not read as a string.
_CORE_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
_CORE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_CORE_OTHER = re.compile(
    r"(~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
    r"|0o[0-7]+|0x[0-9a-fA-F]+)\Z")


def _core_ambiguous(text: str) -> bool:
    return (text == "" or bool(_CORE_INT.match(text) or _CORE_FLOAT.match(text)
                               or _CORE_OTHER.match(text)))


_SCALAR_LENS: Dict[str, int] = {}     # a text's written length, by the text (names and words repeat)
_PLAIN_TYPES = (str, int, bool, type(None))


def _scalar_len(value: Any) -> int:
    if type(value) is str:
        n = _SCALAR_LENS.get(value)
        if n is None:
            if len(_SCALAR_LENS) > 100000:
                _SCALAR_LENS.clear()
            n = _SCALAR_LENS[value] = len(value) + (2 if _core_ambiguous(value) or not value.isprintable() else 0)
        return n
    if isinstance(value, str):
        return len(value) + (2 if _core_ambiguous(value) or not value.isprintable() else 0)
    return len(str(value))


def _flow_len(value: Any, limit: int) -> int:
    """Length of the one-line flow form (an estimate that is never too small); stops at limit."""
    t = type(value)
    if t in _PLAIN_TYPES:
        return _scalar_len(value)
    if t is dict or (t is not list and t is not tuple and isinstance(value, abc.Mapping)):
        total = 2
        for k, v in value.items():
            total += _scalar_len(str(k)) + 2 + _flow_len(v, limit) + 2
            if total > limit:
                return total
        return total
    if isinstance(value, (list, tuple)):
        total = 2
        for v in value:
            total += _flow_len(v, limit) + 2
            if total > limit:
                return total
        return total
    return _scalar_len(value)


def _depth(value: Any) -> int:
    t = type(value)
    if t in _PLAIN_TYPES:
        return 0
    if t is dict or (t is not list and t is not tuple and isinstance(value, abc.Mapping)):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


#: Top-level mappings that are always written as blocks (FORMAT.md writes them so).
BLOCK_KEYS = ("meta", "rules", "start")
#: Top-level lists whose items are small mappings written one per line (a sheet's running log).
LINE_KEYS = ("log",)


def _phrases(value: Any) -> bool:
    """A list of multi-word strings (the tricks of `play`): one per line reads better."""
    return isinstance(value, (list, tuple)) and any(isinstance(v, str) and " " in v for v in value)


def _fits(value: Any, column: int) -> bool:
    # the length first: it stops at the width, while the depth walks everything beneath (the
    # whole `deals` list, for the document's one look at it)
    return column + _flow_len(value, FLOW_WIDTH + 1) <= FLOW_WIDTH and _depth(value) <= 3


class _FlowDict(dict):
    pass


class _FlowList(list):
    pass


def _mark(value: Any, indent: int = 0, column: int = 0, block: bool = True) -> Any:
    """Wrap the collections that are to be written in flow style.

    The document, the `meta`/`rules`/`start` blocks and every deal are blocks (each deal starts
    its own paragraph); any other collection is one flow line when that line fits in
    FLOW_WIDTH columns (whist, tricks, auction, players, penalty rows...).
    """
    if type(value) in _PLAIN_TYPES:
        return value
    top = indent == 0 and block
    if isinstance(value, _MAPPING):
        if not block and _fits(value, column):
            return _FlowDict(value)
        return {k: ([_FlowDict(x) if isinstance(x, _MAPPING) else _mark(x, 4, 4, block=False) for x in v]
                    if top and k in LINE_KEYS
                    and isinstance(v, list) else
                    _mark(v, indent + 2 if not top else 2, (indent if not top else 0) + len(str(k)) + 2,
                          block=top and k in BLOCK_KEYS)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items_are_blocks = indent == 2 and all(isinstance(v, _MAPPING) for v in value) and bool(value)
        if not block and not items_are_blocks and not _phrases(value) and _fits(value, column):
            return _FlowList(value)
        return [_mark(v, indent + 2, indent + 2, block=items_are_blocks) for v in value]
    return value


def decimal_text(value: Decimal) -> str:
    """A finite decimal as YAML 1.1, YAML 1.2 and JSON all read it: `12.5`, `3.0`, and `1.0E-300`
    rather than 300 digits (what prefcli writes, prefcli reads: the same digits and exponent)."""
    text = format(value, "f")
    if len(text) > DECIMAL_WIDTH:
        sign, digits, exponent = value.as_tuple()
        mantissa = "".join(str(d) for d in digits) or "0"
        exp = int(exponent) + len(mantissa) - 1
        head, tail = mantissa[0], mantissa[1:].rstrip("0") or "0"
        return f"{'-' if sign else ''}{head}.{tail}E{'+' if exp >= 0 else '-'}{abs(exp)}"
    if "." not in text:  # keep it a float for YAML 1.1 readers, exact for the loader
        text += ".0"
    return text


_DUMPER = None


def _dumper():
    global _DUMPER
    if _DUMPER is not None:
        return _DUMPER
    import yaml

    class Dumper(yaml.SafeDumper):
        """Indented sequences (`  - contract: 6S`) as in FORMAT.md."""

        def increase_indent(self, flow: bool = False, indentless: bool = False):
            return super().increase_indent(flow, False)

        def ignore_aliases(self, data: Any) -> bool:
            return True

    def rep_str(dumper, data: str):
        style = None
        if "\n" in data:
            style = "|"
        elif _core_ambiguous(data):
            style = "'"
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

    def rep_decimal(dumper, data: Decimal):
        if not data.is_finite():
            return dumper.represent_scalar("tag:yaml.org,2002:str", str(data), style="'")
        return dumper.represent_scalar("tag:yaml.org,2002:float", decimal_text(data))

    def rep_fraction(dumper, data: Fraction):
        out = amount(data)
        if isinstance(out, int):
            return dumper.represent_int(out)
        return rep_str(dumper, out)

    def rep_flow_dict(dumper, data):
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)

    def rep_flow_list(dumper, data):
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)

    def rep_dict(dumper, data):
        return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)

    def rep_list(dumper, data):
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=False)

    def rep_date(dumper, data):
        return rep_str(dumper, data.isoformat())

    Dumper.add_representer(str, rep_str)
    Dumper.add_representer(Decimal, rep_decimal)
    Dumper.add_representer(Fraction, rep_fraction)
    Dumper.add_representer(_FlowDict, rep_flow_dict)
    Dumper.add_representer(_FlowList, rep_flow_list)
    Dumper.add_representer(dict, rep_dict)
    Dumper.add_representer(list, rep_list)
    Dumper.add_representer(tuple, rep_list)
    Dumper.add_representer(_dt.date, rep_date)
    Dumper.add_representer(_dt.datetime, rep_date)
    _DUMPER = Dumper
    return Dumper


def dump_yaml(data: Any) -> str:
    """Canonical YAML text: block style for the document, flow for small inner collections.

    The text is PyYAML's (`_dumper`), written directly for the plain documents convert writes
    (texts, integers, booleans and nulls in mappings and lists): PyYAML's pure-Python emitter was
    most of convert's time (issue 18). Anything the direct writer is not sure of (a Decimal, a
    text that needs double quotes, a long line...) makes it hand the whole document to PyYAML;
    tests/test_writer_direct.py checks that both give the same bytes."""
    try:
        return _DirectYaml().write(data)
    except _NotDirect:
        pass
    return _pyyaml_text(_mark(data, 0, 0))


def _pyyaml_text(marked: Any) -> str:
    import yaml

    return yaml.dump(marked, Dumper=_dumper(), sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=4096, indent=2)


class _NotDirect(Exception):
    """Something the direct YAML writer leaves to PyYAML."""


_PLAIN_SAFE = re.compile(r"[A-Za-z0-9_(][A-Za-z0-9_()./+ -]*\Z")
_STR_TAG = "tag:yaml.org,2002:str"
#: the first characters under which PyYAML's resolver lists an implicit pattern (bool, float,
#: int, merge, null, timestamp, value, yaml; tests/test_writer_direct.py reads them from PyYAML)
_RESOLVER_FIRST = frozenset("yYnNtTfFoO-+0123456789.<~=!&*") | {""}
#: the letters among them, under which only the words of YAML 1.1's booleans and null are listed
_WORD_FIRST = frozenset("yYnNtTfFoO")
_RESOLVER_WORDS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF "
                            "null Null NULL".split())
#: a contract's text, which starts with a digit and matches none of the digit's patterns
_CONTRACT_TEXT = re.compile(r"(?:[6-9]|10)(?:S|C|D|H|NT)\Z")
_BREAKS = ("\n", "\r", "\x85", "\u2028", "\u2029")
#: the cards as the writer spells them (format_cards): a text of these, one space apart, is plain
_ASCII_CARDS = frozenset(r + s for r in ("7", "8", "9", "10", "J", "Q", "K", "A") for s in "SCDH")
#: no line the direct writer makes comes near PyYAML's width (4096), where it would fold
_MAX_SCALAR = 2000


#: at most so many small collections' texts remembered by one writer
_SMALL_MEMO = 4096


def _small_key(v: Any, t: type) -> Any:
    """The content of a dict or list of at most 8 entries, keys texts and values short texts or
    integers (never booleans: True == 1), as a hashable tuple; None for anything else (the ten
    tricks of a deal's play, seldom alike, are not looked up)."""
    if t is dict:
        if len(v) > 8:
            return None
        items = tuple(v.items())
        for k, x in items:
            tx = type(x)
            if type(k) is not str or not (tx is int or (tx is str and len(x) <= 16)):
                return None
        return items
    if t is list:
        if len(v) > 8:
            return None
        for x in v:
            tx = type(x)
            if not (tx is int or (tx is str and len(x) <= 16)):
                return None
        return tuple(v)
    return None


class _DirectYaml:
    """PyYAML's output (indent 2, indented sequences, allow_unicode) for a `_mark`ed tree of
    dicts, lists, texts, ints, booleans and None, written without building events and nodes."""

    def __init__(self) -> None:
        # PyYAML's resolver and scalar analysis, imported when a text first needs them (a record
        # read from JSON whose texts are all plain words, cards and contracts never loads yaml)
        self._resolver: Any = None
        self._analyzer: Any = None
        self.allow_unicode = True          # read by analyze_scalar
        # a text's written form, one table per context: [block value, flow value, block key, flow key]
        self._cache: List[Dict[str, str]] = [{}, {}, {}, {}]
        self._small: Dict[Any, str] = {}     # unmarked()'s text of a small collection, by place and content
        self._fields: Dict[Any, str] = {}    # a deal's SMALL field's text, by key and model value (writer_stream)
        self._lines: Any = None              # the deals' lines written from the model (writer_stream.DealLines)
        self.out: List[str] = []

    # scalars -------------------------------------------------------------------------------

    def _resolves_to_text(self, value: str) -> bool:
        """Whether PyYAML's resolver (YAML 1.1, what plain ``yaml.safe_load`` reads) takes the
        plain `value` (one line) for a text. It tries only the patterns listed under the value's
        first character, so a text that starts with none of those is a text; under a letter they
        are the booleans' and null's words; a contract (6S, 10NT) matches no pattern of a digit;
        anything else is asked of the resolver (tests/test_writer_direct.py compares them)."""
        first = value[:1]
        if first not in _RESOLVER_FIRST or _CONTRACT_TEXT.match(value):
            return True
        if first in _WORD_FIRST:           # only the booleans' and null's words are listed there
            return value not in _RESOLVER_WORDS
        if self._resolver is None:
            import yaml
            import yaml.resolver
            self._resolver = (yaml.resolver.Resolver().resolve, yaml.ScalarNode)
        resolve, node = self._resolver
        return resolve(node, value, (True, False)) == _STR_TAG

    def _analyze(self, value: str) -> Any:
        """PyYAML's analysis of a scalar (which styles may write it)."""
        if self._analyzer is None:
            import yaml.emitter
            self._analyzer = yaml.emitter.Emitter.analyze_scalar   # reads only self.allow_unicode
        return self._analyzer(self, value)

    def text(self, value: str, flow: bool, key: bool) -> str:
        """A text as PyYAML writes it in this context (rep_str's styles, choose_scalar_style)."""
        cache = self._cache[flow + 2 * key]
        got = cache.get(value)
        if got is not None:
            return got
        if len(value) <= _MAX_SCALAR and _ASCII_CARDS.issuperset(value.split(" ")):
            cache[value] = value        # e.g. "AS QS 10C": plain for PyYAML and both readers
            return value
        if len(value) > _MAX_SCALAR or any(b in value for b in _BREAKS):
            raise _NotDirect("a long or multi-line text")
        quoted = _core_ambiguous(value)        # rep_str asks for single quotes
        if not quoted:
            plain_ok = self._resolves_to_text(value)
            if plain_ok:
                if _PLAIN_SAFE.match(value) and not value.endswith(" ") and not value.startswith(("---", "...")):
                    a_flow = a_block = True
                    empty = False
                else:
                    a = self._analyze(value)
                    a_flow, a_block, empty = a.allow_flow_plain, a.allow_block_plain, a.empty
                    if a.multiline:
                        raise _NotDirect("multi-line")
                if not (key and empty) and (a_flow if flow else a_block):
                    cache[value] = value
                    return value
        a = self._analyze(value)
        if not a.allow_single_quoted or a.multiline:
            raise _NotDirect("double quotes")
        if key and a.empty:
            raise _NotDirect("an empty key")
        out = "'" + value.replace("'", "''") + "'"
        cache[value] = out
        return out

    def scalar(self, value: Any, flow: bool, key: bool = False) -> str:
        if type(value) is str:
            return self._cache[flow + 2 * key].get(value) or self.text(value, flow, key)
        if isinstance(value, str):
            return self.text(value, flow, key)
        if value is True:
            return "true"
        if value is False:
            return "false"
        if value is None:
            return "null"
        if type(value) is int:
            return str(value)
        raise _NotDirect(type(value).__name__)

    def key(self, k: Any, flow: bool) -> str:
        if type(k) is str:
            got = self._cache[2 + flow].get(k)
            if got is not None:
                return got
        if not isinstance(k, str) or len(k) >= 100:
            raise _NotDirect("a key PyYAML may write as a complex key")
        return self.text(k, flow, True)

    # collections ---------------------------------------------------------------------------

    def flow(self, value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.key(k, True)}: {self.flow(v)}" for k, v in value.items()) + "}"
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(self.flow(v) for v in value) + "]"
        return self.scalar(value, True)

    def value(self, v: Any, indent: int) -> None:
        """What follows `key:` (or `- `) at nesting `indent`: inline, or a block on the next lines."""
        out = self.out
        if isinstance(v, (_FlowDict, _FlowList)) or (isinstance(v, (dict, list, tuple)) and not v):
            out.append(" " + self.flow(v) + "\n")
        elif isinstance(v, dict):
            out.append("\n")
            self.mapping(v, indent + 2)
        elif isinstance(v, (list, tuple)):
            out.append("\n")
            self.sequence(v, indent + 2)
        else:
            out.append(" " + self.scalar(v, False) + "\n")

    def mapping(self, m: Dict[Any, Any], indent: int, first_inline: bool = False) -> None:
        out = self.out
        pad = " " * indent
        for i, (k, v) in enumerate(m.items()):
            out.append(("" if first_inline and i == 0 else pad) + self.key(k, False) + ":")
            self.value(v, indent)

    def sequence(self, items: Sequence[Any], indent: int) -> None:
        out = self.out
        pad = " " * indent + "- "
        for v in items:
            out.append(pad)
            if isinstance(v, (_FlowDict, _FlowList)) or (isinstance(v, (dict, list, tuple)) and not v):
                out.append(self.flow(v) + "\n")
            elif isinstance(v, dict):
                self.mapping(v, indent + 2, first_inline=True)
            elif isinstance(v, (list, tuple)):
                raise _NotDirect("a block list in a block list")
            else:
                out.append(self.scalar(v, False) + "\n")

    def document(self, marked: Any) -> str:
        if not isinstance(marked, dict) or isinstance(marked, _FlowDict) or not marked:
            raise _NotDirect("not a block mapping")
        self.mapping(marked, 0)
        return "".join(self.out)

    # the same, unmarked: _mark's choices made while writing ------------------------------------
    # (each method below is `_mark` at (indent, column, block) followed by the method of the same
    # role above at `at`; tests/test_writer_direct.py compares write(data) with document(_mark(data)))

    def write(self, data: Any) -> str:
        """document(_mark(data, 0, 0)) without the marked copy."""
        if not isinstance(data, _MAPPING) or not data:
            raise _NotDirect("not a block mapping")
        self.block_mapping(data, 0, True, 0, False)
        return "".join(self.out)

    def flow_of(self, v: Any) -> str:
        return self.flow(v if type(v) is dict or not isinstance(v, _MAPPING) else dict(v))

    def unmarked(self, v: Any, indent: int, column: int, block: bool, at: int) -> None:
        """value(_mark(v, indent, column, block), at)."""
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            self.out.append(" " + self.scalar(v, False) + "\n")
            return
        # a small collection of short texts and integers (whist, tricks, an auction) is written
        # once for each place and content, and its text repeated: thousands of deals share a few
        small = None if block else _small_key(v, t)
        if small is None:
            self._unmarked(v, t, indent, column, block, at)
            return
        memo = (indent, column, at, t is dict, small)
        got = self._small.get(memo)
        if got is None:
            mark = len(self.out)
            self._unmarked(v, t, indent, column, block, at)
            got = "".join(self.out[mark:])
            del self.out[mark:]
            if len(self._small) < _SMALL_MEMO:
                self._small[memo] = got
        self.out.append(got)

    def _unmarked(self, v: Any, t: type, indent: int, column: int, block: bool, at: int) -> None:
        if t is dict or (t is not list and t is not tuple and isinstance(v, _MAPPING)):
            if not block and _fits(v, column):
                self.out.append(" " + self.flow_of(v) + "\n")
            elif not v:
                self.out.append(" {}\n")
            else:
                self.out.append("\n")
                self.block_mapping(v, indent, block, at + 2, False)
        elif t is list or t is tuple or isinstance(v, (list, tuple)):
            blocks = indent == 2 and bool(v) and all(isinstance(x, _MAPPING) for x in v)
            if not block and not blocks and not _phrases(v) and _fits(v, column):
                self.out.append(" " + self.flow(v) + "\n")
            elif not v:
                self.out.append(" []\n")
            else:
                self.out.append("\n")
                self.block_sequence(v, indent, blocks, at + 2)
        else:
            self.out.append(" " + self.scalar(v, False) + "\n")

    def block_mapping(self, m: Any, indent: int, block: bool, at: int, first_inline: bool) -> None:
        """mapping(the block dict _mark(m, indent, ·, block) makes, at, first_inline)."""
        out = self.out
        pad = " " * at
        top = indent == 0 and block
        texts = self._cache[0]                 # a text value's written form (scalar(v, False))
        for i, (k, v) in enumerate(m.items()):
            out.append(("" if first_inline and i == 0 else pad) + self.key(k, False) + ":")
            if type(v) is str:                 # what unmarked() writes for a text, without the call
                out.append(" " + (texts.get(v) or self.text(v, False, False)) + "\n")
            elif top and k in LINE_KEYS and isinstance(v, list):
                self.value([_FlowDict(x) if isinstance(x, _MAPPING) else _mark(x, 4, 4, block=False) for x in v], at)
            elif top:
                self.unmarked(v, 2, len(str(k)) + 2, k in BLOCK_KEYS, at)
            else:
                self.unmarked(v, indent + 2, indent + len(str(k)) + 2, False, at)

    def block_sequence(self, items: Any, indent: int, blocks: bool, at: int) -> None:
        """sequence(the block list _mark(items, indent, ·, ·) makes, at); `blocks`: its items
        are blocks (each a deal)."""
        out = self.out
        pad = " " * at + "- "
        inner = indent + 2
        texts = self._cache[0]
        for v in items:
            t = type(v)
            if t is str:                       # scalar(v, False), without the call
                out.append(pad + (texts.get(v) or self.text(v, False, False)) + "\n")
                continue
            out.append(pad)
            if t is int or t is bool or v is None:
                out.append(self.scalar(v, False) + "\n")
            elif t is dict or (t is not list and t is not tuple and isinstance(v, _MAPPING)):
                if not blocks and _fits(v, inner):
                    out.append(self.flow_of(v) + "\n")
                elif not v:
                    out.append("{}\n")
                else:
                    self.block_mapping(v, inner, blocks, at + 2, True)
            elif t is list or t is tuple or isinstance(v, (list, tuple)):
                nested = inner == 2 and bool(v) and all(isinstance(x, _MAPPING) for x in v)
                if not blocks and not nested and not _phrases(v) and _fits(v, inner):
                    out.append(self.flow(v) + "\n")
                elif not v:
                    out.append("[]\n")
                else:
                    raise _NotDirect("a block list in a block list")
            else:
                out.append(self.scalar(v, False) + "\n")
