"""One error model (issue 10.4): every library error is a PrefcliError, placed in one place,
and reaches the user as `file:line:col: path: message`; the CLI maps errors by type."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from conftest import run_cli
from prefcli.model.cards import NotationError
from prefcli.model.diagnostics import InputError, PrefcliError, Problem
from prefcli.rules.engine import IllegalCall, IllegalDeal, IllegalPlay, RulesError
from prefcli.rules.presets import OptionError
from prefcli.scoring import ScoringError
from prefcli.settle import SettlementError

NEGATIVE = Path(__file__).parent / "examples" / "negative"


@pytest.mark.parametrize("cls", [NotationError, OptionError, ScoringError, RulesError, IllegalCall,
                                 IllegalPlay, IllegalDeal, SettlementError, InputError])
def test_every_domain_error_is_a_prefcli_error(cls):
    assert issubclass(cls, PrefcliError)


def test_an_error_becomes_a_problem_with_its_path_and_kind():
    exc = IllegalPlay("Cid played QH but holds 7S", ("deals", 0, "play", 1, 1))
    p = exc.problem()
    assert (p.message, p.path, p.kind) == ("Cid played QH but holds 7S", ("deals", 0, "play", 1, 1), "play")
    assert OptionError("x", ("rules", "pool")).problem().kind == "schema"
    assert OptionError("x", kind="usage").is_usage and not OptionError("x").is_usage


def test_errors_survive_a_worker_process_boundary():
    exc = pickle.loads(pickle.dumps(NotationError("1C", "'1C' is not a card", ("deals", 0))))
    assert (exc.token, exc.message, exc.path, str(exc)) == ("1C", "'1C' is not a card", ("deals", 0), "'1C' is not a card")
    exc2 = pickle.loads(pickle.dumps(InputError([Problem("m", ("a",), "f.yaml", 3, 4)])))
    assert str(exc2) == "f.yaml:3:4: a: m" and exc2.problems[0].line == 3


def test_document_place_locates_a_library_error():
    from prefcli.io.documents import load_document
    doc = load_document(str(NEGATIVE / "revoke.yaml"))
    p = doc.place(IllegalPlay("Cid played QH", ("deals", 0, "play", 1, 1)))
    assert p.text() == f"{NEGATIVE / 'revoke.yaml'}:18:9: deals[0].play[1][1]: Cid played QH"


@pytest.mark.parametrize("variant", ["sochi", "leningrad", "lithuanian"])
def test_settle_of_an_illegal_play_is_located_not_internal(variant):
    # was: "internal error: IllegalPlay" with no place (issue 10.4)
    path = NEGATIVE / "revoke.yaml"
    code, out, err = run_cli(["settle", "--variant", variant, str(path)])
    assert code == 1
    assert "internal error" not in err and "IllegalPlay" not in err
    assert f"{path}:18:9: deals[0].play[1][1]: deal 1, trick 2: Cid played QH" in err


@pytest.mark.parametrize("command", [["score"], ["settle"], ["replay"], ["convert", "--variant", "sochi"]])
@pytest.mark.parametrize("args,needle", [(["--set", "nosuch=1"], "--set nosuch: unknown option"),
                                         (["--set", "pool"], "--set takes NAME=VALUE"),
                                         (["--variant", "nope"], "--variant nope: unknown variant")])
def test_a_bad_command_line_option_is_a_usage_error_naming_it(command, args, needle):
    code, out, err = run_cli([*command, "examples/sochi-3p.yaml", *args])
    assert code == 2, err
    assert needle in err and "sochi-3p.yaml:" not in err and "Traceback" not in err
