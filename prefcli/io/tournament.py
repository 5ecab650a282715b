"""The ``pref-tournament/1`` document read into a :class:`Tournament` (bands, cap, floor, inputs,
ratings' place points and weights), and the exact number readers its fields and settle's options
share. Reading the document lives here, below the rules layer, so ``prefcli validate`` checks a
tournament file with the parser settle uses without importing the settle layer above it;
:mod:`prefcli.settle.tournament` computes the standings from what this returns."""
from __future__ import annotations

from prefcli.model.slots import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Tuple

from prefcli.model.diagnostics import Path, PrefcliError
from prefcli.model.records import TOURNAMENT_FORMAT


class SettlementError(PrefcliError, ValueError):
    """A sheet or option that cannot be settled; `path` locates it in the input."""

    kind = "rule"


def _fraction(value: Any, what: str, path: Path = ()) -> Fraction:
    """An exact number from an option or a tournament file, bounded (prefcli.model.numbers)."""
    from prefcli.model.numbers import NumberError, exact
    try:
        return exact(value)
    except NumberError as exc:
        raise SettlementError(exc.message if path else f"{what}: {exc.message}", path) from None


def to_decimal(value: Any, what: str, path: Path = ()) -> Decimal:
    """A money amount or coin from an option or the command line (exact decimal text), bounded."""
    from prefcli.model.numbers import NumberError, check_decimal, check_money, parse_decimal, shown
    prefix = "" if path else f"{what}: "
    if isinstance(value, bool) or not isinstance(value, (str, int, Decimal)):
        raise SettlementError(f"{prefix}expected a decimal amount such as \"0.01\"", path)
    try:
        d = check_decimal(value) if isinstance(value, Decimal) else parse_decimal(str(value))
    except NumberError as exc:
        if "out of range" in exc.message:
            raise SettlementError(f"{prefix}{exc.message}", path) from None
        raise SettlementError(f"{prefix}'{shown(str(value))}' is not a decimal amount such as \"0.01\"",
                              path) from None
    if d < 0:
        raise SettlementError(f"{prefix}{shown(str(value))} must be a non-negative decimal amount", path)
    try:
        return check_money(d, "the amount")
    except NumberError as exc:
        raise SettlementError(f"{prefix}{exc.message}", path) from None


@dataclass(frozen=True)
class Band:
    """Whists of a round's result above `above` count × `factor` (up to the next band)."""

    above: Fraction
    factor: Fraction


@dataclass(frozen=True)
class Tournament:
    """How a round's (one input's) net whists count in the standings.

    `bands` apply to the size of a result ("51–100 whists count ×0.5, above 100 ×0.1": bands
    (50, ½), (100, 1/10)); `losses` says whether losses are scaled the same way (`scaled`) or count
    in full (`full`); `cap` limits a round's counted result either way; a player whose running
    total falls below `floor` is eliminated (kept in the standings, ranked after the others).
    """

    name: Optional[str] = None
    bands: Tuple[Band, ...] = ()
    losses: str = "scaled"
    cap: Optional[Fraction] = None
    floor: Optional[Fraction] = None
    inputs: Tuple[str, ...] = ()
    price: Optional[Decimal] = None
    coin: Optional[Decimal] = None
    #: ratings (prefcli.settle.rating): place points by table size, and a weight per variant
    place_points: Optional[Mapping[int, Tuple[Fraction, ...]]] = None
    weights: Optional[Mapping[str, Fraction]] = None

    @property
    def active(self) -> bool:
        return bool(self.bands or self.cap is not None or self.floor is not None)

    def count(self, result: Fraction) -> Fraction:
        """A round's result as it counts in the standings."""
        result = Fraction(result)
        if result < 0 and self.losses == "full":
            counted = result
        else:
            size = abs(result)
            counted_size = Fraction(0)
            edges = sorted(self.bands, key=lambda b: b.above)
            lower, factor = Fraction(0), Fraction(1)
            for band in edges:
                if size <= band.above:
                    break
                counted_size += (band.above - lower) * factor
                lower, factor = band.above, band.factor
            counted_size += (size - lower) * factor
            counted = counted_size if result >= 0 else -counted_size
        if self.cap is not None:
            counted = max(-self.cap, min(self.cap, counted))
        return counted


