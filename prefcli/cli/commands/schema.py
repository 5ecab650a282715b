"""`prefcli schema record|sheet`: print the shipped JSON Schema."""
from __future__ import annotations

import click


@click.command("schema")
@click.argument("kind", type=click.Choice(["record", "sheet"]))
def command(kind: str) -> None:
    """Print the JSON Schema (Draft 2020-12) of records or sheets."""
    from prefcli.io.schemas import schema_text
    text = schema_text(kind)
    click.echo(text if text.endswith("\n") else text + "\n", nl=False)
