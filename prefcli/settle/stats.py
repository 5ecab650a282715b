"""Statistics over many games: a pure map of one scored game plus an exact merge.

:func:`game_stats` turns one game (its record, the scorer's :class:`~prefcli.scoring.ScoreResult`
and its :class:`~prefcli.settle.Settlement`) into a :class:`Stats` part; :func:`merge` adds two
parts. Every amount is an exact :class:`~fractions.Fraction` and every count an int, and a part
is only sums, counts and a sorted list of games, so ``merge`` is associative and commutative:
however the inputs are ordered, grouped, sharded or spread over machines, the merged statistics
are equal (``tests/test_stats_props.py`` checks it with hypothesis).

Nothing here reads the rules of the game a second time. Whether a contract was made is what the
scorer decided: its per-deal history (``ScoreResult.extra["deals"]``, the Lithuanian scorers) or,
where it keeps none, the rule keys of the ledger entries it wrote for the deal
(``contract.made`` …, the Russian scorer). Whists won and lost are the ledger's whists entries;
the result of a game is the settlement's net whists.
"""
from __future__ import annotations

from dataclasses import field
from prefcli.model.slots import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

if TYPE_CHECKING:  # types only: statistics import the scorer's and the settler's types lazily
    from prefcli.model.records import Deal, Record
    from prefcli.settle.methods import Settlement, SheetLike
    from prefcli.scoring import ScoreResult

STATS_FORMAT = "pref-stats/1"

#: The ways `--by` groups games (the key of a game is read from its record or sheet).
GROUPINGS = ("player", "event", "month", "variant")

#: Ledger rule keys that say a declared game was made or failed, for scorers without a history.
MADE_RULES = frozenset({"contract.made", "contract.unplayed", "misere.made"})
FAILED_RULES = frozenset({"contract.failed", "misere.failed"})

ZERO = Fraction(0)


def _add_counts(a: Mapping[str, Tuple[int, int]], b: Mapping[str, Tuple[int, int]]) -> Dict[str, Tuple[int, int]]:
    out = dict(a)
    for k, (d, m) in b.items():
        d0, m0 = out.get(k, (0, 0))
        out[k] = (d0 + d, m0 + m)
    return out


@dataclass(frozen=True)
class PlayerStats:
    """One player's sums over some games (all exact; merged by adding field by field)."""

    games: int = 0
    deals: int = 0                                  # deals dealt at a table where he sat
    contracts: Mapping[str, Tuple[int, int]] = field(default_factory=dict)  # "7S" → (declared, made)
    misere_made: int = 0
    misere_failed: int = 0
    whists_won: Fraction = ZERO                      # whists he wrote on the others
    whists_lost: Fraction = ZERO                     # whists the others wrote on him
    allpass_deals: int = 0                           # all-pass deals he played in (held cards)
    allpass_tricks: int = 0
    result: Fraction = ZERO                          # the sum of his net whists, game by game

    def __add__(self, o: "PlayerStats") -> "PlayerStats":
        return PlayerStats(self.games + o.games, self.deals + o.deals, _add_counts(self.contracts, o.contracts),
                           self.misere_made + o.misere_made, self.misere_failed + o.misere_failed,
                           self.whists_won + o.whists_won, self.whists_lost + o.whists_lost,
                           self.allpass_deals + o.allpass_deals, self.allpass_tricks + o.allpass_tricks,
                           self.result + o.result)

    @property
    def average(self) -> Fraction:
        return self.result / self.games if self.games else ZERO

    @property
    def declared(self) -> int:
        return sum(d for d, _ in self.contracts.values())

    @property
    def made(self) -> int:
        return sum(m for _, m in self.contracts.values())


@dataclass(frozen=True)
class HeadToHead:
    """What a player did against one opponent over the games they sat at together."""

    games: int = 0
    net: Fraction = ZERO             # the settlement's pairwise net (what he won from the opponent)
    whists_on: Fraction = ZERO       # whists he wrote on the opponent
    whists_by: Fraction = ZERO       # whists the opponent wrote on him

    def __add__(self, o: "HeadToHead") -> "HeadToHead":
        return HeadToHead(self.games + o.games, self.net + o.net, self.whists_on + o.whists_on,
                          self.whists_by + o.whists_by)


@dataclass(frozen=True, order=True)
class GameRow:
    """One game on the season's time line (for the cumulative picture and the ratings).

    Rows sort by date (text as written, ISO dates sort right), then event and source, so a merged
    time line is the same list whatever order the parts came in.
    """

    date: str
    event: str
    source: str
    variant: str
    results: Tuple[Tuple[str, Fraction], ...]      # (player, net whists) in seat order


