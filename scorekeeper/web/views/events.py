"""The director's event pages: events, seating rounds, every table's progress, locks,
standings, table cards, the booklet and the exports, and an event deleted from the list.
Every page needs the director's login."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TypeVar
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from jinja2 import Template
from markupsafe import Markup
from werkzeug.wrappers import Response

from ...club.members import held_on_words
from ...gamelog.memo import Memo
from ...reports.csv_text import csv_text
from ...reports.qr import qr_svg
from ...reports.sheets import (
    booklet_cover_html,
    event_sheets_html,
    round_sheet_html,
    standings_html,
    table_cards_html,
)
from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage import event_roster
from ...storage import events as event_store
from ...storage.evening import lock_finished, settled_progress
from ...storage.event_deletion import delete_event, deleted_events
from ...storage.event_penalties import give_penalty, given_penalties, withdraw_penalty
from ...storage.event_plans import StoredPlan, standings_seating, standings_warning, stored_plan
from ...storage.event_results import (
    TableProgress,
    counting_lines,
    event_stage,
    event_tie_breaks,
    export_json,
    export_rows,
    progress,
    prorated_preview,
    rounds_played,
    seated_by_hand,
    standings_rows,
    standings_shown,
    unfinished_tables,
)
from ...storage.events import Event, EventPlayer, EventTable, RoundConflict
from ...storage.games import load_state
from ...storage.members import all_members, members_not_playing
from ...storage.round_clock import ACTIONS as CLOCK_ACTIONS
from ...storage.round_clock import change_clock, round_clock, start_clock
from .. import booklets, printer
from ..connection import get_db
from ..event_forms import (
    EventForm,
    HistoryReasonForm,
    LatePlayerForm,
    LockForm,
    NoShowForm,
    OddTablesForm,
    PenaltyForm,
    RosterChangeForm,
    RoundClockForm,
    SeatingForm,
    WithdrawPlayerForm,
)
from ..event_planner import event_plan
from ..forms import EmptyForm, KeyedForm
from ..kept_parts import kept_part
from ..picking import event_lines, late_options
from ..responses import download_response, event_file_name, json_download, pdf_response, requested_paper
from .director import director_required, who

RosterForm = TypeVar("RosterForm", bound=RosterChangeForm)

bp = Blueprint("events", __name__, url_prefix="/director")


def _event(event_id: int) -> Event:
    found = event_store.get_event(get_db(), event_id)
    if found is None:
        abort(404)
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
def new_event() -> Response | str | tuple[str, int]:
    """A new event; its players typed, pasted or picked from the club's list (the picker's Add
    without script comes back here with the line added, nothing created)."""
    form = EventForm()
    if request.method == "GET" and not form.held_on.data:
        form.held_on.data = datetime.now().astimezone().date().isoformat()  # the server's today: events are local
    if form.is_submitted() and form.add_player.data:
        return _new_event_page(form, 200 if form.add_picked() else 422, picked=True)
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
            return _new_event_page(form, error.status)
        return redirect(url_for("events.event", event_id=event.id))
    return _new_event_page(form, 422 if form.is_submitted() else 200)


def _new_event_page(form: EventForm, status: int, picked: bool = False) -> tuple[str, int]:
    """The new-event form, offering the club's members to pick (``picked``: one was just added)."""
    lines = event_lines(all_members(get_db()))
    return render_template(
        "events/new_event.html", form=form, member_lines=lines, picked=picked, logout=EmptyForm()
    ), status


@bp.get("/events/<int:event_id>")
@director_required
def event(event_id: int) -> tuple[str, int]:
    found = _event(event_id)
    return _event_page(found, SeatingForm())


def _back_to(event: Event) -> Response:
    """The event page after a change, at its top, where the flash says what was done (a form's
    action names the section it is in, so that a refusal opens there: a redirect would keep it)."""
    return redirect(url_for("events.event", event_id=event.id) + "#top")


