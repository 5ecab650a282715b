"""`prefcli score FILE`: the score sheet of a record, under its own preset or another."""
from __future__ import annotations

from typing import Any, Optional, Sequence

import click

from prefcli.cli.util import format_option, output_option, parse_sets, pick_format, rules_options


@click.command("score")
@click.argument("file", metavar="FILE")
@rules_options
@format_option("table", "json", "yaml", "csv")
@click.option("--explain", is_flag=True,
              help="list every entry of the sheet with its deal and rule (json/yaml: status.entries)")
@click.option("--after", type=click.IntRange(min=0), default=None, metavar="N",
              help="the sheet after deal N")
@output_option
def command(file: str, variant: Optional[str], sets: Sequence[str], fmt: str, explain: bool,
            after: Optional[int], output: str) -> None:
    """Compute the score sheet of a game record (FILE, or - for stdin).

    The json and yaml forms are pref-sheet/1 documents that `prefcli settle` reads, e.g.
    `prefcli score game.yaml -f json | prefcli settle -`. --variant rescores the record under
    another preset; --set NAME=VALUE overrides one option (see `prefcli variants NAME`).
    Full deals without `tricks` are replayed to count them. Use `prefcli validate` for every
    check of a record; score refuses what it cannot score.
    """
    import gc

    # A record builds hundreds of thousands of small objects and almost no reference cycles:
    # the cyclic collector's passes cost about twice the parse itself on a 10,000-deal record.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        _run(file, variant, sets, fmt, explain, after, output)
    finally:
        if gc_was_enabled:
            gc.enable()


def _run(file: str, variant: Optional[str], sets: Sequence[str], fmt: str, explain: bool,
         after: Optional[int], output: str) -> None:
    from prefcli.cli.util import dump, write_text
    from prefcli.io.output import check_not_input
    from prefcli.render import sheet as sheetio

    check_not_input(output, [file])
    fmt = pick_format(fmt, output, ("table", "json", "yaml", "csv"), "table")
    result = score_file(file, variant, parse_sets(sets))
    total = len(result.record.deals)
    if after is not None and after > total:
        raise click.UsageError(f"--after {after}: the record has {total} deal(s)")
    if fmt in ("json", "yaml"):
        text = dump(sheetio.sheet_document(result, after, explain=explain), fmt)
    elif fmt == "csv":
        text = sheetio.render_csv(result, after, explain=explain)
    else:
        text = sheetio.render_table(result, after)
        if explain:
            text = sheetio.render_explain(result, after) + "\n" + text
    write_text(output, text, [file])


def score_file(file: str, variant: Optional[str], sets: Sequence) -> Any:
    """Load and score a record; every failure becomes a located InputError (or OptionError).

    The record is built by the loader's fast path (no schema pass for a record whose fields are
    all known); when scoring fails, the schema and validate's rule checks run, so their precise
    messages come first.
    """
    from prefcli.model.diagnostics import InputError, PrefcliError
    from prefcli.io.documents import build_record_fast, load_document, schema_problems
    from prefcli.rules.presets import resolve_rules
    from prefcli.scoring import score

    doc = load_document(file)
    if doc.kind == "sheet":
        raise InputError([doc.problem(("format",), "this is a score sheet (pref-sheet/1); prefcli score "
                                      "reads a game record (pref-record/1): use prefcli settle for a sheet")])
    record = None
    try:
        record = build_record_fast(doc)
        rules = resolve_rules(record.rules, variant=variant, sets=sets)
        return score(record, rules)
    except Exception as exc:           # noqa: BLE001 - re-raised below, located
        if isinstance(exc, PrefcliError) and exc.is_usage:
            raise
        try:
            probs = schema_problems(doc, "record")
        except Exception:              # noqa: BLE001 - the schema pass must not hide the error
            probs = []
        if not probs and not isinstance(exc, InputError) and record is not None:
            try:                       # the rule checks of validate name the real fault
                from prefcli.rules.checks import check_record
                probs = [doc.place(p) for p in check_record(record) if p.severity == "error"]
            except Exception:          # noqa: BLE001
                probs = []
        if probs:
            raise InputError(probs) from None
        if isinstance(exc, InputError):
            raise
        if not isinstance(exc, PrefcliError) or exc.is_usage:
            raise                       # --set / --variant: nothing to locate in the file
        raise InputError([doc.place(exc)]) from None


