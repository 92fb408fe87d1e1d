"""No request stalls the others: a record is checked in one pass before the write lock is taken,
and the lock is held only to store what was checked. The limits a hostile record meets."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.games import largest_record
from bench.phone import Phone, Unreachable
from scorekeeper.gamelog import MAX_ENTRIES, MAX_PRESSURES_IN_A_HAND, PRESSURE, Change, ChangeRefusal
from scorekeeper.scoring import Game, configure
from scorekeeper.storage import database, game_imports
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.exchange import import_changes
from scorekeeper.tournament.seating import MAX_EVENT_PLAYERS
from tests.storage.test_durability import free_port

BIN = Path(sys.executable).parent


@contextmanager
def lock_holds(monkeypatch: pytest.MonkeyPatch):
    """Every time a write transaction holds the lock, in seconds."""
    held: list[float] = []
    real = database.immediate

    @contextmanager
    def timed(db):  # type: ignore[no-untyped-def]
        with real(db) as inside:
            start = time.perf_counter()
            try:
                yield inside
            finally:
                held.append(time.perf_counter() - start)

    for module in (storage, game_imports):  # a save's transactions, and an import's
        monkeypatch.setattr(module, "immediate", timed)
    yield held


def test_the_largest_record_is_exactly_at_the_limits():
    record, changes = import_changes(largest_record())
    assert len(changes) == MAX_ENTRIES
    assert len(json.dumps(largest_record())) < 200_000
    in_play = [c for c in changes if c.kind == PRESSURE and c.hand == 15]
    assert len(in_play) == MAX_PRESSURES_IN_A_HAND


@pytest.mark.timed
def test_the_largest_record_is_stored_holding_the_write_lock_a_few_milliseconds(tmp_path, monkeypatch):
    path = str(tmp_path / "hall.db")
    migrate(path)
    db = connect(path)
    record, changes = import_changes(largest_record())
    with lock_holds(monkeypatch) as held:
        started = time.perf_counter()
        stored = game_imports.import_game(db, record.game, changes, "import")
        took = time.perf_counter() - started
    state = storage.load_state(db, stored)
    assert state.version == MAX_ENTRIES and state.current_hand == 15
    assert len(state.pending_pressures()) == MAX_PRESSURES_IN_A_HAND
    # The checking happens before the lock; the lock only stores, one statement for all entries.
    assert len(held) == 1 and held[0] < 0.1, (held, took)
    db.conn.close()


def locked_when_called(monkeypatch: pytest.MonkeyPatch, name: str, module: object = storage) -> list[bool]:
    """Whether the write lock was held each time ``module`` of storage called ``name`` (of gamelog)."""
    seen: list[bool] = []
    inside = threading.local()
    real_check, real_lock = getattr(module, name), database.immediate

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(getattr(inside, "locked", False))
        return real_check(*args, **kwargs)

    @contextmanager
    def marked(db):  # type: ignore[no-untyped-def]
        with real_lock(db) as held:
            inside.locked = True
            try:
                yield held
            finally:
                inside.locked = False

    monkeypatch.setattr(module, name, watched)
    monkeypatch.setattr(module, "immediate", marked)
    return seen


def test_a_record_is_checked_before_the_lock_is_taken(tmp_path, monkeypatch):
    path = str(tmp_path / "hall.db")
    migrate(path)
    db = connect(path)
    record, changes = import_changes(largest_record())
    checked = locked_when_called(monkeypatch, "accept_record", game_imports)
    game_imports.import_game(db, record.game, changes, "import")
    assert checked == [False]
    db.conn.close()


def test_a_save_is_checked_before_the_lock_is_taken(tmp_path, monkeypatch):
    """Between the check and the lock, only the version is compared and the entry inserted: the
    engine is not asked again under the lock."""
    path = str(tmp_path / "game.db")
    migrate(path)
    db = connect(path)
    stored = storage.create_game(db, Game(configure("crates"), ("Ann", "Bob", "Cy", "Di")))
    checked = locked_when_called(monkeypatch, "take")
    storage.append(db, stored, Change(PRESSURE, 1, "Ann"), "k1", "test")
    assert checked == [False]
    db.conn.close()


def test_a_change_that_loses_a_race_is_checked_again_against_what_won(tmp_path, monkeypatch):
    """Two phones check their leftovers for Ann against the same state; the second to reach the
    lock finds the version moved on and is checked again: refused as stale, not stored twice."""
    path = str(tmp_path / "game.db")
    migrate(path)
    db = connect(path)
    stored = storage.create_game(db, Game(configure("crates"), ("Ann", "Bob", "Cy", "Di")))
    other = connect(path)
    real_take = storage.take
    raced: list[bool] = []

    def take_then_lose_the_race(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real_take(*args, **kwargs)
        if not raced:
            raced.append(True)
            storage.append(other, stored, Change("leftovers", 1, "Ann", {"cards": ["K"]}), "phone-b", "phone b")
        return result

    monkeypatch.setattr(storage, "take", take_then_lose_the_race)
    with pytest.raises(ChangeRefusal, match="were entered meanwhile"):
        storage.append(db, stored, Change("leftovers", 1, "Ann", {"cards": ["Q"]}), "phone-a", "phone a")
    state = storage.load_state(db, stored)
    assert [entry.idem_key for entry in state.entries] == ["phone-b"]
    db.conn.close()
    other.conn.close()


def test_a_record_past_the_limits_is_refused_saying_which(tmp_path):
    path = str(tmp_path / "hall.db")
    migrate(path)
    db = connect(path)
    hostile = largest_record()
    hostile["in_play"]["pressures"].append("Ann")  # type: ignore[index]
    record, changes = import_changes(hostile)
    with pytest.raises(ChangeRefusal, match="changes; a game holds at most 2000"):
        game_imports.import_game(db, record.game, changes, "import")
    hostile = largest_record()
    hostile["in_play"]["notes"] = []  # type: ignore[index]
    hostile["in_play"]["pressures"].append("Ann")  # type: ignore[index]
    record, changes = import_changes(hostile)
    with pytest.raises(ChangeRefusal, match="Hand 15 holds more than 50 pressures"):
        game_imports.import_game(db, record.game, changes, "import")
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    db.conn.close()


def test_a_fifty_first_pressure_in_a_hand_is_refused_beside_the_player(tmp_path):
    path = str(tmp_path / "game.db")
    migrate(path)
    db = connect(path)
    stored = storage.create_game(db, Game(configure("crates"), ("Ann", "Bob", "Cy", "Di")))
    for n in range(MAX_PRESSURES_IN_A_HAND):
        storage.append(db, stored, Change(PRESSURE, 1, "Ann"), f"k{n}", "test")
    with pytest.raises(ChangeRefusal, match="Hand 1 has 50 pressures already") as refused:
        storage.append(db, stored, Change(PRESSURE, 1, "Bob"), "k-last", "test")
    assert refused.value.field == "player"
    db.conn.close()


@pytest.fixture
def server(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [str(BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            Phone(base).get_json("/csrf", timeout=1)
            break
        except Unreachable:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
    yield base
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def form_post(base: str, path: str, data: dict[str, str], timeout: float = 60) -> tuple[int, str]:
    """A plain form post as a browser without JavaScript makes it (its own session and token):
    the status and where it redirects to."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _Stay())
    with opener.open(base + "/csrf", timeout=timeout) as response:
        token = json.loads(response.read())["token"]
    body = urllib.parse.urlencode({"csrf_token": token, **data}).encode()
    try:
        with opener.open(urllib.request.Request(base + path, data=body, method="POST"), timeout=timeout) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


