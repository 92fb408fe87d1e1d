"""The director's penalties and adjustments: given with a reason, withdrawn."""

from __future__ import annotations

from flask import flash
from werkzeug.exceptions import BadRequest, NotFound
from werkzeug.wrappers import Response

from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage.event_penalties import give_penalty, withdraw_penalty
from ..connection import get_db
from ..errors import InvalidForm
from ..event_forms import PenaltyForm, SeatingForm
from ..forms import EmptyForm
from .director import director_required
from .event_page import event_page
from .events import back_to, bp, event_or_404


@bp.post("/events/<int:event_id>/penalties")
@director_required
def penalty(event_id: int) -> Response | tuple[str, int, dict[str, str]]:
    """A director's penalty or adjustment, with its reason: refused beside its field, kept as typed."""
    found = event_or_404(event_id)
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
            return event_page(found, SeatingForm(formdata=None), error, penalty=form)
        kind = given.kind(found.ruleset().lowest_wins).capitalize()
        flash(f"{kind} given: it counts once its round is complete.", "ok")
        return back_to(found)
    return event_page(found, SeatingForm(formdata=None), InvalidForm(), penalty=form)


@bp.post("/events/<int:event_id>/penalties/<int:penalty_id>/withdraw")
@director_required
def unpenalty(event_id: int, penalty_id: int) -> Response:
    """Withdraw (undo) a penalty: it stops counting; the history keeps it and its withdrawal."""
    found = event_or_404(event_id)
    if not EmptyForm().validate_on_submit():
        raise BadRequest()
    try:
        withdrawn = withdraw_penalty(get_db(), found, penalty_id)
    except Refusal:
        raise NotFound() from None
    kind = withdrawn.kind(found.ruleset().lowest_wins).capitalize() if withdrawn is not None else ""
    flash(f"{kind} withdrawn." if withdrawn is not None else "That was withdrawn already.", "ok")
    return back_to(found)
