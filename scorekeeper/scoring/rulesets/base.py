"""What every rule set provides: its options as data, and small functions the engine calls.

A rule set class is a frozen dataclass whose fields are its options, so an instance
is a rule set *configured* for one game (``Crates(jokers=True)``). The engine in
``scoring/game.py`` and ``scoring/scorer.py`` only calls the methods below; a new
game of the Eights family is a new subclass in a module of its own.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import Any, ClassVar, Protocol, Self

from ..cards import Card, Rank
from ..errors import InvalidOptions, RefereeError
from ..leftovers import LeftoverScore

#: The holder of leftovers checked on their own, outside any game (the calculator): no name can be blank.
SINGLE_HAND = ""
CARDS_PER_RANK = 4
JOKERS_PER_DECK = 2


class Seating(Protocol):
    """What a rule set asks of a game: who plays in which seats, who deals first, and whether in
    partnerships (``scoring.game.Game`` is one; the rule sets never import it, which imports them)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def first_dealer(self) -> str | None: ...

    @property
    def has_partnerships(self) -> bool: ...

    def check_partners_opposite(self) -> None: ...


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
class Inherent:
    """An option a rule set always has one way (Crazy Aces' jokers): a record may name it, with
    that value only; ``says`` completes "<the rule set's name> ..." in the refusal."""

    value: object
    says: str


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
    """A family's rules: its options as fields, its scoring and refereeing as methods.

    A hand's leftovers are scored several times while one change is checked (the change, the
    hand it joins, the hand scored once complete, the sentence saying what was saved): each
    rule set's ``score_leftovers`` is a pure function of its options and the cards, so its
    results are remembered (``_remembered``).
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    lowest_wins: ClassVar[bool] = True
    has_pressures: ClassVar[bool] = True
    #: Whether the player who goes out collects the others' cards (or each scores their own).
    winner_collects: ClassVar[bool] = False
    #: Games of a session scored at once in columns (Hollywood scoring); 0 for a single game.
    game_columns: ClassVar[int] = 0
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
    #: Whether a hand ends the moment a player goes out, so that only one can. Crates' count goes
    #: on after someone goes out, and others may go out during it.
    one_goes_out: ClassVar[bool] = True
    #: Options the rule set does not offer because it always has them one way; a record may
    #: still name them, with that value (``options()`` does not write them).
    inherent_options: ClassVar[Mapping[str, Inherent]] = {}

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
        for name in set(raw) - set(specs):
            if name in cls.inherent_options:
                _check_inherent(cls.name, name, cls.inherent_options[name], raw.pop(name))
        unknown = sorted(set(raw) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise InvalidOptions(f"{cls.id} has no option {unknown[0]!r} (its options: {known})", unknown[0])
        values = {name: _check_option(specs[name], value) for name, value in raw.items()}
        return cls(**values)

    def options(self) -> dict[str, object]:
        """The options in force, as written in a game record."""
        return {spec.name: getattr(self, spec.name) for spec in self.option_specs()}

    # Seating and the deal -------------------------------------------------

    @abstractmethod
    def check_seating(self, game: Seating) -> None:
        """Refuse players, partnerships or a first dealer the game does not allow."""

    @abstractmethod
    def schedule(self) -> tuple[int, ...]:
        """Cards dealt to each player, hand by hand; its length is the number of hands."""

    def dealers(self, game: Seating) -> tuple[str, ...]:
        """The players who take turns to deal, in seating order."""
        return game.players

    def max_hands(self) -> int | None:
        """The most hands a game can have; None when it ends on a score instead."""
        return len(self.schedule())

    def cards_dealt(self, number: int, players: int) -> int:
        """Cards dealt to each player in hand ``number``."""
        return self.schedule()[number - 1]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("score_leftovers")
        if own is not None and not getattr(own, "__isabstractmethod__", False):
            cls.score_leftovers = _remembered(own)  # type: ignore[method-assign,assignment]

    # Scoring ----------------------------------------------------------------

    @abstractmethod
    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        """Score one player's cards left at the end of a hand."""

    @abstractmethod
    def pressure_value(self, number: int) -> int:
        """The value of a side's ``number``-th pressure of the game."""

    def starting_score(self, game: Seating, player: str) -> int:
        return 0

    def hand_points(self, game: Seating, scored: Mapping[str, LeftoverScore]) -> dict[str, int]:
        """What each player scores in a hand; by default, the points of their own leftovers."""
        return {player: scored[player].total for player in game.players}

    def is_decided(self, game: Seating, totals: Mapping[str, int], history: History) -> bool:
        """Whether the game is over with these side totals after the hands in ``history``."""
        return len(history) == self.max_hands()

    def outright_winners(self, game: Seating, totals: Mapping[str, int]) -> tuple[str, ...]:
        """Sides that won a decided game whatever the totals' order says (the 250 game's 500 rule)."""
        return ()

    def columns(self, game: Seating, history: History) -> tuple[GameColumn, ...]:
        """The games of a session scored in columns; none for a single game."""
        return ()

    def bonuses(self, game: Seating, totals: Mapping[str, int]) -> dict[str, int]:
        """Points added to sides when the game is decided (e.g. Crazy Eights' 100 for the winner)."""
        return {}

    # Referee ------------------------------------------------------------------

    def check_leftovers(self, leftovers: Mapping[str, Sequence[Card]]) -> None:
        """Refuse leftovers (by player) that the cards in play could not have produced.

        ``leftovers`` may be some players of a hand only (a hand being entered), or one hand
        under ``SINGLE_HAND`` (the calculator). Every card the scoring would refuse is refused
        here, with the scoring's own message, so that leftovers accepted are leftovers scored.
        """
        self.check_and_score(leftovers)

    def check_and_score(self, leftovers: Mapping[str, Sequence[Card]]) -> dict[str, LeftoverScore]:
        """``check_leftovers``, keeping each player's score: a replay then scores each hand once.
        A rule set adds its own checks here."""
        scored: dict[str, LeftoverScore] = {}
        for player, cards in leftovers.items():
            try:
                scored[player] = self.score_leftovers(cards)
            except RefereeError as error:
                raise RefereeError(str(error) if player == SINGLE_HAND else f"{player}'s cards: {error}") from None
        check_deck(leftovers, self.decks_in_play(), JOKERS_PER_DECK if self.uses_jokers() else 0)
        if self.one_goes_out:
            check_one_out(leftovers)
        return scored

    def check_pressure(self, game: Seating, number: int, player: str) -> None:
        """Refuse a pressure the rules do not let this player take."""
        return None

    def pressure_taker(self, game: Seating, player: str) -> str:
        """Who takes a pressure called on ``player``: the player, unless the rules pass it on."""
        return player

    def joins_by_itself(self) -> str | None:
        """A player the rules seat in every game (the World Series' dummy), or None."""
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

    def decks_in_play(self) -> int:
        """How many decks are shuffled together: what limits the copies of a card in the leftovers."""
        return int(getattr(self, "decks", 1))

    def describe(self) -> tuple[tuple[str, str], ...]:
        """The rules in force in words (label, text), where the options alone do not say it."""
        return ()

    # Describing itself to the phone -------------------------------------------
    # ``scoring/rulebook.py`` gathers these into the data a phone's scorer reads (the browser
    # runs no rule of its own): a rule set says its card values and how a hand and a game are
    # scored in the vocabulary below, and a differential test holds the phone to the engine.

    def leftover_terms(self) -> dict[str, Any]:
        """How one player's leftovers score: ``points`` by rank (``JK`` where jokers are held),
        ``special`` suited cards (``QS``), ``threes`` (``cover`` or ``cancel``), ``steps``
        (``deuces_and_pairs``), ``suits`` (``all`` when every card needs its suit)."""
        raise NotImplementedError(f"{self.id} does not describe its leftovers to the phone")

    def end_terms(self, game: Seating) -> dict[str, Any]:
        """How the game ends: ``{"hands": n}``, ``{"target": points, "bonus": points}``,
        ``{"loss_line": points, "outright": points or None}``, or ``{"columns": n, "target": points}``."""
        most = self.max_hands()
        if most is None:
            raise NotImplementedError(f"{self.id} does not describe its end to the phone")
        return {"hands": most}

    def pressure_terms(self) -> dict[str, Any] | None:
        """A side's pressures: ``{"first": points, "cap": the most one may add, or None: doubling}``;
        None where the game has none."""
        return None

    def collect_terms(self) -> str | None:
        """What the player who goes out collects from each other hand (``points`` or ``cards``),
        or None where each player scores their own leftovers."""
        return None

    # Describing itself --------------------------------------------------------
    # The rules card, the blank sheet, the score sheet and the rules page print what these
    # say; none of them asks which rule set it has. The defaults describe the defaults above
    # (each player's own cards, the lowest total after the schedule): a rule set that changes
    # how it scores or ends says so here too.

    def how_it_scores(self) -> str:
        """How a hand is scored and who collects its points, in sentences."""
        return "Each player scores the cards left in their own hand."

    def blocked_hand(self) -> str | None:
        """How a blocked hand (the stock is out and nobody can play) is settled, in a sentence;
        None where the rules have none (Crates' pressures reshuffle the stock)."""
        return None

    def how_it_is_won(self) -> str | None:
        """How the game ends and who wins, in a sentence."""
        hands = self.max_hands()
        if hands is None:
            return None
        counted = "1 hand" if hands == 1 else f"{hands} hands"
        return f"After {counted} the {'lowest' if self.lowest_wins else 'highest'} total wins."

    def scoring_rules(self) -> tuple[tuple[str, str], ...]:
        """What the printed reference says of scoring: paragraphs (title, text), a title may be empty."""
        said = (self.how_it_scores(), self.blocked_hand(), self.how_it_is_won())
        return (("Scoring", " ".join(part for part in said if part)),)

    @property
    def threes_verb(self) -> str:
        """What a three does to the card it takes, in the rules' own word ("cancels" or "covers"):
        the verb of the legend beside a hand's covering of threes."""
        return "cancels" if "cancels" in dict(self.scoring_rules()).get("Threes", "") else "covers"

    def option_in_words(self, spec: OptionSpec) -> str:
        """An option's value as a player reads it on a sheet."""
        value = getattr(self, spec.name)
        if spec.kind == "bool":
            return "on" if value else "off"
        return str(value)

    def options_in_words(self) -> tuple[tuple[str, str], ...]:
        """Every option in force (label, value in words); the rules in words where ``describe`` gives them."""
        return self.describe() or tuple((spec.label, self.option_in_words(spec)) for spec in self.option_specs())

    def pressures_in_words(self) -> str:
        """How a side's pressures grow through the game."""
        return "doubling" if self.has_pressures else "off"


