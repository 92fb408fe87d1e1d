"""A game's own logic between the rules and the database: its log of entries, folded into what
stands now (``state``), and each change checked against it and the engine (``checks``).

A save is decided here (``taking.take``: what to append, or the refusal, and what the table is
told of it, ``said``). Pure: no web, no SQL. Storage stores what this part took.
"""

from .checks import accept, accept_record, replay
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
    ChangeRefusal,
    Entry,
    SecondThoughts,
    StaleEdit,
    StaleEdits,
)
from .history import describe
from .state import Appended, GameState
from .taking import DIRECTOR, GameLocked, Sender, Taken, take

__all__ = [
    "CONFIRM",
    "DIRECTOR",
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
    "Appended",
    "Entry",
    "SecondThoughts",
    "StaleEdit",
    "StaleEdits",
    "Sender",
    "ChangeRefusal",
    "GameLocked",
    "GameState",
    "Taken",
    "accept",
    "accept_record",
    "describe",
    "replay",
    "take",
]
