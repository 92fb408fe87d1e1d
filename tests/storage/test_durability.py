"""The server may die: kill -9 the real `make run` server while phones post; several processes write at once."""

import multiprocessing
import os
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from bench.phone import Phone, Unreachable
from bench.servers import free_port
from scorekeeper.gamelog import MAX_ENTRIES, NOTE, Change
from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate

#: Seconds of work (a slow part of the suite): `make check` leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent.parent
PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed")


def new_game(path: str) -> storage.StoredGame:
    migrate(path)
    db = connect(path)
    try:
        return storage.create_game(db, Game(configure("crates"), PLAYERS))
    finally:
        db.conn.close()


def start_server(instance: Path, port: int) -> subprocess.Popen:
    """`make run`, as a player would start it, in its own process group (so kill -9 takes all of it)."""
    process = subprocess.Popen(
        ["make", "-s", "run", "HOST=127.0.0.1", f"PORT={port}"],
        cwd=ROOT,
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    phone = Phone(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            phone.get_json("/csrf", timeout=1)
            return process
        except Unreachable:
            time.sleep(0.1)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("the server did not start")


def kill_9(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


#: What each of the four phones posts at most: together they stay under a game's limit of changes.
MOST_EACH = MAX_ENTRIES // 4 - 1


class Poster(threading.Thread):
    """A phone posting ruling notes (a hand takes at most 50 pressures, and a note is saved the same
    way); a submission not acknowledged is retried with the same key."""

    def __init__(self, name: str, port: int, token: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.name_, self.port, self.token, self.stop = name, port, token, stop
        self.phone = Phone(f"http://127.0.0.1:{port}")
        self.acked: list[str] = []
        self.pending: str | None = None
        self.count = 0
        self.errors: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            if self.pending is None:
                if self.count == MOST_EACH:
                    return
                self.count += 1
                self.pending = f"{self.name_}-{self.count}"
            try:
                status, body = self.phone.post(
                    f"/t/{self.token}/note", {"idem": self.pending, "hand": 1, "text": self.pending}, timeout=3
                )
            except Unreachable:
                time.sleep(0.05)
                continue
            if status != 200:
                self.errors.append(f"{status} {body}")
                return
            self.acked.append(self.pending)
            self.pending = None
            time.sleep(0.01)  # a phone's pace, not a flood: the four last through every restart


def test_kill_9_the_server_repeatedly_loses_nothing_and_doubles_nothing(tmp_path):
    database = tmp_path / "scorekeeper.db"
    game = new_game(str(database))
    port = free_port()
    stop = threading.Event()
    posters = [Poster(f"phone{i}", port, game.record_token, stop) for i in range(4)]
    server = start_server(tmp_path, port)
    for poster in posters:
        poster.start()
    try:
        for _ in range(4):
            time.sleep(0.8)
            kill_9(server)
            time.sleep(0.2)
            server = start_server(tmp_path, port)
        time.sleep(0.8)
        stop.set()
        for poster in posters:
            poster.join(timeout=30)
        for poster in posters:  # what was in flight when the phones stopped is sent once more
            if poster.pending:
                status, _ = poster.phone.post(
                    f"/t/{game.record_token}/note", {"idem": poster.pending, "hand": 1, "text": poster.pending}
                )
                assert status == 200
                poster.acked.append(poster.pending)
    finally:
        kill_9(server)
    assert not [error for poster in posters for error in poster.errors]
    acked = [key for poster in posters for key in poster.acked]
    assert len(acked) > 20, "too few submissions got through to prove anything"
    print(f"{len(acked)} acknowledged submissions across 4 kill -9 restarts")
    conn = sqlite3.connect(database)
    try:
        keys = [row[0] for row in conn.execute("SELECT idem_key FROM entries")]
        seqs = [row[0] for row in conn.execute("SELECT seq FROM entries ORDER BY seq")]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        version = conn.execute("SELECT version FROM games").fetchone()[0]
    finally:
        conn.close()
    assert sorted(keys) == sorted(acked)  # every acknowledged submission, each exactly once
    assert seqs == list(range(1, len(seqs) + 1)) and version == len(seqs)


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _command_line(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def test_a_worker_that_ends_leaves_the_server_answering(tmp_path):
    """A worker stopped (or ended for its time limit) is started again and the pages go on: a worker
    is a fork of the server's process, and one ending took away the socket every worker listens on
    (a 502 for every page from then on, seen in the thirteenth attack)."""
    game = new_game(str(tmp_path / "scorekeeper.db"))
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        (serve,) = [pid for pid in _children(server.pid) if b"serve" in _command_line(pid)]
        workers = [pid for pid in _children(serve) if _command_line(pid) == _command_line(serve)]
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGTERM)
        phone = Phone(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 10
        while len(set(_children(serve)) & set(workers)) == 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # until the worker is gone
        answers = []
        for n in range(20):
            status, _ = phone.post(f"/t/{game.record_token}/note", {"idem": f"after-{n}", "hand": 1, "text": "on"})
            answers.append(status)
            time.sleep(0.1)
        assert answers == [200] * 20
    finally:
        kill_9(server)


def _writer(path: str, game_id_token: str, worker: int, count: int, errors) -> None:
    db = connect(path)
    try:
        stored = storage.game_by_record_token(db, game_id_token)
        for n in range(count):
            change = Change(NOTE, 1, None, {"text": f"worker {worker}, note {n}"})
            storage.append(db, stored, change, f"w{worker}-{n}", f"worker {worker}")
    except Exception as error:  # reported to the parent, which fails the test
        errors.put(f"{type(error).__name__}: {error}")
    finally:
        db.conn.close()


def test_several_processes_writing_to_one_game_lose_nothing_and_never_lock_out(tmp_path):
    path = str(tmp_path / "shared.db")
    game = new_game(path)
    context = multiprocessing.get_context("spawn")
    errors = context.Queue()
    workers = [context.Process(target=_writer, args=(path, game.record_token, w, 60, errors)) for w in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    found = []
    while not errors.empty():
        found.append(errors.get())
    assert not found, found
    db = connect(path)
    state = storage.load_state(db, game)
    db.conn.close()
    assert state.version == 240
    assert [entry.seq for entry in state.entries] == list(range(1, 241))
    assert len({entry.idem_key for entry in state.entries}) == 240


def _hold_the_turn_and_die(path: str, holding) -> None:  # a process killed while it writes
    from scorekeeper.storage.database import immediate

    db = connect(path)
    with immediate(db):
        db.execute("INSERT INTO settings (key, value) VALUES ('half', 'written')")
        holding.set()
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_process_killed_holding_the_write_turn_holds_up_nobody(tmp_path):
    """Processes take turns to write on a lock the kernel lets go of when its holder dies: the
    next write goes through at once, and the dead one's half-written change is not there."""
    from scorekeeper.storage.database import WRITE_TURN_SUFFIX, immediate

    path = str(tmp_path / "turns.db")
    migrate(path)
    context = multiprocessing.get_context("spawn")
    holding = context.Event()
    dying = context.Process(target=_hold_the_turn_and_die, args=(path, holding))
    dying.start()
    assert holding.wait(30)
    dying.join(30)
    assert dying.exitcode == -signal.SIGKILL
    db = connect(path)
    started = time.monotonic()
    with immediate(db):
        db.execute("INSERT INTO settings (key, value) VALUES ('next', 'written')")
    assert time.monotonic() - started < 2
    assert [row[0] for row in db.execute("SELECT key FROM settings ORDER BY key")] == ["next"]
    assert os.stat(path + WRITE_TURN_SUFFIX).st_mode & 0o077 == 0
    db.conn.close()
