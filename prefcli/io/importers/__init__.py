"""Readers for other programs' saved files: a registry of importers, each a small module.

Why a registry: every score-keeping app stores its games its own way, and a user moving their
history to prefcli should not care which. Each importer is one module in this package that calls
:func:`register` with a name, a *detector* (does this file look like mine? judged by content,
never by the file name alone) and a *parser* (the file → plain ``pref-record/1`` or
``pref-sheet/1`` data, plus what could not be carried). Adding a program is one file and its
tests; the modules are found by walking the package, so nothing else changes.

Parsers raise :class:`~prefcli.model.diagnostics.InputError` with located problems
(``file:line:col: path: message``) for a file they cannot read; they never guess silently:
everything they drop, assume or cannot check is a :class:`Note` in the result.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import field
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, overload

from prefcli.model.diagnostics import InputError, Path, Problem
from prefcli.model.values import show


@dataclass(frozen=True)
class Note:
    """One thing the import did that the user should know: a loss (something in the file that
    the output does not carry), an assumption (something the output says that the file did
    not), or a check that could not be made. `deal` is 1-based, None for the whole file."""

    deal: Optional[int]
    field: str
    what: str
    loss: bool = False

    def as_dict(self) -> Dict[str, Any]:
        return {"deal": self.deal, "field": self.field, "what": self.what, "loss": self.loss}

    def text(self) -> str:
        where = f"deal {self.deal}" if self.deal is not None else "file"
        return f"{where}: {self.field}: {self.what}" + (" [lost]" if self.loss else "")


Cell = Tuple[str, str, Optional[str]]   # (area, player, on): ("whists", "Ann", "Bob")


@dataclass
class PeerSheet:
    """The other program's own numbers, to check ours against.

    `totals`: its final sheet (cell → value). `writes`: its running log as (cell, delta) in the
    order written, when it has one; `per_deal`: the deltas grouped by deal, when the file says
    which deal wrote what (then no alignment is needed)."""

    totals: Dict[Cell, Fraction]
    writes: List[Tuple[Cell, Fraction]] = field(default_factory=list)
    per_deal: Optional[List[Dict[Cell, Fraction]]] = None


@dataclass
class Imported:
    """What a parser returns: one or more documents (plain data, not yet canonical), notes, and
    the peer's own numbers when the file holds them."""

    program: str
    version: Optional[str]
    documents: List[Tuple[str, Dict[str, Any]]]      # (label for a file name, data)
    notes: List[Note] = field(default_factory=list)
    peer: Optional[PeerSheet] = None

    def note(self, deal: Optional[int], fld: str, what: str, loss: bool = False) -> None:
        self.notes.append(Note(deal, fld, what, loss))

    def leftover(self, value: Any, path: Sequence[Any], known: Sequence[str], quiet: Sequence[str] = (),
                 deal: Optional[int] = None) -> None:
        """Report the fields of a mapping that the importer does not read: every field of a file
        is used or reported. `quiet` fields are the program's own bookkeeping (ids, display
        settings), left out without loss; any other unknown field is a loss."""
        if not isinstance(value, Mapping):
            return
        from prefcli.model.diagnostics import format_path
        where = format_path(tuple(path)) or "file"
        unread = [k for k in value if k not in known]
        skipped = [k for k in unread if k in quiet or _display(k)]
        unknown = [k for k in unread if k not in skipped]
        if skipped:
            self.note(deal, where, f"the program's own bookkeeping left out: {', '.join(map(str, skipped))}")
        if unknown:
            self.note(deal, where, f"unknown field(s) not carried: {', '.join(map(str, unknown))}", loss=True)


def _display(key: Any) -> bool:
    """A display setting (theme colours and the like), never part of a game."""
    text = str(key).lower()
    return any(w in text for w in ("color", "colour", "theme", "animation", "font"))


@dataclass(frozen=True)
class RulesAccess:
    """What importers ask of the rules layer, handed in with the :class:`Source` by the
    application layer (:mod:`prefcli.app.importing`), so that io never imports the rules."""

    #: a rules block (``{"variant": …, option: value}``) → its resolved option values
    preset_values: Callable[[Mapping[str, Any]], Mapping[str, Any]]
    #: players, first dealer, variant → the seating of quick-entry notes (:mod:`prefcli.io.quickentry`)
    seating_for: Callable[..., Any]


