"""A member's results across the club's events, as their page shows them: every evening played
(place, total, tables won), the partners and opponents met most, and the rating after each
evening. Read from the club's record (``club_results``), a few indexed rows per evening."""

from __future__ import annotations

from dataclasses import dataclass

import sqlite_utils

from ..club.members import Member
from ..club.ratings import Rating, unpack_history
from .club_results import ranked_ratings, stored_ratings
from .members import get_member, members_by_id

#: How many partners and opponents a page names.
MET_MOST = 5


@dataclass(frozen=True)
class Evening:
    """One event the member played: their place among the ``ranked`` players (0: no complete
    round), total, tables and tables won; ``provisional`` while it is under way."""

    event_id: int
    name: str
    held_on: str
    seat: str
    place: int
    ranked: int
    total: int
    tables: int
    wins: int
    missed: int
    provisional: bool
    deleted: bool


@dataclass(frozen=True)
class RatingPoint:
    """The member's rating after an evening's last table they played."""

    event_id: int
    name: str
    held_on: str
    rating: Rating


@dataclass(frozen=True)
class PlayerResults:
    member: Member
    evenings: tuple[Evening, ...]
    tables: int
    wins: int
    partners: tuple[tuple[Member, int], ...]
    opponents: tuple[tuple[Member, int], ...]
    rating: Rating | None
    over_time: tuple[RatingPoint, ...]


def player_results(db: sqlite_utils.Database, member_id: int) -> PlayerResults | None:
    """The member's results (None: no such member). Bring the club's record up to date first."""
    member = get_member(db, member_id)
    if member is None:
        return None
    evenings = tuple(
        Evening(
            # An evening deleted from the list is over: its tables still playing then never will.
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            row[7],
            row[8],
            row[9],
            bool(row[10]) and row[11] is None,
            row[11] is not None,
        )
        for row in db.execute(
            "SELECT s.event_id, e.name, e.held_on, p.name, s.place, s.ranked, s.total, s.tables, s.wins, s.missed, "
            "s.provisional, e.deleted_at FROM club_standings s JOIN events e ON e.id = s.event_id "
            "JOIN event_players p ON p.event_id = s.event_id AND p.member_id = s.member_id "
            "WHERE s.member_id = ? ORDER BY e.held_on DESC, e.id DESC",
            [member_id],
        )
    )
    tables, wins = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(won), 0) FROM club_seats WHERE member_id = ?", [member_id]
    ).fetchone()
    met = db.execute(
        "SELECT o.member_id, o.side = m.side, COUNT(*) FROM club_seats m JOIN club_seats o "
        "ON o.table_id = m.table_id AND o.member_id != m.member_id WHERE m.member_id = ? "
        "GROUP BY o.member_id, o.side = m.side",
        [member_id],
    ).fetchall()
    others = members_by_id(db, [row[0] for row in met])
    partners = _most([(others[row[0]], row[2]) for row in met if row[1]])
    opponents = _most([(others[row[0]], row[2]) for row in met if not row[1]])
    stored = stored_ratings(db, [member_id]).get(member_id)
    rating, history = stored if stored is not None else (None, b"")
    over_time = _over_time(db, unpack_history(history))
    return PlayerResults(member, evenings, int(tables), int(wins), partners, opponents, rating, over_time)


def _most(met: list[tuple[Member, int]]) -> tuple[tuple[Member, int], ...]:
    return tuple(sorted(met, key=lambda pair: (-pair[1], pair[0].name.casefold(), pair[0].id))[:MET_MOST])


def _over_time(db: sqlite_utils.Database, history: list[tuple[int, float, float]]) -> tuple[RatingPoint, ...]:
    """The rating after each evening: the last point of the evening's tables in the history."""
    if not history:
        return ()
    ids = [int(point[0]) for point in history]
    events: dict[int, tuple[int, str, str]] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for table_id, event_id, name, held_on in db.execute(
            f"SELECT t.id, t.event_id, e.name, e.held_on FROM club_tables t JOIN events e ON e.id = t.event_id "
            f"WHERE t.id IN ({marks})",
            chunk,
        ):
            events[int(table_id)] = (int(event_id), str(name), str(held_on))
    points: dict[int, RatingPoint] = {}
    for count, (table_id, mu, sigma) in enumerate(history, start=1):
        event = events.get(int(table_id))
        if event is not None:
            points.pop(event[0], None)  # the evening's last table stands for it, in the order rated
            points[event[0]] = RatingPoint(*event, Rating(mu, sigma, count))
    return tuple(points.values())


@dataclass(frozen=True)
class MemberLine:
    """A member as the club's list shows them: evenings played and rating."""

    member: Member
    evenings: int
    rating: Rating | None


def member_lines(db: sqlite_utils.Database, search: str = "") -> list[MemberLine]:
    """The list by name; ``search`` finds a name or number holding it (any case)."""
    found = f"%{' '.join(search.split()).casefold()}%"
    rows = db.execute(
        "SELECT m.id, m.name, m.club, m.number, m.initials, m.removed, "
        "(SELECT COUNT(*) FROM club_standings s WHERE s.member_id = m.id), r.mu, r.sigma, r.tables "
        "FROM members m LEFT JOIN ratings r ON r.member_id = m.id "
        "WHERE m.removed = 0 AND m.merged_into IS NULL "
        "AND (m.name_key LIKE ? OR COALESCE(m.number_key, '') LIKE ?) ORDER BY m.name_key, m.id",
        [found, found],
    ).fetchall()
    return [
        MemberLine(
            Member(row[0], row[1], row[2], row[3], bool(row[4]), bool(row[5])),
            int(row[6]),
            None if row[7] is None else Rating(row[7], row[8], row[9]),
        )
        for row in rows
    ]


def rated_members(db: sqlite_utils.Database) -> list[tuple[Member, Rating]]:
    """Every rated member with their rating, the best cautious rating (mu − 3 sigma) first."""
    rated = ranked_ratings(db)
    members = members_by_id(db, [member for member, _ in rated])
    return [(members[member], rating) for member, rating in rated]
