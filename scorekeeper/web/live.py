"""Live updates: a game's (or an event's) version pushed to every phone following it, as
server-sent events, from one small asyncio process beside gunicorn.

Why a process of its own: gunicorn's workers hold a thread for every open request, so a hundred
phones holding a stream open would hold a hundred threads. One asyncio loop holds thousands of
idle connections in one thread. It learns of changes without any coupling to the workers: it
asks SQLite every ``POLL_SECONDS`` for ``PRAGMA data_version`` (which moves only when another
connection commits, and costs microseconds), and only then reads the versions of what is being
followed, in one query a kind. The phones keep the 304 polling of ``/version`` as their fallback
(a proxy that drops streams, a browser without ``EventSource``), and pages work without either.

    GET /live/t/<record token>   the record link's game
    GET /live/v/<view token>     the view link's game
    GET /live/e/<wall token>     an event (its wall screen)

Each answers ``event: version`` with the version at once and again at every change, a comment
every ``HEARTBEAT_SECONDS`` (so that dead connections are found and proxies keep the stream),
and a ``retry:`` of a few seconds with jitter, so that phones that lost the server together do
not come back together.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import re
import signal
import ssl
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network

from ..storage import events as event_store
from ..storage.database import connect, data_version
from ..storage.evening import settle_due
from ..storage.games import game_version
from .devices import guesser_key
from .sockets import more_files, tls_context

_log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
HEARTBEAT_SECONDS = 15.0
#: Open streams the process holds at most, and from one network (an address, an IPv6 /64). The
#: server's own machine is one network like any: behind a reverse proxy, name the proxy
#: (``--proxy``, from ``SCOREKEEPER_PROXY``) and its ``X-Forwarded-For`` names each client.
MAX_STREAMS = 2000
MAX_PER_NETWORK = 100
#: A request must arrive whole within this long, and be no longer than this.
REQUEST_SECONDS = 5.0
REQUEST_BYTES = 4096
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
KINDS = ("t", "v", "e")


@dataclass(eq=False)
class Stream:
    """One phone's open stream: where its versions are queued for it."""

    key: tuple[str, str]
    network: str
    queue: asyncio.Queue[int] = field(default_factory=asyncio.Queue)


