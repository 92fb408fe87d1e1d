"""A weekly club over five years (260 evenings × 25 tables = 6,500 tables, 300 players), each
figure beside a floor from the same run:

- every rating recomputed from the stored results (read, rated, compared, stored) beside a bare
  loop of the same openskill calls over the same tables already in memory;
- a player's page and the season ladder over HTTP beside a bare endpoint sending the same markup;
- one 25-table evening published (`scorekeeper publish`, every PDF rendered), and a phone's saves
  while the server zips an evening's pages, beside the same saves with the server idle.

The history is written straight into the database (each game's log as the phones would have
made it, a hand at a time), then derived and rated once, as the server does on first look.

    .venv/bin/python -m bench.club
"""

from __future__ import annotations

import gc
import json
import os
import random
import re
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
from datetime import date, timedelta
from pathlib import Path

from openskill.models import PlackettLuce
from werkzeug.security import generate_password_hash

from scorekeeper.club.ratings import MODEL, tie_breaks, unpack_table
from scorekeeper.scoring import Game, Rank, configure
from scorekeeper.storage import club_results, event_rounds
from scorekeeper.storage import director as director_store
from scorekeeper.storage import events as event_store
from scorekeeper.storage.database import connect, immediate, migrate
from scorekeeper.storage.events import EventPlayer
from scorekeeper.storage.games import create_game
from scorekeeper.storage.seasons import add_event, create_season

from . import scaled
from .pdf_load import PASSWORD, csrf_of
from .phone import Phone
from .servers import BIN, app_server, floor_server, percentile

EVENINGS = scaled(260, 6)
TABLES = scaled(25, 3)
MEMBERS = scaled(300, 30)
VIEWS = scaled(200, 5)
RECOMPUTES = scaled(5, 1)
SAVES = scaled(60, 4)
RANKS = [rank.value for rank in Rank if rank is not Rank.JOKER]


def build(folder: Path) -> None:
    """The club's five years, written a game at a time in one transaction each evening."""
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    db.conn.execute("PRAGMA synchronous = OFF")  # setting up, not measured
    rng = random.Random(31)
    members = [(f"Member {i:03d} of the club"[:30], "Club", str(1000 + i)) for i in range(MEMBERS)]
    try:
        first = date(2021, 1, 4)
        for evening in range(EVENINGS):
            held_on = first + timedelta(weeks=evening)
            chosen = rng.sample(members, TABLES * 4)
            event = event_store.create_event(
                db,
                f"Club night {evening + 1}",
                held_on.isoformat(),
                "crates",
                {},
                "total",
                "none",
                [EventPlayer(*member) for member in chosen],
            )
            names = [name for name, _, _ in chosen]
            event_rounds.add_round(db, event, [names[i : i + 4] for i in range(0, len(names), 4)], 1)
            _play_evening(db, event.id, held_on, rng)
        director_store.set_director_password_hash(db, generate_password_hash(PASSWORD), replace=True)
        _seasons(db)
    finally:
        db.conn.close()


#: Evenings a season holds: the club's year.
SEASON = scaled(52, 3)


def _seasons(db) -> None:  # type: ignore[no-untyped-def]
    """A season a year, by placement points, and one over all five years by rating."""
    events = [row[0] for row in db.execute("SELECT id FROM events ORDER BY held_on, id")]
    for year, start in enumerate(range(0, len(events), SEASON), start=1):
        season, _ = create_season(db, f"Year {year}", "points", None, "a4", "bench")
        for event_id in events[start : start + SEASON]:
            add_event(db, season.id, event_id, "bench")
    every, _ = create_season(db, "Five years", "rating", None, "a4", "bench")
    for event_id in events:
        add_event(db, every.id, event_id, "bench")


