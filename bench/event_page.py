"""The director's event page at the largest event allowed (MAX_EVENT_PLAYERS), planned for
10 rounds with round 1 seated and playing: the page's time beside a bare endpoint sending
the same markup, as a ratio: a repeat look, and a look just after one table's phone saved a
change (so that what is kept between looks cannot hide what a change costs). The plan is made
once per change in the background (its time is shown too); a view only reads it.

    .venv/bin/python -m bench.event_page
"""

from __future__ import annotations

import statistics
import tempfile
import time
import urllib.parse
from pathlib import Path

from werkzeug.security import generate_password_hash

from scorekeeper.storage import director as director_store
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.events import EventPlayer
from scorekeeper.tournament.seating import MAX_EVENT_PLAYERS

from . import scaled
from .pdf_load import PASSWORD, csrf_of
from .phone import Phone
from .servers import Server, app_server, cpu_ms, floor_behind_front, floor_server, percentile

PLAYERS = scaled(MAX_EVENT_PLAYERS, 24)
ROUNDS = scaled(10, 3)
VIEWS = scaled(30, 3)


def _setup(folder: Path) -> int:
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    try:
        players = [EventPlayer(f"Player {i:03d} of the county club"[:30], "Club", str(i)) for i in range(PLAYERS)]
        event = event_store.create_event(
            db, "Bench", "2026-11-22", "crates", {}, "total", "none", players, rounds=ROUNDS
        )
        director_store.set_director_password_hash(db, generate_password_hash(PASSWORD), replace=True)
        return event.id
    finally:
        db.conn.close()


def _timed(director: Phone, url: str) -> tuple[float, str]:
    begin = time.perf_counter()
    with director.opener.open(url, timeout=60) as response:
        body = response.read().decode()
    return (time.perf_counter() - begin) * 1000, body


def _look(director: Phone, url: str, server: Server, cpu: list[float]) -> float:
    """One look's time (ms), its server's CPU time noted in ``cpu`` (ms, when Linux tells it)."""
    before = cpu_ms(server)
    took = _timed(director, url)[0]
    after = cpu_ms(server)
    if before is not None and after is not None:
        cpu.append(after - before)
    return took


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-event-page-"))
    event_id = _setup(folder)
    with app_server(folder) as app, floor_server(folder) as floor, floor_behind_front(folder) as fronted:
        director = Phone(app.base)
        login = director.opener.open(app.base + "/director/login", timeout=10).read().decode()
        form = urllib.parse.urlencode({"csrf_token": csrf_of(login), "password": PASSWORD}).encode()
        director.opener.open(app.base + "/director/login", data=form, timeout=10).read()
        url = f"{app.base}/director/events/{event_id}"
        began = time.perf_counter()
        _, page = _timed(director, url)
        while "Planning the rounds" in page:
            time.sleep(0.2)
            _, page = _timed(director, url)
        planned = time.perf_counter() - began
        proposal = page.split('name="tables"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]
        form = urllib.parse.urlencode(
            {"csrf_token": csrf_of(page), "number": "1", "tables": proposal.strip().replace("&#39;", "'")}
        ).encode()
        director.opener.open(url + "/rounds", data=form, timeout=60).read()
        _, page = _timed(director, url)
        while "Planning the rounds" in page:  # seated as planned: the plan stands, no new one
            time.sleep(0.2)
            _, page = _timed(director, url)
        (folder / "page.html").write_text(page, encoding="utf-8")
        seated = _seated(folder, event_id)
        figures: list[float] = []
        saved: list[float] = []
        floors: list[float] = []
        fronted_floors: list[float] = []
        cpu: dict[str, list[float]] = {"repeat": [], "saved": [], "floor": [], "fronted": []}
        for look in range(VIEWS):
            figures.append(_look(director, url, app, cpu["repeat"]))
            floors.append(_look(director, f"{floor.base}/page", floor, cpu["floor"]))
            fronted_floors.append(_look(director, f"{fronted.base}/page", fronted, cpu["fronted"]))
            # A table's phone saves a change (not timed), then the page is looked at: its cost
            # after a real change, not only a repeat look's.
            token, player = seated[look % len(seated)]
            _save(app.base, token, player, look, again=look >= len(seated))
            saved.append(_look(director, url, app, cpu["saved"]))
            floors.append(_look(director, f"{floor.base}/page", floor, cpu["floor"]))
            fronted_floors.append(_look(director, f"{fronted.base}/page", fronted, cpu["fronted"]))
    tables = page.count("<tr class=")
    print(
        f"\nThe director's event page, {PLAYERS} players{' (the cap)' if PLAYERS == MAX_EVENT_PLAYERS else ''}, {ROUNDS} rounds planned, round 1 seated "
        f"({tables} tables), {len(page) // 1024} KB of markup; plan made in the background in {planned:.1f} s"
    )
    f50, f99 = statistics.median(floors), percentile(floors, 0.99)
    g50, g99 = statistics.median(fronted_floors), percentile(fronted_floors, 0.99)
    fcpu, gcpu = _cpu(cpu["floor"]), _cpu(cpu["fronted"])
    print(f"  floor (bare endpoint sending the same markup)   p50 {f50:6.1f} ms  p99 {f99:6.1f} ms{fcpu[1]}")
    print(f"  the same floor behind the front, as the app is  p50 {g50:6.1f} ms  p99 {g99:6.1f} ms{gcpu[1]}")
    for name, samples, kind in (("a repeat look", figures, "repeat"), ("a look after one table saved", saved, "saved")):
        p50, p99 = statistics.median(samples), percentile(samples, 0.99)
        used = _cpu(cpu[kind])
        ratio = f", {used[0] / gcpu[0]:.1f}x the fronted floor's" if used[0] and gcpu[0] else ""
        print(
            f"  event page, {name:<30} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms{used[1]}{ratio}   "
            f"ratio to the floor p50 {p50 / f50:4.1f}x  p99 {p99 / f99:4.1f}x; "
            f"behind the front p50 {p50 / g50:4.1f}x  p99 {p99 / g99:4.1f}x   aim <= 3x"
        )


def _cpu(samples: list[float]) -> tuple[float, str]:
    """The median CPU time of a server's answers, and the words for it ("" where not measured)."""
    if not samples:
        return 0.0, ""
    middle = statistics.median(samples)
    return middle, f"   server CPU p50 {middle:5.1f} ms"


def _seated(folder: Path, event_id: int) -> list[tuple[str, str]]:
    """The seated tables' record tokens, each with its first seat's player."""
    db = connect(str(folder / "scorekeeper.db"))
    try:
        return [
            (table.game.record_token, table.game.game.players[0]) for table in event_store.event_tables(db, event_id)
        ]
    finally:
        db.conn.close()


def _save(base: str, token: str, player: str, look: int, again: bool) -> None:
    """A pressure saved at a table of round 1 as its phone's outbox sends it (a table not yet
    started; ``again``: one more, confirmed, when the looks come round to it a second time)."""
    form = {"idem": f"look-{look}", "hand": 1, "player": player, **({"again": "1"} if again else {})}
    status, body = Phone(base).post(f"/t/{token}/pressure", form)
    if status != 200 or "version" not in body:
        raise SystemExit(f"event page: a table's save was refused ({status}): {body}")


if __name__ == "__main__":
    main()