def _event_page(
    event: Event,
    seating: SeatingForm,
    status: int = 200,
    withdraw_error: str = "",
    withdraw_player: WithdrawPlayerForm | None = None,
    late_player: LatePlayerForm | None = None,
    reason: tuple[int, HistoryReasonForm] | None = None,
    lock_question: tuple[TableProgress, LockForm] | None = None,
    penalty: PenaltyForm | None = None,
    odd_tables: OddTablesForm | None = None,
    clock_form: RoundClockForm | None = None,
    no_show: NoShowForm | None = None,
) -> tuple[str, int]:
    db = get_db()
    tables = settled_progress(db, event)
    latest = max((row.table.round for row in tables), default=None)
    unplayed = all(not row.state.entries for row in tables if row.table.round == latest)
    played = rounds_played(tables)
    next_round = len(played) + 1
    stale = ""
    errors = [*seating.number.errors, *seating.tables.errors, *seating.anyway.errors]
    if seating.number.data not in (None, next_round) and errors:
        # Sent for another round (a form read before a round was seated): what it says is kept
        # in the message, and the form proposes the round to seat now.
        said = " ".join(errors)
        stale = f"{said} The tables sent were not seated; below is round {next_round}."
        seating = SeatingForm(formdata=None)
    players = event_store.event_players(db, event.id)
    stored, planning = event_plan(db, event, players, played)
    plan = stored.plan if stored is not None else None
    if not seating.tables.data and plan is not None and next_round <= len(plan.rounds):
        seating.tables.data = "\n".join(", ".join(table) for table in plan.rounds[next_round - 1])
    wall_url = url_for("wall.standings", token=event.wall_token, _external=True)
    look = request.method == "GET"  # every form of the page fresh: its parts are kept by what they show
    shown = repr(event)  # every field of the event (its options a dict): part of each part's key
    options = late_options(members_not_playing(db, event.id), ())
    history = event_roster.event_history(db, event.id)
    penalties = given_penalties(db, event.id)
    plan_refused = sentence(stored.refused) if stored is not None and stored.refused else ""

    def players_context() -> dict[str, object]:
        withdraw = withdraw_player or WithdrawPlayerForm(prefix="withdraw", formdata=None, from_round=next_round)
        withdraw.name.choices = [p.name for p in players if p.leaves is None]
        late = late_player or LatePlayerForm(prefix="late", formdata=None, from_round=next_round)
        return {
            "event": event,
            "players": players,
            "withdraw_player": withdraw,
            "late_player": late,
            "late_options": options,
        }

    lock_form = EmptyForm()
    no_show_sent = no_show is not None
    no_show = no_show or NoShowForm(prefix="noshow", formdata=None)
    seated_now = {name for row in tables if row.table.round == latest for name in row.table.game.game.players}
    no_show.missing.choices = [
        name
        for row in tables
        if row.table.round == latest and not row.state.entries
        for name in row.table.game.game.players
    ]
    no_show.replacement.choices = [("", "Nobody: the table plays without them")] + [
        (player.name, player.name)
        for player in players
        if player.name not in seated_now and (player.leaves is None or latest is None or player.leaves > latest)
    ]
    finished_unlocked = [
        row.table.number
        for row in tables
        if row.table.round == latest and row.final_score.finished and not row.table.locked
    ]
    clock = round_clock(db, event.id, latest) if latest is not None else None
    clock_part = (
        render_template(
            "events/_round_clock_part.html",
            event=event,
            latest=latest,
            clock=clock,
            clock_form=clock_form or RoundClockForm(formdata=None),
            lock_form=lock_form,
            all_locked=all(row.table.locked for row in tables if row.table.round == latest),
        )
        if tables
        else ""
    )
    replacements = tuple(no_show.replacement.choices or ())
    round_now_part = kept_part(
        "events/_round_now.html",
        (event.id, latest, tuple(finished_unlocked), tuple(no_show.missing.choices or ()), replacements)
        if look and not no_show_sent
        else None,
        lambda: {
            "tables": tables,
            "event": event,
            "lock_form": lock_form,
            "finished_unlocked": finished_unlocked,
            "no_show": no_show,
            "clock_part": Markup(_CLOCK_MARK),
        },
    )
    plan_part = _plan_part(event, stored, next_round)
    seat_part = kept_part(
        "events/_seat_part.html",
        (shown, stored.digest if stored else None, planning, next_round, seating.tables.data, plan_refused)
        if look and not stale and odd_tables is None
        else None,
        lambda: {
            "event": event,
            "next_round": next_round,
            "seating_error": stale,
            "planning": planning,
            "seating": seating,
            "plan": plan,
            "plan_refused": plan_refused,
            "plan_part": plan_part,
            "odd_tables": odd_tables or OddTablesForm(formdata=None, odd_tables=event.odd_tables),
            "odd_tables_words": event_store.ODD_TABLE_WORDS[event.odd_tables],
        },
    )
    players_part = kept_part(
        "events/_players_part.html",
        (shown, _rows(players), next_round, tuple(options))
        if look and not withdraw_player and not late_player
        else None,
        players_context,
    )
    penalties_part = kept_part(
        "events/_penalties_part.html",
        (shown, tuple(penalties), latest) if look and penalty is None else None,
        lambda: {
            "event": event,
            "penalties": penalties,
            "penalty": penalty or PenaltyForm(prefix="penalty", formdata=None, round=latest),
            "lock_form": lock_form,
        },
    )
    history_part = kept_part(
        "events/_history_part.html",
        (event.id, tuple(history)) if look and reason is None else None,
        lambda: {
            "event": event,
            "history": history,
            "reason_line": reason[0] if reason else None,
            "reason_form": reason[1] if reason else HistoryReasonForm(formdata=None),
        },
    )
    return render_template(
        "events/event.html",
        event=event,
        tables=tables,
        players=players,
        seating=seating,
        seat_part=seat_part,
        players_part=players_part,
        penalties_part=penalties_part,
        history_part=history_part,
        round_now_part=Markup(str(round_now_part).replace(_CLOCK_MARK, clock_part)),
        lock_form=lock_form,
        table_rows=_table_rows(event, tables, lock_form),
        logout=EmptyForm(),
        wall_url=wall_url,
        next_round=next_round,
        plan=plan,
        planning=planning,
        refresh=2 if planning and not seating.tables.data else None,
        withdrawable=latest if unplayed else None,
        withdraw_error=withdraw_error,
        lock_question=lock_question[0] if lock_question else None,
        lock_choices=lock_question[1] if lock_question else None,
        short_words=event_store.SHORT_TREATMENT_WORDS,
        prorated_preview=prorated_preview(lock_question[0]) if lock_question else "",
        tie_breaks=event_tie_breaks(event),
        stage=event_stage(tables, event),
        unreachable_host=unreachable_host(request.host_url),
        booklets=[(job, state, _clock(state)) for job, state in booklets.recent(current_app.instance_path, event.id)],
        published=[
            (job, state, _clock(state))
            for job, state in booklets.recent(current_app.instance_path, event.id, kind=booklets.PUBLISHED)
        ],
    ), status