@dataclass(frozen=True)
class Stats:
    """Statistics of some games, grouped (``--by``); the unit of map and merge."""

    by: str = "player"
    players: Mapping[str, Mapping[str, PlayerStats]] = field(default_factory=dict)   # group → player → stats
    h2h: Mapping[str, Mapping[Tuple[str, str], HeadToHead]] = field(default_factory=dict)  # group → (a, b)
    games: Tuple[GameRow, ...] = ()                  # sorted
    inputs: int = 0

    def __add__(self, o: "Stats") -> "Stats":
        return merge(self, o)


def _merge_maps(a: Mapping[Any, Any], b: Mapping[Any, Any]) -> Dict[Any, Any]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out[k] + v if k in out else v
    return out


def merge(a: Stats, b: Stats) -> Stats:
    """The statistics of both parts' games: sums, counts, and the two time lines merged in order."""
    if a.by != b.by:
        raise ValueError(f"cannot merge statistics grouped by {a.by} with statistics grouped by {b.by}")
    groups = set(a.players) | set(b.players)
    players = {g: _merge_maps(a.players.get(g, {}), b.players.get(g, {})) for g in groups}
    hg = set(a.h2h) | set(b.h2h)
    h2h = {g: _merge_maps(a.h2h.get(g, {}), b.h2h.get(g, {})) for g in hg}
    import heapq
    games = tuple(heapq.merge(a.games, b.games)) if a.games and b.games else (a.games or b.games)
    return Stats(a.by, players, h2h, games, a.inputs + b.inputs)


class StatsFold:
    """:func:`merge` of many parts, left to right, into one set of dicts and one list.

    Why: each :func:`merge` copies every map and the time line built so far, so folding a batch
    part by part took time as the square of its games (the time line) and of its distinct
    players (a season whose games each have their own players). Here each part is added in
    place, and the time line is sorted once at the end: a stable sort of the parts' sorted time
    lines in the order they came is what merging them one by one gives. :meth:`stats` is then
    equal to the fold of :func:`merge` (maps in the same order of first appearance).
    """

    def __init__(self, by: str = "player") -> None:
        self.by = by
        self.players: Dict[str, Dict[str, PlayerStats]] = {}
        self.h2h: Dict[str, Dict[Tuple[str, str], HeadToHead]] = {}
        self.games: List[GameRow] = []
        self.inputs = 0

    def add(self, part: Stats) -> None:
        if part.by != self.by:
            raise ValueError(f"cannot merge statistics grouped by {self.by} with statistics grouped by {part.by}")
        _add_into(self.players, part.players)
        _add_into(self.h2h, part.h2h)
        self.games.extend(part.games)
        self.inputs += part.inputs

    def stats(self) -> Stats:
        """The statistics of every part added (the fold's maps are handed over, not copied)."""
        return Stats(self.by, self.players, self.h2h, tuple(sorted(self.games)), self.inputs)


def _add_into(into: Dict[str, Dict[Any, Any]], groups: Mapping[str, Mapping[Any, Any]]) -> None:
    """`groups`' maps added into `into`'s, in place (new keys after the others, as merge does)."""
    for g, m in groups.items():
        acc = into.get(g)
        if acc is None:
            into[g] = acc = {}
        for k, v in m.items():
            acc[k] = acc[k] + v if k in acc else v


def merge_all(parts: Iterable[Stats], by: str = "player") -> Stats:
    """``merge`` of `parts` in order (:class:`StatsFold`: linear in the games and players)."""
    fold = StatsFold(by)
    for p in parts:
        fold.add(p)
    return fold.stats()


def group_key(by: str, meta: Mapping[str, Any], variant: Optional[str]) -> str:
    """The group a game belongs to: "" for per-player totals, else its event, month or variant."""
    if by == "player":
        return ""
    if by == "event":
        v = meta.get("event")
        return str(v) if v not in (None, "") else "(no event)"
    if by == "month":
        d = str(meta.get("date") or "")
        return d[:7] if len(d) >= 7 and d[4:5] == "-" else "(no date)"
    if by == "variant":
        return variant or "(no variant)"
    raise ValueError(f"unknown grouping '{by}'; valid: {', '.join(GROUPINGS)}")


def _outcomes(score_result: ScoreResult) -> Dict[int, bool]:
    """Deal number → made? for every declared game, as the scorer decided it."""
    out: Dict[int, bool] = {}
    history = (getattr(score_result, "extra", None) or {}).get("deals")
    if history:
        for row in history:
            if isinstance(row, dict) and row.get("made") is not None and row.get("deal") is not None:
                out[int(row["deal"])] = bool(row["made"])
    for e in score_result.ledger.entries:
        if e.deal is None or e.deal in out and history:
            continue
        if e.rule in MADE_RULES:
            out.setdefault(e.deal, True)
        elif e.rule in FAILED_RULES:
            out[e.deal] = False
    return out