def tournament_from_data(data: Any, base: str = "") -> Tournament:
    """A `pref-tournament/1` document:

    ``{format: pref-tournament/1, name: …, bands: [{above: 50, factor: "0.5"}, …],
    losses: scaled|full, cap: N, floor: -N, inputs: [files…], price: "0.1", coin: "0.01"}``.
    `inputs` are relative to `base` (the tournament file's folder).
    """
    import os
    if not isinstance(data, Mapping):
        raise SettlementError(f"a tournament file must be a mapping with format: {TOURNAMENT_FORMAT}")
    if data.get("format") != TOURNAMENT_FORMAT:
        raise SettlementError(f"expected format: {TOURNAMENT_FORMAT}", ("format",))
    known = {"format", "name", "bands", "losses", "cap", "floor", "inputs", "price", "coin", "meta",
             "place_points", "weights"}
    for k in data:
        if k not in known:
            raise SettlementError(f"unknown field '{k}'; valid: {', '.join(sorted(known))}", (k,))
    bands = []
    raw_bands = data.get("bands") or []
    if not isinstance(raw_bands, list):
        raise SettlementError("expected a list of {above: N, factor: F}", ("bands",))
    for i, b in enumerate(raw_bands):
        if not isinstance(b, Mapping) or set(b) != {"above", "factor"}:
            raise SettlementError("a band is {above: N, factor: F}", ("bands", i))
        above = _fraction(b["above"], "above", ("bands", i, "above"))
        factor = _fraction(b["factor"], "factor", ("bands", i, "factor"))
        if above < 0 or factor < 0:
            raise SettlementError("band values must not be negative", ("bands", i))
        bands.append(Band(above, factor))
    if len({b.above for b in bands}) != len(bands):
        raise SettlementError("two bands start at the same amount", ("bands",))
    losses = data.get("losses", "scaled")
    if losses not in ("scaled", "full"):
        raise SettlementError("losses: expected scaled or full", ("losses",))
    cap = _fraction(data["cap"], "cap", ("cap",)) if data.get("cap") is not None else None
    if cap is not None and cap < 0:
        raise SettlementError("cap must not be negative", ("cap",))
    floor = _fraction(data["floor"], "floor", ("floor",)) if data.get("floor") is not None else None
    inputs = data.get("inputs") or []
    if not isinstance(inputs, list) or not all(isinstance(x, str) for x in inputs):
        raise SettlementError("expected a list of file names", ("inputs",))
    inputs = [x if os.path.isabs(x) or not base else os.path.join(base, x) for x in inputs]
    price = to_decimal(data["price"], "price", ("price",)) if data.get("price") is not None else None
    coin = to_decimal(data["coin"], "coin", ("coin",)) if data.get("coin") is not None else None
    name = data.get("name")
    return Tournament(str(name) if name is not None else None, tuple(bands), losses, cap, floor,
                      tuple(inputs), price, coin, _place_points(data.get("place_points")),
                      _weights(data.get("weights")))


def looks_like_tournament(path: str) -> bool:
    """Cheaply: could this file be a pref-tournament/1 document? (a regular file only: a FIFO or
    device is never opened here; loading it confirms)."""
    import os
    import stat
    if path == "-":
        return False
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as fh:
            head = fh.read(65536)
    except OSError:
        return False
    return b"pref-tournament/" in head


def listed_input_problems(t: Tournament, own: Optional[str] = None) -> List[Tuple[Path, str]]:
    """(where it is listed, why) for each of `inputs:` that cannot be a round of the tournament:
    missing, a folder, not a regular file (a named pipe or a device, never opened), the
    tournament file `own` itself, or another tournament. validate and every command that reads
    the list (settle, stats, rating, report) refuse the same entries with the same words, before
    anything is settled."""
    import os
    import stat
    from prefcli.model.values import display_name
    out: List[Tuple[Path, str]] = []
    for i, f in enumerate(t.inputs):
        where: Path = ("inputs", i)
        name = display_name(f)
        try:
            mode = os.stat(f).st_mode
        except (OSError, ValueError):
            out.append((where, f"no such input file: {name}"))
            continue
        if stat.S_ISDIR(mode):
            out.append((where, f"{name} is a folder: list the rounds in it"))
        elif not stat.S_ISREG(mode):
            out.append((where, f"{name} is not a regular file (a named pipe or a device): list the rounds' files"))
        elif own is not None and own != "-" and _same_file(f, own):
            out.append((where, f"the tournament lists itself ({name}): list its rounds"))
        elif looks_like_tournament(f):
            out.append((where, f"{name} is a tournament file: a tournament lists its rounds "
                               "(records and sheets), not another tournament"))
    return out


def check_listed_inputs(t: Tournament, own: Optional[str] = None) -> Tournament:
    """`t`, or a SettlementError at the first listed input that cannot be a round."""
    problems = listed_input_problems(t, own)
    if problems:
        where, message = problems[0]
        raise SettlementError(message, where)
    return t


def _same_file(a: str, b: str) -> bool:
    import os
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _place_points(raw: Any) -> Optional[Dict[int, Tuple[Fraction, ...]]]:
    """`place_points: {3: [2, 1, 0], 4: [3, 2, 1, 0]}`: the points of each place, by table size."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise SettlementError("expected {PLAYERS: [points of 1st, 2nd, …]}", ("place_points",))
    out: Dict[int, Tuple[Fraction, ...]] = {}
    for k, v in raw.items():
        try:
            n = int(str(k))
        except ValueError:
            raise SettlementError(f"'{k}' is not a number of players", ("place_points", k)) from None
        if not isinstance(v, list) or len(v) != n or not 2 <= n <= 6:
            raise SettlementError(f"a table of {n} players needs a list of {n} points", ("place_points", k))
        out[n] = tuple(_fraction(x, f"place_points.{k}") for x in v)
    return out


def _weights(raw: Any) -> Optional[Dict[str, Fraction]]:
    """`weights: {sochi: 2, leningrad: 1, rostov: "4/3"}`: a variant's games count × its weight."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise SettlementError("expected {VARIANT: weight}", ("weights",))
    out = {str(k): _fraction(v, f"weights.{k}") for k, v in raw.items()}
    if any(w < 0 for w in out.values()):
        raise SettlementError("weights must not be negative", ("weights",))
    return out


def parse_band(text: str) -> Band:
    """`50:0.5` → whists above 50 count × 0.5 (the command line form of a band)."""
    if ":" not in text:
        raise SettlementError(f"--band takes ABOVE:FACTOR (e.g. 50:0.5), got '{text}'")
    a, f = text.split(":", 1)
    above, factor = _fraction(a, "ABOVE"), _fraction(f, "FACTOR")
    if above < 0 or factor < 0:
        raise SettlementError(f"--band values must not be negative, got '{text}'")
    return Band(above, factor)
