"""The director: the password (hashed), login sessions kept on the server, and the count of failed logins."""

from __future__ import annotations

import secrets
import time

import sqlite_utils

from .database import immediate


def director_password_hash(db: sqlite_utils.Database) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = 'director_password'").fetchone()
    return str(row[0]) if row else None


def set_director_password_hash(db: sqlite_utils.Database, password_hash: str, replace: bool) -> bool:
    """Store the hash; unless ``replace``, only when none is set yet (first come, first served).

    A new password ends every director session: whoever held the old one is logged out; and
    the count of wrong passwords starts again (they were guesses at the old one).
    """
    with immediate(db):
        if not replace and director_password_hash(db) is not None:
            return False
        db.conn.execute(
            "INSERT INTO settings (key, value) VALUES ('director_password', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [password_hash],
        )
        db.conn.execute("DELETE FROM director_sessions")
        db.conn.execute("DELETE FROM login_failures")
    return True


def start_director_session(
    db: sqlite_utils.Database, password_hash: str, lifetime_seconds: float, replaces: str | None = None
) -> str | None:
    """A new session id for a login checked against ``password_hash``, or None if that is no longer the password.

    The check and the insert share a transaction, so a login racing a new password cannot
    outlive it. ``replaces`` is the browser's previous session, ended at the same time.
    """
    session_id = secrets.token_urlsafe(32)
    at = time.time()
    with immediate(db):
        if director_password_hash(db) != password_hash:
            return None
        db.conn.execute("DELETE FROM director_sessions WHERE expires_at <= ? OR id = ?", [at, replaces])
        db.conn.execute(
            "INSERT INTO director_sessions (id, expires_at) VALUES (?, ?)", [session_id, at + lifetime_seconds]
        )
    return session_id


def director_session_active(db: sqlite_utils.Database, session_id: str) -> bool:
    row = db.execute(
        "SELECT 1 FROM director_sessions WHERE id = ? AND expires_at > ?", [session_id, time.time()]
    ).fetchone()
    return row is not None


def end_director_session(db: sqlite_utils.Database, session_id: str) -> None:
    with immediate(db):
        db.conn.execute("DELETE FROM director_sessions WHERE id = ?", [session_id])


def reserve_login_attempt(
    db: sqlite_utils.Database, guesser: str, window_seconds: float, attempts: int, everyone: int
) -> str | None:
    """Count a login attempt as a failure before its password is checked: None if it may be
    checked, else who used up the window: ``"address"`` (this guesser: an address, an IPv6 /64,
    past ``attempts`` failures) or ``"everyone"`` (past ``everyone`` failures on the whole server,
    and this guesser among them).

    Counting and reserving in one write transaction is what bounds the guesses: however
    many arrive at once, at most ``attempts`` per window get as far as the password check
    from one guesser. The server-wide cap refuses only a guesser that has itself failed in the
    window, so that no network's failures (nor many networks') lock out a director who has not
    mistyped: past it, a guesser from a new network gets one guess, not ``attempts``. A right
    password then clears its guesser's count (``clear_login_failures``).
    """
    at = time.time()
    with immediate(db):
        db.conn.execute("DELETE FROM login_failures WHERE at <= ?", [at - window_seconds])
        (mine,) = db.conn.execute("SELECT COUNT(*) FROM login_failures WHERE address = ?", [guesser]).fetchone()
        if mine >= attempts:
            return "address"
        (total,) = db.conn.execute("SELECT COUNT(*) FROM login_failures").fetchone()
        if total >= everyone and mine > 0:
            return "everyone"
        db.conn.execute("INSERT INTO login_failures (address, at) VALUES (?, ?)", [guesser, at])
    return None


def give_back_login_attempt(db: sqlite_utils.Database, guesser: str) -> None:
    """Take back the last attempt ``reserve_login_attempt`` counted for ``guesser``: its password
    was not checked after all (another was being checked)."""
    with immediate(db):
        db.conn.execute(
            "DELETE FROM login_failures WHERE rowid = (SELECT MAX(rowid) FROM login_failures WHERE address = ?)",
            [guesser],
        )


def clear_login_failures(db: sqlite_utils.Database, address: str) -> None:
    with immediate(db):
        db.conn.execute("DELETE FROM login_failures WHERE address = ?", [address])
