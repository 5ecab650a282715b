"""Text → :class:`~prefcli.io.located.Document`: decoding the bytes (UTF-8, a BOM's encoding, or a
clear refusal), parsing YAML or JSON with exact numbers, and wording the parsers' errors.

YAML goes to the fast line reader (`yaml_fast`) first and to the strict libyaml path
(`yaml_strict`) when the fast one declines; JSON goes to the standard library's parser with exact
numbers."""
from __future__ import annotations

import os
import re
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, Dict, Iterator, List, Optional, Tuple

from prefcli.io.located import Document, line_col
from prefcli.io.yaml_strict import _AS_PARENS, MAX_DEPTH, LocatedError, check_nesting, compose, construct
from prefcli.model.diagnostics import InputError, Path, Problem
from prefcli.model.numbers import MAX_DIGITS, NumberError, check_decimal_text, check_int_text


def read_error(name: str, message: str, line: Optional[int] = None, column: Optional[int] = None,
               path: Path = (), kind: str = "syntax") -> InputError:
    return InputError([Problem(message, path, name, line, column, kind)])

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


#: every byte but the control characters decode_text refuses (deleted, what is left is those)
_NOT_CONTROL = bytes(b for b in range(256) if not (b <= 0x08 or b in (0x0b, 0x0c) or 0x0e <= b <= 0x1f or b == 0x7f))


def decode_text(name: str, raw: bytes) -> str:
    """UTF-8 (with or without a BOM), or UTF-16/32 with a BOM; anything else is refused with the
    encoding it most likely is and the command that converts it."""
    return decode_marked(name, raw, False)[0]


#: every byte but the control characters, the brackets and the colons (deleted by decode_marked's
#: pass, which turns the brackets into check_nesting's own _AS_PARENS)
_NOT_MARK = _NOT_CONTROL.translate(None, b"[]{}:")


def decode_marked(name: str, raw: bytes, brackets: bool) -> Tuple[str, Optional[bytes]]:
    """decode_text's text and, when `brackets` is asked for (a JSON file) and the bytes are
    UTF-8, the text's marks, else None: its brackets as check_nesting takes them and its colons,
    in the order written. The pass over the bytes that looks for control characters keeps these
    too, about as fast as keeping nothing, where check_nesting's own pass over the text would
    cost as much again, and so would counting the colons (the JSON parse's check for a key
    written twice, _json_counted)."""
    utf8 = False
    marks: Optional[bytes] = None
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw[len(bom):].decode(codec)
            except UnicodeDecodeError as exc:
                raise read_error(name, f"starts with a {codec.upper()} byte-order mark but is not valid "
                                       f"{codec.upper()} (byte offset {exc.start + len(bom)})") from None
            break
    else:
        try:
            text = raw.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            guess = _guess_encoding(raw)
            if guess is None:
                raise read_error(name, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); is this a binary file?",
                                 line, col) from None
            codec, what = guess
            shown_name = name if name != "<stdin>" else "FILE"
            raise read_error(name, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}): it looks like {what}; "
                                   f"prefcli reads UTF-8 (or UTF-16 with a byte-order mark). Convert it with: "
                                   f"iconv -f {codec} -t utf-8 {shown_name} > converted{_suffix(name)}",
                             line, col) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    # In UTF-8 a control character is one byte, never part of another character's bytes: when the
    # bytes hold none (counted in C), neither does the text, and the search that places one is skipped.
    if utf8 and brackets:
        marks = raw.translate(_AS_PARENS, _NOT_MARK)   # (a BOM holds none)
        clean = not marks.translate(None, b"():")
    else:
        clean = utf8 and not raw.translate(None, _NOT_CONTROL)
    bad = None if clean else re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
    if bad:
        start = bad.start()
        line, col = line_col(text, start)
        guess = _guess_encoding(raw) if bad.group() == "\x00" else None
        if guess is not None and guess[0].startswith("utf-16"):
            raise read_error(name, f"not UTF-8 text: it looks like {guess[1]}; prefcli reads UTF-8, or UTF-16 "
                                   f"with a byte-order mark. Convert it with: iconv -f {guess[0]} -t utf-8 "
                                   f"{name if name != '<stdin>' else 'FILE'} > converted{_suffix(name)}")
        raise read_error(name, f"control character 0x{ord(bad.group()):02x} in the text; is this a binary file?",
                         line, col)
    return text, marks


