"""`prefcli schema record|sheet`: print the shipped JSON Schema."""
from __future__ import annotations

import click

from prefcli.cli.util import output_option


@click.command("schema")
@click.argument("kind", type=click.Choice(["record", "sheet", "stats"]))
@output_option
def command(kind: str, output: str) -> None:
    """Print the JSON Schema (Draft 2020-12) of records, sheets or statistics (pref-stats/1)."""
    from prefcli.cli.util import pick_format, write_text
    from prefcli.io.schemas import schema_text
    pick_format(None, output, ("json",), "json")      # -o schema.yaml is refused, not mislabelled
    text = schema_text(kind)
    write_text(output, text if text.endswith("\n") else text + "\n")
