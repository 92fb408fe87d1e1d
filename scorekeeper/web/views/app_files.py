"""What a browser asks of the app itself rather than of a page: the service worker and the
manifest (``installable``), the icon at /favicon.ico, and a fresh CSRF token for the outbox."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify
from flask_wtf.csrf import generate_csrf

from ..installable import manifest_response, worker_response

bp = Blueprint("app_files", __name__)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so that it may keep every page (secure origins only)."""
    return worker_response()


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return manifest_response()


@bp.get("/csrf")
def csrf() -> Response:
    """A fresh CSRF token, for an outbox replaying submissions after the old one expired."""
    response = jsonify({"token": generate_csrf()})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico whatever the page links: answer with the app's icon, not a 404."""
    icon = Path(current_app.static_folder or "", "icon.svg").read_bytes()
    return Response(icon, mimetype="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})
