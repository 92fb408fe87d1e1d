"""The front door's limits on new games: the budget of games started and imported (by network
and for the whole server, ``storage.game_starts``), one game record checked at a time in each
worker, in a process of its own, and the sweep of imported games nobody opened.

Why: checking the largest record the limits allow is up to half a second of CPU, and a
worker's threads share one interpreter. Sixteen checked at once in the workers held every save
of every other table behind them (p99 2.0 s). So a worker hands a record to its own import
process, run at a lower priority (as the printer's render processes are), and the request
thread sleeps, leaving the GIL to the saves, until the game is stored or refused; the process
stores it as any writer does (checked before the write lock, the lock held only to insert). A
worker checks one record at a time: an import that finds it checking another is refused at
once (never queued: a queued import would hold a thread the tables need).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

import sqlite_utils
from flask import Flask, current_app

from ..scoring import Refusal, ScoringError, decode_json
from ..scoring.errors import TooMany, sentence
from ..storage.database import connect
from ..storage.exchange import import_changes, imported_title
from ..storage.game_imports import import_game, sweep_unopened_imports
from ..storage.game_starts import IMPORTED, STARTED, StartLimits, reserve_start
from .connection import database_path, get_db
from .devices import client_address, guesser_key

#: Game records checked at once in one worker process.
IMPORTS_AT_ONCE = 1
#: How long an imported game nobody opened is kept, and how often each worker looks for them.
UNOPENED_KEPT_SECONDS = 24 * 3600
SWEEP_EVERY_SECONDS = 3600
#: When to try again after finding the worker checking another record.
BUSY_RETRY_SECONDS = 5
#: The import process runs this much nicer than the requests; the longest a request waits for it.
NICENESS = 10
IMPORT_TIMEOUT = 60.0

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


class TooManyGames(TooMany):
    """A new game refused by the budget (or a record while the worker checks another): try later."""


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


class ImportRefused(Refusal):
    """The record, refused by the check in the import process: its sentence, beside the record."""


def import_record(text: str, field: str) -> str:
    """The record stored as a new game by this worker's import process: its record token, or the
    check's refusal (``ImportRefused``) with the sentence beside ``field``."""
    outcome, said = _checker().run(database_path(current_app), text)
    if outcome == "refused":
        raise ImportRefused(said, field)
    return said


def _import_here(database: str, text: str) -> tuple[str, str]:
    """In the import process: check and store the record, as the import page did in the worker;
    ("stored", its record token) or ("refused", the sentence)."""
    try:
        data = decode_json(text)
        if not isinstance(data, dict):
            raise ScoringError("the record must be a JSON object")
        title = imported_title(data)
        record, changes = import_changes(data)
        stored = import_game(_connection(database), record.game, changes, "import", title)
    except Refusal as error:
        return "refused", sentence(str(error))
    return "stored", stored.record_token


_CONNECTIONS: dict[str, sqlite_utils.Database] = {}


def _connection(database: str) -> sqlite_utils.Database:
    """The import process's connection to ``database``, kept for its next record."""
    if database not in _CONNECTIONS:
        _CONNECTIONS[database] = connect(database)
    return _CONNECTIONS[database]


def _checker_start(parent: int) -> None:
    """In the import process: Ctrl-C is the server's, the requests come first, and it ends when its worker does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


class _Checker:
    """A worker's import process (spawned on first use, replaced if it dies)."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_checker_start,
                    initargs=(os.getpid(),),
                )
            return self._executor

    def run(self, database: str, text: str) -> tuple[str, str]:
        for attempt in range(2):
            executor = self.executor()
            try:
                return executor.submit(_import_here, database, text).result(IMPORT_TIMEOUT)
            except BrokenProcessPool:
                with self._lock:
                    if self._executor is executor:
                        self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


_CHECKERS: dict[int, _Checker] = {}
_CHECKERS_GUARD = threading.Lock()


def _checker() -> _Checker:
    """This process's import process (one inherited across a fork is not reused)."""
    with _CHECKERS_GUARD:
        return _CHECKERS.setdefault(os.getpid(), _Checker())


def _ready() -> None:
    """Nothing: sent to a new import process so that it starts (and imports the app's modules)."""


def start() -> None:
    """Start this worker's import process now, with the worker, not at the first import (a spawned
    process takes seconds to import the app's modules on a busy laptop)."""
    _checker().executor().submit(_ready)


def _shutdown() -> None:
    checker = _CHECKERS.get(os.getpid())
    if checker is not None:
        checker.shutdown()


atexit.register(_shutdown)


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
