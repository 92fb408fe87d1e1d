"""Events, their players, rounds and tables: the SQL for them (the director's password, sessions
and failed logins are ``director.py``'s)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import sqlite_utils

from ..club.members import Listed
from ..scoring import FiledUnder, RuleSet, configure
from ..tournament.seating import MAX_EVENT_PLAYERS, SeatingError
from ..tournament.standings import (
    AVERAGE,
    PRORATED,
    WITH_THE_REST,
    WITHDRAWN_RANKINGS,
)
from .database import immediate
from .games import GAME_COLUMNS, StoredGame, _game_from_row, now, remembered_game
from .members import settle_players


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
    paper: str = "a4"
    #: Rounds planned ahead (None: an event seated round by round, made before plans).
    rounds: int | None = None
    #: How a round a player sits out counts in the standings (``standings.SIT_OUT_RULES``).
    sit_out: str = "average"
    #: What takes up the players tables of four leave over (``seating.ODD_TABLES``).
    odd_tables: str = "usual"
    #: Lock a table as soon as its game ends (its final hand complete, and confirmed where hands must be).
    lock_at_end: bool = False
    #: Whether withdrawn players rank with the rest or below (``standings.WITHDRAWN_RANKINGS``).
    withdrawn_ranked: str = WITH_THE_REST

    def ruleset(self) -> RuleSet:
        """The event's game with its options."""
        return configure(self.rules, self.options)


@dataclass(frozen=True)
class EventPlayer:
    name: str
    club: str
    number: str
    #: The first round the player plays (late arrivals: after 1).
    arrives: int = 1
    #: The first round the player no longer plays (withdrawn), or None.
    leaves: int | None = None
    #: The club's member this player is (every event player is one, from the club's list).
    member_id: int | None = None

    def absent_from(self, round_: int) -> str:
        """Why the player does not play round ``round_`` ("plays from round 3"), or "" when they do."""
        if self.arrives > round_:
            return f"plays from round {self.arrives}"
        if self.leaves is not None and self.leaves <= round_:
            return f"is withdrawn from round {self.leaves}"
        return ""


@dataclass(frozen=True)
class EventTable:
    round: int
    number: int
    game: StoredGame
    locked: bool
    #: Seated otherwise than the event's plan proposed.
    by_hand: bool = False
    #: When the director last locked it (None: never, or before locks were timed).
    locked_at: str | None = None
    #: How it counts if locked part-way (``standings.SHORT_TREATMENTS``), the adjusted level, and why.
    treatment: str = PRORATED
    level: str = AVERAGE
    reason: str = ""
    #: Who locked it (``LOCKED_BY``): the director, the round's clock (at time), the evening's own
    #: rules (a game ended); "" for a lock older than the column.
    locked_by: str = ""


