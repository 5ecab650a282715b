"""Acceptance, in check-jsonschema's positive/negative style: every document in examples/ (the
positive examples) is accepted by every reading command, and every file in
tests/examples/negative/ (with its expected message words in expected.json) is refused by every
one of them with exit status 1, a located message naming the problem, no traceback, and the file
left untouched. ../shared/badinputs, when present, is an extra source of negative cases
(issue 2; REVIEW §8): no case vanishes when it is absent."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import BADINPUTS, EXAMPLES

NEGATIVE = Path(__file__).parent / "examples" / "negative"
EXPECTED = json.loads((NEGATIVE / "expected.json").read_text(encoding="utf-8"))["files"]
SUFFIXES = (".yaml", ".yml", ".json")


def _negatives():
    own = sorted(p for p in NEGATIVE.iterdir() if p.suffix in SUFFIXES and p.name != "expected.json")
    names = {p.name for p in own}
    extra = sorted(p for p in BADINPUTS.glob("*") if p.suffix in SUFFIXES and p.name not in names) \
        if BADINPUTS.is_dir() else []
    return own + extra


NEGATIVES = _negatives()
READERS = [["validate"], ["replay", "--check"], ["score"], ["convert", "-f", "json"], ["settle"]]


def _positives():
    from prefcli.io.documents import load_document
    out = []
    for p in sorted(EXAMPLES.rglob("*")):
        if p.suffix in SUFFIXES:
            data = load_document(str(p)).data
            if isinstance(data, dict) and str(data.get("format", "")).startswith(("pref-record/", "pref-sheet/")):
                out.append((p, data["format"].split("/")[0]))
    return out


POSITIVES = _positives()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_negative_corpus_is_in_the_repository():
    own = [p for p in NEGATIVES if p.parent == NEGATIVE]
    assert len(own) >= 21
    assert {p.name for p in own} == set(EXPECTED)


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
@pytest.mark.parametrize("path", NEGATIVES, ids=lambda p: p.name)
def test_every_reading_command_refuses_a_negative_example(run, command, path):
    before = digest(path)
    code, out, err = run([*command, str(path)])
    assert code == 1, (command, err)
    assert path.name in err, err
    assert "Traceback" not in err + out and "internal error" not in err
    if command[0] == "validate":            # the message of every check, word for word
        for word in EXPECTED.get(path.name, {}).get("message", []):
            assert word in err, (word, err)
    assert digest(path) == before


ACCEPTING = [["validate"], ["score"], ["settle"], ["convert"], ["convert", "-f", "json", "--drop-comments"]]
ACCEPT_CASES = [(c, p) for p, kind in POSITIVES for c in ACCEPTING if not (c[0] == "score" and kind != "pref-record")]


@pytest.mark.parametrize("command,path", ACCEPT_CASES,
                         ids=lambda x: str(x.relative_to(EXAMPLES)) if isinstance(x, Path) else " ".join(x[:3]))
def test_every_reading_command_accepts_a_positive_example(run, command, path):
    """(score reads records only; a sheet is settled.)"""
    before = digest(path)
    code, out, err = run([*command, str(path)])
    assert code == 0, (command, err)
    assert out.strip()
    assert digest(path) == before
