"""A game's own logic between the rules and the database: its log of entries, folded into what
stands now (``state``), and each change checked against it and the engine (``checks``).

Pure: no web, no SQL. Storage stores what this part accepted; the web part asks it once.
"""

from .checks import Guard, accept, accept_record, check, problem, replay, verify
from .entries import (
    CONFIRM,
    FIELD_OF_CHANGE,
    LEFTOVERS,
    MAX_ENTRIES,
    MAX_PRESSURES_IN_A_HAND,
    NOTE,
    NOTE_MAX_LENGTH,
    ONE_CARD,
    PRESSURE,
    VOID,
    Change,
    Entry,
    SecondThoughts,
    StaleEdit,
    StaleEdits,
    TableError,
)
from .history import describe
from .state import TableState

__all__ = [
    "CONFIRM",
    "FIELD_OF_CHANGE",
    "LEFTOVERS",
    "MAX_ENTRIES",
    "MAX_PRESSURES_IN_A_HAND",
    "NOTE",
    "NOTE_MAX_LENGTH",
    "ONE_CARD",
    "PRESSURE",
    "VOID",
    "Change",
    "Entry",
    "Guard",
    "SecondThoughts",
    "StaleEdit",
    "StaleEdits",
    "TableError",
    "TableState",
    "accept",
    "accept_record",
    "check",
    "describe",
    "problem",
    "replay",
    "verify",
]
