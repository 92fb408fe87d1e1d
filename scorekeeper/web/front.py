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

Its process (the listening socket, the loop, the command line) is ``front_process``.
"""

from __future__ import annotations

import asyncio
import asyncio.sslproto
import logging
import re
import socket
import ssl
from collections.abc import Iterable
from dataclasses import dataclass

import h11

from .front_limits import ANSWERING, KEPT, OPENING, SMALL_BODY, STARTED, Front

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
KNOWN_HEADER = b"x-scorekeeper-known"
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


async def _readable(sock: socket.socket, timeout: float) -> None:
    """Wait until the socket has something to read (or is closed), at most ``timeout``."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(sock.fileno(), readable)
    try:
        async with asyncio.timeout(timeout):
            await ready
    finally:
        loop.remove_reader(sock.fileno())


class _Protocol(asyncio.StreamReaderProtocol):
    """A stream's protocol that remembers the transport it was given (``made``)."""

    made: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made = transport
        super().connection_made(transport)


async def _streams(
    sock: socket.socket, context: ssl.SSLContext | None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The connection's streams, TLS set up if ``context``. Closed (to make room, or for its time
    limit) in the moment its TLS handshake completes, asyncio would close the new transport the
    polite way, a TLS close that keeps the socket's number registered for ``SHUTDOWN_SECONDS`` while
    ``meet`` closes the socket under it (and the next connection given that number failed, or was
    never read again): the transport is aborted at once instead."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=HEAD_BYTES, loop=loop)
    protocol = _Protocol(reader, loop=loop)
    try:
        async with asyncio.timeout(HANDSHAKE_SECONDS + 1):
            transport, _ = await loop.connect_accepted_socket(
                lambda: protocol,
                sock,
                ssl=context,
                ssl_handshake_timeout=None if context is None else HANDSHAKE_SECONDS,
                ssl_shutdown_timeout=None if context is None else SHUTDOWN_SECONDS,
            )
    except BaseException:
        if isinstance(protocol.made, asyncio.WriteTransport):
            protocol.made.abort()
        raise
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


async def meet(front: Front, sock: socket.socket, address: str) -> None:
    """One connection, from its first byte to its close."""
    try:
        network = front.admit(address)
    except Exception:  # the front's bookkeeping in trouble: this connection only is lost
        _log.exception("the front: a connection could not be admitted")
        network = None
    if network is None:
        sock.close()
        return
    front.wait(network, True)
    front.stage(network, OPENING)
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
            async with asyncio.timeout(left):
                data = await reader.read(64 * 1024)
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
            async with asyncio.timeout(IDLE_SECONDS):
                first = await reader.read(64 * 1024)
        except TimeoutError:
            raise Closed from None
        conn.receive_data(first)
        front.stage(network, STARTED)  # begun: a phone sends the rest at once
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
    await taken(writer, WRITE_SECONDS + len(given.body) / BODY_RATE)


async def taken(writer: asyncio.StreamWriter, seconds: float) -> None:
    """Wait until the phone has taken everything written (``TimeoutError`` after ``seconds``). The
    buffer is looked at, more and more seldom, rather than waited on with ``drain``: with the limit
    that made ``drain`` wait for every byte, asyncio's TLS transport could leave it waiting with
    nothing left to send (a third of TLS connections held 30 s after their whole answer)."""
    deadline = asyncio.get_running_loop().time() + seconds
    pause = 0.005
    while writer.transport.get_write_buffer_size():
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            _untaken(writer.transport.get_write_buffer_size(), seconds)
        if left <= 0 or writer.transport.is_closing():
            raise TimeoutError
        await asyncio.sleep(min(pause, left))
        pause = min(pause * 2, 0.5)


@dataclass
class _Untaken:
    """Answers not taken in time since the front last said so in its log, and when it did."""

    count: int = 0
    said: float | None = None


#: How often at most the log says that answers were not taken in time (an attack that reads
#: nothing would otherwise write a line a connection).
UNTAKEN_LOG_SECONDS = 60.0
_UNTAKEN = _Untaken()


def _untaken(unsent: int, seconds: float) -> None:
    """Say in the log (once a minute at most) that an answer was not taken within ``seconds``:
    the ninth attack saw a request left 30 s with no answer and no close, and this tells whether
    it sat here, written and never taken."""
    now = asyncio.get_running_loop().time()
    _UNTAKEN.count += 1
    if _UNTAKEN.said is None or now - _UNTAKEN.said >= UNTAKEN_LOG_SECONDS:
        _log.warning(
            "the front: %d answer(s) not taken in time since the last such line; the last had %d bytes unsent after %.0f s",
            _UNTAKEN.count,
            unsent,
            seconds,
        )
        _UNTAKEN.count, _UNTAKEN.said = 0, now


async def serve(
    front: Front, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str, network: str, scheme: bytes
) -> None:
    """Requests one after another on a kept-alive connection, each handed whole to the workers."""
    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_BYTES)
    answered = False
    while True:
        front.wait(network, True)
        if answered:
            front.stage(network, KEPT)  # kept alive for a next request
        try:
            request = await read_request(front, network, conn, reader, writer)
        except h11.RemoteProtocolError:
            if conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
                await answer(conn, writer, NOT_HTTP, close=True)
            return
        front.stage(network, STARTED)  # whole, waiting for its network's turn
        async with front.turn(network):
            front.wait(network, False)  # with the workers: never closed to make room
            given = await forward(front.upstream, request, address, scheme)
        if given.known:
            front.answered(network)
        front.wait(network, True)  # an answer the phone does not take may be closed to make room
        front.stage(network, ANSWERING)
        await answer(conn, writer, given, head_only=request.method == b"HEAD")
        answered = True
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
        async with asyncio.timeout(5):
            reader, writer = await asyncio.open_unix_connection(upstream, limit=2**20)
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
    front.stage(network, ANSWERING)  # answered: not a connection abandoned
    await answer(conn, writer, said(status, text, [(b"location", location)]), close=True)
