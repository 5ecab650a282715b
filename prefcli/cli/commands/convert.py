"""`prefcli convert`: options → :func:`prefcli.app.convert.convert_source` → the one writer.

Canonical JSON ⇄ YAML, another preset, quick-entry notes → record.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import click

from prefcli.app.notes import NOTES_SUFFIXES
from prefcli.cli.completion import complete_set, complete_variant
from prefcli.cli.util import EXAMPLES_HEADER, quiet_option


def _kind_of_path(path: str) -> Optional[str]:
    low = path.lower()
    if low.endswith(".json"):
        return "json"
    if low.endswith((".yaml", ".yml")):
        return "yaml"
    return None


def _refuse_input(dest: str, source: str) -> None:
    """check_not_input, with convert's own way out named (--in-place)."""
    from prefcli.io.output import OutputError, check_not_input
    try:
        check_not_input(dest, [source])
    except OutputError as exc:
        raise OutputError(exc.file or dest, exc.message.replace("(choose another output file)",
                                                        "(choose another output file, or --in-place to rewrite it)")) from None


def _report(conv, fmt: str) -> None:
    if fmt == "json":
        import json
        click.echo(json.dumps(conv.report_data(), ensure_ascii=False, indent=2), err=True)
        return
    for item in conv.items:
        click.echo(item.text(), err=True)
    losses = len(conv.losses)
    click.echo(f"converted {conv.source} → {conv.target}: {len(conv.items)} change(s), {losses} loss(es)",
               err=True)


@click.command("convert", epilog=EXAMPLES_HEADER + """
  prefcli convert examples/sochi-3p.yaml -f json
  prefcli convert game.json -o game.yaml
  prefcli convert examples/sochi-3p.yaml --variant lithuanian -o lt.yaml
  prefcli convert notes.txt --players Ann,Bob,Cid --variant sochi -o game.yaml
""")
@click.argument("source", metavar="IN")
@click.option("-o", "--output", default=None, metavar="OUT", help="write here (- for stdout, the default); "
                                                                   "the extension picks the format")
@click.option("-f", "--format", "--to", "to", type=click.Choice(["json", "yaml"]), default=None,
              help="output format (default: from OUT's extension, else the input's own); --to is the old name")
@click.option("--in-place", is_flag=True, help="rewrite IN itself (atomically: temporary file + rename)")
@click.option("--variant", metavar="TARGET", default=None, shell_complete=complete_variant,
              help="rewrite the record for a table that plays TARGET (see prefcli variants); "
                   "for quick-entry notes: the record's preset")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", shell_complete=complete_set,
              help="set a rule option of the result, e.g. --set pool=30 (repeatable)")
@click.option("--report", "report_fmt", type=click.Choice(["table", "text", "json"]), default="table",
              show_default=True, help="how the list of changes and losses is written to stderr (text: table)")
@click.option("--strict", is_flag=True, help="fail (exit 1, nothing written) instead of dropping anything")
@click.option("--drop-comments", is_flag=True,
              help="write without the input's comments (needed for JSON output of a commented YAML file)")
@quiet_option
@click.option("--players", default=None, metavar="A,B,C",
              help="quick-entry notes: the players in clockwise seat order")
