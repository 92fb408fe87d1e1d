"""Crates as played around Boston (000), and the Skill-hand World Series with Figgy (000)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import Card, Rank
from ..errors import InvalidSeating, RefereeError
from ..leftovers import LeftoverScore
from ..pressures import FIRST_PRESSURE, pressure_value
from ..threes import not_an_eight, nullify_with_threes, score_with_threes
from .base import SINGLE_HAND, CardAction, OptionSpec, RuleSet, Seating, option

#: 000 "Card Points Table"; the joker's 40 is the Standig Joker adjunct.
#: Threes are scored by the covering rule in ``threes``.
CARD_POINTS = {
    Rank.ACE: 1,
    Rank.TWO: 20,
    Rank.FOUR: 15,
    Rank.FIVE: 30,
    Rank.SIX: 30,
    Rank.SEVEN: 20,
    Rank.EIGHT: 50,
    Rank.NINE: 30,
    Rank.TEN: 25,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.JOKER: 40,
}

#: 000 "The Deal": 8 cards down to 1, then back up to 8.
CRATES_SCHEDULE = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)

_ACTIONS = (
    ("A", "used in a 2-sequence (the count): adds 1"),
    ("2", "starts the count, or adds 2 to it"),
    ("3", "none (covers a card when scoring)"),
    ("4", "skip the next player"),
    ("5", "cards for everyone: each other player draws one, in turn order"),
    ("6", "same player plays again (draws if unable)"),
    ("7", "next player but one takes a card"),
    ("8", "wild: change to any suit"),
    ("9", "wild: change to the other suit of the same colour"),
    ("10", "reverse the direction of play"),
    ("J", "none"),
    ("Q", "none"),
    ("K", "none"),
)
_FEW_PLAYER_ACTIONS = {
    "7": "next player takes a card",
    "J": "previous player takes a card",
}
#: The covering rule (``threes.score_with_threes``) in words, with 000's examples.
COVERING_THREES = (
    "A hand of nothing but threes counts −50 for each three. Otherwise a 3 may cover any card but an 8: "
    "the pair counts 3 and can itself be covered, until no bare 3 remains. Cover the highest cards. "
    "Examples: A 2 3 3 6 8 K = 67 (3→6, 3→2); 3 3 8 = 53; A 3 3 6 7 9 K = 37."
)
#: Creights' cancelling rule (``threes.nullify_with_threes``) in words: the texts' examples agree
#: with Crates; ``3 3 K`` shows the difference (3 in Crates).
CANCELLING_THREES = (
    "A hand of nothing but threes counts −50 for each three. Otherwise each 3 counts 3 and cancels one "
    "other card, any but an 8: a 3 may cancel another 3, but a cancelled card cancels nothing. Cancel the "
    "highest cards. Examples: A 2 3 3 6 8 K = 67 (3→6, 3→2); 3 3 8 = 53; 3 3 K = 6."
)
_JOKER_ACTION = (
    "JK",
    "previous player plays again, direction unchanged; transparent to suit and rank; adds 0 to the count",
)


@dataclass(frozen=True)
class Crates(RuleSet):
    id = "crates"
    name = "Crates"
    #: What a three left in hand does (``threes.py``): covers a card, or cancels one (Creights).
    THREES: ClassVar[str] = "cover"
    summary = (
        "15 hands dealt 8 down to 1 and back to 8; 2 to 5 players alone, or 4 in two partnerships; lowest total wins."
    )
    #: 000 "Ending a hand": a 2-sequence in progress goes on after a player goes out, and "a player
    #: may actually have to draw cards after going out", so others can go out during it.
    one_goes_out = False

    jokers: bool = option(
        False,
        "bool",
        "Jokers (Standig adjunct)",
        "Two jokers per deck, worth 40 when left in hand; a three can cover one.",
    )
    pressure_increase_cap: int | None = option(
        None,
        "optional_int",
        "Pressure increase cap",
        "Blank: each pressure doubles (5, 10, 20, 40, 80). 20: the increase stops at 20 (5, 10, 20, 40, 60, 80).",
        minimum=1,
    )
    decks: int = option(1, "int", "Decks", "One deck, or two shuffled together.", choices=(1, 2))

    def check_seating(self, game: Seating) -> None:
        count = len(game.players)
        if not 2 <= count <= 5:
            raise InvalidSeating(f"{self.name} is for 2 to 5 players, not {count}", "players")
        if game.has_partnerships:
            game.check_partners_opposite()

    def schedule(self) -> tuple[int, ...]:
        return CRATES_SCHEDULE

    def card_points(self, card: Card) -> int:
        """000's table; threes are scored by the covering rule, not by this table."""
        if card.rank is Rank.JOKER and not self.jokers:
            raise RefereeError("a joker is not in the deck: jokers are off")
        return CARD_POINTS[card.rank]

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        return score_with_threes(cards, self.card_points, not_an_eight)

    def pressure_terms(self) -> dict[str, Any] | None:
        return {"first": FIRST_PRESSURE, "cap": self.pressure_increase_cap}

    def leftover_terms(self) -> dict[str, Any]:
        held = [rank for rank in CARD_POINTS if rank is not Rank.JOKER or self.jokers]
        return {"points": {rank.value: CARD_POINTS[rank] for rank in held}, "threes": self.THREES}

    def pressure_value(self, number: int) -> int:
        return pressure_value(number, self.pressure_increase_cap)

    def check_and_score(self, leftovers: Mapping[str, Sequence[Card]]) -> dict[str, LeftoverScore]:
        """No joker unless jokers are on; then the checks of every rule set."""
        for player, cards in leftovers.items():
            if not self.jokers and any(card.rank is Rank.JOKER for card in cards):
                who = "there is" if player == SINGLE_HAND else f"{player} has"
                raise RefereeError(f"{who} a joker, but jokers are off in this game")
        return super().check_and_score(leftovers)

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        """000's table of card actions; with two or three players 7 and J change (000)."""
        few = players <= 3
        actions = [
            CardAction(card, _FEW_PLAYER_ACTIONS.get(card, action) if few else action) for card, action in _ACTIONS
        ]
        if self.jokers:
            actions.append(CardAction(*_JOKER_ACTION))
        return tuple(actions)

    def scoring_rules(self) -> tuple[tuple[str, str], ...]:
        """The threes: the rest of the scoring is the card table beside it."""
        return (("Threes", COVERING_THREES),)

    def option_in_words(self, spec: OptionSpec) -> str:
        if spec.name == "pressure_increase_cap":
            return "none (each pressure doubles)" if self.pressure_increase_cap is None else self.pressures_in_words()
        return super().option_in_words(spec)

    def pressures_in_words(self) -> str:
        cap = self.pressure_increase_cap
        return "doubling" if cap is None else f"increase capped at {cap}"

    def card_values(self) -> tuple[tuple[str, str], ...]:
        values = [
            (rank.value, "3, or covers a card (not an 8); only threes: −50 each")
            if rank is Rank.THREE
            else (rank.value, str(CARD_POINTS[rank]))
            for rank in Rank
            if rank is not Rank.JOKER
        ]
        if self.jokers:
            values.append(("JK", str(CARD_POINTS[Rank.JOKER])))
        return tuple(values)


