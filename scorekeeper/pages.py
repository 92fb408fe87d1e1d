"""What the record link and the view link show alike: scores, history, the exported record."""

from __future__ import annotations

import json

from flask import Response

from .charts import running_total_chart
from .exchange import export_record
from .scoreboard import scoreboard
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
