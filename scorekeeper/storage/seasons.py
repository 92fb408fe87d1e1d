"""Seasons: a named series of the club's events with a ladder ruled as the director chooses
(``club.ladder``), and the ladder read from the club's record.

An event may be in several seasons at once (a winter season and the year's), and stays in its
seasons when it is deleted from the list of events: its results stay in the club's record. Every
change is on the club's history; each is made once however often its button is pressed (a new
season by the key of its form, an event added or taken out by what is already so).

The ladder reads a few indexed rows: the season's events, their standings by member
(``club_standings``), and for a ladder by rating the stored ratings with their history, never a
game's log. Bring the club's record up to date first (``club_results.bring_up_to_date``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import sqlite_utils

from ..club.ladder import BEST, LADDER_RULES, RATING, Evening, LadderRow, ladder, ladder_rule_words
from ..club.members import Member
from ..club.ratings import Rating, last_point_before
from ..gamelog.memo import Memo
from ..scoring import Refusal
from ..tournament.seating import control_fault, name_key
from .club_results import club_version
from .database import immediate
from .games import now
from .members import members_by_id, note_club_change

#: The longest season name kept.
SEASON_NAME_MAX_LENGTH = 60
#: The most evenings that may count in a ladder of the best N (more than a season of weekly
#: evenings for ten years: a number that large is a slip of the keyboard).
MAX_BEST = 520
SEASON_PAPERS = ("a4", "letter")
#: Each rule as the season's form offers it.
RULE_NAMES = {
    "points": "Placement points, every evening",
    "best": "Placement points, the best N evenings",
    "rating": "Rating at the season's end",
}


class SeasonRefusal(Refusal):
    """A season that cannot be made or changed as asked; ``field`` names the form's field."""


class SeasonGone(SeasonRefusal):
    """The season or the event a page showed is no longer there (another tab, another director)."""

    status = 409


@dataclass(frozen=True)
class Season:
    id: int
    name: str
    #: One of ``club.ladder.LADDER_RULES``.
    rule: str
    #: How many evenings count (``best`` only; None otherwise).
    best: int | None
    #: The paper its ladder prints on: a4 or letter.
    paper: str
    #: The wall screen's link (``/s/<wall_token>/``): never on a public page.
    wall_token: str
    created_at: str

    @property
    def rule_name(self) -> str:
        return RULE_NAMES.get(self.rule, self.rule)


@dataclass(frozen=True)
class SeasonEvening:
    """One of the season's events as the season's pages list it."""

    event_id: int
    name: str
    held_on: str
    #: Deleted from the list of events: its results still count.
    deleted: bool
    #: A round has been seated: the evening has begun (one not begun is not on the ladder yet).
    begun: bool
    #: Begun and not over (a table still playing, or rounds planned but not seated).
    under_way: bool


@dataclass(frozen=True)
class SeasonLadder:
    """Everything a ladder's page, wall screen, PDF and CSV show of a season."""

    season: Season
    rows: tuple[LadderRow[int], ...]
    members: dict[int, Member]
    rule_words: str
    #: The season's evenings in its order (by date), those not begun included.
    evenings: tuple[SeasonEvening, ...]
    #: The begun evenings as the ladder ranked them (places by member: 0, no complete round).
    ranked: tuple[Evening[int], ...]
    #: The club's record as the ladder was made from it (``club_stamp``): while it stands, so does the ladder.
    stamp: tuple[int, int] = (0, 0)

    @property
    def provisional(self) -> bool:
        """An evening is still under way: the ladder may yet change."""
        return any(evening.under_way for evening in self.evenings)


_COLUMNS = "id, name, rule, best, paper, wall_token, created_at"


def _season(row: Sequence[object]) -> Season:
    season_id, name, rule, best, paper, wall_token, created_at = row
    return Season(
        int(str(season_id)),
        str(name),
        str(rule),
        None if best is None else int(str(best)),
        str(paper),
        str(wall_token),
        str(created_at),
    )


def list_seasons(db: sqlite_utils.Database) -> list[Season]:
    """Every season, the newest first."""
    return [_season(row) for row in db.execute(f"SELECT {_COLUMNS} FROM seasons ORDER BY id DESC")]


