"""What the shell completes for the options whose values are names prefcli knows: presets
(``--variant``, ``variants NAME``), rule options (``--set NAME=VALUE``), importers (``import
--from``) and executors (``--executor``).

Why here and not as ``click.Choice``: each list is the library's own registry (a preset is a
table, an importer a module), read only when the shell asks, so a new preset or importer is
completed without a line of the CLI changing, start-up imports nothing more, and a value outside
the list still reaches the library, which refuses it with its own message ("unknown variant …;
did you mean …"). Click's completion (``_PREFCLI_COMPLETE=bash_source prefcli``) calls these.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, List, Optional

if TYPE_CHECKING:                     # (imported when the shell asks: not at every start)
    import click
    from click.shell_completion import CompletionItem


def _items(names: Iterable[str], incomplete: str) -> List[CompletionItem]:
    """The names that start with what was typed (presets are named in any case: compared in
    lower case), each once, in the registry's order."""
    from click.shell_completion import CompletionItem
    typed = incomplete.lower()
    seen = set()
    out = []
    for name in names:
        if name not in seen and name.lower().startswith(typed):
            seen.add(name)
            out.append(CompletionItem(name))
    return out


def complete_variant(ctx: click.Context, param: click.Parameter, incomplete: str) -> List[CompletionItem]:
    """The presets (``prefcli variants``)."""
    from prefcli.rules.presets import preset_names
    return _items(preset_names(), incomplete)


def _options_of(variant: Optional[str]) -> List[Any]:
    """The options a ``--set`` may name: the preset's when the command line names one (with
    ``--variant`` or as ``variants NAME``), else every family's."""
    from prefcli.rules.presets import COMMON_OPTIONS, OptionError, get_preset, presets
    if variant:
        try:
            return [*COMMON_OPTIONS, *get_preset(variant).family.options]
        except OptionError:
            pass                      # a preset not (yet) spelled right: every family's options
    return [*COMMON_OPTIONS, *(o for p in presets() for o in p.family.options)]


def complete_set(ctx: click.Context, param: click.Parameter, incomplete: str) -> List[CompletionItem]:
    """``NAME`` of ``--set NAME=VALUE``; after ``NAME=``, the values of a choice or yes/no
    option (a shell that passes the word whole: zsh, fish; bash splits it at ``=``)."""
    variant = ctx.params.get("variant") or ctx.params.get("name")
    if variant is None and "name" in ctx.params and ctx.args:
        variant = ctx.args[0]         # `variants NAME --set`: click leaves NAME unparsed here
    # (--set variant is refused: the preset is chosen with --variant)
    options = [o for o in _options_of(variant) if o.name != "variant"]
    if "=" not in incomplete:
        return _items((o.name for o in options), incomplete)
    name, _, typed = incomplete.partition("=")
    for o in options:
        if o.name == name:
            values = o.choices if o.kind in ("choice", "number-or-choice") else (
                ("yes", "no") if o.kind == "bool" else ())
            from click.shell_completion import CompletionItem
            return [CompletionItem(f"{name}={item.value}") for item in _items(values, typed)]
    return []


def complete_importer(ctx: click.Context, param: click.Parameter, incomplete: str) -> List[CompletionItem]:
    """``auto`` and the importers (``prefcli import --list``)."""
    from prefcli.io.importers import importers
    return _items(["auto", *(i.name for i in importers())], incomplete)


def complete_executor(ctx: click.Context, param: click.Parameter, incomplete: str) -> List[CompletionItem]:
    """``local`` and ``dask`` (``dask:ADDRESS`` names a cluster: its address is the user's)."""
    return _items(["local", "dask"], incomplete)
