"""Text and attribute values in SVG: ``xml.sax.saxutils``' ``escape`` and ``quoteattr``, the same
functions (the same replacements, in the same order, the same choice of quotes), but for the
characters XML cannot hold, which these write as visible escapes.

Why not import them: ``xml.sax.saxutils`` imports ``urllib.request`` (and with it http.client,
email, tempfile, hashlib …) for its XML writer, 14 ms of CPU at the start of every ``draw``,
``stats`` and ``report`` for two functions of a few lines (tests/test_xml_text.py compares them with
the standard library's on every kind of text).
"""
from __future__ import annotations

import re
from typing import Mapping

#: characters XML 1.0 has no place for, not even as a reference (&#27; is as ill-formed as the
#: character): control characters but tab, newline and carriage return, lone surrogates,
#: U+FFFE and U+FFFF. A name or a note that holds one made the whole drawing unreadable (a
#: browser shows its parse error instead); it is written as the text \x1b, as on a terminal.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _shown(m: "re.Match[str]") -> str:
    return f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"


def escape(data: str, entities: Mapping[str, str] = {}) -> str:   # noqa: B006 - read, never changed
    """Escape &, < and > in `data` (then each key of `entities` by its value); a character XML
    cannot hold is written as its escape (the standard library's leaves it, ill-formed)."""
    if _NOT_XML.search(data):
        data = _NOT_XML.sub(_shown, data)
    data = data.replace("&", "&amp;")          # the ampersand first
    data = data.replace(">", "&gt;")
    data = data.replace("<", "&lt;")
    for key, value in entities.items():
        data = data.replace(key, value)
    return data


def quoteattr(data: str, entities: Mapping[str, str] = {}) -> str:   # noqa: B006
    """`data` escaped and quoted as an attribute value ('"' escaped only when it must be)."""
    data = escape(data, {**entities, "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
    if '"' in data:
        if "'" in data:
            return '"%s"' % data.replace('"', "&quot;")
        return "'%s'" % data
    return '"%s"' % data