def get_season(db: sqlite_utils.Database, season_id: int) -> Season | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM seasons WHERE id = ?", [season_id]).fetchone()
    return None if row is None else _season(row)


def season_by_name(db: sqlite_utils.Database, name: str) -> Season | None:
    """The season of that name in any case and spacing (for the command line)."""
    key = name_key(name)
    return next((season for season in list_seasons(db) if name_key(season.name) == key), None)


def season_by_wall_token(db: sqlite_utils.Database, token: str) -> Season | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM seasons WHERE wall_token = ?", [token]).fetchone() if token else None
    return None if row is None else _season(row)


def check_season_fields(name: str, rule: str, best: int | None, paper: str) -> int | None:
    """What every season's name, rule, best N and paper must be; the best N as kept (a ladder of
    the best N evenings keeps it, the others none)."""
    if not name or len(name) > SEASON_NAME_MAX_LENGTH:
        raise SeasonRefusal(f"A name of 1 to {SEASON_NAME_MAX_LENGTH} characters, not {len(name)}.", "name")
    fault = control_fault(name)
    if fault is not None:
        raise SeasonRefusal(fault.replace("a name", "a season's name", 1), "name")
    if rule not in LADDER_RULES:
        raise SeasonRefusal(f"A ladder ranks by one of {', '.join(LADDER_RULES)}, not {rule!r}.", "rule")
    if paper not in SEASON_PAPERS:
        raise SeasonRefusal(f"Paper is one of {', '.join(SEASON_PAPERS)}, not {paper!r}.", "paper")
    if rule != BEST:
        return None
    if best is None or best < 1:
        raise SeasonRefusal("How many evenings count: 1 or more.", "best")
    if best > MAX_BEST:
        raise SeasonRefusal(f"At most {MAX_BEST} evenings can count.", "best")
    return best


def _name_taken(db: sqlite_utils.Database, name: str, other_than: int = 0) -> None:
    key = name_key(name)
    for _, taken in db.execute("SELECT id, name FROM seasons WHERE id != ?", [other_than]).fetchall():
        if name_key(str(taken)) == key:
            raise SeasonRefusal(f"There is a season named {taken} already: choose another name.", "name")


def rule_described(rule: str, best: int | None) -> str:
    """The rule as the club's history names it: "best 8 evenings", "placement points", "rating"."""
    return f"best {best} evenings" if rule == BEST else "placement points" if rule != RATING else "rating"


def create_season(
    db: sqlite_utils.Database, name: str, rule: str, best: int | None, paper: str, who: str, key: str = ""
) -> tuple[Season, bool]:
    """A new season, on the club's history; with whether it is new: a form sent twice (a double
    click: the same ``key``) makes one season and is answered with it the second time."""
    name = name.strip()
    best = check_season_fields(name, rule, best, paper)
    with immediate(db):
        if key:
            made = db.execute(f"SELECT {_COLUMNS} FROM seasons WHERE idem_key = ?", [key]).fetchone()
            if made is not None and name_key(str(made[1])) == name_key(name):
                return _season(made), False
            if made is not None:  # the page came back (the browser's Back) and another name was typed
                key = ""
        _name_taken(db, name)
        cursor = db.conn.execute(
            "INSERT INTO seasons (name, rule, best, paper, wall_token, created_at, idem_key) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [name, rule, best, paper, secrets.token_urlsafe(18), now(), key or None],
        )
        season = get_season(db, int(cursor.lastrowid or 0))
        assert season is not None
        note_club_change(db, who, f"Season {name} made: ladder by {rule_described(rule, best)}, {paper.upper()} paper")
    return season, True


