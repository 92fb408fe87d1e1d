"""A season's wall screen: its ladder in large type, read-only, behind its own link (like an
event's), following the club's record by itself: it polls the ladder's version and brings the
ladder in again when a table finishes."""

from __future__ import annotations

from flask import Blueprint, Response, render_template
from werkzeug.exceptions import NotFound

from ...storage import seasons as season_store
from ...storage.club_results import bring_up_to_date
from ...storage.seasons import Season
from ..access import holds_a_link
from ..club_pages import ladder_shown
from ..connection import get_db
from ..responses import polled_version

bp = Blueprint("season_wall", __name__, url_prefix="/s/<token>")


def _season(token: str) -> Season:
    found = season_store.season_by_wall_token(get_db(), token)
    if found is None:
        raise NotFound()
    holds_a_link()
    return found


@bp.get("/")
def ladder(token: str) -> str:
    found = _season(token)
    db = get_db()
    bring_up_to_date(db)
    return render_template(
        "season_wall/wall.html",
        season=found,
        table=ladder_shown(season_store.season_ladder(db, found), public=True),
        player_link=lambda member: None,
        version=season_store.season_version(db, found),
        token=token,
    )


@bp.get("/version")
def version(token: str) -> Response:
    """The ladder's version (``season_version``; ETag: a 304 when nothing changed), the club's
    record brought up to date first, so that a table finished moves it with no other page opened."""
    found = _season(token)
    db = get_db()
    bring_up_to_date(db)
    return polled_version(season_store.season_version(db, found))
