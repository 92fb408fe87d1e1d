"""The schema, as named migrations applied in order (sqlite-utils' ``Migrations``): each a
step from the schema before to the one after, never edited once released, since every club's
database has run the ones before it. ``database.migrate`` applies those not yet applied.

A new migration goes at the end, named with the next number."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlite_utils
from sqlite_utils.migrations import Migrations

from ..tournament.seating import name_key

migrations = Migrations("scorekeeper")


@migrations(name="0001_games_and_entries")
def _games_and_entries(db: sqlite_utils.Database) -> None:
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            record_token TEXT NOT NULL UNIQUE,
            view_token TEXT NOT NULL UNIQUE,
            code TEXT NOT NULL UNIQUE,
            rules TEXT NOT NULL,
            options TEXT NOT NULL,
            players TEXT NOT NULL,
            partnerships TEXT NOT NULL,
            first_dealer TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            version INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            hand INTEGER,
            player TEXT,
            data TEXT NOT NULL DEFAULT '{}',
            target INTEGER REFERENCES entries(id),
            idem_key TEXT NOT NULL,
            source TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (game_id, seq),
            UNIQUE (game_id, idem_key)
        )
        """
    )
    db.execute("CREATE INDEX entries_by_game ON entries (game_id, seq)")


@migrations(name="0002_events_and_director")
def _events_and_director(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE games ADD COLUMN locked INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("CREATE TABLE login_failures (id INTEGER PRIMARY KEY, address TEXT NOT NULL, at REAL NOT NULL)")
    db.execute("CREATE INDEX login_failures_by_address ON login_failures (address, at)")
    db.execute(
        """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            held_on TEXT NOT NULL,
            rules TEXT NOT NULL,
            options TEXT NOT NULL,
            scoring TEXT NOT NULL,
            partnerships TEXT NOT NULL,
            wall_token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE event_players (
            id INTEGER PRIMARY KEY,
            event_id INTEGER NOT NULL REFERENCES events(id),
            name TEXT NOT NULL,
            club TEXT NOT NULL DEFAULT '',
            number TEXT NOT NULL DEFAULT '',
            UNIQUE (event_id, name)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE event_tables (
            id INTEGER PRIMARY KEY,
            event_id INTEGER NOT NULL REFERENCES events(id),
            round INTEGER NOT NULL,
            number INTEGER NOT NULL,
            game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
            UNIQUE (event_id, round, number)
        )
        """
    )


@migrations(name="0003_verification")
def _verification(db: sqlite_utils.Database) -> None:
    db.execute("ALTER TABLE events ADD COLUMN verify INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN verify INTEGER NOT NULL DEFAULT 0")


@migrations(name="0004_house_rules")
def _house_rules(db: sqlite_utils.Database) -> None:
    """Each save of a house game is a new row; a name's latest row is its definition now."""
    db.execute(
        """
        CREATE TABLE house_rules (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL COLLATE NOCASE,
            definition TEXT NOT NULL,
            replaces INTEGER REFERENCES house_rules(id),
            saved_at TEXT NOT NULL,
            UNIQUE (replaces)
        )
        """
    )
    db.execute("CREATE INDEX house_rules_by_name ON house_rules (name, id)")


@migrations(name="0005_director_sessions")
def _director_sessions(db: sqlite_utils.Database) -> None:
    """A row per director login, so that logging out or a new password ends it on the server."""
    db.execute("CREATE TABLE director_sessions (id TEXT PRIMARY KEY, expires_at REAL NOT NULL)")


@migrations(name="0006_join_failures")
def _join_failures(db: sqlite_utils.Database) -> None:
    """Wrong join codes of the last minute, by address: a join code is a password to throttle."""
    db.execute("CREATE TABLE join_failures (id INTEGER PRIMARY KEY, address TEXT NOT NULL, at REAL NOT NULL)")
    db.execute("CREATE INDEX join_failures_by_address ON join_failures (address, at)")
    db.execute("CREATE INDEX join_failures_by_time ON join_failures (at)")


@migrations(name="0007_entry_addresses")
def _entry_addresses(db: sqlite_utils.Database) -> None:
    """The network address each change came from: with verification on, a second phone is told
    apart by it as well as by its cookie, which clearing the browser's data would renew."""
    db.execute("ALTER TABLE entries ADD COLUMN address TEXT NOT NULL DEFAULT ''")


@migrations(name="0008_event_paper")
def _event_paper(db: sqlite_utils.Database) -> None:
    """The paper an event prints on (a4 or letter), chosen when it is made."""
    db.execute("ALTER TABLE events ADD COLUMN paper TEXT NOT NULL DEFAULT 'a4'")


@migrations(name="0009_event_plans")
def _event_plans(db: sqlite_utils.Database) -> None:
    """An event planned whole: its rounds, the plan (JSON) and what it was made for, when a
    plan began to be made; each player's first round and the round they withdrew from; the
    tables seated otherwise than planned; how a sit-out counts; the director's changes."""
    db.execute("ALTER TABLE events ADD COLUMN rounds INTEGER")
    db.execute("ALTER TABLE events ADD COLUMN plan TEXT")
    db.execute("ALTER TABLE events ADD COLUMN plan_basis TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE events ADD COLUMN planning_since REAL")
    db.execute("ALTER TABLE events ADD COLUMN sit_out TEXT NOT NULL DEFAULT 'average'")
    db.execute("ALTER TABLE event_players ADD COLUMN arrives INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE event_players ADD COLUMN leaves INTEGER")
    db.execute("ALTER TABLE event_tables ADD COLUMN by_hand INTEGER NOT NULL DEFAULT 0")
    db.execute(
        """
        CREATE TABLE event_history (
            id INTEGER PRIMARY KEY,
            event_id INTEGER NOT NULL REFERENCES events(id),
            at TEXT NOT NULL,
            what TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT ''
        )
        """
    )


@migrations(name="0010_club")
def _club(db: sqlite_utils.Database) -> None:
    """The club across its events: members (a membership number identifies one; a name may be
    shared or change its spelling), each event player's member, when a table was locked (a
    locked table finished then, for the ratings' order), events deleted from the list but kept
    for the club's record, the club's history of the director's changes, each final table's
    result and each event's standings as the club reads them (derived from the games, kept for
    speed: ``club_signature`` says what they were derived from), ratings with the model that
    made them, and seasons of events (``idem_key``: the key of the form that made one, so that a
    double click makes one season). A member merged into another (one person entered twice)
    leaves the list but keeps its row (``merged_into``), so that the merge can be undone; the
    spellings a member's name had before (``former_names``) are kept so that removing the name
    removes them too. Every player of an event before this becomes a member: one per
    membership number, else one per name."""
    db.execute(
        """
        CREATE TABLE members (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            club TEXT NOT NULL DEFAULT '',
            number TEXT,
            number_key TEXT UNIQUE,
            initials INTEGER NOT NULL DEFAULT 0,
            removed INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            merged_into INTEGER REFERENCES members(id),
            former_names TEXT NOT NULL DEFAULT '[]'
        )
        """
    )
    db.execute("CREATE INDEX members_by_name ON members (name_key)")
    db.execute("CREATE INDEX members_merged ON members (merged_into)")
    db.execute("ALTER TABLE event_players ADD COLUMN member_id INTEGER REFERENCES members(id)")
    db.execute("CREATE INDEX event_players_by_member ON event_players (member_id)")
    db.execute("ALTER TABLE games ADD COLUMN locked_at TEXT")
    db.execute("ALTER TABLE events ADD COLUMN deleted_at TEXT")
    db.execute("ALTER TABLE events ADD COLUMN club_signature TEXT NOT NULL DEFAULT ''")
    db.execute(
        """
        CREATE TABLE club_history (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            who TEXT NOT NULL,
            what TEXT NOT NULL,
            undo TEXT,
            undone_at TEXT
        )
        """
    )
    db.execute(
        """
        CREATE TABLE club_tables (
            id INTEGER PRIMARY KEY,
            event_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            number INTEGER NOT NULL,
            finished_at TEXT NOT NULL,
            result TEXT NOT NULL,
            ranking BLOB NOT NULL,
            rated INTEGER NOT NULL DEFAULT 0,
            UNIQUE (event_id, round, number)
        )
        """
    )
    db.execute("CREATE INDEX club_tables_in_order ON club_tables (finished_at, event_id, round, number)")
    db.execute(
        """
        CREATE TABLE club_seats (
            table_id INTEGER NOT NULL REFERENCES club_tables(id) ON DELETE CASCADE,
            member_id INTEGER NOT NULL,
            side INTEGER NOT NULL,
            total INTEGER NOT NULL,
            place INTEGER NOT NULL,
            won INTEGER NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX club_seats_by_member ON club_seats (member_id)")
    db.execute("CREATE INDEX club_seats_by_table ON club_seats (table_id)")
    db.execute(
        """
        CREATE TABLE club_standings (
            event_id INTEGER NOT NULL,
            member_id INTEGER NOT NULL,
            place INTEGER NOT NULL,
            total INTEGER NOT NULL,
            tables INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            missed INTEGER NOT NULL,
            ranked INTEGER NOT NULL,
            provisional INTEGER NOT NULL,
            PRIMARY KEY (event_id, member_id)
        )
        """
    )
    db.execute("CREATE INDEX club_standings_by_member ON club_standings (member_id)")
    db.execute(
        """
        CREATE TABLE ratings (
            member_id INTEGER PRIMARY KEY,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            tables INTEGER NOT NULL,
            history BLOB NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE seasons (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            rule TEXT NOT NULL,
            best INTEGER,
            paper TEXT NOT NULL DEFAULT 'a4',
            wall_token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            idem_key TEXT UNIQUE
        )
        """
    )
    db.execute(
        """
        CREATE TABLE season_events (
            season_id INTEGER NOT NULL REFERENCES seasons(id),
            event_id INTEGER NOT NULL REFERENCES events(id),
            PRIMARY KEY (season_id, event_id)
        )
        """
    )
    _players_become_members(db)


@migrations(name="0011_game_starts")
def _game_starts(db: sqlite_utils.Database) -> None:
    """Games started and imported of the last hour, by network (the budget on new games), and
    which imported games nobody has opened yet (swept away after a day)."""
    db.execute(
        "CREATE TABLE game_starts (id INTEGER PRIMARY KEY, network TEXT NOT NULL, kind TEXT NOT NULL, at REAL NOT NULL)"
    )
    db.execute("CREATE INDEX game_starts_by_network ON game_starts (network, at)")
    db.execute("CREATE INDEX game_starts_by_time ON game_starts (at)")
    db.execute("ALTER TABLE games ADD COLUMN unopened_import INTEGER NOT NULL DEFAULT 0")
    db.execute("CREATE INDEX games_unopened_imports ON games (created_at) WHERE unopened_import = 1")


def _players_become_members(db: sqlite_utils.Database) -> None:
    at = datetime.now(UTC).isoformat(timespec="seconds")
    by_number: dict[str, int] = {}
    by_name: dict[str, int] = {}
    rows = db.execute("SELECT id, name, club, number FROM event_players ORDER BY event_id, id").fetchall()
    for player_id, name, club, number in rows:  # oldest first: a later spelling of a number renames
        number_key = number.strip().casefold() or None
        key = name_key(name)
        member = by_number.get(number_key) if number_key else by_name.get(key)
        if member is None:
            cursor = db.conn.execute(
                "INSERT INTO members (name, name_key, club, number, number_key, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [name, key, club, number.strip() or None, number_key, at],
            )
            member = int(cursor.lastrowid or 0)
            if number_key:
                by_number[number_key] = member
            else:
                by_name[key] = member
        elif number_key:
            db.conn.execute(
                "UPDATE members SET name = ?, name_key = ? WHERE id = ? AND name_key != ?", [name, key, member, key]
            )
        db.conn.execute("UPDATE event_players SET member_id = ? WHERE id = ?", [member, player_id])


@migrations(name="0012_results_a_director_can_defend")
def _results_a_director_can_defend(db: sqlite_utils.Database) -> None:
    """How a table locked part-way counts (its treatment, the adjusted level, the director's reason;
    the column's default is the treatment that never rewards stopping, so every way of locking gets
    it), after which hand it was locked; whether withdrawn players rank with the rest or below;
    and the director's penalties (points on a player in a round, or on every player of a table),
    withdrawn by a date, never deleted, so the history keeps them."""
    db.execute("ALTER TABLE event_tables ADD COLUMN short_treatment TEXT NOT NULL DEFAULT 'prorated'")
    db.execute("ALTER TABLE event_tables ADD COLUMN short_level TEXT NOT NULL DEFAULT 'average'")
    db.execute("ALTER TABLE event_tables ADD COLUMN short_reason TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE events ADD COLUMN withdrawn_ranked TEXT NOT NULL DEFAULT 'with-the-rest'")
    db.execute(
        "CREATE TABLE event_penalties (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), "
        "round INTEGER NOT NULL, table_number INTEGER NOT NULL, player TEXT NOT NULL, points INTEGER NOT NULL, "
        "reason TEXT NOT NULL, given_at TEXT NOT NULL, withdrawn_at TEXT)"
    )
    db.execute("CREATE INDEX event_penalties_by_event ON event_penalties (event_id)")


@migrations(name="0013_evening")
def _evening(db: sqlite_utils.Database) -> None:
    """The evening as it happens: how often what a table's phones show beside its log changed
    (its lock, its round's clock: so that a phone following the game hears of it as of a
    change), the event's option to lock a table when its game ends, and
    each round's clock (its deadline while running, the time left while paused)."""
    db.execute("ALTER TABLE games ADD COLUMN notices INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE events ADD COLUMN lock_at_end INTEGER NOT NULL DEFAULT 0")
    db.execute(
        """
        CREATE TABLE round_clocks (
            event_id INTEGER NOT NULL REFERENCES events (id),
            round INTEGER NOT NULL,
            length REAL NOT NULL,
            deadline REAL,
            paused_left REAL,
            stopped INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (event_id, round)
        )
        """
    )
    db.execute(
        "CREATE INDEX round_clocks_running ON round_clocks (deadline) WHERE stopped = 0 AND deadline IS NOT NULL"
    )


@migrations(name="0014_event_odd_tables")
def _event_odd_tables(db: sqlite_utils.Database) -> None:
    """What takes up the players an event's tables of four leave over: 'usual' (a five for one,
    threes for two or three), 'threes' or 'fives' (``tournament.seating.ODD_TABLES``)."""
    db.execute("ALTER TABLE events ADD COLUMN odd_tables TEXT NOT NULL DEFAULT 'usual'")


@migrations(name="0014_table_seated_by")
def _table_seated_by(db: sqlite_utils.Database) -> None:
    """How a round's tables were seated when not by the plan nor by hand: '' or, say, 'the
    standings after round 2' (the round sheet and the history say it)."""
    db.execute("ALTER TABLE event_tables ADD COLUMN seated_by TEXT NOT NULL DEFAULT ''")


@migrations(name="0015_table_locked_at_time")
def _table_locked_at_time(db: sqlite_utils.Database) -> None:
    """Whether a table's lock came from its round's clock at time (1) rather than from the
    director, a round's *Lock finished tables* or its game's end: its phones say which."""
    db.execute("ALTER TABLE event_tables ADD COLUMN locked_at_time INTEGER NOT NULL DEFAULT 0")


@migrations(name="0016_table_locked_by")
def _table_locked_by(db: sqlite_utils.Database) -> None:
    """Who locked a table: 'director' (the director's button), 'time' (the round's clock),
    'evening' (its game ended, or a round's finished tables locked together); '' for a lock made
    before this was kept. A short table's sheet says which ("locked by the director", "at time");
    it takes the place of 0015's ``locked_at_time``."""
    db.execute("ALTER TABLE event_tables ADD COLUMN locked_by TEXT NOT NULL DEFAULT ''")
    db.execute("UPDATE event_tables SET locked_by = 'time' WHERE locked_at_time = 1")
    db.execute("ALTER TABLE event_tables DROP COLUMN locked_at_time")
