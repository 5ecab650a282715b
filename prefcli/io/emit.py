"""The one emitter of output documents: plain data (a report's ``document()``) as JSON or YAML.

Documents are plain already (str, int, bool, None, lists, dicts; exact amounts as strings), so
the emitters only lay them out: JSON indented by two, non-ASCII kept; YAML in block style with
keys in the document's order. What they emit, ``prefcli`` reads back. This is the I/O layer's,
so the application layer can make its documents plain without importing the renderers.
"""
from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any


def plain(value: Any) -> Any:
    """Data with Fractions and Decimals made printable (int, or "12.5" / "40/3")."""
    from prefcli.model.ledger import format_amount

    def conv(value: Any) -> Any:  # imports hoisted out of the walk: a big batch has 10^5 leaves
        t = type(value)
        if t is str or t is int or t is bool or value is None:
            return value
        if isinstance(value, Fraction):
            return format_amount(value)
        if isinstance(value, dict):
            return {str(k): conv(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [conv(v) for v in value]
        if isinstance(value, Decimal):
            return str(value)
        return value

    return conv(value)


def _leaf(value: Any) -> Any:
    """What json cannot write by itself (an exact amount left in a document): as plain() does."""
    if isinstance(value, (Fraction, Decimal)):
        return plain(value)
    raise TypeError(f"{type(value).__name__} is not JSON data")


def to_json(data: Any) -> str:
    # documents are plain by contract: json walks them once, and only a stray Fraction or
    # Decimal goes through plain() (a second walk of a 1,000-input settlement costs ~40%)
    try:
        return json.dumps(data, ensure_ascii=False, indent=2, default=_leaf) + "\n"
    except TypeError:       # keys that are not text (a Fraction key, say): the full conversion
        return json.dumps(plain(data), ensure_ascii=False, indent=2) + "\n"


def to_yaml(data: Any) -> str:
    import yaml
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(plain(data), Dumper=dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False)


def dump(data: Any, fmt: str) -> str:
    """JSON or YAML text of plain data."""
    if fmt == "json":
        return to_json(data)
    if fmt == "yaml":
        return to_yaml(data)
    raise ValueError(f"unknown format {fmt}")