def _play_evening(db, event_id: int, held_on: date, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    games = db.execute(
        "SELECT g.id, g.players FROM event_tables t JOIN games g ON g.id = t.game_id WHERE t.event_id = ? ORDER BY t.number",
        [event_id],
    ).fetchall()
    rows = []
    for index, (game_id, players_json) in enumerate(games):
        players = json.loads(players_json)
        seq = 0
        for hand in range(1, 16):
            deck = [rank for rank in RANKS for _ in range(4)]
            rng.shuffle(deck)
            out = rng.choice(players)
            at = f"{held_on.isoformat()}T{19 + (hand * 6 + index) // 60:02d}:{(hand * 6 + index) % 60:02d}:00+00:00"
            for player in players:
                cards = [] if player == out else [deck.pop() for _ in range(rng.randint(1, 5))]
                seq += 1
                rows.append(
                    (
                        game_id,
                        seq,
                        "leftovers",
                        hand,
                        player,
                        json.dumps({"cards": cards}),
                        None,
                        f"b{game_id}-{seq}",
                        "bench",
                        at,
                        "",
                    )
                )
        rows.append(None)
        db.conn.execute("UPDATE games SET version = ? WHERE id = ?", [seq, game_id])
    with immediate(db):
        db.conn.executemany(
            "INSERT INTO entries (game_id, seq, kind, hand, player, data, target, idem_key, source, created_at, address) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [row for row in rows if row is not None],
        )


def bare_loop(tables) -> float:  # type: ignore[no-untyped-def]
    """The same openskill calls over the same tables, in memory: seconds."""
    model = PlackettLuce(**{k: v for k, v in MODEL.parameters.items() if k in ("mu", "sigma", "beta", "kappa", "tau")})
    begin = time.perf_counter()
    ratings: dict[int, object] = {}
    for table in tables:
        teams = [[ratings.get(p) or model.rating() for p in side] for side in table.sides]
        orders = [table.places] if len(set(table.places)) == len(table.places) else list(tie_breaks(table.places))
        for ranks in orders:
            new = model.rate(teams, ranks=list(ranks))
        for side, team in zip(table.sides, new, strict=True):
            for player, rating in zip(side, team, strict=True):
                ratings[player] = rating
    return time.perf_counter() - begin


def read_and_loop(db) -> float:  # type: ignore[no-untyped-def]
    """The floor of a recompute from the stored results: the stored tables read (one query) and
    decoded, then the same openskill calls over them; seconds."""
    begin = time.perf_counter()
    rows = db.execute(f"SELECT id, ranking FROM club_tables {club_results._ORDER}").fetchall()
    tables = [unpack_table(ranking, table_id) for table_id, ranking in rows]
    return time.perf_counter() - begin + bare_loop(tables)


def bench_recompute(folder: Path) -> None:
    db = connect(str(folder / "scorekeeper.db"))
    try:
        rows = db.execute(f"SELECT id, ranking FROM club_tables {club_results._ORDER}").fetchall()
        tables = club_results._rated_tables(rows)
        ours, floors, loops = [], [], []
        for _ in range(RECOMPUTES):
            floors.append(read_and_loop(db))
            loops.append(bare_loop(tables))
            begin = time.perf_counter()
            found = club_results.recompute(db)
            ours.append(time.perf_counter() - begin)
            assert not found.differing, "the stored ratings differ from those recomputed"
        ties = sum(1 for table in tables if len(set(table.places)) < len(table.places))
    finally:
        db.conn.close()
    o, f, loop = statistics.median(ours), statistics.median(floors), statistics.median(loops)
    print(
        f"  every rating recomputed from {len(tables)} tables ({ties} with a tie), read, compared and stored: "
        f"median {o * 1000:5.0f} ms   floor (the stored tables read, then a bare loop of the same openskill calls) "
        f"{f * 1000:5.0f} ms   ratio {o / f:4.2f}x (aim ≤ 1.3x); beside the bare loop alone ({loop * 1000:4.0f} ms: "
        f"the tables already in memory) {o / loop:4.2f}x"
    )


def _timed(phone: Phone, url: str) -> tuple[float, str]:
    begin = time.perf_counter()
    with phone.opener.open(url, timeout=60) as response:
        body = response.read().decode()
    return (time.perf_counter() - begin) * 1000, body


def bench_pages(folder: Path, pages: dict[str, str]) -> None:
    """Each page many times, taking turns with the bare endpoint sending its markup."""
    with app_server(folder) as app, floor_server(folder) as floor:
        director = Phone(app.base)
        login = director.opener.open(app.base + "/director/login", timeout=10).read().decode()
        form = urllib.parse.urlencode({"csrf_token": csrf_of(login), "password": PASSWORD}).encode()
        director.opener.open(app.base + "/director/login", data=form, timeout=10).read()
        for name, path in pages.items():
            _, markup = _timed(director, app.base + path)  # the first look brings the record up to date
            (folder / "page.html").write_text(markup, encoding="utf-8")
            figures, floors = [], []
            for _ in range(VIEWS):
                figures.append(_timed(director, app.base + path)[0])
                floors.append(_timed(director, f"{floor.base}/page")[0])
            p50, p99 = statistics.median(figures), percentile(figures, 0.99)
            f50, f99 = statistics.median(floors), percentile(floors, 0.99)
            print(
                f"  {name:<34} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms (aim ≤ 50)   floor (bare endpoint, same markup, "
                f"{len(markup) // 1024} KB) p50 {f50:5.1f} ms  p99 {f99:5.1f} ms   ratio p50 {p50 / f50:4.1f}x  p99 {p99 / f99:4.1f}x"
            )


def bench_publish(folder: Path) -> None:
    """The last evening published from the command line, every PDF rendered; then phones' saves
    while the server zips that evening's pages, beside the same saves with the server idle."""
    out = folder / "published"
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(folder)}
    begin = time.perf_counter()
    result = subprocess.run(
        [str(BIN / "scorekeeper"), "publish", str(EVENINGS), str(out)], env=env, capture_output=True, text=True
    )
    seconds = time.perf_counter() - begin
    assert result.returncode == 0, result.stderr
    files = sum(1 for path in out.rglob("*") if path.is_file())
    print(f"  one {TABLES}-table evening published: {seconds:5.1f} s for {files} files (aim ≤ 30 s)")
    with app_server(folder) as app:
        db = connect(str(folder / "scorekeeper.db"))
        try:
            game = create_game(db, Game(configure("crates"), ("Ann", "Bob", "Cy", "Di")))
        finally:
            db.conn.close()
        idle = _saves(app.base, game.record_token, "idle")
        director = Phone(app.base)
        login = director.opener.open(app.base + "/director/login", timeout=10).read().decode()
        form = urllib.parse.urlencode({"csrf_token": csrf_of(login), "password": PASSWORD}).encode()
        director.opener.open(app.base + "/director/login", data=form, timeout=10).read()
        page = director.opener.open(f"{app.base}/director/events/{EVENINGS}", timeout=60).read().decode()
        key = re.search(r'name="idem" value="([^"]+)"><button[^>]*>Publish as pages', page)
        assert key is not None
        data = urllib.parse.urlencode({"csrf_token": csrf_of(page), "idem": key.group(1)}).encode()
        publishing: list[float] = []

        def publish() -> None:
            began = time.perf_counter()
            with director.opener.open(
                f"{app.base}/director/events/{EVENINGS}/published/", data=data, timeout=60
            ) as answer:
                status = answer.url
            while "Download the pages" not in director.opener.open(status, timeout=60).read().decode():
                time.sleep(0.2)
            publishing.append(time.perf_counter() - began)

        thread = threading.Thread(target=publish)
        thread.start()
        busy = _saves(app.base, game.record_token, "busy")
        thread.join()
    for name, samples in (("idle", idle), ("while zipping", busy)):
        print(
            f"  a phone's save, server {name:<14} p50 {statistics.median(samples):6.1f} ms  p99 {percentile(samples, 0.99):6.1f} ms"
        )
    print(f"  the evening's pages zipped on the server in {publishing[0]:5.1f} s (the saves above ran meanwhile)")


