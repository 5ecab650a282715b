"""The score table's running totals (prefcli.model.ledger.RunningTotals) taken from the cells'
sums at each deal's turn, the net whists worked out a block of rows at a time: the same rows,
value for value and type for type, as adding each entry to the row (the way they were kept
before), on random streams of entries with Fractions, whists written on oneself, numbers past
an int32, rows without a deal, deals that come back, whatever the batch; and a player not at the
table refused as before."""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, List, Optional, Sequence, Tuple

import pytest

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve")


def _entry_by_entry(players: Sequence[str], entries: Sequence[Tuple[Any, ...]]) -> List[Tuple[Any, List[Any]]]:
    """The rows as they were kept before: each entry's amount added to the current row (a list
    of ints from 0), pool or mountain one number, whists the writer's net and the other's; a
    row kept each time the deal changes."""
    at = {p: 3 * i for i, p in enumerate(players)}
    values: List[Any] = [0] * (3 * len(players))
    rows: List[Tuple[Any, List[Any]]] = []
    last: Any = rows          # (no deal yet)
    for deal, player, area, value, on in entries:
        if deal != last and last is not rows:
            rows.append((last, list(values)))
        last = deal
        if area == "whists":
            if player != on:
                values[at[player] + 2] += value
                values[at[on] + 2] -= value
        else:
            values[at[player] + (0 if area == "pool" else 1)] += value
    if last is not rows:
        rows.append((last, list(values)))
    return rows


def _typed(rows: Any) -> List[Any]:
    """The rows with each value's type: a whole Fraction and an int are equal but not printed alike."""
    return [(deal, [(type(v), v) for v in values]) for deal, values in rows]


def _stream(rng: random.Random, players: Sequence[str], deals: int, amounts: str) -> List[Tuple[Any, ...]]:
    """Random entries as Ledger.add is given them: an opening sheet (deal None) sometimes, deals
    in order with now and then one that comes back or a row without a deal in between."""
    out: List[Tuple[Any, ...]] = []
    numbers: List[Optional[int]] = ([None] if rng.random() < 0.5 else []) + list(range(1, deals + 1))
    for k in range(len(numbers)):
        if rng.random() < 0.05:
            numbers.insert(k, rng.choice([None, rng.randint(1, deals)]))
    for deal in numbers:
        for _ in range(rng.randint(1, 4)):
            p = rng.choice(players)
            area = rng.choice(["pool", "mountain", "whists", "whists"])
            on = (p if rng.random() < 0.1 else rng.choice(players)) if area == "whists" else None
            amount: Any = rng.randint(-60, 60) or 1
            if amounts != "int" and rng.random() < 0.15:
                amount = rng.choice([Fraction(1, 3), Fraction(-5, 2), Fraction(7, 7), (1 << 31) - 3, -(1 << 31),
                                     1 << 40, -(1 << 45)]) if amounts == "any" else (1 << 31) + rng.randint(0, 9)
            out.append((deal, p, area, amount, on))
    return out


@pytest.mark.parametrize("batch", [1, 5, 1024])
@pytest.mark.parametrize("amounts", ["int", "big", "any"])
def test_the_running_totals_are_the_entries_added_row_by_row(monkeypatch, batch, amounts):
    """Through the ledger (its sums) and directly (RunningTotals.add, the table's way for
    --after): rows(), columns() when whole, len() and the current row are those of adding
    each entry to the row, for 2 to 5 players."""
    from prefcli.model import ledger as ledger_module
    from prefcli.model.ledger import Ledger, RunningTotals, totals_only
    monkeypatch.setattr(ledger_module, "_BATCH", batch)
    rng = random.Random(f"{batch}{amounts}")
    for n in (2, 3, 4, 5):
        players = NAMES[:n]
        for _ in range(3):
            entries = _stream(rng, players, rng.randint(0, 80), amounts)
            with totals_only(running=True):
                ledger = Ledger(players)
            with totals_only():
                sums_only = Ledger(players)
            direct = RunningTotals(players)
            given = []
            for deal, p, area, amount, on in entries:
                ledger.add(deal, p, area, amount, "r", on)
                sums_only.add(deal, p, area, amount, "r", on)
                value = amount.numerator if type(amount) is Fraction and amount.denominator == 1 else amount
                direct.add(deal, p, area, on, value)
                given.append((deal, p, area, value, on))
            want = _typed(_entry_by_entry(players, given))
            for rt in (ledger.running, direct):
                assert len(rt) == len(want)
                assert _typed(rt.rows()) == want
                assert _typed(rt.rows()) == want                # read twice (the widths, then the lines)
                if want:
                    assert _typed([(rt.deal, rt.values)]) == want[-1:]
                # whole: the kept rows all int32s, the current one all ints
                whole = all(t is int and -(1 << 31) < v < 1 << 31 for _, row in want[:-1] for t, v in row) and all(
                    t is int for _, row in want[-1:] for t, _ in row)
                assert rt.whole == whole
                if whole:
                    for size in (1, 3, 1024):
                        got = []
                        for nums, cols in rt.columns(size):
                            cols = [list(c) for c in cols]
                            got += [(num, [c[i] for c in cols]) for i, num in enumerate(nums)]
                        assert _typed(got) == want, size
                # three numbers a player in the arrays for each kept row (not the cells' sums)
                assert len(rt.cells) == len(rt.deals) * 3 * n
            # the cells' sums (the sheet) kept by the running totals: a totals-only ledger's own,
            # value for value, type for type, in the order the cells first appear
            for rt in (ledger.running, direct):
                assert [(k, type(v), v) for k, v in rt.sums().items()] == [
                    (k, type(v), v) for k, v in sums_only._sums.items()]
            assert ledger.sheet() == sums_only.sheet() == ledger_module.sheet_from_entries(players, [
                ledger_module.Entry(d, p, a, Fraction(v), "r", o) for d, p, a, v, o in entries])


