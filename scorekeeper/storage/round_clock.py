"""A round's clock: the director starts it with the round's length, may pause, resume, extend or
stop it, each a line of the event's history. The server keeps the deadline (its own clock);
pages are sent the seconds left and count down on their own, so a phone's clock never matters."""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlite_utils

from ..scoring import Refusal
from .database import immediate
from .events import Event, note_change

#: The longest round a clock may be given, in minutes.
MAX_MINUTES = 600


class ClockRefusal(Refusal):
    """A round's clock cannot do what was asked (no such round, no clock running): why."""

    status = 409


@dataclass(frozen=True)
class RoundClock:
    event_id: int
    round: int
    #: Seconds the round was given, extensions included.
    length: float
    #: When time is up (seconds since the epoch, the server's clock), while the clock runs.
    deadline: float | None
    #: Seconds left while paused.
    paused_left: float | None
    stopped: bool

    @property
    def running(self) -> bool:
        return not self.stopped and self.deadline is not None

    @property
    def paused(self) -> bool:
        return not self.stopped and self.deadline is None

    def left(self, at: float | None = None) -> float:
        """Seconds left (0 at time); the time left when paused; 0 once stopped."""
        if self.stopped:
            return 0.0
        if self.deadline is None:
            return max(0.0, self.paused_left or 0.0)
        return max(0.0, self.deadline - (time.time() if at is None else at))

    def up(self, at: float | None = None) -> bool:
        """Time is up: the clock ran to its deadline (a paused or stopped clock never is)."""
        return self.running and self.left(at) <= 0

    @property
    def state(self) -> str:
        """In a word, for pages and their script: running, paused, time, stopped."""
        if self.stopped:
            return "stopped"
        if self.paused:
            return "paused"
        return "time" if self.up() else "running"

    @property
    def shown(self) -> str:
        """The time left as the clock shows it."""
        return mm_ss(self.left())

    @property
    def mark(self) -> str:
        """What the clock stands at, as a form sends it back: a second press of a button made for
        one state (a double click, two directors) finds another and changes nothing."""
        return f"{self.deadline or 0:.3f}/{self.paused_left or 0:.3f}/{int(self.stopped)}"


def mm_ss(seconds: float) -> str:
    """Time left as a clock shows it: 12:05, 1:02:05 past an hour."""
    whole = int(seconds + 0.999)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _row(row: tuple[object, ...]) -> RoundClock:
    event_id, round_, length, deadline, paused_left, stopped = row
    return RoundClock(
        int(str(event_id)),
        int(str(round_)),
        float(str(length)),
        None if deadline is None else float(str(deadline)),
        None if paused_left is None else float(str(paused_left)),
        bool(stopped),
    )


_COLUMNS = "event_id, round, length, deadline, paused_left, stopped"


def round_clock(db: sqlite_utils.Database, event_id: int, round_: int) -> RoundClock | None:
    row = db.execute(
        f"SELECT {_COLUMNS} FROM round_clocks WHERE event_id = ? AND round = ?", [event_id, round_]
    ).fetchone()
    return None if row is None else _row(row)


def latest_clock(db: sqlite_utils.Database, event_id: int) -> RoundClock | None:
    """The clock of the event's latest round seated, if it was given one and a table of the round
    is still open: once every table is locked (finished, or at time) it has nothing left to time,
    and the wall shows it no longer, as the event page and the tables' phones do."""
    row = db.execute(
        f"SELECT {_COLUMNS} FROM round_clocks WHERE event_id = ? AND round = "
        "(SELECT MAX(round) FROM event_tables WHERE event_id = ?) AND EXISTS ("
        "SELECT 1 FROM event_tables JOIN games ON games.id = event_tables.game_id "
        "WHERE event_tables.event_id = round_clocks.event_id AND event_tables.round = round_clocks.round "
        "AND games.locked = 0)",
        [event_id, event_id],
    ).fetchone()
    return None if row is None else _row(row)


