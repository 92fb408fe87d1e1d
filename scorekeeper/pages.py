"""What the record link and the view link show alike: scores, history, the exported record."""

from __future__ import annotations

import json

from flask import Response, abort, render_template, request

from . import pdf
from .charts import running_total_chart
from .exchange import export_record
from .scoreboard import scoreboard
from .sheets import DEFAULT_PAPER, PAPER_SIZES, score_sheet_html
from .storage import StoredGame
from .table_log import TableState, describe


def scores_context(stored: StoredGame, state: TableState) -> dict[str, object]:
    return {
        "stored": stored,
        "state": state,
        "game": state.game,
        "board": scoreboard(state),
        "chart": running_total_chart(state.score),
    }


def history_page(stored: StoredGame, state: TableState, can_edit: bool) -> str:
    """Every change, newest first, as anyone at the table (or watching) may read it."""
    return render_template(
        "history.html", stored=stored, state=state, game=state.game, lines=history_lines(state), can_edit=can_edit
    )


def history_lines(state: TableState) -> list[dict[str, object]]:
    lines = []
    for entry in reversed(state.entries):
        what, old, new = describe(entry, state)
        lines.append(
            {
                "entry": entry,
                "what": what,
                "old": old,
                "new": new,
                "undone": entry.id in state.voided,
            }
        )
    return lines


def export_response(stored: StoredGame, state: TableState) -> Response:
    body = json.dumps(export_record(stored, state), indent=2, ensure_ascii=False) + "\n"
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{stored.code}.json"'
    return response


def requested_paper() -> str:
    paper = request.args.get("paper", DEFAULT_PAPER).lower()
    if paper not in PAPER_SIZES:
        abort(400, description=f"paper must be one of {', '.join(PAPER_SIZES)}")
    return paper


def pdf_response(body: bytes, filename: str) -> Response:
    response = Response(body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def sheet_response(stored: StoredGame, state: TableState, view_url: str) -> Response:
    """The game's score sheet as PDF: the same record the screen shows, laid out for paper."""
    notes = {number: [str(e.data.get("text", "")) for e in entries] for number, entries in state.notes.items()}
    html = score_sheet_html(
        state.record(),
        title=stored.title,
        played_on=stored.created_at[:10],
        paper=requested_paper(),
        view_url=view_url,
        notes=notes,
    )
    return pdf_response(pdf.render_pdf(html), f"sheet-{stored.code}.pdf")
