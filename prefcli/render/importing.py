"""The words of `prefcli import` for people: the importer list, and the loss report with the check
(registered as the `import` report's `table` format; its json and yaml forms are the report's
``pref-import-report/1`` document)."""
from __future__ import annotations

from typing import Any, Dict, List


def list_text() -> str:
    from prefcli.io.importers import importers
    rows = [(i.name, i.writes, i.program, i.files) for i in importers()]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    lines = [f"{name:<{w0}}  {writes:<{w1}}  {program}: {files}" for name, writes, program, files in rows]
    lines.append("")
    lines.append("prefcli import FILE detects the format from the content; --from NAME names it.")
    return "\n".join(lines) + "\n"


def render_table(report: Any) -> str:
    """The loss report and the check for people (problems of unreadable files are printed by
    the command as they happen)."""
    out: List[str] = []
    for r in report.results:
        version = f" ({r.version})" if r.version else ""
        out.append(f"{r.file}: {r.importer.name}: {r.importer.program}{version}")
        for n in r.notes:
            out.append(f"  {n.text()}")
        for p in r.problems:
            out.append(f"  {p.text()}")
        if r.check.compared is not None:
            if r.check.differences:
                out.append(f"  check: {r.check.compared}: {len(r.check.differences)} difference(s)")
                for d in r.check.differences:
                    out.append(f"    {d.text()}")
            else:
                out.append(f"  check: {r.check.compared}: they agree")
        else:
            out.append("  check: the file holds no totals of the program's own to compare")
        kinds: Dict[str, int] = {}
        for o in r.outputs:
            kinds[o.kind] = kinds.get(o.kind, 0) + 1
        docs = ", ".join(f"{n} {k}{'s' if n > 1 else ''}" for k, n in kinds.items()) or "nothing"
        out.append(f"imported {r.file} → {docs}: {len(r.losses)} loss(es), "
                   f"{len(r.notes) - len(r.losses)} other note(s)")
    return "\n".join(out) + ("\n" if out else "")
