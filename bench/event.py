"""Issue 6's benchmark: a simulated 100-player event posted to the running server.

25 tables play 15 hands each (a pressure, four leftovers, and one correction per table)
at once over loopback, with retries; then the standings page (the wall screen, the same
computation the director's page does) and the booklet of all 25 sheets are timed.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from scorekeeper.reports import pdf
from scorekeeper.reports.sheets import event_sheets_html
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.event_results import event_standings, progress
from scorekeeper.storage.events import EventPlayer
from scorekeeper.tournament.seating import seat_round

from . import scaled
from .load import BIN, _free_port, _serve, _wait_up, percentile, retrying_post
from .phone import Phone

PLAYERS = [f"Player {i:03d}" for i in range(scaled(100, 12))]
HANDS = scaled(15, 2)


def main(floor: dict[str, float] | None = None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-event-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    event = event_store.create_event(
        db, "Bench", "2026-11-22", "crates", {}, "total", "none", [EventPlayer(name, "", "") for name in PLAYERS]
    )
    event_store.add_round(db, event, seat_round(PLAYERS, seed=1), 1)
    tables = [row.game for row in event_store.event_tables(db, event.id)]
    db.conn.close()
    port = _free_port()
    server = _serve(
        [str(BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        {"SCOREKEEPER_INSTANCE": str(folder)},
    )
    base = f"http://127.0.0.1:{port}"
    latencies: list[float] = []
    lock = threading.Lock()

    def play(index: int) -> None:
        phone, game, rng = Phone(base), tables[index], random.Random(index)
        token, players = game.record_token, game.game.players
        mine = []
        for hand in range(1, HANDS + 1):
            mine.append(
                retrying_post(
                    phone, f"/t/{token}/pressure", {"idem": f"p{hand}", "hand": hand, "player": rng.choice(players)}
                )[0]
            )
            for seat in range(len(players)):
                cards = ["K 3", "A 2", "8", "9 Q", "5"][seat]
                elapsed, body = retrying_post(
                    phone,
                    f"/t/{token}/hand/{hand}/seat/{seat}",
                    {"idem": f"l{hand}-{seat}", "cards": cards, "replaces": ""},
                )
                mine.append(elapsed)
                if hand == 7 and seat == 0:
                    mine.append(
                        retrying_post(
                            phone,
                            f"/t/{token}/hand/{hand}/seat/{seat}",
                            {"idem": f"c{hand}", "cards": "K", "replaces": str(body["entry"])},
                        )[0]
                    )
        with lock:
            latencies.extend(mine)

    try:
        _wait_up(base)
        threads = [threading.Thread(target=play, args=(i,)) for i in range(len(tables))]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - start
        rate = len(latencies) / seconds
        p99 = percentile(latencies, 0.99)
        print(
            f"A {len(PLAYERS)}-player event: {len(tables)} tables x {HANDS} hands posted at once ({len(latencies)} requests, retries)"
        )
        print(f"  throughput {rate:.0f} req/s, p50 {statistics.median(latencies):.0f} ms, p99 {p99:.0f} ms")
        if floor:
            print(
                f"  beside the bare-insert floor: p99 {p99 / floor['p99']:.2f}x, throughput {rate / floor['rate']:.2f}x"
            )
        page = []
        for _ in range(5):
            begin = time.perf_counter()
            with urllib.request.urlopen(f"{base}/e/{event.wall_token}/") as response:
                response.read()
            page.append(time.perf_counter() - begin)
        print(f"  standings page ({len(tables)} finished tables, {len(PLAYERS)} players): p50 {statistics.median(page) * 1000:.0f} ms")
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=15)
    db = connect(database)
    rows = progress(db, event)
    begin = time.perf_counter()
    event_standings(db, event)
    standings_seconds = time.perf_counter() - begin
    begin = time.perf_counter()
    pdf.render_booklet(event_sheets_html(event, rows))
    booklet_seconds = time.perf_counter() - begin
    db.conn.close()
    print(
        f"  standings computed in-process: {standings_seconds * 1000:.0f} ms; "
        f"booklet of {len(rows)} sheets: {booklet_seconds:.1f} s (rendered in the background, not in a request)"
    )