def edit_season(
    db: sqlite_utils.Database, season_id: int, name: str, rule: str, best: int | None, paper: str, who: str
) -> bool:
    """A season's name, rule, best N and paper as the director sets them; False when nothing changed."""
    name = name.strip()
    best = check_season_fields(name, rule, best, paper)
    with immediate(db):
        season = get_season(db, season_id)
        if season is None:
            raise SeasonGone("That season is no longer there: reload the page.", "name")
        _name_taken(db, name, season_id)
        changes = []
        if name != season.name:
            changes.append(f"renamed {name}")
        if (rule, best) != (season.rule, season.best):
            changes.append(f"ladder by {rule_described(rule, best)}")
        if paper != season.paper:
            changes.append(f"{paper.upper()} paper")
        if not changes:
            return False
        db.conn.execute(
            "UPDATE seasons SET name = ?, rule = ?, best = ?, paper = ? WHERE id = ?",
            [name, rule, best, paper, season_id],
        )
        note_club_change(db, who, f"Season {season.name}: {'; '.join(changes)}")
    return True


def add_event(db: sqlite_utils.Database, season_id: int, event_id: int, who: str) -> bool:
    """The event joins the season (its results count on the ladder); False when it was in it
    already (the same button pressed twice)."""
    with immediate(db):
        season = get_season(db, season_id)
        if season is None:
            raise SeasonGone("That season is no longer there: reload the page.", "event")
        event = db.execute("SELECT name, held_on, deleted_at FROM events WHERE id = ?", [event_id]).fetchone()
        if event is None or event[2] is not None:
            raise SeasonGone("That event is not on the list of events: reload the page.", "event")
        cursor = db.conn.execute(
            "INSERT OR IGNORE INTO season_events (season_id, event_id) VALUES (?, ?)", [season_id, event_id]
        )
        if not cursor.rowcount:
            return False
        note_club_change(db, who, f"Season {season.name}: {event[0]} ({event[1]}) added")
    return True


def take_out_event(db: sqlite_utils.Database, season_id: int, event_id: int, who: str) -> bool:
    """The event leaves the season (its results no longer count on its ladder; they stay in the
    club's record); False when it was not in it (the same button pressed twice)."""
    with immediate(db):
        season = get_season(db, season_id)
        if season is None:
            raise SeasonGone("That season is no longer there: reload the page.", "event")
        cursor = db.conn.execute(
            "DELETE FROM season_events WHERE season_id = ? AND event_id = ?", [season_id, event_id]
        )
        if not cursor.rowcount:
            return False
        event = db.execute("SELECT name, held_on FROM events WHERE id = ?", [event_id]).fetchone()
        what = f"{event[0]} ({event[1]})" if event is not None else f"event {event_id}"
        note_club_change(db, who, f"Season {season.name}: {what} taken out")
    return True


def season_evenings(db: sqlite_utils.Database, season_id: int) -> tuple[SeasonEvening, ...]:
    """The season's events by date (deleted ones included), each begun or not and under way or not."""
    rows = db.execute(
        "SELECT e.id, e.name, e.held_on, e.deleted_at, "
        "EXISTS (SELECT 1 FROM event_tables t WHERE t.event_id = e.id), "
        "e.deleted_at IS NULL AND EXISTS (SELECT 1 FROM club_standings s WHERE s.event_id = e.id AND s.provisional) "
        "FROM season_events se JOIN events e ON e.id = se.event_id WHERE se.season_id = ? ORDER BY e.held_on, e.id",
        [season_id],
    ).fetchall()
    return tuple(
        SeasonEvening(int(row[0]), str(row[1]), str(row[2]), row[3] is not None, bool(row[4]), bool(row[4] and row[5]))
        for row in rows
    )


def seasons_of_event(db: sqlite_utils.Database, event_id: int) -> list[Season]:
    """The seasons an event is an evening of, oldest first."""
    rows = db.execute(
        f"SELECT {_COLUMNS} FROM seasons WHERE id IN (SELECT season_id FROM season_events WHERE event_id = ?) ORDER BY id",
        [event_id],
    ).fetchall()
    return [_season(row) for row in rows]


def season_version(db: sqlite_utils.Database, season: Season) -> int:
    """A number that moves whenever the season's ladder may have: the club's record or ratings
    changed, an evening of it began or ended, or the director changed the season. The same in
    every process (a wall screen's polls may reach any of a server's workers)."""
    now_stands = repr((club_version(db), get_season(db, season.id), season_evenings(db, season.id)))
    return int.from_bytes(hashlib.sha256(now_stands.encode()).digest()[:6], "big")


