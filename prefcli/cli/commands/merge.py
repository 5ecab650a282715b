"""`prefcli merge PARTS…`: add up what shards wrote with `settle -f json` or `stats -f json`."""
from __future__ import annotations

from typing import Optional, Tuple

import click

from prefcli.cli.util import (EXAMPLES_HEADER, decimal_option, note, output_option, pick_format, quiet_option,
                              settlement_text, write_text)
from prefcli.io.output import check_not_input


@click.command("merge", epilog=EXAMPLES_HEADER + """
  prefcli settle part1/ --summary -f json > a.json
  prefcli merge a.json b.json
""")
@click.argument("parts", nargs=-1, required=True, metavar="PART.json... | -")
@click.option("-f", "--format", "fmt", type=click.Choice(["json", "table", "csv"]), default=None,
              help="output format: json (default; what the shards wrote), table, csv")
@click.option("--coin", metavar="C", default=None, help="smallest coin to round the money totals to")
@output_option
@quiet_option
def command(parts: Tuple[str, ...], fmt: str, coin: Optional[str], output: str, quiet: bool) -> None:
    """Merge partial results: the totals of one run over every shard's inputs.

    \b
      ls games/ | split -n r/4 - shard.        # four lists of files
      for s in shard.*; do xargs prefcli settle -f json < $s > $s.json & done; wait
      prefcli merge shard.*.json              # = prefcli settle games/ -f json

    Settlement parts (pref-settlement/1) add net whists and exact money; statistics parts
    (pref-stats/1) add every count and sum and merge the time lines in date order.
    """
    import json

    from prefcli.app.merge import merge_parts
    from prefcli.settle.stats import STATS_FORMAT
    check_not_input(output, parts)
    fmt = pick_format(fmt, output, ("json", "table", "csv"), "json")
    result = merge_parts(list(parts), coin=decimal_option(coin, "--coin"))
    for text in result.notes:
        note(f"prefcli: note: {text}", quiet)
    if fmt == "json":
        text = json.dumps(result.data, ensure_ascii=False, indent=2) + "\n"
    elif result.format == STATS_FORMAT:
        from prefcli.render import stats as render
        text = render.table(result.stats) if fmt == "table" else render.csv_text(result.stats)
    else:
        text = settlement_text(result.data, fmt)
    write_text(output, text, parts)
