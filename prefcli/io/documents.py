"""Documents: reading a file or stdin, decoding it, parsing YAML or JSON, and building records
and sheets from the data, with every problem located (file:line:col).

YAML goes to the fast line reader (`yaml_fast`) first and to the strict libyaml path
(`yaml_strict`) when the fast one declines; JSON goes to the standard library's parser with exact
numbers. A `Document` keeps the text so that a problem found later by code that knows only a data
path can still be given its line and column.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from prefcli.io.yaml_fast import fast_yaml
from prefcli.io.yaml_strict import MAX_DEPTH, LocatedError, check_nesting, compose, construct
from prefcli.model.diagnostics import InputError, Path, PrefcliError, Problem, Problems
from prefcli.model.numbers import MAX_DIGITS, NumberError, check_decimal_text, check_int_text

MAX_BYTES = int(os.environ.get("PREFCLI_MAX_BYTES", str(64 * 1024 * 1024)))


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
            return _line_col(text, best)
        except (ValueError, IndexError):  # positions are a courtesy: never fail because of them
            return None, None


def _fail(name: str, message: str, line: Optional[int] = None, column: Optional[int] = None,
          path: Path = (), kind: str = "syntax") -> InputError:
    return InputError([Problem(message, path, name, line, column, kind)])


def read_source(source: Union[str, os.PathLike]) -> Tuple[str, bytes]:
    """(display name, bytes) of a path or `-` (stdin), with the size limit applied.

    Only a regular file is opened: a FIFO would block until someone writes to it, and a device
    (``/dev/zero``, a terminal) never ends; both are refused at once, before opening."""
    name = "<stdin>" if str(source) == "-" else str(source)
    try:
        if str(source) == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            st = os.stat(source)
            if not stat.S_ISREG(st.st_mode):
                if stat.S_ISDIR(st.st_mode):
                    raise _fail(name, "is a folder, not a file")
                what = ("a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else
                        "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                        "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
                raise _fail(name, f"is {what}, not a regular file: prefcli reads files, or stdin "
                                  f"given as - (e.g. prefcli validate - < {name})")
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
    except ValueError:  # a path with a NUL byte
        raise _fail(name, "is not a valid file name") from None
    if len(raw) > MAX_BYTES:
        raise _fail(name, f"file is larger than the limit of {MAX_BYTES // (1024 * 1024)} MiB "
                          "(set PREFCLI_MAX_BYTES to raise it)")
    return name, raw


_BOMS = ((b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe\x00\x00", "utf-32-le"),
         (b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le"))


def _guess_encoding(raw: bytes) -> Optional[Tuple[str, str]]:
    """(iconv name, description) of the 8-bit or BOM-less encoding `raw` most likely is, or None
    when it looks like no text at all. A guess, only used to word the refusal."""
    sample = raw[:65536]
    if sample.count(b"\x00") > len(sample) // 4:
        even, odd = sample[0::2].count(b"\x00"), sample[1::2].count(b"\x00")
        if odd > len(sample) // 3:
            return "utf-16le", "UTF-16 (little-endian) without a byte-order mark"
        if even > len(sample) // 3:
            return "utf-16be", "UTF-16 (big-endian) without a byte-order mark"
        return None
    if any(b < 0x09 or 0x0e <= b < 0x20 for b in sample[:4096]) or b"\x00" in sample:
        return None
    high = [b for b in sample if b >= 0x80]
    if not high:
        return None
    cyr_upper = sum(1 for b in high if 0xc0 <= b <= 0xdf)
    cyr_lower = sum(1 for b in high if 0xe0 <= b)
    # Cyrillic words are runs of high bytes; accented Western letters mostly stand alone
    paired = sum(1 for i, b in enumerate(sample) if b >= 0x80 and (
        (i > 0 and sample[i - 1] >= 0x80) or (i + 1 < len(sample) and sample[i + 1] >= 0x80)))
    if (cyr_upper + cyr_lower) >= 0.7 * len(high) and paired >= 0.5 * len(high):
        # running text is mostly lower case: cp1251 puts it at 0xe0-0xff, KOI8-R at 0xc0-0xdf
        if cyr_lower >= cyr_upper:
            return "cp1251", "cp1251 (Windows Cyrillic)"
        return "koi8-r", "KOI8-R (Cyrillic)"
    return "cp1252", "cp1252 or latin-1 (Windows Western European)"


def decode_text(name: str, raw: bytes) -> str:
    """UTF-8 (with or without a BOM), or UTF-16/32 with a BOM; anything else is refused with the
    encoding it most likely is and the command that converts it."""
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw[len(bom):].decode(codec)
            except UnicodeDecodeError as exc:
                raise _fail(name, f"starts with a {codec.upper()} byte-order mark but is not valid "
                                  f"{codec.upper()} (byte offset {exc.start + len(bom)})") from None
            break
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            guess = _guess_encoding(raw)
            if guess is None:
                raise _fail(name, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); is this a binary file?",
                            line, col) from None
            codec, what = guess
            shown_name = name if name != "<stdin>" else "FILE"
            raise _fail(name, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}): it looks like {what}; "
                              f"prefcli reads UTF-8 (or UTF-16 with a byte-order mark). Convert it with: "
                              f"iconv -f {codec} -t utf-8 {shown_name} > converted{_suffix(name)}",
                        line, col) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    if bad:
        start = bad.start()
        line, col = _line_col(text, start)
        guess = _guess_encoding(raw) if bad.group() == "\x00" else None
        if guess is not None and guess[0].startswith("utf-16"):
            raise _fail(name, f"not UTF-8 text: it looks like {guess[1]}; prefcli reads UTF-8, or UTF-16 "
                              f"with a byte-order mark. Convert it with: iconv -f {guess[0]} -t utf-8 "
                              f"{name if name != '<stdin>' else 'FILE'} > converted{_suffix(name)}")
        raise _fail(name, f"control character 0x{ord(bad.group()):02x} in the text; is this a binary file?",
                    line, col)
    return text


def _suffix(name: str) -> str:
    ext = os.path.splitext(name)[1]
    return ext if ext.lower() in (".yaml", ".yml", ".json", ".txt") else ".yaml"


class _JsonDuplicate(Exception):
    pass


def _json_pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _JsonDuplicate(k)
        out[k] = v
    return out


class _JsonToken(Exception):
    """A number or constant the JSON hooks refuse; `token` is its text as written, to place it."""

    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.message, self.token = message, token


def _json_int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        try:
            check_int_text(text)
        except NumberError as exc:
            raise _JsonToken(exc.message, text) from None
    return int(text)


def _json_float(text: str) -> Decimal:
    try:
        check_decimal_text(text)
    except NumberError as exc:
        raise _JsonToken(exc.message, text) from None
    return Decimal(text)


def _json_constant(text: str) -> Any:
    raise _JsonToken(f"{text} is not a number JSON allows (write a number, or null)", text)


_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)')


def _json_token_place(text: str, token: str) -> Tuple[Optional[int], Optional[int]]:
    """Line and column of the first `token` outside a string: json's hooks are called in
    document order and the first refusal stops the parse, so the first one is the culprit."""
    for m in _JSON_TOKENS.finditer(text):
        if m.group(1) == token:
            return _line_col(text, m.start())
    return None, None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE_ESCAPE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _has_lone_surrogate(data: Any) -> bool:
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def _check_unicode(name: str, text: str, data: Any) -> None:
    """JSON can spell half of a UTF-16 surrogate pair (`"A\\ud800"`), which is no character at
    all: refuse it where it is written, so no name that cannot be printed gets any further."""
    if _SURROGATE_ESCAPE.search(text) is None or not _has_lone_surrogate(data):
        return
    m = _LONE_SURROGATE_ESCAPE.search(text)
    line, col = _line_col(text, m.start()) if m else (None, None)
    esc = m.group() if m else "\\ud800"
    raise _fail(name, f"{esc} is half of a UTF-16 surrogate pair, not a character: names and texts must be "
                      "valid Unicode (write the character itself, or both halves of the pair)", line, col,
                kind="syntax")


def _line_col(text: str, offset: int) -> Tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


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
        data = fast_yaml(text)  # depth-limited itself; declines empty and deeply nested text
        if data is not None:
            return Document(name, data, text, False)  # positions are composed if ever asked for
    where = check_nesting(text)
    if where:
        raise _fail(name, f"nesting deeper than {MAX_DEPTH * 4} levels: not a prefcli document", *where)
    if not text.strip():
        raise _fail(name, "the file is empty: expected a record (format: pref-record/1) "
                          "or a sheet (format: pref-sheet/1)", 1, 1)
    if is_json:
        import json
        try:
            data = json.loads(text, object_pairs_hook=_json_pairs, parse_float=_json_float,
                              parse_int=_json_int, parse_constant=_json_constant)
        except json.JSONDecodeError as exc:
            raise _fail(name, f"not valid JSON: {_json_words(exc, text)}", exc.lineno, exc.colno) from None
        except _JsonDuplicate as exc:
            doc = Document(name, None, text, True)
            line = col = None
            try:  # find the second occurrence with the YAML composer (JSON is YAML)
                construct(compose(text))
            except LocatedError as loc:
                line, col = loc.line, loc.column
            except Exception:
                pass
            if line is None:  # the composer gave up on this JSON: the key's last spelling in the text
                line, col = _last_key_position(text, str(exc.args[0]))
            del doc
            raise _fail(name, f"duplicate key '{exc.args[0]}' (each key may appear once in an object)",
                        line, col) from None
        except _JsonToken as exc:
            raise _fail(name, exc.message, *_json_token_place(text, exc.token)) from None
        except RecursionError:
            raise _fail(name, "nesting too deep: not a prefcli document") from None
        _check_unicode(name, text, data)
        return Document(name, data, text, True)
    import yaml
    try:
        root = compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _fail(name, f"not valid YAML: {_yaml_words(exc, text)}",
                    mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise _fail(name, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise _fail(name, "nesting too deep: not a prefcli document") from None
    if root is None:
        raise _fail(name, "the file holds no document: expected a record (format: pref-record/1) "
                          "or a sheet (format: pref-sheet/1)", 1, 1)
    try:
        data = construct(root)
    except LocatedError as exc:
        raise _fail(name, exc.message, exc.line, exc.column, exc.path) from None
    except RecursionError:
        raise _fail(name, "nesting too deep: not a prefcli document") from None
    doc = Document(name, data, text, False)
    doc._root, doc._root_loaded = root, True
    return doc


def _yaml_words(exc: Any, text: str) -> str:
    """libyaml's complaint as a sentence that says what to change (never its raw text)."""
    problem, context = exc.problem or "", exc.context or ""
    mark, opened = exc.problem_mark, exc.context_mark
    line = text.split("\n", mark.line + 1)[mark.line] if mark is not None and mark.line < text.count("\n") + 1 else ""
    at = line[mark.column:mark.column + 1] if mark is not None else ""
    since = f" (opened at line {opened.line + 1}, column {opened.column + 1})" if opened is not None else ""
    indent = line[:len(line) - len(line.lstrip(" \t"))]
    if at == "\t" or "\t" in indent:
        return "a tab character: YAML indents with spaces only; replace the tab with spaces"
    if "mapping values are not allowed" in problem:
        return ("a ':' where no new key can start: this line is indented deeper than the key above it, "
                "or a value holds ': ' (indent it like its neighbours, or put the value in quotes)")
    if "expected key" in problem and "block mapping" in context:
        if line.lstrip(" ").startswith("-"):
            return "a list item '- …' where a key was expected: indent the list under its key"
        return ("this line's indentation does not match the lines above: the keys of one mapping "
                "start in the same column")
    if "expected ',' or ']'" in problem:
        return f"a list [ … ] is not closed: a ']' (or a ',' between items) is missing{since}"
    if "expected ',' or '}'" in problem:
        return f"a mapping {{ … }} is not closed: a '}}' (or a ',' between entries) is missing{since}"
    if "quoted scalar" in context:
        return f"a quoted text is not closed: its closing quote is missing{since}"
    if "could not find expected ':'" in problem:
        return ("a line that is neither 'key: value' nor a list item '- …' (a missing ':'?); quick-entry "
                "notes go in a .txt file, read by prefcli convert")
    if "block collection" in context or "block sequence" in context:
        return "this line's indentation does not match the lines above"
    if "end of stream" in problem:
        return f"the file ends in the middle of a value{since}"
    if "alias" in problem:
        return "an alias (*name) with no anchor (&name): prefcli documents use no aliases"
    if "cannot start any token" in problem:
        return f"the character {at!r} cannot start a value here: put the value in quotes".replace('"', "'")
    return problem or "cannot be read"


