"""Events, their players, rounds and tables: the SQL for them (the director's password, sessions
and failed logins are ``director.py``'s)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlite_utils

from ..club.members import Listed
from ..gamelog.state import TableState
from ..scoring import FiledUnder, Game, Refusal, RuleSet, configure
from ..tournament.seating import MAX_EVENT_PLAYERS, SeatingError, parse_tables, partners_of
from ..tournament.standings import (
    ADJUSTED,
    ADJUSTMENTS,
    AVERAGE,
    MISSED,
    NOTHING_TO_AVERAGE,
    PRORATED,
    SHORT_TREATMENTS,
    WITH_THE_REST,
    WITHDRAWN_RANKINGS,
)
from .database import immediate
from .games import GAME_COLUMNS, StoredGame, _game_from_row, _insert_game, load_state, now, remembered_game
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


def set_odd_tables(db: sqlite_utils.Database, event: Event, odd: str) -> bool:
    """What takes up the players tables of four leave over, from the next round seated on (rounds
    seated stay as played; the plan is made again). False if it was so already (a double click)."""
    if odd not in ODD_TABLE_WORDS:
        raise SeatingError(f"Choose one of: {', '.join(ODD_TABLE_WORDS)}.", "odd_tables")
    with immediate(db):
        cursor = db.conn.execute(
            "UPDATE events SET odd_tables = ? WHERE id = ? AND odd_tables != ?", [odd, event.id, odd]
        )
        if cursor.rowcount:
            note_change(db, event.id, f"Beside the tables of four: {ODD_TABLE_WORDS[odd]}")
    return cursor.rowcount > 0


def round_seated_by(db: sqlite_utils.Database, event_id: int, number: int) -> str:
    """The rule round ``number`` was seated by ("the standings after round 2"), or ""."""
    row = db.execute(
        "SELECT MAX(seated_by) FROM event_tables WHERE event_id = ? AND round = ?", [event_id, number]
    ).fetchone()
    return str(row[0] or "") if row else ""


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
    seated_by: str = "",
) -> bool:
    """Seat round ``number``: a game per table, all in one transaction.

    The history notes a seating by hand (tables not in ``planned``) and one made while the round
    before was still playing (``early`` names its tables), with the director's ``reason``.
    A round seated by a rule (``seated_by``: "the standings after round 2") is not by hand: the
    history and the round sheet name the rule.

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
        if event.rounds and number > event.rounds:
            rounds = "1 round" if event.rounds == 1 else f"{event.rounds} rounds"
            raise RoundConflict(f"The event has {rounds}, all seated: round {number} cannot be.")
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
            hand = frozenset(tables[index - 1]) not in as_planned and not seated_by
            by_hand += [index] if hand else []
            db.conn.execute(
                "INSERT INTO event_tables (event_id, round, number, game_id, by_hand, seated_by) VALUES (?, ?, ?, ?, ?, ?)",
                [event.id, number, index, stored.id, int(hand), seated_by],
            )
        if seated_by:
            note_change(db, event.id, f"Round {number} seated by {seated_by}", reason)
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
    seated_by: Callable[[list[list[str]]], str] | None = None,
) -> SeatedRound:
    """Seat round ``number`` from the tables as the director wrote them (the automatic proposal, or edited by hand).

    Raises SeatingError for tables that do not read as the event's players, ScoringError for
    one the game's rules refuse, RoundConflict as ``add_round`` does.
    """
    players = event_players(db, event.id)
    away = {player.name: player.absent_from(number) for player in players if player.absent_from(number)}
    tables = parse_tables(text, [player.name for player in players], event.partnerships, away)
    names = [player.name for player in players if player.name not in away]
    rule = seated_by(tables) if seated_by is not None else ""
    new = add_round(db, event, tables, number, planned, reason, early, rule)
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
            raise RoundConflict(f"Round {number} cannot be withdrawn: play is recorded at {tables_named(played)}.")
        games = [game_id for _, game_id, _ in tables]
        marks = ", ".join("?" * len(games))
        db.conn.execute(f"UPDATE games SET locked = 1, notices = notices + (locked = 0) WHERE id IN ({marks})", games)
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
    """ "prorated", "counted as missed", "adjusted (average-plus)": how a short table counts."""
    return {PRORATED: "prorated", MISSED: "counted as missed"}.get(treatment, f"adjusted ({level})")


def short_why(state: TableState, treatment: str = PRORATED, level: str = AVERAGE, averaged: bool = True) -> str:
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
