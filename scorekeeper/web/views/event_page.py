"""The director's event page: every part of it (seating, players, penalties, history, the round
as it happens, every table's row), each kept by what it shows, and the page again with a
refused form beside its field, which every change of an event answers with."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from flask import current_app, render_template, request, url_for
from jinja2 import Template
from markupsafe import Markup

from ...gamelog.memo import Memo
from ...scoring import Refusal
from ...scoring.errors import sentence
from ...storage import event_roster, table_locks
from ...storage import events as event_store
from ...storage.evening import settled_progress
from ...storage.event_penalties import given_penalties
from ...storage.event_plans import StoredPlan
from ...storage.event_results import TableProgress, event_stage, event_tie_breaks, prorated_preview, rounds_played
from ...storage.events import Event, EventPlayer
from ...storage.members import members_not_playing
from ...storage.round_clock import round_clock
from .. import booklets
from ..connection import get_db
from ..errors import page_answer
from ..event_forms import (
    HistoryReasonForm,
    LatePlayerForm,
    LockForm,
    NoShowForm,
    OddTablesForm,
    PenaltyForm,
    RoundClockForm,
    SeatingForm,
    WithdrawPlayerForm,
)
from ..event_planner import event_plan
from ..forms import EmptyForm
from ..kept_parts import kept_part
from ..picking import late_options
from .director import director_required
from .events import bp, event_or_404, to_the_minute, unreachable_host


@bp.get("/events/<int:event_id>")
@director_required
def event(event_id: int) -> tuple[str, int, dict[str, str]]:
    found = event_or_404(event_id)
    return event_page(found, SeatingForm())


def event_page(
    event: Event,
    seating: SeatingForm,
    refused: Refusal | None = None,
    withdraw_error: str = "",
    withdraw_player: WithdrawPlayerForm | None = None,
    late_player: LatePlayerForm | None = None,
    reason: tuple[int, HistoryReasonForm] | None = None,
    lock_question: tuple[TableProgress, LockForm] | None = None,
    penalty: PenaltyForm | None = None,
    odd_tables: OddTablesForm | None = None,
    clock_form: RoundClockForm | None = None,
    no_show: NoShowForm | None = None,
) -> tuple[str, int, dict[str, str]]:
    """The event page, as asked for or showing ``refused`` beside the form it belongs to."""
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
    return page_answer(
        render_template(
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
            short_words=table_locks.SHORT_TREATMENT_WORDS,
            prorated_preview=prorated_preview(lock_question[0]) if lock_question else "",
            tie_breaks=event_tie_breaks(event),
            stage=event_stage(tables, event),
            unreachable_host=unreachable_host(request.host_url),
            booklets=[
                (job, state, _clock(state)) for job, state in booklets.recent(current_app.instance_path, event.id)
            ],
            published=[
                (job, state, _clock(state))
                for job, state in booklets.recent(current_app.instance_path, event.id, kind=booklets.PUBLISHED)
            ],
        ),
        refused,
    )


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


def _clock(state: dict[str, object]) -> str:
    """When a booklet was started, in the server's time zone, to the minute."""
    return to_the_minute(datetime.fromtimestamp(float(str(state.get("started") or 0))))
