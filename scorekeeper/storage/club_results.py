"""The club's record: every final table of every event (those deleted from the list too) and
every event's standings, by member, and the ratings computed from them.

The tables and standings are derived from the games and kept, so that a player's page reads a
few rows instead of replaying five years of evenings; ``events.club_signature`` says what they
were derived from (the tables' versions and locks, the players and their members), and
``bring_up_to_date`` derives again only the events whose signature moved. A table counts once
it is final (finished, or locked by the director, which closes it as it stands), except one
closed before any hand was complete, which counts for nobody, as in the standings.

Ratings are rated table by table in the order the tables finished (the time of the last change
to the game's result, or of the lock that closed it; tables finished in the same second by event,
round and table). A table that finishes after every rated one is rated on top of the stored
ratings; anything else (a rated table corrected or reopened, a table that finished earlier than
one already rated, members merged, another model) recomputes every rating from the stored tables,
from scratch, which is what ``recompute`` does and must give the same numbers. The write lock is
held only to store what was computed, and only if nothing changed meanwhile.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import sqlite_utils

from ..club.ratings import MODEL, History, RatedTable, Rating, RatingModel, Ratings, pack_table, unpack_table
from ..gamelog.entries import NOTE
from .database import immediate
from .event_results import TableProgress, event_standings, progress
from .events import event_players, get_event

_TABLES_SIGNATURE = (
    "SELECT COUNT(*) || ':' || COALESCE(SUM(g.version), 0) || ':' || COALESCE(SUM(g.locked), 0) || ':' || "
    "COALESCE(MAX(g.locked_at), '') FROM event_tables t JOIN games g ON g.id = t.game_id WHERE t.event_id = e.id"
)
_PLAYERS_SIGNATURE = (
    "SELECT COUNT(*) || ':' || COALESCE(SUM(p.arrives), 0) || ':' || COALESCE(SUM(p.leaves), 0) || ':' || "
    "COALESCE(SUM(p.member_id), 0) || ':' || COALESCE(SUM(p.id * p.member_id), 0) FROM event_players p "
    "WHERE p.event_id = e.id"
)
_PENALTIES_SIGNATURE = (
    "SELECT COUNT(*) || ':' || COUNT(x.withdrawn_at) || ':' || COALESCE(MAX(x.id), 0) FROM event_penalties x "
    "WHERE x.event_id = e.id"
)
#: What an event's record is derived from: its tables' versions and locks (a short table's treatment is
#: set with its lock), its players and their members, the director's penalties.
_SIGNATURE = f"SELECT ({_TABLES_SIGNATURE}) || '|' || ({_PLAYERS_SIGNATURE}) || '|' || ({_PENALTIES_SIGNATURE})"
_SIGNATURES = (
    f"SELECT e.id, ({_TABLES_SIGNATURE}) || '|' || ({_PLAYERS_SIGNATURE}) || '|' || ({_PENALTIES_SIGNATURE}), "
    "e.club_signature FROM events e"
)


@dataclass(frozen=True)
class ClubTable:
    """A final table as the club's record keeps it: each side's members, totals and places."""

    round: int
    number: int
    finished_at: str
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]

    @property
    def result(self) -> str:
        return json.dumps({"sides": self.sides, "totals": self.totals, "places": self.places})


def bring_up_to_date(db: sqlite_utils.Database) -> int:
    """Derive again the events whose games or players changed, then rate what finished since; how
    many events were derived."""
    moved = [
        (int(event_id), str(signature)) for event_id, signature, kept in db.execute(_SIGNATURES) if signature != kept
    ]
    for event_id, signature in moved:
        _derive_event(db, event_id, signature)
    rate(db)
    return len(moved)


def _finished_at(row: TableProgress) -> str:
    """When the table's result became what it is: its log's last change (notes aside), or the lock
    that closed it before its game finished."""
    changes = [entry.created_at for entry in row.state.entries if entry.kind != NOTE]
    at = max(changes, default=row.table.game.created_at)
    if row.table.locked and not row.final_score.finished and row.table.locked_at:
        at = max(at, row.table.locked_at)
    return at


def _club_tables(rows: Sequence[TableProgress], members: dict[str, int]) -> list[ClubTable]:
    tables = []
    for row in rows:
        score = row.final_score
        if not row.final or (not score.finished and not score.hands):
            continue
        places = dict((side.side.name, place) for place, side in score.standings())
        tables.append(
            ClubTable(
                row.table.round,
                row.table.number,
                _finished_at(row),
                tuple(tuple(members[name] for name in side.side.members) for side in score.sides),
                tuple(side.total for side in score.sides),
                tuple(places[side.side.name] for side in score.sides),
            )
        )
    return tables


def _derive_event(db: sqlite_utils.Database, event_id: int, signature: str) -> None:
    """Keep the event's final tables and standings as they now are (computed before the write
    lock; stored only if the event has not changed meanwhile, else the next look does it)."""
    event = get_event(db, event_id, deleted=True)
    if event is None:
        return
    rows = progress(db, event)
    members = {p.name: p.member_id for p in event_players(db, event_id) if p.member_id is not None}
    tables = _club_tables(rows, members)
    # An event with no round seated is no evening yet: nobody has played it (no standings kept).
    ranking = event_standings(db, event, tables=rows) if rows else []
    ranked = sum(1 for row in ranking if row.ranked)
    seated = len({row.table.round for row in rows})
    provisional = any(not row.final for row in rows) or (event.rounds is not None and seated < event.rounds)
    with immediate(db):
        still = db.execute(f"{_SIGNATURE} FROM events e WHERE e.id = ?", [event_id]).fetchone()
        if still is None or still[0] != signature:
            return
        _store_tables(db, event_id, tables)
        db.conn.execute("DELETE FROM club_standings WHERE event_id = ?", [event_id])
        db.conn.executemany(
            "INSERT INTO club_standings (event_id, member_id, place, total, tables, wins, missed, ranked, provisional) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    event_id,
                    members[row.name],
                    row.place,
                    row.total,
                    row.tables,
                    row.wins,
                    row.missed,
                    ranked,
                    provisional,
                )
                for row in ranking
                if row.name in members
            ],
        )
        db.conn.execute("UPDATE events SET club_signature = ? WHERE id = ?", [signature, event_id])
        _bump(db, "club_version")  # the standings may move with no table changed (a player withdrawn)


def _store_tables(db: sqlite_utils.Database, event_id: int, tables: Sequence[ClubTable]) -> None:
    """The event's final tables as they now are: one unchanged keeps its row (and its place in
    the ratings); one changed or no longer final goes, and if it was rated, every rating is
    recomputed."""
    kept = {
        (int(r[1]), int(r[2])): (int(r[0]), str(r[3]), str(r[4]), bool(r[5]))
        for r in db.execute(
            "SELECT id, round, number, finished_at, result, rated FROM club_tables WHERE event_id = ?", [event_id]
        )
    }
    for table in tables:
        old = kept.pop((table.round, table.number), None)
        if old is not None and (old[1], old[2]) == (table.finished_at, table.result):
            continue
        if old is not None:
            _drop_table(db, old[0], old[3])
        cursor = db.conn.execute(
            "INSERT INTO club_tables (event_id, round, number, finished_at, result, ranking) VALUES (?, ?, ?, ?, ?, ?)",
            [
                event_id,
                table.round,
                table.number,
                table.finished_at,
                table.result,
                pack_table(table.sides, table.places),
            ],
        )
        table_id = int(cursor.lastrowid or 0)
        won = [place == 1 and table.places.count(1) == 1 for place in table.places]
        db.conn.executemany(
            "INSERT INTO club_seats (table_id, member_id, side, total, place, won) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (table_id, member, side, table.totals[side], table.places[side], int(won[side]))
                for side, members in enumerate(table.sides)
                for member in members
            ],
        )
    for table_id, _, _, rated in kept.values():
        _drop_table(db, table_id, rated)


def _drop_table(db: sqlite_utils.Database, table_id: int, rated: bool) -> None:
    db.conn.execute("DELETE FROM club_seats WHERE table_id = ?", [table_id])
    db.conn.execute("DELETE FROM club_tables WHERE id = ?", [table_id])
    if rated:
        _set(db, "ratings_stale", "1")


def _setting(db: sqlite_utils.Database, key: str) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
    return None if row is None else str(row[0])


def _set(db: sqlite_utils.Database, key: str, value: str) -> None:
    db.conn.execute(
        "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [key, value],
    )


def _bump(db: sqlite_utils.Database, key: str) -> None:
    _set(db, key, str(int(_setting(db, key) or 0) + 1))


def record_holds(db: sqlite_utils.Database, event_id: int) -> bool:
    """Whether the event's record is derived from its games and players as they now are."""
    row = db.execute(f"{_SIGNATURE}, e.club_signature FROM events e WHERE e.id = ?", [event_id]).fetchone()
    return row is not None and row[0] == row[1]


