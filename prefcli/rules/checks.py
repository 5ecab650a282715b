"""Checking records and sheets: the schema first, then the rules of the game.

Every check appends to a :class:`Problems` collector with the data path, so one run reports every
problem of a file; the loader's document turns paths into lines and columns. Card-play legality is
the rules engine's (``prefcli.engine.check_record``); this module calls it on every full deal.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from prefcli.model.cards import DECK, Contract, Decision, ladder
from prefcli.model.diagnostics import InputError, Problem, Problems
from prefcli.io.documents import Document, build_record, build_sheet, format_check, schema_problems
from prefcli.model.records import Adjust, Deal, Record


def check_document(doc: Document) -> List[Problem]:
    """All problems of a loaded document (empty when it is valid), located."""
    from prefcli.io.documents import paused_gc
    with paused_gc():
        return _check_document(doc)


def _check_document(doc: Document) -> List[Problem]:
    try:
        kind = format_check(doc, None)
    except InputError as exc:
        return exc.problems
    if kind == "tournament":
        return _tournament_rules(doc)
    probs = schema_problems(doc, kind)  # type: ignore[arg-type]
    if probs:
        return probs
    try:
        if kind == "sheet":
            build_sheet(doc, check_schema=False)
            return _sheet_rules(doc)
        record = build_record(doc, check_schema=False)
    except InputError as exc:
        return exc.problems
    problems = check_record(record)
    out = [doc.place(p) for p in problems]
    out.sort(key=lambda p: (p.line or 0, p.column or 0))
    return out


def _tournament_rules(doc: Document) -> List[Problem]:
    """A tournament file (settle's standings rules): checked by the same parser settle uses."""
    import os
    from prefcli.settle import SettlementError, tournament_from_data
    base = os.path.dirname(doc.name) if doc.name != "<stdin>" else ""
    try:
        t = tournament_from_data(doc.data, base)
    except SettlementError as exc:
        return [doc.problem(exc.path, exc.message)]
    missing = [f for f in getattr(t, "inputs", ()) if not os.path.exists(f)]
    return [doc.problem(("inputs",), f"no such input file: {f}") for f in missing]


def _sheet_rules(doc: Document) -> List[Problem]:
    from prefcli.rules.presets import OptionError, resolve_rules
    rules = doc.data.get("rules") or {}
    try:
        resolve_rules(rules)
    except OptionError as exc:
        return [doc.problem(exc.path, exc.message)]
    return []


def check_record(record: Record) -> List[Problem]:
    """Rule checks of a built record; problems carry data paths (not yet located)."""
    from prefcli.rules.presets import OptionError, resolve_rules

    problems = Problems()
    try:
        rules = resolve_rules(record.rules)
    except OptionError as exc:
        problems.add(exc.path or ("rules",), exc.message)
        rules = None
    players = record.players
    seated = set(players)
    if len(players) not in (3, 4):
        problems.add(("players",), f"{len(players)} players listed; a game has 3 or 4 players")
    if record.first_dealer is not None and record.first_dealer not in seated:
        problems.add(("first_dealer",), _not_seated(record.first_dealer, players))
    from prefcli.rules.table import dealers as seat_dealers, expected_dealers
    dealers = seat_dealers(record, rules)
    expected = expected_dealers(record, rules)
    misere_after = (rules.get("misere_after") if rules else None) or "8NT"
    rungs = {c: i for i, c in enumerate(ladder(misere_after))}
    for entry in record.deals:
        if isinstance(entry, Adjust):
            _check_adjust(entry, players, problems)
        else:
            _check_deal(entry, record, rules, dealers.get(entry.pos), expected.get(entry.pos), rungs, problems)
    if record.start is not None:
        _check_sheet_names(record.start.pool, ("start", "pool"), players, problems)
        _check_sheet_names(record.start.mountain, ("start", "mountain"), players, problems)
        for w, row in record.start.whists.items():
            if w not in seated:
                problems.add(("start", "whists", w), _not_seated(w, players))
            for on in row:
                if on not in seated:
                    problems.add(("start", "whists", w, on), _not_seated(on, players))
    if rules is not None and not problems:
        problems.extend(_engine_problems(record, rules))
    return list(problems)


def _engine_problems(record: Record, rules) -> List[Problem]:
    try:
        from prefcli.rules.engine import check_record as engine_check
    except ImportError:
        return []
    return list(engine_check(record, rules))


def _not_seated(name: str, players: Sequence[str]) -> str:
    return f"'{name}' is not seated at this table (players: {', '.join(players)})"


def _check_sheet_names(amounts: Dict[str, object], path: Tuple, players: Sequence[str], problems: Problems) -> None:
    for name in amounts:
        if name not in players:
            problems.add(path + (name,), _not_seated(name, players))


def _check_adjust(adj: Adjust, players: Sequence[str], problems: Problems) -> None:
    base = adj.path + ("adjust",)
    for area, items in (("pool", adj.pool), ("mountain", adj.mountain)):
        for name, _ in items:
            if name not in players:
                problems.add(base + (area, name), _not_seated(name, players))
    for w, on, _ in adj.whists:
        if w not in players:
            problems.add(base + ("whists", w), _not_seated(w, players))
        elif on not in players:
            problems.add(base + ("whists", w, on), _not_seated(on, players))
        elif on == w:
            problems.add(base + ("whists", w, on), f"'{w}' cannot write whists on himself")


def _defenders(players: Sequence[str], active: Sequence[str], declarer: str) -> List[str]:
    """The two defenders in whisting order: from the declarer's left, clockwise."""
    i = players.index(declarer)
    order = [players[(i + k) % len(players)] for k in range(1, len(players))]
    return [p for p in order if p in active]


def _check_deal(deal: Deal, record: Record, rules, dealer: Optional[str], expected: Optional[str],
                rungs: Dict[Contract, int], problems: Problems) -> None:
    path = deal.path
    n = deal.number
    players = record.players
    seated = set(players)
    c = deal.contract

    if deal.dealer is not None:
        if deal.dealer not in seated:
            problems.add(path + ("dealer",), _not_seated(deal.dealer, players))
        elif expected is not None and deal.dealer != expected:
            first = record.first_dealer or players[0]
            problems.add(path + ("dealer",),
                         f"deal {n}: the dealer should be {expected} (rotating left from first_dealer {first}"
                         + (", the same dealer again after an all-pass" if rules is not None and rules.get("allpass.same_dealer") else "")
                         + f"), not {deal.dealer}")
    dealer = deal.dealer if deal.dealer in seated else dealer
    active = record.active_players(dealer)
    four = len(players) == 4
    if four and dealer is not None and deal.dealer is None and (
            deal.declarer == dealer or dealer in deal.whist_map()):
        first = record.first_dealer or players[0]
        problems.add(path, f"deal {n}: by the rotation from first_dealer {first}, {dealer} deals this deal "
                           "(add dealer: if the rotation was different)")

    # declarer
    if c.is_all_pass:
        if deal.declarer is not None:
            problems.add(path + ("declarer",), f"deal {n}: an all-pass deal has no declarer")
        if deal.whist:
            problems.add(path + ("whist",), f"deal {n}: an all-pass deal has no whist decisions")
    else:
        if deal.declarer is None:
            problems.add(path, f"deal {n}: {c} needs a declarer")
        elif deal.declarer not in seated:
            problems.add(path + ("declarer",), _not_seated(deal.declarer, players))
        elif four and deal.declarer == dealer:
            problems.add(path + ("declarer",), f"deal {n}: {deal.declarer} deals and sits out with 4 players; "
                                               "the dealer cannot declare")

    declarer_ok = deal.declarer in seated and deal.declarer in active
    defenders = _defenders(players, active, deal.declarer) if declarer_ok else []

    # whist decisions
    wmap = deal.whist_map()
    for name, decision in deal.whist:
        wp = path + ("whist", name)
        if name not in seated:
            problems.add(wp, _not_seated(name, players))
        elif name == deal.declarer:
            problems.add(wp, f"deal {n}: {name} is the declarer and cannot also whist or pass as a defender")
        elif four and name == dealer:
            problems.add(wp, f"deal {n}: {name} deals and sits out, so is not a defender "
                             f"(a take-over by the dealer is written takeover: {name})")
    if c.is_tricks and declarer_ok and deal.whist:
        missing = [d for d in defenders if d not in wmap]
        if missing and all(k in seated for k in wmap):
            problems.add(path + ("whist",), f"deal {n}: the decision of {' and '.join(missing)} is missing "
                                            f"(the defenders are {', '.join(defenders)})")
    half = [p for p, d in deal.whist if d is Decision.HALF_WHIST]
    if half:
        name = half[0]
        hp = path + ("whist", name)
        if len(half) > 1:
            problems.add(hp, f"deal {n}: only one defender can half-whist")
        if rules is not None and not rules.get("half_whist", False):
            problems.add(hp, f"deal {n}: half-whist is not played under {rules.variant} (option half_whist)")
        elif not c.is_tricks or c.level not in (6, 7):
            problems.add(hp, f"deal {n}: half-whist is allowed only on 6 and 7, not on {c}")
        elif declarer_ok and len(defenders) == 2:
            first, second = defenders
            other = first if name == second else second
            by = rules.get("half_whist_by", "second") if rules is not None else "second"
            if wmap.get(other) is not Decision.PASS:
                problems.add(hp, f"deal {n}: {name} may half-whist only after {other} passed")
            elif by == "second" and name != second:
                problems.add(hp, f"deal {n}: only the second defender ({second}) may half-whist, "
                                 f"after the first ({first}) passed (option half_whist_by)")
    if deal.returned_by is not None:
        rp = path + ("return",)
        if deal.returned_by not in seated:
            problems.add(rp, _not_seated(deal.returned_by, players))
        elif not half:
            problems.add(rp, f"deal {n}: nothing to return: no defender half-whisted")
        elif deal.returned_by == half[0] or deal.returned_by == deal.declarer:
            problems.add(rp, f"deal {n}: the whist is returned by the passer (or the 4-player dealer), "
                             f"not by {deal.returned_by}")
    for key, who in (("takeover", deal.takeover), ("bomb", deal.bomb)):
        if who is not None and who not in seated:
            problems.add(path + (key,), _not_seated(who, players))
    if deal.concede and rules is not None and not rules.get("without_three", False):
        problems.add(path + ("concede",), f"deal {n}: conceding \"without three\" is not allowed under "
                                          f"{rules.variant} (option without_three)")
    for i, pen in enumerate(deal.penalties):
        if pen.player not in seated:
            problems.add(path + ("penalties", i, "player"), _not_seated(pen.player, players))
        if pen.whists_on is not None and pen.whists_on not in seated:
            problems.add(path + ("penalties", i, "whists", "on"), _not_seated(pen.whists_on, players))

    # contract against the winning bid
    if deal.bid is not None and not c.is_all_pass:
        if deal.bid.is_misere and not c.is_misere:
            problems.add(path + ("contract",), f"deal {n}: the misère was bid, so the contract must be the misère, not {c}")
        elif deal.bid.is_tricks and c.is_tricks and rungs.get(c, 0) < rungs.get(deal.bid, 0):
            problems.add(path + ("contract",), f"deal {n}: contract {c} is below the winning bid {deal.bid}")

    # tricks
    played = not (c.is_tricks and (not deal.whist or (wmap and all(d is not Decision.WHIST for d in wmap.values())))) \
        and not deal.concede
    if c.is_tricks and deal.returned_by is not None:
        played = True
    if c.is_tricks and c.level == 10 and rules is not None and rules.get("tens") == "checked":
        played = False          # a checked ten is not whisted, so it needs no tricks (seed 003)
    if deal.tricks is not None:
        # Seed 002: in a 3-player eglė the two talon-led tricks "played by the dealer" that a talon
        # card wins belong to nobody, so the players' tricks may add up to 8 or 9.
        unowned = 2 if (c.is_all_pass and not four and rules is not None
                        and rules.get("allpass.talon") == "dealer-plays") else 0
        _check_tricks(deal, deal.tricks_map() or {}, "tricks", players, active, dealer, four, problems, unowned)
    elif deal.hands is None and deal.claim is None and deal.play is None and played \
            and (c.is_all_pass or c.is_misere or deal.whist):
        problems.add(path, f"deal {n}: {c} was played, so the tricks are needed "
                           "(tricks: {name: count, …} for every active player)")
    if deal.claim is not None:
        for name, _ in deal.claim:
            if name not in seated:
                problems.add(path + ("claim", name), _not_seated(name, players))

    # cards
    if deal.hands is not None:
        _check_cards(deal, active, dealer, four, players, problems)
    elif deal.discard is not None and deal.talon is None:
        pass


def _check_tricks(deal: Deal, tricks: Dict[str, int], key: str, players: Sequence[str], active: Sequence[str],
                  dealer: Optional[str], four: bool, problems: Problems, unowned: int = 0) -> None:
    path = deal.path + (key,)
    n = deal.number
    ok = True
    for name, count in tricks.items():
        if name not in players:
            problems.add(path + (name,), _not_seated(name, players))
            ok = False
        elif four and name == dealer and not deal.contract.is_all_pass:
            if name == deal.declarer or name in deal.whist_map():
                ok = False
                continue  # already reported as the sitting-out dealer
            problems.add(path + (name,), f"deal {n}: {name} deals and sits out with 4 players, so takes no tricks "
                                         f"in a {deal.contract} deal")
            ok = False
        if count < 0:
            problems.add(path + (name,), f"deal {n}: trick count {count} is negative")
            ok = False
    if not ok:
        return
    missing = [p for p in active if p not in tricks]
    if missing:
        problems.add(path, f"deal {n}: no trick count for {', '.join(missing)} (every active player's count is needed)")
    total = sum(tricks.values())
    if not 10 - unowned <= total <= 10:
        expected = "10" if not unowned else f"{10 - unowned} to 10 (talon-led tricks may belong to nobody)"
        problems.add(path, f"deal {n}: the tricks add up to {total}, not {expected} "
                           f"({', '.join(f'{k} {v}' for k, v in tricks.items())})")


def _check_cards(deal: Deal, active: Sequence[str], dealer: Optional[str], four: bool,
                 players: Sequence[str], problems: Problems) -> None:
    path = deal.path
    n = deal.number
    hands = deal.hands_map() or {}
    for name, cards in hands.items():
        hp = path + ("hands", name)
        if name not in players:
            problems.add(hp, _not_seated(name, players))
        elif name not in active:
            problems.add(hp, f"deal {n}: {name} deals and sits out with 4 players, so holds no cards")
        if len(cards) != 10:
            problems.add(hp, f"deal {n}: {name} holds {len(cards)} cards; each active hand holds 10")
    for name in active:
        if name not in hands:
            problems.add(path + ("hands",), f"deal {n}: the hand of {name} is missing")
    talon = deal.talon
    if talon is None:
        problems.add(path, f"deal {n}: a full deal needs the two talon cards (talon:)")
        talon = ()
    elif len(talon) != 2:
        problems.add(path + ("talon",), f"deal {n}: the talon holds {len(talon)} cards; it holds 2")
    where: Dict[object, List[Tuple[str, ...]]] = {}
    for name, cards in hands.items():
        for i, card in enumerate(cards):
            where.setdefault(card, []).append(("hands", name))
    for card in talon:
        where.setdefault(card, []).append(("talon",))
    for card, places in where.items():
        if len(places) > 1:
            names = [p[1] if len(p) > 1 else "the talon" for p in places]
            problems.add(path + places[1], f"deal {n}: {card} is dealt twice ({' and '.join(names)})")
    if len(hands) == len(active) and all(len(c) == 10 for c in hands.values()) and len(talon) == 2:
        missing = [c for c in DECK if c not in where]
        if missing:
            problems.add(path + ("hands",), f"deal {n}: cards missing from the deal: {' '.join(map(str, missing))}")
    if deal.discard is not None:
        dp = path + ("discard",)
        if len(deal.discard) != 2:
            problems.add(dp, f"deal {n}: the discard is {len(deal.discard)} cards; the declarer discards 2")
        if deal.declarer in hands:
            pool = set(hands[deal.declarer]) | set(talon)
            for card in deal.discard:
                if card not in pool:
                    problems.add(dp, f"deal {n}: {deal.declarer} discarded {card}, which is neither in his hand "
                                     "nor in the talon")
        if len(set(deal.discard)) != len(deal.discard):
            problems.add(dp, f"deal {n}: the same card is discarded twice")
