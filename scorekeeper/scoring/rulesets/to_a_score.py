"""What the games played to a score have in common: everyone alone, no schedule, no pressures."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from ..errors import InvalidSeating, RefereeError
from ..leftovers import LeftoverScore
from .base import RuleSet, Seating


@dataclass(frozen=True)
class PlayedToAScore(RuleSet):
    """A game of as many hands as it takes, each player alone, without Crates' pressures or count."""

    has_pressures = False
    has_count = False
    has_one_card_penalty = False
    MAX_PLAYERS: ClassVar[int] = 8

    def check_seating(self, game: Seating) -> None:
        count = len(game.players)
        if not 2 <= count <= self.MAX_PLAYERS:
            players = "2" if self.MAX_PLAYERS == 2 else f"2 to {self.MAX_PLAYERS}"
            raise InvalidSeating(f"{self.name} is for {players} players, not {count}", "players")
        if game.has_partnerships:
            raise InvalidSeating(f"in {self.name} everyone plays alone", "partnerships")

    def schedule(self) -> tuple[int, ...]:
        return ()

    def max_hands(self) -> int | None:
        return None

    def pressure_value(self, number: int) -> int:
        raise RefereeError(f"{self.name} has no pressures")


def winner_collects(
    game: Seating, scored: Mapping[str, LeftoverScore], collected: Callable[[LeftoverScore], int]
) -> dict[str, int]:
    """The player who went out collects from every other hand; in a blocked hand (nobody out),
    the lowest count collects from each other player the difference (tied lowest each do).

    ``collected`` is what a hand is worth in the game's own unit (points, or Zodiac's cards):
    a blocked hand is counted in that unit too.
    """
    points = dict.fromkeys(game.players, 0)
    counts = {player: collected(scored[player]) for player in game.players}
    out = [player for player in game.players if scored[player].went_out]
    if out:
        points[out[0]] = sum(counts[player] for player in game.players if player != out[0])
        return points
    lowest = min(counts.values())
    for winner in (player for player in game.players if counts[player] == lowest):
        points[winner] = sum(count - lowest for count in counts.values())
    return points
