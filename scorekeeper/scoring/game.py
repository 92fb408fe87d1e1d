"""Who plays under which rules, and what one hand left behind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .cards import Card
from .errors import InvalidSeating
from .rulesets.base import RuleSet

FOUR_IN_TWO_PAIRS = "partnerships are for four players, in two pairs"


def partners_opposite(seats: Sequence[str]) -> tuple[tuple[str, str], tuple[str, str]]:
    """Partners sit opposite: at a table of four (clockwise seating order), seats 1 and 3 play
    against seats 2 and 4. Decided here only: the start form, the rule sets' seating check and
    an event's tables all ask this function (or ``seated_opposite``, its inverse)."""
    if len(seats) != 4:
        raise InvalidSeating(FOUR_IN_TWO_PAIRS, "partnerships")
    return (seats[0], seats[2]), (seats[1], seats[3])


def seated_opposite(pair: Sequence[str], other: Sequence[str]) -> list[str]:
    """The clockwise seats of a table of four for two pairs of partners: ``partners_opposite``
    of them is ``(pair, other)`` again."""
    (first, partner), (second, other_partner) = pair, other
    return [first, second, partner, other_partner]


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
            raise InvalidSeating(f"the first dealer {self.first_dealer!r} is not a player of this game", "first_dealer")
        _check_side_names(self.sides)
        self.rules.check_seating(self)

    def check_partners_opposite(self) -> None:
        """Refuse partnerships unless they are the two pairs ``partners_opposite`` seats: the rule
        of every game here that has partnerships."""
        if len(self.partnerships) != 2 or any(len(team) != 2 for team in self.partnerships):
            raise InvalidSeating(FOUR_IN_TWO_PAIRS, "partnerships")
        opposite = {frozenset(pair) for pair in partners_opposite(self.players)}
        for first, second in self.partnerships:
            if frozenset((first, second)) not in opposite:
                raise InvalidSeating(
                    f"partners sit opposite: {first} and {second} are seated next to each other", "partnerships"
                )

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
        raise InvalidSeating("a game needs players", "players")
    seen: dict[str, str] = {}
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InvalidSeating("every player needs a name", "players")
        if name != name.strip():
            raise InvalidSeating(f"the name {name!r} starts or ends with a space", "players")
        key = name.casefold()
        if key in seen:
            raise InvalidSeating(f"two players are called {name!r}: give each a different name", "players")
        seen[key] = name


def _check_side_names(sides: tuple[Side, ...]) -> None:
    """Sides are told apart by name (totals, standings, the replay output), so no two may share
    one, even in another case: "A & B" with C and A with "B & C" would both be "A & B & C"."""
    seen: dict[str, Side] = {}
    for side in sides:
        other = seen.setdefault(side.name.casefold(), side)
        if other is not side:
            teams = " and ".join(" with ".join(repr(name) for name in team.members) for team in (other, side))
            raise InvalidSeating(
                f"the partnerships {teams} would both be called {side.name!r} on the score sheet: "
                "rename a player so that each side has a name of its own",
                "players",
            )


def _check_partnerships(players: tuple[str, ...], partnerships: tuple[tuple[str, ...], ...]) -> None:
    if not partnerships:
        return
    placed: list[str] = []
    for team in partnerships:
        for name in team:
            if name not in players:
                raise InvalidSeating(f"partnership member {name!r} is not a player of this game", "partnerships")
            if name in placed:
                raise InvalidSeating(f"{name} is in two partnerships", "partnerships")
            placed.append(name)
    missing = [name for name in players if name not in placed]
    if missing:
        raise InvalidSeating(f"{missing[0]} is in no partnership: each player must be in exactly one", "partnerships")


def with_joiner(rules: RuleSet, names: Sequence[str]) -> tuple[str, ...]:
    """The names in seating order, and after them the player the rules seat by themselves (the
    World Series' dummy) unless named already: how the start form and the blank sheet seat a table."""
    joining = rules.joins_by_itself()
    if joining and joining.casefold() not in {name.casefold() for name in names}:
        return (*names, joining)
    return tuple(names)


def usual_table(rules: RuleSet) -> int:
    """How many a blank sheet seats when nobody says: four where the game allows it, else the
    fewest it allows (Hollywood Eights, the World Series: two)."""
    for players in (4, 2, 3, 5):
        try:
            blank_table(rules, players)
        except InvalidSeating:
            continue
        return players
    return 4


def blank_table(rules: RuleSet, players: int) -> Game:
    """A table of ``players`` unnamed seats ("Seat 1", ...) and any player the rules seat by
    themselves; InvalidSeating, from the rule set's own check, when the game is not for that many."""
    return Game(rules, with_joiner(rules, [f"Seat {number}" for number in range(1, players + 1)]))