def _json_words(exc: Any, text: str) -> str:
    """The json module's complaint as a sentence that says what to change."""
    msg, pos = exc.msg, exc.pos
    before = text[:pos].rstrip()
    last = before[-1:] if before else ""
    if msg == "Expecting value":
        if last == ",":
            return "a trailing comma: JSON allows no ',' after the last item of a list"
        if pos >= len(text.rstrip()):
            return "the JSON ends too early: a value, ']' or '}' is missing"
        return ("a value is expected here: text goes in double quotes, and true, false and null are "
                "written in lower case")
    if msg.startswith("Expecting property name"):
        if last == ",":
            return "a trailing comma: JSON allows no ',' after the last field of an object"
        return "a field name is expected here, in double quotes (\"name\"; JSON has no 'single quotes')"
    if msg == "Expecting ',' delimiter":
        return "a ',' is missing between two items (or a text before here is not closed with \")"
    if msg == "Expecting ':' delimiter":
        return "a ':' is missing after the field name"
    if msg == "Extra data":
        return "more text after the end of the document: a file holds one JSON object"
    if msg.startswith("Unterminated string"):
        return "a text is not closed: its closing \" is missing"
    if msg.startswith("Invalid control character"):
        return "a raw tab or line break inside a text: write it as \\t or \\n"
    if msg.startswith("Invalid \\escape") or "escape" in msg:
        return "an unknown escape after a backslash: JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
    return msg


