"""The instance folder's files are readable by their owner only; a backup is whole or absent."""

import os
import resource
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.events import EventPlayer
from scorekeeper.tournament.seating import MAX_EVENT_PLAYERS
from tests.support.web import Table, create_director
from tests.web.test_events import (
    PASSWORD,
    booklet_form,
    new_event,
    record_links,
    seat_next_round,
    set_up_director,
    wait_for_booklet,
)

SCRIPT = Path(sys.executable).parent / "scorekeeper"
PLAYERS = 5000


@pytest.fixture
def umask_022():
    """The usual umask, under which a file created without a mode is readable by everyone."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.fixture
def instance(tmp_path, umask_022):
    """A fresh instance folder holding a director password and an event of many players."""
    folder = tmp_path / "instance"
    env = create_director(folder, PASSWORD)
    db = connect(str(folder / "scorekeeper.db"))
    players = [EventPlayer(f"Player {i:05d}", "Boston BC", str(i)) for i in range(PLAYERS)]
    for first in range(0, PLAYERS, MAX_EVENT_PLAYERS):  # a season of club nights
        night = players[first : first + MAX_EVENT_PLAYERS]
        event_store.create_event(db, "Club night", "2026-11-22", "crates", {}, "total", "none", night)
    db.conn.close()
    return env


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def backup(env, target, **options):
    return subprocess.run([str(SCRIPT), "backup", str(target)], env=env, capture_output=True, text=True, **options)


def test_a_good_backup_has_the_tables_and_data_and_only_its_owner_reads_it(instance, tmp_path):
    target = tmp_path / "copy.db"
    result = backup(instance, target)
    assert result.returncode == 0, result.stderr
    assert mode(target) == 0o600
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT COUNT(*) FROM settings").fetchone()[0] == 1
    assert copy.execute("SELECT COUNT(*) FROM event_players").fetchone()[0] == PLAYERS
    assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, nothing beside it
    copy.close()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["copy.db", "instance"]


def test_a_backup_whose_copy_fails_part_way_leaves_no_file_at_its_name(instance, tmp_path):
    size = os.path.getsize(Path(instance["SCOREKEEPER_INSTANCE"]) / "scorekeeper.db")
    assert size > 200_000

    def files_of_at_most_128_kb():  # writing past it fails with EFBIG, halfway through the copy
        resource.setrlimit(resource.RLIMIT_FSIZE, (128 * 1024, 128 * 1024))

    target = tmp_path / "copy.db"
    result = backup(instance, target, preexec_fn=files_of_at_most_128_kb)
    assert result.returncode == 1 and result.stderr.startswith("scorekeeper: error: backup failed")
    assert result.stderr.count("\n") == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["instance"]  # nor a partial copy beside it
    assert backup(instance, target).returncode == 0


def test_a_backup_killed_part_way_leaves_no_file_at_its_name(instance, tmp_path):
    db = connect(str(Path(instance["SCOREKEEPER_INSTANCE"]) / "scorekeeper.db"))
    db.execute("CREATE TABLE ballast (data BLOB)")
    db.execute("INSERT INTO ballast VALUES (zeroblob(32 * 1024 * 1024))")  # a copy that takes a while
    db.conn.close()
    for attempt in range(5):
        folder = tmp_path / f"backups-{attempt}"
        folder.mkdir()
        target = folder / "copy.db"
        running = subprocess.Popen([str(SCRIPT), "backup", str(target)], env=instance)
        deadline = time.monotonic() + 30
        while not any(folder.iterdir()) and running.poll() is None and time.monotonic() < deadline:
            pass
        running.send_signal(signal.SIGSTOP)  # as soon as the copy has a file: the copy is under way
        finished_first = target.exists()  # a machine so busy that the copy ended before the stop: again
        running.send_signal(signal.SIGKILL)
        running.wait()
        if not finished_first:
            assert running.returncode == -signal.SIGKILL
            break
    assert not finished_first, "the copy ended before it could be stopped, five times"
    assert not target.exists()
    left = [path.name for path in folder.iterdir()]
    assert left and all(name.startswith(".copy.db.") for name in left)  # killed while filling the hidden copy


def test_the_instance_files_are_readable_by_their_owner_only(tmp_path, umask_022, monkeypatch):
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    app = create_app({"TESTING": True})
    keeper = connect(str(folder / "scorekeeper.db"))  # kept open, so that the -wal and -shm stay
    keeper.execute("SELECT COUNT(*) FROM games").fetchone()
    client = app.test_client()
    set_up_director(client)
    event_url = new_event(client, ["Ann", "Bob"])
    seat_next_round(client, event_url)
    Table(client, record_links(client, event_url)[0]).pressure("Ann", 1)
    started = client.post(event_url + "/booklet", data=booklet_form(client, event_url))
    wait_for_booklet(client, started.headers["Location"])
    files = {path.relative_to(folder).as_posix(): mode(path) for path in folder.rglob("*") if path.is_file()}
    keeper.conn.close()
    assert {"scorekeeper.db", "scorekeeper.db-wal", "scorekeeper.db-shm", "secret_key"} <= set(files)
    assert any(name.startswith("booklets/") and name.endswith(".pdf") for name in files)
    assert {name: oct(value) for name, value in files.items() if value != 0o600} == {}


def test_a_new_connection_leaves_the_locks_of_the_others_in_the_process_alone(tmp_path):
    """Creating the database 0600 must not open (and close) an existing file: that drops SQLite's locks.

    A connection in WAL mode holds a shared lock on the database file; a connection of
    another process that closes and finds no such lock believes it is the last one, and
    checkpoints and deletes the -wal under the feet of the one still open.
    """
    path = str(tmp_path / "scorekeeper.db")
    migrate(path)
    kept = connect(path)
    try:
        kept.execute("SELECT COUNT(*) FROM games").fetchone()
        connect(path).conn.close()
        other = f"import sqlite3; c = sqlite3.connect({path!r}); c.execute('SELECT 1 FROM games'); c.close()"
        subprocess.run([sys.executable, "-c", other], check=True)
        assert Path(path + "-wal").exists()
    finally:
        kept.conn.close()


def test_a_backup_of_an_instance_that_does_not_exist_is_refused_and_creates_nothing(tmp_path):
    missing = tmp_path / "no-such-instance"
    result = subprocess.run(
        [str(SCRIPT), "backup", str(tmp_path / "copy.db")],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(missing)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"scorekeeper: error: there is no database at {missing}/scorekeeper.db: check SCOREKEEPER_INSTANCE"
    ]
    assert not missing.exists() and not (tmp_path / "copy.db").exists()
