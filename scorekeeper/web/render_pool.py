"""The web app's PDFs render in separate processes, never in a request thread.

WeasyPrint holds the GIL for most of a 0.4-0.7 s render, so a render in a request thread
stalls every other request of its gunicorn worker: with a dozen clients printing, a phone's
save waited seconds. Here each worker hands the HTML to its own small pool of processes
(started with spawn: WeasyPrint and a threaded parent do not mix with fork), run at a lower
priority so that the phones also win the CPU, and the request thread sleeps, leaving the
GIL free, until the bytes come back.

- Bounded: at most ``WAITING`` requests of a worker make a PDF at once (``serve`` gives
  gunicorn that many more threads, so the phones always find a free one); past it a request
  is refused at once with 503 and Retry-After, before any work, and its page asks for the same
  link again by itself after that many seconds (``templates/printing/busy.html``).
- Kind to the GIL: building a PDF's markup (a game's state, its score, the QR code, the
  template) is pure Python, tens of milliseconds of it, and every thread of the worker waits
  for the GIL meanwhile; a phone's save gives the GIL up and takes it back a few dozen times
  (every SQLite statement, the fsync, the socket), each time behind whoever holds it. So one
  request of a worker builds markup at a time (the others sleep until it is done), and a
  worker's threads hand the GIL on every millisecond instead of every five (``SWITCH_INTERVAL``):
  with a dozen clients printing at once, a save waited up to a quarter of a second. Booklets
  have processes of their own, one a core (their pages render side by side), and at most
  ``BOOKLETS`` of them run or wait per worker; a booklet job is a thread of the worker that
  only waits on them.
- Cached: the same markup always prints the same PDF, so a worker keeps the bytes of its
  recent renders keyed by a hash of the HTML (a blank sheet or rules card for the same
  choices, a game's sheet at the same version), and a request for markup that is already
  being rendered waits for that render instead of starting another.
- Lazy: nothing starts before gunicorn forks. A worker's start (``start``) spawns its page
  process and imports WeasyPrint there, so that the first PDF does not pay for it; in the
  test client the processes start with the first PDF.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

from flask import Flask, current_app, has_app_context, render_template
from werkzeug.exceptions import InternalServerError

from ..reports import pdf

#: Processes rendering pages (sheets, cards, standings) per worker.
PROCESSES = 1
#: Requests of one worker that may wait for a page render at once; the rest get 503.
WAITING = 4
#: Booklets that may run or wait at once per worker.
BOOKLETS = 2
#: Processes rendering a booklet's pages side by side: one a core.
BOOKLET_PROCESSES = max(1, os.cpu_count() or 1)
#: Bytes of rendered PDFs a worker keeps.
CACHE_BYTES = 32 * 1024 * 1024
#: Longest a request waits for its render.
RENDER_TIMEOUT = 60.0
#: Seconds a refused client is told to wait.
RETRY_AFTER = 3
#: Renders run this much nicer than the requests.
NICENESS = 10
#: Seconds a worker's thread holds the GIL before handing it to one that waits for it (Python's default: 0.005).
SWITCH_INTERVAL = 0.001

P = ParamSpec("P")
R = TypeVar("R")


class Busy(Exception):
    """The renders are at their bound, or the renderer stopped: try again shortly (503)."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RenderFailed(Exception):
    """The render itself raised: retrying the same markup would fail again."""


