"""The servers the load benchmarks post to, and the floor they are measured beside.

`scorekeeper serve` runs as `make run` starts it; the floor is a bare Flask endpoint doing one
durable insert (`bench.floor_app`) under gunicorn with the same workers and threads. Loopback
only. Machines here are noisy, and a floor measured a minute apart from its figure measures the
noise as much as the app: so the app and the floor take turns, round after round (app first,
then floor first, ...), each round beside its own floor, and the ratio reported is the median
of the rounds', after a round of each not counted.
"""

from __future__ import annotations

import os
import random
import socket
import ssl
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from scorekeeper.serve import port_is_free
from scorekeeper.web.render_pool import WAITING

from .phone import Phone, Unreachable

BIN = Path(sys.executable).parent
#: Threads a worker of `scorekeeper serve` runs: 4 for the phones and render_pool.WAITING more for
#: requests that wait on a PDF. The floor's gunicorn gets as many, so that both serve alike.
APP_THREADS = 4 + WAITING

#: A table's work in one round: (table's index, the round, where to note each latency by kind).
Work = Callable[[int, int, dict[str, list[float]]], None]


#: Ports a server under test is given: below the system's range for outgoing connections
#: (32768–60999 on Linux), so that no client connection of a test running beside it can take
#: the port between its choice and the server's bind (seen: `scorekeeper serve` failing with
#: "address already in use" on its live port, the app's port plus one).
CHOSEN_PORTS = range(20000, 32000, 2)


def free_port() -> int:
    """A port free now, with the next one (a server's live port) free too, outside the system's
    range for outgoing connections."""
    for port in random.sample(CHOSEN_PORTS, len(CHOSEN_PORTS)):
        try:
            with socket.socket() as first, socket.socket() as second:
                first.bind(("127.0.0.1", port))
                second.bind(("127.0.0.1", port + 1))
        except OSError:
            continue
        return port
    raise OSError("no two free ports next to each other below 32000")


def unverified() -> ssl.SSLContext:
    """A client's TLS that takes the bench's own self-signed certificate."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def wait_up(base: str) -> None:
    """Until the server answers anything at all (a 404 will do)."""
    context = unverified() if base.startswith("https:") else None
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/csrf", timeout=1, context=context).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


@dataclass(frozen=True)
class Server:
    base: str
    port: int
    pid: int


@contextmanager
def _running(command: list[str], env: dict[str, str], port: int, scheme: str = "http") -> Iterator[Server]:
    process = subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    server = Server(f"{scheme}://127.0.0.1:{port}", port, process.pid)
    try:
        wait_up(server.base)
        yield server
    finally:
        os.killpg(process.pid, 15)
        process.wait(timeout=15)


def app_server(folder: Path, tls: tuple[str, str] | None = None) -> AbstractContextManager[Server]:
    """`scorekeeper serve` on loopback over the instance folder, as `make run` starts it.

    Its live process listens on the next port: a port is picked whose next one is free too (a
    free port is one of the system's own for client connections, and after the thousands of
    connections of a load the next one is often still held by one that closed moments ago)."""
    port = free_port()
    while not port_is_free("127.0.0.1", port + 1):
        port = free_port()
    certificate = ["--certfile", tls[0], "--keyfile", tls[1]] if tls else []
    return _running(
        [str(BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port), *certificate],
        {"SCOREKEEPER_INSTANCE": str(folder)},
        port,
        "https" if tls else "http",
    )


def self_signed(folder: Path) -> tuple[str, str]:
    """A certificate for 127.0.0.1 and its key, made with openssl (two days long)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return str(cert), str(key)


def floor_server(folder: Path) -> AbstractContextManager[Server]:
    port = free_port()
    return _running(
        [
            str(BIN / "gunicorn"),
            "-w",
            "2",
            "--threads",
            str(APP_THREADS),
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "bench.floor_app:app",
        ],
        {"FLOOR_DATABASE": str(folder / "floor.db"), "SCOREKEEPER_INSTANCE": str(folder)},
        port,
    )


def floor_behind_front(folder: Path) -> AbstractContextManager[Server]:
    """The floor served as `scorekeeper serve` serves the app: the same gunicorn workers on a Unix
    socket, behind the front (``scorekeeper.web.front``), which reads each request whole and
    writes each answer: the figure an app's page is compared with like for like."""
    port = free_port()
    sock = folder / "floor.sock"
    workers = f"{BIN / 'gunicorn'} -w 2 --threads {APP_THREADS} -b unix:{sock} --log-level warning bench.floor_app:app"
    front = f"{BIN / 'python'} -m scorekeeper.web.front_process --host 127.0.0.1 --port {port} --upstream {sock}"
    wait_socket = f"while [ ! -S {sock} ]; do sleep 0.05; done"
    return _running(
        ["sh", "-c", f"{workers} & {wait_socket}; exec {front}"],
        {"FLOOR_DATABASE": str(folder / "floor.db"), "SCOREKEEPER_INSTANCE": str(folder)},
        port,
    )