def keep_record(db: sqlite_utils.Database, event_id: int) -> None:
    """Keep the event's record as it is through a change that must not alter it (inside the caller's
    transaction: the locks of an event deleted from the list, or brought back, close no table)."""
    db.conn.execute(
        f"UPDATE events SET club_signature = ({_SIGNATURE} FROM events e WHERE e.id = ?) WHERE id = ?",
        [event_id, event_id],
    )


def ratings_stale(db: sqlite_utils.Database) -> None:
    """Every rating is to be recomputed at the next look (members merged, or the merge undone)."""
    _set(db, "ratings_stale", "1")


def club_version(db: sqlite_utils.Database) -> int:
    """A number that moves whenever the club's record or its ratings change (for pages that follow it)."""
    row = db.execute(
        "SELECT COALESCE(SUM(CAST(value AS INTEGER)), 0) FROM settings WHERE key IN ('club_version', 'ratings_version')"
    ).fetchone()
    return int(row[0])


def stored_model(db: sqlite_utils.Database) -> RatingModel | None:
    text = _setting(db, "rating_model")
    if text is None:
        return None
    data = json.loads(text)
    return RatingModel(data["name"], data["version"], data["parameters"])


_ORDER = "ORDER BY finished_at, event_id, round, number"


def _rated_tables(rows: Sequence[tuple[int, bytes]]) -> list[RatedTable[int]]:
    """The tables to rate, as stored (``club.ratings.pack_table``: thousands are read at once)."""
    return [unpack_table(ranking, table_id) for table_id, ranking in rows]


