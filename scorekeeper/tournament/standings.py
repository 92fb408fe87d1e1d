"""Event standings from every table's replayed game: per round and overall.

Two ways to rank, a setting of the event:
- ``total``: the lowest sum of a player's side totals over the rounds wins (Crates is won
  by the fewest points; in games where the highest total wins, the highest sum). Ties
  broken by more placement points, then more table wins.
- ``placement``: at each table a side earns a point for every side placed below it (as
  the game ranks them: totals, games won, outright wins) and half a point for every side
  tied with it; the most placement points win. Ties broken by the better total, then more
  table wins.
Players tied on every key share a place. In a partnership, both partners get the side's
total and points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..scoring import GameScore

TOTAL, PLACEMENT = "total", "placement"
SCORING_MODES = (TOTAL, PLACEMENT)


def tie_breaks(mode: str, lowest_wins: bool = True) -> str:
    """How a mode ranks, in words, for the standings pages."""
    best = "lowest" if lowest_wins else "highest"
    return {
        TOTAL: f"{best} total; ties: more placement points, then more table wins",
        PLACEMENT: f"most placement points; ties: {best} total, then more table wins",
    }[mode]


@dataclass(frozen=True)
class TableResult:
    round: int
    table: int
    score: GameScore


@dataclass
class PlayerStanding:
    name: str
    total: int = 0
    placement: float = 0.0
    wins: int = 0
    tables: int = 0
    in_progress: int = 0
    hands: int = 0
    by_round: dict[int, int] = field(default_factory=dict)
    place: int = 0


def standings(
    results: Sequence[TableResult],
    players: Sequence[str],
    mode: str,
    round_: int | None = None,
    lowest_wins: bool = True,
) -> list[PlayerStanding]:
    """Every player with their place; only ``round_`` if given, else every round so far."""
    if mode not in SCORING_MODES:
        raise ValueError(f"scoring must be one of {', '.join(SCORING_MODES)}")
    table_of = {name: PlayerStanding(name) for name in players}
    for result in results:
        if round_ is not None and result.round != round_:
            continue
        places = {side.side.name: place for place, side in result.score.standings()}
        for side in result.score.sides:
            mine = places[side.side.name]
            worse = sum(1 for other in places.values() if other > mine)
            tied = sum(1 for other in places.values() if other == mine) - 1
            for member in side.side.members:
                row = table_of.setdefault(member, PlayerStanding(member))
                row.total += side.total
                row.placement += worse + tied / 2
                row.wins += 1 if mine == 1 and tied == 0 else 0
                row.tables += 1
                row.in_progress += 0 if result.score.finished else 1
                row.hands += len(result.score.hands)
                row.by_round[result.round] = row.by_round.get(result.round, 0) + side.total
    rows = list(table_of.values())
    sign = 1 if lowest_wins else -1
    rows.sort(key=lambda row: (*_key(row, mode, sign), row.name.casefold()))
    previous_key, place = None, 0
    for index, row in enumerate(rows, start=1):
        key = _key(row, mode, sign)
        if key != previous_key:
            place, previous_key = index, key
        row.place = place
    return rows


def _key(row: PlayerStanding, mode: str, sign: int) -> tuple[float, ...]:
    """Smaller is better; ``sign`` is -1 where the highest total wins."""
    if mode == TOTAL:
        return (sign * row.total, -row.placement, -row.wins)
    return (-row.placement, sign * row.total, -row.wins)
