"""An event deleted from the director's list, and brought back: a soft delete, undone from the
club's history.

A deleted event leaves the list, its pages, its wall screen and its exports (``get_event`` and
``event_by_wall_token`` no longer find it), and every game of its tables is locked, so that its
record links and join codes take no change from the players. Nothing of its results goes: the
club's record keeps its tables and standings as they stood, and the locks that close its games
close no table in that record (a table still playing stays unfinished there); the ratings and
seasons read the record. Undoing it unlocks exactly the games the deletion locked.
"""

from __future__ import annotations

from collections.abc import Mapping

import sqlite_utils

from ..club.members import held_on_words
from ..scoring import Refusal
from .club_results import bring_up_to_date, keep_record, record_holds
from .database import immediate
from .events import note_change
from .games import now
from .members import note_club_change

#: The kind of a deletion's line in the club's history (its undo says so).
DELETION = "event_deleted"
#: How often the deletion waits for the event's record to be brought up to date, while its
#: tables change, before it deletes the event anyway (its record then derived again, with the locks).
TRIES = 3


class DeletionRefusal(Refusal):
    """An event that cannot be deleted, or brought back, as asked."""

    status = 409


def delete_event(db: sqlite_utils.Database, event_id: int, who: str) -> int:
    """Delete the event from the list: the club's history line's id; False (0) when it is deleted
    already (a double click). The club's record is brought up to date first (outside the write
    lock) and kept as it stands through the deletion's locks."""
    for attempt in range(TRIES):
        bring_up_to_date(db)
        with immediate(db):
            row = db.execute("SELECT name, held_on, deleted_at FROM events WHERE id = ?", [event_id]).fetchone()
            if row is None:
                raise DeletionRefusal("There is no such event: reload the page.")
            if row[2] is not None:
                return False
            holds = record_holds(db, event_id)
            if not holds and attempt < TRIES - 1:
                continue  # a table changed meanwhile: its record first
            unlocked = [
                int(game)
                for (game,) in db.execute(
                    "SELECT g.id FROM event_tables t JOIN games g ON g.id = t.game_id "
                    "WHERE t.event_id = ? AND g.locked = 0 ORDER BY g.id",
                    [event_id],
                )
            ]
            _set_locks(db, unlocked, True)
            db.conn.execute("UPDATE events SET deleted_at = ? WHERE id = ?", [now(), event_id])
            if holds:
                keep_record(db, event_id)
            note_change(db, event_id, "Deleted from the list of events")
            what = f"{row[0]} ({held_on_words(row[1])}) deleted from the list of events"
            return note_club_change(db, who, what, {"kind": DELETION, "event": event_id, "unlocked": unlocked})
    raise AssertionError("unreachable: the last attempt deletes")


def _set_locks(db: sqlite_utils.Database, games: list[int], locked: bool) -> None:
    """Lock or unlock games without stamping ``locked_at``: these locks close no table in the record."""
    for start in range(0, len(games), 500):
        chunk = games[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        db.conn.execute(
            f"UPDATE games SET locked = ?, notices = notices + (locked != ?) WHERE id IN ({marks})",
            [int(locked), int(locked), *chunk],
        )


def undo_deletion(db: sqlite_utils.Database, undo: Mapping[str, object]) -> None:
    """Bring a deleted event back exactly (inside the caller's transaction): on the list again, and
    the games the deletion locked unlocked (those it found locked stay so)."""
    event_id = int(str(undo["event"]))
    row = db.execute("SELECT deleted_at FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None or row[0] is None:
        raise DeletionRefusal("That event is on the list already: reload the page.")
    listed = undo.get("unlocked")
    games = [int(str(game)) for game in listed] if isinstance(listed, list) else []
    holds = record_holds(db, event_id)
    _set_locks(db, games, False)
    db.conn.execute("UPDATE events SET deleted_at = NULL WHERE id = ?", [event_id])
    if holds:
        keep_record(db, event_id)
    note_change(db, event_id, "Brought back to the list of events (its deletion undone)")


def deleted_events(db: sqlite_utils.Database) -> list[tuple[int, str, str]]:
    """The events deleted from the list (id, name, date), the latest deleted first."""
    return [
        (int(row[0]), str(row[1]), str(row[2]))
        for row in db.execute(
            "SELECT id, name, held_on FROM events WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id DESC"
        )
    ]
