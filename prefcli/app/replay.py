"""Replaying records (``prefcli replay``) as a library function.

:func:`replay` reads every input, runs validate's checks (impossible cards, wrong counts,
unknown players) and replays every full deal under the record's preset (or `variant` and
`sets`), and returns a :class:`ReplayReport`: per file, each deal's replay with its located
problems. ``document()`` is the ``pref-replay/1`` report (``schemas/replay.schema.json``).
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from prefcli.model.diagnostics import InputError, Problem
from prefcli.model.formats import REPLAY_FORMAT


@dataclass(frozen=True)
class FileReplay:
    """One input: its deals replayed (each with its problems), and problems of the whole file."""

    file: str
    deals: List[Tuple[Any, List[Problem]]] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)      # not tied to a replayed deal

    @property
    def all_problems(self) -> List[Problem]:
        return self.problems + [p for _, ps in self.deals for p in ps]


@dataclass(frozen=True)
class ReplayReport:
    files: List[FileReplay]

    @property
    def problems(self) -> List[Problem]:
        return [p for f in self.files for p in f.all_problems]

    @property
    def ok(self) -> bool:
        return not self.problems

    def document(self) -> Dict[str, Any]:
        """The ``pref-replay/1`` report: every deal replayed, with its problems."""
        many = len(self.files) > 1
        deals: List[Dict[str, Any]] = []
        for f in self.files:
            for rep, problems in f.deals:
                # index: the position in `deals` (as in deals[i] paths); number: the 1-based deal number
                item: Dict[str, Any] = {"index": rep.deal.pos, "number": rep.deal.number}
                if many:
                    item["file"] = f.file
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
                deals.append(item)
        return {"format": REPLAY_FORMAT, "deals": deals}


class NoSuchDeal(Exception):
    pass


def replay_source(source: str, deal: Optional[int] = None, variant: Optional[str] = None,
                  sets: Sequence[Tuple[str, Any]] = (), check: bool = False) -> FileReplay:
    """Replay one file; `deal` (1-based) picks one deal; `check` skips the replay when the
    record's own rules apply (validate's checks then include the engine's).

    The cyclic collector is paused for the file, as score and validate pause it: a record
    builds hundreds of thousands of small objects and almost no cycles, and the collector's
    passes over them cost `replay --check` of 10,000 full deals as much as all the rest."""
    import gc
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _replay_source(source, deal, variant, sets, check)
    finally:
        if enabled:
            gc.enable()


def _replay_source(source: str, deal: Optional[int], variant: Optional[str],
                   sets: Sequence[Tuple[str, Any]], check: bool) -> FileReplay:
    from prefcli.io.documents import build_record_fast, load_document
    from prefcli.rules.checks import check_record as validate_record
    from prefcli.rules.engine import replay_record
    from prefcli.rules.presets import OptionError, resolve_rules

    try:
        doc = load_document(source)
        record = build_record_fast(doc, release=True)
    except InputError as exc:
        return FileReplay(exc.problems[0].file or source, problems=list(exc.problems))
    try:
        rules = resolve_rules(record.rules, variant=variant, sets=list(sets))
    except OptionError as exc:
        if exc.is_usage:
            raise
        return FileReplay(doc.name, problems=[doc.place(exc)])
    only = None
    if deal is not None:
        only = [deal - 1]
        if not any(getattr(e, "pos", None) == deal - 1 and hasattr(e, "contract") for e in record.deals):
            # placed at the `deals` key, as analyze places it: the deal asked for is not there
            return FileReplay(doc.name, problems=[doc.place(Problem(
                f"no deal {deal} (the record has {len(record.deals)} entries)", ("deals",), doc.name))])
    # validate's checks first: impossible cards, wrong counts, unknown players; under the
    # record's own rules they include the engine's replay, so --check needs nothing more
    overridden = bool(variant or sets)
    vprobs = [p for p in validate_record(record) if not (overridden and p.kind == "play")]
    if only is not None:
        vprobs = [p for p in vprobs if len(p.path) < 2 or p.path[0] != "deals" or p.path[1] in only]
    by_deal: Dict[int, List[Problem]] = {}
    general: List[Problem] = []
    for p in vprobs:
        if len(p.path) >= 2 and p.path[0] == "deals" and isinstance(p.path[1], int):
            by_deal.setdefault(p.path[1], []).append(p)
        else:
            general.append(doc.place(p))
    if check and not overridden:
        return FileReplay(doc.name, problems=general + [doc.place(p) for pos in sorted(by_deal)
                                                        for p in by_deal[pos]])
    out: List[Tuple[Any, List[Problem]]] = []
    for rep in replay_record(record, rules, only=only):
        seen = set()
        problems: List[Problem] = []
        for p in by_deal.get(rep.deal.pos, []) + rep.unplayable + rep.problems:
            key = (p.path, p.message)
            if key not in seen:
                seen.add(key)
                problems.append(doc.place(p))
        out.append((rep, problems))
    return FileReplay(doc.name, out, general)


def replay(sources: Sequence[str], deal: Optional[int] = None, variant: Optional[str] = None,
           sets: Sequence[Tuple[str, Any]] = (), check: bool = False,
           progress: Optional[Callable[[int, int], None]] = None) -> ReplayReport:
    """Replay every input (files, folders searched, ``-`` for stdin); see :func:`replay_source`."""
    from prefcli.app.inputs import expand_inputs
    paths = expand_inputs(list(sources))
    files: List[FileReplay] = []
    for path in paths:
        files.append(replay_source(path, deal, variant, sets, check))
        if progress is not None:
            progress(len(files), len(paths))
    return ReplayReport(files)
