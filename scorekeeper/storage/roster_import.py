"""A club's roster imported into its list: the preview of what it would do (nothing written),
and the import, all of it in one write transaction with one line on the club's history.

The rows are matched before the write lock is taken (``club.roster_plan``); holding it, the
list is read again and, if another change came first, the rows are matched again against it,
so that what is written always follows the list as it stands. Importing the same file twice
changes nothing the second time: every row then matches its member as the file has them.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from ..club.members import number_key
from ..club.roster import Roster
from ..club.roster_plan import ImportPlan, plan_import
from ..tournament.seating import name_key
from .database import immediate
from .games import now
from .members import all_members, note_club_change


@dataclass(frozen=True)
class ImportResult:
    """What an import did: members added and updated, rows on the list already, lines refused;
    ``plan`` is the plan carried out (matched again if the list changed after the preview)."""

    added: int
    updated: int
    unchanged: int
    refused: int
    plan: ImportPlan


def preview(db: sqlite_utils.Database, roster: Roster) -> ImportPlan:
    """What importing ``roster`` would do to the list as it stands (nothing is written)."""
    return plan_import(roster, all_members(db, removed=True))


def import_roster(
    db: sqlite_utils.Database, source: Roster | ImportPlan, who: str, file_name: str = ""
) -> ImportResult:
    """Import a roster (or the plan a preview made of it): new members inserted, members updated,
    each update a line of the club's history and the import one more ("Roster imported from
    players.csv: 118 added, 4 updated, 3 lines refused"); nothing written when nothing changes."""
    plan = source if isinstance(source, ImportPlan) else preview(db, source)
    with immediate(db):
        members = tuple(all_members(db, removed=True))
        if members != plan.basis:
            plan = plan_import(plan.roster, members)
        if plan.changes:
            _write(db, plan, who, file_name)
    return ImportResult(len(plan.added), len(plan.updated), len(plan.unchanged), len(plan.refused), plan)


def _write(db: sqlite_utils.Database, plan: ImportPlan, who: str, file_name: str) -> None:
    """The plan's rows written (inside the caller's transaction)."""
    at = now()
    db.conn.executemany(
        "INSERT INTO members (name, name_key, club, number, number_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (row.name, name_key(row.name), row.club, row.number or None, number_key(row.number), at)
            for row in plan.added
        ],
    )
    db.conn.executemany(
        "UPDATE members SET name = ?, name_key = ?, club = ?, number = ?, number_key = ? WHERE id = ?",
        [
            (u.after.name, name_key(u.after.name), u.after.club, u.after.number, number_key(u.after.number), u.after.id)
            for u in plan.updated
        ],
    )
    source = f" (from {file_name})" if file_name else ""
    for update in plan.updated:
        note_club_change(db, who, update.described + source)
    note_club_change(db, who, plan.summary(file_name))
