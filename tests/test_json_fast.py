"""The JSON read path's fast steps give the answers of the slow steps they stand in for (issue 18).

Each fast step is checked against the step it skips, on texts built to reach every branch: the
bracket count before parsing (yaml_strict.check_nesting against its bracket-by-bracket walk).
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
