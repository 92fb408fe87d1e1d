"""The wall screen: an event's live standings in large type, read-only, behind its own link."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, render_template, request

from . import event_store
from .db import get_db
from .events import event_standings, event_tie_breaks

bp = Blueprint("wall", __name__, url_prefix="/e/<token>")


def _event(token: str) -> event_store.Event:
    found = event_store.event_by_wall_token(get_db(), token)
    if found is None:
        abort(404)
    return found


@bp.get("/")
def standings(token: str) -> str:
    found = _event(token)
    return render_template(
        "wall.html",
        event=found,
        rows=event_standings(get_db(), found),
        tie_breaks=event_tie_breaks(found),
        version=event_store.event_version(get_db(), found),
        token=token,
    )


@bp.get("/version")
def version(token: str) -> Response:
    found = _event(token)
    current = str(event_store.event_version(get_db(), found))
    if request.if_none_match.contains(current):
        response = Response(status=304)
    else:
        response = jsonify({"version": int(current)})
    response.set_etag(current)
    response.headers["Cache-Control"] = "no-cache"
    return response
