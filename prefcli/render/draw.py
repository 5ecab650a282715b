"""`prefcli draw`: a record or a paper sheet → the sheet drawn as on paper (SVG).

The pipeline loads the input (:func:`prefcli.app.draw.load_game`), picks the paper layout of
its family and table, and returns a :class:`DrawResult`. It sits in the render layer because
the layouts are the drawing's (:mod:`prefcli.render.svg`); the application layer below never
imports a renderer. Every failure is a :class:`~prefcli.model.diagnostics.PrefcliError`: an
InputError with located problems, or a usage error (a bad --after, --set or --variant).
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from prefcli.model.slots import dataclass
from prefcli.app.draw import AfterError, Loaded, check_after, load_game  # noqa: F401 - re-exported
from prefcli.render import svg_layouts


@dataclass
class DrawResult:
    """What `prefcli draw` shows: a loaded game, the sheet after deal `after` (None: all)."""

    loaded: Loaded
    after: Optional[int]
    layout: svg_layouts.Layout


def draw(file: str, after: Optional[int] = None, variant: Optional[str] = None,
         sets: Sequence[Tuple[str, Any]] = ()) -> DrawResult:
    """FILE's sheet after deal `after` (all deals when None), with the paper layout it is drawn
    in (render it with ``prefcli.render.render("draw", "svg", result, style=…)``)."""
    from prefcli.model.diagnostics import InputError
    loaded = load_game(file, variant, sets)
    check_after(loaded, after)
    try:
        layout = svg_layouts.layout_for(loaded.source.family, len(loaded.source.players))
    except svg_layouts.DrawError as exc:
        raise InputError([loaded.doc.place(exc)]) from None
    return DrawResult(loaded, after, layout)
