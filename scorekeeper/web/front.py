"""The front: one asyncio process that meets every connection on the server's port, reads each
request whole (head and body, within time limits) and only then hands it to gunicorn's workers
over a private Unix socket; it reads their answer whole and writes it back at the phone's pace.

Why: gunicorn's threaded workers read a request themselves, with no time limit, so a phone that
falls asleep half-way through a request (or an attacker sending a byte every few seconds) held a
worker thread, and a few dozen of them held every thread a save needed. Here a slow or idle
connection costs a few kilobytes in one event loop; a worker thread sees only whole requests and
is free again as soon as its answer is written to the front. A TLS handshake is done here too
(never in a worker), and plain http sent to the https port is answered with a redirect.

HTTP/1.1 is read and written with ``h11`` (framing, keep-alive, ``Expect: 100-continue``,
pipelining and chunked bodies, as the standard says). Headers only the front may write
(``X-Scorekeeper-Peer``: the address the connection came from; ``X-Scorekeeper-Scheme``) are
dropped from what a phone sends and written again; the app believes them because nobody but the
front can reach the workers' socket (a folder only the server's user may open).

    python -m scorekeeper.web.front --port P --upstream /path/app.sock [--certfile C --keyfile K]
"""

from __future__ import annotations

import argparse
import asyncio
import asyncio.sslproto
import contextlib
import ctypes
import heapq
import logging
import os
import re
import signal
import socket
import ssl
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from ipaddress import IPv6Address, ip_address, ip_network

import h11

from .devices import guesser_key
from .sockets import more_files, tls_context

_log = logging.getLogger(__name__)

