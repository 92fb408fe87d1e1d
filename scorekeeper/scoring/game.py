"""Who plays under which rules, and what one hand left behind."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Card
from .errors import InvalidSeating
from .rulesets.base import RuleSet


@dataclass(frozen=True)
class Side:
    """A partnership, or one player playing alone: what pressures and scores are counted for."""

    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    """Everything fixed before the first hand.

    Rules, players in clockwise seating order, partnerships, and the first dealer.
    """

    rules: RuleSet
    players: tuple[str, ...]
    partnerships: tuple[tuple[str, ...], ...] = ()
    first_dealer: str | None = None

    def __post_init__(self) -> None:
        _check_names(self.players)
        _check_partnerships(self.players, self.partnerships)
        if self.first_dealer is not None and self.first_dealer not in self.players:
            raise InvalidSeating(f"the first dealer {self.first_dealer!r} is not a player of this game")
        self.rules.check_seating(self)

    @property
    def has_partnerships(self) -> bool:
        return any(len(team) > 1 for team in self.partnerships)

    @cached_property
    def sides(self) -> tuple[Side, ...]:
        if not self.has_partnerships:
            return tuple(Side(player, (player,)) for player in self.players)
        return tuple(Side(" & ".join(team), tuple(team)) for team in self.partnerships)

    def side_of(self, player: str) -> Side:
        for side in self.sides:
            if player in side.members:
                return side
        raise InvalidSeating(f"{player!r} is not a player of this game")

    @property
    def hand_count(self) -> int:
        """The hands of a game on a schedule (Crates' 15); games played to a score have none."""
        count = self.rules.max_hands()
        if count is None:
            raise ValueError(f"{self.rules.name} has no fixed number of hands")
        return count

    def cards_dealt(self, number: int) -> int:
        """Cards dealt to each player in hand ``number`` (1 is the first hand)."""
        return self.rules.cards_dealt(number, len(self.players))

    def dealer(self, number: int) -> str:
        """The deal starts with the first dealer and rotates left (the next seat clockwise)."""
        dealers = self.rules.dealers(self)
        start = dealers.index(self.first_dealer) if self.first_dealer in dealers else 0
        return dealers[(start + number - 1) % len(dealers)]

    def first_to_play(self, number: int) -> str:
        """The player on the dealer's left, unless the turned-up card says otherwise."""
        seat = self.players.index(self.dealer(number))
        return self.players[(seat + 1) % len(self.players)]


@dataclass(frozen=True)
class Hand:
    """What one hand left: each player's cards, and the pressures in the order they were taken."""

    leftovers: Mapping[str, tuple[Card, ...]]
    pressures: tuple[str, ...] = field(default=())


def _check_names(players: tuple[str, ...]) -> None:
    if not players:
        raise InvalidSeating("a game needs players")
    seen: dict[str, str] = {}
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InvalidSeating("every player needs a name")
        if name != name.strip():
            raise InvalidSeating(f"the name {name!r} starts or ends with a space")
        key = name.casefold()
        if key in seen:
            raise InvalidSeating(f"two players are called {name!r}: give each a different name")
        seen[key] = name


def _check_partnerships(players: tuple[str, ...], partnerships: tuple[tuple[str, ...], ...]) -> None:
    if not partnerships:
        return
    placed: list[str] = []
    for team in partnerships:
        for name in team:
            if name not in players:
                raise InvalidSeating(f"partnership member {name!r} is not a player of this game")
            if name in placed:
                raise InvalidSeating(f"{name} is in two partnerships")
            placed.append(name)
    missing = [name for name in players if name not in placed]
    if missing:
        raise InvalidSeating(f"{missing[0]} is in no partnership: each player must be in exactly one")
