"""The club's list of members, for the director: every member with their evenings and rating, a
member added by hand, a roster imported from a CSV file (previewed first), a member's page
(their results, and their name, club, number and privacy to edit), two entries of one person
merged, a member's name removed for good, and the club's history with its undo. Every page
needs the director's login."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import BadRequest, NotFound, RequestEntityTooLarge
from werkzeug.wrappers import Response

from ...club.members import FORMER_MEMBER, Member
from ...club.roster import MAX_ROSTER_BYTES, read_roster
from ...club.roster_plan import ImportPlan, shown_file_name
from ...reports.club_csv import ratings_rows
from ...reports.csv_text import csv_text
from ...scoring import Refusal
from ...scoring.errors import Stale, sentence
from ...storage import members as member_store
from ...storage.club_results import bring_up_to_date
from ...storage.club_undo import undo
from ...storage.member_merges import merge_members
from ...storage.member_removal import remove_member
from ...storage.player_results import MemberLine, member_lines, player_results, rated_members
from ...storage.roster_import import import_roster, preview
from .. import booklets
from ..club_pages import names_shown, player_page
from ..connection import get_db
from ..errors import InvalidForm, TooLarge, page_answer, refused_page
from ..forms import EmptyForm
from ..member_forms import (
    ROSTER_CONTENT_MAX_LENGTH,
    STALE_ROSTER,
    MemberForm,
    MergeForm,
    RosterConfirmForm,
    RosterUploadForm,
)
from ..responses import download_response
from .director import director_required, is_director, who

bp = Blueprint("members", __name__, url_prefix="/director/players")

#: Room beside a roster in a request: the form's other fields and the multipart envelope.
ENVELOPE = 64 * 1024
#: The app takes requests of 256 kB; the two that carry a roster take up to its size (the
#: upload, the file itself; the confirmation, the file as base64 in a form field).
ROSTER_REQUEST_LIMITS = {
    "members.import_preview": MAX_ROSTER_BYTES + ENVELOPE,
    "members.import_confirm": ROSTER_CONTENT_MAX_LENGTH + ENVELOPE,
}
LIST_CHANGED = (
    "The club's list changed since that preview (another change was saved meanwhile): here is the import as it "
    "stands now. Check it, then import."
)


@bp.url_value_preprocessor
def _room_for_a_roster(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """A roster's two requests may be larger than the app's limit. Set here, before any
    ``before_request``: the CSRF check reads the body before the view does."""
    limit = ROSTER_REQUEST_LIMITS.get(endpoint or "")
    if limit is not None and is_director():  # only the director's browser may send that much
        request.max_content_length = limit
        request.max_form_memory_size = limit


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(error: RequestEntityTooLarge) -> tuple[str, int, dict[str, str]]:
    """A roster file too large is refused beside the file field, not with a bare error page."""
    if request.endpoint not in ROSTER_REQUEST_LIMITS:
        return refused_page(render_template("error.html", error=error), TooLarge(error.description or ""))
    upload = RosterUploadForm(formdata=None)
    size = f" (this upload is {request.content_length:,} bytes)" if request.content_length else ""
    upload.roster.errors = [
        f"The file is too large{size}: a roster file may be at most {MAX_ROSTER_BYTES:,} bytes. Keep only the "
        "name, club and number columns, or split it."
    ]
    return _import_page(upload, refused=TooLarge(upload.roster.errors[0]))


@bp.get("/")
@director_required
def members() -> str:
    return _list_page(MemberForm(prefix="add", formdata=None))[0]


def _list_page(add: MemberForm, refused: Refusal | None = None) -> tuple[str, int, dict[str, str]]:
    db = get_db()
    bring_up_to_date(db)
    search = request.args.get("q", "")[:60]
    return page_answer(
        render_template(
            "members/members.html",
            lines=member_lines(db, search),
            search=search,
            add=add,
            history=member_store.club_history(db, 30),
            undo_form=EmptyForm(),
            logout=EmptyForm(),
        ),
        refused,
    )


@bp.post("/")
@director_required
def add_member() -> Response | tuple[str, int, dict[str, str]]:
    form = MemberForm(prefix="add")
    if form.validate_on_submit():
        try:
            member, new = member_store.add_member(
                get_db(), form.name.data, form.club.data or "", form.number.data or "", who()
            )
        except Refusal as error:
            getattr(form, error.field or "name").errors = [sentence(str(error))]
        else:
            flash(f"{member.described} {'added to' if new else 'is on'} the list.", "info")
            return redirect(url_for("members.member", member_id=member.id))
    return _list_page(form, InvalidForm())


@bp.get("/ratings.csv")
@director_required
def ratings_csv() -> Response:
    """The ratings for a spreadsheet, best first: names and membership numbers as the list has them."""
    db = get_db()
    bring_up_to_date(db)
    rated = rated_members(db)
    names = names_shown({member.id: member for member, _ in rated}, public=False)
    shown = [(names[member.id], member.number, rating) for member, rating in rated]
    return download_response(csv_text(ratings_rows(shown, numbers=True)), "text/csv", "ratings.csv")


@bp.get("/<int:member_id>")
@director_required
def member(member_id: int) -> Response | tuple[str, int, dict[str, str]]:
    return _member_page(member_id, None)


def _member_page(
    member_id: int,
    edit: MemberForm | None,
    refused: Refusal | None = None,
    merge: MergeForm | None = None,
    asked: MemberLine | None = None,
) -> Response | tuple[str, int, dict[str, str]]:
    """The member's page; an entry merged into another opens that one's. ``asked``: the entry the
    merge form chose, asked about before it is merged."""
    db = get_db()
    bring_up_to_date(db)
    results = player_results(db, member_id)
    if results is None:
        raise NotFound()
    found = results.member
    if found.merged_into is not None:
        for refused in merge.absorb.errors if merge is not None else ():  # a merge refused on the way: said
            flash(f"Not merged: {refused}", "error")
        flash(f"{found.name} was merged into this member: undo it from the history on the list of players.", "info")
        return redirect(url_for("members.member", member_id=found.merged_into))
    if edit is None:
        edit = MemberForm(
            prefix="edit",
            formdata=None,
            name=found.name,
            club=found.club,
            number=found.number or "",
            initials=found.initials,
        )
    others = [line for line in member_lines(db) if line.member.id != found.id] if found.listed else []
    merge = merge or MergeForm(prefix="merge", formdata=None)
    merge.absorb.choices = [(line.member.id, _choice(line)) for line in others]
    page = player_page(
        results,
        public=False,
        member_link=lambda m: None if m.removed else url_for("members.member", member_id=m.id),
        event_link=lambda e: None if e.deleted else url_for("events.event", event_id=e.event_id),
    )
    return page_answer(
        render_template("members/member.html", edit=edit, merge=merge, asked=asked, logout=EmptyForm(), **page), refused
    )


def _choice(line: MemberLine) -> str:
    """An entry as the merge form lists it: "Annie Smith · 55 · 3 evenings"."""
    evenings = f"{line.evenings} evening{'s' if line.evenings != 1 else ''}"
    return " · ".join(part for part in (line.member.name, line.member.number or "", evenings) if part)


@bp.post("/<int:member_id>")
@director_required
def edit_member(member_id: int) -> Response | tuple[str, int, dict[str, str]]:
    form = MemberForm(prefix="edit")
    if form.validate_on_submit():
        try:
            changed = member_store.edit_member(
                get_db(),
                member_id,
                form.name.data,
                form.club.data or "",
                form.number.data or "",
                bool(form.initials.data),
                who(),
            )
        except Refusal as error:
            getattr(form, error.field or "name").errors = [sentence(str(error))]
        else:
            flash("Saved." if changed else "Nothing changed.", "info")
            return redirect(url_for("members.member", member_id=member_id))
    return _member_page(member_id, form, InvalidForm())


@bp.get("/import")
@director_required
def import_form() -> tuple[str, int, dict[str, str]]:
    """The roster's upload form, explaining what the file holds."""
    return _import_page(RosterUploadForm(formdata=None))


