"""Documents: reading a file or stdin, and checking the data against the schemas and building
records and sheets from it, with every problem located (file:line:col). Decoding and parsing the
text are :mod:`prefcli.io.parsing`'s; the :class:`~prefcli.io.located.Document` that keeps the text
to locate a data path is :mod:`prefcli.io.located`'s.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from typing import Any, List, Optional, Tuple, Union

from prefcli.io.located import Document
from prefcli.io.parsing import decode_marked, parse_text, read_error
from prefcli.model.diagnostics import InputError, Path, Problem, Problems

_MIB = 1024 * 1024
#: the largest limit PREFCLI_MAX_BYTES may set: a read is allocated up to its limit at once, and a
#: record of more than 4 GiB could not be held in memory as data anyway
MAX_BYTES_CEILING = 4 * 1024 * _MIB
_UNITS = {"": 1, "k": 1024, "kib": 1024, "m": _MIB, "mib": _MIB, "g": 1024 * _MIB, "gib": 1024 * _MIB}


def max_bytes_setting(text: Optional[str]) -> Tuple[int, Optional[str]]:
    """The read limit that PREFCLI_MAX_BYTES's `text` sets (64 MiB when unset or empty), and what is
    wrong with the setting if anything. A bad setting is refused where it is used (the CLI
    refuses it before any command), never silently replaced by the default: a user who raised
    the limit must not find a file refused at the old one."""
    if text is None or not text.strip():        # unset, or set to nothing (VAR= cmd)
        return 64 * _MIB, None
    m = re.fullmatch(r"\s*([0-9]{1,12})\s*([A-Za-z]*)\s*", text)
    unit = _UNITS.get(m.group(2).lower()) if m else None
    if m is None or unit is None or not 1 <= int(m.group(1)) * unit <= MAX_BYTES_CEILING:
        return 64 * _MIB, (f"PREFCLI_MAX_BYTES={text!r} is not a read limit: give a whole number of bytes from 1 "
                           f"to {MAX_BYTES_CEILING} (4 GiB), or of KiB, MiB or GiB (e.g. 128MiB)")
    return int(m.group(1)) * unit, None


MAX_BYTES, MAX_BYTES_PROBLEM = max_bytes_setting(os.environ.get("PREFCLI_MAX_BYTES"))


def _limit_text() -> str:
    return f"{MAX_BYTES // _MIB} MiB" if MAX_BYTES % _MIB == 0 else f"{MAX_BYTES} bytes"

#: standard input read ahead by peek_stdin (with the stream it came from), handed to the next
#: read_source('-') of that same stream
_PEEKED: List[Tuple[Any, bytes]] = []


def peek_stdin() -> bytes:
    """Standard input's bytes, read now and handed again to the next ``read_source('-')``.

    A command that must know what stdin holds before it plans its inputs (a tournament there
    lists the inputs to settle) looks here; stdin is still read from the pipe only once."""
    if not _PEEKED or _PEEKED[0][0] is not sys.stdin:
        _PEEKED[:] = [(sys.stdin, _stdin_bytes())]
    return _PEEKED[0][1]


def _stdin_bytes() -> bytes:
    """Standard input's bytes, up to the limit. Started with it closed (`<&-`), Python has no
    stdin at all (sys.stdin is None): that is a located refusal, not an internal error."""
    stream = sys.stdin
    if MAX_BYTES_PROBLEM:
        raise read_error("<stdin>", MAX_BYTES_PROBLEM)
    if stream is None:
        raise read_error("<stdin>", "standard input is closed: give a file, or - with something to read")
    try:
        raw = getattr(stream, "buffer", stream).read(MAX_BYTES + 1)
        return raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogateescape")
    except ValueError:              # closed after start
        raise read_error("<stdin>", "standard input is closed: give a file, or - with something to read") from None


def unread_stdin(raw: bytes) -> None:
    """Give `raw` (what peek_stdin returned and a reader then took) back to the next reader."""
    _PEEKED[:] = [(sys.stdin, raw)]


def _read_stdin() -> bytes:
    if _PEEKED:
        stream, raw = _PEEKED.pop()
        if stream is sys.stdin:
            return raw
    return _stdin_bytes()


def read_source(source: Union[str, os.PathLike]) -> Tuple[str, bytes]:
    """(display name, bytes) of a path or `-` (stdin), with the size limit applied.

    Only a regular file is opened: a FIFO would block until someone writes to it, and a device
    (``/dev/zero``, a terminal) never ends; both are refused at once, before opening."""
    name = "<stdin>" if str(source) == "-" else str(source)
    if name == "":
        raise read_error("''", "an empty file name (give a file, a folder, or - for standard input)")
    if MAX_BYTES_PROBLEM:
        raise read_error(name, MAX_BYTES_PROBLEM)
    try:
        if str(source) == "-":
            raw = _read_stdin()
        else:
            st = os.stat(source)
            if not stat.S_ISREG(st.st_mode):
                if stat.S_ISDIR(st.st_mode):
                    raise read_error(name, "is a folder, not a file")
                what = ("a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else
                        "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                        "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
                raise read_error(name, f"is {what}, not a regular file: prefcli reads regular files, or "
                                       f"standard input given as -: give - < {name} in its place")
            with open(source, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise read_error(name, "no such file") from None
    except IsADirectoryError:
        raise read_error(name, "is a folder, not a file") from None
    except PermissionError:
        raise read_error(name, "permission denied") from None
    except OSError as exc:
        raise read_error(name, f"cannot be read: {exc.strerror or exc}") from None
    except ValueError:  # a path with a NUL byte
        raise read_error(name, "is not a valid file name") from None
    if len(raw) > MAX_BYTES:
        what = "input" if name == "<stdin>" else "file"
        raise read_error(name, f"{what} is larger than the limit of {_limit_text()} "
                               "(set PREFCLI_MAX_BYTES to raise it)")
    return name, raw


def load_document(source: Union[str, os.PathLike], raw: Optional[bytes] = None) -> Document:
    """Read a YAML or JSON document (JSON by extension, or by a leading `{` on stdin)."""
    if raw is None:
        name, raw = read_source(source)
    else:
        name = "<stdin>" if str(source) == "-" else str(source)
    lower = name.lower()
    text, marks = decode_marked(name, raw, lower.endswith(".json"))   # (JSON: its brackets and colons too)
    del raw                         # the bytes are not needed while the text is parsed
    is_json = lower.endswith(".json") or (name == "<stdin>" and text.lstrip().startswith("{"))
    return parse_text(name, text, is_json, marks)


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


def _build(doc: Document, kind: str, builder: Any, check_schema: bool, consume: bool = False) -> Any:
    """Format check, the schema (unless told not to), then the model builder; every problem located.
    With `consume` the builder lets each deal's data go once it is built (see record_from_data)."""
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
    built = builder(doc.data, problems, consume=True) if consume else builder(doc.data, problems)
    placed = [doc.place(p) for p in problems]
    if kind == "sheet" and built is not None:
        placed += _unseated(doc, built)
    if placed:
        placed.sort(key=lambda p: (p.line or 0, p.column or 0))
        raise InputError(placed)
    return built


