"""Generate large, realistic, legal Preferans records for benchmarks and load tests.

    python benchmarks/generate.py --deals 10000 --full --players 3 --variant sochi -o OUT.yaml
    python benchmarks/generate.py --deals 500 --variant leningrad --json -o OUT.json
    python benchmarks/generate.py --records 1000 --deals-per-record 30 -o DIR

Full deals (``--full``): a random deal, a legal auction played by simple bidding bots through
the rules engine's own auction machine, the talon and a discard, whist decisions, and a random
but legal card play (tests/test_engine_generated.py replays them through the engine). Summary
deals (default): contracts, whists and tricks with realistic frequencies (made and failed
contracts, half-whists, misères, runs of all-pass deals honouring the preset's exit levels).
Deterministic for a given ``--seed``. Records are written with PyYAML's plain dumper (or JSON)
using canonical card strings.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prefcli.model.cards import DECK, Call, CallKind, Card, Contract, ContractKind, Strain, Suit, MISERE  # noqa: E402
from prefcli.rules.engine import Auction, conventions, random_play  # noqa: E402
from prefcli.rules.presets import resolve_rules  # noqa: E402

NAMES = ["Ann", "Bob", "Cid", "Dan"]
STRAINS = [Strain.S, Strain.C, Strain.D, Strain.H, Strain.NT]


def _cards(cs: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cs)


def _sorted(cs: Sequence[Card]) -> List[Card]:
    return sorted(cs, key=lambda c: (c.suit.order, -int(c.rank)))


# ---------------------------------------------------------------------------------------------
# Hand evaluation for the bidding bots (crude on purpose: it only has to look plausible)
# ---------------------------------------------------------------------------------------------

def _estimate(hand: Sequence[Card]) -> Tuple[float, Strain]:
    by_suit: Dict[Suit, List[int]] = {s: [] for s in Suit}
    for c in hand:
        by_suit[c.suit].append(int(c.rank))
    best, best_strain = -1.0, Strain.NT
    for strain in STRAINS:
        total = 0.0
        for s, ranks in by_suit.items():
            n = len(ranks)
            if 14 in ranks:
                total += 1
            if 13 in ranks and n >= 2:
                total += 1 if 14 in ranks else 0.6
            if 12 in ranks and n >= 3:
                total += 0.5
            if strain.suit is s and n > 3:
                total += n - 3
        if strain is Strain.NT:
            total -= 0.5
        if total > best:
            best, best_strain = total, strain
    return best, best_strain


def _misere_hand(hand: Sequence[Card]) -> bool:
    high = sum(1 for c in hand if int(c.rank) >= 12)
    sevens = sum(1 for c in hand if int(c.rank) == 7)
    return high <= 1 and sevens >= 2


class Bot:
    def __init__(self, hand: Sequence[Card], rng: random.Random) -> None:
        est, strain = _estimate(hand)
        est += rng.uniform(1.3, 2.8)          # hope for the talon, and some nerve
        level = min(10, int(est))
        self.max: Optional[Contract] = Contract(ContractKind.TRICKS, level, strain) if level >= 6 else None
        self.misere = _misere_hand(hand) and rng.random() < 0.8

    def call(self, auction: Auction, rng: random.Random) -> Call:
        legal = auction.legal_calls()
        conv = auction.conv
        if self.misere:
            for c in legal:
                if c.kind is CallKind.BID and c.contract is not None and c.contract.is_misere \
                        and not c.contract.without_talon:
                    return c
        if self.max is None or self.max not in conv.rung:
            return legal[0]
        top = conv.rung[self.max]
        for c in legal:
            if c.kind is CallKind.HERE and auction.high is not None and conv.rung[auction.high] <= top:
                return c
        # the bot never bids without the talon (misere_without_talon): it plays what it buys
        bids = [c for c in legal if c.kind is CallKind.BID and c.contract is not None
                and c.contract.is_tricks and not c.contract.without_talon and conv.rung[c.contract] <= top]
        if bids:
            # mostly the lowest legal bid; sometimes a jump when allowed
            return bids[0] if rng.random() < 0.85 else rng.choice(bids[: min(4, len(bids))])
        return legal[0]


# ---------------------------------------------------------------------------------------------
# Full deals
# ---------------------------------------------------------------------------------------------

class Generator:
    def __init__(self, players: int, variant: str, seed: int) -> None:
        self.rules = resolve_rules({"variant": variant})
        self.conv = conventions(self.rules)
        self.players = NAMES[:players]
        self.rng = random.Random(seed)
        self.variant = variant
        self.lithuanian = self.rules.family.name.startswith("lithuanian")
        self.n_eglė = (4 if players == 4 else 3) if self.lithuanian else 0

    # -- shared bits -------------------------------------------------------------------------
    def _seats(self, dealer: str) -> List[str]:
        n = len(self.players)
        d = self.players.index(dealer)
        order = [self.players[(d + k) % n] for k in range(1, n + 1)]
        return order[:3]

    def _min_level(self, run: int) -> int:
        ex = self.conv.allpass_exit
        if run and ex:
            return ex[min(run, len(ex)) - 1]
        return 0

    # -- whist decisions -------------------------------------------------------------------
    def _whist(self, contract: Contract, defenders: List[str]) -> Tuple[Dict[str, str], Optional[str], bool]:
        """(decisions in order, returned_by, played)."""
        rng = self.rng
        first, second = defenders
        if contract.is_misere:
            if not self.lithuanian:
                return {}, None, True        # Russian: the misère is caught, not whisted
            # Lithuanian: the catchers say whist (seed 000 example 6, seed 002)
            both = rng.random() < 0.3
            lone = rng.choice(defenders)
            return {p: ("whist" if both or p == lone else "pass") for p in defenders}, None, True
        level = contract.level or 6
        p = {6: 0.7, 7: 0.55, 8: 0.4, 9: 0.3, 10: 0.25}[level]
        if self.conv.stalingrad and level == 6 and contract.strain is Strain.S:
            return {first: "whist", second: "whist"}, None, True
        d1 = "whist" if rng.random() < p else "pass"
        d2 = "whist" if rng.random() < p else "pass"
        if d1 == "pass" and d2 == "pass" and self.conv.half_whist and level in (6, 7) and rng.random() < 0.4:
            d2 = "half-whist"
            if self.conv.return_whist and rng.random() < 0.25:
                return {first: d1, second: d2}, first, True
            return {first: d1, second: d2}, None, False
        if self.conv.half_whist and self.conv.half_whist_by == "either" and d1 == "pass" and d2 == "pass":
            pass
        played = "whist" in (d1, d2)
        return {first: d1, second: d2}, None, played

    # -- play --------------------------------------------------------------------------------
    def _play(self, hands: Dict[str, List[Card]], seats: List[str], trump: Optional[Suit],
              talon_lead: Sequence[Card], talon_mode: str, dealer: str,
              claim_ok: bool) -> Tuple[List[List[Card]], Dict[str, int], Optional[Dict[str, int]]]:
        rng = self.rng
        stop = 10
        if claim_ok and rng.random() < 0.1:
            stop = rng.randint(6, 9)
        four = len(self.players) == 4
        played = random_play(rng, hands, seats, trump, talon_lead,
                             talon_owner=dealer if (talon_mode == "dealer-plays" and four) else None,
                             talon_wins=talon_mode != "lead-suit")
        won: Dict[str, int] = {p: 0 for p in seats}
        for _, winner in played:
            if winner is not None:
                won[winner] = won.get(winner, 0) + 1
        claim = None
        if stop < 10:
            # the rest, agreed: given out as the (silent) play of those tricks went
            claim = {}
            for _, winner in played[stop:]:
                claim[winner] = claim.get(winner, 0) + 1   # type: ignore[index]
        return [cards for cards, _ in played[:stop]], won, claim

    def full_deal(self, pos: int, dealer: str, run: int) -> Dict[str, Any]:
        rng = self.rng
        deck = list(DECK)
        rng.shuffle(deck)
        seats = self._seats(dealer)
        hands = {p: _sorted(deck[10 * i: 10 * i + 10]) for i, p in enumerate(seats)}
        talon = deck[30:32]
        deal: Dict[str, Any] = {"dealer": dealer,
                                "hands": {p: _cards(hands[p]) for p in seats},
                                "talon": _cards(talon)}
        general_egle = pos < self.n_eglė
        winner = None
        bid = None
        if not general_egle:
            auc = Auction(self.conv, seats, min_level=self._min_level(run))
            bots = {p: Bot(hands[p], rng) for p in seats}
            calls = []
            while not auc.done:
                p = auc.next_player()
                call = bots[p].call(auc, rng)
                auc.apply(call)
                calls.append(str(call))
            deal["auction"] = calls
            res = auc.result()
            winner, bid = res.winner, res.bid
        if winner is None:
            deal["contract"] = "all-pass"
            mode = self.conv.allpass_talon
            if mode == "by-seats":
                mode = "lead-suit" if len(self.players) == 3 else "dealer-plays"
            lead = list(talon) if mode in ("lead-suit", "dealer-plays") else []
            tricks, won, _ = self._play({p: hands[p] for p in seats}, seats, None, lead, mode, dealer, False)
            deal["play"] = [_cards(t) for t in tricks]
            if mode == "dealer-plays" and len(self.players) == 4:
                won.setdefault(dealer, 0)     # the dealer's talon tricks are listed, 0 too
            deal["tricks"] = {p: n for p, n in won.items()}
            return deal
        twelve = hands[winner] + list(talon)
        contract = bid
        assert contract is not None
        if contract.is_misere:
            discard = sorted(twelve, key=lambda c: -int(c.rank))[:2]
        else:
            est, strain = _estimate(twelve)
            want = Contract(ContractKind.TRICKS, max(6, min(10, int(est + rng.uniform(0.3, 1.3)))), strain)
            if self.conv.rung[want] > self.conv.rung[contract]:
                contract = want
            trump = contract.trump
            pool = [c for c in twelve if c.suit is not trump] or list(twelve)
            discard = sorted(pool, key=lambda c: (sum(1 for x in twelve if x.suit is c.suit), int(c.rank)))[:2]
        deal["discard"] = _cards(discard)
        deal["contract"] = str(contract)
        deal["declarer"] = winner
        i = seats.index(winner)
        defenders = [seats[(i + 1) % 3], seats[(i + 2) % 3]]
        decisions, returned, played = self._whist(contract, defenders)
        if decisions:
            deal["whist"] = decisions
        if returned:
            deal["return"] = returned
        whisters = [p for p, d in decisions.items() if d == "whist"]
        if played and len(whisters) == 1 and not returned:
            deal["open"] = rng.random() < 0.5
            if not deal["open"] and self.conv.whist_alone and contract.is_tricks:
                # where a lone whister who plays alone puts the passer's cards away (seed 000 l.89),
                # a played three-hand defence is his whist from both hands, closed (takeover: himself)
                deal["takeover"] = whisters[0]
        if contract.is_misere:
            deal["open"] = rng.random() < 0.6
        if not played:
            return deal
        play_hands = {p: list(hands[p]) for p in seats}
        play_hands[winner] = [c for c in twelve if c not in discard]
        trump = contract.trump if contract.is_tricks else None
        tricks, won, claim = self._play(play_hands, seats, trump, [], "unused", dealer, True)
        deal["play"] = [_cards(t) for t in tricks]
        if claim:
            deal["claim"] = claim
        deal["tricks"] = {p: n for p, n in won.items()}
        return deal

    # -- summary deals -------------------------------------------------------------------------
    def summary_deal(self, pos: int, dealer: str, run: int) -> Dict[str, Any]:
        rng = self.rng
        seats = self._seats(dealer)
        min_level = self._min_level(run)
        r = rng.random()
        if pos < self.n_eglė or (r < 0.12 and run < 4):
            tricks = self._spread(10, seats, skew=True)
            if len(self.players) == 4 and self.conv.allpass_talon in ("dealer-plays", "by-seats"):
                # the sitting-out dealer may win a talon-led trick; listed (0 too) where the talon plays
                taker = max(tricks, key=lambda p: tricks[p])
                if rng.random() < 0.15:
                    tricks[taker] -= 1
                    tricks[dealer] = 1
                elif self.lithuanian:
                    tricks[dealer] = 0
            return {"contract": "all-pass", "tricks": tricks}
        declarer = rng.choice(seats)
        i = seats.index(declarer)
        defenders = [seats[(i + 1) % 3], seats[(i + 2) % 3]]
        if r < 0.17 and min_level <= 9:
            deal: Dict[str, Any] = {"contract": "misere", "declarer": declarer}
            decisions, _, _ = self._whist(MISERE, defenders)
            if decisions:
                deal["whist"] = decisions
            taken = 0 if rng.random() < 0.7 else rng.choice([1, 1, 2, 3])
            if rng.random() < 0.6:
                deal["open"] = True
            rest = self._spread(10 - taken, defenders)
            deal["tricks"] = {declarer: taken, **rest}
            return deal
        level = rng.choices([6, 7, 8, 9, 10], [50, 26, 13, 8, 3])[0]
        level = max(level, min_level)
        contract = Contract(ContractKind.TRICKS, level, rng.choice(STRAINS))
        deal = {"contract": str(contract), "declarer": declarer}
        decisions, returned, played = self._whist(contract, defenders)
        deal["whist"] = decisions
        if returned:
            deal["return"] = returned
        if not played:
            return deal
        if rng.random() < 0.8:
            taken = min(10, level + rng.choices([0, 1, 2], [70, 22, 8])[0])
        else:
            taken = max(0, level - rng.choices([1, 2, 3], [65, 25, 10])[0])
        rest = self._spread(10 - taken, defenders)
        whisters = [p for p, d in decisions.items() if d == "whist"]
        if len(whisters) == 1 and not returned:
            deal["open"] = rng.random() < 0.4
            if not deal["open"] and self.conv.whist_alone:
                # "Vienas!" (seed 000 l.89): the passer's cards are put away, so he takes no trick
                passer = next(p for p in defenders if p not in whisters)
                rest = {whisters[0]: rest[whisters[0]] + rest[passer], passer: 0}
        deal["tricks"] = {declarer: taken, **rest}
        return deal

    def _spread(self, total: int, names: Sequence[str], skew: bool = False) -> Dict[str, int]:
        rng = self.rng
        out = {p: 0 for p in names}
        weights = [rng.random() + (0.5 if skew else 0.2) for _ in names]
        for _ in range(total):
            p = rng.choices(list(names), weights)[0]
            out[p] += 1
        return out

    # -- records ---------------------------------------------------------------------------------
    def record(self, deals: int, full: bool) -> Dict[str, Any]:
        from prefcli.rules.table import Dealing
        dealing = Dealing(self.players, None, self.rules)   # the project's one rotation
        out_deals: List[Dict[str, Any]] = []
        run = 0
        for pos in range(deals):
            dealer = dealing.dealer
            d = self.full_deal(pos, dealer, run) if full else self.summary_deal(pos, dealer, run)
            out_deals.append(d)
            is_allpass = d["contract"] == "all-pass"
            dealing.deal(is_allpass, d.get("bomb") is not None)
            run = run + 1 if is_allpass else 0
        rules: Dict[str, Any] = {"variant": self.variant}
        if self.rules.family.name == "lithuanian-kitty":
            # the kitty game ends when a player completes the kitty: a long record needs a big one
            rules["pool"] = max(60, 6 * deals)
        return {
            "format": "pref-record/1",
            "meta": {"event": "generated", "generator": f"benchmarks/generate.py {self.variant}"},
            "players": list(self.players),
            "rules": rules,
            "deals": out_deals,
        }


def dump(record: Dict[str, Any], as_json: bool) -> str:
    if as_json:
        return json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    import yaml
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(record, Dumper=dumper, sort_keys=False, default_flow_style=None, allow_unicode=True,
                     width=200)


def generate(deals: int, *, full: bool = False, players: int = 3, variant: str = "sochi",
             seed: int = 1) -> Dict[str, Any]:
    """One generated record as plain data (also used by tests and other benchmarks)."""
    return Generator(players, variant, seed).record(deals, full)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals per record")
    ap.add_argument("--deals-per-record", type=int, default=None, help="deals per record with --records")
    ap.add_argument("--records", type=int, default=None, help="write N separate record files into -o DIR")
    ap.add_argument("--full", action="store_true", help="full deals: hands, auction, discard, play")
    ap.add_argument("--players", type=int, choices=(3, 4), default=3)
    ap.add_argument("--variant", default="sochi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="write JSON instead of YAML")
    ap.add_argument("-o", "--output", default="-", help="file (or folder with --records); - for stdout")
    args = ap.parse_args(argv)
    ext = ".json" if args.json else ".yaml"
    if args.records is not None:
        per = args.deals_per_record or args.deals
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(args.records):
            rec = generate(per, full=args.full, players=args.players, variant=args.variant, seed=args.seed * 100003 + i)
            (folder / f"record-{i + 1:05d}{ext}").write_text(dump(rec, args.json), encoding="utf-8")
        return 0
    rec = generate(args.deals, full=args.full, players=args.players, variant=args.variant, seed=args.seed)
    text = dump(rec, args.json)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
