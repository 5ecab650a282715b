"""How a value from a document is named in a message: as the user wrote it, never as a Python repr.

`show` gives the value in the document's own notation (text in quotes, numbers as written,
lists in brackets, shortened); `type_name` says what kind of value was found where another was
expected ("a list", "the number 5", "nothing (null)").
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, Iterable, List, Mapping, Sequence

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


#: control characters in a file name, shown escaped: a newline in a name split a message's
#: `file:line:col` over two lines, and scripts read those line by line
_CONTROL_IN_NAME = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7f)}


def display_name(name: str) -> str:
    """A file name as valid text on one line: bytes that are not UTF-8 (`$'\\xff.yaml'`, which
    Python holds as lone surrogates) and control characters (`$'a\\nb.yaml'`) shown as `\\xff`
    and `\\x0a`, the way `ls -b` and the shell's `$'…'` write them; any other name is returned as
    it is. Every message and document names files so."""
    if not name.isprintable():
        name = name.translate(_CONTROL_IN_NAME)
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


def not_seated(name: str, players: Sequence[str]) -> str:
    """The one message for a name that is not a seated player, wherever a record names one.

    Where the name looks like a seated one (another letter case; the same letters composed
    otherwise, as ``Е`` + U+0308 for ``Ё``; an invisible character such as a zero-width space),
    the message says so and shows the code points: printed, the two look the same, and a
    message that listed the name among the players would read as nonsense."""
    text = f"'{name}' is not seated at this table (players: {', '.join(players)})"
    for p in players:
        if name.casefold() == p.casefold():
            return f"{text}: it differs from the seated '{p}' only in letter case, and names are exact"
        if printed_form(name) == printed_form(p):
            return (f"{text}: it looks like the seated '{p}' but is written with other characters "
                    f"({code_points(name)}, not {code_points(p)}): write it as in players")
    return text


#: Cyrillic and Greek letters drawn as a Latin one (UTS #39's confusables among the scripts of
#: the game's players): "Аnn" typed with a Cyrillic А on a Russian keyboard prints as "Ann"
_SAME_GLYPH = str.maketrans(
    "АВЕКМНОРСТХЅІЈаеорсхуѕіјԁһԛԝ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧον",
    "ABEKMHOPCTXSIJaeopcxysijdhqw" "ABEZHIKMNOPTYXov")


def printed_form(name: str) -> str:
    """What a name looks like printed, so two names of one form cannot be told apart on a sheet:
    compatibility-composed, without invisible format characters (zero-width space, joiners,
    direction marks) or surrounding blanks, and with a Cyrillic or Greek letter that is drawn
    as a Latin one read as that letter."""
    import unicodedata
    text = "".join(c for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c) != "Cf").strip()
    return text.translate(_SAME_GLYPH)


def code_points(name: str) -> str:
    """`U+0415 U+0308 …`: the characters of a name (its first twelve), as a message shows them."""
    cps = [f"U+{ord(c):04X}" for c in name[:12]]
    return " ".join(cps) + (" …" if len(name) > 12 else "")


def lookalike_notes(names: Iterable[str]) -> List[str]:
    """A note for each set of names in a batch that print the same but are different strings.

    One table refuses such names (``rules.table.table_for``); across the inputs of a season or a
    tournament they are two players whose sums no one can tell apart on the page, so the batch
    says so instead of counting them apart in silence (a record may be right to keep them apart)."""
    forms: Dict[str, List[str]] = {}
    for n in names:
        forms.setdefault(printed_form(n), []).append(n)
    out = []
    for same in forms.values():
        if len(same) > 1:
            each = [f"'{n}' ({code_points(n)})" for n in sorted(same)]
            shown = ", ".join(each[:-1]) + " and " + each[-1]
            out.append(f"{shown} look the same printed but are different names, counted as different "
                       "players: write a player's name the same way in every input")
    return out