def _history_tricks(score_result: ScoreResult) -> Dict[int, Mapping[str, int]]:
    out: Dict[int, Mapping[str, int]] = {}
    for row in (getattr(score_result, "extra", None) or {}).get("deals") or ():
        if isinstance(row, dict) and isinstance(row.get("tricks"), dict) and row.get("deal") is not None:
            out[int(row["deal"])] = row["tricks"]
    return out


def _allpass_tricks(record: Record, deal: Deal, score_result: ScoreResult, history: Mapping[int, Mapping[str, int]]
                    ) -> Optional[Mapping[str, int]]:
    """The tricks of an all-pass deal: as written, as the scorer counted them, or replayed."""
    t = deal.tricks_map()
    if t is not None:
        return t
    if deal.number in history:
        return history[deal.number]
    if deal.play is not None:
        from prefcli.rules.engine import replay_deal
        rep = replay_deal(record, deal, score_result.rules, score_result.dealers.get(deal.pos))
        return dict(rep.counts) if rep.counts is not None else None
    return None


def game_stats(by: str, source: str, players: Sequence[str], settlement: Settlement, meta: Mapping[str, Any],
               variant: Optional[str], score_result: Optional[ScoreResult] = None,
               sheet: Optional[SheetLike] = None) -> Stats:
    """The statistics of one game: a record's (with its `score_result`) or a bare sheet's.

    A sheet gives the game, its result and its whists only; a record gives every deal too.
    """
    from prefcli.model.records import Deal
    key = group_key(by, meta, variant)
    seats = tuple(players)
    deals = {p: 0 for p in seats}
    contracts: Dict[str, Dict[str, Tuple[int, int]]] = {p: {} for p in seats}
    mis_made = {p: 0 for p in seats}
    mis_failed = {p: 0 for p in seats}
    won = {p: ZERO for p in seats}
    lost = {p: ZERO for p in seats}
    ap_deals = {p: 0 for p in seats}
    ap_tricks = {p: 0 for p in seats}
    pair_w: Dict[Tuple[str, str], Fraction] = {}
    if score_result is not None:
        record = score_result.record
        for e in score_result.ledger.entries:
            on = e.on    # set exactly on whists entries (Entry)
            if e.area == "whists" and on is not None and e.rule != "start":
                won[e.player] += e.amount
                lost[on] += e.amount
                pair_w[(e.player, on)] = pair_w.get((e.player, on), ZERO) + e.amount
        outcome = _outcomes(score_result)
        history = _history_tricks(score_result)
        for d in record.deals:
            if not isinstance(d, Deal):
                continue
            for p in seats:
                deals[p] += 1
            c = d.contract
            if c.is_all_pass:
                t = _allpass_tricks(record, d, score_result, history)
                if t is not None:
                    for p, n in t.items():
                        if p in ap_tricks:
                            ap_deals[p] += 1
                            ap_tricks[p] += int(n)
                continue
            who = d.declarer
            if who not in contracts:
                continue
            made = outcome.get(d.number)
            if c.is_misere:
                if made is True:
                    mis_made[who] += 1
                elif made is False:
                    mis_failed[who] += 1
            name = str(c)
            n0, m0 = contracts[who].get(name, (0, 0))
            contracts[who][name] = (n0 + 1, m0 + (1 if made else 0))
    elif sheet is not None:
        for a, row in sheet.whists.items():
            for b, v in row.items():
                if a in won and b in lost and v:
                    won[a] += v
                    lost[b] += v
                    pair_w[(a, b)] = pair_w.get((a, b), ZERO) + v
    net = settlement.net
    stats = {p: PlayerStats(1, deals[p], contracts[p], mis_made[p], mis_failed[p], won[p], lost[p],
                            ap_deals[p], ap_tricks[p], Fraction(net[p])) for p in seats}
    h2h = {(a, b): HeadToHead(1, Fraction(settlement.pairwise[a][b]), pair_w.get((a, b), ZERO),
                              pair_w.get((b, a), ZERO))
           for a in seats for b in seats if a != b}
    game = GameRow(str(meta.get("date") or ""), str(meta.get("event") or ""), source, variant or "",
                   tuple((p, Fraction(net[p])) for p in seats))
    return Stats(by, {key: stats}, {key: h2h}, (game,), 1)


# ---------------------------------------------------------------------------------------------
# Plain data (pref-stats/1) and back: what shards write and `prefcli merge` reads
# ---------------------------------------------------------------------------------------------