def build_record(doc: Document, check_schema: bool = True, consume: bool = False):
    """Schema-check and build a record; raises InputError with every located problem. With
    `consume`, the document's parsed deals are let go as the record is built (doc.data keeps
    its other fields): for a caller that reads the record, and places problems by the text."""
    from prefcli.model.build import record_from_data
    return _build(doc, "record", record_from_data, check_schema, consume)


def build_record_fast(doc: Document, release: bool = False):
    """Build a record for score, replay and settle without the JSON Schema pass when it is not needed.

    jsonschema costs about 1.5 times a bare libyaml parse on a long record; the compiled check
    (`schema_fast`, the same answer) about a third of building the record. The model builder
    alone is not enough: it leaves a wrong type in a field it does not read (`meta: []`,
    `first_dealer: []`, `start: text`, a missing `rules:`) to the schema, so without it score,
    replay and settle accepted records validate refuses. Anything wrong → the full schema check
    runs, so the messages are exactly validate's. `prefcli validate` always runs the schema.

    With `release`, each deal's parsed data goes as soon as its deal is built and the document
    keeps no data once the record is built (``doc.data`` is None: the parsed deals and the
    record are never all held at once); a record with a problem is parsed again from the text
    for the schema's messages.
    """
    from prefcli.io.schema_fast import is_valid
    from prefcli.model.build import record_from_data

    format_check(doc, "record")
    if not isinstance(doc.data.get("start"), dict) and is_valid("record", doc.data):
        problems = Problems()
        try:
            record = record_from_data(doc.data, problems, consume=release)
        except BaseException:
            if release:
                doc.data = None        # half let go: parsed again from the text if it is needed
            raise
        if not problems:
            if release:
                doc.data = None
            return record
        if release:
            doc.data = parse_text(doc.name, doc.text, doc.is_json).data
    return build_record(doc)


def build_sheet(doc: Document, check_schema: bool = True):
    """Schema-check and build a sheet; every name on it must be seated and every seated player
    needs a pool and a mountain entry (every problem reported at once)."""
    from prefcli.model.build_sheet import sheet_from_data
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


