"""The one bounded number reader: every number prefcli takes from a file or the command line.

Why bounded at parse time: exact arithmetic (Fraction, Decimal) makes a number's cost grow with
its digits, and an exponent is a digit count in disguise. ``Fraction("1e999999999")`` builds a
billion-digit integer, so ``1.0e-999999999`` in an adjust, or ``--price 1e999999999``, would
hang every command. Nothing in a game of Preferans needs more than a few digits, so a number
may have at most `MAX_DIGITS` digits before the decimal point and `MAX_PLACES` after it, counted
as if written out in full; the check looks only at the digits and the exponent as written, so it
is cheap whatever the input.

Messages name the number as written (shortened) and never show a Python repr.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Dict, Optional, Union

from prefcli.model.diagnostics import PrefcliError

MAX_DIGITS = 40   # digits before the decimal point
MAX_PLACES = 40   # digits after it
MAX_TEXT = 120    # characters in the written number, exponent included
_INT_LIMIT = 10 ** MAX_DIGITS

# ASCII digits only: `\d` alone also matches other scripts' digits ('١٢' read as 12)
_DECIMAL = re.compile(r"\s*([-+]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([-+]?\d+))?\s*\Z", re.ASCII)
_RATIO = re.compile(r"\s*([-+]?\d+)\s*/\s*(\d+)\s*\Z", re.ASCII)


class NumberError(PrefcliError, ValueError):
    """A number that cannot be read, or is out of the range prefcli reads; `message` is a sentence."""

    kind = "schema"


def shown(text: str, limit: int = 24) -> str:
    """The number as written, shortened for a message."""
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _range_error(text: str) -> NumberError:
    return NumberError(f"number {shown(text)} is out of range: prefcli reads numbers with at most "
                       f"{MAX_DIGITS} digits before the decimal point and {MAX_PLACES} after it")


def _check_digits(text: str, digits: str, scale: int) -> None:
    """value = int(digits) * 10**scale; refuse it when written out it needs too many digits."""
    s = digits.lstrip("0")
    if not s:
        return  # zero, whatever its exponent
    t = len(s) - len(s.rstrip("0"))
    s = s[:len(s) - t]
    scale += t
    if len(s) + scale > MAX_DIGITS or -scale > MAX_PLACES:
        raise _range_error(text)


def check_decimal_text(text: str) -> None:
    """Refuse a decimal (or integer) written with too many digits or too large an exponent.

    Only the digits and the exponent as written are looked at, so this costs nothing however
    large the number would be."""
    if len(text) > MAX_TEXT:
        raise _range_error(text)
    m = _DECIMAL.match(text)
    if m is None:
        raise NumberError(f"'{shown(text)}' is not a number")
    _, whole, frac, only_frac, exp = m.groups()
    if only_frac is not None:
        whole, frac = "", only_frac
    frac = frac or ""
    if exp and len(exp.lstrip("+-")) > 4:
        raise _range_error(text)  # an exponent past ±9999: out of range even for zero
    _check_digits(text, whole + frac, (int(exp) if exp else 0) - len(frac))


def check_int_text(text: str) -> None:
    digits = len(text.strip().lstrip("+-"))
    if digits > MAX_DIGITS:
        raise NumberError(f"number with {digits} digits is too large to be meaningful here "
                          f"(at most {MAX_DIGITS} digits)")


def check_decimal(value: Decimal) -> Decimal:
    """A Decimal that came from elsewhere (already parsed): finite and in range."""
    if not value.is_finite():
        raise NumberError(f"{value} is not a finite number")
    _, digits, exp = value.as_tuple()
    assert isinstance(exp, int)
    _check_digits(str(value), "".join(map(str, digits)), exp)
    return value


def parse_decimal(text: str) -> Decimal:
    """Exact decimal text (``0.1``, ``12``, ``1.5e2``), bounded."""
    if not isinstance(text, str):
        raise NumberError(f"expected a decimal number, found {text!r}")
    check_decimal_text(text)
    try:
        return Decimal(text.strip())
    except InvalidOperation:  # pragma: no cover - the grammar above is a subset of Decimal's
        raise NumberError(f"'{shown(text)}' is not a number") from None


def parse_number(text: str) -> Fraction:
    """An exact number from text: ``12``, ``-3.5``, ``1.5e2`` or ``40/3``; bounded."""
    if not isinstance(text, str):
        from prefcli.model.values import type_name
        raise NumberError(f"expected a number, found {type_name(text)}")
    if len(text) > MAX_TEXT:
        raise _range_error(text)
    m = _RATIO.match(text)
    if m is not None:
        num, den = m.groups()
        check_int_text(num)
        check_int_text(den)
        if int(den) == 0:
            raise NumberError(f"'{shown(text)}' divides by zero")
        return Fraction(int(num), int(den))
    if _DECIMAL.match(text) is None:
        raise NumberError(f"'{shown(text)}' is not a number (write 12, 12.5 or 40/3)")
    check_decimal_text(text)
    return Fraction(Decimal(text.strip()))


def exact(value: Union[int, Decimal, Fraction, float, str]) -> Fraction:
    """Any number prefcli may hold (or its text) as a Fraction, bounded."""
    if isinstance(value, bool):
        raise NumberError(f"expected a number, found {'true' if value else 'false'}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        if -_INT_LIMIT < value < _INT_LIMIT:
            return Fraction(value)
        raise _range_error(str(value))
    if isinstance(value, Decimal):
        return Fraction(check_decimal(value))
    if isinstance(value, float):
        return parse_number(repr(value))
    if isinstance(value, str):
        return parse_number(value)
    raise NumberError(f"expected a number, found {type(value).__name__}")


# ---------------------------------------------------------------------------------------------
# The bounds of each kind of number a document holds: the one place they are stated. The
# readers enforce them (records and sheets through check_amount, rules.pool through the preset
# option, price and coin through check_money) and the JSON Schemas in schemas/ state the same
# bounds: schema_fragment(KIND) is what a schema node marked `"$comment": "bounds: KIND"` must
# hold, which tests/test_schema_bounds.py checks for every such node, and the writer reads them
# back from the schema (prefcli.io.writer), so the three cannot drift apart.
# ---------------------------------------------------------------------------------------------

#: an amount of a record or sheet (pool, mountain, whists, adjust, penalties): written as a
#: number (YAML/JSON), within ±AMOUNT_INT_MAX; written as text, a whole number of at most
#: AMOUNT_DIGITS digits, a decimal with at most AMOUNT_DIGITS digits before and after the point,
#: or a fraction of two such whole numbers. Exactly what prefcli's writer writes (a whole number
#: beyond AMOUNT_INT_MAX becomes text, so every JSON reader keeps it exact).
AMOUNT_INT_MAX = 10 ** 9
AMOUNT_DIGITS = 12
AMOUNT_MAX = 10 ** AMOUNT_DIGITS - 1
#: money (rules.price, rules.coin, --price, --coin, a tournament's price and coin): a
#: non-negative decimal with at most MONEY_DIGITS digits before the point and MONEY_PLACES after
#: it (written out); money stays exact and zero-sum at any such price and coin
MONEY_DIGITS = 12
MONEY_PLACES = 12
#: rules.pool: the target of a pool, track or kitty
POOL_MAX = 100000
#: a sheet log's deal number
DEAL_NUMBER_MAX = 1000000
#: a count of a game's state (prefcli.rules.state: all-pass runs, eglės, rights …)
COUNT_MAX = 1000000


def _amount_range_error(value: Fraction, as_number: bool = False) -> NumberError:
    if as_number:
        return NumberError(f"the amount {_short(value)} is out of range for a number: at most "
                           f"{AMOUNT_INT_MAX} either way (write a larger amount as text, e.g. "
                           f"\"{_short(value)}\", with at most {AMOUNT_DIGITS} digits)")
    return NumberError(f"the amount {_short(value)} is out of range: an amount has at most {AMOUNT_DIGITS} "
                       f"digits before the decimal point and {AMOUNT_DIGITS} after it, or is a fraction of "
                       f"two whole numbers of at most {AMOUNT_DIGITS} digits")


def _short(value: Fraction) -> str:
    if value.denominator == 1:
        return shown(str(value.numerator))
    try:
        d = Decimal(value.numerator) / Decimal(value.denominator)
    except ArithmeticError:  # pragma: no cover - bounded inputs
        return shown(f"{value.numerator}/{value.denominator}")
    return shown(format(d, "f") if abs(d.adjusted()) < 30 else format(d, ".6g"))


def _places(den: int) -> Optional[int]:
    """The decimal places a denominator needs (2^a 5^b → max(a, b)), None when it never ends."""
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    return max(twos, fives) if den == 1 else None


def check_amount(value: Fraction, as_number: bool = False) -> Fraction:
    """An amount within the format's bounds, else NumberError saying them; `as_number`: it was
    written as a YAML/JSON number, not as text."""
    num, den = value.numerator, value.denominator
    if as_number:
        if -AMOUNT_INT_MAX <= value <= AMOUNT_INT_MAX:
            if den == 1 or (_places(den) or AMOUNT_DIGITS + 1) <= AMOUNT_DIGITS:
                return value
            raise _amount_range_error(value)
        raise _amount_range_error(value, True)
    if den == 1:
        if -AMOUNT_MAX <= num <= AMOUNT_MAX:
            return value
        raise _amount_range_error(value)
    if abs(value) > AMOUNT_MAX:
        raise _amount_range_error(value)
    places = _places(den)
    if places is not None and places <= AMOUNT_DIGITS:
        return value
    if abs(num) <= AMOUNT_MAX and den <= AMOUNT_MAX:
        return value
    raise _amount_range_error(value)


def check_money(value: Decimal, what: str = "money") -> Decimal:
    """A price or coin within MONEY_DIGITS / MONEY_PLACES (written out), else NumberError."""
    _, digits, exp = value.as_tuple()
    assert isinstance(exp, int)
    s = "".join(map(str, digits)).lstrip("0")
    if s:
        t = len(s) - len(s.rstrip("0"))
        s = s[:len(s) - t]
        scale = exp + t
        if len(s) + scale > MONEY_DIGITS or -scale > MONEY_PLACES:
            raise NumberError(f"{what} {shown(str(value))} is out of range: money has at most {MONEY_DIGITS} "
                              f"digits before the decimal point and {MONEY_PLACES} after it")
    return value


def money_text(value: Decimal) -> str:
    """Money as plain decimal text (never an exponent: "0.000001", not "1E-6")."""
    return format(value, "f")


def _decimal_pattern(before: int, after: int, sign: str, exponent: bool) -> str:
    """The reader's grammar (_DECIMAL) with bounded digit counts, as a JSON Schema pattern."""
    # the exponent's own bound is the value's, written out: the reader says "out of range"
    e = "([eE][-+]?[0-9]+)?" if exponent else ""
    return (rf"^\s*{sign}([0-9]{{1,{before}}}(\.[0-9]{{0,{after}}})?|\.[0-9]{{1,{after}}}){e}\s*$")


