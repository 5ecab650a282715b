"""Every speed ratio of prefcli in one run, printed as one table (issue 18).

    python benchmarks/run_all.py [--quick] [--pairs N] [--only TEXT]

Makes its corpora once with benchmarks/generate.py into benchmarks/out/ (gitignored; 10,000-deal
summary and full records as YAML and JSON, the summary YAML with one comment and with comments
in several places, 1,000 records of 30 deals), then measures each row as alternating
whole-process runs of prefcli (A) and its baseline (B), through benchmarks/_timing.py: the ratio
is the median [min–max] over the pairs of A's wall time / B's. The CPU-time ratio (user + sys)
is printed beside it: it is the steadier one on a shared machine, except for `--jobs 2`, whose
point is wall time. Baselines pause the garbage
collector as prefcli does. Goals are reported, never enforced: timings depend on the machine.

--quick: 3 pairs and no full-deal rows that take more than a few seconds a run.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _timing as T  # noqa: E402

N = 10000


@dataclass
class Row:
    label: str
    a: Callable[[], List[str]]
    b: Callable[[], List[str]]
    goal: Optional[float]        # ratio A / B (wall) at most this
    slow: bool = False           # left out by --quick
    note: str = ""
    group: str = ""
    same_output: bool = False    # A and B are both prefcli and must print the same bytes
    result: Optional[T.Pair] = field(default=None, repr=False)


def corpora() -> dict:
    out = T.OUT
    c = {
        "sum.yaml": T.generate(out / f"sum{N}.yaml", "--deals", str(N), "--seed", "1"),
        "sum.json": T.generate(out / f"sum{N}.json", "--deals", str(N), "--seed", "1", "--json"),
        "full.yaml": T.generate(out / f"full{N}.yaml", "--deals", str(N), "--seed", "1", "--full"),
        "full.json": T.generate(out / f"full{N}.json", "--deals", str(N), "--seed", "1", "--full", "--json"),
        "dir": T.generate(out / "many1000x30", "--records", "1000", "--deals-per-record", "30", "--seed", "1"),
    }
    commented = out / f"sum{N}-comment.yaml"
    if not commented.exists():
        # One trailing comment on line 2: the same data, but the record leaves the fast line reader.
        lines = c["sum.yaml"].read_text(encoding="utf-8").split("\n")
        lines[1] += "  # the players, clockwise"
        commented.write_text("\n".join(lines), encoding="utf-8")
    c["comment.yaml"] = commented
    comments = out / f"sum{N}-comments.yaml"
    if not comments.exists():
        comments.write_text(with_comments(c["sum.yaml"].read_text(encoding="utf-8")), encoding="utf-8")
    c["comments.yaml"] = comments
    return c


def with_comments(text: str) -> str:
    """The record with comments where people write them: at the top, above `deals:`, above one
    deal in a thousand, after some trick counts, at the end (convert keeps them all)."""
    out = ["# a commented record", ""]
    deal = 0
    for line in text.splitlines():
        if line.startswith("deals:"):
            out.append("# the deals")
        if line.startswith("- "):
            deal += 1
            if deal % 1000 == 7:
                out.append(f"# deal {deal}")
        if line.lstrip().startswith("tricks:") and deal % 1000 == 500:
            line += "  # checked"
        out.append(line)
    out.append("# the end")
    return "\n".join(out) + "\n"


def rows(c: dict) -> List[Row]:
    P = T.prefcli
    s = lambda k: str(c[k])  # noqa: E731
    yaml_ = lambda k: (lambda: T.python(T.BASE_YAML, s(k)))  # noqa: E731
    json_ = lambda k: (lambda: T.python(T.BASE_JSON, s(k)))  # noqa: E731
    sample = str(T.ROOT / "examples" / "sochi-3p.yaml")
    return [
        Row("`prefcli --version` / `python -c \"import click\"`", lambda: P() + ["--version"],
            lambda: T.python(T.IMPORT_CLICK), 1.3, group="validate"),
        Row("`validate` 10k summary YAML / libyaml parse", lambda: P() + ["validate", "-q", s("sum.yaml")],
            yaml_("sum.yaml"), 1.5, group="validate"),
        Row("`validate` 10k full YAML / libyaml parse", lambda: P() + ["validate", "-q", s("full.yaml")],
            yaml_("full.yaml"), 1.5, slow=True, group="validate"),
        Row("`validate` 10k summary JSON / `json.load`", lambda: P() + ["validate", "-q", s("sum.json")],
            json_("sum.json"), 10, group="validate"),
        Row("`validate` 10k full JSON / `json.load`", lambda: P() + ["validate", "-q", s("full.json")],
            json_("full.json"), 10, slow=True, group="validate"),
        Row("`validate DIR`, 1,000 files × 30 deals / a loop of libyaml parses",
            lambda: P() + ["validate", "-q", s("dir")], lambda: T.python(T.BASE_YAML_DIR, s("dir")), 1.5,
            group="validate"),
        Row("`score -f json` 10k summary YAML / libyaml parse", lambda: P() + ["score", "-f", "json", s("sum.yaml")],
            yaml_("sum.yaml"), 0.5, group="score"),
        Row("`score -f json` 10k full YAML / libyaml parse", lambda: P() + ["score", "-f", "json", s("full.yaml")],
            yaml_("full.yaml"), 0.5, slow=True, group="score"),
        Row("`score -f json` 10k summary JSON / `json.load`", lambda: P() + ["score", "-f", "json", s("sum.json")],
            json_("sum.json"), 4, group="score"),
        Row("`score -f json` 10k full JSON / `json.load`", lambda: P() + ["score", "-f", "json", s("full.json")],
            json_("full.json"), 4, slow=True, group="score"),
        Row("`score` (table) / `score -f json`, 10k summary YAML", lambda: P() + ["score", s("sum.yaml")],
            lambda: P() + ["score", "-f", "json", s("sum.yaml")], 1.1, group="score"),
        Row("`score` (table) / `score -f json`, 10k summary JSON", lambda: P() + ["score", s("sum.json")],
            lambda: P() + ["score", "-f", "json", s("sum.json")], 1.1, group="score"),
        Row("`score -f json`, 10k YAML with one comment / without", lambda: P() + ["score", "-f", "json", s("comment.yaml")],
            lambda: P() + ["score", "-f", "json", s("sum.yaml")], 1.2, group="score", same_output=True),
        Row("`replay --check` 10k full YAML / libyaml parse", lambda: P() + ["replay", "--check", s("full.yaml")],
            yaml_("full.yaml"), 1.5, slow=True, group="replay"),
        Row("`convert -f yaml` 10k summary JSON / `json.load`", lambda: P() + ["convert", "-f", "yaml", s("sum.json")],
            json_("sum.json"), 15, group="convert"),
        Row("`convert -f yaml` 10k full JSON / `json.load`", lambda: P() + ["convert", "-f", "yaml", s("full.json")],
            json_("full.json"), 15, slow=True, group="convert"),
        Row("`convert -f json` 10k summary YAML / libyaml parse", lambda: P() + ["convert", "-f", "json", s("sum.yaml")],
            yaml_("sum.yaml"), 1.5, group="convert"),
        Row("`convert -f json` 10k full YAML / libyaml parse", lambda: P() + ["convert", "-f", "json", s("full.yaml")],
            yaml_("full.yaml"), 1.5, slow=True, group="convert"),
        Row("`convert -f yaml`, 10k YAML with comments / without", lambda: P() + ["convert", "-f", "yaml", s("comments.yaml")],
            lambda: P() + ["convert", "-f", "yaml", s("sum.yaml")], 1.2, group="convert"),
        Row("`convert -f json --drop-comments`, 10k YAML with comments / without",
            lambda: P() + ["convert", "-f", "json", "--drop-comments", s("comments.yaml")],
            lambda: P() + ["convert", "-f", "json", s("sum.yaml")], 1.2, group="convert", same_output=True),
        Row("`settle --jobs 1 -f json`, 1,000 files / a loop of libyaml parses",
            lambda: P() + ["settle", s("dir"), "-f", "json", "--jobs", "1"],
            lambda: T.python(T.BASE_YAML_DIR, s("dir")), 1.3, group="settle"),
        Row("`settle --jobs 2` / `--jobs 1`, 1,000 files", lambda: P() + ["settle", s("dir"), "-f", "json", "--jobs", "2"],
            lambda: P() + ["settle", s("dir"), "-f", "json", "--jobs", "1"], 0.6, group="settle", same_output=True),
        Row("`report examples/sochi-3p.yaml` / `prefcli --version`",
            lambda: P() + ["report", sample, "-o", str(T.OUT / "sochi-3p.html")], lambda: P() + ["--version"],
            None, note="goal: under 1 s", group="report"),
    ]


def measure(row: Row, pairs: int) -> T.Pair:
    result = T.pair(row.a(), row.b(), pairs)
    if row.same_output:
        a, b = T.run(row.a(), stdout=True), T.run(row.b(), stdout=True)
        if a.out != b.out or a.code != b.code:
            row.note = (row.note + "; " if row.note else "") + "OUTPUTS DIFFER"
    return result


def table(done: Sequence[Row]) -> List[str]:
    lines = ["| measurement (whole processes, 10k deals unless named) | wall ratio, median [min–max] | CPU ratio "
             "| A median | B median | A peak MiB | goal | met? |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in done:
        p = r.result
        med = p.ratio()[0]
        goal = "—" if r.goal is None else f"≤ {r.goal:g}"
        ok = "" if r.goal is None else ("yes" if med <= r.goal else "**no**")
        if r.note:
            ok = f"{ok} ({r.note})" if ok else r.note
        lines.append(f"| {r.label} | {T.fmt_ratio(p.ratio())} | {p.ratio('cpu')[0]:.2f} "
                     f"| {T.fmt_time(p.median('a'))} | {T.fmt_time(p.median('b'))} "
                     f"| {p.median('a', 'peak_mib'):.0f} | {goal} | {ok} |")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="3 pairs, leave out the slow full-deal rows")
    ap.add_argument("--pairs", type=int, default=None, help="alternated pairs per row (default 5; 3 with --quick)")
    ap.add_argument("--only", action="append", default=[],
                    help="only rows whose group or label contains TEXT (validate, score, replay, convert, "
                         "settle, report); repeatable")
    args = ap.parse_args(argv)
    pairs = args.pairs or (3 if args.quick else 5)
    c = corpora()
    todo = [r for r in rows(c) if not (args.quick and r.slow)
            and (not args.only or any(o == r.group or o in r.label for o in args.only))]
    print(T.header(pairs))
    done: List[Row] = []
    for r in todo:
        r.result = measure(r, pairs)
        done.append(r)
        print(table([r])[-1], file=sys.stderr, flush=True)    # a row as soon as it is measured
    print(f"finished with {T.load()}")
    print("\n".join(table(done)))
    return 1 if any("DIFFER" in r.note for r in done) else 0


if __name__ == "__main__":
    sys.exit(main())
