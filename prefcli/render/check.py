"""validate's report for people: one ``ok:`` line per valid input, and the count.

The problems themselves go to standard error as ``file:line:col: path: message`` (the CLI prints
them for every format but json); this is what goes to standard output.
"""
from __future__ import annotations

from typing import Any, List


def render_table(report: Any, quiet: bool = False) -> str:
    from prefcli.model.values import display_name
    lines: List[str] = []
    if not quiet:
        for f in report.files:
            if f.valid:
                extra = f", {f.deals} deals" if f.deals is not None else ""
                lines.append(f"ok: {display_name(f.file)} ({f.kind or 'document'}{extra})")
        if len(report.files) > 1 and report.valid:
            lines.append(summary_line(report))
    return "".join(line + "\n" for line in lines)


def summary_line(report: Any) -> str:
    """``N valid, M invalid`` (the CLI prints it on stderr when something is invalid)."""
    return f"{len(report.files) - report.invalid} valid, {report.invalid} invalid"
