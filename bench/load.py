"""Issue 4's benchmark: 25 tables posting at once to the real server, beside a bare-insert floor.

Loopback only, bounded in requests and time. Both servers run under gunicorn with the
settings `make run` uses (2 workers x 4 threads).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from scorekeeper.scoring import Game, configure
from scorekeeper.storage import games as storage
from scorekeeper.storage.database import connect, migrate
from scorekeeper.web.printer import WAITING

from . import scaled
from .phone import Phone, Unreachable

TABLES = scaled(25, 3)
HANDS = scaled(6, 1)
PLAYERS = ("Ann", "Bob", "Cy", "Di")
BIN = Path(sys.executable).parent
#: Threads a worker of `scorekeeper serve` runs: 4 for the phones and printer.WAITING more for
#: requests that wait on a PDF. The floor's gunicorn gets as many, so that both serve alike.
APP_THREADS = 4 + WAITING


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_up(base: str) -> None:
    """Until the server answers anything at all (a 404 will do)."""
    import urllib.error
    import urllib.request

    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/csrf", timeout=1).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


def _serve(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def retrying_post(phone: Phone, path: str, data: dict[str, object]) -> tuple[float, dict]:
    """Latency (ms) and answer of one submission, retried with the same key until acknowledged."""
    start = time.perf_counter()
    for _ in range(50):
        try:
            status, body = phone.post(path, data)
        except Unreachable:
            time.sleep(0.02)
            continue
        if status != 200:
            raise RuntimeError(f"refused: {status} {body}")
        return (time.perf_counter() - start) * 1000, body
    raise RuntimeError("never acknowledged")


def _retrying(phone: Phone, path: str, data: dict[str, object]) -> float:
    return retrying_post(phone, path, data)[0]


def _run_tables(worker: Callable[[int, dict[str, list[float]]], None]) -> tuple[dict[str, list[float]], float]:
    samples: dict[str, list[float]] = {}
    lock = threading.Lock()
    barrier = threading.Barrier(TABLES)

    def table(index: int) -> None:
        local: dict[str, list[float]] = {}
        barrier.wait()
        worker(index, local)
        with lock:
            for kind, values in local.items():
                samples.setdefault(kind, []).extend(values)

    threads = [threading.Thread(target=table, args=(i,)) for i in range(TABLES)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples, time.perf_counter() - start


def _line(name: str, values: list[float], seconds: float) -> tuple[float, float, float]:
    p50, p99, rate = statistics.median(values), percentile(values, 0.99), len(values) / seconds
    print(f"  {name:<34} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   {rate:7.0f} req/s   ({len(values)} requests)")
    return p50, p99, rate


def main() -> dict[str, float]:
    """Run the load benchmark; returns the floor's figures for the benchmarks that follow."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    database = str(folder / "scorekeeper.db")
    migrate(database)
    db = connect(database)
    tokens = [storage.create_game(db, Game(configure("crates"), PLAYERS)).record_token for _ in range(TABLES)]
    db.conn.close()
    app_port, floor_port = _free_port(), _free_port()
    app = _serve(
        [str(BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(app_port)],
        {"SCOREKEEPER_INSTANCE": str(folder)},
    )
    floor = _serve(
        [
            str(BIN / "gunicorn"),
            "-w",
            "2",
            "--threads",
            str(APP_THREADS),
            "-b",
            f"127.0.0.1:{floor_port}",
            "--log-level",
            "warning",
            "bench.floor_app:app",
        ],
        {"FLOOR_DATABASE": str(folder / "floor.db"), "SCOREKEEPER_INSTANCE": str(folder)},
    )
    app_base, floor_base = f"http://127.0.0.1:{app_port}", f"http://127.0.0.1:{floor_port}"
    try:
        _wait_up(app_base)
        _wait_up(floor_base)
        return _bench(app_base, floor_base, tokens)
    finally:
        for process in (app, floor):
            os.killpg(process.pid, 15)
            process.wait(timeout=15)


def _bench(app_base: str, floor_base: str, tokens: list[str]) -> dict[str, float]:
    print(
        f"Live load: {TABLES} tables posting at once over loopback, {HANDS} hands each, "
        f"gunicorn 2 workers x {APP_THREADS} threads (as `make run`), retries with the same key"
    )

    leftovers_by_seat = ("K 3", "A 2", "8", "9 Q")  # never more copies than one deck holds

    def play(index: int, out: dict[str, list[float]]) -> None:
        phone, token, rng = Phone(app_base), tokens[index], random.Random(index)
        for hand in range(1, HANDS + 1):
            pressure = {"idem": f"t{index}-h{hand}-p", "hand": hand, "player": rng.choice(PLAYERS)}
            out.setdefault("pressure", []).append(_retrying(phone, f"/t/{token}/pressure", pressure))
            for seat, cards in enumerate(leftovers_by_seat):
                form = {"idem": f"t{index}-h{hand}-s{seat}", "cards": cards, "replaces": ""}
                out.setdefault("leftovers", []).append(_retrying(phone, f"/t/{token}/hand/{hand}/seat/{seat}", form))

    def bare(index: int, out: dict[str, list[float]]) -> None:
        phone = Phone(floor_base)
        phone.csrf = "unused"
        for n in range(HANDS * (1 + len(PLAYERS))):
            out.setdefault("insert", []).append(_retrying(phone, "/insert", {"idem": f"f{index}-{n}", "player": "Ann"}))

    app_samples, app_seconds = _run_tables(play)
    floor_samples, floor_seconds = _run_tables(bare)
    total_app = len(app_samples["pressure"]) + len(app_samples["leftovers"])
    _, p99_pressure, _ = _line("record a pressure", app_samples["pressure"], app_seconds)
    _, p99_leftovers, _ = _line("save a player's leftovers", app_samples["leftovers"], app_seconds)
    _, p99_floor, floor_rate = _line("floor: bare Flask + one insert", floor_samples["insert"], floor_seconds)
    app_rate = total_app / app_seconds
    print(f"  all app requests: {app_rate:.0f} req/s; floor {floor_rate:.0f} req/s")
    print(
        f"  ratios: p99 pressure/floor {p99_pressure / p99_floor:.2f}x, p99 leftovers/floor "
        f"{p99_leftovers / p99_floor:.2f}x (aim <= 2x); throughput app/floor {app_rate / floor_rate:.2f}x "
        "(aim >= 0.7x)"
    )
    _propagation(app_base, tokens[0])
    return {"p99": p99_floor, "rate": floor_rate}


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
