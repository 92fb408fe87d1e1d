"""Changes on every phone in a blink: 100 phones of a hall following 25 games by the live stream
(server-sent events from `scorekeeper serve`'s live process), while changes are posted to the real
server. For each change, the time from its answer to each follower's hearing of it; beside it, the
2-second poll the pages used before (the same figure measured in the live load's last line).
Loopback only, bounded in changes and time.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate

from . import scaled
from .phone import Phone
from .servers import app_server, percentile

GAMES = scaled(25, 2)
FOLLOWERS_EACH = 4
CHANGES = scaled(300, 6)
PAUSE = (0.02, 0.08)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _live_pid(server_pid: int) -> int | None:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"scorekeeper.web.live" in command and f"{server_pid}".encode() in command:
                return int(entry)
    return None


class Followers:
    """The phones: asyncio connections in a thread of their own, noting when each version arrives."""

    def __init__(self, live_port: int, tokens: list[str]) -> None:
        self.port, self.tokens = live_port, tokens
        #: Per game, each follower's hearings: (version, when).
        self.heard: dict[str, list[list[tuple[int, float]]]] = {}
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._run(),), daemon=True)
        self.stop: asyncio.Event | None = None
        self.connected = 0

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(30):
            raise SystemExit("live bench: the followers could not connect")

    def close(self) -> None:
        if self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(10)

    async def _run(self) -> None:
        self.stop = asyncio.Event()
        tasks = [asyncio.ensure_future(self._follow(token)) for token in self.tokens for _ in range(FOLLOWERS_EACH)]
        while self.connected < len(tasks):
            await asyncio.sleep(0.05)
        self.ready.set()
        await self.stop.wait()
        for task in tasks:
            task.cancel()

    async def _follow(self, token: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(f"GET /live/t/{token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await reader.readuntil(b"\r\n\r\n")
        mine: list[tuple[int, float]] = []
        self.heard.setdefault(token, []).append(mine)
        self.connected += 1
        try:
            while True:
                message = await reader.readuntil(b"\n\n")
                if message.startswith(b"event: version"):
                    mine.append((int(message.split(b"data: ")[1]), time.perf_counter()))
        finally:
            writer.close()


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-live-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    tokens = [storage.create_game(db, Game(configure("crates"), ("Ann", "Bob"))).record_token for _ in range(GAMES)]
    db.conn.close()
    with app_server(folder) as server:
        live_pid = None
        for _ in range(100):
            live_pid = _live_pid(server.pid)
            if live_pid:
                break
            time.sleep(0.1)
        followers = Followers(server.port + 1, tokens)
        followers.start()
        try:
            idle_from = _cpu_seconds(live_pid) if live_pid else 0.0
            time.sleep(scaled(5, 1))
            idle_cpu = (_cpu_seconds(live_pid) - idle_from) / scaled(5, 1) if live_pid else float("nan")
            poster, rng = Phone(server.base), random.Random(7)
            acked: dict[tuple[str, int], float] = {}
            for n in range(CHANGES):
                token = rng.choice(tokens)
                status, body = poster.post(f"/t/{token}/note", {"idem": f"live-{n}", "hand": 1, "text": f"ruling {n}"})
                if status != 200:
                    raise SystemExit(f"live bench: a change was refused ({status}): {body}")
                acked[(token, int(body["version"]))] = time.perf_counter()
                time.sleep(rng.uniform(*PAUSE))
            time.sleep(1.0)
        finally:
            followers.close()
    delays: list[float] = []
    missed = 0
    for (token, version), at in acked.items():
        for hearings in followers.heard.get(token, []):
            # A follower may hear two quick changes as one (the later version): it has them both.
            heard = next((when for seen, when in hearings if seen >= version), None)
            if heard is None:
                missed += 1
            else:
                delays.append(max(0.0, heard - at) * 1000)
    print(
        f"Live updates: {GAMES * FOLLOWERS_EACH} phones following {GAMES} games by server-sent events, "
        f"{len(acked)} changes posted to `scorekeeper serve`"
    )
    print(
        f"  a change heard by every phone following it: p50 {statistics.median(delays):.0f} ms, "
        f"p99 {percentile(delays, 0.99):.0f} ms, max {max(delays):.0f} ms ({len(delays)} hearings, {missed} missed) "
        "(aim p99 <= 500 ms; before: the 2 s poll, p50 about 1 s, p99 about 2 s, as measured above)"
    )
    print(f"  the live process's CPU while {GAMES * FOLLOWERS_EACH} phones wait: {idle_cpu * 100:.1f}% of a core")
