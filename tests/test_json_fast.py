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
