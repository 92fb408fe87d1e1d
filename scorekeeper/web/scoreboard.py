"""What the score pages show: the score grid (``reports/grid.py``), which the printed sheet and
the command line render too, and what only the page knows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..gamelog import GameState
from ..reports.grid import ScoreGrid, score_grid


@dataclass(frozen=True)
class Scoreboard:
    """The grid of the hands played, and what each side's next pressure will cost: that counts
    the pressures of the hand in play, which are in no hand of the grid yet."""

    grid: ScoreGrid
    next_pressure: Mapping[str, int]


def scoreboard(state: GameState) -> Scoreboard:
    notes = {number: [str(entry.data.get("text", "")) for entry in entries] for number, entries in state.notes.items()}
    return Scoreboard(
        score_grid(state.score, notes),
        {side.name: state.next_pressure(side.name) for side in state.game.sides},
    )
