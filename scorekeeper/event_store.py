"""Events, their players and tables, the director's password and failed logins: the SQL for them."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

import sqlite_utils

from .db import immediate
from .scoring import Game, RuleSet, configure
from .seating import partners_of
from .storage import StoredGame, _insert_game, game_by_record_token, now


@dataclass(frozen=True)
class Event:
    id: int
    name: str
    held_on: str
    rules: str
    options: dict[str, object]
    scoring: str
    partnerships: str
    wall_token: str
    verify: bool = False

    def ruleset(self) -> RuleSet:
        """The event's game with its options."""
        return configure(self.rules, self.options)


@dataclass(frozen=True)
class EventPlayer:
    name: str
    club: str
    number: str


@dataclass(frozen=True)
class EventTable:
    round: int
    number: int
    game: StoredGame
    locked: bool


def create_event(
    db: sqlite_utils.Database,
    name: str,
    held_on: str,
    rules: str,
    options: dict[str, object],
    scoring: str,
    partnerships: str,
    players: Sequence[EventPlayer],
    verify: bool = False,
) -> Event:
    with immediate(db):
        cursor = db.conn.execute(
            "INSERT INTO events (name, held_on, rules, options, scoring, partnerships, wall_token, created_at, verify) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                name,
                held_on,
                rules,
                json.dumps(options),
                scoring,
                partnerships,
                secrets.token_urlsafe(18),
                now(),
                int(verify),
            ],
        )
        event_id = int(cursor.lastrowid or 0)
        for player in players:
            db.conn.execute(
                "INSERT INTO event_players (event_id, name, club, number) VALUES (?, ?, ?, ?)",
                [event_id, player.name, player.club, player.number],
            )
    found = get_event(db, event_id)
    assert found is not None
    return found


def _event(row: dict[str, object]) -> Event:
    return Event(
        id=int(str(row["id"])),
        name=str(row["name"]),
        held_on=str(row["held_on"]),
        rules=str(row["rules"]),
        options=json.loads(str(row["options"])),
        scoring=str(row["scoring"]),
        partnerships=str(row["partnerships"]),
        wall_token=str(row["wall_token"]),
        verify=bool(row.get("verify", 0)),
    )


def get_event(db: sqlite_utils.Database, event_id: int) -> Event | None:
    rows = list(db.query("SELECT * FROM events WHERE id = ?", [event_id]))
    return _event(rows[0]) if rows else None


def event_by_wall_token(db: sqlite_utils.Database, token: str) -> Event | None:
    rows = list(db.query("SELECT * FROM events WHERE wall_token = ?", [token])) if token else []
    return _event(rows[0]) if rows else None


def list_events(db: sqlite_utils.Database) -> list[Event]:
    return [_event(row) for row in db.query("SELECT * FROM events ORDER BY id DESC")]


def event_players(db: sqlite_utils.Database, event_id: int) -> list[EventPlayer]:
    return [
        EventPlayer(row["name"], row["club"], row["number"])
        for row in db.query("SELECT * FROM event_players WHERE event_id = ? ORDER BY id", [event_id])
    ]


def event_tables(db: sqlite_utils.Database, event_id: int) -> list[EventTable]:
    rows = db.query(
        "SELECT t.round, t.number, g.record_token, g.locked FROM event_tables t JOIN games g ON g.id = t.game_id "
        "WHERE t.event_id = ? ORDER BY t.round, t.number",
        [event_id],
    )
    tables = []
    for row in rows:
        game = game_by_record_token(db, row["record_token"])
        assert game is not None
        tables.append(EventTable(row["round"], row["number"], game, bool(row["locked"])))
    return tables


def event_version(db: sqlite_utils.Database, event: Event) -> int:
    """Changes anywhere in the event (for the wall screen to follow): entries plus tables."""
    row = db.execute(
        "SELECT COALESCE(SUM(g.version), 0) + COUNT(*) + COALESCE(SUM(g.locked), 0) FROM event_tables t "
        "JOIN games g ON g.id = t.game_id WHERE t.event_id = ?",
        [event.id],
    ).fetchone()
    return int(row[0])


def add_round(db: sqlite_utils.Database, event: Event, tables: Sequence[Sequence[str]]) -> int:
    """Seat a new round: a game per table, all in one transaction. Returns the round's number."""
    rules = event.ruleset()
    with immediate(db):
        row = db.execute(
            "SELECT COALESCE(MAX(round), 0) + 1 FROM event_tables WHERE event_id = ?", [event.id]
        ).fetchone()
        number = int(row[0])
        for index, seats in enumerate(tables, start=1):
            game = Game(rules, tuple(seats), partners_of(seats, event.partnerships), seats[0])
            stored = _insert_game(db, game, f"{event.name} · round {number} · table {index}", event.verify)
            db.conn.execute(
                "INSERT INTO event_tables (event_id, round, number, game_id) VALUES (?, ?, ?, ?)",
                [event.id, number, index, stored.id],
            )
    return number


def set_locked(db: sqlite_utils.Database, game: StoredGame, locked: bool) -> None:
    with immediate(db):
        db.conn.execute("UPDATE games SET locked = ? WHERE id = ?", [int(locked), game.id])


def director_password_hash(db: sqlite_utils.Database) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = 'director_password'").fetchone()
    return str(row[0]) if row else None


def set_director_password_hash(db: sqlite_utils.Database, password_hash: str, replace: bool) -> bool:
    """Store the hash; unless ``replace``, only when none is set yet (first come, first served)."""
    with immediate(db):
        if not replace and director_password_hash(db) is not None:
            return False
        db.conn.execute(
            "INSERT INTO settings (key, value) VALUES ('director_password', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [password_hash],
        )
    return True


def recent_login_failures(db: sqlite_utils.Database, address: str, window_seconds: float) -> int:
    row = db.execute(
        "SELECT COUNT(*) FROM login_failures WHERE address = ? AND at > ?", [address, time.time() - window_seconds]
    ).fetchone()
    return int(row[0])


def record_login_failure(db: sqlite_utils.Database, address: str) -> None:
    with immediate(db):
        db.conn.execute("INSERT INTO login_failures (address, at) VALUES (?, ?)", [address, time.time()])


def clear_login_failures(db: sqlite_utils.Database, address: str) -> None:
    with immediate(db):
        db.conn.execute("DELETE FROM login_failures WHERE address = ?", [address])
