"""Each request's database connection, opened on first use and closed at its end;
the migrations run once when the app is made, before it serves."""

from __future__ import annotations

import os

import sqlite_utils
from flask import Flask, current_app, g

from ..storage.database import DATABASE_FILE, connect, migrate


def database_path(app: Flask) -> str:
    return str(app.config.get("DATABASE") or os.path.join(app.instance_path, DATABASE_FILE))


def get_db() -> sqlite_utils.Database:
    """This request's connection, opened on first use."""
    if "db" not in g:
        g.db = connect(database_path(current_app))
    db: sqlite_utils.Database = g.db
    return db


def close_db(exception: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.conn.close()


def init_app(app: Flask) -> None:
    migrate(database_path(app))
    app.teardown_appcontext(close_db)