@dataclass
class Source:
    """An input file's bytes, with its text and JSON decoded on demand (once) for the detectors."""

    name: str
    raw: bytes
    _text: Any = field(default=None, repr=False)
    _doc: Any = field(default=None, repr=False)
    _json_error: Optional[InputError] = field(default=None, repr=False)
    rules: Optional[RulesAccess] = field(default=None, repr=False)

    def rules_access(self) -> RulesAccess:
        """The rules' answers (see :class:`RulesAccess`): given by whoever made the source."""
        if self.rules is None:
            raise RuntimeError("an importer needs the rules: make the Source with rules=… "
                               "(prefcli.app.importing does)")
        return self.rules

    @property
    def text(self) -> Optional[str]:
        """UTF-8 text (BOM dropped), or None when the bytes are not UTF-8."""
        if self._text is None:
            try:
                self._text = self.raw.decode("utf-8").lstrip("\ufeff")
            except UnicodeDecodeError:
                self._text = False
        return None if self._text is False else self._text

    def document(self):
        """The file as a JSON document (a loader Document: data plus positions); raises the
        located InputError of a file that is not JSON."""
        if self._doc is not None:
            return self._doc
        if self._json_error is not None:
            raise self._json_error
        from prefcli.io.parsing import parse_text
        text = self.text
        try:
            if text is None:
                raise InputError([Problem("not UTF-8 text: not a JSON save", (), self.name, 1, 1, "syntax")])
            if not text.lstrip().startswith(("{", "[")):
                raise InputError([Problem("not a JSON file (it does not start with { or [)", (), self.name,
                                          1, 1, "syntax")])
            self._doc = parse_text(self.name, text, True)
        except InputError as exc:
            self._json_error = exc
            raise
        return self._doc

    def json(self) -> Any:
        """The JSON data, or None when the file is not JSON (for detectors, which never raise)."""
        try:
            return self.document().data
        except InputError:
            return None


@dataclass(frozen=True)
class Importer:
    name: str                      # what --from takes
    program: str                   # the program, as its users know it, and where it lives
    files: str                     # which files it reads
    writes: str                    # record or sheet
    detect: Callable[[Source], bool]
    parse: Callable[[Source], Imported]


_REGISTRY: Dict[str, Importer] = {}
_LOADED = False


def register(importer: Importer) -> Importer:
    if importer.name in _REGISTRY and _REGISTRY[importer.name] is not importer:
        raise ValueError(f"importer {importer.name!r} registered twice")
    _REGISTRY[importer.name] = importer
    return importer


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def importers() -> List[Importer]:
    """Every registered importer, by name."""
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def registry() -> Dict[str, Tuple[Callable[[Source], bool], Callable[[Source], Imported]]]:
    """name → (detector, parser)."""
    return {i.name: (i.detect, i.parse) for i in importers()}


def get(name: str) -> Importer:
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no importer {name!r} (known: {', '.join(sorted(_REGISTRY))})") from None


def detect(source: Source) -> List[Importer]:
    """The importers whose detector accepts `source` (exactly one for a file of a known kind)."""
    out = []
    for imp in importers():
        try:
            if imp.detect(source):
                out.append(imp)
        except Exception:  # noqa: BLE001 - a detector that trips over odd content says no
            continue
    return out


# ---------------------------------------------------------------------------------------------
# Helpers the JSON importers share: typed, located access to a document's data
# ---------------------------------------------------------------------------------------------

def fail(doc, path: Path, message: str) -> InputError:
    """A located error for a value of the document: its line and column in the JSON text (the
    nearest parent's when the value is missing)."""
    line, column = locate_json(getattr(doc, "text", "") or "", tuple(path))
    if line is None:
        line, column = doc.locate(tuple(path))
    return InputError([Problem(message, tuple(path), doc.name, line or 1, column or 1, "schema")])


def _ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in " \t\r\n":
        i += 1
    return i