def _new_game(base: str) -> str:
    form = {"players-0": "Ann", "players-1": "Bob", "rules": "crates", "first_dealer": "0", "option_decks": "1"}
    status, location = form_post(base, "/new", form)
    assert status == 302, status
    return location.split("/t/")[1].split("/")[0]


@pytest.mark.timed
def test_another_table_keeps_saving_while_the_largest_record_is_imported(server):
    """The attack of issue 21 (an import holding the write lock for a minute, every other table's
    save a 500 after 10 s) at the largest size the limits allow: saves stay prompt."""
    saver = Phone(server)
    token = _new_game(server)
    text = json.dumps(largest_record())
    imports_done = threading.Event()
    results: list[tuple[int, str]] = []

    def attack() -> None:
        for _ in range(3):
            results.append(form_post(server, "/import", {"text": text}))
        imports_done.set()

    thread = threading.Thread(target=attack)
    thread.start()
    waits: list[float] = []
    n = 0
    while not imports_done.is_set() or n < 20:
        n += 1
        started = time.perf_counter()
        status, body = saver.post(f"/t/{token}/note", {"idem": f"note-{n}", "hand": 1, "text": f"note {n}"})
        waits.append(time.perf_counter() - started)
        assert status == 200, body
    thread.join(timeout=120)
    assert [status for status, _ in results] == [302, 302, 302], results
    assert max(waits) < 2.0, (max(waits), statistics.median(waits))


def test_an_event_of_more_players_than_the_limit_is_refused_beside_the_list_keeping_it(client):
    from tests.web.test_events import event_form, log_in, set_up_director

    set_up_director(client)
    log_in(client)
    players = [f"Player {n:03d}" for n in range(MAX_EVENT_PLAYERS + 1)]
    response = client.post("/director/events/new", data=event_form(client, players))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f"An event seats at most {MAX_EVENT_PLAYERS} players; this list has {MAX_EVENT_PLAYERS + 1}." in page
    assert "Player 300" in page  # what was typed is still there


def test_the_largest_event_seats_its_first_round_through_the_form(client):
    """300 players with names of the longest length: the proposal fits the seating form's limit."""
    from tests.web.test_events import event_form, log_in, seat_next_round, set_up_director

    set_up_director(client)
    log_in(client)
    players = [f"{n:03d}" + "x" * 27 for n in range(MAX_EVENT_PLAYERS)]
    assert all(len(name) == 30 for name in players)
    response = client.post("/director/events/new", data=event_form(client, players))
    assert response.status_code == 302
    tables = seat_next_round(client, response.headers["Location"])
    assert sorted(name for table in tables for name in table) == sorted(players)


def test_storage_refuses_an_event_past_the_limit(tmp_path):
    from scorekeeper.storage.events import EventPlayer, create_event
    from scorekeeper.tournament.seating import SeatingError

    path = str(tmp_path / "e.db")
    migrate(path)
    db = connect(path)
    players = [EventPlayer(f"P{n}", "", "") for n in range(MAX_EVENT_PLAYERS + 1)]
    with pytest.raises(SeatingError, match="at most 300 players"):
        create_event(db, "Big", "2026-11-24", "crates", {}, "total", "none", players)
    db.conn.close()