class Hub:
    """What is followed, its versions as last seen, and the streams following each."""

    def __init__(
        self,
        database: str,
        max_streams: int = MAX_STREAMS,
        heartbeat: float = HEARTBEAT_SECONDS,
        max_per_network: int = MAX_PER_NETWORK,
        proxies: Iterable[str] = (),
    ) -> None:
        self.max_streams = max_streams
        self.max_per_network = max_per_network
        self.heartbeat = heartbeat
        self.proxies: list[IPv4Network | IPv6Network] = [
            ip_network(proxy.strip(), strict=False) for proxy in proxies if proxy.strip()
        ]
        self.db = connect(database)
        self.streams: dict[tuple[str, str], set[Stream]] = {}
        self.versions: dict[tuple[str, str], int] = {}
        self.seen_data_version = -1

    def version_of(self, key: tuple[str, str]) -> int | None:
        kind, token = key
        if kind == "t":
            return game_version(self.db, "record_token", token)
        if kind == "v":
            return game_version(self.db, "view_token", token)
        event = event_store.event_by_wall_token(self.db, token)
        return None if event is None else event_store.event_version(self.db, event)

    def open(self, stream: Stream, version: int) -> None:
        """A new stream, told ``version`` at once; if that is newer than what the others following
        the same game were last told (it changed since the last look), they are told it too, or
        the next look would find nothing new and they would never hear of it."""
        following = self.streams.setdefault(stream.key, set())
        stream.queue.put_nowait(version)
        if self.versions.get(stream.key) != version:
            self.versions[stream.key] = version
            for other in following:
                other.queue.put_nowait(version)
        following.add(stream)

    def close(self, stream: Stream) -> None:
        following = self.streams.get(stream.key)
        if following is None:
            return
        following.discard(stream)
        if not following:
            del self.streams[stream.key]
            self.versions.pop(stream.key, None)

    def client(self, peer: str, head: bytes) -> str:
        """Whom a stream is counted against: the peer, or, when the peer is a trusted proxy, the
        client its ``X-Forwarded-For`` names (its last entry: the one the proxy itself added),
        as the app believes it (``security.ForwardedByProxy``). From anyone else the header is ignored."""
        try:
            sender = ip_address(peer)
        except ValueError:
            return peer
        if not any(sender in network for network in self.proxies):
            return peer
        forwarded = [
            value.strip()
            for line in head.decode("latin-1").split("\r\n")[1:]
            if line.partition(":")[0].strip().lower() == "x-forwarded-for"
            for value in line.partition(":")[2].split(",")
        ]
        try:
            return str(ip_address(forwarded[-1])) if forwarded else peer
        except ValueError:
            return peer

    def count(self, network: str | None = None) -> int:
        return sum(1 for streams in self.streams.values() for s in streams if network is None or s.network == network)

    def check(self) -> None:
        """Push the new version of everything followed that changed since the last look."""
        now = data_version(self.db)
        if now is None or now == self.seen_data_version:
            return
        self.seen_data_version = now
        for key in list(self.streams):
            version = self.version_of(key)
            if version is None or version == self.versions.get(key):
                continue
            self.versions[key] = version
            for stream in self.streams.get(key, ()):
                stream.queue.put_nowait(version)

    async def watch(self, parent: int, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.sleep(POLL_SECONDS)
            if parent and os.getppid() != parent:  # the server that started us is gone
                return
            try:
                self.check()
            except Exception:  # a database that cannot be read just now: look again next time
                _log.exception("live updates: could not read the versions")


#: How often the live process looks for rounds at time (``storage.evening.settle_due``).
CLOCK_SECONDS = 1.0


def _settle_due(database: str) -> int:
    db = connect(database)
    try:
        return settle_due(db)
    finally:
        db.conn.close()


async def keep_time(database: str, stop: asyncio.Event) -> None:
    """Lock the tables a round's time has closed, with no page open: every second, in a thread
    (a write must not hold the loop). One live process beside all of gunicorn's workers, so the
    timer runs once however many workers there are; the pages' own checks (a change at a table,
    the event page, the wall screen) lock the same tables if it is not running, and every lock is
    made only if the game's log still stands as it was checked, so two at once lock once."""
    while not stop.is_set():
        await asyncio.sleep(CLOCK_SECONDS)
        try:
            await asyncio.to_thread(_settle_due, database)
        except Exception:  # a database busy just now: look again next time
            _log.exception("round clock: could not lock the tables at time")


def _answer(status: str, extra: str = "") -> bytes:
    body = status.split(" ", 1)[1] + "\n"
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
        f"Access-Control-Allow-Origin: *\r\nCache-Control: no-store\r\nConnection: close\r\n{extra}\r\n{body}"
    ).encode()


STREAM_HEADERS = (
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-store\r\n"
    "Access-Control-Allow-Origin: *\r\nX-Accel-Buffering: no\r\nConnection: keep-alive\r\n\r\n"
)


def parse_request(head: bytes) -> tuple[str, str] | None:
    """``GET /live/<kind>/<token>`` as (kind, token), or None."""
    line = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != "GET":
        return None
    path = parts[1].split("?", 1)[0].split("/")
    if len(path) != 4 or path[:2] != ["", "live"] or path[2] not in KINDS or not TOKEN.fullmatch(path[3]):
        return None
    return path[2], path[3]


