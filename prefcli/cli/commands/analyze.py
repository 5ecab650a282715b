"""`prefcli analyze`: double-dummy analysis of full deals (options only; the pipeline is
:mod:`prefcli.app.analyze`, the rendering :mod:`prefcli.render.analysis`)."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import click

from prefcli.cli.util import CheckFailed, expand_inputs, parse_sets, rules_options


@click.command("analyze")
@click.argument("files", nargs=-1, required=True)
@click.option("--deal", "deal_no", type=click.IntRange(min=1), default=None, metavar="N",
              help="analyse only deal N (1-based)")
@click.option("--table", "table", is_flag=True,
              help="also the declarer's tricks in every strain and the misère (his hand after the discard)")
@click.option("--discard", "discard", type=click.Choice(["played", "best"]), default="played", show_default=True,
              help="best: also find the discard that does best in the played contract")
@click.option("-j", "--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="analyse deals in this many processes (same results as --jobs 1)")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="output format (json: pref-analysis/1)")
@rules_options
def command(files: Sequence[str], deal_no: Optional[int], table: bool, discard: str, jobs: int, fmt: str,
            variant: Optional[str], sets: Sequence[str]) -> None:
    """Double-dummy analysis of the full deals of FILE… (files, folders, - for stdin): what
    perfect play gives from the opening lead and after every recorded trick, and each card that
    cost a trick with the card that would have kept the result. Contracts count the declarer's
    tricks; a misère the declarer's, the catchers playing to catch; an all-pass gives each
    player's bound (the most he must take when the other two play against him)."""
    from prefcli.app.analyze import AnalysisOptions, analyze_tasks, prepare_tasks
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.model.diagnostics import InputError
    from prefcli.render.analysis import analysis_document, report_text
    from prefcli.rules.presets import OptionError, resolve_rules

    pairs = parse_sets(sets)
    inputs = expand_inputs(files)
    options = AnalysisOptions(table=table, best_discard=discard == "best")
    many = len(inputs) > 1
    failed = False
    all_tasks: List[Tuple[Optional[str], Any]] = []
    problems: List[Any] = []
    for source in inputs:
        try:
            doc = load_document(source)
            record = build_record_fast(doc)
        except InputError as exc:
            failed = True
            for p in exc.problems:
                click.echo(p.text(), err=True)
                problems.append(p)
            continue
        try:
            rules = resolve_rules(record.rules, variant=variant, sets=pairs)
        except OptionError as exc:
            if exc.is_usage:
                raise
            failed = True
            p = doc.place(exc)
            click.echo(p.text(), err=True)
            problems.append(p)
            continue
        only = None
        if deal_no is not None:
            only = [deal_no - 1]
            if not any(getattr(e, "pos", None) == deal_no - 1 and hasattr(e, "contract") for e in record.deals):
                failed = True
                click.echo(f"{doc.name}: no deal {deal_no} (the record has {len(record.deals)} entries)", err=True)
                continue
        tasks, refused = prepare_tasks(record, rules, options, only)
        for p in refused:
            failed = True
            placed = doc.place(p)
            click.echo(placed.text(), err=True)
            problems.append(placed)
        all_tasks.extend((doc.name if many else None, t) for t in tasks)
    results = analyze_tasks([t for _, t in all_tasks], jobs=jobs)
    items = [(name, a) for (name, _), a in zip(all_tasks, results)]
    if fmt == "json":
        import json
        click.echo(json.dumps(analysis_document(items, problems), ensure_ascii=False, indent=2))
    elif items:
        click.echo(report_text(items))
    if failed:
        raise CheckFailed("analyze refused some deals")
