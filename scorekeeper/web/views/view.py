"""The read-only pages behind a game's view link: scores, history, export. No forms at all."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, url_for

from ...storage.games import load_state
from .. import render_pool
from ..access import viewing_game
from ..connection import get_db
from ..pages import export_response, history_page, scores_context, sheet_response
from ..responses import version_response

bp = Blueprint("view", __name__, url_prefix="/v/<token>")

REFRESH_SECONDS = 30


@bp.get("/")
def scores(token: str) -> str:
    """Scores for spectators and wall screens: followed live, with a slow refresh as a fallback."""
    stored = viewing_game(token)
    state = load_state(get_db(), stored)
    return render_template("game/scores.html", **scores_context(stored, state), can_edit=False, refresh=REFRESH_SECONDS)


@bp.get("/version")
def version(token: str) -> Response:
    return version_response("view_token", token)


@bp.get("/history")
def history(token: str) -> str:
    stored = viewing_game(token)
    state = load_state(get_db(), stored)
    return history_page(stored, state, can_edit=False)


@bp.get("/sheet.pdf")
@render_pool.prints
def sheet(token: str) -> Response:
    stored = viewing_game(token)
    return sheet_response(stored, load_state(get_db(), stored), url_for("view.scores", token=token, _external=True))


@bp.get("/export.json")
def export(token: str) -> Response:
    stored = viewing_game(token)
    return export_response(stored, load_state(get_db(), stored))
