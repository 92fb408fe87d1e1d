"""Issue 6's benchmark: a simulated 100-player event posted to the running server.

25 tables play 15 hands each (a pressure, a player's leftovers at a time, and one correction
per table) at once over loopback, with retries, beside the bare-insert floor posting as many
requests per table; the app and the floor take turns for ROUNDS rounds (see `bench.servers`),
each round a new event. Then the standings page (the wall screen, the same computation the
director's page does) and the booklet of all 25 sheets are timed.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

import sqlite_utils

from scorekeeper.reports import pdf
from scorekeeper.reports.sheets import event_sheets_html
from scorekeeper.storage import event_rounds
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.event_results import event_standings, progress
from scorekeeper.storage.events import Event, EventPlayer
from scorekeeper.tournament.seating import seat_round

from . import scaled
from .phone import Phone
from .servers import app_server, floor_server, floor_work, report, retrying_post, take_turns

PLAYERS = [f"Player {i:03d}" for i in range(scaled(100, 12))]
HANDS = scaled(15, 2)
ROUNDS = scaled(3, 1)
LEFTOVERS_BY_SEAT = ("K 3", "A 2", "8", "9 Q", "5")
#: The hand of each table's one correction: its first player's leftovers typed again.
CORRECTED_HAND = min(7, HANDS)


def _event(db: sqlite_utils.Database, number: int) -> tuple[Event, list[event_store.EventTable]]:
    event = event_store.create_event(
        db,
        f"Bench {number}",
        "2026-11-22",
        "crates",
        {},
        "total",
        "none",
        [EventPlayer(name, "", "") for name in PLAYERS],
    )
    event_rounds.add_round(db, event, seat_round(PLAYERS, seed=1), 1)
    return event, list(event_store.event_tables(db, event.id))


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-event-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    events = [_event(db, number) for number in range(ROUNDS + 1)]
    db.conn.close()
    tables = [[row.game for row in rows] for _, rows in events]
    requests_each = HANDS * (1 + len(PLAYERS) // len(tables[0])) + 1

    with app_server(folder) as app, floor_server(folder) as floor:

        def play(index: int, round_: int, out: dict[str, list[float]]) -> None:
            phone, game, rng = Phone(app.base), tables[round_][index], random.Random(index)
            token, players, saves = game.record_token, game.game.players, out.setdefault("save", [])
            for hand in range(1, HANDS + 1):
                pressure = {"idem": f"p{hand}", "hand": hand, "player": rng.choice(players)}
                saves.append(retrying_post(phone, f"/t/{token}/pressure", pressure)[0])
                for seat in range(len(players)):
                    form = {"idem": f"l{hand}-{seat}", "cards": LEFTOVERS_BY_SEAT[seat], "replaces": ""}
                    elapsed, body = retrying_post(phone, f"/t/{token}/hand/{hand}/seat/{seat}", form)
                    saves.append(elapsed)
                    if hand == CORRECTED_HAND and seat == 0:
                        form = {"idem": f"c{hand}", "cards": "K", "replaces": str(body["entry"])}
                        saves.append(retrying_post(phone, f"/t/{token}/hand/{hand}/seat/{seat}", form)[0])

        print(
            f"A {len(PLAYERS)}-player event: {len(tables[0])} tables x {HANDS} hands posted at once "
            f"({requests_each} requests a table, retries), {ROUNDS} rounds, the app and the floor taking turns"
        )
        rounds = take_turns(ROUNDS, len(tables[0]), play, floor_work(floor.base, requests_each))
        report(rounds, {"save": "a table's save (any kind)"})
        event = events[0][0]
        page = []
        for _ in range(5):
            begin = time.perf_counter()
            with urllib.request.urlopen(f"{app.base}/e/{event.wall_token}/") as response:
                response.read()
            page.append(time.perf_counter() - begin)
        print(
            f"  standings page ({len(tables[0])} finished tables, {len(PLAYERS)} players): "
            f"p50 {statistics.median(page) * 1000:.0f} ms"
        )
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
