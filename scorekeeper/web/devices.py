"""Which phone is this: a label kept in its cookie, and the network address it comes from."""

from __future__ import annotations

import ipaddress
import secrets

from flask import request, session


def device_label() -> str:
    """A short, stable name for this browser, so the history can say which phone made a change."""
    if "device" not in session:
        session["device"] = secrets.token_hex(2)
        session.permanent = True
    return str(session["device"])


#: How a change made through the record link names its phone; the history numbers the phones.
PHONE_SOURCE = "record link · phone "


def record_source() -> str:
    return PHONE_SOURCE + device_label()


def client_address() -> str:
    """The address the request came from (the proxy's forwarded one only from a trusted proxy)."""
    return request.remote_addr or "unknown"


def guesser_key(address: str) -> str:
    """Whom wrong guesses are counted against: the address, or for IPv6 its /64 network, since
    one home connection is given a whole /64 and could otherwise change address at every guess."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def is_loopback(address: str) -> bool:
    """Whether the request came from the server's own machine (127.0.0.0/8, ::1, or a mapped 127.x)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return parsed.is_loopback
