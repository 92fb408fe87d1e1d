"""The evening as it happens: a round's finished tables locked together, a table locked as its
game ends (where the event says so), and at the round's time every table still playing locked
once its hand in play is complete (at once between hands). Each lock goes through
``table_locks.lock_in_transaction``, the director's own lock."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from ..gamelog import GameState
from ..tournament.standings import ADJUSTED, PRORATED
from .database import immediate
from .event_results import TableProgress, game_counting, progress
from .events import BY_EVENING, BY_TIME, Event, EventTable, get_event
from .games import StoredGame, load_state
from .round_clock import RoundClock, due_clocks, round_clock
from .table_locks import lock_in_transaction, short_words


def lock_finished(db: sqlite_utils.Database, event: Event, round_: int) -> list[int]:
    """Lock every table of round ``round_`` whose result stands (its game finished, and confirmed
    where hands must be), in one short transaction; the tables newly locked, by number. The games
    are folded before the write lock is taken, and each is locked only if its log did not move
    meanwhile (a correction on its way is not shut out). A double click locks nothing more."""
    rows = [row for row in progress(db, event) if row.table.round == round_]
    ready = [row for row in rows if not row.table.locked and row.final_score.finished]
    locked = []
    with immediate(db):
        for row in ready:
            if lock_in_transaction(
                db, row.table.game.id, True, row.table, " (finished tables locked)", row.state.version, by=BY_EVENING
            ):
                locked.append(row.table.number)
    return locked


def _event_table(db: sqlite_utils.Database, stored: StoredGame) -> tuple[Event, EventTable] | None:
    row = db.execute(
        "SELECT t.event_id, t.round, t.number, g.locked, g.locked_at FROM event_tables t JOIN games g ON g.id = t.game_id "
        "WHERE t.game_id = ?",
        [stored.id],
    ).fetchone()
    if row is None:
        return None
    event = get_event(db, int(row[0]))
    if event is None:
        return None
    return event, EventTable(int(row[1]), int(row[2]), stored, bool(row[3]), locked_at=row[4])


def _locked_since(table: EventTable, moment: float) -> bool:
    """The table was locked at or after ``moment`` (and so, if unlocked now, the director unlocked it)."""
    return _stamped_since(table.locked_at, moment)


def _stamped_since(locked_at: str | None, moment: float) -> bool:
    if not locked_at:
        return False
    return datetime.fromisoformat(locked_at).timestamp() >= moment


def _reopened_after_time(clock: RoundClock | None, locked_at: str | None) -> bool:
    """Time was called on the table's round and the table, locked since, was reopened by the
    director: the clock has nothing more to say to its phones (locks are stamped to the second)."""
    return clock is not None and clock.up() and _stamped_since(locked_at, (clock.deadline or time.time()) - 1)


def _why(row: TableProgress, clock: RoundClock | None, event: Event, at: float) -> str | None:
    """Why the table is to be locked now, as its history line ends; None when it is not. A table
    the director unlocked after its lock (to correct it) is not locked again by the same rule."""
    state = row.state
    # Locks are stamped to the second: one made at time may read as up to a second before it.
    if clock is not None and clock.up(at) and not _locked_since(row.table, (clock.deadline or at) - 1):
        if state.finished:  # played to its end before time, left open: at time every table is locked
            return " at time, its game ended"
        hand = state.current_hand
        if hand is not None and state.last_change(hand) is None:
            done = state.complete_hands
            if not done:
                return " at time, before hand 1: its players missed the round"
            most = state.game.rules.max_hands()
            of = f" of {most}" if most else ""
            return f" at time, as it stood after hand {done}{of}, {short_words(PRORATED)}"
    if event.lock_at_end and row.final_score.finished and not row.table.locked_at:
        return " (its game ended)"
    return None


def _settle(db: sqlite_utils.Database, event: Event, rows: Iterable[TableProgress], at: float) -> list[int]:
    """Lock what the evening's rules say is to be locked now among ``rows`` (unlocked tables)."""
    clocks: dict[int, RoundClock | None] = {}
    locked = []
    for row in rows:
        if row.table.locked:
            continue
        if row.table.round not in clocks:
            clocks[row.table.round] = round_clock(db, event.id, row.table.round)
        why = _why(row, clocks[row.table.round], event, at)
        if why is not None and _lock(db, row, why):
            locked.append(row.table.number)
    return locked


