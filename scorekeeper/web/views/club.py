"""The club's public pages: the ratings and each player's results, with no record link, join code,
view or wall token on them, and players who asked shown by initials. Read-only: no login."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for
from werkzeug.wrappers import Response

from ...storage.club_results import bring_up_to_date, ranked_ratings
from ...storage.members import members_by_id
from ...storage.player_results import player_results
from ..club_pages import player_page
from ..connection import get_db

bp = Blueprint("club", __name__, url_prefix="/club")


@bp.get("/")
def index() -> str:
    db = get_db()
    bring_up_to_date(db)
    rated = ranked_ratings(db)
    members = members_by_id(db, [member for member, _ in rated])
    rows = [(members[member], rating) for member, rating in rated]
    return render_template("club/index.html", rows=rows)


@bp.get("/players/<int:member_id>")
def player(member_id: int) -> Response | str:
    """A member's public page; an entry merged into another is that member's page now."""
    db = get_db()
    bring_up_to_date(db)
    results = player_results(db, member_id)
    if results is None:
        abort(404)
    if results.member.merged_into is not None:
        return redirect(url_for("club.player", member_id=results.member.merged_into))
    return render_template(
        "club/player.html",
        **player_page(results, public=True, member_link=lambda m: url_for("club.player", member_id=m.id)),
    )