async def serve_stream(hub: Hub, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    peer = writer.get_extra_info("peername")
    address = str(peer[0]) if peer else "unknown"
    stream: Stream | None = None
    try:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_SECONDS)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            return
        key = parse_request(head)
        if key is None:
            writer.write(_answer("404 Not Found"))
            return
        network = guesser_key(hub.client(address, head))
        busy = hub.count() >= hub.max_streams or hub.count(network) >= hub.max_per_network
        if busy:
            writer.write(_answer("503 Service Unavailable", f"Retry-After: {random.randint(20, 60)}\r\n"))
            return
        version = hub.version_of(key)
        if version is None:
            writer.write(_answer("404 Not Found"))
            return
        stream = Stream(key, network)
        hub.open(stream, version)
        writer.write((STREAM_HEADERS + f"retry: {random.randint(2000, 5000)}\n\n").encode())
        await _follow(hub, stream, reader, writer)
    except (ConnectionError, OSError, asyncio.CancelledError):  # the phone left, or the server stops
        return
    finally:
        if stream is not None:
            hub.close(stream)
        with contextlib.suppress(ConnectionError, OSError):
            await writer.drain()
        writer.close()


async def _follow(hub: Hub, stream: Stream, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Write each version queued for the stream, and a comment when there is none for a while,
    until the phone goes away (a phone sends nothing after its request: anything read is its end)."""
    gone = asyncio.ensure_future(reader.read(1))
    try:
        while True:
            queued = asyncio.ensure_future(stream.queue.get())
            done, _ = await asyncio.wait({queued, gone}, timeout=hub.heartbeat, return_when=asyncio.FIRST_COMPLETED)
            if gone in done:
                queued.cancel()
                return
            if queued in done:
                writer.write(f"event: version\ndata: {queued.result()}\n\n".encode())
            else:
                queued.cancel()
                writer.write(b": still here\n\n")
            await writer.drain()
    finally:
        gone.cancel()


async def run(
    host: str,
    port: int,
    database: str,
    parent: int = 0,
    max_streams: int = MAX_STREAMS,
    heartbeat: float = HEARTBEAT_SECONDS,
    ready: Callable[[], None] | None = None,
    tls: ssl.SSLContext | None = None,
    max_per_network: int = MAX_PER_NETWORK,
    proxies: Iterable[str] = (),
) -> None:
    hub = Hub(database, max_streams, heartbeat, max_per_network, proxies)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    server = await asyncio.start_server(
        lambda reader, writer: serve_stream(hub, reader, writer),
        host,
        port,
        limit=REQUEST_BYTES,
        reuse_address=True,
        ssl=tls,
    )
    if ready is not None:
        ready()
    async with server:
        keeping = asyncio.create_task(keep_time(database, stop))
        await hub.watch(parent, stop)
        keeping.cancel()


def main(argv: list[str] | None = None) -> None:
    """``python -m scorekeeper.web.live --host H --port P --database PATH`` (started by ``scorekeeper serve``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--parent", type=int, default=0, help="exit when this process is no longer our parent")
    parser.add_argument("--max-streams", type=int, default=MAX_STREAMS)
    parser.add_argument("--max-per-network", type=int, default=MAX_PER_NETWORK)
    parser.add_argument("--heartbeat", type=float, default=HEARTBEAT_SECONDS)
    parser.add_argument(
        "--proxy",
        default="",
        help="the trusted reverse proxy (addresses or networks, comma-separated), as SCOREKEEPER_PROXY",
    )
    parser.add_argument("--certfile", help="serve https with this certificate (and --keyfile)")
    parser.add_argument("--keyfile")
    options = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it stops us
    more_files()  # each stream is an open file: a laptop's default of 1,024 is soon reached
    settings = (options.parent, options.max_streams, options.heartbeat)
    tls = tls_context(options.certfile, options.keyfile) if options.certfile else None
    try:
        proxies = [str(ip_network(proxy.strip(), strict=False)) for proxy in options.proxy.split(",") if proxy.strip()]
    except ValueError as error:
        parser.error(f"--proxy: {error}")
    asyncio.run(
        run(
            options.host,
            options.port,
            options.database,
            *settings,
            tls=tls,
            max_per_network=options.max_per_network,
            proxies=proxies,
        )
    )


if __name__ == "__main__":
    main()
