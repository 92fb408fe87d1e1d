"""The database connection: SQLite in the instance folder, configured for durability.

Each request gets its own connection (WAL, ``synchronous=FULL``, a busy timeout);
every write runs in a ``BEGIN IMMEDIATE`` transaction so that a transaction never
reads, loses the race and then fails to write (in WAL mode a deferred transaction that
read first fails at once with SQLITE_BUSY when another connection committed meanwhile).
Named migrations (``migrations.py``) run once at start-up, under a file lock, before serving.
"""

from __future__ import annotations

import errno
import fcntl
import mmap
import os
import re
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlite_utils

from .files import PRIVATE, create_private
from .migrations import migrations

DATABASE_FILE = "scorekeeper.db"
BUSY_TIMEOUT_SECONDS = 10


def connect(path: str) -> sqlite_utils.Database:
    """A connection of our own: autocommit mode (we issue BEGIN), WAL, FULL sync, busy timeout.

    A database created here is readable by its owner only (and so are its -wal and -shm).
    """
    create_private(path)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    db = sqlite_utils.Database(conn)
    _WRITE_TURNS[db] = path + WRITE_TURN_SUFFIX
    return db


def data_version(db: sqlite_utils.Database) -> int | None:
    """A number that changes whenever another connection commits to the database (SQLite's
    ``data_version``: microseconds to ask); None when the database cannot be read just now."""
    try:
        return int(db.execute("PRAGMA data_version").fetchone()[0])
    except sqlite3.Error:
        return None


#: Beside the database, the file whose advisory lock the processes serving it take turns on.
WRITE_TURN_SUFFIX = ".write-turn"
_WRITE_TURNS: weakref.WeakKeyDictionary[sqlite_utils.Database, str] = weakref.WeakKeyDictionary()
_TURN_FILES: dict[tuple[int, str], int] = {}
_TURN_DEPTH = threading.local()


#: One write transaction at a time among this process's threads (see ``immediate``).
_WRITING = threading.RLock()


@contextmanager
def immediate(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """A write transaction that takes the write lock first: all or nothing, committed on exit.

    Writers queue for it before asking SQLite: SQLite makes a writer that finds the database
    locked sleep and retry, up to 100 ms a time, so with a dozen threads of a server racing
    for it the unlucky ones waited for seconds (measured in ``make bench``'s live load: a
    pressure's p99 1.2–1.6 s, 0.4–0.5 s with the queue). The threads of one process queue on
    a lock of their own; the processes (a server's workers, the command line) on an advisory
    lock of a file beside the database, which the kernel hands to the next waiter the moment
    it is let go, and releases by itself if its holder is killed. A thread that waits longer
    than SQLite's own busy timeout for its process's turn is told the database is locked, as
    SQLite would tell it.
    """
    if not _WRITING.acquire(timeout=BUSY_TIMEOUT_SECONDS):
        raise sqlite3.OperationalError("database is locked")
    try:
        with _process_turn(db):
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.conn.execute("ROLLBACK")
                raise
            db.conn.execute("COMMIT")
    finally:
        _WRITING.release()


@contextmanager
def _process_turn(db: sqlite_utils.Database) -> Iterator[None]:
    """This process's turn among the processes writing to ``db`` (held once however deeply nested)."""
    path = _WRITE_TURNS.get(db)
    depth = getattr(_TURN_DEPTH, "depth", 0)
    if path is None or depth:
        _TURN_DEPTH.depth = depth + 1
        try:
            yield
        finally:
            _TURN_DEPTH.depth = depth
        return
    key = (os.getpid(), path)  # a forked worker opens its own: a lock on an inherited one is shared
    if key not in _TURN_FILES:
        _TURN_FILES[key] = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE)
    fd = _TURN_FILES[key]
    fcntl.flock(fd, fcntl.LOCK_EX)
    _TURN_DEPTH.depth = 1
    try:
        yield
    finally:
        _TURN_DEPTH.depth = 0
        fcntl.flock(fd, fcntl.LOCK_UN)


