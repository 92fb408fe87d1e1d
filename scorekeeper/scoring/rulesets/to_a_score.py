"""What the games played to a score have in common: everyone alone, no schedule, no pressures."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..cards import Card
from ..errors import InvalidSeating, RefereeError
from ..threes import LeftoverScore
from .base import SINGLE_HAND, RuleSet

if TYPE_CHECKING:
    from ..game import Game


@dataclass(frozen=True)
class PlayedToAScore(RuleSet):
    """A game of as many hands as it takes, each player alone, without Crates' pressures or count."""

    has_pressures = False
    has_count = False
    has_one_card_penalty = False
    MAX_PLAYERS: ClassVar[int] = 8

    def check_seating(self, game: Game) -> None:
        count = len(game.players)
        if not 2 <= count <= self.MAX_PLAYERS:
            players = "2" if self.MAX_PLAYERS == 2 else f"2 to {self.MAX_PLAYERS}"
            raise InvalidSeating(f"{self.name} is for {players} players, not {count}")
        if game.has_partnerships:
            raise InvalidSeating(f"in {self.name} everyone plays alone")

    def schedule(self) -> tuple[int, ...]:
        return ()

    def max_hands(self) -> int | None:
        return None

    def pressure_value(self, number: int) -> int:
        raise RefereeError(f"{self.name} has no pressures")


def winner_collects(
    game: Game, scored: Mapping[str, LeftoverScore], collected: Callable[[LeftoverScore], int]
) -> dict[str, int]:
    """The player who went out collects from every other hand; in a blocked hand (nobody out),
    the lowest count collects from each other player the difference (tied lowest each do)."""
    points = dict.fromkeys(game.players, 0)
    out = [player for player in game.players if scored[player].went_out]
    if out:
        points[out[0]] = sum(collected(scored[player]) for player in game.players if player != out[0])
        return points
    lowest = min(scored[player].total for player in game.players)
    for winner in (player for player in game.players if scored[player].total == lowest):
        points[winner] = sum(scored[player].total - lowest for player in game.players)
    return points


def check_one_out(leftovers: Mapping[str, Sequence[Card]]) -> None:
    """Only one player can go out in a hand."""
    empty = [player for player, cards in leftovers.items() if not cards]
    if len(empty) > 1 and SINGLE_HAND not in leftovers:
        raise RefereeError(f"only one player can go out, but {' and '.join(empty)} have no cards")


def where(leftovers: Mapping[str, Sequence[Card]]) -> str:
    """How a deck-limit refusal names the cards checked: one hand (the calculator), or the leftovers."""
    return "in one hand" if list(leftovers) == [SINGLE_HAND] else "in the leftovers"
