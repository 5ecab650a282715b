"""Every file in ../shared/badinputs is refused cleanly by every reading command (issue 2).

Parametrised over the folder, so files added later are covered.
"""
import hashlib
import time

import pytest

from conftest import BADINPUTS, run_cli

FILES = sorted(p for p in BADINPUTS.glob("*") if p.suffix in (".yaml", ".yml", ".json")) if BADINPUTS.is_dir() else []

EXPECT = {  # file -> words the message must contain (the problem named)
    "alias-bomb.yaml": ["alias"], "bad-card.yaml": ["1C"], "binary.yaml": ["binary"],
    "dealer-plays-4p.yaml": ["Ann", "sits out"], "declarer-whists.yaml": ["Bob", "declarer"],
    "deep-nesting.json": ["nesting"], "duplicate-card.yaml": ["AS", "twice"],
    "duplicate-key.yaml": ["duplicate key", "players"], "empty.yaml": ["empty"],
    "five-players.yaml": ["5 players"], "huge-number.yaml": ["digits"],
    "negative-tricks.yaml": ["negative"], "revoke.yaml": ["Cid", "QH"],
    "sheet-unknown-player.yaml": ["Z", "not seated"], "trailing-comma.json": ["JSON"],
    "tricks-sum-11.yaml": ["11"], "unknown-contract.yaml": ["11NT"],
    "unknown-format-version.yaml": ["pref-record/9"], "unknown-player-in-tricks.yaml": ["Dan", "not seated"],
    "unknown-variant.yaml": ["monte-carlo"], "unterminated.yaml": ["YAML"],
}


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.skipif(not FILES, reason="../shared/badinputs is not present")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_validate_refuses_cleanly(path):
    before = digest(path)
    start = time.monotonic()
    code, out, err = run_cli(["validate", str(path)])
    elapsed = time.monotonic() - start
    assert code == 1, err
    assert "Traceback" not in err and "Traceback" not in out
    assert path.name in err
    for word in EXPECT.get(path.name, []):
        assert word in err, (word, err)
    assert digest(path) == before
    assert elapsed < 20  # generous: a subprocess on a loaded CI machine; the goal is ~2 s


@pytest.mark.skipif(not FILES, reason="../shared/badinputs is not present")
@pytest.mark.parametrize("command", [["replay", "--check"], ["score"], ["convert", "--to", "json"], ["settle"]])
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_command_refuses_cleanly(command, path):
    before = digest(path)
    code, out, err = run_cli([*command, str(path)])
    if path.name in ("revoke.yaml",) and command[0] in ("score", "convert", "settle"):
        # a revoke is a play error: commands that do not replay may accept the summary fields
        assert code in (0, 1)
    elif path.name == "sheet-unknown-player.yaml" and command[0] in ("replay",):
        assert code in (0, 1)
    else:
        assert code == 1, (command, err)
        assert err.strip(), "a refusal names the problem"
    assert "Traceback" not in err
    assert digest(path) == before
