"""`prefcli report`: everything a club shares about a game (or a tournament) in one page.

This module gathers the facts, each from its one owner: the sheet and its entries from the
scorer's ledger, money and payments from :mod:`prefcli.settle`, the replay from the rules
engine; :mod:`prefcli.render.html` only lays them out.
"""
from __future__ import annotations

import os
from dataclasses import field
from prefcli.model.slots import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from prefcli.app.draw import Loaded, load_game

if TYPE_CHECKING:
    from prefcli.app.analysis_model import DealAnalysis
    from prefcli.model.diagnostics import Problem
    from prefcli.rules.presets import Rules
    from prefcli.rules.replayed import DealReplay
    from prefcli.settle import InputResult, Standing, Summary, Tournament


@dataclass
class OptionDiff:
    name: str
    value: Any
    default: Any


@dataclass
class GameReport:
    """One game: the loaded input, its settlement, its rules' differences, its replays."""

    loaded: Loaded
    settled: InputResult
    options: List[OptionDiff]
    replays: List[DealReplay] = field(default_factory=list)      # every full deal's
    analyses: List[DealAnalysis] = field(default_factory=list)   # report --analyze

    @property
    def name(self) -> str:
        return self.loaded.name

    @property
    def rules(self) -> Rules:
        return self.loaded.source.rules


@dataclass
class Report:
    title: str
    games: List[GameReport]
    tournament: Optional[Tournament] = None
    summary: Optional[Summary] = None
    standings: Optional[List[Standing]] = None
    problems: List[Problem] = field(default_factory=list)   # rounds that could not be read


def _placed(doc: Any, step: Any) -> Any:
    """Run `step`; a library error it raises becomes a problem located in `doc`."""
    from prefcli.model.diagnostics import InputError, PrefcliError
    try:
        return step()
    except InputError:
        raise
    except PrefcliError as exc:
        if exc.is_usage:
            raise
        raise InputError([doc.place(exc)]) from None


def option_diffs(rules: Rules) -> List[OptionDiff]:
    """Every option whose value differs from the preset's own (the record's or --set's house rules)."""
    from prefcli.rules.presets import resolve_rules
    defaults = resolve_rules({"variant": rules.variant}).values   # the preset's own, coerced alike
    out = []
    for name, value in rules.values.items():
        if name == "variant":
            continue
        default = defaults.get(name)
        if value != default:
            out.append(OptionDiff(name, value, default))
    return out


def game_report(file: str, variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = (),
                price: Any = None, coin: Any = None) -> GameReport:
    from prefcli.settle import SettleOptions, settle_document
    loaded = load_game(file, variant, sets)
    options = SettleOptions(variant=variant, sets=tuple(sets), price=price, coin=coin)
    obj = loaded.result.record if loaded.result is not None else loaded.sheet
    settled = _placed(loaded.doc, lambda: settle_document(obj, options, loaded.name))
    replays: List[Any] = []
    if loaded.result is not None:
        record = loaded.result.record
        full = {d.pos for d in record.deals if getattr(d, "hands", None) is not None}
        if full:
            from prefcli.rules.engine import replay_record
            replays = [r for r in replay_record(record, loaded.result.rules, only=full) if r.hands is not None]
    return GameReport(loaded, settled, option_diffs(loaded.source.rules), replays)


def build_report(file: str, variant: Optional[str] = None, sets: Sequence[Tuple[str, Any]] = ()) -> Report:
    """A game's report, or a tournament's (a pref-tournament/1 file listing its rounds)."""
    from prefcli.io.documents import load_document
    from prefcli.model.diagnostics import InputError
    from prefcli.settle import TOURNAMENT_FORMAT, tournament_from_data

    if file != "-" and os.path.isdir(file):
        return _folder_report(file, variant, sets)
    doc = load_document(file)
    data = doc.data
    if isinstance(data, dict) and data.get("format") == TOURNAMENT_FORMAT:
        base = os.path.dirname(file) if file != "-" else ""
        from prefcli.io.tournament import check_listed_inputs
        t = _placed(doc, lambda: check_listed_inputs(tournament_from_data(data, base), file))
        if not t.inputs:
            raise InputError([doc.problem(("format",), "this tournament file lists no rounds (inputs:); "
                                          "report its folder instead, as prefcli settle does")])
        return _tournament(t, t.inputs, variant, sets, t.name or os.path.basename(file))
    game = game_report(file, variant, sets)
    return Report(game_title(game), [game])


def _folder_report(folder: str, variant: Optional[str], sets: Sequence[Tuple[str, Any]]) -> Report:
    """A folder as `prefcli settle` reads one: its pref-tournament/1 file (if any) and its rounds."""
    from prefcli.io.documents import load_document
    from prefcli.model.diagnostics import InputError
    from prefcli.settle import TOURNAMENT_FORMAT, Tournament, tournament_from_data
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(folder) for f in fs
                   if f.lower().endswith((".yaml", ".yml", ".json")))
    t, rounds = None, []
    for f in files:
        doc = load_document(f)
        if isinstance(doc.data, dict) and doc.data.get("format") == TOURNAMENT_FORMAT:
            if t is not None:
                raise InputError([doc.problem(("format",), "a second tournament file in the folder")])
            from prefcli.io.tournament import check_listed_inputs
            t = _placed(doc, lambda: check_listed_inputs(tournament_from_data(doc.data, os.path.dirname(f)), f))
        else:
            rounds.append(f)
    if not rounds:
        from prefcli.model.diagnostics import Problem
        raise InputError([Problem("no game records or sheets (.yaml, .yml, .json) in this folder", (), folder)])
    t = t or Tournament()
    return _tournament(t, t.inputs or tuple(rounds), variant, sets, t.name or os.path.basename(folder.rstrip("/")))


def _tournament(t: Tournament, inputs: Sequence[str], variant: Optional[str], sets: Sequence[Tuple[str, Any]],
                title: str) -> Report:
    from prefcli.settle import standings, summarize
    games = [game_report(src, variant, sets, t.price, t.coin) for src in inputs]
    summary = summarize([g.settled for g in games], t)
    nets = []
    for g in games:
        assert g.settled.settlement is not None    # settle_document settles or raises
        nets.append((g.settled.source, g.settled.settlement.net))
    table = standings(nets, t, summary.players)
    return Report(title, games, t, summary, table)


def report_inputs(file: str, report: Report) -> List[str]:
    """Every file the report read (the page must not be written over any of them)."""
    return [file] + [g.name for g in report.games if g.name != file]


def game_title(game: GameReport) -> str:
    meta: Dict[str, Any] = {}
    if game.loaded.result is not None:
        meta = dict(getattr(game.loaded.result.record, "meta", {}) or {})
    elif game.loaded.sheet is not None:
        meta = dict(getattr(game.loaded.sheet, "meta", {}) or {})
    parts = [str(meta[k]) for k in ("event", "date", "site") if meta.get(k)]
    return " · ".join(parts) if parts else os.path.basename(game.name)
