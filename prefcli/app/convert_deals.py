"""How `convert --variant` rewrites each deal for the target preset (what it can express kept,
what the seeds give a natural counterpart for mapped, the rest dropped), every change a
:class:`ReportItem`; the rules block and the record as a whole are :mod:`prefcli.app.convert`'s."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from prefcli.model.cards import Decision
from prefcli.model.records import Deal, Record


@dataclass(frozen=True)
class ReportItem:
    """One change made by a conversion: which deal (None: the rules or the whole record), which
    field, what happened, and whether information was lost."""

    deal: Optional[int]
    field: str
    what: str
    loss: bool

    def as_dict(self) -> Dict[str, Any]:
        return {"deal": self.deal, "field": self.field, "what": self.what, "loss": self.loss}

    def text(self) -> str:
        where = f"deal {self.deal}" if self.deal is not None else "record"
        return f"{where}: {self.field}: {self.what}" + (" [lost]" if self.loss else "")


def _takeover_kept(rules, takeover: str, whist) -> bool:
    """Whether the target reads this take-over as written: a family whose take-over is the
    sitting-out dealer's after both passed (takeover_by: dealer-both-passed, seed 004 l.37) keeps
    only that one; the others (a whister's both hands, a passer's) are converted as before."""
    if not _truthy(rules, "takeover"):
        return False
    if rules.value("takeover_by") != "dealer-both-passed":
        return True
    names = {p for p, _ in whist}
    return takeover not in names and all(d is Decision.PASS for _, d in whist)


def _truthy(rules, name: str, fallback: Optional[str] = None) -> bool:
    """An option's value as yes/no; a family without the option has the feature off (or asks
    `fallback`: Russian presets fold bombs into `dark`)."""
    if name in rules.values:
        value = rules.values[name]
        if isinstance(value, str):
            return value not in ("never", "none", "no")
        return bool(value)
    if fallback is not None:
        return _truthy(rules, fallback)
    return False


def show_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class DealMapper:
    """Rewrites one deal for the target rules, collecting report items."""

    def __init__(self, record: Record, source_rules, target_rules) -> None:
        self.record = record
        self.src = source_rules
        self.dst = target_rules
        self.items: List[ReportItem] = []
        self.families_differ = source_rules is None or source_rules.family.name != target_rules.family.name
        self.general: set = set()          # positions of general eglės (reported on their own)
        from prefcli.rules.conventions import conventions
        src_conv, dst_conv = (conventions(source_rules) if source_rules is not None else None), conventions(target_rules)
        #: the target reads a whister's take-over naming himself (his whist from both hands, closed)
        self.own_takeover = dst_conv.own_takeover
        #: the target's lone whister plays alone with the passer's cards away, the source's did not,
        #: and the target writes a whist from both hands, closed, as takeover: the whister
        self.alone_differs = (src_conv is not None and dst_conv.whist_alone and not src_conv.whist_alone
                              and self.own_takeover)
        #: … and the other way: the source's whister alone, where the target's passer plays his cards
        self.alone_kept = src_conv is not None and src_conv.whist_alone and not dst_conv.whist_alone
        from prefcli.rules.table import HANDS, Table, TableError, table_for
        try:       # who holds cards, who defends (one answer; the husar's dummy too)
            self.table = table_for(record.players, source_rules)
        except TableError:
            self.table = Table(tuple(record.players), HANDS)

    def note(self, deal: Deal, fld: str, what: str, loss: bool) -> None:
        self.items.append(ReportItem(deal.number, fld, what, loss))

    def map(self, deal: Deal, dealer: Optional[str]) -> Deal:
        t = self.dst.variant
        changes: Dict[str, Any] = {}
        whist = list(deal.whist)

        # half-whist (Russian полвиста): needs half_whist; a returned one is an ordinary whist
        half = [p for p, d in whist if d is Decision.HALF_WHIST]
        if half:
            hw = half[0]
            returner = deal.returned_by
            returns_ok = _truthy(self.dst, "half_whist") and _truthy(self.dst, "return_whist")
            if returner is not None and not returns_ok and returner in dict(whist):
                whist = [(p, Decision.WHIST if p == returner else Decision.PASS if p == hw else d)
                         for p, d in whist]
                changes["returned_by"] = None
                self.note(deal, "whist", f"the returned half-whist is written as {returner}: whist, {hw}: pass "
                                         f"(what it amounts to: {t} has no returned half-whist)", False)
            elif not _truthy(self.dst, "half_whist"):
                whist = [(p, Decision.PASS if p == hw else d) for p, d in whist]
                if returner is not None:
                    changes["returned_by"] = None
                self.note(deal, f"whist.{hw}",
                          f"half-whist written as pass: {t} has no half-whist (option half_whist), so the "
                          f"half-whister's whists are lost" + (f" and {returner}'s return is dropped" if returner else ""),
                          True)

        # take-over from both hands (Lithuanian, seed 002 "vistuoti iš abiejų rankų"): ↔ open
        # whisting, where the one whister plays both hands (seed 001 "в светлую")
        whisting = [p for p, d in whist if d is Decision.WHIST]
        own = self.own_takeover and whisting == [deal.takeover] and len(whist) == 2
        if deal.takeover is not None and not own and not _takeover_kept(self.dst, deal.takeover, whist):
            x = deal.takeover
            wmap = dict(whist)
            if x in whisting and len(whisting) == 1 and deal.contract.is_tricks:
                changes["takeover"] = None
                changes["open"] = True
                self.note(deal, "takeover", f"{x}'s whist from both hands is written as open whisting by {x} "
                                            f"({t} has no take-over)", False)
            elif x in wmap and whisting and deal.contract.is_tricks:
                whist = [(p, Decision.WHIST if p == x else Decision.PASS) for p, _ in whist]
                changes["takeover"] = None
                changes["open"] = True
                self.note(deal, "takeover", f"{x} took over the whist of {', '.join(whisting)}: written as open "
                                            f"whisting by {x}, {', '.join(whisting)} passing ({t} has no "
                                            "take-over; who said whist is lost)", True)
            else:
                changes["takeover"] = None
                self.note(deal, "takeover", f"dropped: {t} has no take-over by {x} (option takeover)", True)

        # open whist: the same field in every family; the meaning shifts between families
        if deal.open and deal.contract.is_tricks and self.families_differ and "open" not in changes:
            self.note(deal, "open", f"open whisting kept: under {t} the whister plays both hands", False)

        # a lone whister's closed defence, the passer playing his own cards (the Russian one), where
        # the target's lone whister plays alone with the passer's cards put away (whist_alone, seed
        # 000 l.89): the same defence there is his whist from both hands, closed (takeover: himself)
        whisting = [p for p, d in whist if d is Decision.WHIST]      # (the take-over may have changed them)
        lone_closed = (len(whisting) == 1 and len(whist) == 2 and deal.contract.is_tricks
                       and not changes.get("open", deal.open) and changes.get("takeover", deal.takeover) is None)
        if lone_closed and self.alone_differs and (deal.tricks is not None or deal.play is not None
                                                   or deal.claim is not None):
            w = whisting[0]
            changes["takeover"] = w
            self.note(deal, "takeover", f"{w}'s closed lone whist is written as takeover: {w} (from both hands, "
                                        f"closed): under {t} a whister alone plays with the passer's cards put "
                                        "away (whist_alone)", False)
        elif lone_closed and self.alone_kept:
            w = whisting[0]
            self.note(deal, "whist", f"{w}'s whist alone (the passer's cards put away) is kept as a closed lone "
                                     f"whist: under {t} the passer plays his own cards, and {w} answers for the "
                                     f"lone whister's quota of {t} (single_whist_quota)", False)

        # dark bids and bombs
        if deal.dark and not _truthy(self.dst, "dark"):
            changes["dark"] = False
            self.note(deal, "dark", f"dropped: {t} has no dark bids (option dark); the deal is an "
                                    "ordinary bid and its doubling is lost", True)
        if deal.bomb is not None and not _truthy(self.dst, "bomb", fallback="dark"):
            changes["bomb"] = None
            self.note(deal, "bomb", f"dropped: {t} has no bomb ({deal.bomb}'s call is lost)", True)

        # conceding "without three" (beside without_all it is "be visų", seed 004 l.210: kept with it)
        if deal.concede and not _truthy(self.dst, "without_all" if deal.without_all else "without_three"):
            changes["concede"] = False
            what = ("has no \"be visų\" concession (option without_all)" if deal.without_all
                    else "does not allow conceding without three (option without_three)")
            self.note(deal, "concede", f"dropped: {t} {what}; enter the tricks of the deal", True)

        # a misère or a 9 bid without the talon (seed 003 l.108, seed 004 l.53)
        wt = [(k, v) for k, v in (("contract", deal.contract), ("bid", deal.bid)) if v is not None and v.without_talon]
        if wt and not _truthy(self.dst, "misere_without_talon"):
            for key, value in wt:
                changes[key] = value.with_talon
            self.note(deal, "contract", f"{deal.contract} written as {deal.contract.with_talon}: {t} bids nothing "
                                        "without the talon (option misere_without_talon)", True)

        # be visų: a declaration kept against the rules (seed 004 l.200)
        if deal.without_all and not _truthy(self.dst, "without_all"):
            changes["without_all"] = False
            self.note(deal, "without_all", f"dropped: {t} has no \"be visų\" for a declaration kept against "
                                           "the rules (option without_all); the declaration stays below the bid", True)

        # irregularities scored by rule (seed 001 l.142)
        if deal.irregularities and not _truthy(self.dst, "irregularities"):
            changes["irregularities"] = ()
            self.note(deal, "irregularities", f"dropped: {t} scores no irregularity by rule (option irregularities): "
                                              f"{', '.join(f'{i.kind} by {i.by}' for i in deal.irregularities)} "
                                              "(write a penalty by hand if the table agrees one)", True)

        # a misère half with the 4-player dealer (Кодекс 3.6.9)
        if deal.partner is not None and not _truthy(self.dst, "misere_partner"):
            changes["partner"] = None
            self.note(deal, "partner", f"dropped: {t} has no misère half with the dealer (option "
                                       f"misere_partner); {deal.declarer} plays it alone", True)

        # a misère with whist decisions (Lithuanian: its catchers say whist) in a family where
        # nobody whists a misère, both defenders catching it (the Russian way: seed 001 l.121-122
        # "Мизер | нет обязательств"): the decisions are left out, a passer catching it too
        if deal.contract.is_misere and whist and self.dst.value("misere_defence") == "both":
            passed = [p for p, d in whist if d is not Decision.WHIST]
            whist = []
            self.note(deal, "whist", f"the whist decisions are left out: under {t} nobody whists a misère, both "
                                     "defenders catch it" + (f" ({', '.join(passed)} passed and now catches it "
                                                             "too)" if passed else ""), bool(passed))

        # a misère without whist decisions (the Russian way: both defenders catch) in a family
        # whose scorer reads the catchers from the whist decisions (Lithuanian: "vistuoja")
        if deal.contract.is_misere and not deal.whist and deal.declarer is not None \
                and self.dst.get("misere_catchers") is not None and dealer is not None:
            defenders = list(self.table.defenders(dealer, deal.declarer))
            whist = [(p, Decision.WHIST) for p in defenders]
            self.note(deal, "whist", f"both defenders are written as whisting against the misère "
                                     f"({', '.join(defenders)}): they both catch it, as in the source game", False)

        # all-pass ↔ mandatory eglė: the same deal, scored by the target's all-pass rules
        if deal.contract.is_all_pass:
            tricks = deal.tricks_map()
            if self.families_differ and deal.pos not in self.general:
                self.note(deal, "contract", f"all-pass kept: scored as {t}'s all-pass deal "
                                            "(raspasy ↔ mandatory eglė)", False)
            if tricks is not None and dealer is not None and dealer in self.table.sitting_out(dealer):
                listed = self.dst.get("egle.dealer") is True
                plays = listed or self.dst.get("allpass.talon") in ("dealer-plays", "by-seats")
                if dealer not in tricks and listed:
                    tricks[dealer] = 0
                    changes["tricks"] = tuple(tricks.items())
                    self.note(deal, f"tricks.{dealer}", f"the dealer is listed with 0 tricks ({t} lists the "
                                                        "sitting-out dealer in an all-pass)", False)
                elif dealer in tricks and not plays:
                    if tricks[dealer] == 0:
                        del tricks[dealer]
                        changes["tricks"] = tuple(tricks.items())
                        self.note(deal, f"tricks.{dealer}", f"the dealer's 0 is left out (under {t} the "
                                                            "dealer does not play the talon)", False)
                    else:
                        self.note(deal, f"tricks.{dealer}", f"the dealer's {tricks[dealer]} talon tricks "
                                                            f"cannot be expressed: under {t} the dealer does "
                                                            "not play the talon", True)

        if whist != list(deal.whist):
            changes["whist"] = tuple(whist)
        return dataclasses.replace(deal, **changes) if changes else deal


#: Options that give the number of general eglės (eglutė deals) a game starts with.
GENERAL_EGLE_OPTIONS = ("general_egles", "eglutes")


def general_egle_count(rules, players: int) -> int:
    """How many leading all-pass deals are general eglės under `rules` (0: none in this family)."""
    if rules is None:
        return 0
    if rules.get("skip_eglute") is True:
        return 0
    for name in GENERAL_EGLE_OPTIONS:
        if name in rules.values and rules.values[name] is not None:
            value = rules.values[name]
            return players if value == "players" else int(value)
    return 0


def general_egle_items(record: Record, source_rules, target_rules) -> List[ReportItem]:
    """General eglės (seed 002 "bendroji eglė", seed 000 "eglutė") are the game's leading
    all-pass deals; they give the eglės that double later deals. A family without them plays
    the same deals as ordinary all-pass deals, and the doubling is lost."""
    leading: List[Deal] = []
    for entry in record.deals:
        if isinstance(entry, Deal):
            if not entry.contract.is_all_pass:
                break
            leading.append(entry)
    n = len(record.players)
    before, after = general_egle_count(source_rules, n), general_egle_count(target_rules, n)
    out: List[ReportItem] = []
    t = target_rules.variant
    for i, deal in enumerate(leading):
        was, now = i < before, i < after
        if was and not now:
            out.append(ReportItem(deal.number, "contract",
                                  f"a general eglė, kept as an ordinary all-pass deal: {t} has no general "
                                  "eglės, so the eglė that doubles a later deal is lost", True))
        elif now and not was:
            out.append(ReportItem(deal.number, "contract",
                                  f"an opening all-pass deal: under {t} it counts as a general eglė", False))
    return out
