"""Live updates over real sockets: a phone following a game by server-sent events hears of each
change at once; unknown links are not found; the process bounds its streams; without it the
pages still follow by polling."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from scorekeeper.gamelog import NOTE, Change
from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate
from tests.storage.test_durability import free_port


@pytest.fixture
def database(tmp_path) -> str:
    path = str(tmp_path / "live.db")
    migrate(path)
    return path


@pytest.fixture
def game(database):
    db = connect(database)
    stored = storage.create_game(db, Game(configure("crates"), ("Ann", "Bob")))
    db.conn.close()
    return stored


def live_process(database: str, *extra: str) -> Iterator[int]:
    port = free_port()
    command = [sys.executable, "-m", "scorekeeper.web.live", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen([*command, "--database", database, *extra], start_new_session=True)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "the live process did not start"
            time.sleep(0.05)
    try:
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


@pytest.fixture
def live(database):
    yield from live_process(database)


class Listener:
    """A phone's EventSource, as plainly as a socket can be one."""

    def __init__(self, port: int, path: str, headers: str = "") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{headers}\r\n"
        self.sock.sendall(request.encode())
        self.buffer = b""

    def head(self) -> str:
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head.decode()

    def next_message(self, timeout: float = 5) -> str:
        self.sock.settimeout(timeout)
        while b"\n\n" not in self.buffer:
            self._read()
        message, self.buffer = self.buffer.split(b"\n\n", 1)
        return message.decode()

    def next_version(self, timeout: float = 5) -> int:
        while True:
            message = self.next_message(timeout)
            if message.startswith("event: version"):
                return int(message.split("data: ")[1])

    def _read(self) -> None:
        chunk = self.sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed")
        self.buffer += chunk

    def close(self) -> None:
        self.sock.close()


def test_a_change_reaches_every_phone_following_the_game_at_once(live, database, game):
    phones = [Listener(live, f"/live/t/{game.record_token}") for _ in range(3)] + [
        Listener(live, f"/live/v/{game.view_token}")
    ]
    for phone in phones:
        head = phone.head()
        assert head.startswith("HTTP/1.1 200") and "text/event-stream" in head
        assert "Access-Control-Allow-Origin: *" in head
        assert phone.next_message().startswith("retry: ")
        assert phone.next_version() == 0
    db = connect(database)
    for version in (1, 2):
        storage.append(db, game, Change(NOTE, 1, None, {"text": f"note {version}"}), f"k{version}", "test")
        changed = time.monotonic()
        for phone in phones:
            assert phone.next_version(timeout=2) == version
        assert time.monotonic() - changed < 1.0
    db.conn.close()
    for phone in phones:
        phone.close()


def test_an_event_is_followed_by_its_wall_token(live, database):
    from scorekeeper.storage import event_rounds
    from scorekeeper.storage import events as event_store
    from scorekeeper.storage.events import EventPlayer

    db = connect(database)
    players = [EventPlayer(name, "", "") for name in ("Ann", "Bob", "Cy", "Di")]
    event = event_store.create_event(db, "Night", "2026-11-24", "crates", {}, "total", "none", players)
    wall = Listener(live, f"/live/e/{event.wall_token}")
    assert wall.head().startswith("HTTP/1.1 200")
    before = wall.next_version()
    event_rounds.add_round(db, event, [["Ann", "Bob", "Cy", "Di"]], 1)
    assert wall.next_version(timeout=2) > before
    db.conn.close()
    wall.close()


@pytest.mark.parametrize(
    "path",
    ["/live/t/no-such-token", "/live/x/abc", "/live/t/", "/live/t/a/b", "/", "/live/t/%00", "/live/t/" + "a" * 65],
)
def test_what_is_not_a_followed_link_is_not_found(live, path):
    listener = Listener(live, path)
    assert listener.head().startswith("HTTP/1.1 404")
    listener.close()


