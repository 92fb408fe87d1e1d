"""An event's players once it has begun: withdrawn, late, a no-show replaced; and a reason
given afterwards to a line of the event's history (``storage/event_roster.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import flash, redirect, url_for
from werkzeug.wrappers import Response

from ...scoring import Refusal
from ...storage import event_roster
from ...storage.events import Event, EventPlayer
from ..connection import get_db
from ..errors import InvalidForm
from ..event_forms import (
    HistoryReasonForm,
    LatePlayerForm,
    NoShowForm,
    RosterChangeForm,
    SeatingForm,
    WithdrawPlayerForm,
)
from .director import director_required, who
from .event_page import event_page
from .events import back_to, bp, event_or_404

RosterForm = TypeVar("RosterForm", bound=RosterChangeForm)


@bp.post("/events/<int:event_id>/players/withdraw")
@director_required
def withdraw_player(event_id: int) -> Response | tuple[str, int, dict[str, str]]:
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
def late_player(event_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """A player who joins from a round on; the rounds still to play are planned again."""

    def change(event: Event, form: LatePlayerForm) -> str:
        player = EventPlayer(form.name.data.strip(), form.club.data or "", form.number.data or "", form.from_round.data)
        added = event_roster.add_late_player(get_db(), event, player, form.reason.data or "", who())
        verb = "added" if added else "was added already"
        return f"{player.name} {verb}, playing from round {player.arrives}."

    return _roster_change(event_id, LatePlayerForm(prefix="late"), change, "late_player")


def _roster_change(
    event_id: int, form: RosterForm, change: Callable[[Event, RosterForm], str], form_name: str
) -> Response | tuple[str, int, dict[str, str]]:
    """Validate a roster form and make the change (which says what it did); a refusal shows beside its field."""
    found = event_or_404(event_id)
    if not form.validate_on_submit():
        return event_page(found, SeatingForm(formdata=None), InvalidForm(), **{form_name: form})
    try:
        flash(change(found, form), "ok")
    except Refusal as error:
        getattr(form, error.field or "name").errors = [str(error)]
        return event_page(found, SeatingForm(formdata=None), error, **{form_name: form})
    return back_to(found)


@bp.post("/events/<int:event_id>/history/<int:line>/reason")
@director_required
def give_reason(event_id: int, line: int) -> Response | tuple[str, int, dict[str, str]]:
    """A reason for a line of the event's history, given afterwards (a lock, a correction at a table)."""
    found = event_or_404(event_id)
    form = HistoryReasonForm()
    try:
        if not form.validate_on_submit():
            return event_page(found, SeatingForm(formdata=None), InvalidForm(), reason=(line, form))
        given = event_roster.give_reason(get_db(), found.id, line, form.reason.data)
    except Refusal as error:
        form.reason.errors = [str(error)]
        return event_page(found, SeatingForm(formdata=None), error, reason=(line, form))
    flash("Reason kept on the history." if given else "That reason is on the history already.", "ok")
    return redirect(url_for("events.event", event_id=found.id) + f"#line-{line}")


@bp.post("/events/<int:event_id>/rounds/<int:number>/no-show")
@director_required
def no_show(event_id: int, number: int) -> Response | tuple[str, int, dict[str, str]]:
    """A seated player who did not come: replaced at their table (not started), or their table plays without them."""
    found = event_or_404(event_id)
    form = NoShowForm(prefix="noshow")
    if not form.validate_on_submit():
        return event_page(found, SeatingForm(formdata=None), InvalidForm(), no_show=form)
    missing, replacement = form.missing.data, form.replacement.data or ""
    try:
        changed = event_roster.replace_no_show(get_db(), found, number, missing, replacement, form.reason.data or "")
    except Refusal as error:
        field = form.replacement if error.field == "replacement" else form.missing
        field.errors = [str(error)]
        return event_page(found, SeatingForm(formdata=None), error, no_show=form)
    instead = f"{replacement} plays in their seat" if replacement else "their table plays without them"
    flash(f"{missing} did not come: {instead}." if changed else f"{missing} was replaced already.", "ok")
    return back_to(found)
