"""Serving the app to phones on the local network with gunicorn (``make run``)."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

from gunicorn.app.base import BaseApplication

from . import create_app
from .reports.qr import qr_terminal
from .scoring.errors import Refusal
from .storage.club_results import bring_up_to_date
from .storage.database import connect
from .web import render_pool, starting
from .web.app import configured_proxies
from .web.connection import database_path


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses that another device on the network could reach."""
    found: list[str] = []
    try:
        output = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False).stdout
        found = [part for part in output.split() if "." in part]
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            found = [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
    addresses = [address for address in dict.fromkeys(found) if not address.startswith("127.")]
    return addresses or ["127.0.0.1"]


def announce(host: str, port: int, scheme: str = "http") -> None:
    addresses = local_addresses() if host in ("0.0.0.0", "") else [host]
    urls = [f"{scheme}://{address}:{port}/" for address in addresses]
    print("\nScorekeeper is running. On a phone on the same Wi-Fi, open:", flush=True)
    for url in urls:
        print(f"    {url}", flush=True)
    print("or scan this with the phone's camera:", flush=True)
    qr_terminal(urls[0])
    print("Stop it with Ctrl-C.\n", flush=True)


class _Server(BaseApplication):
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        return create_app()


def port_is_free(host: str, port: int) -> bool:
    """Whether a server could listen on the port (as the live process does, reusing a closed one's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _reach(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host


def _beside(command: list[str], host: str, port: int) -> subprocess.Popen[bytes]:
    """A process of ours beside the server (``python -m scorekeeper.web...``), told to exit when
    its parent does; returned once it listens on ``port`` (or has exited)."""
    process = subprocess.Popen([sys.executable, "-m", *command, "--parent", str(os.getpid())])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection((_reach(host), port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process


def _options(tls: Certificate | None) -> list[str]:
    """What the processes beside the server are told: the certificate, and the trusted proxy (a
    client behind it is counted as itself, as the app counts it)."""
    certificate = [] if tls is None else ["--certfile", tls.certfile, "--keyfile", tls.keyfile]
    proxies = configured_proxies()
    return certificate + (["--proxy", proxies] if proxies else [])


def start_live(host: str, port: int, database: str, tls: Certificate | None = None) -> subprocess.Popen[bytes]:
    """The live process (``web/live.py``) beside the server, listening before the server is."""
    command = ["scorekeeper.web.live", "--host", host, "--port", str(port), "--database", database]
    return _beside([*command, *_options(tls)], host, port)


def start_front(host: str, port: int, upstream: str, tls: Certificate | None = None) -> subprocess.Popen[bytes]:
    """The front (``web/front.py``) on the server's port, handing whole requests to ``upstream``."""
    command = ["scorekeeper.web.front_process", "--host", host, "--port", str(port), "--upstream", upstream]
    front = _beside([*command, *_options(tls)], host, port)
    if front.poll() is not None:
        raise PortTaken(f"port {port} cannot be listened on: is another server running there?")
    return front


@dataclass(frozen=True)
class Certificate:
    """A certificate (chain) and its private key, in PEM files: the server speaks https."""

    certfile: str
    keyfile: str

    def check(self) -> None:
        """Refused with one sentence when the files cannot be read or do not make a pair."""
        from .web.sockets import tls_context

        try:
            tls_context(self.certfile, self.keyfile)
        except (OSError, ssl.SSLError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            message = f"the certificate {self.certfile} and key {self.keyfile} cannot be used: {reason}"
            raise BadCertificate(message, "certfile") from None


class BadCertificate(Refusal):
    """The certificate or key given to ``serve`` cannot be used."""


class PortTaken(Exception):
    """The port ``serve`` was asked to listen on is another program's (a start-up error, said in
    one line, not a refusal of something a user asked for)."""


def _club_record(path: str) -> None:
    """The club's record brought up to date before serving (after an upgrade, its first derivation
    of years of evenings takes seconds: here, not in a page someone waits for). The connection is
    closed before gunicorn forks its workers."""
    db = connect(path)
    try:
        began = time.monotonic()
        derived = bring_up_to_date(db)
        if derived:
            print(
                f"The club's record: {derived} event{'s' if derived != 1 else ''} brought up to date "
                f"in {time.monotonic() - began:.1f} s.",
                flush=True,
            )
    finally:
        db.conn.close()


def serve(
    host: str, port: int, workers: int, threads: int, live_port: int | None = None, tls: Certificate | None = None
) -> None:
    """Prepare the instance folder once, then run gunicorn (workers build their own app) on a
    private Unix socket, the front (``web/front.py``) on ``port`` handing it whole requests, and
    the live process on ``live_port`` (the app's port plus one unless said; 0: none).

    Each worker gets ``render_pool.WAITING`` threads beyond ``threads``: at most that many
    requests wait for a PDF at once, so ``threads`` are always left for the phones. Its
    render process starts (and loads WeasyPrint) with the worker, after the fork.
    """
    if tls is not None:
        tls.check()
    live_port = (port + 1 if port < 65535 else 0) if live_port is None else live_port
    if not port_is_free(host, port):
        raise PortTaken(f"port {port} is taken: is another server running there? (--port chooses another)")
    if live_port and not port_is_free(host, live_port):
        print(f"Port {live_port} is taken: live updates are off (pages follow changes by polling).", flush=True)
        live_port = 0
    scheme = "https" if tls is not None else "http"
    os.environ["SCOREKEEPER_LIVE_PORT"] = str(live_port)  # the workers' pages open their streams there
    os.environ["SCOREKEEPER_LIVE_SCHEME"] = scheme
    os.environ["SCOREKEEPER_FRONT"] = "1"  # requests come whole from the front, with the phone's address
    if tls is not None:
        os.environ["SCOREKEEPER_TLS"] = "1"  # the session cookie is sent over https only
    app = create_app()
    _club_record(database_path(app))
    # The workers' socket, in a folder only this user may open: whoever reaches it is believed
    # about a request's address, and only the front does.
    private = tempfile.mkdtemp(prefix="scorekeeper-")
    upstream = os.path.join(private, "workers.sock")
    master = os.getpid()
    beside: list[subprocess.Popen[bytes]] = []
    if live_port:
        beside.append(start_live(host, live_port, database_path(app), tls))

    def when_ready(server: Any) -> None:
        beside.append(start_front(host, port, upstream, tls))
        announce(host, port, scheme)

    def post_worker_init(worker: Any) -> None:
        render_pool.start()
        starting.start()
        # What the worker holds for its whole life (the app, its templates, the libraries) is
        # kept out of the collector's full passes, which walked all of it and held every thread
        # of the worker meanwhile: the longest pass in 7,500 saves fell from 61 ms to 21 ms.
        gc.collect()
        gc.freeze()

    def worker_exit(server: Any, worker: Any) -> None:
        render_pool.shutdown()

    def on_exit(server: Any) -> None:
        for process in beside:
            process.terminate()
        for process in beside:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
        shutil.rmtree(private, ignore_errors=True)

    try:
        _Server(
            {
                "bind": f"unix:{upstream}",
                "workers": workers,
                "threads": threads + render_pool.WAITING,
                "when_ready": when_ready,
                "post_worker_init": post_worker_init,
                "worker_exit": worker_exit,
                "on_exit": on_exit,
                "accesslog": None,
                "loglevel": "warning",
                "graceful_timeout": 5,
                # Only the front reaches the socket, and it says who is asking in its own headers
                # (``web/security.py`` reads them): gunicorn believes no header about it.
                "secure_scheme_headers": {},
                "forwarder_headers": "",
            }
        ).run()
    finally:
        # A worker is a fork of this process: one that ends by SystemExit (stopped, or on its time
        # limit) comes through here too, and must leave the socket the other workers and the next
        # ones listen on (it took it away once, and every page was a 502 from then on).
        if os.getpid() == master:
            shutil.rmtree(private, ignore_errors=True)
