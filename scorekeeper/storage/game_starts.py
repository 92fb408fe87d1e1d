"""The budget on new games: games started and imported, counted by network and for the whole
server, so that a flood of them (an import is up to a few hundred KB stored and half a second of
checking) can neither fill the disk nor take the server's time from the tables playing."""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlite_utils

from .database import immediate

#: What is counted: a game started from the start form, or a game record imported.
STARTED, IMPORTED = "started", "imported"


@dataclass(frozen=True)
class StartLimits:
    """How many games an hour may be started or imported: from one network (both together), and
    from everyone (started games and imports each have their own budget)."""

    per_network: int = 20
    started_everyone: int = 500
    imported_everyone: int = 40
    window_seconds: float = 3600.0
    #: Past the budget of everyone, a network that has started or imported fewer than this in
    #: the hour still may: a brake on a flood from many addresses, never a lock on a table that
    #: starts its evening's game.
    always: int = 3


@dataclass(frozen=True)
class StartRefused:
    """Who used up the budget (``"network"`` or ``"everyone"``) and in how many seconds a new
    game could be counted again."""

    who: str
    retry_after: int


def reserve_start(
    db: sqlite_utils.Database, network: str, kind: str, limits: StartLimits, at: float | None = None
) -> StartRefused | None:
    """Count a game about to be started or imported, before any work is done for it: None if it
    may go ahead, else why not. Counting and reserving in one write transaction is what bounds
    the games: however many arrive at once, at most ``per_network`` an hour from one network
    (an address; IPv6 by its /64) and the budget of its kind from everyone get through.

    An import is counted whether its record is then accepted or refused: checking a refused
    record costs the server as much as an accepted one."""
    at = time.time() if at is None else at
    refused = _refused(db, network, kind, limits, at)  # read alone: a flood's refusals take no write lock
    if refused is not None:
        return refused
    with immediate(db):
        db.conn.execute("DELETE FROM game_starts WHERE at <= ?", [at - limits.window_seconds])
        refused = _refused(db, network, kind, limits, at)
        if refused is None:
            db.conn.execute("INSERT INTO game_starts (network, kind, at) VALUES (?, ?, ?)", [network, kind, at])
    return refused


def _refused(db: sqlite_utils.Database, network: str, kind: str, limits: StartLimits, at: float) -> StartRefused | None:
    since = at - limits.window_seconds
    mine, first = db.conn.execute(
        "SELECT COUNT(*), MIN(at) FROM game_starts WHERE network = ? AND at > ?", [network, since]
    ).fetchone()
    if mine >= limits.per_network:
        return StartRefused("network", _wait(first, limits, at))
    budget = limits.imported_everyone if kind == IMPORTED else limits.started_everyone
    total, first = db.conn.execute(
        "SELECT COUNT(*), MIN(at) FROM game_starts WHERE kind = ? AND at > ?", [kind, since]
    ).fetchone()
    if total >= budget and mine >= limits.always:
        return StartRefused("everyone", _wait(first, limits, at))
    return None


def _wait(first: float, limits: StartLimits, at: float) -> int:
    """Seconds until the oldest game counted leaves the window (at least one)."""
    return max(1, int(first + limits.window_seconds - at + 0.999))
