"""Events, their players and tables, the director's password, sessions and failed logins: the SQL for them."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import sqlite_utils

from ..club.members import Listed
from ..scoring import FiledUnder, Game, Refusal, RuleSet, configure
from ..tournament.seating import MAX_EVENT_PLAYERS, SeatingError, parse_tables, partners_of
from ..tournament.standings import (
    ADJUSTED,
    ADJUSTMENTS,
    AVERAGE,
    MISSED,
    PRORATED,
    SHORT_TREATMENTS,
    WITH_THE_REST,
    WITHDRAWN_RANKINGS,
)
from .database import immediate
from .games import GAME_COLUMNS, StoredGame, _game_from_row, _insert_game, game_by_record_token, load_state, now
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
    withdrawn_ranked: str = WITH_THE_REST,
    lines: Sequence[int] | None = None,
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
            " paper, rounds, sit_out, withdrawn_ranked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    return [
        EventPlayer(
            row["name"], row["club"], row["number"], int(row.get("arrives") or 1), row.get("leaves"), row.get("member_id")
        )
        for row in db.query("SELECT * FROM event_players WHERE event_id = ? ORDER BY id", [event_id])
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
    rows = db.query(
        "SELECT t.round, t.number, t.by_hand, t.short_treatment, t.short_level, t.short_reason, g.record_token, "
        "g.locked, g.locked_at FROM event_tables t "
        "JOIN games g ON g.id = t.game_id "
        "WHERE t.event_id = ? ORDER BY t.round, t.number",
        [event_id],
    )
    tables = []
    for row in rows:
        game = game_by_record_token(db, row["record_token"])
        assert game is not None
        tables.append(
            EventTable(
                row["round"],
                row["number"],
                game,
                bool(row["locked"]),
                bool(row["by_hand"]),
                row["locked_at"],
                row["short_treatment"],
                row["short_level"],
                row["short_reason"],
            )
        )
    return tables


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
    """Changes anywhere in the event (for the wall screen to follow): entries plus tables."""
    row = db.execute(
        "SELECT COALESCE(SUM(g.version), 0) + COUNT(*) + COALESCE(SUM(g.locked), 0) FROM event_tables t "
        "JOIN games g ON g.id = t.game_id WHERE t.event_id = ?",
        [event.id],
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


class RoundConflict(Refusal):
    """A round cannot be seated or withdrawn as asked (seated already, not the latest, play recorded): why."""

    status = 409


def add_round(
    db: sqlite_utils.Database,
    event: Event,
    tables: Sequence[Sequence[str]],
    number: int,
    planned: Sequence[Sequence[str]] | None = None,
    reason: str = "",
    early: str = "",
) -> bool:
    """Seat round ``number``: a game per table, all in one transaction.

    The history notes a seating by hand (tables not in ``planned``) and one made while the round
    before was still playing (``early`` names its tables), with the director's ``reason``.

    The games are built (and so checked by the rules: ScoringError) before the write lock
    is taken. Under it, ``number`` must be the next round: two submissions of one form (a
    double click, two tabs, two workers at once) seat it once. The second, with the same
    tables, is answered with the round already seated (False), since it asked for exactly
    what exists; with other tables, or for a round not next, it is refused (RoundConflict).
    """
    rules = event.ruleset()
    games = [Game(rules, tuple(seats), partners_of(seats, event.partnerships), seats[0]) for seats in tables]
    with immediate(db):
        row = db.execute(
            "SELECT COALESCE(MAX(round), 0) + 1 FROM event_tables WHERE event_id = ?", [event.id]
        ).fetchone()
        following = int(row[0])
        if number < following:
            seated = [
                json.loads(players)
                for (players,) in db.execute(
                    "SELECT g.players FROM event_tables t JOIN games g ON g.id = t.game_id "
                    "WHERE t.event_id = ? AND t.round = ? ORDER BY t.number",
                    [event.id, number],
                )
            ]
            if seated == [list(seats) for seats in tables]:
                return False
            raise RoundConflict(f"Round {number} is seated already, with other tables: the next round is {following}.")
        if number > following:
            raise RoundConflict(f"Round {number} cannot be seated yet: the next round is {following}. Reload the page.")
        for name, arrives, leaves in db.execute(
            "SELECT name, arrives, leaves FROM event_players WHERE event_id = ?", [event.id]
        ).fetchall():
            why = EventPlayer(name, "", "", arrives, leaves).absent_from(number)
            if why and any(name in seats for seats in tables):
                raise RoundConflict(f"{name} {why} (changed meanwhile): reload the page and seat round {number} again.")
        as_planned = {frozenset(seats) for seats in planned or ()}
        by_hand = []
        for index, game in enumerate(games, start=1):
            stored = _insert_game(db, game, f"{event.name} · round {number} · table {index}", event.verify)
            hand = frozenset(tables[index - 1]) not in as_planned
            by_hand += [index] if hand else []
            db.conn.execute(
                "INSERT INTO event_tables (event_id, round, number, game_id, by_hand) VALUES (?, ?, ?, ?, ?)",
                [event.id, number, index, stored.id, int(hand)],
            )
        if by_hand:
            which = tables_named(by_hand, len(games))
            note_change(db, event.id, f"Round {number} seated by hand ({which} otherwise than planned)", reason)
        if early:
            note_change(db, event.id, f"Round {number} seated while round {number - 1} played on at {early}", reason)
    return True


@dataclass(frozen=True)
class SeatedRound:
    """A round seated from the director's tables; ``new`` is False when it was seated already with them."""

    tables: list[list[str]]
    new: bool
    not_seated: list[str]


