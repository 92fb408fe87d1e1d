"""A club's evenings played through storage, with results chosen by place: for the club's tests."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import sqlite_utils

from scorekeeper.club.members import number_key
from scorekeeper.gamelog.entries import LEFTOVERS, Change
from scorekeeper.storage import event_rounds, table_locks
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect, immediate, migrate
from scorekeeper.storage.events import Event, EventPlayer, EventTable
from scorekeeper.storage.games import append
from scorekeeper.tournament.seating import name_key

#: The cards a side placed p-th holds at the end of each hand it does not go out in (Crates
#: points: 1, 10, 15, 20, 50): the lower the place, the fewer the points.
CARDS_BY_PLACE = {1: "A", 2: "J", 3: "4", 4: "2", 5: "8"}
_KEYS = itertools.count()


def club_db(folder) -> sqlite_utils.Database:
    path = str(folder / "club.db")
    migrate(path)
    return connect(path)


def new_event(
    db: sqlite_utils.Database,
    players: Sequence[str | tuple[str, str, str]],
    name: str = "Club night",
    held_on: str = "2026-11-02",
    partnerships: str = "none",
    **options: object,
) -> Event:
    """An event of ``players`` (names, or (name, club, number))."""
    rows = [EventPlayer(*((player, "", "") if isinstance(player, str) else player)) for player in players]
    return event_store.create_event(db, name, held_on, "crates", {}, "total", partnerships, rows, **options)  # type: ignore[arg-type]


def stored_before_the_rule(
    db: sqlite_utils.Database, event: Event, players: Mapping[str, tuple[str, str, str]]
) -> None:
    """Each of ``players`` (seat name → name, club, number) written straight into the event and
    its member by SQL, before any round is seated: what a database made before the club's rule
    for a member's fields (or written to by hand) may hold, which no way in accepts any more."""
    with immediate(db):
        for seat_name, (name, club, number) in players.items():
            (member_id,) = db.execute(
                "SELECT member_id FROM event_players WHERE event_id = ? AND name = ?", [event.id, seat_name]
            ).fetchone()
            db.conn.execute(
                "UPDATE event_players SET name = ?, club = ?, number = ? WHERE event_id = ? AND name = ?",
                [name, club, number, event.id, seat_name],
            )
            db.conn.execute(
                "UPDATE members SET name = ?, name_key = ?, club = ?, number = ?, number_key = ? WHERE id = ?",
                [name, name_key(name), club, number or None, number_key(number), member_id],
            )


def seat(db: sqlite_utils.Database, event: Event, tables: Sequence[Sequence[str]]) -> list[EventTable]:
    """Seat the next round with ``tables`` (players in seat order); its tables."""
    number = 1 + max((table.round for table in event_store.event_tables(db, event.id)), default=0)
    event_rounds.add_round(db, event, tables, number)
    return [table for table in event_store.event_tables(db, event.id) if table.round == number]


def play(
    db: sqlite_utils.Database,
    table: EventTable,
    places: Mapping[str, int],
    lock: bool | None = None,
    at: str = "",
) -> None:
    """Play the table so that each player's side ends at its place in ``places`` (equal: tied);
    ``at``: every tap at that time (an ISO time: when the table finished).

    Every player goes out equally often (the seats take turns), so the sides' totals differ by
    their cards alone: as many hands as the seats divide (15, or 12 for two or four seats),
    then, short of 15, the director's lock closes the table as it stands.
    """
    players = table.game.game.players
    hands = 15 if 15 % len(players) == 0 else 12
    for number in range(1, hands + 1):
        out = players[(number - 1) % len(players)]
        for player in players:
            cards = [] if player == out else [CARDS_BY_PLACE[places[player]]]
            change = Change(LEFTOVERS, number, player, {"cards": cards}, at=at)
            append(db, table.game, change, f"club-{next(_KEYS)}", "test")
    if lock if lock is not None else hands < 15:
        table_locks.set_locked(db, table.game, True, table)
        if at:  # the director locked it then
            db.conn.execute("UPDATE games SET locked_at = ? WHERE id = ?", [at, table.game.id])
