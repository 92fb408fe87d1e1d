"""A game imported from a record: checked whole before the write lock is taken and stored in one
transaction; kept for good once its link is used, swept away if nobody opened it within a day."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime

import sqlite_utils

from ..gamelog import (
    Change,
    Entry,
    accept_record,
)
from ..gamelog.memo import Memo
from ..scoring import Game
from .database import immediate
from .games import INSERT_ENTRY, StoredGame, entry_row, insert_game, now


def import_game(
    db: sqlite_utils.Database, game: Game, changes: Iterable[Change], source: str, title: str = ""
) -> StoredGame:
    """A new game with its log: checked whole before the write lock is taken, then stored in one
    transaction (all of it or none of it)."""
    created = now()
    entries = [
        Entry.of(change, -seq, seq, f"import-{seq}", source, created) for seq, change in enumerate(changes, start=1)
    ]
    accept_record(game, entries)
    rows = [entry_row(0, entry) for entry in entries]
    with immediate(db):
        stored = insert_game(db, game, title)
        db.conn.executemany(INSERT_ENTRY, ([stored.id, *row[1:]] for row in rows))
        db.conn.execute("UPDATE games SET version = ?, unopened_import = 1 WHERE id = ?", [len(entries), stored.id])
        return replace(stored, unopened=True)


#: Games this process has seen opened: each is marked once, not at every page. Known by record
#: token, which no two games share in any database (a row number is only one database's).
_OPENED: Memo[bool] = Memo(4096)


def mark_opened(db: sqlite_utils.Database, stored: StoredGame) -> None:
    """An imported game's link was used: it is kept (``sweep_unopened_imports`` leaves it)."""
    if not stored.unopened or _OPENED.lookup(stored.record_token):
        return
    with immediate(db):
        db.conn.execute("UPDATE games SET unopened_import = 0 WHERE id = ?", [stored.id])
    _OPENED.put(stored.record_token, True)


def sweep_unopened_imports(db: sqlite_utils.Database, older_than: float, at: float | None = None) -> int:
    """Delete the imported games whose links nobody used within ``older_than`` seconds of their
    import (a flood's leftovers: an importer's browser opens the game at once), with their logs.
    A game an event seats is never one of them. Returns how many went."""
    at = time.time() if at is None else at
    cutoff = datetime.fromtimestamp(at - older_than, UTC).isoformat(timespec="seconds")
    unopened = (
        "SELECT id FROM games WHERE unopened_import = 1 AND created_at < ?"
        " AND id NOT IN (SELECT game_id FROM event_tables)"
    )
    with immediate(db):
        db.conn.execute(f"DELETE FROM entries WHERE game_id IN ({unopened})", [cutoff])
        cursor = db.conn.execute(f"DELETE FROM games WHERE id IN ({unopened})", [cutoff])
        return cursor.rowcount
