"""Phones saving while others print: the phones' latency with 12 clients fetching PDFs and a
booklet rendering, beside the same phones on an idle server, in the same run.

The real server (`scorekeeper serve`, the settings `make run` uses) on loopback. Four phones
post pressures and leftovers with a short pause between saves, first alone, then while 12
clients fetch blank sheets (varied: game, players, paper, jokers, so few are alike) and the
score sheets of the tables being played, and the director's booklet of a 16-table round
renders. Every loop is bounded in requests and time.
"""

from __future__ import annotations

import random
import re
import secrets
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from werkzeug.security import generate_password_hash

from scorekeeper.scoring import Game, configure
from scorekeeper.scoring.errors import Refusal
from scorekeeper.scoring.game import blank_table
from scorekeeper.scoring.rulesets import AT_THE_TABLE
from scorekeeper.storage import director as director_store
from scorekeeper.storage import event_rounds
from scorekeeper.storage import events as event_store
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate
from scorekeeper.storage.events import EventPlayer
from scorekeeper.tournament.seating import seat_round

from . import scaled
from .phone import Phone
from .servers import app_server, percentile, retrying_post

PHONES = scaled(4, 1)
HANDS = scaled(12, 1)
PLAYERS = ("Ann", "Bob", "Cy", "Di")
LEFTOVERS = ("K 3", "A 2", "8", "9 Q")
PAUSE = (0.05, 0.15)
PDF_CLIENTS = scaled(12, 2)
PDF_REQUESTS_EACH = scaled(60, 2)
BOOKLET_TABLES = scaled(16, 1)
PASSWORD = "bench-director-password"
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def _seatings() -> dict[str, list[int]]:
    """For each game, the numbers of players its blank sheet can be asked for (the engine decides)."""
    allowed: dict[str, list[int]] = {}
    for rules in AT_THE_TABLE:
        for count in range(2, 6):
            try:
                blank_table(configure(rules), count)
            except Refusal:
                continue
            allowed.setdefault(rules, []).append(count)
    return allowed


#: A sheet is asked only for a number of players the game allows: a refusal is not a PDF made.
SEATINGS = _seatings()


def csrf_of(page: str) -> str:
    match = CSRF.search(page)
    if match is None:
        raise RuntimeError("no CSRF token on the page")
    return match.group(1)


def _setup(folder: Path) -> tuple[list[str], list[str], int]:
    """Two sets of fresh tables (one per phase) and an event with a seated round for the booklet."""
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    try:
        idle = [storage.create_game(db, Game(configure("crates"), PLAYERS)).record_token for _ in range(PHONES)]
        busy = [storage.create_game(db, Game(configure("crates"), PLAYERS)).record_token for _ in range(PHONES)]
        names = [f"Player {i:03d}" for i in range(BOOKLET_TABLES * 4)]
        event = event_store.create_event(
            db, "Bench", "2026-11-22", "crates", {}, "total", "none", [EventPlayer(name, "", "") for name in names]
        )
        event_rounds.add_round(db, event, seat_round(names, seed=1), 1)
        director_store.set_director_password_hash(db, generate_password_hash(PASSWORD), replace=True)
    finally:
        db.conn.close()
    return idle, busy, event.id


def _phones(base: str, tokens: list[str]) -> list[float]:
    """Every phone plays HANDS hands (a pressure and four leftovers each); latency of each save in ms."""
    samples: list[float] = []
    lock = threading.Lock()

    def play(index: int) -> None:
        phone, token, rng = Phone(base), tokens[index], random.Random(index)
        mine = []
        for hand in range(1, HANDS + 1):
            time.sleep(rng.uniform(*PAUSE))
            pressure = {"idem": f"h{hand}-p", "hand": hand, "player": rng.choice(PLAYERS)}
            mine.append(retrying_post(phone, f"/t/{token}/pressure", pressure)[0])
            for seat, cards in enumerate(LEFTOVERS):
                time.sleep(rng.uniform(*PAUSE))
                form = {"idem": f"h{hand}-s{seat}", "cards": cards, "replaces": ""}
                mine.append(retrying_post(phone, f"/t/{token}/hand/{hand}/seat/{seat}", form)[0])
        with lock:
            samples.extend(mine)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples


