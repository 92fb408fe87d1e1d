"""An event's rounds: seated (as planned, by the standings, or by hand) and withdrawn, tables
of three or five, tables locked and unlocked, and a round's clock."""

from __future__ import annotations

from flask import flash
from werkzeug.exceptions import BadRequest, NotFound
from werkzeug.wrappers import Response

from ...scoring import Refusal
from ...scoring.errors import AskFirst, sentence
from ...storage import event_rounds as round_store
from ...storage import events as event_store
from ...storage import table_locks
from ...storage.evening import lock_finished
from ...storage.event_plans import standings_seating, standings_warning, stored_plan
from ...storage.event_results import TableProgress, progress, rounds_played
from ...storage.event_rounds import RoundConflict
from ...storage.events import Event
from ...storage.games import load_state
from ...storage.round_clock import ACTIONS as CLOCK_ACTIONS
from ...storage.round_clock import change_clock, start_clock
from ..connection import get_db
from ..errors import InvalidForm
from ..event_forms import LockForm, OddTablesForm, RoundClockForm, SeatingForm
from ..forms import EmptyForm
from .director import director_required
from .event_page import event_page
from .events import back_to, bp, event_or_404


@bp.post("/events/<int:event_id>/rounds")
@director_required
def seat_round(event_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """Seat the round the form names from the tables as written (the automatic proposal, or edited by hand)."""
    found = event_or_404(event_id)
    form = SeatingForm()
    if form.is_submitted() and form.by_standings.data:  # a proposal only: nothing changes
        return _standings_proposal(found, form)
    if not form.validate_on_submit():
        return event_page(found, form, InvalidForm())
    number = form.number.data
    tables = progress(get_db(), found)
    # A form for a round seated meanwhile is answered as such (seated already, or refused), never asked about.
    seated_already = any(row.table.round == number for row in tables)
    still = [row for row in tables if row.table.round == number - 1 and not row.final and not seated_already]
    early = event_store.tables_named([row.table.number for row in still]) if still else ""
    if still and not form.anyway.data:
        question = AskFirst(f"Round {number - 1} is still playing at {early}: seat round {number} anyway?", "anyway")
        form.anyway.errors = [str(question)]
        return event_page(found, form, question)
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
        seated = round_store.seat_written_round(
            get_db(), found, form.tables.data or "", number, planned, form.reason.data or "", early, rule
        )
    except Refusal as error:
        form.tables.errors = [str(error)]
        return event_page(found, form, error)
    if not seated.new:
        flash(f"Round {number} is seated already: {len(seated.tables)} tables.", "ok")
        return back_to(found)
    missing = seated.not_seated
    flash(
        f"Round {number} seated: {len(seated.tables)} tables."
        + (f" Not seated: {', '.join(missing)}." if missing else ""),
        "ok",
    )
    return back_to(found)


def _standings_proposal(found: Event, form: SeatingForm) -> tuple[str, int, dict[str, str]]:
    """The seating form with the next round's tables proposed by the standings so far (a refusal
    beside the tables); the director seats it, or edits it and seats by hand."""
    number = len(rounds_played(progress(get_db(), found))) + 1
    try:
        tables, words = standings_seating(get_db(), found, number)
    except Refusal as error:
        form.tables.errors = [str(error)]
        return event_page(found, form, error)
    form.tables.data = "\n".join(", ".join(table) for table in tables)
    form.number.data = number
    form.seated_by.data = words
    form.tables.description = standings_warning(get_db(), found, tables) or form.tables.description
    return event_page(found, form)


@bp.post("/events/<int:event_id>/odd-tables")
@director_required
def odd_tables(event_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """Threes or fives beside the tables of four, from the next round seated on; planned again."""
    found = event_or_404(event_id)
    form = OddTablesForm()
    if not form.validate_on_submit():
        return event_page(found, SeatingForm(formdata=None), InvalidForm(), odd_tables=form)
    changed = round_store.set_odd_tables(get_db(), found, form.odd_tables.data)
    words = event_store.ODD_TABLE_WORDS[form.odd_tables.data]
    flash(f"Beside the tables of four: {words}{'' if changed else ', as before'}. The plan is made again.", "ok")
    return back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/withdraw")
@director_required
def withdraw_round(event_id: int, number: int) -> Response | tuple[str, int, dict[str, str]]:
    """Withdraw the latest round while no hand is played at it (the URL names the round: a double click withdraws one)."""
    found = event_or_404(event_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        raise BadRequest()
    try:
        withdrawn = round_store.withdraw_round(get_db(), found, number)
    except RoundConflict as error:
        return event_page(found, SeatingForm(formdata=None), error, withdraw_error=str(error))
    if withdrawn:
        flash(f"Round {number} withdrawn: its tables' links and codes take no more changes.", "ok")
    else:
        flash(f"Round {number} is not seated: nothing to withdraw.", "ok")
    return back_to(found)


@bp.post("/events/<int:event_id>/games/<token>/lock")
@director_required
def lock(event_id: int, token: str) -> Response | tuple[str, int, dict[str, str]]:
    """Lock a game (after which only the director can change it); a game already locked stays so."""
    return _set_locked(event_id, token, True)


@bp.post("/events/<int:event_id>/games/<token>/unlock")
@director_required
def unlock(event_id: int, token: str) -> Response | tuple[str, int, dict[str, str]]:
    """Unlock a game; a game already unlocked stays so."""
    return _set_locked(event_id, token, False)


def _set_locked(event_id: int, token: str, locked: bool) -> Response | tuple[str, int, dict[str, str]]:
    """Two actions, not a toggle: a doubled click asks for the same state twice and gets it once.
    Locking a table that has not finished asks first: it closes the table as it stands."""
    found = event_or_404(event_id)
    form = LockForm()
    table = event_store.game_in_event(get_db(), found.id, token)
    if table is None:
        raise NotFound()
    row = TableProgress(table, load_state(get_db(), table.game))
    asking = locked and not row.final_score.finished and not table.locked
    if form.validate_on_submit():
        if asking and not form.anyway.data:
            question = AskFirst("This table has not finished: lock it as it stands?")
            return event_page(found, SeatingForm(formdata=None), question, lock_question=(row, LockForm(formdata=None)))
        try:
            if locked:
                changed = table_locks.lock_table(
                    get_db(), table, form.treatment.data, form.level.data, form.reason.data or ""
                )
            else:
                changed = table_locks.set_locked(get_db(), table.game, False, table)
        except Refusal as error:
            form[error.field if error.field in form else "reason"].errors = [sentence(str(error))]
            return event_page(found, SeatingForm(formdata=None), error, lock_question=(row, form))
        state = "locked" if locked else "unlocked"
        flash(f"Round {table.round}, table {table.number} {state if changed else 'was already ' + state}.", "ok")
    elif asking and form.anyway.data:
        return event_page(found, SeatingForm(formdata=None), InvalidForm(), lock_question=(row, form))
    return back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/lock-finished")
@director_required
def lock_finished_tables(event_id: int, number: int) -> Response:
    """Lock every finished table of a round in one press (one short transaction; a double click locks nothing more)."""
    found = event_or_404(event_id)
    if not EmptyForm().validate_on_submit():
        raise BadRequest()
    locked = lock_finished(get_db(), found, number)
    if locked:
        flash(f"Round {number}: {event_store.tables_named(locked)} locked.", "ok")
    else:
        flash(f"Round {number}: no finished table was left unlocked.", "ok")
    return back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/clock")
@director_required
def start_round_clock(event_id: int, number: int) -> Response | tuple[str, int, dict[str, str]]:
    """Start a round's clock with its length; a clock running already is left as it is."""
    found = event_or_404(event_id)
    form = RoundClockForm()
    if not form.validate_on_submit():
        return event_page(found, SeatingForm(formdata=None), InvalidForm(), clock_form=form)
    try:
        started = start_clock(get_db(), found, number, form.minutes.data)
    except Refusal as error:
        form.minutes.errors = [str(error)]
        return event_page(found, SeatingForm(formdata=None), error, clock_form=form)
    flash(f"Round {number} clock {'started' if started else 'was running already'}.", "ok")
    return back_to(found)


@bp.post("/events/<int:event_id>/rounds/<int:number>/clock/<action>")
@director_required
def change_round_clock(event_id: int, number: int, action: str) -> Response | tuple[str, int, dict[str, str]]:
    """Pause, resume, extend or stop a round's clock, as it stood when the button was drawn."""
    found = event_or_404(event_id)
    if action not in CLOCK_ACTIONS:
        raise NotFound()
    form = RoundClockForm()
    if action != "extend":
        form.minutes.data = 1  # only an extension says how long
        form.minutes.raw_data = ["1"]
    if not form.validate_on_submit():
        return event_page(found, SeatingForm(formdata=None), InvalidForm(), clock_form=form)
    try:
        changed = change_clock(get_db(), found, number, action, form.mark.data or "", form.minutes.data or 0)
    except Refusal as error:
        form.minutes.errors = [str(error)]
        return event_page(found, SeatingForm(formdata=None), error, clock_form=form)
    done = {"pause": "paused", "resume": "resumed", "extend": "extended", "stop": "stopped"}[action]
    flash(
        f"Round {number} clock {done}." if changed else f"Round {number} clock changed meanwhile: nothing done.", "ok"
    )
    return back_to(found)
