"""The document formats prefcli reads and writes, with their versions: one list.

Kept free of imports so that ``prefcli --version`` can name them without loading the library.
Each has a JSON Schema in ``schemas/`` (``prefcli schema KIND``).
"""
from __future__ import annotations

from typing import Dict, Tuple

RECORD_FORMAT = "pref-record/1"
SHEET_FORMAT = "pref-sheet/1"
TOURNAMENT_FORMAT = "pref-tournament/1"
SETTLEMENT_FORMAT = "pref-settlement/1"
VALIDATION_FORMAT = "pref-validation/1"
REPLAY_FORMAT = "pref-replay/1"
STATS_FORMAT = "pref-stats/1"
IMPORT_REPORT_FORMAT = "pref-import-report/1"

#: Formats prefcli reads as input (validate, score, settle…; merge reads its own two outputs).
READS: Tuple[str, ...] = (RECORD_FORMAT, SHEET_FORMAT, TOURNAMENT_FORMAT, SETTLEMENT_FORMAT, STATS_FORMAT)

#: Formats prefcli writes.
WRITES: Tuple[str, ...] = (RECORD_FORMAT, SHEET_FORMAT, SETTLEMENT_FORMAT, VALIDATION_FORMAT,
                           REPLAY_FORMAT, STATS_FORMAT, IMPORT_REPORT_FORMAT)

#: format → the schema kind of `prefcli schema KIND`.
SCHEMA_KIND: Dict[str, str] = {
    RECORD_FORMAT: "record", SHEET_FORMAT: "sheet", TOURNAMENT_FORMAT: "tournament",
    SETTLEMENT_FORMAT: "settlement", VALIDATION_FORMAT: "validation", REPLAY_FORMAT: "replay",
    STATS_FORMAT: "stats", IMPORT_REPORT_FORMAT: "import",
}


def version_text(version: str) -> str:
    """What ``prefcli --version`` prints."""
    return (f"prefcli {version}\n"
            f"reads: {', '.join(READS)}\n"
            f"writes: {', '.join(WRITES)}")
