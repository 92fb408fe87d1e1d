"""Where a page's phone opens its live stream (``web/live.py``), and the page's leave to open it.

``scorekeeper serve`` starts the live process on its own port (the app's plus one) and says so
in ``SCOREKEEPER_LIVE_PORT``: a page served over plain http then opens
``http://<the host the phone used>:<live port>/live/...`` (``https://`` when ``scorekeeper serve``
serves TLS itself, ``SCOREKEEPER_LIVE_SCHEME=https``). Behind a reverse proxy that forwards
``/live/`` to that port on the same origin (https), ``SCOREKEEPER_LIVE=same-origin`` makes the
address relative. With neither (an https page and no proxy rule, the tests' app, or
``--live-port 0``) the page has no stream and follows by polling ``/version``, as every page can.
"""

from __future__ import annotations

import os

from flask import Flask, Response, request


def _host_name() -> str:
    host = request.host
    if host.startswith("["):
        return host[: host.index("]") + 1]
    return host.rsplit(":", 1)[0] if ":" in host else host


def live_origin(app: Flask) -> str | None:
    """The origin of the live stream for this request, '' for this same origin, None for none."""
    if app.config.get("LIVE") == "same-origin":
        return ""
    port = int(app.config.get("LIVE_PORT") or 0)
    scheme = app.config.get("LIVE_SCHEME") or "http"
    if not port or request.scheme != scheme:
        return None
    return f"{scheme}://{_host_name()}:{port}"


def live_url(app: Flask, kind: str, token: str) -> str:
    """The stream a page of ``kind`` ("t", "v" or "e") follows, or '' when it polls only."""
    origin = live_origin(app)
    return "" if origin is None else f"{origin}/live/{kind}/{token}"


def init_app(app: Flask) -> None:
    app.config.setdefault("LIVE_PORT", int(os.environ.get("SCOREKEEPER_LIVE_PORT") or 0))
    app.config.setdefault("LIVE", os.environ.get("SCOREKEEPER_LIVE", ""))
    app.config.setdefault("LIVE_SCHEME", os.environ.get("SCOREKEEPER_LIVE_SCHEME", "http"))
    app.jinja_env.globals["live_url"] = lambda kind, token: live_url(app, kind, token)

    @app.after_request
    def allow_the_stream(response: Response) -> Response:
        """A page may connect to its live stream's origin (and nowhere else but its own)."""
        origin = live_origin(app) if response.mimetype == "text/html" else None
        policy = response.headers.get("Content-Security-Policy")
        if origin and policy and "connect-src" not in policy:
            response.headers["Content-Security-Policy"] = policy.replace(
                "default-src 'self';", f"default-src 'self'; connect-src 'self' {origin};"
            )
        return response