@bp.post("/import")
@director_required
def import_preview() -> tuple[str, int, dict[str, str]]:
    """What the file would do to the list, shown before anything is stored: the rows to add and
    to update, each line refused with why, and how the file was read."""
    upload = RosterUploadForm()
    if upload.validate_on_submit():
        data = upload.content()
        try:
            roster = read_roster(data)
        except Refusal as error:
            upload.roster.errors = [sentence(str(error))]
        else:
            return _preview_page(preview(get_db(), roster), shown_file_name(upload.roster.data.filename), data)
    return _import_page(upload, refused=InvalidForm())


@bp.post("/import/confirm")
@director_required
def import_confirm() -> Response | tuple[str, int, dict[str, str]]:
    """Import the previewed file: read and matched again (the preview is never trusted), and
    imported only if that is still what the preview showed; else the new preview is shown."""
    form = RosterConfirmForm()
    data = form.file_bytes() if form.validate_on_submit() else None
    upload = RosterUploadForm(formdata=None)
    if data is None:
        upload.roster.errors = [STALE_ROSTER]
        return _import_page(upload, refused=InvalidForm())
    file_name = shown_file_name(form.file_name.data)
    try:
        roster = read_roster(data)
    except Refusal as error:
        upload.roster.errors = [sentence(str(error))]
        return _import_page(upload, refused=InvalidForm())
    db = get_db()
    plan = preview(db, roster)
    if plan.changes and plan.digest != form.digest.data:
        return _preview_page(plan, file_name, data, notice=LIST_CHANGED, refused=Stale(LIST_CHANGED))
    result = import_roster(db, plan, who(), file_name)
    if result.added or result.updated:
        flash(result.plan.summary(file_name) + ".", "ok")
    else:
        flash(_nothing_imported(result.plan, file_name), "error" if result.plan.refused else "ok")
    return redirect(url_for("members.members"))


def _of(file_name: str) -> str:
    return f"of {file_name} " if file_name else ""


