"""Rewriting a record for a table that plays another preset (`prefcli convert --variant`).

The `rules` block becomes the target preset; the record's own overrides travel where the target
has an option of the same name that accepts the value (a club's house rules), and are reported as
lost otherwise. Deals are kept as they are where the target can express them. What it cannot
express is mapped where the seeds give a natural counterpart and otherwise dropped; every change
and every loss is a :class:`ReportItem`.

What the target can express is read from its option values, never from its name (variants are
data): a half-whist needs ``half_whist``, a dark deal ``dark``, a bomb ``bomb`` (Russian presets:
``dark``, whose meaning covers bombs), a take-over ``takeover``, a concession ``without_three``,
be visų ``without_all``.

The property that ties this to scoring (tested in tests/test_convert_invariant.py): when the report
has no loss, ``score(convert(R, P))`` equals ``score(R, variant=P)``. So every mapping that could
change a score is reported as a loss.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from prefcli.model.records import Deal, Record
from prefcli.model.diagnostics import PrefcliError
from prefcli.app.convert_deals import DealMapper, ReportItem, general_egle_items, show_value


@dataclass
class Conversion:
    """The converted record (model and canonical data) and what the conversion did."""

    record: Record
    #: the record's plain data, made when first asked for (convert writes it deal by deal
    #: from `record` instead: :func:`prefcli.rules.canonical.record_parts`)
    plain: Optional[Dict[str, Any]] = None
    items: List[ReportItem] = field(default_factory=list)
    source: str = ""
    target: str = ""
    #: what makes the result invalid or unscorable under the target (also among `items`, as
    #: losses): a record prefcli would refuse to read back, so the CLI writes nothing
    invalid: List[ReportItem] = field(default_factory=list)

    @property
    def data(self) -> Dict[str, Any]:
        if self.plain is None:
            from prefcli.rules.canonical import record_to_data
            self.plain = record_to_data(self.record)
        return self.plain

    @property
    def losses(self) -> List[ReportItem]:
        return [i for i in self.items if i.loss]

    def report_data(self) -> Dict[str, Any]:
        return {"from": self.source, "to": self.target, "losses": len(self.losses),
                "changes": [i.as_dict() for i in self.items]}


def convert_rules(rules: Mapping[str, Any], target: str,
                  sets: Sequence[Tuple[str, Any]] = ()) -> Tuple[Dict[str, Any], List[ReportItem]]:
    """The new `rules` mapping (flat dotted names) and the report of options dropped or set."""
    from prefcli.rules.presets import COMMON_OPTIONS, OptionError, flatten, get_preset

    try:
        preset = get_preset(target)
    except OptionError as exc:  # the target comes from --variant: a usage error
        raise OptionError(f"--variant {target}: {exc.message}", kind="usage") from None
    family = preset.family
    common = {o.name: o for o in COMMON_OPTIONS}
    items: List[ReportItem] = []
    source = rules.get("variant") if isinstance(rules.get("variant"), str) else "sochi"
    out: Dict[str, Any] = {"variant": preset.name}
    if str(source).strip().lower() != preset.name:
        items.append(ReportItem(None, "rules.variant", f"{source} → {preset.name}", False))
    for name, value, _path in flatten(rules):
        if name == "variant":
            continue
        opt = family.option(name) or common.get(name)
        if opt is None:
            items.append(ReportItem(None, f"rules.{name}",
                                    f"dropped ({show_value(value)}): {preset.name} has no option {name}", True))
            continue
        if value is None and opt.kind in ("decimal", "text"):
            out[name] = None
            continue
        try:
            opt.coerce(value)
        except ValueError:
            items.append(ReportItem(None, f"rules.{name}",
                                    f"dropped ({show_value(value)}): not a value of {name} under {preset.name} "
                                    f"({opt.describe_values()})", True))
            continue
        out[name] = value
    for name, value in sets:
        previous = out.get(name)
        out[name] = value
        what = f"set to {show_value(value)} (--set)"
        if previous is not None:
            what += f", was {show_value(previous)}"
        items.append(ReportItem(None, f"rules.{name}", what, False))
    return out, items


def _nest(flat: Mapping[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for name, value in flat.items():
        node = out
        parts = name.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def _check_result(record: Record) -> List[ReportItem]:
    """Problems of the converted record under its new rules (validate, then score), as losses:
    a record the target table cannot check or score has lost something on the way."""
    from prefcli.rules.presets import OptionError
    from prefcli.scoring import ScoringError, score
    from prefcli.rules.checks import check_record

    def deal_of(path) -> Optional[int]:
        if len(path) >= 2 and path[0] == "deals" and isinstance(path[1], int):
            return path[1] + 1
        return None

    def field_of(path) -> str:
        from prefcli.model.diagnostics import format_path
        if deal_of(path) is not None:
            return format_path(path[2:]) or "deal"
        return format_path(path) or "record"

    problems = check_record(record)
    if problems:
        return [ReportItem(deal_of(p.path), field_of(p.path), f"not valid under the target: {p.message}", True)
                for p in problems]
    try:
        score(record)
    except (ScoringError, OptionError) as exc:
        return [ReportItem(deal_of(exc.path), field_of(exc.path),
                           f"cannot be scored under the target: {exc.message}", True)]
    return []


def _refuse_other_table(record: Record, target_rules) -> None:
    """A record is played at its table: a 2-player husar record (a dummy hand that is nobody's,
    two-sector sheet, HUSAR.md H1, H16) has no 3-player reading, nor the other way round, so the
    conversion is refused with the reason rather than reported deal by deal."""
    from prefcli.rules.presets import OptionError
    preset = target_rules.preset
    n = len(record.players)
    if n in preset.players:
        return
    from prefcli.model.records import counts_text
    why = f"{n} players listed; {preset.name} is played by {counts_text(preset.players)} players"
    if n == 2:
        husar = ", ".join(p for p in _husar_presets())
        why += (": a two-player record is the husar game, whose dummy hand belongs to nobody and whose sheet "
                "has two sectors (HUSAR.md H1, H16); no third player's calls, whists or sheet can be made up "
                f"for it (convert it to a two-player preset: {husar})")
    elif preset.dummy is not None:
        why += (f": a {n}-player record has no dummy hand, and the husar game's two sectors cannot hold "
                f"{n} players' sheets (HUSAR.md H1, H16)")
    raise OptionError(f"cannot convert a {n}-player record to {preset.name}: {why}", ("players",))


def _husar_presets() -> List[str]:
    from prefcli.rules.presets import presets
    return [p.name for p in presets() if 2 in p.players]


def convert_record(record: Record, target: str, sets: Sequence[Tuple[str, Any]] = (),
                   check: bool = True) -> Conversion:
    """Rewrite `record` for a table that plays `target` (a preset name), with `sets` on top.

    With `check`, the result is validated and scored under the target, and what fails is
    reported as a loss (e.g. deals after the target game's end).

    Raises OptionError for an unknown preset or a bad `--set`; the record's own options that do
    not fit the target are reported, not raised.
    """
    from prefcli.rules.presets import OptionError, resolve_rules
    from prefcli.rules.table import dealers as seat_dealers
    from prefcli.rules.canonical import record_to_data

    flat, items = convert_rules(record.rules, target, sets)
    target_rules = resolve_rules(_nest({k: v for k, v in flat.items() if not (k in dict(sets))}),
                                 sets=[(k, v) for k, v in sets])
    _refuse_other_table(record, target_rules)
    new_rules = _nest(flat)
    try:
        source_rules = resolve_rules(record.rules)
    except OptionError:
        source_rules = None
    mapper = DealMapper(record, source_rules, target_rules)

    same_src = bool(source_rules.get("allpass.same_dealer", False)) if source_rules is not None else False
    same_dst = bool(target_rules.get("allpass.same_dealer", False))
    src_dealers = seat_dealers(record, source_rules, explicit=False, same_dealer=same_src)
    # who really dealt: a deal's own `dealer:` field, else the source's rotation
    actual = {e.pos: e.dealer or src_dealers.get(e.pos) for e in record.only_deals()}
    # deals whose seats depend on the dealer: 4 players (who sits out), full deals (who leads),
    # and deals that name their dealer
    seated = [e for e in record.only_deals()
              if mapper.table.sits_out_every_deal or e.is_full or e.dealer is not None]

    def mismatches(same: bool) -> List[Deal]:
        rotation = seat_dealers(record, target_rules, explicit=False, same_dealer=same)
        return [e for e in seated if rotation.get(e.pos) != actual[e.pos]]

    wrong = mismatches(same_dst)
    if wrong and not mismatches(not same_dst) and target_rules.family.option("allpass.same_dealer") is not None:
        # The deals were dealt by the other rotation; keep it, or the seats would not match.
        flat["allpass.same_dealer"] = not same_dst
        new_rules = _nest(flat)
        target_rules = resolve_rules(new_rules)
        mapper.dst = target_rules
        items.append(ReportItem(None, "rules.allpass.same_dealer",
                                f"set to {show_value(not same_dst)} as the deals were dealt ({target_rules.variant}'s "
                                f"default is {show_value(same_dst)}): otherwise from deal {wrong[0].number} on "
                                "the dealer, and so the seats, would not match the deals", True))
    elif wrong:
        items.append(ReportItem(wrong[0].number, "dealer",
                                f"the dealers of deals {', '.join(str(e.number) for e in wrong[:5])}"
                                + ("…" if len(wrong) > 5 else "") + f" do not follow {target_rules.variant}'s "
                                "rotation (the deals keep their own dealer: fields)", True))
    else:
        rotation = seat_dealers(record, target_rules, explicit=False, same_dealer=same_dst)
        moved = [e for e in record.only_deals() if rotation.get(e.pos) != actual[e.pos]]
        if moved:
            items.append(ReportItem(None, "dealer", f"from deal {moved[0].number} on the dealer rotation differs "
                                                    f"under {target_rules.variant} (the dealer "
                                                    + ("deals again" if same_dst else "passes on")
                                                    + " after an all-pass); no 3-player summary deal depends on it",
                                    False))
    dst_dealers = actual
    egle_items = general_egle_items(record, source_rules, target_rules)
    mapper.general = {i.deal - 1 for i in egle_items if i.deal is not None}
    deals = []
    for entry in record.deals:
        if isinstance(entry, Deal):
            entry = mapper.map(entry, dst_dealers.get(entry.pos))
        deals.append(entry)
    mapper.items += egle_items
    start = record.start
    if start is not None and mapper.families_differ:
        items.append(ReportItem(None, "start", f"the opening sheet is carried over as it is "
                                               f"({target_rules.word('pool')}, {target_rules.word('mountain')})",
                                False))
        if start.state:
            # the state's fields are the source family's (Family.state): what the target family
            # keeps alike (the same name, scope and kind: who deals next) is carried, the rest lost
            def same(name: str) -> bool:
                mine = source_rules.family.state_field(name) if source_rules is not None else None
                theirs = target_rules.family.state_field(name)
                return mine is not None and theirs is not None and \
                    (mine.scope, mine.kind) == (theirs.scope, theirs.kind)
            kept = {k: v for k, v in start.state.items() if same(str(k))}
            lost = [str(k) for k in start.state if k not in kept]
            if lost:
                items.append(ReportItem(None, "start.state",
                                        f"the game's state {', '.join(lost)} is "
                                        f"{source_rules.family.name if source_rules is not None else 'the source'}'s; "
                                        f"{target_rules.family.name} keeps other state, so it starts as a new game's"
                                        + (f" (kept: {', '.join(kept)})" if kept else ""), True))
            start = dataclasses.replace(start, state=kept)
    new_record = dataclasses.replace(record, rules=new_rules, deals=tuple(deals), start=start)
    all_items = items + mapper.items
    invalid = _check_result(new_record) if check else []
    all_items += invalid
    return Conversion(new_record, None, all_items,
                      source=source_rules.variant if source_rules is not None else str(record.rules.get("variant")),
                      target=target_rules.variant, invalid=invalid)


# ---------------------------------------------------------------------------------------------
# The convert pipeline of a file: what `prefcli convert` does before it writes
# ---------------------------------------------------------------------------------------------

@dataclass
class Converted:
    """A file converted: the plain document to write (`data`), the kind it was read as, the
    report of a preset change (`conversion`), and the loaded input (`doc`: its comments can be
    put back, :mod:`prefcli.io.comments`; None for notes)."""

    source: str
    plain: Optional[Dict[str, Any]]
    input_kind: str = "yaml"                  # json | yaml | notes
    conversion: Optional[Conversion] = None
    doc: Any = None
    #: a record's plain data as head, deals made one at a time, tail (when `plain` is None):
    #: what convert writes deal by deal (:func:`prefcli.io.writer_json.dump_chunks`)
    parts: Any = None
    #: whether the fast reader read `doc` (its text is then in the subset whose comments are
    #: found without composing the whole text: :func:`prefcli.io.comments_stream.scan_comments`)
    fast_read: bool = False

    @property
    def data(self) -> Dict[str, Any]:
        """The whole plain document (made now from `parts` when the record is streamed)."""
        return self.plain if self.plain is not None else self.parts.data()

    def comments(self) -> List[Any]:
        """The input's comments, each with the data path it belongs to (none for JSON or notes):
        found in one pass over the source lines when the fast reader read it, else from the
        node tree the loader composed (:func:`prefcli.io.comments_stream.locate_comments`)."""
        doc = self.doc
        if doc is None or doc.is_json or "#" not in doc.text:
            return []
        from prefcli.io.comments_stream import locate_comments
        return locate_comments(doc.text, doc._root if doc._root_loaded else None, self.fast_read)

    def chunks(self, kind: str, comments: Sequence[Any] = ()) -> Iterator[str]:
        """The document's canonical text as chunks, the plain data of one deal at a time alive;
        `comments` (YAML only: JSON has none) placed as each part is written.

        The whole text is made at once only for a sheet (small) and for comments whose part
        cannot be known before it is written (:func:`prefcli.io.comments_stream.plan_comments`)."""
        from prefcli.io.writer_json import dump, dump_chunks
        if comments and kind == "yaml":
            from prefcli.io.comments import place_comments
            from prefcli.io.comments_stream import NotStreamable, place_chunks, plan_comments
            from prefcli.io.writer_stream import batched
            try:
                if self.parts is None:
                    raise NotStreamable("not a record")
                plan = plan_comments(list(comments), self.parts.head, self.parts.tail,
                                     len(self.parts.record.deals))
            except NotStreamable:
                return iter((place_comments(dump(self.data, kind), list(comments)),))
            return batched(place_chunks(dump_chunks(self.parts.head, self.parts.entries(), self.parts.tail, kind),
                                        plan))
        if self.parts is None:
            return iter((dump(self.data, kind),))
        return dump_chunks(self.parts.head, self.parts.entries(), self.parts.tail, kind)

    @property
    def problems(self) -> List[Any]:
        return []


def convert_source(source: str, variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = (),
                   players: Optional[Sequence[str]] = None, notes: Optional[bool] = None) -> Converted:
    """Read a record, sheet or quick-entry notes (a path or ``-``), check it, and give the
    document to write: canonical, or rewritten for preset `variant` with `sets` on top.

    `notes`: None guesses (a .txt/.notes name, `players` given, or notes on stdin). Raises
    :class:`~prefcli.model.diagnostics.InputError` with every located problem; a bad
    ``--set``/``--variant`` is raised as a usage error (kind ``usage``).
    """
    from prefcli.app.notes import NOTES_SUFFIXES, notes_to_record, read_text
    from prefcli.io.documents import build_record, build_sheet, load_document, read_source
    from prefcli.io.writer import UnwritableValue
    from prefcli.rules.canonical import record_parts, record_to_data, sheet_to_data
    from prefcli.model.diagnostics import InputError
    from prefcli.rules.checks import check_document_record
    from prefcli.rules.presets import OptionError, get_preset

    low = source.lower()
    is_record_name = low.endswith((".json", ".yaml", ".yml"))
    is_notes = notes if notes is not None else (low.endswith(NOTES_SUFFIXES) or
                                                  (players is not None and not is_record_name))
    doc = None
    text_notes: Optional[Tuple[str, str]] = None
    if not is_notes and source == "-" and notes is None:
        from prefcli.io.quickentry import looks_like_quick_entry
        name, raw = read_source("-")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        if text and looks_like_quick_entry(name, text):
            is_notes, text_notes = True, (name, text.lstrip("\ufeff"))
        else:
            doc = load_document("-", raw=raw)
    if is_notes:
        name, text = text_notes if text_notes else read_text(source)
        record = notes_to_record(text, name, players, variant, sets)
        return Converted(name, record_to_data(record), "notes")
    if doc is None:
        doc = load_document(source)
    # read by the fast reader (no node tree composed): its comments are found line by line
    fast_read = not doc.is_json and not doc._root_loaded
    found, checked = check_document_record(doc, keep_data=False)
    problems = [p for p in found if p.severity == "error"]    # warnings: one reading
    if problems:
        raise InputError(problems)
    kind = "json" if doc.is_json else "yaml"
    try:
        if doc.kind == "sheet":
            if variant or sets:
                # the command line is right; this input cannot be converted so (issue 11 item 3:
                # a document validate accepts, or a refusal with exit 1 that says why)
                if variant:                 # a preset that does not exist is still a usage error
                    try:
                        get_preset(variant)
                    except OptionError as exc:
                        raise OptionError(f"--variant {variant}: {exc.message}", kind="usage") from None
                option = "--variant" if variant else "--set"
                raise InputError([doc.place(PrefcliError(
                    f"a sheet cannot be rewritten for another preset or option ({option} converts "
                    "records; a sheet is converted only between JSON and YAML)", ("format",)))])
            return Converted(doc.name, sheet_to_data(build_sheet(doc, check_schema=False)), kind, None, doc,
                             fast_read=fast_read)
        # check_document above ran the JSON Schema pass and built the record without errors: a
        # second schema pass was half of convert's time, a second build a tenth (issue 18).
        record = checked if checked is not None else build_record(doc, check_schema=False)
        if not (variant or sets):
            return Converted(doc.name, None, kind, None, doc, record_parts(record), fast_read)
        target = variant or record.variant or "sochi"
        try:
            conv = convert_record(record, target, sets)
        except OptionError as exc:
            if exc.path and not exc.is_usage:
                raise InputError([doc.place(exc)]) from None
            raise
        return Converted(doc.name, None, kind, conv, doc, record_parts(conv.record), fast_read)
    except UnwritableValue as exc:      # e.g. 1E-300: refused, located in the input
        raise InputError([doc.place(exc)]) from None
