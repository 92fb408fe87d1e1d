"""An event's players once it has begun (withdrawals, late arrivals), and the history of the
director's changes to the event, each with an optional reason."""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from ..club.members import Listed, Matched, MemberIndex, check_member, number_key, numbered_seat
from ..scoring import Refusal
from ..tournament.seating import MAX_EVENT_PLAYERS, name_key
from .database import immediate
from .events import REASON_MAX_LENGTH, Event, EventPlayer, note_change
from .members import all_members, note_club_change, settle

__all__ = ["REASON_MAX_LENGTH", "HistoryLine", "RosterRefusal", "add_late_player", "event_history", "give_reason", "withdraw_player"]


class RosterRefusal(Refusal):
    """A withdrawal or a late arrival that cannot be made as asked."""


@dataclass(frozen=True)
class HistoryLine:
    id: int
    at: str
    what: str
    reason: str


def event_history(db: sqlite_utils.Database, event_id: int) -> list[HistoryLine]:
    """The director's changes to the event, newest first."""
    return [
        HistoryLine(row["id"], row["at"], row["what"], row["reason"])
        for row in db.query("SELECT * FROM event_history WHERE event_id = ? ORDER BY id DESC", [event_id])
    ]


def give_reason(db: sqlite_utils.Database, event_id: int, line: int, reason: str) -> bool:
    """Give a line of the history its reason afterwards (a lock, a correction made at the table).

    A reason once given stays: the history keeps what was said. The same reason again (a
    double click) changes nothing (False); another one for a line that has one is refused.
    """
    reason = reason.strip()
    if not reason or len(reason) > REASON_MAX_LENGTH:
        raise RosterRefusal(f"A reason of 1 to {REASON_MAX_LENGTH} characters.", "reason")
    with immediate(db):
        row = db.execute("SELECT reason FROM event_history WHERE id = ? AND event_id = ?", [line, event_id]).fetchone()
        if row is None:
            raise RosterRefusal("That line is not in this event's history: reload the page.", "reason")
        if row[0] == reason:
            return False
        if row[0]:
            raise RosterRefusal(f"This line has its reason already: “{row[0]}”.", "reason")
        db.conn.execute("UPDATE event_history SET reason = ? WHERE id = ?", [reason, line])
    return True


def _first_open_round(db: sqlite_utils.Database, event: Event, asked: int) -> None:
    """``asked`` must be a round not seated yet (and, in a planned event, one of its rounds)."""
    seated = int(db.execute("SELECT COALESCE(MAX(round), 0) FROM event_tables WHERE event_id = ?", [event.id]).fetchone()[0])
    if asked <= seated:
        raise RosterRefusal(f"Round {asked} is seated already: the first round still to seat is {seated + 1}.", "from_round")
    if event.rounds is not None and asked > event.rounds:
        raise RosterRefusal(f"The event has {event.rounds} rounds.", "from_round")


def withdraw_player(db: sqlite_utils.Database, event: Event, name: str, from_round: int, reason: str = "") -> bool:
    """``name`` plays no more from round ``from_round`` on (rounds seated stay as played). False
    when already so (a double click); refused for a round seated already, or a name not in the event."""
    with immediate(db):
        row = db.execute(
            "SELECT id, leaves, arrives FROM event_players WHERE event_id = ? AND name = ?", [event.id, name]
        ).fetchone()
        if row is None:
            raise RosterRefusal(f"{name} is not a player of this event.", "name")
        if row[1] is not None and row[1] <= from_round:
            return False
        _first_open_round(db, event, from_round)
        db.conn.execute("UPDATE event_players SET leaves = ? WHERE id = ?", [from_round, row[0]])
        note_change(db, event.id, f"{name} withdrawn from round {from_round} on", reason)
    return True


def add_late_player(
    db: sqlite_utils.Database, event: Event, player: EventPlayer, reason: str = "", who: str = "director"
) -> bool:
    """A player who joins from round ``player.arrives``, matched to the club's list as the event's
    players were (a new name is a new member). False when that very player was added already (a
    double click); refused for a member in the event already, a name taken (unless both have
    numbers: the late one plays as "name (number)"), a name, club or number that breaks the
    club's rule for a member's fields (``club.members.field_fault``: beside that field), a round
    seated already, or an event at its size limit."""
    name, club, number = player.name.strip(), player.club.strip(), player.number.strip()
    check_member(name, club, number)
    listed = Listed(0, name, club, number)
    with immediate(db):
        member = MemberIndex(all_members(db)).match(listed, "name")
        rows = db.execute("SELECT name, arrives, member_id FROM event_players WHERE event_id = ?", [event.id]).fetchall()
        seat = name
        for existing, arrives, member_id in rows:
            if member is not None and member_id == member.id:
                if arrives == player.arrives:
                    return False
                another = "" if number_key(number) else ": if this is another player of that name, give their number"
                raise RosterRefusal(f"{existing} is a player of this event already{another}.", "name")
            if name_key(existing) == name_key(name):
                if not number_key(number) or member_id is None:
                    raise RosterRefusal(
                        f"{existing} is a player of this event already: if this is another player of that name, "
                        "give their number.",
                        "name",
                    )
                seat = numbered_seat(name, number)
        if any(name_key(existing) == name_key(seat) for existing, _, _ in rows):
            raise RosterRefusal(f"{seat} is a player of this event already.", "name")
        if len(rows) >= MAX_EVENT_PLAYERS:
            raise RosterRefusal(f"An event seats at most {MAX_EVENT_PLAYERS} players.", "name")
        _first_open_round(db, event, player.arrives)
        settled = settle(db, Matched(listed, member, seat), who)
        if member is None:
            note_club_change(db, who, f"1 new on the list with {event.name} ({event.held_on}), late: {settled.name}")
        db.conn.execute(
            "INSERT INTO event_players (event_id, name, club, number, arrives, member_id) VALUES (?, ?, ?, ?, ?, ?)",
            [event.id, seat, settled.club, settled.number or "", player.arrives, settled.id],
        )
        note_change(db, event.id, f"{seat} added, playing from round {player.arrives}", reason)
    return True
