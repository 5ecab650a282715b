"""`prefcli schema record|sheet`: print the shipped JSON Schema."""
from __future__ import annotations

import click

from prefcli.cli.util import output_option, quiet_option


from prefcli.cli.util import EXAMPLES_HEADER
from prefcli.io.schemas import KINDS


@click.command("schema", epilog=EXAMPLES_HEADER + """
  prefcli schema record > record.schema.json
  prefcli schema validation | jq .properties.files
""")
@click.argument("kind", type=click.Choice(list(KINDS)))
@output_option
@quiet_option
def command(kind: str, output: str, quiet: bool) -> None:
    """Print the JSON Schema (Draft 2020-12) of a document prefcli reads or writes.

    record, sheet and tournament are inputs; the others are the reports of the commands
    (validation: validate -f json; replay: replay -f json; settlement: settle -f json;
    stats: stats -f json; import: import --report json;
    analysis: analyze -f json).
    """
    from prefcli.cli.util import pick_format, write_text
    from prefcli.io.schemas import schema_text
    pick_format(None, output, ("json",), "json")      # -o schema.yaml is refused, not mislabelled
    text = schema_text(kind)
    write_text(output, text if text.endswith("\n") else text + "\n")
