"""The reader's counts over a JSON text give the answers they gave before (issue 18).

A JSON text's bytes are made once for its two counts (the nesting limit, the long digit runs),
and the nesting limit first takes out every innermost pair of brackets a round at a time (in C):
a text that is then empty is nested within the limit; any other is counted as before. These
tests hold the shortcut against the count and the bracket-by-bracket walk.
"""
from __future__ import annotations

import random

import pytest

from prefcli.io import parsing, yaml_strict
from prefcli.model.diagnostics import InputError


def _slow(text: str):
    """check_nesting without the rounds (the count, then the walk)."""
    real = yaml_strict._well_nested
    yaml_strict._well_nested = lambda brackets: False
    try:
        return yaml_strict.check_nesting(text)
    finally:
        yaml_strict._well_nested = real


def _texts():
    rnd = random.Random(18)
    limit = yaml_strict.MAX_DEPTH * 4
    for _ in range(3000):
        n = rnd.choice([0, 1, 2, 5, 20, 60])
        yield "".join(rnd.choice('[]{}x "é') for _ in range(n))
    for depth in (1, 5, 11, 12, 13, 30, limit - 1, limit, limit + 1, limit + 40):
        yield "[" * depth + "]" * depth
        yield "{" * depth + "}" * depth + "]"
        yield "]" + "[" * depth + "]" * depth
        yield '{"a": ' * depth + "1" + "}" * depth
        yield "[" * depth                       # never closed
        yield ("[" * depth + "]" * depth) * 3 + "[" * (limit - depth + 1)


def test_the_rounds_of_innermost_pairs_say_what_the_count_says():
    seen = 0
    for text in _texts():
        assert yaml_strict.check_nesting(text) == _slow(text), text[:80]
        raw = text.encode("utf-8", "surrogatepass")
        assert yaml_strict.check_nesting(text, raw) == _slow(text)
        seen += yaml_strict._well_nested(raw.translate(yaml_strict._AS_PARENS, yaml_strict._NOT_BRACKETS))
    assert seen > 100


def test_a_well_nested_text_is_one_the_count_passes():
    rnd = random.Random(7)
    for _ in range(2000):
        text = "".join(rnd.choice("()") for _ in range(rnd.randint(0, 40))).encode()
        if yaml_strict._well_nested(text):
            depth = low = 0
            top = 0
            for b in text:
                depth += 1 if b == ord("(") else -1
                low, top = min(low, depth), max(top, depth)
            assert low == 0 and depth == 0 and top <= yaml_strict._ROUNDS


@pytest.mark.parametrize("text", ["1" * 400, '{"a": ' + "9" * 4301 + "}", '{"a": "' + "1" * 5000 + '"}', "{}", "é1"])
def test_the_digit_runs_counted_on_the_bytes_made_once(text):
    assert parsing._long_digit_run(text, text.encode("utf-8", "surrogatepass")) == parsing._long_digit_run(text)


def test_too_deep_json_is_refused_where_it_passes_the_limit():
    limit = yaml_strict.MAX_DEPTH * 4
    text = '{"format": "pref-record/1", "deals": ' + "[" * (limit + 1) + "]" * (limit + 1) + "}"
    with pytest.raises(InputError) as err:
        parsing.parse_text("x.json", text, True)
    p = err.value.problems[0]
    assert "nesting deeper than" in p.message and (p.line, p.column) == (1, 37 + limit)   # (the outer { is one)
    ok = '{"format": "pref-record/1", "deals": ' + "[" * 30 + "]" * 30 + "}"
    assert parsing.parse_text("x.json", ok, True).data["format"] == "pref-record/1"
