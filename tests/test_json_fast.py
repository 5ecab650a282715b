"""The JSON read path's fast steps give the answers of the slow steps they stand in for (issue 18).

Each fast step is checked against the step it skips, on texts built to reach every branch: the
bracket count before parsing (yaml_strict.check_nesting against its bracket-by-bracket walk), the
brackets kept by the decoder's pass that looks for control characters (against the ones the
nesting check makes itself), and the long digit runs looked for in every eighth character first
(against the look at every character).
"""
from __future__ import annotations

import random

from prefcli.io.yaml_strict import MAX_DEPTH, _nesting_walk, check_nesting


def test_nesting_check_gives_the_walks_answer():
    rnd = random.Random(18)
    limit = MAX_DEPTH * 4
    texts = ["", "{}", "[", "]", "]]][[[", "{" * limit, "{" * (limit + 1), "[" * limit + "]" + "[",
             "]" * 5 + "[" * (limit + 1), "]" * 5 + "[" * limit, "a: [1, {b: 2}]\n", "\"[[[\" ]]]",
             "é[ß{♥}]", "x" * 10 + "\n" + "[" * (limit + 3), "[\ud800]"]
    for _ in range(400):
        n = rnd.choice([5, 50, limit - 2, limit + 2, 2 * limit])
        bias = rnd.random()
        texts.append("".join(rnd.choice("[{" if rnd.random() < bias else "]}") + rnd.choice(["", "x", "\n", "é", " "])
                             for _ in range(n)))
    for text in texts:
        assert check_nesting(text) == _nesting_walk(text), repr(text[:80])
    assert check_nesting("[" * (limit + 1)) == (1, limit + 1)
    assert check_nesting("]]" + "[" * (limit + 1)) == (1, limit + 3)


def _old_json(text: str):
    """The JSON parse as it was: every integer through _json_int, objects built key by key."""
    import json
    from prefcli.io import parsing as P

    def pairs(items):
        out = {}
        for k, v in items:
            if k in out:
                raise P._JsonDuplicate(k)
            out[k] = v
        return out
    return json.loads(text, object_pairs_hook=pairs, parse_float=P._json_float, parse_int=P._json_int,
                      parse_constant=P._json_constant)


def _outcome(fn, *args):
    from prefcli.model.diagnostics import InputError
    try:
        got = fn(*args)
    except InputError as exc:
        return "error", [(p.message, p.line, p.column) for p in exc.problems]
    except Exception as exc:  # noqa: BLE001 - the old parse's own exceptions, by kind and words
        return "raised", type(exc).__name__, str(exc)
    return "ok", getattr(got, "data", got)


def test_json_numbers_and_keys_read_as_before():
    from prefcli.io.parsing import _parse_text
    n40, n41 = "1" * 40, "1" * 41
    texts = ['{"a": 1, "b": -2, "c": [0, 10, -0]}', f'{{"a": {n40}}}', f'{{"a": -{n40}}}', f'{{"a": {n41}}}',
             f'{{"a": "{n41}", "b": 3}}', f'{{"a": [1, {n41}]}}', '{"a": 1.5, "b": 2}', '{"a": NaN}',
             '{"a": 1, "a": 2}', '{"a": {"b": 1, "c": 2, "b": 3}}', '{"a": 1, "b": {"a": 2}}',
             '{"x": [{"k": 1}, {"k": 2, "k": 3}]}', '{"a": 1e400}', '{"a": 12345678901234567890}']
    for text in texts:
        new = _outcome(_parse_text, "t.json", text, True)
        try:
            old = ("ok", _old_json(text))
        except Exception:  # noqa: BLE001 - refused: the new parse refuses it too, with its words
            old = None
        if old is None:
            assert new[0] == "error", text
        else:
            assert new == old, text
            assert [type(v) for v in _walk(new[1])] == [type(v) for v in _walk(old[1])], text
    assert _outcome(_parse_text, "t.json", '{"a": {"b": 1, "c": 2, "b": 3}}', True)[1][0][0] == \
        "duplicate key 'b' (each key may appear once in an object)"
    assert "digits" in _outcome(_parse_text, "t.json", f'{{"a": {n41}}}', True)[1][0][0]


