"""Crazy Eights and relatives where the hand's winner collects the points left in the other hands.

Sources: 002 "Eights" (game to 100, a 100-point bonus, blocked hands), its Crazy Aces and
Crazy Jacks; 001's how-to (targets of 100, 200, 300 by players), Crazy Pairs (to 300)
and the Zodiac game (a point per card, to 55). Players play alone; there are no pressures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..cards import Card, Rank
from ..errors import RefereeError
from ..leftovers import LeftoverScore, ScoredCard
from .base import CardAction, GameColumn, History, Inherent, Seating, option
from .to_a_score import PlayedToAScore, winner_collects

#: 002 "Scoring for cards remaining in the hand": pictures 10, eights 50, others face value (A 1).
EIGHTS_POINTS: Mapping[Rank, int] = {
    Rank.ACE: 1,
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 50,
    Rank.NINE: 9,
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
}


@dataclass(frozen=True)
class CrazyEights(PlayedToAScore):
    """002 "Eights": the winner collects; the first to reach the target at the end of a hand wins,
    with a 100-point bonus. A blocked hand (nobody goes out): the lowest count wins it and
    collects the difference from each other player."""

    id = "crazy-eights"
    name = "Crazy Eights"
    summary = "The hand's winner collects the others' cards; first to 100 wins, +100 bonus."
    lowest_wins = False
    winner_collects = True

    POINTS: ClassVar[Mapping[Rank, int]] = EIGHTS_POINTS
    JOKERS_PER_DECK: ClassVar[int] = 0
    WIN_BONUS: ClassVar[int] = 100
    WILD: ClassVar[str] = "8"
    inherent_options = {"jokers": Inherent(False, "has no jokers")}

    target: int | None = option(100, "optional_int", "Game to", "The score that wins the game.", minimum=1)
    decks: int = option(1, "int", "Decks", "One deck, or two for six or more players.", choices=(1, 2))

    def cards_dealt(self, number: int, players: int) -> int:
        """002: seven cards each for two players, five for more."""
        return 7 if players == 2 else 5

    def goal(self, players: int) -> int:
        return self.target or 100

    def uses_jokers(self) -> bool:
        return self.JOKERS_PER_DECK > 0

    def card_points(self, card: Card) -> int:
        if card.rank is Rank.JOKER and not self.JOKERS_PER_DECK:
            raise RefereeError(f"{self.name} has no jokers")
        return self.POINTS[card.rank]

    def score_leftovers(self, cards: Sequence[Card]) -> LeftoverScore:
        """The count of a hand: the sum of its cards."""
        scored = tuple(ScoredCard(card, self.card_points(card)) for card in cards)
        return LeftoverScore(tuple(cards), sum(item.points for item in scored), uncovered=scored)

    def hand_points(self, game: Seating, scored: Mapping[str, LeftoverScore]) -> dict[str, int]:
        """The player who went out collects everyone's count; blocked, the lowest count collects differences."""
        return winner_collects(game, scored, self._collected)

    def leftover_terms(self) -> dict[str, Any]:
        held = [rank for rank in self.POINTS if rank is not Rank.JOKER or self.JOKERS_PER_DECK]
        return {"points": {rank.value: self.POINTS[rank] for rank in held}}

    def collect_terms(self) -> str | None:
        return "points"

    def end_terms(self, game: Seating) -> dict[str, Any]:
        return {"target": self.goal(len(game.players)), "bonus": self.WIN_BONUS}

    def _collected(self, leftovers: LeftoverScore) -> int:
        return leftovers.total

    def is_decided(self, game: Seating, totals: Mapping[str, int], history: History) -> bool:
        return max(totals.values()) >= self.goal(len(game.players))

    def bonuses(self, game: Seating, totals: Mapping[str, int]) -> dict[str, int]:
        goal = self.goal(len(game.players))
        return {side: self.WIN_BONUS for side, total in totals.items() if total >= goal and self.WIN_BONUS}

    def card_actions(self, players: int) -> tuple[CardAction, ...]:
        return (CardAction(self.WILD, "wild: play it on any card and name the suit to follow"),)

    def how_it_scores(self) -> str:
        return "The player who goes out collects the count of every other hand."

    def blocked_hand(self) -> str | None:
        return (
            "Blocked (the stock is out and nobody can play): the lowest count collects from each other player "
            "the difference."
        )

    def how_it_is_won(self) -> str | None:
        bonus = f", with a {self.WIN_BONUS}-point bonus" if self.WIN_BONUS else ""
        return f"The first to reach {self._goal_in_words()} at the end of a hand wins{bonus}."

    def _goal_in_words(self) -> str:
        return str(self.goal(2))

    def card_values(self) -> tuple[tuple[str, str], ...]:
        values = [(rank.value, str(points)) for rank, points in self.POINTS.items() if rank is not Rank.JOKER]
        if self.JOKERS_PER_DECK:
            values.append((Rank.JOKER.value, str(self.POINTS[Rank.JOKER])))
        return tuple(values)


