"""A line of the club's history undone: a merge of two members, an event deleted from the list.

Each undoable line carries what undoing it takes (``undo``, JSON, with its ``kind``); undoing it
restores exactly that, or is refused with the reason it no longer can be, and is itself a line
of the history. The line is marked undone in the same transaction, so a second click does nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

import sqlite_utils

from ..club.members import MemberRefusal
from .database import immediate
from .event_deletion import DELETION, undo_deletion
from .games import now
from .member_merges import MERGE, undo_merge
from .members import note_club_change

#: How each kind of change is undone (inside the undo's transaction; a refusal leaves everything).
UNDO: dict[str, Callable[[sqlite_utils.Database, Mapping[str, object]], None]] = {
    MERGE: undo_merge,
    DELETION: undo_deletion,
}


def undo(db: sqlite_utils.Database, line_id: int, who: str) -> bool:
    """Undo the change a line of the club's history made; False when it is undone already (a
    double click). Refused (a Refusal) for a line that cannot be undone, or no longer exactly."""
    with immediate(db):
        row = db.execute("SELECT what, undo, undone_at FROM club_history WHERE id = ?", [line_id]).fetchone()
        if row is None:
            raise MemberRefusal("That line is not in the club's history: reload the page.")
        what, payload, undone_at = row
        if undone_at is not None:
            return False
        if payload is None:
            raise MemberRefusal("That change cannot be undone.")
        data = json.loads(payload)
        undoer = UNDO.get(str(data.get("kind")))
        if undoer is None:
            raise MemberRefusal("That change cannot be undone.")
        undoer(db, data)
        db.conn.execute("UPDATE club_history SET undone_at = ? WHERE id = ?", [now(), line_id])
        note_club_change(db, who, f"Undone: {what}")
    return True
