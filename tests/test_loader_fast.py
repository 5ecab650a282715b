"""The fast reader of plain YAML (yaml_fast.fast_yaml) gives exactly what the strict libyaml path
gives, or gives up (None) so that the strict path reads the text. It must never accept a text
the strict path refuses, nor read anything differently."""
from __future__ import annotations

import random
from decimal import Decimal

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from prefcli.io import documents as loader
from prefcli.model.diagnostics import InputError
from prefcli.io.documents import load_document
from prefcli.io.yaml_fast import fast_yaml as _fast_yaml
from prefcli.io.yaml_strict import compose as _compose, construct as _construct


def strict(text: str):
    """('ok', repr of the data) or ('err', exception type) from the libyaml path."""
    try:
        return "ok", repr(_construct(_compose(text)))
    except Exception as exc:  # noqa: BLE001
        return "err", type(exc).__name__


def assert_same_or_declined(text: str) -> bool:
    fast = _fast_yaml(text)
    if fast is None:
        return False
    assert strict(text) == ("ok", repr(fast)), text
    return True


ACCEPTED = [
    "format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi}\n",
    "a: 1\nb: 1.50\nc: yes\nd: no\ne: null\nf: true\ng: False\nh: 007\ni: -5\nj: +3\nk: 1e5\nl: .5\n",
    "deals:\n- contract: 6S\n  declarer: Ann\n  whist: {Bob: pass, Cid: half-whist}\n"
    "  tricks: {Ann: 7, Bob: 1, Cid: 2}\n- contract: all-pass\n  tricks: {Cid: 3, Ann: 4, Bob: 3}\n",
    "a:\n  b:\n    c: 1\n  d: [x, [y, z], {e: f}]\nempty:\nafter: 2\n",
    "# a comment\n\na:\n- - 1\n  - 2\n-\n  k: v\n- \n-   x: 1\n    y: 2\n",
    "prices:\n  7: 5\n  misere: 10\nnote: made it (just) 40/3 x=y\nlist: []\nmap: {}\n",
    "play:\n  - [7S, 8S, 9S]\n  - [10S, JS, QS]\nk:\n  - a: 1\n    b:\n    - 2\n",
    "g: [ a ,  b ]\nh: {a: [ x ], b: { c: d }}\n",
    # comments after values (the examples' kind): read fast, the same data as libyaml
    "a: 1 # comment\n", "a: # the next lines\n  b: [x, y]   # two\n", "k:\n- # none\n- 1\n",
    "# Пётр’s game — 6♠\na: 1  # ♠ ė\n",
    "players: [Ann, Bob, Cid]  # clockwise\ndeals:\n  - contract: 6S # made\n    tricks: {Ann: 6}  #\n",
    # a flow collection broken after an item's comma, as PyYAML writes a long auction: one space
    "auction: [6S, pass, 6C, here, 6D,\n  here, 7S, pass]\nnext: 1\n",
    "d:\n  auction: [6S, pass,\n    6C, here,\n\n    6D]  # long\n  k: {a: 1,\n      b: [x,\n        y]}\n",
    "a: [\n  x, y]\n", "a: {\n  b: 1}\n", "a: [x,\n  # between\n  y]\n",
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_plain_documents_read_fast_and_the_same(text: str) -> None:
    assert assert_same_or_declined(text)


DECLINED = [
    "a: 'quoted'\n", 'a: "quoted"\n', "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: 1#no comment\n",
    "a: 'x # y'\n", "a: [x, y # z]\n", "a: |  # c\n  text\n", "a: 1 # c\u2028b: 2\n", "a: 1 # c\x85b: 2\n",
    "a: Пётр # name\n",
    "a: |\n  text\n", "a: long\n  continued\n", "a:\tb\n", "a: 1\r\nb: 2\r\n", "a: 1\na: 2\n",
    "a: {x: 1, x: 2}\n", "a: [x, y,]\n", "a: [x,, y]\n", "a: [x\n  , y]\n", "---\na: 1\n", "a: 1\n...\n",
    "%YAML 1.2\n---\na: 1\n", "a: 1\n  b: 2\n", "a: 1\n- x\n", "- a\n- b\n", "just text\n", "a: b: c\n",
    "a: ~\n", "<<: {a: 1}\n", "a: Ånn\n", "a:\n    b: 1\n  c: 2\n", "a: - x\n", "a:b\n", "? a\n: b\n",
    "a: [x: 1]\n", "a: {x}\n", "a: {x:1}\n", " a: 1\n", "a: 1" + "0" * 60 + "\n", "[a, b]\n", "",
    "a:\n- x\nb: 1\n- y\n", "- a: 1\n  b\n", "k: v\n x: 1\n", "# bell \x07\na: 1\n", "a: 1\n  # c\n b: 2\n",
    # broken flow collections the fast reader leaves to libyaml: a break inside a scalar, a line
    # back at the key's column, one never closed, a blank line inside a scalar
    "a: [x\n  y]\n", "a: [x,\ny]\n", "a: [x,\n  y\n", "a: [x y\n\n  z]\n", "k:\n  a: [x,\n  y]\n",
]


@pytest.mark.parametrize("text", DECLINED)
def test_anything_outside_the_subset_goes_to_the_strict_path(text: str) -> None:
    assert _fast_yaml(text) is None


def test_keys_stay_text_and_values_resolve_as_the_strict_path() -> None:
    data = _fast_yaml("7: 1.0\ntrue: yes\n")
    assert data == {"7": Decimal("1.0"), "true": "yes"}
    assert type(data["7"]) is Decimal and str(data["7"]) == "1.0"


def test_errors_keep_their_positions_after_a_fast_read(tmp_path) -> None:
    """Positions come from the lazily composed node tree, as before."""
    path = tmp_path / "r.yaml"
    path.write_text("format: pref-record/1\nplayers: [Ann, Bob, Cid]\ndeals:\n- contract: 6S\n"
                    "  declarer: Ann\n  tricks: {Ann: 6, Bob: x, Cid: 2}\n")
    doc = load_document(str(path))
    assert doc.locate(("deals", 0, "tricks", "Bob")) == (6, 25)
    with pytest.raises(InputError) as info:
        loader.build_record(doc)
    assert any(p.line == 6 for p in info.value.problems)


def test_a_too_large_number_is_refused_with_its_position(tmp_path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("format: pref-record/1\npool: " + "9" * 50 + "\n")
    with pytest.raises(InputError) as info:
        load_document(str(path))
    assert info.value.problems[0].line == 2 and "too large" in info.value.problems[0].message


_SCALARS = ["Ann", "a b", "yes", "no", "null", "Null", "true", "False", "1", "007", "-5", "+3", "1e5",
            "1.0", "12.5", ".5", "40/3", "6S", "all-pass", "x=y", "(a)", "", "1_000", "0x1F", "~", "a:b",
            "#x", "- a", "[x]", "...", "---", "é", 10, 2.5, True, None, "9" * 45]
_KEYS = ["Ann", "Bob", "7", "a b", "yes", "null", "-5", "x", "deals", "k:", "é"]
_values = st.recursive(st.sampled_from(_SCALARS),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(_KEYS), inner, max_size=4),
                       max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(data=st.dictionaries(st.sampled_from(_KEYS), _values, min_size=1, max_size=4),
       flow=st.sampled_from([None, False, True]), indent=st.sampled_from([2, 3, 4]),
       width=st.sampled_from([20, 80, 1000]))
def test_what_pyyaml_writes_reads_the_same(data, flow, indent, width) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, indent=indent, width=width, sort_keys=False,
                          allow_unicode=True)
    assert_same_or_declined(text)


_EDITS = [" ", "  ", "-", "- ", ":", ": ", "\n", "\n  ", "[", "]", "{", "}", ",", ", ", "#", "a", "1", "'", ".",
          " #", " # c", " #\u2028", "♠"]
_BASE = ("format: pref-record/1\nplayers: [Ann, Bob, Cid]\nrules: {variant: sochi, pool: 20}\ndeals:\n"
         "- contract: 6S\n  declarer: Ann\n  whist: {Bob: pass, Cid: whist}\n  tricks: {Ann: 7, Bob: 1, Cid: 2}\n"
         "- contract: all-pass\n  tricks:\n    Ann: 4\n    Bob: 3\n    Cid: 3\n- adjust:\n    pool: {Ann: 2}\n"
         "  play:\n  - [7S, 8S, 9S]\n  - - 10S\n    - JS\nmeta:\n  event: club night\n")


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), edits=st.integers(1, 4))
def test_damaged_text_is_never_read_differently(seed: int, edits: int) -> None:
    """Random small damage (indentation, separators, brackets): the fast reader either declines
    or agrees with libyaml, including on texts libyaml refuses."""
    rng = random.Random(seed)
    text = _BASE
    for _ in range(edits):
        p = rng.randrange(len(text) + 1)
        if rng.random() < 0.5:
            text = text[:p] + rng.choice(_EDITS) + text[p:]
        else:
            text = text[:p] + text[p + rng.randint(1, 3):]
    assert_same_or_declined(text)


