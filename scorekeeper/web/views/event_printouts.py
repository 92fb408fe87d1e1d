"""What an event prints: a round's table cards and seating sheet, and the booklet of every
table's sheet, made in the background."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ...reports.qr import qr_svg
from ...reports.sheets import booklet_cover_html, event_sheets_html, round_sheet_html, table_cards_html
from ...storage import event_rounds as round_store
from ...storage import events as event_store
from ...storage.event_penalties import given_penalties
from ...storage.event_plans import stored_plan
from ...storage.event_results import (
    TableProgress,
    counting_lines,
    event_tie_breaks,
    progress,
    rounds_played,
    seated_by_hand,
    standings_shown,
    unfinished_tables,
)
from ...storage.events import Event, EventTable
from .. import booklets, render_pool
from ..connection import get_db
from ..forms import EmptyForm, KeyedForm
from ..responses import pdf_response, requested_paper
from .director import director_required
from .events import back_to, bp, event_or_404, file_name, members_by_name, printed_now, unreachable_host


def _countings(event: Event, tables: list[TableProgress]) -> list[list[str]]:
    """How each table counts in the standings, for its sheet (a short table, penalties at it)."""
    given = given_penalties(get_db(), event.id)
    return [counting_lines(row, given) for row in tables]


def _round_to_print(event: Event) -> tuple[int, list[EventTable]]:
    """The round a printout asks for (``?round=``; the latest seated without it) and its tables; 404 for none."""
    tables = event_store.event_tables(get_db(), event.id)
    asked = request.args.get("round", type=int)
    if asked is None and "round" in request.args:
        raise NotFound()  # ?round=abc names no round
    round_ = asked if asked is not None else max((table.round for table in tables), default=0)
    seated = [table for table in tables if table.round == round_]
    if not seated:
        raise NotFound()
    return round_, seated


@bp.get("/events/<int:event_id>/table-cards.pdf")
@director_required
@render_pool.prints
def table_cards(event_id: int) -> Response:
    """One page per table of a round: table number, seats, and the QR code to record."""
    found = event_or_404(event_id)
    round_, seated = _round_to_print(found)
    cards = [
        (table, qr_svg(url_for("play.hand", token=table.game.record_token, _external=True), scale=4))
        for table in seated
    ]
    html = table_cards_html(found, round_, cards, requested_paper(found.paper), unreachable_host(request.host_url))
    return pdf_response(render_pool.render(html), file_name(found, f"table-cards-round-{round_}", "pdf"))


@bp.get("/events/<int:event_id>/round-sheet.pdf")
@director_required
@render_pool.prints
def round_sheet(event_id: int) -> Response:
    """A round's seating to pin up (the latest round unless ``?round=`` names one), with the plan's quality."""
    found = event_or_404(event_id)
    db = get_db()
    round_, seated = _round_to_print(found)
    latest = max(table.round for table in event_store.event_tables(db, found.id))
    here = {name for table in seated for name in table.game.game.players}
    playing = [player.name for player in event_store.event_players(db, found.id) if not player.absent_from(round_)]
    stored = stored_plan(db, found.id)
    plan = stored.plan if stored is not None else None
    lines = plan.described(found.partnerships, started=True) if plan is not None else []
    html = round_sheet_html(
        found,
        round_,
        seated,
        [name for name in playing if name not in here],
        lines,
        seated_by_hand(seated),
        requested_paper(found.paper),
        printed_at=printed_now(),
        seated_by=round_store.round_seated_by(db, found.id, round_),
        seated_since=latest if latest > round_ else 0,
    )
    return pdf_response(render_pool.render(html), file_name(found, f"round-{round_}-seating", "pdf"))


@bp.post("/events/<int:event_id>/booklet")
@director_required
def booklet(event_id: int) -> Response:
    """Start the booklet of every table's sheet in the background; its page shows the progress.

    The button's key names the job: pressed twice, it follows the one booklet it started.
    """
    found = event_or_404(event_id)
    form = KeyedForm()
    if not form.validate_on_submit():
        flash(" ".join(form.idem.errors) or "This page is out of date: reload it.", "error")
        return back_to(found)
    db = get_db()
    with render_pool.building():  # the pages' markup, seconds of Python for a big event: one builder at a time
        tables = progress(db, found)
        if not tables:
            flash("No table has been seated yet.", "error")
            return back_to(found)
        urls = [url_for("view.scores", token=row.table.game.view_token, _external=True) for row in tables]
        shown = standings_shown(db, found, tables=tables)
        cover = booklet_cover_html(
            found,
            shown.rows,
            event_tie_breaks(found),
            len(tables),
            len(rounds_played(tables)),
            members=members_by_name(found),
            unfinished=unfinished_tables(tables),
            printed_at=printed_now(),
            paper=found.paper,
            by_hand=seated_by_hand(row.table for row in tables),
            stage=shown.stage,
        )
        sheets = [
            booklets.Part(html, row.verification_code(found) if row.table.locked else None)
            for row, html in zip(
                tables,
                event_sheets_html(found, tables, found.paper, view_urls=urls, counting=_countings(found, tables)),
                strict=True,
            )
        ]
    job = booklets.start(
        current_app.instance_path, [booklets.Part(cover), *sheets], found.name, f"{found.id} {form.idem.data}", found.id
    )
    return redirect(url_for("events.booklet_status", event_id=found.id, job=job))


@bp.get("/events/<int:event_id>/booklet/<job>")
@director_required
def booklet_status(event_id: int, job: str) -> str:
    found = event_or_404(event_id)
    state = booklets.status(current_app.instance_path, job, found.id)
    if state is None:
        raise NotFound()
    refresh = 2 if state["state"] == "running" else None
    return render_template(
        "events/booklet.html", event=found, job=job, state=state, refresh=refresh, logout=EmptyForm()
    )


@bp.get("/events/<int:event_id>/booklet/<job>.pdf")
@director_required
def booklet_pdf(event_id: int, job: str) -> Response:
    found = event_or_404(event_id)
    path = booklets.result(current_app.instance_path, job, found.id)
    if path is None:
        raise NotFound()
    return pdf_response(path.read_bytes(), file_name(found, "booklet", "pdf"))