def _walk(x):
    yield x
    if isinstance(x, dict):
        for v in x.values():
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def test_control_characters_refused_where_they_are_as_before():
    import re
    from prefcli.io.parsing import decode_text
    controls = [chr(c) for c in range(32) if c not in (9, 10, 13)] + ["\x7f"]
    for c in controls + ["", "\t", "é", "\u2028", "\x85"]:
        for raw in ((f"a: 1\nb: x{c}y\n").encode("utf-8"), ("\ufeff" + f"a{c}").encode("utf-8"),
                    ("é" * 3 + c).encode("utf-8"), (f"a{c}").encode("utf-16")):
            got = _outcome(decode_text, "f.yaml", raw)
            text = raw.decode("utf-16") if raw.startswith(b"\xff\xfe") else raw.decode("utf-8").lstrip("\ufeff")
            bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", text)
            if bad is None:
                assert got == ("ok", text), repr(raw)
            else:
                assert got[0] == "error" and got[1][0][1:] == (text.count("\n", 0, bad.start()) + 1,
                                                                bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1), repr(raw)


def _nesting_texts():
    rnd = random.Random(18)
    limit = MAX_DEPTH * 4
    yield from ["", "{}", "[", "]", "{" * (limit + 1), "]" * 5 + "[" * (limit + 1), '{"a": [1, {"b": 2}]}',
                '{"a": "[[["}', "\ufeff{}", "é[ß{♥}]", '{"a": 1, "a": 2}', '{"a": "x\x01"}', "[\x7f]",
                '{"a": 1e400}']
    for _ in range(300):
        n = rnd.choice([5, 50, limit + 2, 2 * limit])
        pieces = ["[", "{", "]", "}", "", "x", "\n", "é", " ", "1"] + (["\x00", "\x1f"] if rnd.random() < 0.3 else [])
        yield "".join(rnd.choice(pieces) for _ in range(n))
    for depth in (1, 12, 13, limit, limit + 1):
        yield '{"a": ' * depth + "1" + "}" * depth
        yield '{"deals": [' + "[" * depth + "]" * depth + "]}"