@dataclass(frozen=True)
class CrazyEightsTarget(CrazyEights):
    """001's how-to: the winner collects; the target is agreed before the game, typically 100
    for two players, 200 for four and 300 for six (50 a player beyond two). No bonus."""

    id = "crazy-eights-target"
    name = "Crazy Eights to a target"
    summary = "The hand's winner collects; the target is 100 for two players, 200 for four, 300 for six."
    WIN_BONUS = 0

    target: int | None = option(
        None,
        "optional_int",
        "Game to",
        "Blank: 100 for two players, +50 a player (200 for four, 300 for six).",
        minimum=1,
    )

    def goal(self, players: int) -> int:
        return self.target or 100 + 50 * (players - 2)

    def _goal_in_words(self) -> str:
        return str(self.target) if self.target else "100 for two players, +50 a player"


@dataclass(frozen=True)
class CrazyAces(CrazyEights):
    """002 "Crazy Aces": aces are wild and count 25, jokers (two a deck) act as eights did and count 50,
    eights are ordinary and count 8. Otherwise Crazy Eights."""

    id = "crazy-aces"
    name = "Crazy Aces"
    summary = "Aces wild (25), jokers 50, eights 8; otherwise Crazy Eights."
    POINTS = {**EIGHTS_POINTS, Rank.ACE: 25, Rank.EIGHT: 8, Rank.JOKER: 50}
    JOKERS_PER_DECK = 2
    WILD = "A, JK"
    inherent_options = {"jokers": Inherent(True, "always has jokers, two a deck")}
    MAX_PLAYERS = 10


@dataclass(frozen=True)
class CrazyJacks(CrazyEights):
    """002 "Crazy Jacks": jacks are wild and count 50; eights are ordinary and count 8."""

    id = "crazy-jacks"
    name = "Crazy Jacks"
    summary = "Jacks wild (50), eights 8; otherwise Crazy Eights."
    POINTS = {**EIGHTS_POINTS, Rank.JACK: 50, Rank.EIGHT: 8}
    WILD = "J"


@dataclass(frozen=True)
class CrazyPairs(CrazyEights):
    """001 "Crazy Pairs": the winner collects; the first to 300 wins. The text gives no card values,
    so these are Crazy Eights' (8 = 50, pictures 10, others face value); no bonus is mentioned."""

    id = "crazy-pairs"
    name = "Crazy Pairs"
    summary = "Crazy Eights where pairs may be played together; the winner collects, first to 300 wins."
    WIN_BONUS = 0
    target: int | None = option(300, "optional_int", "Game to", "The score that wins the game.", minimum=1)


