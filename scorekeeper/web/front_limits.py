"""Who may connect to the front, and how much: its limits by network and in all, and the
bookkeeping behind them (``Front``). A phone at a table is never the one closed to make room
for someone flooding the front; whoever floods loses their own connections first.

The front itself (reading and writing HTTP, TLS, handing requests to the workers) is
``web/front.py``; everything here runs in its one event loop.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import ssl
from collections.abc import Iterator
from dataclasses import dataclass, field
from ipaddress import IPv6Address, ip_address, ip_network

from .devices import guesser_key

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
#: front knows is never counted against it.
STRANGER_OPENINGS = 50
STRANGER_OPENINGS_PER_SECOND = 50.0
KNOWN_SECONDS = 1800.0
#: At any time, all networks together (not the server's own machine, nor a trusted proxy) begin
#: at most ``ALL_OPENINGS_PER_SECOND`` connections a second, after a burst of as many: a newer one
#: waits, accepted but before any TLS work, for its turn, the least busy network's first (see
#: ``BUSY_HALF_LIFE``) unless another has waited longer (``WAITED_WEIGHT``), and is closed after
#: ``WAIT_SECONDS``. The front's one core does about 1,000 TLS handshakes a second: thousands of
#: addresses opening connections together take at most a fifth of it, and a hall's phones arriving
#: (a handful of connections each) never wait.
ALL_OPENINGS_PER_SECOND = 200.0
WAIT_SECONDS = 5.0
#: How many networks the front remembers as known: every one it can have met in ``KNOWN_SECONDS``
#: (a network new to the front needs a connection begun, at most ``ALL_OPENINGS_PER_SECOND``, the
#: server's own machine and a trusted proxy being one network each), so that no flood of
#: addresses made known can push a phone out while it is still known (an attack pushed out a
#: phone silent for two minutes when the front remembered 20,000). About 130 bytes each: 47 MB
#: at most, reached only by 360,000 addresses in half an hour.
KNOWN_NETWORKS = int(ALL_OPENINGS_PER_SECOND * (KNOWN_SECONDS + 1)) + 2
#: How busy a network has been opening connections: each try counts one, and weighs half as much
#: every ``BUSY_HALF_LIFE`` seconds; a stranger counts ``STRANGER_BUSY`` more. Connections waiting
#: for their turn go least busy first. A phone opens a handful a minute; whoever churns
#: connections from many addresses, known or not, is busier at each.
BUSY_HALF_LIFE = 30.0
STRANGER_BUSY = 5.0
#: A connection waiting for its turn goes before one from a network ``WAITED_WEIGHT`` tries less
#: busy that came a second after it: every network waits its turn, in order, within what its
#: busyness says, and one ``WAITED_WEIGHT`` × ``WAIT_SECONDS`` tries busier never goes first. (With
#: the least busy strictly first, 400 known addresses each reopening a connection as soon as it was
#: answered went before a phone as busy as each of them, and before a first visit while their
#: busyness built up; modelled, from 600 addresses every first visit broke, all evening.)
WAITED_WEIGHT = 10.0
#: When every connection is held, one not with the workers makes room: of the
#: ``ROOM_CANDIDATES`` longest at each stage (``STAGES``), a ``STARTED`` one first, else the one
#: idle (or taking its answer) longest, each connection its network *abandoned* counting
#: ``BUSY_SECONDS`` more, and each other connection it holds not with the workers
#: ``CROWD_SECONDS`` more (a trusted proxy's last). Abandoned: closed before it was answered a
#: request (by whoever opened it, for its time limits, to make room) or refused as it opened;
#: weighing half every ``BUSY_HALF_LIFE``. A browser's parallel connections all carry its
#: requests, however many it opens at once, so a phone's first page load counts nothing; whoever
#: holds connections doing nothing, or churns them, is counted at each. A phone's connection is
#: idle for a moment: it sends its request at once and takes the answer at once, and a connection
#: kept alive between its saves is idle longer, but closing that costs a browser a new connection,
#: never a request (it sends again what it sent on a kept-alive connection closed under it). So
#: whoever holds connections doing nothing, or churns them, loses theirs first, however slow or
#: quiet (docs/serving.md tells the orders tried before, and the attacks that beat them).
ROOM_CANDIDATES = 16
BUSY_SECONDS = 2.0
#: A phone holds one connection or two between its saves, a browser loading a page six for a
#: moment; whoever holds dozens doing nothing (or never taking their answers) gives them up first.
CROWD_SECONDS = 1.0
#: A connection ``OPENING`` or ``STARTED`` for less than this long never makes room: a phone
#: gets through its TLS handshake and sends its request whole in a moment (one still there
#: after it is slow). Nor does a newcomer's own network make room for it, but with a connection
#: opened past its grace that never sent anything: a browser's next connection never closes the
#: ones it opened a moment before nor those that carry its requests.
GRACE_SECONDS = 1.0
#: A newcomer whose network has abandoned this many connections more than the one that would make
#: room for it is closed instead: an address that opens connections and closes them at once (four
#: a second, over a hundred abandoned) would otherwise make the full front close someone else's at
#: each, a phone's new one among them; a phone (its connections carry its requests) is far below
#: it, however many it opens and whether or not it is known.
NEWCOMER_MARGIN = 10.0
#: Where a connection not with the workers is: ``OPENING`` (accepted, waiting for its turn, in its
#: TLS handshake, or before its first byte), ``KEPT`` (answered, kept alive for a next request not
#: begun), ``STARTED`` (a request begun and not whole, or one whole and waiting for its network's
#: turn: a phone sends a request whole, and has a few at once, so only a slow one is still here),
#: ``ANSWERING`` (an answer being taken: a phone on a slow Wi-Fi may take a moment, so it goes by
#: how long it has been at it, as the idle ones do).
OPENING, KEPT, STARTED, ANSWERING = 0, 1, 2, 3
STAGES = (OPENING, KEPT, STARTED, ANSWERING)
#: Requests one network (not a trusted proxy) has with the workers at once; the rest wait in the
#: front, so that one address cannot take every worker thread with an expensive page.
IN_FLIGHT_PER_NETWORK = 4


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
    #: By stage (``STAGES``), the connections not with the workers, longest in it first: those
    #: that make room when every connection is held.
    staged: tuple[dict[asyncio.Task[None], tuple[str, float]], ...] = field(
        default_factory=lambda: tuple({} for _ in STAGES)
    )
    #: By network, the openings left and when they were last counted (the loop's clock); and the
    #: strangers' together.
    openings: dict[str, tuple[float, float]] = field(default_factory=dict)
    strangers: tuple[float, float] | None = None
    #: When the workers last answered each network a known answer (the loop's clock), the longest
    #: ago first.
    known: dict[str, float] = field(default_factory=dict)
    #: By network, how busy it has been opening connections and when that was counted.
    busy: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: By network, how many connections it abandoned (``BUSY_SECONDS``) and when that was counted;
    #: the connections (their tasks) that have been answered a request.
    abandoned: dict[str, tuple[float, float]] = field(default_factory=dict)
    asked: set[asyncio.Task[None]] = field(default_factory=set)
    #: How many ``busy`` and ``openings`` held after they last forgot what is no longer needed,
    #: twice over: they forget again only past that, so that with thousands of networks still
    #: counted each try does not go through them all (an attack with 20,000 addresses in a
    #: minute and a half stalled the front 25 s for a thousand tries).
    busy_kept: int = 0
    abandoned_kept: int = 0
    openings_kept: int = 0
    #: The openings all networks may begin now and when they were last counted; the connections
    #: waiting for their turn (how busy their network was, then in the order they came); the task
    #: that gives the turns.
    begun: tuple[float, float] | None = None
    queue: list[tuple[float, int, asyncio.Future[None]]] = field(default_factory=list)
    pacing: asyncio.Task[None] | None = None
    waited: int = 0

    def __post_init__(self) -> None:
        self.proxy_networks = [ip_network(proxy, strict=False) for proxy in self.proxies]

    def wait(self, network: str, waiting: bool) -> None:
        """The connection served by this task is not with the workers (or is again)."""
        task = asyncio.current_task()
        if task is None:
            return
        if waiting:
            _still_open(task)
        mine = self.waiting.setdefault(network, {})
        if waiting:
            mine.setdefault(task, network)
        else:
            mine.pop(task, None)
            self._unstage(task)
        if not mine:
            del self.waiting[network]

    def stage(self, network: str, stage: int) -> None:
        """The connection served by this task, not with the workers, is now at ``stage``."""
        task = asyncio.current_task()
        if task is None or task in self.staged[stage]:
            return
        _still_open(task)
        self._unstage(task)
        self.staged[stage][task] = (network, asyncio.get_running_loop().time())
        if stage == ANSWERING:
            self.asked.add(task)

    def _unstage(self, task: asyncio.Task[None]) -> None:
        for staged in self.staged:
            staged.pop(task, None)

    def answered(self, network: str) -> None:
        """The workers have answered ``network`` a known answer: no stranger for ``KNOWN_SECONDS``."""
        now = asyncio.get_running_loop().time()
        self.known.pop(network, None)
        self.known[network] = now
        while self.known:  # the longest ago first: forget those no longer known
            oldest = next(iter(self.known))
            if len(self.known) <= KNOWN_NETWORKS and now - self.known[oldest] < KNOWN_SECONDS:
                break
            del self.known[oldest]

    def is_known(self, network: str) -> bool:
        at = self.known.get(network)
        return at is not None and asyncio.get_running_loop().time() - at < KNOWN_SECONDS

    def busyness(self, network: str, tried: bool = False) -> float:
        """How busy ``network`` has been opening connections (``BUSY_HALF_LIFE``), a stranger's
        counted ``STRANGER_BUSY`` more; ``tried``: count one more try first."""
        count = self._counted(self.busy, network, 1 if tried else 0)
        return count + (0 if self.is_known(network) else STRANGER_BUSY)

    def abandons(self, network: str, abandoned: bool = False) -> float:
        """How many connections ``network`` abandoned (``BUSY_SECONDS``); ``abandoned``: count one
        more first (never for the server's own machine or a trusted proxy: many phones' at once)."""
        counted = abandoned and network not in THIS_MACHINE and not network.startswith("proxy ")
        return self._counted(self.abandoned, network, 1 if counted else 0)

    def _counted(self, counts: dict[str, tuple[float, float]], network: str, more: int) -> float:
        """A network's count in ``counts`` (``busy`` or ``abandoned``) as it weighs now, ``more`` added."""
        now = asyncio.get_running_loop().time()
        count, then = counts.get(network, (0.0, now))
        count = count * _fading(now - then) + more
        if more:
            counts[network] = (count, now)
            kept = self.busy_kept if counts is self.busy else self.abandoned_kept
            if len(counts) > max(4 * self.max_connections, kept):  # forget those quiet for minutes
                for quiet in [held for held, (was, at) in counts.items() if was * _fading(now - at) <= 0.1]:
                    del counts[quiet]
                if counts is self.busy:
                    self.busy_kept = 2 * len(counts)
                else:
                    self.abandoned_kept = 2 * len(counts)
        return count

    def make_room(self, network: str | None, newcomer: str | None = None) -> bool:
        """Close the oldest connection not with the workers, of ``network``; or, when every
        connection is held (``network`` None), the one ``BUSY_SECONDS`` says, not the
        ``newcomer``'s network's, unless that network abandoned ``NEWCOMER_MARGIN`` connections
        more (then nothing is closed)."""
        if network is None:
            found = self._room(newcomer)
            if found is None:
                return False
            task, network = found
            if newcomer is not None and self.abandons(newcomer) > self.abandons(network) + NEWCOMER_MARGIN:
                return False
            return self._close(network, task)
        mine = self.waiting.get(network)
        if not mine:
            return False
        return self._close(network, next(iter(mine)))

    def _room(self, newcomer: str | None = None) -> tuple[asyncio.Task[None], str] | None:
        """The connection that makes room when every connection is held (not one in its
        ``GRACE_SECONDS``, nor one of the ``newcomer``'s network but one it opened and never used), or None."""
        now = asyncio.get_running_loop().time()
        candidates: list[tuple[int, asyncio.Task[None], str, float]] = []
        for stage in STAGES:
            eligible: Iterator[tuple[int, asyncio.Task[None], str, float]] = (
                (stage, task, network, since)
                for task, (network, since) in self.staged[stage].items()
                if network != newcomer or stage == OPENING  # its own opened and never used, past their grace
            )
            if stage in (OPENING, STARTED):  # longest in the stage first: the rest are younger still
                eligible = itertools.takewhile(lambda found: now - found[3] >= GRACE_SECONDS, eligible)
            candidates += itertools.islice(eligible, ROOM_CANDIDATES)
        if not candidates:
            return None
        candidates = [found for found in candidates if not found[2].startswith("proxy ")] or candidates
        _, task, network, _ = max(
            candidates,
            key=lambda found: (
                found[0] == STARTED,
                now
                - found[3]
                + BUSY_SECONDS * self.abandons(found[2])
                + CROWD_SECONDS * (len(self.waiting.get(found[2], ())) - 1),
            ),
        )
        return task, network

    def _close(self, network: str, task: asyncio.Task[None]) -> bool:
        mine = self.waiting.get(network, {})
        mine.pop(task, None)
        if not mine:
            self.waiting.pop(network, None)
        self._unstage(task)
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
        if (
            (not proxy and not self.may_open(network))
            or (not proxy and self.held.get(network, 0) >= self.max_per_network and not self.make_room(network))
            or (self.holding >= self.max_connections and not self.make_room(None, None if proxy else network))
        ):
            self.abandons(network, abandoned=True)
            return None
        self.held[network] = self.held.get(network, 0) + 1
        self.holding += 1
        return network

    def may_open(self, network: str) -> bool:
        """Whether ``network`` may open a connection now: while its bucket holds an opening
        (``QUIET_OPENINGS``, refilled at ``QUIET_OPENINGS_PER_SECOND``; while the front holds more
        than ``PRESSED`` of its connections, ``OPENINGS`` and ``OPENINGS_PER_SECOND``) and, for
        a stranger while pressed, the strangers' bucket too (``STRANGER_OPENINGS``, refilled at
        ``STRANGER_OPENINGS_PER_SECOND``), unless it abandoned ``NEWCOMER_MARGIN`` connections
        (then it is refused, the bucket untouched). The server's own machine is never counted."""
        if network in THIS_MACHINE:
            return True
        self.busyness(network, tried=True)
        now = asyncio.get_running_loop().time()
        pressed = self.holding > PRESSED * self.max_connections
        burst, rate = (OPENINGS, OPENINGS_PER_SECOND) if pressed else (QUIET_OPENINGS, QUIET_OPENINGS_PER_SECOND)
        left, then = self.openings.get(network, (float(burst), now))
        left = min(float(burst), left + (now - then) * rate)
        shared, since = self.strangers or (float(STRANGER_OPENINGS), now)
        shared = min(float(STRANGER_OPENINGS), shared + (now - since) * STRANGER_OPENINGS_PER_SECOND)
        stranger = pressed and not self.is_known(network)
        # A stranger that abandons what it opens takes nothing from the strangers' openings: forty
        # addresses opening and closing four a second used them all, and no first visit came in.
        allowed = left >= 1 and (not stranger or (shared >= 1 and self.abandons(network) <= NEWCOMER_MARGIN))
        self.openings[network] = (left - 1 if allowed else left, now)
        self.strangers = (shared - 1 if stranger and allowed else shared, now)
        if len(self.openings) > max(4 * self.max_connections, self.openings_kept):  # forget full buckets
            self.openings = {
                held: (count, at)
                for held, (count, at) in self.openings.items()
                if count + (now - at) * OPENINGS_PER_SECOND < OPENINGS
            }
            self.openings_kept = 2 * len(self.openings)
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
        left = self._openings_now()
        if left >= 1 and not self.queue:
            self.begun = (left - 1, loop.time())
            return True
        turn: asyncio.Future[None] = loop.create_future()
        self.waited += 1
        heapq.heappush(self.queue, (self.busyness(network) + WAITED_WEIGHT * loop.time(), self.waited, turn))
        if len(self.queue) > 4 * self.max_connections:  # those closed meanwhile, forgotten
            self.queue = [waiting for waiting in self.queue if not waiting[2].done()]
            heapq.heapify(self.queue)
        if self.pacing is None or self.pacing.done():
            self.pacing = asyncio.ensure_future(self._give_turns())
        try:
            async with asyncio.timeout(WAIT_SECONDS):
                await turn
        except TimeoutError:
            return False
        return True

    async def _give_turns(self) -> None:
        """Give the waiting connections their turns as openings come, the least busy first, a second
        waited counting ``WAITED_WEIGHT`` tries less busy."""
        while self.queue:
            left = self._openings_now()
            if left < 1:
                await asyncio.sleep((1 - left) / ALL_OPENINGS_PER_SECOND)
                continue
            turn = heapq.heappop(self.queue)[2]
            if not turn.done():  # not closed meanwhile
                turn.set_result(None)
                self.begun = (left - 1, asyncio.get_running_loop().time())

    def release(self, network: str) -> None:
        """The connection served by this task is closed (counted as abandoned if never answered)."""
        task = asyncio.current_task()
        if task is not None and task in self.asked:
            self.asked.discard(task)
        else:
            self.abandons(network, abandoned=True)
        self.holding -= 1
        left = self.held.get(network, 1) - 1
        if left:
            self.held[network] = left
        else:
            self.held.pop(network, None)
            turn = self.turns.get(network)
            if turn is not None and not turn.locked():
                del self.turns[network]


def _still_open(task: asyncio.Task[None]) -> None:
    """Raise ``CancelledError`` in a connection closed to make room (its task cancelled) that runs
    on: it must not come back among the connections that make room, nor be counted there again.
    (The front awaits with ``asyncio.timeout``, which lets a close win over data that came in the
    same turn of the loop; ``asyncio.wait_for`` in Python 3.11 let the data win, and the connection
    ran on, uncounted, until every newcomer failed trying to close it.)"""
    if task.cancelling():
        raise asyncio.CancelledError


def _fading(seconds: float) -> float:
    """What a try ``seconds`` ago still weighs (half every ``BUSY_HALF_LIFE``)."""
    return math.exp(-seconds * math.log(2) / BUSY_HALF_LIFE)
