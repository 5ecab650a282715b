"""The report renderers ``json`` and ``yaml``: a report's ``document()`` through the one emitter,
:mod:`prefcli.io.emit` (whose names are re-exported here)."""
from __future__ import annotations

from typing import Any

from prefcli.io.emit import _leaf, dump, plain, to_json, to_yaml  # noqa: F401 - re-exported


def render_json(result: Any, **_options: Any) -> str:
    """The report's document as JSON (options such as ``after`` go to ``document``)."""
    return to_json(result.document(**_options))


def render_yaml(result: Any, **_options: Any) -> str:
    return to_yaml(result.document(**_options))
