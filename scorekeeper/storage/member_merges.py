"""Two entries of the club's list that are one person, merged into one: every evening of the
absorbed entry becomes the kept member's, and the absorbed entry leaves the list (kept as a row,
``merged_into``, so that the merge can be undone from the club's history, exactly).

The evenings keep the names they were played under (the record of the evening as played); the
ratings are computed again from scratch, since the kept member's tables are now more and in
another order. A merge and its undo are each one transaction, on the club's history.
"""

from __future__ import annotations

from collections.abc import Mapping

import sqlite_utils

from ..club.members import FORMER_MEMBER, Member, MemberRefusal, held_on_words, number_key
from .club_results import ratings_stale
from .database import immediate
from .members import get_member, members_by_id, note_club_change

#: The kind of a merge's line in the club's history (its undo says so).
MERGE = "merge"


def merge_members(db: sqlite_utils.Database, keep_id: int, absorb_id: int, who: str) -> int:
    """Merge member ``absorb_id`` into ``keep_id``: the history line's id; False (0) when that very
    merge is made already (a double click). The kept member gains the absorbed one's number if
    they have none, and their privacy (initials) if they asked for it. Refused (MemberRefusal,
    beside ``absorb``): a member into themselves, either not on the list, or two entries that
    played the same evening (one person cannot sit twice)."""
    if keep_id == absorb_id:
        raise MemberRefusal("A member cannot be merged into themselves: choose another entry.", "absorb")
    with immediate(db):
        keep, absorb = get_member(db, keep_id), get_member(db, absorb_id)
        if absorb is not None and keep is not None and absorb.merged_into == keep.id:
            return False
        for member in (keep, absorb):
            if member is None or not member.listed:
                shown = member.name if member is not None and not member.removed else "That member"
                raise MemberRefusal(
                    f"{shown} is not on the list (removed, or merged already): reload the page.", "absorb"
                )
        assert keep is not None and absorb is not None
        _refuse_one_evening_twice(db, keep, absorb)
        players = [
            int(row[0])
            for row in db.execute("SELECT id FROM event_players WHERE member_id = ? ORDER BY id", [absorb.id])
        ]
        number_moves = absorb.number is not None and keep.number is None
        initials_move = absorb.initials and not keep.initials
        db.conn.execute("UPDATE event_players SET member_id = ? WHERE member_id = ?", [keep.id, absorb.id])
        # The absorbed entry's number stops naming it (it is off the list); the kept member takes it if they have none.
        db.conn.execute("UPDATE members SET merged_into = ?, number_key = NULL WHERE id = ?", [keep.id, absorb.id])
        if number_moves:
            db.conn.execute(
                "UPDATE members SET number = ?, number_key = ? WHERE id = ?",
                [absorb.number, absorb.number_key, keep.id],
            )
        if initials_move:
            db.conn.execute("UPDATE members SET initials = 1 WHERE id = ?", [keep.id])
        ratings_stale(db)
        undo = {
            "kind": MERGE,
            "keep": keep.id,
            "absorb": absorb.id,
            "players": players,
            "number": absorb.number,
            "number_moved": number_moves,
            "initials_moved": initials_move,
        }
        return note_club_change(db, who, f"{absorb.described} merged into {keep.described}", undo)


def _refuse_one_evening_twice(db: sqlite_utils.Database, keep: Member, absorb: Member) -> None:
    row = db.execute(
        "SELECT e.name, e.held_on FROM event_players a JOIN event_players k ON k.event_id = a.event_id "
        "JOIN events e ON e.id = a.event_id WHERE a.member_id = ? AND k.member_id = ? ORDER BY e.held_on, e.id LIMIT 1",
        [absorb.id, keep.id],
    ).fetchone()
    if row is not None:
        raise MemberRefusal(
            f"{absorb.name} and {keep.name} both played {row[0]}, {held_on_words(row[1])}: "
            "one person cannot sit twice.",
            "absorb",
        )


def undo_merge(db: sqlite_utils.Database, undo: Mapping[str, object]) -> None:
    """Undo a merge exactly (inside the caller's transaction): the absorbed entry back on the list
    with its evenings, number and privacy. Refused when that can no longer be exact: the kept
    member removed or merged into a third since, an evening moved since, the number changed."""
    keep_id, absorb_id = int(str(undo["keep"])), int(str(undo["absorb"]))
    keep, absorb = get_member(db, keep_id), get_member(db, absorb_id)
    if keep is None or absorb is None or absorb.merged_into != keep.id:
        raise MemberRefusal("That merge was undone already: reload the page.")
    if keep.removed:
        raise MemberRefusal(f"The merge cannot be undone: {FORMER_MEMBER}'s name was removed since.")
    if keep.merged_into is not None:
        third = get_member(db, keep.merged_into)
        into = third.name if third is not None else "another member"
        raise MemberRefusal(f"{keep.name} was merged into {into} since: undo that merge first.")
    listed = undo.get("players")
    players = [int(str(player)) for player in listed] if isinstance(listed, list) else []
    marks = ", ".join("?" * len(players))
    if players:
        moved = db.execute(
            f"SELECT COUNT(*) FROM event_players WHERE id IN ({marks}) AND member_id = ?", [*players, keep.id]
        ).fetchone()[0]
        if moved != len(players):
            raise MemberRefusal(
                f"Some of those evenings are no longer {keep.name}'s: the merge cannot be undone exactly."
            )
    number = None if undo.get("number") is None else str(undo["number"])
    if undo.get("number_moved") and keep.number_key != number_key(number):
        raise MemberRefusal(
            f"{keep.name}'s number has changed since the merge ({keep.number or 'none'} now, {number} then): "
            "set it back first, or keep the merge."
        )
    key = number_key(number)
    other = db.execute(
        "SELECT name FROM members WHERE number_key = ? AND id != ?", [key, keep.id if undo.get("number_moved") else -1]
    ).fetchone()
    if key is not None and other is not None:
        raise MemberRefusal(f"Number {number} is {other[0]}'s now: the merge cannot be undone exactly.")
    if players:
        db.conn.execute(f"UPDATE event_players SET member_id = ? WHERE id IN ({marks})", [absorb.id, *players])
    if undo.get("number_moved"):
        db.conn.execute("UPDATE members SET number = NULL, number_key = NULL WHERE id = ?", [keep.id])
    db.conn.execute("UPDATE members SET merged_into = NULL, number_key = ? WHERE id = ?", [key, absorb.id])
    if undo.get("initials_moved"):
        db.conn.execute("UPDATE members SET initials = 0 WHERE id = ?", [keep.id])
    ratings_stale(db)


def merged_into_it(db: sqlite_utils.Database, member_id: int) -> list[Member]:
    """The entries merged into this member (and into those, and so on): one person with them."""
    found: list[int] = []
    frontier = [member_id]
    while frontier:
        marks = ", ".join("?" * len(frontier))
        frontier = [
            int(row[0]) for row in db.execute(f"SELECT id FROM members WHERE merged_into IN ({marks})", frontier)
        ]
        frontier = [member for member in frontier if member not in found and member != member_id]
        found += frontier
    members = members_by_id(db, found)
    return [members[member] for member in found]
