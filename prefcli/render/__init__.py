"""Every output format of every report, in one registry.

A *report* is what an application function returns (a check report, a scored sheet, a
settlement, a replay…); a *format* is how it is shown (``table`` for people, ``json``/``yaml``
for programs, ``csv`` for spreadsheets). :data:`REGISTRY` maps report → format → renderer, and is
the only list of formats: the commands' ``-f/--format`` choices come from it
(:func:`choices`), so a format that is registered is offered, and one that is not cannot be
asked for.

Renderers are named as ``"module:function"`` and imported when used, so ``prefcli --help`` does
not load every renderer. Each takes the report (and keyword options the command passes through,
e.g. ``after`` or ``explain``) and returns text. The ``json`` and ``yaml`` forms need no code of
their own: they emit the report's :meth:`document` (built in the library, with its ``format``
field and a schema in ``schemas/``) through the one emitter of :mod:`prefcli.render.documents`.

To add a format: write the function in ``render/<report>.py`` and add one row here.
To add a report (a new command): add its rows here; ``json``/``yaml`` are usually just
:data:`DOCUMENT_FORMATS`.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, List, Tuple

#: The two machine forms every report with a ``document()`` gets for free.
DOCUMENT_FORMATS: Dict[str, str] = {
    "json": "prefcli.render.documents:render_json",
    "yaml": "prefcli.render.documents:render_yaml",
}

#: report → format name → "module:function". The first format of a report is its default.
REGISTRY: Dict[str, Dict[str, str]] = {
    "check": {"table": "prefcli.render.check:render_table", **DOCUMENT_FORMATS},
    "import": {"table": "prefcli.render.importing:render_table", **DOCUMENT_FORMATS},
    "replay": {"table": "prefcli.render.replay:render_table", "json": DOCUMENT_FORMATS["json"]},
    "sheet": {"table": "prefcli.render.sheet:render_sheet_table", **DOCUMENT_FORMATS,
              "csv": "prefcli.render.sheet:render_sheet_csv"},
    "settlement": {"table": "prefcli.render.settlement:render_table", **DOCUMENT_FORMATS,
                   "csv": "prefcli.render.settlement:render_csv"},
    "stats": {"table": "prefcli.render.stats:render_table", **DOCUMENT_FORMATS,
              "csv": "prefcli.render.stats:render_csv", "svg": "prefcli.render.stats:render_svg"},
    "rating": {"table": "prefcli.render.stats:render_rating_table", **DOCUMENT_FORMATS,
               "csv": "prefcli.render.stats:render_rating_csv"},
    "draw": {"svg": "prefcli.render.svg:render_drawing"},
    "report": {"html": "prefcli.render.html:render_report"},
    "analysis": {"table": "prefcli.render.analysis:render_table", **DOCUMENT_FORMATS},
}

#: Other names accepted on the command line for a format (kept for scripts written before the
#: vocabulary was made one): ``text`` was the human form of validate and replay.
ALIASES: Dict[str, str] = {"text": "table"}


def formats(report: str) -> List[str]:
    """The format names of a report, the default first."""
    return list(REGISTRY[report])


def choices(report: str) -> List[str]:
    """What ``-f/--format`` accepts for a report: its formats and the aliases of those."""
    names = formats(report)
    return names + [a for a, target in ALIASES.items() if target in names and a not in names]


def canonical(report: str, name: str) -> str:
    """The registered name of a format given on the command line (an alias resolved)."""
    name = ALIASES.get(name, name)
    if name not in REGISTRY[report]:
        raise KeyError(f"{report} has no format '{name}' (formats: {', '.join(formats(report))})")
    return name


def renderer(report: str, name: str) -> Callable[..., str]:
    """The function that renders `report` as format `name`."""
    target = REGISTRY[report][canonical(report, name)]
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)


def render(report: str, name: str, result: Any, **options: Any) -> str:
    """Text of `result` (a report of kind `report`) in format `name`."""
    return renderer(report, name)(result, **options)


def register(report: str, name: str, target: str) -> None:
    """Add (or replace) a renderer: ``register("sheet", "svg", "mypkg.svg:render")``."""
    REGISTRY.setdefault(report, {})[name] = target


def rows() -> List[Tuple[str, str, str]]:
    """(report, format, renderer) for every registered renderer (documentation, tests)."""
    return [(r, f, t) for r, fs in REGISTRY.items() for f, t in fs.items()]
