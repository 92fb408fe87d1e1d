"""The database connection: SQLite in the instance folder, configured for durability.

Each request gets its own connection (WAL, ``synchronous=FULL``, a busy timeout);
every write runs in a ``BEGIN IMMEDIATE`` transaction so that a transaction never
reads, loses the race and then fails to write (see ../shared/STACK-NOTES.md).
Named migrations run once at start-up, under a file lock, before serving.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import sqlite_utils
from flask import Flask, current_app, g
from sqlite_utils.migrations import Migrations

DATABASE_FILE = "scorekeeper.db"
BUSY_TIMEOUT_SECONDS = 10

migrations = Migrations("scorekeeper")


@migrations(name="0001_games_and_entries")
def _games_and_entries(db: sqlite_utils.Database) -> None:
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            record_token TEXT NOT NULL UNIQUE,
            view_token TEXT NOT NULL UNIQUE,
            code TEXT NOT NULL UNIQUE,
            rules TEXT NOT NULL,
            options TEXT NOT NULL,
            players TEXT NOT NULL,
            partnerships TEXT NOT NULL,
            first_dealer TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            version INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            hand INTEGER,
            player TEXT,
            data TEXT NOT NULL DEFAULT '{}',
            target INTEGER REFERENCES entries(id),
            idem_key TEXT NOT NULL,
            source TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, seq),
            UNIQUE (game_id, idem_key)
        )
        """
    )
    db.execute("CREATE INDEX entries_by_game ON entries (game_id, seq)")


@migrations(name="0002_events_and_director")
def _events_and_director(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE games ADD COLUMN locked INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("CREATE TABLE login_failures (id INTEGER PRIMARY KEY, address TEXT NOT NULL, at REAL NOT NULL)")
    db.execute("CREATE INDEX login_failures_by_address ON login_failures (address, at)")
    db.execute(
        """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            held_on TEXT NOT NULL,
            rules TEXT NOT NULL,
            options TEXT NOT NULL,
            scoring TEXT NOT NULL,
            partnerships TEXT NOT NULL,
            wall_token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE event_players (
            id INTEGER PRIMARY KEY,
            event_id INTEGER NOT NULL REFERENCES events(id),
            name TEXT NOT NULL,
            club TEXT NOT NULL DEFAULT '',
            number TEXT NOT NULL DEFAULT '',
            UNIQUE (event_id, name)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE event_tables (
            id INTEGER PRIMARY KEY,
            event_id INTEGER NOT NULL REFERENCES events(id),
            round INTEGER NOT NULL,
            number INTEGER NOT NULL,
            game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
            UNIQUE (event_id, round, number)
        )
        """
    )


@migrations(name="0003_verification")
def _verification(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE events ADD COLUMN verify INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN verify INTEGER NOT NULL DEFAULT 0")


@migrations(name="0004_house_rules")
def _house_rules(db: sqlite_utils.Database) -> None:
    """Each save of a house game is a new row; a name's latest row is its definition now."""
    db.execute(
        """
        CREATE TABLE house_rules (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL COLLATE NOCASE,
            definition TEXT NOT NULL,
            replaces INTEGER REFERENCES house_rules(id),
            saved_at TEXT NOT NULL,
            UNIQUE (replaces)
        )
        """
    )
    db.execute("CREATE INDEX house_rules_by_name ON house_rules (name, id)")


def database_path(app: Flask) -> str:
    return str(app.config.get("DATABASE") or os.path.join(app.instance_path, DATABASE_FILE))


def connect(path: str) -> sqlite_utils.Database:
    """A connection of our own: autocommit mode (we issue BEGIN), WAL, FULL sync, busy timeout."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    return sqlite_utils.Database(conn)


@contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction that takes the write lock first: all or nothing, committed on exit."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


def migrate(path: str) -> None:
    """Apply pending migrations; a file lock keeps concurrent starters from racing."""
    with open(path + ".migrate-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        db = connect(path)
        try:
            migrations.apply(db)
        finally:
            db.conn.close()


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
