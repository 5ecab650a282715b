"""Text and attribute values in SVG: ``xml.sax.saxutils``' ``escape`` and ``quoteattr``, the same
functions (the same replacements, in the same order, the same choice of quotes).

Why not import them: ``xml.sax.saxutils`` imports ``urllib.request`` (and with it http.client,
email, tempfile, hashlib …) for its XML writer, 14 ms of CPU at the start of every ``draw``,
``stats`` and ``report`` for two functions of a few lines (tests/test_xml_text.py compares them with
the standard library's on every kind of text).
"""
from __future__ import annotations

from typing import Mapping


def escape(data: str, entities: Mapping[str, str] = {}) -> str:   # noqa: B006 - read, never changed
    """Escape &, < and > in `data` (then each key of `entities` by its value)."""
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
