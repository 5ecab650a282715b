"""`prefcli replay`: replay full deals trick by trick and check every call and card.

Only option parsing and rendering live here; the rules are in :mod:`prefcli.engine`.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import click

from prefcli.cli.util import CheckFailed, expand_inputs, output_option, parse_sets, pick_format, rules_options


def _sorted_hand(cards: Sequence[Any]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit.order, -int(c.rank))))


def _render_text(rep: Any, problems: Sequence[Any]) -> List[str]:
    lines: List[str] = []
    d = rep.deal
    head = f"deal {rep.number}"
    if rep.dealer:
        head += f" (dealer {rep.dealer}, first hand {rep.first_hand})"
    lines.append(head)
    if rep.hands is not None:
        width = max(len(p) for p in rep.hands) if rep.hands else 0
        for i, (p, cs) in enumerate(rep.hands.items()):
            label = "hands:" if i == 0 else ""
            lines.append(f"  {label:<9}{p:<{width}}  {_sorted_hand(cs)}")
    elif d.hands is not None:
        for p, cs in d.hands:
            lines.append(f"  hand:    {p}  {_sorted_hand(cs)}")
    if rep.talon is not None:
        lines.append(f"  talon:   {' '.join(str(c) for c in rep.talon)}")
    if rep.auction:
        calls = ", ".join(f"{s.player} {s.call}" for s in rep.auction)
        res = rep.auction_result
        if res is not None:
            calls += " → all pass" if res.winner is None else f" → {res.winner} with {res.bid}"
        lines.append(f"  auction: {calls}")
    if rep.discard is not None:
        lines.append(f"  discard: {' '.join(str(c) for c in rep.discard)}")
    c = rep.contract or d.contract
    if c is not None:
        text = str(c)
        if not c.is_all_pass and (rep.declarer or d.declarer):
            text += f" by {rep.declarer or d.declarer}"
        lines.append(f"  contract: {text}")
    if rep.whist:
        w = ", ".join(f"{p} {dec}" for p, dec in rep.whist)
        extra = []
        if rep.open is not None:
            extra.append("open" if rep.open else "closed")
        if rep.takeover:
            extra.append(f"{rep.takeover} takes over")
        if rep.returned_by:
            extra.append(f"{rep.returned_by} returns the whist")
        lines.append(f"  whist:   {w}" + (f" ({', '.join(extra)})" if extra else ""))
    for t in rep.tricks:
        cards = ", ".join(f"{who if who is not None else 'talon'} {card}" for who, card in t.cards)
        won = t.winner if t.winner is not None else "nobody"
        lines.append(f"  trick {t.number:>2}: {cards} → {won}")
    if rep.claim:
        lines.append("  claim:   " + ", ".join(f"{p} {k}" for p, k in rep.claim.items()))
    if rep.counts is not None:
        lines.append("  result:  " + ", ".join(f"{p} {k}" for p, k in rep.counts.items()))
    elif d.tricks is not None:
        lines.append("  tricks:  " + ", ".join(f"{p} {k}" for p, k in d.tricks))
    for p in problems:
        lines.append(f"  problem: {p.message}")
    return lines


@click.command("replay")
@click.argument("files", nargs=-1, required=True)
@click.option("--deal", "deal_no", type=click.IntRange(min=1), default=None, metavar="N",
              help="replay only deal N (1-based)")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="output format")
@click.option("--check", is_flag=True, help="print nothing but problems; exit 1 if any deal is illegal")
@rules_options
@output_option
def command(files: Sequence[str], deal_no: Optional[int], fmt: str, check: bool,
            variant: Optional[str], sets: Sequence[str], output: str) -> None:
    """Replay the deals of FILE… (files, folders, - for stdin): hands, auction, talon, discard,
    contract, whists, then trick by trick, and check every step under the record's preset."""
    from prefcli.model.diagnostics import InputError, Problem
    from prefcli.rules.engine import replay_record
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.rules.presets import OptionError, resolve_rules

    from prefcli.cli.util import write_text
    from prefcli.io.output import check_not_input

    inputs = expand_inputs(files)
    check_not_input(output, inputs)
    fmt = pick_format(fmt, output, ("text", "json"), "text")
    pairs = parse_sets(sets)
    failed = False
    json_deals: List[Dict[str, Any]] = []
    text_out: List[str] = []
    many = len(inputs) > 1
    for source in inputs:
        try:
            doc = load_document(source)
            record = build_record_fast(doc)
        except InputError as exc:
            failed = True
            for p in exc.problems:
                click.echo(p.text(), err=True)
            continue
        try:
            rules = resolve_rules(record.rules, variant=variant, sets=pairs)
        except OptionError as exc:
            if exc.is_usage:
                raise
            failed = True
            click.echo(doc.place(exc).text(), err=True)
            continue
        only = None
        if deal_no is not None:
            only = [deal_no - 1]
            if not any(getattr(e, "pos", None) == deal_no - 1 and hasattr(e, "contract") for e in record.deals):
                failed = True
                click.echo(f"{doc.name}: no deal {deal_no} (the record has {len(record.deals)} entries)", err=True)
                continue
        # validate's checks first: impossible cards, wrong counts, unknown players; under the
        # record's own rules they include the engine's replay, so --check needs nothing more
        from prefcli.rules.checks import check_record as validate_record
        overridden = bool(variant or pairs)
        vprobs = [p for p in validate_record(record) if not (overridden and p.kind == "play")]
        if only is not None:
            vprobs = [p for p in vprobs if len(p.path) < 2 or p.path[0] != "deals" or p.path[1] in only]
        by_deal: Dict[int, List[Problem]] = {}
        general: List[Problem] = []
        for p in vprobs:
            if len(p.path) >= 2 and p.path[0] == "deals" and isinstance(p.path[1], int):
                by_deal.setdefault(p.path[1], []).append(p)
            else:
                general.append(p)
        for p in general:
            failed = True
            click.echo(doc.place(p).text(), err=True)
        if check and not overridden:
            for pos in sorted(by_deal):
                failed = True
                for p in by_deal[pos]:
                    click.echo(doc.place(p).text(), err=True)
            continue
        reps = replay_record(record, rules, only=only)
        for rep in reps:
            seen = set()
            problems = []
            for p in by_deal.get(rep.deal.pos, []) + rep.unplayable + rep.problems:
                key = (p.path, p.message)
                if key not in seen:
                    seen.add(key)
                    problems.append(doc.place(p))
            if problems:
                failed = True
                for p in problems:
                    click.echo(p.text(), err=True)
            if check:
                continue
            if fmt == "json":
                # index: the position in `deals` (as in deals[i] paths); number: the 1-based deal number
                item: Dict[str, Any] = {"index": rep.deal.pos, "number": rep.deal.number}
                if many:
                    item["file"] = doc.name
                data = rep.as_dict()
                item.update({
                    "contract": data["contract"] or str(rep.deal.contract),
                    "declarer": data["declarer"] or rep.deal.declarer,
                    "tricks": data["tricks"] if data["tricks"] is not None else rep.deal.tricks_map(),
                })
                for key, value in data.items():
                    if key not in item:
                        item[key] = value
                item["problems"] = [p.as_dict() for p in problems]
                json_deals.append(item)
            else:
                if many and rep is reps[0]:
                    text_out.append(f"# {doc.name}")
                text_out.extend(_render_text(rep, problems))
                text_out.append("")
    if not check:
        if fmt == "json":
            import json
            write_text(output, json.dumps({"deals": json_deals}, ensure_ascii=False, indent=2) + "\n", inputs)
        elif text_out or output != "-":
            write_text(output, ("\n".join(text_out).rstrip("\n") + "\n") if text_out else "", inputs)
    if failed:
        raise CheckFailed("replay found problems")
