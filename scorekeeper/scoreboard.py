"""What the score pages show, derived from a table's state: rows, marks, standings."""

from __future__ import annotations

from dataclasses import dataclass

from .scoring import GameScore
from .scoring.rulesets.base import GameColumn
from .table_log import TableState


@dataclass(frozen=True)
class SideCell:
    points: int
    pressures: int
    running: int


@dataclass(frozen=True)
class HandRow:
    number: int
    cards_dealt: int
    dealer: str
    cells: tuple[SideCell, ...]
    notes: int


@dataclass(frozen=True)
class SideSummary:
    name: str
    members: tuple[str, ...]
    start: int
    total: int
    leads: bool
    place: int
    next_pressure: int
    games_won: int = 0


@dataclass(frozen=True)
class Scoreboard:
    sides: tuple[SideSummary, ...]
    rows: tuple[HandRow, ...]
    finished: bool
    hands_in_game: int | None
    columns: tuple[GameColumn, ...] = ()

    @property
    def with_start(self) -> bool:
        return any(side.start for side in self.sides)


def scoreboard(state: TableState) -> Scoreboard:
    score: GameScore = state.score
    places = {side.side.name: place for place, side in score.standings()}
    leaders = set(score.leader) if score.hands or any(s.start for s in score.sides) else set()
    sides = tuple(
        SideSummary(
            name=side.side.name,
            members=side.side.members,
            start=side.start,
            total=side.total,
            leads=side.side.name in leaders,
            place=places[side.side.name],
            next_pressure=state.next_pressure(side.side.name),
            games_won=score.games_won(side.side.name),
        )
        for side in score.sides
    )
    running = [side.running_totals() for side in score.sides]
    rows = tuple(
        HandRow(
            number=hand.number,
            cards_dealt=hand.cards_dealt,
            dealer=hand.dealer,
            cells=tuple(
                SideCell(side.hands[index], side.pressures[index], running[s][index])
                for s, side in enumerate(score.sides)
            ),
            notes=len(state.notes.get(hand.number, [])),
        )
        for index, hand in enumerate(score.hands)
    )
    return Scoreboard(sides, rows, score.finished, state.game.rules.max_hands(), score.columns)