#: A connection must start a request within this long of opening (or of its last answer).
IDLE_SECONDS = 15.0
#: A request head must arrive whole within this long of its first byte.
HEAD_SECONDS = 10.0
#: A body may take this long, plus a second for every ``BODY_RATE`` bytes it declares, and
#: never more than ``BODY_MAX_SECONDS`` in all.
BODY_SECONDS = 10.0
BODY_RATE = 1024
BODY_MAX_SECONDS = 120.0
#: A TLS handshake must be finished within this long; a TLS close is waited for this long.
HANDSHAKE_SECONDS = 10.0
SHUTDOWN_SECONDS = 2.0
#: The workers must answer within this long (a printout waits at most 30 s for its renderer).
UPSTREAM_SECONDS = 120.0
#: An answer must be taken by the phone within this long, plus a second per ``BODY_RATE`` bytes.
WRITE_SECONDS = 30.0
#: A request head may hold this many bytes; a body this many (the app refuses smaller ones itself).
HEAD_BYTES = 32 * 1024
#: What a request head may hold that the workers take: an address, headers, one header's value.
TARGET_BYTES = 4000
HEADERS = 90
HEADER_BYTES = 8000
BODY_BYTES = 4 * 1024 * 1024
#: Large bodies being read (an import, a roster: more than ``SMALL_BODY``) take at most this much
#: memory, all connections together, and from one network; past it a large body is refused as
#: "busy". A small body (a save, a join, a login) is never refused for memory: all of them
#: together take at most ``MAX_CONNECTIONS`` × ``SMALL_BODY``.
SMALL_BODY = 64 * 1024
BUFFERED_BYTES = 64 * 1024 * 1024
NETWORK_BUFFERED_BYTES = 8 * 1024 * 1024
#: Connections held at once, and from one network (an address, an IPv6 /64) that is not a proxy
#: the server was told to trust: a phone opens a handful; a hall's phones each have their own.
#: When a network's or all are held, a connection that is not with the workers is closed to make
#: room: the oldest of that network; or, when all are held, the oldest that has not yet sent a
#: whole request, else the oldest of the network holding the most connections (a connection
#: whose answer the phone does not take included).
MAX_CONNECTIONS = 2000
MAX_PER_NETWORK = 64
#: While the front holds more than ``PRESSED`` of its connections, a network (not a trusted proxy)
#: may open a burst of ``OPENINGS`` new ones, then ``OPENINGS_PER_SECOND``: the rest are closed at
#: once, before any TLS work, so that reopening connections as fast as they are closed cannot take
#: the front's time (a phone opens a handful; a page load or test client far from the front's
#: limit is never counted).
PRESSED = 0.9
OPENINGS = 30
OPENINGS_PER_SECOND = 5.0
#: At any time, a network (not a trusted proxy, nor the server's own machine at 127.0.0.1 or ::1)
#: opens a burst of ``QUIET_OPENINGS``, then ``QUIET_OPENINGS_PER_SECOND``: a phone opens a handful
#: a minute, and one address cannot keep the front busy with TLS handshakes it closes at once.
QUIET_OPENINGS = 60
QUIET_OPENINGS_PER_SECOND = 20.0
THIS_MACHINE = frozenset({"127.0.0.1", "::1/128", "::1"})
#: A network is *known* for ``KNOWN_SECONDS`` after the workers answered it a page or a save
#: that only a phone holding a link that exists (a game's, a wall's) or the director's session can
#: ask for (the answer carries ``KNOWN_HEADER``, which the front keeps to itself); any other
#: network is a *stranger*, however many pages anyone may fetch (``/``, ``/robots.txt``, a 404) it
#: was answered. While pressed, strangers share one bucket of openings, so that hundreds of
#: addresses reopening connections cannot keep the front busy with TLS handshakes; a phone the
#: front knows is never counted against it. The front remembers at most ``KNOWN_NETWORKS`` networks.
STRANGER_OPENINGS = 50
STRANGER_OPENINGS_PER_SECOND = 50.0
KNOWN_SECONDS = 3600.0
KNOWN_NETWORKS = 20000
KNOWN_HEADER = b"x-scorekeeper-known"
#: At any time, all networks together (not the server's own machine, nor a trusted proxy) begin
#: at most ``ALL_OPENINGS_PER_SECOND`` connections a second, after a burst of as many: a newer one
#: waits, accepted but before any TLS work, for its turn: known networks' before strangers', the
#: longest known first (a phone at a table since the evening began before a network known since
#: a minute ago). It is closed after ``KNOWN_WAIT_SECONDS``; a stranger's at once when more wait
#: than can begin in ``STRANGER_WAIT_SECONDS`` (how many known ones wait is bounded by the
#: connections the front holds). The front's one core does about 1,000 TLS handshakes a second:
#: thousands of addresses opening connections together take at most a fifth of it, and a hall's
#: phones arriving (a handful of connections each, a few a second) never wait.
ALL_OPENINGS_PER_SECOND = 200.0
KNOWN_WAIT_SECONDS = 5.0
STRANGER_WAIT_SECONDS = 2.0
#: What asyncio reads from a TLS connection at once. Its own size (256 KB, allocated and zeroed
#: for every connection) took 290 KB a TLS connection, 520 MB for 1,800 idle ones; a TLS record
#: is at most 16 KB, and a larger body is read in more steps.
TLS_READ_BYTES = 32 * 1024
#: Requests one network (not a trusted proxy) has with the workers at once; the rest wait in the
#: front, so that one address cannot take every worker thread with an expensive page.
IN_FLIGHT_PER_NETWORK = 4
#: How often the front looks whether the server that started it is still there, and whether it
#: holds far fewer connections than it did (``GIVE_BACK``: then the memory they took, kept by the C
#: library for later, is given back to the system).
TICK_SECONDS = 0.5
GIVE_BACK = 100