def rate(db: sqlite_utils.Database) -> None:
    """Rate the tables that finished since the last look: on top of the stored ratings when they
    all finished after every rated table, else every rating from scratch."""
    versions = (_setting(db, "club_version"), _setting(db, "ratings_version"))
    model = stored_model(db)
    fresh = db.execute(
        f"SELECT id, ranking, finished_at, event_id, round, number FROM club_tables WHERE rated = 0 {_ORDER}"
    ).fetchall()
    if model == MODEL and _setting(db, "ratings_stale") != "1":
        if not fresh:
            return
        last = db.execute(
            "SELECT finished_at, event_id, round, number FROM club_tables WHERE rated = 1 "
            "ORDER BY finished_at DESC, event_id DESC, round DESC, number DESC LIMIT 1"
        ).fetchone()
        if last is None or tuple(fresh[0][2:]) > tuple(last):
            _rate_on(db, versions, _rated_tables([row[:2] for row in fresh]))
            return
    with _collector_held_off():
        store_ratings(db, versions, recomputed(db))


def recomputed(db: sqlite_utils.Database, model: RatingModel = MODEL) -> Ratings[int]:
    """Every rating from the stored tables, from scratch, in the order they finished."""
    rows = db.execute(f"SELECT id, ranking FROM club_tables {_ORDER}")
    return Ratings[int](model).rate_all(unpack_table(ranking, table_id) for table_id, ranking in rows)


