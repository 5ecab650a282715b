"""Generated hostile documents thrown at every reading command (issue 11, item 1).

A valid example record or sheet has one value somewhere replaced by a value of another type, a
huge or tiny number, an odd text or an empty collection. Every command must end with exit code
0, 1 or 2 (never 3, never a traceback), within a bounded time.
"""
from __future__ import annotations

import json
import signal
from contextlib import contextmanager
from pathlib import Path
from typing import Any, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES

COMMANDS = [["validate"], ["score"], ["score", "-f", "json"], ["replay", "--check"], ["settle"],
            ["convert", "--to", "json"], ["convert", "--to", "yaml"]]

HOSTILE = [None, True, False, 0, -1, 7, 10 ** 41, -(10 ** 45), 1.5, "1.0e-999999999", "1e999999999",
           "", " ", "x", "A\ud800", "Ann", "6S", "misere", "whist", [], {}, [None], [1, 2], {"a": 1},
           {"": []}, [[[]]], "-1/0", "40/3", "NaN", "∞"]
# as written in the text, not as JSON data: numbers only a parser sees
RAW_NUMBERS = ["1.0e-999999999", "1e999999999", "-1.5e99999", "12345678901234567890123456789012345678901",
               "0.00000000000000000000000000000000000000000001"]


def _sources() -> List[Path]:
    names = ["sochi-3p.yaml", "leningrad-4p.yaml", "full-deals-sochi.yaml", "paper-sheet.yaml",
             "lithuanian-4p.yaml"]
    return [EXAMPLES / n for n in names if (EXAMPLES / n).exists()]


def _load(path: Path) -> Any:
    from prefcli.io.documents import load_document
    from prefcli.cli.util import plain
    return json.loads(json.dumps(plain(load_document(str(path)).data), default=str))


def _paths(data: Any, prefix=()) -> List[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):
            out.extend(_paths(v, prefix + (i,)))
    return out


def _replace(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    data[path[0]] = _replace(data[path[0]], path[1:], value)
    return data


@contextmanager
def _time_limit(seconds: int):
    def boom(signum, frame):  # pragma: no cover - only when a command hangs
        raise TimeoutError(f"a command ran longer than {seconds} s")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _run(args: List[str], capsys) -> int:
    from prefcli.cli.main import main
    with _time_limit(30):
        code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err + out, (args, err)
    assert "internal error" not in err, (args, err)
    assert code in (0, 1, 2), (args, code, err)
    return code


SOURCES = _sources()


@pytest.mark.skipif(not SOURCES, reason="no examples")
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_value_of_any_type_anywhere_never_crashes(tmp_path_factory, capsys, data):
    source = data.draw(st.sampled_from(SOURCES))
    doc = _load(source)
    path = data.draw(st.sampled_from(_paths(doc)))
    value = data.draw(st.sampled_from(HOSTILE))
    as_json = data.draw(st.booleans())
    doc = _replace(doc, path, value)
    folder = tmp_path_factory.mktemp("hostile")
    if as_json:
        f = folder / "doc.json"
        f.write_text(json.dumps(doc, ensure_ascii=True), encoding="utf-8")
    else:
        import yaml
        f = folder / "doc.yaml"
        f.write_text(yaml.safe_dump(doc, allow_unicode=False, sort_keys=False), encoding="utf-8")
    command = data.draw(st.sampled_from(COMMANDS))
    _run([*command, str(f)], capsys)


@pytest.mark.skipif(not SOURCES, reason="no examples")
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_huge_number_written_anywhere_is_refused_quickly(tmp_path_factory, capsys, data):
    source = data.draw(st.sampled_from(SOURCES))
    doc = _load(source)
    path = data.draw(st.sampled_from([p for p in _paths(doc) if p]))
    number = data.draw(st.sampled_from(RAW_NUMBERS))
    as_json = data.draw(st.booleans())
    marker = "__HOSTILE_NUMBER__"
    doc = _replace(doc, path, marker)
    folder = tmp_path_factory.mktemp("number")
    if as_json:
        f = folder / "doc.json"
        f.write_text(json.dumps(doc).replace(f'"{marker}"', number), encoding="utf-8")
    else:
        import yaml
        f = folder / "doc.yaml"
        f.write_text(yaml.safe_dump(doc, sort_keys=False).replace(marker, number), encoding="utf-8")
    command = data.draw(st.sampled_from(COMMANDS))
    _run([*command, str(f)], capsys)