def locate_json(text: str, path: Path) -> Tuple[Optional[int], Optional[int]]:
    """Line and column (1-based) of the value at `path` in valid JSON text, or of its nearest
    parent. A scanner of its own, because the YAML composer that locates prefcli's own files
    gives up on JSON that YAML does not allow (control characters, very long lines)."""
    import json
    dec = json.JSONDecoder()

    def skip(i: int) -> int:
        return dec.raw_decode(text, i)[1]

    try:
        i = _ws(text, 0)
        for elem in path:
            if i >= len(text):
                break
            found = None
            if text[i] == "{":
                j = _ws(text, i + 1)
                while j < len(text) and text[j] != "}":
                    key, j = dec.raw_decode(text, j)
                    j = _ws(text, _ws(text, j) + 1)
                    if key == elem:
                        found = j
                        break
                    j = _ws(text, skip(j))
                    if j < len(text) and text[j] == ",":
                        j = _ws(text, j + 1)
            elif text[i] == "[" and isinstance(elem, int):
                j, k = _ws(text, i + 1), 0
                while j < len(text) and text[j] != "]":
                    if k == elem:
                        found = j
                        break
                    j = _ws(text, skip(j))
                    if j < len(text) and text[j] == ",":
                        j = _ws(text, j + 1)
                    k += 1
            if found is None:
                break
            i = found
    except (ValueError, IndexError, RecursionError):
        return None, None
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


def kind_of(value: Any) -> str:
    from prefcli.model.records import type_name
    return type_name(value)


class Reader:
    """Typed access to a JSON document's values; every wrong value is a located InputError."""

    def __init__(self, doc) -> None:
        self.doc = doc

    def at(self, path: Sequence[Any]) -> Any:
        node = self.doc.data
        for elem in path:
            if isinstance(node, Mapping) and elem in node:
                node = node[elem]
            elif isinstance(node, list) and isinstance(elem, int) and 0 <= elem < len(node):
                node = node[elem]
            else:
                return None
        return node

    def fail(self, path: Sequence[Any], message: str) -> InputError:
        return fail(self.doc, tuple(path), message)

    def has(self, path: Sequence[Any]) -> bool:
        parent = self.at(path[:-1])
        return isinstance(parent, Mapping) and path[-1] in parent

    def _get(self, path: Sequence[Any], required: bool) -> Tuple[bool, Any]:
        """(go on, value): a missing or null optional value stops the caller (None is returned);
        a missing required one is an error at its parent."""
        value = self.at(path)
        if value is None:
            if not required:
                return False, None
            if not self.has(path):
                raise self.fail(path[:-1], f"missing '{path[-1]}'")
        return True, value

    @overload
    def mapping(self, path: Sequence[Any], required: Literal[True] = ...) -> Mapping[str, Any]: ...
    @overload
    def mapping(self, path: Sequence[Any], required: bool) -> Optional[Mapping[str, Any]]: ...

    def mapping(self, path: Sequence[Any], required: bool = True) -> Optional[Mapping[str, Any]]:
        go, value = self._get(path, required)
        if not go:
            return None
        if not isinstance(value, Mapping):
            raise self.fail(path, f"expected an object, found {kind_of(value)}")
        return value

    @overload
    def list(self, path: Sequence[Any], required: Literal[True] = ..., max_items: int = ...) -> List[Any]: ...
    @overload
    def list(self, path: Sequence[Any], required: bool, max_items: int = ...) -> Optional[List[Any]]: ...

    def list(self, path: Sequence[Any], required: bool = True, max_items: int = 100000) -> Optional[List[Any]]:
        go, value = self._get(path, required)
        if not go:
            return None
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, found {kind_of(value)}")
        if len(value) > max_items:
            raise self.fail(path, f"{len(value)} items: more than {max_items} is not a saved game")
        return value

    @overload
    def text(self, path: Sequence[Any], required: Literal[True] = ..., max_len: int = ...) -> str: ...
    @overload
    def text(self, path: Sequence[Any], required: bool, max_len: int = ...) -> Optional[str]: ...

    def text(self, path: Sequence[Any], required: bool = True, max_len: int = 1000) -> Optional[str]:
        go, value = self._get(path, required)
        if not go:
            return None
        if not isinstance(value, str):
            raise self.fail(path, f"expected text, found {kind_of(value)}")
        if len(value) > max_len:
            raise self.fail(path, f"text of {len(value)} characters is too long here")
        return value

    @overload
    def integer(self, path: Sequence[Any], required: Literal[True] = ..., lo: int = ..., hi: int = ...) -> int: ...
    @overload
    def integer(self, path: Sequence[Any], required: bool, lo: int = ..., hi: int = ...) -> Optional[int]: ...

    def integer(self, path: Sequence[Any], required: bool = True, lo: int = -10**9, hi: int = 10**9) -> Optional[int]:
        go, value = self._get(path, required)
        if not go:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            from decimal import Decimal
            if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
                value = int(value)
            else:
                raise self.fail(path, f"expected a whole number, found {kind_of(value)}")
        if not lo <= value <= hi:
            raise self.fail(path, f"{value} is out of range ({lo}..{hi})")
        return value

    @overload
    def number(self, path: Sequence[Any], required: Literal[True] = ...) -> Fraction: ...
    @overload
    def number(self, path: Sequence[Any], required: bool) -> Optional[Fraction]: ...

    def number(self, path: Sequence[Any], required: bool = True) -> Optional[Fraction]:
        from prefcli.model.records import to_fraction
        go, value = self._get(path, required)
        if not go:
            return None
        if isinstance(value, str):
            raise self.fail(path, f"expected a number, found text {show(value)}")
        try:
            out = to_fraction(value)
        except ValueError as exc:
            raise self.fail(path, str(exc)) from None
        if abs(out) > 10**9:
            raise self.fail(path, f"{value} is too large for a score")
        from prefcli.io.writer import UnwritableValue, amount
        try:
            amount(out)                 # refused here, at its place in the file, not when written
        except UnwritableValue as exc:
            raise self.fail(path, exc.message) from None
        return out

    @overload
    def boolean(self, path: Sequence[Any], required: Literal[True] = ...) -> bool: ...
    @overload
    def boolean(self, path: Sequence[Any], required: bool) -> Optional[bool]: ...

    def boolean(self, path: Sequence[Any], required: bool = True) -> Optional[bool]:
        go, value = self._get(path, required)
        if not go:
            return None
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, found {kind_of(value)}")
        return value

    @overload
    def choice(self, path: Sequence[Any], choices: Sequence[str], required: Literal[True] = ...) -> str: ...
    @overload
    def choice(self, path: Sequence[Any], choices: Sequence[str], required: bool) -> Optional[str]: ...

    def choice(self, path: Sequence[Any], choices: Sequence[str], required: bool = True) -> Optional[str]:
        value = self.text(path, required)
        if value is None:
            return None
        if value not in choices:
            raise self.fail(path, f"{show(value)} is not one of {', '.join(choices)}")
        return value


