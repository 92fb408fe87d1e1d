"""The club's members: the list kept across events, each event player's member, and the club's
history of the director's changes to the list (who, when, and how to undo what can be)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import sqlite_utils

from ..club.members import (
    Listed,
    Matched,
    Member,
    MemberIndex,
    MemberRefusal,
    check_listed,
    check_member,
    match_players,
    number_key,
)
from ..tournament.seating import name_key
from .database import immediate
from .games import now


def _member(row: Sequence[object]) -> Member:
    member_id, name, club, number, initials, removed, merged_into = row
    return Member(
        int(str(member_id)),
        str(name),
        str(club),
        None if number is None else str(number),
        bool(initials),
        bool(removed),
        None if merged_into is None else int(str(merged_into)),
    )


_COLUMNS = "id, name, club, number, initials, removed, merged_into"
#: The members on the list: not removed, not merged into another.
LISTED = "removed = 0 AND merged_into IS NULL"


def get_member(db: sqlite_utils.Database, member_id: int) -> Member | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM members WHERE id = ?", [member_id]).fetchone()
    return None if row is None else _member(row)


def all_members(db: sqlite_utils.Database, *, removed: bool = False) -> list[Member]:
    """The list, by name (members removed from it, or merged into another, only if asked)."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM members {'' if removed else 'WHERE ' + LISTED} ORDER BY name_key, id"
    ).fetchall()
    return [_member(row) for row in rows]


def members_not_playing(db: sqlite_utils.Database, event_id: int) -> list[Member]:
    """The list, by name, without the members who play the event already: those it could take
    late (read in one statement: a 300-player event's page would otherwise read them all)."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM members WHERE {LISTED} AND id NOT IN "
        "(SELECT member_id FROM event_players WHERE event_id = ? AND member_id IS NOT NULL) ORDER BY name_key, id",
        [event_id],
    ).fetchall()
    return [_member(row) for row in rows]


def members_by_id(db: sqlite_utils.Database, ids: Sequence[int] | None = None) -> dict[int, Member]:
    """Members by id (every one, removed included, or those of ``ids``)."""
    if ids is None:
        rows = db.execute(f"SELECT {_COLUMNS} FROM members").fetchall()
    else:
        wanted = sorted(set(ids))
        rows = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows += db.execute(f"SELECT {_COLUMNS} FROM members WHERE id IN ({marks})", chunk).fetchall()
    return {member.id: member for member in map(_member, rows)}


@dataclass(frozen=True)
class ClubLine:
    """A line of the club's history: when, who, what; ``undoable`` while its change can be undone."""

    id: int
    at: str
    who: str
    what: str
    undoable: bool
    undone_at: str | None


def club_history(db: sqlite_utils.Database, limit: int = 200) -> list[ClubLine]:
    """The director's changes to the club's list, newest first."""
    return [
        ClubLine(row[0], row[1], row[2], row[3], row[4] is not None and row[5] is None, row[5])
        for row in db.execute(
            "SELECT id, at, who, what, undo, undone_at FROM club_history ORDER BY id DESC LIMIT ?", [limit]
        )
    ]


def note_club_change(db: sqlite_utils.Database, who: str, what: str, undo: dict[str, object] | None = None) -> int:
    """A line of the club's history (inside the caller's transaction); ``undo`` says how to undo it."""
    cursor = db.conn.execute(
        "INSERT INTO club_history (at, who, what, undo) VALUES (?, ?, ?, ?)",
        [now(), who, what, None if undo is None else json.dumps(undo)],
    )
    return int(cursor.lastrowid or 0)


def check_member_fields(name: str, club: str, number: str) -> None:
    """What every member's name, club and number must be, wherever they come from: the club's
    one rule (``club.members.field_fault``), refused beside the first field that breaks it."""
    check_member(name, club, number)


def settle_players(
    db: sqlite_utils.Database, lines: Sequence[Listed], who: str, joining: str = ""
) -> list[tuple[Matched, Member]]:
    """Match an event's players to the list (inside the caller's write transaction, so two events
    made at once cannot each add the same new member): each line with its member (a line that
    breaks the club's rule for a member's fields refused by line, beside the list), new members
    added, a member's new spelling, number or club taken from the line, each on the history
    (the new members in one line: they joined with ``joining``, the event)."""
    for listed in lines:
        check_listed(listed)
    matched = match_players(lines, MemberIndex(all_members(db)))
    settled = [(match, settle(db, match, who)) for match in matched]
    new = [member.name for match, member in settled if match.member is None]
    if new:
        where = f" with {joining}" if joining else ""
        note_club_change(db, who, f"{len(new)} new on the list{where}: {', '.join(new)}")
    return settled