#: Who locks a table: the director's button, the round's clock at time, the evening's own rules.
BY_DIRECTOR, BY_TIME, BY_EVENING = "director", "time", "evening"


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
    paper: str = "a4",
    rounds: int | None = None,
    sit_out: str = "average",
    who: str = "director",
    odd_tables: str = "usual",
    withdrawn_ranked: str = WITH_THE_REST,
    lines: Sequence[int] | None = None,
    lock_at_end: bool = False,
) -> Event:
    """A new event with its players (at most ``MAX_EVENT_PLAYERS``: SeatingError beyond), each
    matched to the club's list (``members.settle_players``: MemberRefusal by line), which gains
    the new ones; a player plays under their name, or "name (number)" beside a namesake.
    ``lines``: each player's line in the list as the director wrote it, which refusals name."""
    if len(players) > MAX_EVENT_PLAYERS:
        raise SeatingError(f"An event seats at most {MAX_EVENT_PLAYERS} players, not {len(players)}.", "players")
    if withdrawn_ranked not in WITHDRAWN_RANKINGS:
        raise ValueError(f"withdrawn players rank one of {', '.join(WITHDRAWN_RANKINGS)}")
    with immediate(db):
        cursor = db.conn.execute(
            "INSERT INTO events (name, held_on, rules, options, scoring, partnerships, wall_token, created_at, verify,"
            " paper, rounds, sit_out, odd_tables, lock_at_end, withdrawn_ranked)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                paper,
                rounds,
                sit_out,
                odd_tables,
                int(lock_at_end),
                withdrawn_ranked,
            ],
        )
        event_id = int(cursor.lastrowid or 0)
        numbers = lines if lines is not None else range(1, len(players) + 1)
        listed = [Listed(line, p.name, p.club, p.number) for line, p in zip(numbers, players, strict=True)]
        for match, member in settle_players(db, listed, who, f"{name} ({held_on})"):
            db.conn.execute(
                "INSERT INTO event_players (event_id, name, club, number, member_id) VALUES (?, ?, ?, ?, ?)",
                [event_id, match.seat, member.club, member.number or "", member.id],
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
        paper=str(row.get("paper") or "a4"),
        rounds=None if row.get("rounds") is None else int(str(row["rounds"])),
        sit_out=str(row.get("sit_out") or "average"),
        odd_tables=str(row.get("odd_tables") or "usual"),
        lock_at_end=bool(row.get("lock_at_end", 0)),
        withdrawn_ranked=str(row.get("withdrawn_ranked") or WITH_THE_REST),
    )


def get_event(db: sqlite_utils.Database, event_id: int, *, deleted: bool = False) -> Event | None:
    """The event of that id; one deleted from the list only if ``deleted`` (the club's record
    keeps its results)."""
    rows = list(db.query("SELECT * FROM events WHERE id = ?", [event_id]))
    if not rows or (rows[0].get("deleted_at") and not deleted):
        return None
    return _event(rows[0])


def event_by_wall_token(db: sqlite_utils.Database, token: str) -> Event | None:
    rows = list(db.query("SELECT * FROM events WHERE wall_token = ? AND deleted_at IS NULL", [token])) if token else []
    return _event(rows[0]) if rows else None


def list_events(db: sqlite_utils.Database) -> list[Event]:
    """The director's events, newest first (those deleted from the list are not among them)."""
    return [_event(row) for row in db.query("SELECT * FROM events WHERE deleted_at IS NULL ORDER BY id DESC")]


def event_players(db: sqlite_utils.Database, event_id: int) -> list[EventPlayer]:
    """The event's players in the order they were entered (as plain rows: the event page reads 300)."""
    return [
        EventPlayer(name, club, number, int(arrives or 1), leaves, member_id)
        for name, club, number, arrives, leaves, member_id in db.execute(
            "SELECT name, club, number, arrives, leaves, member_id FROM event_players WHERE event_id = ? ORDER BY id",
            [event_id],
        )
    ]


def played_rounds(db: sqlite_utils.Database, event_id: int) -> list[list[list[str]]]:
    """Every round seated so far: its tables, each its players in seat order (no game replayed)."""
    rounds: dict[int, list[list[str]]] = {}
    for round_, players in db.execute(
        "SELECT t.round, g.players FROM event_tables t JOIN games g ON g.id = t.game_id "
        "WHERE t.event_id = ? ORDER BY t.round, t.number",
        [event_id],
    ):
        rounds.setdefault(int(round_), []).append(json.loads(players))
    return [rounds[number] for number in sorted(rounds)]


def event_tables(db: sqlite_utils.Database, event_id: int) -> list[EventTable]:
    """Every table of the event with its game, in one statement whatever the event's size."""
    rows = db.query(
        "SELECT t.round AS table_round, t.number AS table_number, t.by_hand AS table_by_hand, t.short_treatment,"
        f" t.short_level, t.short_reason, t.locked_by, g.{GAME_COLUMNS} FROM event_tables t JOIN games g ON g.id = t.game_id "
        "WHERE t.event_id = ? ORDER BY t.round, t.number",
        [event_id],
    )
    return [
        EventTable(
            row["table_round"],
            row["table_number"],
            remembered_game(row),
            bool(row["locked"]),
            bool(row["table_by_hand"]),
            row["locked_at"],
            row["short_treatment"],
            row["short_level"],
            row["short_reason"],
            row["locked_by"],
        )
        for row in rows
    ]


