"""What the record link and the view link show alike: scores, history, the exported record."""

from __future__ import annotations

from flask import Response, jsonify, render_template, request

from ..gamelog import CONFIRM, VOID, GameState, describe
from ..gamelog.phone_copy import FORMAT as COPY_FORMAT
from ..gamelog.phone_copy import entry_data, phone_copy
from ..reports.charts import running_total_chart
from ..reports.sheets import score_sheet_html
from ..scoring import FiledUnder, GameRecord
from ..storage.event_results import game_counting
from ..storage.events import event_paper, filed_under
from ..storage.exchange import export_record, record_extra
from ..storage.games import StoredGame
from . import render_pool
from .connection import get_db
from .devices import PHONE_SOURCE
from .responses import download_name, json_download, pdf_response, requested_paper
from .scoreboard import scoreboard


def filing(stored: StoredGame) -> FiledUnder | None:
    """The event, round and table the game is filed under, if it is an event's."""
    return filed_under(get_db(), stored.id)


def sheet_record(stored: StoredGame, state: GameState) -> GameRecord:
    """The record as the sheet and the export carry it, so the codes on paper, screen and export agree."""
    return state.record(record_extra(stored, filing(stored)))


def scores_context(stored: StoredGame, state: GameState) -> dict[str, object]:
    return {
        "stored": stored,
        "verification_code": sheet_record(stored, state).verification_code,
        "state": state,
        "game": state.game,
        "board": scoreboard(state),
        "chart": running_total_chart(state.score),
    }


def history_page(stored: StoredGame, state: GameState, can_edit: bool) -> str:
    """Every change, newest first, as anyone at the table (or watching) may read it."""
    return render_template(
        "game/history.html", stored=stored, state=state, game=state.game, lines=history_lines(state), can_edit=can_edit
    )


def history_lines(state: GameState) -> list[dict[str, object]]:
    """Newest first; an undo is folded into the line of the change it undid (who undid it, when,
    from which phone), so one undo reads as one line. An undo of an undo keeps a line of its own."""
    phones = phone_names(state)
    undos = {
        entry.target: entry
        for entry in state.entries
        if entry.kind == VOID and entry.target in state.by_id and state.by_id[entry.target].kind != VOID
    }
    folded = {entry.id for entry in undos.values()}
    lines = []
    for entry in reversed(state.entries):
        if entry.id in folded:
            continue
        what, old, new = describe(entry, state.by_id)
        undo = undos.get(entry.id)
        lines.append(
            {
                "entry": entry,
                "what": what,
                "old": old,
                "new": new,
                "phone": phones.get(entry.source, entry.source),
                "undone": entry.id in state.voided,
                "undo": undo,
                "undo_phone": phones.get(undo.source, undo.source) if undo else "",
                "set_aside": state.set_aside.get(entry.id),
            }
        )
    return lines


def phone_names(state: GameState) -> dict[str, str]:
    """Each phone's record-link label as people say it: "Ann's phone" once a player confirmed a
    hand on it (naming themselves), else "phone 2", numbered in the order the phones first
    changed the game. Other sources ("director", "import") keep their own words."""
    names: dict[str, str] = {}
    for entry in state.entries:
        if entry.source.startswith(PHONE_SOURCE) and entry.source not in names:
            names[entry.source] = f"phone {len(names) + 1}"
    confirmed = {entry.source: entry.player for entry in state.entries if entry.kind == CONFIRM and entry.player}
    owners: dict[str, list[str]] = {}
    for source, player in confirmed.items():
        owners.setdefault(player, []).append(source)
    for player, sources in owners.items():
        if len(sources) == 1 and sources[0] in names:
            names[sources[0]] = f"{player}'s phone"
    return names


def export_response(stored: StoredGame, state: GameState) -> Response:
    filed = filing(stored)
    return json_download(export_record(stored, state, filed), download_name(stored, "game", "json", filed))


def phone_copy_response(stored: StoredGame, state: GameState) -> Response:
    """The game as the phone keeps it (``gamelog.phone_copy``), with the record's head and the
    export's file name for its "Save this game"; ``?since=N`` (the version the phone holds) sends
    only the entries after it, since a log only grows. An ETag of the version answers a phone that
    is up to date (at the names epoch it holds: a member's name removed changes the copy)."""
    etag = f"copy-{state.version}" + (f"-{stored.epoch}" if stored.epoch else "")
    if request.if_none_match.contains(etag):
        return Response(status=304, headers={"ETag": f'"{etag}"', "Cache-Control": "no-cache"})
    since = request.args.get("since", type=int) or 0
    if 0 < since <= state.version:
        body: dict[str, object] = {
            "format": COPY_FORMAT,
            "version": state.version,
            "since": since,
            "entries": [entry_data(entry) for entry in state.entries[since:]],
            "set_aside": {str(key): why for key, why in state.set_aside.items()},
        }
    else:
        filed = filing(stored)
        record = export_record(stored, state, filed)
        head = {key: value for key, value in record.items() if key not in ("hands", "in_play")}
        body = {**phone_copy(state), "record": head, "file_name": download_name(stored, "game", "json", filed)}
    response = jsonify(body)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def sheet_response(stored: StoredGame, state: GameState, view_url: str) -> Response:
    """The game's score sheet as PDF: the same record the screen shows, laid out for paper; an
    event's game is dated by the event, not by the day its round was seated."""
    record = sheet_record(stored, state)
    filed = record.filed_under
    lock, counting = game_counting(get_db(), stored.id) if filed else ("", [])
    html = score_sheet_html(
        record,
        title=stored.title,
        played_on=filed.held_on if filed else stored.created_at[:10],
        paper=requested_paper(event_paper(get_db(), stored.id)),
        view_url=view_url,
        notes=state.ruling_notes(),
        lock=lock,
        counting=counting,
    )
    return pdf_response(render_pool.render(html), download_name(stored, "sheet", "pdf", filed))


def table_notice_context() -> dict[str, object]:
    """What every page of a game's record and view links shows beside the log: its lock (the
    record link's pages lose their buttons and say so, unless the director holds them) and its
    round's clock; and the version the page follows (the log's plus the notices)."""
    from flask import request

    from ..storage.evening import table_notice
    from ..storage.games import game_by_record_token, game_by_view_token
    from .views.director import is_director

    token = (request.view_args or {}).get("token")
    if request.blueprint not in ("play", "view") or not isinstance(token, str):
        return {"notice": None, "locked_out": False}
    find = game_by_record_token if request.blueprint == "play" else game_by_view_token
    stored = find(get_db(), token)
    if stored is None:
        return {"notice": None, "locked_out": False}
    notice = table_notice(get_db(), stored)
    return {"notice": notice, "locked_out": notice.locked and request.blueprint == "play" and not is_director()}
