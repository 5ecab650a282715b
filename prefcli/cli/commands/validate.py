"""`prefcli validate`: build a checker, run it, let a reporter render the results."""
from __future__ import annotations

from typing import Any, Dict, List

import click

from prefcli.cli.util import CheckFailed, expand_inputs


def check_paths(paths: List[str]) -> List[Dict[str, Any]]:
    """One result per input: file, kind, valid, problems (located)."""
    from prefcli.model.diagnostics import InputError
    from prefcli.io.documents import load_document
    from prefcli.rules.checks import check_document

    results = []
    for path in expand_inputs(paths):
        try:
            doc = load_document(path)
        except InputError as exc:
            results.append({"file": exc.problems[0].file or path, "kind": None, "valid": False,
                            "problems": exc.problems})
            continue
        problems = check_document(doc)
        deals = doc.data.get("deals") if isinstance(doc.data, dict) else None
        results.append({"file": doc.name, "kind": doc.kind, "valid": not problems, "problems": problems,
                        "deals": len(deals) if isinstance(deals, list) else None})
    return results


def _text_report(results: List[Dict[str, Any]], quiet: bool) -> None:
    bad = 0
    for r in results:
        for p in r["problems"]:
            click.echo(p.text(), err=True)
        if r["valid"]:
            if not quiet:
                what = r["kind"] or "document"
                extra = f", {r['deals']} deals" if r.get("deals") is not None else ""
                click.echo(f"ok: {r['file']} ({what}{extra})")
        else:
            bad += 1
    if not quiet and len(results) > 1:
        click.echo(f"{len(results) - bad} valid, {bad} invalid", err=bad > 0)


def _json_report(results: List[Dict[str, Any]]) -> None:
    import json
    out = {
        "valid": all(r["valid"] for r in results),
        "files": [{"file": r["file"], "kind": r["kind"], "valid": r["valid"],
                   "problems": [p.as_dict() for p in r["problems"]]} for r in results],
    }
    click.echo(json.dumps(out, ensure_ascii=False, indent=2))


@click.command("validate")
@click.argument("inputs", nargs=-1, required=True, metavar="FILE... | DIR | -")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: problems as file:line:col: path: message on stderr; json: one report on stdout")
@click.option("-q", "--quiet", is_flag=True, help="print only the problems, nothing for valid files")
def command(inputs: List[str], fmt: str, quiet: bool) -> None:
    """Check records and sheets: the JSON Schema, then the rules of the game.

    Every problem of a file is reported, each with its place. Exit status 0 when everything is
    valid, 1 when something is not, 2 for a usage error.
    """
    results = check_paths(list(inputs))
    if fmt == "json":
        _json_report(results)
    else:
        _text_report(results, quiet)
    if not all(r["valid"] for r in results):
        raise CheckFailed("invalid input")
