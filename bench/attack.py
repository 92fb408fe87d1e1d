"""Connections that hold on and never finish, as sleeping phones and a hostile one make them:
``python -m bench.attack --port P --each N --seconds S`` (loopback only).

Four kinds, ``--each`` of each, reopened as soon as the server closes one, for ``--seconds``:
- idle: connects and sends nothing;
- slow head: a TLS connection whose request head comes one byte every ``--every`` seconds;
- slow body: a TLS connection whose head is whole but whose body comes one byte at a time;
- half handshake: a TLS handshake begun (part of a ClientHello) and never finished.
Each kind comes from loopback addresses of its own (127.0.K.1 to 127.0.K.8), as from a few
phones, since the server holds at most 64 connections from one network. Prints a JSON line a second with the
connections of each kind open, then one with the totals opened.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import ssl
import sys
import time

KINDS = ("idle", "slow head", "slow body", "half handshake")
SOURCES = 8
#: The first bytes of a TLS 1.2 ClientHello record: the server waits for the rest.
CLIENT_HELLO_START = bytes.fromhex("16030100f4010000f00303") + bytes(20)


def _client_tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class Attack:
    def __init__(self, port: int, every: float, tls: bool) -> None:
        self.port, self.every, self.tls = port, every, tls
        self.open = dict.fromkeys(KINDS, 0)
        self.opened = dict.fromkeys(KINDS, 0)
        self.context = _client_tls()

    def source(self, kind: str, index: int) -> str:
        return f"127.0.{KINDS.index(kind) + 1}.{index % SOURCES + 1}"

    async def connect(self, kind: str, index: int, secure: bool) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.wait_for(
            asyncio.open_connection(
                "127.0.0.1",
                self.port,
                local_addr=(self.source(kind, index), 0),
                ssl=self.context if secure else None,
                server_hostname="127.0.0.1" if secure else None,
            ),
            15,
        )

    async def hold(self, kind: str, index: int, stop: asyncio.Event) -> None:
        """One connection of the kind, reopened each time it is closed, until ``stop``."""
        while not stop.is_set():
            try:
                reader, writer = await self.connect(kind, index, self.tls and kind in ("slow head", "slow body"))
            except (OSError, TimeoutError, ssl.SSLError):
                await asyncio.sleep(0.5)
                continue
            self.open[kind] += 1
            self.opened[kind] += 1
            began = time.monotonic()
            try:
                await self.trickle(kind, reader, writer, stop)
            except (OSError, ssl.SSLError):
                pass
            finally:
                self.open[kind] -= 1
                writer.transport.abort()
            if time.monotonic() - began < 1:  # closed at once (refused): not a tight loop
                await asyncio.sleep(0.5)

    async def trickle(
        self, kind: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, stop: asyncio.Event
    ) -> None:
        if kind == "half handshake":
            writer.write(CLIENT_HELLO_START)
        elif kind == "slow body":
            writer.write(
                b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200000\r\n\r\n"
            )
        closed = asyncio.ensure_future(reader.read(65536))
        try:
            head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100000
            sent = 0
            while not stop.is_set():
                done, _ = await asyncio.wait({closed}, timeout=self.every)
                if done:
                    return  # the server closed it (or answered): open another
                if kind == "slow head":
                    writer.write(head[sent : sent + 1])
                    sent += 1
                elif kind == "slow body":
                    writer.write(b"a")
                await writer.drain()
        finally:
            closed.cancel()


async def run(port: int, each: int, seconds: float, every: float, tls: bool) -> None:
    attack = Attack(port, every, tls)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    holders = [
        asyncio.ensure_future(attack.hold(kind, index, stop))
        for kind in KINDS
        for index in range(each)
        if tls or kind != "half handshake"
    ]
    began = time.monotonic()
    while time.monotonic() - began < seconds and not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1)
        print(json.dumps({"open": attack.open}), flush=True)
    stop.set()
    for holder in holders:
        holder.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*holders, return_exceptions=True)
    print(json.dumps({"opened": attack.opened}), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--each", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--plain", action="store_true", help="the server speaks plain http")
    options = parser.parse_args(argv)
    asyncio.run(run(options.port, options.each, options.seconds, options.every, not options.plain))


if __name__ == "__main__":
    sys.exit(main())