def seat_written_round(
    db: sqlite_utils.Database,
    event: Event,
    text: str,
    number: int,
    planned: Sequence[Sequence[str]] | None = None,
    reason: str = "",
    early: str = "",
) -> SeatedRound:
    """Seat round ``number`` from the tables as the director wrote them (the automatic proposal, or edited by hand).

    Raises SeatingError for tables that do not read as the event's players, ScoringError for
    one the game's rules refuse, RoundConflict as ``add_round`` does.
    """
    players = event_players(db, event.id)
    away = {player.name: player.absent_from(number) for player in players if player.absent_from(number)}
    tables = parse_tables(text, [player.name for player in players], event.partnerships, away)
    names = [player.name for player in players if player.name not in away]
    new = add_round(db, event, tables, number, planned, reason, early)
    seated = {name for seats in tables for name in seats}
    return SeatedRound(tables, new, sorted(set(names) - seated))


def withdraw_round(db: sqlite_utils.Database, event: Event, number: int) -> bool:
    """Withdraw round ``number`` while none of its tables has anything in its log: a seating made by mistake.

    The round's games leave the event (standings, exports, booklets) and are locked, so
    their record links and join codes, on table cards already printed, open a game that
    takes no change from the players. They are kept, not deleted: a server worker may hold
    a game in its memo of rows that never change. Only the latest round can go, and the
    check and the change share one write lock, so a hand recorded meanwhile wins or waits.
    A round not seated (withdrawn already: a double click) changes nothing (False).
    """
    with immediate(db):
        tables = db.execute(
            "SELECT t.number, t.game_id, EXISTS (SELECT 1 FROM entries e WHERE e.game_id = t.game_id) "
            "FROM event_tables t WHERE t.event_id = ? AND t.round = ? ORDER BY t.number",
            [event.id, number],
        ).fetchall()
        if not tables:
            return False
        latest = int(db.execute("SELECT MAX(round) FROM event_tables WHERE event_id = ?", [event.id]).fetchone()[0])
        if number != latest:
            raise RoundConflict(f"Only the latest round ({latest}) can be withdrawn.")
        played = [str(table) for table, _, has_entries in tables if has_entries]
        if played:
            raise RoundConflict(
                f"Round {number} cannot be withdrawn: play is recorded at {tables_named(played)}."
            )
        games = [game_id for _, game_id, _ in tables]
        marks = ", ".join("?" * len(games))
        db.conn.execute(f"UPDATE games SET locked = 1 WHERE id IN ({marks})", games)
        db.conn.execute("DELETE FROM event_tables WHERE event_id = ? AND round = ?", [event.id, number])
        note_change(db, event.id, f"Round {number} withdrawn")
    return True


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
    """"prorated", "counted as missed", "adjusted (average-plus)": how a short table counts."""
    return {PRORATED: "prorated", MISSED: "counted as missed"}.get(treatment, f"adjusted ({level})")


