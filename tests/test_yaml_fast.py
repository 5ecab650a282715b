"""The fast YAML reader (io/yaml_fast.py) reads each line once into what it holds, keeps the
short lines' readings by their text (a record's lines repeat) and splits the text into lines a
part at a time (issue 18). Whatever it accepts must be exactly what the strict libyaml path
reads — the same dicts, lists and scalars, the keys one shared text each — and whatever it is not
sure of goes to the strict path (None). test_loader_fast.py has the subset's own cases; here:
every file the project and ../shared hold, generated records of every preset, made-up edge texts,
and what the caches and the split into parts must never change."""
from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from conftest import BADINPUTS, EXAMPLES, ROOT, SHARED
from prefcli.io import yaml_fast
from prefcli.io.yaml_fast import fast_yaml
from prefcli.io.yaml_strict import check_nesting, compose, construct


def _strict(text: str) -> Any:
    """What the strict path reads, behind the same nesting guard prefcli puts before it: a
    recursive composer must never see absurd nesting (one of ../shared/badinputs overflows the C
    stack of Python 3.9's composer without it)."""
    if check_nesting(text) is not None:
        raise ValueError("nesting refused before parsing")
    return construct(compose(text))


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down, the same key order, and the same digits of
    each Decimal (1.50 is not 1.5 here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b and str(a) == str(b)


def _fresh_caches() -> None:
    yaml_fast._FAST_SCALARS.clear()
    yaml_fast._FAST_KEYS.clear()
    yaml_fast._FAST_LINES.clear()


def _agrees(text: str) -> bool:
    """True when the fast reader read `text` (and then read it as libyaml does), False when it
    left it to the strict path. Read twice: with empty caches and with warm ones."""
    _fresh_caches()
    cold = fast_yaml(text)
    warm = fast_yaml(text)
    assert (cold is None) == (warm is None)
    if cold is None:
        return False
    strict = _strict(text)
    assert _same(cold, strict), text[:500]
    assert _same(warm, strict), text[:500]
    return True


def _texts(folder: Path) -> Iterator[Tuple[str, str]]:
    for p in sorted(folder.rglob("*")):
        if p.is_file() and p.suffix.lower() in (".yaml", ".yml", ".json", ".txt", ""):
            try:
                yield str(p.relative_to(folder)), p.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue


def _generated() -> List[Tuple[str, str]]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import dump, generate
    from prefcli.rules.presets import preset_names
    out = []
    for variant in preset_names():
        for players in (3, 4):
            for full in (False, True):
                try:
                    data = generate(20, full=full, players=players, variant=variant, seed=18)
                except Exception:  # noqa: BLE001 - a preset the generator cannot play at this table
                    continue
                out.append((f"{variant}-{players}p-{'full' if full else 'summary'}", dump(data, False)))
    return out


def test_every_example_and_fixture_reads_as_libyaml_reads_it() -> None:
    read = 0
    for folder in (EXAMPLES, ROOT / "tests"):
        for name, text in _texts(folder):
            if name.endswith(".json"):
                continue
            try:
                read += _agrees(text)
            except Exception as exc:  # a text libyaml refuses must have been declined
                if fast_yaml(text) is not None:
                    raise AssertionError(f"{name}: read fast, refused by libyaml ({exc})") from None
    assert read >= 20   # the examples are in the subset (comments after values included)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared is not beside the checkout")
def test_every_shared_sample_and_bad_input_reads_as_libyaml_reads_it_or_is_declined() -> None:
    for folder in (SHARED / "samples", BADINPUTS):
        for name, text in _texts(folder):
            try:
                _strict(text)
            except Exception:  # noqa: BLE001 - refused by libyaml: must be declined here
                _fresh_caches()
                assert fast_yaml(text) is None, name
                continue
            _agrees(text)


def test_generated_records_of_every_preset_are_read_fast_and_the_same() -> None:
    made = _generated()
    assert len(made) >= 8
    for name, text in made:
        assert _agrees(text), name


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 1000])
def test_the_split_into_parts_never_changes_what_is_read(monkeypatch, chunk: int) -> None:
    """The lines come a part of the text at a time: wherever the parts end (even inside a flow
    collection broken over lines, or between a comment and its line), the same data."""
    text = dict(_generated())["sochi-3p-full"]
    text = text.replace("deals:\n", "# the deals\n\ndeals:  # all of them\n", 1)
    text += "end: [a,\n  b,\n  c]\n"
    whole = fast_yaml(text)
    assert whole is not None
    monkeypatch.setattr(yaml_fast, "_FAST_CHUNK", chunk)
    _fresh_caches()
    assert _same(fast_yaml(text), whole)
    assert _same(fast_yaml(text), whole)


