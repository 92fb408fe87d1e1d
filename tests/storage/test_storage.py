"""Storage on a real SQLite file: durability settings, migrations, all-or-nothing writes."""

import sqlite3

import pytest
import sqlite_utils

from scorekeeper.gamelog import LEFTOVERS, NOTE, PRESSURE, Change, ChangeRefusal
from scorekeeper.scoring import Game, configure
from scorekeeper.storage import game_imports
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.migrations import migrations


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "game.db")
    migrate(path)
    database = connect(path)
    yield database
    database.conn.close()


@pytest.fixture
def stored(db):
    return storage.create_game(db, Game(configure("crates"), ("Ann", "Bob")))


def test_every_connection_is_wal_with_full_sync_and_a_busy_timeout(db):
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000


def test_migrations_are_named_and_run_once(tmp_path):
    path = str(tmp_path / "m.db")
    migrate(path)
    migrate(path)
    database = connect(path)
    names = [row[0] for row in database.execute("SELECT name FROM _sqlite_migrations")]
    assert names == [
        "0001_games_and_entries",
        "0002_events_and_director",
        "0003_verification",
        "0004_house_rules",
        "0005_director_sessions",
        "0006_join_failures",
        "0007_entry_addresses",
        "0008_event_paper",
        "0009_event_plans",
        "0010_club",
        "0011_game_starts",
        "0012_results_a_director_can_defend",
        "0013_evening",
        "0014_event_odd_tables",
        "0014_table_seated_by",
        "0015_table_locked_at_time",
        "0016_table_locked_by",
    ]
    assert not migrations.pending(database)


def test_the_log_is_append_only_with_a_version_per_game(db, stored):
    storage.append(db, stored, Change(PRESSURE, 1, "Ann"), "k1", "test")
    storage.append(db, stored, Change(LEFTOVERS, 1, "Ann", {"cards": ["K"]}), "k2", "test")
    state = storage.load_state(db, stored)
    assert state.version == 2
    assert [entry.seq for entry in state.entries] == [1, 2]
    assert db.execute("SELECT version FROM games WHERE id = ?", [stored.id]).fetchone()[0] == 2


def test_a_refused_change_writes_nothing(db, stored):
    with pytest.raises(ChangeRefusal):
        storage.append(db, stored, Change(LEFTOVERS, 1, "Ann", {"cards": ["K"] * 5}), "k1", "test")
    assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 0
    assert not db.conn.in_transaction


def test_an_import_that_fails_halfway_leaves_no_game(db):
    game = Game(configure("crates"), ("Ann", "Bob"))
    changes = [
        Change(LEFTOVERS, 1, "Ann", {"cards": ["K"]}),
        Change(LEFTOVERS, 1, "Zed", {"cards": []}),
    ]
    with pytest.raises(ChangeRefusal):
        game_imports.import_game(db, game, changes, "import")
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM entries").fetchone()[0] == 0


def test_the_database_refuses_a_second_entry_with_the_same_key(db, stored):
    storage.append(db, stored, Change(PRESSURE, 1, "Ann"), "k1", "test")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO entries (game_id, seq, kind, idem_key, source, created_at) "
            "VALUES (?, 9, 'note', 'k1', 'x', 'now')",
            [stored.id],
        )


def test_games_are_found_by_their_capabilities_only(db, stored):
    assert storage.game_by_record_token(db, stored.record_token).id == stored.id
    assert storage.game_by_view_token(db, stored.view_token).id == stored.id
    assert storage.game_by_code(db, stored.code_display.lower()).id == stored.id
    assert storage.game_by_record_token(db, stored.view_token) is None
    assert storage.game_by_code(db, "") is None


def test_threads_writing_at_once_queue_and_every_write_lands(tmp_path):
    import threading

    path = str(tmp_path / "game.db")
    migrate(path)
    setup = connect(path)
    game = storage.create_game(setup, Game(configure("crates"), ("Ann", "Bob", "Cy", "Di")))
    setup.conn.close()
    failures = []

    def tap(worker: int) -> None:
        own = connect(path)
        try:
            for n in range(5):
                change = Change(NOTE, 1, None, {"text": f"phone {worker}, note {n}"})
                storage.append(own, game, change, f"w{worker}-{n}", f"phone {worker}")
        except Exception as error:  # noqa: BLE001 - every failure is reported below
            failures.append(error)
        finally:
            own.conn.close()

    threads = [threading.Thread(target=tap, args=(worker,)) for worker in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    check = connect(path)
    assert storage.load_state(check, game).version == 60
    check.conn.close()


def test_a_write_that_cannot_get_its_turn_is_told_the_database_is_locked(tmp_path, monkeypatch):
    import threading

    from scorekeeper.storage import database

    path = str(tmp_path / "game.db")
    migrate(path)
    monkeypatch.setattr(database, "BUSY_TIMEOUT_SECONDS", 0.2)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        own = connect(path)
        with database.immediate(own):
            holding.set()
            release.wait(5)
        own.conn.close()

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(5)
    other = connect(path)
    try:
        with pytest.raises(sqlite3.OperationalError, match="database is locked"):
            with database.immediate(other):
                pass
    finally:
        release.set()
        holder.join()
        other.conn.close()


def test_a_table_locked_at_time_before_locks_said_who_is_still_said_locked_at_time(tmp_path):
    """0016 keeps who locked a table in one column: a lock 0015 marked as the clock's stays the clock's."""
    from scorekeeper.storage.migrations import migrations

    db = sqlite_utils.Database(str(tmp_path / "old.db"))
    migrations.apply(db, stop_before="0016_table_locked_by")
    db.execute("PRAGMA foreign_keys = OFF")
    columns = [column.name for column in db["event_tables"].columns]
    row = {name: 0 for name in columns if name not in ("id",)} | {"locked_at_time": 1}
    db["event_tables"].insert({**{name: "" for name in row if db["event_tables"].columns_dict[name] is str}, **row})
    migrations.apply(db)
    tables = db["event_tables"]
    assert "locked_at_time" not in tables.columns_dict
    assert [found["locked_by"] for found in tables.rows] == ["time"]
