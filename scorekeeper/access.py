"""Capabilities: the token in a link is the permission; a game's id alone grants nothing."""

from __future__ import annotations

import secrets

from flask import abort, session

from .db import get_db
from .storage import StoredGame, game_by_record_token, game_by_view_token


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
