"""What makes the app installable where the origin is secure: the web app manifest, and the
service worker (``static/sw.js``) served at the site's root with this release's version in it.

The version is a hash of every static file: a release that changes one is a new worker, which
replaces the old one's caches (the browser compares the worker's bytes on each visit)."""

from __future__ import annotations

import hashlib
import ipaddress
from functools import cache
from pathlib import Path

from flask import Response, current_app, jsonify, request, url_for

WORKER = "sw.js"


@cache
def release(static_folder: str) -> str:
    """A short hash of the static files as they are on disk."""
    digest = hashlib.sha256()
    for path in sorted(Path(static_folder).iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def worker_response() -> Response:
    folder = current_app.static_folder or ""
    text = Path(folder, WORKER).read_text(encoding="utf-8").replace("{{ version }}", release(folder))
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


def manifest_response() -> Response:
    """Opened from the home screen, the app starts at the home page: this phone's games."""
    response = jsonify(
        {
            "name": "Scorekeeper",
            "short_name": "Scorekeeper",
            "description": "Scores and referees card games played at a real table.",
            "start_url": url_for("home.index"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#0a58a8",
            "icons": [_icon("icon-192.png", "192x192"), _icon("icon-512.png", "512x512")],
        }
    )
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    return response


def _icon(name: str, size: str) -> dict[str, str]:
    return {"src": url_for("static", filename=name), "sizes": size, "type": "image/png"}


def secure_origin() -> bool:
    """Whether phones meet the app at a secure origin (https, or this machine itself, which
    browsers count as secure): only there do they get a service worker."""
    if request.is_secure:
        return True
    host = (request.host or "").rsplit(":", 1)[0].strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
