"""Nothing holds the table hostage: another table's saves while connections that never finish
hold on — ``EACH`` of each kind (idle, a head one byte every 2 s, a body one byte every 2 s, a TLS
handshake never finished; ``bench/attack.py``), reopened as soon as the server closes them, for
``SECONDS`` — beside the same saves on the same server while it is quiet. Meanwhile a phone
follows the table by the live stream and must hear every save.

`scorekeeper serve --certfile --keyfile` as a club with https runs it (the handshakes are the
front's work); loopback only, bounded in connections, saves and time.
"""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate

from . import scaled
from .phone import Phone, Unreachable
from .servers import app_server, percentile, self_signed, unverified

EACH = scaled(300, 30)
SECONDS = scaled(30, 4)
TABLES = 3
PAUSE = 0.05
PLAYERS = ("Ann", "Bob", "Cy", "Di")
LEFTOVERS_BY_SEAT = ("K 3", "A 2", "8", "9 Q")
GAMES = 60


@dataclass
class Saves:
    """Each save's answer time (ms) and the statuses that were not 200."""

    times: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    versions: list[tuple[str, int]] = field(default_factory=list)

    def line(self, name: str) -> str:
        if not self.times:
            return f"    {name:<32} no save answered"
        p50, p99 = percentile(self.times, 0.5), percentile(self.times, 0.99)
        return (
            f"    {name:<32} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   max {max(self.times):7.1f} ms   "
            f"({len(self.times)} saves, {len(self.refused)} not answered 200)"
        )


def _save(phone: Phone, path: str, data: dict[str, object], saves: Saves, lock: threading.Lock, token: str) -> None:
    start = time.perf_counter()
    try:
        status, body = phone.post(path, data, timeout=10)
    except Unreachable as error:
        status, body = 0, {"error": str(error)}
    took = (time.perf_counter() - start) * 1000
    with lock:
        saves.times.append(took)
        if status != 200:
            saves.refused.append(f"{status} {body}")
        elif isinstance(body.get("version"), int):
            saves.versions.append((token, body["version"]))


def play(base: str, tokens: list[list[str]], seconds: float) -> Saves:
    """``TABLES`` tables saving a pressure and four leftovers a hand, a save every ``PAUSE``
    seconds each, for ``seconds`` (a new game when one ends)."""
    saves, lock = Saves(), threading.Lock()
    until = time.monotonic() + seconds

    def table(index: int) -> None:
        phone = Phone(base, context=unverified())
        for token in tokens[index]:
            for hand in range(1, 16):
                steps: list[tuple[str, dict[str, object]]] = [
                    (f"/t/{token}/pressure", {"idem": f"{token}-{hand}-p", "hand": hand, "player": "Ann"})
                ]
                steps += [
                    (
                        f"/t/{token}/hand/{hand}/seat/{seat}",
                        {"idem": f"{token}-{hand}-{seat}", "cards": cards, "replaces": ""},
                    )
                    for seat, cards in enumerate(LEFTOVERS_BY_SEAT)
                ]
                for path, data in steps:
                    if time.monotonic() > until:
                        return
                    _save(phone, path, data, saves, lock, token)
                    time.sleep(PAUSE)

    threads = [threading.Thread(target=table, args=(index,)) for index in range(TABLES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return saves


class Follower:
    """A phone following one game by the live stream (TLS, on the port after the app's)."""

    def __init__(self, port: int, token: str) -> None:
        self.heard: list[int] = []
        self.sock = unverified().wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=60))
        self.sock.sendall(f"GET /live/t/{token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(4096)
                if not chunk:
                    return
                buffer += chunk
                *events, buffer = buffer.split(b"\n\n")
                for event in events:
                    for line in event.split(b"\n"):
                        if line.startswith(b"data: "):
                            self.heard.append(int(line[6:]))
        except (OSError, ssl.SSLError, ValueError):
            return

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


@dataclass
class Figures:
    quiet: Saves
    attacked: Saves
    held: dict[str, int]
    opened: dict[str, int]
    followed: int
    heard: int
    #: Whether the stream told the newest version saved (versions saved within one poll of the
    #: live process are told as the newer: a phone needs only the newest).
    heard_last: bool = False


def measure(each: int = EACH, seconds: float = SECONDS) -> Figures:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    table = Game(configure("crates"), PLAYERS)
    tokens = [[storage.create_game(db, table).record_token for _ in range(GAMES // TABLES)] for _ in range(2 * TABLES)]
    db.conn.close()
    with app_server(folder, self_signed(folder)) as app:
        quiet = play(app.base, tokens[:TABLES], min(seconds, 10))
        attacker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.attack",
                "--port",
                str(app.port),
                "--each",
                str(each),
                "--seconds",
                str(seconds + 30),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        held: dict[str, int] = {}
        opened: dict[str, int] = {}
        follower: Follower | None = None
        try:
            assert attacker.stdout is not None
            began = time.monotonic()
            for line in attacker.stdout:  # until every connection is open (at most 30 s)
                held = json.loads(line).get("open", held)
                if min(held.values()) >= each * 0.95 or time.monotonic() - began > 30:
                    break
            follower = Follower(app.port + 1, tokens[TABLES][0])
            attacked = play(app.base, tokens[TABLES:], seconds)
            time.sleep(0.5)  # the last version reaches the follower
            followed = {version for token, version in attacked.versions if token == tokens[TABLES][0]}
            heard = len(followed & set(follower.heard))
            heard_last = bool(followed) and max(followed) in follower.heard
        finally:
            if follower is not None:
                follower.close()
            attacker.terminate()
            out, _ = attacker.communicate(timeout=30)
        for line in out.splitlines():
            found = json.loads(line)
            held = found.get("open", held)
            opened = found.get("opened", opened)
    return Figures(quiet, attacked, held, opened, len(followed), heard, heard_last)


def main() -> None:
    figures = measure()
    print(
        f"Slow and idle connections: {EACH} of each kind held open against `scorekeeper serve` over https "
        f"for {SECONDS} s, while {TABLES} other tables save (a save every {PAUSE * 1000:.0f} ms each)"
    )
    print(figures.quiet.line("saves, quiet server (floor)"))
    print(figures.attacked.line("saves, under the connections"))
    quiet_p99 = percentile(figures.quiet.times, 0.99)
    attacked_p99 = percentile(figures.attacked.times, 0.99) if figures.attacked.times else float("inf")
    print(f"    ratio p99 {attacked_p99 / quiet_p99:5.1f}x   aim: every save answered 200, p99 <= 1000 ms")
    print(f"    connections open when the saves began: {figures.held}; opened in all: {figures.opened}")
    print(f"    the live stream heard {figures.heard} of {figures.followed} versions of the followed table")


if __name__ == "__main__":
    main()