def _saves(base: str, token: str, tag: str) -> list[float]:
    phone, samples = Phone(base), []
    for index in range(SAVES):
        begin = time.perf_counter()
        status, _ = phone.post(f"/t/{token}/note", {"idem": f"{tag}{index}", "hand": 1, "text": f"note {index}"})
        samples.append((time.perf_counter() - begin) * 1000)
        assert status in (200, 201), status
        time.sleep(0.05)
    return samples


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-club-"))
    began = time.perf_counter()
    build(folder)
    built = time.perf_counter() - began
    db = connect(str(folder / "scorekeeper.db"))
    try:
        began = time.perf_counter()
        club_results.bring_up_to_date(db)
        derived = time.perf_counter() - began
        member = db.execute(
            "SELECT member_id FROM club_seats GROUP BY member_id ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()[0]
    finally:
        db.conn.close()
    # What the set-up left in this process is kept out of the collector's passes, as a server's
    # worker keeps what lives as long as it does (serve.py: gc.freeze): else a pass over it lands
    # in whichever figure happens to allocate next.
    gc.collect()
    gc.freeze()
    print(
        f"\nA weekly club: {EVENINGS} evenings × {TABLES} tables = {EVENINGS * TABLES} tables, {MEMBERS} players "
        f"(written in {built:.0f} s; derived and rated once, as on the first look, in {derived:.1f} s)"
    )
    bench_recompute(folder)
    db = connect(str(folder / "scorekeeper.db"))
    try:
        seasons = {name: id_ for id_, name in db.execute("SELECT id, name FROM seasons")}
    finally:
        db.conn.close()
    last_year = max((name for name in seasons if name.startswith("Year")), key=lambda name: int(name.split()[1]))
    bench_pages(
        folder,
        {
            "a player's page (the most tables)": f"/club/players/{member}",
            "the director's player page": f"/director/players/{member}",
            f"a season's ladder ({SEASON} evenings)": f"/club/seasons/{seasons[last_year]}",
            f"a ladder of all {EVENINGS} evenings": f"/club/seasons/{seasons['Five years']}",
        },
    )
    bench_publish(folder)


if __name__ == "__main__":
    main()
