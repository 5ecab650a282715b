"""Canonical records and sheets with their `rules` block in the preset's option order and every
value in its option's canonical form: the writer's functions (:mod:`prefcli.io.writer`) given the
presets' option catalogue. The writer knows the format, the presets know the options; this is
where the two meet, above both, so io never imports the rules.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping

from prefcli.io import writer
from prefcli.model.records import Record, Sheet

__all__ = ["options_of", "rules_to_data", "record_to_data", "record_parts", "sheet_to_data", "canonical_record_data"]


def options_of(rules: Mapping[str, Any]) -> List[Any]:
    """The options of a rules block's variant (the common ones first), in the preset's order; only
    the common ones when the variant is unknown (validate refuses it; a converter keeps it)."""
    from prefcli.rules.presets import COMMON_OPTIONS, OptionError, get_preset
    out: List[Any] = list(COMMON_OPTIONS)
    variant = rules.get("variant")
    if isinstance(variant, str):
        try:
            out.extend(get_preset(variant).family.options)
        except OptionError:
            pass
    return out


def rules_to_data(rules: Mapping[str, Any]) -> Dict[str, Any]:
    """The `rules` block, nested, variant first, options in the preset's order, values canonical."""
    return writer.rules_to_data(rules, options_of)


def record_to_data(record: Record) -> Dict[str, Any]:
    """A record as plain data in canonical form (FORMAT.md key order, the rules in the preset's)."""
    return writer.record_to_data(record, options_of)


def record_parts(record: Record) -> writer.RecordParts:
    """record_to_data as a head, the deals made one at a time, and a tail (convert's streamed
    writing); an amount the format cannot hold is raised here, before anything is written."""
    return writer.record_parts(record, options_of)


def sheet_to_data(sheet: Sheet) -> Dict[str, Any]:
    """A `pref-sheet/1` document in canonical form."""
    return writer.sheet_to_data(sheet, options_of)


def canonical_record_data(data: Mapping[str, Any]) -> Dict[str, Any]:
    """Plain record data → its canonical form (strict: raises InputError on bad content)."""
    from prefcli.model.build import record_from_data

    return record_to_data(record_from_data(data, strict=True))