def test_generated_records_are_read_fast() -> None:
    """The benchmark's records are in the subset (else the fast reader would be pointless)."""
    import importlib.util
    from pathlib import Path
    gen = Path(__file__).resolve().parent.parent / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("_bench_generate", gen)
    if spec is None or spec.loader is None:
        pytest.skip("no generator")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for full, players in ((False, 3), (True, 3), (True, 4)):
        text = mod.dump(mod.generate(30, full=full, players=players, seed=3), False)
        assert assert_same_or_declined(text)


def test_a_name_or_field_is_one_text_however_often_it_is_written() -> None:
    """Memory in proportion to the input (issue 11): the reader keeps one string per key, shared
    by every mapping that writes it (a record repeats its field and player names in every deal),
    and reads the lines one at a time rather than holding a list of them all."""
    text = "deals:\n" + "".join(f"- contract: 6S\n  declarer: Ann\n  whist: {{Bob: pass, Cid: whist}}\n"
                                f"  tricks: {{Ann: {6 + i % 2}, Bob: 2, Cid: {2 - i % 2}}}\n" for i in range(3))
    deals = _fast_yaml(text)["deals"]
    assert deals[2]["tricks"] == {"Ann": 6, "Bob": 2, "Cid": 2} and deals[1]["whist"]["Cid"] == "whist"
    first, last = deals[0], deals[2]
    for a, b in ((first, last), (first["whist"], last["whist"]), (first["tricks"], last["tricks"])):
        assert [id(k) for k in a] == [id(k) for k in b]
    assert next(iter(first["whist"])) is next(iter(first["tricks"].keys() - {"Ann", "Cid"}))   # Bob, once


def test_a_long_auction_written_over_lines_is_read_fast() -> None:
    """PyYAML (and so prefcli's writer) breaks a flow sequence past 80 columns; such a record
    (a bidding war of thirty calls) fell to the strict path, about ten times slower and 50× the
    file in memory on a 200,000-deal record."""
    calls = [c for level in range(6, 11) for s in ("S", "C", "D", "H", "NT") for c in (f"{level}{s}", "here")]
    text = yaml.safe_dump({"deals": [{"auction": calls, "declarer": "Ann"}]}, default_flow_style=None,
                          sort_keys=False)
    assert text.count("\n") > 3
    assert assert_same_or_declined(text)
