"""The instance folder's secrets, created on first run and kept, and its files, readable by their owner only."""

from __future__ import annotations

import os
import secrets
import time

SECRET_KEY_FILE = "secret_key"
PRIVATE = 0o600


def create_private(path: str | os.PathLike[str]) -> None:
    """Create an empty file readable by its owner only, unless it exists: for SQLite to open next.

    SQLite gives a database's -wal, -shm and journal files the database file's own mode, so
    they follow. A file that exists is left alone, and never opened: closing any descriptor
    of a database file drops every POSIX lock this process holds on it, the locks of
    SQLite's connections in other threads included (and a database unlocked is corrupted).
    """
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except FileExistsError:
        pass


def write_private(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a file whole, readable by its owner only (whatever the umask, and if it existed before)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    with os.fdopen(fd, "wb") as handle:
        os.fchmod(fd, PRIVATE)
        handle.write(data)


def ensure_secret_key(instance_path: str) -> str:
    """Read the app's secret key, creating it (readable by its owner only) if there is none.

    Several server workers may start at once: the file is created exclusively, so
    exactly one of them writes it and every one reads the same key.
    """
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    for _ in range(50):
        with open(path) as handle:
            key = handle.read().strip()
        if key:
            return key
        time.sleep(0.01)
    raise RuntimeError(f"the secret key file {path} is empty")