#: A table's row on the event page, by what it shows: rendered again only when its game moved.
_TABLE_ROWS: Memo[Markup] = Memo(4096)
#: Where a row's lock button takes the page's CSRF field (a name, escaped, cannot hold it).
_CSRF_MARK = "<csrf-field>"


def _table_rows(event: Event, tables: list[TableProgress], lock_form: EmptyForm) -> Markup:
    """Every table's row on the event page: each kept by its game's version and lock, so that a
    look renders only the rows of the tables that moved since the last."""
    template = current_app.jinja_env.get_template("events/_table_row.html")
    rows = []
    for row in tables:
        table = row.table
        key = (
            event.id,
            event.verify,
            table.game.memo_key,
            row.state.version,
            table.locked,
            table.by_hand,
            table.round,
            table.number,
            table.treatment,
            table.level,
            table.reason,
        )
        rows.append(
            _TABLE_ROWS.get(key, partial(_rendered, template, event=event, row=row, lock_csrf=Markup(_CSRF_MARK)))
        )
    return Markup("".join(rows).replace(_CSRF_MARK, str(lock_form.csrf_token())))


def _rendered(template: Template, **context: object) -> Markup:
    return Markup(template.render(**context))


#: Where the kept part of the round as it happens takes its clock, drawn at every look.
_CLOCK_MARK = "<round-clock>"


def _rows(players: list[EventPlayer]) -> tuple[tuple[object, ...], ...]:
    """The players as a key: plain tuples (300 dataclasses hash and compare in Python, slowly)."""
    return tuple((p.name, p.club, p.number, p.arrives, p.leaves, p.member_id) for p in players)


