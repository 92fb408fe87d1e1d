"""The director's events: the list, a new event, an event deleted from the list; and the
blueprint the event's other pages add their routes to (``event_page``, ``event_rounds``,
``event_roster``, ``event_penalties``, ``event_results``, ``event_printouts``), with what they
share. Every page needs the director's login."""

from __future__ import annotations

import ipaddress
from datetime import datetime
from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import BadRequest, NotFound
from werkzeug.wrappers import Response

from ...club.members import held_on_words
from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage import events as event_store
from ...storage.event_deletion import delete_event, deleted_events
from ...storage.events import Event, EventPlayer
from ...storage.members import all_members
from ..connection import get_db
from ..errors import InvalidForm, page_answer
from ..event_forms import EventForm
from ..forms import EmptyForm
from ..picking import event_lines
from ..responses import event_file_name
from .director import director_required, who

bp = Blueprint("events", __name__, url_prefix="/director")


def event_or_404(event_id: int) -> Event:
    found = event_store.get_event(get_db(), event_id)
    if found is None:
        raise NotFound()
    return found


@bp.get("/")
@director_required
def events() -> str:
    db = get_db()
    return render_template(
        "events/events.html", events=event_store.list_events(db), deleted=deleted_events(db), logout=EmptyForm()
    )


@bp.route("/events/new", methods=["GET", "POST"])
@director_required
def new_event() -> Response | tuple[str, int, dict[str, str]]:
    """A new event; its players typed, pasted or picked from the club's list (the picker's Add
    without script comes back here with the line added, nothing created)."""
    form = EventForm()
    if request.method == "GET" and not form.held_on.data:
        form.held_on.data = datetime.now().astimezone().date().isoformat()  # the server's today: events are local
    if form.is_submitted() and form.add_player.data:
        return _new_event_page(form, None if form.add_picked() else InvalidForm(), picked=True)
    if form.validate_on_submit():
        rules = form.configured_rules()
        assert rules is not None
        try:
            event = event_store.create_event(
                get_db(),
                form.name.data.strip(),
                form.held_on.data.strip(),
                rules.id,
                rules.options(),
                form.scoring.data,
                form.partnerships.data,
                [EventPlayer(*row) for row in form.parsed_players],
                verify=bool(form.verify.data),
                paper=form.paper.data,
                rounds=form.rounds.data,
                sit_out=form.sit_out.data,
                odd_tables=form.odd_tables.data,
                who=who(),
                withdrawn_ranked=form.withdrawn_ranked.data,
                lines=form.parsed_lines,
                lock_at_end=bool(form.lock_at_end.data),
            )
        except Refusal as error:  # the list matched to the club's (two members of one name, say)
            field = form[error.field] if error.field and error.field in form else form.players
            field.errors = [sentence(str(error))]
            return _new_event_page(form, error)
        return redirect(url_for("events.event", event_id=event.id))
    return _new_event_page(form, InvalidForm() if form.is_submitted() else None)


def _new_event_page(form: EventForm, refused: Refusal | None, picked: bool = False) -> tuple[str, int, dict[str, str]]:
    """The new-event form, offering the club's members to pick (``picked``: one was just added)."""
    lines = event_lines(all_members(get_db()))
    page = render_template("events/new_event.html", form=form, member_lines=lines, picked=picked, logout=EmptyForm())
    return page_answer(page, refused)


def back_to(event: Event) -> Response:
    """The event page after a change, at its top, where the flash says what was done (a form's
    action names the section it is in, so that a refusal opens there: a redirect would keep it)."""
    return redirect(url_for("events.event", event_id=event.id) + "#top")


@bp.get("/events/<int:event_id>/delete")
@director_required
def delete_question(event_id: int) -> str:
    """The question before an event leaves the list: what stops working, what stays, how to undo it."""
    found = event_or_404(event_id)
    return render_template(
        "events/delete.html", event=found, held_on=held_on_words(found.held_on), form=EmptyForm(), logout=EmptyForm()
    )


@bp.post("/events/<int:event_id>/delete")
@director_required
def delete(event_id: int) -> Response:
    """Delete the event from the list (its games locked; its results kept in the club's record),
    undoable from the club's history. A double click deletes once."""
    form = EmptyForm()
    if not form.validate_on_submit():
        raise BadRequest()
    found = event_store.get_event(get_db(), event_id, deleted=True)
    if found is None:
        raise NotFound()
    line = delete_event(get_db(), event_id, who())
    when = held_on_words(found.held_on)
    if line:
        flash(f"{found.name} ({when}) deleted: bring it back with Undo in the club's history (Players).", "ok")
    else:
        flash(f"{found.name} ({when}) was deleted already.", "info")
    return redirect(url_for("events.events"))


def members_by_name(event: Event) -> dict[str, EventPlayer]:
    return {player.name: player for player in event_store.event_players(get_db(), event.id)}


def printed_now() -> str:
    """When a page was printed, in the server's time zone, to the minute."""
    return to_the_minute(datetime.now())


def to_the_minute(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def unreachable_host(url: str) -> str | None:
    """The host of ``url`` if no phone could open it (this machine's own name: localhost,
    127.0.0.1, ::1), else None."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return host
    try:
        return host if ipaddress.ip_address(host).is_loopback else None
    except ValueError:
        return None


def file_name(event: Event, what: str, extension: str) -> str:
    return event_file_name(event.name, event.held_on, what, extension)