def check_deck(leftovers: Mapping[str, Sequence[Card]], decks: int, jokers_per_deck: int) -> None:
    """No more copies of a rank than the decks hold (four a deck; jokers as the game has them),
    and no suited card (``Q♠``) more often than there are decks."""
    held = [card for cards in leftovers.values() for card in cards]
    for rank, count in Counter(card.rank for card in held).items():
        limit = decks * (jokers_per_deck if rank is Rank.JOKER else CARDS_PER_RANK)
        if count > limit:
            holders = [player for player, cards in leftovers.items() if any(card.rank is rank for card in cards)]
            raise RefereeError(_too_many(f"{count} × {rank.value}", limit, decks, holders))
    for card, count in Counter(card for card in held if card.suit is not None).items():
        if count > decks:
            holders = [player for player, cards in leftovers.items() if card in cards]
            raise RefereeError(_too_many(f"{count} × {card.label}", decks, decks, holders))


def _too_many(what: str, limit: int, decks: int, holders: list[str]) -> str:
    """E.g. "5 × K in the leftovers, but one deck has only 4. Check Bob's and Di's cards."

    ``holders`` are the players holding the card; a single hand (from the calculator) is
    named as such.
    """
    held = "one deck has" if decks == 1 else f"{decks} decks have"
    if len(holders) == 1 and holders[0] == SINGLE_HAND:
        return f"{what} in one hand, but {held} only {limit}"
    names = " and ".join(f"{player}'s" for player in holders)
    return f"{what} in the leftovers, but {held} only {limit}. Check {names} cards."