def game_versions(db: sqlite_utils.Database, event_id: int) -> dict[int, int]:
    """Each of the event's games' version (entries in its log), by game id, in one statement."""
    return {
        int(game_id): int(version)
        for game_id, version in db.execute(
            "SELECT g.id, g.version FROM event_tables t JOIN games g ON g.id = t.game_id WHERE t.event_id = ?",
            [event_id],
        )
    }


def game_in_event(db: sqlite_utils.Database, event_id: int, token: str) -> EventTable | None:
    """The event's table whose game the record token opens; None for a game at no table of
    this event (another event's, a withdrawn round's, a game of its own)."""
    rows = list(
        db.query(
            f"SELECT t.round AS table_round, t.number AS table_number, g.{GAME_COLUMNS} FROM event_tables t "
            "JOIN games g ON g.id = t.game_id WHERE t.event_id = ? AND g.record_token = ?",
            [event_id, token],
        )
    )
    if not rows:
        return None
    row = rows[0]
    return EventTable(row["table_round"], row["table_number"], _game_from_row(row), bool(row["locked"]))


def filed_under(db: sqlite_utils.Database, game_id: int) -> FiledUnder | None:
    """The event, round and table a game is filed under; None for a game at no event's table
    (a game of its own, a withdrawn round's)."""
    row = db.execute(
        "SELECT e.name, e.held_on, t.round, t.number FROM event_tables t JOIN events e ON e.id = t.event_id "
        "WHERE t.game_id = ?",
        [game_id],
    ).fetchone()
    return None if row is None else FiledUnder(str(row[0]), str(row[1]), int(row[2]), int(row[3]))


def event_paper(db: sqlite_utils.Database, game_id: int) -> str | None:
    """The paper of the event whose table this game is; None for a game at no event's table."""
    row = db.execute(
        "SELECT e.paper FROM event_tables t JOIN events e ON e.id = t.event_id WHERE t.game_id = ?", [game_id]
    ).fetchone()
    return None if row is None else str(row[0])


def table_filing(event: Event, table: EventTable) -> FiledUnder:
    return FiledUnder(event.name, event.held_on, table.round, table.number)


def event_version(db: sqlite_utils.Database, event: Event) -> int:
    """Changes anywhere in the event (for the wall screen to follow): entries plus tables, plus
    the lines of its history (a round's clock started, paused, extended)."""
    row = db.execute(
        "SELECT COALESCE(SUM(g.version), 0) + COUNT(*) + COALESCE(SUM(g.locked), 0) "
        "+ (SELECT COUNT(*) FROM event_history h WHERE h.event_id = ?) FROM event_tables t "
        "JOIN games g ON g.id = t.game_id WHERE t.event_id = ?",
        [event.id, event.id],
    ).fetchone()
    return int(row[0])


def tables_named(numbers: Sequence[int | str], of: int = 0) -> str:
    """Tables by number in words, for the director's messages: "table 3", "tables 1, 4", or
    "every table" when they are all ``of`` a round's tables."""
    if of and len(numbers) == of:
        return "every table"
    return f"table{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


#: The longest reason a director may give for a change.
REASON_MAX_LENGTH = 200


def note_change(db: sqlite_utils.Database, event_id: int, what: str, reason: str = "") -> None:
    """Add a line to the event's history of the director's changes (inside the caller's transaction)."""
    db.conn.execute(
        "INSERT INTO event_history (event_id, at, what, reason) VALUES (?, ?, ?, ?)",
        [event_id, now(), what, reason.strip()[:REASON_MAX_LENGTH]],
    )


#: The odd-table choices in the words of the event page and its history.
ODD_TABLE_WORDS = {
    "usual": "a five for one player over, threes for two or three",
    "threes": "tables of three",
    "fives": "tables of five",
}
