"""An event's rounds: seated (as planned, by the standings, or by hand, every table checked under
the write lock), their tables of three or five, who seated them, and the latest withdrawn."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlite_utils

from ..scoring import Game, Refusal
from ..tournament.seating import SeatingError, parse_tables, partners_of
from .database import immediate
from .events import ODD_TABLE_WORDS, Event, EventPlayer, event_players, note_change, tables_named
from .games import insert_game


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
            stored = insert_game(db, game, f"{event.name} · round {number} · table {index}", event.verify)
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
