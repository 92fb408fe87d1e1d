"""A table locked by the director (or by the evening's rules): how a short table counts (the
lock question's words), the lock itself and its history line, and unlocking."""

from __future__ import annotations

import sqlite_utils

from ..gamelog.state import GameState
from ..scoring import Refusal
from ..tournament.standings import (
    ADJUSTED,
    ADJUSTMENTS,
    AVERAGE,
    MISSED,
    NOTHING_TO_AVERAGE,
    PRORATED,
    SHORT_TREATMENTS,
)
from .database import immediate
from .events import BY_DIRECTOR, REASON_MAX_LENGTH, EventTable, event_tables, note_change
from .games import StoredGame, load_state, now


class LockRefusal(Refusal):
    """A table cannot be locked short as asked (an unknown treatment, an adjustment without its reason)."""


#: What each treatment of a short table does to its players, in one sentence: the lock question's words.
SHORT_TREATMENT_WORDS = {
    PRORATED: "Prorated (the default): each player's points are scaled to the whole game by the cards dealt "
    "(points × cards of the game ÷ cards dealt so far), so stopping early gains nothing.",
    MISSED: "Counted as missed: the table counts for nobody and its players are given the event's rule "
    "for a missed round.",
    ADJUSTED: "Adjusted: every player of the table is given the round's average total at its finished tables "
    "(average-plus a tenth better, average-minus a tenth worse), with your reason.",
}


def short_words(treatment: str, level: str = AVERAGE) -> str:
    """ "prorated", "counted as missed", "adjusted (average-plus)": how a short table counts."""
    return {PRORATED: "prorated", MISSED: "counted as missed"}.get(treatment, f"adjusted ({level})")


def short_why(state: GameState, treatment: str = PRORATED, level: str = AVERAGE, averaged: bool = True) -> str:
    """How a table's history line ends when it is locked as ``state`` stands: nothing for a
    finished game, else after which hand and how it counts (", after hand 6 of 15, prorated").
    ``averaged``: whether its round has a finished table to average (an adjusted table without
    one counts as missed until one finishes, and the line says so)."""
    if state.finished:
        return ""
    if not state.complete_hands:
        return " before hand 1: its players missed the round"
    most = state.game.rules.max_hands()
    of = f" of {most}" if most else ""
    words = short_words(treatment, level)
    if treatment == ADJUSTED and not averaged:
        words += f" — {NOTHING_TO_AVERAGE} until a table of the round finishes"
    return f" after hand {state.complete_hands}{of}, {words}"


def lock_table(
    db: sqlite_utils.Database,
    table: EventTable,
    treatment: str = PRORATED,
    level: str = AVERAGE,
    reason: str = "",
    why: str | None = None,
    at_version: int | None = None,
    by: str = BY_DIRECTOR,
) -> bool:
    """Lock an event's table, and if it has not finished, say how it counts (``treatment``; the
    default, prorated, never rewards stopping): the one way to lock a table short, which every
    path that locks one (the director's button, a round's clock, "lock every finished table")
    goes through (``lock_in_transaction`` records the treatment). The history says after which
    hand it was locked and how it counts ("Round 3, table 1 locked after hand 6 of 15,
    prorated"; ``why`` instead, if given). False when it was locked already (nothing changes).
    An adjusted table needs its reason (LockRefusal, beside ``reason``)."""
    if treatment not in SHORT_TREATMENTS:
        raise LockRefusal(f"A short table counts as one of: {', '.join(SHORT_TREATMENTS)}.", "treatment")
    if level not in ADJUSTMENTS:
        raise LockRefusal(f"An adjusted table is given one of: {', '.join(ADJUSTMENTS)}.", "level")
    reason = reason.strip()
    if treatment == ADJUSTED and not reason:
        raise LockRefusal("An adjusted score needs its reason: say why the table could not finish.", "reason")
    if why is None:
        why = short_why(load_state(db, table.game), treatment, level, _round_has_finished_table(db, table))
    with immediate(db):
        return lock_in_transaction(db, table.game.id, True, table, why, at_version, treatment, level, reason, by)


def _round_has_finished_table(db: sqlite_utils.Database, table: EventTable) -> bool:
    """Whether another table of ``table``'s round has finished its game: an average to adjust by."""
    found = db.execute("SELECT event_id FROM event_tables WHERE game_id = ?", [table.game.id]).fetchone()
    if found is None:
        return True
    return any(
        load_state(db, other.game).finished
        for other in event_tables(db, int(found[0]))
        if other.round == table.round and other.game.id != table.game.id
    )


def set_locked(
    db: sqlite_utils.Database,
    game: StoredGame,
    locked: bool,
    table: EventTable | None = None,
    why: str = "",
    at_version: int | None = None,
) -> bool:
    """Lock or unlock; False when the game was so already (nothing changes). ``table``: the
    event's table it is, whose history says so (locked: ``lock_table``, with the default
    treatment; ``why``: how it came to be). ``at_version``: only if the game's log still holds
    that many entries (a lock decided on what stood then, such as the round's time up between
    hands: a hand begun meanwhile goes on)."""
    if locked and table is not None:
        return lock_table(db, table, why=why or None, at_version=at_version)
    with immediate(db):
        return lock_in_transaction(db, game.id, locked, table, why, at_version)


def lock_in_transaction(
    db: sqlite_utils.Database,
    game_id: int,
    locked: bool,
    table: EventTable | None = None,
    why: str = "",
    at_version: int | None = None,
    treatment: str = PRORATED,
    level: str = AVERAGE,
    reason: str = "",
    by: str = BY_DIRECTOR,
) -> bool:
    """``set_locked`` inside the caller's write transaction (a round's tables locked together).
    Every lock goes through here: the director's, the round's *Lock finished tables*, a game
    ended in an event that locks at the end, and the round clock at time (``at_time``, which
    its phones are told); a table locked is given how it counts if short (``treatment``, the
    default prorated, ``level``, ``reason``).

    The lock's changes are counted (``notices``) so that the version a phone follows moves
    with it (``games.game_version``): a phone at a table hears of the lock at once."""
    cursor = db.conn.execute(
        "UPDATE games SET locked = ?, locked_at = CASE WHEN ? THEN ? ELSE locked_at END, notices = notices + 1 "
        "WHERE id = ? AND locked != ? AND (? IS NULL OR version = ?)",
        [int(locked), int(locked), now(), game_id, int(locked), at_version, at_version],
    )
    if cursor.rowcount and table is not None:
        event_id = db.execute("SELECT event_id FROM event_tables WHERE game_id = ?", [game_id]).fetchone()
        if event_id is not None:
            if locked:
                db.conn.execute(
                    "UPDATE event_tables SET short_treatment = ?, short_level = ?, short_reason = ?, locked_by = ? "
                    "WHERE game_id = ?",
                    [treatment, level, reason[:REASON_MAX_LENGTH], by, game_id],
                )
            state = "locked" if locked else "unlocked"
            note_change(db, int(event_id[0]), f"Round {table.round}, table {table.number} {state}{why}", reason)
    return cursor.rowcount > 0