#: The plan's part of event pages, by plan and round to seat: most of a 300-player event's page.
_PLAN_PARTS: Memo[Markup] = Memo(32)


def _plan_part(event: Event, stored: StoredPlan | None, next_round: int) -> Markup:
    """The plan's quality and every round still to play, rendered once per plan and round."""
    if stored is None or stored.plan is None:
        return Markup("")
    plan = stored.plan
    return _PLAN_PARTS.get(
        (stored.digest, next_round, event.partnerships),
        lambda: Markup(render_template("events/_plan.html", event=event, plan=plan, next_round=next_round)),
    )


@bp.post("/events/<int:event_id>/rounds")
@director_required
def seat_round(event_id: int) -> Response | tuple[str, int]:
    """Seat the round the form names from the tables as written (the automatic proposal, or edited by hand)."""
    found = _event(event_id)
    form = SeatingForm()
    if form.is_submitted() and form.by_standings.data:  # a proposal only: nothing changes
        return _standings_proposal(found, form)
    if not form.validate_on_submit():
        return _event_page(found, form, 422)
    number = form.number.data
    tables = progress(get_db(), found)
    # A form for a round seated meanwhile is answered as such (seated already, or refused), never asked about.
    seated_already = any(row.table.round == number for row in tables)
    still = [row for row in tables if row.table.round == number - 1 and not row.final and not seated_already]
    early = event_store.tables_named([row.table.number for row in still]) if still else ""
    if still and not form.anyway.data:
        form.anyway.errors = [f"Round {number - 1} is still playing at {early}: seat round {number} anyway?"]
        return _event_page(found, form, 409)
    stored = stored_plan(get_db(), found.id)
    plan = stored.plan if stored is not None else None
    planned = plan.rounds[number - 1] if plan is not None and 0 < number <= len(plan.rounds) else None
    rule = None
    if form.seated_by.data:  # proposed by the standings: so seated if sent as proposed, else by hand
        try:
            proposal, words = standings_seating(get_db(), found, number)
        except Refusal:
            proposal, words = [], ""
        rule = lambda tables: words if tables == proposal else ""  # noqa: E731
    try:
        seated = event_store.seat_written_round(
            get_db(), found, form.tables.data or "", number, planned, form.reason.data or "", early, rule
        )
    except Refusal as error:
        form.tables.errors = [str(error)]
        return _event_page(found, form, error.status)
    if not seated.new:
        flash(f"Round {number} is seated already: {len(seated.tables)} tables.", "ok")
        return _back_to(found)
    missing = seated.not_seated
    flash(
        f"Round {number} seated: {len(seated.tables)} tables."
        + (f" Not seated: {', '.join(missing)}." if missing else ""),
        "ok",
    )
    return _back_to(found)


def _standings_proposal(found: Event, form: SeatingForm) -> tuple[str, int]:
    """The seating form with the next round's tables proposed by the standings so far (a refusal
    beside the tables); the director seats it, or edits it and seats by hand."""
    number = len(rounds_played(progress(get_db(), found))) + 1
    try:
        tables, words = standings_seating(get_db(), found, number)
    except Refusal as error:
        form.tables.errors = [str(error)]
        return _event_page(found, form, error.status)
    form.tables.data = "\n".join(", ".join(table) for table in tables)
    form.number.data = number
    form.seated_by.data = words
    form.tables.description = standings_warning(get_db(), found, tables) or form.tables.description
    return _event_page(found, form)


@bp.post("/events/<int:event_id>/odd-tables")
@director_required
def odd_tables(event_id: int) -> Response | tuple[str, int]:
    """Threes or fives beside the tables of four, from the next round seated on; planned again."""
    found = _event(event_id)
    form = OddTablesForm()
    if not form.validate_on_submit():
        return _event_page(found, SeatingForm(formdata=None), 422, odd_tables=form)
    changed = event_store.set_odd_tables(get_db(), found, form.odd_tables.data)
    words = event_store.ODD_TABLE_WORDS[form.odd_tables.data]
    flash(f"Beside the tables of four: {words}{'' if changed else ', as before'}. The plan is made again.", "ok")
    return _back_to(found)


