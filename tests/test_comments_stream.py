"""Comments written deal by deal (issue 11 items 1 and 2, issue 18): convert of a commented YAML
record finds each comment's part in one pass over the source lines and places it as that part
is written. The bytes must be those of the whole-text way kept here as the reference (the
source's whole node tree, the whole canonical text, then every comment placed in it), for every
example, bad input that converts, generated records with comments in assorted places,
--variant, and --in-place."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

import pytest

from conftest import BADINPUTS, EXAMPLES, ROOT, needs_shared

TEST_EXAMPLES = ROOT / "tests" / "examples"


def _reference(text: str, data) -> str:
    """The whole-text way: the source composed whole, the canonical text made whole, the
    comments put into it (what convert wrote before it streamed commented records)."""
    from prefcli.io.comments import find_comments, place_comments
    from prefcli.io.writer_json import dump
    from prefcli.io.yaml_strict import compose
    return place_comments(dump(data, "yaml"), find_comments(text, compose(text)))


def _streamed(path: Path, variant: Optional[str] = None):
    """What convert writes: (text, the plain document it wrote, made whole here)."""
    from prefcli.app.convert import convert_source
    done = convert_source(str(path), variant)
    return "".join(done.chunks("yaml", done.comments())), done.data


def _yaml_inputs() -> List[Path]:
    out = sorted(EXAMPLES.rglob("*.yaml")) + sorted(TEST_EXAMPLES.rglob("*.yaml"))
    if BADINPUTS.is_dir():
        out += sorted(BADINPUTS.glob("*.yaml"))
    return out


def _converts(path: Path, variant: Optional[str] = None):
    from prefcli.model.diagnostics import PrefcliError
    try:
        done = _streamed(path, variant)
    except PrefcliError:
        return None
    return done


@pytest.mark.parametrize("path", _yaml_inputs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_streamed_comments_are_the_whole_text_way_for_every_file(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        done = _converts(path)
    except UnicodeDecodeError:
        pytest.skip("not UTF-8")
    if done is None:
        pytest.skip("convert refuses it (nothing written)")
    out, data = done
    assert out == _reference(path.read_text(encoding="utf-8-sig"), data), path
    if "#" in text and path.parent == EXAMPLES:
        assert "#" in out


@pytest.mark.parametrize("target", ["leningrad", "rostov", "lithuanian"])
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_streamed_comments_with_variant_are_the_whole_text_way(path, target):
    done = _converts(path, target)
    if done is None:
        pytest.skip("not converted to that preset")
    out, data = done
    assert out == _reference(path.read_text(encoding="utf-8"), data)


def _commented(text: str, seed: int) -> str:
    """`text` (block YAML, as generate.py writes it) with comments in assorted places: on lines
    of their own at several indentations, after data, `# a # b`, blank lines, a flow collection
    broken over lines with a comment inside, comments at the top and at the end."""
    rnd = random.Random(seed)
    out: List[str] = []
    n = 0
    if rnd.random() < 0.5:
        out += ["# a record", ""]
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        r = rnd.random()
        if r < 0.04:
            out.append(" " * rnd.choice([0, 2, 4, indent]) + f"# own {n}")
            n += 1
        elif r < 0.05:
            out.append("")
        elif r < 0.06:
            out.append(" " * indent + f"# two {n} # in one")
            n += 1
        body = line.lstrip(" ")
        if rnd.random() < 0.02 and ": {" in line and line.endswith("}") and ", " in line:
            key, _, flow = line.partition(": {")
            first, _, rest = flow.partition(", ")
            out.append(f"{key}: {{{first},  # inside {n}")
            out.append(" " * (indent + 2) + rest)
            n += 1
            continue
        if rnd.random() < 0.04 and body:
            line = f"{line}  # after {n}"
            n += 1
        out.append(line)
    if rnd.random() < 0.5:
        out.append(f"# end {n}")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gen")
    out = {}
    for name, extra in (("summary", []), ("full", ["--full"]), ("four", ["--players", "4"]),
                        ("lt", ["--variant", "lithuanian"])):
        path = folder / f"{name}.yaml"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "generate.py"), "--deals", "150", "--seed", "4",
                        *extra, "-o", str(path)], check=True)
        out[name] = path.read_text(encoding="utf-8")
    return out


def _indent_deals(text: str) -> str:
    """The deals as `  - ` items (generate.py writes them at column 0)."""
    head, _, deals = text.partition("deals:\n")
    return head + "deals:\n" + "".join("  " + line + "\n" for line in deals.splitlines())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", ["summary", "full", "four", "lt"])
def test_generated_records_with_comments_everywhere(generated, name, seed, tmp_path):
    from prefcli.io.comments import find_comments
    from prefcli.io.comments_stream import scan_comments
    from prefcli.io.yaml_fast import fast_yaml
    text = generated[name]
    if seed % 2:
        text = _indent_deals(text)
    if seed % 3 == 1:        # the keys in another order, and a tail
        head, _, deals = text.partition("deals:\n")
        lines = head.splitlines()
        text = "\n".join([lines[0], lines[2]]) + "\ndeals:\n" + deals + "\n".join([lines[1], lines[3]]) + \
            "\nend: {reason: time, note: late}\n"
    if seed % 3 == 2:        # a '#' inside a quoted string: not a comment (the strict reader)
        text = text.replace("meta: {", "meta: {title: 'No #1 # not a comment', ", 1)
    text = _commented(text, seed * 31 + len(name))
    fast = fast_yaml(text) is not None
    assert fast == (seed % 3 != 2)
    if fast:   # the one pass over the lines finds what the whole tree finds
        assert scan_comments(text) == find_comments(text)
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    out, data = _streamed(path)
    assert out == _reference(text, data)
    assert out.count("#") >= text.count("# ") - text.count("# not a comment") - text.count("# in one")


def test_comment_places_scanned_as_in_the_whole_tree():
    from prefcli.io.comments import find_comments
    from prefcli.io.comments_stream import scan_comments
    text = ("# top\n\nformat: pref-record/1  # f\nplayers:   # the seats\n- Ann\n# mid\n- Bob\n- Cid\n"
            "rules:\n  variant: sochi  # v\n  # above pool\n  pool: 10\n# before deals\ndeals:  # d\n"
            "  # before the first\n  - contract: 6S  # c\n    declarer: Ann\n    whist: {Bob: pass,  # inside\n"
            "      Cid: pass}\n    # after the last key: the next deal's\n  -\n    contract: all-pass\n"
            "    tricks: {Ann: 4, Bob: 3, Cid: 3}\n  # the end's\nend:\n  reason: time  # r # and more\n# last\n")
    got = scan_comments(text)
    assert got == find_comments(text)
    assert [(c.text, c.path, c.trailing, c.end) for c in got] == [
        ("# top", (), False, False), ("# f", ("format",), True, False),
        ("# the seats", ("players",), True, False), ("# mid", ("players", 1), False, False),
        ("# v", ("rules", "variant"), True, False), ("# above pool", ("rules", "pool"), False, False),
        ("# before deals", ("deals",), False, False), ("# d", ("deals",), True, False),
        ("# before the first", ("deals", 0), False, False), ("# c", ("deals", 0, "contract"), True, False),
        ("# inside", ("deals", 0, "whist", "Bob"), True, False),
        ("# after the last key: the next deal's", ("deals", 1), False, False),
        ("# the end's", ("end",), False, False), ("# r # and more", ("end", "reason"), True, False),
        ("# last", (), False, True)]


def test_a_hash_in_a_comment_is_the_comments_text():
    """`# a # b` is one comment (the whole-text way once kept `# b` a second time)."""
    from prefcli.io.comments import find_comments
    text = "format: pref-record/1  # a # b\n# c # d\nplayers: [A, B, C]\n"
    assert [c.text for c in find_comments(text)] == ["# a # b", "# c # d"]


def test_text_outside_the_subset_is_left_to_the_whole_tree():
    from prefcli.io.comments_stream import locate_comments, scan_comments
    text = "format: pref-record/1\nmeta: {x: a#b}  # c\nplayers: [A, B, C]\n"
    assert scan_comments(text) is None
    assert [c.text for c in locate_comments(text, fast=True)] == ["# c"]


def test_a_comment_whose_part_is_written_later_takes_the_whole_text_way():
    from prefcli.io.comments import Comment
    from prefcli.io.comments_stream import NotStreamable, plan_comments
    with pytest.raises(NotStreamable):
        plan_comments([Comment(3, "# x", ("end.reason",), False)], ["format"], ["end"], 2)
    plan = plan_comments([Comment(3, "# x", ("meta.a",), False), Comment(4, "# y", ("deals", 7), False),
                          Comment(5, "# z", ("deals", 1, "tricks"), True)], ["format", "meta"], [], 2)
    assert [c.text for c in plan.head] == ["# x"] and [c.text for c in plan.deals_key] == ["# y"]
    assert list(plan.deals) == [1]


@pytest.mark.parametrize("size", [1, 7, 64, 1000, 1 << 16])
def test_chunks_of_any_size_give_the_same_bytes(generated, size, tmp_path):
    """The placer finds the parts in the text however it is cut (the writer's chunks may change)."""
    from prefcli.app.convert import convert_source
    from prefcli.io.comments_stream import place_chunks, plan_comments
    from prefcli.io.writer_json import dump
    path = tmp_path / "c.yaml"
    path.write_text(_commented(_indent_deals(generated["summary"]), 9) + "end: {reason: time}  # e\n",
                    encoding="utf-8")
    done = convert_source(str(path))
    comments = done.comments()
    whole = dump(done.data, "yaml")
    parts = done.parts
    plan = plan_comments(comments, parts.head, parts.tail, len(parts.record.deals))
    cut = [whole[i:i + size] for i in range(0, len(whole), size)]
    assert "".join(place_chunks(cut, plan)) == _reference(path.read_text(encoding="utf-8"), done.data)


def test_cli_convert_and_in_place_stream_the_comments(generated, tmp_path, run):
    src = tmp_path / "c.yaml"
    text = _commented(generated["full"], 3)
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.yaml"
    assert run(["convert", str(src), "-o", str(out)])[0] == 0
    _, data = _streamed(src)
    expected = _reference(text, data)
    assert out.read_text(encoding="utf-8") == expected
    code, stdout, _ = run(["convert", str(src)])
    assert code == 0 and stdout == expected
    assert run(["convert", str(src), "--in-place"])[0] == 0
    assert src.read_text(encoding="utf-8") == expected
    # JSON: refused with the list, unless the comments are dropped
    code, stdout, err = run(["convert", str(src), "-f", "json"])
    assert code == 1 and stdout == "" and "would be lost" in err
    code, stdout, _ = run(["convert", str(src), "-f", "json", "--drop-comments"])
    assert code == 0 and stdout.startswith("{")


def test_the_whole_tree_is_not_composed_for_a_fast_record(generated, tmp_path, monkeypatch):
    """A record the fast reader read has its comments found by composing only the entries
    that hold one: never the whole text (what cost 80x the file at 100,000 deals)."""
    from prefcli.io import yaml_strict
    src = tmp_path / "c.yaml"
    text = _commented(generated["summary"], 5)
    src.write_text(text, encoding="utf-8")
    composed: List[int] = []
    real = yaml_strict.compose

    def counting(t, *a, **k):
        composed.append(len(t))
        return real(t, *a, **k)
    monkeypatch.setattr(yaml_strict, "compose", counting)
    out, _ = _streamed(src)
    assert composed and max(composed) < len(text) / 20
    assert out.count("# own") == text.count("# own")
