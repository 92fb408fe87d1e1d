"""The tournament director's pages: a password, events, seating, every table's progress, standings."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from . import booklets, event_store, pdf
from .db import get_db
from .event_store import Event, EventPlayer
from .events import (
    event_standings,
    event_tie_breaks,
    export_csv,
    export_json,
    progress,
    proposed_seating,
    rounds_played,
)
from .forms import DirectorPasswordForm, EmptyForm, EventForm, LoginForm, SeatingForm
from .pages import pdf_response
from .qr import qr_svg
from .scoring import Game, ScoringError
from .seating import SeatingError, parse_tables, partners_of
from .sheets import event_sheets_html, standings_html, table_cards_html

bp = Blueprint("director", __name__, url_prefix="/director")

LOGIN_WINDOW_SECONDS = 10 * 60
LOGIN_ATTEMPTS = 5


def is_director() -> bool:
    return session.get("director") is True


def director_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not is_director():
            return redirect(url_for("director.login", next=request.path))
        return view(*args, **kwargs)

    return wrapped


def _event(event_id: int) -> Event:
    found = event_store.get_event(get_db(), event_id)
    if found is None:
        abort(404)
    return found


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> Response | str:
    """On first run: choose the director password (or set it with `scorekeeper create-director`)."""
    if event_store.director_password_hash(get_db()) is not None:
        return redirect(url_for("director.login"))
    form = DirectorPasswordForm()
    if form.validate_on_submit():
        if event_store.set_director_password_hash(get_db(), generate_password_hash(form.password.data), replace=False):
            session.clear()
            session["director"] = True
            return redirect(url_for("director.events"))
        return redirect(url_for("director.login"))
    return render_template("director/setup.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    db = get_db()
    stored_hash = event_store.director_password_hash(db)
    if stored_hash is None:
        return redirect(url_for("director.setup"))
    form = LoginForm()
    address = request.remote_addr or "unknown"
    if form.validate_on_submit():
        if event_store.recent_login_failures(db, address, LOGIN_WINDOW_SECONDS) >= LOGIN_ATTEMPTS:
            form.password.errors = ["Too many wrong passwords: wait ten minutes and try again."]
            return render_template("director/login.html", form=form), 429
        if check_password_hash(stored_hash, form.password.data or ""):
            event_store.clear_login_failures(db, address)
            session.clear()
            session["director"] = True
            session.permanent = True
            target = request.args.get("next", "")
            return redirect(
                target if target.startswith("/") and not target.startswith("//") else url_for("director.events")
            )
        event_store.record_login_failure(db, address)
        form.password.errors = ["That is not the director password."]
        return render_template("director/login.html", form=form), 401
    return render_template("director/login.html", form=form)


@bp.post("/logout")
def logout() -> Response:
    form = EmptyForm()
    if form.validate_on_submit():
        session.pop("director", None)
    return redirect(url_for("home.index"))


@bp.get("/")
@director_required
def events() -> str:
    return render_template("director/events.html", events=event_store.list_events(get_db()), logout=EmptyForm())


@bp.route("/events/new", methods=["GET", "POST"])
@director_required
def new_event() -> Response | str | tuple[str, int]:
    form = EventForm()
    if form.validate_on_submit():
        rules = form.configured_rules()
        assert rules is not None
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
        )
        return redirect(url_for("director.event", event_id=event.id))
    return render_template("director/new_event.html", form=form), (422 if form.is_submitted() else 200)


@bp.get("/events/<int:event_id>")
@director_required
def event(event_id: int) -> str:
    found = _event(event_id)
    return _event_page(found, SeatingForm())


def _event_page(event: Event, seating: SeatingForm, status: int = 200) -> Any:
    db = get_db()
    tables = progress(db, event)
    if not seating.tables.data:
        try:
            seating.tables.data = "\n".join(", ".join(table) for table in proposed_seating(db, event))
        except ValueError as error:
            seating.tables.errors = [str(error)]
    wall_url = url_for("wall.standings", token=event.wall_token, _external=True)
    return render_template(
        "director/event.html",
        event=event,
        tables=tables,
        players=event_store.event_players(db, event.id),
        seating=seating,
        lock_form=EmptyForm(),
        logout=EmptyForm(),
        wall_url=wall_url,
        next_round=len(rounds_played(tables)) + 1,
        tie_breaks=event_tie_breaks(event),
    ), status


@bp.post("/events/<int:event_id>/rounds")
@director_required
def seat_round(event_id: int) -> Any:
    """Seat the next round from the tables as written (the automatic proposal, or edited by hand)."""
    found = _event(event_id)
    form = SeatingForm()
    if not form.validate_on_submit():
        return _event_page(found, form, 422)
    db = get_db()
    names = [player.name for player in event_store.event_players(db, found.id)]
    rules = found.ruleset()
    try:
        tables = parse_tables(form.tables.data or "", names, found.partnerships)
        for seats in tables:
            Game(rules, tuple(seats), partners_of(seats, found.partnerships))
    except (SeatingError, ScoringError) as error:
        form.tables.errors = [str(error)]
        return _event_page(found, form, 422)
    seated = {name for seats in tables for name in seats}
    missing = sorted(set(names) - seated)
    number = event_store.add_round(db, found, tables)
    flash(
        f"Round {number} seated: {len(tables)} tables." + (f" Not seated: {', '.join(missing)}." if missing else ""),
        "ok",
    )
    return redirect(url_for("director.event", event_id=found.id))


@bp.post("/events/<int:event_id>/games/<token>/lock")
@director_required
def lock(event_id: int, token: str) -> Response:
    """Lock a finished game (after which only the director can change it), or unlock it."""
    found = _event(event_id)
    form = EmptyForm()
    table = next((row for row in event_store.event_tables(get_db(), found.id) if row.game.record_token == token), None)
    if table is None:
        abort(404)
    if form.validate_on_submit():
        event_store.set_locked(get_db(), table.game, not table.locked)
        flash(f"Round {table.round}, table {table.number} {'unlocked' if table.locked else 'locked'}.", "ok")
    return redirect(url_for("director.event", event_id=found.id))


@bp.get("/events/<int:event_id>/standings")
@director_required
def standings(event_id: int) -> str:
    found = _event(event_id)
    round_ = request.args.get("round", type=int)
    rows = event_standings(get_db(), found, round_)
    rounds = sorted({row.table.round for row in progress(get_db(), found)})
    return render_template(
        "director/standings.html",
        event=found,
        rows=rows,
        round_=round_,
        rounds=rounds,
        tie_breaks=event_tie_breaks(found),
        logout=EmptyForm(),
    )


@bp.get("/events/<int:event_id>/standings.pdf")
@director_required
def standings_pdf(event_id: int) -> Response:
    found = _event(event_id)
    round_ = request.args.get("round", type=int)
    html = standings_html(found, event_standings(get_db(), found, round_), round_, event_tie_breaks(found))
    return pdf_response(pdf.render_pdf(html), f"standings-{found.id}.pdf")


@bp.get("/events/<int:event_id>/table-cards.pdf")
@director_required
def table_cards(event_id: int) -> Response:
    """One page per table of a round: table number, seats, and the QR code to record."""
    found = _event(event_id)
    tables = progress(get_db(), found)
    round_ = request.args.get("round", type=int) or max((row.table.round for row in tables), default=0)
    cards = [
        (row.table, qr_svg(url_for("table.hand", token=row.table.game.record_token, _external=True), scale=4))
        for row in tables
        if row.table.round == round_
    ]
    if not cards:
        abort(404)
    return pdf_response(pdf.render_pdf(table_cards_html(found, round_, cards)), f"tables-round-{round_}.pdf")


@bp.post("/events/<int:event_id>/booklet")
@director_required
def booklet(event_id: int) -> Response:
    """Start the booklet of every table's sheet in the background; its page shows the progress."""
    found = _event(event_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        abort(400)
    htmls = event_sheets_html(found, progress(get_db(), found))
    if not htmls:
        flash("No table has been seated yet.", "error")
        return redirect(url_for("director.event", event_id=found.id))
    job = booklets.start(current_app.instance_path, htmls, found.name)
    return redirect(url_for("director.booklet_status", event_id=found.id, job=job))


@bp.get("/events/<int:event_id>/booklet/<job>")
@director_required
def booklet_status(event_id: int, job: str) -> str:
    found = _event(event_id)
    state = booklets.status(current_app.instance_path, job)
    if state is None:
        abort(404)
    refresh = 2 if state["state"] == "running" else None
    return render_template(
        "director/booklet.html", event=found, job=job, state=state, refresh=refresh, logout=EmptyForm()
    )


@bp.get("/events/<int:event_id>/booklet/<job>.pdf")
@director_required
def booklet_pdf(event_id: int, job: str) -> Response:
    found = _event(event_id)
    path = booklets.result(current_app.instance_path, job)
    if path is None:
        abort(404)
    return pdf_response(path.read_bytes(), f"booklet-{found.id}.pdf")


@bp.get("/events/<int:event_id>/export.json")
@director_required
def export_event_json(event_id: int) -> Response:
    found = _event(event_id)
    body = json.dumps(export_json(get_db(), found), indent=2, ensure_ascii=False) + "\n"
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{found.id}.json"'
    return response


@bp.get("/events/<int:event_id>/export.csv")
@director_required
def export_event_csv(event_id: int) -> Response:
    found = _event(event_id)
    response = Response(export_csv(get_db(), found), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{found.id}.csv"'
    return response
