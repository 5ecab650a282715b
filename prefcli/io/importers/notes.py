"""prefcli's own quick-entry notes (one deal per line, see :mod:`prefcli.io.quickentry`), as an
importer: score keepers' text files are "another program's" files too, and ``import`` then
checks them like any other. Detected by content: a ``players:`` header before the first deal.
"""
from __future__ import annotations

import re

from prefcli.io.importers import Imported, Importer, Source, register, source_meta
from prefcli.model.diagnostics import InputError, Problem

_PLAYERS = re.compile(r"^\s*players\s*:\s*\S", re.IGNORECASE)


def detect(source: Source) -> bool:
    from prefcli.io.quickentry import HEADER_KEYS, _HEADER
    text = source.text
    if text is None or text.lstrip().startswith(("{", "[", "%")):
        return False
    if re.search(r"^format\s*:", text, re.MULTILINE):     # a prefcli YAML document, not notes
        return False
    for line in text.splitlines()[:50]:
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        m = _HEADER.match(body)
        if not (m and m.group(1).strip().lower() in HEADER_KEYS):
            return False          # the first deal line came before any players: header
        if _PLAYERS.match(body):
            return True
    return False


def parse(source: Source) -> Imported:
    from prefcli.io.quickentry import parse_quick_entry
    text = source.text
    if text is None:
        raise InputError([Problem("not UTF-8 text", (), source.name, 1, 1, "syntax")])
    try:
        data = parse_quick_entry(text, source.name, None, None, source.rules_access().seating_for)
    except InputError as exc:   # a problem of the whole file is placed at its start
        raise InputError([p if p.line is not None and p.column is not None else
                          p.at(source.name, p.line or 1, p.column or 1) for p in exc.problems]) from None
    meta = dict(data.get("meta") or {})
    meta["source"] = source_meta("prefcli quick-entry notes", None, source.name)
    data["meta"] = meta
    data = {k: data[k] for k in ("format", "meta", "players", "rules", "first_dealer", "deals") if k in data}
    return Imported("prefcli quick-entry notes", None, [("", data)])


register(Importer("notes", "prefcli quick-entry notes (one deal per line)",
                  "*.txt with a players: header", "record", detect, parse))