def vacuum(db: sqlite_utils.Database) -> None:
    """Rewrite the whole database file, in this process's and thread's turn to write: every page
    anew, so nothing once deleted or replaced stays in a page's free space (SQLite built without
    ``secure_delete`` on by default leaves it there). Seconds for a large file: only for a change
    that must leave nothing behind (a member's name removed)."""
    if not _WRITING.acquire(timeout=BUSY_TIMEOUT_SECONDS):
        raise sqlite3.OperationalError("database is locked")
    try:
        with _process_turn(db):
            db.conn.execute("VACUUM")
    finally:
        _WRITING.release()


def file_holds(db: sqlite_utils.Database, texts: Iterable[bytes]) -> bool:
    """Whether the database's file or its journal (-wal) holds any of ``texts`` (ASCII letters in
    any case), read as raw bytes: what a copy of the file would give away."""
    patterns = [re.compile(re.escape(text), re.IGNORECASE) for text in texts if text]
    row = db.execute("PRAGMA database_list").fetchone()
    path = str(row[2]) if row is not None else ""
    if not path or not patterns:
        return False
    for name in (path, path + "-wal"):
        try:
            with open(name, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
                if any(pattern.search(data) for pattern in patterns):
                    return True
        except (FileNotFoundError, ValueError):  # no journal, or an empty one (mmap takes no empty file)
            continue
    return False


def migrate(path: str) -> None:
    """Apply pending migrations; a file lock keeps concurrent starters from racing."""
    with os.fdopen(os.open(path + ".migrate-lock", os.O_WRONLY | os.O_CREAT, PRIVATE), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        db = connect(path)
        try:
            migrations.apply(db)
        finally:
            db.conn.close()


class BackupError(Exception):
    """The backup was not made (and left no file at the name asked for)."""


def backup(path: str, target: str) -> None:
    """Copy the database at ``path`` to the new file ``target`` while the server keeps writing to it.

    SQLite's online backup fills a hidden file beside ``target`` (readable by its owner
    only); the copy takes the final name only once it is complete, a single file (no -wal),
    on disk and through PRAGMA integrity_check, and never over a file that exists. So a
    backup killed part-way leaves nothing at ``target``: at worst a ``.NAME.….partial`` beside it.
    """
    final = Path(target)
    if final.exists() or final.is_symlink():
        raise BackupError(f"{target} exists already: choose a new file")
    partial = final.with_name(f".{final.name}.{secrets.token_hex(4)}.partial")
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except OSError as error:
        raise BackupError(f"cannot write beside {target}: {error.strerror}") from None
    try:
        source = connect(path)
        try:
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                source.conn.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # folds the copy's WAL into its one file
                check = copy.execute("PRAGMA integrity_check").fetchone()[0]
            finally:
                copy.close()
        finally:
            source.conn.close()
        if check != "ok":
            raise BackupError(f"the copy failed its integrity check: {check}")
        _sync(partial)
        _link_into_place(partial, final)
        _sync(final.parent)
    except sqlite3.Error as error:
        raise BackupError(f"backup failed: {error}") from None
    except OSError as error:
        raise BackupError(f"backup failed: {error.strerror or error}") from None
    finally:
        for leftover in ("", "-journal", "-wal", "-shm"):
            Path(f"{partial}{leftover}").unlink(missing_ok=True)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _link_into_place(partial: Path, final: Path) -> None:
    """Give the finished copy its name; a hard link cannot replace a file that appeared meanwhile."""
    try:
        os.link(partial, final)
    except FileExistsError:
        raise BackupError(f"{final} exists already: choose a new file") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV):
            raise
        if final.exists():  # a file system without hard links (a FAT USB stick): check, then rename
            raise BackupError(f"{final} exists already: choose a new file") from None
        os.rename(partial, final)