EDGES = [
    # empty flow collections, alone, nested and as items
    "a: []\nb: {}\nc: [[], {}]\nd: {e: [], f: {}}\ng:\n- []\n- {}\n- - []\n",
    # nested blocks, indented by 2, 3 and 4, and back out
    "a:\n  b:\n    c:\n      d: 1\n    e: 2\n  f: 3\ng: 4\n",
    "a:\n   b:\n      c: x\n   d: y\ne:\n    f: z\n",
    # comments after values, on their own lines, at every depth, after `key:` and `-`
    "a: 1  # one\nb:  # below\n  c: [x, y]   # two\n  # between\n  d: {e: f}  #\n",
    "k:\n- # none\n- 1 # one\n-   # also none\n  # inside\n- [a, b] # list\n",
    # '- ' lists of mappings at every depth, indented and not
    "deals:\n- a: 1\n  b: 2\n- c: 3\n",
    "deals:\n  - a: 1\n    b: [x, y]\n  - c: {d: 1}\n",
    "l:\n- - a: 1\n    b: 2\n  - c: 3\n- - - d: 4\n      e: 5\n",
    "m:\n  n:\n  - o:\n    - p: 1\n      q:\n      - r: 2\n        s: 3\n    t: 4\n",
    "x:\n-\n  a: 1\n  b: 2\n-\n  - 1\n  - 2\n",
    # keys that look like numbers, booleans, nulls: text as written
    "1: a\n007: b\n-5: c\n1.50: d\ntrue: e\nFalse: f\nnull: g\nyes: h\n1e5: i\n",
    "t: {1: a, 2.0: b, true: c, null: d}\n",
    # values that are numbers, booleans, nulls, and text that only looks like them
    "a: [1, 007, -5, +3, 1.50, .5, 1e5, 1.0e5, true, False, NULL, yes, off, 0x1F, 1_000, 40/3]\n",
    "b: {x: 1.50, y: -0, z: null}\nc: 10\nd: -1.5e-3\n",
    # the same flow line twice: two lists, two dicts
    "a: [x, y]\nb: [x, y]\nc: {p: 1}\nd: {p: 1}\n",
    # a flow collection broken over lines, nested
    "d:\n  auction: [6S, pass,\n    6C, here,\n\n    6D]  # long\n  k: {a: 1,\n      b: [x,\n        y]}\n",
    # long lines (not kept in the cache of lines) beside short ones with the same keys
    "h: {Ann: " + " ".join(["AS"] * 40) + ", Bob: x}\ni: {Ann: y, Bob: z}\n",
    "p: [" + ", ".join(["JH KH 8H"] * 20) + "]\nq: [JH KH 8H]\nr: [" + ", ".join(["1"] * 60) + "]\n",
    # a sequence of scalars after an indentless sequence, then more keys
    "a:\n- x\n- y\nb:\n  - z\nc: 1\n",
]


@pytest.mark.parametrize("text", EDGES)
def test_made_up_edge_texts_are_read_fast_and_the_same(text: str) -> None:
    assert _agrees(text)


REFUSED = [
    "a: 1\na: 2\n", "a:\n  b: 1\n  b: 2\n", "a: {x: 1, x: 2}\n", "deals:\n- a: 1\n  a: 1\n",
    "a: {x: 1, y: 2, x: 3}\n",
    # odd indentation
    "a:\n    b: 1\n  c: 2\n", "a: 1\n b: 2\n", "a:\n  - x\n - y\n", "a:\n- x\n  - y\n",
    "- a: 1\n   b: 2\n", "deals:\n- a: 1\n    b: 2\n", "k:\n  a: 1\n   b: 2\n",
    # a flow collection where only a scalar may stand, or not closed
    "a: [x, [y]\n", "a: {b: [c}\n", "a: [x]]\n",
    # too large a number in a flow collection, and in a key's value
    "a: [1, " + "9" * 50 + "]\n", "a: {b: " + "9" * 50 + "}\n",
    # a key too long in a flow mapping
    "a: {" + "k" * 201 + ": 1}\n",
]


