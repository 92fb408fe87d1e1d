"""Schedules known to be as good as can be, kept as data (``designs/*.json``), and the round robin.

Each file holds a schedule of numbered players (``0 .. n-1``), where it comes from, and its
kind: ``tables`` (no two players at a table twice, or every pair exactly once) or ``whist``
(tables of four with partners opposite, seats 1 and 3 against 2 and 4; over ``n - 1`` rounds
every pair partners once and opposes twice). None is trusted: ``tests/tournament/test_event_plan.py``
checks every file against its kind. ``tools/make_schedules.py`` writes the constructed ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DESIGNS = Path(__file__).parent / "designs"
TABLES, WHIST = "tables", "whist"

Rounds = list[list[list[int]]]


@dataclass(frozen=True)
class Schedule:
    name: str
    kind: str
    players: int
    source: str
    rounds: Rounds


@cache
def stored() -> tuple[Schedule, ...]:
    """Every stored schedule, smallest first."""
    found = []
    for path in sorted(DESIGNS.glob("*.json")):
        data = json.loads(path.read_text())
        found.append(Schedule(data["name"], data["kind"], int(data["players"]), data["source"], data["rounds"]))
    return tuple(sorted(found, key=lambda schedule: (schedule.players, schedule.kind)))


def schedule_for(players: int, rounds: int, kind: str) -> Schedule | None:
    """A stored schedule of ``kind`` for exactly ``players`` with at least ``rounds`` rounds."""
    for schedule in stored():
        if schedule.kind == kind and schedule.players == players and len(schedule.rounds) >= rounds:
            return schedule
    return None


def round_robin(count: int) -> list[list[tuple[int, int]]]:
    """Every pairing of ``count`` (even) entrants in ``count - 1`` rounds, each pair exactly once:
    the circle method (Berger tables), entrant ``count - 1`` fixed while the others turn."""
    if count % 2:
        raise ValueError("a round robin of pairs needs an even count")
    turning = list(range(count - 1))
    rounds = []
    for _ in range(count - 1):
        order = [count - 1, *turning]
        rounds.append([(order[i], order[count - 1 - i]) for i in range(count // 2)])
        turning = turning[-1:] + turning[:-1]
    return rounds
