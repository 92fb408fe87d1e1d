"""What the games played to a score have in common: everyone alone, no schedule, no pressures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..cards import Card
from ..errors import InvalidSeating, RefereeError
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


def check_one_out(leftovers: Mapping[str, Sequence[Card]]) -> None:
    """Only one player can go out in a hand."""
    empty = [player for player, cards in leftovers.items() if not cards]
    if len(empty) > 1 and SINGLE_HAND not in leftovers:
        raise RefereeError(f"only one player can go out, but {' and '.join(empty)} have no cards")


def where(leftovers: Mapping[str, Sequence[Card]]) -> str:
    """How a deck-limit refusal names the cards checked: one hand (the calculator), or the leftovers."""
    return "in one hand" if list(leftovers) == [SINGLE_HAND] else "in the leftovers"