def unique_names(names: Sequence[str]) -> List[str]:
    """Player names as prefcli needs them: non-empty and unique (a repeated name gets " (2)")."""
    out: List[str] = []
    for i, name in enumerate(names):
        base = name.strip() or f"Player {i + 1}"
        candidate, n = base, 2
        while candidate in out:
            candidate = f"{base} ({n})"
            n += 1
        out.append(candidate)
    return out


def source_meta(program: str, version: Optional[str], file: str, **extra: Any) -> Dict[str, Any]:
    """The `meta.source` block every import writes: which program, which version of its file
    format, which file (its base name: a path can name a person's home folder), plus anything the
    importer keeps verbatim (the program's own rule settings, its history text)."""
    import os
    out: Dict[str, Any] = {"program": program}
    if version is not None:
        out["version"] = version
    out["file"] = os.path.basename(file) if file != "<stdin>" else file
    for key, value in extra.items():
        if value is not None:
            out[key] = value
    return out


def cell_sheet(players: Sequence[str], cells: Mapping[Cell, Fraction]) -> Dict[str, Any]:
    """pool / mountain / whists of plain sheet data from cells."""
    pool = {p: cells.get(("pool", p, None), Fraction(0)) for p in players}
    mountain = {p: cells.get(("mountain", p, None), Fraction(0)) for p in players}
    whists: Dict[str, Dict[str, Fraction]] = {}
    for (area, p, on), v in cells.items():
        if area == "whists" and v != 0:
            whists.setdefault(p, {})[on] = v   # type: ignore[index]
    return {"pool": pool, "mountain": mountain, "whists": whists}


def log_from_deltas(steps: Sequence[Tuple[Optional[int], Optional[str], Mapping[Cell, Fraction]]],
                    start: Optional[Mapping[Cell, Fraction]] = None) -> List[Dict[str, Any]]:
    """A sheet's running log (plain data) from per-step deltas: each changed cell's new value."""
    running: Dict[Cell, Fraction] = dict(start or {})
    out: List[Dict[str, Any]] = []
    for deal, note, deltas in steps:
        for cell, delta in deltas.items():
            if delta == 0:
                continue
            running[cell] = running.get(cell, Fraction(0)) + delta
            area, player, on = cell
            item: Dict[str, Any] = {}
            if deal is not None:
                item["deal"] = deal
            item.update({"area": area, "player": player})
            if on is not None:
                item["on"] = on
            item["value"] = running[cell]
            if note:
                item["note"] = note
            out.append(item)
    return out