@bp.post("/events/<int:event_id>/players/withdraw")
@director_required
def withdraw_player(event_id: int) -> Response | tuple[str, int]:
    """A player plays no more from a round on; the rounds still to play are planned again."""

    def change(event: Event, form: WithdrawPlayerForm) -> str:
        changed = event_roster.withdraw_player(
            get_db(), event, form.name.data, form.from_round.data, form.reason.data or ""
        )
        verb = "withdrawn" if changed else "was already withdrawn"
        return f"{form.name.data} {verb} from round {form.from_round.data} on."

    return _roster_change(event_id, WithdrawPlayerForm(prefix="withdraw"), change, "withdraw_player")


@bp.post("/events/<int:event_id>/players/late")
@director_required
def late_player(event_id: int) -> Response | tuple[str, int]:
    """A player who joins from a round on; the rounds still to play are planned again."""

    def change(event: Event, form: LatePlayerForm) -> str:
        player = EventPlayer(form.name.data.strip(), form.club.data or "", form.number.data or "", form.from_round.data)
        added = event_roster.add_late_player(get_db(), event, player, form.reason.data or "", who())
        verb = "added" if added else "was added already"
        return f"{player.name} {verb}, playing from round {player.arrives}."

    return _roster_change(event_id, LatePlayerForm(prefix="late"), change, "late_player")


def _roster_change(
    event_id: int, form: RosterForm, change: Callable[[Event, RosterForm], str], form_name: str
) -> Response | tuple[str, int]:
    """Validate a roster form and make the change (which says what it did); a refusal shows beside its field."""
    found = _event(event_id)
    if not form.validate_on_submit():
        return _event_page(found, SeatingForm(formdata=None), 422, **{form_name: form})
    try:
        flash(change(found, form), "ok")
    except Refusal as error:
        getattr(form, error.field or "name").errors = [str(error)]
        return _event_page(found, SeatingForm(formdata=None), error.status, **{form_name: form})
    return _back_to(found)


@bp.post("/events/<int:event_id>/history/<int:line>/reason")
@director_required
def give_reason(event_id: int, line: int) -> Response | tuple[str, int]:
    """A reason for a line of the event's history, given afterwards (a lock, a correction at a table)."""
    found = _event(event_id)
    form = HistoryReasonForm()
    try:
        if not form.validate_on_submit():
            return _event_page(found, SeatingForm(formdata=None), 422, reason=(line, form))
        given = event_roster.give_reason(get_db(), found.id, line, form.reason.data)
    except Refusal as error:
        form.reason.errors = [str(error)]
        return _event_page(found, SeatingForm(formdata=None), error.status, reason=(line, form))
    flash("Reason kept on the history." if given else "That reason is on the history already.", "ok")
    return redirect(url_for("events.event", event_id=found.id) + f"#line-{line}")


