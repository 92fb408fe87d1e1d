"""What importing a roster would do to the club's list: each row read from the file matched to
the list as an event's line is (``MemberIndex``), then a new member, a member updated, a member
as the file has them already, or a line refused with why.

Pure: the rows and the members in, the plan out. Storage shows it as the preview and carries it
out in one transaction, matching again if the list changed meanwhile; so the preview and the
import cannot disagree about what a row means.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..tournament.seating import name_key
from .members import Listed, Member, MemberIndex, MemberRefusal, number_key
from .roster import RefusedLine, Roster, RosterRow

#: The longest file name a preview and the club's history show.
FILE_NAME_MAX_LENGTH = 80


@dataclass(frozen=True)
class RosterUpdate:
    """A member the file changes: a new spelling of their name (matched by number), their first
    number (matched by name), or another club."""

    row: RosterRow
    before: Member
    after: Member

    @property
    def differences(self) -> tuple[tuple[str, str, str], ...]:
        """What changes, each as (what, before, after): ("name", "Jon Smith", "John Smith")."""
        pairs = (
            ("name", self.before.name, self.after.name),
            ("number", self.before.number or "", self.after.number or ""),
            ("club", self.before.club, self.after.club),
        )
        return tuple((what, old, new) for what, old, new in pairs if old != new)

    @property
    def changes(self) -> tuple[str, ...]:
        """What changes, in the words of the club's history ("now spelt John Smith")."""
        changes = []
        for what, old, new in self.differences:
            if what == "name":
                changes.append(f"now spelt {new}")
            elif what == "number":
                changes.append(f"given number {new}")
            else:
                changes.append(f"club {old or '(none)'} \u2192 {new}")
        return tuple(changes)

    @property
    def described(self) -> str:
        """The change as a line of the club's history: "Jon Smith (number 101): now spelt John Smith"."""
        return f"{self.before.described}: {'; '.join(self.changes)}"


@dataclass(frozen=True)
class ImportPlan:
    """Every row of a roster and what importing it does; ``basis`` is the list it was matched
    against (every member, removed ones too, as ``storage.members.all_members`` reads them)."""

    roster: Roster
    added: tuple[RosterRow, ...]
    updated: tuple[RosterUpdate, ...]
    unchanged: tuple[tuple[RosterRow, Member], ...]
    #: The file's refused lines and those refused when matched, by line.
    refused: tuple[RefusedLine, ...]
    basis: tuple[Member, ...]

    @property
    def changes(self) -> int:
        """The members it adds or updates: what "Import N players" imports."""
        return len(self.added) + len(self.updated)

    @property
    def digest(self) -> str:
        """What the plan does, as a short fingerprint: a confirmation imports only the plan its
        preview showed, and is shown the new one if the list changed in between."""
        doing = {
            "added": [(row.line, row.name, row.club, row.number) for row in self.added],
            "updated": [(u.before.id, u.after.name, u.after.club, u.after.number) for u in self.updated],
            "refused": [(line.line, line.reason) for line in self.refused],
        }
        return hashlib.sha256(json.dumps(doing, ensure_ascii=False).encode()).hexdigest()[:32]

    def summary(self, file_name: str) -> str:
        """The import as the club's history says it: "Roster imported from players.csv: 118 added,
        4 updated, 3 lines refused" (counts as "3,000")."""
        parts = [f"{len(self.added):,} added", f"{len(self.updated):,} updated"]
        if self.unchanged:
            parts.append(f"{len(self.unchanged):,} unchanged")
        if self.refused:
            parts.append(f"{len(self.refused):,} {'line' if len(self.refused) == 1 else 'lines'} refused")
        source = f" from {file_name}" if file_name else ""
        return f"Roster imported{source}: {', '.join(parts)}"


def plan_import(roster: Roster, members: Sequence[Member]) -> ImportPlan:
    """What importing ``roster`` into a list of ``members`` does, row by row.

    A row is matched as an event's line is: by number, else by name. Beyond the event's rules,
    refused by line: a row whose number is one member's while its name is another's (a wrong
    number, most likely: an event would take it for the number's new spelling); a second row
    of a member an earlier row matched, or of a new name an earlier row added with a number and
    this one without (or the other way round); a number a member removed from the list had
    (numbers stay theirs). An empty club in the file keeps the member's club; a member's number
    stays.
    """
    index = MemberIndex(members)
    check = _Checks(index, {member.number_key for member in members if member.removed and member.number_key})
    added: list[RosterRow] = []
    updated: list[RosterUpdate] = []
    unchanged: list[tuple[RosterRow, Member]] = []
    refused = list(roster.refused)
    for row in roster.rows:
        member: Member | None = None
        try:
            member = index.match(Listed(0, row.name, row.club, row.number), "roster")
            reason = check.refusal(row, member)
        except MemberRefusal as refusal:
            reason = str(refusal)
        if reason:
            refused.append(RefusedLine(row.line, row.text, reason))
        elif member is None:
            added.append(row)
        else:
            after = Member(
                member.id,
                row.name if name_key(row.name) != member.name_key else member.name,
                row.club or member.club,
                member.number or row.number or None,
                member.initials,
            )
            if after == member:
                unchanged.append((row, member))
            else:
                updated.append(RosterUpdate(row, member, after))
    refused.sort(key=lambda line: line.line)
    return ImportPlan(roster, tuple(added), tuple(updated), tuple(unchanged), tuple(refused), tuple(members))


class _Checks:
    """What a row may not be, given the rows before it: the import's own refusals."""

    def __init__(self, index: MemberIndex, removed_numbers: set[str]) -> None:
        self.index = index
        self.removed_numbers = removed_numbers
        self.member_rows: dict[int, int] = {}
        self.new_names: dict[str, list[RosterRow]] = {}

    def refusal(self, row: RosterRow, member: Member | None) -> str | None:
        """Why ``row`` cannot be imported (None: it can), and the row noted for the rows after it."""
        key = number_key(row.number)
        if key is not None and key in self.removed_numbers:
            return f"Number {row.number} was a member's who has been removed from the list: give another number."
        if member is None:
            named = self.new_names.setdefault(name_key(row.name), [])
            clash = next((earlier for earlier in named if not key or not number_key(earlier.number)), None)
            if clash is not None:
                return (
                    f"{row.name} is on line {clash.line} already: two players of that name need their "
                    "membership numbers."
                )
            named.append(row)
            return None
        if member.id in self.member_rows:
            return f"The same member as line {self.member_rows[member.id]} ({member.described})."
        if key is not None and member.number_key == key and name_key(row.name) != member.name_key:
            others = [other for other in self.index.by_name.get(name_key(row.name), []) if other.id != member.id]
            if others:
                return (
                    f"Number {row.number} is {member.name}'s, but {others[0].described} is on the list too: "
                    "check the number."
                )
        self.member_rows[member.id] = row.line
        return None


def shown_file_name(name: str | None) -> str:
    """An uploaded file's name as a preview and the history show it: no folders, no control
    characters, at most ``FILE_NAME_MAX_LENGTH`` characters; "" when it has none."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    shown = "".join(char for char in base if unicodedata.category(char)[0] != "C").strip()
    return shown if len(shown) <= FILE_NAME_MAX_LENGTH else shown[: FILE_NAME_MAX_LENGTH - 1] + "\u2026"