def load_document(source: Union[str, os.PathLike], raw: Optional[bytes] = None) -> Document:
    """Read a YAML or JSON document (JSON by extension, or by a leading `{` on stdin)."""
    if raw is None:
        name, raw = read_source(source)
    else:
        name = "<stdin>" if str(source) == "-" else str(source)
    text = decode_text(name, raw)
    del raw                         # the bytes are not needed while the text is parsed
    lower = name.lower()
    is_json = lower.endswith(".json") or (name == "<stdin>" and text.lstrip().startswith("{"))
    return parse_text(name, text, is_json)


# ---------------------------------------------------------------------------------------------
# Records and sheets
# ---------------------------------------------------------------------------------------------

def schema_problems(doc: Document, kind: str) -> List[Problem]:
    """Every JSON Schema problem of the document, located, most specific first.

    A document the compiled check passes has none (`schema_fast`, proven the same answer), so
    jsonschema runs only on the others, and words their problems."""
    from prefcli.io.schema_fast import is_valid
    if is_valid(kind, doc.data):
        return []
    from prefcli.io.schemas import validator_for

    validator = validator_for(kind)
    out: List[Problem] = []
    for err in validator.iter_errors(doc.data):
        for leaf in _leaves(err):
            path = tuple(leaf.absolute_path)
            if leaf.validator == "additionalProperties" and isinstance(leaf.instance, dict):
                from prefcli.io.schemas import unknown_field_message
                allowed = list(leaf.schema.get("properties", {}))
                for extra in leaf.instance:
                    if extra not in allowed:
                        out.append(doc.problem(path + (extra,), unknown_field_message(extra, allowed),
                                               "schema", key=True))
                continue
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


