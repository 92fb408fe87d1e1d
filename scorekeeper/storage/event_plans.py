"""An event's plan of every round, kept in the event's row: made once per change, never per view.

The plan (``tournament.plan``) is stored as JSON with the basis it was made for: the
players, the rounds each plays (late arrivals, withdrawals), the event's number of rounds,
its partnerships and its game's table size. It is the event's plan while that basis holds
and every round seated so far was seated as planned; otherwise it is stale. Making a plan
takes seconds, so it is made outside any request (the web part's ``event_planner``) and
outside any write lock: ``claim_planning`` lets one maker at a time start, and ``save_plan``
keeps its result only if the basis has not changed meanwhile.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass

import sqlite_utils

from ..gamelog.memo import Memo
from ..tournament.plan import OddChoice, Plan, plan_with_choice
from ..tournament.plan_quality import Quality
from ..tournament.seating import ALONE, USUAL, SeatingError, meeting_again, seat_by_standings, table_sizes
from ..tournament.standings import complete_rounds
from .database import immediate
from .event_results import event_standings, progress, rounds_played, table_results
from .events import Event, EventPlayer, event_players, played_rounds

#: A plan begun this long ago and not saved was lost (its server stopped): another may start.
PLANNING_LOST_AFTER = 120.0


@dataclass(frozen=True)
class PlanInputs:
    players: list[str]
    arrives: dict[str, int]
    leaves: dict[str, int]
    rounds: int
    partnerships: str
    size: int
    played: list[list[list[str]]]
    odd: str = USUAL

    @property
    def basis(self) -> str:
        """What the plan depends on besides the rounds played (which it keeps as they were)."""
        data: list[object] = [self.players, self.arrives, self.leaves, self.rounds, self.partnerships, self.size]
        if self.odd != USUAL:  # as before the choice was kept, so the plans kept then still stand
            data.append(self.odd)
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def plan_inputs(
    db: sqlite_utils.Database,
    event: Event,
    players: list[EventPlayer] | None = None,
    played: list[list[list[str]]] | None = None,
) -> PlanInputs:
    """What a plan of ``event`` is made from (``players``, ``played``: its players and rounds
    seated, if read already). An event without a number of rounds (made before plans) is
    planned one round ahead."""
    players = event_players(db, event.id) if players is None else players
    played = played_rounds(db, event.id) if played is None else played
    return PlanInputs(
        players=[p.name for p in players],
        arrives={p.name: p.arrives for p in players if p.arrives > 1},
        leaves={p.name: p.leaves for p in players if p.leaves is not None},
        rounds=max(event.rounds or 0, len(played) + (0 if event.rounds else 1)),
        partnerships=event.partnerships,
        size=event.ruleset().table_size,
        played=played,
        odd=event.odd_tables,
    )


def make_plan(inputs: PlanInputs, previous: Plan | None, seconds: float) -> Plan:
    """The plan for ``inputs``, starting from ``previous`` if there is one (no database: seconds of
    work); before the event starts, with how the other choice of tables of three or five would do."""
    return plan_with_choice(
        inputs.players,
        inputs.rounds,
        inputs.partnerships,
        played=inputs.played,
        arrives=inputs.arrives,
        leaves=inputs.leaves,
        previous=previous.rounds if previous else (),
        size=inputs.size,
        odd=inputs.odd,
        seconds=seconds,
    )


@dataclass(frozen=True)
class StoredPlan:
    """The plan last saved (None when it could not be made: ``refused`` says why) and its basis."""

    plan: Plan | None
    refused: str
    basis: str
    #: A digest of the plan as stored: the same for every read of the same plan (a page's
    #: markup of it is kept under it).
    digest: str = ""

    def stands(self, inputs: PlanInputs) -> bool:
        """Made for this basis, and every round played as it planned (a refusal stands while its basis does)."""
        if self.basis != inputs.basis:
            return False
        if self.plan is None:
            return True
        if len(self.plan.rounds) != inputs.rounds:
            return False
        return all(_as_set(self.plan.rounds[r]) == _as_set(tables) for r, tables in enumerate(inputs.played))


#: Plans read, by the digest of their JSON: a 300-player event's is some 100 KB, read at every look
#: at its page, and parsed once.
_READ: Memo[StoredPlan] = Memo(64)


def stored_plan(db: sqlite_utils.Database, event_id: int) -> StoredPlan | None:
    row = db.execute("SELECT plan, plan_basis FROM events WHERE id = ?", [event_id]).fetchone()
    if row is None or not row[0]:
        return None
    text, basis = str(row[0]), str(row[1])
    digest = hashlib.sha256(f"{basis}\n{text}".encode()).hexdigest()
    return _READ.get(digest, lambda: _parsed(text, basis, digest))


def _parsed(text: str, basis: str, digest: str) -> StoredPlan:
    data = json.loads(text)
    if "refused" in data:
        return StoredPlan(None, str(data["refused"]), basis, digest)
    instead = data.get("instead")
    other = OddChoice(instead["odd"], Quality(**instead["quality"])) if instead else None
    plan = Plan(data["rounds"], data["sitting_out"], data["source"], Quality(**data["quality"]), other)
    return StoredPlan(plan, "", basis, digest)


def _as_set(tables: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(table) for table in tables}


def claim_planning(db: sqlite_utils.Database, event_id: int) -> bool:
    """Mark the event's plan as being made; False if another maker has it (and is not lost)."""
    now = time.time()
    with immediate(db):
        cursor = db.conn.execute(
            "UPDATE events SET planning_since = ? WHERE id = ? AND (planning_since IS NULL OR planning_since < ?)",
            [now, event_id, now - PLANNING_LOST_AFTER],
        )
    return cursor.rowcount > 0


