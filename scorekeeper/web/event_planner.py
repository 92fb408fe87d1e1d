"""An event's plan is made in a thread of the worker, never in a request (seconds of search),
once per change: the first look at an event whose plan no longer stands starts it, and the
event page shows "planning" (and refreshes) until it is saved."""

from __future__ import annotations

import logging
import threading

import sqlite_utils
from flask import current_app

from ..scoring import Refusal
from ..storage.database import connect
from ..storage.event_plans import StoredPlan, claim_planning, make_plan, plan_inputs, save_plan, stored_plan
from ..storage.events import Event, EventPlayer, get_event
from ..tournament.plan import SECONDS, Plan
from .connection import database_path

log = logging.getLogger(__name__)


def event_plan(
    db: sqlite_utils.Database,
    event: Event,
    players: list[EventPlayer] | None = None,
    played: list[list[list[str]]] | None = None,
) -> tuple[StoredPlan | None, bool]:
    """The event's plan if it stands (None: none yet, or being made again), and whether a new
    one is being made (started here if the stored one no longer stands). ``players``,
    ``played``: the event's players and rounds seated, if the caller has read them already."""
    inputs = plan_inputs(db, event, players, played)
    stored = stored_plan(db, event.id)
    if stored is not None and stored.stands(inputs):
        return stored, False
    if claim_planning(db, event.id):
        previous = stored.plan if stored is not None else None
        seconds = float(current_app.config.get("PLAN_SECONDS", SECONDS))
        path = database_path(current_app)
        threading.Thread(target=_plan, args=(path, event.id, previous, seconds), daemon=True).start()
    return None, True


def _plan(path: str, event_id: int, previous: Plan | None, seconds: float) -> None:
    db = connect(path)
    try:
        event = get_event(db, event_id)
        if event is None:
            return
        inputs = plan_inputs(db, event)
        try:
            plan = make_plan(inputs, previous, seconds)
        except Refusal as error:
            save_plan(db, event, inputs, str(error))
            return
        save_plan(db, event, inputs, plan)
    except Exception:  # a thread's failure must not pass unseen: the next look starts again
        log.exception("planning event %s failed", event_id)
    finally:
        db.conn.close()