def _suffix(name: str) -> str:
    ext = os.path.splitext(name)[1]
    return ext if ext.lower() in (".yaml", ".yml", ".json", ".txt") else ".yaml"


class _JsonDuplicate(Exception):
    pass


def _json_pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out = dict(pairs)                     # built in C; fewer keys than pairs: a key written twice
    if len(out) != len(pairs):
        seen: Dict[str, Any] = {}
        for k, _ in pairs:
            if k in seen:
                raise _JsonDuplicate(k)
            seen[k] = None
    return out


#: _json_counted's answer when its parse cannot tell a document from its refusal
_ONE_MORE_LOOK: Any = object()


def _json_counted(json: Any, text: str, parse_int: Any, colons: Optional[int] = None) -> Any:
    """The JSON document of `text` when it has no key twice in an object, else _ONE_MORE_LOOK
    (also for any text the parser refuses: the parse with _json_pairs then says what and where,
    in the same order as always). Why not _json_pairs every time: it has the C parser build a
    list of pairs for every object and call Python to make the dict (a third of the parse of a
    full record); here the dicts are the parser's own and only their sizes are counted. A key
    written twice leaves its object a key short, and every pair of the text has one colon
    outside the texts: so the sizes add up to the colons of the text (less those inside its
    texts, counted only when there are any) exactly when no key came twice. `colons`: the
    text's, when the caller counted them (decode_marked's marks)."""
    total = 0

    def sized(d: Dict[str, Any]) -> Dict[str, Any]:
        nonlocal total
        total += len(d)
        return d
    try:
        data = json.loads(text, object_hook=sized, parse_float=_json_float, parse_int=parse_int,
                          parse_constant=_json_constant)
    except (ValueError, _JsonToken, RecursionError):     # (JSONDecodeError is a ValueError)
        return _ONE_MORE_LOOK
    if colons is None:
        colons = text.count(":")
    if colons == total:
        return data
    if "\\u" in text:               # an escape may spell a colon (\u003a): the parse that counts pairs
        return _ONE_MORE_LOOK
    return data if colons - _colons_in_texts(data) == total else _ONE_MORE_LOOK


def _colons_in_texts(data: Any) -> int:
    """The colons of every text (key or value) in `data`."""
    n = 0
    stack: List[Any] = [[data]]         # (the top itself may be a text)
    pop, push = stack.pop, stack.append
    while stack:
        x = pop()
        t = type(x)
        if t is dict:
            for k, v in x.items():
                n += k.count(":")
                if type(v) is str:
                    n += v.count(":")
                elif type(v) is dict or type(v) is list:
                    push(v)
        elif t is list:
            for v in x:
                if type(v) is str:
                    n += v.count(":")
                elif type(v) is dict or type(v) is list:
                    push(v)
    return n


#: digits as "0", every other byte as itself: a run of MAX_DIGITS + 1 zeros is a number (or a
#: text) with more digits than a number may have
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= b <= 0x39 else b for b in range(256))


#: the step between the characters _long_digit_run looks at first
_STRIDE = 8


