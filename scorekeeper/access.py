"""Capabilities: the token in a link is the permission; a game's id alone grants nothing."""

from __future__ import annotations

import secrets

from flask import Response, abort, jsonify, request, session

from .db import get_db
from .storage import StoredGame, game_by_record_token, game_by_view_token, game_version


def recording_game(token: str) -> StoredGame:
    """The game this record link may change, or 404 (the same answer for any wrong token)."""
    stored = game_by_record_token(get_db(), token)
    if stored is None:
        abort(404)
    return stored


def viewing_game(token: str) -> StoredGame:
    stored = game_by_view_token(get_db(), token)
    if stored is None:
        abort(404)
    return stored


def device_label() -> str:
    """A short, stable name for this browser, so the history can say which phone made a change."""
    if "device" not in session:
        session["device"] = secrets.token_hex(2)
        session.permanent = True
    return str(session["device"])


def record_source() -> str:
    return f"record link · phone {device_label()}"


def wants_json() -> bool:
    """A submission from the phone's outbox (JavaScript) rather than a plain form post."""
    return request.headers.get("X-Requested-With") == "outbox"


def version_response(column: str, token: str) -> Response:
    """The game's version for live polling: 304 when the phone already has it."""
    version = game_version(get_db(), column, token)
    if version is None:
        abort(404)
    etag = str(version)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = jsonify({"version": version})
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response