@pytest.mark.parametrize("way", ["ledger", "direct"])
def test_a_player_not_at_the_table_is_refused_each_time(way):
    """An entry by or on a player not at the table is a KeyError naming him, as when each entry
    was added to the row, the first time and again after (the cell is not kept); whists a player
    at the table writes on himself are in no row and refused nowhere."""
    from prefcli.model.ledger import Ledger, RunningTotals, totals_only
    players = ("Ann", "Bob", "Cid")

    def make() -> Any:
        if way == "ledger":
            with totals_only(running=True):
                ledger = Ledger(players)
            return ledger, lambda deal, p, area, on, v: ledger.add(deal, p, area, v, "r", on)
        rt = RunningTotals(players)
        return rt, rt.add

    for deal, p, area, on, name in [(1, "Zed", "pool", None, "Zed"), (1, "Zed", "mountain", None, "Zed"),
                                    (1, "Zed", "whists", "Ann", "Zed"), (1, "Ann", "whists", "Zed", "Zed"),
                                    (1, "Zed", "whists", "Zed", "Zed")]:
        owner, add = make()
        add(1, "Ann", "pool", None, 2)
        for _ in range(2):
            with pytest.raises(KeyError) as caught:
                add(deal, p, area, on, 3)
            assert caught.value.args == (name,)
    owner, add = make()
    add(None, "Bob", "whists", "Bob", 5)
    add(1, "Bob", "whists", "Cid", 2)
    add(1, "Bob", "whists", "Bob", 5)
    running = owner.running if way == "ledger" else owner
    assert list(running.rows()) == [(None, [0] * 9), (1, [0, 0, 0, 0, 0, 2, 0, 0, -2])]
    if way == "ledger":
        assert owner.sheet().whists["Bob"]["Bob"] == 10 and owner.sheet().whists["Bob"]["Cid"] == 2


def test_a_ledger_with_running_totals_refuses_what_any_ledger_refuses():
    """The running totals' way through Ledger.add (no key's tuple made) checks an entry as the
    sums' way and an Entry do: the same errors, the same messages, nothing written."""
    from prefcli.model.ledger import Entry, Ledger, totals_only
    bad = [dict(area="pool", on="Bob"), dict(area="mountain", on="Bob"), dict(area="whists", on=None),
           dict(area="bonus", on=None), dict(area="bonus", on="Bob")]
    for kwargs in bad:
        messages = []
        for running in (True, False, None):
            if running is None:
                with pytest.raises(ValueError) as caught:
                    Entry(1, "Ann", kwargs["area"], Fraction(2), "r", kwargs["on"])
            else:
                with totals_only(running=running):
                    ledger = Ledger(("Ann", "Bob"))
                with pytest.raises(ValueError) as caught:
                    ledger.add(1, "Ann", kwargs["area"], 2, "r", kwargs["on"])
                assert ledger.sheet() == Ledger(("Ann", "Bob")).sheet()
            messages.append(str(caught.value))
        assert len(set(messages)) == 1, (kwargs, messages)