def format_check(doc: Document, expected_kind: Optional[str]) -> Optional[str]:
    data = doc.data
    if not isinstance(data, dict):
        from prefcli.model.records import type_name
        raise InputError([doc.problem((), f"expected a mapping with a format field "
                                          f"(pref-record/1 or pref-sheet/1), found {type_name(data)}",
                                      "schema")])
    fmt = data.get("format")
    known = {"pref-record/1": "record", "pref-sheet/1": "sheet", "pref-tournament/1": "tournament"}
    if not isinstance(fmt, str) or fmt not in known:
        if isinstance(fmt, str) and (fmt.startswith("pref-record/") or fmt.startswith("pref-sheet/")):
            msg = f"unsupported format version '{fmt}': this prefcli reads pref-record/1 and pref-sheet/1"
        elif fmt is None:
            msg = "missing 'format': write format: pref-record/1 (a game record) or format: pref-sheet/1 (a score sheet)"
        elif isinstance(fmt, str):
            msg = f"unknown format '{fmt}': expected pref-record/1 or pref-sheet/1"
        else:
            from prefcli.model.records import type_name
            msg = f"expected the text pref-record/1 or pref-sheet/1, found {type_name(fmt)}"
        raise InputError([doc.problem(("format",) if fmt is not None else (), msg, "schema")])
    kind = known[fmt]
    if expected_kind and kind != expected_kind:
        raise InputError([doc.problem(("format",), f"this is a {kind} (format: {fmt}); a {expected_kind} "
                                                    f"is needed here", "schema")])
    return kind


