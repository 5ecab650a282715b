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
    from prefcli.io.parsing import _parse_text, decode_marked, decode_text
    from prefcli.io.yaml_strict import _AS_PARENS, _NOT_BRACKETS
    seen = 0
    for text in _nesting_texts():
        for raw in (text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode("utf-8"), text.encode("utf-16")):
            plain = _outcome(decode_text, "f.json", raw)
            marked = _outcome(decode_marked, "f.json", raw, True)
            if plain[0] != "ok":
                assert marked == plain, repr(raw[:80])
                continue
            utf8 = not raw.startswith(b"\xff\xfe")
            brackets = plain[1].encode("utf-8").translate(_AS_PARENS, _NOT_BRACKETS) if utf8 else None
            assert marked == ("ok", (plain[1], brackets)), repr(raw[:80])
            assert decode_marked("f.json", raw, False) == (plain[1], None)
            if brackets is not None:   # the parse with them gives what the parse without them gives
                seen += 1
                assert _outcome(_parse_text, "t.json", plain[1], True, brackets) == \
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
