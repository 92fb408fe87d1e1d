"""The club's list of members, for the director: every member with their evenings and rating, a
member added by hand, and a member's page (their results, and their name, club, number and
privacy to edit). Every page needs the director's login."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...club.members import Member
from ...reports.club_csv import ratings_rows
from ...reports.csv_text import csv_text
from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage import members as member_store
from ...storage.club_results import bring_up_to_date, ranked_ratings
from ...storage.player_results import member_lines, player_results
from ..club_pages import player_page
from ..connection import get_db
from ..forms import EmptyForm
from ..member_forms import MemberForm
from ..responses import download_response
from .director import director_required, who

bp = Blueprint("members", __name__, url_prefix="/director/players")


@bp.get("/")
@director_required
def members() -> str:
    return _list_page(MemberForm(prefix="add", formdata=None))[0]


def _list_page(add: MemberForm, status: int = 200) -> tuple[str, int]:
    db = get_db()
    bring_up_to_date(db)
    search = request.args.get("q", "")[:60]
    return render_template(
        "members/members.html",
        lines=member_lines(db, search),
        search=search,
        add=add,
        history=member_store.club_history(db, 30),
        logout=EmptyForm(),
    ), status


@bp.post("/")
@director_required
def add_member() -> Response | tuple[str, int]:
    form = MemberForm(prefix="add")
    if form.validate_on_submit():
        try:
            member = member_store.add_member(get_db(), form.name.data, form.club.data or "", form.number.data or "", who())
        except Refusal as error:
            getattr(form, error.field or "name").errors = [sentence(str(error))]
        else:
            flash(f"{member.described} added to the list.", "info")
            return redirect(url_for("members.member", member_id=member.id))
    return _list_page(form, 422)


@bp.get("/ratings.csv")
@director_required
def ratings_csv() -> Response:
    """The ratings for a spreadsheet, best first: names and membership numbers as the list has them."""
    db = get_db()
    bring_up_to_date(db)
    rated = ranked_ratings(db)
    members = member_store.members_by_id(db, [member for member, _ in rated])
    shown = [(_named(members[member]), members[member].number, rating) for member, rating in rated]
    return download_response(csv_text(ratings_rows(shown, numbers=True)), "text/csv", "ratings.csv")


def _named(member: Member) -> str:
    """A member as the director's pages name them: by name, or as a former member once removed."""
    return member.public_name if member.removed else member.name


@bp.get("/<int:member_id>")
@director_required
def member(member_id: int) -> tuple[str, int]:
    return _member_page(member_id, None)


def _member_page(member_id: int, edit: MemberForm | None, status: int = 200) -> tuple[str, int]:
    db = get_db()
    bring_up_to_date(db)
    results = player_results(db, member_id)
    if results is None:
        abort(404)
    if edit is None:
        found = results.member
        edit = MemberForm(
            prefix="edit", formdata=None, name=found.name, club=found.club, number=found.number or "",
            initials=found.initials,
        )
    page = player_page(
        results,
        public=False,
        member_link=lambda m: None if m.removed else url_for("members.member", member_id=m.id),
        event_link=lambda e: None if e.deleted else url_for("events.event", event_id=e.event_id),
    )
    return render_template("members/member.html", edit=edit, logout=EmptyForm(), **page), status


@bp.post("/<int:member_id>")
@director_required
def edit_member(member_id: int) -> Response | tuple[str, int]:
    form = MemberForm(prefix="edit")
    if form.validate_on_submit():
        try:
            changed = member_store.edit_member(
                get_db(), member_id, form.name.data, form.club.data or "", form.number.data or "",
                bool(form.initials.data), who(),
            )
        except Refusal as error:
            getattr(form, error.field or "name").errors = [sentence(str(error))]
        else:
            flash("Saved." if changed else "Nothing changed.", "info")
            return redirect(url_for("members.member", member_id=member_id))
    return _member_page(member_id, form, 422)
