"""Capabilities: the token in a link is the permission; a game's id alone grants nothing."""

from __future__ import annotations

from flask import abort

from ..storage.games import StoredGame, game_by_record_token, game_by_view_token, mark_opened
from .connection import get_db


def recording_game(token: str) -> StoredGame:
    """The game this record link may change, or 404 (the same answer for any wrong token). An
    imported game whose link is used is kept for good (``storage.games.mark_opened``)."""
    stored = game_by_record_token(get_db(), token)
    if stored is None:
        abort(404)
    mark_opened(get_db(), stored)
    return stored


def viewing_game(token: str) -> StoredGame:
    stored = game_by_view_token(get_db(), token)
    if stored is None:
        abort(404)
    mark_opened(get_db(), stored)
    return stored