@bp.post("/events/<int:event_id>/rounds/<int:number>/withdraw")
@director_required
def withdraw_round(event_id: int, number: int) -> Response | tuple[str, int]:
    """Withdraw the latest round while no hand is played at it (the URL names the round: a double click withdraws one)."""
    found = _event(event_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        withdrawn = event_store.withdraw_round(get_db(), found, number)
    except RoundConflict as error:
        return _event_page(found, SeatingForm(formdata=None), 409, withdraw_error=str(error))
    if withdrawn:
        flash(f"Round {number} withdrawn: its tables' links and codes take no more changes.", "ok")
    else:
        flash(f"Round {number} is not seated: nothing to withdraw.", "ok")
    return _back_to(found)


@bp.post("/events/<int:event_id>/games/<token>/lock")
@director_required
def lock(event_id: int, token: str) -> Response | tuple[str, int]:
    """Lock a game (after which only the director can change it); a game already locked stays so."""
    return _set_locked(event_id, token, True)


@bp.post("/events/<int:event_id>/games/<token>/unlock")
@director_required
def unlock(event_id: int, token: str) -> Response | tuple[str, int]:
    """Unlock a game; a game already unlocked stays so."""
    return _set_locked(event_id, token, False)


def _set_locked(event_id: int, token: str, locked: bool) -> Response | tuple[str, int]:
    """Two actions, not a toggle: a doubled click asks for the same state twice and gets it once.
    Locking a table that has not finished asks first: it closes the table as it stands."""
    found = _event(event_id)
    form = LockForm()
    table = event_store.game_in_event(get_db(), found.id, token)
    if table is None:
        abort(404)
    row = TableProgress(table, load_state(get_db(), table.game))
    asking = locked and not row.final_score.finished and not table.locked
    if form.validate_on_submit():
        if asking and not form.anyway.data:
            return _event_page(found, SeatingForm(formdata=None), 409, lock_question=(row, LockForm(formdata=None)))
        try:
            if locked:
                changed = event_store.lock_table(
                    get_db(), table, form.treatment.data, form.level.data, form.reason.data or ""
                )
            else:
                changed = event_store.set_locked(get_db(), table.game, False, table)
        except Refusal as error:
            form[error.field if error.field in form else "reason"].errors = [sentence(str(error))]
            return _event_page(found, SeatingForm(formdata=None), error.status, lock_question=(row, form))
        state = "locked" if locked else "unlocked"
        flash(f"Round {table.round}, table {table.number} {state if changed else 'was already ' + state}.", "ok")
    elif asking and form.anyway.data:
        return _event_page(found, SeatingForm(formdata=None), 422, lock_question=(row, form))
    return _back_to(found)


@bp.post("/events/<int:event_id>/penalties")
@director_required
def penalty(event_id: int) -> Response | tuple[str, int]:
    """A director's penalty or adjustment, with its reason: refused beside its field, kept as typed."""
    found = _event(event_id)
    form = PenaltyForm(prefix="penalty")
    if form.validate_on_submit():
        try:
            given = give_penalty(
                get_db(),
                found,
                form.round.data or 0,
                form.table.data or 0,
                (form.player.data or "").strip(),
                form.points.data or 0,
                form.reason.data or "",
            )
        except Refusal as error:
            form[error.field if error.field in form else "reason"].errors = [sentence(str(error))]
            return _event_page(found, SeatingForm(formdata=None), error.status, penalty=form)
        kind = given.kind(found.ruleset().lowest_wins).capitalize()
        flash(f"{kind} given: it counts once its round is complete.", "ok")
        return _back_to(found)
    return _event_page(found, SeatingForm(formdata=None), 422, penalty=form)


@bp.post("/events/<int:event_id>/penalties/<int:penalty_id>/withdraw")
@director_required
def unpenalty(event_id: int, penalty_id: int) -> Response:
    """Withdraw (undo) a penalty: it stops counting; the history keeps it and its withdrawal."""
    found = _event(event_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        withdrawn = withdraw_penalty(get_db(), found, penalty_id)
    except Refusal:
        abort(404)
    kind = withdrawn.kind(found.ruleset().lowest_wins).capitalize() if withdrawn is not None else ""
    flash(f"{kind} withdrawn." if withdrawn is not None else "That was withdrawn already.", "ok")
    return _back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/lock-finished")
@director_required
def lock_finished_tables(event_id: int, number: int) -> Response:
    """Lock every finished table of a round in one press (one short transaction; a double click locks nothing more)."""
    found = _event(event_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    locked = lock_finished(get_db(), found, number)
    if locked:
        flash(f"Round {number}: {event_store.tables_named(locked)} locked.", "ok")
    else:
        flash(f"Round {number}: no finished table was left unlocked.", "ok")
    return _back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/no-show")
@director_required
def no_show(event_id: int, number: int) -> Response | tuple[str, int]:
    """A seated player who did not come: replaced at their table (not started), or their table plays without them."""
    found = _event(event_id)
    form = NoShowForm(prefix="noshow")
    if not form.validate_on_submit():
        return _event_page(found, SeatingForm(formdata=None), 422, no_show=form)
    missing, replacement = form.missing.data, form.replacement.data or ""
    try:
        changed = event_roster.replace_no_show(get_db(), found, number, missing, replacement, form.reason.data or "")
    except Refusal as error:
        field = form.replacement if error.field == "replacement" else form.missing
        field.errors = [str(error)]
        return _event_page(found, SeatingForm(formdata=None), error.status, no_show=form)
    instead = f"{replacement} plays in their seat" if replacement else "their table plays without them"
    flash(f"{missing} did not come: {instead}." if changed else f"{missing} was replaced already.", "ok")
    return _back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/clock")
@director_required
def start_round_clock(event_id: int, number: int) -> Response | tuple[str, int]:
    """Start a round's clock with its length; a clock running already is left as it is."""
    found = _event(event_id)
    form = RoundClockForm()
    if not form.validate_on_submit():
        return _event_page(found, SeatingForm(formdata=None), 422, clock_form=form)
    try:
        started = start_clock(get_db(), found, number, form.minutes.data)
    except Refusal as error:
        form.minutes.errors = [str(error)]
        return _event_page(found, SeatingForm(formdata=None), error.status, clock_form=form)
    flash(f"Round {number} clock {'started' if started else 'was running already'}.", "ok")
    return _back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/clock/<action>")
@director_required
def change_round_clock(event_id: int, number: int, action: str) -> Response | tuple[str, int]:
    """Pause, resume, extend or stop a round's clock, as it stood when the button was drawn."""
    found = _event(event_id)
    if action not in CLOCK_ACTIONS:
        abort(404)
    form = RoundClockForm()
    if action != "extend":
        form.minutes.data = 1  # only an extension says how long
        form.minutes.raw_data = ["1"]
    if not form.validate_on_submit():
        return _event_page(found, SeatingForm(formdata=None), 422, clock_form=form)
    try:
        changed = change_clock(get_db(), found, number, action, form.mark.data or "", form.minutes.data or 0)
    except Refusal as error:
        form.minutes.errors = [str(error)]
        return _event_page(found, SeatingForm(formdata=None), error.status, clock_form=form)
    done = {"pause": "paused", "resume": "resumed", "extend": "extended", "stop": "stopped"}[action]
    flash(
        f"Round {number} clock {done}." if changed else f"Round {number} clock changed meanwhile: nothing done.", "ok"
    )
    return _back_to(found)


@bp.get("/events/<int:event_id>/delete")
@director_required
def delete_question(event_id: int) -> str:
    """The question before an event leaves the list: what stops working, what stays, how to undo it."""
    found = _event(event_id)
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
        abort(400)
    found = event_store.get_event(get_db(), event_id, deleted=True)
    if found is None:
        abort(404)
    line = delete_event(get_db(), event_id, who())
    when = held_on_words(found.held_on)
    if line:
        flash(f"{found.name} ({when}) deleted: bring it back with Undo in the club's history (Players).", "ok")
    else:
        flash(f"{found.name} ({when}) was deleted already.", "info")
    return redirect(url_for("events.events"))


@bp.get("/events/<int:event_id>/standings")
@director_required
def standings(event_id: int) -> str:
    found = _event(event_id)
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
@printer.prints
def standings_pdf(event_id: int) -> Response:
    found = _event(event_id)
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
        members=_members(found),
        unfinished=unfinished_tables(tables, round_),
        printed_at=_now(),
        by_hand=seated_by_hand((row.table for row in tables), round_),
        stage=shown.stage,
    )
    return pdf_response(printer.render(html), _file(found, f"standings{f'-round-{round_}' if round_ else ''}", "pdf"))


def _round_asked(tables: list[TableProgress]) -> int | None:
    """The round the standings are asked for (``?round=N``), None for the whole event; a round
    the event has not seated (0, 99, -1, a word) is not found."""
    asked = request.args.get("round", "")
    if not asked:
        return None
    try:
        number = int(asked)
    except ValueError:
        abort(404)
    if number not in {row.table.round for row in tables}:
        abort(404)
    return number


def _countings(event: Event, tables: list[TableProgress]) -> list[list[str]]:
    """How each table counts in the standings, for its sheet (a short table, penalties at it)."""
    given = given_penalties(get_db(), event.id)
    return [counting_lines(row, given) for row in tables]


def _members(event: Event) -> dict[str, EventPlayer]:
    return {player.name: player for player in event_store.event_players(get_db(), event.id)}


def _now() -> str:
    """When a page was printed, in the server's time zone, to the minute."""
    return _to_the_minute(datetime.now())


def _clock(state: dict[str, object]) -> str:
    """When a booklet was started, in the server's time zone, to the minute."""
    return _to_the_minute(datetime.fromtimestamp(float(str(state.get("started") or 0))))


def _to_the_minute(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _round_to_print(event: Event) -> tuple[int, list[EventTable]]:
    """The round a printout asks for (``?round=``; the latest seated without it) and its tables; 404 for none."""
    tables = event_store.event_tables(get_db(), event.id)
    asked = request.args.get("round", type=int)
    if asked is None and "round" in request.args:
        abort(404)  # ?round=abc names no round
    round_ = asked if asked is not None else max((table.round for table in tables), default=0)
    seated = [table for table in tables if table.round == round_]
    if not seated:
        abort(404)
    return round_, seated


@bp.get("/events/<int:event_id>/table-cards.pdf")
@director_required
@printer.prints
def table_cards(event_id: int) -> Response:
    """One page per table of a round: table number, seats, and the QR code to record."""
    found = _event(event_id)
    round_, seated = _round_to_print(found)
    cards = [
        (table, qr_svg(url_for("play.hand", token=table.game.record_token, _external=True), scale=4))
        for table in seated
    ]
    html = table_cards_html(found, round_, cards, requested_paper(found.paper), unreachable_host(request.host_url))
    return pdf_response(printer.render(html), _file(found, f"table-cards-round-{round_}", "pdf"))


@bp.get("/events/<int:event_id>/round-sheet.pdf")
@director_required
@printer.prints
def round_sheet(event_id: int) -> Response:
    """A round's seating to pin up (the latest round unless ``?round=`` names one), with the plan's quality."""
    found = _event(event_id)
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
        printed_at=_now(),
        seated_by=event_store.round_seated_by(db, found.id, round_),
        seated_since=latest if latest > round_ else 0,
    )
    return pdf_response(printer.render(html), _file(found, f"round-{round_}-seating", "pdf"))


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


@bp.post("/events/<int:event_id>/booklet")
@director_required
def booklet(event_id: int) -> Response:
    """Start the booklet of every table's sheet in the background; its page shows the progress.

    The button's key names the job: pressed twice, it follows the one booklet it started.
    """
    found = _event(event_id)
    form = KeyedForm()
    if not form.validate_on_submit():
        flash(" ".join(form.idem.errors) or "This page is out of date: reload it.", "error")
        return _back_to(found)
    db = get_db()
    with printer.building():  # the pages' markup, seconds of Python for a big event: one builder at a time
        tables = progress(db, found)
        if not tables:
            flash("No table has been seated yet.", "error")
            return _back_to(found)
        urls = [url_for("view.scores", token=row.table.game.view_token, _external=True) for row in tables]
        shown = standings_shown(db, found, tables=tables)
        cover = booklet_cover_html(
            found,
            shown.rows,
            event_tie_breaks(found),
            len(tables),
            len(rounds_played(tables)),
            members=_members(found),
            unfinished=unfinished_tables(tables),
            printed_at=_now(),
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
    found = _event(event_id)
    state = booklets.status(current_app.instance_path, job, found.id)
    if state is None:
        abort(404)
    refresh = 2 if state["state"] == "running" else None
    return render_template(
        "events/booklet.html", event=found, job=job, state=state, refresh=refresh, logout=EmptyForm()
    )


@bp.get("/events/<int:event_id>/booklet/<job>.pdf")
@director_required
def booklet_pdf(event_id: int, job: str) -> Response:
    found = _event(event_id)
    path = booklets.result(current_app.instance_path, job, found.id)
    if path is None:
        abort(404)
    return pdf_response(path.read_bytes(), _file(found, "booklet", "pdf"))


@bp.get("/events/<int:event_id>/export.json")
@director_required
def export_event_json(event_id: int) -> Response:
    found = _event(event_id)
    return json_download(export_json(get_db(), found), _file(found, "results", "json"))


@bp.get("/events/<int:event_id>/export.csv")
@director_required
def export_event_csv(event_id: int) -> Response:
    found = _event(event_id)
    return download_response(csv_text(export_rows(get_db(), found)), "text/csv", _file(found, "results", "csv"))


@bp.get("/events/<int:event_id>/standings.csv")
@director_required
def export_standings_csv(event_id: int) -> Response:
    """The overall standings as a spreadsheet reads them: places, totals, how each number was reached."""
    found = _event(event_id)
    return download_response(csv_text(standings_rows(get_db(), found)), "text/csv", _file(found, "standings", "csv"))


def _file(event: Event, what: str, extension: str) -> str:
    return event_file_name(event.name, event.held_on, what, extension)