def command(source: str, output: Optional[str], to: Optional[str], in_place: bool, variant: Optional[str],
            sets: Sequence[str], report_fmt: str, strict: bool, quiet: bool, players: Optional[str],
            drop_comments: bool = False) -> None:
    """Write a record or sheet in canonical form, as JSON or YAML (IN or - for stdin).

    Canonical: keys in the documented order, cards and contracts in ASCII, hands as one string,
    small collections in flow style. Converting a canonical file again changes nothing.

    --variant TARGET rewrites a record for another preset: the rules block becomes TARGET with the
    record's options kept where TARGET has them; what TARGET cannot express is mapped or dropped,
    and every change and loss is listed on stderr (--report json for JSON); --strict fails instead.

    A .txt file (or --players) is read as quick-entry notes, one deal per line, e.g.
    `prefcli convert notes.txt --players Ann,Bob,Cid --variant sochi`; see the README.
    """
    from prefcli.cli.util import parse_sets, pick_format
    if in_place and source == "-":
        raise click.UsageError("--in-place needs a file, not stdin")
    if in_place and source.lower().endswith(NOTES_SUFFIXES):
        raise click.UsageError("--in-place would overwrite the notes with a record: use -o OUT")
    if in_place and output is not None:
        raise click.UsageError("--in-place rewrites IN itself: leave out -o")
    if in_place and to and _kind_of_path(source) and to != _kind_of_path(source):
        raise click.UsageError(f"--in-place keeps {source} a {_kind_of_path(source)} file; use -o to write {to}")
    dest = source if in_place else ("-" if output is None else output)
    # -o OUT's extension asks for a kind; --to (-f) disagreeing with it is a usage error
    wanted = None if in_place else (pick_format(to, dest, ("json", "yaml"), "", param="to") or None)
    if not in_place:
        # the one rule of every command: an output that would write over an input is refused
        # with exit 1 (decided by the file system, not the command line: see the README)
        _refuse_input(dest, source)
    set_pairs = parse_sets(sets)
    seated = [p.strip() for p in players.split(",") if p.strip()] if players else None
    from prefcli.io.parsing import paused_gc

    # The collector stays paused from the reading to the last write, as in score: a record is
    # hundreds of thousands of fresh containers and no cycles worth collecting, and a pass
    # between the check and the writing walked all of them (a tenth of a full record's convert)
    with paused_gc():
        _run(source, dest, to, wanted, in_place, variant, set_pairs, seated, report_fmt, strict, quiet,
             drop_comments)


def _run(source: str, dest: str, to: Optional[str], wanted: Optional[str], in_place: bool,
         variant: Optional[str], set_pairs: Sequence[Tuple[str, Any]], seated: Optional[List[str]],
         report_fmt: str, strict: bool, quiet: bool, drop_comments: bool) -> None:
    from prefcli.app.convert import convert_source
    from prefcli.cli.util import CheckFailed, write_text
    done = convert_source(source, variant, set_pairs, seated)
    conv = done.conversion
    input_kind = "yaml" if done.input_kind == "notes" else done.input_kind

    if conv is not None:
        if not quiet:
            _report(conv, report_fmt)
        if conv.invalid:      # what prefcli writes, prefcli reads: never an invalid record
            click.echo(f"prefcli: nothing written: the record converted to {conv.target} would not be "
                       f"valid ({len(conv.invalid)} problem(s) 'under the target' above)", err=True)
            raise CheckFailed("invalid result")
        if strict and conv.losses:
            click.echo(f"prefcli: --strict: {len(conv.losses)} loss(es); nothing written", err=True)
            raise CheckFailed("losses")

    kind = to or wanted or input_kind
    # written deal by deal: the plain data and text of one deal at a time (issue 11 item 1),
    # the input's comments placed as each part is written
    comments = [] if drop_comments else done.comments()
    if comments and kind == "json":
        _refuse_comments(done.doc, comments)
    write_text(dest, done.chunks(kind, comments), () if in_place else [source])


def _refuse_comments(doc, comments) -> None:
    """JSON cannot hold comments: a commented file is refused (with the list) unless
    --drop-comments says so."""
    from prefcli.cli.util import CheckFailed
    from prefcli.io.comments import describe

    what = "this comment would be lost" if len(comments) == 1 else f"these {len(comments)} comments would be lost"
    click.echo(f"prefcli: {doc.name}: JSON has no comments, so {what} "
               "(--drop-comments writes the JSON without them; YAML keeps them):", err=True)
    for line in describe(comments, doc.name):
        click.echo(line, err=True)
    raise CheckFailed("comments")
