"""The front's memory for idle TLS connections: ``CONNECTIONS`` handshakes finished and held
(50 from each loopback address, below a network's limit), the front's resident memory read before
and after, and what one connection costs. Loopback only, bounded in connections and time."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
import tempfile
from pathlib import Path

from scorekeeper.web.front_process import TICK_SECONDS
from scorekeeper.web.sockets import more_files

from . import scaled
from .servers import app_server, self_signed

CONNECTIONS = scaled(1500, 100)
PER_ADDRESS = 50


def _resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _front_pid(server_pid: int) -> int:
    found = subprocess.run(
        ["pgrep", "-s", str(server_pid), "-f", "scorekeeper.web.front"], capture_output=True, text=True
    )
    return int(found.stdout.split()[0])


async def _hold(port: int, count: int, pid: int) -> tuple[int, int, int, int]:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    before = _resident_kb(pid)
    held = []
    for index in range(count):
        address = f"127.{40 + index // PER_ADDRESS // 250}.{(index // PER_ADDRESS) % 250}.4"
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0), ssl=context), 10
            )
        except (OSError, TimeoutError):
            break
        held.append(writer)
    await asyncio.sleep(1)
    after = _resident_kb(pid)
    for writer in held:
        writer.transport.abort()
    await asyncio.sleep(0.1)  # the aborted transports let go of their sockets
    await asyncio.sleep(2 * TICK_SECONDS)  # the front gives back what it no longer holds
    return len(held), before, after, _resident_kb(pid)


def measure(count: int = CONNECTIONS) -> tuple[int, int, int, int]:
    """Connections held, and the front's resident KB before, while held and after they closed."""
    more_files()  # this process's end of every connection
    with tempfile.TemporaryDirectory() as folder, app_server(Path(folder), self_signed(Path(folder))) as server:
        return asyncio.run(_hold(server.port, count, _front_pid(server.pid)))


def main() -> None:
    held, before, after, closed = measure()
    print("The front's memory for idle TLS connections (resident, the front's process)")
    print(
        f"    {held} connections held: {before / 1024:.0f} MB before, {after / 1024:.0f} MB while held, "
        f"{(after - before) / max(held, 1):.0f} KB a connection; {closed / 1024:.0f} MB once they closed"
    )
