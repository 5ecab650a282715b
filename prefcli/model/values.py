"""How a value from a document is named in a message: as the user wrote it, never as a Python repr.

`show` gives the value in the document's own notation (text in quotes, numbers as written,
lists in brackets, shortened); `type_name` says what kind of value was found where another was
expected ("a list", "the number 5", "nothing (null)").
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, List, Mapping, Sequence

LIMIT = 60


def _plain(value: Any, limit: int) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, Decimal):
        text = str(value) if value.is_finite() else str(value)
        return text
    if isinstance(value, (int, float, Fraction)):
        return str(value)
    if isinstance(value, str):
        return "'" + value + "'"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{k}: {_plain(v, limit)}" for k, v in list(value.items())[:8])
        return "{" + inner + (", …" if len(value) > 8 else "") + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_plain(v, limit) for v in list(value)[:8])
        return "[" + inner + (", …" if len(value) > 8 else "") + "]"
    return str(value)


def display_name(name: str) -> str:
    """A file name as valid text: bytes that are not UTF-8 (`$'\\xff.yaml'`, which Python holds
    as lone surrogates) shown as `\\xff`, the way `ls -b` and the shell's `$'…'` write them; a
    name that is valid text is returned as it is. Every message and document names files so."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        pass
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:          # a surrogate that is not an escaped byte
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def show(value: Any, limit: int = LIMIT) -> str:
    """`value` as the user wrote it (text in quotes), at most `limit` characters."""
    text = _plain(value, limit)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate stays readable
    return text if len(text) <= limit else text[:limit - 1] + "…"


def type_name(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, Decimal, float)):
        return f"the number {show(value)}"
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


def close_names(word: str, names: Iterable[str], n: int = 3) -> List[str]:
    """The valid names closest to a misspelt one (at most `n`, best first; difflib's ratio)."""
    import difflib
    names = list(dict.fromkeys(str(x) for x in names))
    if not isinstance(word, str) or not names:
        return []
    lower = {x.lower(): x for x in names}
    found = difflib.get_close_matches(word.lower(), list(lower), n=n, cutoff=0.6)
    return [lower[f] for f in found]


def did_you_mean(word: str, names: Iterable[str], first: Sequence[str] = ()) -> str:
    """"; did you mean 'a', 'b' or 'c'?" (names in `first` lead), or "" when nothing is close."""
    found = list(dict.fromkeys([*first, *close_names(word, names)]))[:3]
    if not found:
        return ""
    quoted = [f"'{x}'" for x in found]
    return "; did you mean " + (quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]) + "?"
