"""An event's standings (the page and its PDF, overall or a round's) and its exports."""

from __future__ import annotations

from flask import render_template, request
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from ...reports.csv_text import csv_text
from ...reports.sheets import standings_html
from ...storage.event_results import (
    TableProgress,
    event_tie_breaks,
    export_json,
    export_rows,
    progress,
    seated_by_hand,
    standings_rows,
    standings_shown,
    unfinished_tables,
)
from .. import render_pool
from ..connection import get_db
from ..forms import EmptyForm
from ..responses import download_response, json_download, pdf_response, requested_paper
from .director import director_required
from .events import bp, event_or_404, file_name, members_by_name, printed_now


@bp.get("/events/<int:event_id>/standings")
@director_required
def standings(event_id: int) -> str:
    found = event_or_404(event_id)
    tables = progress(get_db(), found)
    round_ = _round_asked(tables)
    shown = standings_shown(get_db(), found, round_, tables)
    return render_template(
        "events/standings.html",
        event=found,
        rows=shown.rows,
        stage=shown.stage,
        round_=round_,
        rounds=sorted({row.table.round for row in tables}),
        tie_breaks=event_tie_breaks(found),
        by_hand=seated_by_hand((row.table for row in tables), round_),
        logout=EmptyForm(),
    )


@bp.get("/events/<int:event_id>/standings.pdf")
@director_required
@render_pool.prints
def standings_pdf(event_id: int) -> Response:
    found = event_or_404(event_id)
    db = get_db()
    tables = progress(db, found)
    round_ = _round_asked(tables)
    shown = standings_shown(db, found, round_, tables)
    html = standings_html(
        found,
        shown.rows,
        round_,
        event_tie_breaks(found),
        requested_paper(found.paper),
        members=members_by_name(found),
        unfinished=unfinished_tables(tables, round_),
        printed_at=printed_now(),
        by_hand=seated_by_hand((row.table for row in tables), round_),
        stage=shown.stage,
    )
    return pdf_response(
        render_pool.render(html), file_name(found, f"standings{f'-round-{round_}' if round_ else ''}", "pdf")
    )


def _round_asked(tables: list[TableProgress]) -> int | None:
    """The round the standings are asked for (``?round=N``), None for the whole event; a round
    the event has not seated (0, 99, -1, a word) is not found."""
    asked = request.args.get("round", "")
    if not asked:
        return None
    try:
        number = int(asked)
    except ValueError:
        raise NotFound() from None
    if number not in {row.table.round for row in tables}:
        raise NotFound()
    return number


@bp.get("/events/<int:event_id>/export.json")
@director_required
def export_event_json(event_id: int) -> Response:
    found = event_or_404(event_id)
    return json_download(export_json(get_db(), found), file_name(found, "results", "json"))


@bp.get("/events/<int:event_id>/export.csv")
@director_required
def export_event_csv(event_id: int) -> Response:
    found = event_or_404(event_id)
    return download_response(csv_text(export_rows(get_db(), found)), "text/csv", file_name(found, "results", "csv"))


@bp.get("/events/<int:event_id>/standings.csv")
@director_required
def export_standings_csv(event_id: int) -> Response:
    """The overall standings as a spreadsheet reads them: places, totals, how each number was reached."""
    found = event_or_404(event_id)
    return download_response(
        csv_text(standings_rows(get_db(), found)), "text/csv", file_name(found, "standings", "csv")
    )