def planning(db: sqlite_utils.Database, event_id: int) -> bool:
    """Whether a plan of the event is being made now."""
    row = db.execute("SELECT planning_since FROM events WHERE id = ?", [event_id]).fetchone()
    return row is not None and row[0] is not None and row[0] > time.time() - PLANNING_LOST_AFTER


def save_plan(db: sqlite_utils.Database, event: Event, inputs: PlanInputs, plan: Plan | str) -> bool:
    """Keep ``plan`` (or why none could be made) if what it was made from still holds (else
    drop it: a newer change plans again); the maker's mark goes either way. A millisecond's write."""
    if isinstance(plan, str):
        data = json.dumps({"refused": plan})
    else:
        data = json.dumps(
            {
                "rounds": plan.rounds,
                "sitting_out": plan.sitting_out,
                "source": plan.source,
                "quality": asdict(plan.quality),
                "instead": asdict(plan.instead) if plan.instead else None,
            }
        )
    with immediate(db):
        now = plan_inputs(db, event)
        kept = now.basis == inputs.basis and now.played == inputs.played
        if kept:
            db.conn.execute(
                "UPDATE events SET plan = ?, plan_basis = ?, planning_since = NULL WHERE id = ?",
                [data, inputs.basis, event.id],
            )
        else:
            db.conn.execute("UPDATE events SET planning_since = NULL WHERE id = ?", [event.id])
    return kept


def standings_seating(db: sqlite_utils.Database, event: Event, number: int) -> tuple[list[list[str]], str]:
    """Round ``number`` seated by the standings so far (``seating.seat_by_standings``), and the
    words for it ("the standings after round 2"). Refused (beside the tables) before any round
    is complete, and in events of partnerships or of a game for other than tables of four."""
    if event.partnerships != ALONE or event.ruleset().table_size != 4:
        raise SeatingError(
            "Seating by the standings is for events where everyone plays alone at tables of four.", "tables"
        )
    tables = progress(db, event)
    complete = complete_rounds(table_results(tables))
    if not complete:
        raise SeatingError("No round is complete yet: there are no standings to seat by.", "tables")
    playing = {p.name for p in event_players(db, event.id) if not p.absent_from(number)}
    rows = event_standings(db, event, tables=tables)
    ranked = [row.name for row in rows if row.name in playing]
    ranked += sorted(playing - set(ranked))
    seated = seat_by_standings(ranked, rounds_played(tables), table_sizes(len(ranked), ALONE, 4, event.odd_tables))
    return seated, f"the standings after round {max(complete)}"


def standings_warning(db: sqlite_utils.Database, event: Event, tables: list[list[str]]) -> str:
    """What a director is told of a round proposed by the standings before seating it: the pairs
    it would seat together a third time or more (near the bottom, where few players are left)."""
    again = meeting_again(tables, rounds_played(progress(db, event)))
    if not again:
        return ""
    pairs = "; ".join(f"{a} and {b} ({_nth(times)} time)" for a, b, times in again)
    return f"This proposal seats players together again: {pairs}. Swap them by hand if you would rather not."


def _nth(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")