def test_the_decoders_brackets_are_the_nesting_checks_own_and_its_refusals_the_same():
    """decode_marked's marks: the brackets as check_nesting takes them and the colons, in the
    order written; the parse given them answers as the parse that finds them itself."""
    from prefcli.io.parsing import _parse_text, decode_marked, decode_text
    from prefcli.io.yaml_strict import _AS_PARENS
    keep = bytes(b for b in range(256) if b not in b"[]{}:")
    seen = 0
    texts = list(_nesting_texts()) + [t.replace(", ", ": ", 1) for t in _nesting_texts()] + _COUNTED_TEXTS
    for text in texts:
        for raw in (text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16")):
            plain = _outcome(decode_text, "f.json", raw)
            marked = _outcome(decode_marked, "f.json", raw, True)
            if plain[0] != "ok":
                assert marked == plain, repr(raw[:80])
                continue
            utf8 = not raw.startswith(b"\xff\xfe")
            marks = plain[1].encode("utf-8").translate(_AS_PARENS, keep) if utf8 else None
            assert marked == ("ok", (plain[1], marks)), repr(raw[:80])
            assert decode_marked("f.json", raw, False) == (plain[1], None)
            if marks is not None:   # the parse with them gives what the parse without them gives
                seen += 1
                assert _outcome(_parse_text, "t.json", plain[1], True, marks) == \
                    _outcome(_parse_text, "t.json", plain[1], True), repr(raw[:80])
    assert seen > 100


def test_long_digit_runs_found_from_every_eighth_character_as_from_every_one():
    from prefcli.io import parsing
    from prefcli.model.numbers import MAX_DIGITS
    rnd = random.Random(41)
    found = {True: 0, False: 0}
    for _ in range(3000):
        parts = []
        for _ in range(rnd.randint(0, 6)):
            parts.append(rnd.choice(["x", " ", "é", '"', "\n", "♥", "10S 9S 8C"]) * rnd.randint(0, 9))
            parts.append("7" * rnd.choice([0, 1, 5, 20, MAX_DIGITS - 1, MAX_DIGITS, MAX_DIGITS + 1, 60]))
        text = "".join(parts)
        want = "0" * (MAX_DIGITS + 1) in text.encode("utf-8").translate(parsing._DIGITS_AS_ZERO).decode("latin-1")
        assert parsing._long_digit_run(text) is want, repr(text[:80])
        found[want] += 1
    assert min(found.values()) > 300
    # a record's digits (cards, trick counts) never make the sample look further
    import json
    import sys
    from conftest import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import generate
    for full, players in ((True, 3), (True, 4), (False, 3)):
        text = json.dumps(generate(300, full=full, players=players, variant="sochi", seed=18), indent=1)
        sample = text[::parsing._STRIDE].encode("utf-8").translate(parsing._DIGITS_AS_ZERO)
        assert b"0" * ((MAX_DIGITS + 1) // parsing._STRIDE) not in sample


def _pairs_parse(text: str):
    """The parse with _json_pairs alone (how every JSON document was read before the counted one)."""
    import json
    from prefcli.io import parsing as P
    return json.loads(text, object_pairs_hook=P._json_pairs, parse_float=P._json_float,
                      parse_constant=P._json_constant)


# texts whose duplicate keys hide behind colons in texts, escapes that spell a colon, a refusal
# after the duplicate, or nesting; and texts with colons and no duplicate
_COUNTED_TEXTS = [
    '{"a": 1, "a": 2}', '{"a": "x:y", "b": 1}', '{"a:": 1, "b": {"c": "::"}}', '{"a": "x:y", "a": 2}',
    '{"a": "\\u003a", "b": 1}', '{"a": "\\u003a", "b": 1, "b": 2}', '{"a": "\\u003A:", "b": [1, {"c": 1, "c": 2}]}',
    '{"a": 1, "a": 2, "b": }', '{"a": 1, "a": 2, "b": NaN}', '{"a": [1, 2, {"k": "t:", "k": "u"}]}',
    '"a:b"', '[":", ":"]', '[{"a": ":", "b": 1}, {}]', '{}', '{"": 1, "": 2}', '{"a": [], "b": {}}',
    '{"x": {"y": {"z": "1:2:3"}}, "w": ":"}', '{"a": "b\\":", "c": 1}', '{"a": "b\\\\", "c": 1, "c": 2}',
]


def test_the_counted_parse_finds_every_key_written_twice_and_refuses_as_the_pairs_parse():
    """The parse that counts its objects' sizes (io/parsing._json_counted) reads every text as
    the parse with _json_pairs does, and sends every one with a key twice, or refused, to it."""
    import json
    from prefcli.io.parsing import _ONE_MORE_LOOK, _json_counted, _parse_text
    for text in _COUNTED_TEXTS:
        try:
            old = ("ok", _pairs_parse(text))
        except Exception as exc:  # noqa: BLE001 - a duplicate, a refusal
            old = ("raised", type(exc).__name__)
        got = _json_counted(json, text, None)
        if old[0] == "ok":
            assert got is not _ONE_MORE_LOOK and got == old[1], text
        else:
            assert got is _ONE_MORE_LOOK, text
        new = _outcome(_parse_text, "t.json", text, True)
        assert (new[0] == "ok") == (old[0] == "ok"), text
        if old[1:] == ("_JsonDuplicate",):
            assert "duplicate key" in new[1][0][0], text


def test_the_counted_parse_on_generated_objects_with_and_without_a_key_twice():
    import json
    import random
    from prefcli.io.parsing import _ONE_MORE_LOOK, _json_counted
    rng = random.Random(18)
    pieces = ["a", "b", ":", "a:b", "\\u003a", "\\\\", "\\\"", " "]

    def text_value(depth: int) -> str:
        r = rng.random()
        if depth > 3 or r < 0.4:
            return '"' + "".join(rng.choice(pieces) for _ in range(rng.randrange(4))) + '"'
        if r < 0.7:
            return "[" + ", ".join(text_value(depth + 1) for _ in range(rng.randrange(3))) + "]"
        keys = [rng.choice(["a", "b", "c", "a:", ":"]) for _ in range(rng.randrange(4))]
        return "{" + ", ".join(f'"{k}": {text_value(depth + 1)}' for k in keys) + "}"
    seen = {"dup": 0, "ok": 0}
    for _ in range(3000):
        text = text_value(0)
        try:
            old = _pairs_parse(text)
        except Exception:  # noqa: BLE001 - a key twice
            assert _json_counted(json, text, None) is _ONE_MORE_LOOK, text
            seen["dup"] += 1
            continue
        got = _json_counted(json, text, None)
        if got is not _ONE_MORE_LOOK:       # (an escaped colon may send a clean text to the pairs parse)
            assert got == old, text
            seen["ok"] += 1
        else:
            assert "\\u" in text, text
    assert seen["dup"] > 100 and seen["ok"] > 1000, seen
