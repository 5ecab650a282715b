"""mypy over prefcli/ is part of the suite: CI runs the README's test command, so a type error
fails CI like a failing test. The configuration (target Python, strictness) is pyproject.toml's
[tool.mypy]; this test adds nothing to it."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def test_mypy_is_clean_over_the_package():
    if importlib.util.find_spec("mypy") is None:
        if _under_ci():
            pytest.fail("mypy is not installed; the test extra installs it and CI must run it")
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-color-output", "prefcli"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, "mypy found type errors:\n" + proc.stdout + proc.stderr


def test_the_package_ships_its_type_hints():
    assert (ROOT / "prefcli" / "py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"prefcli" = ["py.typed"]' in pyproject