def incomplete_areas(data: Any, players: Any, path: Path = ()) -> List[Tuple[Path, str]]:
    """(path, message) for each seated player a sheet (or a record's `start:`) leaves out of its
    pool or mountain: settling would count the gap as 0 without anyone having written it."""
    if not isinstance(data, dict) or not isinstance(players, list):
        return []
    seated = [p for p in players if isinstance(p, str)]
    out = []
    for area in ("pool", "mountain"):
        raw = data.get(area)
        if raw is not None and not isinstance(raw, dict):
            continue  # the schema or the builder reports the wrong type
        missing = [p for p in seated if not (raw and p in raw)]
        if missing:
            has = "has" if len(missing) == 1 else "have"
            out.append((path + (area,) if raw is not None else path,
                        f"{', '.join(missing)} {has} no {area} entry: every seated player needs one "
                        f"(write {missing[0]}: 0 for nothing)"))
    return out


def _build(doc: Document, kind: str, builder: Any, check_schema: bool) -> Any:
    """Format check, the schema (unless told not to), then the model builder; every problem located."""
    format_check(doc, kind)
    probs = schema_problems(doc, kind) if check_schema else []
    if probs:
        raise InputError(probs)
    problems = Problems()
    data = doc.data
    players = data.get("players")
    if kind == "sheet":
        for where, message in incomplete_areas(data, players):
            problems.add(where, message, "schema")
    elif isinstance(data.get("start"), dict):
        for where, message in incomplete_areas(data["start"], players, ("start",)):
            problems.add(where, message, "schema")
    built = builder(doc.data, problems)
    placed = [doc.place(p) for p in problems]
    if kind == "sheet" and built is not None:
        placed += _unseated(doc, built)
    if placed:
        placed.sort(key=lambda p: (p.line or 0, p.column or 0))
        raise InputError(placed)
    return built


def build_record(doc: Document, check_schema: bool = True):
    """Schema-check and build a record; raises InputError with every located problem."""
    from prefcli.model.build import record_from_data
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
    from prefcli.model.build import record_from_data

    format_check(doc, "record")
    if record_keys_known(doc.data) and not isinstance(doc.data.get("start"), dict):
        problems = Problems()
        record = record_from_data(doc.data, problems)
        if not problems:
            return record
    return build_record(doc)


def build_sheet(doc: Document, check_schema: bool = True):
    """Schema-check and build a sheet; every name on it must be seated and every seated player
    needs a pool and a mountain entry (every problem reported at once)."""
    from prefcli.model.build import sheet_from_data
    return _build(doc, "sheet", sheet_from_data, check_schema)


def _unseated(doc: Document, sheet: Any) -> List[Problem]:
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
    return extra


def load_record(source: Union[str, os.PathLike]):
    """(Record, Document); raises InputError with located problems."""
    doc = load_document(source)
    return build_record(doc), doc


def load_sheet(source: Union[str, os.PathLike]):
    doc = load_document(source)
    return build_sheet(doc), doc


def _last_key_position(text: str, key: str) -> Tuple[Optional[int], Optional[int]]:
    """(line, column) of the last `"key":` in a JSON text (where the duplicate stands when the
    YAML composer cannot say), or (None, None)."""
    import json
    import re
    m = None
    for m in re.finditer(re.escape(json.dumps(key, ensure_ascii=False)) + r"\s*:", text):
        pass
    if m is None:
        return None, None
    line = text.count("\n", 0, m.start()) + 1
    return line, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
