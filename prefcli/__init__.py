"""prefcli: check, replay, score and settle Preferans game records.

The library is usable without the CLI: ``prefcli.io.documents`` reads documents, ``prefcli.model``
holds records and sheets, ``prefcli.rules`` reads and replays deals, ``prefcli.scoring`` scores them,
``prefcli.settle`` settles sheets.
"""
__version__ = "0.1.0"