def _long_digit_run(text: str, raw: Optional[bytes] = None) -> bool:
    """Whether the text holds more than MAX_DIGITS digits in a row (counted in C): only then can
    an integer need _json_int's check, so only then does the parser call it for every integer.
    `raw`: the text's bytes (UTF-8, surrogates passed), when the caller has them already.
    Every _STRIDE-th character is looked at first: MAX_DIGITS + 1 characters in a row hold
    (MAX_DIGITS + 1) // _STRIDE of those in a row, so when no such run of them is digits (a
    record's numbers and cards never make one), no run of the text is too long, found in an
    eighth of the text (a record's hands hold at most 20 digits among 33 characters)."""
    sample = text[::_STRIDE].encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZERO)
    if b"0" * ((MAX_DIGITS + 1) // _STRIDE) not in sample:
        return False
    if raw is None:
        raw = text.encode("utf-8", "surrogatepass")
    return b"0" * (MAX_DIGITS + 1) in raw.translate(_DIGITS_AS_ZERO)


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
            return line_col(text, m.start())
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
    if "\\" not in text or _SURROGATE_ESCAPE.search(text) is None or not _has_lone_surrogate(data):
        return
    m = _LONE_SURROGATE_ESCAPE.search(text)
    line, col = line_col(text, m.start()) if m else (None, None)
    esc = m.group() if m else "\\ud800"
    raise read_error(name, f"{esc} is half of a UTF-16 surrogate pair, not a character: names and texts must be "
                           "valid Unicode (write the character itself, or both halves of the pair)", line, col,
                     kind="syntax")


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


def parse_text(name: str, text: str, is_json: bool, marks: Optional[bytes] = None) -> Document:
    """The document of `text`; `marks`: decode_marked's (the text's brackets and colons), if it has them."""
    with paused_gc():
        return _parse_text(name, text, is_json, marks)


def _parse_text(name: str, text: str, is_json: bool, marks: Optional[bytes] = None) -> Document:
    if not is_json:
        from prefcli.io.yaml_fast import fast_yaml   # its patterns are compiled for YAML only
        data = fast_yaml(text)  # depth-limited itself; declines empty and deeply nested text
        if data is not None:
            return Document(name, data, text, False)  # positions are composed if ever asked for
    colons = None
    if marks is not None and is_json:
        brackets = marks.replace(b":", b"")
        colons = len(marks) - len(brackets)
        raw, where = None, check_nesting(text, brackets=brackets)
        del brackets, marks
    else:
        raw = text.encode("utf-8", "surrogatepass") if is_json else None   # (JSON: its two counts' bytes)
        where = check_nesting(text, raw)
    if where:
        raise read_error(name, f"nesting deeper than {MAX_DEPTH * 4} levels: not a prefcli document", *where)
    if not text or text.isspace():       # (text.strip() would copy the whole text)
        raise read_error(name, "the file is empty: expected a record (format: pref-record/1) "
                               "or a sheet (format: pref-sheet/1)", 1, 1)
    if is_json:
        import json
        long_run = _long_digit_run(text, raw)
        del raw                          # (not held while the text is parsed)
        parse_int = _json_int if long_run else None
        data = _json_counted(json, text, parse_int, colons)
        try:
            if data is _ONE_MORE_LOOK:   # refused, or perhaps a key twice: the parse that says which, and where
                data = json.loads(text, object_pairs_hook=_json_pairs, parse_float=_json_float,
                                  parse_int=parse_int, parse_constant=_json_constant)
        except json.JSONDecodeError as exc:
            raise read_error(name, f"not valid JSON: {_json_words(exc, text)}", exc.lineno, exc.colno) from None
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
            raise read_error(name, f"duplicate key '{exc.args[0]}' (each key may appear once in an object)",
                             line, col) from None
        except _JsonToken as exc:
            raise read_error(name, exc.message, *_json_token_place(text, exc.token)) from None
        except RecursionError:
            raise read_error(name, "nesting too deep: not a prefcli document") from None
        _check_unicode(name, text, data)
        return Document(name, data, text, True)
    import yaml
    try:
        root = compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise read_error(name, f"not valid YAML: {_yaml_words(exc, text)}",
                         mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise read_error(name, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise read_error(name, "nesting too deep: not a prefcli document") from None
    if root is None:
        raise read_error(name, "the file holds no document: expected a record (format: pref-record/1) "
                               "or a sheet (format: pref-sheet/1)", 1, 1)
    try:
        data = construct(root)
    except LocatedError as exc:
        raise read_error(name, exc.message, exc.line, exc.column, exc.path) from None
    except RecursionError:
        raise read_error(name, "nesting too deep: not a prefcli document") from None
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
