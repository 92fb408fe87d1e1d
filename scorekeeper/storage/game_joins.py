"""Joining a game by its short code: a password, so wrong guesses are counted and limited, by
address and for everyone, in one transaction."""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlite_utils

from .database import immediate
from .games import StoredGame, game_by_code


@dataclass(frozen=True)
class JoinLimits:
    """How many wrong join codes a minute are answered: from one address, and from everyone."""

    per_address: int = 10
    everyone: int = 300
    window_seconds: float = 60.0


@dataclass(frozen=True)
class JoinAttempt:
    """The game a code opens, or why the attempt was refused (``"address"`` or ``"everyone"``)."""

    game: StoredGame | None
    refused: str | None = None


def join_by_code(
    db: sqlite_utils.Database, code: str, address: str, limits: JoinLimits, at: float | None = None
) -> JoinAttempt:
    """The game a join code opens, counting wrong codes, all in one transaction (so that guesses
    arriving together cannot all slip under the limit).

    An address past its limit is refused without the code being looked at, right or wrong: were
    the right code let through, the refusals would tell a guesser which of its guesses was right.
    When everyone together is past the limit, wrong codes are refused (and still counted against
    their address) but a right code is let in: others' guessing never locks a player out.
    """
    at = time.time() if at is None else at
    with immediate(db):
        db.conn.execute("DELETE FROM join_failures WHERE at <= ?", [at - limits.window_seconds])
        mine = db.execute("SELECT COUNT(*) FROM join_failures WHERE address = ?", [address]).fetchone()[0]
        if mine >= limits.per_address:
            return JoinAttempt(None, "address")
        found = game_by_code(db, code)
        if found is not None:
            return JoinAttempt(found)
        everyone = db.execute("SELECT COUNT(*) FROM join_failures").fetchone()[0]
        db.conn.execute("INSERT INTO join_failures (address, at) VALUES (?, ?)", [address, at])
        return JoinAttempt(None, "everyone" if everyone >= limits.everyone else None)
