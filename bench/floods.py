"""Floods through the front door: another table's saves while importers post the largest record
the limits allow, all at once and again and again, beside the same saves on the idle server.

`scorekeeper serve` as `make run` starts it, on loopback, with the budget on new games lifted
(so that every import reaches the check: what is measured is each worker's one turn for
records, the budget's worst case) and 127.0.0.1 named as the proxy, each importer its own
network by its ``X-Forwarded-For``. Every loop is bounded in time.
"""

from __future__ import annotations

import http.cookiejar
import json
import multiprocessing
import statistics
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import DATABASE_FILE, connect, migrate

from . import scaled
from .games import largest_record
from .phone import Phone
from .servers import app_server, percentile

IMPORTERS = scaled(16, 2)
SECONDS = scaled(20.0, 2.0)
IDLE_SECONDS = scaled(5.0, 1.0)
#: The saving table's pause between saves (a busy table, not a load generator).
PAUSE = 0.02
#: The budget lifted, and the importers' proxy named: every import reaches the check.
LIFTED = (
    "START_LIMIT_PER_NETWORK = 10**6\nSTART_LIMIT_STARTED = 10**6\nSTART_LIMIT_IMPORTED = 10**6\n"
    "TRUSTED_PROXIES = '127.0.0.1'\n"
)


@dataclass(frozen=True)
class Flood:
    """Each save's latency in seconds, and how the imports were answered (status: count)."""

    saves: list[float]
    imports: Counter[int]

    def p99(self) -> float:
        return percentile(self.saves, 0.99)


def prepare(folder: Path, games: int = 2, lifted: bool = True) -> list[str]:
    """The instance folder, the importers' proxy named and the budget lifted (unless not
    ``lifted``), and ``games`` games to save to: their record tokens."""
    (folder / "config.py").write_text(LIFTED if lifted else "TRUSTED_PROXIES = '127.0.0.1'\n")
    path = str(folder / DATABASE_FILE)
    migrate(path)
    db = connect(path)
    try:
        return [storage.create_game(db, Game(configure("crates"), ("Ann", "Bob"))).record_token for _ in range(games)]
    finally:
        db.conn.close()


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def import_post(base: str, text: str, network: str, timeout: float = 60) -> int:
    """One import as a browser without JavaScript posts it (its own session and token), from
    ``network`` as the proxy names it: the status (302 stored)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _Stay())
    headers = {"X-Forwarded-For": network}
    with opener.open(urllib.request.Request(base + "/csrf", headers=headers), timeout=timeout) as response:
        token = json.loads(response.read())["token"]
    body = urllib.parse.urlencode({"csrf_token": token, "text": text}).encode()
    try:
        with opener.open(urllib.request.Request(base + "/import", body, headers, method="POST"), timeout=timeout) as r:
            return int(r.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _importer(base: str, text: str, network: str, seconds: float, ready: Any, go: Any, results: Any) -> None:
    """One importer, in a process of its own (so that the saving table's client shares no
    interpreter with it): once told to go, for ``seconds``, each import as soon as the last was
    answered; its answers' statuses are put on ``results``."""
    answered: Counter[int] = Counter()
    ready.put(network)
    go.wait(120)
    stop = time.monotonic() + seconds
    try:
        while time.monotonic() < stop:
            answered[import_post(base, text, network)] += 1
    finally:
        results.put(dict(answered))


def saves_while(base: str, token: str, seconds: float, importers: int) -> Flood:
    """A table saving notes for ``seconds`` while ``importers`` post the largest record, each as
    soon as its last was answered (all of them started and ready before the first save)."""
    text = json.dumps(largest_record())
    context = multiprocessing.get_context("spawn")
    ready, results, go = context.Queue(), context.Queue(), context.Event()
    processes = [
        context.Process(target=_importer, args=(base, text, f"10.29.{n}.1", seconds, ready, go, results), daemon=True)
        for n in range(importers)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=120)
    go.set()
    stop = time.monotonic() + seconds
    phone, waits, n = Phone(base), [], 0
    while time.monotonic() < stop:
        n += 1
        started = time.perf_counter()
        status, body = phone.post(f"/t/{token}/note", {"idem": f"note-{n}", "hand": 1, "text": f"note {n}"}, 60)
        waits.append(time.perf_counter() - started)
        if status != 200:
            raise RuntimeError(f"a save was refused: {status} {body}")
        time.sleep(PAUSE)
    answered: Counter[int] = Counter()
    for _ in processes:
        answered.update(results.get(timeout=120))
    for process in processes:
        process.join(30)
    return Flood(waits, answered)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-floods-"))
    idle_game, flood_game = prepare(folder)
    size = len(json.dumps(largest_record())) // 1000
    print(f"Floods: {IMPORTERS} importers posting the largest record ({size} KB) again and again, another table saving")
    with app_server(folder) as server:
        idle = saves_while(server.base, idle_game, IDLE_SECONDS, 0)
        flood = saves_while(server.base, flood_game, SECONDS, IMPORTERS)
    for name, run in (("idle server", idle), (f"{IMPORTERS} importers", flood)):
        median = statistics.median(run.saves) * 1000
        print(f"  a save, {name:<14} p50 {median:7.1f} ms  p99 {run.p99() * 1000:7.1f} ms  ({len(run.saves)} saves)")
    print(
        f"  ratio: p99 while flooded / p99 idle {flood.p99() / idle.p99():6.1f}x   (aim: p99 within 1 s: {flood.p99():.2f} s)"
    )
    stored, busy = flood.imports.get(302, 0), flood.imports.get(429, 0)
    other = sum(flood.imports.values()) - stored - busy
    print(f"  imports: {stored} stored, {busy} refused while the worker checked another (429), {other} other")
