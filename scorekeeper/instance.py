"""The instance folder's secrets, created on first run and kept."""

from __future__ import annotations

import os
import secrets
import time

SECRET_KEY_FILE = "secret_key"


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