def _amount(v: Fraction) -> Any:
    from prefcli.model.ledger import format_amount
    return format_amount(v)


def ranked(group: Mapping[str, PlayerStats]) -> List[Tuple[str, PlayerStats]]:
    """Players by total result (best first), then by name: an order no input order changes."""
    return sorted(group.items(), key=lambda kv: (-kv[1].result, kv[0]))


def to_data(stats: Stats) -> Dict[str, Any]:
    """The `pref-stats/1` document (exact amounts as ints or "12.5" / "40/3" text)."""
    groups = []
    for key in sorted(stats.players):
        rows = []
        for p, s in ranked(stats.players[key]):
            rows.append({
                "player": p, "games": s.games, "deals": s.deals,
                "result": _amount(s.result), "average": _amount(s.average),
                "declared": s.declared, "made": s.made,
                "contracts": {c: {"declared": d, "made": m} for c, (d, m) in sorted(s.contracts.items())},
                "misere": {"made": s.misere_made, "failed": s.misere_failed},
                "whists": {"won": _amount(s.whists_won), "lost": _amount(s.whists_lost)},
                "allpass": {"deals": s.allpass_deals, "tricks": s.allpass_tricks},
            })
        h2h = [{"player": a, "opponent": b, "games": h.games, "net": _amount(h.net),
                "whists_on": _amount(h.whists_on), "whists_by": _amount(h.whists_by)}
               for (a, b), h in sorted(stats.h2h.get(key, {}).items())]
        groups.append({"key": key, "players": rows, "head_to_head": h2h})
    from prefcli.model.values import display_name
    games = [{"date": g.date, "event": g.event, "source": display_name(g.source), "variant": g.variant,
              "results": {p: _amount(v) for p, v in g.results}} for g in stats.games]
    return {"format": STATS_FORMAT, "by": stats.by, "inputs": stats.inputs, "groups": groups, "games": games}


class PartError(ValueError):
    """A pref-stats/1 part that does not hold together, at `path` in it."""

    def __init__(self, path: Tuple[Any, ...], message: str) -> None:
        super().__init__(message)
        self.path = path


def from_data(data: Any) -> Stats:
    """A `pref-stats/1` document back into :class:`Stats` (raises ValueError on a bad one)."""
    from prefcli.model.records import to_fraction
    from prefcli.model.values import show
    if not isinstance(data, dict) or data.get("format") != STATS_FORMAT:
        raise ValueError(f"expected a {STATS_FORMAT} document")
    by = data.get("by", "player")
    if by not in GROUPINGS:
        raise ValueError(f"by: unknown grouping '{by}'")

    def num(v: Any) -> Fraction:
        return to_fraction(v)

    players: Dict[str, Dict[str, PlayerStats]] = {}
    h2h: Dict[str, Dict[Tuple[str, str], HeadToHead]] = {}
    for gi, g in enumerate(data.get("groups") or []):
        key = str(g["key"])
        players[key] = {}
        for ri, r in enumerate(g.get("players") or []):
            ps = players[key][str(r["player"])] = PlayerStats(
                int(r["games"]), int(r["deals"]),
                {str(c): (int(v["declared"]), int(v["made"])) for c, v in (r.get("contracts") or {}).items()},
                int(r["misere"]["made"]), int(r["misere"]["failed"]),
                num(r["whists"]["won"]), num(r["whists"]["lost"]),
                int(r["allpass"]["deals"]), int(r["allpass"]["tricks"]), num(r["result"]))
            # the figures derived from the others are not read back: one changed by hand would
            # be dropped without a word, so it must be what the others give
            for name, derived in (("average", ps.average), ("declared", ps.declared), ("made", ps.made)):
                if name in r and num(r[name]) != derived:
                    raise PartError(("groups", gi, "players", ri, name),
                                    f"{show(r[name])} is not what the row's own figures give ({_amount(Fraction(derived))}): "
                                    "a part edited by hand is not merged; run stats on its inputs again")
        h2h[key] = {(str(h["player"]), str(h["opponent"])): HeadToHead(int(h["games"]), num(h["net"]),
                                                                      num(h["whists_on"]), num(h["whists_by"]))
                    for h in g.get("head_to_head") or []}
    games = tuple(sorted(GameRow(str(x.get("date", "")), str(x.get("event", "")), str(x["source"]),
                                 str(x.get("variant", "")),
                                 tuple((str(p), num(v)) for p, v in x["results"].items()))
                         for x in data.get("games") or []))
    return Stats(by, players, h2h, games, int(data.get("inputs", len(games))))
