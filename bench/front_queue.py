"""The front's queue of new connections, modelled: the real ``Front`` (its ``admit``, ``begin``,
``release``) in real time, no sockets, while known addresses churn whole requests.
``python -m bench.front_queue --addresses N --each K --seconds S`` prints each victim's fate, then a
total.

Every address is known (it fetched a game's link first) and reopens a connection as soon as its
request is answered (20 ms after its turn), ``--each`` at a time (one unless said), or each
``--every`` seconds, all at once (a burst that is quiet each time when ``--every`` is 10 or more). The victims, from the start: a first
visit every 4 s (a new address, a stranger: the page's connection, then five for its files 1.2 s later)
and a known phone opening a new connection every 2 s, as busy as it would be after minutes of it.
Broken: a first visit with a connection that never had its turn (the front closes it after
``WAIT_SECONDS``), a phone's page whose connection never had its turn.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math

from scorekeeper.web import front_limits as limits
from scorekeeper.web.devices import guesser_key

SERVED = 0.02


async def churn(
    addresses: int, each: int, seconds: float, every: float = 0.0
) -> tuple[list[str], collections.Counter[str]]:
    front = limits.Front("unused")
    loop = asyncio.get_running_loop()
    start = loop.time()
    end = start + seconds
    churned: collections.Counter[str] = collections.Counter()
    said: list[tuple[float, str]] = []

    async def connection(address: str) -> str:
        network = front.admit(address)
        if network is None:
            return "refused"
        try:
            if not await front.begin(network):
                return "late"
            await asyncio.sleep(SERVED)
            front.answered(network)
            front.asked.add(asyncio.current_task())  # type: ignore[arg-type]
            return "ok"
        finally:
            front.release(network)

    for n in range(addresses):
        front.answered(guesser_key(f"10.{n // 250}.{n % 250}.1"))

    async def churner(n: int) -> None:
        address = f"10.{n // 250}.{n % 250}.1"
        await asyncio.sleep(every * ((n * 7919) % 1000) / 1000)  # bursts spread over --every
        while loop.time() < end:
            began = loop.time()
            fate = await connection(address)
            churned[fate] += 1
            if fate == "refused" or every:
                await asyncio.sleep(max(0.05, every - (loop.time() - began)))

    async def phone() -> None:
        network = guesser_key("192.168.1.50")
        front.answered(network)
        front.busy[network] = (0.5 * limits.BUSY_HALF_LIFE / math.log(2), loop.time())  # every 2 s since long
        while loop.time() < end:
            began = loop.time()
            fate = await connection("192.168.1.50")
            said.append((began - start, f"phone: {fate} after {loop.time() - began:.2f} s"))
            await asyncio.sleep(max(0.0, 2.0 - (loop.time() - began)))

    async def table() -> None:  # known, a save every 15 s on a new connection (its keep-alive idled out)
        network = guesser_key("192.168.1.60")
        front.answered(network)
        front.busy[network] = (limits.BUSY_HALF_LIFE / 15 / math.log(2), loop.time())
        while loop.time() < end:
            began = loop.time()
            fate = await connection("192.168.1.60")
            said.append((began - start, f"table: {fate} after {loop.time() - began:.2f} s"))
            await asyncio.sleep(max(0.0, 15.0 - (loop.time() - began)))

    async def first_visit(n: int) -> None:
        began = loop.time()

        async def one(k: int) -> str:  # the page, then its files once it came (over a second later)
            await asyncio.sleep(0.0 if k == 0 else 1.2 + 0.02 * k)
            return await connection(f"192.168.7.{n}")

        fates = collections.Counter(await asyncio.gather(*(one(k) for k in range(6))))
        broken = "" if fates["ok"] == 6 else " BROKEN"
        said.append((began - start, f"first visit: {dict(fates)} in {loop.time() - began:.2f} s{broken}"))

    async def first_visits() -> None:
        visits = []
        for n in range(1, int((seconds - 6) // 4) + 2):
            visits.append(asyncio.ensure_future(first_visit(n)))
            await asyncio.sleep(4.0)
        await asyncio.gather(*visits)

    await asyncio.gather(phone(), table(), first_visits(), *(churner(n) for n in range(addresses) for _ in range(each)))
    return [f"{at:5.1f} s  {line}" for at, line in sorted(said)], churned


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=400)
    parser.add_argument("--each", type=int, default=1)
    parser.add_argument("--every", type=float, default=0.0, help="a burst every so many seconds (0: at once)")
    parser.add_argument("--seconds", type=float, default=40.0)
    arguments = parser.parse_args()
    if not 1 <= arguments.addresses * arguments.each <= 3000 or not 10 <= arguments.seconds <= 120:
        parser.error("--addresses × --each 1 to 3,000, --seconds 10 to 120")
    lines, churned = asyncio.run(churn(arguments.addresses, arguments.each, arguments.seconds, arguments.every))
    print("\n".join(lines))
    visits = [line for line in lines if "first visit" in line]
    pages = [line for line in lines if "phone" in line]
    saves = [line for line in lines if "table" in line]
    broken = sum("BROKEN" in line for line in visits)
    lost = sum("phone: ok" not in line for line in pages)
    longest = max(float(line.split(" after ")[1].split()[0]) for line in saves)
    print(
        f"{arguments.addresses} addresses × {arguments.each} churning ({dict(churned)}): first visits broken {broken} of"
        f" {len(visits)}, phone pages lost {lost} of {len(pages)}, a table's saves lost"
        f" {sum('table: ok' not in line for line in saves)} of {len(saves)} (the longest wait {longest:.2f} s)"
    )


if __name__ == "__main__":
    main()