@pytest.mark.parametrize("text", REFUSED)
def test_what_the_fast_reader_must_not_read_goes_to_the_strict_path(text: str) -> None:
    _fresh_caches()
    assert fast_yaml(text) is None
    assert fast_yaml(text) is None   # and again, with its lines cached


def test_two_equal_flow_lines_give_two_fresh_collections() -> None:
    """A kept line's collection is copied for each use: changing one deal's data (the callers may)
    changes no other deal's, nor what the same text reads as later."""
    text = "deals:\n" + "- whist: {Bob: pass, Cid: whist}\n  auction: [pass, 6S]\n" * 3
    first = fast_yaml(text)
    deals = first["deals"]
    assert deals[0]["whist"] is not deals[1]["whist"] and deals[0]["auction"] is not deals[2]["auction"]
    deals[0]["whist"]["Bob"] = "changed"
    deals[1]["auction"].append("here")
    again = fast_yaml(text)
    assert again["deals"] == [{"whist": {"Bob": "pass", "Cid": "whist"}, "auction": ["pass", "6S"]}] * 3
    assert deals[2] == again["deals"][2]


def test_a_key_is_one_text_in_kept_and_long_lines_alike() -> None:
    long_hand = " ".join(["AS"] * 40)
    text = f"a: {{Ann: {long_hand}, Bob: x}}\nb: {{Ann: 1, Bob: 2}}\nAnn: 3\nc:\n  Ann: [x]\n"
    data = fast_yaml(text)
    names = [next(iter(data["a"])), next(iter(data["b"])), next(k for k in data if k == "Ann"),
             next(iter(data["c"]))]
    assert all(n is names[0] for n in names)


def test_the_cache_of_lines_is_bounded_and_keeps_no_long_line() -> None:
    _fresh_caches()
    text = "deals:\n" + "".join(f"- n: {i}\n  h: [{' '.join(['AS'] * 40)} {i}]\n" for i in range(9000))
    data = fast_yaml(text)
    assert data is not None and len(data["deals"]) == 9000 and data["deals"][8999]["n"] == 8999
    assert len(yaml_fast._FAST_LINES) <= yaml_fast._FAST_MAX_LINES
    assert all(len(line) <= yaml_fast._FAST_MAX_LINE for line in yaml_fast._FAST_LINES)
    fast_yaml("a: 1\n")                  # a full cache is emptied before the next document
    assert len(yaml_fast._FAST_LINES) < 10
    _fresh_caches()


def _nested_mappings(levels: int, leaf: str) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(levels - 1)) + "  " * (levels - 1) + f"k{levels - 1}: {leaf}\n"


def _nested_sequences(levels: int, leaf: str) -> str:
    return "a:\n  " + "- " * levels + leaf + "\n"


@pytest.mark.parametrize("make, leaf, deepest", [
    (_nested_mappings, "x", 33), (_nested_mappings, "[x, y]", 32), (_nested_mappings, "{a: 1}", 32),
    (_nested_mappings, "[[x]]", 31), (_nested_mappings, "[]", 32),
    (_nested_sequences, "x", 31), (_nested_sequences, "[x, y]", 31), (_nested_sequences, "[[x]]", 30),
])
def test_the_depth_bound_is_where_it_was(make, leaf: str, deepest: int) -> None:
    """The deepest nesting read fast, as before the lines were cached (deeper goes to libyaml,
    which has its own bound)."""
    assert fast_yaml(make(deepest, leaf)) is not None
    assert _agrees(make(deepest, leaf))
    assert fast_yaml(make(deepest + 1, leaf)) is None