def cpu_ms(server: Server) -> float | None:
    """CPU time (ms) the server's processes (its session: the front, the master and workers, the
    live process) and all their threads have used so far, from Linux's per-thread scheduler
    counts (nanoseconds); None where there are none. The PDF render processes are left out: no
    page uses them, and for seconds after the start they load WeasyPrint. A figure a loaded
    machine moves less than the time a request takes."""
    total = 0
    try:
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                if os.getsid(int(entry.name)) != server.pid:
                    continue
                with open(f"/proc/{entry.name}/cmdline", "rb") as command:
                    if b"multiprocessing" in command.read():
                        continue
                for task in os.scandir(f"/proc/{entry.name}/task"):
                    with open(f"{task.path}/schedstat", encoding="ascii") as counts:
                        total += int(counts.read().split()[0])
            except (OSError, ValueError):  # gone meanwhile, or not ours to read
                continue
    except OSError:
        return None
    return total / 1e6 if total else None


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


def run_tables(tables: int, round_: int, work: Work) -> tuple[dict[str, list[float]], float]:
    """All tables at once (started together at a barrier): the latencies by kind, and the seconds taken."""
    samples: dict[str, list[float]] = {}
    lock = threading.Lock()
    barrier = threading.Barrier(tables)

    def table(index: int) -> None:
        local: dict[str, list[float]] = {}
        barrier.wait()
        work(index, round_, local)
        with lock:
            for kind, values in local.items():
                samples.setdefault(kind, []).extend(values)

    threads = [threading.Thread(target=table, args=(i,)) for i in range(tables)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return samples, time.perf_counter() - start


def floor_work(base: str, requests_each: int) -> Work:
    """A table of the floor: as many bare inserts, one after another, as the app's table posts."""

    def work(index: int, round_: int, out: dict[str, list[float]]) -> None:
        phone = Phone(base)
        phone.csrf = "unused"
        for n in range(requests_each):
            data = {"idem": f"r{round_}-f{index}-{n}", "player": "Ann"}
            out.setdefault("insert", []).append(retrying_post(phone, "/insert", data)[0])

    return work


@dataclass(frozen=True)
class Round:
    """One round: the app's latencies by kind and its seconds, beside the floor's."""

    app: dict[str, list[float]]
    app_seconds: float
    floor: list[float]
    floor_seconds: float

    @property
    def throughput(self) -> float:
        app_rate = sum(len(values) for values in self.app.values()) / self.app_seconds
        return app_rate / (len(self.floor) / self.floor_seconds)

    def p99_ratio(self, kind: str) -> float:
        return percentile(self.app[kind], 0.99) / percentile(self.floor, 0.99)


def take_turns(rounds: int, tables: int, app: Work, floor: Work) -> list[Round]:
    """`rounds` rounds of the app and the floor in turn, the first of the pair alternating, after
    a round of each that is not counted (round 0: the servers' first requests, as a hall's server
    that has run all evening is past them). The work of round r posts to its own tables."""
    run_tables(tables, 0, app)
    run_tables(tables, 0, floor)
    found = []
    for round_ in range(1, rounds + 1):
        if round_ % 2 == 0:
            app_samples, app_seconds = run_tables(tables, round_, app)
            floor_samples, floor_seconds = run_tables(tables, round_, floor)
        else:
            floor_samples, floor_seconds = run_tables(tables, round_, floor)
            app_samples, app_seconds = run_tables(tables, round_, app)
        found.append(Round(app_samples, app_seconds, floor_samples["insert"], floor_seconds))
    return found


def line(name: str, values: list[float], seconds: float) -> None:
    p50, p99, rate = statistics.median(values), percentile(values, 0.99), len(values) / seconds
    print(f"    {name:<34} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   {rate:7.0f} req/s   ({len(values)} requests)")


def report(rounds: list[Round], names: dict[str, str]) -> None:
    """Each round's figures and ratios, then the medians of the ratios against the aims."""
    for number, round_ in enumerate(rounds, 1):
        print(f"  round {number}:")
        for kind, name in names.items():
            line(name, round_.app[kind], round_.app_seconds)
        line("floor: bare Flask + one insert", round_.floor, round_.floor_seconds)
        ratios = ", ".join(f"p99 {kind}/floor {round_.p99_ratio(kind):.2f}x" for kind in names)
        print(f"    ratios: {ratios}; throughput app/floor {round_.throughput:.2f}x")
    medians = ", ".join(
        f"p99 {kind}/floor {statistics.median(r.p99_ratio(kind) for r in rounds):.2f}x" for kind in names
    )
    print(
        f"  median of {len(rounds)} rounds: {medians} (aim <= 2x); throughput app/floor "
        f"{statistics.median(r.throughput for r in rounds):.2f}x (aim >= 0.7x)"
    )
