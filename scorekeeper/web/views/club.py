"""The club's public pages: the ratings, each player's results and each season's ladder, with no
record link, join code, view or wall token on them, no membership number, and players who asked
shown by initials. Read-only: no login."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ...club.members import Member
from ...club.ratings import placed
from ...reports.club_csv import ladder_rows, ratings_rows
from ...reports.csv_text import csv_text
from ...storage import seasons as season_store
from ...storage.club_results import bring_up_to_date
from ...storage.player_results import player_results, rated_members
from ..club_pages import ladder_shown, names_shown, player_page
from ..connection import get_db
from ..responses import download_response

bp = Blueprint("club", __name__, url_prefix="/club")


@bp.get("/")
def index() -> str:
    db = get_db()
    bring_up_to_date(db)
    rated = rated_members(db)
    return render_template(
        "club/index.html",
        rows=placed(rated),
        shown=names_shown({member.id: member for member, _ in rated}, public=True),
        seasons=season_store.list_seasons(db),
        player_link=_public_page,
    )


@bp.get("/ratings.csv")
def ratings_csv() -> Response:
    """The ratings for a spreadsheet, by public name (no membership numbers)."""
    db = get_db()
    bring_up_to_date(db)
    rated = rated_members(db)
    shown = names_shown({member.id: member for member, _ in rated}, public=True)
    rows = ratings_rows([(shown[member.id], None, rating) for member, rating in rated], numbers=False)
    return download_response(csv_text(rows), "text/csv", "ratings.csv")


@bp.get("/players/<int:member_id>")
def player(member_id: int) -> Response | str:
    """A member's public page; an entry merged into another is that member's page now."""
    db = get_db()
    bring_up_to_date(db)
    results = player_results(db, member_id)
    if results is not None and results.member.merged_into is not None:
        return redirect(url_for("club.player", member_id=results.member.merged_into))
    if results is None or results.member.removed or not results.evenings:
        raise NotFound()  # no page for a name removed, nor for a roster's member who has not played
    return render_template("club/player.html", **player_page(results, public=True, member_link=_public_page))


def _public_page(member: Member) -> str | None:
    """Where a member's public page is: none for a former member (their name was removed)."""
    return None if member.removed else url_for("club.player", member_id=member.id)


def _season_ladder(season_id: int) -> tuple[season_store.Season, season_store.SeasonLadder]:
    """The season asked for (404 if none), and its ladder from the club's record brought up to date."""
    db = get_db()
    found = season_store.get_season(db, season_id)
    if found is None:
        raise NotFound()
    bring_up_to_date(db)
    return found, season_store.season_ladder(db, found)


@bp.get("/seasons/<int:season_id>")
def season(season_id: int) -> str:
    """A season's ladder, by public name, each player linked to their page."""
    found, ladder = _season_ladder(season_id)
    return render_template(
        "club/season.html",
        season=found,
        table=ladder_shown(ladder, public=True),
        player_link=lambda member: None if ladder.members[member].removed else url_for("club.player", member_id=member),
    )


@bp.get("/seasons/<int:season_id>/ladder.csv")
def season_csv(season_id: int) -> Response:
    """A season's ladder for a spreadsheet, by public name (no membership numbers)."""
    found, ladder = _season_ladder(season_id)
    rows = ladder_rows(ladder_shown(ladder, public=True))
    return download_response(csv_text(rows), "text/csv", f"ladder-{found.id}.csv")