def _process_start(parent: int) -> None:
    """In each render process: Ctrl-C is the server's to handle, requests come first, WeasyPrint loads now.

    The process also ends itself when its worker is gone (killed by gunicorn's timeout, say),
    so that no renderer outlives the server.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()
    try:
        pdf.warm_up()
    except Exception:  # noqa: S110 - a WeasyPrint that cannot load reports itself on the first render
        pass


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _ready() -> int:
    return os.getpid()


class _Processes:
    """A process pool that is replaced when one of its processes dies (killed, out of memory)."""

    def __init__(self, processes: int) -> None:
        self.size = processes
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        with self._lock:
            if self._executor is None:
                self._executor = self._new()
            try:
                return self._executor.submit(function, *args)
            except BrokenProcessPool:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new()
                return self._executor.submit(function, *args)

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.size,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_process_start,
            initargs=(os.getpid(),),
        )


class Renderer:
    """One worker's renders: its page processes with their bound and cache, and its booklet process."""

    def __init__(
        self,
        render: Callable[[str], bytes] = pdf.render_pdf,
        *,
        processes: int = PROCESSES,
        waiting: int = WAITING,
        booklets: int = BOOKLETS,
        booklet_processes: int = BOOKLET_PROCESSES,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.render_function = render
        self.waiting = waiting
        self.renders = 0
        self._pages = _Processes(processes)
        self._booklets = _Processes(booklet_processes)
        self._page_slots = threading.BoundedSemaphore(waiting)
        self._booklet_slots = threading.BoundedSemaphore(booklets)
        self._building = threading.Lock()
        self._request = threading.local()
        self._lock = threading.RLock()
        self._cache: OrderedDict[bytes, bytes] = OrderedDict()
        self._cache_bytes = cache_bytes
        self._cached = 0
        self._rendering: dict[bytes, Future[bytes]] = {}

    def start(self) -> None:
        """Spawn the page processes now (they load WeasyPrint as they start) rather than on the first PDF."""
        for _ in range(self._pages.size):
            self._pages.submit(_ready)

    @contextmanager
    def printing(self) -> Iterator[None]:
        """A request that makes a PDF, from its start: it takes one of the worker's places at once
        or is refused (``Busy``) before doing any work, then builds its markup while no other
        request of the worker builds any; ``render`` lets the next one build as it starts waiting."""
        if not self._page_slots.acquire(blocking=False):
            raise Busy(f"{self.waiting} PDFs are being made already.")
        try:
            with self.building():
                self._request.placed = True
                try:
                    yield
                finally:
                    self._request.placed = False
        finally:
            self._page_slots.release()

    @contextmanager
    def building(self) -> Iterator[None]:
        """Build printed markup (a PDF's, a booklet's pages) while no other request of this worker does."""
        self._building.acquire()
        self._request.building = True
        try:
            yield
        finally:
            self._built()

    def _built(self) -> None:
        if getattr(self._request, "building", False):
            self._request.building = False
            self._building.release()

    def render(self, html: str) -> bytes:
        key = hashlib.sha256(html.encode()).digest()
        self._built()
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        if getattr(self._request, "placed", False):
            return self._wait(self._rendering_of(key, html))
        if not self._page_slots.acquire(blocking=False):
            raise Busy(f"The printer is busy: {self.waiting} PDFs are being made already. Try again in a few seconds.")
        try:
            return self._wait(self._rendering_of(key, html))
        finally:
            self._page_slots.release()

    def in_background(self, job: Callable[..., object], *args: Any) -> Future[Any]:
        """Run ``job(submit, *args)`` in a thread of this worker, holding a booklet slot; the caller
        does not wait for it. ``submit(function, *args)`` runs a function in the booklet processes
        and returns its future, so the job only waits while they work."""
        if not self._booklet_slots.acquire(blocking=False):
            raise Busy("Booklets are being made already; try again when one is done.", retry_after=30)
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()

        def run() -> None:
            try:
                future.set_result(job(self._booklets.submit, *args))
            except BaseException as error:
                future.set_exception(error)
            finally:
                self._booklet_slots.release()

        threading.Thread(target=run, name="booklet", daemon=True).start()
        return future

    def shutdown(self) -> None:
        self._pages.shutdown()
        self._booklets.shutdown()

    def _rendering_of(self, key: bytes, html: str) -> Future[bytes]:
        with self._lock:
            if key in self._cache:
                done: Future[bytes] = Future()
                done.set_result(self._cache[key])
                return done
            future = self._rendering.get(key)
            if future is None:
                future = self._pages.submit(self.render_function, html)
                self.renders += 1
                self._rendering[key] = future
                # A render already finished settles at once, in this thread: keep our own handle.
                future.add_done_callback(lambda finished: self._settle(key, finished))
            return future

    def _settle(self, key: bytes, future: Future[bytes]) -> None:
        with self._lock:
            self._rendering.pop(key, None)
            if future.cancelled() or future.exception() is not None:
                return
            body = future.result()
            if len(body) > self._cache_bytes:
                return
            self._cache[key] = body
            self._cached += len(body)
            while self._cached > self._cache_bytes:
                _, dropped = self._cache.popitem(last=False)
                self._cached -= len(dropped)

    def _wait(self, future: Future[bytes]) -> bytes:
        try:
            return future.result(timeout=RENDER_TIMEOUT)
        except BrokenProcessPool:
            raise Busy("The PDF renderer stopped and is starting again. Try again in a few seconds.") from None
        except TimeoutError:
            raise Busy(f"The PDF took longer than {RENDER_TIMEOUT:.0f} s to make. Try again later.") from None
        except Exception as error:
            raise RenderFailed(f"{type(error).__name__}: {error}") from error


_current: Renderer | None = None
_owner = 0
_guard = threading.Lock()


def current() -> Renderer:
    """This process's renderer, made on first use (a renderer inherited across a fork is not reused)."""
    global _current, _owner
    with _guard:
        if _current is None or _owner != os.getpid():
            _current, _owner = Renderer(), os.getpid()
        return _current


def install(renderer: Renderer | None) -> Renderer | None:
    """Use ``renderer`` in this process from now on; returns the one it replaces (for tests)."""
    global _current, _owner
    with _guard:
        previous = _current if _owner == os.getpid() else None
        _current, _owner = renderer, os.getpid()
        return previous


def start() -> None:
    """A server worker's start: its render process, and its threads' GIL handed on sooner (see above)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    current().start()


def shutdown() -> None:
    """Stop this process's render processes (a worker's exit; the interpreter's exit)."""
    with _guard:
        renderer = _current if _owner == os.getpid() else None
    if renderer is not None:
        renderer.shutdown()


atexit.register(shutdown)


def render(html: str) -> bytes:
    return current().render(html)


def prints(view: Callable[P, R]) -> Callable[P, R]:
    """A view that answers a PDF: it runs as ``Renderer.printing`` says (refused at once when the
    worker makes as many PDFs as it may, its markup built while no other request builds any)."""

    @functools.wraps(view)
    def printing_view(*args: P.args, **kwargs: P.kwargs) -> R:
        with current().printing():
            return view(*args, **kwargs)

    return printing_view


@contextmanager
def building() -> Iterator[None]:
    with current().building():
        yield


def in_background(function: Callable[..., object], *args: Any) -> Future[Any]:
    return current().in_background(function, *args)


def serves_current_app() -> bool:
    """Whether a render now belongs in the pool: inside the web app, yes; the command line renders in place."""
    return has_app_context() and current_app.extensions.get("render_pool") is True


def init_app(app: Flask) -> None:
    """Route the app's PDFs through the pool, and answer its refusals as plain pages."""
    app.extensions["render_pool"] = True

    @app.errorhandler(Busy)
    def busy(error: Busy) -> tuple[str, int, dict[str, str]]:
        """503 with Retry-After; a page that asks for the PDF again by itself after that long."""
        page = render_template("printing/busy.html", message=str(error), retry_after=error.retry_after)
        return page, 503, {"Retry-After": str(error.retry_after)}

    @app.errorhandler(RenderFailed)
    def failed(error: RenderFailed) -> tuple[str, int]:
        app.logger.error("a PDF render failed: %s", error)
        message = f"The PDF could not be made ({error}). The rest of the app is unaffected."
        return render_template("error.html", error=InternalServerError(message)), 500
