"""`prefcli variants [NAME]`: the presets, or every option of one preset with its meaning."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import click

from prefcli.cli.completion import complete_set, complete_variant
from prefcli.cli.util import EXAMPLES_HEADER, format_option, output_option, quiet_option


@click.command("variants", epilog=EXAMPLES_HEADER + """
  prefcli variants
  prefcli variants leningrad
  prefcli variants sochi --set pool=30 -f json | jq '.options[0]'
""")
@click.argument("name", required=False, metavar="[NAME]", shell_complete=complete_variant)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", shell_complete=complete_set,
              help="show the values after this override (repeatable)")
@format_option("table", "json", "yaml")
@output_option
@quiet_option
def command(name: Optional[str], sets: Sequence[str], fmt: str, output: str, quiet: bool) -> None:
    """List the presets; with NAME, every option of that preset: value, valid values, meaning.

    A record's `rules` block, `--set NAME=VALUE` and `--variant` use these names; dotted names
    (allpass.progression) are nested maps in a record.
    """
    from prefcli.cli.util import dump, parse_sets, pick_format, write_text
    from prefcli.rules.presets import COMMON_OPTIONS, get_preset, plain_value, presets, resolve_rules

    fmt = pick_format(fmt, output, ("table", "json", "yaml"), "table")
    if name is None:
        rows: List[Dict[str, Any]] = [{"name": p.name, "family": p.family.name, "title": p.title,
                 "description": p.description, "players": list(p.players)} for p in presets()]
        if fmt != "table":
            write_text(output, dump({"variants": rows}, fmt))
            return
        width = max(len(r["name"]) for r in rows)
        lines = [f"{r['name'].ljust(width)}  {r['title']}: {r['description']}" for r in rows]
        lines.append("")
        lines.append("prefcli variants NAME lists every option of a preset.")
        write_text(output, "\n".join(lines) + "\n")
        return
    from prefcli.model.records import counts_text
    from prefcli.rules.presets import OptionError
    try:
        preset = get_preset(name)
    except OptionError as exc:     # a command-line argument, as `--variant nope` and `schema nope`: exit 2
        raise OptionError(exc.message, kind="usage") from None
    try:
        rules = resolve_rules({"variant": preset.name}, sets=parse_sets(sets))
    except OptionError as exc:      # a bad --set is a usage error here as in every command (exit 2)
        raise OptionError(exc.message, kind="usage") from None
    options = [o for o in COMMON_OPTIONS if o.name != "variant"] + list(preset.family.options)
    items: List[Dict[str, Any]] = []
    for o in options:
        value = rules.values.get(o.name)
        reading: Dict[str, Any] = {}
        if o.inferred:     # a number the seeds do not give: why this default, and the other readings
            reading = {"inferred": True, **({"why": o.why} if o.why else {}), **({"see": o.see} if o.see else {}),
                       "alternatives": [{"value": v, "meaning": m} for v, m in o.alternatives]}
        if o.informational:   # kept with the record, read by no rule
            reading["informational"] = o.informational
        items.append({"name": o.name, "value": plain_value(value) if value is not None else None,
                      "values": o.describe_values(), "meaning": o.meaning, **reading,
                      **({"overridden": True} if o.name in rules.overridden else {})})
    state = [{"name": f.name, "scope": f.scope, "kind": f.kind, "meaning": f.meaning}
             for f in preset.family.state]
    if fmt != "table":
        write_text(output, dump({"variant": preset.name, "title": preset.title, "family": preset.family.name,
                              "description": preset.description, "players": list(preset.players),
                              "options": items, "state": state}, fmt))
        return
    lines = [f"{preset.name}: {preset.title}", preset.description,
             f"family {preset.family.name}; played by {counts_text(preset.players)} players; words: "
             + ", ".join(f"{k} = {v}" for k, v in preset.family.words.items()), ""]
    width = max(len(i["name"]) for i in items)
    for i in items:
        v = i["value"]
        shown = "none" if v is None else ("yes" if v is True else "no" if v is False else
                                          "[" + ", ".join(str(x) for x in v) + "]" if isinstance(v, list) else str(v))
        mark = " *" if i.get("overridden") else ""
        lines.append(f"{i['name'].ljust(width)}  {shown}{mark}")
        lines.append(f"{''.ljust(width)}    {i['meaning']} (values: {i['values']})")
        if i.get("informational"):
            lines.append(f"{''.ljust(width)}    informational: {i['informational']}")
        if i.get("inferred"):
            if i.get("see"):
                lines.append(f"{''.ljust(width)}    inferred: the reading is {i['see']}'s")
            else:
                others = "; ".join(f"{a['value']}: {a['meaning']}" for a in i["alternatives"])
                lines.append(f"{''.ljust(width)}    inferred: {i.get('why', '')}"
                             + (f"; other readings: {others}" if others else ""))
    if state:
        lines += ["", "state (what a sheet carries so the game goes on from it: a record's start.state):"]
        kinds = {"count": "a whole number", "sizes": "a list of numbers", "seat": "a player"}
        for f in state:
            what = kinds[f["kind"]] + (" per player" if f["scope"] == "player" else "")
            lines.append(f"{f['name'].ljust(width)}  {what}")
            lines.append(f"{''.ljust(width)}    {f['meaning']}")
    write_text(output, "\n".join(lines) + "\n")
