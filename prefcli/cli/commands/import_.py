"""`prefcli import`: other programs' saved files → prefcli records and sheets (options only;
the pipeline is prefcli.app.importing, the report prefcli.render.importing)."""
from __future__ import annotations

import os
from typing import List, Optional, Sequence, Tuple

import click

from prefcli.cli.completion import complete_importer
from prefcli.cli.util import Count, EXAMPLES_HEADER, note, quiet_option
from prefcli.render import choices

REPORT_CHOICES = choices("import")


def _expand(paths: Sequence[str]):
    """(file, found in a folder) for each input: a folder gives every file in it, recursively,
    sorted (hidden files left out); files no importer recognises are then skipped, not errors."""
    from pathlib import Path
    from prefcli.app.inputs import folder_files
    out: List[Tuple[str, bool]] = []
    for p in paths:
        if p not in ("-", "") and Path(p).is_dir():     # Path("") is the current folder
            found = sorted(str(f) for f in folder_files(p)
                           if not any(part.startswith(".") for part in f.relative_to(p).parts))
            if not found:
                raise click.UsageError(f"{p}: no files in this folder")
            out.extend((f, True) for f in found)
        else:
            out.append((p, False))
    return out


@click.command("import", epilog=EXAMPLES_HEADER + """
  prefcli import pulya_20251124160000_3_20.json -o game.yaml
  prefcli import preferans-backup-2026-07-14.json --check --report json
  prefcli import saves/ -o imported/
  prefcli import preferansRu.bts --deal 5 | prefcli replay -
""")
@click.argument("files", metavar="FILE…", nargs=-1)
@click.option("--from", "from_", metavar="NAME", default="auto", show_default=True, shell_complete=complete_importer,
              help="the program that wrote the file (see --list); auto: detect it from the content")
@click.option("-o", "--output", default=None, metavar="OUT",
              help="write here (- for stdout, the default); a folder for several documents")
@click.option("-f", "--format", "fmt", type=click.Choice(["json", "yaml"]), default=None,
              help="output format (default: from OUT's extension, else yaml)")
@click.option("--report", "report_fmt", type=click.Choice(REPORT_CHOICES), default="table", show_default=True,
              help="how the loss report and the check are written to stderr (json, yaml: a "
                   "pref-import-report/1 document)")
@click.option("--strict", is_flag=True, help="fail (exit 1, nothing written) instead of dropping anything")
@click.option("--check", "check_only", is_flag=True,
              help="compare the program's own totals with prefcli's rescoring; exit 1 on a difference "
                   "(writes nothing unless -o is given)")
@click.option("--deal", "deal_no", type=Count(1, 100000), default=None, metavar="N",
              help="of a file with several problems (Bridge studio), import only problem N")