@dataclass(frozen=True)
class Zodiac(CrazyEights):
    """001's Zodiac game: the player who goes out scores 1 point for each card the opponents hold;
    the first to 55 wins."""

    id = "zodiac"
    name = "Zodiac"
    summary = "The winner scores a point for each card the others hold; first to 55 wins."
    WIN_BONUS = 0
    target: int | None = option(55, "optional_int", "Game to", "The score that wins the game.", minimum=1)

    def _collected(self, leftovers: LeftoverScore) -> int:
        return len(leftovers.cards)

    def collect_terms(self) -> str | None:
        return "cards"

    def how_it_scores(self) -> str:
        return "The player who goes out collects the count of every other hand (a point a card)."


#: 002 Hollywood scoring: "Each eight is 20, each Ace is 15, Picture cards ... 10 each and the
#: point value for the remainder of the cards is the rank value listed on the card."
HOLLYWOOD_POINTS: Mapping[Rank, int] = {**EIGHTS_POINTS, Rank.ACE: 15, Rank.EIGHT: 20}
HOLLYWOOD_COLUMNS = 3


@dataclass(frozen=True)
class HollywoodEights(CrazyEights):
    """002 "Hollywood Scoring", for two players: Crazy Eights played as three games at once.

    A player's first winning hand is entered in game 1, the second in games 1 and 2, the third
    and later in all three; a game closes when someone reaches the target in it at the end of
    a hand, and takes no more points. The session ends when all three games are won.
    """

    id = "hollywood-eights"
    name = "Hollywood Eights"
    summary = "Two players, three games scored at once as in Hollywood Gin; eights 20, aces 15."
    POINTS = HOLLYWOOD_POINTS
    WIN_BONUS = 0
    MAX_PLAYERS = 2
    table_size = 2
    game_columns = HOLLYWOOD_COLUMNS

    target: int | None = option(100, "optional_int", "Game to", "The score that wins each game.", minimum=1)

    def is_decided(self, game: Seating, totals: Mapping[str, int], history: History) -> bool:
        return all(column.winner is not None for column in self.columns(game, history))

    def end_terms(self, game: Seating) -> dict[str, Any]:
        return {"columns": HOLLYWOOD_COLUMNS, "target": self.goal(len(game.players))}

    def columns(self, game: Seating, history: History) -> tuple[GameColumn, ...]:
        """Replay the session column by column; a hand's winner is the player who scored in it."""
        goal = self.goal(len(game.players))
        totals = [dict.fromkeys(game.players, 0) for _ in range(HOLLYWOOD_COLUMNS)]
        winners: list[tuple[str, int] | None] = [None] * HOLLYWOOD_COLUMNS
        wins: Counter[str] = Counter()
        for number, points in enumerate(history, start=1):
            for player, scored in points.items():
                if scored <= 0:
                    continue
                wins[player] += 1
                for column in range(min(wins[player], HOLLYWOOD_COLUMNS)):
                    if winners[column] is None:
                        totals[column][player] += scored
            for column, column_totals in enumerate(totals):
                leader = max(column_totals, key=lambda player: column_totals[player])
                if winners[column] is None and column_totals[leader] >= goal:
                    winners[column] = (leader, number)
        return tuple(
            GameColumn(index + 1, totals[index], *(winners[index] or (None, None)))
            for index in range(HOLLYWOOD_COLUMNS)
        )

    def bonuses(self, game: Seating, totals: Mapping[str, int]) -> dict[str, int]:
        return {}

    def how_it_is_won(self) -> str | None:
        return (
            "A player's first winning hand counts in game 1, the second in games 1 and 2, later ones in every "
            f"open game. A game closes when someone reaches {self.goal(2)} in it; the session ends when all "
            "three are won, by the player who won more of them."
        )

    def scoring_rules(self) -> tuple[tuple[str, str], ...]:
        """The hands as in Crazy Eights, then the three games in a paragraph of their own."""
        hands = " ".join(part for part in (self.how_it_scores(), self.blocked_hand()) if part)
        return (("Scoring", hands), ("Three games at once", self.how_it_is_won() or ""))
