"""Serving the app to phones on the local network with gunicorn (``make run``)."""

from __future__ import annotations

import socket
import subprocess
from typing import Any

from gunicorn.app.base import BaseApplication

from . import create_app
from .reports.qr import qr_terminal
from .web import printer


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


def announce(host: str, port: int) -> None:
    addresses = local_addresses() if host in ("0.0.0.0", "") else [host]
    urls = [f"http://{address}:{port}/" for address in addresses]
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


def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Prepare the instance folder once, then run gunicorn (workers build their own app).

    Each worker gets ``printer.WAITING`` threads beyond ``threads``: at most that many
    requests wait for a PDF at once, so ``threads`` are always left for the phones. Its
    render process starts (and loads WeasyPrint) with the worker, after the fork.
    """
    create_app()

    def when_ready(server: Any) -> None:
        announce(host, port)

    def post_worker_init(worker: Any) -> None:
        printer.start()

    def worker_exit(server: Any, worker: Any) -> None:
        printer.shutdown()

    _Server(
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "threads": threads + printer.WAITING,
            "when_ready": when_ready,
            "post_worker_init": post_worker_init,
            "worker_exit": worker_exit,
            "accesslog": None,
            "loglevel": "warning",
            "graceful_timeout": 5,
        }
    ).run()
