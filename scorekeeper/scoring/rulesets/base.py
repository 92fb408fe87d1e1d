"""What every rule set provides: its options as data, and small functions the engine calls.

A rule set class is a frozen dataclass whose fields are its options, so an instance
is a rule set *configured* for one game (``Crates(jokers=True)``). The engine in
``scoring/game.py`` and ``scoring/replay.py`` only calls the methods below; a new
game of the Eights family is a new subclass in a module of its own.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..cards import Card
from ..errors import InvalidOptions
from ..threes import LeftoverScore

if TYPE_CHECKING:
    from ..game import Game


#: The holder's name for leftovers checked on their own, outside any game (the calculator).
SINGLE_HAND = "hand"


@dataclass(frozen=True)
class OptionSpec:
    """How an option is shown and checked; ``kind`` is bool, int, optional_int or str."""

    name: str
    kind: str
    label: str
    help: str
    default: object
    choices: tuple[object, ...] = ()
    minimum: int | None = None


def option(default: object, kind: str, label: str, help: str, **limits: Any) -> Any:
    """Declare a rule-set option as a dataclass field that carries its spec."""
    return dataclasses.field(default=default, metadata={"kind": kind, "label": label, "help": help, **limits})


@dataclass(frozen=True)
class CardAction:
    card: str
    action: str


@dataclass(frozen=True)
class GameColumn:
    """One game of a session scored in columns (Hollywood scoring): each side's points in it,
    and who won it in which hand (None while it is open)."""

    number: int
    totals: Mapping[str, int]
    winner: str | None = None
    won_in_hand: int | None = None


#: What each side scored in each hand so far, in order (the input of the end-of-game hooks).
History = Sequence[Mapping[str, int]]


@dataclass(frozen=True)
class RuleSet(ABC):
    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    lowest_wins: ClassVar[bool] = True
    has_pressures: ClassVar[bool] = True
    #: Crates' 2-sequence ("the count") and its "one card" penalty, which the hand page helps with.
    has_count: ClassVar[bool] = True
    has_one_card_penalty: ClassVar[bool] = True
    #: Whether a card's suit changes its score (the tap pad then asks for it).
    needs_suits: ClassVar[bool] = False
    #: The table an event seats by default (a game for exactly two players says so).
    table_size: ClassVar[int] = 4
    in_events: ClassVar[bool] = True
    #: Whether the start form lists it among the built-in games (house rules come from saved definitions).
    at_the_table: ClassVar[bool] = True

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        specs = []
        for field in dataclasses.fields(cls):
            meta = field.metadata
            specs.append(
                OptionSpec(
                    name=field.name,
                    kind=meta["kind"],
                    label=meta["label"],
                    help=meta["help"],
                    default=field.default,
                    choices=tuple(meta.get("choices", ())),
                    minimum=meta.get("minimum"),
                )
            )
        return tuple(specs)

    @classmethod
    def from_options(cls, raw: Mapping[str, object] | None = None) -> Self:
        """Configure the rule set from a record's ``options`` (absent keys take their defaults)."""
        raw = dict(raw or {})
        specs = {spec.name: spec for spec in cls.option_specs()}
        unknown = sorted(set(raw) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise InvalidOptions(f"{cls.id} has no option {unknown[0]!r} (its options: {known})")
        values = {name: _check_option(specs[name], value) for name, value in raw.items()}
        return cls(**values)

    def options(self) -> dict[str, object]:
        """The options in force, as written in a game record."""
        return {spec.name: getattr(self, spec.name) for spec in self.option_specs()}

    # Seating and the deal -------------------------------------------------

    @abstractmethod
    def check_seating(self, game: Game) -> None:
        """Refuse players, partnerships or a first dealer the game does not allow."""

    @abstractmethod
    def schedule(self) -> tuple[int, ...]:
        """Cards dealt to each player, hand by hand; its length is the number of hands."""

    def dealers(self, game: Game) -> tuple[str, ...]:
        """The players who take turns to deal, in seating order."""
        return game.players

    def max_hands(self) -> int | None:
        """The most hands a game can have; None when it ends on a score instead."""
        return len(self.schedule())

    def cards_dealt(self, number: int, players: int) -> int:
        """Cards dealt to each player in hand ``number``."""
        return self.schedule()[number - 1]

    # Scoring ----------------------------------------------------------------

    @abstractmethod
    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        """Score one player's cards left at the end of a hand."""

    @abstractmethod
    def pressure_value(self, number: int) -> int:
        """The value of a side's ``number``-th pressure of the game."""

    def starting_score(self, game: Game, player: str) -> int:
        return 0

    def hand_points(self, game: Game, scored: Mapping[str, LeftoverScore]) -> dict[str, int]:
        """What each player scores in a hand; by default, the points of their own leftovers."""
        return {player: scored[player].total for player in game.players}

    def is_decided(self, game: Game, totals: Mapping[str, int], history: History) -> bool:
        """Whether the game is over with these side totals after the hands in ``history``."""
        return len(history) == self.max_hands()

    def outright_winners(self, game: Game, totals: Mapping[str, int]) -> tuple[str, ...]:
        """Sides that won a decided game whatever the totals' order says (the 250 game's 500 rule)."""
        return ()

    def columns(self, game: Game, history: History) -> tuple[GameColumn, ...]:
        """The games of a session scored in columns; none for a single game."""
        return ()

    def bonuses(self, game: Game, totals: Mapping[str, int]) -> dict[str, int]:
        """Points added to sides when the game is decided (e.g. Crazy Eights' 100 for the winner)."""
        return {}

    # Referee ------------------------------------------------------------------

    def check_leftovers(self, leftovers: Mapping[str, Sequence[Card]]) -> None:
        """Refuse leftovers (by player) that the cards in play could not have produced."""
        return None

    def check_pressure(self, game: Game, number: int, player: str) -> None:
        """Refuse a pressure the rules do not let this player take."""
        return None

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        """What each card does when played, for this number of players at the table."""
        return ()

    def card_values(self) -> tuple[tuple[str, str], ...]:
        """What each card left in hand scores, as a reference table (rank, points)."""
        return ()

    def uses_jokers(self) -> bool:
        """Whether a joker can be left in hand (the tap pad then offers one)."""
        return bool(getattr(self, "jokers", False))

    def describe(self) -> tuple[tuple[str, str], ...]:
        """The rules in force in words (label, text), where the options alone do not say it."""
        return ()


def _check_option(spec: OptionSpec, value: object) -> object:
    where = f"option {spec.name!r}"
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidOptions(f"{where} must be true or false, not {value!r}")
    elif spec.kind in ("int", "optional_int"):
        if value is None and spec.kind == "optional_int":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(f"{where} must be a whole number, not {value!r}")
        if spec.minimum is not None and value < spec.minimum:
            raise InvalidOptions(f"{where} must be at least {spec.minimum}, not {value}")
    elif spec.kind == "str":
        if not isinstance(value, str) or not value.strip():
            raise InvalidOptions(f"{where} must be a non-empty name, not {value!r}")
    if spec.choices and value not in spec.choices:
        allowed = " or ".join(str(choice) for choice in spec.choices)
        raise InvalidOptions(f"{where} must be {allowed}, not {value!r}")
    return value
