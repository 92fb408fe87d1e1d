"""The wall screen: an event's live standings in large type, read-only, behind its own link."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request
from werkzeug.exceptions import NotFound

from ...storage import events as event_store
from ...storage.evening import settle_event
from ...storage.event_results import event_tie_breaks, seated_by_hand, standings_shown
from ...storage.round_clock import latest_clock
from ..access import holds_a_link
from ..connection import get_db
from ..responses import polled_version

bp = Blueprint("wall", __name__, url_prefix="/e/<token>")

#: How long the wall screen shows each page of the standings, in seconds (``?seconds=`` within these).
PAGE_SECONDS, FEWEST_SECONDS, MOST_SECONDS = 10, 1, 600


def _event(token: str) -> event_store.Event:
    found = event_store.event_by_wall_token(get_db(), token)
    if found is None:
        raise NotFound()
    holds_a_link()
    return found


@bp.get("/")
def standings(token: str) -> str:
    """The standings in pages that turn by themselves (``?seconds=`` each; every row without JavaScript)."""
    found = _event(token)
    settle_event(get_db(), found)
    shown = standings_shown(get_db(), found)
    seconds = request.args.get("seconds", PAGE_SECONDS, type=int)
    return render_template(
        "wall/wall.html",
        clock=latest_clock(get_db(), found.id),
        event=found,
        rows=shown.rows,
        stage=shown.stage,
        page_seconds=min(max(seconds, FEWEST_SECONDS), MOST_SECONDS),
        by_hand=seated_by_hand(event_store.event_tables(get_db(), found.id)),
        tie_breaks=event_tie_breaks(found),
        version=event_store.event_version(get_db(), found),
        token=token,
    )


@bp.get("/version")
def version(token: str) -> Response:
    """The event's version, for the wall screen following it live (ETag: a 304 when nothing changed)."""
    return polled_version(event_store.event_version(get_db(), _event(token)))