@click.option("--list", "list_", is_flag=True, help="list the importers and exit")
@quiet_option
def command(files: Sequence[str], from_: str, output: Optional[str], fmt: Optional[str], report_fmt: str,
            strict: bool, check_only: bool, deal_no: Optional[int], list_: bool, quiet: bool) -> None:
    """Import saved games from other programs (FILE, a folder of them, or - for stdin).

    The format is detected from the content (--from NAME to name it). Each file becomes a
    record (pref-record/1) where it holds deal facts, or a sheet (pref-sheet/1, with its running
    log) where it holds only a score sheet, in canonical form. What could not be carried is
    listed on stderr (--report json for JSON); --strict fails instead. Where the file holds the
    program's own totals, prefcli rescores the record under the mapped preset and lists, deal by
    deal, where the sheets differ and which option would explain it.
    """
    from prefcli import render
    from prefcli.app.importing import ImportReport, import_source, output_names, read
    from prefcli.io.importers import detect
    from prefcli.io.output import make_folder
    from prefcli.cli.util import CheckFailed, pick_format, write_text
    from prefcli.io.writer_json import dump
    from prefcli.model.diagnostics import InputError
    from prefcli.render.importing import list_text

    if list_:
        click.echo(list_text(), nl=False)
        return
    if not files:
        raise click.UsageError("give one or more files to import (or --list to see the importers)")
    if from_ != "auto":
        from prefcli.io.importers import importers
        names = [i.name for i in importers()]
        if from_ not in names:
            raise click.UsageError(f"--from {from_}: no such importer (known: auto, {', '.join(names)})")
    if files.count("-") > 1:
        raise click.UsageError("- (stdin) can be read once")

    results = []
    errors = []
    inputs = _expand(files)
    if output is not None and not os.path.isdir(output):
        from prefcli.io.output import check_not_input
        check_not_input(output, [p for p, _ in inputs])     # refused before anything is read
    for path, in_folder in inputs:
        try:
            source = read(path)
            if in_folder and from_ == "auto" and len(detect(source)) != 1:
                from prefcli.model.values import display_name
                note(f"{display_name(path)}: skipped (not a saved file of a known program)", quiet)
                continue
            result = import_source(source, from_)
        except InputError as exc:
            if quiet or render.canonical("import", report_fmt) == "table":
                for p in exc.problems:
                    click.echo(p.text(), err=True)
            errors.append((path, exc.problems))
            continue
        if deal_no is not None:
            labelled = [o for o in result.outputs if o.label == str(deal_no)]
            if labelled:
                chosen = labelled[0]
            elif len(result.outputs) == 1 and deal_no == 1:
                chosen = result.outputs[0]
            else:
                have = ", ".join(o.label for o in result.outputs if o.label) or "1"
                raise click.UsageError(f"--deal {deal_no}: {result.file} has no problem {deal_no} to import "
                                       f"(it has {have})")
            if chosen.label:
                result.notes = [n for n in result.notes if n.deal in (None, deal_no)]
            chosen.label = ""
            result.outputs = [chosen]
        results.append(result)

    differ = [r for r in results if r.check.differences]
    # -q: no report of what was carried or lost, unless it is the answer to a failed --check
    if not quiet or (check_only and differ):
        click.echo(render.render("import", report_fmt, ImportReport(results, errors)), err=True, nl=False)

    invalid = [r for r in results if r.problems]
    lossy = [r for r in results if r.losses]
    if invalid:
        click.echo(f"prefcli: {len(invalid)} file(s) import to documents that do not validate; nothing written",
                   err=True)
        raise CheckFailed("invalid")
    if strict and lossy:
        n = sum(len(r.losses) for r in lossy)
        click.echo(f"prefcli: --strict: {n} loss(es); nothing written", err=True)
        raise CheckFailed("losses")
    if check_only and output is None:
        if errors or differ:
            raise CheckFailed("check")
        return

    docs = [(r, o) for r in results for o in r.outputs]
    dest = "-" if output is None else output
    if len(docs) > 1 or (dest != "-" and os.path.isdir(dest)) or dest.endswith(("/", os.sep)):
        if dest == "-":
            n = len(docs)
            raise click.UsageError(f"{n} documents to write: give -o FOLDER (one file each)"
                                   + (" or --deal N" if any(len(r.outputs) > 1 for r in results) else ""))
        make_folder(dest, len(docs))
        ext = fmt or "yaml"
        planned = [(o, target) for r in results for o, target in output_names(r, dest, ext)]
        targets = [t for _, t in planned]
        if len(set(targets)) != len(targets):
            raise click.UsageError("two inputs have the same base name: import them into different folders")
        for o, target in planned:
            write_text(target, dump(o.data, ext), [p for p, _ in inputs])
            note(f"wrote {target}", quiet)
    elif docs:
        _, o = docs[0]
        write_text(dest, dump(o.data, pick_format(fmt, dest, ("json", "yaml"), "yaml")), [p for p, _ in inputs])
    if errors or (check_only and differ):
        raise CheckFailed("import")
