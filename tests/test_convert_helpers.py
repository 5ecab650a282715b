"""An in-process runner for the convert tests: the real `prefcli.cli.main` (its exit codes and
error rendering), without the cost of a new Python process per call."""
from __future__ import annotations

import io
import sys

import pytest


@pytest.fixture
def run(monkeypatch, capsys):
    from prefcli.cli.main import main

    def _run(args, stdin=None):
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")),
                                                               encoding="utf-8"))
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return _run