def test_numbers_and_text_with_spaces_in_flow_collections() -> None:
    """Items with a space are text (no number, boolean or null has one) and are not kept in the
    cache of scalars; the others resolve as libyaml's path does."""
    data = fast_yaml("a: [1 2, 1.50, JH KH, null, x y z]\nb: {p: 7 S, q: 007}\n")
    assert data == {"a": ["1 2", Decimal("1.50"), "JH KH", None, "x y z"], "b": {"p": "7 S", "q": "007"}}
    assert str(data["a"][1]) == "1.50"
    assert "JH KH" not in yaml_fast._FAST_SCALARS


_REFUSED_CHARS = [chr(c) for c in range(0x20) if c != 0x0A] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)] + \
    ["\u2028", "\u2029", "\ufeff"]


@pytest.mark.parametrize("ch", _REFUSED_CHARS)
def test_a_control_character_or_a_line_break_libyaml_sees_is_refused_in_any_line(ch: str) -> None:
    """Each line is looked at the first time it is read; a line read before (kept by its text)
    differs from one holding the character, so it is looked at too."""
    fast_yaml("a: 1\nb: x # c\n# d\n")          # the lines without the character, kept
    for text in (f"a: 1\nb: x # c{ch}\n", f"a: 1\n# d{ch}\nb: 2\n", f"a: 1{ch}\n", f"a: 1\n  {ch}\n",
                 f"a: 1\nb: 2\n{ch}", f"{ch}a: 1\n"):
        assert fast_yaml(text) is None, repr(text)


@pytest.mark.parametrize("ch", ["\xa0", "\xad", "\u200b", "\u3000", "\ue000", "é", "♠"])
def test_other_characters_outside_ascii_are_still_read_in_comments(ch: str) -> None:
    assert _agrees(f"a: 1  # {ch}\n# {ch}{ch}\nb: [x, y]\n")
    assert fast_yaml(f"a: x{ch}\n") is None     # but not in data


def test_a_text_left_to_the_strict_path_at_a_line_reads_nothing_after_it() -> None:
    """A folder of records the fast reader declines at a line (a quoted date), each with its own
    players below it: the lines after the one it stopped at are not read, so a batch of them
    leaves nothing in the caches per input (tests/test_hostile_regressions.py)."""
    _fresh_caches()
    bad_lines = ("meta: {event: club, date: '2026-11-28'}", "meta: 'x'", "meta: {a: 1, a: 2}", "meta: [x, [y, 'z']]")
    for bad in bad_lines:
        assert fast_yaml(f"format: pref-record/1\n{bad}\n") is None
    caches = (yaml_fast._FAST_SCALARS, yaml_fast._FAST_KEYS, yaml_fast._FAST_LINES)
    sizes = [len(c) for c in caches]
    for i in range(5):
        for bad in bad_lines:
            text = f"format: pref-record/1\n{bad}\nplayers: [Zed{i}, Yan{i}]\nx{i}: {{Zed{i}: 1}}\n"
            assert fast_yaml(text) is None
    assert [len(c) for c in caches] == sizes
    assert not any("Zed" in line for line in yaml_fast._FAST_LINES) and "Zed0" not in yaml_fast._FAST_SCALARS


# A long line of words (a deal's hands, its play) is read by words_line, without the general
# steps (classify, classify_body, flat): whatever it accepts must be what the general path reads
# of the same line, and libyaml of it as a document.

_HAND = "AS QS JS 8S 10C 9C 8D 7D JH 9H"
_WORDS_LINES = [
    "  hands: {Bob: " + _HAND + ", Cid: KS 7S QC JC 8C KD QD 10D KH QH, Ann: 10S 9S AC KC AD JD AH 10H 8H 7H}",
    "  play: [JH KH 8H, JC 7C 10C, QH 10H 9H, 8C AC 9C, 9D 7D KD, QC KC 8D, JD JS 10D, 7H QS QD, AH AS 7S, AD 8S KS]",
    "hands: {Bob: " + _HAND + ", Cid: " + _HAND + ", Ann: " + _HAND + ", Dan: " + _HAND + "}",   # four
    "    h: {Bob: " + _HAND + ", Cid: " + _HAND + "}",                                           # two
    "  play: [" + ", ".join(["JH KH 8H"] * 12) + ", 7, pass, true, 007, 0x1F, null, JH]",       # resolved items
    "  hands: {Bob: " + _HAND + ", Cid: 7, Ann: " + _HAND + " " + _HAND + "}",                   # a value resolved
    "  hands: {Bob: " + _HAND + ", Cid: " + _HAND + ", Bob: " + _HAND + "}",                     # a duplicate key
    "  k: {" + "n" * 201 + ": " + _HAND + ", Cid: " + _HAND + ", Ann: " + _HAND + "}",          # too long a key
    "  k: [" + ", ".join(["1"] * 30) + ", " + "9" * 60 + "]",                                   # too large a number
]
# what may stand where a line of words has a mark, and what must never be read there
_MARKS = [" ", "  ", ",", ", ", ":", ": ", "[", "]", "{", "}", "#", " #", "-", ".", "'", '"', "\t", "é", "a", "1"]