def schema_fragment(kind: str) -> Dict[str, Any]:
    """What the schemas say of a number of this kind (without descriptions): generated here so
    that a test can compare every schema node with the bounds the readers enforce."""
    d = AMOUNT_DIGITS
    if kind == "amount":
        return {"anyOf": [
            {"type": "integer", "minimum": -AMOUNT_INT_MAX, "maximum": AMOUNT_INT_MAX},
            {"type": "number", "minimum": -AMOUNT_INT_MAX, "maximum": AMOUNT_INT_MAX},
            {"type": "string", "pattern": rf"^\s*-?[0-9]{{1,{d}}}(\.[0-9]{{1,{d}}})?(/[0-9]{{1,{d}}})?\s*$"},
        ]}
    if kind == "money":
        return {"anyOf": [
            {"type": "string", "pattern": _decimal_pattern(MONEY_DIGITS, MONEY_PLACES, r"\+?", True)},
            {"type": "number", "minimum": 0, "exclusiveMaximum": 10 ** MONEY_DIGITS},
        ]}
    if kind == "money-out":           # money as prefcli writes it: plain text, sign allowed
        return {"type": "string", "pattern": rf"^-?[0-9]{{1,{MAX_DIGITS}}}(\.[0-9]{{1,{MONEY_PLACES}}})?$"}
    if kind == "number":              # any other number: the general bound of parse_number
        return {"anyOf": [
            {"type": "number", "exclusiveMinimum": -_INT_LIMIT, "exclusiveMaximum": _INT_LIMIT},
            {"type": "string", "pattern": "|".join([
                _decimal_pattern(MAX_DIGITS, MAX_PLACES, "[-+]?", True),
                rf"^\s*[-+]?[0-9]{{1,{MAX_DIGITS}}}\s*/\s*[0-9]{{1,{MAX_DIGITS}}}\s*$"])},
        ]}
    if kind == "exact":               # an exact value prefcli writes and merge reads back
        return {"type": "string", "pattern": rf"^-?[0-9]{{1,{MAX_DIGITS}}}(\.[0-9]{{1,{MAX_PLACES}}}|/[0-9]{{1,{MAX_DIGITS}}})?$"}
    if kind == "pool":
        return {"type": "integer", "minimum": 1, "maximum": POOL_MAX}
    if kind == "deal-number":
        return {"type": "integer", "minimum": 1, "maximum": DEAL_NUMBER_MAX}
    if kind == "count":
        return {"type": "integer", "minimum": 0, "maximum": COUNT_MAX}
    raise KeyError(kind)


#: every kind schema_fragment knows
BOUND_KINDS = ("amount", "money", "money-out", "number", "exact", "pool", "deal-number", "count")
