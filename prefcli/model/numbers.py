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
from typing import Union

from prefcli.model.diagnostics import PrefcliError

MAX_DIGITS = 40   # digits before the decimal point
MAX_PLACES = 40   # digits after it
MAX_TEXT = 120    # characters in the written number, exponent included
_INT_LIMIT = 10 ** MAX_DIGITS

_DECIMAL = re.compile(r"\s*([-+]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([-+]?\d+))?\s*\Z")
_RATIO = re.compile(r"\s*([-+]?\d+)\s*/\s*(\d+)\s*\Z")


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
        raise NumberError(f"expected a number, found {text!r}")
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