def _mutations(line: str, rng: Any) -> Iterator[str]:
    """`line` with one mark put in, taken out or swapped, at random places (half of them at or
    beside one of its own marks, where a wrong reading would be)."""
    near = [i + d for i, ch in enumerate(line) if not ch.isalnum() for d in (-1, 0, 1)]
    for at in sorted(set(near)):
        for mark in (" ", ",", ":"):
            yield line[:at] + mark + line[at:]
    for n in range(300):
        at = rng.choice(near) if n % 2 else rng.randrange(len(line) + 1)
        mark = rng.choice(_MARKS)
        yield line[:at] + mark + line[at:]
        yield line[:at] + line[at + 1:]
        yield line[:at] + mark + line[at + 1:]


def _general(raw: str, monkeypatch) -> Any:
    """What the general path reads of `raw` (words_line switched off), with fresh caches."""
    with monkeypatch.context() as m:
        m.setattr(yaml_fast._FastReader, "words_line", lambda self, raw: None)
        reader = yaml_fast._FastReader("a: 1\n", {}, {}, {})
        try:
            return reader.classify(raw)
        except yaml_fast._NotFast:
            return "refused"


def test_a_line_of_words_reads_as_the_general_path_reads_it(monkeypatch) -> None:
    import random
    rng = random.Random(18)
    read = declined = 0
    for line in _WORDS_LINES:
        for raw in [line, *_mutations(line, rng)]:
            if len(raw) <= yaml_fast._FAST_MAX_LINE or "\n" in raw:
                continue
            reader = yaml_fast._FastReader("a: 1\n", {}, {}, {})
            try:
                fast = reader.words_line(raw)
            except yaml_fast._NotFast:
                raise AssertionError(f"words_line refused rather than declined: {raw!r}") from None
            general = _general(raw, monkeypatch)
            if fast is None:
                declined += 1
                continue
            read += 1
            assert general != "refused" and general[1] == yaml_fast._OWN, raw
            assert fast[0] == general[0] and fast[2] == general[2] and fast[4] == general[4], raw
            assert _same(fast[3], general[3]), raw
            key = fast[2]
            assert reader.keys[key] is key and all(reader.keys[k] is k for k in fast[3] if isinstance(fast[3], dict))
            strict = _strict(raw.lstrip(" ") + "\n")
            assert _same({key: fast[3]}, strict), raw
    assert read >= 200 and declined >= 200   # both sides of the line were tried


def test_the_lines_of_words_the_general_path_refuses_are_declined() -> None:
    """A duplicate key, too long a key, too large a number: left to the general path, which
    judges them (`_BAD`: the whole text goes to libyaml) as before."""
    for line in _WORDS_LINES[-3:]:
        assert yaml_fast._FastReader("a: 1\n", {}, {}, {}).words_line(line) is None
        _fresh_caches()
        assert fast_yaml("deals:\n- x: 1\n" + line + "\n") is None   # the line in a deal


def test_full_records_read_the_same_with_and_without_the_lines_of_words(monkeypatch) -> None:
    for name, text in _generated():
        if "full" not in name:
            continue
        _fresh_caches()
        fast = fast_yaml(text)
        with monkeypatch.context() as m:
            m.setattr(yaml_fast._FastReader, "words_line", lambda self, raw: None)
            _fresh_caches()
            general = fast_yaml(text)
        assert fast is not None and _same(fast, general), name
