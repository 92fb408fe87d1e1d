"""The director's penalties and adjustments: points added to a player's total in a round, or to
every player of a table, each with its reason. A penalty is its own entry, never a correction
hidden in a hand; withdrawn (undone) by a date, never deleted, and both on the event's history."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from ..scoring import Refusal
from ..scoring.text import name_key
from ..tournament.standings import Penalty, penalty_kind
from .database import immediate
from .events import REASON_MAX_LENGTH, Event, note_change
from .games import now

#: The most points one penalty or adjustment may add or take away.
MOST_POINTS = 1000


class PenaltyRefusal(Refusal):
    """A penalty that cannot be given or withdrawn as asked: why, beside its field."""


@dataclass(frozen=True)
class GivenPenalty:
    """A penalty as given: on ``player``, or on every player of the table when ``player`` is ""."""

    id: int
    round: int
    table: int
    player: str
    points: int
    reason: str
    given_at: str

    def words(self) -> str:
        """ "+10 to Ann in round 2, table 1", "+5 to every player of round 3, table 2"."""
        who = self.player or "every player of"
        to = f"to {who} in" if self.player else f"to {who}"
        return f"{self.points:+d} {to} round {self.round}, table {self.table}"

    def kind(self, lowest_wins: bool = True) -> str:
        """ "penalty" (against the player) or "adjustment" (in their favour): ``penalty_kind``."""
        return penalty_kind(self.points, lowest_wins)

    def said(self, lowest_wins: bool = True) -> str:
        """ "Penalty +10 to Ann in round 2, table 1", "Adjustment -5 to every player of …"."""
        return f"{self.kind(lowest_wins).capitalize()} {self.words()}"


def given_penalties(db: sqlite_utils.Database, event_id: int) -> list[GivenPenalty]:
    """The event's penalties standing now (not withdrawn), in the order they were given."""
    return [
        GivenPenalty(
            row["id"], row["round"], row["table_number"], row["player"], row["points"], row["reason"], row["given_at"]
        )
        for row in db.query(
            "SELECT * FROM event_penalties WHERE event_id = ? AND withdrawn_at IS NULL ORDER BY id", [event_id]
        )
    ]


def penalties(db: sqlite_utils.Database, event_id: int) -> list[Penalty]:
    """What the standings add: one ``Penalty`` per player (a table's penalty on each of its players)."""
    seated: dict[tuple[int, int], list[str]] = {}
    for round_, number, players in db.execute(
        "SELECT t.round, t.number, g.players FROM event_tables t JOIN games g ON g.id = t.game_id WHERE t.event_id = ?",
        [event_id],
    ):
        seated[(int(round_), int(number))] = list(json.loads(players))
    out = []
    for given in given_penalties(db, event_id):
        names = [given.player] if given.player else seated.get((given.round, given.table), [])
        out += [Penalty(given.round, name, given.points, given.reason, given.table) for name in names]
    return out


def give_penalty(
    db: sqlite_utils.Database, event: Event, round_: int, table: int, player: str, points: int, reason: str
) -> GivenPenalty:
    """Give a penalty (or an adjustment in a player's favour: ``penalty_kind``) at a seated
    table: on one of its players, written in any case and with any spaces between its words as
    every name of an event is looked up (``name_key``), or on every one of them (``player`` "").
    Its reason is required. The history says so. Returns it as given."""
    reason = reason.strip()
    if not reason or len(reason) > REASON_MAX_LENGTH:
        raise PenaltyRefusal(f"A penalty needs its reason, of 1 to {REASON_MAX_LENGTH} characters.", "reason")
    if not points or abs(points) > MOST_POINTS:
        raise PenaltyRefusal(f"From -{MOST_POINTS} to {MOST_POINTS} points, not 0.", "points")
    with immediate(db):
        row = db.execute(
            "SELECT g.players FROM event_tables t JOIN games g ON g.id = t.game_id "
            "WHERE t.event_id = ? AND t.round = ? AND t.number = ?",
            [event.id, round_, table],
        ).fetchone()
        if row is None:
            raise PenaltyRefusal(f"Round {round_} has no table {table}.", "table")
        players = list(json.loads(row[0]))
        if player:
            seat = next((name for name in players if name_key(name) == name_key(player)), None)
            if seat is None:
                raise PenaltyRefusal(
                    f"{player} did not play at round {round_}, table {table}: its players are {', '.join(players)}.",
                    "player",
                )
            player = seat
        cursor = db.conn.execute(
            "INSERT INTO event_penalties (event_id, round, table_number, player, points, reason, given_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [event.id, round_, table, player, points, reason, now()],
        )
        given = GivenPenalty(int(cursor.lastrowid or 0), round_, table, player, points, reason, "")
        note_change(db, event.id, given.said(event.ruleset().lowest_wins), reason)
    return given


def withdraw_penalty(db: sqlite_utils.Database, event: Event, penalty_id: int, reason: str = "") -> GivenPenalty | None:
    """Withdraw (undo) a penalty or adjustment: it stops counting, and the history keeps both
    lines. Returns it; None when it was withdrawn already (a double click)."""
    with immediate(db):
        row = db.execute(
            "SELECT round, table_number, player, points, reason, withdrawn_at FROM event_penalties WHERE id = ? AND event_id = ?",
            [penalty_id, event.id],
        ).fetchone()
        if row is None:
            raise PenaltyRefusal("That penalty is not this event's: reload the page.", "penalty")
        if row[5] is not None:
            return None
        db.conn.execute("UPDATE event_penalties SET withdrawn_at = ? WHERE id = ?", [now(), penalty_id])
        given = GivenPenalty(penalty_id, row[0], row[1], row[2], row[3], row[4], "")
        kind = given.kind(event.ruleset().lowest_wins).capitalize()
        note_change(db, event.id, f"{kind} withdrawn: {given.words()} ({given.reason})", reason)
    return given