def settle(db: sqlite_utils.Database, match: Matched, who: str) -> Member:
    """The member a matched line is, as the line has it (inside the caller's transaction)."""
    listed, member = match.listed, match.member
    club, number = listed.club.strip(), listed.number.strip()
    if member is None:
        return insert_member(db, listed.name, club, number)
    changes = []
    if match.respelt:
        changes.append(f"{member.described} now spelt {listed.name}")
        member = _update(db, member, name=listed.name)
    if match.numbered:
        changes.append(f"{member.name} given number {number}")
        member = _update(db, member, number=number)
    if club and club != member.club:
        changes.append(f"{member.described}: club {member.club or '(none)'} → {club}")
        member = _update(db, member, club=club)
    for change in changes:
        note_club_change(db, who, change)
    return member


def insert_member(db: sqlite_utils.Database, name: str, club: str = "", number: str = "") -> Member:
    """A new member (inside the caller's transaction); a number another member has is refused."""
    key = number_key(number)
    taken = db.execute("SELECT id FROM members WHERE number_key = ?", [key]).fetchone() if key else None
    if taken is not None:
        raise MemberRefusal(f"Number {number} is another member's.", "number")
    cursor = db.conn.execute(
        "INSERT INTO members (name, name_key, club, number, number_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [name, name_key(name), club, number or None, key, now()],
    )
    return Member(int(cursor.lastrowid or 0), name, club, number or None)


def _update(db: sqlite_utils.Database, member: Member, **fields: object) -> Member:
    name = str(fields.get("name", member.name))
    club = str(fields.get("club", member.club))
    number = fields.get("number", member.number)
    shown = None if number in (None, "") else str(number)
    initials = bool(fields.get("initials", member.initials))
    db.conn.execute(
        "UPDATE members SET name = ?, name_key = ?, club = ?, number = ?, number_key = ?, initials = ? WHERE id = ?",
        [name, name_key(name), club, shown, number_key(shown), int(initials), member.id],
    )
    if name != member.name:  # kept, so that removing the member's name removes this one too
        db.conn.execute(
            "UPDATE members SET former_names = json_insert(former_names, '$[#]', ?) WHERE id = ?",
            [member.name, member.id],
        )
    return Member(member.id, name, club, shown, initials, member.removed, member.merged_into)


def add_member(db: sqlite_utils.Database, name: str, club: str, number: str, who: str) -> tuple[Member, bool]:
    """A member added by hand to the list (not yet at any event), and whether they are new: the
    same member sent again (a double click) is answered with the one added. A name the list has
    already is refused unless both have a number: two members of one name must be told apart
    (an event's line without a number could not say which it means)."""
    name, club, number = name.strip(), club.strip(), number.strip()
    check_member_fields(name, club, number)
    listed = Listed(0, name, club, number)
    with immediate(db):
        index = MemberIndex(all_members(db))
        same = index.by_number.get(number_key(number) or "") if number else None
        namesakes = index.by_name.get(name_key(name), [])
        if same is not None and same.name_key == name_key(name):
            return same, False
        if not number and len(namesakes) == 1 and namesakes[0].number is None and namesakes[0].club == club:
            return namesakes[0], False
        if namesakes and (not number or any(member.number is None for member in namesakes)):
            known = ", ".join(member.described for member in namesakes)
            raise MemberRefusal(
                f"{known} is on the list already: if this is another person, give both a membership number.",
                "number",
            )
        member = insert_member(db, listed.name, club, number)
        note_club_change(db, who, f"{member.described} added to the list")
    return member, True


def edit_member(
    db: sqlite_utils.Database, member_id: int, name: str, club: str, number: str, initials: bool, who: str
) -> bool:
    """A member's name, club, number and privacy set by the director; False when nothing changed.
    A number another member has is refused (merge the two instead, if they are one person)."""
    name, club, number = name.strip(), club.strip(), number.strip()
    check_member_fields(name, club, number)
    with immediate(db):
        member = get_member(db, member_id)
        if member is None or not member.listed:
            raise MemberRefusal("That member is not on the list: reload the page.", "name")
        key = number_key(number)
        other = db.execute("SELECT name FROM members WHERE number_key = ? AND id != ?", [key, member_id]).fetchone()
        if key and other is not None:
            raise MemberRefusal(f"Number {number} is {other[0]}'s: if they are one person, merge them.", "number")
        after = Member(member.id, name, club, number or None, initials, False)
        changes = _differences(member, after)
        if not changes:
            return False
        _update(db, member, name=name, club=club, number=number, initials=initials)
        note_club_change(db, who, f"{member.described}: {'; '.join(changes)}")
    return True


def _differences(before: Member, after: Member) -> list[str]:
    changes = []
    if before.name != after.name:
        changes.append(f"name → {after.name}")
    if before.club != after.club:
        changes.append(f"club → {after.club or '(none)'}")
    if before.number != after.number:
        changes.append(f"number → {after.number or '(none)'}")
    if before.initials != after.initials:
        changes.append("shown by initials on public pages" if after.initials else "shown by name on public pages")
    return changes