@dataclass(frozen=True)
class CratesWorldSeries(Crates):
    """000 "Skill-hand World Series": two players and the dummy, hands of 2, 1, 1, 2 cards.

    The rules are those of three-handed Crates; Figgy never deals, starts at -50 and
    never takes a pressure (it goes to the next player to play).
    """

    id = "crates-world-series"
    name = "Crates: Skill-hand World Series"
    #: Every table would need its own dummy: events seat the other games.
    in_events = False
    summary = (
        "Two players and the dummy Figgy; 4 hands of 2, 1, 1, 2 cards; Figgy starts at "
        "-50, never deals and never takes a pressure."
    )

    dummy: str = option("Figgy", "str", "Dummy's name", "The dummy player, conventionally Figgy.")

    def check_seating(self, game: Seating) -> None:
        if len(game.players) != 3 or self.dummy not in game.players:
            raise InvalidSeating(
                f"the World Series is two players and the dummy {self.dummy}: three seats, "
                f"{self.dummy} in one, not {len(game.players)}",
                "players",
            )
        if game.has_partnerships:
            raise InvalidSeating("the World Series has no partnerships", "partnerships")
        if game.first_dealer == self.dummy:
            raise InvalidSeating(f"{self.dummy} never deals: choose another first dealer", "first_dealer")

    def schedule(self) -> tuple[int, ...]:
        return (2, 1, 1, 2)

    def dealers(self, game: Seating) -> tuple[str, ...]:
        return tuple(player for player in game.players if player != self.dummy)

    def starting_score(self, game: Seating, player: str) -> int:
        return -50 if player == self.dummy else 0

    def check_pressure(self, game: Seating, number: int, player: str) -> None:
        if player == self.dummy:
            raise RefereeError(
                f"Hand {number}: {self.dummy} never takes a pressure: it goes to the next player to play"
            )

    def pressure_taker(self, game: Seating, player: str) -> str:
        """A pressure on the dummy goes to the next player to play: the one seated after it."""
        if player != self.dummy:
            return player
        return game.players[(game.players.index(player) + 1) % len(game.players)]

    def joins_by_itself(self) -> str | None:
        return self.dummy


@dataclass(frozen=True)
class Creights(Crates):
    """002 "Creights": Crates' cards and 15 hands, with two differences.

    Its 7 makes every other player except the next one draw a card. Its threes "nullify":
    each three scores 3 and cancels one other card that is not an eight; a three may cancel
    another three, and a cancelled card (a three too) cancels nothing. Only threes: −50 each.
    """

    id = "creights"
    name = "Creights"
    THREES = "cancel"
    summary = "Crates with two changes: a 7 makes all but the next player draw; each three cancels one card."

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        return nullify_with_threes(cards, self.card_points)

    def scoring_rules(self) -> tuple[tuple[str, str], ...]:
        return (("Threes", CANCELLING_THREES),)

    def card_values(self) -> tuple[tuple[str, str], ...]:
        cancels = "3, and cancels a card (not an 8); only threes: −50 each"
        return tuple((rank, cancels if rank == Rank.THREE.value else value) for rank, value in super().card_values())

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        seven = "every other player except the next one draws a card, in turn"
        return tuple(
            CardAction(action.card, seven) if action.card == "7" else action for action in super().card_actions(players)
        )