def events_to_add(db: sqlite_utils.Database, season_id: int) -> list[tuple[int, str, str]]:
    """The events on the list that are not in the season (id, name, date), the newest first."""
    return [
        (int(row[0]), str(row[1]), str(row[2]))
        for row in db.execute(
            "SELECT id, name, held_on FROM events WHERE deleted_at IS NULL AND id NOT IN "
            "(SELECT event_id FROM season_events WHERE season_id = ?) ORDER BY held_on DESC, id DESC",
            [season_id],
        )
    ]


#: Ladders as made, by season and the club's record they were made from: a season's page, its wall
#: screen polling, its CSV and PDF read the same ladder until a table, a member or the season moves.
_LADDERS: Memo[SeasonLadder] = Memo(32)


def club_stamp(db: sqlite_utils.Database) -> tuple[int, int]:
    """What a ladder is made from, in two numbers: the club's record and ratings (``club_version``),
    and the club's history (every change to a member, a season or its events writes a line)."""
    row = db.execute("SELECT COALESCE(MAX(id), 0) FROM club_history").fetchone()
    return club_version(db), int(row[0])


def season_ladder(db: sqlite_utils.Database, season: Season) -> SeasonLadder:
    """The season's ladder from the club's record: each begun evening's places by member, and for
    a ladder by rating each player's cautious rating as it stood after the season's last finished
    table (players never rated by then are unranked). Made once per change of what it is made of."""
    stamp = club_stamp(db)
    return _LADDERS.get((season, stamp), lambda: _made_ladder(db, season, stamp))


def _made_ladder(db: sqlite_utils.Database, season: Season, stamp: tuple[int, int]) -> SeasonLadder:
    evenings = season_evenings(db, season.id)
    begun = [evening for evening in evenings if evening.begun]
    places: dict[int, dict[int, int]] = {evening.event_id: {} for evening in begun}
    for event_id, member_id, place in db.execute(
        "SELECT s.event_id, s.member_id, s.place FROM season_events se "
        "JOIN club_standings s ON s.event_id = se.event_id WHERE se.season_id = ?",
        [season.id],
    ):
        if event_id in places:
            places[event_id][int(member_id)] = int(place)
    ranked = tuple(Evening(e.event_id, e.name, e.held_on, places[e.event_id]) for e in begun)
    players = sorted({member for evening in ranked for member in evening.places})
    members = members_by_id(db, players)
    ratings = _ratings_at_end(db, season.id, players) if season.rule == RATING else None
    rows = ladder(ranked, season.rule, best=season.best, ratings=ratings, names={m: members[m].name for m in members})
    return SeasonLadder(
        season, tuple(rows), members, ladder_rule_words(season.rule, season.best, len(begun)), evenings, ranked, stamp
    )


_LAST_FIRST = "ORDER BY finished_at DESC, event_id DESC, round DESC, number DESC"


def _ratings_at_end(db: sqlite_utils.Database, season_id: int, players: Sequence[int]) -> dict[int, float]:
    """Each player's cautious rating after the season's last finished table: the last point of
    their history (rated in the order tables finished) that is not of a table finished later.
    While nothing has finished after the season, that is the rating as it stands."""
    last = db.execute(
        "SELECT finished_at, event_id, round, number FROM club_tables WHERE event_id IN "
        f"(SELECT event_id FROM season_events WHERE season_id = ?) {_LAST_FIRST} LIMIT 1",
        [season_id],
    ).fetchone()
    if last is None or not players:
        return {}
    later = {
        int(row[0])
        for row in db.execute(
            "SELECT id FROM club_tables WHERE (finished_at, event_id, round, number) > (?, ?, ?, ?)", list(last)
        )
    }
    at_end: dict[int, float] = {}
    history = "history" if later else "x''"
    for start in range(0, len(players), 500):
        chunk = list(players[start : start + 500])
        marks = ", ".join("?" * len(chunk))
        for member, mu, sigma, points in db.execute(
            f"SELECT member_id, mu, sigma, {history} FROM ratings WHERE member_id IN ({marks})", chunk
        ):
            point = last_point_before(bytes(points), later) if later else (float(mu), float(sigma))
            if point is not None:
                at_end[int(member)] = Rating(*point).ordinal
    return at_end
