"""The front door's limits on new games: the budget of games started and imported (by network
and for the whole server, ``storage.game_starts``), one game record checked at a time in each
worker, and the sweep of imported games nobody opened.

Why one import at a time: checking the largest record the limits allow is half a second of a
worker's CPU, and a worker's threads share one interpreter. Sixteen checked at once held every
save of every other table behind them (p99 2.0 s); one at a time per worker, a save waits for
a few milliseconds of it at most. An import that finds the worker checking another is refused
at once (never queued: a queued import would hold a thread the tables need).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, current_app

from ..scoring import Refusal
from ..storage.database import connect
from ..storage.game_starts import IMPORTED, STARTED, StartLimits, reserve_start
from ..storage.games import sweep_unopened_imports
from .connection import database_path, get_db
from .devices import client_address, guesser_key

#: Game records checked at once in one worker process.
IMPORTS_AT_ONCE = 1
#: How long an imported game nobody opened is kept, and how often each worker looks for them.
UNOPENED_KEPT_SECONDS = 24 * 3600
SWEEP_EVERY_SECONDS = 3600
#: When to try again after finding the worker checking another record.
BUSY_RETRY_SECONDS = 5

_CHECKING = threading.BoundedSemaphore(IMPORTS_AT_ONCE)
_SWEPT = {"at": 0.0}
_SWEEPING = threading.Lock()

REFUSALS = {
    ("network", STARTED): "Too many games have been started from this network in the last hour: "
    "wait {wait}, then start it again (a game already started goes on).",
    ("network", IMPORTED): "Too many games have been started or imported from this network in the last "
    "hour: wait {wait}, then import it again.",
    ("everyone", STARTED): "Too many games have been started on this server in the last hour: "
    "wait {wait}, then start it again (a game already started goes on).",
    ("everyone", IMPORTED): "Too many games have been imported on this server in the last hour: "
    "wait {wait}, then import it again.",
}
BUSY = "The server is checking another game record just now: import it again in a few seconds."


class TooManyGames(Refusal):
    """A new game refused by the budget (or a record while the worker checks another): try later."""

    status = 429

    def __init__(self, message: str, field: str | None, retry_after: int) -> None:
        super().__init__(message, field)
        self.retry_after = retry_after


def limits() -> StartLimits:
    """The budget as set (``START_LIMIT_PER_NETWORK``, ``START_LIMIT_STARTED``, ``START_LIMIT_IMPORTED``)."""
    config = current_app.config
    return StartLimits(
        per_network=int(config.get("START_LIMIT_PER_NETWORK", StartLimits.per_network)),
        started_everyone=int(config.get("START_LIMIT_STARTED", StartLimits.started_everyone)),
        imported_everyone=int(config.get("START_LIMIT_IMPORTED", StartLimits.imported_everyone)),
    )


def _in_words(seconds: int) -> str:
    minutes = (seconds + 59) // 60
    return "a minute" if minutes <= 1 else f"{minutes} minutes"


def admit(kind: str, field: str | None) -> None:
    """Count a game about to be started or imported from this request's network, or refuse it."""
    db = get_db()
    _sweep_now_and_then()
    refused = reserve_start(db, guesser_key(client_address()), kind, limits())
    if refused is not None:
        message = REFUSALS[refused.who, kind].format(wait=_in_words(refused.retry_after))
        raise TooManyGames(message, field, refused.retry_after)


@contextmanager
def checking_an_import(field: str) -> Iterator[None]:
    """Hold this worker's turn to check a record (refused at once if another holds it), and count
    the import against the budget before any of the record is read."""
    if not _CHECKING.acquire(blocking=False):
        raise TooManyGames(BUSY, field, BUSY_RETRY_SECONDS)
    try:
        admit(IMPORTED, field)
        yield
    finally:
        _CHECKING.release()


def answer(error: Refusal) -> tuple[int, dict[str, str]]:
    """The status and headers a form refused with ``error`` is answered with."""
    if isinstance(error, TooManyGames):
        return error.status, {"Retry-After": str(error.retry_after)}
    return 422, {}


def _sweep_now_and_then() -> None:
    """Imported games nobody opened are swept away when a game is next started or imported, at
    most once every ``SWEEP_EVERY_SECONDS`` in a worker (only imports make more of them)."""
    now = time.time()
    if now - _SWEPT["at"] < SWEEP_EVERY_SECONDS or not _SWEEPING.acquire(blocking=False):
        return
    try:
        _SWEPT["at"] = now
        sweep_unopened_imports(get_db(), UNOPENED_KEPT_SECONDS, now)
    finally:
        _SWEEPING.release()


def init_app(app: Flask) -> None:
    """At start, imported games nobody opened within ``UNOPENED_KEPT_SECONDS`` are deleted."""
    db = connect(database_path(app))
    try:
        sweep_unopened_imports(db, UNOPENED_KEPT_SECONDS)
    finally:
        db.conn.close()
