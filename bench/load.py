"""Issue 4's benchmark: 25 tables posting at once to the real server, beside a bare-insert floor.

Loopback only, bounded in requests and time. Both servers run under gunicorn with the
settings `make run` uses (2 workers x 8 threads). The app and the floor take turns for
ROUNDS rounds after one not counted (see `bench.servers`); each round's tables are new games.
"""

from __future__ import annotations

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
from .servers import APP_THREADS, app_server, floor_server, floor_work, percentile, report, retrying_post, take_turns

TABLES = scaled(25, 3)
HANDS = scaled(6, 1)
ROUNDS = scaled(3, 1)
PLAYERS = ("Ann", "Bob", "Cy", "Di")
LEFTOVERS_BY_SEAT = ("K 3", "A 2", "8", "9 Q")  # never more copies than one deck holds


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    table = Game(configure("crates"), PLAYERS)
    tokens = [[storage.create_game(db, table).record_token for _ in range(TABLES)] for _ in range(ROUNDS + 1)]
    db.conn.close()
    with app_server(folder) as app, floor_server(folder) as floor:
        print(
            f"Live load: {TABLES} tables posting at once over loopback, {HANDS} hands each, "
            f"gunicorn 2 workers x {APP_THREADS} threads (as `make run`), retries with the same key; "
            f"{ROUNDS} rounds, the app and the floor taking turns"
        )

        def play(index: int, round_: int, out: dict[str, list[float]]) -> None:
            phone, token, rng = Phone(app.base), tokens[round_][index], random.Random(index)
            for hand in range(1, HANDS + 1):
                pressure = {"idem": f"t{index}-h{hand}-p", "hand": hand, "player": rng.choice(PLAYERS)}
                out.setdefault("pressure", []).append(retrying_post(phone, f"/t/{token}/pressure", pressure)[0])
                for seat, cards in enumerate(LEFTOVERS_BY_SEAT):
                    form = {"idem": f"t{index}-h{hand}-s{seat}", "cards": cards, "replaces": ""}
                    path = f"/t/{token}/hand/{hand}/seat/{seat}"
                    out.setdefault("leftovers", []).append(retrying_post(phone, path, form)[0])

        rounds = take_turns(ROUNDS, TABLES, play, floor_work(floor.base, HANDS * (1 + len(PLAYERS))))
        report(rounds, {"pressure": "record a pressure", "leftovers": "save a player's leftovers"})
        _propagation(app.base, tokens[0][0])


def _propagation(app_base: str, token: str, observers: int = scaled(8, 2), changes: int = scaled(12, 2)) -> None:
    """How long a change on one phone takes to show on another that polls as the page does (every 2 s)."""
    poll_seconds = 2.0
    seen: list[float] = []
    done = threading.Event()
    acked_at: dict[int, float] = {}
    lock = threading.Lock()

    def observe(index: int) -> None:
        phone = Phone(app_base)
        last = phone.get_json(f"/t/{token}/version")["version"]
        time.sleep(random.Random(index).random() * poll_seconds)
        while not done.is_set():
            version = phone.get_json(f"/t/{token}/version")["version"]
            now = time.perf_counter()
            for v in range(last + 1, version + 1):
                with lock:
                    if v in acked_at:
                        seen.append((now - acked_at[v]) * 1000)
            last = version
            time.sleep(poll_seconds)

    watchers = [threading.Thread(target=observe, args=(i,)) for i in range(observers)]
    for watcher in watchers:
        watcher.start()
    time.sleep(0.5)
    poster = Phone(app_base)
    for n in range(changes):
        # A pressure on Ann every 0.37 s: each one confirmed as another (the app asks otherwise).
        form = {"idem": f"prop-{n}", "hand": HANDS + 1, "player": "Ann", "again": "1"}
        status, body = poster.post(f"/t/{token}/pressure", form)
        if "version" not in body:
            raise SystemExit(f"propagation: a pressure was not recorded ({status}): {body}")
        with lock:
            acked_at[body["version"]] = time.perf_counter()
        time.sleep(0.37)
    time.sleep(poll_seconds + 0.5)
    done.set()
    for watcher in watchers:
        watcher.join()
    print(
        f"  a change showing on another phone (poll every {poll_seconds:.0f} s, {len(seen)} observations): "
        f"p50 {statistics.median(seen):.0f} ms, p99 {percentile(seen, 0.99):.0f} ms"
    )