def _lock(db: sqlite_utils.Database, row: TableProgress, why: str) -> bool:
    by = BY_TIME if why.startswith(" at time") else BY_EVENING
    with immediate(db):
        return lock_in_transaction(db, row.table.game.id, True, row.table, why, row.state.version, by=by)


def settle_game(db: sqlite_utils.Database, stored: StoredGame) -> bool:
    """After a change to a game: lock its table if its game just ended (an event that locks at
    the end) or its hand in play just completed after the round's time. True when it was locked."""
    found = _event_table(db, stored)
    if found is None or found[1].locked:
        return False
    event, table = found
    return bool(_settle(db, event, [TableProgress(table, load_state(db, stored))], time.time()))


def settle_event(db: sqlite_utils.Database, event: Event) -> list[int]:
    """Whenever an event is read (its page, its wall screen): what is to be locked now, locked."""
    return _settle(db, event, progress(db, event), time.time())


def settled_progress(db: sqlite_utils.Database, event: Event) -> list[TableProgress]:
    """Every table's progress after what is to be locked now is locked: the tables are read once
    (again only when something was locked), as the event page reads them at every look."""
    tables = progress(db, event)
    return progress(db, event) if _settle(db, event, tables, time.time()) else tables


def settle_due(db: sqlite_utils.Database) -> int:
    """Every round at time with tables unlocked, in every event: what is to be locked now, locked.
    The live process runs it every second, so tables are locked at time with no page open."""
    count = 0
    at = time.time()
    for event_id, round_ in due_clocks(db, at):
        event = get_event(db, event_id)
        if event is None:
            continue
        rows = [row for row in progress(db, event) if row.table.round == round_]
        count += len(_settle(db, event, rows, at))
    return count


@dataclass(frozen=True)
class TableNotice:
    """What a table's phones show beside its log: whether the table is locked, in whose words
    (``headline``: the director's lock, or time called and how the table counts), what the
    event's standings make of it (``counting``, as its sheet says it), its round's clock, and
    how often the lock or the clock changed (``notices``: its pages' followed version is the
    log's plus these)."""

    locked: bool
    notices: int
    clock: RoundClock | None
    headline: str = "Locked by the director."
    counting: tuple[str, ...] = ()


def _time_called(state: GameState, treatment: str, level: str) -> str:
    """A table locked by its round's clock, as its phones say it."""
    if state.finished:
        return "Time was called: this table is locked, its game ended."
    done = state.complete_hands
    if not done:
        return "Time was called before hand 1 was complete: this table is locked and its players missed the round."
    most = state.game.rules.max_hands()
    of = f" of {most}" if most else ""
    if treatment == ADJUSTED:
        counted = f"counted as an adjusted score, {level}"
    elif treatment == PRORATED and most:
        counted = "counted prorated"
    else:  # a game played to a score has no length to prorate to: its short table counts as missed
        counted = "counted as missed"
    return f"Time was called: this table is locked as it stood after hand {done}{of} ({counted})."


def table_notice(db: sqlite_utils.Database, stored: StoredGame) -> TableNotice:
    row = db.execute(
        "SELECT g.locked, g.notices, t.event_id, t.round, t.locked_by, t.short_treatment, t.short_level, g.locked_at "
        "FROM games g LEFT JOIN event_tables t ON t.game_id = g.id WHERE g.id = ?",
        [stored.id],
    ).fetchone()
    if row is None:
        return TableNotice(False, 0, None)
    clock = None if row[2] is None else round_clock(db, int(row[2]), int(row[3]))
    if not row[0]:
        return TableNotice(False, int(row[1]), None if _reopened_after_time(clock, row[7]) else clock)
    headline = _time_called(load_state(db, stored), row[5], row[6]) if row[4] == BY_TIME else TableNotice.headline
    return TableNotice(True, int(row[1]), clock, headline, tuple(game_counting(db, stored.id)[1]))