#: Headers a phone may not send on to the workers: the connection's own (hop by hop), the framing
#: the front sets again, and the ones only the front writes.
HOP_BY_HOP = frozenset(
    {b"connection", b"keep-alive", b"proxy-connection", b"te", b"trailer", b"transfer-encoding", b"upgrade"}
)
NOT_FORWARDED = HOP_BY_HOP | {b"expect", b"content-length", b"x-scorekeeper-peer", b"x-scorekeeper-scheme"}
PEER_HEADER = b"x-scorekeeper-peer"
SCHEME_HEADER = b"x-scorekeeper-scheme"
HOST = re.compile(rb"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
TLS_HANDSHAKE = 0x16


UNAVAILABLE_TEXT = b"The server is starting or busy: try again in a moment.\n"


class Closed(Exception):
    """The phone went away, sent nothing in time, or sent something that is not HTTP."""


@dataclass
class Front:
    """What the front needs to know, and the connections it holds by network."""

    upstream: str
    tls: ssl.SSLContext | None = None
    proxies: tuple[str, ...] = ()
    max_connections: int = MAX_CONNECTIONS
    max_per_network: int = MAX_PER_NETWORK
    held: dict[str, int] = field(default_factory=dict)
    #: Connections held, all networks together.
    holding: int = 0
    #: Bytes of large bodies read and not yet handed on, all connections together and by network.
    buffered: int = 0
    buffered_by: dict[str, int] = field(default_factory=dict)
    #: By network, the connections not with the workers (waiting for a request, reading one, or
    #: waiting for their network's turn), oldest first: the ones that may be closed to make room.
    waiting: dict[str, dict[asyncio.Task[None], str]] = field(default_factory=dict)
    turns: dict[str, asyncio.Semaphore] = field(default_factory=dict)
    #: Connections that have not yet sent a whole request, oldest first: the first to make room.
    fresh: dict[asyncio.Task[None], str] = field(default_factory=dict)
    #: By network, the openings left and when they were last counted (the loop's clock); and the
    #: strangers' together.
    openings: dict[str, tuple[float, float]] = field(default_factory=dict)
    strangers: tuple[float, float] | None = None
    #: When the workers last answered each network a known answer (the loop's clock), the longest
    #: ago first; and since when each has been known without a break.
    known: dict[str, float] = field(default_factory=dict)
    known_since: dict[str, float] = field(default_factory=dict)
    #: The openings all networks may begin now and when they were last counted; the connections
    #: waiting for their turn: known networks' (the longest known first), strangers' (oldest
    #: first); the task that gives the turns.
    begun: tuple[float, float] | None = None
    known_queue: list[tuple[float, int, asyncio.Future[None]]] = field(default_factory=list)
    stranger_queue: deque[asyncio.Future[None]] = field(default_factory=deque)
    pacing: asyncio.Task[None] | None = None
    waited: int = 0

    def __post_init__(self) -> None:
        self.proxy_networks = [ip_network(proxy, strict=False) for proxy in self.proxies]

    def wait(self, network: str, waiting: bool) -> None:
        """The connection served by this task is not with the workers (or is again)."""
        task = asyncio.current_task()
        if task is None:
            return
        mine = self.waiting.setdefault(network, {})
        if waiting:
            mine.setdefault(task, network)
        else:
            mine.pop(task, None)
            self.fresh.pop(task, None)
        if not mine:
            del self.waiting[network]

    def opened(self, network: str, fresh: bool) -> None:
        """The connection served by this task has opened (``fresh``) or sent a whole request."""
        task = asyncio.current_task()
        if task is None:
            return
        if fresh:
            self.fresh[task] = network
        else:
            self.fresh.pop(task, None)

    def answered(self, network: str) -> None:
        """The workers have answered ``network`` a known answer: no stranger for ``KNOWN_SECONDS``."""
        now = asyncio.get_running_loop().time()
        if not self.is_known(network):
            self.known_since[network] = now
        self.known.pop(network, None)
        self.known[network] = now
        while len(self.known) > KNOWN_NETWORKS:
            forgotten = next(iter(self.known))
            del self.known[forgotten]
            self.known_since.pop(forgotten, None)

    def is_known(self, network: str) -> bool:
        at = self.known.get(network)
        return at is not None and asyncio.get_running_loop().time() - at < KNOWN_SECONDS

    def make_room(self, network: str | None) -> bool:
        """Close the oldest connection not with the workers, of ``network``; or else the oldest
        that has not sent a whole request yet; or else the oldest of the network holding the most
        connections (a trusted proxy's last): whoever floods the front loses their own
        connections first, and a phone that holds a few keeps them."""
        if network is None and self.fresh:
            oldest, network = next(iter(self.fresh.items()))
            return self._close(network, oldest)
        if network is None:
            candidates = [held for held in self.waiting if not held.startswith("proxy ")] or list(self.waiting)
            if not candidates:
                return False
            network = max(candidates, key=lambda held: self.held.get(held, 0))
        mine = self.waiting.get(network)
        if not mine:
            return False
        return self._close(network, next(iter(mine)))

    def _close(self, network: str, task: asyncio.Task[None]) -> bool:
        mine = self.waiting[network]
        del mine[task]
        if not mine:
            del self.waiting[network]
        self.fresh.pop(task, None)
        task.cancel()
        return True

    def turn(self, network: str) -> asyncio.Semaphore:
        """A network's turns with the workers (a trusted proxy's clients are many: it has one per
        connection it may hold)."""
        if network not in self.turns:
            many = self.max_per_network if network.startswith("proxy ") else IN_FLIGHT_PER_NETWORK
            self.turns[network] = asyncio.Semaphore(many)
        return self.turns[network]

    def take(self, network: str, size: int) -> bool:
        """Count ``size`` more bytes of a large body from ``network``, if there is room."""
        mine = self.buffered_by.get(network, 0) + size
        if self.buffered + size > BUFFERED_BYTES or mine > NETWORK_BUFFERED_BYTES:
            return False
        self.buffered += size
        self.buffered_by[network] = mine
        return True

    def give_back(self, network: str, size: int) -> None:
        self.buffered -= size
        left = self.buffered_by.get(network, 0) - size
        if left > 0:
            self.buffered_by[network] = left
        else:
            self.buffered_by.pop(network, None)

    def is_proxy(self, address: str) -> bool:
        try:
            parsed = ip_address(address)
        except ValueError:
            return False
        if isinstance(parsed, IPv6Address) and parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped
        return any(parsed in network for network in self.proxy_networks)

    def admit(self, address: str) -> str | None:
        """The network the connection is counted against, or None if it must be closed at once.
        Its network's connections all held: its oldest not with the workers makes room; all the
        front's held: the oldest of the network holding the most (``make_room``)."""
        proxy = self.is_proxy(address)
        network = f"proxy {address}" if proxy else guesser_key(address)
        if not proxy and not self.may_open(network):
            return None
        if not proxy and self.held.get(network, 0) >= self.max_per_network and not self.make_room(network):
            return None
        if self.holding >= self.max_connections and not self.make_room(None):
            return None
        self.held[network] = self.held.get(network, 0) + 1
        self.holding += 1
        return network

    def may_open(self, network: str) -> bool:
        """Whether ``network`` may open a connection now: while its bucket holds an opening
        (``QUIET_OPENINGS``, refilled at ``QUIET_OPENINGS_PER_SECOND``; while the front holds more
        than ``PRESSED`` of its connections, ``OPENINGS`` and ``OPENINGS_PER_SECOND``) and, for
        a stranger while pressed, the strangers' bucket too (``STRANGER_OPENINGS``, refilled at
        ``STRANGER_OPENINGS_PER_SECOND``). The server's own machine is never counted."""
        if network in THIS_MACHINE:
            return True
        now = asyncio.get_running_loop().time()
        pressed = self.holding > PRESSED * self.max_connections
        burst, rate = (OPENINGS, OPENINGS_PER_SECOND) if pressed else (QUIET_OPENINGS, QUIET_OPENINGS_PER_SECOND)
        left, then = self.openings.get(network, (float(burst), now))
        left = min(float(burst), left + (now - then) * rate)
        shared, since = self.strangers or (float(STRANGER_OPENINGS), now)
        shared = min(float(STRANGER_OPENINGS), shared + (now - since) * STRANGER_OPENINGS_PER_SECOND)
        stranger = pressed and not self.is_known(network)
        allowed = left >= 1 and (not stranger or shared >= 1)
        self.openings[network] = (left - 1 if allowed else left, now)
        self.strangers = (shared - 1 if stranger and allowed else shared, now)
        if len(self.openings) > 4 * self.max_connections:  # forget buckets that are full again
            self.openings = {
                held: (count, at)
                for held, (count, at) in self.openings.items()
                if count + (now - at) * OPENINGS_PER_SECOND < OPENINGS
            }
        return allowed

    def _openings_now(self) -> float:
        """The openings all networks together may begin now (``ALL_OPENINGS_PER_SECOND``)."""
        now = asyncio.get_running_loop().time()
        left, then = self.begun or (ALL_OPENINGS_PER_SECOND, now)
        left = min(ALL_OPENINGS_PER_SECOND, left + (now - then) * ALL_OPENINGS_PER_SECOND)
        self.begun = (left, now)
        return left

    async def begin(self, network: str) -> bool:
        """Wait for this new connection's turn to begin (``ALL_OPENINGS_PER_SECOND``); False if it
        would come too late and the connection is to be closed."""
        if network in THIS_MACHINE or network.startswith("proxy "):
            return True
        loop = asyncio.get_running_loop()
        known, strangers = self.known_queue, self.stranger_queue
        left = self._openings_now()
        if left >= 1 and not known and not strangers:
            self.begun = (left - 1, loop.time())
            return True
        is_known = self.is_known(network)
        if not is_known and len(known) + len(strangers) >= STRANGER_WAIT_SECONDS * ALL_OPENINGS_PER_SECOND:
            return False
        turn: asyncio.Future[None] = loop.create_future()
        if is_known:
            self.waited += 1
            heapq.heappush(known, (self.known_since.get(network, 0.0), self.waited, turn))
        else:
            strangers.append(turn)
        if self.pacing is None or self.pacing.done():
            self.pacing = asyncio.ensure_future(self._give_turns())
        try:  # a turn may come later than it was told: the longest known go first
            await asyncio.wait_for(turn, KNOWN_WAIT_SECONDS)
        except TimeoutError:
            return False
        return True

    async def _give_turns(self) -> None:
        """Give the waiting connections their turns as openings come, known networks' first."""
        while self.known_queue or self.stranger_queue:
            left = self._openings_now()
            if left < 1:
                await asyncio.sleep((1 - left) / ALL_OPENINGS_PER_SECOND)
                continue
            if self.known_queue:
                turn = heapq.heappop(self.known_queue)[2]
            else:
                turn = self.stranger_queue.popleft()
            if not turn.done():  # not closed meanwhile
                turn.set_result(None)
                self.begun = (left - 1, asyncio.get_running_loop().time())

    def release(self, network: str) -> None:
        self.holding -= 1
        left = self.held.get(network, 1) - 1
        if left:
            self.held[network] = left
        else:
            self.held.pop(network, None)
            turn = self.turns.get(network)
            if turn is not None and not turn.locked():
                del self.turns[network]


async def _readable(sock: socket.socket, timeout: float) -> None:
    """Wait until the socket has something to read (or is closed), at most ``timeout``."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(sock.fileno(), readable)
    try:
        await asyncio.wait_for(ready, timeout)
    finally:
        loop.remove_reader(sock.fileno())


async def _streams(
    sock: socket.socket, context: ssl.SSLContext | None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=HEAD_BYTES, loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    transport, _ = await asyncio.wait_for(
        loop.connect_accepted_socket(
            lambda: protocol,
            sock,
            ssl=context,
            ssl_handshake_timeout=None if context is None else HANDSHAKE_SECONDS,
            ssl_shutdown_timeout=None if context is None else SHUTDOWN_SECONDS,
        ),
        HANDSHAKE_SECONDS + 1,
    )
    transport.set_write_buffer_limits(high=0)  # drain() waits until the phone has taken everything
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


async def meet(front: Front, sock: socket.socket, address: str) -> None:
    """One connection, from its first byte to its close."""
    network = front.admit(address)
    if network is None:
        sock.close()
        return
    front.wait(network, True)
    front.opened(network, fresh=True)
    writer: asyncio.StreamWriter | None = None
    try:
        if not await front.begin(network):
            return
        sock.setblocking(False)
        # Small answers go at once (asyncio sets this only on sockets it made itself).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        context = front.tls
        if context is not None:  # plain http to the https port is answered with a redirect
            await _readable(sock, IDLE_SECONDS)
            first = sock.recv(1, socket.MSG_PEEK)
            if not first:
                return
            if first[0] != TLS_HANDSHAKE:
                context = None
        reader, writer = await _streams(sock, context)
        if front.tls is not None and context is None:
            await redirect(front, network, reader, writer)
        else:
            await serve(front, reader, writer, address, network, b"http" if context is None else b"https")
    except (Closed, TimeoutError, ConnectionError, OSError, ssl.SSLError, h11.ProtocolError, asyncio.CancelledError):
        pass
    except Exception:  # a connection's trouble is never the front's
        _log.exception("the front: a connection failed")
    finally:
        front.wait(network, False)
        front.release(network)
        if writer is None:
            sock.close()
        elif writer.transport.get_write_buffer_size():  # an answer the phone never took
            writer.transport.abort()
        else:
            writer.close()


async def _event(conn: h11.Connection, reader: asyncio.StreamReader, deadline: float) -> object:
    """The next thing the phone sent, read before ``deadline`` (the loop's clock)."""
    loop = asyncio.get_running_loop()
    while True:
        event = conn.next_event()
        if event is not h11.NEED_DATA:
            return event
        left = deadline - loop.time()
        if left <= 0:
            raise Closed
        try:
            data = await asyncio.wait_for(reader.read(64 * 1024), left)
        except TimeoutError:
            raise Closed from None
        conn.receive_data(data)


@dataclass
class Request:
    method: bytes
    target: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes


@dataclass
class Answer:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    reason: bytes = b""
    #: The workers said the phone holds a link that exists (``KNOWN_HEADER``, never sent on).
    known: bool = False


async def read_request(
    front: Front, network: str, conn: h11.Connection, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> Request:
    """One whole request, or ``Closed``: the first byte within ``IDLE_SECONDS``, the head within
    ``HEAD_SECONDS`` of it, the body within ``BODY_SECONDS`` plus a second per ``BODY_RATE`` bytes."""
    loop = asyncio.get_running_loop()
    head: object = conn.next_event()
    if head is h11.NEED_DATA:
        try:
            first = await asyncio.wait_for(reader.read(64 * 1024), IDLE_SECONDS)
        except TimeoutError:
            raise Closed from None
        conn.receive_data(first)
        head = await _event(conn, reader, loop.time() + HEAD_SECONDS)
    if not isinstance(head, h11.Request):
        raise Closed
    if (
        len(head.target) + sum(len(name) + len(value) + 4 for name, value in head.headers) > HEAD_BYTES
        or len(head.target) > TARGET_BYTES
        or len(head.headers) > HEADERS
        or any(len(value) > HEADER_BYTES for _, value in head.headers)
    ):  # what gunicorn would refuse with a bare page (and a line in its log each time)
        await answer(conn, writer, NOT_HTTP, close=True)
        raise Closed
    declared = dict(head.headers).get(b"content-length")
    size = int(declared) if declared is not None else 0
    if size > BODY_BYTES:
        await answer(conn, writer, TOO_LARGE, close=True)
        raise Closed
    if conn.they_are_waiting_for_100_continue:
        writer.write(conn.send(h11.InformationalResponse(status_code=100, headers=[])) or b"")
    deadline = loop.time() + min(BODY_SECONDS + size / BODY_RATE, BODY_MAX_SECONDS)
    body = bytearray()
    counted = 0  # bytes of a large body counted against the budgets
    try:
        while True:
            event = await _event(conn, reader, deadline)
            if isinstance(event, h11.Data):
                body += event.data
                if len(body) > BODY_BYTES:
                    await answer(conn, writer, TOO_LARGE, close=True)
                    raise Closed
                if len(body) > SMALL_BODY:
                    if not front.take(network, len(body) - counted):
                        await answer(conn, writer, BUSY, close=True)
                        raise Closed
                    counted = len(body)
            elif isinstance(event, h11.EndOfMessage):
                return Request(head.method, head.target, list(head.headers), bytes(body))
            else:
                raise Closed
    finally:
        if counted:
            front.give_back(network, counted)


def said(status: int, text: bytes, headers: Iterable[tuple[bytes, bytes]] = ()) -> Answer:
    """An answer of the front's own, in a sentence."""
    return Answer(status, [(b"content-type", b"text/plain; charset=utf-8"), *headers], text)


TOO_LARGE = said(413, b"This request is too large.\n")
NOT_HTTP = said(400, b"This is not a request the server understands.\n")
UNAVAILABLE = said(502, UNAVAILABLE_TEXT, [(b"retry-after", b"2")])
BUSY = said(503, UNAVAILABLE_TEXT, [(b"retry-after", b"2")])
LATE = said(504, UNAVAILABLE_TEXT, [(b"retry-after", b"2")])


async def answer(
    conn: h11.Connection, writer: asyncio.StreamWriter, given: Answer, close: bool = False, head_only: bool = False
) -> None:
    """Write a whole answer and wait (within ``WRITE_SECONDS`` and the size) until it is taken. Its
    length is the body's, except for a HEAD, a 204 or a 304, where the workers' is kept."""
    head_only = head_only or given.status in (204, 304)
    drop = HOP_BY_HOP if head_only else HOP_BY_HOP | {b"content-length"}
    listed = [(name, value) for name, value in given.headers if name.lower() not in drop]
    if close:
        listed.append((b"connection", b"close"))
    if not head_only:
        listed.append((b"content-length", str(len(given.body)).encode()))
    parts = [conn.send(h11.Response(status_code=given.status, headers=listed, reason=given.reason))]
    if given.body and not head_only:
        parts.append(conn.send(h11.Data(data=given.body)))
    parts.append(conn.send(h11.EndOfMessage()))
    writer.write(b"".join(part for part in parts if part))  # one write: one TLS record, no waiting on an ACK
    await asyncio.wait_for(writer.drain(), WRITE_SECONDS + len(given.body) / BODY_RATE)


async def serve(
    front: Front, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str, network: str, scheme: bytes
) -> None:
    """Requests one after another on a kept-alive connection, each handed whole to the workers."""
    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_BYTES)
    while True:
        front.wait(network, True)
        try:
            request = await read_request(front, network, conn, reader, writer)
        except h11.RemoteProtocolError:
            if conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                await answer(conn, writer, NOT_HTTP, close=True)
            return
        front.opened(network, fresh=False)  # it has asked for something whole
        async with front.turn(network):
            front.wait(network, False)  # with the workers: never closed to make room
            given = await forward(front.upstream, request, address, scheme)
        if given.known:
            front.answered(network)
        front.wait(network, True)  # an answer the phone does not take may be closed to make room
        await answer(conn, writer, given, head_only=request.method == b"HEAD")
        if conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
            return
        conn.start_next_cycle()


async def forward(upstream: str, request: Request, address: str, scheme: bytes) -> Answer:
    """The workers' whole answer to a whole request (502 when they cannot be reached, 504 late)."""
    headers = [(name, value) for name, value in request.headers if name.lower() not in NOT_FORWARDED]
    if not any(name == b"host" for name, _ in headers):  # HTTP/1.0 may leave it out
        headers.append((b"host", b"localhost"))
    headers += [
        (PEER_HEADER, address.encode()),
        (SCHEME_HEADER, scheme),
        (b"content-length", str(len(request.body)).encode()),
        (b"connection", b"close"),
    ]
    conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=HEAD_BYTES)
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(upstream, limit=2**20), 5)
    except (OSError, TimeoutError):
        return UNAVAILABLE
    try:
        writer.write(conn.send(h11.Request(method=request.method, target=request.target, headers=headers)) or b"")
        writer.write(conn.send(h11.Data(data=request.body)) or b"")
        writer.write(conn.send(h11.EndOfMessage()) or b"")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + UPSTREAM_SECONDS
        response = await _event(conn, reader, deadline)
        while isinstance(response, h11.InformationalResponse):
            response = await _event(conn, reader, deadline)
        if not isinstance(response, h11.Response):
            return UNAVAILABLE
        body = bytearray()
        while True:
            event = await _event(conn, reader, deadline)
            if isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                headers = [(name, value) for name, value in response.headers if name != KNOWN_HEADER]
                known = len(headers) < len(response.headers)
                return Answer(response.status_code, headers, bytes(body), response.reason, known)
            else:
                return UNAVAILABLE
    except Closed:
        return LATE
    except (OSError, h11.ProtocolError):
        return UNAVAILABLE
    finally:
        writer.close()


async def redirect(front: Front, network: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Plain http sent to the https port: told where the same page is over https."""
    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_BYTES)
    try:
        request = await read_request(front, network, conn, reader, writer)
    except h11.RemoteProtocolError:
        return
    host = dict(request.headers).get(b"host", b"")
    if not HOST.fullmatch(host):
        await answer(conn, writer, said(400, b"This server speaks https only.\n"), close=True)
        return
    target = request.target if request.target.startswith(b"/") else b"/"
    location = b"https://" + host + target
    status = 301 if request.method in (b"GET", b"HEAD") else 308
    text = b"This server speaks https: " + location + b"\n"
    await answer(conn, writer, said(status, text, [(b"location", location)]), close=True)


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
    """``python -m scorekeeper.web.front`` (started by ``scorekeeper serve``)."""
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