def lock_table(
    db: sqlite_utils.Database,
    table: EventTable,
    treatment: str = PRORATED,
    level: str = AVERAGE,
    reason: str = "",
) -> bool:
    """Lock an event's table, and if it has not finished, say how it counts (``treatment``; the
    default, prorated, never rewards stopping): the one way to lock a table short, which every
    path that locks one (the director's button, a round's clock, "lock every finished table")
    calls. The history says after which hand it was locked and how it counts ("Round 3, table 1
    locked after hand 6 of 15, prorated"). False when it was locked already (nothing changes).
    An adjusted table needs its reason (LockRefusal, beside ``reason``)."""
    if treatment not in SHORT_TREATMENTS:
        raise LockRefusal(f"A short table counts as one of: {', '.join(SHORT_TREATMENTS)}.", "treatment")
    if level not in ADJUSTMENTS:
        raise LockRefusal(f"An adjusted table is given one of: {', '.join(ADJUSTMENTS)}.", "level")
    reason = reason.strip()
    if treatment == ADJUSTED and not reason:
        raise LockRefusal("An adjusted score needs its reason: say why the table could not finish.", "reason")
    state = load_state(db, table.game)
    with immediate(db):
        cursor = db.conn.execute(
            "UPDATE games SET locked = 1, locked_at = ? WHERE id = ? AND locked = 0", [now(), table.game.id]
        )
        row = db.execute("SELECT event_id FROM event_tables WHERE game_id = ?", [table.game.id]).fetchone()
        if not cursor.rowcount or row is None:
            return cursor.rowcount > 0
        db.conn.execute(
            "UPDATE event_tables SET short_treatment = ?, short_level = ?, short_reason = ? WHERE game_id = ?",
            [treatment, level, reason[:REASON_MAX_LENGTH], table.game.id],
        )
        where = f"Round {table.round}, table {table.number} locked"
        most = state.game.rules.max_hands()
        if state.finished:
            what = where
        elif not state.complete_hands:
            what = f"{where} before hand 1: its players missed the round"
        else:
            of = f" of {most}" if most else ""
            what = f"{where} after hand {state.complete_hands}{of}, {short_words(treatment, level)}"
        note_change(db, int(row[0]), what, reason)
    return True


def set_locked(db: sqlite_utils.Database, game: StoredGame, locked: bool, table: EventTable | None = None) -> bool:
    """Lock or unlock; False when the game was so already (nothing changes). ``table``: the
    event's table it is, whose history says so (locked: ``lock_table``, with the default treatment)."""
    if locked and table is not None:
        return lock_table(db, table)
    with immediate(db):
        cursor = db.conn.execute(
            "UPDATE games SET locked = ?, locked_at = CASE WHEN ? THEN ? ELSE locked_at END WHERE id = ? AND locked != ?",
            [int(locked), int(locked), now(), game.id, int(locked)],
        )
        if cursor.rowcount and table is not None:
            event_id = db.execute("SELECT event_id FROM event_tables WHERE game_id = ?", [game.id]).fetchone()
            if event_id is not None:
                state = "locked" if locked else "unlocked"
                note_change(db, int(event_id[0]), f"Round {table.round}, table {table.number} {state}")
    return cursor.rowcount > 0
