"""Capabilities: the token in a link is the permission; a game's id alone grants nothing.

An answer to a request that named a link that exists (a game's, a wall's) or came from the
director's session says so to the front in ``KNOWN_HEADER``, which the front keeps to itself: its
network is then one the front knows, never counted among strangers when connections flood in
(``web/front.py``). A page anyone may fetch (the home page, ``/robots.txt``, a 404) never does."""

from __future__ import annotations

from flask import Flask, Response, abort, g

from ..storage.game_imports import mark_opened
from ..storage.games import StoredGame, game_by_record_token, game_by_view_token
from .connection import get_db
from .front import KNOWN_HEADER


def holds_a_link() -> None:
    """This request named a link that exists, or a director's session the server knows."""
    g.holds_a_link = True


def recording_game(token: str) -> StoredGame:
    """The game this record link may change, or 404 (the same answer for any wrong token). An
    imported game whose link is used is kept for good (``storage.game_imports.mark_opened``)."""
    stored = game_by_record_token(get_db(), token)
    if stored is None:
        abort(404)
    mark_opened(get_db(), stored)
    holds_a_link()
    return stored


def viewing_game(token: str) -> StoredGame:
    stored = game_by_view_token(get_db(), token)
    if stored is None:
        abort(404)
    mark_opened(get_db(), stored)
    holds_a_link()
    return stored


def init_app(app: Flask) -> None:
    @app.after_request
    def tell_the_front(response: Response) -> Response:
        if response.status_code < 400 and g.get("holds_a_link"):
            response.headers[KNOWN_HEADER.decode()] = "1"
        return response
