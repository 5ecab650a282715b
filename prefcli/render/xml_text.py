"""Text and attribute values in SVG: ``xml.sax.saxutils``' ``escape`` and ``quoteattr``, the same
functions (the same replacements, in the same order, the same choice of quotes), but for the
characters XML cannot hold, which these write as visible escapes; and ``html_escape``, the
report page's ``html.escape`` with the same visible escapes.

Why not import them: ``xml.sax.saxutils`` imports ``urllib.request`` (and with it http.client,
email, tempfile, hashlib …) for its XML writer, 14 ms of CPU at the start of every ``draw``,
``stats`` and ``report`` for two functions of a few lines (tests/test_xml_text.py compares them with
the standard library's on every kind of text).
"""
from __future__ import annotations

import re
from typing import Mapping

#: characters a page has no place for: HTML's parse errors among the characters (the controls
#: but tab, newline, form feed and carriage return; DEL and the C1 controls; lone surrogates; the
#: noncharacters U+FDD0-U+FDEF, U+FFFE and U+FFFF). A browser keeps them, invisible or as boxes,
#: and a name or a note that holds one showed nothing of it; it is written as the text \x1b, as
#: on a terminal.
_HIDDEN = "\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
_NOT_HTML = re.compile(f"[{_HIDDEN}]")
#: ... and for SVG the form feed too, which XML 1.0 cannot hold, not even as a reference (&#12;
#: is as ill-formed as the character): a drawing that held one was unreadable (a browser shows
#: its parse error instead of the sheet)
_NOT_XML = re.compile(f"[{_HIDDEN}\x0c]")


def _shown(m: "re.Match[str]") -> str:
    return f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"


def html_escape(data: str, quote: bool = True) -> str:
    """``html.escape`` for the report's page, with what HTML cannot hold written as \\x1b, as
    in the SVG beside it and on a terminal (the standard library's passes it through)."""
    from html import escape as _escape
    if _NOT_HTML.search(data):
        data = _NOT_HTML.sub(_shown, data)
    return _escape(data, quote)


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
