"""Each request's database connection: its thread's own, opened on the thread's first request
and kept for the next (opening one costs a fifth of a save); the migrations run once when the
app is made, before it serves."""

from __future__ import annotations

import os
import threading

import sqlite_utils
from flask import Flask, current_app, g

from ..storage.database import DATABASE_FILE, connect, migrate


def database_path(app: Flask) -> str:
    return str(app.config.get("DATABASE") or os.path.join(app.instance_path, DATABASE_FILE))


_THREAD = threading.local()


def get_db() -> sqlite_utils.Database:
    """This request's connection: the one this thread keeps for the app's database."""
    if "db" not in g:
        g.db = _kept(database_path(current_app))
    db: sqlite_utils.Database = g.db
    return db


def _kept(path: str) -> sqlite_utils.Database:
    """The thread's connection to ``path``; one to another database (another app in the same
    process, as in the tests) is closed first, so a thread never holds more than one."""
    kept: tuple[str, sqlite_utils.Database] | None = getattr(_THREAD, "kept", None)
    if kept is not None and kept[0] == path:
        return kept[1]
    if kept is not None:
        kept[1].conn.close()
    db = connect(path)
    _THREAD.kept = (path, db)
    return db


def close_db(exception: BaseException | None = None) -> None:
    """The request is over: nothing it began may stay open on the kept connection."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.execute("ROLLBACK")


def init_app(app: Flask) -> None:
    migrate(database_path(app))
    app.teardown_appcontext(close_db)