def test_a_request_that_is_not_a_get_is_not_found(live, game):
    sock = socket.create_connection(("127.0.0.1", live), timeout=5)
    sock.sendall(f"POST /live/t/{game.record_token} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert sock.recv(100).startswith(b"HTTP/1.1 404")
    sock.close()


def test_streams_past_the_bound_are_refused_with_a_time_to_come_back(database, game):
    for port in live_process(database, "--max-streams", "2"):
        held = [Listener(port, f"/live/t/{game.record_token}") for _ in range(2)]
        for listener in held:
            assert listener.head().startswith("HTTP/1.1 200")
        refused = Listener(port, f"/live/t/{game.record_token}")
        head = refused.head()
        assert head.startswith("HTTP/1.1 503") and 20 <= int(head.split("Retry-After: ")[1].split("\r\n")[0]) <= 60
        held[0].close()
        time.sleep(0.3)
        again = Listener(port, f"/live/t/{game.record_token}")
        assert again.head().startswith("HTTP/1.1 200")  # a closed stream frees its place
        for listener in (held[1], refused, again):
            listener.close()


def test_the_servers_own_machine_is_held_to_the_streams_of_one_network(database, game):
    """Behind a proxy nobody named, every phone arrives from loopback: it must not take all the
    streams there are (2,000), only one network's (100)."""
    from scorekeeper.web.live import MAX_PER_NETWORK

    for port in live_process(database):
        held = [Listener(port, f"/live/t/{game.record_token}") for _ in range(MAX_PER_NETWORK)]
        assert all(listener.head().startswith("HTTP/1.1 200") for listener in held)
        refused = Listener(port, f"/live/t/{game.record_token}")
        assert refused.head().startswith("HTTP/1.1 503")
        for listener in [*held, refused]:
            listener.close()


def forwarded_for(address: str) -> str:
    return f"X-Forwarded-For: {address}\r\n"


@contextmanager
def streams(port: int, path: str) -> Iterator[Callable[[str], str]]:
    """Open streams as phones behind a proxy: each call sends one with ``X-Forwarded-For`` and
    gives the status line it got; all are closed at the end."""
    opened: list[Listener] = []

    def open_one(forwarded: str) -> str:
        listener = Listener(port, path, forwarded_for(forwarded))
        opened.append(listener)
        return listener.head().split("\r\n")[0]

    try:
        yield open_one
    finally:
        for listener in opened:
            listener.close()


def test_behind_a_named_proxy_each_client_it_forwards_is_its_own_network(database, game):
    for port in live_process(database, "--proxy", "127.0.0.1", "--max-per-network", "2"):
        with streams(port, f"/live/t/{game.record_token}") as stream:
            assert [stream("198.51.100.1") for _ in range(3)] == [OK, OK, BUSY]
            # the proxy's own entry is the last: an earlier one is whatever the client wrote
            assert stream("203.0.113.5, 198.51.100.1") == BUSY
            assert [stream(f"2001:db8:1:2::{n}") for n in (7, 8, 9)] == [OK, OK, BUSY]  # one /64


def test_without_a_named_proxy_a_forwarded_address_is_not_believed(database, game):
    for port in live_process(database, "--max-per-network", "2"):
        with streams(port, f"/live/t/{game.record_token}") as stream:
            assert [stream(f"198.51.100.{n}") for n in (1, 2, 3)] == [OK, OK, BUSY]


OK, BUSY = "HTTP/1.1 200 OK", "HTTP/1.1 503 Service Unavailable"


def test_the_server_starts_the_live_process_with_the_trusted_proxy(monkeypatch, tmp_path):
    from scorekeeper import serve

    started: list[list[str]] = []

    class Exited:
        def __init__(self, command: list[str]) -> None:
            started.append(command)

        def poll(self) -> int:
            return 1

    monkeypatch.setattr(serve.subprocess, "Popen", Exited)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_PROXY", "10.0.0.2,10.0.0.3")
    serve.start_live("127.0.0.1", free_port(), str(tmp_path / "x.db"))
    monkeypatch.delenv("SCOREKEEPER_PROXY")
    monkeypatch.setenv("SCOREKEEPER_HTTPS", "1")
    serve.start_live("127.0.0.1", free_port(), str(tmp_path / "x.db"))
    monkeypatch.delenv("SCOREKEEPER_HTTPS")
    serve.start_live("127.0.0.1", free_port(), str(tmp_path / "x.db"))
    proxies = [command[command.index("--proxy") + 1] if "--proxy" in command else None for command in started]
    assert proxies == ["10.0.0.2,10.0.0.3", "127.0.0.1,::1", None]


def test_a_quiet_stream_says_it_is_still_there(database, game):
    for port in live_process(database, "--heartbeat", "0.3"):
        listener = Listener(port, f"/live/t/{game.record_token}")
        listener.head()
        listener.next_message()
        assert listener.next_version() == 0
        assert listener.next_message(timeout=2).startswith(": ")
        listener.close()


def test_a_phone_that_sends_nothing_is_let_go(database):
    for port in live_process(database):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /live/t/")  # and then nothing
        started = time.monotonic()
        assert sock.recv(100) == b""
        assert time.monotonic() - started < 8
        sock.close()


def test_a_phone_that_joins_just_after_a_change_does_not_hide_it_from_the_others(database, game):
    """The change lands between two looks at the database and a new phone opens its stream then:
    the phones already following are told too (the next look finds nothing new)."""
    from scorekeeper.web.live import Hub, Stream

    hub = Hub(database)
    key = ("t", game.record_token)
    first = Stream(key, "127.0.0.1")
    hub.open(first, hub.version_of(key) or 0)
    hub.check()
    db = connect(database)
    storage.append(db, game, Change(NOTE, 1, None, {"text": "a ruling"}), "k1", "test")
    db.conn.close()
    second = Stream(key, "127.0.0.1")
    hub.open(second, hub.version_of(key) or 0)
    hub.check()
    told = []
    while not first.queue.empty():
        told.append(first.queue.get_nowait())
    assert told == [0, 1]
    assert second.queue.get_nowait() == 1
