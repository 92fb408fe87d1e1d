"""What the processes that meet the phones' connections (the front and the live process) need of
the system: the server side of TLS, and enough open files (every connection is one)."""

from __future__ import annotations

import contextlib
import resource
import ssl


def tls_context(certfile: str, keyfile: str | None) -> ssl.SSLContext:
    """The server side of TLS with this certificate and key."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certfile, keyfile)
    return context


def more_files() -> int:
    """Raise this process's limit of open files to what the system allows: each connection is one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    return soft