def _nothing_imported(plan: ImportPlan, file_name: str) -> str:
    """What a confirmation that imports nothing says: a success only when no line was refused."""
    refused = len(plan.refused)
    if not refused:
        return f"Nothing imported: every player {_of(file_name)}is on the list as the file has them."
    read = "the players read are on the list as the file has them" if plan.unchanged else "no line can be imported"
    source = f" from {file_name}" if file_name else ""
    return f"Nothing imported{source}: {read}; {refused:,} {'line was' if refused == 1 else 'lines were'} refused."


def _import_page(
    upload: RosterUploadForm, refused: Refusal | None = None, **preview: Any
) -> tuple[str, int, dict[str, str]]:
    return page_answer(
        render_template("members/import.html", upload=upload, logout=EmptyForm(formdata=None), **preview), refused
    )


def _preview_page(
    plan: ImportPlan, file_name: str, data: bytes, notice: str = "", refused: Refusal | None = None
) -> tuple[str, int, dict[str, str]]:
    confirm = RosterConfirmForm(
        formdata=None, content=RosterConfirmForm.carried(data), file_name=file_name, digest=plan.digest
    )
    upload = RosterUploadForm(formdata=None)
    return _import_page(upload, refused, plan=plan, file_name=file_name, confirm=confirm, notice=notice)


@bp.post("/<int:member_id>/merge")
@director_required
def merge(member_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """Merge another entry into this member: asked first (the two names, the evenings that move),
    then merged on the history, where it can be undone. A double click merges once."""
    form = MergeForm(prefix="merge")
    db = get_db()
    if not form.validate_on_submit():
        return _member_page(member_id, None, InvalidForm(), merge=form)
    if not form.confirmed:
        line = next((line for line in member_lines(db) if line.member.id == form.absorb.data), None)
        if line is None or line.member.id == member_id:
            form.absorb.errors = ["That entry is not on the list (merged or removed meanwhile): choose another."]
            return _member_page(member_id, None, InvalidForm(), merge=form)
        return _member_page(member_id, None, merge=form, asked=line)
    absorbed = member_store.get_member(db, form.absorb.data)
    try:
        merged = merge_members(db, member_id, form.absorb.data, who())
    except Refusal as error:
        form.absorb.errors = [sentence(str(error))]
        return _member_page(member_id, None, error, merge=form)
    kept = member_store.get_member(db, member_id)
    if merged and absorbed is not None and kept is not None:
        flash(f"{absorbed.name} merged into {kept.name}: undo it from the history on the list of players.", "ok")
    else:
        flash("Those two are merged already.", "info")
    return redirect(url_for("members.member", member_id=member_id))


@bp.get("/<int:member_id>/remove")
@director_required
def remove_question(member_id: int) -> str:
    """The question before a member's name is removed for good: what goes, what stays."""
    found = _listed_member(member_id)
    bring_up_to_date(get_db())
    results = player_results(get_db(), member_id)
    assert results is not None
    return render_template(
        "members/remove.html", member=found, evenings=len(results.evenings), form=EmptyForm(), logout=EmptyForm()
    )


@bp.post("/<int:member_id>/remove")
@director_required
def remove(member_id: int) -> Response:
    """Remove the member's name for good: from the database, the pages, and the PDFs the app keeps
    (the booklets of their events, the kept sheets). A double click removes once."""
    form = EmptyForm()
    if not form.validate_on_submit():
        raise BadRequest()
    db = get_db()
    found = member_store.get_member(db, member_id)
    if found is None:
        raise NotFound()
    try:
        removal = remove_member(db, member_id, who())
    except Refusal as error:
        flash(sentence(str(error)), "error")
        return redirect(url_for("members.member", member_id=member_id))
    if removal is None:
        flash(f"That player's name was removed already: their results stand under “{FORMER_MEMBER}”.", "info")
        return redirect(url_for("members.members"))
    booklets.forget_names(current_app.instance_path, removal.events)
    evenings = f"{removal.evenings} evening{'s' if removal.evenings != 1 else ''}"
    message = f"The player's name is removed: their {evenings} stand under “{FORMER_MEMBER}”."
    if not removal.checkpointed:
        message += " The database was busy: the name leaves its journal at the next quiet moment."
    flash(message, "ok")
    return redirect(url_for("members.members"))


def _listed_member(member_id: int) -> Member:
    """A member on the list (404 for none; a removed or merged member has nothing to remove)."""
    found = member_store.get_member(get_db(), member_id)
    if found is None or not found.listed:
        raise NotFound()
    return found


@bp.post("/history/<int:line>/undo")
@director_required
def undo_line(line: int) -> Response:
    """Undo a line of the club's history (a merge, an event deleted): exactly, or refused with the
    reason it no longer can be. A double click undoes once."""
    form = EmptyForm()
    if not form.validate_on_submit():
        raise BadRequest()
    back = url_for("members.members") + "#club-history"
    try:
        done = undo(get_db(), line, who())
    except Refusal as error:
        flash(sentence(str(error)), "error")
        return redirect(back)
    flash("Undone: it is on the history." if done else "That change was undone already.", "ok")
    return redirect(back)
