"""An event's results published as static pages, from the event page: the folder that
``scorekeeper publish`` writes, made in the background as a booklet is (its PDFs rendered in the
printing processes, never in a request's worker), and downloaded as one zip."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ...storage.events import Event, get_event
from .. import booklets, render_pool
from ..connection import get_db
from ..forms import EmptyForm, KeyedForm
from ..publishing import event_site
from ..responses import download_response, event_file_name
from .director import director_required

bp = Blueprint("published", __name__, url_prefix="/director/events/<int:event_id>/published")


def _event(event_id: int) -> Event:
    found = get_event(get_db(), event_id)
    if found is None:
        raise NotFound()
    return found


@bp.post("/")
@director_required
def publish(event_id: int) -> Response:
    """Start the folder; the button's key names the job, so pressed twice it follows the one it started."""
    found = _event(event_id)
    form = KeyedForm()
    if not form.validate_on_submit():
        flash(" ".join(form.idem.errors) or "This page is out of date: reload it.", "error")
        return redirect(url_for("events.event", event_id=found.id) + "#top")
    with render_pool.building():  # the pages' markup: one builder at a time, as for a booklet
        site = event_site(get_db(), found.id)
    top = f"event-{found.id}"
    parts = [booklets.Part(file.pdf_of, name=f"{top}/{file.path}") for file in site.files.values() if file.pdf_of]
    files = [(f"{top}/{file.path}", file.content) for file in site.files.values() if not file.pdf_of]
    key = f"published {found.id} {form.idem.data}"
    job = booklets.start(current_app.instance_path, parts, found.name, key, found.id, booklets.PUBLISHED, files)
    return redirect(url_for("published.status", event_id=found.id, job=job))


@bp.get("/<job>")
@director_required
def status(event_id: int, job: str) -> str:
    found = _event(event_id)
    state = booklets.status(current_app.instance_path, job, found.id, booklets.PUBLISHED)
    if state is None:
        raise NotFound()
    refresh = 2 if state["state"] == "running" else None
    return render_template(
        "events/published.html", event=found, job=job, state=state, refresh=refresh, logout=EmptyForm()
    )


@bp.get("/<job>.zip")
@director_required
def download(event_id: int, job: str) -> Response:
    found = _event(event_id)
    path = booklets.result(current_app.instance_path, job, found.id, booklets.PUBLISHED)
    if path is None:
        raise NotFound()
    return download_response(
        path.read_bytes(), "application/zip", event_file_name(found.name, found.held_on, "published", "zip")
    )