def _printers(base: str, sheets: list[str], stop: threading.Event) -> dict[str, list[float]]:
    """PDF_CLIENTS clients fetching PDFs until the phones are done; a 503 is waited out as Retry-After asks."""
    found: dict[str, list[float]] = {"ok": [], "busy": [], "failed": []}
    lock = threading.Lock()
    games = sorted(SEATINGS)

    def fetch(index: int) -> None:
        rng = random.Random(1000 + index)
        opener = urllib.request.build_opener()
        for _ in range(PDF_REQUESTS_EACH):
            if stop.is_set():
                return
            if rng.random() < 0.5:
                rules = rng.choice(games)
                query = {
                    "rules": rules,
                    "players": rng.choice(SEATINGS[rules]),
                    "paper": rng.choice(["a4", "letter"]),
                }
                if rng.random() < 0.5:
                    query["jokers"] = "y"
                path = "/blank-sheet.pdf?" + urllib.parse.urlencode(query)
            else:
                path = f"/t/{rng.choice(sheets)}/sheet.pdf"
            begin = time.perf_counter()
            wait = 0.0
            try:
                with opener.open(base + path, timeout=60) as response:
                    body = response.read()
                kind = "ok" if body.startswith(b"%PDF") else "failed"
            except urllib.error.HTTPError as error:
                error.read()
                kind = "busy" if error.code == 503 else "failed"
                wait = float(error.headers.get("Retry-After") or 1)
            except OSError:
                kind = "failed"
            with lock:
                found[kind].append((time.perf_counter() - begin) * 1000)
            stop.wait(wait)

    threads = [threading.Thread(target=fetch, args=(i,)) for i in range(PDF_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return found


def _start_booklet(base: str, event_id: int) -> tuple[Phone, str]:
    director = Phone(base)
    login = director.opener.open(base + "/director/login", timeout=10).read().decode()
    form = urllib.parse.urlencode({"csrf_token": csrf_of(login), "password": PASSWORD}).encode()
    director.opener.open(base + "/director/login", data=form, timeout=10).read()
    page = director.opener.open(f"{base}/director/events/{event_id}", timeout=10).read().decode()
    form = urllib.parse.urlencode({"csrf_token": csrf_of(page), "idem": secrets.token_hex(8)}).encode()
    with director.opener.open(f"{base}/director/events/{event_id}/booklet", data=form, timeout=30) as response:
        if "/booklet/" not in response.url:
            raise RuntimeError(f"the booklet did not start (answered {response.url})")
        return director, response.url


def _booklet_done(director: Phone, status_url: str, seconds: float) -> bool:
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        page = director.opener.open(status_url, timeout=10).read().decode()
        if "Download the booklet" in page:
            return True
        if "The booklet failed" in page:
            return False
        time.sleep(0.25)
    return False


def _line(name: str, values: list[float]) -> tuple[float, float]:
    p50, p99 = statistics.median(values), percentile(values, 0.99)
    print(f"  {name:<46} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   max {max(values):7.1f} ms   ({len(values)} saves)")
    return p50, p99


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pdfload-"))
    idle_tables, busy_tables, event_id = _setup(folder)
    with app_server(folder) as server:
        base = server.base
        time.sleep(2)  # let the workers finish starting (and warming up, where they do)
        print(
            f"Phones while printing: {PHONES} phones saving (pause {PAUSE[0] * 1000:.0f}-{PAUSE[1] * 1000:.0f} ms "
            f"between saves) to `scorekeeper serve` as `make run` starts it, alone and then beside {PDF_CLIENTS} "
            f"clients fetching PDFs and a {BOOKLET_TABLES}-table booklet"
        )
        idle = _phones(base, idle_tables)
        stop = threading.Event()
        found: dict[str, list[float]] = {}
        printers = threading.Thread(
            target=lambda: found.update(_printers(base, idle_tables + busy_tables, stop)), name="printers"
        )
        booklet_began = time.perf_counter()
        director, status_url = _start_booklet(base, event_id)
        printers.start()
        busy = _phones(base, busy_tables)
        stop.set()
        printers.join()
        booklet_ok = _booklet_done(director, status_url, 180)
        booklet_seconds = time.perf_counter() - booklet_began
    _, idle_p99 = _line("a phone's save, server otherwise idle", idle)
    _, busy_p99 = _line(f"the same, beside {PDF_CLIENTS} PDF clients and a booklet", busy)
    ok, refused, failed = found["ok"], found["busy"], found["failed"]
    print(
        f"  PDFs: {len(ok)} served (p50 {statistics.median(ok) if ok else 0:.0f} ms, "
        f"p99 {percentile(ok, 0.99) if ok else 0:.0f} ms), {len(refused)} answered 503 busy, {len(failed)} failed; "
        f"booklet {'done' if booklet_ok else 'NOT done'} after {booklet_seconds:.1f} s"
    )
    print(f"  ratio: p99 while printing / p99 idle {busy_p99 / idle_p99:.2f}x (aim <= 2x)")
