"""The front's process: its listening socket, its loop (every connection met by ``front.meet``,
memory given back after a crowd, stopped with the server that started it), its command line.

    python -m scorekeeper.web.front_process --port P --upstream /path/app.sock [--certfile C --keyfile K]
"""

from __future__ import annotations

import argparse
import asyncio
import asyncio.sslproto
import contextlib
import ctypes
import os
import signal
import socket

from .front import meet
from .front_limits import MAX_PER_NETWORK, Front
from .sockets import more_files, tls_context

#: What asyncio reads from a TLS connection at once. Its own size (256 KB, allocated and zeroed
#: for every connection) took 290 KB a TLS connection, 520 MB for 1,800 idle ones; a TLS record
#: is at most 16 KB, and a larger body is read in more steps.
TLS_READ_BYTES = 32 * 1024
#: How often the front looks whether the server that started it is still there, and whether it
#: holds far fewer connections than it did (``GIVE_BACK``: then the memory they took, kept by the C
#: library for later, is given back to the system).
TICK_SECONDS = 0.5
GIVE_BACK = 100


def give_back_memory() -> None:
    """Give the system back the memory the C library keeps after connections closed (1,500 idle
    TLS connections left 90 MB behind them); nothing where the C library is not glibc's."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=4096)
    listener.setblocking(False)
    return listener


async def run(front: Front, listener: socket.socket, stop: asyncio.Event, parent: int = 0) -> None:
    """Accept connections until ``stop`` is set or the server that started us is gone."""
    loop = asyncio.get_running_loop()
    asyncio.sslproto.SSLProtocol.max_size = TLS_READ_BYTES  # this process's TLS connections only
    open_files = more_files()
    front.max_connections = min(front.max_connections, max(open_files - 64, 16))
    tasks: set[asyncio.Task[None]] = set()

    async def accept() -> None:
        while True:
            try:
                sock, peer = await loop.sock_accept(listener)
            except OSError:  # out of files for a moment: let connections close
                await asyncio.sleep(0.05)
                continue
            task = asyncio.ensure_future(meet(front, sock, str(peer[0])))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    accepting = asyncio.ensure_future(accept())
    most = 0  # connections held at most since memory was last given back
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), TICK_SECONDS)
            if parent and os.getppid() != parent:
                return
            most = max(most, front.holding)
            if most - front.holding >= GIVE_BACK:
                give_back_memory()
                most = front.holding
    finally:
        accepting.cancel()
        if front.pacing is not None:
            front.pacing.cancel()
        listener.close()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(accepting, *tasks, return_exceptions=True)


async def _until_stopped(front: Front, listener: socket.socket, parent: int) -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await run(front, listener, stop, parent)


def main(argv: list[str] | None = None) -> None:
    """``python -m scorekeeper.web.front_process`` (started by ``scorekeeper serve``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True, help="the workers' Unix socket")
    parser.add_argument("--parent", type=int, default=0, help="exit when this process is no longer our parent")
    parser.add_argument("--certfile", help="serve https with this certificate (and --keyfile)")
    parser.add_argument("--keyfile")
    parser.add_argument("--proxy", default="", help="comma-separated addresses or networks of trusted proxies")
    parser.add_argument("--max-per-network", type=int, default=MAX_PER_NETWORK)
    options = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it stops us
    tls = tls_context(options.certfile, options.keyfile) if options.certfile else None
    proxies = tuple(part.strip() for part in options.proxy.split(",") if part.strip())
    front = Front(options.upstream, tls, proxies, max_per_network=options.max_per_network)
    asyncio.run(_until_stopped(front, listen(options.host, options.port), options.parent))


if __name__ == "__main__":
    main()
