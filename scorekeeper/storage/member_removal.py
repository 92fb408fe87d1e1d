"""A member's name removed for good, their results kept: what a player who leaves may ask.

Every name the member ever had (their name on the list, its earlier spellings, each name they
played under, "Ann Smith (101)" beside a namesake, and those of the entries merged into them)
becomes "a former member" everywhere it is stored: the list, the events' players, the games at
their tables (players, partnerships, dealer, title), those games' logs (a confirmation's player,
a note's words), the events' plans and histories and the club's history. Their club and number
go too. Every result stays where it was: the tables, standings and ratings are kept by member,
so nothing is computed again. Within an event a second former member is "a former member (2)".

Nothing of the name may stay in the database's file: the change runs with ``secure_delete`` (what
it replaces is overwritten with zeros), and the journal (the -wal file) is emptied after it.
Earlier copies of a row left in a page's free space (SQLite rewrites a row elsewhere when it
grows) are gone only when the whole file is rewritten, so the file is vacuumed too. The names
epoch moves, so that every process reads the games' rows again rather than remember old names.
Not undoable: nothing is kept to undo it with.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field, replace

import sqlite_utils

from ..club.members import FORMER_MEMBER, Member, MemberRefusal
from ..club.privacy import NameSwap, former_name, name_parts, others_holding
from ..tournament.seating import name_key
from .database import file_holds, immediate, vacuum
from .event_plans import plan_inputs
from .events import get_event
from .games import NAMES_EPOCH
from .member_merges import MERGE, merged_into_it
from .members import get_member, note_club_change

#: Times the changes are computed outside the write lock, before they are made holding it.
TRIES = 3
#: Times the journal's emptying is tried while readers hold it, and how long each waits.
CHECKPOINT_TRIES = 10
CHECKPOINT_WAIT_MS = 200


@dataclass(frozen=True)
class Removal:
    """What a removal did: the evenings whose results were kept, the events it touched, its line
    on the club's history, whether the database's journal could be emptied (else the name may
    wait there until the next checkpoint), and whether the file was rewritten whole (it held a
    name's bytes after the change: an earlier copy in a page's free space, or someone else's
    name holding them, "Ann" in "Joanna")."""

    evenings: int
    events: tuple[int, ...]
    line: int
    checkpointed: bool = False
    rewritten: bool = False
    names: tuple[str, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class _Seat:
    """The member at one event: their row, the name they played under, what it becomes, and the
    event's other players (a former member's name must differ from theirs)."""

    event_id: int
    player_id: int
    seat: str
    former: str
    others: tuple[str, ...]


@dataclass(frozen=True)
class _Scope:
    """Everything the removal reads: if it is still so under the write lock, the changes computed stand."""

    member: Member
    group: tuple[int, ...]
    names: tuple[str, ...]
    numbers: tuple[str, ...]
    seats: tuple[_Seat, ...]
    #: Each game the member sat at, with the event it was played at, and its version.
    games: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class _Edits:
    games: tuple[tuple[str, str, str, str, int], ...]
    entries: tuple[tuple[str | None, str, int], ...]


def remove_member(db: sqlite_utils.Database, member_id: int, who: str) -> Removal | None:
    """Remove the member's name for good (see the module); None when it is removed already (a
    double click). Refused (MemberRefusal) for an entry merged into another: that member's name is
    the one to remove."""
    before = int(db.execute("PRAGMA secure_delete").fetchone()[0])
    db.execute("PRAGMA secure_delete = ON")
    try:
        removal = _remove(db, member_id, who)
    finally:
        db.execute(f"PRAGMA secure_delete = {before}")
    if removal is None:
        return None
    emptied = checkpoint(db)
    rewritten = file_holds(db, _traces(removal.names))
    if rewritten:  # a copy left in a page's free space by an earlier change (or another's name holding it)
        vacuum(db)
        emptied = checkpoint(db)
    return replace(removal, checkpointed=emptied, rewritten=rewritten)


def _remove(db: sqlite_utils.Database, member_id: int, who: str) -> Removal | None:
    """Compute the changes outside the write lock and make them holding it if nothing they read
    changed meanwhile (a table's play goes on); the last try computes them holding it."""
    for attempt in range(TRIES):
        holding = attempt == TRIES - 1
        with immediate(db) if holding else nullcontext():
            scope = _scope(db, member_id)
            if scope is None:
                return None
            edits = _edits(db, scope)
            if holding:
                return _apply(db, scope, edits, who)
        with immediate(db):
            if _scope(db, member_id) == scope:
                return _apply(db, scope, edits, who)
    raise AssertionError("unreachable: the last try holds the lock")


def _scope(db: sqlite_utils.Database, member_id: int) -> _Scope | None:
    member = get_member(db, member_id)
    if member is None:
        raise MemberRefusal("There is no such member: reload the page.")
    if member.removed:
        return None
    if member.merged_into is not None:
        into = get_member(db, member.merged_into)
        raise MemberRefusal(
            f"{member.name} was merged into {into.name if into else 'another member'}: remove that member's name, "
            "or undo the merge first."
        )
    group = [member, *merged_into_it(db, member.id)]
    ids = [m.id for m in group]
    marks = ", ".join("?" * len(ids))
    names = {m.name for m in group}
    numbers = {m.number for m in group if m.number}
    for (former,) in db.execute(f"SELECT former_names FROM members WHERE id IN ({marks})", ids):
        names.update(str(name) for name in json.loads(former))
    seats = []
    rows = db.execute(
        f"SELECT id, event_id, name, number FROM event_players WHERE member_id IN ({marks}) ORDER BY event_id, id", ids
    ).fetchall()
    for player_id, event_id, seat, number in rows:
        names.add(str(seat))
        if number:
            numbers.add(str(number))
        others = tuple(
            str(other)
            for (other,) in db.execute(
                "SELECT name FROM event_players WHERE event_id = ? AND id != ? ORDER BY id", [event_id, player_id]
            )
        )
        seats.append(_Seat(int(event_id), int(player_id), str(seat), former_name(others), others))
    return _Scope(member, tuple(ids), tuple(sorted(names)), tuple(sorted(numbers)), tuple(seats), _games(db, seats))


def _games(db: sqlite_utils.Database, seats: Iterable[_Seat]) -> tuple[tuple[int, int, int], ...]:
    """Each game the member sat at, with its event and version: the events' tables, and the games
    of a round withdrawn before any hand (at no table now, filed under the event's name by title)."""
    by_event = {seat.event_id: seat for seat in seats}
    if not by_event:
        return ()
    found: list[tuple[int, int, int]] = []
    marks = ", ".join("?" * len(by_event))
    for game_id, event_id, players, version in db.execute(
        f"SELECT g.id, t.event_id, g.players, g.version FROM event_tables t JOIN games g ON g.id = t.game_id "
        f"WHERE t.event_id IN ({marks})",
        list(by_event),
    ):
        if by_event[event_id].seat in json.loads(players):
            found.append((int(game_id), int(event_id), int(version)))
    titles = {}
    for event_id in by_event:
        event = get_event(db, event_id, deleted=True)
        assert event is not None
        titles[event_id] = f"{event.name} · round "
    for game_id, title, players, version in db.execute(
        "SELECT g.id, g.title, g.players, g.version FROM games g "
        "WHERE NOT EXISTS (SELECT 1 FROM event_tables t WHERE t.game_id = g.id)"
    ):
        seated = json.loads(players)
        filed = [e for e, prefix in titles.items() if title.startswith(prefix) and by_event[e].seat in seated]
        if filed:
            found.append((int(game_id), filed[0], int(version)))
    return tuple(sorted(found))


def _swap(scope: _Scope, seat: _Seat) -> NameSwap:
    """The member's names at one event: each becomes the name they now play under there."""
    return NameSwap(
        scope.names, seat.former, others_holding(scope.names, seat.others), name_parts(scope.names, seat.others)
    )


def _edits(db: sqlite_utils.Database, scope: _Scope) -> _Edits:
    """The games' rows and log entries as they become (the bulk of the work: done before the lock)."""
    seats = {seat.event_id: seat for seat in scope.seats}
    games, entries = [], []
    for game_id, event_id, _ in scope.games:
        swap = _swap(scope, seats[event_id])
        players, partnerships, dealer, title = db.execute(
            "SELECT players, partnerships, first_dealer, title FROM games WHERE id = ?", [game_id]
        ).fetchone()
        games.append(
            (
                json.dumps(swap.names(json.loads(players))),
                json.dumps(swap.names(json.loads(partnerships))),
                swap.exact(dealer),
                swap.text(title),
                game_id,
            )
        )
        for entry_id, player, data in db.execute("SELECT id, player, data FROM entries WHERE game_id = ?", [game_id]):
            new_player = None if player is None else swap.exact(player)
            new_data = json.dumps(swap.data(json.loads(data)))
            if new_player != player or new_data != json.dumps(json.loads(data)):
                entries.append((new_player, new_data, int(entry_id)))
    return _Edits(tuple(games), tuple(entries))


def _apply(db: sqlite_utils.Database, scope: _Scope, edits: _Edits, who: str) -> Removal:
    """Inside the write transaction: every change made, the names epoch moved, the history told."""
    plans = {seat.event_id: _plan_stands(db, seat.event_id) for seat in scope.seats}
    db.conn.executemany(
        "UPDATE games SET players = ?, partnerships = ?, first_dealer = ?, title = ? WHERE id = ?", edits.games
    )
    db.conn.executemany("UPDATE entries SET player = ?, data = ? WHERE id = ?", edits.entries)
    for seat in scope.seats:
        swap = _swap(scope, seat)
        db.conn.execute(
            "UPDATE event_players SET name = ?, club = '', number = '' WHERE id = ?", [seat.former, seat.player_id]
        )
        for line_id, what, reason in db.execute(
            "SELECT id, what, reason FROM event_history WHERE event_id = ?", [seat.event_id]
        ).fetchall():
            if (swap.text(what), swap.text(reason)) != (what, reason):
                db.conn.execute(
                    "UPDATE event_history SET what = ?, reason = ? WHERE id = ?",
                    [swap.text(what), swap.text(reason), line_id],
                )
        _swap_plan(db, seat.event_id, swap, plans[seat.event_id])
    _clear_club_history(db, scope)
    marks = ", ".join("?" * len(scope.group))
    db.conn.execute(
        f"UPDATE members SET name = ?, name_key = ?, club = '', number = NULL, number_key = NULL, initials = 0, "
        f"removed = 1, former_names = '[]' WHERE id IN ({marks})",
        [FORMER_MEMBER, name_key(FORMER_MEMBER), *scope.group],
    )
    db.conn.execute(
        "INSERT INTO settings (key, value) VALUES (?, '1') "
        "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        [NAMES_EPOCH],
    )
    evenings = len({seat.event_id for seat in scope.seats})
    kept = f"{evenings} evening's" if evenings == 1 else f"{evenings} evenings'"
    line = note_club_change(db, who, f"A member's name removed ({kept} results kept)")
    return Removal(evenings, tuple(sorted({seat.event_id for seat in scope.seats})), line, names=scope.names)


def _traces(names: Iterable[str]) -> list[bytes]:
    """The bytes a name leaves in the file: as written, as told apart (any case, single spaces),
    and inside JSON (a game's players: non-ASCII letters escaped)."""
    found: set[bytes] = set()
    for name in names:
        for form in (name, " ".join(name.split()), name_key(name), name.upper()):
            found.add(form.encode())
            found.add(json.dumps(form)[1:-1].encode())
    return sorted(found)


def _plan_stands(db: sqlite_utils.Database, event_id: int) -> bool:
    """Whether the event's stored plan was made for its players as they are (before the change)."""
    event = get_event(db, event_id, deleted=True)
    row = db.execute("SELECT plan_basis FROM events WHERE id = ?", [event_id]).fetchone()
    return event is not None and row is not None and row[0] == plan_inputs(db, event).basis


def _swap_plan(db: sqlite_utils.Database, event_id: int, swap: NameSwap, stood: bool) -> None:
    """The event's plan with the new name; still its plan if it was before (its basis made again)."""
    row = db.execute("SELECT plan FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None or not row[0]:
        return
    db.conn.execute("UPDATE events SET plan = ? WHERE id = ?", [json.dumps(swap.data(json.loads(row[0]))), event_id])
    event = get_event(db, event_id, deleted=True)
    if stood and event is not None:
        db.conn.execute("UPDATE events SET plan_basis = ? WHERE id = ?", [plan_inputs(db, event).basis, event_id])


def _clear_club_history(db: sqlite_utils.Database, scope: _Scope) -> None:
    """The club's history without the member's names or numbers; a merge of theirs no longer
    undoable (it could not be undone exactly, and its undo names their number)."""
    others = [
        str(name)
        for (name,) in db.execute(
            f"SELECT name FROM members WHERE id NOT IN ({', '.join('?' * len(scope.group))})", scope.group
        )
    ]
    swap = NameSwap(scope.names, FORMER_MEMBER, others_holding(scope.names, others), name_parts(scope.names, others))
    numbers = [
        re.compile(rf"\s*\(number\s+{re.escape(n)}\)|(?<!\w){re.escape(n)}(?!\w)", re.IGNORECASE) for n in scope.numbers
    ]
    group = set(scope.group)
    for line_id, what, undo in db.execute("SELECT id, what, undo FROM club_history").fetchall():
        new = swap.text(what)
        if new != what:
            for number in numbers:
                new = number.sub(lambda m: "" if m.group(0).lstrip().startswith("(") else "—", new)
        data = json.loads(undo) if undo else None
        mine = isinstance(data, dict) and data.get("kind") == MERGE and {data.get("keep"), data.get("absorb")} & group
        if new != what or mine:
            db.conn.execute(
                "UPDATE club_history SET what = ?, undo = ? WHERE id = ?", [new, None if mine else undo, line_id]
            )


def checkpoint(db: sqlite_utils.Database) -> bool:
    """Empty the database's journal (-wal) into its file: True once done; False when readers held
    it every time it was tried (it then empties at a later checkpoint)."""
    timeout = int(db.execute("PRAGMA busy_timeout").fetchone()[0])
    db.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
    try:
        for _ in range(CHECKPOINT_TRIES):
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if not busy:
                return True
            time.sleep(CHECKPOINT_WAIT_MS / 1000)
        return False
    finally:
        db.execute(f"PRAGMA busy_timeout = {timeout}")
