"""Headers on every response: no framing, no sniffing, only our own scripts and styles.

Pages of a record link (the Share page shows the join code) and the join page are never
stored by a browser or a proxy: a shared computer's cache would hand them to the next user.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from ipaddress import ip_address, ip_network
from typing import TYPE_CHECKING

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


#: Where an HTTPS proxy runs when none is named: on this machine, in front of ``make run``.
LOOPBACK = "127.0.0.1,::1"


class BadProxySetting(ValueError):
    """``SCOREKEEPER_PROXY`` names something that is not an address or a network."""


class ForwardedByProxy:
    """Honour ``X-Forwarded-For``/``-Proto``/``-Host`` only on requests that come from the proxy.

    Anyone can write those headers: trusted from any sender, a phone could claim any address
    and so slip past the limits on wrong join codes and director passwords by changing it.
    """

    def __init__(self, app: WSGIApplication, proxies: Iterable[str]) -> None:
        self.networks = [ip_network(proxy.strip(), strict=False) for proxy in proxies if proxy.strip()]
        self.direct = app
        self.forwarded = ProxyFix(app, x_for=1, x_proto=1, x_host=1)

    def from_proxy(self, address: str) -> bool:
        try:
            client = ip_address(address)
        except ValueError:
            return False
        return any(client in network for network in self.networks)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if self.from_proxy(environ.get("REMOTE_ADDR", "")):
            return self.forwarded(environ, start_response)
        return self.direct(environ, start_response)


class FromFront:
    """Requests handed to the workers by the front (``web/front.py``): the address the connection
    came from and its scheme are the front's own headers, written again on every request (a
    phone's are dropped). Believed because nobody but the front can reach the workers' socket."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        peer = environ.pop("HTTP_X_SCOREKEEPER_PEER", "")
        scheme = environ.pop("HTTP_X_SCOREKEEPER_SCHEME", "")
        if peer:
            environ["REMOTE_ADDR"] = peer
        if scheme in ("http", "https"):
            environ["wsgi.url_scheme"] = scheme
        return self.app(environ, start_response)


def behind_front(app: Flask) -> None:
    """Read the front's headers first (then a trusted proxy's, if one is named)."""
    app.wsgi_app = FromFront(app.wsgi_app)  # type: ignore[method-assign]


def proxy_setting(config: Mapping[str, object]) -> str | None:
    """The trusted proxy as set: ``TRUSTED_PROXIES`` in the settings, else ``SCOREKEEPER_PROXY``;
    with ``SCOREKEEPER_HTTPS=1`` and neither, this machine (``LOOPBACK``). The app and the live
    process read it alike, so that both count a client behind the proxy as itself."""
    proxies = config.get("TRUSTED_PROXIES", os.environ.get("SCOREKEEPER_PROXY"))
    if proxies is None and os.environ.get("SCOREKEEPER_HTTPS") == "1":
        return LOOPBACK
    return None if proxies is None else str(proxies)


def trust_proxies(app: Flask, proxies: str) -> None:
    """Put ``ForwardedByProxy`` in front of the app for the comma-separated addresses (or networks)."""
    try:
        app.wsgi_app = ForwardedByProxy(app.wsgi_app, proxies.split(","))  # type: ignore[method-assign]
    except ValueError as error:
        raise BadProxySetting(f"SCOREKEEPER_PROXY: {error}") from None


#: How long a phone that has seen the server over https keeps to https for it (a day: a club that
#: goes back to plain http is not locked out for long). Browsers keep it for names only, never
#: for an address such as 192.168.1.20.
HSTS_SECONDS = 24 * 60 * 60

#: Pages that show record links or join codes (a table's own, or every table's to the
#: director): never kept in a browser's cache, where the next user of the laptop would find them.
SECRET_BEARING = ("/t/", "/director/")


def init_app(app: Flask) -> None:
    @app.after_request
    def add_security_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", f"max-age={HSTS_SECONDS}")
        if request.path.startswith(SECRET_BEARING) or request.endpoint == "start.join":
            response.headers["Cache-Control"] = "no-store"
        return response