def start_clock(db: sqlite_utils.Database, event: Event, round_: int, minutes: int) -> bool:
    """Start round ``round_``'s clock with ``minutes`` to play. A clock running or paused already
    is left as it is (False: a double click starts it once); a stopped one starts anew."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise ClockRefusal(f"A round of 1 to {MAX_MINUTES} minutes.", "minutes")
    with immediate(db):
        seated = db.execute(
            "SELECT 1 FROM event_tables WHERE event_id = ? AND round = ?", [event.id, round_]
        ).fetchone()
        if seated is None:
            raise ClockRefusal(f"Round {round_} is not seated: seat it before starting its clock.", "minutes")
        found = round_clock(db, event.id, round_)
        if found is not None and not found.stopped:
            return False
        db.conn.execute(
            "INSERT INTO round_clocks (event_id, round, length, deadline, paused_left, stopped) VALUES (?, ?, ?, ?, NULL, 0) "
            "ON CONFLICT (event_id, round) DO UPDATE SET length = excluded.length, deadline = excluded.deadline, "
            "paused_left = NULL, stopped = 0",
            [event.id, round_, minutes * 60.0, time.time() + minutes * 60],
        )
        note_change(db, event.id, f"Round {round_} clock started: {minutes} minute{'s' if minutes != 1 else ''}")
        _tell_tables(db, event.id, round_)
    return True


#: What the director may do to a running or paused clock, and what the history says of it.
ACTIONS = ("pause", "resume", "extend", "stop")


def change_clock(
    db: sqlite_utils.Database, event: Event, round_: int, action: str, mark: str, minutes: int = 0
) -> bool:
    """Pause, resume, extend (by ``minutes``) or stop round ``round_``'s clock, as it stood at
    ``mark`` (``RoundClock.mark`` when the button was drawn): a clock that moved meanwhile (the
    same button pressed twice, another director) is left as it is (False)."""
    if action not in ACTIONS:
        raise ClockRefusal("That is not something a clock does.", "minutes")
    if action == "extend" and not 1 <= minutes <= MAX_MINUTES:
        raise ClockRefusal(f"Extend by 1 to {MAX_MINUTES} minutes.", "minutes")
    with immediate(db):
        found = round_clock(db, event.id, round_)
        if found is None:
            raise ClockRefusal(f"Round {round_} has no clock: start it first.", "minutes")
        if found.mark != mark or found.stopped:
            return False
        at = time.time()
        left = found.left(at)
        if action == "pause":
            if not found.running:
                return False
            db.conn.execute(
                "UPDATE round_clocks SET deadline = NULL, paused_left = ? WHERE event_id = ? AND round = ?",
                [left, event.id, round_],
            )
            what = f"paused with {mm_ss(left)} left"
        elif action == "resume":
            if not found.paused:
                return False
            db.conn.execute(
                "UPDATE round_clocks SET deadline = ?, paused_left = NULL WHERE event_id = ? AND round = ?",
                [at + left, event.id, round_],
            )
            what = f"resumed with {mm_ss(left)} left"
        elif action == "extend":
            more = minutes * 60.0
            if found.running:
                # At time already, the extension counts from now: the minutes given are minutes to play.
                deadline = max(found.deadline or at, at) + more
                db.conn.execute(
                    "UPDATE round_clocks SET deadline = ?, length = length + ? WHERE event_id = ? AND round = ?",
                    [deadline, more, event.id, round_],
                )
            else:
                db.conn.execute(
                    "UPDATE round_clocks SET paused_left = paused_left + ?, length = length + ? "
                    "WHERE event_id = ? AND round = ?",
                    [more, more, event.id, round_],
                )
            what = f"extended by {minutes} minute{'s' if minutes != 1 else ''}"
        else:
            db.conn.execute("UPDATE round_clocks SET stopped = 1 WHERE event_id = ? AND round = ?", [event.id, round_])
            what = f"stopped with {mm_ss(left)} left"
        note_change(db, event.id, f"Round {round_} clock {what}")
        _tell_tables(db, event.id, round_)
    return True


def _tell_tables(db: sqlite_utils.Database, event_id: int, round_: int) -> None:
    """The round's phones are told (their followed version moves) and fetch the clock anew."""
    db.conn.execute(
        "UPDATE games SET notices = notices + 1 WHERE id IN (SELECT game_id FROM event_tables WHERE event_id = ? AND round = ?)",
        [event_id, round_],
    )


def due_clocks(db: sqlite_utils.Database, at: float | None = None) -> list[tuple[int, int]]:
    """Every (event, round) whose clock ran out and which still has an unlocked table."""
    return [
        (int(event_id), int(round_))
        for event_id, round_ in db.execute(
            "SELECT c.event_id, c.round FROM round_clocks c WHERE c.stopped = 0 AND c.deadline IS NOT NULL "
            "AND c.deadline <= ? AND EXISTS (SELECT 1 FROM event_tables t JOIN games g ON g.id = t.game_id "
            "WHERE t.event_id = c.event_id AND t.round = c.round AND g.locked = 0)",
            [time.time() if at is None else at],
        )
    ]