def check_one_out(leftovers: Mapping[str, Sequence[Card]]) -> None:
    """Only one player can go out in a hand that ends when someone goes out."""
    empty = [player for player, cards in leftovers.items() if not cards]
    if len(empty) > 1 and SINGLE_HAND not in leftovers:
        raise RefereeError(f"only one player can go out, but {' and '.join(empty)} have no cards")


def _check_inherent(rules: str, name: str, inherent: Inherent, value: object) -> None:
    if type(value) is not type(inherent.value) or value != inherent.value:
        raise InvalidOptions(
            f"{rules} {inherent.says}: option {name!r} cannot be {json.dumps(value, default=repr)}", name
        )


def _check_option(spec: OptionSpec, value: object) -> object:
    where = f"option {spec.name!r}"
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidOptions(f"{where} must be true or false, not {value!r}", spec.name)
    elif spec.kind in ("int", "optional_int"):
        if value is None and spec.kind == "optional_int":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(f"{where} must be a whole number, not {value!r}", spec.name)
        if spec.minimum is not None and value < spec.minimum:
            raise InvalidOptions(f"{where} must be at least {spec.minimum}, not {value}", spec.name)
    elif spec.kind == "str":
        if not isinstance(value, str) or not value.strip():
            raise InvalidOptions(f"{where} must be a non-empty name, not {value!r}", spec.name)
    if spec.choices and value not in spec.choices:
        allowed = " or ".join(str(choice) for choice in spec.choices)
        raise InvalidOptions(f"{where} must be {allowed}, not {value!r}", spec.name)
    return value


_ScoreLeftovers = Callable[[RuleSet, Sequence[Card]], LeftoverScore]


def _remembered(score: _ScoreLeftovers) -> _ScoreLeftovers:
    """``score`` remembering its last few thousand results (by rule set and cards); a rule set whose
    options cannot be hashed (a house game's tables) is scored afresh each time. Refusals are not
    remembered: they are raised again."""
    known = lru_cache(maxsize=4096)(lambda rules, cards: score(rules, cards))

    @wraps(score)
    def remembered(rules: RuleSet, cards: Sequence[Card]) -> LeftoverScore:
        try:
            result: LeftoverScore = known(rules, tuple(cards))
        except TypeError as error:
            if "unhashable" not in str(error):
                raise
            return score(rules, cards)
        return result

    return remembered