@contextmanager
def _collector_held_off() -> Iterator[None]:
    """Every rating rated, compared and packed with the garbage collector held off: the tables read
    and the points kept are thousands of small containers that hold no cycle, and its passes over
    them (and over everything else the process holds) were a tenth to a fifth of the time."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _rate_on(db: sqlite_utils.Database, versions: tuple[str | None, str | None], tables: list[RatedTable[int]]) -> None:
    players = sorted({player for table in tables for side in table.sides for player in side})
    start = stored_ratings(db, players)
    ratings = Ratings[int].resumed(MODEL, {player: start[player][0] for player in start}).rate_all(tables)
    with immediate(db):
        if (_setting(db, "club_version"), _setting(db, "ratings_version")) != versions:
            return
        rows = []
        for player, rating in ratings.current().items():
            earlier = start[player][1] if player in start else b""
            rows.append((player, rating.mu, rating.sigma, rating.tables, _joined(earlier, ratings.history[player])))
        db.conn.executemany(
            "INSERT OR REPLACE INTO ratings (member_id, mu, sigma, tables, history) VALUES (?, ?, ?, ?, ?)", rows
        )
        marks = ", ".join("?" * len(tables))
        db.conn.execute(f"UPDATE club_tables SET rated = 1 WHERE id IN ({marks})", [table.id for table in tables])
        _bump(db, "ratings_version")


def _packed(ratings: Ratings[int], player: int) -> bytes:
    found = ratings.history.get(player)
    return found.packed() if found is not None else History().packed()


def _joined(earlier: bytes, later: History) -> bytes:
    """A stored history with the points rated since after it."""
    joined = History.unpacked(earlier)
    for point in later.points():
        joined.add(*point)
    return joined.packed()


def store_ratings(db: sqlite_utils.Database, versions: tuple[str | None, str | None], ratings: Ratings[int]) -> bool:
    """Every rating as recomputed replaces the stored ones, with the model that made them; False
    (nothing stored) when the record changed while they were computed."""
    rows = [
        (player, rating.mu, rating.sigma, rating.tables, _packed(ratings, player))
        for player, rating in ratings.current().items()
    ]
    model = ratings.model
    with immediate(db):
        if (_setting(db, "club_version"), _setting(db, "ratings_version")) != versions:
            return False
        db.conn.execute("DELETE FROM ratings")
        db.conn.executemany("INSERT INTO ratings (member_id, mu, sigma, tables, history) VALUES (?, ?, ?, ?, ?)", rows)
        db.conn.execute("UPDATE club_tables SET rated = 1 WHERE rated = 0")
        _set(
            db,
            "rating_model",
            json.dumps({"name": model.name, "version": model.version, "parameters": dict(model.parameters)}),
        )
        _set(db, "ratings_stale", "0")
        _bump(db, "ratings_version")
    return True


def stored_ratings(db: sqlite_utils.Database, members: Sequence[int] | None = None) -> dict[int, tuple[Rating, bytes]]:
    """The stored ratings (of ``members``, or everyone's), each with its history as stored
    (``club.ratings.unpack_history``: the table's id, mu and sigma after each table)."""
    if members is None:
        rows = db.execute("SELECT member_id, mu, sigma, tables, history FROM ratings").fetchall()
    else:
        rows = []
        for start in range(0, len(members), 500):
            chunk = list(members[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            rows += db.execute(
                f"SELECT member_id, mu, sigma, tables, history FROM ratings WHERE member_id IN ({marks})", chunk
            ).fetchall()
    return {int(row[0]): (Rating(float(row[1]), float(row[2]), int(row[3])), bytes(row[4])) for row in rows}


@dataclass(frozen=True)
class Recomputed:
    """What ``recompute`` found: the tables and players rated, the members whose stored rating
    (or its history) differed from the one recomputed, and the model stored before (if another)."""

    tables: int
    players: int
    differing: tuple[int, ...]
    replaced_model: RatingModel | None


def recompute(db: sqlite_utils.Database, model: RatingModel = MODEL) -> Recomputed:
    """Rebuild every rating from the stored tables, from scratch, compare it with what was stored,
    and store it (with ``model``): the ratings are what their results make them, whatever path
    they took (each table rated as it finished, or all at once)."""
    for _ in range(5):
        versions = (_setting(db, "club_version"), _setting(db, "ratings_version"))
        before, kept = stored_model(db), stored_ratings(db)
        with _collector_held_off():
            fresh, now, differing = _compared(db, model, kept)
        replaced = before if before != model else None
        if not differing and replaced is None and _setting(db, "ratings_stale") != "1":
            return Recomputed(fresh.rated, len(now), differing, None)  # the same numbers: nothing to store
        if store_ratings(db, versions, fresh):
            return Recomputed(fresh.rated, len(now), differing, replaced)
    raise RuntimeError("the club's record kept changing while its ratings were recomputed")


def _compared(
    db: sqlite_utils.Database, model: RatingModel, kept: dict[int, tuple[Rating, bytes]]
) -> tuple[Ratings[int], dict[int, Rating], tuple[int, ...]]:
    """Every rating recomputed, and the members whose stored rating or history differs from it."""
    fresh = recomputed(db, model)
    now = fresh.current()
    differing = tuple(
        sorted(
            player
            for player in set(kept) | set(now)
            if player not in kept
            or player not in now
            or kept[player][0] != now[player]
            or kept[player][1] != _packed(fresh, player)
        )
    )
    return fresh, now, differing


def ranked_ratings(db: sqlite_utils.Database) -> list[tuple[int, Rating]]:
    """Every rated member's rating, the best cautious rating (mu − 3 sigma) first."""
    rated = [(member, rating) for member, (rating, _) in stored_ratings(db).items()]
    return sorted(rated, key=lambda pair: (-pair[1].ordinal, pair[0]))
