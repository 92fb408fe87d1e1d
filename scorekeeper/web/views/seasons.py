"""The director's seasons: a named series of events with a ladder ruled as the director chooses
(the evenings' placement points, the best N evenings, or the rating at the season's end), its
events added and taken out, and its ladder printed or written out as CSV. Every page needs the
director's login; the ladder's public page and wall screen are in ``club`` and ``season_wall``."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, flash, redirect, render_template, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ...reports.club_csv import ladder_rows
from ...reports.csv_text import csv_text
from ...reports.sheets import season_ladder_html
from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage import seasons as season_store
from ...storage.club_results import bring_up_to_date
from ...storage.seasons import Season
from .. import render_pool
from ..club_pages import ladder_shown
from ..connection import get_db
from ..errors import InvalidForm, page_answer
from ..forms import EmptyForm
from ..responses import download_response, pdf_response
from ..season_forms import NewSeasonForm, SeasonEventForm, SeasonForm
from .director import director_required, who

bp = Blueprint("seasons", __name__, url_prefix="/director/seasons")


def _season(season_id: int) -> Season:
    found = season_store.get_season(get_db(), season_id)
    if found is None:
        raise NotFound()
    return found


@bp.get("/")
@director_required
def seasons() -> tuple[str, int, dict[str, str]]:
    return _list_page(NewSeasonForm(formdata=None))


def _list_page(form: NewSeasonForm, refused: Refusal | None = None) -> tuple[str, int, dict[str, str]]:
    return page_answer(
        render_template(
            "seasons/seasons.html", seasons=season_store.list_seasons(get_db()), form=form, logout=EmptyForm()
        ),
        refused,
    )


@bp.post("/")
@director_required
def new_season() -> Response | tuple[str, int, dict[str, str]]:
    """A new season; sent twice (a double click), it makes one and answers with it both times."""
    form = NewSeasonForm()
    if form.validate_on_submit():
        try:
            season, made = season_store.create_season(
                get_db(), form.name.data, form.rule.data, form.best_number, form.paper.data, who(), form.idem.data
            )
        except Refusal as error:
            getattr(form, error.field or "name").errors = [sentence(str(error))]
        else:
            if made:
                flash(f"Season {season.name} made: add its events below.", "info")
            return redirect(url_for("seasons.season", season_id=season.id))
    return _list_page(form, InvalidForm())


@bp.get("/<int:season_id>")
@director_required
def season(season_id: int) -> tuple[str, int, dict[str, str]]:
    found = _season(season_id)
    edit = SeasonForm(
        prefix="edit", formdata=None, name=found.name, rule=found.rule, best=str(found.best or ""), paper=found.paper
    )
    return _season_page(found, edit, SeasonEventForm(prefix="add", formdata=None))


def _season_page(
    found: Season, edit: SeasonForm, add: SeasonEventForm, refused: Refusal | None = None
) -> tuple[str, int, dict[str, str]]:
    db = get_db()
    bring_up_to_date(db)
    ladder = season_store.season_ladder(db, found)
    to_add = season_store.events_to_add(db, found.id)
    add.event.choices = [(event_id, f"{name} ({held_on})") for event_id, name, held_on in to_add]
    return page_answer(
        render_template(
            "seasons/season.html",
            season=found,
            ladder=ladder,
            table=ladder_shown(ladder, public=False),
            player_link=lambda member: url_for("members.member", member_id=member),
            edit=edit,
            add=add,
            take_out=EmptyForm(),
            can_add=bool(to_add),
            wall_url=url_for("season_wall.ladder", token=found.wall_token, _external=True),
            logout=EmptyForm(),
        ),
        refused,
    )


@bp.post("/<int:season_id>")
@director_required
def edit_season(season_id: int) -> Response | tuple[str, int, dict[str, str]]:
    found = _season(season_id)
    form = SeasonForm(prefix="edit")
    if form.validate_on_submit():
        try:
            changed = season_store.edit_season(
                get_db(), found.id, form.name.data, form.rule.data, form.best_number, form.paper.data, who()
            )
        except Refusal as error:
            getattr(form, error.field or "name").errors = [sentence(str(error))]
        else:
            flash("Saved." if changed else "Nothing changed.", "info")
            return redirect(url_for("seasons.season", season_id=found.id))
    return _season_page(found, form, SeasonEventForm(prefix="add", formdata=None), InvalidForm())


@bp.post("/<int:season_id>/events")
@director_required
def add_event(season_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """An event joins the season; pressed twice, it joins once (the second says it is in already)."""
    found = _season(season_id)
    form = SeasonEventForm(prefix="add")
    if form.validate_on_submit():
        try:
            added = season_store.add_event(get_db(), found.id, form.event.data, who())
        except Refusal as error:
            form.event.errors = [sentence(str(error))]
        else:
            flash(
                "Event added: its results count on the ladder." if added else "That event is in the season already.",
                "info",
            )
            return redirect(url_for("seasons.season", season_id=found.id) + "#season-events")
    edit = SeasonForm(
        prefix="edit", formdata=None, name=found.name, rule=found.rule, best=str(found.best or ""), paper=found.paper
    )
    return _season_page(found, edit, form, InvalidForm())


@bp.post("/<int:season_id>/events/<int:event_id>/take-out")
@director_required
def take_out_event(season_id: int, event_id: int) -> Response:
    """The event leaves the season (its results stay in the club's record); pressed twice, once."""
    found = _season(season_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        flash("This page is out of date: reload it.", "error")
    elif season_store.take_out_event(get_db(), found.id, event_id, who()):
        flash("Event taken out of the season: its results no longer count on this ladder.", "info")
    else:
        flash("That event was not in the season (taken out already).", "info")
    return redirect(url_for("seasons.season", season_id=found.id) + "#season-events")


@bp.get("/<int:season_id>/ladder.pdf")
@director_required
@render_pool.prints
def ladder_pdf(season_id: int) -> Response:
    """The ladder to pin on the wall, on the season's paper, portrait, by the members' names."""
    found = _season(season_id)
    db = get_db()
    bring_up_to_date(db)
    table = ladder_shown(season_store.season_ladder(db, found), public=False)
    html = season_ladder_html(found.name, table, found.paper, printed_at=printed_now())
    return pdf_response(render_pool.render(html), f"ladder-{found.id}.pdf")


@bp.get("/<int:season_id>/ladder.csv")
@director_required
def ladder_csv(season_id: int) -> Response:
    """The ladder for a spreadsheet: names and membership numbers, one column per evening."""
    found = _season(season_id)
    db = get_db()
    bring_up_to_date(db)
    ladder = season_store.season_ladder(db, found)
    numbers = {member: ladder.members[member].number for member in ladder.members}
    rows = ladder_rows(ladder_shown(ladder, public=False), numbers)
    return download_response(csv_text(rows), "text/csv", f"ladder-{found.id}.csv")


def printed_now() -> str:
    """When a page was printed, in the server's time zone, to the minute."""
    return datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
