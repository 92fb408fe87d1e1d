"""An event's players once it has begun (withdrawals, late arrivals), and the history of the
director's changes to the event, each with an optional reason."""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlite_utils

from ..club.members import Listed, Matched, MemberIndex, check_member, number_key, numbered_seat
from ..scoring import Game, Refusal
from ..tournament.seating import MAX_EVENT_PLAYERS, name_key, partners_of
from .database import immediate
from .events import REASON_MAX_LENGTH, Event, EventPlayer, note_change
from .games import NAMES_EPOCH
from .members import all_members, note_club_change, settle

__all__ = [
    "REASON_MAX_LENGTH",
    "HistoryLine",
    "RosterRefusal",
    "add_late_player",
    "event_history",
    "give_reason",
    "replace_no_show",
    "withdraw_player",
]


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


def _first_open_round(db: sqlite_utils.Database, event: Event, asked: int, late: bool = False) -> None:
    """``asked`` must be a round not seated yet (and, in a planned event, one of its rounds). A
    ``late`` player asked into the round as it happens is told the way in: a no-show's seat."""
    seated = int(
        db.execute("SELECT COALESCE(MAX(round), 0) FROM event_tables WHERE event_id = ?", [event.id]).fetchone()[0]
    )
    if asked <= seated:
        following = seated + 1
        way_in = ""
        if late and asked == seated and (event.rounds is None or following <= event.rounds):
            way_in = (
                f" To have them play in round {seated}, add them from round {following}, then give them a no-show's"
                f" seat: Round {seated} as it happens, A player did not come, Plays in their seat."
            )
        raise RosterRefusal(
            f"Round {asked} is seated already: the first round still to seat is {following}.{way_in}", "from_round"
        )
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
        rows = db.execute(
            "SELECT name, arrives, member_id FROM event_players WHERE event_id = ?", [event.id]
        ).fetchall()
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
        _first_open_round(db, event, player.arrives, late=True)
        settled = settle(db, Matched(listed, member, seat), who)
        if member is None:
            note_club_change(db, who, f"1 new on the list with {event.name} ({event.held_on}), late: {settled.name}")
        db.conn.execute(
            "INSERT INTO event_players (event_id, name, club, number, arrives, member_id) VALUES (?, ?, ?, ?, ?, ?)",
            [event.id, seat, settled.club, settled.number or "", player.arrives, settled.id],
        )
        note_change(db, event.id, f"{seat} added, playing from round {player.arrives}", reason)
    return True


class TableStarted(RosterRefusal):
    """A table whose game has begun cannot change its players."""

    status = 409


def replace_no_show(
    db: sqlite_utils.Database, event: Event, round_: int, missing: str, replacement: str = "", reason: str = ""
) -> bool:
    """A player seated in round ``round_`` who did not come: ``replacement`` (a player sitting the
    round out, or a late one, who then plays from this round) takes their seat, or, without one,
    their table plays without them (a table of three). The missing player is withdrawn from this
    round on; the History says so. Only a table with nothing recorded yet: one that has started
    is refused (its players cannot change silently).

    Check and change share one write lock, and the game changes only if its log is still empty,
    so a double click or two directors change it once: the second finds the change made (False).
    The table keeps its game, so its record link and join code, on the card printed for it, stay
    good; its rows are read anew by every worker (the names epoch moves, as when a name is removed)."""
    with immediate(db):
        tables = [
            (int(number), int(game_id), json.loads(players), int(version))
            for number, game_id, players, version in db.execute(
                "SELECT t.number, g.id, g.players, g.version FROM event_tables t JOIN games g ON g.id = t.game_id "
                "WHERE t.event_id = ? AND t.round = ? ORDER BY t.number",
                [event.id, round_],
            )
        ]
        if not tables:
            raise RosterRefusal(f"Round {round_} is not seated.", "missing")
        roster = {
            name: (arrives, leaves)
            for name, arrives, leaves in db.execute(
                "SELECT name, arrives, leaves FROM event_players WHERE event_id = ?", [event.id]
            )
        }
        seated = {name: number for number, _, players, _ in tables for name in players}
        at = [table for table in tables if missing in table[2]]
        if not at:
            leaves = roster.get(missing, (1, None))[1]
            if (
                missing in roster
                and leaves is not None
                and leaves <= round_
                and (not replacement or replacement in seated)
            ):
                return False  # done already: a double click, or the other director
            raise RosterRefusal(f"{missing} is not seated in round {round_}.", "missing")
        number, game_id, players, version = at[0]
        if version:
            raise TableStarted(
                f"Round {round_}, table {number} has started (play is recorded there): its players cannot change. "
                "Lock it as it stands, or correct it at the table.",
                "missing",
            )
        if replacement:
            if replacement not in roster:
                raise RosterRefusal(f"{replacement} is not a player of this event.", "replacement")
            if replacement in seated:
                raise RosterRefusal(
                    f"{replacement} plays at table {seated[replacement]} of round {round_} already.", "replacement"
                )
            leaves = roster[replacement][1]
            if leaves is not None and leaves <= round_:
                raise RosterRefusal(f"{replacement} is withdrawn from round {leaves}.", "replacement")
            seats = [replacement if name == missing else name for name in players]
        else:
            seats = [name for name in players if name != missing]
        if not seats:
            raise RosterRefusal(f"Table {number} would have nobody left.", "replacement")
        if not replacement and len(seats) < min(3, event.ruleset().table_size):
            raise RosterRefusal(
                f"Table {number} would be a table of two, which the standings cannot compare with the "
                "tables of three or more: put a player in their seat (one sitting the round out, or a late "
                f"one), or withdraw round {round_} while nothing is recorded and seat it again.",
                "replacement",
            )
        game = Game(event.ruleset(), tuple(seats), partners_of(seats, event.partnerships), seats[0])
        changed = db.conn.execute(
            "UPDATE games SET players = ?, partnerships = ?, first_dealer = ?, notices = notices + 1 "
            "WHERE id = ? AND version = 0",
            [
                json.dumps(list(game.players)),
                json.dumps([list(team) for team in game.partnerships]),
                game.dealer(1),
                game_id,
            ],
        )
        if not changed.rowcount:  # the log moved meanwhile (the check above read it under this lock: never)
            raise TableStarted(f"Round {round_}, table {number} has started: its players cannot change.", "missing")
        db.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?, '1') "
            "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
            [NAMES_EPOCH],
        )
        db.conn.execute(
            "UPDATE event_players SET leaves = ? WHERE event_id = ? AND name = ? AND (leaves IS NULL OR leaves > ?)",
            [round_, event.id, missing, round_],
        )
        if replacement:
            db.conn.execute(
                "UPDATE event_players SET arrives = MIN(arrives, ?) WHERE event_id = ? AND name = ?",
                [round_, event.id, replacement],
            )
        instead = f"{replacement} plays in their seat" if replacement else f"the table plays as a table of {len(seats)}"
        if replacement and roster[replacement][0] > round_:
            # A late player given the seat plays earlier than the line that added them said.
            instead += f", and so from round {round_} on (added to play from round {roster[replacement][0]})"
        note_change(
            db,
            event.id,
            f"Round {round_}, table {number}: {missing} did not come, withdrawn from round {round_} on; {instead}",
            reason,
        )
    return True
